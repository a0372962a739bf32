"""Shell completion: variant names and ruleset names, as README says to turn it on."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from cardcli.cli import cli


def complete(line: str) -> list[str]:
    """What completion offers for ``line`` (the last word is being typed)."""
    words = line.split(" ")
    completer = ShellComplete(cli, {}, "cardcli", "_CARDCLI_COMPLETE")
    return [item.value for item in completer.get_completions(words[1:-1], words[-1])]


def test_variant_names_complete_in_every_command_that_takes_one():
    for command in ("play", "rules", "simulate", "arena", "compare", "serve"):
        assert complete(f"cardcli {command} ") == ["endofpage", "matching", "trick"]
    assert complete("cardcli play tr") == ["trick"]


def test_ruleset_names_complete_for_the_variant_typed():
    assert complete("cardcli play matching --ruleset a") == ["american"]
    offered = complete("cardcli simulate trick -r ")
    assert "five-cards" in offered and "trick-five-cards" in offered
    assert not any(name.startswith("matching") for name in offered)
    everything = complete("cardcli rules --ruleset ")
    assert "matching-american" in everything and "endofpage-family" in everything
    assert complete("cardcli compare matching ") and "american" in complete("cardcli compare matching a")
    assert complete("cardcli play matching --ruleset ./hou") == ["./hou"]  # a path: the shell's files


def test_readme_says_how_to_turn_it_on_and_it_works():
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    command = re.search(r'eval "\$\((_CARDCLI_COMPLETE=bash_source cardcli)\)"', readme)
    assert command and "zsh_source" in readme and "fish_source" in readme
    cardcli = shutil.which("cardcli")
    if cardcli is None:  # pragma: no cover - README's install puts it on PATH
        pytest.skip("the cardcli command is not on PATH")
    env = dict(os.environ, _CARDCLI_COMPLETE="bash_source")
    script = subprocess.run([cardcli], env=env, capture_output=True, text=True, timeout=60).stdout
    assert "complete -o nosort -F _cardcli_completion cardcli" in script
    env.update(_CARDCLI_COMPLETE="bash_complete", COMP_WORDS="cardcli play mat", COMP_CWORD="2")
    offered = subprocess.run([cardcli], env=env, capture_output=True, text=True, timeout=60).stdout
    assert offered.split() == ["plain,matching"]


def test_record_files_complete_for_every_command_that_reads_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "evening.jsonl").write_text("")
    (tmp_path / "game.jsonl").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / ".hidden.jsonl").write_text("")
    for command in ("validate", "replay", "export", "validate game.jsonl", "serve --resume"):
        assert complete(f"cardcli {command} ") == ["game.jsonl", "games/"], command
    assert complete("cardcli replay games/") == ["games/evening.jsonl"]
    assert complete("cardcli export ga") == ["game.jsonl", "games/"]
    assert complete("cardcli validate .h") == [".hidden.jsonl"]
    assert complete("cardcli replay nowhere/") == []


def test_resume_completes_the_unfinished_saved_games_by_name(tmp_path, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.setenv("CARDCLI_GAMES", str(tmp_path / "saved"))
    runner = CliRunner()
    for seed in ("1", "2"):  # an unfinished game (no input), and a finished one (CPUs only)
        players = "you,cpu" if seed == "1" else "cpu,cpu"
        runner.invoke(cli, ["play", "matching", "--players", players, "--seed", seed], input="")
    saved = sorted(path.name for path in (tmp_path / "saved").glob("*.jsonl"))
    assert len(saved) == 2
    unfinished = [name for name in saved if "you" in (tmp_path / "saved" / name).read_text()]
    assert complete("cardcli play --resume ") == unfinished
    assert complete("cardcli play --resume zzz") == []
    monkeypatch.chdir(tmp_path)
    assert complete("cardcli play --resume ./sa") == ["./saved/"]  # a path: record files
