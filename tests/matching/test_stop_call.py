"""The Stop call (``stop_call``): the play of the last card carries a call,
as the second-to-last carries Page One; forgotten, the player draws
``page_one_penalty`` cards instead of going out and play goes on."""

from __future__ import annotations

import pytest

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.cards import NAME, parse_card
from cardcli.words.narration import rules_summary
from cardcli_matching.state import DRAW_ACTION, PLAY, RESHUFFLE_ACTION

from .conftest import Table
from .test_narrate import NAMES, Steps, drawn, play


def called_plays(t: Table) -> set[str]:
    return {NAME[a[1]] for a in t.state.legal_actions() if a[0] == PLAY and a[3]}


def heads_up(**options) -> Table:
    """ann plays 4H calling Page One, bob cannot play and draws KS: ann holds
    only 5H, which plays on 4H.  ``options``: the rules."""
    t = Table(["4H 5H", "6D 7D"], "9H", dealer=1, **options)
    t.play("4H", call=True)
    t.draw("KS")
    assert t.turn == 0 and t.hand(0) == ["5H"]
    return t


# ------------------------------------------------------------------ the rule
def test_without_the_option_the_last_card_carries_no_call():
    t = heads_up()
    assert called_plays(t) == set() and t.playable() == {"5H"}
    assert "second-to-last" in str(t.illegal((PLAY, parse_card("5H"), -1, True)))
    t.play("5H")
    assert t.state.current_player() == TERMINAL and t.state.result().winner == 0


def test_the_last_card_is_offered_with_and_without_the_call():
    t = heads_up(stop_call=True)
    assert called_plays(t) == {"5H"}
    assert sorted(a[3] for a in t.state.legal_actions()) == [False, True]


def test_the_stop_call_with_the_last_card_goes_out():
    t = heads_up(stop_call=True)
    t.play("5H", call=True)
    assert t.state.current_player() == TERMINAL
    assert t.state.result().winner == 0 and t.hand(0) == []


def test_a_forgotten_stop_draws_the_penalty_instead_of_going_out():
    t = heads_up(stop_call=True)
    t.play("5H")  # the Stop call forgotten
    assert t.state.current_player() == CHANCE and t.state.result() is None
    assert t.state.expecting() == "seat 0 to draw the forgotten Stop penalty (2 cards)"
    t.deliver("KC", "KD")
    assert t.hand(0) == ["KC", "KD"]
    assert t.turn == 1 and t.state.result() is None  # play goes on with the next player
    assert t.state.top == parse_card("5H")  # the card played stays played


@pytest.mark.parametrize("penalty", [1, 5])
def test_the_forgotten_stop_draws_page_one_penalty_cards(penalty):
    t = heads_up(stop_call=True, page_one_penalty=penalty)
    t.play("5H")
    t.deliver(*["KC", "KD", "KH", "QC", "QD"][:penalty])
    assert len(t.hand(0)) == penalty and t.turn == 1


def test_with_no_penalty_the_stop_call_is_a_formality():
    t = heads_up(stop_call=True, page_one_penalty=0)
    assert called_plays(t) == {"5H"}  # still offered: a table may say it
    t.play("5H")
    assert t.state.current_player() == TERMINAL and t.state.result().winner == 0


def test_page_one_is_still_called_with_the_second_to_last_card():
    t = Table(["4H 5H", "6D 7D"], "9H", dealer=1, stop_call=True)
    assert called_plays(t) == {"4H", "5H"}
    t.play("4H")  # Page One forgotten: the Page One penalty, not the Stop one
    assert t.state.expecting() == "seat 0 to draw the forgotten Page One penalty (2 cards)"


def test_a_call_with_more_cards_is_refused_in_words_for_both_calls():
    t = Table(["4H 5H 6H", "6D 7D 8D"], "9H", dealer=1, stop_call=True)
    assert called_plays(t) == set()
    why = str(t.illegal((PLAY, parse_card("4H"), -1, True)))
    assert why.startswith("a call goes only with the play of the second-to-last card (Page One) or of "
                          "the last card (Stop)")


