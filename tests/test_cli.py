"""The commands as a person uses them, through Click's test runner."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cardcli import __version__
from cardcli.cli import cli
from cardcli.engine.plugins import get_registry as registry
from cardcli_matching.state import DRAW, PLAY


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ------------------------------------------------------------------- basics
def test_version_and_help():
    assert __version__ in run("--version").output
    result = run("--help")
    for command in ("play", "validate", "replay", "simulate", "rules", "variants"):
        assert command in result.output
    for command in ("play", "validate", "replay", "simulate", "rules", "variants"):
        assert run(command, "--help").exit_code == 0


def test_variants_lists_matching_and_its_package():
    result = run("variants")
    assert result.exit_code == 0
    assert "matching" in result.output and "2 to 6 players" in result.output
    assert "CPU: easy, normal, hard" in result.output
    assert "[cardcli-matching]" in result.output
    said = " ".join(result.output.split())
    assert "2s draw two, 8s are wild, Js skip, Qs reverse" in said  # not "2 draw two"
    rows = json.loads(run("variants", "--json").output)
    assert {"name": "matching", "package": "cardcli-matching"}.items() <= next(
        r for r in rows if r["name"] == "matching").items()


def test_rules_lists_every_option_with_default_range_and_meaning():
    result = run("rules", "matching")
    assert result.exit_code == 0
    for text in ("hand_size", "a whole number from 1 to 10", "cards dealt to each player",
                 "first_special", '"reflip", "apply"', "page_one_penalty", "matching-american"):
        assert text in result.output


def test_rules_of_a_ruleset():
    result = run("rules", "--ruleset", "american")
    assert result.exit_code == 0
    assert "American Page One" in result.output
    assert "A*" in result.output  # skip_rank changed from the default
    data = json.loads(run("rules", "--ruleset", "american", "--json").output)
    assert data["options"]["skip_rank"] == "A" and data["options"]["rounds"] == 5


def test_a_ruleset_file_too_long_for_the_terminal_is_named_and_json_gives_its_path(monkeypatch):
    """A shipped ruleset lives deep in an installed package: its path, wider
    than the terminal, would wrap mid-word; the text names the file instead."""
    path = json.loads(run("rules", "--ruleset", "american", "--json").output)["source"]
    monkeypatch.setenv("COLUMNS", str(len(path) + 3))
    assert "(matching-american.toml; --json gives its path)" in run("rules", "--ruleset", "american").output
    monkeypatch.setenv("COLUMNS", str(len(path) + 4))
    assert f"  ({path})" in run("rules", "--ruleset", "american").output


def test_unknown_variant_is_one_clear_error():
    result = run("play", "bridge")
    assert result.exit_code == 1
    assert "unknown variant 'bridge' (installed:" in result.output


# --------------------------------------------------------------------- play
def test_full_game_against_cpus_answering_prompts(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "you,cpu:normal,cpu:easy", "--seed", "5",
                 "--record", record, input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Top card:" in out and "you, it is your turn." in out
    assert "Ranking:" in out and "Game over" in out
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["players"][0] == {"name": "you", "kind": "human"}
    assert "result" in json.loads(lines[-1])
    assert run("validate", record).exit_code == 0
    final = run("replay", record, "--to", json.loads(lines[-1]) and _moves(record))
    assert "Ranking:" in final.output


def _moves(record) -> int:
    return sum(1 for line in record.read_text().splitlines() if '"move"' in line)


def test_typed_cards_bad_input_and_a_named_suit(tmp_path):
    record = tmp_path / "game.jsonl"
    # Answers: nonsense, a card not held, then choices; an 8 asks for a suit.
    answers = "zz\n7x\n" + "1\nh\n" * 300
    result = run("play", "matching", "--players", "you,cpu:easy", "--seed", "9", "--record", record,
                 input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "'zz' is not one of your choices." in result.output
    assert run("validate", record).exit_code == 0


@pytest.mark.parametrize("variant", ["matching", "trick", "endofpage"])
@pytest.mark.parametrize("word", ["quit", "EXIT", "終了"])
def test_quit_at_a_turn_saves_the_game_and_says_how_to_continue_it(tmp_path, variant, word):
    record = tmp_path / "game.jsonl"
    result = run("play", variant, "--players", "you,cpu:easy", "--seed", "3", "--record", record,
                 input=f"help\n{word}\n")
    assert result.exit_code == 130, result.output[-2000:]
    if variant == "matching":  # (End of the Page's first prompt, the draw, answers help with the draw)
        assert "To stop, type quit (or press Ctrl-C): the game is saved, to be continued later." in \
            result.output
    assert "Game saved. Continue it with:" in result.output
    checked = run("validate", record)  # what was played is kept, legal, and can go on
    assert "legal so far; unfinished" in checked.output, checked.output
    again = run("play", "--resume", record, input="quit\n")
    assert again.exit_code == 130 and "Resuming" in again.output, again.output[-2000:]


def test_the_prompt_offers_page_one_only_when_it_applies(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "you,cpu:easy", "--seed", "9", "--record", record,
                 input="p\n1\n1\n" * 200)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    human_plays = [line for line in lines if line.get("seat") == 0 and line.get("move") == "play"]
    # The human pressed p before every choice; the call was only taken with two cards in hand.
    assert any(line.get("call") for line in human_plays)
    assert run("validate", record).exit_code == 0


def test_hot_seat_shows_a_pass_screen(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "ann,bob", "--seed", "3", "--record", record,
                 input="p\n1\n" * 1500)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Pass to ann, press Enter" in result.output
    assert "Pass to bob, press Enter" in result.output
    assert run("validate", record).exit_code == 0


def test_an_interrupted_game_resumes_from_its_record(tmp_path):
    record = tmp_path / "game.jsonl"
    first = run("play", "matching", "--players", "you,cpu:normal", "--seed", "4", "--record", record,
                input="1\n" * 3)
    assert first.exit_code == 130
    assert f"cardcli play --resume {record}" in first.output
    partial = record.read_text().splitlines()
    assert len(partial) > 3 and "result" not in partial[-1]
    again = run("play", "--resume", record, input="1\n" * 400)
    assert again.exit_code == 0, again.output[-2000:]
    assert "Resuming" in again.output
    assert record.read_text().splitlines()[: len(partial)] == partial
    assert run("validate", record).exit_code == 0
    over = run("play", "--resume", record)
    assert over.exit_code == 1 and "already over" in over.output


def test_resume_of_a_broken_record_says_why(tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_text('{"format": "cardcli-record", "version": 1}\n')
    result = run("play", "--resume", record)
    assert result.exit_code == 1
    assert "cannot resume" in result.output and "bad header" in result.output


@pytest.mark.parametrize(("spec", "message"), [
    ("you,cpu:grandmaster", "unknown CPU strength 'grandmaster'"),
    ("you,you", "the name 'you' is used twice"),
    ("you", "1 player, but matching with these rules is for 2 to 6 players"),
    ("you,,cpu", "empty entry"),
])
def test_bad_players_spec(spec, message):
    result = run("play", "matching", "--players", spec)
    assert result.exit_code == 1
    assert message in result.output


YOU_AND_TWO_CPUS = [{"name": "you", "kind": "human"}, {"name": "cpu1", "kind": "cpu:normal"},
                    {"name": "cpu2", "kind": "cpu:normal"}]


def test_a_move_the_rules_force_on_you_is_told_as_forced(tmp_path):
    """Matching plays your only card that plays for you (and takes a penalty
    you cannot pass on): the log says the rules forced it, never as if you
    had chosen it; a move you chose is told plainly."""
    from cardcli.kit.record_format import open_record
    from cardcli.records.reader import load_game

    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "you,cpu:normal", "--seed", "2", "--record", record,
                 input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    with open_record(str(record)) as stream:
        game, _over = load_game(stream, str(record), registry())
    forced, chosen = [], []
    for state, action in game.walk().events(0):
        if state.current_player() == 0 and action[0] in (PLAY, DRAW) and (action[0] == PLAY or state.penalty):
            words = game.variant.encode_action(state, action)
            (forced if len(state.legal_actions()) == 1 else chosen).append(words.get("card", "penalty"))
    assert len(forced) >= 3 and chosen
    told = re.findall(r"^  you (?:played (\S+) on .*|took the (penalty)[^:]*?) \(forced: ", result.output,
                      re.M)
    assert [card or penalty for card, penalty in told] == forced
    plain = re.findall(r"^  you played (\S+) on ", result.output, re.M)
    assert len(plain) == len(chosen) + sum(1 for card in forced if card != "penalty")
    assert "not shown" not in result.output  # every turn of yours was told


def header_players(record) -> list[dict]:
    return json.loads(record.read_text().splitlines()[0])["players"]


def test_the_names_the_default_table_gives_its_cpus_are_cpus(tmp_path):
    """``--players you,cpu1``: the default table calls its CPUs cpu1, cpu2,
    ...; written back, they are CPUs, not a second person (hot seat)."""
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "you,cpu1,cpu2", "--seed", "5", "--record", record,
                 input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    assert header_players(record) == YOU_AND_TWO_CPUS
    assert "Pass to" not in result.output
    assert result.output.startswith("Page One (matching) - you, cpu1 (cpu:normal), cpu2 (cpu:normal)\n")


def test_a_number_of_players_seats_you_and_cpus(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "matching", "--players", "3", "--seed", "5", "--record", record, input="")
    assert result.exit_code == 130  # the game waited for you
    assert header_players(record) == YOU_AND_TWO_CPUS
    assert "you, it is your turn." in result.output


@pytest.mark.parametrize(("variant", "count", "message"), [
    ("matching", 9, "9 players, but matching with these rules is for 2 to 6 players (option max_players = 6 "
                    "in matching's default rules)"),
    ("trick", 7, "7 players, but trick with these rules is for 2 to 6 players (option max_players = 6 in "
                 "trick's default rules); --ruleset eight-players seats 7 players"),
    ("trick", 9, "9 players, but trick with these rules is for 2 to 6 players (option max_players = 6 in "
                 "trick's default rules); the most trick seats is 8, with --ruleset eight-players"),
])
def test_too_many_players_get_one_message_by_names_or_by_number(variant, count, message):
    """The table size is refused by the option that limits it, the same for
    a list of names and a number, never by a rule that follows from it (the
    deal), and a shipped ruleset that seats that many is named."""
    names = ",".join(f"p{i}" for i in range(count))
    for spec in (names, str(count)):
        result = run("play", variant, "--players", spec)
        assert result.exit_code == 1
        assert " ".join(result.output.split()) == f"Error: {message}"
    assert "hand_size" not in run("play", variant, "--players", names).output
    seated = run("play", "trick", "--players", "7", "--ruleset", "eight-players", "--seed", "1", input="")
    assert seated.exit_code == 130 and "you, it is your turn." in seated.output


def test_default_record_goes_to_the_games_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDCLI_GAMES", str(tmp_path))
    result = run("play", "matching", "--seed", "2", input="1\n" * 500)
    assert result.exit_code == 0
    records = list(tmp_path.glob("*-matching-2.jsonl"))
    assert len(records) == 1
    assert run("validate", records[0]).exit_code == 0


# ----------------------------------------------------------------- simulate
def test_simulate_summary_is_the_same_for_any_number_of_workers():
    one = json.loads(run("simulate", "matching", "--games", "60", "--seed", "8", "--workers", "1",
                         "--json").output)
    two = json.loads(run("simulate", "matching", "--games", "60", "--seed", "8", "--workers", "2",
                         "--json").output)
    for key in ("seconds", "workers", "decisions_per_second", "games_per_second"):
        one.pop(key)
        two.pop(key)
    assert one == two
    assert one["games"] == 60 and one["decisions"] > 0
    assert sum(one["wins_by_seat"]) + one["draws"] == 60


def test_simulate_mixed_levels_and_records(tmp_path):
    result = run("simulate", "matching", "--games", "12", "--players", "cpu:easy,cpu:normal,cpu:normal",
                 "--seed", "1", "--records", tmp_path / "recs", "--workers", "1")
    assert result.exit_code == 0
    assert "cpu:normal" in result.output and "Wins by CPU level" in result.output
    records = sorted((tmp_path / "recs").glob("*.jsonl"))
    assert len(records) == 12
    assert run("validate", "-q", *records).exit_code == 0


def test_simulate_records_match_the_fast_path(tmp_path):
    fast = json.loads(run("simulate", "matching", "-n", "20", "--seed", "3", "--json", "-w", "1").output)
    slow = json.loads(run("simulate", "matching", "-n", "20", "--seed", "3", "--json", "-w", "1",
                          "--records", tmp_path).output)
    assert fast["wins_by_seat"] == slow["wins_by_seat"] and fast["decisions"] == slow["decisions"]


def test_simulate_refuses_humans_and_bad_levels():
    assert "simulations are CPU only" in run("simulate", "matching", "--players", "you,cpu").output
    assert run("simulate", "matching", "--cpu", "wizard").exit_code == 2


# ------------------------------------------------------------------- replay
@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "game.jsonl"
    run("simulate", "matching", "-n", "1", "--seed", "21", "--records", tmp_path, "-w", "1")
    (tmp_path / "game-000000.jsonl").rename(path)
    return path


def test_replay_to_a_move(recorded):
    result = run("replay", recorded, "--to", "3")
    assert result.exit_code == 0
    assert "After move 3 of" in result.output and "Top card:" in result.output
    start = run("replay", recorded, "--to", "0")
    assert "Start of the game" in start.output and "dealt 7 cards each" in start.output
    assert run("replay", recorded, "--to", "100000").exit_code == 2


def test_replay_steps_back_and_forth(recorded):
    result = run("replay", recorded, input="n\nn\np\ng 4\nx\nq\n")
    out = result.output
    assert result.exit_code == 0
    assert out.index("After move 1 of") < out.index("After move 2 of") < out.index("After move 4 of")
    assert "g N: go to move N" in out  # the help after an unknown key


def test_replay_as_one_seat_hides_other_hands(recorded):
    everything = run("replay", recorded, "--to", "2").output
    seat0 = run("replay", recorded, "--to", "2", "--seat", "0").output
    rows = [line for line in seat0.splitlines() if line.strip().startswith(("1 cpu", "> 1 cpu"))]
    assert rows and all("cards" in row and row.rstrip().endswith(("cards", "card", ")")) for row in rows)
    assert len(everything) > len(seat0)
    assert run("replay", recorded, "--seat", "9").exit_code == 2


def test_replay_of_a_broken_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\x00\x01garbage")
    result = run("replay", path)
    assert result.exit_code == 1 and "cannot replay" in result.output


def test_lazy_command_table_matches_each_command():
    """``cardcli --help`` lists commands without importing them; its table
    must say what each command's own help says."""
    import click

    from cardcli.cli import COMMANDS

    ctx = click.Context(cli)
    for name, (_module, summary) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(limit=200) == summary


def test_help_imports_no_subcommand():
    import subprocess
    import sys

    code = ("import sys; from cardcli.cli import main; sys.argv = ['cardcli', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "from cardcli.cli import COMMANDS\n"
            "commands = {f'cardcli.cli.{module}' for module, _help in COMMANDS.values()}\n"
            "loaded = sorted(m for m in sys.modules if m in commands)\n"
            "print('LOADED', loaded)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "LOADED []" in out
    assert "validate" in out and "simulate" in out
