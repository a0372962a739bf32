"""Hand-written trick records: a valid one, and each way of breaking it,
rejected through the real ``cardcli validate`` with the right message, exit
status 1 and no traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.testing import validate_command, write_record

HEADER = {"format": "cardcli-record", "version": 1, "variant": "trick", "rules": {"hand_size": 3},
          "players": ["ann", "bob"], "dealer": 1}
GAME = [
    HEADER,
    {"chance": "deal", "dealer": 1, "hands": [["9H", "3C", "4S"], ["7H", "2S", "3S"]]},
    {"seat": 0, "move": "play", "card": "9H"},
    {"seat": 1, "move": "play", "card": "7H"},
    {"seat": 0, "move": "play", "card": "3C", "call": True},
    {"seat": 1, "move": "draw"},
    {"chance": "draw", "seat": 1, "cards": ["5D"]},
    {"chance": "draw", "seat": 1, "cards": ["KC"]},
    {"seat": 1, "move": "play", "card": "KC"},
    {"seat": 1, "move": "play", "card": "2S"},
    {"seat": 0, "move": "play", "card": "4S"},
    {"result": {"places": [1, 2], "winner": 0}},
]


def write(tmp_path, lines, name="game.jsonl"):
    return write_record(tmp_path / name, lines)


def replace(index, *lines):
    return [*GAME[:index], *lines, *GAME[index + 1:]]


def test_hand_written_record_is_valid(tmp_path):
    result = validate_command(write(tmp_path, GAME))
    assert result.exit_code == 0, result.output
    assert "valid (every card known): trick game, 7 moves, ann won" in result.output


def test_hand_written_record_replays(tmp_path):
    path = write(tmp_path, GAME)
    result = CliRunner().invoke(cli, ["replay", str(path), "--to", "4"])
    assert result.exit_code == 0, result.output
    assert "After move 4 of 7" in result.output
    assert "bob could not follow clubs: drew 5D KC" in result.output  # the draw, told once
    assert "Drawn card KC must be played" in result.output
    hidden = CliRunner().invoke(cli, ["replay", str(path), "--to", "4", "--seat", "0"])
    assert "bob could not follow clubs: drew 2 cards" in hidden.output
    assert "5D" not in hidden.output and "KC" not in hidden.output


@pytest.mark.parametrize(("lines", "line", "message"), [
    (replace(3, {"seat": 1, "move": "play", "card": "2S"}), 4,
     "move 2, seat 1 played 2S: must follow hearts (could play 7H)"),
    (replace(3, {"seat": 1, "move": "draw"}), 4, "may not draw while able to follow hearts"),
    (replace(6, {"chance": "draw", "seat": 1, "cards": ["9H"]}), 7,
     "drew 9H, which is not in the stock (it is in the finished tricks)"),
    (replace(6, {"chance": "draw", "seat": 1, "cards": ["4S"]}), 7,
     "drew 4S, which is not in the stock (it is in seat 0's hand)"),
    (replace(4, {"seat": 0, "move": "play", "card": "3C"}), 6,
     "expected seat 0 to draw the forgotten Page One penalty (5 cards), but the record has a move by seat 1"),
    (replace(8, {"seat": 1, "move": "play", "card": "5D"}), 9,
     "must play the drawn KC, the card of the suit led (clubs) just drawn"),
    (replace(2, {"seat": 0, "move": "play", "card": "9H", "call": True}), 3,
     "Page One may only be called with the play that leaves one card"),
    (replace(6, {"chance": "draw", "seat": 1, "cards": ["5D", "6D"]}), 7,
     "2 card(s) drawn, but the rules draw 1 here"),
    (replace(6, {"chance": "draw", "seat": 0, "cards": ["5D"]}), 7,
     "the cards drawn now are seat 1's, not seat 0's"),
    (replace(6, {"chance": "reshuffle"}), 7, "no reshuffle now: the stock still has"),
    (replace(1, {"chance": "deal", "dealer": 0, "hands": [["9H", "3C", "4S"], ["7H", "2S", "3S"]]}), 2,
     "the dealer of this deal is seat 1, not 0"),
    (replace(1, {"chance": "deal", "hands": [["9H", "3C", "4S"], ["9H", "2S", "3S"]]}), 2,
     "9H is dealt more often than the pack holds it (1)"),
    (replace(1, {"chance": "deal", "hands": [["9H", "3C", "4S"], ["7H", "2S"]]}), 2,
     "seat 1 was dealt 2 cards, not 3"),
    (replace(1, {"chance": "deal", "hands": [["9H", "3C", "4S"], ["7H", "2S", "3S"], ["5D", "6D", "7D"]]}), 2,
     "the deal has 3 hands for 2 players"),
    (replace(2, {"seat": 0, "move": "play", "card": "XX"}), 3, "'XX' is not a card"),
    (replace(4, {"seat": 0, "move": "play", "card": "3C", "call": 1}), 5,
     "call must be true or false, got 1"),
    (replace(1, {"chance": "deal", "hands": [["9H", "3C", "4S"], "7H 2S 3S"]}), 2,
     "'hands' must be a list of card lists, one per seat"),
    (replace(2, {"seat": 0, "move": "play", "card": "9H", "suit": "H"}), 3, "unknown field 'suit'"),
    (replace(11, {"result": {"places": [2, 1], "winner": 1}}), 12, "wrong result"),
])
def test_broken_records_are_rejected(tmp_path, lines, line, message):
    path = write(tmp_path, lines)
    result = validate_command(path)
    assert result.exit_code == 1, result.output
    assert f"{path}:{line}:" in result.output, result.output
    assert message in result.output, result.output


@pytest.mark.parametrize(("lines", "line", "message"), [
    # the play would complete the trick: who would win it is not the point
    (replace(3, {"seat": 1, "move": "play", "card": "7H", "call": True}), 4,
     "move 2, seat 1 called \"Page One!\" and played 7H: Page One may only be called with the play "
     "that leaves one card (could play 7H)"),
    # the play would be the last card: nor is who would win the deal
    (replace(10, {"seat": 0, "move": "play", "card": "4S", "call": True}), 11,
     "move 7, seat 0 called \"Page One!\" and played 4S: Page One may only be called with the play "
     "that leaves one card (could play 4S)"),
    (replace(2, {"seat": 0, "move": "draw"}), 3, "move 1, seat 0 chose to draw: may not draw: holding a "
     "card to lead (could play 9H, 3C or 4S)"),
])
def test_a_refusal_names_the_move_and_the_rule_never_its_effects(tmp_path, lines, line, message):
    path = write(tmp_path, lines)
    result = validate_command(path)
    assert result.exit_code == 1, result.output
    assert f"{path}:{line}: {message}\n" in result.output, result.output


def test_two_jokers_and_two_decks_record(tmp_path):
    header = {**HEADER, "rules": {"hand_size": 3, "jokers": 2, "decks": 2}}
    lines = [
        header,
        {"chance": "deal", "hands": [["JK", "QH", "4S"], ["JK", "QH", "3S"]]},
        {"seat": 0, "move": "play", "card": "JK"},
        {"seat": 1, "move": "play", "card": "JK"},
        {"seat": 0, "move": "play", "card": "QH", "call": True},
        {"seat": 1, "move": "play", "card": "QH", "call": True},
        {"seat": 0, "move": "play", "card": "4S"},
        {"result": {"places": [1, 2], "winner": 0}},
    ]
    result = validate_command(write(tmp_path, lines))
    assert result.exit_code == 0, result.output
