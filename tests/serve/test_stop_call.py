"""The Stop call on the phone, in real headless Chromium: with the last card
in hand the page offers "Stop!" where it offers "Page One!" with two (a
button to say it, beside the moves; forgetting stays possible), and only at
a table that plays the call."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from cardcli.testing import validate_bytes
from cardcli_matching.state import P_PLAY, PLAY

from .browser import chromium, phone_page, tap_until
from .helpers import LIMIT, game_where, served, until

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (.ci/run installs it)")
#: Where the screenshots go (CARDCLI_SHOTS=DIR keeps them to look at).
SHOTS = os.environ.get("CARDCLI_SHOTS")
KINDS = ["friend", "cpu"]


def ruleset(tmp_path: Path, stop: bool) -> str:
    """Small hands and one round: seat 0 soon holds a last card that plays."""
    path = tmp_path / f"stop-{stop}.toml"
    path.write_text(f'name = "Short"\nvariant = "matching"\n\n[options]\nhand_size = 3\n'
                    f"stop_call = {str(stop).lower()}\n")
    return str(path)


def last_card(state) -> bool:
    """Seat 0 holds one card, and it plays now."""
    return state.phase == P_PLAY and len(state.hands[0]) == 1 and any(a[0] == PLAY for a in
                                                                      state.legal_actions())


async def sit_down(page) -> None:
    await page.wait_for("!!document.getElementById('sitdown')")
    await page.tap("#sitdown")
    await page.wait_for("!!document.querySelector('#hand button.playable')")


def play_the_last_card(tmp_path: Path, stop: bool, say: bool) -> tuple[list[str], str, list[dict]]:
    """Seat 0 at its last card, on the phone: the declare buttons the page
    shows, the move it plays (after tapping "Stop!" if ``say``), and the
    record.  The house rules on the page name the call where it is on."""
    record = tmp_path / f"game-{stop}-{say}.jsonl"

    async def scenario():
        game = game_where("matching", KINDS, record, last_card, ruleset=ruleset(tmp_path, stop))
        before = game.moves
        async with served(game, KINDS) as (table, port, task), \
                phone_page(f"http://127.0.0.1:{port}/t/{table.seats[0].token}") as page:
            await sit_down(page)
            rules = await page.evaluate("document.getElementById('rules').textContent")
            buttons = await page.evaluate("[...document.querySelectorAll('#actions button.declare')]"
                                          ".map(b => b.textContent)")
            if say:
                await tap_until(page, "#actions button.declare",
                                "!!document.querySelector('#actions button.declare.on')")
                buttons.append(await page.evaluate("document.querySelector('#actions button.declare')"
                                                   ".textContent"))
            await tap_until(page, "#hand button.playable",
                            "!!document.querySelector('#actions button.primary')")
            label = await page.evaluate("document.querySelector('#actions button.primary').textContent")
            if SHOTS:
                await page.screenshot(Path(SHOTS) / f"stop-{stop}-{say}.png")
            await page.tap("#actions button.primary")
            await until(lambda: game.moves > before, "the last card played")
            if say or not stop:
                await until(task.done, "the game's end")
            return rules, buttons, label

    rules, buttons, label = asyncio.run(asyncio.wait_for(scenario(), LIMIT * 2))
    assert ('"Stop!" called with the last card' in rules) == stop, rules  # the house rules, under How to play
    return buttons, label, [json.loads(line) for line in record.read_text().splitlines()]


def test_the_page_offers_stop_with_the_last_card_and_saying_it_goes_out(tmp_path):
    buttons, label, lines = play_the_last_card(tmp_path, stop=True, say=True)
    assert buttons == ['Say "Stop!"', "Stop! \u2714"]
    assert label.startswith('call "Stop!" and play ')
    played = [line for line in lines if line.get("move") == "play" and line["seat"] == 0][-1]
    assert played["call"] is True
    assert lines[-1]["result"]["winner"] == 0
    assert validate_bytes(b"".join(json.dumps(line).encode() + b"\n" for line in lines)).valid


def test_the_page_lets_stop_be_forgotten(tmp_path):
    buttons, label, lines = play_the_last_card(tmp_path, stop=True, say=False)
    assert buttons == ['Say "Stop!"'] and label.startswith("play ")
    played = [line for line in lines if line.get("move") == "play" and line["seat"] == 0][-1]
    assert "call" not in played
    assert lines[-1] == {"chance": "draw", "seat": 0, "cards": lines[-1]["cards"]}  # drawn, not out
    assert len(lines[-1]["cards"]) == 2


def test_a_table_without_the_call_shows_no_stop_button(tmp_path):
    buttons, label, lines = play_the_last_card(tmp_path, stop=False, say=False)
    assert buttons == [] and label.startswith("play ")
    assert lines[-1]["result"]["winner"] == 0
