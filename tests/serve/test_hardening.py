"""What a page elsewhere or a flood of connections can do to a served table,
tried for real: another site framing a seat's page (in headless Chromium),
the page opening a connection to another address, and hundreds of
connections that never say hello."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import os
import threading
import time
import urllib.request

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardcli.serve.server import HELLO_TIMEOUT, MAX_WAITING, TableServer
from cardcli.serve.table import Table, TableOptions

from .browser import chromium, phone_page
from .helpers import LIMIT, Bot, make_game, served, until

browser = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                             reason="Chromium is not installed")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT * 2))


@contextlib.contextmanager
def other_site(html: str):
    """A page served from another address (another port: another origin)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_the_pages_headers_forbid_framing_and_connections_elsewhere(tmp_path):
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            url = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"

            def headers():
                with urllib.request.urlopen(url) as response:
                    return dict(response.headers)

            return port, await asyncio.get_running_loop().run_in_executor(None, headers)

    port, headers = run(scenario())
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and headers["X-Frame-Options"] == "DENY"
    connect_src = next(part for part in policy.split(";") if part.strip().startswith("connect-src"))
    assert connect_src.split()[1:] == ["'self'", f"ws://127.0.0.1:{port}", f"wss://127.0.0.1:{port}"]


@browser
def test_another_site_cannot_frame_a_seats_page(tmp_path):
    """Framed by a page elsewhere, the seat's page never runs (its friend is
    never seen at the table); opened as itself, it joins at once."""
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            link = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"
            with other_site(f"<!doctype html><p>elsewhere</p><iframe src='{link}'></iframe>") as site:
                async with phone_page(site) as page:
                    await page.wait_for("document.readyState === 'complete'"
                                        " && !!document.querySelector('iframe')")
                    await asyncio.sleep(2)
                    framed = table.seats[0].joined
            async with phone_page(link):
                await until(lambda: table.seats[0].joined, "the page opened as itself joins")
            return framed

    assert run(scenario()) is False


@browser
def test_the_page_may_open_no_connection_to_another_address(tmp_path):
    """From a seat's page, a WebSocket to another table server (another port)
    is refused by the browser: that server never hears from it."""
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        other_game = make_game("matching", kinds, tmp_path / "other.jsonl")
        other = Table.for_game(other_game, kinds, options=TableOptions())
        elsewhere = TableServer()
        elsewhere.add(other)
        other_port = await elsewhere.start("127.0.0.1", 0)
        try:
            async with served(game, kinds) as (table, port, _task), \
                    phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await page.wait_for("(e => !!e && e.textContent === 'connected')"
                                    "(document.getElementById('link'))")
                await page.evaluate(
                    "window.refused = [];"
                    " document.addEventListener('securitypolicyviolation',"
                    " (e) => window.refused.push(e.blockedURI));"
                    f" try {{ const s = new WebSocket('ws://localhost:{other_port}/ws');"
                    f" s.onopen = () => s.send(JSON.stringify({{type: 'hello', protocol: 2,"
                    f" token: '{other.seats[0].token}'}})); }}"
                    " catch (e) { window.refused.push(String(e)); }")
                await page.wait_for("window.refused.length > 0", timeout=15)
                await asyncio.sleep(0.5)
                refused = await page.evaluate("window.refused")
                return refused, other.seats[0].joined
        finally:
            await elsewhere.stop()
            other_game.writer.close()

    refused, joined = run(scenario())
    assert refused and not joined


def test_connections_that_never_say_hello_are_not_held(tmp_path):
    """300 connections that say nothing: once they have waited HELLO_GRACE,
    all but MAX_WAITING are closed (long before the hello timeout), and a
    friend who says hello meanwhile sits down at once."""
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        table = Table.for_game(game, kinds, options=TableOptions())
        server = TableServer()
        server.add(table)
        port = await server.start("127.0.0.1", 0)
        task = asyncio.ensure_future(table.play())
        try:
            started = time.monotonic()
            silent = [await connect(f"ws://127.0.0.1:{port}/ws") for _ in range(300)]
            ann = await Bot(port, table.seats[0].token, play=False).open()
            welcome = await ann.next("welcome")
            await until(lambda: len(server.waiting) <= MAX_WAITING, "the connections that said nothing go")
            opened_in = time.monotonic() - started
            held = len(server.waiting)
            closed = 0
            for socket in silent:
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    await asyncio.wait_for(socket.recv(), 0.01)
                if socket.close_code is not None:
                    closed += 1
            codes = {socket.close_code for socket in silent if socket.close_code is not None}
            for socket in silent:
                await socket.close()
            assert not task.done()
            return held, closed, codes, welcome, opened_in
        finally:
            task.cancel()
            await server.stop()
            game.writer.close()

    held, closed, codes, welcome, opened_in = run(scenario())
    assert held <= MAX_WAITING
    assert closed >= 300 - MAX_WAITING and codes == {1013}, (closed, codes)
    assert welcome["seat"] == 0
    assert opened_in < HELLO_TIMEOUT - 2, "closed long before the hello timeout"


def test_a_crowd_arriving_at_once_all_sits_down(tmp_path):
    """Twice MAX_WAITING clients open the watch link at the same moment and say
    hello at once: every one is welcomed (the cap closes only the silent)."""
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            crowd = [Bot(port, table.watch_token, play=False) for _ in range(2 * MAX_WAITING)]
            await asyncio.gather(*(bot.open() for bot in crowd))
            welcomes = await asyncio.gather(*(bot.next("welcome") for bot in crowd))
            for bot in crowd:
                await bot.close()
            return welcomes

    assert len(run(scenario())) == 2 * MAX_WAITING
