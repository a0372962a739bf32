"""Record files of the games at this terminal: a new one, never over another;
one read back to go on with (a line a crash cut short dropped, said so).
Shared by ``play``, ``serve`` and ``referee``."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

import click

from ..cpu.players import check_level
from ..engine.game import Game
from ..kit.errors import CardcliError, Kind, RecordError, system_words
from ..kit.fit import path_text, terminal_width
from ..kit.language import core as _
from ..kit.record_format import MAX_LINE_BYTES, RecordExistsError, RecordWriter, open_record
from ..kit.safe_text import printable
from ..records.reader import load_game
from ..records.saved import games_dir, shown_path
from ..terminal.session import ranking_text
from .common import registry


def new_record(record_path: Path | None, variant: str, seed: int,
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
                raise CardcliError(_("{path} already exists; to continue the game it records: {command} (or "
                                     "choose another --record file)").format(
                                       path=path, command=f"cardcli {command} --resume {path}")) from None
        except OSError as error:
            raise CardcliError(_("cannot write the record {path}: {error}").format(
                path=path, error=system_words(error))) from None
    raise AssertionError("unreachable")  # pragma: no cover - the default names never run out


def load_record(path: Path) -> tuple[Game, bool]:
    """Read the record back, dropping a last line that a crash cut short."""
    for attempt in (1, 2):
        try:
            with open_record(str(path)) as stream:
                return load_game(stream, str(path), registry())
        except RecordError as error:
            if error.kind == Kind.IO:
                raise CardcliError(str(error)) from None
            if error.kind != Kind.TORN_LINE or attempt == 2:
                raise CardcliError(_("cannot resume: {error}").format(error=error)) from None
            dropped = _drop_torn_line(path).decode("utf-8", "replace")
            shown = dropped if len(dropped) <= 60 else dropped[:60] + "..."
            said = _("{path}:{line}: dropped the last line, cut short by an interrupted write: {text}")
            click.echo(printable(said.format(path=path, line=error.line, text=shown)), err=True)
    raise AssertionError("unreachable")  # pragma: no cover


def resume_record(path: Path) -> Game | None:
    """The game recorded in ``path``, ready to go on; ``None`` when there is
    nothing left to play (its missing result line is written, if need be)."""
    game, over = load_record(path)
    if over and game.result_line_seen:
        result = game.state.result()
        assert result is not None
        ranking = ranking_text(result.as_dict(), game.names, game.variant.words(game.variant.score_label))
        raise click.ClickException(_("this game is already over.") + "\n" + ranking)
    for seat, info in enumerate(game.seats):
        if not info.is_human:
            try:
                check_level(game.variant, info.cpu_level or "")
            except CardcliError as error:
                # Translators: {kind} is the seat's kind as the record writes it ('cpu:normal').
                said = _("cannot resume {path}: seat {seat} ({name}) is {kind!r}: {error}")
                raise CardcliError(printable(said.format(path=path, seat=seat, name=info.name, kind=info.kind,
                                                         error=error))) from None
    _drop_partial_line(path)
    game.writer = RecordWriter.open(str(path), append=True)
    if over:
        data = game.finish()
        game.writer.close()
        assert data is not None
        click.echo(_("The game was over, but its record had no result line: written to {path}.").format(
            path=path))
        click.echo(ranking_text(data, game.names, game.variant.words(game.variant.score_label)))
        return None
    game.reseed()
    # Translators: the record's path follows, on this line or the next.
    said = _("Resuming {title} after move {move}. Recording to").format(
        title=game.variant.words(game.variant.title), move=game.moves)
    click.echo(path_text(said, shown_path(path), terminal_width()))
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
