"""Card notation: plain names out, forgiving input in, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcli.kit.cards import (
    JOKER,
    NAME,
    RANK,
    SUIT,
    build_deck,
    check_deal,
    parse_card,
    parse_rank,
    parse_suit,
)
from cardcli.kit.errors import CardError, IllegalMove


@given(st.integers(min_value=0, max_value=52))
def test_names_round_trip(card):
    assert parse_card(NAME[card]) == card
    assert parse_card(NAME[card].lower()) == card


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("AS", 14, 0), ("10h", 10, 1), ("TH", 10, 1), ("qd", 12, 2), ("7C", 7, 3), ("2\u2660", 2, 0)])
def test_inputs(text, rank, suit):
    card = parse_card(text)
    assert (RANK[card], SUIT[card]) == (rank, suit)


def test_joker():
    assert parse_card("jk") == JOKER and NAME[JOKER] == "JK"


@pytest.mark.parametrize("text", ["", "1S", "11H", "ZZ", "7", "7X", "AH7"])
def test_bad_cards_say_how_to_write_one(text):
    with pytest.raises(CardError, match=r"write rank then suit|is not a card"):
        parse_card(text)


def test_ranks_suits_and_decks():
    assert parse_rank("t") == 10 and parse_rank("K") == 13
    assert parse_suit("hearts") == 1 and parse_suit("c") == 3
    with pytest.raises(CardError):
        parse_suit("x")
    assert len(build_deck()) == 52
    assert len(build_deck(2, 1)) == 105
    assert len(build_deck(1, 0, without_ranks=(2,))) == 48


def _cards(text: str) -> list[int]:
    return [parse_card(name) for name in text.split()]


def test_check_deal_returns_the_stock():
    deck = build_deck(1, 0)
    hands = [_cards("AS 2S"), _cards("3H 4H")]
    stock = check_deal(deck, hands, 2, 2)
    assert len(stock) == 48
    assert not set(stock) & {card for hand in hands for card in hand}


@pytest.mark.parametrize(("hands", "players", "size", "message"), [
    (["AS 2S", "3H 4H"], 3, 2, "the deal has 2 hands for 3 players"),
    (["AS 2S", "3H"], 2, 2, "seat 1 was dealt 1 card, not 2"),
    (["AS 2S", "AS 4H"], 2, 2, "AS is dealt more often than the pack holds it (1)"),
])
def test_check_deal_says_what_is_wrong(hands, players, size, message):
    with pytest.raises(IllegalMove) as caught:
        check_deal(build_deck(1, 0), [_cards(hand) for hand in hands], players, size)
    assert str(caught.value) == message
