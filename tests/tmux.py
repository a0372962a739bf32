"""A real terminal for the tests: tmux, a terminal emulator with a size and
a scrollback, driven as a person drives it and read back as they see it.

Everything waits for the screen, never for time: a test types only once
the prompt it answers is on the screen.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

from cardcli.kit.fit import visible_width

TMUX = shutil.which("tmux")
#: The end of a command run by :class:`Tmux` (the shell then waits).
ENDED = "GAME-ENDED"


class Tmux:
    """A tmux server of its own (its own socket), one window of ``size``
    running ``command`` in a shell that stays after it.  :meth:`close` (or
    leaving a ``with`` block) stops the server and removes its socket, which
    tmux itself leaves behind."""

    def __init__(self, tmp_path: Path, command: str, env: dict[str, str], size: tuple[int, int] = (120, 40)):
        self.socket = f"cardcli-test-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.columns, self.rows = size
        script = tmp_path / f"run-{self.socket}.sh"
        # The shell outlives Ctrl-C (a handler, not an ignored signal: the game still gets it).
        script.write_text(f"#!/bin/sh\ntrap : INT\n{command}\necho {ENDED}; sleep 600\n")
        script.chmod(0o755)
        self.tmux("-f", "/dev/null", "new-session", "-d", "-x", str(self.columns), "-y", str(self.rows),
                  str(script))
        #: Where the server listens, as tmux names it (``$TMUX_TMPDIR/tmux-UID/SOCKET``).
        self.socket_path: Path | None = None
        try:
            self.socket_path = Path(self.tmux("display-message", "-p", "#{socket_path}").strip())
            self.tmux("set-option", "-g", "history-limit", "50000")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Tmux:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run([TMUX, "-L", self.socket, *args], env=self.env, check=True,
                              capture_output=True, text=True, timeout=30).stdout

    def everything(self) -> str:
        """The whole pane: its scrollback and the screen, a line wrapped by
        the terminal joined again (so it is as long as it was written)."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-")

    def screen(self, joined: bool = False) -> list[str]:
        """What is on the screen now, row by row (no scrollback); ``joined``:
        a line the terminal wrapped in one piece."""
        return self.tmux("capture-pane", "-p", *["-J"] * joined).rstrip("\n").split("\n")

    def bottom(self) -> str:
        """The last line with anything on it: where the cursor waits at a prompt."""
        rows = [row.rstrip() for row in self.screen() if row.strip()]
        return rows[-1] if rows else ""

    def wait_until(self, ready: Callable[[], object], what: str, seconds: float = 90) -> object:
        end = time.monotonic() + seconds
        while True:
            found = ready()
            if found:
                return found
            if time.monotonic() > end:
                raise AssertionError(f"{what} never appeared; the terminal shows:\n{self.everything()}")
            time.sleep(0.05)

    def wait_for(self, text: str, seconds: float = 90) -> str:
        """Everything in the pane, once ``text`` is in it."""
        shown = self.wait_until(lambda: (lambda s: s if text in s else "")(self.everything()), repr(text),
                                seconds)
        assert isinstance(shown, str)
        return shown

    def wait_for_prompt(self, prompts: Sequence[str], seconds: float = 90) -> tuple[int, str]:
        """The index of the first of ``prompts`` (regular expressions) that
        the bottom line matches once one does, and that line (its trailing
        spaces stripped, as the terminal keeps them: ``Your move>$``)."""
        patterns = [re.compile(p) for p in prompts]

        def ready() -> tuple[int, str] | None:
            line = self.bottom()
            for index, pattern in enumerate(patterns):
                if pattern.search(line):
                    return index, line
            return None

        found = self.wait_until(ready, f"one of {list(prompts)}", seconds)
        assert isinstance(found, tuple)
        return found

    def type(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def answer(self, text: str) -> None:
        """Type ``text`` and Enter (``-l``: the text as it is, no key names),
        and wait until the terminal has taken it (the screen changed): a
        prompt still on the screen is then a new one, not the one answered."""
        before = self.everything()
        if text:
            self.tmux("send-keys", "-l", text)
        self.tmux("send-keys", "Enter")
        self.wait_until(lambda: self.everything() != before, f"the answer {text!r} on the screen")

    def too_wide(self) -> list[str]:
        """Every line the terminal had to wrap: wider than its columns."""
        return [line for line in self.everything().split("\n") if visible_width(line.rstrip()) > self.columns]

    def close(self) -> None:
        """Stop the server and remove its socket (tmux 3.3 leaves it behind)."""
        assert TMUX is not None
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], env=self.env, capture_output=True,
                       timeout=30)
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)