def test_the_last_cards_effect_still_applies_when_stop_is_forgotten():
    t = Table(["4H JH", "6D 7D", "6S 7S"], "9H", stop_call=True)
    t.play("4H", call=True)
    t.draw("KS")  # bob: nothing on 4H
    t.draw("KC")  # cat: nothing either
    t.play("JH")  # the last card, a skip, without the call
    t.deliver("10C", "10D")
    assert t.turn == 2, "bob is skipped, as after any jack"


def test_a_forgotten_stop_on_a_penalty_passes_it_on_and_draws():
    t = Table(["4H 2H", "2D 7D", "6S 7S"], "9H", stop_call=True)
    t.play("4H", call=True)
    t.draw("KS")
    t.draw("KC")
    t.play("2H")  # the last card answers nothing here: a 2, and no Stop
    t.deliver("10C", "10D")
    assert t.turn == 1 and t.state.penalty == 2  # bob faces the two


def test_a_forgotten_stop_reshuffles_to_draw():
    t = heads_up(stop_call=True)
    state = t.state
    # One card left in the stock; the rest lie in the discards under the top card.
    state.discard[:0] = state.stock[1:]
    del state.stock[1:]
    last = NAME[state.stock[0]]
    t.play("5H")
    t.deliver(last)
    assert state.current_player() == CHANCE and "reshuffle" in state.expecting()
    state.apply(RESHUFFLE_ACTION)
    t.deliver(NAME[state.stock[0]])
    assert len(t.hand(0)) == 2 and t.turn == 1


def test_rank_all_places_a_forgotten_stop_is_not_out():
    t = Table(["4H", "6D", "6S"], "9H", hand_size=1, stop_call=True, rank_all_places=True)
    t.play("4H")
    t.deliver("KC", "KD")
    assert t.state.active[0] and t.state.out == []
    called = Table(["4H", "6D", "6S"], "9H", hand_size=1, stop_call=True, rank_all_places=True)
    called.play("4H", call=True)
    assert called.state.out == [0] and called.turn == 1


def test_rounds_a_forgotten_stop_keeps_the_round_going():
    t = heads_up(stop_call=True, rounds=2)
    t.play("5H")
    t.deliver("KC", "KD")
    assert t.state.round == 0 and t.state.round_scores == []
    called = heads_up(stop_call=True, rounds=2)
    called.play("5H", call=True)
    assert called.state.round == 1 and called.state.round_scores == [[0, 10 + 6 + 7]]


# ----------------------------------------------------------------- in words
def test_the_log_says_the_stop_call_and_its_forgetting():
    t = Table(["4H 5H", "6D 7D"], "9H", dealer=1, stop_call=True)
    steps = Steps(t)
    steps(play("4H", call=True))
    steps(DRAW_ACTION)
    steps(drawn("KS"))
    steps(play("5H"))
    steps(drawn("KC", "KD"))
    assert steps.lines(viewer=1) == ['ann called "Page One!" and played 4H on 9H',
                                     "bob could not play: drew KS",
                                     "ann played 5H on 4H - forgot to call Stop, so drew 2 cards"]
    called = Table(["4H 5H", "6D 7D"], "9H", dealer=1, stop_call=True)
    steps = Steps(called)
    steps(play("4H", call=True))
    steps(DRAW_ACTION)
    steps(drawn("KS"))
    steps(play("5H", call=True))
    assert steps.lines(viewer=None)[-1] == 'ann called "Stop!" and played 5H on 4H'


def test_the_cards_drawn_say_why():
    t = heads_up(stop_call=True)
    t.play("5H")
    told = t.variant.describe(t.state, drawn("KC", "KD"), viewer=1, names=NAMES)
    assert told == "ann drew 2 cards (forgot Stop)"


def test_explain_says_the_rule_of_the_call():
    def why(t: Table, call: bool) -> str:
        return t.variant.rule_behind(t.state, play("5H", call=call), NAMES)

    assert why(heads_up(stop_call=True), True) == ("matches the suit of 4H (hearts); Stop! called with the "
                                                   "last card: out")
    assert why(heads_up(stop_call=True), False) == (
        "matches the suit of 4H (hearts); Stop! not called with the last card: 2 cards to draw instead of "
        "going out")
    assert why(heads_up(stop_call=True, page_one_penalty=0), False).endswith(
        "the last card: out (Stop! not called: with no penalty the call is a formality)")
    assert why(heads_up(), False) == "matches the suit of 4H (hearts); the last card: out"


