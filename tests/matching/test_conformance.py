"""Matching Page One passes the core's conformance suite, under every
combination of the special-card switches."""

from itertools import product

from cardcli.testing import VariantConformance

SWITCHES = ("draw_two", "stack_twos", "wild_eight", "skip", "reverse", "draw_three")


class TestMatchingConformance(VariantConformance):
    variant = "matching"
    games = 4


class TestMatchingEverySwitchCombination(VariantConformance):
    """All 64 combinations of the special-card switches, a few games each."""

    variant = "matching"
    player_counts = (2, 4)
    games = 2
    option_sets = tuple(dict(zip(SWITCHES, values)) for values in product((True, False), repeat=6))
