"""A match of several deals (or rounds) kept by the core; a variant writes one deal's rules.

Every built-in variant can play more than one deal: a match of ``rounds``
(matching), of ``deals`` (trick), a page of rounds (End of the Page).  What
happens between two deals is the same each time: the deal's scores join
the running totals, the dealer moves left, the table as the deal ended is
kept for its summary, and the next deal begins; or the match is over, and
its :class:`~cardcli.kit.results.Result` is the one deal's own (a match of
one deal) or a ranking by the totals.  A state that inherits :class:`Match`
says how a deal ended and how the match is scored, and the core does the rest::

    class MyState(Match, PhasedState):
        deal_phase = P_DEAL          # a new deal starts here, waiting to be dealt
        over_phase = P_OVER
        lower_wins = True            # the lowest total wins the match
        __slots__ = ("hands", "phase", "turn", ...)  # not Match's own slots

        def __init__(self, cfg, num_players, dealer):
            self.cfg, self.num_players = cfg, num_players
            self.begin_match(dealer)     # calls new_deal()

        def new_deal(self): ...          # the table of a new deal
        def match_over(self):            # None: another deal follows
            return None if self.round < self.cfg.rounds else f"{self.round} rounds played"

        # where a deal ends, in the rules:
        self.end_deal(scores, reason, places, winner)

Every slot the match keeps is replaced, never changed in place, so clones
share them (:mod:`cardcli.kit.cloning`; they join the class's ``shared``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..kit.results import Result, places_value, rank_places

__all__ = ["Match", "round_end_checkpoint"]


class Match:
    """A state mixin (put it first among the bases): the deals of a match,
    their scores and totals, the dealer moving left, and the result.

    Its slots, read by the variant's words and tables: ``round`` (deals
    finished), ``totals`` (per seat), ``round_scores`` (per deal, per seat),
    ``round_places`` and ``round_reason`` (the last deal's), ``last_round``
    (the table as the last deal ended, while the next is dealt: see
    :meth:`deal_snapshot`), ``dealer`` and ``_result``.
    """

    __slots__ = ("_result", "dealer", "last_round", "round", "round_places", "round_reason", "round_scores",
                 "totals")
    #: The phase a new deal begins in (its deal still to come).
    deal_phase: ClassVar[int]
    #: The phase of a finished match.
    over_phase: ClassVar[int]
    #: Whether the lowest total wins the match (else the highest).
    lower_wins: ClassVar[bool] = False
    #: The slots a deal's summary reads, kept as the deal ended (the hands first): the default
    #: :meth:`deal_snapshot`, put back by :meth:`table_as_ended`.
    ended: ClassVar[tuple[str, ...]] = ()
    # The variant's, read here.
    num_players: int
    phase: int
    hands: Sequence[Sequence[int]]
    _result: Result | None
    dealer: int
    round: int
    totals: list[int]
    round_scores: list[list[int]]
    round_places: list[int] | None
    round_reason: str
    last_round: tuple[Any, ...] | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Clones share what the match keeps: it is replaced, never changed.
        shared = tuple(getattr(cls, "shared", ()))
        cls.shared = (*shared, *(name for name in Match.__slots__ if name not in shared))  # type: ignore[attr-defined]
        # rollout_value runs after every event of a search's playout: built
        # once per class with its deal phase bound in, unless written by hand.
        if hasattr(cls, "deal_phase") and not _written(cls, "rollout_value"):
            cls.rollout_value = _rollout_value(cls.deal_phase)  # type: ignore[method-assign]
        super().__init_subclass__(**kwargs)

    # ------------------------------------------------------------ the variant's
    def new_deal(self) -> None:
        """Set out the table of a new deal (the dealer has moved on already)."""
        raise NotImplementedError

    def match_over(self) -> str | None:
        """After :attr:`round` deals (and these totals): ``None`` while another
        deal follows, else the reason of the match's result (``3 rounds
        played; lowest total wins``; unused where :meth:`deal_alone`)."""
        raise NotImplementedError

    def deal_alone(self) -> bool:
        """Whether the match is its one deal, whose places, winner and reason
        are the result (no scores, no rounds).  Default: no, ranked by the totals."""
        return False

    def deal_snapshot(self) -> tuple[Any, ...]:
        """The table as a deal ended, kept in ``last_round`` for its summary
        while the next deal is dealt; its first item is the hands.  Default:
        the :attr:`ended` slots where named, else the hands and the deal's reason."""
        if self.ended:
            return tuple(getattr(self, name) for name in self.ended)
        return (self.hands, self.round_reason)

    def match_extra(self) -> dict[str, Any] | None:
        """More fields for a ranked result (``Result.extra``)."""
        return None

    def match_value(self, seat: int) -> float:
        """``seat``'s value to a search's playout stopped between two deals,
        in [0, 1].  Default: its place in the ranking by the totals."""
        return places_value(rank_places(self.totals, lower_is_better=self.lower_wins), seat)

    # ------------------------------------------------------------ the core's
    def begin_match(self, dealer: int) -> None:
        """Start the match (the variant's ``num_players`` set): no deal played
        yet, the totals at 0, and the first deal set out by :meth:`new_deal`."""
        self.dealer = dealer
        self.round = 0
        self.totals = [0] * self.num_players
        self.round_scores = []
        self.round_places = None
        self.round_reason = ""
        self.last_round = None
        self._result = None
        self.new_deal()

    def end_deal(self, scores: list[int], reason: str, places: list[int] | None = None,
                 winner: int | None = None) -> None:
        """A deal has ended (``reason``, English as records state it), each seat
        scoring ``scores``; ``places`` and ``winner`` (``None``: nobody) make
        the result of a match of one deal, and may be left out otherwise.
        The next deal begins, dealt by the next seat, or the match is over."""
        self.round_scores = [*self.round_scores, scores]
        self.totals = [total + score for total, score in zip(self.totals, scores)]
        self.round_places = places
        self.round_reason = reason
        self.round += 1
        why = self.match_over()
        if why is None:
            self.last_round = self.deal_snapshot()
            self.dealer = (self.dealer + 1) % self.num_players
            self.new_deal()
            return
        self.phase = self.over_phase  # type: ignore[misc]  # the variant's slot
        if self.deal_alone():
            assert places is not None, "a match of one deal needs the deal's places"
            self._result = Result(places=places, winner=winner if places.count(1) == 1 else None,
                                  reason=reason)
        else:
            self._result = Result.ranked(self.totals, why, lower_is_better=self.lower_wins,
                                         rounds=self.round_scores, extra=self.match_extra())

    def between_deals(self) -> bool:
        """Whether a deal has just ended and the next is still to be dealt."""
        return self.phase == self.deal_phase and self.round > 0 and not any(self.hands)

    def round_end_hands(self) -> Sequence[Sequence[int]] | None:
        """The hands as a deal ended, right after the event that ended it
        (:meth:`cardcli.contract.unseen.UnseenCards.round_end_hands`)."""
        if self.phase == self.over_phase:
            return self.hands
        if self.between_deals():
            assert self.last_round is not None
            hands: Sequence[Sequence[int]] = self.last_round[0]
            return hands
        return None

    def table_as_ended(self) -> Any:
        """The table as the last deal ended, for its summary: the state itself once the match is
        over, else a copy with its :attr:`ended` slots put back (``None`` before any deal ended)."""
        if self.phase == self.over_phase:
            return self
        if self.last_round is None:
            return None
        table = self.clone()  # type: ignore[attr-defined]  # the variant's state
        for name, value in zip(self.ended, self.last_round):
            setattr(table, name, value)
        return table

    def rollout_value(self, seat: int) -> float | None:
        """Between two deals, :meth:`match_value`: a search's playout may stop there."""
        return self.match_value(seat) if self.between_deals() else None


def round_end_checkpoint(variant: Any, state: Match) -> dict[str, Any] | None:
    """A variant's ``checkpoint`` where a person keeping score writes each round down
    (``checkpoint = round_end_checkpoint``): right after the event that ends a deal, its
    number, its scores and the running totals."""
    if state.round_end_hands() is None:
        return None
    return {"checkpoint": "round_end", "round": len(state.round_scores),
            "scores": list(state.round_scores[-1]), "totals": list(state.totals)}


def _written(cls: type, name: str) -> bool:
    """Whether ``cls`` or a base before :class:`Match` writes method ``name`` by hand."""
    for klass in cls.__mro__:
        if klass is Match:
            return False
        method = vars(klass).get(name)
        if method is not None and not getattr(method, "_built", False):
            return True
    return False


def _rollout_value(deal_phase: int) -> Any:
    def rollout_value(self: Match, seat: int) -> float | None:
        """Between two deals, :meth:`Match.match_value`: a search's playout may stop there."""
        if self.phase == deal_phase and self.round and not any(self.hands):
            return self.match_value(seat)
        return None
    rollout_value._built = True  # type: ignore[attr-defined]  # a subclass builds its own
    return rollout_value
