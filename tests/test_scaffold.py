"""``cardcli new-variant``: the package it writes is complete and works as generated;
bad input gets one clear message and writes nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli, scaffold
from cardcli.engine import plugins

ROOT = Path(__file__).resolve().parents[1]

EXPECTED = {
    "pyproject.toml", "README.md", "docs/toy.md",
    "cardcli_toy/__init__.py", "cardcli_toy/plugin.py", "cardcli_toy/config.py", "cardcli_toy/state.py",
    "cardcli_toy/variant.py", "cardcli_toy/dialogue.py", "cardcli_toy/cpu.py", "cardcli_toy/py.typed",
    "cardcli_toy/rulesets/toy-standard.toml", "cardcli_toy/rulesets/toy-left-opens.toml",
    "tests/test_conformance.py", "tests/test_rules.py", "tests/golden/README.md",
}


def new_variant(*args: str) -> object:
    return CliRunner().invoke(cli, ["new-variant", *args])


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A generated plugin called toy, importable and registered as if installed."""
    folder = tmp_path / "cardcli-toy"
    result = new_variant("toy", str(folder))
    assert result.exit_code == 0, result.output
    monkeypatch.syspath_prepend(str(folder))
    for module in [m for m in sys.modules if m == "cardcli_toy" or m.startswith("cardcli_toy.")]:
        monkeypatch.delitem(sys.modules, module)
    real = plugins._entry_points
    entry = metadata.EntryPoint("toy", "cardcli_toy.plugin", plugins.ENTRY_POINT_GROUP)
    monkeypatch.setattr(plugins, "_entry_points", lambda: [*real(), entry])
    plugins.reset_registry()
    yield folder
    plugins.reset_registry()
    for module in [m for m in sys.modules if m == "cardcli_toy" or m.startswith("cardcli_toy.")]:
        del sys.modules[module]


def test_the_package_is_complete(toy):
    files = {str(path.relative_to(toy)) for path in toy.rglob("*") if path.is_file()}
    assert files >= EXPECTED
    assert {f for f in files if f.startswith("tests/golden/") and f.endswith(".jsonl")}
    for name in files:
        text = (toy / name).read_text(encoding="utf-8")
        assert not re.search(r"\{\{\w+\}\}", text), f"{name} has an unfilled field"
        if name.endswith(".py"):
            compile(text, name, "exec")
        elif name.endswith(".toml"):
            tomllib.loads(text)
        elif name.endswith(".jsonl"):
            assert json.loads(text.splitlines()[0])["variant"] == "toy"
    project = tomllib.loads((toy / "pyproject.toml").read_text())
    assert project["project"]["name"] == "cardcli-toy"
    assert project["project"]["entry-points"]["cardcli.plugins"] == {"toy": "cardcli_toy.plugin"}
    major, minor = map(int, metadata.version("cardcli").split(".")[:2])
    assert project["project"]["dependencies"] == [f"cardcli>={major}.{minor},<{major}.{minor + 1}"]


