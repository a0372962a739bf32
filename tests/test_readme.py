"""Every ``cardcli`` command that README.md and the docs show is one the
program accepts as written: the command, its options, their values, and in
README the variants and shipped rulesets it names.  Parsed, not run (the
README's examples play thousands of games); the commands' behaviour is
tested where each command is."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from cardcli.cli import cli
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import find_ruleset
from cardcli.kit.language import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "README.ja.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs").glob("*/*.md")), *sorted((ROOT / "docs").glob("*/*/*.md"))]


def shown_commands(path: Path) -> list[tuple[int, list[str]]]:
    """``(line, arguments)`` of every ``cardcli ...`` line in the page's sh blocks."""
    text = path.read_text(encoding="utf-8")
    found = []
    for block in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        if block.group(1) not in ("sh", "bash", "console", ""):
            continue
        first = text.count("\n", 0, block.start(2)) + 1
        joined = block.group(2).replace("\\\n", " ")  # continued lines
        for offset, line in enumerate(joined.splitlines()):
            line = line.strip().removeprefix("$ ")
            if not line.startswith("cardcli "):
                continue
            words = shlex.split(line, comments=True)[1:]
            if not words or words[0].endswith(":"):
                continue  # output shown in a block ("cardcli trace: ..."), not a command
            if "|" in words:
                words = words[:words.index("|")]  # piped into another program
            while "<" in words or ">" in words:  # a redirection and its file
                at = words.index("<") if "<" in words else words.index(">")
                del words[at:at + 2]
            found.append((first + offset, words))
    return found


COMMANDS = [(path, line, words) for path in PAGES for line, words in shown_commands(path)]


def test_the_pages_show_commands():
    assert {path.name for path, _, _ in COMMANDS} >= {"README.md", "compare.md", "ray.md", "records.md"}


@pytest.mark.parametrize(("path", "line", "words"), COMMANDS,
                         ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _ in COMMANDS])
def test_a_shown_command_is_accepted_as_written(path, line, words):
    if words[0] == "--lang":  # the group's own option, before the command
        assert words[1] in LANGUAGES, f"{path.name}:{line}: no language {words[1]!r}"
        words = words[2:]
    name, *rest = words
    command = cli.get_command(click.Context(cli), name)
    assert command is not None, f"{path.name}:{line}: no command {name!r}"
    try:
        context = command.make_context(name, rest)
    except click.ClickException as error:
        pytest.fail(f"{path.name}:{line}: cardcli {shlex.join(words)}: {error.format_message()}")
    if path.name not in ("README.md", "README.ja.md"):
        return  # the docs also show variants of one's own (fan_tan) and files of the reader's
    registry = get_registry()
    variant = context.params.get("variant")
    written = {w[1] for p, _, w in COMMANDS if p == path and w[0] == "new-variant"}
    if variant is not None and variant not in written:  # or README's own new variant
        registry.get(variant)  # raises if no such variant is installed
    names = [context.params.get("ruleset"), *context.params.get("rulesets", ())]
    for ruleset in filter(None, names):
        if not ruleset.endswith(".toml"):
            find_ruleset(ruleset, registry, variant)  # raises if not shipped
