"""What each seat knows of the hidden cards (for the core's hard CPU):
turned-up deal cards, the dealer's face-up wild and discards taken stay known
in their hand until they leave it; determinization keeps them in place."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.cpu.players.hard import Budget, HardPlayer
from cardcli.engine.plugins import get_registry
from cardcli.kit.cards import parse_card
from cardcli.testing import validate_bytes
from cardcli.unseen.knowledge import redeal
from cardcli_endofpage.state import DEAL, DISCARD, DRAW_ACTION, DRAWN, LAYOFF, MELD, TAKE, TURN_UP

from .conftest import P_DRAW, WORKED, cards, record, table
from .test_rules import deal_state


def c(name: str) -> int:
    return parse_card(name)


def test_hidden_zones_are_other_hands_and_the_stock():
    state = table(hands=["4C 6C KD", "9H 9D 10S", "QH QD"], players=3, dealer=2)
    assert state.hidden_zones(1) == ["hand 0", "hand 2", "stock"]


def test_a_taken_discard_stays_in_place_until_it_leaves_the_hand():
    state = table(hands=["9H 9D 10S KD", "4C 6C KS"], discard="6D JH", turn=0, phase=P_DRAW)
    state.apply((TAKE, c("JH")))
    assert state.known_cards(1) == {"hand 0": [c("JH")]}
    assert state.known_cards(0) == {}  # a seat's own hand is not hidden from it
    for seed in range(20):
        world = redeal(state, 1, random.Random(seed))
        assert c("JH") in world.hands[0]
        assert len(world.hands[0]) == 5 and world.hands[1] == state.hands[1]
        assert sorted(world.hands[0] + world.stock) == sorted(state.hands[0] + state.stock)
    moved = [redeal(state, 1, random.Random(seed)).hands[0] for seed in range(20)]
    assert len({tuple(sorted(h)) for h in moved}) > 1  # the rest of the hand is dealt anew
    state.apply((DISCARD, c("JH")))  # taken and discarded again: no longer known
    assert state.known_cards(1) == {}


def test_a_melded_or_laid_off_card_is_no_longer_known():
    state = table(hands=["9H 9D 10S KD", "4C 6C KS"], discard="6D 9S", turn=0, phase=P_DRAW)
    state.apply((TAKE, c("9S")))
    assert state.known_cards(1) == {"hand 0": [c("9S")]}
    state.apply((MELD, (0, 9, 0, tuple(sorted(cards("9H 9D 9S"))))))
    assert state.known_cards(1) == {}
    state = table(hands=["JS 5D KD", "4C 6C KS"], discard="6D QS", turn=0, phase=P_DRAW,
                  melds=[(0, "8S 9S 10S")])
    state.apply((TAKE, c("QS")))
    state.apply((LAYOFF, 0, c("JS"), 11))
    assert state.known_cards(1) == {"hand 0": [c("QS")]}
    state.apply((LAYOFF, 0, c("QS"), 12))
    assert state.known_cards(1) == {}


def dealt(variant):
    """Seat 0 dealt (5S turned), then the dealer, seat 1: AS turned, then 7D, the wild."""
    state = deal_state(variant)
    state.apply((DEAL, 0, tuple(cards("5S 6S 8S 9S 10S")), -1))
    state.apply((DEAL, 1, tuple(cards("AS 7D 3C 4C 5C 6C 8C 9C 10C JC QC KC AH KH")), c("7D")))
    state.apply((TURN_UP, c("9H")))
    return state


def test_turned_cards_and_the_dealers_wild_are_known(variant):
    state = dealt(variant)
    assert state.known_cards(0) == {"hand 1": [c("AS"), c("7D")]}
    assert state.known_cards(1) == {"hand 0": [c("5S")]}
    for seed in range(10):
        world = redeal(state, 0, random.Random(seed))
        assert c("7D") in world.hands[1] and c("AS") in world.hands[1]
        assert world.hands[0] == state.hands[0]


def test_the_dealers_wild_stops_being_known_once_melded(variant):
    state = dealt(variant)
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("QD")))
    state.apply((DISCARD, c("QD")))
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("3D")))
    state.apply((MELD, (1, 3, 3, tuple(cards("3C 4C 5C")))))
    assert state.known_cards(0) == {"hand 1": [c("AS"), c("7D")]}
    state.apply((MELD, (1, 3, 6, tuple(cards("6C 7D 8C")))))  # the wild as 7C
    assert state.known_cards(0) == {"hand 1": [c("AS")]} and state.faceup == -1


def test_knowledge_is_rebuilt_by_replaying_a_record():
    # In the worked game B takes 6C from the pile and melds it at once; before
    # that, A sees B's face-up wild 3H and turned KC... (B is the dealer).
    report = validate_bytes(record(WORKED))
    assert report.valid
    variant = get_registry().get("endofpage")
    state = variant.new_state({**dict(_defaults(variant)), "page_lines": 1}, 2, 1)
    for line in WORKED[1:14]:
        state.apply(variant.decode_action(state, line))
    assert state.known_cards(0) == {"hand 1": [c("3H")]}  # KC was discarded, 3H kept
    assert state.known_cards(1) == {}  # A's turned 4S was melded
    state.apply(variant.decode_action(state, WORKED[14]))  # B takes A's discard, 6C
    assert state.known_cards(0) == {"hand 1": [c("3H"), c("6C")]}
    state.apply(variant.decode_action(state, WORKED[15]))  # and melds both
    assert state.known_cards(0) == {}


def _defaults(variant):
    from cardcli.engine.rulesets import default_ruleset

    return default_ruleset(variant).options


def test_rollout_value_at_the_end_of_a_round_only():
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=3)
    assert state.rollout_value(0) is None
    state.apply((DISCARD, c("9D")))
    assert state.round == 1
    lead = state.totals[0] - state.totals[1]
    assert lead > 0
    ahead, behind = state.rollout_value(0), state.rollout_value(1)
    assert 0.5 < ahead < 1 and ahead + behind == pytest.approx(1.0)
    # A bigger lead is worth more: the page is won on points.
    state.totals[0] += 300
    assert state.rollout_value(0) > ahead
    state.totals[0] -= 300
    state.apply(state.sample_chance(random.Random(1)))  # the next deal has begun
    assert state.rollout_value(0) is None


def test_rollout_value_none_at_the_end_of_the_page():
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=1)
    state.apply((DISCARD, c("9D")))
    assert state.is_terminal() and state.rollout_value(0) is None


def test_hard_plays_a_short_game_legally(variant):
    rules = {**dict(_defaults(variant)), "page_lines": 2}
    state = variant.new_state(rules, 2, 0)
    rng = random.Random(3)
    hard = HardPlayer(variant, 1, 0, Budget(iterations=20, seconds=None))
    normal = variant.cpu_policy("normal")
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        action = hard.act(state, 0, legal) if player == 0 else normal(state, player, legal, rng)
        state.apply(action)
    assert len(state.result().rounds) == 2
