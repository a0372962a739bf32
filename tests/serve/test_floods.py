"""One link holder cannot flood the table or the host's terminal, at a real
table on 127.0.0.1 with real WebSocket clients: the message count outlasts a
reconnection, reopening the seat in a loop is refused after a few times,
repeated "play again" and "name" messages say nothing more, and a seat's
hint searches never run side by side."""

from __future__ import annotations

import asyncio
import threading
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardcli.serve.protocol import PROTOCOL
from cardcli.serve.table import BURST, REJOIN_BURST

from .helpers import LIMIT, Bot, evening_served, make_game, served, until


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


async def _hello(port: int, token: str, **extra) -> Bot:
    bot = Bot(port, token, play=False)
    bot.socket = await connect(bot.url)
    await bot.send({"type": "hello", "protocol": PROTOCOL, "token": token, **extra})
    return bot


async def _closed(bot: Bot) -> str:
    """Read until the server closes ``bot``; the close reason."""
    try:
        while True:
            await bot.next(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.reason if closed.rcvd is not None else ""


def test_reconnecting_in_a_loop_neither_resets_the_count_nor_fills_the_hosts_terminal(tmp_path):
    kinds = ["friend", "cpu"]
    notices: list[str] = []

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds, notices) as (table, port, task):
            token = table.seats[0].token
            # The message count is the link's: a connection that used its burst and
            # reconnects goes on from where it was.
            first = await Bot(port, token, play=False).open()
            await first.next("welcome")
            for _ in range(BURST - 2):
                await first.send({"type": "ping"})
            for _ in range(BURST - 2):
                await first.next("pong")
            await first.close()
            second = await Bot(port, token, play=False).open()
            for _ in range(10):
                await second.send({"type": "ping"})
            reason = await _closed(second)
            too_fast = [e for e in second.errors() if e["code"] == "too-fast"]
            # Reopening the seat in a loop, as fast as the client can, for 3 seconds.
            notices.clear()
            refused = opened = 0
            started = time.monotonic()
            while time.monotonic() - started < 3:
                bot = await Bot(port, token, play=False).open()
                message = await bot.next()
                if message["type"] == "error":
                    refused += 1
                else:
                    opened += 1
                await bot.close()
            await until(lambda: table.seats[0].client is None, "the last connection is gone")
            assert not task.done()
            return reason, too_fast, refused, opened, list(notices)

    reason, too_fast, refused, opened, said = run(scenario())
    assert too_fast and reason == "too many messages"
    assert opened <= REJOIN_BURST + 1 and refused > opened, (opened, refused)
    assert len(said) <= 2 * (REJOIN_BURST + 1), said  # a "joined"/"left" line per opening at most


def test_saying_play_again_or_a_name_twice_prints_nothing_more(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=3)
        said: list[str] = []
        async with evening_served(game, kinds, record, said) as (table, _lobby, port, _task):
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            await ann.send({"type": "name", "name": "Ann"})
            await until(lambda: table.seats[0].name == "Ann", "ann is named")
            for name in ("Anne", "Ann", "Anne"):
                await ann.send({"type": "name", "name": name})
            await asyncio.gather(ann.until_games(1), bob.until_games(1))
            said.clear()
            for _ in range(12):
                await ann.send({"type": "again"})
            await until(lambda: table.seats[0].ready, "ann is ready")
            await ann.send({"type": "ping"})
            await ann.next("pong")
            return said, [e for e in ann.errors() if e["code"] == "named"], table.seats[0].name

    said, named, name = run(scenario())
    assert said == ["Ann says: play again"]
    assert len(named) == 3 and "chosen once" in named[0]["message"] and name == "Ann"


def test_one_hint_search_per_seat_at_a_time_however_often_the_seat_reconnects(tmp_path, monkeypatch):
    """A cardcli join player asks for a hint, drops and reconnects, asks
    again, three times: the hard CPU's search for that seat runs once at a time."""
    import cardcli.serve.console as console

    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]
    running, most = [0], [0]
    lock = threading.Lock()
    real = console.session_hint

    def counted(*args, **kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(console, "session_hint", counted)

    async def scenario():
        game = make_game("trick", kinds, record, seed=3, ruleset="trick-five-cards")
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task):
            table.dialogue = console.remote_dialogue
            token = table.seats[0].token
            for _ in range(3):
                bot = await _hello(port, token, prompts=True)
                prompt = await bot.next("prompt")
                await bot.send({"type": "answer", "prompt": prompt["prompt"], "text": "?"})
                await asyncio.sleep(0.05)
                await bot.close()
            last = await _hello(port, token, prompts=True)
            prompt = await last.next("prompt")
            await last.send({"type": "answer", "prompt": prompt["prompt"], "text": "?"})
            hinted = await last.next("prompt")
            await until(lambda: running[0] == 0, "every search is over")
            return hinted["lines"]

    lines = run(scenario())
    assert most[0] == 1
    assert any(line.startswith("Hint - the hard CPU's view") for line in lines)
