"""``cardcli compare``: rulesets on the same seeds, paired differences, verdicts."""

from __future__ import annotations

import json
import math
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcli.cli.compare import parse_settings
from cardcli.cpu.stats import paired_difference, paired_ratio, quantile, rank_quantile, t_quantile
from tests.test_cli import run


def compare_json(*args) -> dict:
    result = run("compare", *args, "--json", "-w", "1")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# ------------------------------------------------------------ what it finds
def test_bigger_hands_make_longer_games_with_an_interval_above_zero():
    data = compare_json("matching", "--set", "hand_size=5", "--set", "hand_size=9", "-n", "120",
                        "--seed", "4", "--no-skill")
    five, nine = data["rulesets"]
    assert nine["moves"]["mean"] > five["moves"]["mean"]
    (diff,) = data["differences"]
    assert diff["label"] == "hand_size=9" and diff["baseline"] == "hand_size=5"
    low, high = diff["moves"]["relative"]["ci95"]
    assert 0 < low <= diff["moves"]["relative"]["value"] <= high
    assert diff["moves"]["difference"]["ci95"][0] > 0
    assert "hand_size=9 makes games" in diff["verdict"] and "longer" in diff["verdict"]
    # And the other way round, the same games read as shorter.
    back = compare_json("matching", "--set", "hand_size=9", "--set", "hand_size=5", "-n", "120",
                        "--seed", "4", "--no-skill")["differences"][0]
    assert back["moves"]["difference"]["value"] == -diff["moves"]["difference"]["value"]
    assert "shorter" in back["verdict"]


def test_identical_rulesets_differ_by_exactly_zero():
    data = compare_json("matching", "standard", "standard", "-n", "40", "--seed", "9")
    first, second = data["rulesets"]
    assert second["label"] == "standard #2"
    for key in ("moves", "nobody_won", "seats", "skill", "options"):
        assert first[key] == second[key]
    (diff,) = data["differences"]
    assert diff["moves"]["difference"] == {"value": 0, "ci95": [0, 0], "clear": False}
    assert diff["moves"]["relative"]["ci95"] == [0, 0]
    assert diff["nobody_won"]["ci95"] == [0, 0]
    assert all(s["value"] == 0 and s["ci95"] == [0, 0] for s in diff["seats"])
    assert all(s["value"] == 0 and s["ci95"] == [0, 0] for s in diff["skill"])
    assert "same length" in diff["verdict"]


def test_the_skill_measure_is_the_arena_on_the_same_seed():
    data = compare_json("matching", "standard", "no-stacking", "-n", "150", "--seed", "12", "-p", "2")
    arena = json.loads(run("arena", "matching", "-p", "cpu:normal,cpu:easy", "-n", "150", "--seed", "12",
                           "--json", "-w", "1").output)
    skill = data["rulesets"][0]["skill"][0]
    assert skill["wins"] == arena["players"][0]["wins"]
    assert skill["win_rate_ci95"] == arena["players"][0]["win_rate_ci95"]
    # Every game had a winner: the score is the arena's win rate, interval and all.
    assert arena["draws"] == skill["nobody_won"]["games"] == 0
    assert (skill["score"], skill["score_ci95"]) == (skill["win_rate"], skill["win_rate_ci95"])
    # normal is the stronger player: it beats easy heads-up clearly more than half the time.
    assert skill["score_ci95"][0] > 0.5


