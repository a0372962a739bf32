"""End of the Page passes the core's conformance suite, with one and two decks."""

from pathlib import Path

import pytest

from cardcli.testing import VariantConformance


class TestEndOfPageConformance(VariantConformance):
    variant = "endofpage"
    golden = Path(__file__).parents[1] / "golden" / "endofpage"
    player_counts = (2, 3, 5)
    games = 3
    option_sets = ({"page_lines": 2}, {"page_lines": 1, "reshuffles": 0, "decks": 2})


class TestEndOfPageShortRounds(VariantConformance):
    """One-deck three-player tables and a tight reshuffle bound."""

    variant = "endofpage"
    player_counts = (3,)
    games = 2
    examples = 15
    option_sets = ({"page_lines": 1, "decks": 1, "reshuffles": 1},)


@pytest.mark.slow
class TestEndOfPageThorough(VariantConformance):
    """The mid-game checks at length: many games, positions and broken lines (slow)."""

    variant = "endofpage"
    player_counts = (2, 4, 6)
    games = 4
    position_games = 12
    positions = 150
    examples = 400
    option_sets = ({}, {"decks": 2, "page_lines": 2}, {"page_lines": 1, "reshuffles": 0})
