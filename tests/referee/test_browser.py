"""A referee's page in real headless Chromium at phone size: ``cardcli
referee --seat ann --serve`` running as its own process, a game typed into
it entry by entry, and the page following each one live, readable across a
table and showing none of ann's own cards."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.kit.record_format import parse_header
from cardcli.realtable.referee import Referee

from ..serve.browser import chromium, phone_page
from .test_referee import public_lines
from .test_serve import cards_named
from .words import referee_words

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (.ci/run installs it)")
CARDCLI = [sys.executable, "-c", "from cardcli.cli import main; main()"]
LIMIT = 60


def test_a_referees_page_follows_the_table_on_a_phone_and_shows_no_seats_cards(tmp_path):
    seat_view = public_lines("matching", None, 3, 3, viewer=0)
    public = public_lines("matching", None, 3, 3)
    names = [player["name"] for player in seat_view[0]["players"]]
    private = cards_named(seat_view[1:]) - cards_named(public[1:])
    assert private
    typed = referee_words(seat_view)[:12]
    assert typed[0].startswith(f"{names[0]} gets ")
    shadow = Referee(get_registry(), parse_header(seat_view[0], "<test>"))  # what the page should say
    process = subprocess.Popen(
        [*CARDCLI, "referee", "matching", "--players", ",".join(names), "--dealer",
         names[seat_view[0]["dealer"]], "--seat", names[0], "--serve", "--port", "0", "--no-qr",
         "--record", str(tmp_path / "r.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, env={**os.environ, "NO_COLOR": "1"})
    assert process.stdin is not None and process.stdout is not None

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(None, process.stdout.readline)
        assert "The table, live and read-only, for this machine only" in first, first
        link = first.split(": ", 1)[1].strip()
        async with phone_page(link) as page:
            await page.wait_for("document.getElementById('link')?.textContent === 'live'")
            for entry in typed:
                process.stdin.write(entry + "\n")
                process.stdin.flush()
                shadow.enter(entry)
                said = shadow.expected()
                await page.wait_for(f"document.getElementById('headline').textContent === {json.dumps(said)}")
                shown = await page.evaluate("document.body.innerText")
                assert not cards_named(shown) & private, (entry, cards_named(shown) & private)
                if entry.startswith(f"{names[0]} gets "):  # the entry as the page says it
                    assert f"{names[0]} gets 7 cards" in shown
            players = await page.evaluate(
                "[...document.querySelectorAll('#players .player .name')].map(e => e.textContent)")
            assert players == names
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            size = await page.evaluate(
                "parseFloat(getComputedStyle(document.getElementById('headline')).fontSize)")
            assert size >= 20  # readable across a table

    try:
        asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
