"""``cardcli scoresheet``: keep the score sheet of a game played with a real deck."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..cpu.players import check_count
from ..engine.rulesets import resolve_rules
from ..kit.errors import CardcliError, system_words
from ..kit.fit import tell, terminal_width, wrap
from ..kit.language import N_, speaking
from ..kit.language import core as _
from ..kit.record_format import SeatInfo
from ..terminal.style import Style
from .board import BoardOptions, board_options, open_board
from .common import (
    colour_option,
    complete_variant,
    handle_errors,
    registry,
    resolve_ruleset,
    ruleset_option,
    seat_named,
)
from .common import variant_named as _variant

if TYPE_CHECKING:
    from ..realtable.sheet import Sheet
    from ..realtable.sheet_files import SheetFile


@click.command(help=_("""Keep the score sheet of VARIANT played with a real deck, each round checked and
    scored.

    \b
    cardcli scoresheet endofpage --players mom,me
    cardcli scoresheet endofpage --players mom,me,dad --dealer dad \\
        --page-lines 5 --serve
    cardcli scoresheet endofpage --players mom,me --input rounds.txt \\
        --csv page.csv
    cardcli scoresheet --resume ~/.local/share/cardcli/sheets/....jsonl

    At the end of each round type what the table shows, one entry a line:
    for End of the Page the dealer's wild card (wild 3H), then each player's
    melds, lay-offs and cards left in hand (mom meld 4S 4H 3D=4, hand 7D).
    Every meld is checked against the round's wild and the rules, each round
    scored as the game scores it, and the page shown: a row per round, the
    totals, who leads. undo takes back the last entry, edit N corrects round
    N, help lists every word. The sheet is written as it goes: stop at any
    time and go on with --resume. Entries can come from a file or standard
    input in the same words (see docs/scoresheet.md).
    """))
@click.argument("variant", required=False, shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", metavar="NAMES",
              help=_("The players, in seat order round the table: mom,me,dad."))
@click.option("--dealer", metavar="NAME", help=_("Who deals the first round (default: the first player); the "
              "deal moves left each round."))
@ruleset_option()
@click.option("--page-lines", type=click.IntRange(1), metavar="N",
              help=_("Rounds on the page: the game ends when N rounds are scored (default: the rules')."))
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help=_("Keep the sheet in FILE, written as it goes (default: a new file in the cardcli sheets "
                   "folder)."))
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help=_("Go on with the sheet kept in FILE."))
@click.option("--input", "-i", "input_path", type=click.Path(dir_okay=False, allow_dash=True),
              help=_("Read the entries from FILE (- for standard input) instead of asking for them."))
@click.option("--json", "json_path", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help=_("At the end, write the sheet as JSON to FILE (- for standard output)."))
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help=_("At the end, write the rounds and totals as CSV to FILE (- for standard output)."))
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help=_("At the end, draw the running totals (.png or .svg; pip install 'cardcli[plot]')."))
@board_options(N_("the sheet"))
@colour_option
@handle_errors
def scoresheet(variant: str | None, players_spec: str | None, dealer: str | None, ruleset: str | None,
               page_lines: int | None, save_path: Path | None, resume_path: Path | None,
               input_path: str | None, json_path: str | None, csv_path: str | None, plot_path: Path | None,
               serve: BoardOptions, colour: bool | None) -> None:
    """``cardcli scoresheet``: its help is the command's ``help``."""
    from ..contract.round_scores import RoundScores
    from ..realtable.sheet import Sheet
    from ..realtable.sheet_files import SheetFile, load, reopen

    if plot_path is not None:
        from ..cpu import plot

        plot.check_target(plot_path)
    # A file's entries are read first: one that cannot be leaves no sheet begun.
    lines = _read_input(input_path) if input_path is not None and input_path != "-" else None
    open_file: Callable[[], SheetFile]
    if resume_path is not None:
        if variant or players_spec or dealer or ruleset or page_lines or save_path:
            raise click.UsageError(_("--resume takes the sheet as it was kept: give no VARIANT, --players, "
                                     "--dealer, --ruleset, --page-lines or --save"))
        sheet, _ruleset, notes = load(resume_path, registry())
        for note in notes:
            click.echo(note, err=True)
        open_file = functools.partial(reopen, resume_path)
    else:
        if variant is None:
            raise click.UsageError(_("name a VARIANT (see: cardcli variants), or give --resume FILE"))
        if not players_spec:
            raise click.UsageError(_("name the players in seat order: --players mom,me"))
        target = _variant(variant)
        if not isinstance(target, RoundScores):
            raise CardcliError(_("{variant} keeps no score sheet: its plugin does not say how a round "
                                 "is scored from the table (End of the Page does: cardcli scoresheet "
                                 "endofpage)").format(variant=target.name))
        names = [name.strip() for name in players_spec.split(",")]
        chosen = resolve_ruleset(target, ruleset, len(names))
        rules = dict(chosen.options)
        if page_lines is not None:
            option = target.rounds_option
            if option is None:
                raise click.UsageError(_("--page-lines: a sheet of {variant} has no set number of "
                                         "rounds").format(variant=target.name))
            rules = resolve_rules(target, {**rules, option: page_lines}, "--page-lines",
                                  num_players=len(names))
        check_count([SeatInfo(name) for name in names], rules, target,
                    None if ruleset is None else chosen.source, chosen.stated)
        first = seat_named(dealer, names)
        sheet = Sheet(target, rules, names, first)
        open_file = functools.partial(SheetFile.create, sheet, save_path,
                                      None if ruleset is None else chosen.name)
    _run(sheet, open_file, input_path, lines, json_path, csv_path, plot_path, serve, colour)


