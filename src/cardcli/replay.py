"""Stepping through a record: the table after each move, rebuilt by the engine.

The record is read once (:class:`Framer`, a record visitor): the game's
history keeps every action, and each frame notes how many events lead to it
and how they read from the viewer's seat.  A frame's table is rebuilt from
the history when it is shown, moving one state forward (or starting again
from the deal to go back), so no copy of the table is kept per move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from .game import Game, describe_event
from .plugins import Registry
from .reader import Event, RecordVisitor, read_record
from .records import Header
from .variant import TERMINAL, State


@dataclass
class Frame:
    """The table after move ``move`` (0: before the first move): ``events``
    events of the game applied, the last of them described in ``told`` (the
    move and the chance it caused)."""

    move: int
    events: int
    told: list[str]


class Replay:
    """A record read back: its game (every action in ``game.history``), its
    frames, and the table at any of them."""

    def __init__(self, game: Game, frames: list[Frame]):
        self.game = game
        self.frames = frames
        self._state = game.new_state()
        self._at = 0  # events applied to ``_state``

    @property
    def total(self) -> int:
        """The number of the last move."""
        return self.frames[-1].move

    def index_of(self, move: int) -> int | None:
        """The frame after move ``move``, or ``None`` if the game has no such move."""
        for index, frame in enumerate(self.frames):
            if frame.move == move:
                return index
        return None

    def state(self, index: int) -> State:
        """The table at frame ``index``, rebuilt from the history.  The state
        is the replay's own: it changes at the next call."""
        target = self.frames[index].events
        if target < self._at:
            self._state, self._at = self.game.new_state(), 0
        history = self.game.history
        apply_legal = self._state.apply_legal
        for action in history[self._at:target]:
            apply_legal(action)
        self._at = target
        return self._state


class Framer(RecordVisitor[Replay]):
    """The ``replay`` visitor: where each frame ends, and its events described
    from ``viewer``'s seat (``None``: everything)."""

    def __init__(self, viewer: int | None = None):
        self.viewer = viewer

    def begin_record(self, source: str) -> None:
        self.game: Game | None = None
        self.frames: list[Frame] = []
        self.told: list[str] = []

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        self.game = game
        return None

    def visit_event(self, game: Game, event: Event) -> None:
        self.told.append(describe_event(game, event.action, self.viewer))

    def visit_state(self, game: Game, event: Event) -> None:
        player = game.state.current_player()
        if player >= 0 or player == TERMINAL:
            self.frames.append(Frame(game.moves, game.events, self.told))
            self.told = []

    def result(self) -> Replay:
        game = self.game
        assert game is not None, "read_record raises for a record without a header"
        if self.told or not self.frames:
            self.frames.append(Frame(game.moves, game.events, self.told))
        return Replay(game, self.frames)


def load_replay(stream: IO[bytes], source: str, registry: Registry, viewer: int | None = None) -> Replay:
    """Every frame of a record, as seen by ``viewer`` (``None``: everything)."""
    return read_record(stream, source, registry, Framer(viewer))
