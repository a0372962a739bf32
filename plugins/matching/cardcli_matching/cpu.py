"""CPU players for matching Page One.  They read only their own hand and the
public table (top card, named suit, pending penalty, other players' counts)."""

from __future__ import annotations

import random

from cardcli.contract.variant import Action
from cardcli.kit.cards import RANK, SUIT
from cardcli.kit.rand import pick

from .config import EIGHT, NONE, REVERSE, SKIP, THREE, TWO
from .state import DRAW_ACTION, KEEP_ACTION, PLAY, MatchingState

FORGET_RATE = 0.15


def easy(state: MatchingState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """A random legal move; forgets the call now and then: Page One with the
    second-to-last card, Stop with the last (where ``stop_call`` is on)."""
    action = pick(legal, rng)
    if action[0] == PLAY:
        size = len(state.hands[seat])
        if size <= 2 and (size == 2 or state.cfg.stop_call):
            call = rng.random() >= FORGET_RATE
            if call != action[3]:
                action = (PLAY, action[1], action[2], call)
    return action


def _best_suit(hand: list[int], without: int) -> int:
    counts = [0, 0, 0, 0]
    for card in hand:
        if card != without and card < 52:
            counts[SUIT[card]] += 1
    return max(range(4), key=lambda s: (counts[s], -s))


def normal(state: MatchingState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Sensible play: answers a 2 with a 2, punishes a player about to go out,
    keeps 8s until they are needed, names its longest suit, always calls."""
    hand = state.hands[seat]
    size = len(hand)
    call = size <= 2 and (size == 2 or state.cfg.stop_call)  # Page One; Stop with the last card
    special = state.cfg.card_special
    plays = [a for a in legal if a[0] == PLAY and a[3] == call]
    if not plays:
        return DRAW_ACTION if DRAW_ACTION in legal else KEEP_ACTION
    if state.penalty:
        return plays[0]  # pass the penalty on rather than draw
    nxt = state.next_seat(seat)
    threat = len(state.hands[nxt]) <= 2

    # Shed high cards, keep 8s for when nothing else plays, keep 2s to answer a 2
    # unless punishing, keep the suit held most of; ties to the lowest card.  The
    # suits are counted once (a playout asks this thousands of times); a card of
    # no suit (SUIT -1) counts in the fifth slot.
    counts = [0] * 5
    for card in hand:
        counts[SUIT[card]] += 1
    bonus = {EIGHT: -50.0, TWO: 40.0 if threat else -10.0, THREE: 40.0 if threat else -10.0,
             SKIP: 30.0 if threat else 2.0, REVERSE: 30.0 if threat else 2.0}

    def score(action: Action) -> tuple[float, int]:
        card = action[1]
        kind = special[card]
        value = RANK[card] * 0.5 if kind == NONE else bonus.get(kind, 0.0)
        return value + counts[SUIT[card]] - 1, -card  # less the card itself

    best = max(plays, key=score)
    if special[best[1]] == EIGHT:
        if KEEP_ACTION in legal and len(hand) > 2:
            return KEEP_ACTION  # a freshly drawn 8 is worth keeping
        best = (PLAY, best[1], _best_suit(hand, best[1]), best[3])
    return best


POLICIES = {"easy": easy, "normal": normal}
