"""Boards: read-only pages at a watch link, served by a real server on
127.0.0.1 to real WebSocket clients.  A score sheet and a public table (what a
referee publishes) go out to every page; nothing comes back but pings."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.error
import urllib.request

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardcli.contract.variant import CHANCE
from cardcli.contract.views import SPECTATOR, BoardView, SheetRow, SheetView
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.serve.board import Board
from cardcli.serve.client import JoinClient
from cardcli.serve.live import LivePage
from cardcli.serve.protocol import PROTOCOL
from cardcli.serve.server import TableServer
from cardcli.testing.privacy import public_known, redeal
from cardcli.words.view import hidden_to, public_table

from .helpers import LIMIT


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


def sheet_view(totals: list[int]) -> BoardView:
    sheet = SheetView("points", ["mom", "me"], ["round"], [SheetRow(["1"], list(totals))], totals, [1])
    return BoardView("End of the Page: mom and me", "Round 2 of 10: mom deals", "me leads by 105.", sheet,
                     lines=["Round 1 is scored."], text="the page as text")


async def hello(port: int, token: str):
    socket = await connect(f"ws://127.0.0.1:{port}/ws")
    await socket.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
    return socket


async def receive(socket) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), LIMIT))


def get(port: int, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_board_shows_what_is_published_to_every_page_and_takes_nothing():
    async def scenario():
        board = Board()
        board.publish(sheet_view([105, 210]))
        server = TableServer()
        server.add(board)
        port = await server.start("127.0.0.1", 0)
        loop = asyncio.get_running_loop()
        try:
            status, page = await loop.run_in_executor(None, get, port, f"/t/{board.watch_token}")
            assert status == 200 and b"board.js" in page and b"cards.js" in page
            for name in ("board.js", "board.css", "cards.js"):
                assert (await loop.run_in_executor(None, get, port, f"/static/{name}"))[0] == 200
            assert (await loop.run_in_executor(None, get, port, "/t/not-a-token"))[0] == 404
            first, second = await hello(port, board.watch_token), await hello(port, board.watch_token)
            for socket in (first, second):
                shown = await receive(socket)
                assert shown["type"] == "board" and shown["version"] == 1
                assert shown["sheet"]["totals"] == [105, 210] and shown["status"] == "me leads by 105."
            board.publish(sheet_view([110, 210]))
            for socket in (first, second):
                shown = await receive(socket)
                assert shown["version"] == 2 and shown["sheet"]["rows"][0]["scores"] == [110, 210]
            for message in ({"type": "move", "turn": 0, "move": 0}, {"type": "again"}):
                await first.send(json.dumps(message))
                refused = await receive(first)
                assert refused["type"] == "error" and refused["code"] == "read-only"
                assert refused["message"] == "this page only shows the board: nothing can be changed from it"
            await first.send(json.dumps({"type": "ping"}))
            assert await receive(first) == {"type": "pong"}
            await first.close()
            board.publish(sheet_view([120, 210]))  # a page gone is no trouble
            assert (await receive(second))["version"] == 3
            assert len(board.watchers) == 1
            await second.close()
        finally:
            await server.stop()

    run(scenario())


def test_a_page_of_another_site_may_not_open_a_board():
    async def scenario():
        board = Board()
        board.publish(sheet_view([1, 2]))
        server = TableServer()
        server.add(board)
        port = await server.start("127.0.0.1", 0)
        try:
            socket = await connect(f"ws://127.0.0.1:{port}/ws", origin="http://evil.example")
            with pytest.raises(ConnectionClosed) as closed:
                await receive(socket)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        finally:
            await server.stop()

    run(scenario())


def test_a_live_page_is_served_from_its_own_thread():
    """As ``scoresheet --serve`` runs it: published from this thread, read by a client elsewhere."""
    live = LivePage(Board(), "127.0.0.1", "127.0.0.1", 0)
    live.publish(sheet_view([0, 0]))
    link = live.start()
    token = link.rsplit("/", 1)[1]
    assert link.startswith(f"http://127.0.0.1:{live.port}/t/")
    seen: list[dict] = []
    done = threading.Event()

    def client() -> None:
        async def watch():
            socket = await hello(live.port, token)
            try:
                while True:
                    seen.append(await receive(socket))
                    if len(seen) == 1:
                        done.set()
            except ConnectionClosed as closed:
                seen.append({"closed": closed.rcvd.reason if closed.rcvd else ""})
        asyncio.run(watch())

    thread = threading.Thread(target=client)
    thread.start()
    assert done.wait(LIMIT)
    live.publish(sheet_view([105, 210]))
    for _ in range(200):
        if len(seen) >= 2:
            break
        threading.Event().wait(0.05)
    live.close()
    thread.join(LIMIT)
    assert [m.get("version") for m in seen[:2]] == [1, 2]
    assert seen[1]["sheet"]["totals"] == [105, 210]
    assert seen[-1] == {"closed": "the page was closed"}


def test_a_port_in_use_is_one_clear_message():
    first = LivePage(Board(), "127.0.0.1", "127.0.0.1", 0)
    first.start()
    try:
        second = LivePage(Board(), "127.0.0.1", "127.0.0.1", first.port)
        with pytest.raises(Exception) as error:
            second.start()
        assert "cannot listen on 127.0.0.1:" in str(error.value) and "--port" in str(error.value)
    finally:
        first.close()


def played_state(name: str, seed: int, events: int):
    variant = get_registry().get(name)
    rules = default_ruleset(variant).options
    state = variant.new_state(rules, 3, 0)
    rng = random.Random(seed)
    for _ in range(events):
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        elif state.current_player() >= 0:
            state.apply(rng.choice(state.legal_actions()))
    return variant, state


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_a_referee_s_board_shows_the_public_table_only(name):
    """What a referee publishes is the table as the watch link sees it: no
    hand, and nothing that changes when the hidden cards are dealt anew."""
    variant, state = played_state(name, 3, 40)
    names = ["ann", "bob", "cat"]
    view = BoardView(variant.title, "bob to play", table=public_table(variant, state, names))
    shown = view.as_dict()
    assert shown["table"]["viewer"] == SPECTATOR and shown["table"]["hand"] == []
    hidden = sorted(hidden_to(state, SPECTATOR) or ())
    other = redeal(state, hidden, public_known(state), random.Random(9))
    again = BoardView(variant.title, "bob to play", table=public_table(variant, other, names))
    assert again.as_dict() == shown


def test_cardcli_join_prints_a_board_as_text():
    printed: list[str] = []
    client = JoinClient("http://127.0.0.1:1/t/abc", out=printed.append, ask=False)
    client.handle({"type": "board", **sheet_view([105, 210]).as_dict()})
    assert printed[-1].endswith("the page as text")


def test_a_command_s_serve_options_as_a_referee_would_take_them():
    """``board_options`` gives a command its ``--serve`` options as one
    argument, and refuses the others without ``--serve``."""
    import click
    from click.testing import CliRunner

    from cardcli.cli.board import BoardOptions, board_options

    taken: list[BoardOptions] = []

    @click.command()
    @board_options("the table")
    def referee(serve: BoardOptions) -> None:
        taken.append(serve)

    runner = CliRunner()
    assert runner.invoke(referee, ["--serve", "--port", "0", "--no-qr"]).exit_code == 0
    assert taken == [BoardOptions(serve=True, port=0, no_qr=True)] and taken[0].listen == "127.0.0.1"
    assert "Show the table live on a read-only page" in runner.invoke(referee, ["--help"]).output
    refused = runner.invoke(referee, ["--lan"])
    assert refused.exit_code == 2 and "go with --serve" in refused.output
    assert "Traceback" not in refused.output


def test_open_board_serves_a_public_table_at_its_link():
    """The function a referee calls: the link said, the table served to a
    real client as published, without any hand, then closed."""
    from cardcli.cli.board import BoardOptions, open_board

    variant, state = played_state("matching", 5, 30)
    names = ["ann", "bob", "cat"]
    said: list[str] = []
    first = BoardView(variant.title, "ann to play", table=public_table(variant, state, names))
    live = open_board(BoardOptions(serve=True, port=0, no_qr=True), first, "the table", said.append)
    try:
        assert said[0].startswith("The table, live and read-only, for this machine only")
        assert said[0].endswith(live.link) and len(said) == 1

        async def watch() -> dict:
            socket = await hello(live.port, live.link.rsplit("/", 1)[1])
            try:
                return await receive(socket)
            finally:
                await socket.close()

        shown = run(watch())
    finally:
        live.close()
    assert shown["type"] == "board" and shown["headline"] == "ann to play"
    assert shown["table"] == first.as_dict()["table"] and shown["table"]["hand"] == []
