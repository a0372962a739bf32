"""The page's language from the phone's ``Accept-Language``, where the host allows
it (``cardcli serve --page-language phone``): a real server on 127.0.0.1, real
HTTP requests and WebSocket clients; and the host's console and ``cardcli join``
in Japanese at real terminals."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import pexpect
import pytest
from websockets.asyncio.client import ClientConnection, connect

from cardcli.kit import language
from cardcli.serve.page_words import accepted, best_language, page_languages
from cardcli.serve.protocol import PROTOCOL
from cardcli.serve.table import Table

from .browser import chromium, phone_page
from .helpers import LIMIT, make_game, served
from .test_terminals import CARDCLI, PROMPT

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
JA = "ja-JP,ja;q=0.9"
KINDS = ["friend", "friend", "cpu"]
needs_chromium = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                    reason="Chromium is not installed (.ci/run installs it)")


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English and leaves the language as it found it."""
    language.choose("en")
    yield
    language.choose("en")


def shipped(name: str = "index.html") -> bytes:
    return resources.files("cardcli.serve").joinpath("static", name).read_bytes()


# ------------------------------------------------------------ the header
def test_accept_language_is_read_with_its_weights():
    assert accepted("ja-JP,ja;q=0.9,en;q=0.8") == [("ja", 1.0), ("ja", 0.9), ("en", 0.8)]
    assert accepted("en;q=0.5, ja") == [("ja", 1.0), ("en", 0.5)]  # the weights order them
    assert accepted("ja;q=0.9;q=0.1") == [("ja", 0.9)]  # the first q counts (as Chromium may send)
    assert accepted("JA_jp") == [("ja", 1.0)]
    assert accepted("*;q=0.1") == [("*", 0.1)]


GARBAGE = ["", ";;;,,,", "q=0.9", "ja;q=abc", "ja;q=2", "ja;q=-1", "ja;q=nan", "ja;q=inf", "日本語",
           "\x00\xff", "-" * 5000, "x-" * 5000, "a" * 20, ",".join(["fr"] * 1000) + ",ja", "*;q=", None]


@pytest.mark.parametrize("header", GARBAGE, ids=[f"garbage{n}" for n in range(len(GARBAGE))])
def test_a_header_cardcli_cannot_read_falls_back_to_the_host(header):
    assert best_language(header, "en") == "en"
    assert best_language(header, "ja") == "ja"


def test_the_best_language_is_the_first_asked_that_the_pages_speak():
    assert best_language(JA, "en") == "ja"
    assert best_language("fr-FR,fr;q=0.9,ja;q=0.5,en;q=0.4", "en") == "ja"
    assert best_language("en-GB", "ja") == "en"
    assert best_language("fr, de", "ja") == "ja"  # none of them: the host's
    assert best_language("*", "ja") == "ja"  # any: the host's
    assert best_language("ja;q=0, *", "ja") == "en"  # any but Japanese
    assert best_language("ja;q=0", "en") == "en"


def test_the_languages_are_those_with_a_catalog_of_the_pages_words():
    folder = resources.files("cardcli").joinpath("words", "locale")
    found = {entry.name for entry in folder.iterdir()
             if entry.joinpath("LC_MESSAGES", "page.mo").is_file()}
    assert page_languages() == {"en"} | found
    assert "ja" in page_languages()


# ------------------------------------------------------------ a real server
@contextlib.asynccontextmanager
async def table_served(tmp_path: Path, page_language: str, notices: list[str] | None = None,
                       seed: int = 3) -> AsyncIterator[tuple[Table, int]]:
    """A table of matching on a free port, its game running, served as ``cardcli
    serve --page-language PAGE_LANGUAGE`` serves it (what the host is told goes
    to ``notices``)."""
    game = make_game("matching", KINDS, tmp_path / "game.jsonl", seed=seed)
    async with served(game, KINDS, notices, page_language) as (table, port, _task):
        yield table, port


