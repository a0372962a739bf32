"""An evening at a real served table with real clients: game after game at the
same links, the tally, names chosen at the door, the host's changes between
games, a friend leaving, a re-issued link, the handshake's checks, the hint
cap, and the privacy of every frame over a whole evening."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections import Counter
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardcli.contract.views import SPECTATOR
from cardcli.engine.plugins import get_registry
from cardcli.kit.cards import NAME
from cardcli.kit.record_format import open_record
from cardcli.records.reader import load_game
from cardcli.serve.table import LEFT, REPLACED
from cardcli.testing import validate_bytes
from cardcli.testing.privacy import public_known
from cardcli.words.view import hidden_to

from .helpers import LIMIT, Bot, evening_served, make_game, until


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT * 2))


def records(tmp_path: Path) -> list[Path]:
    first = tmp_path / "game.jsonl"
    later = sorted(tmp_path.glob("game.game*.jsonl"), key=lambda p: int(re.findall(r"\d+", p.name)[0]))
    return [first, *later]


def read(path: Path):
    with open_record(str(path)) as stream:
        game, _over = load_game(stream, str(path), get_registry())
    return game


def test_two_games_in_a_row_with_the_same_links_and_a_cpu_and_a_rule_added_between(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=8)
        said: list[str] = []
        async with evening_served(game, kinds, record, said) as (table, lobby, port, task):
            tokens = [table.seats[0].token, table.seats[1].token]
            ann = await Bot(port, tokens[0], seed=1).open()
            bob = await Bot(port, tokens[1], seed=2).open()
            first = await asyncio.gather(ann.until_games(1), bob.until_games(1))
            lobby_message = await ann.next("evening")
            assert lobby_message["tally"]["games"] == 1 and lobby_message["next"]["starts"] == "all"
            # Between games the host adds a CPU and changes a house rule; both are told.
            assert lobby.run("rules plain") is None and lobby.run("add easy") is None
            assert lobby.run("set stack_twos=false") is None
            assert lobby.run("add impossible") is None and any("unknown CPU strength" in s for s in said)
            told = await ann.next("evening")
            while len(told["next"]["players"]) != 4 or "stack" not in told["next"]["header"].lower():
                told = await ann.next("evening")
            added = told["next"]["players"][3]
            assert added["kind"] == "cpu:easy" and added["name"] not in ("p0", "p1", "cpu2")
            await ann.send({"type": "again"})
            await bob.send({"type": "again"})
            second = await asyncio.gather(ann.until_games(2), bob.until_games(2))
            evening = await bob.next("evening")
            assert not task.done()
            return table, first, second, evening, tokens, added["name"]

    table, first, second, evening, tokens, added = run(scenario())
    paths = records(tmp_path)
    assert [p.name for p in paths] == ["game.jsonl", "game.game2.jsonl"]
    for path in paths:
        report = validate_bytes(path.read_bytes())
        assert report.valid, report.error
    one, two = (read(path) for path in paths)
    assert [s.name for s in two.seats] == ["p0", "p1", "cpu2", added] and two.seats[3].kind == "cpu:easy"
    assert two.rules["stack_twos"] is False and one.rules["stack_twos"] is True
    assert two.ruleset == "No special cards + stack_twos=false" and one.ruleset is None
    assert two.rules["wild_eight"] is False and one.rules["wild_eight"] is True  # the plain table's rules
    assert two.dealer == (one.dealer + 1) % 4  # the dealer moves on, at the table of four
    # The tally counts each game's winners, by player, the CPU added after game 1 in game 2 only.
    results = [first[0][0]["result"], second[0][1]["result"]]
    tally = evening["tally"]
    assert tally["games"] == 2
    by_name = {p["name"]: p for p in tally["players"]}
    assert by_name[added]["games"] == 1 and by_name["p0"]["games"] == 2
    for seat, name in enumerate(["p0", "p1", "cpu2"]):
        assert by_name[name]["wins"] == sum(r["places"][seat] == 1 for r in results)
    assert by_name[added]["wins"] == (results[1]["places"][3] == 1)
    assert tokens == [s.token for s in table.seats if s.kind == "friend"], "the same links all evening"


def test_a_friend_chooses_a_name_at_the_door(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=3)
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task):
            ann = await Bot(port, table.seats[0].token, play=False).open()
            welcome = await ann.next("welcome")
            assert welcome["ask_name"] and welcome["players"][0]["name"] == "p0" and welcome["name_max"] == 20
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            await bob.next("update")
            for bad, why in (("", "type a name"), ("x" * 21, "at most 20"), ("p1", "already at the table"),
                             ("P1", "already at the table"), ("you", "choose a name"),
                             ("a\x1bb", "control characters")):
                await ann.send({"type": "name", "name": bad})
                problem = await ann.next("error")
                assert problem["code"] == "bad-name" and why in problem["message"], bad
            await ann.send({"type": "name", "name": "  Ann   Lee "})
            players = await bob.next("players")
            assert players["players"][0]["name"] == "Ann Lee"
            update = await bob.next("update")
            assert update["table"]["players"][0]["name"] == "Ann Lee"
            back = await Bot(port, table.seats[0].token, seed=1).open()  # her seat, on another device
            again = await back.next("welcome")
            assert not again["ask_name"] and again["players"][0]["name"] == "Ann Lee"
            # The next game's record says the name chosen at the door.
            await asyncio.gather(back.until_games(1), bob.until_games(1))
            await back.send({"type": "again"})
            await bob.send({"type": "again"})
            await back.next("welcome")
            return table

    run(scenario())
    assert read(tmp_path / "game.game2.jsonl").seats[0].name == "Ann Lee"
    assert read(tmp_path / "game.jsonl").seats[0].name == "p0"  # a game under way keeps its names


def test_a_reissued_link_refuses_the_old_token_at_once(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=4)
        said: list[str] = []
        async with evening_served(game, kinds, record, said) as (table, lobby, port, _task):
            old = table.seats[1].token
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            holder = await Bot(port, old, seed=2).open()
            await asyncio.gather(ann.until_games(1), holder.until_games(1))
            said.clear()
            lobby.run("links")
            assert said == [f"invite {table.seats[0].token}", f"invite {old}"]
            lobby.run("link 2")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await holder.next()
            assert closed.value.rcvd is not None and closed.value.rcvd.reason == REPLACED
            stranger = await Bot(port, old, play=False).open()
            assert (await stranger.next("error"))["code"] == "bad-token"
            new = table.seats[1].token
            assert new != old and f"invite {new}" in said
            fresh = await Bot(port, new, play=False).open()
            welcome = await fresh.next("welcome")
            assert welcome["seat"] == 1 and welcome["between"] and welcome["ask_name"]
            saved = json.loads((tmp_path / "game.table.json").read_text())
            assert saved["tokens"]["seat 1"] == new  # kept for --resume at once

    run(scenario())


def test_a_friend_leaves_between_games_and_a_cpu_takes_the_seat(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=5)
        said: list[str] = []
        async with evening_served(game, kinds, record, said) as (table, _lobby, port, _task):
            token = table.seats[1].token
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            bob = await Bot(port, token, seed=2).open()
            await bob.send({"type": "leave"})
            assert (await bob.next("error"))["code"] == "not-between-games"
            await asyncio.gather(ann.until_games(1), bob.until_games(1))
            await bob.send({"type": "leave"})
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await bob.next()
            assert closed.value.rcvd is not None and closed.value.rcvd.reason == LEFT
            assert any("p1 left the table; seat 2 is empty" in s for s in said)
            assert (await (await Bot(port, token, play=False).open()).next("error"))["code"] == "bad-token"
            await ann.send({"type": "again"})  # the only person left: the game starts, a CPU in seat 2
            await until(lambda: table.number == 2, "game 2 starts")
            return [(s.name, s.kind) for s in table.seats]

    seats = run(scenario())
    assert seats[1][1] == "cpu" and seats[1][0] not in ("p1", "cpu2")
    header = json.loads((tmp_path / "game.game2.jsonl").read_text().splitlines()[0])
    assert header["players"][1]["kind"] == "cpu:normal"


@pytest.mark.parametrize("command,problem", [
    ("remove 1", "2 to 6 players"), ("cpu 9", "no seat 9"), ("cpu x", "seat's number"),
    ("link 3", "has no link"), ("remove 0", "no seat 0"),
    ("friend 1", "already"), ("set nonsense=1", "nonsense"), ("set stack_twos", "OPTION=VALUE"),
    ("rules nowhere", "no ruleset"), ("again later", "again host"), ("frobnicate", "unknown command"),
    ("add hard=x", "hard"),
])
def test_the_hosts_commands_refuse_what_cannot_be(tmp_path, command, problem):
    """Each mistake gets a line saying why, and the table is unchanged."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("trick", kinds, record, seed=2, ruleset="trick-five-cards")
        said: list[str] = []
        async with evening_served(game, kinds, record, said) as (table, lobby, port, _task):
            assert lobby.run("remove 3") is None and table.seats[2].kind == "cpu", "not during a game"
            assert "a game is on" in said[-1]
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            await asyncio.gather(ann.until_games(1), bob.until_games(1))
            if command == "remove 1":
                lobby.run("remove 3")  # two seats left: the fewest trick allows
            before = ([(s.name, s.kind, s.level, s.token) for s in table.seats], dict(lobby.evening.rules))
            said.clear()
            assert lobby.run(command) is None
            after = ([(s.name, s.kind, s.level, s.token) for s in table.seats], dict(lobby.evening.rules))
            return said, before, after

    said, before, after = run(scenario())
    assert before == after
    assert any(line.startswith("!") and problem in line for line in said), said


