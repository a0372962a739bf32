"""Trick-taking Page One passes the core's conformance suite, by default and
under the options that change the pack, the joker and the table size."""

from itertools import product
from pathlib import Path

import pytest

from cardcli.testing import VariantConformance


class TestTrickConformance(VariantConformance):
    variant = "trick"
    golden = Path(__file__).parents[1] / "golden" / "trick"
    games = 4


class TestTrickOptionSets(VariantConformance):
    """Jokers 0/1/2, one or two decks, the joker switches, longer hands and matches."""

    variant = "trick"
    player_counts = (2, 4)
    games = 2
    examples = 15
    option_sets = (
        {"jokers": 0},
        {"jokers": 2},
        {"jokers": 2, "decks": 2},
        {"decks": 2},
        {"joker_any_time": False},
        {"joker_last": False},
        {"joker_last": False, "jokers": 2, "joker_any_time": False},
        {"hand_size": 7, "page_one_penalty": 7},
        {"page_one_penalty": 0},
        {"deals": 3},
    )


class TestTrickEightPlayers(VariantConformance):
    variant = "trick"
    player_counts = (7, 8)
    games = 2
    examples = 15
    option_sets = ({"max_players": 8}, {"max_players": 8, "decks": 2, "jokers": 2, "hand_size": 7})


@pytest.mark.slow
class TestTrickEveryOptionCombination(VariantConformance):
    """Every combination of the joker switches, jokers and decks, more games (slow)."""

    variant = "trick"
    player_counts = (2, 3, 5, 8)
    games = 6
    position_games = 24
    positions = 200
    examples = 500
    option_sets = tuple(
        {"jokers": jokers, "decks": decks, "joker_any_time": any_time, "joker_last": last, "max_players": 8}
        for jokers, decks, any_time, last in product((0, 1, 2), (1, 2), (True, False), (True, False)))
