"""Matching Page One passes the core's conformance suite, under every
combination of the special-card switches."""

from itertools import product
from pathlib import Path

import pytest

from cardcli.testing import VariantConformance

SWITCHES = ("draw_two", "stack_twos", "wild_eight", "skip", "reverse", "draw_three")


class TestMatchingConformance(VariantConformance):
    variant = "matching"
    golden = Path(__file__).parents[1] / "golden" / "matching"
    games = 4


class TestMatchingEverySwitchCombination(VariantConformance):
    """All 64 combinations of the special-card switches, a few games each."""

    variant = "matching"
    player_counts = (2, 4)
    games = 2
    examples = 15
    option_sets = tuple(dict(zip(SWITCHES, values)) for values in product((True, False), repeat=6))


@pytest.mark.slow
class TestMatchingThorough(VariantConformance):
    """The mid-game checks at length: many games, positions and broken lines (slow)."""

    variant = "matching"
    games = 12
    position_games = 16
    positions = 200
    examples = 500
    option_sets = ({}, {"draw_when_able": True, "draw_until_playable": True}, {"rounds": 3},
                   {"rank_all_places": True, "draw_three": True, "first_special": "apply"})


class TestMatchingStopCall(VariantConformance):
    """The Stop call on: with the last card called or forgotten (the penalty
    drawn instead of going out), over rounds, every place played out, and
    with no penalty (the call a formality)."""

    variant = "matching"
    player_counts = (2, 4, 6)
    games = 3
    option_sets = ({"stop_call": True},
                   {"stop_call": True, "hand_size": 5, "rounds": 2, "page_one_penalty": 5,
                    "draw_three": True},
                   {"stop_call": True, "rank_all_places": True, "page_one_penalty": 0})
