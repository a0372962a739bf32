"""Talking to a person at the terminal: :class:`TerminalUI`, the terminal's
:class:`cardcli.prompts.UI`.

A dialogue calls ``show`` for lines, ``ask`` for an answer, ``choose`` for a
numbered menu and, where its menu is its own, ``offer`` to say which key
picks which legal action (the hint then numbers its lines the same way).  Text goes through the terminal's
:class:`~cardcli.style.Style` as it is shown, so dialogues write cards in the
plain notation and still get symbols and colour.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import click

from .fit import terminal_size, wrap
from .grammar import type_a_number
from .style import PLAIN, Style

#: Enter the alternate screen, leave it; clear the screen and the scrollback.
ALTERNATE_SCREEN = "\x1b[?1049h"
MAIN_SCREEN = "\x1b[?1049l"
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


class TerminalUI:
    """Prompts through Click, so tests drive it with ``CliRunner`` input.

    End of input (a closed terminal) raises ``click.Abort``, which the play
    command turns into "game saved, resume with ...".
    """

    HINT_WORDS = ("?", "hint")

    def __init__(self, colour: bool | None = None, *, style: Style | None = None):
        # sys.stdin is None when standard input is closed (``cardcli play <&-``).
        self.interactive = bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())
        if style is None:
            style = Style.for_stream(colour) if colour is not False else PLAIN
        self.style = style
        #: Set by the game loop during a human's decision: typing ``?`` or
        #: ``hint`` at any prompt shows it, then asks again.
        self.hint: Callable[[], str] | None = None
        #: The keys of the menu on screen, by the legal action each picks
        #: (set by ``choose`` and ``offer``, cleared with each new decision).
        self.menu: dict[Any, str] = {}
        self._private = False

    @property
    def colour(self) -> bool:
        return self.style.colour

    @property
    def width(self) -> int:
        """The terminal's columns now (80 when the output is not a terminal)."""
        return terminal_size()[0]

    @property
    def rows(self) -> int:
        return terminal_size()[1]

    def show(self, text: str = "", *, played: Collection[str] = (), bold: bool = False) -> None:
        """Print ``text`` (card names styled; the row of the player to move,
        the ``played`` cards and, with ``bold``, the whole text stand out
        where colour is on), each line wrapped at spaces to the terminal's width."""
        click.echo("\n".join(wrap(self.style.text(text, bold=bold, played=played), self.width)))

    def offer(self, keys: Mapping[Any, str]) -> None:
        """Say which key of the menu just shown picks which legal action
        (``{action: "2"}``), so the hint can name them."""
        self.menu = dict(keys)

    def read(self, prompt: str, default: str | None = None) -> str:
        """One answer typed at the terminal, ``default`` for an empty line (end
        of input raises ``click.Abort``).  A terminal shared with other work
        (the serving terminal) reads its lines another way.  A prompt too
        long for the terminal is asked on its last line, the rest above it."""
        *above, last = wrap(self.style.text(prompt), self.width - 12)
        for line in above:
            click.echo(line)
        return str(click.prompt(last, default=default if default is not None else "",
                                show_default=default is not None, prompt_suffix="> "))

    def ask(self, prompt: str, default: str | None = None, *, again: Sequence[str] = ()) -> str:
        """An answer to ``prompt``.  ``?`` (or ``hint``) during a decision
        shows the hint instead, then ``again`` (the hand and the choices,
        never the table, so the hint stays on the screen) and asks again."""
        while True:
            value = self.read(prompt, default)
            if self.hint is not None and value.strip().lower() in self.HINT_WORDS:
                self.show(self.hint())
                for line in again:
                    self.show(line)
                continue
            return value

    def choose(self, title: str, labels: Sequence[str], *, legal: Sequence[Any] | None = None,
               **_: Any) -> int:
        """A numbered menu; the index of the label chosen.  With ``legal``
        (one action per label) the hint numbers its lines the same way."""
        if legal is not None and len(legal) == len(labels):
            self.offer({action: str(number) for number, action in enumerate(legal, start=1)})
        lines = [f"  [{number}] {label}" for number, label in enumerate(labels, start=1)]
        while True:
            for line in lines:
                self.show(line)
            answer = self.ask(title, again=lines).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            self.show(type_a_number(len(labels)))

    def pause(self, text: str) -> None:
        click.prompt(text, default="", show_default=False, prompt_suffix=" ")

    def clear(self) -> None:
        """Clear the screen, and the scrollback with it: in hot seat nothing of
        the last player's turn may be left to scroll back to."""
        if self.interactive:
            click.echo(CLEAR_ALL, nl=False)
            sys.stdout.flush()
        else:
            self.show("\n" * 3)

    @contextmanager
    def private_screen(self) -> Iterator[None]:
        """Play on the terminal's alternate screen, which keeps no scrollback,
        and come back to the ordinary screen afterwards (on Ctrl-C too)."""
        if not self.interactive or self._private:
            yield
            return
        click.echo(ALTERNATE_SCREEN + CLEAR_ALL, nl=False)
        self._private = True
        try:
            yield
        finally:
            self._private = False
            click.echo(CLEAR_ALL + MAIN_SCREEN, nl=False)
            sys.stdout.flush()
