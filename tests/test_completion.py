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
