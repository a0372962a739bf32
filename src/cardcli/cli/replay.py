"""``cardcli replay``: step through a recorded game, and learn from it with ``--explain``."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from ..contract.views import SPECTATOR
from ..cpu.commentary import frame_commentary
from ..engine.game import Game
from ..kit.errors import CardcliError, Kind, RecordError, system_words
from ..kit.fit import terminal_width, visible_width, wrap
from ..kit.grammar import is_you
from ..kit.language import core as _
from ..kit.record_format import open_record
from ..kit.safe_text import printable
from ..records.replay import Replay, load_replay
from ..records.saved import find_record
from ..terminal.session import end_text
from ..terminal.style import Style
from ..words.narration import describe_events
from ..words.view import played_cards
from .common import colour_option, complete_record, handle_errors, registry


def _show(replay: Replay, index: int, viewer: int | None, style: Style, explain: bool) -> None:
    game, frame = replay.game, replay.frames[index]
    names = game.names
    parts = replay.parts(index)
    played: list[str] = []
    width = terminal_width()

    def say(text: str, indent: int | None = None) -> None:
        click.echo("\n".join(wrap(style.text(text, played=played), width, indent)))

    click.echo("")
    if viewer is None:
        title = _("Start of the game") if frame.move == 0 else _("After move {move} of {total}")
    elif frame.move == 0:
        title = _("Start of the game, as seat {seat} ({name}) saw it")
    else:
        title = _("After move {move} of {total}, as seat {seat} ({name}) saw it")
    title = title.format(move=frame.move, total=replay.total, seat=viewer,
                         name=names[viewer] if viewer is not None else "")
    say(f"--- {title} ---")
    told = viewer
    if replay.kept is not None and viewer is None:  # a real table's record: its unseen cards unsaid
        told = SPECTATOR if replay.view is None else replay.view
    for events, summary in parts:
        for before, action in events:
            played = played_cards(game.variant, before, action) or played
        for line in describe_events(game.variant, events, viewer=told, names=names):
            say(f"  {line}")
        if explain:  # (the hard CPU rates only positions with every card known)
            # A "why:" line wraps under its reason (the words of cpu.commentary's line).
            why = _("why: {reason}").format(reason="")
            for line in frame_commentary(game, events, None if replay.kept is not None else viewer):
                say(f"    {line}", indent=4 + visible_width(why) if line.startswith(why) else None)
        if summary is not None:
            # The round's end as the table saw it (every hand is shown there).
            click.echo("")
            say(summary)
            click.echo("")
            played = []
    state = replay.state(index)
    result = state.result()
    if result is not None:
        say(end_text(game.variant, state, result.as_dict(), names))
    else:
        say(game.variant.render(state, viewer=viewer, names=names))
    if index == len(replay.frames) - 1 and replay.error is not None:
        _show_error(replay)


def watch_from(game: Game, seat: int) -> None:
    """Watching ``seat``, whose hand the table calls "Your hand": another seat
    whose player is called "you" is named in quotes ('you' melded ...), so
    "you" never means two seats at once."""
    game.seats = [replace(info, name=f"'{info.name}'") if is_you(info.name) and index != seat else info
                  for index, info in enumerate(game.seats)]


def _show_error(replay: Replay) -> None:
    """The record's mistake, after the last position before it."""
    error = replay.error
    assert error is not None
    click.echo("")
    said = _("The record stops being a legal game here. {error}").format(error=error)
    click.echo("\n".join(wrap(printable(said, newlines=True), terminal_width())))


@click.command(help=_("""Step through RECORD move by move (- reads stdin).

    RECORD is a file, or a saved game by the name cardcli games shows.

    \b
    Enter or n: next move     p: back     g N: go to move N     q: quit

    A record with an illegal move is shown up to the position before it,
    then the mistake (exit status 1).  With --explain each move comes with
    the rule that allowed or forced it; watching a seat (--seat N), its own
    choices also come with the hard CPU's rating of every alternative.
    """))
@click.argument("record", metavar="RECORD", shell_complete=complete_record)
@click.option("--seat", type=int, metavar="N",
              help=_("Show only what seat N could see (seats count from 0, as the table numbers them)."))
@click.option("--to", "to_move", type=int, metavar="N", help=_("Print the table after move N and exit."))
@click.option("--explain", is_flag=True,
              help=_("Say the rule behind each move and, from --seat's view, what the hard CPU thought "
                   "of that seat's choices."))
