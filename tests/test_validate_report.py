"""The report of ``cardcli validate`` is what docs/records.md and ``--help`` say."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.kit.errors import Kind

DOC = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def example_files(folder: Path) -> list[str]:
    """a.jsonl, b.jsonl and c.jsonl as the report section describes them."""
    game = re.search(r"## A complete matching game.*?```json\n(.*?)```", doc_text(), re.S)
    assert game is not None
    lines = game.group(1).splitlines()
    wrong_seat = [*lines[:5], '{"seat": 0, "move": "draw"}', *lines[6:]]
    for name, body in (("a", lines), ("b", wrong_seat), ("c", lines[:12])):
        (folder / f"{name}.jsonl").write_text("\n".join(body) + "\n", encoding="utf-8")
    return ["a.jsonl", "b.jsonl", "c.jsonl"]


def documented_output(command: str) -> list[str]:
    block = re.search(rf"```text\n\$ {re.escape(command)}\n(.*?)```", doc_text(), re.S)
    assert block is not None, f"records.md shows no output of {command!r}"
    return block.group(1).splitlines()


def test_the_documented_reports_are_what_validate_prints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files = example_files(tmp_path)
    result = CliRunner().invoke(cli, ["validate", *files])
    assert result.exit_code == 1
    shown = documented_output("cardcli validate a.jsonl b.jsonl c.jsonl")
    assert result.stdout.splitlines() == shown[:1]
    assert result.stderr.splitlines() == shown[1:]
    result = CliRunner().invoke(cli, ["validate", "--json", *files])
    assert result.exit_code == 1
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert printed == [json.loads(line) for line in
                       documented_output("cardcli validate --json a.jsonl b.jsonl c.jsonl")]
    assert result.stdout.splitlines() == documented_output("cardcli validate --json a.jsonl b.jsonl c.jsonl")


def test_every_error_kind_is_documented():
    sources = (Path(__file__).resolve().parents[1] / "src" / "cardcli").rglob("*.py")
    code = "".join(text for path in sources if "RecordError" in (text := path.read_text(encoding="utf-8")))
    kinds = {Kind[name].value for name in re.findall(r"Kind\.([A-Z_]+)", code)} - {"invalid"}
    assert kinds == {kind.value for kind in Kind} - {"invalid"}, "a kind the code never raises"
    table = doc_text().split("The `kind` of an error:")[1].split("\n\n")[1]
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", table, re.M))
    assert kinds <= documented, kinds - documented
    assert documented <= kinds | {"invalid"}, documented - kinds


def test_help_describes_the_json_report():
    text = CliRunner().invoke(cli, ["validate", "--help"]).output
    for words in ("JSON Lines", '"summary"', '"unfinished"', "as soon as it is checked", "docs/records.md"):
        assert words in text


def test_the_missing_result_line_reads_as_documented(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    example_files(tmp_path)
    lines = Path("a.jsonl").read_text(encoding="utf-8").splitlines()
    Path("game.jsonl").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    printed = CliRunner().invoke(cli, ["validate", "game.jsonl"]).stderr.strip()
    section = doc_text().split("## The result line")[1].split("\n## ")[0]
    assert printed in section.splitlines(), printed
