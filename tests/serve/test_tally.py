"""The evening's tally, its file and its records' names, without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.errors import CardcliError
from cardcli.serve.evening import Evening, Played, first_record
from cardcli.serve.links import TableFile, table_file
from cardcli.serve.table import Seat, Table
from cardcli.serve.tally import tally, tally_lines, won


def test_a_win_is_first_place_shared_or_not():
    assert won({"places": [2, 1, 3], "winner": 1}, 1) and not won({"places": [2, 1, 3]}, 0)
    assert won({"places": [1, 1, 3], "winner": None}, 0) and won({"places": [1, 1, 3]}, 1)
    assert won({"winner": 2}, 2) and not won({"winner": None}, 0)


def test_the_tally_follows_each_player_across_seats_and_games():
    """ann and bob swap seats; a CPU sits in for game 2 only; game 2 is a shared first place."""
    games = [([0, 1], {"places": [1, 2], "winner": 0, "scores": [120, 40]}),
             ([1, 0, 2], {"places": [1, 1, 3], "winner": None, "scores": [90, 90, 5]})]
    result = tally(games, {0: "ann", 1: "bob", 2: "cpu1"}, "points")
    assert [(p["name"], p["wins"], p["games"]) for p in result["players"]] == [("ann", 2, 2), ("bob", 1, 2),
                                                                                ("cpu1", 0, 1)]
    assert result["rows"][0] == {"game": 1, "places": [1, 2, None], "scores": [120, 40, None]}
    assert result["rows"][1] == {"game": 2, "places": [1, 1, 3], "scores": [90, 90, 5]}
    lines = tally_lines(result)
    assert lines[0] == "The evening so far (2 games):"
    assert lines[1].split() == ["ann", "bob", "cpu1"]
    assert lines[2].split() == ["game", "1", "120*", "40", "-"]
    assert lines[3].split() == ["game", "2", "90*", "90*", "5"]
    assert lines[4].split() == ["wins", "2", "1", "0"] and "points of each game" in lines[5]
    assert tally_lines(tally([], {}, "points")) == []


def test_without_scores_the_tally_shows_places():
    result = tally([([0, 1, 2], {"places": [3, 1, 2], "winner": 1})], {0: "a", 1: "b", 2: "c"}, "points")
    assert not result["scored"] and result["rows"][0]["scores"] is None
    assert tally_lines(result)[2].split() == ["game", "1", "3.", "1.", "2."]


def test_an_evenings_records_and_file_share_the_first_records_name(tmp_path):
    first = tmp_path / "20260101-matching-5.jsonl"
    later = tmp_path / "20260101-matching-5.game12-2.jsonl"
    assert first_record(later) == first_record(first) == first
    assert table_file(later) == table_file(first) == tmp_path / "20260101-matching-5.table.json"


def test_the_evening_reads_back_from_its_file(tmp_path):
    variant = get_registry().get("matching")
    first = tmp_path / "game.jsonl"
    rules = dict(default_ruleset(variant).options)
    seats = [Seat(0, "you", "host", player=0, named=True), Seat(1, "ann", "friend", token="t1", player=1),
             Seat(2, "cpu3", "cpu", level="hard", player=4)]
    table = Table(variant, seats)
    evening = Evening(first, variant, rules, "American", 7, again="all")
    evening.people = {0: "you", 1: "ann", 3: "bob", 4: "cpu3"}
    evening.games.append(Played("game.jsonl", [0, 1, 3], 2, {"places": [2, 1, 3], "winner": 1}))
    path = table_file(first)
    kept = evening.as_dict(table)
    TableFile(["host", "friend", "cpu"], table.tokens(), "127.0.0.1", 1, evening=kept).save(path)
    saved = TableFile.load(path)
    again, read = Evening.from_dict(saved.evening or {}, first, variant, rules)
    assert again.as_dict(Table(variant, read)) == evening.as_dict(table)
    assert [(s.name, s.kind, s.level, s.player) for s in read] == [("you", "host", "normal", 0),
                                                                  ("ann", "friend", "normal", 1),
                                                                  ("cpu3", "cpu", "hard", 4)]
    assert not again.playing and again.number == 1
    # A file from a newer cardcli, or an evening that is not one, is refused with a reason.
    text = path.read_text()
    path.write_text(text.replace('"version": 2', '"version": 3'))
    with pytest.raises(CardcliError, match="newer cardcli"):
        TableFile.load(path)
    escape = [{"record": "../x.jsonl", "players": [], "dealer": 0}]
    for broken in ({**kept, "again": "sometimes"}, {**kept, "seats": []}, {**kept, "games": escape}):
        with pytest.raises((ValueError, KeyError, TypeError)):
            Evening.from_dict(broken, first, variant, rules)


def test_a_version_1_table_file_still_loads(tmp_path: Path):
    path = tmp_path / "old.table.json"
    path.write_text('{"format": "cardcli-table", "version": 1, "seats": ["host", "friend"], '
                    '"tokens": {"seat 1": "abc", "watch": "def"}, "host": "127.0.0.1", "port": 8765}')
    saved = TableFile.load(path)
    assert saved.evening is None and saved.tokens["seat 1"] == "abc"


def test_a_full_width_name_keeps_the_tally_in_columns():
    """The host's tally lines up by the columns a name takes on a terminal
    (counted here from the Unicode tables: full-width characters take two)."""
    import unicodedata

    wide = "".join(chr(0xFF21 + i) for i in range(20))
    games = [([0, 1], {"places": [2, 1], "winner": 1, "scores": [10, 70]})]
    lines = tally_lines(tally(games, {0: wide, 1: "bob"}, "points"))

    def columns(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    head, row, wins = lines[1], lines[2], lines[3]
    # The name's column ends where its score cell ("10 ": the mark's place after it) and its wins end.
    ends = {columns(head[:head.index(wide) + len(wide)]), columns(row[:row.index("10 ") + 3]),
            columns(wins[:wins.index(" 0 ") + 2])}
    assert len(ends) == 1, lines
