"""CPU players for trick-taking Page One.  They read only their own hand and the
public table (the trick so far, the suit led, card counts, the stock size)."""

from __future__ import annotations

import random
from collections import Counter

from cardcli.contract.variant import Action
from cardcli.kit.cards import JOKER, RANK, SUIT
from cardcli.kit.rand import pick

from .state import DRAW_ACTION, P_FORCED, PLAY, PLAYS, TrickState

FORGET_RATE = 0.15


def easy(state: TrickState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """A random legal move; forgets the Page One call now and then."""
    action = pick(legal, rng)
    if action[0] == PLAY and len(state.hands[seat]) == 2:
        return PLAYS[action[1]][rng.random() >= FORGET_RATE]
    return action


def _lacking(state: TrickState, seat: int) -> list[int]:
    """Per suit, how many other players the table saw lack it (they had to
    draw to follow it): leading that suit makes them draw again."""
    voids = [mask for other, mask in enumerate(state.voids) if other != seat]
    return [sum(mask >> suit & 1 for mask in voids) for suit in range(4)]


def normal(state: TrickState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Sensible play from the table's tips: lead a suit others were seen to
    lack, else from the longest suit; save the joker for taking the lead when
    it matters (or to avoid drawing), play low when the trick cannot be won,
    and always call Page One."""
    hand = state.hands[seat]
    call = len(hand) == 2
    if state.phase == P_FORCED:
        return PLAYS[state.forced][call]
    cards = [a[1] for a in legal if a[0] == PLAY and a[2] is False]
    if not cards:
        return DRAW_ACTION
    has_joker = JOKER in cards
    plain = [c for c in cards if c != JOKER]
    counts = Counter(SUIT[card] for card in hand if card != JOKER)  # cards per suit
    if not state.trick:  # leading
        if has_joker and (len(hand) == 2 or not plain):
            return PLAYS[JOKER][call]  # the joker takes the trick, then lead the last card
        lacking = _lacking(state, seat)
        # The order of (lacking, count of the suit, rank, -suit), as one number
        # per card (a playout leads thousands of times).
        weight = [(lacking[suit] * 128 + counts[suit]) * 64 + 3 - suit for suit in range(4)]
        best, top = plain[0], -1
        for card in plain:
            key = weight[SUIT[card]] + 4 * RANK[card]
            if key > top:
                best, top = card, key
        return PLAYS[best][call]
    if state.suit < 0:  # after a led joker: anything goes, the joker wins anyway
        if not plain:
            return PLAYS[JOKER][call]
        low = min(plain, key=lambda c: (-counts[SUIT[c]], RANK[c], SUIT[c]))
        return PLAYS[low][call]
    follow = [c for c in plain if SUIT[c] == state.suit]
    if not follow:
        # Cannot follow: the joker saves a run of draws.
        return PLAYS[JOKER][call] if has_joker else DRAW_ACTION
    if has_joker and len(hand) == 2:
        return PLAYS[JOKER][call]  # win the trick and lead the last card
    best_card = state.trick[state.win_pos]
    if best_card == JOKER:
        return PLAYS[min(follow, key=lambda c: RANK[c])][call]
    winners = [c for c in follow if RANK[c] > RANK[best_card]]
    if not winners:
        return PLAYS[min(follow, key=lambda c: RANK[c])][call]  # cannot win: play low
    last = len(state.trick) == state.num_players - 1
    # Last to play: the cheapest winner does; otherwise the highest stands the best chance.
    pick = min(winners, key=lambda c: RANK[c]) if last else max(winners, key=lambda c: RANK[c])
    return PLAYS[pick][call]


POLICIES = {"easy": easy, "normal": normal}
