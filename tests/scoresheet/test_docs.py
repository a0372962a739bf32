"""docs/scoresheet.md stays true: its complete example, run as the page shows
it, prints the page shown and writes the CSV shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from cardcli.cli import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoresheet.md"


def blocks() -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_complete_example_prints_what_the_page_shows(tmp_path, monkeypatch):
    found = blocks()
    words = next(b for b in found if b.startswith("# End of the Page at the kitchen table"))
    console = next(b for b in found if b.startswith("$ cardcli scoresheet"))
    csv = next(b for b in found if b.startswith("round,dealer,wild"))
    command, *shown = console.splitlines()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evening.txt").write_text(words)
    args = shlex.split(command.removeprefix("$ cardcli "))
    result = CliRunner().invoke(cli, args, env={"CARDCLI_SHEETS": str(tmp_path / "sheets")})
    assert result.exit_code == 0, result.output
    printed = result.output.splitlines()
    assert printed[:-1] == shown[:-1]  # the last line names where the sheet is kept
    assert printed[-1].startswith("The sheet is kept in ") and shown[-1].startswith("The sheet is kept in ")
    assert (tmp_path / "evening.csv").read_text() == csv


def test_the_example_in_japanese_gives_the_same_page(tmp_path, monkeypatch):
    found = blocks()
    english = next(b for b in found if b.startswith("# End of the Page at the kitchen table"))
    japanese = next(b for b in found if b.startswith("# エンド・オブ・ザ・ページ"))
    monkeypatch.chdir(tmp_path)
    csvs = []
    for number, words in enumerate((english, japanese)):
        (tmp_path / f"evening{number}.txt").write_text(words, encoding="utf-8")
        args = ["scoresheet", "endofpage", "--players", "mom,me,dad", "--dealer", "dad", "--page-lines", "3",
                "--input", f"evening{number}.txt", "--csv", f"evening{number}.csv"]
        result = CliRunner().invoke(cli, args, env={"CARDCLI_SHEETS": str(tmp_path / "sheets")})
        assert result.exit_code == 0, result.output
        csvs.append((tmp_path / f"evening{number}.csv").read_text())
    assert csvs[0] == csvs[1]


def test_the_sheet_in_japanese_writes_the_same_json_and_csv(tmp_path, monkeypatch):
    """--json and --csv are interfaces: English whatever the language the page is shown in."""
    from cardcli.cli import language

    found = blocks()
    japanese = next(b for b in found if b.startswith("# エンド・オブ・ザ・ページ"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evening.txt").write_text(japanese, encoding="utf-8")
    outputs = []
    try:
        for lang in ("en", "ja"):
            args = ["--lang", lang, "scoresheet", "endofpage", "--players", "mom,me,dad", "--dealer", "dad",
                    "--page-lines", "3", "--input", "evening.txt", "--json", f"{lang}.json",
                    "--csv", f"{lang}.csv"]
            result = CliRunner().invoke(cli, args, env={"CARDCLI_SHEETS": str(tmp_path / "sheets")})
            assert result.exit_code == 0, result.output
            outputs.append(((tmp_path / f"{lang}.json").read_text(), (tmp_path / f"{lang}.csv").read_text()))
            if lang == "ja":
                assert "合計" in result.output or "ラウンド" in result.output  # the page itself is Japanese
    finally:
        language.start(["--lang", "en"])
    assert outputs[0] == outputs[1]