def test_a_forgotten_stops_special_card_is_told_with_its_effect():
    t = Table(["4H JH", "6D 7D", "6S 7S"], "9H", stop_call=True)
    t.play("4H", call=True)
    t.draw("KS")
    t.draw("KC")
    assert t.variant.describe(t.state, play("JH"), names=NAMES) == "played JH on 4H (skips bob)"
    assert t.variant.describe(t.state, play("JH", call=True), names=NAMES) == \
        'called "Stop!" and played JH on 4H'
    assert t.variant.rule_behind(t.state, play("JH"), NAMES).endswith("the J skips bob")


def test_the_house_rules_header_names_the_call():
    variant = get_registry().get("matching")
    rules = load_ruleset("japanese", get_registry(), "matching", 4).options
    assert rules_summary(variant, rules) == [
        "5 cards each", "A skips", "9 reverses", "3s draw three", "a 5-card Page One penalty",
        '"Stop!" called with the last card', "5 rounds"]


# ------------------------------------------------------------- at the prompt
def test_the_prompt_offers_the_stop_call_with_the_last_card():
    from .test_narrate import Answers

    t = heads_up(stop_call=True)
    ui = Answers(["p", "s", "1"])
    assert t.variant.human_turn(t.state, 0, t.state.legal_actions(), ui) == play("5H", call=True)
    assert '  [s] call "Stop!"' in ui.shown
    assert "Your move (number, a card like 8s, s to call Stop)" in ui.shown
    assert ("Page One is called with the play that leaves you one card; with this card the call is "
            "Stop (s).") in ui.shown
    assert '"Stop!" - now choose your card.' in ui.shown
    forgot = Answers(["1"])
    assert t.variant.human_turn(t.state, 0, t.state.legal_actions(), forgot) == play("5H")


def test_the_prompt_offers_page_one_with_two_cards_and_no_stop_before():
    from .test_narrate import Answers

    t = Table(["4H 5H", "6D 7D"], "9H", dealer=1, stop_call=True)
    ui = Answers(["stop", "p", "1"])
    assert t.variant.human_turn(t.state, 0, t.state.legal_actions(), ui) == play("4H", call=True)
    assert '  [p] call "Page One!"' in ui.shown and '  [s] call "Stop!"' not in ui.shown
    assert ("Stop is called with the play of your last card; with this card the call is "
            "Page One (p).") in ui.shown
    three = Table(["4H 5H 6H", "6D 7D 8D"], "9H", dealer=1, stop_call=True)
    ui = Answers(["s", "1"])
    three.variant.human_turn(three.state, 0, three.state.legal_actions(), ui)
    assert "Stop is called with the play of your last card; not now." in ui.shown


def test_without_the_option_the_prompt_has_no_stop():
    from .test_narrate import Answers

    t = heads_up()
    ui = Answers(["s", "stop", "1"])
    assert t.variant.human_turn(t.state, 0, t.state.legal_actions(), ui) == play("5H")
    assert not any("Stop" in line for line in ui.shown)
    assert "'s' is not one of your choices." in ui.shown


@pytest.mark.parametrize(("text", "called"), [
    ("5h stop", True), ("stop 5h", True), ("s 5h", True), ("5h!", True), ("5h", False),
    ("5h page one", None), ("p 5h", None)])
def test_typed_moves_with_the_stop_call(text, called):
    t = heads_up(stop_call=True)
    move = t.variant.parse_move(t.state, text, t.state.legal_actions())
    assert move == (None if called is None else play("5H", call=called))
    why = t.variant.why_not_move(t.state, text)
    assert why == (None if called is not None else "the call with the last card is Stop, not Page One")


