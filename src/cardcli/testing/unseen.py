"""Checks of records with unseen cards, for the conformance kit and the tests.

* every record cardcli writes, exported from every view (each seat's and a
  spectator's), validates as consistent with what the table saw: a false
  rejection of a real game is the worst bug the check can have;
* a variant's :meth:`~cardcli.contract.unseen.UnseenCards.cards_lacked` says what
  its rules say: the same cards the default finds by asking the rules.
"""

from __future__ import annotations

import io
import random
from typing import Any

from ..contract.hidden import CardTest
from ..contract.unseen import UnseenCards, probe_lacks
from ..engine.plugins import get_registry
from ..kit.cards import UNSEEN
from ..kit.errors import IllegalMove
from ..kit.record_format import dumps
from ..records.export import Exporter
from ..records.reader import read_record
from ..records.validate import Report, validate_stream
from .checks import Position


def export_bytes(record: bytes, viewer: int | None, source: str = "<record>") -> bytes:
    """The record (every card known) as ``viewer`` saw it (``None``: a spectator)."""
    lines: list[dict[str, Any]] = []
    read_record(io.BytesIO(record), source, get_registry(), Exporter(viewer, lines.append))
    return "".join(dumps(line) + "\n" for line in lines).encode()


def check_exports(record: bytes, seats: int, source: str = "<record>") -> list[Report]:
    """Export ``record`` from every view and validate each: every one must be
    consistent with what the table saw (``AssertionError`` says which is not)."""
    reports = []
    for viewer in [None, *range(seats)]:
        exported = export_bytes(record, viewer, source)
        where = f"{source}, {'public' if viewer is None else f'seat {viewer}'} view"
        report = validate_stream(io.BytesIO(exported), where, get_registry())
        assert report.valid, f"a real game is rejected ({where}): {report.error}"
        assert report.check == "consistent"
        reports.append(report)
    return reports


def _cards(test: CardTest | frozenset[int] | None, pack: list[int]) -> frozenset[int]:
    if test is None:
        return frozenset()
    if isinstance(test, frozenset):
        return test & frozenset(pack)
    return frozenset(card for card in pack if test(card))


def check_cards_lacked(position: Position, rng: random.Random) -> int:
    """At ``position``, with some of the acting seat's cards made unseen,
    ``cards_lacked`` of each legal decision must be what the rules say (the
    default, which asks them).  Returns the decisions checked."""
    state = position.state.clone()
    seat = state.current_player()
    if not isinstance(state, UnseenCards) or seat < 0:
        return 0
    legal = state.legal_actions()
    hand = state.hands[seat]
    if not hand:
        return 0
    for index in rng.sample(range(len(hand)), rng.randint(1, len(hand))):
        hand[index] = UNSEEN
    pack = sorted(set(state.deck))  # type: ignore[attr-defined]
    checked = 0
    for action in legal:
        seen = state.clone()
        held = seen.hands[seat]
        for card in seen.cards_taken(action):  # as the record reader does: the move shows them
            if card not in held and UNSEEN in held:
                held[held.index(UNSEEN)] = card
        try:
            seen.check(action)
        except IllegalMove:  # pragma: no cover - the pending card's own rule
            continue
        said = _cards(seen.cards_lacked(action), pack)
        asked = _cards(probe_lacks(seen, action), pack)
        assert said == asked, (f"{type(state).__name__}.cards_lacked({action!r}) says {sorted(said)}, "
                               f"but the rules bar {sorted(asked)} (event {position.index})")
        checked += 1
    return checked
