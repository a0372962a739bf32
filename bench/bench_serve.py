"""How many tables one ``cardcli serve`` process holds: moves per second and move-to-seen latency.

One server process (``--server``, started by this script) serves ``--tables``
tables of matching Page One, each with two seats taken by WebSocket clients
and two CPU seats (``--level``), on 127.0.0.1.  This process runs every
client in one event loop; each plays a random legal move the moment its
update offers moves.  Measured:

* moves per second: every decision the server applied (clients' and CPUs'),
  over the wall time until every game is over;
* latency: from a client sending a move to the *other* client of its table
  receiving the update that includes it (the time until everyone at the table
  has seen it), as 50th and 95th percentiles.

The server and the clients share the machine's two cores (and the machine is
shared with other work): the figures are what one laptop-sized box does
with both sides on it.

    python bench/bench_serve.py                 # 50 tables
    python bench/bench_serve.py --tables 10 --games 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


async def serve_tables(count: int, level: str, games: int, folder: str) -> None:
    """The server side: ``count`` tables, each playing ``games`` games in turn."""
    from cardcli.game import Game, choose_dealer
    from cardcli.plugins import get_registry
    from cardcli.records import RecordWriter, SeatInfo
    from cardcli.rulesets import default_ruleset
    from cardcli.serve.server import TableServer
    from cardcli.serve.table import Table

    variant = get_registry().get("matching")
    rules = default_ruleset(variant).options
    server = TableServer()
    port = await server.start("127.0.0.1", 0)
    kinds = ["friend", "cpu", "friend", "cpu"]
    seats = [SeatInfo("a"), SeatInfo("cpu1", f"cpu:{level}"), SeatInfo("b"), SeatInfo("cpu2", f"cpu:{level}")]
    tables = []
    for number in range(count):
        tables.append([])
        for game_number in range(games):
            writer = RecordWriter.open(os.path.join(folder, f"t{number}-g{game_number}.jsonl"))
            seed = number * 1000 + game_number
            game = Game(variant, rules, seats, choose_dealer(seed, 4), seed=seed, writer=writer)
            tables[-1].append(Table(game, kinds))
    for series in tables:
        server.add(series[0])
    links = [[[t.seats[0].token, t.seats[2].token] for t in series] for series in tables]
    print(json.dumps({"port": port, "tokens": links}), flush=True)

    async def run(series: list) -> int:
        moves = 0
        for index, table in enumerate(series):
            if index:
                server.add(table)
            await table.play()
            moves += table.game.moves
            await asyncio.sleep(0.05)
            server.remove(table)
        return moves

    started = time.perf_counter()
    total = sum(await asyncio.gather(*(run(series) for series in tables)))
    print(json.dumps({"moves": total, "seconds": time.perf_counter() - started}), flush=True)
    await server.stop()


class Client:
    def __init__(self, port: int, tokens: list[str], seed: int, sent: dict, seen: list):
        self.port, self.tokens, self.rng = port, tokens, random.Random(seed)
        self.sent, self.seen = sent, seen

    async def play(self, table: int, seat: int) -> None:
        from websockets.asyncio.client import connect

        for game, token in enumerate(self.tokens):
            key = (table, game)
            async with connect(f"ws://127.0.0.1:{self.port}/ws", max_size=None) as socket:
                await socket.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
                async for frame in socket:
                    now = time.perf_counter()
                    message = json.loads(frame)
                    if message["type"] == "update":
                        # The first update past a move the other client sent: it has seen that move.
                        other = self.sent.get((key, 1 - seat))
                        if other is not None and message["event"] > other[0]:
                            self.seen.append(now - other[1])
                            del self.sent[(key, 1 - seat)]
                        if message["moves"]:
                            self.sent[(key, seat)] = (message["turn"], time.perf_counter())
                            await socket.send(json.dumps({"type": "move", "turn": message["turn"],
                                                          "move": self.rng.randrange(len(message["moves"]))}))
                    elif message["type"] == "over":
                        break
            # Wait for the next game's table to be served.
            await asyncio.sleep(0.2)


async def clients(port: int, links: list, seen: list) -> None:
    sent: dict = {}
    players = []
    for table, series in enumerate(links):
        for seat in (0, 1):
            tokens = [pair[seat] for pair in series]
            players.append(Client(port, tokens, table * 2 + seat, sent, seen).play(table, seat))
    await asyncio.gather(*players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--games", type=int, default=2, help="games each table plays, one after another")
    parser.add_argument("--level", default="normal", help="the CPUs' strength")
    parser.add_argument("--profile", metavar="FILE",
                        help="profile the server (cProfile) and write its stats to FILE")
    parser.add_argument("--server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.server:
        if args.profile:
            import cProfile

            with cProfile.Profile() as profile:
                asyncio.run(serve_tables(args.tables, args.level, args.games, args.folder))
            profile.dump_stats(args.profile)
        else:
            asyncio.run(serve_tables(args.tables, args.level, args.games, args.folder))
        return
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--server",
                                   "--tables", str(args.tables), "--games", str(args.games),
                                   "--level", args.level, "--folder", folder,
                                   *(["--profile", args.profile] if args.profile else [])],
                                  stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        hello = json.loads(server.stdout.readline())
        seen: list[float] = []
        started = time.perf_counter()
        asyncio.run(clients(hello["port"], hello["tokens"], seen))
        done = json.loads(server.stdout.readline())
        server.wait()
        wall = time.perf_counter() - started
        from cardcli.plugins import get_registry
        from cardcli.validate import validate_stream

        valid = 0
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), "rb") as stream:
                valid += validate_stream(stream, name, get_registry()).valid
    seen.sort()
    p50 = statistics.median(seen) * 1000
    p95 = seen[int(len(seen) * 0.95)] * 1000
    print(f"tables: {args.tables} of 4 seats (2 WebSocket clients, 2 cpu:{args.level}), "
          f"{args.games} game(s) each, one server process, clients in one other process, loopback")
    rate = done["moves"] / done["seconds"]
    print(f"moves applied: {done['moves']} in {done['seconds']:.1f} s = {rate:.0f} moves/s "
          f"(wall {wall:.1f} s)")
    print(f"move -> the other client sees it: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(seen)} moves")
    print(f"records valid: {valid} of {args.tables * args.games}")


if __name__ == "__main__":
    main()