def test_typed_stop_with_the_second_to_last_card_or_at_a_table_without_it():
    t = Table(["4H 5H", "6D 7D"], "9H", dealer=1, stop_call=True)
    assert t.variant.parse_move(t.state, "4h stop", t.state.legal_actions()) is None
    assert t.variant.why_not_move(t.state, "4h stop") == \
        "the call with the second-to-last card is Page One, not Stop"
    assert t.variant.parse_move(t.state, "4h page one", t.state.legal_actions()) == play("4H", call=True)
    off = heads_up()
    assert off.variant.parse_move(off.state, "5h stop", off.state.legal_actions()) is None
    assert off.variant.why_not_move(off.state, "5h stop") == \
        "there is no Stop call at this table (stop_call is off)"


# ------------------------------------------------------------------ records
HEADER = {"format": "cardcli-record", "version": 1, "variant": "matching",
          "rules": {"hand_size": 2, "stop_call": True}, "players": ["ann", "bob"], "dealer": 1}
#: ann calls Page One with 9S and Stop with her last card, 9H.
GAME = [
    HEADER,
    {"chance": "deal", "hands": [["9H", "9S"], ["KH", "4C"]]},
    {"chance": "turn_up", "card": "7S"},
    {"seat": 0, "move": "play", "card": "9S", "call": True},
    {"seat": 1, "move": "draw"},
    {"chance": "draw", "seat": 1, "cards": ["9D"]},
    {"seat": 1, "move": "play", "card": "9D"},
    {"seat": 0, "move": "play", "card": "9H", "call": True},
    {"result": {"places": [1, 2], "winner": 0}},
]
#: ann forgets Stop with 9H, draws two, and the game goes on: bob plays KH.
FORGOT = [*GAME[:7], {"seat": 0, "move": "play", "card": "9H"},
          {"chance": "draw", "seat": 0, "cards": ["5S", "8D"]},
          {"seat": 1, "move": "play", "card": "KH", "call": True}]


def test_a_record_with_the_stop_call_is_valid(tmp_path):
    from cardcli.testing import validate_command, write_record

    result = validate_command(write_record(tmp_path / "game.jsonl", GAME))
    assert result.exit_code == 0, result.output
    assert "valid (every card known): matching game, 4 moves, ann won" in result.output


def test_a_record_calling_stop_without_the_option_is_refused(tmp_path):
    from cardcli.testing import validate_command, write_record

    lines = [{**HEADER, "rules": {"hand_size": 2}}, *GAME[1:]]
    result = validate_command(write_record(tmp_path / "game.jsonl", lines))
    assert result.exit_code == 1
    assert ('game.jsonl:8: move 4, seat 0 called "Page One!" and played 9H on 9D: Page One may only be '
            "called with the play of the second-to-last card (could play 9H)") in result.output


def test_a_forgotten_stop_in_a_record_draws_and_the_game_goes_on(tmp_path):
    from cardcli.testing import validate_command, write_record

    result = validate_command(write_record(tmp_path / "game.jsonl", FORGOT))
    assert result.exit_code == 1
    assert "game.jsonl:10: legal so far; unfinished after move 5" in result.output
    undrawn = [*FORGOT[:8], FORGOT[-1]]
    result = validate_command(write_record(tmp_path / "undrawn.jsonl", undrawn))
    assert ("game.jsonl:9: move 5: expected seat 0 to draw the forgotten Stop penalty (2 cards), but the "
            "record has a move by seat 1") in result.output.replace("undrawn.jsonl", "game.jsonl")


def test_a_real_tables_record_of_the_stop_call_is_checked_with_its_unseen_cards(tmp_path):
    from cardcli.testing import validate_command, write_record

    header = {**HEADER, "view": "public"}
    seen = [header, {"chance": "deal", "hands": [2, 2]}, GAME[2], GAME[3], GAME[4],
            {"chance": "draw", "seat": 1, "cards": ["??"]}, GAME[6],
            {"seat": 0, "move": "play", "card": "9H"}, {"chance": "draw", "seat": 0, "cards": ["??", "??"]},
            FORGOT[-1]]
    result = validate_command(write_record(tmp_path / "game.jsonl", seen))
    assert "legal so far; unfinished after move 5" in result.output, result.output
    # Without the option, her last card goes out: the record cannot go on drawing.
    off = [{**header, "rules": {"hand_size": 2}}, *seen[1:]]
    result = validate_command(write_record(tmp_path / "off.jsonl", off))
    assert result.exit_code == 1 and "the game is already over after move 4" in result.output, result.output


