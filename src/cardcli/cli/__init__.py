"""The ``cardcli`` command: a Click group whose commands live in their own modules.

Library code raises typed errors (:mod:`cardcli.errors`); this is the only
place they become messages and exit statuses.  Nothing reaches a person as a
traceback: bad input exits 1 (or 2 for a bad command line, Click's usage
errors), an interrupted game exits 130 after saying how to resume it.
"""

from __future__ import annotations

import os
import sys

import click

from .. import __version__
from ..errors import CardcliError
from .arena import arena
from .play import play
from .replay import replay
from .rules import rules
from .simulate import simulate
from .validate import validate
from .variants import variants


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="cardcli")
def cli() -> None:
    """Play, validate, replay and simulate the Page One family of card games.

    \b
    Start with:
      cardcli variants            the games installed
      cardcli play matching       a game against CPU players
      cardcli rules matching      every house rule and its default
    """


for command in (variants, rules, play, validate, replay, simulate, arena):
    cli.add_command(command)


def main() -> None:
    """Entry point: run the group, turning any stray error into one line."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except CardcliError as error:
        click.echo(f"cardcli: {error}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as error:
        if os.environ.get("CARDCLI_DEBUG"):
            raise
        click.echo(f"cardcli: internal error: {type(error).__name__}: {error} "
                   "(set CARDCLI_DEBUG=1 to see where)", err=True)
        sys.exit(1)
