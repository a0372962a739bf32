"""The hard CPU's search (``cardcli.cpu.players.ismcts``): the tree, the paired
root, sequential halving, playout stops, and following the game."""

from __future__ import annotations

import math
import random

import pytest

from cardcli.contract.variant import CHANCE
from cardcli.cpu.players import make_cpu
from cardcli.cpu.players.hard import Budget, HardPlayer
from cardcli.cpu.players.ismcts import PLAYOUT_CUTOFF, Search, paired_gap, play_out
from cardcli.engine.driver import Driver, PolicyPlayer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.unseen.knowledge import redeal

from .test_hard import positions


def search_at(name: str, players: int, seed: int, **options):
    """A position with at least three moves, and a search run there."""
    variant, state, seat, legal = next(p for p in positions(name, players, seed, every=1) if len(p[3]) > 2)
    rng = random.Random(seed)
    search = Search(variant.cpu_policy("normal"), seat, players, **options)
    edges = search.rate(legal, lambda: redeal(state, seat, rng), lambda: rng.getrandbits(64), 120, None)
    return legal, edges, search


def test_the_tree_grows_below_the_root_only_when_asked():
    _legal, edges, _ = search_at("matching", 2, 3, halving=False)
    assert any(edge.children for edge in edges)  # the seat's later information sets
    node = next(child for edge in edges if edge.children for child in edge.children.values())
    assert node.visits and node.edges
    assert all(sum(e.visits for e in n.edges.values()) <= n.visits for e in edges if e.children
               for n in e.children.values())
    _legal, flat, _ = search_at("matching", 2, 3, halving=False, depth=False)
    assert not any(edge.children for edge in flat)


def test_without_halving_every_move_gets_the_same_paired_playouts():
    legal, edges, search = search_at("trick", 2, 1, halving=False)
    assert len({edge.visits for edge in edges}) == 1
    assert search.playouts == edges[0].visits * len(legal)


def test_halving_keeps_playing_the_better_moves():
    legal, edges, search = search_at("matching", 2, 4)
    visits = sorted({edge.visits for edge in edges})
    assert len(visits) > 1  # some moves were dropped in an early round
    most = max(edge.visits for edge in edges)
    kept = [edge for edge in edges if edge.visits == most]
    dropped = [edge for edge in edges if edge.visits < most]
    assert len(kept) < len(legal)
    assert search.playouts <= 120
    # A move dropped in the first round had no better mean than the ones kept
    # had then; the kept ones may have come down since, but not all of them.
    assert max(e.mean for e in kept) >= min(e.mean for e in dropped)


def test_a_long_trick_playout_stops_at_the_cutoff_with_the_estimate():
    variant = get_registry().get("trick")
    rules = dict(default_ruleset(variant).options)
    for seed in range(200):
        state = variant.new_state(rules, 2, 0)
        rng = random.Random(seed)
        driver = Driver(state, [make_cpu(variant, "normal", seed, seat) for seat in range(2)], rng=rng,
                        history=False)
        value = play_out(driver, state, 0)
        if not state.is_terminal():
            assert driver.events == PLAYOUT_CUTOFF
            assert value == state.playout_estimate(0)
            assert 0 < value < 1
            return
    raise AssertionError("no playout ran long")


def test_matching_playouts_are_never_cut_short():
    variant = get_registry().get("matching")
    rules = dict(default_ruleset(variant).options)
    for seed in range(30):
        state = variant.new_state(rules, 2, 0)
        driver = Driver(state, [make_cpu(variant, "normal", seed, seat) for seat in range(2)],
                        rng=random.Random(seed), history=False)
        play_out(driver, state, 0)
        assert state.is_terminal()


def test_hard_follows_its_game_and_starts_again_when_it_missed_events():
    variant = get_registry().get("trick")
    rules = dict(default_ruleset(variant).options)
    hard = HardPlayer(variant, 1, 0, Budget(iterations=20, seconds=None))
    driver = Driver(variant.new_state(rules, 2, 0), [hard, make_cpu(variant, "normal", 1, 1)],
                    rng=random.Random(5))
    driver.run()
    assert hard.knowledge is not None and hard.knowledge.restarts == 1  # only the deal itself
    assert hard.decision_seconds
    before = hard.knowledge
    hard.observe(driver.state, CHANCE, None, driver.events + 5)  # a gap in the events
    assert hard.knowledge is not before and hard.knowledge.restarts == 1


def test_a_move_that_wins_a_deal_of_a_match_is_valued_as_won_on_every_visit():
    """The seat's own move can end a deal of a match; the search must not walk
    on into the next deal below it (it did, and valued the deal's winning move
    by how the next deal went: hard won fewer deals of a match than normal)."""
    variant = get_registry().get("trick")
    rules = {**default_ruleset(variant).options, "deals": 2}
    state = variant.new_state(rules, 2, 5)
    player = PolicyPlayer(variant.cpu_policy("normal"), random.Random(5))
    driver = Driver(state, [player, player], rng=random.Random(5))
    driver.advance(rollout_seat=0)
    assert state.deal_winners == [0], "seat 0 won the first deal: the seed's game"
    position = variant.new_state(rules, 2, 5)
    for action in driver.history[:-1]:
        position.apply_legal(action)
    legal = position.legal_actions()
    rng = random.Random(5)
    search = Search(variant.cpu_policy("normal"), 0, 2, halving=False)
    edges = search.rate(legal, lambda: redeal(position, 0, rng), lambda: rng.getrandbits(64), 40, None)
    winning = edges[legal.index(driver.history[-1])]
    assert winning.visits > 1 and winning.children is None
    assert winning.mean == 1.0


def test_the_paired_gap_compares_two_moves_on_the_deals_both_were_played_from():
    first = {0: 1.0, 1: 0.5, 2: 1.0, 3: 0.0}
    second = {0: 0.5, 1: 0.5, 2: 0.5, 7: 1.0}  # deal 7 only for the second, deal 3 only for the first
    gap, error, deals = paired_gap(first, second)
    assert deals == 3 and gap == pytest.approx(1 / 3)
    assert error == pytest.approx(math.sqrt(((0.5 - 1 / 3) ** 2 * 2 + (1 / 3) ** 2) / 2 / 3))
    assert paired_gap(first, {0: 1.0})[2] == 1 and math.isnan(paired_gap(first, {0: 1.0})[1])