def test_the_skill_games_nobody_won_are_counted_as_the_arena_counts_them():
    """Under the American rules some games end in a tie for first: the skill
    measure records them (the arena's draws, on the same seed) and the score
    gives the stronger CPU its part of each tie it shared."""
    data = compare_json("matching", "american", "american", "-n", "24", "--seed", "3", "--cpu", "easy")
    arena = json.loads(run("arena", "matching", "-p", "cpu:normal,cpu:easy,cpu:easy,cpu:easy", "-n", "24",
                           "--seed", "3", "--json", "-w", "1", "-r", "american").output)
    skill = data["rulesets"][0]["skill"][0]
    assert skill["nobody_won"]["games"] == arena["draws"] > 0
    assert skill["nobody_won"]["share"] == round(arena["draws"] / 24, 4)
    assert skill["wins"] == arena["players"][0]["wins"]
    # A tie shared by two or more is worth at most half a point.
    assert skill["win_rate"] <= skill["score"] <= skill["win_rate"] + skill["nobody_won"]["share"] / 2
    low, high = skill["score_ci95"]
    assert low <= skill["score"] <= high


def test_the_skill_difference_between_rulesets_is_that_of_the_scores():
    args = ("matching", "standard", "american", "-n", "24", "--seed", "3", "--cpu", "easy")
    data = compare_json(*args)
    standard, american = (r["skill"][0] for r in data["rulesets"])
    assert american["nobody_won"]["games"] > 0 == standard["nobody_won"]["games"]
    (diff,) = data["differences"][0]["skill"]
    assert diff["value"] == pytest.approx(american["score"] - standard["score"], abs=1e-4)
    table = run("compare", *args, "-w", "1").output
    assert "(skill: the stronger CPU's score, a win counting 1 and a first place shared by k players " \
           "when nobody won 1/k; with no edge a player scores 25.0%)" in " ".join(table.split())
    row = next(line for line in table.splitlines() if line.startswith("    nobody won  "))
    assert f"{american['nobody_won']['share']:.1%} [" in row


def test_every_game_hands_out_exactly_one_point():
    """Wins and shared first places: the players' scores of any game add up
    to 1, so a player with no edge scores 1/P on average."""
    from cardcli.cpu import arena
    from cardcli.cpu.compare import game_score
    from cardcli.cpu.parallel import LocalBackend
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import load_ruleset
    from cardcli.kit.record_format import SeatInfo

    target = get_registry().get("matching")
    options = load_ruleset("american", get_registry(), "matching", 4).options
    table = [SeatInfo(f"cpu{i}", "cpu:easy") for i in range(4)]
    games = arena.play_games(target, dict(options), table, 24, 5, backend=LocalBackend(1))
    shared = [g for g in games if g.winner is None]
    assert shared, "the American rules end some games in a tie for first"
    for game in games:
        scores = [game_score(game, player) for player in range(4)]
        assert math.fsum(scores) == pytest.approx(1)
        if game.winner is not None:
            assert scores[game.order[game.winner]] == 1
        else:
            first = [game.order[s] for s, place in enumerate(game.places) if place == min(game.places)]
            assert all(scores[p] == 1 / len(first) for p in first)


def test_a_player_with_no_edge_scores_an_even_share_however_many_games_nobody_wins():
    """easy against three easy ones in trick, where about one deal in six is
    called off: the win rate falls short of 1/4 by the games nobody won (and
    would read as a handicap); the score, ties shared, does not."""
    from cardcli.cpu.compare import play_skill, skill_dict
    from cardcli.cpu.parallel import LocalBackend
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import load_ruleset

    target = get_registry().get("trick")
    options = dict(load_ruleset("standard", get_registry(), "trick", 4).options)
    measured = skill_dict(play_skill(target, options, 4, 2000, 7, "easy", "easy", LocalBackend(1)), 4)
    assert measured["even_share"] == 0.25
    assert measured["nobody_won"]["ci95"][0] > 0.1
    assert measured["win_rate_ci95"][1] < 0.25
    low, high = measured["score_ci95"]
    assert low < 0.25 < high


@pytest.mark.parametrize(("variant", "ruleset", "players"), [("trick", "standard", "4"),
                                                             ("endofpage", "short", "2")])
def test_identical_rulesets_differ_by_zero_in_every_variant(variant, ruleset, players):
    data = compare_json(variant, ruleset, ruleset, "-n", "3", "--seed", "5", "-p", players)
    (diff,) = data["differences"]
    assert diff["moves"]["difference"]["ci95"] == [0, 0] and diff["nobody_won"]["ci95"] == [0, 0]
    assert all(s["ci95"] == [0, 0] for s in diff["seats"] + diff["skill"])