def test_replay_explain_says_the_stop_call(tmp_path):
    from click.testing import CliRunner

    from cardcli.cli import cli
    from cardcli.testing import write_record

    path = write_record(tmp_path / "game.jsonl", FORGOT)
    out = " ".join(CliRunner().invoke(cli, ["replay", str(path), "--to", "4", "--explain"]).output.split())
    assert "ann played 9H on 9D - forgot to call Stop, so drew 5S 8D" in out
    assert "why: matches the rank of 9D; Stop! not called with the last card: 2 cards to draw instead of " \
           "going out" in out
    path = write_record(tmp_path / "called.jsonl", GAME)
    out = " ".join(CliRunner().invoke(cli, ["replay", str(path), "--to", "4", "--explain"]).output.split())
    assert 'ann called "Stop!" and played 9H on 9D' in out
    assert "why: matches the rank of 9D; Stop! called with the last card: out" in out


def test_the_golden_records_are_written_today_byte_for_byte():
    """Every event of the golden records is read and written again exactly
    as it was: those kept from before the option (which read with it off)
    and the one with the Stop call."""
    from pathlib import Path

    from cardcli.engine.game import header_to_game
    from cardcli.kit.record_format import dumps, parse_header

    folder = Path(__file__).parents[1] / "golden" / "matching"
    for path in sorted(folder.glob("*.jsonl")):
        import json

        raw = path.read_text(encoding="utf-8").splitlines()
        game = header_to_game(parse_header(json.loads(raw[0]), str(path)), get_registry(), str(path))
        if "stop_call" not in json.loads(raw[0])["rules"]:
            assert game.rules["stop_call"] is False
        for text in raw[1:-1]:
            data = json.loads(text)
            if "shown" in data:
                continue
            action = game.variant.decode_action(game.state, data)
            assert dumps(game.encode(action)) == text, path
            game.apply(action)


# --------------------------------------------------------------------- CPUs
def _calls_made(records, level: str) -> dict[int, list[int]]:
    """In simulated records, per hand size before a play (1: Stop, 2: Page
    One), how many plays of the CPUs of ``level`` made the call and how many
    forgot it."""
    import json

    counts = {1: [0, 0], 2: [0, 0]}
    for path in records:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        kinds = [player["kind"] for player in lines[0]["players"]]
        held: list[int] = []
        for data in lines[1:]:
            if data.get("chance") == "deal":
                held = [len(hand) for hand in data["hands"]]
            elif data.get("chance") == "draw":
                held[data["seat"]] += len(data["cards"])
            elif data.get("move") == "play":
                size = held[data["seat"]]
                if size in counts and kinds[data["seat"]] == level:
                    counts[size][0 if data.get("call") else 1] += 1
                held[data["seat"]] -= 1
    return counts


def test_normal_cpus_always_call_and_easy_ones_forget_stop_as_often_as_page_one(tmp_path):
    """``cardcli simulate`` of the Japanese table: every record valid; easy
    CPUs forget each call about as often (15%), normal ones never."""
    from click.testing import CliRunner

    from cardcli.cli import cli
    from cardcli_matching.cpu import FORGET_RATE

    def simulate(players: str, folder: str) -> list:
        result = CliRunner().invoke(cli, ["simulate", "matching", "--ruleset", "japanese", "-n", "60",
                                          "--seed", "1", "--players", players, "--records",
                                          str(tmp_path / folder), "-w", "1"])
        assert result.exit_code == 0, result.output
        records = sorted((tmp_path / folder).glob("*.jsonl"))
        assert CliRunner().invoke(cli, ["validate", *map(str, records)]).exit_code == 0
        return records

    easy = _calls_made(simulate("cpu:easy,cpu:easy,cpu:easy", "easy"), "cpu:easy")
    assert easy[1][0] > 100 and easy[2][0] > 100
    for called, forgot in easy.values():
        assert abs(forgot / (called + forgot) - FORGET_RATE) < 0.05, easy
    normal = _calls_made(simulate("cpu:normal,cpu:normal,cpu:easy", "mixed"), "cpu:normal")
    assert normal[1][0] > 20 and normal[2][0] > 20
    assert normal[1][1] == normal[2][1] == 0, normal


