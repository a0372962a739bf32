"""The hard CPU (search in the core), the arena and the play-time hint."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.cpu.arena import wilson_interval
from cardcli.cpu.players import make_cpu
from cardcli.cpu.players.hard import Budget, HardPlayer, supports_hard
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.errors import CardcliError
from cardcli.unseen.knowledge import redeal


def searchable_variants():
    registry = get_registry()
    names = []
    for name, info in sorted(registry.variants.items()):
        variant = info.variant
        state = variant.new_state(default_ruleset(variant).options, 2, 0)
        if supports_hard(variant, state):
            names.append(name)
    return names


VARIANTS = searchable_variants()


def positions(name: str, players: int, seed: int, every: int = 3):
    """Decision points of a game played by normal CPUs: (state, seat, legal)."""
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    if "max_players" in rules:
        rules["max_players"] = max(rules["max_players"], players)
    state = variant.new_state(rules, players, seed % players)
    rng = random.Random(seed)
    policy = variant.cpu_policy("normal")
    count = 0
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            state.apply_legal(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            count += 1
            if count % every == 0:
                yield variant, state.clone(), player, legal
        state.apply_legal(policy(state, player, legal, rng))


def test_matching_and_trick_support_the_hard_cpu():
    assert "matching" in VARIANTS


@pytest.mark.parametrize("name", VARIANTS)
def test_hard_does_not_cheat(name):
    """Change everything the seat cannot see (other hands, stock order),
    consistently with what it knows: the decision and the scores stay."""
    checked = 0
    worlds = (p for seed in range(5, 40) for p in positions(name, 3, seed=seed, every=4))
    for variant, state, seat, legal in worlds:
        other = redeal(state, seat, random.Random(99))  # another truth the seat cannot tell apart
        hidden = state.hidden_zones(seat)
        if all(sorted(state.card_zones()[z]) == sorted(other.card_zones()[z]) for z in hidden):
            continue  # nothing hidden differs (e.g. an empty stock); try another position
        first = HardPlayer(variant, 7, seat, Budget(iterations=60, seconds=None))
        second = HardPlayer(variant, 7, seat, Budget(iterations=60, seconds=None))
        a = [(r.action, r.value, r.playouts) for r in first.rate(state, seat, legal)]
        b = [(r.action, r.value, r.playouts) for r in second.rate(other, seat, other.legal_actions())]
        assert a == b
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


@pytest.mark.parametrize("name", VARIANTS)
def test_the_no_cheating_test_can_fail(name):
    """A player that looks at the hidden cards is caught by the same comparison."""
    worlds = (p for seed in range(5, 40) for p in positions(name, 3, seed=seed, every=4))
    for variant, state, seat, legal in worlds:
        other = redeal(state, seat, random.Random(99))
        a = HardPlayer(variant, 7, seat, Budget(60, None), omniscient=True).rate(state, seat, legal)
        b = HardPlayer(variant, 7, seat, Budget(60, None), omniscient=True).rate(other, seat, legal)
        if [r.value for r in a] != [r.value for r in b]:
            return
    pytest.fail("an omniscient player was never told apart")


@pytest.mark.parametrize("name", VARIANTS)
def test_hard_only_chooses_legal_moves(name):
    chosen = 0
    for players in (2, 4):
        for seed in range(3):
            for variant, state, seat, legal in positions(name, players, seed, every=5):
                player = HardPlayer(variant, seed, seat, Budget(iterations=24, seconds=None))
                assert player.act(state, seat, legal) in legal
                chosen += 1
    assert chosen > 10


def test_iteration_budget_is_kept_and_deterministic():
    """``hard=N`` spends at most N playouts, in whole rounds of paired ones
    (one per move still in the running), and the same seed thinks the same."""
    for name in VARIANTS:
        variant, state, seat, legal = next(p for p in positions(name, 2, seed=1, every=1) if len(p[3]) > 2)
        budget = Budget(iterations=90, seconds=None)
        player = HardPlayer(variant, 3, seat, budget)
        ratings = player.rate(state, seat, legal)
        playouts = sum(r.playouts for r in ratings)
        assert 90 - 2 * len(legal) < playouts <= 90
        again = HardPlayer(variant, 3, seat, budget).rate(state, seat, legal)
        assert [(r.action, r.value, r.playouts) for r in ratings] == \
            [(r.action, r.value, r.playouts) for r in again]
        assert player.clock_stops == 0


def test_the_clock_stops_a_search_and_says_so():
    variant, state, seat, legal = next(positions("matching", 4, seed=2, every=1))
    player = HardPlayer(variant, 1, seat, Budget(iterations=100_000, seconds=0.02))
    player.act(state, seat, legal)
    assert player.clock_stops == 1
    assert sum(r.playouts for r in player.last_ratings) < 100_000


def test_time_budget_is_respected():
    import time

    variant, state, seat, legal = next(positions("matching", 4, seed=2, every=1))
    player = HardPlayer(variant, 1, seat, Budget(iterations=None, seconds=0.05))
    started = time.perf_counter()
    player.rate(state, seat, legal)
    assert time.perf_counter() - started < 0.5  # the budget plus at most one sampled world


@pytest.mark.parametrize(("text", "budget"), [
    (None, Budget()), ("2000", Budget(2000, None)), ("1.5s", Budget(None, 1.5))])
def test_budget_spec(text, budget):
    assert Budget.parse(text) == budget


@pytest.mark.parametrize("text", ["abc", "0", "-1s", "s"])
def test_bad_budget_spec(text):
    with pytest.raises(CardcliError, match="hard CPU budget"):
        Budget.parse(text)


# -------------------------------------------------------------------- arena
@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (50, 100, 0.4038, 0.5962),   # the textbook case
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_cases(wins, games, low, high):
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_arena_figures_add_up_and_seats_rotate():
    result = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:hard=20,cpu:normal,cpu:easy",
                                      "--games", "9", "--seed", "4", "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    players = report["players"]
    assert [p["games"] for p in players] == [9, 9, 9]
    assert sum(p["wins"] for p in players) + report["draws"] == report["games"] == 9
    for p in players:
        low, high = p["win_rate_ci95"]
        assert low <= p["win_rate"] <= high
        assert 1 <= p["mean_place"] <= 3
    assert players[0]["mean_decision_seconds"] > players[1]["mean_decision_seconds"]


def test_arena_is_the_same_for_any_number_of_workers():
    def run(workers):
        out = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:normal,cpu:easy", "-n", "20",
                                       "--seed", "2", "--json", "-w", str(workers)]).output
        data = json.loads(out)
        return [(p["wins"], p["mean_place"]) for p in data["players"]], data["draws"]
    assert run(1) == run(2)


def test_an_arena_run_played_a_part_at_a_time_reports_the_same():
    """A long run (the hard CPU's bench) may be played in parts and summed:
    game i is the same in any part, so the report is the whole run's."""
    from cardcli.cpu import arena
    from cardcli.cpu.parallel import LocalBackend
    from cardcli.kit.record_format import SeatInfo
    variant = get_registry().get("trick")
    rules = dict(default_ruleset(variant).options)
    players = [SeatInfo("a", "cpu:normal"), SeatInfo("b", "cpu:easy"), SeatInfo("c", "cpu:easy")]
    whole = arena.run(variant, rules, players, 12, 4, workers=1)
    backend = LocalBackend(1)
    parts = [arena.play_games(variant, rules, players, 12, 4, backend=backend, numbers=numbers)
             for numbers in ([7, 0, 3], range(8, 12), [1, 2, 4, 5, 6])]
    games = sorted((game for part in parts for game in part), key=lambda game: game.index)
    assert [game.index for game in games] == list(range(12))
    summed = arena.summarize(variant, players, games, 4, 1, 0.0)

    def figures(report):
        players = report.as_dict()["players"]
        return [(p["wins"], p["mean_place"], p["decisions"]) for p in players], report.draws
    assert figures(summed) == figures(whole)
    assert parts[0][0].order == [(seat + 0) % 3 for seat in range(3)]  # game 0 rotated as game 0


def test_arena_table_and_refusals():
    result = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:normal,cpu:easy", "-n", "5",
                                      "--seed", "1", "-w", "1"])
    assert result.exit_code == 0
    assert "95% interval" in result.output and "not a multiple of 2" in result.output
    human = CliRunner().invoke(cli, ["arena", "matching", "--players", "you,cpu"])
    assert human.exit_code == 2 and "CPU players only" in human.output
    bad = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:hard=lots,cpu"])
    assert bad.exit_code == 1 and "hard CPU budget 'lots'" in bad.output
    level = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:normal=5,cpu"])
    assert level.exit_code == 1 and "only hard takes a budget" in level.output


