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
    python bench/bench_serve.py --baseline /tmp/old/src   # against another checkout, A B B A
    python bench/bench_serve.py --profile serve.prof      # where the server's time goes (cProfile)
    python bench/bench_serve.py --sample serve.txt        # the same, sampled (each function's share)
    python bench/bench_serve.py --quick                   # a smoke run, in seconds

Each figure is printed with the load average at the end of its run: the
machine's other work moves these numbers a lot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


async def serve_tables(count: int, level: str, games: int, folder: str) -> None:
    """The server side: ``count`` tables, each playing ``games`` games in turn."""
    from cardcli.engine.game import Game, choose_dealer
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    from cardcli.kit.record_format import RecordWriter, SeatInfo
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
            # Table.for_game since the table stays open between games; Table(game, kinds) before
            # (a --baseline checkout may be older).
            make = getattr(Table, "for_game", Table)
            tables[-1].append(make(game, kinds))
    for series in tables:
        server.add(series[0])
    links = [[[t.seats[0].token, t.seats[2].token] for t in series] for series in tables]
    import cardcli
    from cardcli.serve.protocol import PROTOCOL

    print(json.dumps({"port": port, "tokens": links, "cardcli": cardcli.__file__, "protocol": PROTOCOL}),
          flush=True)

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

    started, cpu = time.perf_counter(), time.process_time()
    total = sum(await asyncio.gather(*(run(series) for series in tables)))
    print(json.dumps({"moves": total, "seconds": time.perf_counter() - started,
                      "cpu": time.process_time() - cpu}), flush=True)
    await server.stop()


class Client:
    """One seat's client through its table's games: a random legal move as soon as one is offered."""

    def __init__(self, port: int, protocol: int, tokens: list[str], seed: int, sent: dict, seen: list):
        self.port, self.protocol, self.tokens, self.rng = port, protocol, tokens, random.Random(seed)
        self.sent, self.seen = sent, seen

    async def play(self, table: int, seat: int) -> None:
        for game, token in enumerate(self.tokens):
            # The next game's table is served once the last one is over: until then its token
            # opens nothing, and the client tries again.
            while not await self.game(token, (table, game), seat):
                await asyncio.sleep(0.02)

    async def game(self, token: str, key: tuple[int, int], seat: int) -> bool:
        """Play one game at ``token``'s table; ``False`` if the table is not served yet."""
        from websockets.asyncio.client import connect

        async with connect(f"ws://127.0.0.1:{self.port}/ws", max_size=None) as socket:
            await socket.send(json.dumps({"type": "hello", "protocol": self.protocol, "token": token}))
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
                    return True
                elif message["type"] == "error" and message.get("code") == "bad-token":
                    return False
                elif message["type"] == "error" and message.get("code") in ("protocol", "no-hello"):
                    raise SystemExit(f"bench_serve: the server refused the clients: {message['message']}")
        raise SystemExit("bench_serve: the server closed a connection before its game was over")


async def clients(port: int, protocol: int, links: list, seen: list) -> None:
    sent: dict = {}
    players = []
    for table, series in enumerate(links):
        for seat in (0, 1):
            tokens = [pair[seat] for pair in series]
            players.append(Client(port, protocol, tokens, table * 2 + seat, sent, seen).play(table, seat))
    await asyncio.gather(*players)


@contextlib.contextmanager
def sampled(path: str) -> Iterator[None]:
    """Sample this process's stack on every millisecond of its processor time
    (SIGPROF); write each function's share of the samples (on the stack at
    all, and at its top) to ``path``."""
    import collections
    import signal

    inclusive: collections.Counter[str] = collections.Counter()
    top: collections.Counter[str] = collections.Counter()
    taken = [0]

    def sample(_signal: int, frame: Any) -> None:
        names = []
        while frame is not None:
            names.append(f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_code.co_name}")
            frame = frame.f_back
        inclusive.update(set(names))
        if names:
            top[names[0]] += 1
        taken[0] += 1

    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        total = max(1, taken[0])
        with open(path, "w", encoding="utf-8") as out:
            out.write(f"{taken[0]} samples (1 a millisecond of the server's processor time)\n\n"
                      "on the stack  function\n")
            out.writelines(f"{count / total:11.1%}  {name}\n" for name, count in inclusive.most_common(80))
            out.write("\nat the top   function\n")
            out.writelines(f"{count / total:11.1%}  {name}\n" for name, count in top.most_common(40))


