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


def places_after(out: Sequence[int], held: Sequence[float]) -> list[int]:
    """The places of a deal the seats in ``out`` left first, in that order;
    every other seat placed after them by ``held`` (fewer is better, ties share)."""
    places = [0] * len(held)
    for place, seat in enumerate(out, start=1):
        places[seat] = place
    rest = [seat for seat in range(len(held)) if seat not in out]
    for seat, place in zip(rest, rank_places([held[seat] for seat in rest])):
        places[seat] = place + len(out)
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


#: How much of a finished game's value to a search is winning it outright
#: (the rest is the place reached).  Mostly winning: a shared, called-off
#: hand is not a win, and valuing it as an average result made the search
#: steer into draws.
WIN_WEIGHT = 0.75


def outcome_value(places: Sequence[int], winner: int | None, seat: int) -> float:
    """What an ending (a game's, or a deal's of a longer match) is worth to
    ``seat``'s search, from 1 (won) to 0 (last): mostly the win, the rest the place."""
    won = 1.0 if winner == seat else 0.0
    return WIN_WEIGHT * won + (1 - WIN_WEIGHT) * places_value(places, seat)


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

    @classmethod
    def ranked(cls, totals: Sequence[int], reason: str, *, lower_is_better: bool,
               rounds: Sequence[Sequence[int]], extra: dict[str, Any] | None = None) -> Result:
        """The result of a game of several rounds, ranked by ``totals`` (the
        scores it states): the single seat in first place wins, a tie for
        first has no winner."""
        places = rank_places(totals, lower_is_better=lower_is_better)
        first = [seat for seat, place in enumerate(places) if place == 1]
        return cls(places=places, winner=first[0] if len(first) == 1 else None, reason=reason,
                   scores=list(totals), rounds=[list(scores) for scores in rounds], extra=dict(extra or {}))

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
