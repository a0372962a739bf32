"""The phone page between games and at the table's edges, in real headless
Chromium at phone size: a seat closed between games says why at the top of
the "Game N over" sheet with nothing left to tap; with the server gone the
sheet says so and offers no "Play again" until it is back; the players row
stays in view when the table scrolls to the newest line; an empty pile is
drawn empty."""

from __future__ import annotations

import asyncio
import os

import pytest

from cardcli.kit.cards import NAME
from cardcli.serve.server import TableServer

from .browser import chromium, phone_page, play_on, tap_until
from .helpers import LIMIT, evening_served, game_where, make_game, until
from .test_phone import shot, sit_down

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (.ci/run installs it)")

#: The sheet as a person reads it: its first paragraph, its buttons (enabled or not), the status.
SHEET = """(() => {
  const body = document.getElementById('sheetbody');
  const buttons = [...document.querySelectorAll('#sheetbody button')];
  return {first: body.firstElementChild ? body.firstElementChild.textContent : '',
          firstTop: body.firstElementChild ? body.firstElementChild.getBoundingClientRect().top : -1,
          enabled: buttons.filter(b => !b.disabled).map(b => b.textContent),
          disabled: buttons.filter(b => b.disabled).map(b => b.textContent),
          text: body.textContent, status: document.getElementById('link').textContent,
          open: !document.getElementById('sheet').hidden};
})()"""


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT * 3))


async def _first_game(page, table) -> None:
    await sit_down(page)
    await play_on(page, lambda: table.lobby is not None)
    await page.wait_for("!!document.getElementById('again')")


def test_a_seat_closed_between_games_says_why_at_the_top_of_the_sheet(tmp_path):
    """The host gives the seat a new link; later the new holder leaves the
    table: each time the sheet leads with the reason, offers no button that
    does nothing, and a tap keeps "not at the table"."""
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("trick", kinds, record, seed=5, ruleset="trick-five-cards")
        async with evening_served(game, kinds, record) as (table, lobby, port, _task):
            async with phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await _first_game(page, table)
                lobby.run("link 1")
                await page.wait_for("document.getElementById('link').textContent === 'not at the table'")
                await page.wait_for("document.querySelector('#sheetbody .gone') !== null")
                replaced = await page.evaluate(SHEET)
                await shot(page, tmp_path, "sheet-replaced")
            async with phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await sit_down(page)
                await page.wait_for("!!document.getElementById('leave')")
                await page.tap("#leave")
                await page.tap("#leave")  # "Tap again to leave for good"
                await page.wait_for("document.querySelector('#sheetbody .gone') !== null")
                await until(lambda: table.seats[0].left, "the seat is left")
                left = await page.evaluate(SHEET)
                await page.tap("#closesheet")
                await asyncio.sleep(0.2)
                after_tap = await page.evaluate("document.getElementById('link').textContent")
                await shot(page, tmp_path, "sheet-left")
            return replaced, left, after_tap

    replaced, left, after_tap = run(scenario())
    assert replaced["open"] and replaced["first"].startswith("The host gave this seat a new link")
    assert replaced["firstTop"] < 200, "the reason is at the top of the sheet, where it is read"
    assert replaced["enabled"] == [] and replaced["disabled"] == [], replaced  # no Play again, no Leave
    assert replaced["status"] == "not at the table"
    assert left["first"].startswith("You left the table") and left["enabled"] == [] == left["disabled"]
    # The seats of the next game: this page's own is said left, not "deciding" as the table last said.
    assert "left the table" in left["text"] and "deciding" not in left["text"], left["text"]
    assert after_tap == "not at the table"