async def get(port: int, path: str, header: str | None) -> tuple[int, bytes]:
    """``GET path`` with this ``Accept-Language`` (none for ``None``), from a thread."""

    def fetch() -> tuple[int, bytes]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                         headers={} if header is None else {"Accept-Language": header})
        try:
            with urllib.request.urlopen(request, timeout=LIMIT) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as problem:
            return problem.code, problem.read()

    return await asyncio.get_running_loop().run_in_executor(None, fetch)


def words(page: bytes) -> dict[str, str]:
    block = re.search(rb'<script id="words" type="application/json">(.*?)</script>', page, re.S)
    assert block is not None, page[:300]
    return json.loads(block.group(1))


def test_a_phone_asking_for_japanese_gets_the_page_in_japanese_only_where_the_host_allows_it(tmp_path):
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for allowed in ("host", "phone"):
            async with table_served(tmp_path / allowed, allowed) as (table, port):
                link = f"/t/{table.seats[0].token}"
                watch = f"/t/{table.watch_token}"
                seen[allowed] = {header: await get(port, link, header)
                                 for header in (JA, "en-US,en;q=0.9", "%%;q=x,,", "fr-FR", None)}
                seen[allowed]["watch"] = await get(port, watch, JA)
                seen[allowed]["bare"] = await get(port, "/", JA)
                seen[allowed]["gone"] = await get(port, "/t/nothing", JA)
        return seen

    (tmp_path / "host").mkdir()
    (tmp_path / "phone").mkdir()
    seen = asyncio.run(scenario())
    english = shipped()
    # The host did not allow it: every phone gets the page as shipped, byte for byte.
    for header in (JA, "en-US,en;q=0.9", "%%;q=x,,", "fr-FR", None, "watch"):
        assert seen["host"][header] == (200, english), header
    assert not JAPANESE.search(seen["host"]["bare"][1].decode())
    assert not JAPANESE.search(seen["host"]["gone"][1].decode())
    # The host allowed it: Japanese for the phone asking for it, the rest as shipped.
    status, page = seen["phone"][JA]
    assert status == 200 and b'<html lang="ja">' in page
    assert JAPANESE.search(words(page)["Play again"])
    assert page.replace(b'<html lang="ja">', b'<html lang="en">').startswith(english.split(b"</head>")[0])
    assert seen["phone"]["watch"][1] == page  # the watch link's page is the same page
    for header in ("en-US,en;q=0.9", "%%;q=x,,", "fr-FR", None):  # English, garbage, unknown, none
        assert seen["phone"][header] == (200, english), header
    status, bare = seen["phone"]["bare"]
    assert status == 200 and b"<html lang=ja>" in bare and JAPANESE.search(bare.decode())
    status, gone = seen["phone"]["gone"]
    assert status == 404 and JAPANESE.search(gone.decode())


def test_a_japanese_host_serves_english_to_a_phone_that_asks_for_it(tmp_path):
    async def scenario() -> tuple[tuple[int, bytes], tuple[int, bytes], tuple[int, bytes]]:
        async with table_served(tmp_path, "phone") as (table, port):
            link = f"/t/{table.seats[0].token}"
            english = await get(port, link, "en-GB,en;q=0.8")
            return english, await get(port, link, "fr"), await get(port, link, "")

    language.choose("ja")
    english, french, empty = asyncio.run(scenario())
    assert english == (200, shipped())
    for status, page in (french, empty):  # nothing it speaks asked for: the host's Japanese
        assert status == 200 and b'<html lang="ja">' in page and JAPANESE.search(words(page)["Play again"])


class Phone:
    """A WebSocket client that says hello with a link's token and an ``Accept-Language``."""

    def __init__(self, socket: ClientConnection):
        self.socket = socket
        self.messages: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, token: str, header: str | None) -> Phone:
        headers = {} if header is None else {"Accept-Language": header}
        phone = cls(await connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers))
        await phone.send({"type": "hello", "protocol": PROTOCOL, "token": token})
        return phone

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(message))

    async def next(self, kind: str | None) -> dict[str, Any]:
        """The next message (of ``kind``); every message is kept."""
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), LIMIT))
            self.messages.append(message)
            if kind is None or message["type"] == kind:
                return message


