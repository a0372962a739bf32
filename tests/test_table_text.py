"""What the terminal table says, for any variant: the header, the log, the
hint, a round's end, the end of the game; and what a third party's variant
gets from the core without a word of its own."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.engine.game import Game
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset, load_ruleset
from cardcli.kit.record_format import SeatInfo
from cardcli.terminal.session import Session, end_text, hint_text, over_text, ranking_text, table_header
from cardcli.terminal.ui import TerminalUI
from cardcli.words.narration import describe_events, round_summary, rule_behind
from cardcli.words.view import move_view, played_cards

from .thirdparty import HighCard


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


# ------------------------------------------------------------------ ranking
def test_ranking_rows_line_up_and_say_who_won():
    text = ranking_text({"places": [2, 1, 3], "winner": 1, "scores": [35, 120, 5]},
                        ["ann", "barbara", "cy"], "points")
    assert text.splitlines() == ["Ranking:", "  1. barbara  120 points", "  2. ann       35 points",
                                 "  3. cy         5 points", "  barbara wins!"]
    assert ranking_text({"places": [1, 2], "winner": 0}, ["you", "cpu1"]).endswith("  you win!")
    assert ranking_text({"places": [1, 1], "winner": None}, ["a", "b"]).endswith("No single winner.")
    text = ranking_text({"places": [1, 2], "winner": 0, "scores": [1, 0]}, ["ann", "bob"], "deals won")
    assert "  1. ann  1 deal won" in text and "  2. bob  0 deals won" in text


def test_game_over_says_the_reason_in_names_once():
    assert over_text({"reason": "seat 0 played their last card"}, ["you", "bob"]) == \
        "Game over: you played your last card."
    variant = get_registry().get("trick")
    state = variant.new_state(default_ruleset(variant).options, 2, 1)
    result = {"places": [1, 2], "winner": 0, "reason": "seat 0 played their last card"}
    text = end_text(variant, state, result, ["ann", "bob"])
    assert text.count("over") == 1 and "Game over: ann played their last card." in text


# ------------------------------------------------------------------- header
def test_header_names_the_ruleset_and_its_house_rules():
    registry = get_registry()
    matching = registry.get("matching")
    american = load_ruleset("american", registry, "matching")
    assert table_header(matching, american.options, american.name).startswith(
        "American Page One: A skips, 9 reverses, 3s draw three")
    assert table_header(matching, default_ruleset(matching).options, None) == \
        "Page One (matching): the standard rules"
    narrow = dict(default_ruleset(matching).options, max_players=3)  # table sizes are settled at a table
    assert table_header(matching, narrow, None) == "Page One (matching): the standard rules"


# ------------------------------------------------------------- third party
def test_a_third_party_variant_gets_words_from_the_core():
    variant = HighCard()
    rules = {"bonus": 3, "min_players": 2, "max_players": 4}
    assert table_header(variant, rules, None) == "High card: bonus 3"
    state = variant.new_state(rules, 2, 0)
    deal = ("deal", ((0, 14), (26, 27)))
    assert rule_behind(variant, state, deal) == ""
    events = [(state.clone(), deal)]
    state.apply(deal)
    assert rule_behind(variant, state, ("play", 26)) == "a choice: one of 2 legal moves"
    assert played_cards(variant, state, ("play", 26)) == ["2D"]
    events.append((state.clone(), ("play", 26)))
    state.apply(("play", 26))
    assert describe_events(variant, events, viewer=0, names=["ann", "bob"]) == [
        "dealt 2 cards each", "bob played 2D"]
    assert round_summary(variant, state, ("play", 0)) is None
    assert move_view(variant, state, 0, ("play", 0), ["ann", "bob"]).label == "play 2S"
    state.apply(("play", 0))
    state.apply(("play", 27))
    assert rule_behind(variant, state, ("play", 14)) == "forced: the only legal move"


def test_a_third_party_variant_at_the_terminal(tmp_path):
    variant = HighCard()
    record = tmp_path / "game.jsonl"
    from cardcli.kit.record_format import RecordWriter

    game = Game(variant, {"bonus": 0, "min_players": 2, "max_players": 4},
                [SeatInfo("ann"), SeatInfo("cpu1", "cpu:easy")], 1, seed=3,
                writer=RecordWriter.open(str(record)))
    runner = CliRunner()
    with runner.isolation(input="1\n1\n") as (out, *_):
        session = Session(game, TerminalUI(colour=False))
        result = session.run()
        session.show_end(result)
    text = out.getvalue().decode()
    assert "High card: the standard rules" in text and "ann, it is your turn." in text
    assert "[1] play " in text  # the core's numbered menu for a variant with no dialogue
    assert "Game over: most rounds won." in text
    assert json.loads(record.read_text().splitlines()[-1])["result"]["places"]


# --------------------------------------------------------------------- hint
def test_the_hint_uses_the_menus_numbers_and_the_present_tense():
    registry = get_registry()
    variant = registry.get("matching")
    from tests.matching.conftest import Table

    t = Table(["9S 5H KD", "KC 4D 7D"], "9H")
    game = Game(variant, t.rules, [SeatInfo("ann"), SeatInfo("bob")], 1, seed=1)
    game.state = t.state
    legal = t.state.legal_actions()
    assert len(legal) > 1
    menu = {action: str(number) for number, action in enumerate(legal, start=1)}
    text = hint_text(game, t.state, 0, legal, menu)
    lines = text.splitlines()
    assert lines[0].startswith("Hint - the hard CPU's view from your seat")
    assert len(lines) == 3 + len(legal) and lines[-2] == "  (100 = sure first place, 0 = sure last)"
    values = []
    for line in lines[1:-2]:
        key, _, rest = line.strip().partition("] ")
        label, _, value = rest.rpartition(": ")
        assert key.startswith("[") and label.startswith(("play ", "draw"))
        assert "played" not in label
        values.append(float(value.split(" ±")[0]))
    assert values == sorted(values, reverse=True)


# --------------------------------------------------------- at the terminal
def test_play_shows_the_header_and_merged_lines(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "you,cpu:normal,cpu:easy", "--ruleset", "american",
                 "--seed", "5", "--record", record, input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "American Page One: A skips, 9 reverses, 3s draw three" in out
    assert "could not play: drew" in out
    assert "(draws " not in out and "(penalty)" not in out
    assert "Round 1 of 5 is over:" in out and "Press Enter for the next deal." in out
    assert out.count("Press Enter for the next deal.") == 4  # after rounds 1-4; the game's end after 5
    assert "\x1b[" not in out  # not a terminal: no colour
    assert run("validate", record).exit_code == 0


def test_a_hint_with_one_legal_move_says_so_without_searching(monkeypatch):
    from cardcli.cpu.players.hard import HardPlayer
    from tests.matching.conftest import Table

    variant = get_registry().get("matching")
    t = Table(["KD 4D 7D", "KC 4S 7S"], "9C")  # nothing plays on 9C: drawing is the only move
    game = Game(variant, t.rules, [SeatInfo("ann"), SeatInfo("bob")], 1, seed=1)
    game.state = t.state
    legal = t.state.legal_actions()
    assert len(legal) == 1

    def no_search(*args, **kwargs):
        raise AssertionError("the hint searched a position with one legal move")

    monkeypatch.setattr(HardPlayer, "rate", no_search)
    assert hint_text(game, t.state, 0, legal, {legal[0]: "1"}) == \
        "Hint - there is only one move: [1] draw a card."
    assert hint_text(game, t.state, 0, legal) == "Hint - there is only one move: draw a card."


# ------------------------------------------------------------ picking cards
def test_cards_are_picked_from_a_hand_by_name_or_by_their_shown_number():
    from cardcli.kit.cards import parse_card
    from cardcli.words.table_text import hand_text, picked_cards

    hand = [parse_card(c) for c in ("3C", "9S", "4S", "4S", "7D")]
    assert hand_text(hand, 3, numbered=True) == "1:4S 2:4S 3:9S | 4:7D | 5:3C*"
    assert picked_cards(hand, ["5", "9s", "1"], 3) == [parse_card(c) for c in ("3C", "9S", "4S")]
    assert picked_cards(hand, ["4s", "2"], 3) == [parse_card("4S")] * 2  # two 4S held: both may be picked
    for words, reason in ((["6"], "there is no card number 6 in your hand (1 to 5)"),
                          (["KD"], "KD is not in your hand"),
                          (["9s", "3"], "you hold only 1 9S"),
                          (["7x"], "'7x' is not a card (write rank then suit, e.g. 7H, 10S or QD)")):
        with pytest.raises(ValueError) as refused:
            picked_cards(hand, words, 3)
        assert str(refused.value) == reason


def test_a_hand_with_cards_nobody_saw_marks_only_the_wilds():
    """An unseen card (a referee's table, a seat's view) is no wild: it is shown apart, unmarked."""
    from cardcli.kit.cards import UNSEEN, parse_card
    from cardcli.words.table_text import hand_text

    hand = [UNSEEN, parse_card("9H"), UNSEEN, parse_card("3C")]
    assert hand_text(hand, 3) == "?? ?? | 9H | 3C*"
    assert "*" not in hand_text([UNSEEN] * 4, 3)
