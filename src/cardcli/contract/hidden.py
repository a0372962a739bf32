"""The hidden-information ability: what each seat can see, and re-dealing the rest.

A state that declares :class:`HiddenInfo` (``class MyState(HiddenInfo,
State)``) says which of its zones (the keys of ``card_zones``) each seat cannot
see, and lets the core replace their contents.  That is all the core needs to
give the variant ``cpu:hard``, the play-time hint, ``replay --explain``'s
ratings and the conformance kit's privacy check: each searches *re-dealt*
copies of a position (:func:`cardcli.unseen.knowledge.redeal`), in which everything a
seat cannot see is dealt anew consistently with what it knows.

Both halves are required (``hidden_zones`` and ``set_zones``); the rest
refines what a seat knows and has a default.  :class:`HandsAndStock` writes
both halves for the usual layout: hands ``"hand N"`` in ``state.hands`` and an
unordered ``"stock"`` in ``state.stock``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..kit.rand import shuffle

#: A test of what a zone cannot hold: ``lambda card: SUIT[card] == HEARTS``.
CardTest = Callable[[int], bool]


class HiddenInfo(ABC):
    """Opt-in ability of a :class:`~cardcli.contract.variant.State`: what each seat can see.

    Inherit it before ``State`` and write :meth:`hidden_zones` and
    :meth:`set_zones`; override the others where the table knows more.
    """

    __slots__ = ()

    @abstractmethod
    def hidden_zones(self, seat: int) -> list[str]:
        """The names (keys of ``card_zones``) of the zones ``seat`` cannot see:
        other hands, the stock ..."""

    @abstractmethod
    def set_zones(self, zones: dict[str, list[int]]) -> None:
        """Replace the contents of hidden zones (each keeps its size): how a
        re-dealt copy is made."""

    def known_cards(self, seat: int) -> dict[str, list[int]]:
        """Cards ``seat`` knows to be in a hidden zone (a card it saw another
        player take and keep, say).  Default: none."""
        return {}

    def ruled_out(self, seat: int) -> dict[str, CardTest]:
        """Hidden zones with cards ``seat`` knows are *not* there, as a test per
        zone (a suit a player was seen to lack).  Default: none."""
        return {}

    def pending_card(self, seat: int) -> tuple[str, int, CardTest] | None:
        """A card in a zone ``seat`` cannot see that the decision now turns on
        (a drawn card the player to act must or may play), as ``(zone, card,
        fits)``: ``fits`` is what the table knows of it (it plays on the top
        card, say).  A re-deal for ``seat`` keeps a card that fits in that
        zone and hands it to :meth:`set_pending_card`, so the copy stays a
        position that can happen.  Default: none."""
        return None

    def set_pending_card(self, card: int) -> None:
        """Point a re-dealt copy at its pending card (see :meth:`pending_card`);
        required of a state whose ``pending_card`` can name one."""
        raise TypeError(f"{type(self).__name__}.pending_card named a card, so it must define "
                        "set_pending_card")

    def rollout_value(self, seat: int) -> float | None:
        """Where a search may stop a playout early (say, at the end of a round
        of a long match): ``seat``'s value in [0, 1], or ``None`` to play on."""
        return None

    def playout_estimate(self, seat: int) -> float | None:
        """A search's guess at ``seat``'s value in [0, 1] when a playout has
        run long without ending (:data:`cardcli.cpu.players.hard.PLAYOUT_CUTOFF`
        events): the search stops it there.  ``None``, the default, plays
        every playout to its end."""
        return None


class HandsAndStock(HiddenInfo):
    """:class:`HiddenInfo` for the usual layout: each seat sees its own hand;
    the other hands (``"hand N"``, held in ``state.hands[N]``) and the stock
    (``"stock"``, an unordered ``state.stock``) are hidden."""

    __slots__ = ()
    hands: list[list[int]]
    stock: list[int]
    num_players: int

    def hidden_zones(self, seat: int) -> list[str]:
        return [f"hand {other}" for other in range(self.num_players) if other != seat] + ["stock"]

    def set_zones(self, zones: dict[str, list[int]]) -> None:
        set_hands_and_stock(self, zones)


def set_hands_and_stock(state: Any, zones: Mapping[str, Sequence[int]]) -> None:
    """``set_zones`` for hidden zones ``"hand N"`` and ``"stock"``, held in
    ``state.hands[N]`` and ``state.stock``."""
    for name, cards in zones.items():
        if name == "stock":
            state.stock = list(cards)
        elif name.startswith("hand "):
            state.hands[int(name[5:])] = list(cards)
        else:
            raise ValueError(f"zone {name!r} is not hidden in {type(state).__name__}")


def hidden_to_anyone(state: HiddenInfo, num_players: int) -> set[str]:
    """The zones some seat cannot see: what a spectator may not see."""
    hidden: set[str] = set()
    for seat in range(num_players):
        hidden.update(state.hidden_zones(seat))
    return hidden


def deal_anew(zones: Mapping[str, Sequence[int]], names: Sequence[str], known: Mapping[str, Sequence[int]],
              rng: random.Random) -> dict[str, list[int]]:
    """The cards of the zones ``names`` dealt anew among them at random (each
    zone keeps its size), except the ``known`` cards, which stay in their
    zones.  The cards are pooled and sorted before the shuffle, so the deal
    depends only on which cards are hidden and on ``rng``, never on where
    they were."""
    pool: list[int] = []
    free: dict[str, int] = {}
    for name in names:
        cards = list(zones[name])
        for card in known.get(name, ()):
            cards.remove(card)
        pool.extend(cards)
        free[name] = len(cards)
    pool.sort()
    shuffle(rng, pool)
    dealt: dict[str, list[int]] = {}
    start = 0
    for name in names:
        dealt[name] = list(known.get(name, ())) + pool[start:start + free[name]]
        start += free[name]
    return dealt
