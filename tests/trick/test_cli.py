"""trick through the commands a person types: play (answering the prompts),
validate, replay, simulate and rules."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardcli.cli import cli

RULESETS = ("trick-standard", "trick-five-cards", "trick-no-joker-last", "trick-eight-players",
            "trick-best-of-five")


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("seed", [3, 8])
def test_play_answering_prompts_then_validate_and_replay(tmp_path, seed):
    path = tmp_path / "game.jsonl"
    result = run("play", "trick", "--players", "you,cpu:normal", "--seed", seed, "--record", path,
                 input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Ranking:" in result.output
    assert "you, it is your turn." in result.output
    assert "stock:" in result.output and "finished tricks:" in result.output
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["variant"] == "trick" and "dealer" in lines[0]
    assert "result" in lines[-1]
    checked = run("validate", path)
    assert checked.exit_code == 0, checked.output
    assert "valid (every card known): trick game" in checked.output
    moves = sum(1 for line in lines if "move" in line)
    middle = run("replay", path, "--to", moves // 2)
    assert middle.exit_code == 0 and f"After move {moves // 2} of {moves}" in middle.output
    end = run("replay", path, "--to", moves)
    assert "Ranking:" in end.output


def test_play_typed_cards_and_page_one_call(tmp_path):
    """Typed answers: a card name, p for the call, d to draw; unknown input is re-asked."""
    path = tmp_path / "game.jsonl"
    answers = "zz\nqq\np\n" + "d\n1\n" * 400
    result = run("play", "trick", "--players", "you,cpu:easy", "--seed", 5, "--record", path,
                 input=answers)
    assert result.exit_code == 0, result.output
    assert "'zz' is not one of your choices." in result.output
    assert run("validate", path).exit_code == 0


def test_play_match_shows_tally(tmp_path):
    path = tmp_path / "match.jsonl"
    result = run("play", "trick", "--ruleset", "best-of-five", "--players", "you,cpu:normal,cpu:easy",
                 "--seed", 1, "--record", path, input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Deal 2 of 5" in result.output and "deals won:" in result.output
    last = json.loads(path.read_text().splitlines()[-1])["result"]
    assert sum(last["scores"]) == sum(1 for w in last["deal_winners"] if w is not None)
    assert run("validate", path).exit_code == 0


@pytest.mark.parametrize("name", RULESETS)
def test_shipped_rulesets_load_and_simulate(name):
    shown = run("rules", "--ruleset", name)
    assert shown.exit_code == 0, shown.output
    short = run("rules", "trick", "--ruleset", name.removeprefix("trick-"))
    assert short.exit_code == 0, short.output
    players = "8" if "eight" in name else "4"
    result = run("simulate", "trick", "--ruleset", name, "-n", 20, "--workers", 1, "--seed", 2,
                 "--players", players, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 20


def test_eight_players_refused_without_the_house_rule():
    result = run("simulate", "trick", "-n", 2, "--players", 8, "--workers", 1)
    assert result.exit_code != 0
    assert "2 to 6" in result.output


def test_simulate_repeats_and_records_validate(tmp_path):
    first = run("simulate", "trick", "-n", 30, "--workers", 1, "--seed", 4, "--json",
                "--records", tmp_path / "games")
    again = run("simulate", "trick", "-n", 30, "--workers", 2, "--seed", 4, "--json")
    strip = lambda text: {k: v for k, v in json.loads(text).items()  # noqa: E731
                          if k not in ("seconds", "decisions_per_second", "games_per_second", "workers")}
    assert strip(first.output) == strip(again.output)
    checked = run("validate", *sorted((tmp_path / "games").glob("*.jsonl")))
    assert checked.exit_code == 0, checked.output