def test_the_measures_add_up():
    data = compare_json("trick", "standard", "five-cards", "-n", "30", "--seed", "2", "--players", "3")
    for ruleset in data["rulesets"]:
        wins = sum(seat["wins"] for seat in ruleset["seats"])
        assert wins + ruleset["nobody_won"]["games"] == 30
        assert sum(ruleset["nobody_won"]["reasons"].values()) == ruleset["nobody_won"]["games"]
        assert [s["position"] for s in ruleset["seats"]] == ["dealer", "dealer+1", "dealer+2"]
        (skill,) = ruleset["skill"]
        assert (skill["stronger"], skill["weaker"], skill["games"]) == ("normal", "easy", 30)
        assert skill["even_share"] == round(1 / 3, 4)
        low, high = skill["win_rate_ci95"]
        assert low <= skill["win_rate"] <= high
        low, high = skill["score_ci95"]
        assert low <= skill["score"] <= high and skill["score"] >= skill["win_rate"]
        assert skill["wins"] + skill["nobody_won"]["games"] <= 30
        assert ruleset["moves"]["median"] <= ruleset["moves"]["p90"] <= ruleset["moves"]["max"]
        assert isinstance(ruleset["moves"]["p90"], int)  # a length a game had, never "63.1" moves
    assert data["rulesets"][1]["changes"] == {"hand_size": 5}


@given(st.lists(st.integers(0, 500), min_size=1, max_size=60), st.sampled_from([0.1, 0.5, 0.9, 1.0]))
def test_the_90th_percentile_of_game_lengths_is_a_length_a_game_had(values, q):
    found = rank_quantile(values, q)
    assert found in values
    assert sum(v <= found for v in values) >= q * len(values) > sum(v < found for v in values)


def test_much_longer_games_are_said_in_times():
    (diff,) = compare_json("matching", "standard", "american", "-n", "12", "--seed", "2", "--no-skill")[
        "differences"]
    ratio = 1 + diff["moves"]["relative"]["value"]
    assert ratio > 2 and f"american makes games {ratio:.1f} times as long" in diff["verdict"]


def test_rounds_are_measured_where_the_game_has_them():
    data = compare_json("endofpage", "short", "short", "-n", "3", "--seed", "1", "--players", "2",
                        "--no-skill")
    assert data["rulesets"][0]["rounds"]["mean"] >= 1
    assert data["differences"][0]["rounds"]["difference"]["value"] == 0


def test_the_table_and_the_verdict_in_words():
    result = run("compare", "matching", "--set", "hand_size=5", "--set", "hand_size=9", "-n", "60",
                 "--seed", "4", "-w", "1")
    assert result.exit_code == 0
    out = result.output
    for text in ("moves: mean", "moves: median, 90th pct", "nobody won", "wins: dealer+3",
                 "normal against easy", "(skill: how often the stronger CPU wins; with no edge a player "
                 "wins 25.0%)", "hand_size=9 against hand_size=5", "In words: hand_size=9 makes games"):
        assert text in out


def test_set_starts_from_base():
    data = compare_json("matching", "american", "--base", "american", "--set", "stack_twos=false",
                        "-n", "8", "--seed", "1", "--no-skill")
    american, changed = data["rulesets"]
    assert changed["label"] == "american + stack_twos=false"
    assert changed["options"] == {**american["options"], "stack_twos": False}


