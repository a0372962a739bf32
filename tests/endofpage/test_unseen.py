"""End of the Page records of a real table, with unseen cards: everything
the table sees is checked, and the hands shown at a round's end are checked
against what each seat can have held, and scored."""

from __future__ import annotations

import json

import pytest

from cardcli.testing import validate_command, write_record

HEADER = {"format": "cardcli-record", "version": 1, "variant": "endofpage", "rules": {"page_lines": 1},
          "players": ["ann", "bob"], "dealer": 0, "view": "public"}
DEAL = [{"chance": "deal", "seat": 1, "cards": ["3C", "??", "??"]},
        {"chance": "deal", "seat": 0, "cards": ["5S", "??", "??", "??", "??"], "wild": "5S"},
        {"chance": "turn_up", "card": "JH"}]
PLAY = [{"seat": 1, "move": "draw"}, {"chance": "draw", "seat": 1, "cards": ["??"]},
        {"seat": 1, "move": "meld", "cards": ["9H", "9D", "9S"]},
        {"seat": 1, "move": "discard", "card": "3C"},
        {"seat": 0, "move": "draw"}, {"chance": "draw", "seat": 0, "cards": ["??"]},
        {"seat": 0, "move": "meld", "cards": ["KH", "KD", "KS"]},
        {"seat": 0, "move": "discard", "card": "7C"}]
SHOWN = {"shown": [["5S", "8C"], []]}
RESULT = {"result": {"places": [2, 1], "winner": 1, "scores": [-80, 30]}}


def check(tmp_path, lines):
    result = validate_command("--json", write_record(tmp_path / "game.jsonl", [HEADER, *lines]))
    return json.loads(result.output.splitlines()[0])


def test_a_round_seen_from_the_table_is_scored_from_the_hands_shown(tmp_path):
    report = check(tmp_path, [*DEAL, *PLAY, SHOWN, RESULT])
    assert report["valid"] is True, report
    assert report["check"] == "consistent"


def test_a_wrong_score_for_the_hands_shown(tmp_path):
    wrong = {"result": {"scores": [-75, 30]}}
    error = check(tmp_path, [*DEAL, *PLAY, SHOWN, wrong])["error"]
    assert error["kind"] == "wrong-result" and "scores is [-80, 30] by the rules" in error["message"]


def test_a_round_scored_on_hands_nobody_saw_needs_them_shown(tmp_path):
    error = check(tmp_path, [*DEAL, *PLAY, RESULT])["error"]
    assert error["kind"] == "missing-event" and error["move"] == 6
    assert "its score counts the cards left in hand, but seat 0's were not seen" in error["message"]


def test_a_shown_card_the_seat_cannot_have_held(tmp_path):
    shown = {"shown": [["5S", "9D"], []]}
    error = check(tmp_path, [*DEAL, *PLAY, shown, RESULT])["error"]
    assert error["kind"] == "impossible"
    assert error["message"] == ("the hands shown after move 6: 9D is shown for the second time in a one-deck "
                                "game (first at move 2)")


def test_a_shown_hand_must_be_the_whole_hand(tmp_path):
    # Only what the table saw is named: how many cards the hand held, not a
    # hand the check made up for the cards nobody saw.
    shown = {"shown": [["5S"], []]}
    error = check(tmp_path, [*DEAL, *PLAY, shown, RESULT])["error"]
    assert error["kind"] == "impossible"
    assert error["message"] == "after move 6: seat 0 shows 5S, but held 2 cards as the round ended, not 1"


def test_a_shown_hand_without_a_card_the_table_saw_in_it(tmp_path):
    # 5S was turned up for ann at the deal and never played: a shown hand
    # without it is named by that card, not by a hand nobody saw.
    shown = {"shown": [["8C", "9C"], []]}
    error = check(tmp_path, [*DEAL, *PLAY, shown, RESULT])["error"]
    assert error["kind"] == "impossible"
    assert error["message"] == ("after move 6: seat 0 shows 8C 9C, but 5S, seen in that hand and never "
                                "played, is not among them")


def test_a_card_melded_twice(tmp_path):
    play = [*PLAY[:6], {"seat": 0, "move": "meld", "cards": ["9C", "9S", "5S=9"]}]
    error = check(tmp_path, [*DEAL, *play])["error"]
    assert error["kind"] == "impossible" and error["move"] == 5
    assert error["message"].endswith(": 9S is played for the second time in a one-deck game "
                                     "(first at move 2)")


def test_a_discard_taken_is_known_in_the_hand(tmp_path):
    # Ann takes Bob's discard 3C: it is in her hand for all to see, and she may meld it.
    play = [*PLAY[:4], {"seat": 0, "move": "take", "card": "3C"},
            {"seat": 0, "move": "meld", "cards": ["3C", "3D", "3H"]}]
    report = check(tmp_path, [*DEAL, *play])
    assert report["error"]["kind"] == "unfinished", report


@pytest.mark.parametrize("deal", [
    {"chance": "deal", "seat": 1, "cards": ["??", "??", "??"]},
    {"chance": "deal", "seat": 1, "cards": ["3C", "??", "??"], "wild": "??"},
])
def test_turned_up_cards_are_seen_by_all(tmp_path, deal):
    error = check(tmp_path, [deal])["error"]
    assert error["line"] == 2 and "\"??\"" in error["message"]


def test_the_dealers_turned_cards_to_the_wild_are_seen_by_all(tmp_path):
    dealt = [DEAL[0], {"chance": "deal", "seat": 0, "cards": ["AS", "??", "??", "??", "??", "??", "??", "??",
                                                             "??", "??", "??", "??", "??", "??"]}]
    error = check(tmp_path, dealt)["error"]
    assert error["line"] == 3 and "everyone at the table sees" in error["message"]
