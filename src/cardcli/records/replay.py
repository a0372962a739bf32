"""Stepping through a record: the table after each move, rebuilt by the engine.

The record is read once (:class:`Framer`, a record visitor): the game's
history keeps every action, and each frame notes how many events lead to it.
A frame's table, and the words of its events, are rebuilt from the history
when it is shown, moving one state forward (or starting again from the deal
to go back), so no copy of the table is kept per move.  A record with a
mistake is read up to it: the frames end at the last good position.

A record of a real table (its ``view`` names a seat or the public) cannot
be rebuilt so: its unseen cards are known only as the record is read, so
its reading keeps a copy of the table before each event instead, each
showing what the record's viewer knew then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from ..contract.variant import TERMINAL, Action, State
from ..engine.driver import Walk
from ..engine.game import Game
from ..engine.plugins import Registry
from ..kit.errors import Kind, RecordError
from ..kit.record_format import Header, view_seat
from ..unseen.reading import answered
from ..words.narration import describe_events, round_summary
from .reader import Event, RecordVisitor, read_record


@dataclass
class Frame:
    """The table after move ``move`` (0: before the first move): ``events``
    events of the game applied; the frame's own events (the move and the
    chance it caused) are those after the previous frame's."""

    move: int
    events: int
    state: State | None = None  # the table, for a record of a real table (kept as it was read)


class Replay:
    """A record read back: its game (every action in ``game.history``), its
    frames, the table at any of them and the events that led there.

    ``error`` is the record's first problem, when it has one: the frames
    stop at the last position before it, so a hand-written record can be
    stepped through up to its mistake.
    """

    def __init__(self, game: Game, frames: list[Frame], error: RecordError | None = None,
                 kept: list[tuple[State, Action]] | None = None, view: int | None = None):
        self.game = game
        self.frames = frames
        self.error = error
        self._walk: Walk[State] = game.walk()
        #: A record of a real table: each event with the table before it, as read.
        self.kept = kept
        #: Its viewer's seat (``None``: the public, or a record with every card).
        self.view = view

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
        frame = self.frames[index]
        if frame.state is not None:
            return frame.state.clone()
        return self._walk.to(frame.events)

    def events(self, index: int) -> list[tuple[State, Action]]:
        """Frame ``index``'s own events, each with (a copy of) the table as it
        was before it, for ``describe_events`` and ``replay --explain``."""
        start = self.frames[index - 1].events if index > 0 else 0
        if self.kept is not None:
            return self.kept[start:self.frames[index].events]
        return self._walk.events(start, self.frames[index].events)

    def parts(self, index: int) -> list[tuple[list[tuple[State, Action]], str | None]]:
        """Frame ``index``'s events, cut after each that ends a round, each
        part with that round's summary (``Variant.round_summary``: the final
        table and scores, as ``cardcli play`` shows them between rounds)."""
        parts: list[tuple[list[tuple[State, Action]], str | None]] = []
        part: list[tuple[State, Action]] = []
        start = self.frames[index - 1].events if index > 0 else 0
        for at, (before, action) in enumerate(self.events(index), start=start):
            part.append((before, action))
            summary = self._summary(at, before, action)
            if summary is not None:
                parts.append((part, summary))
                part = []
        if part or not parts:
            parts.append((part, None))
        return parts

    def _summary(self, at: int, before: State, action: Action) -> str | None:
        """Event ``at``'s round summary, if it ends a round.  Of a real
        table's record, the rules' questions about cards nobody saw are
        answered as the record answered them: by who acts next."""
        game = self.game
        if self.kept is None:
            return round_summary(game.variant, before, action, game.names)
        following = self.kept[at + 1][0] if at + 1 < len(self.kept) else None
        seat = following.current_player() if following is not None else None
        next_data = None if seat is None else {"move": True, "seat": seat} if seat >= 0 else {"chance": True}
        with answered(game, next_data):
            return round_summary(game.variant, before, action, game.names)

    def told(self, index: int, viewer: int | None) -> list[str]:
        """Frame ``index``'s events in words, as ``viewer`` (``None``: everyone) saw them."""
        game = self.game
        return describe_events(game.variant, self.events(index), viewer=viewer, names=game.names)


class Framer(RecordVisitor[Replay]):
    """The ``replay`` visitor: where each frame ends.  A record broken after
    its header keeps the frames read so far, and the error."""

    def begin_record(self, source: str) -> None:
        self.source = source
        self.game: Game | None = None
        self.frames: list[Frame] = []
        self.error: RecordError | None = None
        self.kept: list[tuple[State, Action]] | None = None
        self.view: int | None = None

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        if header.view is not None:  # the cards written ?? become known only as it is read
            self.kept = []
            self.view = view_seat(header.view, len(game.seats))
        self.game = game
        return None

    def visit_event(self, game: Game, event: Event) -> None:
        if self.kept is not None:
            self.kept.append((game.state.clone(), event.action))

    def visit_state(self, game: Game, event: Event) -> None:
        player = game.state.current_player()
        if player >= 0 or player == TERMINAL:
            kept = None if self.kept is None else game.state.clone()
            self.frames.append(Frame(game.moves, game.events, kept))

    def handle_error(self, error: RecordError) -> None:
        if self.game is None or error.kind == Kind.IO:
            raise error
        self.error = error

    def result(self) -> Replay:
        game = self.game
        assert game is not None, "read_record raises for a record without a header"
        last = self.frames[-1].events if self.frames else -1
        if last != game.events:
            kept = None if self.kept is None else game.state.clone()
            self.frames.append(Frame(game.moves, game.events, kept))
        return Replay(game, self.frames, self.error, self.kept, self.view)


def load_replay(stream: IO[bytes], source: str, registry: Registry) -> Replay:
    """Every frame of a record (up to its first problem, if it has one)."""
    return read_record(stream, source, registry, Framer())