def test_between_games_with_the_server_gone_play_again_waits_for_it(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = make_game("trick", kinds, record, seed=5, ruleset="trick-five-cards")
        servers: list[TableServer] = []
        async with evening_served(game, kinds, record, servers=servers) as (table, _lobby, port, _task):
            async with phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
                await _first_game(page, table)
                # The server goes away (as the evening's server would, killed): its port closes.
                await servers[0].stop()
                await page.wait_for("document.getElementById('link').textContent === 'offline'")
                await page.wait_for("document.getElementById('again').disabled")
                gone = await page.evaluate(SHEET)
                await shot(page, tmp_path, "between-offline")
                await page.tap("#again")  # disabled: nothing happens, nothing is lost
                back = TableServer()
                back.add(table)
                assert await back.start("127.0.0.1", port) == port
                try:
                    await page.wait_for("!document.getElementById('again').disabled", timeout=30)
                    was_ready = table.seats[0].ready
                    await page.tap("#again")
                    await until(lambda: table.seats[0].ready or table.lobby is None, "play again is heard")
                finally:
                    await back.stop()
            return gone, was_ready

    gone, was_ready = run(scenario())
    assert gone["status"] == "offline" and "Offline: reconnecting" in gone["text"]
    assert "Play again" in gone["disabled"] and "Leave the table" in gone["disabled"]
    assert gone["enabled"] == ["See the table"] or gone["enabled"] == [], gone
    assert not was_ready, "the tap made offline was never taken as said"


def test_the_players_row_stays_in_view_when_the_table_scrolls_to_the_newest_line(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    def eight(state) -> bool:
        hand = [NAME[c] for c in state.hands[0]]
        return len(hand) >= 8 and any(name.startswith("8") for name in hand)

    async def scenario():
        game = game_where("matching", kinds, record, eight)
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await sit_down(page)
            await page.wait_for("!!document.querySelector('#actions .yourturn')")
            await tap_until(page, "#hand button[aria-label^='8']",
                            "document.querySelectorAll('#actions button.primary').length === 4")
            await page.tap("#actions button.quiet")  # the list of every move: the dock grows
            await asyncio.sleep(0.3)
            place = await page.evaluate(
                "(() => { const h = document.getElementById('top').getBoundingClientRect();"
                " const p = document.getElementById('players').getBoundingClientRect();"
                " const m = document.querySelector('main');"
                " const n = document.getElementById('log').lastElementChild.getBoundingClientRect();"
                " const d = document.getElementById('dock').getBoundingClientRect();"
                " return {header: h.bottom, top: p.top, bottom: p.bottom, scrolled: m.scrollTop,"
                " newest: n.bottom, dock: d.top}; })()")
            await shot(page, tmp_path, "players-in-view")
            return place

    place = run(scenario())
    assert place["scrolled"] > 20, place  # the table did scroll to its newest line
    assert place["top"] >= place["header"] - 0.5 and place["bottom"] < place["dock"], place
    assert place["newest"] <= place["dock"], place


def test_an_empty_discard_pile_is_drawn_empty_not_as_a_card(tmp_path):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "cpu"]

    async def scenario():
        game = game_where("endofpage", kinds, record, lambda state: len(state.discard) == 0,
                          ruleset="endofpage-family", seeds=range(1, 60))
        async with evening_served(game, kinds, record) as (table, _lobby, port, _task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await sit_down(page)
            await page.wait_for("document.querySelectorAll('#piles .pile').length >= 3")
            piles = await page.evaluate(
                "[...document.querySelectorAll('#piles .pile')].map(p => ({label: p.querySelector('.label')"
                ".textContent, back: p.querySelector('.back') ? p.querySelector('.back').textContent : null,"
                " empty: !!p.querySelector('.empty'), cards: p.querySelectorAll('.card').length}))")
            await shot(page, tmp_path, "empty-pile")
            return piles

    piles = run(scenario())
    discard = next(p for p in piles if p["label"] == "discard pile")
    assert discard == {"label": "discard pile", "back": None, "empty": True, "cards": 0}
    stock = next(p for p in piles if p["label"] == "stock")
    assert stock["back"] not in (None, "0")

