"""``cardcli replay``: step through a recorded game."""

from __future__ import annotations

import sys

import click

from ..errors import CardcliError, RecordError
from ..records import open_record
from ..replay import Replay, load_replay
from ..session import ranking_text
from .common import handle_errors, registry


def _show(replay: Replay, index: int, viewer: int | None) -> None:
    game, frame = replay.game, replay.frames[index]
    state = replay.state(index)
    click.echo("")
    title = "Start of the game" if frame.move == 0 else f"After move {frame.move} of {replay.total}"
    click.echo(f"--- {title} ---")
    for line in frame.told:
        click.echo(f"  {line}")
    click.echo(game.variant.render(state, viewer=viewer, names=game.names))
    result = state.result()
    if result is not None:
        click.echo(ranking_text(result.as_dict(), game.names, game.variant.score_label))


@click.command()
@click.argument("record", metavar="RECORD")
@click.option("--seat", type=int, help="Show only what this seat could see.")
@click.option("--to", "to_move", type=int, metavar="N", help="Print the table after move N and exit.")
@handle_errors
def replay(record: str, seat: int | None, to_move: int | None) -> None:
    """Step through RECORD move by move (- reads stdin).

    \b
    Enter or n: next move     p: back     g N: go to move N     q: quit
    """
    try:
        if record == "-":
            if sys.stdin is None:
                raise CardcliError("cannot read standard input: it is closed")
            replay = load_replay(sys.stdin.buffer, "<stdin>", registry(), seat)
        else:
            with open_record(record) as stream:
                replay = load_replay(stream, record, registry(), seat)
    except RecordError as error:
        if error.kind == "io":
            raise
        raise CardcliError(f"cannot replay: {error}") from None
    except OSError as error:
        raise CardcliError(f"{record}: cannot read: {error.strerror}") from None
    seats = len(replay.game.seats)
    if seat is not None and not 0 <= seat < seats:
        raise click.BadParameter(f"seat {seat} is not at this table (seats 0 to {seats - 1})",
                                 param_hint="--seat")
    total, frames = replay.total, replay.frames
    if to_move is not None:
        found = replay.index_of(to_move)
        if found is None:
            raise click.BadParameter(f"this game has moves 0 to {total}", param_hint="--to")
        _show(replay, found, seat)
        return
    if sys.stdin is None:
        raise CardcliError("standard input is closed, so there is no stepping through the game: "
                           "give --to N to print the table after move N")
    index = 0
    _show(replay, index, seat)
    while True:
        try:
            answer = click.prompt("[Enter/n] next  [p] back  [g N] go to  [q] quit", default="",
                                  show_default=False, prompt_suffix=" ").strip().lower()
        except click.Abort:
            return
        if answer in ("", "n", "next"):
            if index + 1 >= len(frames):
                click.echo("That was the last move.")
                continue
            index += 1
        elif answer in ("p", "prev", "back"):
            if index == 0:
                click.echo("This is the start of the game.")
                continue
            index -= 1
        elif answer.startswith("g"):
            target = answer[1:].strip()
            found = replay.index_of(int(target)) if target.isdigit() else None
            if found is None:
                click.echo(f"Type g and a move from 0 to {total}, e.g. g 12.")
                continue
            index = found
        elif answer in ("q", "quit", "exit"):
            return
        else:
            click.echo("Enter or n: next, p: back, g N: go to move N, q: quit.")
            continue
        _show(replay, index, seat)