def test_a_page_from_another_site_or_address_is_refused(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=1)
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task):
            url = f"ws://127.0.0.1:{port}/ws"
            async with connect(url, origin="http://evil.example") as foreign:
                with pytest.raises(ConnectionClosed) as closed:
                    await foreign.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "may not open this table" in closed.value.rcvd.reason
            async with connect(url, origin=f"http://127.0.0.1:{port}") as own:
                await own.send(json.dumps({"type": "hello", "protocol": 2, "token": table.seats[0].token}))
                assert json.loads(await own.recv())["type"] == "welcome"
            # A name pointed at this machine (DNS rebinding): the Host is not one it serves.
            loop = asyncio.get_running_loop()

            def raw(path: str, host: str) -> bytes:
                with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
                    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
                    data = b""
                    while chunk := conn.recv(65536):
                        data += chunk
                    return data

            page = f"/t/{table.seats[0].token}"
            rebound = await loop.run_in_executor(None, raw, page, f"evil.example:{port}")
            doubled = await loop.run_in_executor(None, raw, page, f"127.0.0.1:{port}\r\nHost: evil.example")
            good = await loop.run_in_executor(None, raw, page, f"127.0.0.1:{port}")
            # The WebSocket of a page at evil.example, whose name now points here.
            tcp = socket.create_connection(("127.0.0.1", port))
            async with connect(f"ws://evil.example:{port}/ws", sock=tcp) as dns:
                with pytest.raises(ConnectionClosed) as closed_host:
                    await dns.recv()
            return rebound, doubled, good, closed_host.value

    rebound, doubled, good, closed = run(scenario())
    for refused in (rebound, doubled):
        assert refused.startswith(b"HTTP/1.1 421") and b"table.js" not in refused
    assert good.startswith(b"HTTP/1.1 200") and b"table.js" in good
    for response in (rebound, good):
        head = response.split(b"\r\n\r\n", 1)[0].lower()
        assert b"\r\nserver:" not in head, "no software named"
    assert closed.rcvd is not None and closed.rcvd.code == 1008 and "not served as" in closed.rcvd.reason


