"""The name at the door of ``cardcli join``, in real pseudo-terminals against
a real ``cardcli serve``: a friend whose turn comes first (the host deals, so
the friend plays first) is asked the name first, and the move after it; an
empty answer keeps the name; a line typed between turns is never a name."""

from __future__ import annotations

import re

import pexpect
import pytest

from .test_terminals import CARDCLI, PROMPT, serve, spawn

pytestmark = pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")

#: With this seed the host deals matching for three: the friend (seat 1) plays first.
HOST_DEALS = ("matching", "--players", "you,friend,cpu:normal", "--seed", "2")
DOOR = "Your name at the table [friend1]> "
MOVE = "Your move (number, a card like 8s)> "


def the_friend_first(tmp_path):
    """The host serving (the friend's turn first) and the friend at the door of cardcli join."""
    host, hosted, link = serve(tmp_path, tmp_path / "game.jsonl", *HOST_DEALS)
    host.expect_exact("dealt 7 cards each (dealer: you)")
    friend, seen = spawn(tmp_path, "join", link)
    friend.expect_exact("you are friend1 (seat 1)")
    friend.expect_exact(DOOR)
    host.expect_exact("friend1 joined")
    # The table waits for the friend's move, but the name is asked alone: no move prompt yet.
    assert friend.expect([re.escape(MOVE), pexpect.TIMEOUT], timeout=2) == 1, friend.before
    return host, hosted, friend, seen


def stop(*children: pexpect.spawn) -> None:
    for child in children:
        child.terminate(force=True)


def test_a_friend_whose_turn_comes_first_chooses_the_name_then_plays(tmp_path):
    host, hosted, friend, seen = the_friend_first(tmp_path)
    try:
        friend.sendline("ann")
        host.expect_exact("friend1 is now called ann")
        friend.expect_exact("ann, it is your turn.")
        friend.expect_exact(MOVE)
        friend.sendline("1")
        host.expect_exact("ann played")
        assert "not one of your choices" not in seen.getvalue()
        assert seen.getvalue().index(DOOR) < seen.getvalue().index(MOVE)
        assert "Traceback" not in seen.getvalue() + hosted.getvalue()
    finally:
        stop(friend, host)


def test_an_empty_name_keeps_the_seats_and_a_line_typed_between_turns_is_no_name(tmp_path):
    host, hosted, friend, seen = the_friend_first(tmp_path)
    try:
        friend.sendline("")  # Enter: the name offered stays
        friend.expect_exact("friend1, it is your turn.")
        friend.expect_exact(MOVE)
        friend.sendline("1")
        host.expect_exact("friend1 played")
        host.expect(PROMPT)  # the host's turn (after the CPU's): the friend waits
        friend.sendline("bob")
        friend.expect_exact("(nothing is asked just now: that line was not sent)")
        host.sendline("1")
        friend.expect_exact("host played")
        friend.expect_exact("friend1, it is your turn.")  # the next turn: still friend1
        friend.expect(PROMPT)
        assert seen.getvalue().count("friend1, it is your turn.") == 2
        assert "bob" not in hosted.getvalue() and "called" not in hosted.getvalue()
        assert "Traceback" not in seen.getvalue() + hosted.getvalue()
    finally:
        stop(friend, host)


def test_a_refused_name_is_asked_again_before_the_move(tmp_path):
    host, hosted, friend, seen = the_friend_first(tmp_path)
    try:
        friend.sendline("8s")  # reads as a card: refused, the name asked again, still alone
        friend.expect_exact("reads as a card")
        friend.expect_exact(DOOR)
        assert friend.expect([re.escape(MOVE), pexpect.TIMEOUT], timeout=1) == 1, friend.before
        friend.sendline("ann")
        host.expect_exact("friend1 is now called ann")
        friend.expect_exact("ann, it is your turn.")
        friend.expect_exact(MOVE)
        assert "Traceback" not in seen.getvalue() + hosted.getvalue()
    finally:
        stop(friend, host)


def test_a_name_given_with_the_command_is_the_one_the_first_turn_calls(tmp_path):
    host, _hosted, link = serve(tmp_path, tmp_path / "game.jsonl", *HOST_DEALS)
    friend, seen = spawn(tmp_path, "join", link, "--name", "bob")
    try:
        host.expect_exact("friend1 is now called bob")
        friend.expect_exact("bob, it is your turn.")
        friend.expect_exact(MOVE)
        assert "friend1, it is your turn" not in seen.getvalue() and DOOR not in seen.getvalue()
    finally:
        stop(friend, host)
