"""The moves as a person picks them (the hint, an explained replay, the served page's list): an 8's
suit in the language spoken."""

from __future__ import annotations

import pytest

from cardcli.contract.views import MoveView
from cardcli.kit import language
from cardcli.kit.cards import NAME, SUIT_NAMES, parse_card, parse_suit
from cardcli.words.view import move_view
from cardcli_matching.state import PLAY

from .conftest import Table


@pytest.fixture
def japanese():
    language.choose("ja")
    yield
    language.choose("en")


def _eights(table: Table) -> dict[str, MoveView]:
    """The moves playing 8C, by the suit each names (the record's English word)."""
    seat = table.turn
    names = ["you", "ann"]
    return {SUIT_NAMES[a[2]]: move_view(table.variant, table.state, seat, a, names)
            for a in table.state.legal_actions() if a[0] == PLAY and a[1] == parse_card("8C") and not a[3]}


def _table() -> Table:
    return Table(["8C 5D 6D 9S", "4S 5S 6S 7S"], "3C")


def test_an_8_names_its_suit_in_english():
    views = _eights(_table())
    assert set(views) == set(SUIT_NAMES)
    hearts = views["hearts"]
    assert hearts.label == "play 8C, naming hearts"
    assert hearts.choice == "hearts"


def test_an_8_names_its_suit_in_japanese(japanese):
    views = _eights(_table())
    hearts = views["hearts"]
    assert "ハート" in hearts.label
    assert hearts.choice == "ハート"
    for view in views.values():
        label, choice = view.label, view.choice
        assert NAME[parse_card("8C")] in label
        assert not any(word in label or word in choice for word in SUIT_NAMES), label
    # The page offers an 8's suits together, one button each: the choices stay distinct.
    assert len({view.choice for view in views.values()}) == 4
    assert parse_suit("hearts") == 1  # a typed suit is still read in English