@pytest.mark.parametrize(("variant", "ruleset", "players", "label"), [
    ("trick", "best-of-five", "cpu:normal,cpu:easy,cpu:easy", "deals won"),
    ("endofpage", "short", "cpu:normal,cpu:easy", "points")])
def test_the_arena_says_what_its_scores_count(variant, ruleset, players, label):
    """The mean score is in the variant's own words, as the end-of-game ranking is."""
    common = ["arena", variant, "--players", players, "--ruleset", ruleset, "-n", "3", "--seed", "1",
              "-w", "1"]
    table = CliRunner().invoke(cli, common, env={"COLUMNS": "200"})  # a terminal wide enough
    assert table.exit_code == 0, table.output
    head = next(line for line in table.output.splitlines() if "win rate" in line)
    assert head.endswith(f"  {label}") and "mean score" not in table.output
    assert f"(place and {label}: the mean over the games;" in table.output
    narrow = CliRunner().invoke(cli, common, env={"COLUMNS": "80"}).output.splitlines()
    assert max(len(line) for line in narrow) <= 80 and head in narrow
    report = json.loads(CliRunner().invoke(cli, [*common, "--json"]).output)
    assert report["score_label"] == label
    assert all("mean_score" in p for p in report["players"])


def test_an_arena_without_scores_has_no_score_column():
    result = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:normal,cpu:easy", "-n", "2",
                                      "--seed", "1", "-w", "1"])
    head = next(line for line in result.output.splitlines() if "win rate" in line)
    assert head.endswith("ms/move")


