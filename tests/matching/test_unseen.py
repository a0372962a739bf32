"""Matching records of a real table, with unseen cards: what the table saw
is checked exactly, and an impossible record is told which move and why."""

from __future__ import annotations

import json

import pytest

from cardcli.testing import play_game, validate_command, write_record
from cardcli.testing.unseen import export_bytes

HEADER = {"format": "cardcli-record", "version": 1, "variant": "matching", "rules": {"hand_size": 3},
          "players": ["ann", "bob"], "dealer": 1, "view": "public"}


def game(*events, rules=None, view="public"):
    header = {**HEADER, "rules": {**HEADER["rules"], **(rules or {})}, "view": view}
    return [header, {"chance": "deal", "hands": [3, 3]}, {"chance": "turn_up", "card": "7S"}, *events]


def check(tmp_path, lines):
    result = validate_command("--json", write_record(tmp_path / "game.jsonl", lines))
    report = json.loads(result.output.splitlines()[0])
    return report


# Bob cannot play on 9S, draws a card nobody sees, which does not play either
# (Ann moves next): he held no spade, 9 or 8, and neither is the card he drew.
DREW = [{"seat": 0, "move": "play", "card": "9S"},
        {"seat": 1, "move": "draw"},
        {"chance": "draw", "seat": 1, "cards": ["??"]},
        {"seat": 0, "move": "play", "card": "9H", "call": True}]


def test_a_game_seen_from_the_table_is_consistent(tmp_path):
    lines = game(*DREW, {"seat": 1, "move": "play", "card": "4H"}, {"seat": 0, "move": "play", "card": "4D"},
                 {"result": {"winner": 0, "places": [1, 2]}})
    report = check(tmp_path, lines)
    assert report["valid"] is True, report
    assert report["check"] == "consistent" and report["view"] == "public"


def test_the_verdict_says_what_was_checked(tmp_path):
    lines = game({"seat": 0, "move": "play", "card": "9S"}, {"seat": 1, "move": "play", "card": "9C"},
                 {"seat": 0, "move": "play", "card": "3C", "call": True},
                 {"seat": 1, "move": "play", "card": "3D", "call": True},
                 {"seat": 0, "move": "play", "card": "3H"},
                 {"result": {"winner": 0, "places": [1, 2]}})
    result = validate_command(write_record(tmp_path / "game.jsonl", lines))
    assert result.exit_code == 0, result.output
    assert result.output.endswith(": consistent with what the table saw (public view): matching game, "
                                  "5 moves, ann won\n")


def test_a_card_held_when_the_player_drew_instead(tmp_path):
    lines = game(*DREW, {"seat": 1, "move": "play", "card": "9D"})
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "impossible" and error["move"] == 4 and error["seat"] == 1
    assert error["message"].startswith("move 4, seat 1 played 9D on 9H: seat 1 had no spade, 8 or 9 at "
                                       "move 2 (could not play); the card seat 1 drew after move 2 was no "
                                       "spade, 8 or 9")


def test_drawing_proves_nothing_where_drawing_is_a_choice(tmp_path):
    lines = game(*DREW, {"seat": 1, "move": "play", "card": "9D"}, rules={"draw_when_able": True})
    report = check(tmp_path, lines)
    assert report["error"]["kind"] == "unfinished", report


def test_a_card_played_twice(tmp_path):
    lines = game({"seat": 0, "move": "play", "card": "9S"}, {"seat": 1, "move": "play", "card": "9C"},
                 {"seat": 0, "move": "play", "card": "9S"})
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "impossible" and error["move"] == 3
    assert "9S is played for the second time in a one-deck game (first at move 1)" in error["message"]


def test_the_drawn_card_that_is_played_is_the_one_drawn(tmp_path):
    played = [{"seat": 0, "move": "play", "card": "9S"}, {"seat": 1, "move": "draw"},
              {"chance": "draw", "seat": 1, "cards": ["??"]}]
    assert check(tmp_path, game(*played, {"seat": 1, "move": "play", "card": "4S"}))["error"]["kind"] == \
        "unfinished"
    error = check(tmp_path, game(*played, {"seat": 1, "move": "play", "card": "9S"}))["error"]
    assert error["kind"] == "impossible"
    assert "9S is played for the second time" in error["message"]


