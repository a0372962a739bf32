"""Trick records of a real table, with unseen cards: following suit, drawing
to follow and called-off deals, checked against what the table saw."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.engine.game import Game
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import NAME
from cardcli.kit.record_format import RecordWriter, SeatInfo
from cardcli.testing import validate_command, write_record
from cardcli.testing.unseen import check_exports, export_bytes

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
    assert error["message"] == ("move 3, seat 1 played 5S: the card seat 1 drew a 2nd time after move 2 "
                                "cannot be 5S (the card seat 1 drew a 2nd time after move 2 was a heart)")


def test_a_void_broken_by_a_card_that_could_not_have_come(tmp_path):
    lines = [*FOLLOWED, {"seat": 1, "move": "play", "card": "9H"},
             {"seat": 0, "move": "play", "card": "5H", "call": True},
             {"seat": 1, "move": "play", "card": "4H"}]
    error = check(tmp_path, lines)["error"]
    assert error["kind"] == "impossible" and error["move"] == 5 and error["seat"] == 1
    assert error["message"] == ("move 5, seat 1 played 4H: seat 1 had no heart at move 2 (cannot follow "
                                "hearts: drawing from the stock); the card seat 1 drew after move 2 was no "
                                "heart; the card seat 1 drew a 2nd time after move 2 was 9H (move 3)")


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
    # followed, and the hand would not have been called off: impossible, for
    # the lack the called-off deal shows.
    lines = public.decode().splitlines()
    for cho, verdict in ((["2D", "3D", "4D", "5D", "6D", "7D", "8D"], None),
                         (["3D", "4D", "5D", "6D", "7D", "8D", "3H"],
                          "the hands shown after move 3: seat 2 shows 3H, but the round ends here only "
                          "because seat 2 had no heart (it could not go on)")):
        shown = json.dumps({"shown": [None, None, cho, None]})
        (tmp_path / "shown.jsonl").write_text("\n".join([*lines[:-1], shown, lines[-1]]) + "\n")
        report = json.loads(validate_command("--json", tmp_path / "shown.jsonl").output.splitlines()[0])
        if verdict is None:
            assert report["valid"] is True, report
        else:
            assert report["error"]["kind"] == "impossible", report
            assert report["error"]["message"] == verdict, report


# ---------------------------------------------------------------- running dry
# Seven players with seven cards each leave two cards of stock: the deal
# often runs dry.  Game 134 of this simulation is one in which seat 3, who
# cannot follow hearts and holds the joker, chooses to draw with the stock
# and the finished tricks both empty, which calls the hand off at once.
SEVEN = 'name = "seven"\nvariant = "trick"\n[options]\nhand_size = 7\nmax_players = 7\n'


@pytest.fixture(scope="module")
def dry_joker_draw(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("seven")
    (folder / "seven.toml").write_text(SEVEN)
    result = CliRunner().invoke(cli, ["simulate", "trick", "--games", "135", "--players", "7", "--cpu",
                                      "easy", "--seed", "77", "-r", str(folder / "seven.toml"),
                                      "--records", str(folder / "g"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    path = folder / "g" / "game-000134.jsonl"
    lines = path.read_text().splitlines()
    assert json.loads(lines[-2]) == {"seat": 3, "move": "draw"}, "the game is no longer the one described"
    assert "JK" in json.loads(lines[1])["hands"][3]
    return path


def test_drawing_dry_beside_a_joker_is_consistent_from_every_view(dry_joker_draw):
    # The draw is legal only because seat 3 held the joker: every view that
    # does not see seat 3's hand must allow that it did.
    assert validate_command(dry_joker_draw).exit_code == 0
    record = dry_joker_draw.read_bytes()
    check_exports(record, 7, "game 134")


def _export(record: bytes, viewer: int | None) -> list[str]:
    return export_bytes(record, viewer).decode().splitlines()


@pytest.mark.parametrize("viewer", [None, 0])
def test_a_record_going_on_after_the_dry_draw_is_refused_at_the_next_line(dry_joker_draw, tmp_path, viewer):
    lines = _export(dry_joker_draw.read_bytes(), viewer)
    assert json.loads(lines[12]) == {"seat": 3, "move": "draw"}
    for extra in ({"chance": "draw", "seat": 3, "cards": ["??"]}, {"seat": 4, "move": "play", "card": "2H"}):
        path = tmp_path / "more.jsonl"
        path.write_text("\n".join([*lines[:13], json.dumps(extra)]) + "\n")
        report = json.loads(validate_command("--json", path).output.splitlines()[0])
        assert report["error"]["line"] == 14, report
        assert report["error"]["message"] == "the game is already over after move 7, but the record goes on"


def test_drawing_dry_needs_a_joker_the_pack_still_has(dry_joker_draw, tmp_path):
    # Seat 2 plays the joker instead of JH: seat 3 can no longer hold it.
    lines = _export(dry_joker_draw.read_bytes(), None)
    assert json.loads(lines[11]) == {"seat": 2, "move": "play", "card": "JH"}
    lines[11] = json.dumps({"seat": 2, "move": "play", "card": "JK"})
    path = tmp_path / "joker.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report = json.loads(validate_command("--json", path).output.splitlines()[0])
    assert report["error"]["kind"] == "impossible" and report["error"]["line"] == 13
    assert report["error"]["message"] == (
        "move 7, seat 3 chose to draw: nothing is left to draw (stock and finished tricks are empty), which "
        "only a joker in hand would allow, but the pack's only joker was played before (move 6)")


def test_a_joker_played_from_a_pack_without_one(tmp_path):
    header = {**HEADER, "rules": {"hand_size": 3, "jokers": 0}}
    path = write_record(tmp_path / "game.jsonl", [header, {"chance": "deal", "hands": [3, 3]},
                                                   {"seat": 0, "move": "play", "card": "JK"}])
    report = json.loads(validate_command("--json", path).output.splitlines()[0])
    assert report["error"]["kind"] == "impossible"
    assert report["error"]["message"] == "move 1, seat 0 led JK: JK is played, but the pack has no joker"
