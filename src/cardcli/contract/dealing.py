"""The usual deal, kept once: the same number of cards to each seat from the full pack, the rest the stock.

A state that inherits :class:`DealtMatch` (a :class:`~cardcli.contract.match.Match`, first among the
bases) is made as ``MyState(cfg, num_players, dealer, deck)``; the core keeps ``cfg`` (whose
``hand_size`` is the cards dealt each seat), ``deck`` (the full pack, shared by clones and never
changed), ``hands`` and an unordered ``stock``.  The state names the kind of its deal, the chance
event ``(deal_kind, hands)``::

    class MyState(DealtMatch, PhasedState):
        deal_phase = P_DEAL
        deal_kind = DEAL
        __slots__ = ("phase", "turn", ...)  # not DealtMatch's own slots, nor Match's

        def new_deal(self):
            super().new_deal()           # empty hands and stock, the seat left of the dealer to start
            ...
        # and, at the deal phase: self.sample_deal(rng) in sample_chance,
        # self.check_deal(action) in check_chance, self.take_deal(hands) in apply_legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ..kit import cards
from ..kit.language import core as _
from .match import Match

__all__ = ["DealtMatch"]


class DealtMatch(Match):
    """A :class:`Match` whose every deal is ``cfg.hand_size`` cards to each seat from ``deck``."""

    __slots__ = ("cfg", "deck", "hands", "num_players", "stock")
    shared: ClassVar[tuple[str, ...]] = ("deck",)
    #: The kind (first item) of the deal's chance event.
    deal_kind: ClassVar[Any]
    cfg: Any
    deck: list[int]
    hands: list[list[int]]
    stock: list[int]
    turn: int  # the variant's slot

    def __init__(self, cfg: Any, num_players: int, dealer: int, deck: list[int]):
        self.cfg = cfg
        self.num_players = num_players
        self.deck = deck
        self.begin_match(dealer)

    def new_deal(self) -> None:
        """Empty hands and stock, waiting in ``deal_phase`` for the deal; the seat left of the dealer
        starts.  The variant's ``new_deal`` calls it first, then sets out the rest of its table."""
        self.hands = [[] for _seat in range(self.num_players)]
        self.stock = []
        self.turn = (self.dealer + 1) % self.num_players  # type: ignore[misc]  # the variant's slot
        self.phase = self.deal_phase  # type: ignore[misc]  # the variant's slot

    def expecting(self) -> str:
        """The deal, where one is awaited ("the deal of round 2"); else the state's other words."""
        if self.phase != self.deal_phase:
            return super().expecting()  # type: ignore[misc]  # State's
        if self.deal_alone():
            # Translators: what must happen next: the cards dealt.
            return _("the deal")
        return _("the deal of round {round}").format(round=self.round + 1)

    def sample_deal(self, rng: random.Random) -> tuple[Any, tuple[tuple[int, ...], ...]]:
        """A random deal, as ``sample_chance`` returns it."""
        return (self.deal_kind, cards.deal_hands(self.deck, self.num_players, self.cfg.hand_size, rng))

    def check_deal(self, action: Any) -> None:
        """Refuse (``IllegalMove``, saying why) what is not a deal of the rules' hands from the pack."""
        self.expect(action, self.deal_kind)  # type: ignore[attr-defined]  # PhasedState's
        cards.check_deal(self.deck, action[1], self.num_players, self.cfg.hand_size)

    def take_deal(self, hands: Sequence[Sequence[int]]) -> None:
        """Give each seat its hand; the rest of the pack is the stock."""
        for seat, hand in enumerate(hands):
            self.hands[seat] = list(hand)
        self.stock = cards.deal_remainder(self.deck, hands)
