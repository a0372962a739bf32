"""CPU players for End of the Page.  They read only their own hand and the
public table: the melds, the discard pile, the wild rank, hand sizes."""

from __future__ import annotations

import random
from collections.abc import Iterable

from cardcli.contract.variant import Action
from cardcli.kit.cards import RANK, SUIT
from cardcli.kit.melds import melds_with
from cardcli.kit.rand import pick

from .state import DISCARD, DRAW_ACTION, LAYOFF, MELD, P_DRAW, PICKUP, TAKE, EndOfPageState


def easy(state: EndOfPageState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """A random legal decision."""
    return pick(legal, rng)


def _value(state: EndOfPageState, cards: Iterable[int]) -> int:
    points = state.points
    return sum(points[c] for c in cards)


def _useful(state: EndOfPageState, card: int, hand: list[int]) -> int:
    """How much ``card`` helps the hand toward a meld: pairs and near suited neighbours."""
    if state.is_wild(card):
        return 3
    rank, suit = RANK[card], SUIT[card]
    wild = state.wild
    others = list(hand)
    others.remove(card)  # the card itself (another copy of it, with two decks, counts)
    score = 0
    for other in others:
        if RANK[other] == wild:
            continue
        if RANK[other] == rank:
            score += 2
        elif SUIT[other] == suit and 0 < abs(RANK[other] - rank) <= 2:
            score += 1
    return score


def _threat(state: EndOfPageState, seat: int) -> bool:
    """Someone else is close to going out (two cards or fewer, or floating)."""
    return any(len(hand) <= 2 and state.melded[s]
               for s, hand in enumerate(state.hands) if s != seat)


def normal(state: EndOfPageState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Melds as early as it can, lays off whatever plays, keeps wilds and aces
    from the next player, sheds high cards when someone is close to going out,
    and goes out when it can."""
    if state.phase == P_DRAW:
        return _draw(state, seat, legal)
    hand = state.hands[seat]
    melds = [a for a in legal if a[0] == MELD]
    if melds:
        # The most valuable meld, keeping wilds if a natural meld exists.
        return max(melds, key=lambda a: (_value(state, a[1][3]) - 60 * sum(
            1 for c in a[1][3] if state.is_wild(c)), -len(a[1][3])))
    layoffs = [a for a in legal if a[0] == LAYOFF]
    if layoffs:
        keep_one = len(hand) == 2 and not _threat(state, seat)
        if not keep_one or any(not state.plays(c) for c in hand):
            return max(layoffs, key=lambda a: state.points[a[2]])
    discards = [a for a in legal if a[0] == DISCARD]
    if not discards:
        return layoffs[0]
    if len(discards) == 1:
        return discards[0]
    return max(discards, key=lambda a: _discard_score(state, seat, a[1], hand))


def _discard_score(state: EndOfPageState, seat: int, card: int, hand: list[int]) -> float:
    value = state.points[card]
    threat = _threat(state, seat)
    score = value * (1.0 if threat else 0.2) - 8 * _useful(state, card, hand)
    if state.is_wild(card) or RANK[card] == 14:
        score -= 40 if threat else 500  # out of the next player's reach
    if state.plays(card):
        score -= 30  # the next player could lay it off
    return score


def _draw(state: EndOfPageState, seat: int, legal: list[Action]) -> Action:
    """Deep pickups first (they score at once), then the top discard when it
    melds or lays off straight away, else the stock.  Never taking a card it
    cannot use keeps two CPUs from passing the same cards back and forth."""
    hand = state.hands[seat]
    pickups = [a for a in legal if a[0] == PICKUP]
    if pickups:
        return max(pickups, key=lambda a: _value(state, a[2][3]))
    take = next((a for a in legal if a[0] == TAKE), None)
    if take is not None:
        card = take[1]
        if state.melded[seat] and state.plays(card):
            return take
        if melds_with(card, hand, state.mrules):
            return take
    return DRAW_ACTION


POLICIES = {"easy": easy, "normal": normal}
