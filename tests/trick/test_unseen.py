"""Trick records of a real table, with unseen cards: following suit, drawing
to follow and called-off deals, checked against what the table saw."""

from __future__ import annotations

import io
import json

from cardcli.cards import NAME
from cardcli.game import Game
from cardcli.plugins import get_registry
from cardcli.records import RecordWriter, SeatInfo
from cardcli.rulesets import default_ruleset
from cardcli.testing import validate_command, write_record
from cardcli.testing.unseen import export_bytes

HEADER = {"format": "cardcli-record", "version": 1, "variant": "trick", "rules": {"hand_size": 3},
          "players": ["ann", "bob"], "dealer": 1, "view": "public"}
# Ann leads AH; Bob cannot follow and draws two cards nobody sees: the
# first no heart (he draws again), the second a heart (he must play it).
FOLLOWED = [{"chance": "deal", "hands": [3, 3]},
            {"seat": 0, "move": "play", "card": "AH"},
            {"seat": 1, "move": "draw"},
            {"chance": "draw", "seat": 1, "cards": ["??"]},
            {"chance": "draw", "seat": 1, "cards": ["??"]}]


def check(tmp_path, lines):
    result = validate_command("--json", write_record(tmp_path / "game.jsonl", [HEADER, *lines]))
    return json.loads(result.output.splitlines()[0])


def test_drawing_to_follow_is_consistent(tmp_path):
    lines = [*FOLLOWED, {"seat": 1, "move": "play", "card": "9H"},
             {"seat": 0, "move": "play", "card": "5C", "call": True},
             {"seat": 1, "move": "play", "card": "KC"}]
    report = check(tmp_path, lines)
    assert report["error"]["kind"] == "unfinished", report
    assert report["check"] == "consistent"


def test_the_card_drawn_last_is_of_the_suit_led(tmp_path):
    error = check(tmp_path, [*FOLLOWED, {"seat": 1, "move": "play", "card": "5S"}])["error"]
    assert error["kind"] == "impossible" and error["move"] == 3
    assert error["message"] == ("move 3, seat 1 played 5S: the card seat 1 drew after move 2 cannot be 5S "
                                "(the card seat 1 drew after move 2 was a heart)")


def test_a_void_broken_by_a_card_that_could_not_have_come(tmp_path):
    lines = [*FOLLOWED, {"seat": 1, "move": "play", "card": "9H"},
             {"seat": 0, "move": "play", "card": "5H", "call": True},
             {"seat": 1, "move": "play", "card": "4H"}]
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "impossible" and error["move"] == 5 and error["seat"] == 1
    assert error["message"] == ("move 5, seat 1 played 4H: seat 1 had no heart at move 2 (cannot follow "
                                "hearts: drawing from the stock); the card seat 1 drew after move 2 was no "
                                "heart; the card seat 1 drew after move 2 was 9H (move 3)")


def test_a_void_broken_after_a_draw_is_possible(tmp_path):
    lines = [*FOLLOWED, {"seat": 1, "move": "play", "card": "9H"},
             {"seat": 0, "move": "play", "card": "5H", "call": True}, {"seat": 1, "move": "draw"},
             {"chance": "draw", "seat": 1, "cards": ["??"]}, {"seat": 1, "move": "play", "card": "4H"}]
    assert check(tmp_path, lines)["error"]["kind"] == "unfinished"


def _stacked_call_off() -> bytes:
    """A four-player game whose first trick empties the stock: Ann leads a
    heart, Bob draws the whole stock (a heart comes last), and Cho, with no
    heart and nothing left to draw, cannot follow: the hand is called off."""
    variant = get_registry().get("trick")
    rules = {**default_ruleset(variant).options, "hand_size": 7, "jokers": 0}
    hands = [hand.split() for hand in ("AH KH QH JH 10H 9H 8H", "2S 3S 4S 5S 6S 7S 8S",
                                       "2D 3D 4D 5D 6D 7D 8D", "7H 6H 5H 4H 3H 9S 10S")]
    held = {name for hand in hands for name in hand}
    stock = [NAME[card] for card in range(52) if NAME[card] not in held and NAME[card] != "2H"] + ["2H"]
    buffer = io.StringIO()
    game = Game(variant, rules, [SeatInfo(name) for name in ("ann", "bob", "cho", "dan")], 3,
                writer=RecordWriter(buffer))
    lines = [{"chance": "deal", "hands": hands}, {"move": "play", "card": "AH"}, {"move": "draw"},
             *({"chance": "draw", "seat": 1, "cards": [name]} for name in stock),
             {"move": "play", "card": "2H"}]
    for line in lines:
        game.apply(variant.decode_action(game.state, line))
    assert game.state.is_terminal()
    game.finish()
    return buffer.getvalue().encode()


def test_a_called_off_deal_shows_the_seat_could_not_follow(tmp_path):
    record = _stacked_call_off()
    full = tmp_path / "full.jsonl"
    full.write_bytes(record)
    assert validate_command(full).exit_code == 0
    public = export_bytes(record, None)
    (tmp_path / "public.jsonl").write_bytes(public)
    result = validate_command(tmp_path / "public.jsonl")
    assert result.exit_code == 0, result.output
    # Shown as it was, Cho's hand fits; shown with a heart, Cho could have
    # followed, and the hand would not have been called off.
    lines = public.decode().splitlines()
    for cho, verdict in ((["2D", "3D", "4D", "5D", "6D", "7D", "8D"], None),
                         (["3D", "4D", "5D", "6D", "7D", "8D", "3H"], "no round ended here (next: seat 2 to "
                                                                      "play to the trick)")):
        shown = json.dumps({"shown": [None, None, cho, None]})
        (tmp_path / "shown.jsonl").write_text("\n".join([*lines[:-1], shown, lines[-1]]) + "\n")
        report = json.loads(validate_command("--json", tmp_path / "shown.jsonl").output.splitlines()[0])
        if verdict is None:
            assert report["valid"] is True, report
        else:
            assert verdict in report["error"]["message"], report
