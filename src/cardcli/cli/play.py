"""``cardcli play``: an interactive game at the terminal, recorded move by move."""

from __future__ import annotations

import itertools
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click

from ..errors import CardcliError, Kind, RecordError
from ..fit import command_text, path_text, terminal_width
from ..game import Game, choose_dealer
from ..players import check_count, check_level, default_seats, parse_players
from ..reader import load_game
from ..records import MAX_LINE_BYTES, RecordExistsError, RecordWriter, SeatInfo, open_record
from ..safe_text import printable
from ..saved import find_record, games_dir, newest_unfinished, now_stamp, record_argument, shown_path
from ..session import Session, ranking_text
from ..style import Style
from ..ui import TerminalUI
from .common import (
    colour_option,
    complete_saved,
    complete_variant,
    handle_errors,
    registry,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)


@click.command()
@click.argument("variant", required=False, shell_complete=complete_variant)
@ruleset_option()
@click.option("--players", "-p", "players_spec", metavar="SPEC",
              help="Who plays, e.g. you,cpu:normal,cpu:easy (people by name, CPUs by strength; cpu1, "
                   "cpu2, ... are CPUs too), or a number: you and CPUs. Default: you against CPUs.")
@click.option("--seed", type=int, help="Seed the shuffles and CPUs, to replay the same game.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record here (default: a new file under the cardcli games folder).")
@click.option("--resume", "resume_spec", metavar="GAME", is_flag=False, flag_value="last",
              shell_complete=complete_saved,
              help="Continue the game recorded in GAME (a record file, or a saved game's name as cardcli "
                   "games lists it); alone (or 'last'), the newest unfinished game.")
@click.option("--confirm-forced", is_flag=True,
              help="Ask before a move the rules force (a drawn card that must be played): by default "
                   "it is made for you and shown.")
