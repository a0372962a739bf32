"""Talking to a person at the terminal: the small surface variants' dialogues use."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import click


class TerminalUI:
    """Prompts through Click, so tests drive it with ``CliRunner`` input.

    End of input (a closed terminal) raises ``click.Abort``, which the play
    command turns into "game saved, resume with ...".
    """

    HINT_WORDS = ("?", "hint")

    def __init__(self, colour: bool | None = None):
        # sys.stdin is None when standard input is closed (``cardcli play <&-``).
        self.interactive = bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())
        self.colour = self.interactive if colour is None else colour
        #: Set by the game loop during a human's decision: typing ``?`` or
        #: ``hint`` at any prompt shows it, then asks again.
        self.hint: Callable[[], str] | None = None
        self._since_prompt: list[str] = []

    def show(self, text: str = "") -> None:
        click.echo(text)
        self._since_prompt.append(text)

    def ask(self, prompt: str, default: str | None = None) -> str:
        while True:
            value = str(click.prompt(prompt, default=default if default is not None else "",
                                     show_default=default is not None, prompt_suffix="> "))
            menu, self._since_prompt = self._since_prompt, []
            if self.hint is not None and value.strip().lower() in self.HINT_WORDS:
                click.echo(self.hint())
                for line in menu[-3:]:  # the hand and the choices again, below the hint
                    self.show(line)
                continue
            return value

    def choose(self, title: str, labels: Sequence[str], **_: Any) -> int:
        while True:
            for number, label in enumerate(labels, start=1):
                self.show(f"  [{number}] {label}")
            answer = self.ask(title).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            self.show(f"Type a number from 1 to {len(labels)}.")

    def pause(self, text: str) -> None:
        click.prompt(text, default="", show_default=False, prompt_suffix=" ")

    def clear(self) -> None:
        if self.interactive:
            click.clear()
        else:
            self.show("\n" * 3)
