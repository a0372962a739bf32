"""People at terminals: the host at the serving terminal, and ``cardcli join`` players' prompts.

Both use the variant's own dialogue (:func:`cardcli.words.prompts.human_turn`), exactly as
``cardcli play`` does, run in a thread so the event loop keeps serving the
other clients while a person thinks.  The host's dialogue talks to the real
terminal; a remote player's talks to a :class:`RemoteUI`, which sends each
question over the connection and waits for the answer.
"""

from __future__ import annotations

import asyncio
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import click

from ..contract.variant import Action
from ..kit.language import core as _
from ..terminal.session import hint_text as session_hint
from ..terminal.session import show_turn
from ..terminal.style import Style
from ..terminal.ui import TerminalUI
from ..words.prompts import human_turn
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
    """The hard CPU's view of ``seat``'s options, from its seat only (as
    ``cardcli play``'s ``?``): searched once per decision (:meth:`Table.hint`)."""
    game = table.game
    assert game is not None
    state = game.state
    return table.hint(seat, lambda: session_hint(game, state, seat, legal, menu))


class HostUI(TerminalUI):
    """The serving terminal's :class:`TerminalUI`.

    The host's lines are read by one reader thread, so a question the table
    asks ("let a CPU play for ann?") can be withdrawn when its reason goes
    away (ann is back), and the terminal is free for the host's next turn.
    It knows the question on screen, so a notice that arrives meanwhile
    ("ann joined") is printed on a line of its own and the question asked
    again below it.  A line that ``commands`` takes (``links`` during a
    game, at the host's prompt or with nothing asked) is a command to the
    table, never an answer.
    """

    def __init__(self, colour: bool | None = None, *, style: Style | None = None):
        super().__init__(colour, style=style)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.asking: str | None = None  # the question on screen, as shown
        #: Takes a line typed at any time as a command to the table (it returns
        #: True if it did); not while the between-games prompt reads commands itself.
        self.commands: Callable[[str], bool] | None = None
        self.command_prompt = False
        self._reading = False

    def start_reading(self) -> None:
        """Read the host's lines from now on (commands are taken at any time)."""
        self._start_reading()

    def _start_reading(self) -> None:
        if self._reading:
            return
        self._reading = True

        def read() -> None:
            for line in sys.stdin or ():
                line = line.rstrip("\r\n")
                taker = self.commands
                if taker is not None and not self.command_prompt and taker(line):
                    continue
                self.lines.put(line)
            self.lines.put(None)

        threading.Thread(target=read, daemon=True).start()

    def read_line(self, shown: str, withdrawn: threading.Event | None = None) -> str | None:
        """Show ``shown`` and wait for a line typed at the terminal (``None``
        if ``withdrawn`` is set first; end of input raises ``click.Abort``)."""
        self._start_reading()
        self.asking = shown
        click.echo(shown, nl=False)
        try:
            while True:
                try:
                    line = self.lines.get(timeout=0.1)
                except queue.Empty:
                    if withdrawn is not None and withdrawn.is_set():
                        return None
                    continue
                if line is None:
                    click.echo("")
                    raise click.Abort
                return line
        finally:
            self.asking = None

    def read(self, prompt: str, default: str | None = None) -> str:
        shown = self.style.text(prompt) + (f" [{default}]" if default is not None else "") + "> "
        line = self.read_line(shown) or ""
        return line if line.strip() or default is None else default

    def pause(self, text: str) -> None:
        self.read_line(text + " ")


