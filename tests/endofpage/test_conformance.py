"""End of the Page passes the core's conformance suite, with one and two decks."""

from cardcli.testing import VariantConformance


class TestEndOfPageConformance(VariantConformance):
    variant = "endofpage"
    player_counts = (2, 3, 5)
    games = 3
    option_sets = ({"page_lines": 2}, {"page_lines": 1, "reshuffles": 0, "decks": 2})


class TestEndOfPageShortRounds(VariantConformance):
    """One-deck three-player tables and a tight reshuffle bound."""

    variant = "endofpage"
    player_counts = (3,)
    games = 2
    option_sets = ({"page_lines": 1, "decks": 1, "reshuffles": 1},)
