"""A real table on 127.0.0.1 with real WebSocket clients: whole games, reconnects,
bad input of every kind, spectators, an absent friend."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading

import pytest
from websockets.exceptions import ConnectionClosed

from cardcli.contract.views import SPECTATOR
from cardcli.serve.protocol import PROTOCOL
from cardcli.serve.server import TableServer
from cardcli.serve.table import Table
from cardcli.testing import validate_bytes

from .helpers import LIMIT, Bot, make_game, served, until


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


@pytest.mark.parametrize("variant,ruleset", [("matching", None), ("trick", None),
                                             ("endofpage", "endofpage-short")])
def test_a_whole_game_between_two_clients_a_cpu_and_a_spectator(tmp_path, variant, ruleset):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu", "friend"]

    async def scenario():
        game = make_game(variant, kinds, record, seed=3, ruleset=ruleset)
        async with served(game, kinds) as (table, port, task):
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            bob = await Bot(port, table.seats[2].token, seed=2).open()
            watcher = await Bot(port, table.watch_token, play=False).open()
            results = await asyncio.gather(ann.until_over(), bob.until_over(), watcher.until_over(), task)
            return table, ann, bob, watcher, results

    table, ann, bob, watcher, (over1, over2, over3, result) = run(scenario())
    assert over1["result"] == over2["result"] == over3["result"] == result
    assert "Ranking:" in over1["text"] and over1["text"] == over3["text"]
    report = validate_bytes(record.read_bytes())
    assert report.valid, report.error
    assert report.moves == table.game.moves
    # Each seat saw its own hand and never another's; the spectator saw none.
    for bot, seat in ((ann, 0), (bob, 2)):
        assert bot.messages[0]["type"] == "welcome" and bot.messages[0]["seat"] == seat
        assert any(u["table"]["hand"] for u in bot.updates())
        assert all(u["table"]["viewer"] == seat for u in bot.updates())
        assert not bot.errors()
    assert watcher.updates() and all(u["table"]["hand"] == [] and not u["moves"] for u in watcher.updates())
    # The spectator was told every event, in the words of cardcli play for each stretch of play.
    game, updates = table.game, watcher.updates()
    state = game.new_state()
    for event in game.history[:updates[0]["event"]]:
        state.apply_legal(event)
    for previous, update in itertools.pairwise(updates):
        stretch = []
        for event in game.history[previous["event"]:update["event"]]:
            stretch.append((state.clone(), event))
            state.apply_legal(event)
        assert update["events"] == game.variant.describe_events(stretch, viewer=SPECTATOR, names=game.names)
    assert updates[-1]["event"] == game.events


def test_a_client_that_drops_gets_its_seat_back_with_the_same_link(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=5)
        async with served(game, kinds) as (table, port, task):
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            ann = await Bot(port, table.seats[0].token, seed=1, play=False).open()
            bob_plays = asyncio.ensure_future(bob.until_over())
            # ann waits for her turn, then loses the connection.
            while not (await ann.next("update"))["moves"]:
                pass
            await ann.close()
            await until(lambda: table.seats[0].client is None, "the server saw ann leave")
            assert not task.done()
            back = await Bot(port, table.seats[0].token, seed=1).open()
            welcome = await back.next("welcome")
            first = await back.next("update")
            assert welcome["seat"] == 0 and welcome["log"]
            assert first["moves"], "the same link gets the seat back, with the decision still waiting"
            await back.move(first)
            await asyncio.gather(back.until_over(), bob_plays, task)
            return back, bob

    back, bob = run(scenario())
    assert any(m["type"] == "seats" and not m["seats"][0]["connected"] for m in bob.messages)
    assert back.over is not None
    assert validate_bytes(record.read_bytes()).valid


def test_opening_a_link_twice_moves_the_seat_to_the_new_device(tmp_path):
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            first = await Bot(port, table.seats[0].token, play=False).open()
            await first.next("update")
            second = await Bot(port, table.seats[0].token, play=False).open()
            await second.next("update")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await first.next()
            assert closed.value.rcvd is not None and "another device" in closed.value.rcvd.reason
            assert table.seats[0].client is not None

    run(scenario())


BAD = {
    "not json": ("{oops", "bad-json"),
    "not an object": ("[1, 2]", "bad-message"),
    "unknown type": ({"type": "shout"}, "unknown-type"),
    "no type": ({"move": 1}, "unknown-type"),
    "extra field": ({"type": "ping", "x": 1}, "bad-message"),
    "move without turn": ({"type": "move", "move": 0}, "bad-message"),
    "negative move": ({"type": "move", "turn": 0, "move": -1}, "bad-message"),
    "move index out of range": ("OUT_OF_RANGE", "bad-move"),
    "stale turn": ("STALE", "stale"),
    "second hello": ({"type": "hello", "protocol": PROTOCOL, "token": "x"}, "bad-message"),
    "answer with no question": ({"type": "answer", "prompt": 1, "text": "1"}, "no-prompt"),
    "binary frame": (b"\x00\x01", "bad-message"),
}


def test_every_bad_message_gets_an_error_and_the_game_goes_on(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=2)
        async with served(game, kinds) as (table, port, task):
            ann = await Bot(port, table.seats[0].token, seed=1, play=False).open()
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            bob_plays = asyncio.ensure_future(bob.until_over())
            update = await ann.next("update")
            while not update["moves"]:
                update = await ann.next("update")
            events = table.game.events
            for name, (message, code) in BAD.items():
                frame = message
                if message == "OUT_OF_RANGE":
                    frame = {"type": "move", "turn": update["turn"], "move": len(update["moves"])}
                elif message == "STALE":
                    frame = {"type": "move", "turn": update["turn"] + 1000, "move": 0}
                await ann.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))
                problem = await ann.next("error")
                assert problem["code"] == code and problem["message"], name
            assert table.game.events == events
            # Still ann's turn, still her moves: she plays on and the game ends.
            ann.play = True
            await ann.move(update)
            await asyncio.gather(ann.until_over(), bob_plays, task)

    run(scenario())
    assert validate_bytes(record.read_bytes()).valid


def test_moves_out_of_turn_for_another_seat_or_from_a_spectator_are_refused(tmp_path):
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl", seed=2)
        async with served(game, kinds) as (table, port, _task):
            ann = await Bot(port, table.seats[0].token, play=False).open()
            bob = await Bot(port, table.seats[1].token, play=False).open()
            watcher = await Bot(port, table.watch_token, play=False).open()
            update = await ann.next("update")
            turn_seat = update["table"]["turn"]
            waiting, other = (ann, bob) if turn_seat == 0 else (bob, ann)
            while not (await waiting.next("update"))["moves"]:
                pass
            events = table.game.events
            # The other seat sends a move "for" this turn; the spectator too.
            await other.send({"type": "move", "turn": events, "move": 0})
            assert (await other.next("error"))["code"] == "not-your-turn"
            await watcher.send({"type": "move", "turn": events, "move": 0})
            assert (await watcher.next("error"))["code"] == "not-a-seat"
            assert table.game.events == events

    run(scenario())


def test_wrong_token_and_no_hello_close_the_connection(tmp_path):
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, task):
            stranger = await Bot(port, "not-a-token", play=False).open()
            assert (await stranger.next("error"))["code"] == "bad-token"
            with pytest.raises(ConnectionClosed):
                await stranger.next()
            rude = Bot(port, "", play=False)
            from websockets.asyncio.client import connect

            rude.socket = await connect(rude.url)
            await rude.send({"type": "move", "turn": 0, "move": 0})
            assert (await rude.next("error"))["code"] == "no-hello"
            old = Bot(port, table.seats[0].token, play=False)
            old.token = table.seats[0].token[:-1] + ("A" if table.seats[0].token[-1] != "A" else "B")
            await old.open()
            assert (await old.next("error"))["code"] == "bad-token"
            assert not task.done()

    run(scenario())


def test_oversized_frames_and_floods_close_only_that_connection(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=4)
        async with served(game, kinds) as (table, port, task):
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            big = await Bot(port, table.watch_token, play=False).open()
            await big.next("update")
            await big.send("x" * 100_000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await big.next()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            flood = await Bot(port, table.watch_token, play=False).open()
            await flood.next("update")
            with pytest.raises(ConnectionClosed):
                for _ in range(500):
                    await flood.send({"type": "ping"})
                while True:
                    await flood.next()
            assert any(e["code"] == "too-fast" for e in flood.errors())
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            await asyncio.gather(ann.until_over(), bob.until_over(), task)

    run(scenario())
    assert validate_bytes(record.read_bytes()).valid


@pytest.mark.parametrize("away", ["cpu", "wait"])
def test_an_absent_friend(tmp_path, away):
    """With --away cpu a CPU plays for a friend who is away past the timeout; with wait the table waits."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=6)
        notices: list[str] = []
        async with served(game, kinds, notices, away=away, away_timeout=0.1) as (table, port, task):
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            if away == "cpu":
                await asyncio.gather(ann.until_over(), task)
                assert any(m["type"] == "seats" and m["seats"][1]["stand_in"] for m in ann.messages)
                assert "a CPU (normal) plays for p1 until they come back" in notices
            else:
                playing = asyncio.ensure_future(ann.until_over())
                await until(lambda: any("keeps waiting" in notice for notice in notices), "the table waits")
                playing.cancel()
                assert "the table waits for p1 to join (with their invite link)" in notices
                assert not task.done() and table.game.state.current_player() == 1
                assert table.seats[1].stand_in is None

    run(scenario())
    if away == "cpu":
        assert validate_bytes(record.read_bytes()).valid