def test_a_long_arena_run_says_first_roughly_how_long_it_will_take():
    """cpu:hard at a second a move over 200 games: the estimate comes before
    the first game (then the run is stopped); a short run says nothing."""
    command = [sys.executable, "-c", "from cardcli.cli import main; main()", "arena", "matching", "--players",
               "cpu:hard=1s,cpu:easy", "--games", "200", "--seed", "1", "-w", "1"]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        said = ""
        while "Ctrl-C" not in said:
            line = process.stderr.readline()  # type: ignore[union-attr]
            assert line, f"arena ended without an estimate: {said}"
            said += line
    finally:
        process.kill()
        process.wait()
    found = re.search(r"This run will take roughly (\d+) (minutes|hours?)", " ".join(said.split()))
    assert found, said
    minutes = int(found.group(1)) * (60 if found.group(2).startswith("hour") else 1)
    assert minutes >= 10  # 200 games of about ten searched moves each, a second a move
    assert "200 games on 1 worker" in " ".join(said.split())
    short = CliRunner().invoke(cli, ["arena", "matching", "--players", "cpu:hard=10,cpu:easy", "-n", "2",
                                     "--seed", "1", "-w", "1"])
    assert short.exit_code == 0 and "This run will take" not in short.output


# --------------------------------------------------------------------- hint
def test_hint_at_the_prompt_shows_the_hard_view(tmp_path):
    record = tmp_path / "g.jsonl"
    result = CliRunner().invoke(cli, ["play", "matching", "--players", "you,cpu", "--seed", "3",
                                      "--record", str(record)], input="?\n" + "p\n1\n" * 400)
    assert result.exit_code == 0, result.output[-1500:]
    assert "Type ? for a hint." in result.output
    assert "Hint - the hard CPU's view from your seat" in result.output
    assert CliRunner().invoke(cli, ["validate", str(record)]).exit_code == 0


def test_hard_plays_a_whole_game_through_play(tmp_path):
    record = tmp_path / "g.jsonl"
    result = CliRunner().invoke(cli, ["simulate", "matching", "--players", "cpu:hard=20,cpu:normal",
                                      "-n", "2", "--seed", "1", "--records", str(tmp_path), "-w", "1"])
    assert result.exit_code == 0, result.output
    assert "cpu:hard=20" in result.output
    del record


@pytest.mark.parametrize(("places", "values"), [
    ([1, 2], [1.0, 0.0]),
    ([1, 1], [0.5, 0.5]),                  # a heads-up draw is not a win
    ([1, 2, 2, 4], [1.0, 0.5, 0.5, 0.0]),
    ([1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5]),
    ([2, 1, 3], [0.5, 1.0, 0.0]),
])
def test_places_value_shares_tied_places(places, values):
    from cardcli.kit.results import places_value

    assert [places_value(places, seat) for seat in range(len(places))] == pytest.approx(values)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kit_catches_a_player_that_looks_at_hidden_cards(name):
    """The conformance kit's check (``BlindCheck``) fails for a player that sees every card."""
    from cardcli.engine.driver import Driver
    from cardcli.testing.checks import BlindCheck

    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    normal = [make_cpu(variant, "normal", 3, seat) for seat in range(2)]
    for seed in range(10):
        cheat = HardPlayer(variant, seed, 0, Budget(iterations=12, seconds=None), omniscient=True)
        check = BlindCheck(0, cheat, random.Random(seed), limit=3)
        driver = Driver(variant.new_state(rules, 2, seed % 2), [cheat, normal[1]], rng=random.Random(seed),
                        hooks=[check])
        try:
            driver.advance(20_000)
        except AssertionError as error:
            assert "cannot see" in str(error)
            return
    pytest.fail("a player that looks at the hidden cards was never caught")
