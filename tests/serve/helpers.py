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

from cardcli.game import Game, choose_dealer
from cardcli.plugins import get_registry
from cardcli.records import RecordWriter, SeatInfo
from cardcli.rulesets import load_ruleset
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
async def served(game: Game, kinds: list[str], notices: list[str] | None = None,
                 **options: Any) -> AsyncIterator[tuple[Table, int, asyncio.Task]]:
    """A table serving ``game`` on a free port, its game running (what it
    would tell the host is added to ``notices``)."""
    table = Table.for_game(game, kinds, options=TableOptions(**options),
                           notice=None if notices is None else notices.append)
    server = TableServer()
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

    def __init__(self, port: int, token: str, seed: int = 0, play: bool = True):
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.token = token
        self.rng = random.Random(seed)
        self.play = play
        self.messages: list[dict[str, Any]] = []
        self.socket: ClientConnection | None = None
        self.over: dict[str, Any] | None = None

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
            if self.play and message["type"] == "update" and message["moves"]:
                await self.move(message)
            if kind is None or message["type"] == kind:
                return message

    async def move(self, update: dict[str, Any]) -> None:
        choice = self.rng.randrange(len(update["moves"]))
        await self.send({"type": "move", "turn": update["turn"], "move": choice})

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
