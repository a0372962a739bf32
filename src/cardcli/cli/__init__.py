"""The ``cardcli`` command: a Click group whose commands live in their own modules.

Library code raises typed errors (:mod:`cardcli.kit.errors`); this is the only
place they become messages and exit statuses.  Nothing reaches a person as a
traceback: bad input exits 1 (or 2 for a bad command line, Click's usage
errors), an interrupted game exits 130 after saying how to resume it.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from .. import __version__
from ..kit.errors import CardcliError
from ..kit.fit import page
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.safe_text import printable
from . import language

#: Every subcommand: its name, the module under ``cardcli.cli`` that holds it,
#: and the one-line help shown by ``cardcli --help``.  Modules are imported only
#: when their command runs (Click's "lazily loading subcommands" pattern), so
#: ``cardcli --help`` and each command start without importing the others.
COMMANDS: dict[str, tuple[str, str]] = {
    "variants": ("variants",
        N_("List the installed variants: name, players, and the package providing each.")),
    "rules": ("rules",
        N_("Show VARIANT's options (default, allowed values, meaning), or a ruleset's values.")),
    "play": ("play", N_("Play VARIANT at the terminal against CPUs or friends (hot seat).")),
    "validate": ("validate", N_("Check each RECORD against the rules its header names (- reads stdin).")),
    "replay": ("replay", N_("Step through RECORD move by move (- reads stdin).")),
    "export": ("export", N_("Write RECORD as one seat saw it (--seat N) or a spectator (--public).")),
    "games": ("games", N_("List the saved games, newest first: variant, players, started, moves, finished or "
                       "not, file.")),
    "simulate": ("simulate",
        N_("Play CPU-only games of VARIANT and summarise wins, draws and game lengths.")),
    "arena": ("arena", N_("Play CPU players of VARIANT against each other, seats rotated: win rates.")),
    "compare": ("compare",
        N_("Compare house rules of VARIANT: game length, seats, skill, on the same seeds.")),
    "serve": ("serve",
        N_("Host a table of VARIANT that friends join from a phone's browser or cardcli join.")),
    "join": ("join", N_("Take the seat of an invite LINK from cardcli serve (or watch, with a watch link).")),
    "referee": ("referee", N_("Follow a game of VARIANT played with a real deck, checking every move.")),
    "scoresheet": ("scoresheet", N_("Keep the score sheet of VARIANT played with a real deck, each round "
                   "checked and scored.")),
    "new-variant": ("new_variant",
        N_("Write a working variant plugin called NAME (the game Sevens) to change "
                    "into yours.")),
}


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--lang``: :func:`main` has chosen it already; this is for ``cli`` run in-process."""
    if value is not None and not ctx.resilient_parsing:
        try:
            language.start(["--lang", value])
        except ValueError as error:
            raise click.BadParameter(str(error).removeprefix("--lang: "), ctx, param) from None


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    page(ctx.get_help(), color=ctx.color)
    ctx.exit()


#: The help of ``-h``/``--help``.
HELP_OPTION = N_("Show this message and exit.")


def paged_help(command: click.Command) -> click.Command:
    """Give ``command`` a ``-h``/``--help`` whose text goes through the pager
    when it is taller than the terminal (:func:`cardcli.kit.fit.page`); in a
    pipe it is printed as Click prints it."""
    if getattr(command, "_paged_help", False):
        return command
    command.add_help_option = False
    command.params.append(click.Option(["-h", "--help"], is_flag=True, expose_value=False, is_eager=True,
                                       callback=_show_help, help=_(HELP_OPTION)))
    command._paged_help = True  # type: ignore[attr-defined]
    return command


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *sorted(super().list_commands(ctx))]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module = importlib.import_module(f"{__name__}.{COMMANDS[cmd_name][0]}")
            command = getattr(module, cmd_name.replace("-", "_"))
            assert isinstance(command, click.Command)
            return paged_help(command)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands from :data:`COMMANDS` without importing them."""
        rows = [(name, _(COMMANDS[name][1])) for name in COMMANDS]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


#: What ``cardcli --help`` says first.
HELP = N_("""Play, validate, replay and simulate the Page One family of card games.

    \b
    Start with:
      cardcli variants            the games installed
      cardcli play matching       a game against CPU players
      cardcli rules matching      every house rule and its default
    """)


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``, worded when asked (Click's own option words it at import, before the
    language is chosen)."""
    if value and not ctx.resilient_parsing:
        click.echo(_("%(prog)s, version %(version)s") % {"prog": "cardcli", "version": __version__})
        ctx.exit()


@click.group(cls=LazyGroup, help=HELP, context_settings={"help_option_names": ["-h", "--help"],
                                                         "max_content_width": 100})
@click.option("-V", "--version", is_flag=True, is_eager=True, expose_value=False, callback=_show_version,
              help="Show the version and exit.")  # (Click's words: said in the language by Click's catalog)
@click.option("--lang", metavar="LANG", is_eager=True, expose_value=False, callback=_choose_language,
              help=N_("The language cardcli speaks: en or ja (default: $CARDCLI_LANG, else LANGUAGE, LC_ALL, "
                      "LC_MESSAGES, LANG)."))
def cli() -> None:
    """The ``cardcli`` command (its help is :data:`HELP`, translated)."""


paged_help(cli)
#: What ``cli``'s declaration wrote at import, before the language was chosen, in English.
_DECLARED = {param.name: param.help for param in cli.params if isinstance(param, click.Option) and param.help}
_DECLARED["help"] = HELP_OPTION


def _speak(command: click.Group) -> None:
    """Say ``cli``'s help and its options' help in the chosen language: cardcli's words,
    or Click's own (``--version``)."""
    command.help = _(HELP)
    for param in command.params:
        if isinstance(param, click.Option) and param.name in _DECLARED:
            param.help = language.click_gettext(_(_DECLARED[param.name]))


def main() -> None:
    """Entry point: choose the language, run the group, turning any stray error into one line."""
    try:
        language.start(sys.argv[1:])
        _speak(cli)
    except ValueError as error:
        click.echo(f"cardcli: {error}", err=True)
        sys.exit(2)
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
        click.echo(printable(f"cardcli: {error}", newlines=True), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo(_("Interrupted."), err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as error:
        if os.environ.get("CARDCLI_DEBUG"):
            raise
        said = _("cardcli: internal error: {kind}: {error} (set CARDCLI_DEBUG=1 to see where)").format(
            kind=type(error).__name__, error=error)
        click.echo(printable(said, newlines=True), err=True)
        sys.exit(1)
