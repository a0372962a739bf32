"""The host's terminal at 80x24 (tmux: a real terminal, read back as the host
sees it): the invite links are one command away during a game, at the
host's prompt and with nothing asked; a friend's full-width name keeps the
host's table in columns; a game served again after kill -9 goes on, and
says so."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import unicodedata
from pathlib import Path

import pytest

from ..tmux import TMUX, Tmux
from .test_terminals import CARDCLI

pytestmark = [
    pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH (README's install)"),
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)"),
]
SIZE = (80, 24)
#: Twenty full-width letters: forty columns on a terminal.
WIDE = "".join(chr(0xFF21 + i) for i in range(20))
MOVE = r"Your move.*> ?$"


def environment(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "LC_ALL", "LC_CTYPE", "CI", "COLUMNS", "LINES", "TMUX")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", HOME=str(tmp_path / "home"),
               CARDCLI_GAMES=str(tmp_path / "games"))
    return env


def columns(text: str) -> int:
    """The columns ``text`` takes on the terminal, counted here from the
    Unicode tables themselves (wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_links_during_a_game_and_a_full_width_name_in_columns(tmp_path):
    record = tmp_path / "game.jsonl"
    term = Tmux(tmp_path, f"{CARDCLI} serve matching --players 'you,friend:{WIDE},cpu:easy' --seed 5 "
                          f"--port 0 --record {record}", environment(tmp_path), SIZE)
    try:
        term.wait_for_prompt([MOVE])
        screen = term.screen()
        rows = [row for row in screen if re.match(r" [> ] \d ", row)]
        starts = {columns(row[:re.search(r"\d+ cards?", row).start()]) for row in rows}
        assert len(rows) == 3 and len(starts) == 1, screen  # "N cards" in one column on every row
        assert any(WIDE in row for row in rows)
        link = re.search(r"Invite for \S+:\s+(http://\S+)", term.everything()).group(1)
        term.answer("1")
        term.wait_for_prompt([MOVE])  # the host's next turn: the links have scrolled away
        assert not any(link in row for row in term.screen())
        term.answer("links")  # at the host's own prompt
        term.wait_until(lambda: any(link in row for row in term.screen()), "the link on the screen")
        term.wait_for_prompt([MOVE])
        screen = term.screen()
        assert any(link in row for row in screen) and sum("\u2580" in row or "\u2584" in row
                                                          for row in screen) >= 10, screen  # and its QR
        assert not term.too_wide()
        before = term.everything().count("you played") + term.everything().count("you drew")
        term.answer("1")  # the move is asked again below, and played
        term.wait_until(lambda: term.everything().count("you played") + term.everything().count("you drew")
                        > before, "the host's move")
        term.type("C-c")
        term.wait_for("Table saved. Serve it again")
    finally:
        term.close()


def test_links_seats_and_help_with_nothing_asked_when_the_host_does_not_play(tmp_path):
    record = tmp_path / "game.jsonl"
    term = Tmux(tmp_path, f"{CARDCLI} serve trick --no-seat --players friend,cpu:easy --port 0 --no-qr "
                          f"--record {record}", environment(tmp_path), SIZE)
    try:
        term.wait_for("Type links at any time")
        link = re.search(r"Invite for friend1: (http://\S+)", term.everything()).group(1)
        for _ in range(8):  # who sits where, again and again: the links scroll away
            term.answer("seats")
        term.wait_until(lambda: term.everything().count("2. cpu1 (cpu:easy)") == 8, "the seats, 8 times")
        assert not any(link in row for row in term.screen())
        term.answer("links")
        term.wait_until(lambda: any(link in row for row in term.screen()), "the link on the screen")
        term.answer("help")
        term.wait_for("During a game, type at any time")
        term.answer("add hard")
        term.wait_for("! add: the table changes between games, and a game is on")
        term.type("C-c")
        term.wait_for("Table saved. Serve it again")
    finally:
        term.close()


def test_a_game_served_again_goes_on_and_says_so(tmp_path):
    """Served again after kill -9 by the command the banner gave (the saved game's name, as cardcli
    games lists it), the host reads that the game goes on, not that it starts."""
    record = tmp_path / "games" / "evening.jsonl"
    record.parent.mkdir()
    env = environment(tmp_path)
    term = Tmux(tmp_path, f"{CARDCLI} serve matching --players you,friend,cpu:easy --seed 5 --port 0 --no-qr "
                          f"--record {record}", env, SIZE)
    try:
        term.wait_for_prompt([MOVE])
        said = " ".join(term.everything().split())
        assert "If this server stops, serve the table again, with the same links: cardcli serve --resume " \
               "evening" in said, said
        term.answer("1")
        term.wait_until(lambda: "you played" in term.everything() or "you drew" in term.everything(),
                        "the host's move")
        pid = subprocess.run(["pgrep", "-f", f"serve matching.*{record}"], capture_output=True, text=True)
        for number in pid.stdout.split():
            os.kill(int(number), signal.SIGKILL)
        term.wait_for("GAME-ENDED")
    finally:
        term.close()
    again = Tmux(tmp_path, f"{CARDCLI} serve --resume evening --no-qr", env, SIZE)
    try:
        shown = again.wait_for("it waits for friend1")
        assert "goes on from where it stopped" in shown and "The game starts now" not in shown
        again.wait_for_prompt([MOVE])
        again.type("C-c")
        again.wait_for("Table saved. Serve it again")
    finally:
        again.close()
    # Resumed with play instead, it goes on at one terminal: the host is told how to serve it again.
    played = subprocess.run([str(CARDCLI), "play", "--resume", "evening"], input="quit\n", env=env,
                            capture_output=True, text=True, timeout=60)
    said = " ".join(played.stdout.split())
    told = ("This game was served: here it goes on at this one terminal. To play it with the same links "
            "again, press Ctrl-C and type: cardcli serve --resume evening")
    assert told in said, played.stdout + played.stderr