def text_of(messages: list[dict[str, Any]]) -> str:
    """What a person reads of these messages."""
    said = []
    for message in messages:
        if message["type"] == "welcome":
            said += [message["title"], message["header"], *message["log"]]
        elif message["type"] == "update":
            said += [*message["events"], message["table"]["text"], *(m["label"] for m in message["moves"])]
        elif message["type"] == "error":
            said.append(message["message"])
    return "\n".join(said)


def test_what_the_table_tells_a_phone_is_in_its_language_and_the_host_keeps_its_own(tmp_path):
    """Host in English, --page-language phone: seat 0 asks for Japanese, seat 1
    for nothing, a spectator for Japanese. Each is told the game in its own
    language (the welcome, the events, the table, the moves, a refusal); the
    host's notices stay English; a second table allowing nothing speaks English to all."""
    notices: list[str] = []

    async def play(phone: Phone, updates: int) -> None:
        """Play the first move offered until ``updates`` updates (or the game's end) came."""
        while updates > 0:
            message = await phone.next(None)
            if message["type"] == "over":
                return
            if message["type"] == "update":
                updates -= 1
                if message["moves"]:
                    await phone.send({"type": "move", "turn": message["turn"], "move": 0})

    async def scenario() -> tuple[Phone, Phone, Phone]:
        async with table_served(tmp_path, "phone", notices) as (table, port):
            ja = await Phone.open(port, table.seats[0].token, JA)
            en = await Phone.open(port, table.seats[1].token, None)
            watching = await Phone.open(port, table.watch_token, "ja")
            await asyncio.gather(play(ja, 8), play(en, 8), play(watching, 4))
            await ja.send({"type": "move", "turn": 10_000, "move": 0})  # refused: not its turn, or stale
            await ja.send({"type": "tango"})  # refused: no such message
            await ja.next("error")
            await ja.next("error")
            await en.send({"type": "tango"})
            await en.next("error")
            for phone in (ja, en, watching):
                await phone.socket.close()
            return ja, en, watching

    ja, en, watching = asyncio.run(scenario())
    told_ja, told_en, told_watching = text_of(ja.messages), text_of(en.messages), text_of(watching.messages)
    assert JAPANESE.search(told_ja) and JAPANESE.search(told_watching)
    assert "枚" in told_ja and "山札" in told_ja  # the table's own words
    assert not JAPANESE.search(told_en), told_en
    welcome = ja.messages[0]
    assert welcome["type"] == "welcome"
    assert JAPANESE.search(welcome["header"]) and JAPANESE.search(welcome["title"])
    errors = [m["message"] for m in ja.messages if m["type"] == "error"]
    assert len(errors) >= 2 and all(JAPANESE.search(said) for said in errors), errors
    assert [m["message"] for m in en.messages if m["type"] == "error"] == [
        "unknown message type 'tango' (known: again, answer, hello, leave, move, name, ping)"]
    # The host is told in its own language, whatever the phones speak.
    assert notices and not any(JAPANESE.search(notice) for notice in notices), notices
    assert "p0 joined" in notices and "p1 joined" in notices


