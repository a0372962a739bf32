"""The phone page through an evening, in real headless Chromium at phone size:
the door, two games in a row and the tally, a re-issued link, the offline
state, End of the Page's whole discard pile and round's end, and the newest
line of "what just happened" above the hand."""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cardcli.kit.cards import NAME
from cardcli.serve.server import TableServer
from cardcli.serve.table import Table, TableOptions
from cardcli.testing import validate_bytes

from .browser import chromium, phone_page, play_on, tap_until, type_text
from .helpers import LIMIT, Bot, evening_served, game_where, make_game, until

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (.ci/run installs it)")
#: Where each test leaves its screenshots (CARDCLI_SHOTS=DIR keeps them to look at).
SHOTS = os.environ.get("CARDCLI_SHOTS")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT * 3))


async def shot(page, tmp_path: Path, name: str) -> None:
    path = Path(SHOTS) / f"{name}.png" if SHOTS else tmp_path / f"{name}.png"
    await page.screenshot(path)
    assert path.read_bytes().startswith(b"\x89PNG")


async def sit_down(page, name: str | None = None) -> None:
    await page.wait_for("!!document.getElementById('sitdown')")
    if name is not None:
        await type_text(page, "#name", name)
    await page.tap("#sitdown")
    await page.wait_for("(s => s.hidden || s.dataset.kind !== 'door')(document.getElementById('sheet'))")


def test_two_games_on_the_phone_with_a_name_chosen_at_the_door(tmp_path):
    """A friend names themselves at the door, plays a game, taps Play again,
    plays a second; the page's tally is the games' results; then the host
    gives the seat a new link and the page is told its link is gone."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("trick", kinds, record, seed=5, ruleset="trick-five-cards")
        async with evening_served(game, kinds, record) as (table, lobby, port, _task):
            watcher = await Bot(port, table.watch_token, play=False).open()
            url = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"
            async with phone_page(url) as page:
                await page.wait_for("!!document.getElementById('sitdown')")
                assert await page.evaluate("document.getElementById('name').value") == "p0"  # prefilled
                await shot(page, tmp_path, "door")
                await sit_down(page, "Zoë <b>&")
                named = await watcher.next("players")
                assert named["players"][0]["name"] == "Zoë <b>&"
                watching = asyncio.ensure_future(watcher.until_games(2))
                await page.wait_for("document.getElementById('who').textContent === 'as Zoë <b>&'")
                await play_on(page, lambda: table.lobby is not None)
                await page.wait_for("document.getElementById('sheettitle').textContent === 'Game 1 over'")
                await page.wait_for("!!document.getElementById('again')")
                await shot(page, tmp_path, "game-over")
                await page.tap("#again")
                await until(lambda: table.number == 2 and table.lobby is None, "game 2 starts")
                await page.wait_for("document.getElementById('sheet').hidden")
                await play_on(page, lambda: table.lobby is not None and table.number == 2)
                await page.wait_for("document.getElementById('sheettitle').textContent === 'Game 2 over'")
                await page.wait_for("document.querySelectorAll('#lobby table.tally tr').length === 4")
                tally = await page.evaluate("[...document.querySelectorAll('#lobby table.tally tr')]"
                                            ".map(r => [...r.children].map(c => c.textContent))")
                await shot(page, tmp_path, "tally")
                overflow = await page.evaluate("document.documentElement.scrollWidth - innerWidth")
                old = table.seats[0].token
                lobby.run("link 1")
                await page.wait_for("document.querySelector('#actions .gone') !== null")
                gone = await page.evaluate("document.querySelector('#actions .gone').textContent")
                await page.evaluate("document.getElementById('sheet').hidden = true")
                await shot(page, tmp_path, "replaced")
            # The new link, opened between games: the door, then the evening and Play again.
            async with phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await sit_down(page)
                await page.wait_for("!!document.getElementById('again')")
                lobby_title = await page.evaluate("document.getElementById('sheettitle').textContent")
            loop = asyncio.get_running_loop()

            def fetch(token: str) -> int:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{token}") as response:
                        return response.status
                except urllib.error.HTTPError as problem:
                    return problem.code

            statuses = [await loop.run_in_executor(None, fetch, t) for t in (old, table.seats[0].token)]
            results = [m["result"] for m in await watching]
            return tally, results, gone, statuses, overflow, lobby_title

    tally, results, gone, statuses, overflow, lobby_title = run(scenario())
    assert lobby_title == "Game 2 over"
    assert len(results) == 2
    assert tally[0] == ["", "Zoë <b>&", "cpu1"]
    assert [row[0] for row in tally[1:]] == ["game 1", "game 2", "wins"]
    for column in (1, 2):
        assert tally[3][column] == str(sum(r["places"][column - 1] == 1 for r in results))
        assert tally[1][column] == f"{results[0]['places'][column - 1]}."
    assert "new link" in gone and statuses == [410, 200]  # the old link: "gone", and why (test_links)
    assert overflow <= 0, "the sheet fits the phone's width"
    paths = [record, tmp_path / "game.game2.jsonl"]
    for path in paths:
        report = validate_bytes(path.read_bytes())
        assert report.valid, report.error
    assert json.loads(paths[1].read_text().splitlines()[0])["players"][0]["name"] == "Zoë <b>&"


def test_offline_the_page_says_so_and_offers_no_move_until_it_is_back(tmp_path):
    """The server goes away at the friend's turn: the page shows it is
    offline with every move disabled, a tap sends nothing; the server comes
    back on the same port and the page plays on."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=2)
        table = Table.for_game(game, kinds, options=TableOptions())
        server = TableServer()
        server.add(table)
        port = await server.start("127.0.0.1", 0)
        playing = asyncio.ensure_future(table.play())
        try:
            async with phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await sit_down(page)
                await page.wait_for("!!document.querySelector('#hand button.playable')")
                await server.stop()
                await page.wait_for("document.body.classList.contains('offline')")
                state = await page.evaluate(
                    "({status: document.getElementById('link').textContent,"
                    " enabled: [...document.querySelectorAll('#dock button')]"
                    ".filter(b => !b.disabled).length,"
                    " turn: !!document.querySelector('#actions .yourturn'),"
                    " said: document.getElementById('actions').textContent})")
                await shot(page, tmp_path, "offline")
                moves = game.moves
                await page.tap("#hand button")  # a disabled card: nothing happens, nothing is sent
                await asyncio.sleep(0.3)
                assert game.moves == moves
                server = TableServer()
                server.add(table)
                assert await server.start("127.0.0.1", port) == port
                await page.wait_for("!document.body.classList.contains('offline')", timeout=30)
                await page.wait_for("!!document.querySelector('#hand button.playable')")
                back = await page.evaluate("document.getElementById('link').textContent")
                await page.tap("#hand button.playable")
                await page.wait_for("!!document.querySelector('#actions button.primary')")
                await page.tap("#actions button.primary")
                await until(lambda: game.moves > moves, "the move after coming back is played")
                return state, back
        finally:
            playing.cancel()
            await server.stop()
            game.writer.close()

    state, back = run(scenario())
    assert state["status"] == "offline" and state["enabled"] == 0 and not state["turn"]
    assert "Offline" in state["said"] and back == "connected"


