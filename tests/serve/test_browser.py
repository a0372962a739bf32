"""The phone page in real headless Chromium: open an invite link, see the hand,
play a legal move by tapping, and the other clients see it."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cardcli.testing import validate_bytes

from .browser import chromium, phone_page, tap_until
from .helpers import LIMIT, Bot, make_game, served

#: The screenshot kept in the docs is taken again when this is set
#: (CARDCLI_SCREENSHOT=1 python -m pytest tests/serve/test_browser.py).
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "serve-phone.png"

needs_chromium = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                    reason="Chromium is not installed (.ci/run installs it)")


@needs_chromium
@pytest.mark.parametrize("variant", ["matching", pytest.param("endofpage", marks=pytest.mark.slow)])
def test_a_phone_opens_its_link_sees_its_hand_and_plays(tmp_path, variant):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"] if variant == "matching" else ["friend", "friend"]

    async def scenario():
        game = make_game(variant, kinds, record, seed=11, ruleset=None if variant == "matching"
                         else "endofpage-short")
        async with served(game, kinds) as (table, port, task):
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            bob_plays = asyncio.ensure_future(bob.until_over())
            url = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"
            async with phone_page(url) as page:
                await page.wait_for("!!document.getElementById('sitdown')")  # the door: keep the name
                await page.tap("#sitdown")
                await page.wait_for("document.querySelectorAll('#hand .card').length > 0")
                # Its own hand, card for card, as the server sees it.
                shown = await page.evaluate("[...document.querySelectorAll('#hand .card')]"
                                            ".map(c => c.getAttribute('aria-label')).sort().join(' ')")
                from cardcli.kit.cards import NAME

                hand = sorted(NAME[c] for c in table.game.state.hands[0])
                assert shown == " ".join(hand)
                # Its turn: tap a playable card and the move it offers, or a move without cards.
                await page.wait_for("!!document.querySelector('#actions button.quiet')")
                before = table.game.moves
                if await page.evaluate("!!document.querySelector('#hand button.playable')"):
                    await tap_until(page, "#hand button.playable",
                                    "!!document.querySelector('#actions button.primary')")
                    label = await page.evaluate(
                        "document.querySelector('#actions button.primary').textContent")
                    if variant == "matching":
                        shot = SCREENSHOT if os.environ.get("CARDCLI_SCREENSHOT") else tmp_path / "phone.png"
                        await page.screenshot(shot)
                        assert shot.read_bytes().startswith(b"\x89PNG")
                    await page.tap("#actions button.primary")
                else:
                    plain = "#actions button:not(.quiet):not(.declare)"
                    label = await page.evaluate(f"document.querySelector('{plain}').textContent")
                    await page.tap(plain)
                for _ in range(100):
                    if table.game.moves > before:
                        break
                    await asyncio.sleep(0.05)
                assert table.game.moves > before, f"tapping {label!r} played nothing"
                # The move is applied before it is broadcast: wait for bob to be told.
                for _ in range(100):
                    told = [line for u in bob.updates() for line in u["events"]]
                    if any(line.startswith("p0 ") for line in told):
                        break
                    await asyncio.sleep(0.05)
                assert any(line.startswith("p0 ") for line in told), "the other client sees the move"
                if variant == "matching":
                    return
                # The page plays the rest of the game: the first move it offers
                # without a card, or else the first of its list of moves.
                page_over = False
                plain = "#actions button:not(.quiet):not(.declare):not(.suggest)"
                for _ in range(2000):
                    if task.done():
                        page_over = True
                        break
                    # Each tap may find the page redrawn by an update (bob's move):
                    # then look again.
                    if not await page.evaluate("document.getElementById('sheet').hidden"):
                        await page.try_tap("#closesheet")  # a round's end
                    elif await page.try_tap(plain):
                        pass
                    elif await page.evaluate("!!document.querySelector('#actions button.quiet')"):
                        if not await page.evaluate("!!document.querySelector('#actions .all')"):
                            await page.try_tap("#actions button.quiet")
                        await page.try_tap("#actions .all button")
                    elif await page.try_tap("#hand button.playable"):  # the one move: a card to tap
                        await page.try_tap("#actions button.primary")
                    await asyncio.sleep(0.02)
                assert page_over, await page.evaluate("document.body.innerText")
                await page.wait_for("document.getElementById('sheettitle').textContent === 'Game 1 over'")
                lines = await page.evaluate("[...document.querySelectorAll('#sheetbody details .line')]"
                                            ".map(n => n.textContent)")
                ranking = await page.evaluate("[...document.querySelectorAll('ol.ranking .name')]"
                                              ".map(n => n.textContent)")
                await bob_plays
                places = bob.over["result"]["places"]
                expected = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
                assert ranking == [f"p{seat}" for seat in expected]
                symbols = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "\u00a0": ""})
                told = [line.strip() for line in bob.over["text"].split("\n")]
                assert "Ranking:" in told and [line.translate(symbols) for line in lines] == told

    asyncio.run(asyncio.wait_for(scenario(), LIMIT * 2))
    if variant != "matching":
        assert validate_bytes(record.read_bytes()).valid
