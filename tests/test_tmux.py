"""The tests' terminal (``tests/tmux.py``) cleans up after itself: a run of
the suite leaves no tmux server and no socket behind."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.tmux import ENDED, TMUX, Tmux

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)")


def test_closing_the_terminal_removes_its_server_and_its_socket(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "TMUX"}
    term = Tmux(tmp_path, "echo hello", env, (80, 24))
    try:
        assert "hello" in term.wait_for(ENDED)
        socket = Path(term.tmux("display-message", "-p", "#{socket_path}").strip())
        assert socket.is_socket() and socket.name == term.socket
    finally:
        term.close()
    assert not socket.exists(), f"the tmux socket {socket} was left behind"
    assert TMUX is not None
    alive = subprocess.run([TMUX, "-L", term.socket, "list-sessions"], env=env, capture_output=True)
    assert alive.returncode != 0  # no server answers there any more


def test_the_terminal_closes_itself_at_the_end_of_a_with_block(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "TMUX"}
    with Tmux(tmp_path, "echo hello", env, (80, 24)) as term:
        term.wait_for(ENDED)
        socket = term.socket_path
    assert socket is not None and not socket.exists()