def test_one_set_is_compared_with_the_defaults_or_the_base():
    data = compare_json("matching", "--set", "stack_twos=false", "-n", "8", "--seed", "1", "--no-skill")
    defaults, changed = data["rulesets"]
    assert defaults["label"] == "defaults" and changed["label"] == "stack_twos=false"
    assert changed["options"] == {**defaults["options"], "stack_twos": False}
    assert defaults["options"]["stack_twos"] is True
    based = compare_json("matching", "--base", "american", "--set", "stack_twos=false", "-n", "8", "--seed",
                         "1", "--no-skill")
    american, changed = based["rulesets"]
    assert american["label"] == "american" and changed["label"] == "american + stack_twos=false"
    assert changed["options"] == {**american["options"], "stack_twos": False}


def test_settings_are_read_like_a_ruleset_file():
    assert parse_settings("stack_twos=false, hand_size=5,skip_rank=A,first_special=none") == {
        "stack_twos": False, "hand_size": 5, "skip_rank": "A", "first_special": "none"}


# ------------------------------------------------------------ bad input
@pytest.mark.parametrize(("args", "status", "words"), [
    (["matching", "--set", "hand_sise=5", "--set", "hand_size=9"], 1, "hand_sise"),
    (["matching", "--set", "hand_size=99", "--set", "hand_size=9"], 1, "hand_size"),
    (["matching", "--set", "hand_size", "--set", "hand_size=9"], 2, "OPTION=VALUE"),
    (["matching", "standard", "trick-standard"], 1, "not 'matching'"),
    (["matching", "standard"], 2, "at least two rulesets"),
    (["matching"], 2, "at least two rulesets"),
    (["matching", "standard", "no-such-rules"], 1, "no-such-rules"),
    (["matching", "standard", "american", "--players", "9"], 1, "9 players"),
    (["matching", "standard", "american", "--cpu", "wizard"], 2, "wizard"),
    (["matching", "standard", "american", "--plot", "out.gif"], 1, ".png or .svg"),
    (["bridge", "standard", "american"], 1, "bridge"),
])
def test_bad_input_gets_one_clear_message(args, status, words):
    result = run("compare", *args, "-n", "2")
    assert result.exit_code == status
    message = [line for line in result.output.splitlines() if line.strip()]
    assert words in message[-1]
    if status == 1:
        assert len(message) == 1


def test_plot_without_matplotlib_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("compare", "matching", "standard", "american", "-n", "2", "--plot", tmp_path / "c.png")
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "pip install 'cardcli[plot]'" in result.output
    assert not (tmp_path / "c.png").exists()


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot_is_written(tmp_path, suffix):
    pytest.importorskip("matplotlib")
    path = tmp_path / f"compare.{suffix}"
    result = run("compare", "matching", "standard", "no-stacking", "-n", "20", "--seed", "1", "-w", "1",
                 "--plot", path)
    assert result.exit_code == 0 and f"Plot written to {path}" in result.output
    if suffix == "png":
        assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    else:
        assert ET.parse(path).getroot().tag.endswith("svg")


# ------------------------------------------------------------ the statistics
def test_paired_intervals_known_case():
    # Differences 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5), t(4) = 2.776.
    estimate = paired_difference([2, 4, 6, 8, 10], [1, 2, 3, 4, 5])
    assert estimate.value == 3
    half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)
    assert estimate.low == pytest.approx(3 - half, rel=5e-3)
    assert estimate.high == pytest.approx(3 + half, rel=5e-3)
    ratio = paired_ratio([2, 4, 6, 8, 10], [1, 2, 3, 4, 5])
    assert ratio is not None and ratio.value == 1.0 and ratio.low == ratio.high == 1.0
    assert paired_ratio([1, 2], [0, 0]) is None
    assert quantile([1, 2, 3, 4], 0.5) == 2.5 and quantile([5, 1, 3], 0.9) == pytest.approx(4.6)
    assert t_quantile(30) == pytest.approx(2.042272, rel=1e-4)


@given(st.lists(st.integers(0, 500), min_size=2, max_size=60))
def test_a_sample_against_itself_is_exactly_zero(values):
    same = paired_difference(values, values)
    assert (same.value, same.low, same.high) == (0, 0, 0)
    ratio = paired_ratio(values, values)
    assert ratio is None or (ratio.value, ratio.low, ratio.high) == (0, 0, 0)