def _run(sheet: Sheet, open_file: Callable[[], SheetFile], input_path: str | None, lines: list[str] | None,
         json_path: str | None, csv_path: str | None, plot_path: Path | None, serve: BoardOptions,
         colour: bool | None) -> None:
    from ..realtable import sheet_export as export
    from ..realtable.sheet_session import SheetSession

    to_stdout = "-" in (json_path, csv_path)
    out = sys.stderr if to_stdout else sys.stdout
    style = Style.for_stream(colour, out)
    try:
        width = terminal_width(out) if out.isatty() else 0
    except (AttributeError, ValueError):
        width = 0

    def say(text: str) -> None:  # wrapped at spaces at a terminal, whole in a pipe or a file
        click.echo(style.text("\n".join(wrap(text, width)) if width else text), err=to_stdout)

    # The page first: an address it cannot listen on leaves no file behind.
    live = (open_board(serve, export.board_view(sheet, []), _("the sheet"), say, style.colour, to_stdout)
            if serve.serve else None)
    try:
        file = open_file()
    except BaseException:
        if live is not None:
            live.close()
        raise
    session = SheetSession(sheet, file, say, publish=None if live is None else live.publish)
    reads_terminal = input_path is None and bool(sys.stdin and sys.stdin.isatty())
    serving = False  # only serving the page, after the entries from a file
    try:
        size = sheet.page_size()
        if size:
            say(_.ngettext("{title}, {count} round on the page", "{title}, {count} rounds on the page",
                           size).format(title=export.title(sheet), count=size))
        else:
            say(export.title(sheet))
        if sheet.rounds:
            say("\n".join(export.page(sheet)))
        session.publish()
        if reads_terminal:
            session.interactive(_reader())
        else:
            _from_input(session, input_path, lines)
        say("")
        say("\n".join(export.page(sheet)))
        if json_path is not None:
            with speaking("en"):  # an interface: English whatever the language
                data = json.dumps(export.as_dict(sheet), indent=1) + "\n"
            _write(json_path, data, "--json")
        if csv_path is not None:
            with speaking("en"):
                table = export.csv_text(sheet)
            _write(csv_path, table, "--csv")
        if plot_path is not None:
            export.plot(sheet, plot_path)
            say(_("Plot written to {path}").format(path=plot_path))
        say(_("The sheet is kept in {path} (go on with it: cardcli scoresheet --resume {path})").format(
            path=file.path))
        if live is not None and not reads_terminal:
            serving = True
            say(_("The page stays up at {link}; Ctrl-C to stop.").format(link=live.link))
            while True:
                time.sleep(0.5)
    except KeyboardInterrupt:
        if not serving:
            kept = _("The sheet is kept: go on with it with cardcli scoresheet --resume {path}").format(
                path=file.path)
            tell("\n" + kept, err=True)
            raise SystemExit(130) from None
    finally:
        file.close()
        if live is not None:
            live.close()


def _reader() -> Any:
    """``input``, with line editing where the platform has it."""
    with contextlib.suppress(ImportError):  # not on every platform
        import readline  # noqa: F401  (imported for its effect on input())
    return input


def _from_input(session: Any, input_path: str | None, lines: list[str] | None) -> None:
    if lines is not None:
        session.from_lines(lines, str(input_path))
        return
    if sys.stdin is None:
        raise CardcliError(_("standard input is closed: give the entries with --input FILE, or run "
                             "cardcli scoresheet at a terminal"))
    from ..realtable.sheet_session import entry_lines

    session.from_lines(entry_lines(sys.stdin.buffer, "<stdin>"), "<stdin>")


def _read_input(path: str) -> list[str]:
    """Every line of ``path``, read before any sheet is begun."""
    from ..realtable.sheet_session import MAX_INPUT, entry_lines

    try:
        with open(path, "rb") as stream:
            return list(entry_lines(stream, f"--input {path}", MAX_INPUT))
    except OSError as error:
        raise CardcliError(_("--input {path}: cannot read: {error}").format(
            path=path, error=system_words(error))) from None


def _write(path: str, text: str, option: str) -> None:
    if path == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CardcliError(_("{option} {path}: cannot write: {error}").format(
            option=option, path=path, error=system_words(error))) from None