def _deep(state) -> bool:
    from cardcli_endofpage.state import PICKUP

    return any(a[0] == PICKUP and len(state.discard) - state.discard.index(a[1]) == 7
               for a in state.legal_actions())


def test_end_of_the_page_a_deep_pickup_of_the_seventh_card_from_the_top(tmp_path):
    from cardcli_endofpage.state import PICKUP

    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = game_where("endofpage", kinds, record, _deep, ruleset="endofpage-family")
        state = game.state
        card = next(NAME[a[1]] for a in state.legal_actions()
                    if a[0] == PICKUP and len(state.discard) - state.discard.index(a[1]) == 7)
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await sit_down(page)
            await page.wait_for("!!document.querySelector('#actions .yourturn')")
            hidden = await page.evaluate("!document.querySelector('#piles .card[data-depth=\"7\"]')")
            await tap_until(page, "#piles .more",  # the whole pile (a tap lost to a redraw: again)
                            "!!document.querySelector('#piles .card[data-depth=\"7\"]')")
            seventh = await page.evaluate(
                "(() => { const c = document.querySelector('#piles .card[data-depth=\"7\"]');"
                " c.scrollIntoView({block: 'center'}); const r = c.getBoundingClientRect();"
                " const dock = document.getElementById('dock').getBoundingClientRect();"
                " return {name: c.getAttribute('aria-label'),"
                " seen: r.top >= 0 && r.bottom <= dock.top}; })()")
            moves = table.update(0, [])["moves"]
            number, pickup = next((i, m) for i, m in enumerate(moves)
                                  if m["kind"] == "pickup" and card in m["label"])
            for name in pickup["cards"]:
                await tap_until(page, f"#hand button[aria-label='{name}']:not(.selected)",
                                f"!!document.querySelector(\"#hand button.selected[aria-label='{name}']\")")
            offered = await page.evaluate("[...document.querySelectorAll('#actions button.primary')]"
                                          ".map(b => Number(b.dataset.move))")
            await shot(page, tmp_path, "deep-pickup")
            await page.tap(f"#actions button.primary[data-move='{number}']")
            await until(lambda: game.history[-1][0] == PICKUP or table.waiting() != 0, "the pickup")
            return card, hidden, seventh, offered, number, game.history[-1]

    card, hidden, seventh, offered, number, last = run(scenario())
    assert hidden, "below the top six until the whole pile is shown"
    assert seventh == {"name": card, "seen": True}
    assert number in offered
    assert last[0] == PICKUP and NAME[last[1]] == card
    report = validate_bytes(record.read_bytes())  # a game in progress, every move of it legal
    assert report.error is not None and report.error.kind == "unfinished" and '"move": "pickup"' in \
        record.read_text().splitlines()[-1]


