"""How the terminal shows cards: symbols, colour, the player to move and the
card just played, and when each is on."""

from __future__ import annotations

import io

import pytest

from cardcli.terminal.style import (
    BOLD,
    RED,
    RESET,
    REVERSE,
    Style,
    can_show_symbols,
    strip_styles,
    wants_colour,
)

from .thirdparty import HighCard

UTF8 = {"LANG": "en_GB.UTF-8"}


class Tty(io.StringIO):
    """A stream that says it is a terminal, with an encoding."""

    def __init__(self, encoding: str = "utf-8", tty: bool = True):
        super().__init__()
        self._encoding, self._tty = encoding, tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return self._tty


def test_plain_style_changes_nothing():
    text = " > 0 ann  5 cards  10H QS JK 3H=5C"
    assert Style().text(text, bold=True, played=["QS"]) == text


def test_symbols_replace_suit_letters_and_keep_the_width():
    style = Style(symbols=True)
    assert style.text("4S 10S 3H, JK and 3H=5C") == "4\u2660 10\u2660 3\u2665, JK and 3\u2665=5\u2663"
    line = " > 0 ann  5 cards  10H QS"
    assert len(style.text(line)) == len(line)  # tables stay aligned


@pytest.mark.parametrize("text", ["ASK", "1S", "HS", "a card like 8s", "page_one", "10HS", "H2S"])
def test_only_card_names_standing_alone_are_styled(text):
    assert Style(colour=True, symbols=True).text(text) == text


def test_colour_makes_hearts_and_diamonds_red_and_leaves_black_suits_alone():
    style = Style(colour=True)
    assert style.text("7H") == f"{RED}7H{RESET}" and style.text("7D") == f"{RED}7D{RESET}"
    assert style.text("7S") == "7S" and style.text("7C") == "7C"


def test_the_card_just_played_stands_out():
    style = Style(colour=True, symbols=True)
    text = style.text("Top card: 9H", played=["9H"])
    assert REVERSE in text and "9\u2665" in text
    assert REVERSE not in style.text("Top card: 9H", played=["9S"])
    assert REVERSE not in Style(symbols=True).text("Top card: 9H", played=["9H"])  # no colour: no emphasis


def test_the_row_of_the_player_to_move_is_bold_and_no_other():
    table = " > 0 ann   5 cards  7H\n   1 bob   3 cards\nann's hand: 7H\nLast trick: bob 7S"
    lines = Style(colour=True).text(table).split("\n")
    assert lines[0].startswith(BOLD) and lines[0].endswith(RESET)
    assert RESET + BOLD in lines[0]  # bold again after the red card's reset
    assert not any(BOLD in line for line in lines[1:])
    assert Style(colour=True).text("ann, it is your turn.", bold=True).startswith(BOLD)
    assert BOLD not in Style(colour=True).text("ann, it is your turn.")


def test_a_third_partys_table_gets_symbols_and_colour():
    variant = HighCard()
    state = variant.new_state({}, 2, 0)
    state.apply(("deal", ((0, 14), (26, 27))))
    shown = Style(colour=True, symbols=True).text(variant.render(state, viewer=None, names=["ann", "bob"]))
    assert "2\u2660" in shown and f"{RED}2\u2666" in shown
    assert strip_styles(shown).count("\u2660") == 1


@pytest.mark.parametrize(("env", "forced", "tty", "expected"), [
    ({}, None, True, True),
    ({"NO_COLOR": "1"}, None, True, False),
    ({"NO_COLOR": ""}, None, True, True),  # set but empty: not a request (no-color.org)
    ({"TERM": "dumb"}, None, True, False),
    ({}, None, False, False),  # a pipe or a file
    ({"NO_COLOR": "1"}, True, False, True),  # --color forces it
    ({}, False, True, False),  # --no-color
])
def test_when_colour_is_on(env, forced, tty, expected):
    assert wants_colour(forced, Tty(tty=tty), env) is expected


@pytest.mark.parametrize(("env", "encoding", "tty", "expected"), [
    (UTF8, "utf-8", True, True),
    ({"LC_ALL": "C.UTF-8", "LANG": "C"}, "utf-8", True, True),
    ({"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, "utf-8", True, False),  # LC_ALL wins
    ({}, "utf-8", True, False),  # no locale: the C locale, ASCII
    ({"LANG": "C"}, "utf-8", True, False),
    ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, "utf-8", True, False),  # Python coerced the C locale
    ({"LC_CTYPE": "C.UTF-8"}, "utf-8", True, False),
    ({"LANG": "en_GB.UTF-8", "LC_CTYPE": "C.UTF-8"}, "utf-8", True, True),
    (UTF8, "ascii", True, False),
    (UTF8, "latin-1", True, False),
    (UTF8, "utf-8", False, False),  # not a terminal: the plain notation of the records
])
def test_when_symbols_are_shown(env, encoding, tty, expected):
    assert can_show_symbols(Tty(encoding, tty), env) is expected


def test_a_style_for_a_stream():
    assert Style.for_stream(None, Tty(), UTF8) == Style(colour=True, symbols=True)
    assert Style.for_stream(False, Tty(), UTF8) == Style(colour=False, symbols=True)
    assert Style.for_stream(None, Tty(tty=False), UTF8) == Style()
    assert Style.for_stream(True, Tty(tty=False), UTF8) == Style(colour=True, symbols=True)
    assert Style.for_stream(None, Tty(), {"LANG": "C", "NO_COLOR": "x"}) == Style()