class HostConsole:
    """The serving terminal: events as they happen, the host's turns, the host's questions.

    Attached to the host's seat as its client, so it is told every event in
    the host's own words; it shows them, and the host's table at the host's
    turn, as ``cardcli play`` does (the same header, styles and dialogue).
    One lock keeps the prompts from interleaving.
    """

    prompts = False
    tables = False  # it draws the host's table itself, at the host's turn

    def __init__(self, ui: HostUI | None = None):
        self.ui = ui or HostUI()
        self.lock = threading.Lock()
        self.played: list[str] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.run_command: Callable[[str], object] | None = None

    def take_commands(self, run: Callable[[str], object], words: set[str], asked: set[str],
                      playing: Callable[[], bool]) -> None:
        """From now on, while ``playing()`` (a game is on), a line whose first
        word is one of ``words``, typed while nothing is asked, or one of
        ``asked`` at the host's turn or a question, runs ``run(line)`` on the
        event loop (``links`` shows the invites again); between games the
        lobby's prompt reads every line itself.  Reading starts now."""
        self.loop = asyncio.get_running_loop()
        self.run_command = run

        def takes(line: str) -> bool:
            word = (line.split() or [""])[0].lower()
            if word not in (asked if self.ui.asking is not None else words) or not playing():
                return False
            loop = self.loop
            if loop is None or loop.is_closed():
                return False
            loop.call_soon_threadsafe(self._command, line)
            return True

        self.ui.commands = takes
        self.ui.start_reading()

    def _command(self, line: str) -> None:
        """A command typed during a game: its lines, then the question on screen again."""
        assert self.run_command is not None
        self.run_command(line)
        asking = self.ui.asking
        if asking is not None:
            click.echo(asking, nl=False)

    def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "update":
            self.played = list(message.get("played") or [])
            for line in message["events"]:
                self.ui.show("  " + line, played=self.played)
            if message.get("round_end"):
                self.ui.show("")
                self.ui.show(message["round_end"])

    def close(self, reason: str) -> None:
        pass

    def notice(self, text: str) -> None:
        """A line about the table (someone joined or left), never inside a
        question.  Shown once the event loop has run what is already due, so
        a question withdrawn just before is gone from the screen first."""
        try:
            asyncio.get_running_loop().call_soon(self._notice, text)
        except RuntimeError:  # no event loop: now
            self._notice(text)

    def _notice(self, text: str) -> None:
        asking = self.ui.asking
        if asking is not None:
            click.echo("")
        self.ui.show(f"* {text}")
        if asking is not None:
            click.echo(asking, nl=False)

    async def command(self, prompt: str, withdrawn: threading.Event) -> str | None:
        """A line the host types at ``prompt`` (between games), or ``None``
        once ``withdrawn`` is set; end of input raises ``click.Abort``."""

        def ask() -> str | None:
            with self.lock:
                self.ui.command_prompt = True  # this prompt reads the commands itself
                try:
                    return self.ui.read_line(prompt, withdrawn)
                finally:
                    self.ui.command_prompt = False

        try:
            return await in_thread(ask)
        except asyncio.CancelledError:
            withdrawn.set()
            raise

    def withdraw(self) -> None:
        """The line being asked for is no longer wanted: end it on screen."""
        if self.ui.asking is not None:
            self.ui.asking = None
            click.echo("")

    async def turn(self, table: Table, seat: int, legal: list[Action]) -> Action:
        """The host's decision, with the table and prompts of ``cardcli play``."""
        game = table.game
        assert game is not None
        state = game.state
        names = table.names[seat]
        name = names[seat]
        hints = table.hints

        def ask() -> Action:
            with self.lock:
                ui = self.ui
                show_turn(ui, table.header, game.variant.render(state, viewer=seat, names=names), name,
                          self.played, hints)
                ui.menu = {}
                if hints:
                    ui.hint = lambda: hint_text(table, seat, legal, ui.menu)
                try:
                    return human_turn(game.variant, state, seat, legal, ui)
                finally:
                    ui.hint = None

        return await in_thread(ask)

    async def question(self, text: str) -> bool:
        """A yes/no question to the host (no by default).  Withdrawn, and
        taken as no, when the table stops waiting for the answer."""
        withdrawn = threading.Event()

        def ask() -> bool:
            with self.lock:
                while True:
                    answer = self.ui.read_line(f"{text} [y/N]: ", withdrawn)
                    if answer is None:
                        return False
                    said = answer.strip().lower()
                    if said in ("y", "yes", "n", "no", ""):
                        return said in ("y", "yes")
                    click.echo(_("Type y or n."))

        try:
            return bool(await in_thread(ask))
        except asyncio.CancelledError:
            withdrawn.set()
            if self.ui.asking is not None:
                self.ui.asking = None
                click.echo("")  # the question's line ends here
            raise


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

    def ask(self, prompt: str, default: str | None = None, *, again: Sequence[str] = ()) -> str:
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
                self.lines.extend(again)  # the hand and the choices again, below the hint
                continue
            return value

    def pause(self, text: str) -> None:
        pass

    def clear(self) -> None:
        pass


def remote_dialogue(table: Table, seat: int, legal: list[Action], client: Client) -> Prompting:
    """Start the variant's dialogue for a ``cardcli join`` client in a thread."""
    loop = asyncio.get_running_loop()
    game = table.game
    assert game is not None
    state = game.state

    def send(message: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(client.send, message)

    ui = RemoteUI(send)
    if table.hints:
        ui.hint = lambda: hint_text(table, seat, legal, ui.menu)

    def run() -> None:
        try:
            action = human_turn(game.variant, state, seat, legal, ui)
        except Cancelled:
            return
        loop.call_soon_threadsafe(table.decided_by_dialogue, seat, action)

    threading.Thread(target=run, daemon=True).start()
    return Prompting(seat, client, answer=lambda number, text: ui.answers.put((number, text)),
                     cancel=lambda: ui.answers.put(_CANCEL))