def test_the_package_passes_ruff_with_the_projects_rules(toy):
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    assert ruff, "ruff is in the test extra"
    done = subprocess.run([ruff, "check", "--no-cache", "."], cwd=toy, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_generated_game_works_with_every_command(toy, tmp_path):
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(cli, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    listing = run("variants")
    assert re.search(r"^toy +Toy  \(2 to 8 players; CPU: easy, normal, hard\)  \[cardcli_toy.plugin\]$",
                     listing, re.MULTILINE), listing
    played = tmp_path / "played.jsonl"
    run("play", "toy", "--players", "cpu:normal,cpu:hard=30", "--seed", "3", "--record", str(played))
    records = tmp_path / "records"
    assert "10 games of toy" in run("simulate", "toy", "-n", "10", "-w", "1", "--seed", "1",
                                   "--records", str(records))
    arena = run("arena", "toy", "--players", "cpu:hard=30,cpu:normal", "--games", "2", "-w", "1",
                "--seed", "1")
    assert "cpu:hard=30" in arena and "place and left in hand: the mean" in arena
    checked = run("validate", str(played), *map(str, sorted(records.glob("*.jsonl"))))
    assert checked.count("valid (every card known): toy game") == 11
    assert "After move 4" in run("replay", str(played), "--seat", "0", "--to", "4")
    assert "Toy, left of the dealer opens" in run("rules", "--ruleset", "left-opens")


@pytest.mark.parametrize(("args", "message"), [
    (["Sevens"], "'Sevens' cannot name a variant: use a lowercase word"),
    (["fan-tan"], "'fan-tan' cannot name a variant"),
    (["7up"], "'7up' cannot name a variant"),
    (["class"], "'class' cannot name a variant: it is a Python keyword"),
    (["a" * 41], f"'{'a' * 41}' cannot name a variant: it is longer than 40 characters"),
    (["sevens", "full/a-file/inside"], "cannot write full/a-file/inside/"),
    (["matching"], "a variant called 'matching' is already installed (by cardcli-matching)"),
    (["sevens", "full"], "full exists and is not empty; choose a new folder"),
    (["sevens", "full/a-file"], "full/a-file exists and is not a folder"),
])
def test_bad_input_gets_one_clear_message_and_writes_nothing(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "a-file").write_text("mine")
    before = sorted(tmp_path.rglob("*"))
    result = new_variant(*args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}" + result.output.split(message, 1)[1]
    assert result.output.count("\n") == 1 and message in result.output
    assert sorted(tmp_path.rglob("*")) == before


def test_an_empty_folder_is_fine_and_the_default_folder_is_named_for_the_package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    assert new_variant("fan_tan", "empty").exit_code == 0
    assert (tmp_path / "empty" / "cardcli_fan_tan" / "state.py").is_file()
    result = new_variant("fan_tan")
    assert result.exit_code == 0
    assert (tmp_path / "cardcli-fan-tan" / "cardcli_fan_tan" / "state.py").is_file()
    state_py = (tmp_path / "cardcli-fan-tan/cardcli_fan_tan/state.py").read_text()
    assert "class FanTanState(HiddenInfo, State)" in state_py


def test_an_unknown_template_field_is_an_error():
    with pytest.raises(scaffold.ScaffoldError, match=r"unknown field \{\{nme\}\}"):
        scaffold.fill("name = {{nme}}", {"name": "x"}, "pyproject.toml")


@pytest.mark.slow
def test_installed_as_generated_it_passes_its_own_tests_and_every_command(tmp_path):
    """In a fresh venv with cardcli installed from this checkout (not editable):
    .ci/new-variant-smoke, the very script CI runs against the wheels."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(ROOT)], check=True)
    done = subprocess.run([str(ROOT / ".ci" / "new-variant-smoke"), str(venv)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "passed" in done.stdout.splitlines()[-1]


@pytest.mark.slow
def test_a_type_checker_follows_the_generated_package(toy):
    """mypy, as cardcli's CI runs it on the built-in plugins, finds nothing to
    say about the package or its tests (the generic Variant at work)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--check-untyped-defs", "--no-incremental",
                           "cardcli_toy", "tests"], cwd=toy, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_generated_game_takes_typed_moves_and_keeps_its_menu_after_a_hint(toy, tmp_path):
    """The core's prompt for a variant without a dialogue of its own: the
    numbered menu, and a move typed as the variant's ``parse_move`` reads it
    (``8d``); after ``?`` the whole menu is shown again under the hint."""
    args = ["play", "toy", "--players", "you,cpu:easy", "--seed", "3"]
    hinted = CliRunner().invoke(cli, [*args, "--record", str(tmp_path / "a.jsonl")], input="?\n")
    out = hinted.output
    assert "Hint - " in out, out
    before, after = out.split("Hint - ", 1)
    menu = re.findall(r"^  \[\d+\] .*$", before.rsplit("Your move", 1)[0], re.MULTILINE)
    assert menu and menu[0].startswith("  [1] ")
    assert all(line in after.splitlines() for line in menu), "the menu under the hint"
    shown_again = after.split("a near-tie is within it)", 1)[1].split("Game saved")[0]  # the hint's last line
    assert shown_again.strip().splitlines() == [line.strip() for line in menu]  # no table pushing it away
    cards = re.findall(r"\[\d+\] play (\S+)", "\n".join(menu))
    assert cards, menu
    card = cards[-1]
    record = tmp_path / "b.jsonl"
    typed = CliRunner().invoke(cli, [*args, "--record", str(record)], input=f"{card.lower()}\n")
    assert "is not one of your choices" not in typed.output, typed.output
    moves = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    # The opening 7D was the only move (made for the player); the typed card is the next.
    assert [m["card"] for m in moves if m.get("seat") == 0] == ["7D", card]
    assert "Your move (number, or type the move)>" in typed.output