@colour_option
@handle_errors
def replay(record: str, seat: int | None, to_move: int | None, explain: bool, colour: bool | None) -> None:
    """``cardcli replay``: its help is the command's ``help``."""
    try:
        if record == "-":
            if sys.stdin is None:
                raise CardcliError(_("cannot read standard input: it is closed"))
            loaded = load_replay(sys.stdin.buffer, "<stdin>", registry())
        else:
            path = find_record(record)
            with open_record(path) as stream:
                loaded = load_replay(stream, path, registry())
    except RecordError as error:
        if error.kind == Kind.IO:
            raise
        raise CardcliError(_("cannot replay: {error}").format(error=error)) from None
    except OSError as error:
        said = _("{record}: cannot read: {error}").format(record=record, error=system_words(error))
        raise CardcliError(said) from None
    seats = len(loaded.game.seats)
    if seat is not None and not 0 <= seat < seats:
        raise click.BadParameter(_("seat {seat} is not at this table (seats 0 to {last})").format(
            seat=seat, last=seats - 1), param_hint="--seat")
    if seat is not None and loaded.kept is not None and seat != loaded.view:
        if loaded.view is None:
            said = _("this record is written from a spectator's view: it shows no other seat's cards")
        else:
            said = _("this record is written from seat {view}'s view: it shows no other seat's cards")
        raise click.BadParameter(said.format(view=loaded.view), param_hint="--seat")
    if seat is not None:
        watch_from(loaded.game, seat)
    style = Style.for_stream(colour)
    total, frames = loaded.total, loaded.frames
    broken = loaded.error is not None
    if to_move is not None:
        found = loaded.index_of(to_move)
        if found is None:
            if broken:
                raise CardcliError(_("{error}\n(the record is a legal game up to move {total}: --to {total} "
                                     "shows the position before its mistake)").format(
                                       error=loaded.error, total=total))
            reach = _("this game has moves 0 to {total}") if total else _("this game has move 0")
            raise click.BadParameter(reach.format(total=total), param_hint="--to")
        _show(loaded, found, seat, style, explain)
        if broken and found != len(frames) - 1:
            said = _("(This record has a mistake later: {error})").format(error=loaded.error)
            click.echo(printable("\n" + said, newlines=True), err=True)
        raise SystemExit(1 if broken else 0)
    if sys.stdin is None:
        raise CardcliError(_("standard input is closed, so there is no stepping through the game: "
                             "give --to N to print the table after move N"))
    if broken:
        assert loaded.error is not None
        wrong = loaded.error.move if loaded.error.move is not None else total + 1
        said = _("This record has a mistake at move {wrong}: it is shown up to move {total}, the position "
                 "before it.").format(wrong=wrong, total=total)
        click.echo("\n".join(wrap(said, terminal_width())))
    if explain and seat is None and loaded.kept is None:
        click.echo(_("Watch a seat (--seat N) to see what the hard CPU thought of its choices."))
    index = 0
    _show(loaded, index, seat, style, explain)
    # Translators: the keys in brackets are typed as they are (Enter, n, p, g N, q).
    keys = _("[Enter/n] next  [p] back  [g N] go to  [q] quit")
    while True:
        try:
            answer = click.prompt(keys, default="",
                                  show_default=False, prompt_suffix=" ").strip().lower()
        except click.Abort:
            break
        if answer in ("", "n", "next"):
            if index + 1 >= len(frames):
                if broken:
                    _show_error(loaded)
                else:
                    click.echo(_("That was the last move."))
                continue
            index += 1
        elif answer in ("p", "prev", "back"):
            if index == 0:
                click.echo(_("This is the start of the game."))
                continue
            index -= 1
        elif answer.startswith("g"):
            target = answer[1:].strip()
            found = loaded.index_of(int(target)) if target.isdigit() else None
            if found is None:
                click.echo(_("Type g and a move from 0 to {total}, e.g. g {example}.").format(
                    total=total, example=min(12, total)))
                continue
            index = found
        elif answer in ("q", "quit", "exit"):
            break
        else:
            click.echo(_("Enter or n: next, p: back, g N: go to move N, q: quit."))
            continue
        _show(loaded, index, seat, style, explain)
    if broken:
        raise SystemExit(1)