def test_the_page_and_its_files_are_served_only_for_real_links(tmp_path):
    import urllib.error
    import urllib.request

    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            def get(path):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
                        return response.status, response.headers, response.read()
                except urllib.error.HTTPError as problem:
                    return problem.code, problem.headers, problem.read()

            loop = asyncio.get_running_loop()
            page = await loop.run_in_executor(None, get, f"/t/{table.seats[0].token}")
            script = await loop.run_in_executor(None, get, "/static/table.js")
            wrong = await loop.run_in_executor(None, get, "/t/nope")
            other = await loop.run_in_executor(None, get, "/static/../server.py")
            return page, script, wrong, other

    page, script, wrong, other = run(scenario())
    assert page[0] == 200 and b"table.js" in page[2]
    assert "script-src 'self'" in page[1]["Content-Security-Policy"]
    assert script[0] == 200 and page[1]["Content-Type"].startswith("text/html")
    assert script[1]["Content-Type"].startswith("text/javascript") and b"WebSocket" in script[2]
    assert wrong[0] == 404 and b"does not open a table" in wrong[2]
    assert other[0] == 404


def test_the_bare_address_says_to_ask_the_host_for_a_link_and_nothing_more(tmp_path):
    """Someone types the host and port from the host's screen, without the
    token: a short page telling them to ask for their link, not a 404, and
    nothing of the table (its game, its players, its tokens)."""
    import urllib.request

    kinds = ["friend", "cpu", "friend"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            def get(path):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
                    return response.status, response.headers, response.read().decode()

            loop = asyncio.get_running_loop()
            pages = [await loop.run_in_executor(None, get, path) for path in ("/", "/?x=1", "/t/")]
            return pages, list(table.tokens().values()), game.names

    pages, tokens, names = run(scenario())
    for status, headers, body in pages:
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert "ask the host for your invite link" in body
        assert not any(token in body for token in tokens)
        assert not any(name in body for name in names)
        assert "matching" not in body and "/t/" not in body and "token" not in body
        assert "style=" not in body  # the page's own policy would refuse an inline style


class _Gated:
    """A CPU that thinks until the test lets it decide (as ``hard`` thinks
    for half a second): not a policy, so the table runs it in a worker thread."""

    def __init__(self, player):
        self.player = player
        self.thinking = threading.Event()
        self.go = threading.Event()

    def act(self, state, seat, legal):
        self.thinking.set()
        assert self.go.wait(LIMIT)
        return self.player.act(state, seat, legal)


def test_a_thinking_cpu_never_holds_up_the_other_tables(tmp_path):
    """While one table's CPU thinks, the same server plays a whole game at
    another table; then the CPU decides and its game goes on to the end."""
    kinds = ["friend", "cpu"]

    async def scenario():
        slow = Table.for_game(make_game("matching", kinds, tmp_path / "slow.jsonl", seed=7), kinds)
        fast = Table.for_game(make_game("matching", kinds, tmp_path / "fast.jsonl", seed=8), kinds)
        gated = _Gated(slow.cpus[1])
        slow.cpus[1] = gated
        slow._seat_players()
        server = TableServer()
        server.add(slow)
        server.add(fast)
        port = await server.start("127.0.0.1", 0)
        try:
            slow_game, fast_game = asyncio.ensure_future(slow.play()), asyncio.ensure_future(fast.play())
            ann = await Bot(port, slow.seats[0].token, seed=1).open()
            ann_plays = asyncio.ensure_future(ann.until_over())
            loop = asyncio.get_running_loop()
            assert await loop.run_in_executor(None, gated.thinking.wait, LIMIT)
            # The CPU is thinking: the other table plays a whole game meanwhile.
            bob = await Bot(port, fast.seats[0].token, seed=2).open()
            await asyncio.gather(bob.until_over(), fast_game)
            assert not gated.go.is_set() and not slow_game.done()
            gated.go.set()
            await asyncio.gather(ann_plays, slow_game)
        finally:
            gated.go.set()
            await server.stop()
            for table in (slow, fast):
                table.game.writer.close()
        return slow, fast

    slow, fast = run(scenario())
    for table, name in ((slow, "slow"), (fast, "fast")):
        report = validate_bytes((tmp_path / f"{name}.jsonl").read_bytes())
        assert report.valid and report.moves == table.game.moves


def test_a_view_nobody_watches_is_told_when_opened_as_it_would_have_been_live(tmp_path):
    """The spectators' log is worded only once someone watches: a spectator
    who arrives after eight moves reads the same lines as one who arrives
    then at the same game watched all along (the friend always plays the first move)."""

    async def play(watched_from_start: bool) -> list[str]:
        kinds = ["friend", "cpu"]
        game = make_game("matching", kinds, tmp_path / f"g{watched_from_start}.jsonl", seed=7)
        async with served(game, kinds) as (table, port, _task):
            early = await Bot(port, table.watch_token, play=False).open() if watched_from_start else None
            friend = await Bot(port, table.seats[0].token, play=False).open()
            moved = 0
            while moved < 8:
                update = await friend.next("update")
                if update["moves"]:
                    await friend.send({"type": "move", "turn": update["turn"], "move": 0})
                    moved += 1
            await until(lambda: table.waiting() == 0, "the friend's turn again")
            late = await Bot(port, table.watch_token, play=False).open()
            welcome = await late.next("welcome")
            if early is not None:
                await early.close()
            return welcome["log"]

    live, told_late = run(play(True)), run(play(False))
    assert len(live) >= 8 and told_late == live
