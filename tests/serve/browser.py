"""Headless Chromium driven through the DevTools protocol (over the WebSocket
client cardcli already depends on): open a page at phone size, read it, tap
it with real input events, take a screenshot."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import urllib.request
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

#: A phone held upright (CSS pixels).
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    def __init__(self, socket: ClientConnection):
        self.socket = socket
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(await self.socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 20) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if loop.time() > deadline:
                raise TimeoutError(f"the page never showed: {expression}")
            await asyncio.sleep(0.1)

    async def tap(self, selector: str) -> None:
        """A real press and release at the middle of the first element matching ``selector``."""
        if not await self.try_tap(selector):
            raise LookupError(f"nothing on the page matches {selector}")

    async def try_tap(self, selector: str) -> bool:
        """Tap ``selector`` if the page shows it now; False if an update has
        just redrawn it away (the page lives while the test looks at it)."""
        box = await self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        if box is None:
            return False
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        return True

    async def screenshot(self, path: Path) -> None:
        data = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(data["data"]))


@contextlib.asynccontextmanager
async def phone_page(url: str, accept_language: str | None = None) -> AsyncIterator[Page]:
    """``url`` open in headless Chromium at phone size (asking for the languages
    ``accept_language`` names, if given, on every request and WebSocket)."""
    binary = chromium()
    assert binary is not None
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--remote-debugging-port=0", f"--user-data-dir={profile}",
             "--window-size=390,844", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            active = Path(profile) / "DevToolsActivePort"
            for _ in range(200):
                if active.exists() and active.read_text().strip():
                    break
                await asyncio.sleep(0.05)
            port = active.read_text().split()[0]
            loop = asyncio.get_running_loop()

            def targets() -> list[dict[str, Any]]:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as response:
                    return json.loads(response.read())

            target = next(t for t in await loop.run_in_executor(None, targets) if t["type"] == "page")
            async with connect(target["webSocketDebuggerUrl"], max_size=None) as socket:
                page = Page(socket)
                await page.call("Emulation.setDeviceMetricsOverride", **PHONE)
                if accept_language is not None:
                    agent = await page.evaluate("navigator.userAgent")
                    await page.call("Emulation.setUserAgentOverride", userAgent=agent,
                                    acceptLanguage=accept_language)
                await page.call("Page.enable")
                await page.call("Page.navigate", url=url)
                yield page
        finally:
            # Chromium's helpers (renderer, crash handler) are in its process group.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def play_on(page: Page, done: Callable[[], Any], limit: int = 3000) -> None:
    """Play at the page as a person would, until ``done()``: close a round's
    end, tap the first move offered without a card, or else a bright card and
    the move it makes, or else the first of the list of moves."""
    plain = "#actions button:not(.quiet):not(.declare):not(.suggest)"
    for _ in range(limit):
        if done():
            return
        if await page.evaluate("(() => { const s = document.getElementById('sheet');"
                               " return !s.hidden && s.dataset.kind === 'round'; })()"):
            await page.tap("#closesheet")
        elif await page.evaluate(f"!!document.querySelector('{plain}')"):
            await page.tap(plain)
        elif await page.evaluate("!!document.querySelector('#hand button.playable')"):
            await page.tap("#hand button.playable")
            if await page.evaluate("!!document.querySelector('#actions button.primary')"):
                await page.tap("#actions button.primary")
        elif await page.evaluate("!!document.querySelector('#actions button.quiet')"):
            if not await page.evaluate("!!document.querySelector('#actions .all')"):
                await page.tap("#actions button.quiet")
            await page.tap("#actions .all button")
        await asyncio.sleep(0.02)
    raise AssertionError("the page never got there: " + await page.evaluate("document.body.innerText"))


async def type_text(page: Page, selector: str, text: str) -> None:
    """Clear the field ``selector`` and type ``text`` into it, as a keyboard does."""
    await page.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " e.focus(); e.select(); })()")
    await page.call("Input.insertText", text=text)


async def tap_until(page: Page, selector: str, expression: str, tries: int = 10) -> None:
    """Tap ``selector`` until ``expression`` holds (a tap lands on the page as
    drawn; an update that redraws it between press and release loses it, as
    on a phone)."""
    for _ in range(tries):
        await page.tap(selector)
        for _ in range(10):
            if await page.evaluate(expression):
                return
            await asyncio.sleep(0.05)
    raise AssertionError(f"tapping {selector} never made {expression} true")
