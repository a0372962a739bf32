"""``cardcli join``'s client: a seat (or the watch link) at another terminal.

It asks the server for text prompts, so the player sees the table and answers
the very dialogue of ``cardcli play`` (the server runs it for the seat and
sends each question).  A dropped connection is retried with the same link,
which takes the seat back.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..errors import CardcliError
from ..safe_text import printable
from ..style import Style
from .protocol import PROTOCOL

#: Seconds between reconnection attempts, and how long to keep trying.
RETRY, GIVE_UP = 1.0, 120.0


def parse_link(link: str) -> tuple[str, str]:
    """An invite or watch link -> (WebSocket URL, token)."""
    parts = urlsplit(link.strip())
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(segments) != 2 or segments[0] != "t":
        raise CardcliError(f"{link!r} is not a table link (it looks like http://HOST:PORT/t/TOKEN)")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws", segments[1]


class JoinClient:
    """Prints what the server says and answers its prompts with lines typed here.

    What the server sends is shown with its control characters escaped, then
    styled as ``cardcli play`` styles its table (suit symbols, colour, the
    player to move, the card just played).
    """

    def __init__(self, link: str, out: Callable[[str], None] | None = None, style: Style | None = None):
        self.url, self.token = parse_link(link)
        self.style = style or Style.for_stream()
        self.write = out or (lambda text: print(text, flush=True))
        self.seat: int | None = None
        self.name = ""
        self.header = ""
        self.hints = False
        self.played: list[str] = []
        self.prompt: int | None = None
        self.shown_turn: int | None = None
        self.result: dict[str, Any] | None = None
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()

    def out(self, text: str, bold: bool = False) -> None:
        self.write(self.style.text(printable(text, newlines=True), bold=bold, played=self.played))

    def start_reader(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read stdin in a daemon thread: typed lines answer the current prompt."""

        def read() -> None:
            for line in sys.stdin or ():  # None: standard input is closed, nothing will be typed
                loop.call_soon_threadsafe(self.lines.put_nowait, line.rstrip("\n"))
            loop.call_soon_threadsafe(self.lines.put_nowait, None)

        threading.Thread(target=read, daemon=True).start()

    async def run(self) -> int:
        """Play until the game is over (0) or the server is gone for good (1)."""
        self.start_reader(asyncio.get_running_loop())
        loop = asyncio.get_running_loop()
        lost_since: float | None = None
        while True:
            try:
                async with connect(self.url, max_size=None, open_timeout=10) as socket:
                    lost_since = None
                    await socket.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": self.token,
                                                  "prompts": True}))
                    done = await self.session(socket)
                    if done is not None:
                        return done
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                pass
            except InvalidURI as problem:
                raise CardcliError(str(problem)) from None
            now = loop.time()
            if lost_since is None:
                lost_since = now
                self.out("(connection lost: reconnecting ...)")
            elif now - lost_since > GIVE_UP:
                self.out("The table cannot be reached any more.")
                return 1
            await asyncio.sleep(RETRY)

    async def session(self, socket: Any) -> int | None:
        """One connection: ``None`` to reconnect, an exit status to stop."""
        incoming = asyncio.ensure_future(socket.recv())
        typed = asyncio.ensure_future(self.lines.get())
        try:
            while True:
                done, _ = await asyncio.wait({incoming, typed}, return_when=asyncio.FIRST_COMPLETED)
                if typed in done:
                    line = typed.result()
                    if line is None:
                        self.out("(end of input: leaving the table; the same link takes the seat back)")
                        return 130
                    if self.prompt is not None:
                        await socket.send(json.dumps({"type": "answer", "prompt": self.prompt, "text": line}))
                        self.prompt = None
                    typed = asyncio.ensure_future(self.lines.get())
                if incoming in done:
                    try:
                        frame = incoming.result()
                    except ConnectionClosed as closed:
                        if self.result is not None:
                            return 0
                        if closed.rcvd is not None and closed.rcvd.reason and closed.rcvd.code == 1000:
                            self.out(f"The server closed the connection: {closed.rcvd.reason}.")
                            if closed.rcvd.reason in ("bad-token", "protocol", "no-hello"):
                                return 1
                        return None
                    status = self.handle(json.loads(frame))
                    if status is not None:
                        return status
                    incoming = asyncio.ensure_future(socket.recv())
        finally:
            incoming.cancel()
            typed.cancel()

    def handle(self, message: dict[str, Any]) -> int | None:
        kind = message.get("type")
        if kind == "welcome":
            self.seat = message["seat"]
            self.header = str(message.get("header") or "")
            self.hints = bool(message.get("hints"))
            players = message["players"]
            if self.seat is None:
                self.out(f"{message['title']}: watching the table.")
            else:
                self.name = players[self.seat]["name"]
                self.out(f"{message['title']}: you are {self.name} (seat {self.seat}).")
            for line in message.get("log", [])[-10:]:
                self.out("  " + line)
        elif kind == "update":
            self.played = list(message.get("played") or [])
            for line in message["events"]:
                self.out("  " + line)
            if message.get("round_end"):
                self.out("")
                self.out(message["round_end"])
            if message["moves"] and message["turn"] != self.shown_turn:
                self.shown_turn = message["turn"]
                self.out("")
                if self.header:
                    self.out(self.header)
                self.out(message["table"]["text"])
                hint = " (Type ? for a hint.)" if self.hints else ""
                self.out(f"{self.name}, it is your turn.{hint}", bold=True)
            elif self.seat is None and message["events"]:
                self.out(message["table"]["text"])
        elif kind == "prompt":
            for line in message["lines"]:
                self.out(line)
            self.prompt = message["prompt"]
            sys.stdout.write(self.style.text(printable(message["question"])) + "> ")
            sys.stdout.flush()
        elif kind == "error":
            self.out(f"! {message['message']}")
            if message.get("code") in ("bad-token", "protocol"):
                return 1
        elif kind == "over":
            self.result = message["result"]
            self.out("")
            self.out(message["text"])
            return 0
        return None
