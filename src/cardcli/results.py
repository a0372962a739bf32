"""How a game ended: :class:`Result`, and the rankings every variant computes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def rank_places(values: Sequence[float], *, lower_is_better: bool = True) -> list[int]:
    """Competition ranking ("1, 2, 2, 4") of ``values`` per seat."""
    places = []
    for value in values:
        better = sum(1 for other in values if (other < value if lower_is_better else other > value))
        places.append(better + 1)
    return places


def places_value(places: Sequence[int], seat: int) -> float:
    """``seat``'s share of a ranking, from 1 (first) to 0 (last).

    Seats tied on a place share the places they span: a heads-up draw is
    worth 0.5 to each.  Search uses it to value finished games and rounds.
    """
    n = len(places)
    if n < 2:
        return 1.0
    place = places[seat]
    tied = list(places).count(place)
    return sum((n - q) / (n - 1) for q in range(place, place + tied)) / tied


@dataclass
class Result:
    """How a game ended.  ``places`` is per seat (1 = first, ties share).

    ``winner`` is the single seat in first place, or ``None`` when nobody won
    (a draw, a called-off hand, or a tie for first).  ``scores`` and
    ``rounds`` are the totals and the per-round scores where the variant
    keeps score.
    """

    places: list[int]
    winner: int | None
    reason: str = ""
    scores: list[int] | None = None
    rounds: list[list[int]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"places": self.places, "winner": self.winner}
        if self.reason:
            data["reason"] = self.reason
        if self.scores is not None:
            data["scores"] = self.scores
        if self.rounds is not None:
            data["rounds"] = self.rounds
        data.update(self.extra)
        return data