@given(st.lists(st.tuples(st.integers(0, 200), st.integers(1, 200)), min_size=2, max_size=60))
def test_paired_intervals_contain_their_estimate(pairs):
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    for estimate in (paired_difference(first, second), paired_ratio(first, second)):
        assert estimate is not None
        assert estimate.low <= estimate.value + 1e-9 and estimate.value <= estimate.high + 1e-9


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=2, max_size=12))
def test_a_difference_of_shares_stays_within_a_hundred_points(pairs):
    from cardcli.cpu.compare import share_difference

    estimate = share_difference([a for a, _ in pairs], [b for _, b in pairs])
    assert -1 <= estimate.low <= estimate.value <= estimate.high <= 1


def test_a_seat_advantage_is_found_only_when_clear():
    from cardcli.cpu.compare import seat_advantage

    def seats(shares: list[int]) -> list[list[int]]:
        # shares[k] games won from seat k, one winner per game
        winners = [k for k, count in enumerate(shares) for _ in range(count)]
        return [[int(w == k) for w in winners] for k in range(len(shares))]

    assert seat_advantage(seats([100, 100, 100, 100]), 400) == []
    assert seat_advantage(seats([110, 95, 100, 95]), 400) == []  # within chance for four seats
    (found,) = seat_advantage(seats([80, 160, 80, 80]), 400)
    assert found["position"] == "dealer+1" and found["share"] == 0.4 and found["ci"][0] > 0.25


# ------------------------------------------------------------ honest words and pictures
def test_each_ruleset_has_its_own_even_share_when_some_games_have_no_winner():
    from cardcli.cpu.plot import even_shares

    data = compare_json("matching", "standard", "american", "no-stacking", "-n", "30", "--seed", "2",
                        "--no-skill")
    standard, american, _ = data["rulesets"]
    assert american["nobody_won"]["share"] > 0 == standard["nobody_won"]["share"]
    lines = even_shares(data["rulesets"], ["C0", "C1", "C2"])
    assert sorted((round(y, 6), label) for y, _colour, label in lines) == sorted([
        (round((1 - american["nobody_won"]["share"]) / 4, 6), "even share, american"),
        (0.25, "even share, standard and no-stacking")])
    same = compare_json("matching", "standard", "no-stacking", "-n", "4", "--seed", "2", "--no-skill")
    assert even_shares(same["rulesets"], ["C0", "C1"]) == [(0.25, "grey", "even share")]


def test_the_table_says_what_an_even_share_is_of():
    result = run("compare", "matching", "standard", "american", "-n", "30", "--seed", "2", "-w", "1",
                 "--no-skill")
    assert "(an even share of wins at 4 players is 25.0% of the games someone won)" in result.output
    assert "nobody won under american: " in result.output and " games (5 rounds played;" in result.output
    plain = run("compare", "matching", "standard", "no-stacking", "-n", "4", "--seed", "2", "-w", "1")
    assert "(an even share of wins at 4 players is 25.0%)" in plain.output


def test_a_plot_into_a_folder_that_is_not_there_is_refused_before_any_game(tmp_path):
    result = run("compare", "matching", "standard", "american", "-n", "2", "--plot",
                 tmp_path / "missing" / "c.png")
    assert result.exit_code == 1
    assert f"--plot {tmp_path / 'missing' / 'c.png'}: no folder {tmp_path / 'missing'}" in result.output
    assert "games per ruleset" not in result.output


def test_no_bound_of_an_interval_reads_minus_zero():
    from cardcli.cpu.compare import _interval

    assert _interval({"ci95": [-0.004, 0.13]}, unit="") == "[-0.4, +13]"
    assert _interval({"ci95": [0.0, 0.0]}, unit="") == "[+0.0, +0.0]"
    assert _interval({"ci95": [-0.0004, 0.02]}) == "[-0.04%, +2.0%]"
