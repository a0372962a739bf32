"""``cardcli new-variant``: write a working variant plugin to start a new game from."""

from __future__ import annotations

from pathlib import Path

import click

from ..kit.fit import echo
from ..kit.language import core as _
from . import scaffold
from .common import handle_errors, registry


@click.command("new-variant", help=_("""Write a working variant plugin called NAME (the game Sevens) to
    change into yours.

    \b
    FOLDER (default: cardcli-NAME) must be new or empty.  The package has
    the entry point, options, rules, records, CPU levels, rulesets, a docs
    page and tests that run the conformance kit.  Then:
      cd FOLDER && python -m pip install -e ".[test]" && python -m pytest
      cardcli play NAME
    docs/plugins.md changes it into a new game step by step.
    """))
@click.argument("name")
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@handle_errors
def new_variant(name: str, folder: Path | None) -> None:
    """``cardcli new-variant``: its help is the command's ``help``."""
    names = scaffold.names_for(name)
    scaffold.check_free(names, registry())
    target = folder if folder is not None else scaffold.default_folder(names)
    written = scaffold.write(names, target)
    echo(_("Wrote {count} files to {folder}/: a working Sevens called {name}, package {package}.").format(
        count=len(written), folder=target, name=names.name, package=names.package))
    click.echo(_("Next, to make it your game:"))
    click.echo(f"  cd {target}")
    click.echo('  python -m pip install -e ".[test]"')
    click.echo("  python -m pytest")
    click.echo(f"  cardcli play {names.name}")
    click.echo(_("docs/plugins.md changes it into a new game step by step."))
