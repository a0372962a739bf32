"""``cardcli referee``: follow a game played with a real deck, entry by entry."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import click

from ..kit.errors import CardcliError, system_words
from ..kit.fit import tell
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.record_format import Header, SeatInfo
from ..kit.safe_text import printable
from .board import BoardOptions, board_options, open_board
from .common import (
    complete_variant,
    handle_errors,
    registry,
    resolve_ruleset,
    ruleset_option,
    seat_named,
    variant_named,
)


@click.command(help=_("""Follow a game of VARIANT played with a real deck, checking every move.

    \b
    cardcli referee matching --players ann,bob,mom
    cardcli referee trick --players ann,bob --dealer bob --serve
    cardcli referee matching --players ann,bob,mom --seat ann
    cardcli referee endofpage --players mom,me < game.txt
    cardcli referee --resume ~/.local/share/cardcli/games/....jsonl

    Type what the table does, one entry a line: ann 7h, bob draws, mom 8s
    hearts, up 5h (a card turned up for all), page one, mom shows 7h 8s (at
    a round's end). Nobody's hidden cards are asked for; with --seat ann,
    ann's own are (ann gets 7h 8s ..., ann draws 9c). Each entry is
    checked at once against the rules and everything the table has seen; one
    that could not have happened is refused with the rule, and nothing is
    written. undo takes back the last entry, help lists the words. The record
    (a record of a real table: cardcli validate, export and replay read it)
    is written as it goes; stop at any time and go on with --resume.
    """))
@click.argument("variant", required=False, shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", metavar="NAMES",
              help=_("The players in seat order, by name: --players ann,bob,mom."))
@click.option("--dealer", metavar="NAME", help=_("Who deals (default: the first player)."))
@click.option("--seat", "seat_name", metavar="NAME",
              help=_("Enter this player's own cards and draws too (default: only what the whole "
                     "table sees)."))
@ruleset_option()
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help=_("Write the record here (default: a new file under the cardcli games folder)."))
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help=_("Go on with the game a referee recorded in FILE."))
@click.option("--input", "-i", "input_path", type=click.Path(dir_okay=False, allow_dash=True),
              metavar="FILE", help=_("Read the entries from FILE (- or a pipe: standard input)."))
@board_options(N_("the table"))
@handle_errors
def referee(variant: str | None, players_spec: str | None, dealer: str | None, seat_name: str | None,
            ruleset: str | None,
            record_path: Path | None, resume_path: Path | None, input_path: str | None,
            serve: BoardOptions) -> None:
    """``cardcli referee``: its help is the command's ``help``."""
    from ..realtable.referee import Referee

    if resume_path is not None:
        if variant or players_spec or dealer or seat_name or ruleset or record_path:
            raise click.UsageError(_("--resume takes the game as recorded: give no VARIANT, --players, "
                                     "--dealer, --seat, --ruleset or --record"))
        table = Referee.resume(registry(), str(resume_path))
        path = resume_path
    else:
        if variant is None:
            raise click.UsageError(_("name a VARIANT (see: cardcli variants), or give --resume FILE"))
        if not players_spec:
            raise click.UsageError(_("name the players in seat order: --players ann,bob,mom"))
        target = variant_named(variant)
        names = [name.strip() for name in players_spec.split(",")]
        if any(not name or " " in name for name in names) or len({n.lower() for n in names}) < len(names):
            raise click.BadParameter(_("give each player a different name of one word"),
                                     param_hint="--players")
        seats = [SeatInfo(name, "human") for name in names]
        chosen = resolve_ruleset(target, ruleset, len(seats))
        from ..cpu.players import check_count

        check_count(seats, chosen.options, target, None if ruleset is None else chosen.source, chosen.stated)
        first = seat_named(dealer, names)
        view = "public" if seat_name is None else f"seat {seat_named(seat_name, names, '--seat')}"
        header = Header(variant=target.name, rules=dict(chosen.options), players=seats, dealer=first,
                        ruleset=None if ruleset is None else chosen.name, view=view)
        _entries_first(input_path)
        from .record_files import new_record

        path, writer = new_record(record_path, target.name, 0, command="referee")
        writer.write(header.as_dict())
        table = Referee(registry(), header, writer=writer, source=str(path))
    _run(table, path, input_path, serve)


def _entries_first(input_path: str | None) -> None:
    """A file of entries that cannot be read stops before any record is begun."""
    if input_path not in (None, "-"):
        try:
            with open(str(input_path), "rb"):
                pass
        except OSError as error:
            raise CardcliError(_("--input {path}: cannot read: {error}").format(
                path=input_path, error=system_words(error))) from None


def _run(table: Any, path: Path, input_path: str | None, serve: BoardOptions) -> None:
    from ..realtable.entry_words import referee_entry
    from ..realtable.referee import Refused

    variant = table.game.variant
    title = _("{game}: {players}").format(game=variant.words(variant.title), players=", ".join(table.names))
    live = None
    if serve.serve:
        live = open_board(serve, _view(table, title, []), _("the table"), click.echo)
    click.echo(printable(title))
    click.echo(_("Recording to {path} (help lists the words)").format(path=path))
    for line in table.situation():
        tell(printable(line), indent=None)
    terminal = input_path is None and bool(sys.stdin and sys.stdin.isatty())
    said: list[str] = []
    try:
        for number, raw in _lines(input_path, terminal):
            text = raw.strip()
            if referee_entry(text).lower() in ("quit", "exit"):  # 終了 too
                break
            try:
                shown = table.enter(text)
            except Refused as error:
                message = printable(_("Refused: {reason} (nothing was written)").format(reason=error))
                if terminal:
                    tell(message)  # wrapped at spaces, to the terminal's width
                    continue
                raise CardcliError(f"{_where(input_path)}:{number}: {printable(text)!r}: {error}") from None
            said.append(table.public_words(text))  # the page shows no one's own cards
            if terminal or table.over:
                for line in shown:
                    tell(printable(line), indent=None)
            if live is not None:
                live.publish(_view(table, title, said))
            if table.over:
                break
    except (KeyboardInterrupt, EOFError):
        kept = _("The record is kept: go on with cardcli referee --resume {path}").format(path=path)
        click.echo("\n" + kept, err=True)
        raise SystemExit(130) from None
    finally:
        if table.writer is not None:
            table.writer.close()
        if live is not None:
            live.close()
    if not terminal and not table.over:
        for line in table.situation():
            tell(printable(line), indent=None)
    if table.over:
        click.echo(_("Record: {path}").format(path=path))
    else:
        click.echo(_("Record: {path} (go on: cardcli referee --resume {path})").format(path=path))


def _where(input_path: str | None) -> str:
    return "<stdin>" if input_path in (None, "-") else str(input_path)


def _lines(input_path: str | None, terminal: bool) -> Any:
    if terminal:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
        number = 0
        while True:
            number += 1
            yield number, input("> ")
    from ..realtable.sheet_session import entry_lines

    if input_path in (None, "-"):
        if sys.stdin is None:
            raise CardcliError(_("standard input is closed: give the entries with --input FILE"))
        yield from enumerate(entry_lines(sys.stdin.buffer, "<stdin>"), start=1)
        return
    with open(str(input_path), "rb") as stream:
        yield from enumerate(entry_lines(stream, f"--input {input_path}"), start=1)


def _view(table: Any, title: str, said: list[str]) -> Any:
    from ..contract.views import BoardView
    from ..words.view import public_table

    lines = table.situation(public=True)  # the page is for everyone: no hand
    return BoardView(title, headline=lines[-1], status="", table=public_table(
        table.game.variant, table.state, table.names), lines=said[-8:], text="\n".join(lines),
        over=table.over)