def test_the_normal_cpu_calls_stop_and_the_easy_one_sometimes_forgets():
    import random

    from cardcli_matching.cpu import easy, normal

    t = heads_up(stop_call=True)
    legal = t.state.legal_actions()
    assert all(normal(t.state, 0, legal, random.Random(seed)) == play("5H", call=True) for seed in range(20))
    chosen = {easy(t.state, 0, legal, random.Random(seed)) for seed in range(40)}
    assert chosen == {play("5H", call=True), play("5H")}
    off = heads_up()
    assert normal(off.state, 0, off.state.legal_actions(), random.Random(1)) == play("5H")


def test_the_hard_cpu_calls_stop_as_surely_as_page_one():
    """The search finds the call worth making: at the last card (Stop) no
    more often forgotten than at the second-to-last (Page One)."""
    import random

    from cardcli.contract.variant import CHANCE, TERMINAL
    from cardcli.cpu.players.hard import Budget, HardPlayer

    variant = get_registry().get("matching")
    rules = {**load_ruleset("japanese", get_registry(), "matching", 3).options, "rounds": 1}
    counts = {1: [0, 0], 2: [0, 0]}
    for seed in range(12):
        state = variant.new_state(rules, 3, seed % 3)
        rng = random.Random(seed)
        policy = variant.cpu_policy("normal")
        while state.current_player() != TERMINAL:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_legal(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if any(a[0] == PLAY and a[3] for a in legal):
                chosen = HardPlayer(variant, seed, seat, Budget(iterations=60, seconds=None)).act(
                    state.clone(), seat, legal)
                if chosen[0] == PLAY:
                    counts[len(state.hands[seat])][0 if chosen[3] else 1] += 1
            state.apply_legal(policy(state, seat, legal, rng))
    (stop_called, stop_forgot), (page_called, page_forgot) = counts[1], counts[2]
    assert stop_called >= 10 and page_called >= 10
    assert stop_forgot / (stop_called + stop_forgot) <= max(0.1, page_forgot / (page_called + page_forgot))


def test_rules_show_the_option_and_the_japanese_table():
    import json

    from click.testing import CliRunner

    from cardcli.cli import cli

    shown = " ".join(CliRunner().invoke(cli, ["rules", "matching"]).output.split())
    assert 'stop_call false true or false the play of your last card carries a call too ("Stop!")' in shown
    assert "matching-japanese" in shown
    data = json.loads(CliRunner().invoke(cli, ["rules", "--ruleset", "japanese", "--json"]).output)
    options = data["options"]
    assert options["stop_call"] is True and options["hand_size"] == 5 and options["rounds"] == 5
    assert options["page_one_penalty"] == 5 and not options["rank_all_places"]
    assert data["ruleset"] == "American Page One (Japanese table)"
    described = " ".join(CliRunner().invoke(cli, ["rules", "--ruleset", "japanese"]).output.split())
    assert "call Page One with your second-to-last card and Stop with your last" in described


def test_the_golden_japanese_game_exported_as_a_spectator_saw_it_is_consistent(tmp_path):
    """``cardcli export --public`` of a game with Stop called and forgotten:
    the unseen cards (the forgotten Stop's penalty among them) are checked
    exactly."""
    from pathlib import Path

    from click.testing import CliRunner

    from cardcli.cli import cli

    golden = Path(__file__).parents[1] / "golden" / "matching" / "matching-3p-seed3-japanese.jsonl"
    out = tmp_path / "public.jsonl"
    exported = CliRunner().invoke(cli, ["export", str(golden), "--public", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    checked = CliRunner().invoke(cli, ["validate", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "consistent with what the table saw (public view)" in checked.output
    assert _calls_made([golden], "cpu:easy")[1] == [3, 1]  # Stop called, and forgotten once