def test_one_hint_per_decision(tmp_path):
    """The hard CPU's hint is searched once per decision: asking again gives the same hint."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        from cardcli.serve.console import remote_dialogue

        game = make_game("trick", kinds, record, seed=3, ruleset="trick-five-cards")
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task):
            table.dialogue = remote_dialogue
            bot = Bot(port, table.seats[0].token, play=False)
            bot.socket = await connect(bot.url)
            await bot.send({"type": "hello", "protocol": 2, "token": bot.token, "prompts": True})
            prompt = await bot.next("prompt")
            hints = []
            for _ in range(2):
                await bot.send({"type": "answer", "prompt": prompt["prompt"], "text": "?"})
                prompt = await bot.next("prompt")
                hints.append(prompt["lines"])
            return hints

    first, second = run(scenario())
    assert first[0].startswith("Hint - the hard CPU's view")
    note = second.index("(One hint per decision: this is the same hint again.)")
    assert second[:note] == first[:note] and second[note + 1:] == first[note:]  # the same hint, the same menu


def _card_names(text: str) -> list[str]:
    return re.findall(r"(?<![A-Za-z0-9])(?:(?:10|[2-9JQKA])[SHDC]|JK)(?![A-Za-z0-9])", text)


def test_no_frame_of_a_whole_evening_names_a_card_its_seat_cannot_see(tmp_path):
    """Three games, with a CPU added between the second and the third: every
    frame a seat was sent names only cards it may know (its hand, what it was
    shown) or cards that were public by then (what the watch link was told);
    the watch link's table never shows a card in a hidden place."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=21)
        async with evening_served(game, kinds, record) as (table, lobby, port, _task):
            watcher = await Bot(port, table.watch_token, play=False).open()
            ann = await Bot(port, table.seats[0].token, seed=1, again=2).open()
            bob = await Bot(port, table.seats[1].token, seed=2, again=1).open()
            watching = asyncio.ensure_future(watcher.until_games(3))
            await asyncio.gather(ann.until_games(2), bob.until_games(2))
            await until(lambda: table.lobby is not None and table.number == 2, "between games 2 and 3")
            lobby.run("add easy")
            await bob.send({"type": "again"})
            await asyncio.gather(ann.until_games(3), bob.until_games(3), watching)
            return ann, bob, watcher

    ann, bob, watcher = run(scenario())
    games = {number: read(path) for number, path in enumerate(records(tmp_path), start=1)}
    assert len(games) == 3 and len(games[3].seats) == 4

    def frames(bot):
        """(game, event, frame) for each frame a table was described in."""
        number, out, waiting = 0, [], []
        for message in bot.messages:
            if message["type"] == "welcome":
                number = message["game"] if not message["between"] else 0
                waiting = [message] if number else []
            elif message["type"] == "update" and number:
                out.extend((number, message["event"], frame) for frame in [*waiting, message])
                waiting = []
        return out

    public: dict[int, list[tuple[int, set[str]]]] = {}
    for number, event, frame in frames(watcher):
        state = games[number].state_after(event)
        hidden = Counter(NAME[c] for zone in hidden_to(state, SPECTATOR) or ()
                         for c in state.card_zones()[zone])
        known = Counter(NAME[c] for cards in public_known(state).values() for c in cards)
        shown = set(_card_names(json.dumps(frame.get("table", {}))))
        assert not shown & set(hidden - known), f"watch link: a hidden card, game {number}, event {event}"
        public.setdefault(number, []).append((event, set(_card_names(json.dumps(frame)))))
    checked = 0
    for seat, bot in ((0, ann), (1, bob)):
        for number, event, frame in frames(bot):
            state = games[number].state_after(event)
            seen_publicly = set().union(*(names for at, names in public[number] if at <= event))
            known = state.known_cards(seat)
            own = {NAME[c] for c in state.card_zones()[f"hand {seat}"]}
            unseen: set[str] = set()
            for zone in state.hidden_zones(seat):
                left = Counter(state.card_zones()[zone]) - Counter(known.get(zone, ()))
                unseen.update(NAME[c] for c in left.elements())
            leaked = set(_card_names(json.dumps(frame))) & unseen - seen_publicly - own
            assert not leaked, f"seat {seat}, game {number}, event {event}: {sorted(leaked)}"
            checked += 1
    assert checked > 100
