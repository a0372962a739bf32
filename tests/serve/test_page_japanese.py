"""The phone page in the host's language: served in Japanese to a real headless
Chromium at phone size, door to hand, with a screenshot to look at."""

from __future__ import annotations

import asyncio
import os
import re

import pytest

from cardcli.kit import language
from cardcli.serve.page_words import in_language, page_words

from .browser import chromium, phone_page
from .helpers import Bot, make_game, served

needs_chromium = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"),
                                    reason="Chromium is not installed (.ci/run installs it)")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def japanese():
    language.choose("ja")
    yield
    language.choose("en")


def test_english_pages_are_served_as_shipped():
    language.choose("en")
    page = b'<!doctype html>\n<html lang="en">\n<head>\n</head>'
    assert in_language(page) == page


def test_a_page_in_japanese_carries_its_words_as_data(japanese):
    page = in_language(b'<!doctype html>\n<html lang="en">\n<head>\n<title>x</title>\n</head>')
    assert b'<html lang="ja">' in page
    block = re.search(rb'<script id="words" type="application/json">(.*?)</script>', page, re.S)
    assert block is not None and b"</" not in block.group(1)  # no way out of the data block
    words = page_words()
    assert words["Play again"] and JAPANESE.search(words["Play again"])


@needs_chromium
def test_the_phone_page_speaks_japanese(tmp_path, japanese):
    record = tmp_path / "game.jsonl"
    kinds = ["friend", "friend", "cpu"]

    async def scenario():
        game = make_game("matching", kinds, record, seed=11)
        async with served(game, kinds) as (table, port, _task):
            bob = await Bot(port, table.seats[1].token, seed=2).open()
            bob_plays = asyncio.ensure_future(bob.until_over())
            url = f"http://127.0.0.1:{port}/t/{table.seats[0].token}"
            async with phone_page(url) as page:
                await page.wait_for("!!document.getElementById('sitdown')")
                assert await page.evaluate("document.documentElement.lang") == "ja"
                door = await page.evaluate("document.getElementById('sheettitle').textContent")
                sit = await page.evaluate("document.getElementById('sitdown').textContent")
                assert JAPANESE.search(door) and JAPANESE.search(sit), (door, sit)
                await page.screenshot(tmp_path / "door.png")
                await page.tap("#sitdown")
                await page.wait_for("document.querySelectorAll('#hand .card').length > 0")
                await page.wait_for("!!document.querySelector('#actions button')")
                await asyncio.sleep(0.3)
                shot = tmp_path / "table.png"
                await page.screenshot(shot)
                assert shot.read_bytes().startswith(b"\x89PNG")
                summaries = await page.evaluate("[...document.querySelectorAll('summary')]"
                                                ".map(s => s.textContent).join(' | ')")
                assert JAPANESE.search(summaries), summaries
                log = await page.evaluate("document.getElementById('log').textContent")
                status = await page.evaluate("document.getElementById('link').textContent")
                bob_plays.cancel()
                return log, status

    _log, status = asyncio.run(scenario())
    assert JAPANESE.search(status), status
    if os.environ.get("CARDCLI_SCREENSHOT_JA"):
        import shutil

        shutil.copy(tmp_path / "table.png", os.environ["CARDCLI_SCREENSHOT_JA"])
