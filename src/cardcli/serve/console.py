"""People at terminals: the host at the serving terminal, and ``cardcli join`` players' prompts.

Both use the variant's own dialogue (``Variant.human_turn``), exactly as
``cardcli play`` does, run in a thread so the event loop keeps serving the
other clients while a person thinks.  The host's dialogue talks to the real
terminal; a remote player's talks to a :class:`RemoteUI`, which sends each
question over the connection and waits for the answer.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

import click

from ..players.hard import supports_hard
from ..session import hint_text as session_hint
from ..ui import TerminalUI
from ..variant import Action
from .table import Client, Prompting, Table


def in_thread(function: Callable[[], Any]) -> asyncio.Future[Any]:
    """Run ``function`` in a daemon thread (a person may never answer: a
    daemon thread does not keep the server from exiting); await its result."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def run() -> None:
        try:
            value = function()
        except BaseException as problem:  # handed to the awaiting coroutine
            loop.call_soon_threadsafe(_settle, future, None, problem)
        else:
            loop.call_soon_threadsafe(_settle, future, value, None)

    threading.Thread(target=run, daemon=True).start()
    return future


def _settle(future: asyncio.Future[Any], value: Any, problem: BaseException | None) -> None:
    if future.done():
        return
    if problem is not None:
        future.set_exception(problem)
    else:
        future.set_result(value)


def hint_text(table: Table, seat: int, legal: list[Action], menu: dict[Action, str] | None = None) -> str:
    """The hard CPU's view of ``seat``'s options, from its seat only (as ``cardcli play``'s ``?``)."""
    return session_hint(table.game, table.game.state, seat, legal, menu)


class HostConsole:
    """The serving terminal: events as they happen, the host's turns, the host's questions.

    Attached to the host's seat as its client, so it is told every event in
    the host's own words; one lock keeps the prompts from interleaving.
    """

    prompts = False
    tables = False  # it draws the host's table itself, at the host's turn

    def __init__(self, ui: TerminalUI | None = None):
        self.ui = ui or TerminalUI()
        self.lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "update":
            for line in message["events"]:
                click.echo("  " + line)

    def close(self, reason: str) -> None:
        pass

    async def turn(self, table: Table, seat: int, legal: list[Action]) -> Action:
        """The host's decision, with the table and prompts of ``cardcli play``."""
        state = table.game.state
        name = table.game.names[seat]
        hints = supports_hard(table.game.variant, state)

        def ask() -> Action:
            with self.lock:
                ui = self.ui
                ui.show("")
                ui.show(table.game.variant.render(state, viewer=seat, names=table.game.names))
                ui.show(f"{name}, it is your turn." + (" (Type ? for a hint.)" if hints else ""))
                ui.menu = {}
                if hints:
                    ui.hint = lambda: hint_text(table, seat, legal, ui.menu)
                try:
                    return table.game.variant.human_turn(state, seat, legal, ui)
                finally:
                    ui.hint = None

        return await in_thread(ask)

    async def question(self, text: str) -> bool:
        def ask() -> bool:
            with self.lock:
                return click.confirm(text, default=False)

        return bool(await in_thread(ask))


class Cancelled(Exception):
    """The dialogue's client went away or its turn was decided otherwise."""


_CANCEL = object()


class RemoteUI(TerminalUI):
    """The :class:`TerminalUI` surface, over a connection: ``show`` gathers
    lines, ``ask`` sends them with the question and waits for the answer."""

    def __init__(self, send: Callable[[dict[str, Any]], None]):
        super().__init__(colour=False)
        self.interactive = False
        self.send = send
        self.answers: queue.Queue[Any] = queue.Queue()
        self.lines: list[str] = []
        self.number = 0

    def show(self, text: str = "", **_: Any) -> None:
        self.lines.extend(str(text).split("\n"))

    def ask(self, prompt: str, default: str | None = None) -> str:
        while True:
            self.number += 1
            self.send({"type": "prompt", "prompt": self.number, "lines": self.lines, "question": prompt})
            self.lines = []
            while True:
                answer = self.answers.get()
                if answer is _CANCEL:
                    raise Cancelled
                number, text = answer
                if number == self.number:
                    break
            value = text if text.strip() or default is None else default
            if self.hint is not None and value.strip().lower() in self.HINT_WORDS:
                self.show(self.hint())
                continue
            return value

    def pause(self, text: str) -> None:
        pass

    def clear(self) -> None:
        pass


def remote_dialogue(table: Table, seat: int, legal: list[Action], client: Client) -> Prompting:
    """Start the variant's dialogue for a ``cardcli join`` client in a thread."""
    loop = asyncio.get_running_loop()
    state = table.game.state

    def send(message: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(client.send, message)

    ui = RemoteUI(send)
    if supports_hard(table.game.variant, state):
        ui.hint = lambda: hint_text(table, seat, legal, ui.menu)

    def run() -> None:
        try:
            action = table.game.variant.human_turn(state, seat, legal, ui)
        except Cancelled:
            return
        loop.call_soon_threadsafe(table.decided_by_dialogue, seat, action)

    threading.Thread(target=run, daemon=True).start()
    return Prompting(seat, client, answer=lambda number, text: ui.answers.put((number, text)),
                     cancel=lambda: ui.answers.put(_CANCEL))