def test_a_kept_card_is_one_that_plays(tmp_path):
    # Bob keeps the card he drew: it plays on 9S; the hand he shows at the
    # end has no spade, 9 or 8, so it cannot be his.
    kept = [{"seat": 0, "move": "play", "card": "9S"}, {"seat": 1, "move": "draw"},
            {"chance": "draw", "seat": 1, "cards": ["??"]}, {"seat": 1, "move": "keep"},
            {"seat": 0, "move": "play", "card": "2S", "call": True},
            {"seat": 1, "move": "draw"}, {"chance": "draw", "seat": 1, "cards": ["??", "??"]},
            {"seat": 0, "move": "play", "card": "2H"}]
    good = check(tmp_path, game(*kept, {"shown": [[], ["4H", "KS", "5C", "6C", "7C", "7D"]]},
                                {"result": {"winner": 0}}))
    assert good["valid"] is True, good
    bad = check(tmp_path, game(*kept, {"shown": [[], ["4H", "KH", "5C", "6C", "7C", "7D"]]},
                               {"result": {"winner": 0}}))
    assert bad["error"]["kind"] == "impossible"
    assert "the hands shown after move 6" in bad["error"]["message"]


def test_a_round_scored_on_cards_held_needs_them_shown(tmp_path):
    rules = {"rounds": 2}
    lines = game({"seat": 0, "move": "play", "card": "9S"}, {"seat": 1, "move": "play", "card": "9C"},
                 {"seat": 0, "move": "play", "card": "3C", "call": True},
                 {"seat": 1, "move": "play", "card": "3D", "call": True},
                 {"seat": 0, "move": "play", "card": "3H"}, rules=rules)
    error = check(tmp_path, [*lines, {"chance": "deal", "hands": [3, 3]}])["error"]
    assert error["kind"] == "missing-event" and error["move"] == 5
    assert "seat 1's were not seen" in error["message"]
    shown = check(tmp_path, [*lines, {"shown": [[], ["KD"]]}, {"chance": "deal", "hands": [3, 3]}])
    assert shown["error"]["kind"] == "unfinished", shown


def test_a_card_everyone_sees_cannot_be_unseen(tmp_path):
    lines = [*game()[:2], {"chance": "turn_up", "card": "??"}]
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "syntax"
    assert "cannot be \"??\": everyone at the table sees it" in error["message"]


def test_unseen_cards_need_a_view(tmp_path):
    lines = game(*DREW)
    del lines[0]["view"]
    error = check(tmp_path, lines)["error"]
    assert error["line"] == 2
    assert "needs the header to say whose view the record is" in error["message"]


@pytest.mark.parametrize("view", ["seat 2", "me", 1])
def test_a_view_must_be_a_seat_or_public(tmp_path, view):
    error = check(tmp_path, game(view=view))["error"]
    assert error["kind"] == "header" and "'view' must be \"public\" or \"seat N\"" in error["message"]


def test_a_card_no_rebuilt_stock_held(tmp_path):
    # Seed 1 at two seats with seven cards: by move 87 every card seat 1 may
    # hold unseen came from the stock rebuilt after move 78, which did not
    # hold 5S.  The reason says so, not "accounted for ()".
    _, buffer = play_game("matching", players=2, seed=1, options={"hand_size": 7})
    lines = export_bytes(buffer.getvalue().encode(), None).decode().splitlines()
    move = json.loads(lines[126])
    assert move["move"] == "play" and move["seat"] == 1, "the game is no longer the one described"
    lines[126] = json.dumps({**move, "card": "5S"})
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "impossible" and error["line"] == 127
    assert error["message"] == (
        "move 87, seat 1 played 5S on 7C: 5S is played, but every card seat 1 could hold unseen was drawn "
        "from the stock rebuilt after move 78 of 41 discards, none of them 5S")
