"""Names at the door and links that no longer open their seat, at a real table
with real WebSocket clients (and ``cardcli join`` in a real terminal): a name
is never "host" nor reads as a card; a link pasted with a character that is
no part of it is a wrong link, said so; a seat's old link says the seat has
a new one; a new link is not "ready" for its new holder."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import pexpect
import pytest
from websockets.exceptions import ConnectionClosed

from cardcli.serve.table import REPLACED

from .helpers import LIMIT, Bot, evening_served, make_game, served, until
from .test_terminals import CARDCLI, serve, spawn


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as problem:
        return problem.code, problem.read().decode()


def test_names_at_the_door_are_never_host_nor_a_card(tmp_path):
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, _task):
            ann = await Bot(port, table.seats[0].token, play=False).open()
            await ann.next("welcome")
            refused = {}
            for bad in ("host", "HOST", "8S", "10h", "Ann 8S", "jk", "Q\u2660", "the Joker", "Ace-AS"):
                await ann.send({"type": "name", "name": bad})
                refused[bad] = await ann.next("error")
            await ann.send({"type": "name", "name": "Hostess 8"})  # neither "host" nor a card
            players = await ann.next("players")
            return refused, players["players"][0]["name"]

    refused, name = run(scenario())
    for bad, problem in refused.items():
        assert problem["code"] == "bad-name", bad
    assert "what the table calls the host" in refused["host"]["message"]
    assert "'8S' reads as a card" in refused["8S"]["message"]
    assert "'8S' reads as a card" in refused["Ann 8S"]["message"]
    assert name == "Hostess 8"


def test_a_token_with_a_character_pasted_after_it_is_a_wrong_token(tmp_path):
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, tmp_path / "g.jsonl")
        async with served(game, kinds) as (table, port, task):
            pasted = await Bot(port, table.seats[0].token + "\u2019", play=False).open()
            problem = await pasted.next("error")
            with pytest.raises(ConnectionClosed) as closed:
                await pasted.next()
            ann = await Bot(port, table.seats[0].token, play=False).open()
            assert (await ann.next("welcome"))["seat"] == 0
            assert not task.done()
            return problem, closed.value.rcvd.reason

    problem, reason = run(scenario())
    assert problem["code"] == "bad-token" and "does not open a table here" in problem["message"]
    assert reason == "bad-token"


@pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")
def test_cardcli_join_with_a_trailing_quote_mark_stops_with_the_reason(tmp_path):
    host, _hosted, link = serve(tmp_path, tmp_path / "game.jsonl", "matching", "--no-seat", "--players",
                                "friend,cpu:easy")
    try:
        friend, seen = spawn(tmp_path, "join", link + "\u2019")
        friend.expect(pexpect.EOF, timeout=20)
        friend.close()
        assert friend.exitstatus == 1
        shown = seen.getvalue()
        assert "this link does not open a table here" in shown and "reconnecting" not in shown
    finally:
        host.sendintr()
        host.expect(pexpect.EOF)


def test_an_old_link_says_the_seat_has_a_new_one_and_the_new_link_is_not_ready(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=4)
        async with evening_served(game, kinds, record) as (table, lobby, port, _task):
            old = table.seats[1].token
            ann = await Bot(port, table.seats[0].token, seed=1).open()
            bob = await Bot(port, old, seed=2).open()
            await asyncio.gather(ann.until_games(1), bob.until_games(1))
            await bob.send({"type": "again"})
            await until(lambda: table.seats[1].ready, "bob said play again")
            lobby.run("link 2")
            ready_after = table.seats[1].ready
            await ann.send({"type": "again"})
            await until(lambda: table.seats[0].ready, "ann said play again")
            await asyncio.sleep(0.3)
            started = table.lobby is None  # everyone ready would start game 2
            page = await asyncio.get_running_loop().run_in_executor(
                None, _get, f"http://127.0.0.1:{port}/t/{old}")
            stranger = await Bot(port, old, play=False).open()
            problem = await stranger.next("error")
            with pytest.raises(ConnectionClosed) as closed:
                await stranger.next()
            return ready_after, started, page, problem, closed.value.rcvd.reason

    ready_after, started, (status, page), problem, reason = run(scenario())
    assert not ready_after and not started
    assert status == 410 and "gave this seat a new link" in page
    assert problem["code"] == "bad-token" and "gave this seat a new link" in problem["message"]
    assert reason == REPLACED


@pytest.mark.slow
@pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")
def test_cardcli_join_refused_for_opening_the_seat_too_often_waits_then_sits_down(tmp_path):
    """The seat's link opened four times in a row: cardcli join is told to
    wait, says so once, and sits down when the table lets it (not a line a second)."""
    import time

    from cardcli.serve.table import REJOIN_BURST, REJOIN_EVERY

    host, _hosted, link = serve(tmp_path, tmp_path / "game.jsonl", "matching", "--no-seat", "--players",
                                "friend,cpu:easy")
    try:
        port, token = int(link.split(":")[2].split("/")[0]), link.rsplit("/", 1)[1]

        async def reopen() -> None:
            for _ in range(REJOIN_BURST):
                bot = await Bot(port, token, play=False).open()
                await bot.next("welcome")
                await bot.close()

        run(reopen())
        started = time.monotonic()
        friend, seen = spawn(tmp_path, "join", link, "--name", "ann")
        friend.expect_exact("opened the seat too often", timeout=20)
        friend.expect_exact("you are friend1", timeout=REJOIN_EVERY + 15)
        waited = time.monotonic() - started
        refused = seen.getvalue().count("opened the seat too often")
        friend.sendcontrol("c")
        friend.expect(pexpect.EOF)
    finally:
        host.sendintr()
        host.expect(pexpect.EOF)
    assert refused == 1 and waited >= REJOIN_EVERY - 2, (refused, waited)
