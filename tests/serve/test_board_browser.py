"""The read-only board in real headless Chromium at phone size: the score
sheet of a real ``cardcli scoresheet --serve`` updating live as the rounds are
typed, large enough to read across a table; and a public table, as a referee
would publish it, drawn by the same page."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from cardcli.contract.variant import CHANCE
from cardcli.contract.views import BoardView
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.serve.board import Board
from cardcli.serve.server import TableServer
from cardcli.words.view import public_table

from .browser import chromium, phone_page
from .helpers import LIMIT

CARDCLI = shutil.which("cardcli")
pytestmark = [pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                 reason="Chromium is not installed (.ci/run installs it)"),
              pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")]
SHOTS = os.environ.get("CARDCLI_SHOTS")


async def shot(page, tmp_path: Path, name: str) -> None:
    path = Path(SHOTS) / f"{name}.png" if SHOTS else tmp_path / f"{name}.png"
    await page.screenshot(path)
    assert path.read_bytes().startswith(b"\x89PNG")


def cells(selector: str) -> str:
    return f"[...document.querySelectorAll({selector!r})].map(e => e.textContent)"


def text(selector: str) -> str:
    return f"document.querySelector({selector!r})?.textContent"


def test_the_score_sheet_live_on_a_phone(tmp_path):
    assert CARDCLI is not None
    process = subprocess.Popen(
        [CARDCLI, "scoresheet", "endofpage", "--players", "mom,me,dad", "--dealer", "dad",
         "--page-lines", "2", "--serve", "--port", "0", "--no-qr", "--save", str(tmp_path / "sheet.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> None:
        process.stdin.write(line + "\n")
        process.stdin.flush()

    async def scenario():
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(None, process.stdout.readline)
        assert "The sheet, live and read-only, for this machine only" in first, first
        link = first.split(": ", 1)[1].strip()
        assert link.startswith("http://127.0.0.1:")
        async with phone_page(link) as page:
            await page.wait_for("document.getElementById('link')?.textContent === 'live'")
            assert await page.evaluate("document.getElementById('headline').textContent") == \
                "Round 1 of 2: dad deals"
            send("wild 3H")
            await page.wait_for("document.getElementById('headline').textContent === "
                                "'Round 1 of 2: dad deals, 3s wild'")
            send("mom meld 4S 4H 3D=4, hand 7D")
            send("me meld 4C 3H=5C 6C, off 3S=4 on mom, out")
            send("dad score -20")
            await page.wait_for(text("#scoresheet tfoot th.score:nth-child(3)") + " === '210'")
            assert await page.evaluate(cells("#scoresheet tbody tr:first-child td")) == \
                ["1", "dad", "3\u2665", "105", "210", "-20?"]
            assert await page.evaluate(text("#standing")) == "me leads by 105."
            leads = await page.evaluate(cells("#scoresheet tfoot th.lead"))
            assert leads == ["210"]
            assert "? entered by hand, not checked" in await page.evaluate("document.body.innerText")
            # Readable across a table: large totals, nothing wider than the phone.
            size = await page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                                       "'#scoresheet tfoot th.score')).fontSize)")
            assert size >= 24
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            await shot(page, tmp_path, "board-sheet")
            send("wild 5D")
            send("mom score 40")
            send("me score 0")
            send("dad score 300")
            await page.wait_for("document.getElementById('headline').classList.contains('over')")
            assert await page.evaluate("document.getElementById('headline').textContent") == \
                "The end of the page: 2 rounds played"
            assert await page.evaluate(text("#standing")) == "dad wins with 280."
            await shot(page, tmp_path, "board-over")
            process.stdin.close()  # the input ends; the page stays up until Ctrl-C
            for _ in range(100):
                line = await loop.run_in_executor(None, process.stdout.readline)
                if "The page stays up at" in line or not line:
                    break
            assert "The page stays up at" in line
            process.send_signal(signal.SIGINT)
            assert await loop.run_in_executor(None, process.wait, 20) == 0
            await page.wait_for("document.getElementById('link').textContent.includes('reconnecting')")

    try:
        asyncio.run(asyncio.wait_for(scenario(), LIMIT * 2))
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_a_public_table_drawn_by_the_board(tmp_path):
    """A referee's board: the table of an End of the Page round in progress, as everyone may see it."""
    variant = get_registry().get("endofpage")
    state = variant.new_state(default_ruleset(variant).options, 3, 0)
    rng = random.Random(4)
    while not state.melds:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(variant.cpu_policy("normal")(state, state.turn, state.legal_actions(), rng))
    names = ["ann", "bob", "cat"]

    async def scenario():
        board = Board()
        board.publish(BoardView(variant.title, f"Round 1: {names[state.turn]} to play", "",
                                table=public_table(variant, state, names), lines=["ann melded"]))
        server = TableServer()
        server.add(board)
        port = await server.start("127.0.0.1", 0)
        try:
            async with phone_page(f"http://127.0.0.1:{port}/t/{board.watch_token}") as page:
                await page.wait_for("document.getElementById('table')?.hidden === false")
                players = await page.evaluate(cells("#players .player .name"))
                assert players == names
                melds = await page.evaluate("document.querySelectorAll('#melds .meld').length")
                assert melds == len(state.melds)
                assert "discard pile" in await page.evaluate(cells("#piles .pile .label"))
                assert await page.evaluate(text("#players .player.turn .name")) == names[state.turn]
                assert await page.evaluate("document.getElementById('scoresheet').children.length") == 0
                assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
                await shot(page, tmp_path, "board-table")
        finally:
            await server.stop()

    asyncio.run(asyncio.wait_for(scenario(), LIMIT))
