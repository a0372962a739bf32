"""A real table on 127.0.0.1 and real WebSocket clients for the serve tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardcli.engine.game import Game, choose_dealer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.record_format import RecordWriter, SeatInfo
from cardcli.serve.lobby import Lobby
from cardcli.serve.protocol import PROTOCOL
from cardcli.serve.server import TableServer
from cardcli.serve.table import Table, TableOptions

#: Seconds any one test waits for a table before it fails.
LIMIT = 60


def make_game(variant: str, kinds: list[str], record: Path, seed: int = 1, ruleset: str | None = None,
              level: str = "normal") -> Game:
    target = get_registry().get(variant)
    rules = load_ruleset(ruleset or f"{variant}-standard", get_registry(), variant, len(kinds)).options
    seats = []
    for index, kind in enumerate(kinds):
        seats.append(SeatInfo(f"cpu{index}", f"cpu:{level}") if kind == "cpu" else SeatInfo(f"p{index}"))
    writer = RecordWriter.open(str(record))
    return Game(target, rules, seats, choose_dealer(seed, len(seats)), seed=seed, writer=writer)


async def until(condition: Callable[[], Any], what: str) -> None:
    """Wait until ``condition()`` holds (the server's loop runs meanwhile)."""
    for _ in range(LIMIT * 100):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@contextlib.asynccontextmanager
async def served(game: Game, kinds: list[str], notices: list[str] | None = None, page_language: str = "host",
                 **options: Any) -> AsyncIterator[tuple[Table, int, asyncio.Task]]:
    """A table serving ``game`` on a free port, its game running (what it
    would tell the host is added to ``notices``), its pages in the language
    ``cardcli serve --page-language PAGE_LANGUAGE`` chooses."""
    table = Table.for_game(game, kinds, options=TableOptions(**options),
                           notice=None if notices is None else notices.append)
    server = TableServer(page_language)
    server.add(table)
    port = await server.start("127.0.0.1", 0)
    task = asyncio.ensure_future(table.play())
    try:
        yield table, port, task
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await server.stop()
        if game.writer is not None:
            game.writer.close()


class Bot:
    """A client that plays a random legal move whenever it is its turn, and keeps every message."""

    def __init__(self, port: int, token: str, seed: int = 0, play: bool = True, again: int = 0):
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.token = token
        self.rng = random.Random(seed)
        self.play = play
        #: How many more times to say "play again" between games.
        self.again = again
        self.messages: list[dict[str, Any]] = []
        self.socket: ClientConnection | None = None
        self.over: dict[str, Any] | None = None
        self.overs: list[dict[str, Any]] = []
        self._said_for = -1  # the game after which "play again" was said

    async def open(self) -> Bot:
        self.socket = await connect(self.url, max_size=None)
        await self.send({"type": "hello", "protocol": PROTOCOL, "token": self.token})
        return self

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        assert self.socket is not None
        await self.socket.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def next(self, kind: str | None = None, timeout: float = LIMIT) -> dict[str, Any]:
        """The next message (of ``kind``), playing on the way if this bot plays."""
        assert self.socket is not None
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
            self.messages.append(message)
            if message["type"] == "over":
                self.over = message
                self.overs.append(message)
            if message["type"] == "welcome" and not message["between"]:
                self.over = None
            if self.play and message["type"] == "update" and message["moves"]:
                await self.move(message)
            if message["type"] == "evening" and self.again > 0 and self._said_for != message["game"]:
                self._said_for = message["game"]
                self.again -= 1
                await self.send({"type": "again"})
            if kind is None or message["type"] == kind:
                return message

    async def move(self, update: dict[str, Any]) -> None:
        choice = self.rng.randrange(len(update["moves"]))
        await self.send({"type": "move", "turn": update["turn"], "move": choice})

    async def until_games(self, count: int) -> list[dict[str, Any]]:
        """Play (saying play again between games) until ``count`` games have ended here."""
        while len(self.overs) < count:
            await self.next()
        return self.overs

    async def until_over(self) -> dict[str, Any]:
        with contextlib.suppress(ConnectionClosed):
            while self.over is None:
                await self.next()
        assert self.over is not None
        return self.over

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "update"]

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


def play_until(game: Game, condition: Callable[[Any], bool], seat: int = 0, limit: int = 3000) -> bool:
    """Play every seat of ``game`` with an easy CPU (the record written as
    ever) until ``condition(state)`` holds at a decision of ``seat``; then
    every seat is external again, for the clients.  ``False`` if the game
    ended (or ``limit`` events passed) first."""
    from cardcli.cpu.players import make_cpu

    count = game.state.num_players
    game.players = [make_cpu(game.variant, "easy", game.seed or 0, s) for s in range(count)]
    try:
        for _ in range(limit):
            state = game.state
            if state.current_player() == seat and condition(state):
                return True
            if state.is_terminal():
                return False
            game.step()
        return False
    finally:
        game.players = [None] * count


def game_where(variant: str, kinds: list[str], record: Path, condition: Callable[[Any], bool],
               ruleset: str | None = None, seeds: range = range(1, 300)) -> Game:
    """A game played (by CPUs, recorded) up to a decision of seat 0 where
    ``condition`` holds: the first seed that gets there."""
    for seed in seeds:
        if record.exists():
            record.unlink()
        game = make_game(variant, kinds, record, seed=seed, ruleset=ruleset)
        if play_until(game, condition):
            return game
        assert game.writer is not None
        game.writer.close()
    raise AssertionError(f"no seed in {seeds} reaches the position")


@contextlib.asynccontextmanager
async def evening_served(game: Game, kinds: list[str], record: Path, said: list[str] | None = None,
                         again: str = "all", servers: list[TableServer] | None = None,
                         **options: Any) -> AsyncIterator[tuple[Table, Lobby, int, asyncio.Task]]:
    """An evening served on a free port, as ``cardcli serve`` serves it when
    its terminal cannot be typed at: game after game, each next one starting
    when every person has said play again.  The lobby's lines go to ``said``;
    ``lobby.run`` types the host's commands.  The task ends with ``quit``.
    The server is added to ``servers`` (a test may stop it)."""
    from cardcli.engine.plugins import get_registry as registry
    from cardcli.serve.evening import Evening
    from cardcli.serve.links import TableFile, table_file
    from cardcli.serve.lobby import play_evening

    said = said if said is not None else []
    table = Table.for_game(game, kinds, options=TableOptions(**options), notice=said.append)
    evening = Evening(record, game.variant, game.rules, game.ruleset, game.seed or 0, again=again)
    table.evening = evening
    evening.begin(game, table, record)
    server = TableServer()
    server.add(table)
    port = await server.start("127.0.0.1", 0)
    if servers is not None:
        servers.append(server)

    def save() -> None:
        TableFile([s.kind for s in table.seats], table.tokens(), "127.0.0.1", port, False, {},
                  evening.as_dict(table)).save(table_file(record))

    lobby = Lobby(table, evening, say=said.append, invite=lambda seat: said.append(f"invite {seat.token}"),
                  saved=save, registry=registry())
    save()
    task = asyncio.ensure_future(play_evening(table, lobby, None, show=lambda text: None, host=None))
    try:
        yield table, lobby, port, task
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        table.close()
        await server.stop()
        if table.game is not None and table.game.writer is not None:
            table.game.writer.close()
