"""The meld decisions listed by ``legal_actions`` (three-card melds, smallest
deep-pickup melds) reach every legal meld through lay-offs: checked against
brute force on random hands."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from cardcli.kit.cards import NAME, RANK
from cardcli.kit.melds import add_card, interpretations, layoff_meanings
from cardcli_endofpage.state import MELD, PICKUP

from .conftest import P_DRAW, P_PLAY, table

PACK = [c for c in range(52) if RANK[c] != 2 and NAME[c] != "QH"]  # no 2s; QH is the other hand


def reachable(start, target, rules) -> bool:
    """Whether lay-offs of the missing cards turn meld ``start`` into ``target``."""
    missing = Counter(target[3]) - Counter(start[3])
    if not missing:
        return start == target
    for card in missing:
        for as_rank in layoff_meanings(start, card, rules):
            if reachable(add_card(start, card, as_rank, rules), target, rules):
                return True
    return False


def hand_text(cards):
    from cardcli.kit.cards import NAME

    return " ".join(NAME[c] for c in cards)


def random_table(rng, phase):
    wild = rng.choice([3, 5, 9, 12])
    suit = rng.randrange(4)
    # A hand rich in one suit and one rank, so melds with wilds are common.
    pool = [c for c in PACK if c // 13 == suit] * 1
    hand = rng.sample(pool, 5)
    wilds = [c for c in PACK if RANK[c] == wild and c not in hand]
    hand += rng.sample(wilds, rng.randrange(0, 3))
    rest = [c for c in PACK if c not in hand]
    discard = rng.sample(rest, 4)
    from cardcli.kit.cards import RANK_NAMES

    return table(wild=RANK_NAMES[wild], hands=[hand_text(hand), "QH"], discard=hand_text(discard),
                 phase=phase)


@pytest.mark.parametrize("seed", range(60))
def test_every_legal_meld_is_a_listed_meld_plus_layoffs(seed):
    state = random_table(random.Random(seed), P_PLAY)
    rules = state.mrules
    hand = state.hands[0]
    listed = [a[1] for a in state.legal_actions() if a[0] == MELD]
    for size in range(3, len(hand) + 1):
        for combo in set(combinations(sorted(hand), size)):
            for meld in interpretations(combo, rules):
                assert any(reachable(m, meld, rules) for m in listed), meld


@pytest.mark.parametrize("seed", range(60))
def test_every_legal_deep_pickup_is_a_listed_one_plus_layoffs(seed):
    state = random_table(random.Random(seed), P_DRAW)
    rules = state.mrules
    hand = state.hands[0]
    listed = [a for a in state.legal_actions() if a[0] == PICKUP]
    for card in set(state.discard[:-1]):
        for size in range(2, len(hand) + 1):
            for combo in set(combinations(sorted(hand), size)):
                for meld in interpretations((card, *combo), rules):
                    action = (PICKUP, card, meld)
                    try:
                        state.check(action)
                    except Exception:
                        continue
                    assert any(a[1] == card and reachable(a[2], meld, rules) for a in listed), meld
