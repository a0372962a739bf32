"""Words for people: plurals, ranges, and "you" in sentences."""

from __future__ import annotations

import pytest

from cardcli.kit.grammar import (
    cards_told,
    could_play,
    join_and,
    join_or,
    name_seats,
    plural,
    possessive,
    seat_name,
    seat_names,
    second_person,
    span,
    type_a_number,
)


def test_plurals_and_ranges():
    assert plural(1, "player") == "1 player" and plural(2, "player") == "2 players"
    assert plural(0, "game") == "0 games" and plural(1, "deal won", "deals won") == "1 deal won"
    assert span(2, 6, "player") == "2 to 6 players" and span(2, 2, "player") == "2 players"
    assert span(1, 1, "player") == "1 player"
    assert join_or(["9C", "8D", "draw"]) == "9C, 8D or draw" and join_or(["draw"]) == "draw"
    assert join_and(["ann", "bob"]) == "ann and bob"
    assert type_a_number(1) == "There is one choice: type 1."
    assert type_a_number(3) == "Type a number from 1 to 3."


@pytest.mark.parametrize(("text", "said"), [
    ("you wins!", "you win!"),
    ("you was dealt 7 cards", "you were dealt 7 cards"),
    ("you played their last card", "you played your last card"),
    ("you has melded", "you have melded"),
    ("ann played their last card", "ann played their last card"),
    ("bob skips you", "bob skips you"),
])
def test_second_person(text, said):
    assert second_person(text) == said


@pytest.mark.parametrize(("text", "said"), [
    ("the hard CPU's view from you's seat", "the hard CPU's view from your seat"),
    ("the trick is complete: you takes it with KH", "the trick is complete: you take it with KH"),
    ("you played 2C, their last card", "you played 2C, your last card"),
    ("you passes; bob misses a turn", "you pass; bob misses a turn"),
    # "their" in a clause of another player's stays theirs.
    ("you played 2C on bob's 3C; bob played their last card",
     "you played 2C on bob's 3C; bob played their last card"),
    ("you played 2C, and bob played their last card", "you played 2C, and bob played their last card"),
])
def test_second_person_with_the_other_names(text, said):
    assert second_person(text, ["you", "bob"]) == said


def test_seats_named_in_a_reason():
    assert name_seats("seat 0 played their last card", ["you", "bob"]) == "you played your last card"
    assert name_seats("seat 1 went out", ["ann", "bob"]) == "bob went out"
    names = [f"p{i}" for i in range(12)]
    assert name_seats("seat 11 and seat 1 went out", names) == "p11 and p1 went out"
    assert name_seats("seat 0 went out", None) == "seat 0 went out"


def test_possessives():
    assert possessive("ann") == "ann's" and possessive("you") == "your"
    assert possessive("you", alone=True) == "yours" and possessive("ann", alone=True) == "ann's"


def test_seats_are_named_by_their_players_or_by_number():
    assert seat_name(1, ["ann", "bob"]) == "bob" and seat_name(1, None) == "seat 1"
    assert seat_name(2, []) == "seat 2"
    assert seat_names(["ann", "bob"], 2) == ["ann", "bob"]
    assert seat_names(None, 3) == ["seat 0", "seat 1", "seat 2"]


def test_the_choices_after_a_refusal_name_each_card_once():
    assert could_play(["7H", "9H", "7H"], ["draw"]) == "could play 7H, 9H or draw"
    assert could_play(["JK"]) == "could play JK"
    assert could_play([], ["take the penalty"]) == "could take the penalty"
    assert could_play([]) == ""


def test_cards_are_told_by_name_only_to_whoever_may_see_them():
    assert cards_told(["7H", "9C"], True) == "7H 9C"
    assert cards_told(["7H", "9C"], False) == "2 cards" and cards_told(["7H"], False) == "a card"


def test_name_seats_names_the_seats_a_message_names_in_the_language_chosen():
    from cardcli.kit.language import speaking

    with speaking("ja"):
        # A message made in Japanese says 席2; a record's words say "seat 2": both are the player.
        assert name_seats("席2の番", ["ann", "bob", "cat"]) == "catの番"
        assert name_seats("seat 1 went out", ["ann", "bob"]) == "bob went out"
        assert name_seats("席12と席1", [f"p{seat}" for seat in range(13)]) == "p12とp1"
    assert name_seats("席2の番", ["ann", "bob", "cat"]) == "席2の番"  # English says no 席
