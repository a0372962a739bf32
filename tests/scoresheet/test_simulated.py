"""Simulated End of the Page games, each round's final table written down in
the sheet's words: the sheet gives every round's scores, the totals and the
places the game gave, through the same rules code."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardcli.cli import cli

from .conftest import make_sheet
from .tables import PlayedGame, entries, play


def sheet_of(game: PlayedGame):
    sheet = make_sheet(game.names, game.dealer, **game.rules)
    for line in entries(game):
        sheet.enter(line)
    return sheet


def assert_same(game: PlayedGame, sheet) -> None:
    assert [[r.score(seat) for seat in range(len(game.names))] for r in sheet.rounds] == \
        [r.scores for r in game.rounds]
    assert sheet.totals() == game.totals
    result = sheet.result()
    assert result is not None and result.places == game.places


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), level=st.sampled_from(["easy", "normal"]),
       rounds=st.integers(1, 4))
def test_a_simulated_game_s_scores_come_out_of_its_final_tables(seed, players, level, rounds):
    game = play(seed, players, level, page_lines=rounds)
    assert_same(game, sheet_of(game))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5), listed=st.sets(st.integers(0, 4), max_size=2))
def test_a_player_may_list_cards_instead_of_melds(seed, players, listed):
    """The same games with some players writing only their cards, wilds
    marked: the same scores (their melds not checked, and marked so)."""
    game = play(seed, players, "normal", listed=frozenset(listed), page_lines=2)
    sheet = sheet_of(game)
    assert_same(game, sheet)
    for played, words in zip(sheet.rounds, game.rounds):
        for seat in listed & set(range(players)):
            if words.words[seat].startswith("cards"):  # (a player with nothing on the table lists nothing)
                assert played.checked(seat) == "cards"


def test_games_of_every_table_size_and_house_rules():
    """A fixed sweep: two decks for two, target scores, other points."""
    cases = [dict(seed=3, players=2, decks=2), dict(seed=4, players=3, target_score=300, page_lines=20),
             dict(seed=5, players=4, wild_value=25, ace_value=15, low_value=1, high_value=2),
             dict(seed=6, players=6, level="easy", page_lines=2)]
    for case in cases:
        game = play(case.pop("seed"), case.pop("players"), case.pop("level", "normal"), **case)
        assert_same(game, sheet_of(game))


def test_a_game_entered_from_a_file_gives_its_result(tmp_path):
    game = play(11, 3, "normal", page_lines=3)
    words = tmp_path / "rounds.txt"
    words.write_text("\n".join(["# a game copied from the table", *entries(game)]) + "\n")
    out = tmp_path / "page.json"
    dealer = game.names[game.dealer]
    result = CliRunner().invoke(cli, ["scoresheet", "endofpage", "--players", ",".join(game.names),
                                      "--dealer", dealer, "--page-lines", "3", "--input", str(words),
                                      "--save", str(tmp_path / "sheet.jsonl"), "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["totals"] == game.totals
    assert data["result"]["places"] == game.places
    assert [[p["score"] for p in r["players"]] for r in data["rounds"]] == [r.scores for r in game.rounds]
