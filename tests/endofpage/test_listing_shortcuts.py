"""End of the Page lists its melds and lay-offs through shortcuts (bit masks
of a hand's naturals, remembered run windows, a pre-filter of the deep
discards, an index of the cards each meld takes): over many random games and
hands the listing equals the one computed from scratch, in the same order
(the order matters: a random CPU picks by position, so a seed's games depend
on it).

The reference functions below are the from-scratch listing as it was
written before the shortcuts, kept here as the oracle.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardcli.engine.driver import PolicyPlayer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import RANK, SUIT
from cardcli.kit.melds import (
    RUN,
    SET,
    Meld,
    MeldRules,
    layoff_meanings,
    make_set,
    natural_layoffs,
    pickup_melds,
    three_card_melds,
)
from cardcli_endofpage.state import DISCARD, DRAW_ACTION, LAYOFF, MELD, P_DRAW, P_PLAY, PICKUP, TAKE


def reference_legal_actions(state) -> list:
    """``EndOfPageState.legal_actions`` from scratch: every card against every meld."""
    if state.phase == P_PLAY:
        hand = state.hands[state.turn]
        rules = state.mrules
        actions: list = []
        if len(hand) >= 3:
            actions.extend((MELD, meld) for meld in reference_three_card_melds(hand, rules))
        distinct = sorted(set(hand))
        if state.melded[state.turn] and state.melds:
            for card in distinct:
                for index, meld in enumerate(state.melds):
                    for as_rank in layoff_meanings(meld, card, rules):
                        actions.append((LAYOFF, index, card, as_rank))
        if len(hand) == 1 and actions:
            return actions
        actions.extend((DISCARD, card) for card in distinct)
        return actions
    if state.phase == P_DRAW:
        actions = [DRAW_ACTION]
        discard = state.discard
        if discard:
            actions.append((TAKE, discard[-1]))
            if len(discard) > 1:
                for card, meld in reference_pickup_melds(sorted(set(discard[:-1])), state.hands[state.turn],
                                                         state.mrules):
                    actions.append((PICKUP, card, meld))
        return actions
    return []


TABLES = [(2, {}), (3, {}), (4, {"decks": 2}), (6, {"decks": 2})]


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(TABLES),
       st.sampled_from(["easy", "normal"]))
def test_listing_equals_from_scratch_over_random_games(seed, table, level):
    players, options = table
    variant = get_registry().get("endofpage")
    rules = dict(default_ruleset(variant).options)
    rules.update(options, page_lines=2)
    state = variant.new_state(rules, players, seed % players)
    rng = random.Random(seed)
    player = PolicyPlayer(variant.cpu_policy(level), rng)
    compared = 0
    for _ in range(3000):
        seat = state.current_player()
        if seat == -2:
            break
        if seat >= 0:
            legal = state.legal_actions()
            assert legal == reference_legal_actions(state)
            compared += 1
            action = player.act(state, seat, legal)
        else:
            action = state.sample_chance(rng)
        state.apply_legal(action)
    assert compared > 0


def hands(draw, size_range=(3, 14)):
    wild = draw(st.sampled_from([3, 4, 5, 7, 9, 12, 13]))
    rules = MeldRules(wild=wild, lowest=3, highest=14, min_naturals=draw(st.sampled_from([2, 3])),
                      wild_gap=draw(st.sampled_from([1, 2])))
    pack = [c for c in range(52) if RANK[c] != 2] * 2
    hand = draw(st.lists(st.sampled_from(pack), min_size=size_range[0], max_size=size_range[1]))
    return rules, hand


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_three_card_melds_equal_from_scratch(data):
    rules, hand = hands(data.draw)
    assert three_card_melds(hand, rules) == reference_three_card_melds(hand, rules)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_pickup_melds_equal_from_scratch(data):
    rules, hand = hands(data.draw)
    pile = data.draw(st.lists(st.sampled_from([c for c in range(52) if RANK[c] != 2]), max_size=30))
    candidates = sorted(set(pile))
    assert pickup_melds(candidates, hand, rules) == reference_pickup_melds(candidates, hand, rules)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_natural_layoffs_equal_every_card_on_every_meld(data):
    rules, hand = hands(data.draw, (6, 20))
    melds = [meld for meld in reference_three_card_melds(hand, rules)][:8]
    fits = natural_layoffs(melds, rules)
    for card in range(52):
        if RANK[card] == rules.wild:
            continue
        expected = [(index, as_rank) for index, meld in enumerate(melds)
                    for as_rank in layoff_meanings(meld, card, rules)]
        assert fits.get(card, []) == expected, card


# --- the reference listing, from scratch -------------------------------------------------------------------
def reference_three_card_melds(hand: Sequence[int], rules: MeldRules) -> list[Meld]:
    """Every legal three-card meld in ``hand`` (distinct, canonical).

    Any longer legal meld is such a meld plus lay-offs, so a turn can always
    reach it through these; games list these as the meld decisions.
    """
    wild = rules.wild
    by_rank: dict[int, list[int]] = {}
    present = set(hand)
    wilds = sorted({c for c in hand if RANK[c] == wild})
    for card in hand:
        if RANK[card] != wild:
            by_rank.setdefault(RANK[card], []).append(card)
    found: list[Meld] = []
    seen = set()
    need_wild = rules.min_naturals < 3
    for rank, naturals in by_rank.items():
        naturals.sort()
        if len(naturals) >= 3:
            for combo in combinations(naturals, 3):
                meld = (SET, rank, 0, combo)
                if meld not in seen:
                    seen.add(meld)
                    found.append(meld)
        if need_wild and wilds and len(naturals) >= 2:
            for pair in combinations(naturals, 2):
                for w in wilds:
                    meld = (SET, rank, 0, (*pair, w))
                    if meld not in seen:
                        seen.add(meld)
                        found.append(meld)
    lowest, highest = rules.lowest, rules.highest
    for suit in range(4):
        base = suit * 13 - 2
        for low in range(lowest, highest - 1):
            a, b, c = base + low, base + low + 1, base + low + 2
            ha = a in present and RANK[a] != wild
            hb = b in present and RANK[b] != wild
            hc = c in present and RANK[c] != wild
            count = ha + hb + hc
            if count == 3:
                found.append((RUN, suit, low, (a, b, c)))
            if count >= 2 and need_wild and wilds:
                for w in wilds:
                    if hb and hc:
                        found.append((RUN, suit, low, (w, b, c)))
                    if ha and hc:
                        found.append((RUN, suit, low, (a, w, c)))
                    if ha and hb:
                        found.append((RUN, suit, low, (a, b, w)))
    return found


def reference_pickup_melds(candidates: Iterable[int], hand: Sequence[int],
                           rules: MeldRules) -> list[tuple[int, Meld]]:
    """``(card, meld)`` for every smallest meld of one of ``candidates`` (distinct
    cards, e.g. the discards below the top) with two *natural* cards of ``hand``:
    three-card melds, and four-card runs whose gap inside is filled by a wild
    of the hand (``5C + 7C 8C + W``: no three-card meld holds the card and two
    naturals of the hand there).  Every legal meld of such a card with at
    least two naturals of the hand is one of these plus lay-offs.

    The hand is indexed once, so listing a draw's choices stays cheap however
    deep the discard pile is.
    """
    wild = rules.wild
    lowest, highest = rules.lowest, rules.highest
    by_rank: dict[int, list[int]] = {}
    present = set()
    hand_wilds: list[int] = []
    for c in hand:
        if RANK[c] != wild:
            by_rank.setdefault(RANK[c], []).append(c)
            present.add(c)
        elif c not in hand_wilds:
            hand_wilds.append(c)
    hand_wilds.sort()
    gap_runs = rules.min_naturals <= 3 and rules.wild_gap <= 2
    pairs_by_rank = {rank: sorted(set(combinations(sorted(cards), 2)))
                     for rank, cards in by_rank.items() if len(cards) >= 2}
    found: list[tuple[int, Meld]] = []
    wild_runs: list[tuple[int, int, tuple[int, int, int], int]] | None = None
    for card in candidates:
        rank = RANK[card]
        if rank != wild:
            suit = SUIT[card]
            for pair in pairs_by_rank.get(rank, ()):
                found.append((card, make_set(rank, (card, *pair), rules)))
            base = suit * 13 - 2
            for low in (rank - 2, rank - 1, rank):
                if low < lowest or low + 2 > highest:
                    continue
                a, b, c = base + low, base + low + 1, base + low + 2
                if (a == card or a in present) and (b == card or b in present) and (
                        c == card or c in present):
                    found.append((card, (RUN, suit, low, (a, b, c))))
            if hand_wilds and gap_runs:
                # Four cards, a wild from the hand inside: 5C + 7C 8C + W = 5C W 6C... (the
                # card and two naturals of the hand span four ranks, one gap filled).
                for low in range(rank - 3, rank + 1):
                    if low < lowest or low + 3 > highest:
                        continue
                    window = [base + low + i for i in range(4)]
                    for slot in (1, 2):
                        if window[slot] == card:
                            continue
                        if all(window[i] == card or window[i] in present for i in range(4) if i != slot):
                            for w in hand_wilds:
                                filled = list(window)
                                filled[slot] = w
                                found.append((card, (RUN, suit, low, tuple(filled))))
            continue
        for rank2, pairs in pairs_by_rank.items():
            for pair in pairs:
                found.append((card, (SET, rank2, 0, (*pair, card))))
        if wild_runs is None:
            wild_runs = []
            for suit in range(4):
                base = suit * 13 - 2
                for low in range(lowest, highest - 1):
                    span = (base + low, base + low + 1, base + low + 2)
                    held = [c in present for c in span]
                    if held[1] and held[2]:
                        wild_runs.append((suit, low, span, 0))
                    if held[0] and held[2]:
                        wild_runs.append((suit, low, span, 1))
                    if held[0] and held[1]:
                        wild_runs.append((suit, low, span, 2))
        for suit, low, span, slot in wild_runs:
            cards = list(span)
            cards[slot] = card
            found.append((card, (RUN, suit, low, tuple(cards))))
    return found