def test_end_of_the_page_the_round_end_sheet_fits_the_phone(tmp_path):
    from cardcli_endofpage.state import DISCARD

    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    def going_out(state) -> bool:
        return len(state.hands[0]) == 1 and any(a[0] == DISCARD for a in state.legal_actions())

    async def scenario():
        game = game_where("endofpage", kinds, record, going_out, ruleset="endofpage-family")
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await sit_down(page)
            await page.wait_for("!!document.querySelector('#hand button.playable')")
            words = await page.evaluate("document.querySelector('#actions .yourturn').textContent")
            await page.tap("#hand button.playable")
            await page.tap("#actions button.primary")
            await page.wait_for("document.getElementById('sheettitle').textContent"
                                " === 'The round is over'")
            await shot(page, tmp_path, "round-end")
            return words, await page.evaluate(
                "(() => { const sheet = document.querySelector('#sheet .sheet');"
                " const lines = [...sheet.querySelectorAll('.line')];"
                " return {page: document.documentElement.scrollWidth - innerWidth,"
                " sheet: sheet.scrollWidth - sheet.clientWidth,"
                " lines: lines.filter(l => l.scrollWidth > l.clientWidth).length, count: lines.length,"
                " text: lines.map(l => l.textContent).join('\\n')}; })()")

    words, fit = run(scenario())
    assert "lay off it" not in words and "to pickup" not in words
    assert fit["count"] > 5 and "Score sheet:" in fit["text"]
    assert fit["page"] <= 0 and fit["sheet"] <= 0 and fit["lines"] == 0, fit


def test_the_newest_line_is_never_under_the_hand_and_a_game_served_again_shows_its_last_moves(tmp_path):
    """Eight cards and the four suit buttons of an 8: the newest line of what
    just happened is still in view above the hand.  The game was served after
    moves were made (as after --resume): the panel shows them at once."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    def eight(state) -> bool:
        hand = [NAME[c] for c in state.hands[0]]
        return len(hand) >= 8 and any(name.startswith("8") for name in hand)

    async def scenario():
        game = game_where("matching", kinds, record, eight)
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await page.wait_for("document.querySelectorAll('#log p').length > 0")
            recap = await page.evaluate("[...document.querySelectorAll('#log p')]"
                                        ".map(p => p.textContent)")
            await sit_down(page)
            await page.wait_for("!!document.querySelector('#actions .yourturn')")
            await tap_until(page, "#hand button[aria-label^='8']",
                            "document.querySelectorAll('#actions button.primary').length === 4")
            await shot(page, tmp_path, "eight")
            place = await page.evaluate(
                "(() => { const p = document.querySelector('#log').lastElementChild"
                ".getBoundingClientRect();"
                " const main = document.querySelector('main').getBoundingClientRect();"
                " const dock = document.getElementById('dock').getBoundingClientRect();"
                " return {top: p.top, bottom: p.bottom, main: main.top, dock: dock.top,"
                " cards: document.querySelectorAll('#hand .card').length}; })()")
            return recap, place, table.logs[0]

    recap, place, log = run(scenario())
    symbols = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
    assert recap and [line.translate(symbols) for line in recap] == list(log)[-len(recap):]
    assert place["cards"] >= 8
    assert place["main"] <= place["top"] and place["bottom"] <= place["dock"], place