@dataclass
class Run:
    """One measured run: what the server applied and what the clients saw."""

    moves: int
    seconds: float
    seen: list[float]  # seconds from a move to the other client seeing it
    valid: int
    load: float  # the 1-minute load average when the run ended
    cpu: float  # the server's processor seconds (its own work, whatever the machine's load)
    clients_cpu: float = 0.0  # the clients' processor seconds (taken from the same two cores)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def percentile(self, share: float) -> float:
        ordered = sorted(self.seen)
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def measure(args: argparse.Namespace, source: str | None = None) -> Run:
    """Serve ``args.tables`` tables from a fresh server process (whose
    ``cardcli`` comes from the ``source`` folder if given) and play them out."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [source, environment.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--server",
                                   "--tables", str(args.tables), "--games", str(args.games),
                                   "--level", args.level, "--folder", folder,
                                   *(["--profile", args.profile] if args.profile else []),
                                   *(["--sample", args.sample] if args.sample else [])],
                                  stdout=subprocess.PIPE, text=True, env=environment)
        try:
            assert server.stdout is not None
            hello = _line(server, "start serving")
            first = None if source is None else os.path.abspath(source.split(os.pathsep)[0])
            if first is not None and not hello["cardcli"].startswith(first):
                raise SystemExit(f"bench_serve: the server imported cardcli from {hello['cardcli']}, "
                                 f"not from {source}")
            seen: list[float] = []
            # A server that stops answering fails the run instead of hanging it.
            limit = 60 + 5 * args.tables * args.games
            clients_started = time.process_time()
            try:
                asyncio.run(asyncio.wait_for(clients(hello["port"], hello.get("protocol", 1), hello["tokens"],
                                                     seen), limit))
            except TimeoutError:
                raise SystemExit(f"bench_serve: the games were not over after {limit} s") from None
            clients_cpu = time.process_time() - clients_started
            done = _line(server, "report its moves")
            server.wait(60)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
        from cardcli.engine.plugins import get_registry
        from cardcli.records.validate import validate_stream

        valid = 0
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), "rb") as stream:
                valid += validate_stream(stream, name, get_registry()).valid
    return Run(done["moves"], done["seconds"], seen, valid, os.getloadavg()[0], done["cpu"], clients_cpu)


def _line(server: subprocess.Popen, what: str) -> dict:
    """The server's next line of JSON; if it stopped instead, say so and stop."""
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line:
        raise SystemExit(f"bench_serve: the server process ended (status {server.wait()}) before it could "
                         f"{what}")
    return json.loads(line)


def report(run: Run, label: str = "") -> None:
    print(f"{label}{run.moves} moves in {run.seconds:.1f} s = {run.rate:.0f} moves/s; "
          f"move -> the other client sees it: p50 {run.percentile(0.5):.1f} ms, "
          f"p95 {run.percentile(0.95):.1f} ms over {len(run.seen)} moves; "
          f"server CPU {run.cpu / run.moves * 1e6:.0f} us/move "
          f"(the clients' {run.clients_cpu / run.moves * 1e6:.0f}); "
          f"records valid {run.valid}; load average {run.load:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--games", type=int, default=2, help="games each table plays, one after another")
    parser.add_argument("--level", default="normal", help="the CPUs' strength")
    parser.add_argument("--profile", metavar="FILE",
                        help="profile the server (cProfile) and write its stats to FILE")
    parser.add_argument("--sample", metavar="FILE",
                        help="sample the server's stack every millisecond of its processor time and write "
                             "each function's share (of the samples it is on the stack of) to FILE: "
                             "unlike cProfile, this slows no function more than another")
    parser.add_argument("--baseline", metavar="PATHS",
                        help="also time a server that imports cardcli (and the games) from PATHS, put "
                             "first on its PYTHONPATH (another checkout's src/ and plugins/NAME folders, "
                             "joined with ':'), interleaved with this one (A B B A ...)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="with --baseline: rounds of A B B A (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run in seconds (4 tables, 1 game each): it fails if a record "
                             "does not validate or no move was seen")
    parser.add_argument("--server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.server:
        if args.profile:
            import cProfile

            with cProfile.Profile() as profile:
                asyncio.run(serve_tables(args.tables, args.level, args.games, args.folder))
            profile.dump_stats(args.profile)
        elif args.sample:
            with sampled(args.sample):
                asyncio.run(serve_tables(args.tables, args.level, args.games, args.folder))
        else:
            asyncio.run(serve_tables(args.tables, args.level, args.games, args.folder))
        return
    if args.quick:
        args.tables, args.games = 4, 1
    print(f"tables: {args.tables} of 4 seats (2 WebSocket clients, 2 cpu:{args.level}), "
          f"{args.games} game(s) each, one server process, clients in one other process, loopback; "
          f"{os.cpu_count()} cores, shared with other work", flush=True)
    if args.baseline is None:
        run = measure(args)
        report(run)
        print(f"records valid: {run.valid} of {args.tables * args.games}")
        if run.valid != args.tables * args.games or not run.seen:
            raise SystemExit(1)
        return
    runs: dict[str, list[Run]] = {"this": [], "baseline": []}
    for _ in range(args.rounds):
        for side in ("this", "baseline", "baseline", "this"):
            run = measure(args, None if side == "this" else args.baseline)
            runs[side].append(run)
            report(run, f"{side:>8}: ")
    pairs = list(zip(runs["this"], runs["baseline"]))
    for what, value in (("moves/s", lambda r: r.rate), ("p50", lambda r: 1 / r.percentile(0.5)),
                        ("p95", lambda r: 1 / r.percentile(0.95)), ("server CPU/move", lambda r: 1 / r.cpu)):
        ratios = sorted(value(a) / value(b) for a, b in pairs)
        print(f"{what}: this / baseline = {statistics.median(ratios):.2f}x better "
              f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}, {len(ratios)} pairs)")


if __name__ == "__main__":
    main()