def test_a_phone_reconnecting_is_told_what_just_happened_in_its_language(tmp_path):
    """Seat 0 is away while the game goes on; it comes back asking for Japanese:
    its recap is in Japanese, and the same seat opened without the header again
    gets the English log the table kept."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with table_served(tmp_path, "phone") as (table, port):
            first = await Phone.open(port, table.seats[0].token, JA)
            welcome_ja = await first.next("welcome")
            await first.socket.close()
            await asyncio.sleep(0.2)
            again = await Phone.open(port, table.seats[0].token, None)
            welcome_en = await again.next("welcome")
            await again.socket.close()
            return welcome_ja, welcome_en

    welcome_ja, welcome_en = asyncio.run(scenario())
    assert welcome_ja["log"] and all(JAPANESE.search(line) for line in welcome_ja["log"]), welcome_ja["log"]
    assert welcome_en["log"] and not any(JAPANESE.search(line) for line in welcome_en["log"])
    assert len(welcome_ja["log"]) == len(welcome_en["log"])


# ------------------------------------------------------------ the terminals
def spawn(tmp_path: Path, *args: str, **more: str) -> pexpect.spawn:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "CI", "CARDCLI_LANG")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", CARDCLI_GAMES=str(tmp_path / "games"), **more)
    return pexpect.spawn(CARDCLI, ["--lang", "ja", *args, "--no-color"], env=env, encoding="utf-8",
                         dimensions=(60, 160), timeout=60)


@pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")
def test_the_hosts_console_and_cardcli_join_speak_japanese(tmp_path):
    """`cardcli --lang ja serve` and `cardcli --lang ja join`, for real: the
    addresses, the links, who joins and is renamed, the host's commands during
    a game, the friend's greeting and door, leaving, and the end of the evening."""
    record = tmp_path / "game.jsonl"
    host = spawn(tmp_path, "serve", "trick", "--players", "you,friend,cpu:easy", "--ruleset", "five-cards",
                 "--seed", "6", "--port", "0", "--record", str(record), "--no-qr")
    host.expect(r"への招待: (http://127\.0\.0\.1:\d+/t/\S+)")
    link = host.match.group(1)
    opening = host.before
    host.expect("観戦リンク")
    friend = spawn(tmp_path, "join", link)
    friend.expect_exact("あなたはfriend1です(席1)。")
    friend.expect_exact("卓でのあなたの名前 [friend1]> ")
    friend.sendline("dana")
    host.expect_exact("friend1が参加しました")
    host.expect_exact("friend1はdanaという名前になりました")
    host.expect(PROMPT)  # the host's turn: its own prompt (in Japanese: the variant's dialogue)
    host.sendline("seats")
    host.expect_exact("次のゲーム:")
    host.expect_exact("dana (友だち、接続中)")
    friend.sendcontrol("c")
    friend.expect_exact("卓を離れました。同じコマンドで席に戻れます。")
    friend.expect(pexpect.EOF)
    host.expect_exact("danaが離れました(同じリンクで席に戻れます)")
    host.sendcontrol("c")
    host.expect_exact("卓を保存しました。同じリンクでもう一度開くには:")
    host.expect(pexpect.EOF)
    assert "接続できるのはこのマシンだけです" in opening and "シード 6。記録先:" in opening, opening
    assert "(ホスト)" in opening and "(友だち)" in opening and "(CPU)" in opening, opening
    helped = spawn(tmp_path, "serve", "--help", PAGER="cat")  # (taller than the terminal: paged)
    helped.expect(pexpect.EOF)
    assert "--page-language [host|phone]" in helped.before and "スマホが開くページの言語" in helped.before


# ------------------------------------------------------------ a real phone
@pytest.mark.slow
@needs_chromium
def test_a_browser_asking_for_japanese_plays_in_japanese_at_an_english_host(tmp_path):
    """Headless Chromium at phone size, its Accept-Language Japanese, at a
    table served in English with --page-language phone: the page and what the
    table tells it (its WebSocket sends the same header) are in Japanese."""

    async def scenario() -> tuple[str, str, str]:
        async with table_served(tmp_path, "phone") as (table, port):
            url = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"
            async with phone_page(url, accept_language=JA) as page:
                await page.wait_for("!!document.getElementById('sitdown')")
                lang = await page.evaluate("document.documentElement.lang")
                await page.tap("#sitdown")
                await page.wait_for("document.querySelectorAll('#hand .card').length > 0")
                await page.wait_for("document.getElementById('log').textContent.length > 0")
                log = await page.evaluate("document.getElementById('log').textContent")
                header = await page.evaluate("document.body.innerText")
                return lang, log, header

    lang, log, body = asyncio.run(scenario())
    assert lang == "ja"
    assert JAPANESE.search(log), log  # the events, told by the server in the phone's language
    assert "Page One (matching): the standard rules" not in body
