"""A record as one seat saw it, or as a spectator did: ``cardcli export``.

The records cardcli writes hold every hand and the seed, so they show more
than anyone at the table saw.  :class:`Exporter` reads such a record through
the rules and writes it again from one ``view``: each card the viewer did
not see becomes ``"??"`` (another seat's deal, another seat's draw; a hand
nobody saw is written as its number of cards), the seed goes, and where the
table counts the cards left in hand at a round's end a ``shown`` line says
what it counted.  The result validates as a record of a real table does
(``cardcli validate`` says "consistent with what the table saw"), and is
safe to share: no stock order, no seed, no card the viewer did not see.
A record already written from a seat's view may be exported again as a
spectator saw it (the referee's record of one player's seat, to share).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..contract.unseen import UnseenCards
from ..contract.variant import CHANCE
from ..engine.game import Game
from ..kit.cards import NAME
from ..kit.errors import Kind, RecordError
from ..kit.language import core as _
from ..kit.record_format import Header, view_seat
from .reader import Event, RecordVisitor


class Exporter(RecordVisitor[int]):
    """Writes each line of the record being read as ``viewer`` saw it
    (``None``: a spectator) through ``write``; returns the lines written."""

    def __init__(self, viewer: int | None, write: Callable[[dict[str, Any]], None]):
        self.viewer = viewer
        self.write = write
        self.lines = 0
        self.source = "<export>"

    def begin_record(self, source: str) -> None:
        self.source = source

    def _out(self, data: dict[str, Any]) -> None:
        self.write(data)
        self.lines += 1

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        if not isinstance(game.state, UnseenCards):
            said = _("the variant {variant!r} cannot write a record with unseen cards")
            raise RecordError(said.format(variant=game.variant.name),
                              source=self.source, line=line, kind=Kind.HEADER)
        if self.viewer is not None and not 0 <= self.viewer < len(game.seats):
            said = _("there is no seat {seat}: the seats are 0 to {last}")
            raise RecordError(said.format(seat=self.viewer, last=len(game.seats) - 1),
                              source=self.source, line=line, kind=Kind.HEADER)
        if header.view is not None and self.viewer is not None and view_seat(header.view, len(game.seats)) \
                != self.viewer:  # a narrower view may be written (a seat's as a spectator's), not a wider one
            if header.view == "public":
                said = _("this record is written from a spectator's view: it holds no cards of seat {seat} "
                         "to show (export --public, or a record with every card)")
            else:  # a seat's view is written "seat N"
                said = _("this record is written from seat {view}'s view: it holds no cards of seat {seat} "
                         "to show (export --public, or a record with every card)")
            raise RecordError(said.format(view=header.view.removeprefix("seat "), seat=self.viewer),
                              source=self.source, line=line, kind=Kind.HEADER)
        data = header.as_dict()
        data.pop("seed", None)  # with the seed, anyone could deal every hand again
        data["view"] = "public" if self.viewer is None else f"seat {self.viewer}"
        self._out(data)
        return None

    def visit_event(self, game: Game, event: Event) -> None:
        state = game.state
        if event.seat == CHANCE:
            self._out(game.variant.encode_action(state, state.seen_by(event.action, self.viewer)))
        else:
            self._out(dict(event.data))

    def visit_state(self, game: Game, event: Event) -> None:
        state = game.state
        hands = state.round_end_hands()
        if hands is not None and state.hands_count():
            self._out({"shown": [[NAME[card] for card in hand] for hand in hands]})

    def visit_checkpoint(self, game: Game, stated: dict[str, Any], line: int) -> None:
        self._out(stated)

    def visit_result(self, game: Game, stated: dict[str, Any], line: int) -> None:
        self._out({"result": stated})

    def end_record(self, game: Game) -> None:
        """A finished game's record must end with its result line: an export
        is written only of a record found valid (or legal so far, for a game
        still going)."""
        result = game.state.result() if game.state.is_terminal() else None
        if result is not None and not game.result_line_seen:
            said = _("the game is over but the record has no result line (expected {line}): nothing was "
                     "exported")
            raise RecordError(said.format(line=json.dumps({"result": result.as_dict()})),
                              source=self.source, move=game.moves, kind=Kind.MISSING_RESULT)

    def result(self) -> int:
        return self.lines
