"""``cardcli serve`` and ``cardcli join`` in real pseudo-terminals (pexpect),
answered as people answer them: a friend plays a whole game from ``cardcli
join``, leaves and comes back with the same command; the host is asked what
to do about a friend who stays away."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pexpect
import pytest

from cardcli.testing import validate_bytes

CARDCLI = shutil.which("cardcli")
pytestmark = pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH (README's "
                                                         "install puts it there)")
#: A prompt of the dialogue (the question ends with "> "), or the end of the game.
PROMPT = re.compile(r"> $")


def spawn(tmp_path: Path, *args: str) -> tuple[pexpect.spawn, io.StringIO]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "CI")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", CARDCLI_GAMES=str(tmp_path / "games"))
    seen = io.StringIO()
    child = pexpect.spawn(CARDCLI, [*args, "--no-color"], env=env, encoding="utf-8", dimensions=(60, 160),
                          timeout=60)
    child.logfile_read = seen
    return child, seen


def serve(tmp_path: Path, record: Path, *args: str) -> tuple[pexpect.spawn, io.StringIO, str]:
    """A server on a free port; its first invite link."""
    child, seen = spawn(tmp_path, "serve", *args, "--port", "0", "--record", str(record), "--no-qr")
    child.expect(r"Invite for \S+: (http://\S+)")
    return child, seen, child.match.group(1)


def answer_until(child: pexpect.spawn, done: str, answer: str = "1", limit: int = 400) -> None:
    """Answer every prompt with ``answer`` until ``done`` is printed."""
    for _ in range(limit):
        if child.expect([PROMPT, re.escape(done)]) == 1:
            return
        child.sendline(answer)
    raise AssertionError(f"{done!r} never came")


def answer_both(host: pexpect.spawn, friend: pexpect.spawn, done: str, limit: int = 300) -> None:
    """Answer "1" to whichever terminal asks, until ``done`` is printed at both."""
    finished = set()
    for _ in range(limit):
        for child in (host, friend):
            if child in finished:
                continue
            index = child.expect([PROMPT, re.escape(done), pexpect.TIMEOUT], timeout=0.01)
            if index == 0:
                child.sendline("1")
            elif index == 1:
                finished.add(child)
        if len(finished) == 2:
            return
    raise AssertionError(f"{done!r} never came at both terminals:\n{host.before[-800:]}\n---\n"
                         f"{friend.before[-800:]}")


def test_the_host_and_a_friend_at_cardcli_join_play_a_whole_game(tmp_path):
    """The friend is late: the host is asked and lets a CPU stand in; the
    friend joins with cardcli join (the CPU stops), asks for a hint, leaves
    mid-turn, comes back with the same command and plays to the end."""
    record = tmp_path / "game.jsonl"
    host, hosted, link = serve(tmp_path, record, "trick", "--players", "you,friend,cpu:easy",
                               "--ruleset", "five-cards", "--seed", "6", "--away-timeout", "0")
    for _ in range(100):
        if host.expect([PROMPT, r"Let a CPU play for them until they come back\? \[y/N\]: $"]) == 1:
            break
        host.sendline("1")
    else:
        raise AssertionError("the host was never asked about the friend who is not there")
    host.sendline("y")
    host.expect_exact("a CPU (normal) plays for friend1 until they come back")
    friend, _seen = spawn(tmp_path, "join", link)
    friend.expect_exact("you are friend1 (seat 1)")
    friend.expect_exact("Your name at the table [friend1]> ")  # the door
    friend.sendline("dana")
    host.expect_exact("friend1 joined")
    host.expect_exact("the CPU standing in for them stops")
    host.expect_exact("friend1 is now called dana")
    # The friend's turn comes (the host answers meanwhile): a hint, then they leave.
    for _ in range(100):
        if friend.expect([PROMPT, pexpect.TIMEOUT], timeout=0.01) == 0:
            break
        if host.expect([PROMPT, pexpect.TIMEOUT], timeout=0.01) == 0:
            host.sendline("1")
    friend.sendline("?")  # the hint, through the server's dialogue
    friend.expect_exact("Hint - the hard CPU's view from your seat")
    friend.expect(PROMPT)
    friend.sendcontrol("c")
    friend.expect_exact("the same command takes the seat back")
    friend.expect(pexpect.EOF)
    host.expect_exact("dana left")
    again, seen = spawn(tmp_path, "join", link)
    again.expect_exact("dana, it is your turn.")  # asked once: the name stays
    host.expect_exact("dana is back")
    answer_both(host, again, "Ranking:")
    # The table stays open: the friend leaves it, the host ends the evening.
    again.expect_exact("Play again? y, or q to leave the table> ")
    again.sendline("q")
    again.expect_exact("you left the table")
    host.expect_exact("dana left the table; seat 2 is empty")
    host.expect_exact("Enter to start it, or a command (help)> ")
    host.sendline("quit")
    host.expect_exact("The evening is over: 1 game.")
    for child in (host, again):
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    report = validate_bytes(record.read_bytes())
    assert report.valid, report.error
    # Both terminals showed the table, the header and the ranking screen of cardcli play.
    shown = seen.getvalue()
    assert "5 cards each" in shown and "5 cards each" in hosted.getvalue()  # the header: the house rules
    assert "Game over" in shown and "Ranking:" in hosted.getvalue()
    assert "the table waits for friend1 to join" in hosted.getvalue()
    assert "Traceback" not in shown + hosted.getvalue()


@pytest.mark.slow
def test_an_evening_at_the_terminals_play_again_with_a_cpu_added_and_a_rule_changed(tmp_path):
    """Game 1 between the host and a friend (named with --name); between
    games the host adds a CPU and changes a house rule, both say play again;
    game 2 is played by three at the new rules; the tally counts both games."""
    record = tmp_path / "game.jsonl"
    host, hosted, link = serve(tmp_path, record, "trick", "--players", "you,friend", "--ruleset",
                               "five-cards", "--seed", "4", "--again", "all")
    friend, seen = spawn(tmp_path, "join", link, "--name", "bob")
    friend.expect_exact("you are friend1 (seat 1)")
    host.expect_exact("friend1 is now called bob")
    answer_both(host, friend, "Ranking:")
    host.expect_exact("The evening so far (1 game):")
    host.expect_exact("(help)> ")
    for command, said in (("add easy", "cpu1 (cpu:easy) joins the table"),
                          ("set hand_size=3", "five cards) + hand_size=3: 3 cards each"),
                          ("cpu 1", "seat 1 is yours"),
                          ("remove 9", "there is no seat 9"),
                          ("set hand_size=99", "hand_size")):
        host.sendline(command)
        host.expect_exact(said)
        host.expect_exact("(help)> ")
    friend.expect_exact("Play again? y, or q to leave the table> ")
    friend.sendline("y")
    host.expect_exact("bob says: play again")
    host.expect_exact("(help)> ")
    host.sendline("")  # the host is ready too: everyone is, game 2 starts
    host.expect_exact("Game 2 - ")
    friend.expect_exact("game 2: you are bob (seat 1)")
    answer_both(host, friend, "Ranking:")
    host.expect_exact("The evening so far (2 games):")
    host.expect_exact("(help)> ")
    host.sendline("quit")
    host.expect_exact("The evening is over: 2 games.")
    friend.expect_exact("the host closed the table")
    for child in (host, friend):
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    second = tmp_path / "game.game2.jsonl"
    for path in (record, second):
        report = validate_bytes(path.read_bytes())
        assert report.valid, report.error
    import json

    header = json.loads(second.read_text().splitlines()[0])
    assert [p["name"] for p in header["players"]] == ["you", "bob", "cpu1"]
    assert header["rules"]["hand_size"] == 3 and header["players"][2]["kind"] == "cpu:easy"
    assert "3 cards each" in seen.getvalue()  # the friend read game 2's header: the new rule
    assert "Traceback" not in seen.getvalue() + hosted.getvalue()