@colour_option
@handle_errors
def play(variant: str | None, ruleset: str | None, players_spec: str | None, seed: int | None,
         record_path: Path | None, resume_spec: str | None, confirm_forced: bool,
         colour: bool | None) -> None:
    """Play VARIANT at the terminal against CPUs or friends (hot seat).

    \b
    cardcli play matching
    cardcli play matching --players you,cpu:normal,cpu:easy --seed 7
    cardcli play matching --players ann,bob          (two people, one terminal)
    cardcli play --resume ~/.local/share/cardcli/games/....jsonl
    cardcli play --resume                            (the newest unfinished game)

    Every move is written to the record as it happens: close the terminal or
    press Ctrl-C at any time and continue later with --resume.
    """
    if resume_spec is not None:
        if variant or ruleset or players_spec or record_path or seed is not None:
            raise click.UsageError("--resume takes the game as recorded: give no other options")
        resume_path = _resume_target(resume_spec)
        game = _resume(resume_path)
        if game is None:
            return
        _check_input(game.seats)
        path = resume_path
        banner: list[str] = []
    else:
        if variant is None:
            raise click.UsageError("name a VARIANT (see: cardcli variants), or give --resume FILE")
        target = variant_named(variant)
        if players_spec and players_spec.strip().isdigit():
            # A table of that many, refused by the rules before a seat is made.
            resolve_ruleset(target, ruleset, int(players_spec))
        seats = (parse_players(players_spec, target, human="you", cpu_names=True) if players_spec
                 else default_seats(target))
        chosen = resolve_ruleset(target, ruleset, len(seats))
        check_count(seats, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
        _check_input(seats)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        path, writer = _new_record(record_path, target.name, seed)
        game = Game(target, chosen.options, seats, choose_dealer(seed, len(seats)), seed=seed,
                    ruleset=None if ruleset is None else chosen.name, writer=writer, created=now_stamp())
        who = ", ".join(s.name if s.is_human else f"{s.name} ({s.kind})" for s in seats)
        banner = [printable(f"{target.title} - {who}"),
                  path_text(f"Seed {seed}. Recording to", shown_path(path), terminal_width())]
    ui = TerminalUI(style=Style.for_stream(colour))
    for line in banner:
        ui.show(line)
    session = Session(game, ui, confirm_forced=confirm_forced)
    if resume_spec is not None:
        session.recap()
    try:
        with session.screen():
            result = session.run()
    except (click.Abort, KeyboardInterrupt, EOFError):
        command = ["cardcli", "play", "--resume", record_argument(path)]
        # Broken into lines only for a terminal: in a log, one line to find.
        width = terminal_width(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else 10**6
        click.echo("\n" + command_text("Game saved. Continue it with:", command, width), err=True)
        raise SystemExit(130) from None
    finally:
        if game.writer is not None:
            game.writer.close()
    if result is not None:
        session.show_end(result, path_text("Record:", shown_path(path), ui.width))


def _resume_target(spec: str) -> Path:
    """The record ``--resume`` means: a file, a saved game's name (the file
    in the games folder, ``.jsonl`` optional), or ``last`` (``--resume``
    alone), the newest unfinished game in the games folder."""
    if spec != "last":
        return Path(find_record(spec))
    found = newest_unfinished()
    if found is None:
        raise CardcliError(f"no unfinished game in {games_dir()} to resume (cardcli games lists the "
                           "saved games; a file named 'last' is resumed with --resume ./last)")
    return found


def _check_input(seats: list[SeatInfo]) -> None:
    """A human seat types its moves: refuse to start with standard input closed."""
    humans = [seat.name for seat in seats if seat.is_human]
    if humans and sys.stdin is None:
        raise CardcliError(printable(f"standard input is closed, and {humans[0]!r} is a human player who "
                                     "types moves: run cardcli play from a terminal, or seat only CPUs"))


def _new_record(record_path: Path | None, variant: str, seed: int,
                command: str = "play") -> tuple[Path, RecordWriter]:
    """Create the record file, never over an existing one.

    A path given with ``--record`` must be new (an existing record is
    continued with ``--resume``); a default name gains ``-2``, ``-3``, ... when
    another game of the same variant and seed started in the same second.
    """
    if record_path is not None:
        candidates: Iterator[Path] = iter([record_path])
    else:
        folder = games_dir()
        stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{variant}-{seed}"
        candidates = (folder / (stem + (f"-{n}" if n > 1 else "") + ".jsonl") for n in itertools.count(1))
    for path in candidates:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            return path, RecordWriter.create(path)
        except RecordExistsError:
            if record_path is not None:
                raise CardcliError(f"{path} already exists; to continue the game it records: "
                                   f"cardcli {command} --resume {path} (or choose another --record file)"
                                   ) from None
        except OSError as error:
            raise CardcliError(f"cannot write the record {path}: {error.strerror}") from None
    raise AssertionError("unreachable")  # pragma: no cover - the default names never run out


def _load(path: Path) -> tuple[Game, bool]:
    """Read the record back, dropping a last line that a crash cut short."""
    for attempt in (1, 2):
        try:
            with open_record(str(path)) as stream:
                return load_game(stream, str(path), registry())
        except RecordError as error:
            if error.kind == Kind.IO:
                raise CardcliError(str(error)) from None
            if error.kind != Kind.TORN_LINE or attempt == 2:
                raise CardcliError(f"cannot resume: {error}") from None
            dropped = _drop_torn_line(path).decode("utf-8", "replace")
            shown = dropped if len(dropped) <= 60 else dropped[:60] + "..."
            click.echo(printable(f"{path}:{error.line}: dropped the last line, cut short by an "
                                 f"interrupted write: {shown}"), err=True)
    raise AssertionError("unreachable")  # pragma: no cover


def _resume(path: Path) -> Game | None:
    """The game recorded in ``path``, ready to go on; ``None`` when there is
    nothing left to play (its missing result line is written, if need be)."""
    game, over = _load(path)
    if over and game.result_line_seen:
        result = game.state.result()
        assert result is not None
        ranking = ranking_text(result.as_dict(), game.names, game.variant.score_label)
        raise click.ClickException(f"this game is already over.\n{ranking}")
    for seat, info in enumerate(game.seats):
        if not info.is_human:
            try:
                check_level(game.variant, info.cpu_level or "")
            except CardcliError as error:
                raise CardcliError(printable(f"cannot resume {path}: seat {seat} ({info.name}) is "
                                             f"{info.kind!r}: {error}")) from None
    _drop_partial_line(path)
    game.writer = RecordWriter.open(str(path), append=True)
    if over:
        data = game.finish()
        game.writer.close()
        assert data is not None
        click.echo(f"The game was over, but its record had no result line: written to {path}.")
        click.echo(ranking_text(data, game.names, game.variant.score_label))
        return None
    game.reseed()
    click.echo(path_text(f"Resuming {game.variant.title} after move {game.moves}. Recording to",
                         shown_path(path), terminal_width()))
    return game


def _drop_torn_line(path: Path) -> bytes:
    """Cut the record after its last complete line; return what was cut."""
    with open(path, "rb+") as stream:
        size = stream.seek(0, os.SEEK_END)
        start = max(0, size - MAX_LINE_BYTES - 1)
        stream.seek(start)
        tail = stream.read()
        keep = start + tail.rfind(b"\n") + 1
        stream.truncate(keep)
    return tail[keep - start:]


def _drop_partial_line(path: Path) -> None:
    """Make sure the record ends with a newline before appending to it."""
    with open(path, "rb+") as stream:
        stream.seek(0, os.SEEK_END)
        if stream.tell() == 0:
            return
        stream.seek(-1, os.SEEK_END)
        if stream.read(1) != b"\n":
            stream.write(b"\n")
