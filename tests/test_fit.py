"""Text that fits the terminal: wrapping at spaces, tables that give way,
the terminal's size."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from cardcli.kit.fit import (
    command_text,
    lead_in,
    path_text,
    shorten,
    table,
    terminal_size,
    visible_width,
    wrap,
)
from cardcli.terminal.style import Style, strip_styles


def test_a_long_line_breaks_at_spaces_and_carries_on_indented():
    header = "Page One (matching) - you, cpu1 (cpu:normal), cpu2 (cpu:normal), cpu3 (cpu:normal)"
    lines = wrap(header, 80)
    assert lines == ["Page One (matching) - you, cpu1 (cpu:normal), cpu2 (cpu:normal), cpu3",
                     "  (cpu:normal)"]
    assert wrap("  m CARDS  meld some cards by name or number", 20) == [
        "  m CARDS  meld some", "    cards by name or", "    number"]
    assert wrap("short", 80) == ["short"] and wrap("a\nb", 80) == ["a", "b"]
    assert wrap("x " * 10, 8, indent=0) == ["x x x x", "x x x x", "x x"]


def test_a_word_longer_than_the_line_stays_whole():
    path = "/home/ann/.local/share/cardcli/games/20261202-031610-matching-1103684879.jsonl"
    assert wrap(f"Recording to {path}", 40) == ["Recording to", f"  {path}"]


def test_colour_takes_no_room():
    style = Style(colour=True, symbols=True)
    text = style.text("Your hand: 10S 10H 10D 10C QS QH QD QC KS KH KD KC AS AH AD AC JK", bold=True)
    assert visible_width(text) == len(strip_styles(text))
    lines = wrap(text, 30)
    assert all(visible_width(line) <= 30 for line in lines)
    assert strip_styles(" ".join(lines)).split() == strip_styles(text).split()
    assert visible_width("\u4e2d\u6587") == 4  # wide characters take two columns


@given(st.lists(st.text(alphabet="abc \u2660", min_size=0, max_size=12), max_size=12),
       st.integers(min_value=10, max_value=90))
def test_wrapping_keeps_every_word_and_fits(words, width):
    text = " ".join(words)
    lines = wrap(text, width)
    assert " ".join(lines).split() == text.split()
    for line in lines:
        assert visible_width(line) <= width or len(line.split()) == 1 or \
            visible_width(line.split()[-1]) + len(line) - len(line.lstrip()) > width


def test_a_table_narrows_its_widest_column_to_fit():
    rows = [["1", "you, cpu1 (cpu:normal), cpu2 (cpu:normal), cpu3 (cpu:normal)", "unfinished"],
            ["22", "ann, bob", "finished"]]
    wide = table(["n", "players", "state"], rows, 200, right=[0])
    assert len(wide) == 3 and wide[1].startswith(" 1  you, cpu1") and wide[2].startswith("22  ann, bob")
    narrow = table(["n", "players", "state"], rows, 40, right=[0])
    assert all(len(line) <= 40 for line in narrow)
    assert narrow[0].index("state") == narrow[1].index("unfinished")  # columns stay aligned
    assert " ".join(" ".join(narrow).split()).count("cpu:normal") == 3


def test_the_terminal_size_comes_from_columns_lines_or_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "132")
    monkeypatch.setenv("LINES", "50")
    assert terminal_size(io.StringIO()) == (132, 50)
    monkeypatch.delenv("COLUMNS")
    monkeypatch.delenv("LINES")
    assert terminal_size(io.StringIO()) == (80, 24)  # not a terminal: the standard size
    monkeypatch.setenv("COLUMNS", "12")
    assert terminal_size(io.StringIO())[0] == 40  # never narrower than a table can be laid out in


def test_a_command_to_copy_is_never_broken():
    assert lead_in("Continue it with:", "cardcli play --resume x.jsonl", 80) == \
        "Continue it with: cardcli play --resume x.jsonl"
    assert lead_in("Continue it with:", "cardcli play --resume " + "x" * 70, 80) == \
        "Continue it with:\n  cardcli play --resume " + "x" * 70
    assert shorten("abcdefghij", 6) == "abc..." and shorten("abc", 6) == "abc"


def test_a_long_command_goes_on_lines_of_its_own_that_paste_as_one():
    words = ["cardcli", "play", "--resume", "/srv/" + "x" * 70 + ".jsonl"]
    assert command_text("Saved:", words[:3], 80) == "Saved: cardcli play --resume"
    text = command_text("Game saved. Continue it with:", words, 80)
    assert text.split("\n") == ["Game saved. Continue it with:", "  cardcli play --resume \\",
                                "    " + words[3]]
    assert " ".join(text.split("\n", 1)[1].replace("\\\n", " ").split()) == " ".join(words)


def test_a_path_too_long_for_a_line_is_said_as_its_name_then_its_folder():
    folder = "/home/ann/" + "f" * 60
    assert path_text("Record:", folder + "/game.jsonl", 80) == \
        f"Record: game.jsonl, in the folder\n  {folder}"
    assert path_text("Record:", "~/games/game.jsonl", 80) == "Record: ~/games/game.jsonl"
    assert path_text("Record:", "~/" + "g" * 75, 80) == "Record:\n  ~/" + "g" * 75
