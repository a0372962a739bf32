"""Invite links: QR codes in the terminal, the table file, the --players spec of serve."""

from __future__ import annotations

import stat

import pytest

from cardcli.cli.serve import parse_seats
from cardcli.cpu.players import PlayersError
from cardcli.kit.errors import CardcliError
from cardcli.serve.client import parse_link
from cardcli.serve.links import TableFile, base_url, new_token, seat_link, table_file
from cardcli.serve.qr import QUIET, matrix, seen, terminal_lines


@pytest.mark.parametrize("text", ["http://127.0.0.1:8765/t/" + "A" * 22,
                                  "http://192.168.1.5:8765/t/" + new_token()])
@pytest.mark.parametrize("colour,backgrounds", [(True, ["dark", "light"]), (False, ["dark"])])
def test_the_terminal_qr_code_shows_dark_modules_on_a_light_quiet_zone(text, colour, backgrounds):
    """What a scanner sees is the symbol, dark on light, in a light quiet zone:
    in colour on any terminal; without colour on a dark one (and then, on a
    light one, the inverse, which is what --color is for)."""
    symbol = matrix(text)
    lines = terminal_lines(text, colour=colour)
    for background in backgrounds:
        drawn = seen(lines, background)
        width = len(symbol) + 2 * QUIET
        assert all(len(row) == width for row in drawn)
        assert [row[QUIET:-QUIET] for row in drawn[QUIET:QUIET + len(symbol)]] == symbol
        border = drawn[:QUIET] + drawn[QUIET + len(symbol):] + [row[:QUIET] + row[-QUIET:] for row in drawn]
        assert not any(any(row) for row in border)
        assert any(any(row) for row in symbol)
    if not colour:
        inverted = seen(lines, "light")
        assert [row[QUIET:-QUIET] for row in inverted[QUIET:QUIET + len(symbol)]] != symbol


def test_tokens_are_long_random_and_distinct():
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200 and all(len(t) >= 22 for t in tokens)


def test_the_table_file_is_owner_only_and_reads_back(tmp_path):
    path = table_file(tmp_path / "game.jsonl")
    assert path.name == "game.table.json"
    saved = TableFile(["host", "friend", "cpu"], {"seat 1": "abc", "watch": "def"}, "127.0.0.1", 8765)
    saved.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert TableFile.load(path) == saved
    path.write_text("{not json")
    with pytest.raises(CardcliError, match="cannot read"):
        TableFile.load(path)
    with pytest.raises(CardcliError, match="not found"):
        TableFile.load(tmp_path / "missing.table.json")


def test_links_round_trip_through_join():
    link = seat_link(base_url("192.168.1.5", 8765), "tok_en-1")
    assert link == "http://192.168.1.5:8765/t/tok_en-1"
    assert parse_link(link) == ("ws://192.168.1.5:8765/ws", "tok_en-1")
    for bad in ("192.168.1.5:8765/t/x", "http://h:1/x/y", "ftp://h/t/x"):
        with pytest.raises(CardcliError, match="not a table link"):
            parse_link(bad)


def test_the_players_spec_of_serve():
    seats, kinds = parse_seats("you,friend,friend:ann,cpu:easy", "matching", False)
    assert [s.name for s in seats] == ["you", "friend1", "ann", "cpu1"]
    assert kinds == ["host", "friend", "friend", "cpu"]
    seats, kinds = parse_seats(None, "matching", True)
    assert kinds[0] == "friend" and "host" not in kinds and len(seats) == 4
    for spec, no_seat, message in (("you,bob,friend", False, "one person"), ("you,cpu", False, "no friend"),
                                   ("you,friend", True, "--no-seat"),
                                   ("you,friend:8S", False, "reads as a card"),
                                   ("you,friend:Host", False, "what the table calls the host")):
        with pytest.raises(PlayersError, match=message):
            parse_seats(spec, "matching", no_seat)
