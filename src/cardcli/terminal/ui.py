"""Talking to a person at the terminal: :class:`TerminalUI`, the terminal's
:class:`cardcli.contract.variant.UI`.

A dialogue calls ``show`` for lines, ``ask`` for an answer, ``choose`` for a
numbered menu and, where its menu is its own, ``offer`` to say which key
picks which legal action (the hint then numbers its lines the same way).  Text goes through the terminal's
:class:`~cardcli.terminal.style.Style` as it is shown, so dialogues write cards in the
plain notation and still get symbols and colour.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import click

from ..kit.fit import terminal_size, via_pager, wrap
from ..kit.grammar import type_a_number
from .style import PLAIN, Style

#: The rows of a hint that lists ten moves and more (its title, the moves,
#: "... and N more", the two lines of its scale): under that, a hint may be
#: cut short.
FULL_HINT = 14
#: Enter the alternate screen, leave it; clear the screen and the scrollback.
ALTERNATE_SCREEN = "\x1b[?1049h"
MAIN_SCREEN = "\x1b[?1049l"
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


@dataclass
class Part:
    """A part of a screen shown in parts (:meth:`TerminalUI.show_parts`): what
    waits for Enter before it where it would not fit, its lines (cards styled,
    the ``played`` ones standing out), lines shown as they are (a path)."""

    pause: str
    lines: Sequence[str]
    played: Collection[str] = ()
    plain: Sequence[str] = ()
    #: On one screen with the next part where both fit.
    with_next: bool = False


class TerminalUI:
    """Prompts through Click, so tests drive it with ``CliRunner`` input.

    End of input (a closed terminal) raises ``click.Abort``, which the play
    command turns into "game saved, resume with ...".
    """

    HINT_WORDS = ("?", "hint")
    #: Typed at a decision, these stop the game as Ctrl-C does (it is saved, to be continued).
    QUIT_WORDS = ("quit", "exit", "終了")

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
        #: How many moves the hint may list (set just before it is asked for:
        #: as many as fit on the screen under the table), ``None``: no limit.
        self.hint_room: int | None = None
        #: Set when the table just drawn shows the hand of the player asked:
        #: the dialogue's own hand line is then left out of the menu below it.
        self.hand_on_screen = False
        # The table of the turn on screen (``show_table``): how to draw it
        # again, the rows it takes, and the rows written since its first.
        self._table: Callable[[], None] | None = None
        self._table_rows = 0
        self._written: int | None = None
        self._hand_in_table = False

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
        lines = wrap(self.style.text(text, bold=bold, played=played), self.width)
        self._wrote(len(lines))
        click.echo("\n".join(lines))

    # ------------------------------------------------- the table in view
    def show_table(self, draw: Callable[[], None], *, hand: bool = False) -> None:
        """Draw the table of a person's turn with ``draw`` (lines through
        :meth:`show`), and keep it in view: when a hint or typed answers
        would push its top off the screen, it is drawn again
        (:meth:`keep_in_view`).  ``hand``: the table shows the hand of the
        player asked."""
        self._written = 0
        draw()
        self._table, self._table_rows = draw, self._written
        self.hand_on_screen = hand
        self._hand_in_table = hand

    def forget_table(self) -> None:
        """The turn is over: no table to keep in view."""
        self._table = None
        self._written = None
        self.hand_on_screen = False

    def rows_left(self) -> int | None:
        """The rows that can still be written before the top of the table
        scrolls off the screen (``None``: no table is kept in view)."""
        if self._table is None or self._written is None or not self.interactive:
            return None
        return self.rows - self._written

    def keep_in_view(self, rows: int) -> bool:
        """Before ``rows`` more rows: where they would push the top of the
        table off the screen, draw it again; whether it was drawn."""
        left = self.rows_left()
        if left is None or rows <= left or self._table_rows + rows > self.rows:
            return False
        self._draw_again()
        return True

    def page_long(self, text: str, below: int = 1) -> bool:
        """Where ``text`` and ``below`` rows more would not fit on the screen
        under the table (``list`` of a busy hand), show it through Click's
        pager instead, which gives the screen back as it was when it is
        left; whether it did (only at a terminal)."""
        if not self.interactive:
            return False
        room = self.rows - (self._table_rows if self._table is not None else 0)
        if self.rows_for(text.split("\n")) + below <= room:
            return False
        # (colour: let Click tell less to show it, where the reader has not set LESS)
        via_pager(self.style.text(text), color=None if self.colour else False)
        return True

    def show_parts(self, parts: Sequence[Part]) -> None:
        """Parts of one screen (the end of a game), each whole on the screen
        at a terminal: before a part that would push what is on the screen
        since the last pause off it, its ``pause`` waits for Enter; a part
        taller than the screen is first shown in the pager, from its start,
        then printed (so it is in the scrollback too).  Elsewhere,
        everything as it comes."""
        used = 0
        room = self.rows - 1  # the last row: the next prompt
        sizes = [self.rows_for([*part.lines, *part.plain]) for part in parts]
        for index, part in enumerate(parts):
            styled = [self.style.text(line, played=part.played) for line in part.lines]
            text = [*styled, *part.plain]
            if not text:
                continue
            rows = sizes[index]
            # A part kept with the next: a pause before it rather than between them, where they fit together.
            together = rows + sizes[index + 1] if part.with_next and index + 1 < len(parts) else rows
            need = together if together <= room else rows
            if self.interactive and used and used + need > room:
                self.pause(part.pause)
                used = 0
            if self.interactive and rows > room:
                via_pager("\n".join(text).strip("\n"), color=None if self.colour else False)
            for line in styled:
                click.echo("\n".join(wrap(line, self.width)))
            for line in part.plain:
                click.echo(line)
            used += rows

    def _draw_again(self) -> None:
        assert self._table is not None
        self.show_table(self._table, hand=self._hand_in_table)

    def _wrote(self, rows: int) -> None:
        if self._written is not None:
            self._written += rows

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
        self._wrote(len(above) + 1)
        return str(click.prompt(last, default=default if default is not None else "",
                                show_default=default is not None, prompt_suffix="> "))

    def ask(self, prompt: str, default: str | None = None, *, again: Sequence[str] = ()) -> str:
        """An answer to ``prompt``.  ``?`` (or ``hint``) during a decision
        shows the hint instead, then ``again`` (the hand and the choices,
        never the table, so the hint stays on the screen) and asks again."""
        while True:
            value = self.read(prompt, default)
            if value.strip().lower() in self.QUIT_WORDS:
                raise click.Abort
            if self.hint is not None and value.strip().lower() in self.HINT_WORDS:
                self.show_hint(self.hint, again, prompt)
                continue
            return value

    def show_hint(self, hint: Callable[[], str], again: Sequence[str], prompt: str) -> None:
        """The hint, then ``again``, sized to fit on the screen with the table
        above them: where the rows left under the table would cut the hint
        short, the table is drawn again first and the hint lists as many
        moves as fit under it (``hint_room``)."""
        below = self.rows_for([*again, prompt])
        left = self.rows_left()
        if left is not None:
            if left - below < FULL_HINT and self._table_rows < self.rows - left:
                self._draw_again()  # more room under a table drawn afresh
                left = self.rows - self._table_rows
            self.hint_room = max(0, left - below)
        try:
            text = hint()
        finally:
            self.hint_room = None
        self.show(text)
        for line in again:
            self.show(line)

    def rows_for(self, lines: Sequence[str]) -> int:
        """The rows ``lines`` take on this terminal, wrapped."""
        return sum(len(wrap(self.style.text(line), self.width)) for line in lines)

    def choose(self, title: str, labels: Sequence[str], *, legal: Sequence[Any] | None = None,
               **_: Any) -> int:
        """A numbered menu; the index of the label chosen.  With ``legal``
        (one action per label) the hint numbers its lines the same way."""
        if legal is not None and len(legal) == len(labels):
            self.offer({action: str(number) for number, action in enumerate(legal, start=1)})
        lines = [f"  [{number}] {label}" for number, label in enumerate(labels, start=1)]
        for line in lines:
            self.show(line)
        while True:
            answer = self.ask(title, again=lines).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            said = type_a_number(len(labels))
            if self.keep_in_view(self.rows_for([*lines, said, title])):
                for line in lines:  # under the table drawn again
                    self.show(line)
            self.show(said)

    def pause(self, text: str) -> None:
        self._wrote(1)
        click.prompt(text, default="", show_default=False, prompt_suffix=" ")

    def clear(self) -> None:
        """Clear the screen, and the scrollback with it: in hot seat nothing of
        the last player's turn may be left to scroll back to."""
        if self.interactive:
            click.echo(CLEAR_ALL, nl=False)
            sys.stdout.flush()
        else:
            self.show("\n" * 3)
        self.forget_table()

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
