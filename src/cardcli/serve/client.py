"""``cardcli join``'s client: a seat (or the watch link) at another terminal.

It asks the server for text prompts, so the player sees the table and answers
the very dialogue of ``cardcli play`` (the server runs it for the seat and
sends each question).  A dropped connection is retried with the same link,
which takes the seat back.  The first time a friend's link is opened it asks
for the name the others will see; between games it shows the evening's
tally and asks whether to play again (or leave the table).
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

from ..kit.errors import CardcliError
from ..kit.grammar import listed
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.safe_text import printable
from ..terminal.style import Style
from .protocol import PROTOCOL
from .table import CLOSED, ELSEWHERE, LEFT, REJOIN_EVERY, REPLACED, TAKEN_AWAY, TO_CPU
from .tally import tally_lines

#: Seconds between reconnection attempts, and how long to keep trying.
RETRY, GIVE_UP = 1.0, 120.0
#: Close reasons after which this link no longer opens the seat: no reconnecting.
FINAL = {"bad-token", "protocol", "no-hello", ELSEWHERE, REPLACED, LEFT, CLOSED, TAKEN_AWAY, TO_CPU}
#: What a close reason (a protocol key, English) says to the person at this terminal.
CLOSE_WORDS = {
    REPLACED: N_("this link was replaced by a new one from the host"),
    LEFT: N_("you left the table"),
    ELSEWHERE: N_("this seat was opened on another device"),
    CLOSED: N_("the host closed the table"),
    TAKEN_AWAY: N_("the host took this seat away"),
    TO_CPU: N_("the host gave this seat to a CPU"),
    "too many messages": N_("too many messages"),
    "not reading its messages": N_("not reading its messages"),
    "too many connections waiting to say hello": N_("too many connections waiting to say hello"),
    "no hello": N_("no hello"),
}
#: What the server says of the game, held back while the name at the door is being chosen.
HELD = {"update", "prompt", "over", "evening", "board"}


def parse_link(link: str) -> tuple[str, str]:
    """An invite or watch link -> (WebSocket URL, token)."""
    parts = urlsplit(link.strip())
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(segments) != 2 or segments[0] != "t":
        raise CardcliError(_("{link!r} is not a table link (it looks like http://HOST:PORT/t/TOKEN)").format(
            link=link))
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws", segments[1]


class JoinClient:
    """Prints what the server says and answers its prompts with lines typed here.

    What the server sends is shown with its control characters escaped, then
    styled as ``cardcli play`` styles its table (suit symbols, colour, the
    player to move, the card just played).
    """

    def __init__(self, link: str, out: Callable[[str], None] | None = None, style: Style | None = None,
                 name: str | None = None, ask: bool | None = None):
        self.url, self.token = parse_link(link)
        #: The name to sit down under (``--name``), and whether to ask for one
        #: when the seat has none yet (default: when standard input is a terminal).
        self.wanted = name
        self.ask = bool(sys.stdin and sys.stdin.isatty()) if ask is None else ask
        self.asking: str | None = None  # "name" or "again": what a typed line answers, beside a prompt
        #: While a name is chosen (asked, or sent and not yet answered), the game's
        #: messages wait here, so the name is asked alone and a move never answers it.
        self.held: list[dict[str, Any]] | None = None
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
        self.tallied: int | None = None  # the games in the last tally shown
        self.waiting_said = ""
        self.outbox: list[dict[str, Any]] = []  # messages decided while handling one (a name given)
        self.retry = RETRY  # seconds before reconnecting (longer when the table said too fast)

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
        """Play until the player leaves or the host ends the evening (0), or
        the server is gone for good or the link stops opening the seat (1)."""
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
                self.out(_("(connection lost: reconnecting ...)"))
            elif now - lost_since > GIVE_UP:
                self.out(_("The table cannot be reached any more."))
                return 1
            await asyncio.sleep(self.retry)
            self.retry = RETRY

    async def session(self, socket: Any) -> int | None:
        """One connection: ``None`` to reconnect, an exit status to stop."""
        self.prompt, self.held = None, None  # the last connection's: this one is asked again
        incoming = asyncio.ensure_future(socket.recv())
        typed = asyncio.ensure_future(self.lines.get())
        try:
            while True:
                done, _pending = await asyncio.wait({incoming, typed}, return_when=asyncio.FIRST_COMPLETED)
                if typed in done:
                    line = typed.result()
                    if line is None:
                        self.out(_("(end of input: leaving the table; the same link takes the seat back)"))
                        return 130
                    if self.asking == "name":  # first: only the name is asked while it is on screen
                        self.asking = None
                        await socket.send(json.dumps({"type": "name", "name": line.strip() or self.name}))
                    elif self.prompt is not None:
                        await socket.send(json.dumps({"type": "answer", "prompt": self.prompt, "text": line}))
                        self.prompt = None
                    elif self.asking == "again":
                        word = line.strip().lower()
                        if word in ("y", "yes", ""):
                            self.asking = None
                            await socket.send(json.dumps({"type": "again"}))
                            self.out(_("(you are in: the next game starts soon)"))
                        elif word in ("q", "quit", "leave"):
                            await socket.send(json.dumps({"type": "leave"}))
                        else:
                            self.ask_again()
                    elif line.strip():
                        self.out(_("(nothing is asked just now: that line was not sent)"))
                    typed = asyncio.ensure_future(self.lines.get())
                if incoming in done:
                    try:
                        frame = incoming.result()
                    except ConnectionClosed as closed:
                        reason = closed.rcvd.reason if closed.rcvd is not None else ""
                        if closed.rcvd is not None and reason and closed.rcvd.code in (1000, 1008):
                            said = _(CLOSE_WORDS[reason]) if reason in CLOSE_WORDS else reason
                            self.out(_("The server closed the connection: {reason}.").format(reason=said))
                            if reason in (LEFT, CLOSED):
                                return 0
                            if reason in FINAL or closed.rcvd.code == 1008:
                                return 1
                        return None
                    status = self.handle(json.loads(frame))
                    if status is not None:
                        return status
                    for message in self.outbox:
                        await socket.send(json.dumps(message))
                    self.outbox.clear()
                    incoming = asyncio.ensure_future(socket.recv())
        finally:
            incoming.cancel()
            typed.cancel()

    def between(self, message: dict[str, Any]) -> None:
        """Between games: the last game's end (if not seen here) and the tally,
        once each game; then whether to play again."""
        tally = message.get("tally") or {}
        if tally.get("games") != self.tallied:
            self.tallied = tally.get("games")
            self.out("")
            last = message.get("last")
            if last and self.result is None:
                self.out(last["headline"])
                self.out(last["ranking"])
            for line in tally_lines(tally):
                self.out(line)
        upcoming = message.get("next")
        if not upcoming or self.seat is None:
            return
        if upcoming["players"][self.seat].get("ready"):
            if upcoming["starts"] == "host":
                said = _("Game {number}: the host starts it.").format(number=message["game"])
            elif upcoming["waiting"]:
                said = _("Game {number}: waiting for {names}.").format(number=message["game"],
                                                                       names=listed(upcoming["waiting"]))
            else:  # everyone is ready: the game starts now
                said = self.waiting_said
            if said != self.waiting_said:
                self.waiting_said = said
                self.out(said)
        elif self.asking != "again":
            self.out(_("Game {number}: {header}").format(number=message["game"], header=upcoming["header"]))
            self.ask_again()

    def ask_again(self) -> None:
        self.asking = "again"
        self.question(_("Play again? y, or q to leave the table"))

    def question(self, text: str) -> None:
        sys.stdout.write(self.style.text(printable(text)) + "> ")
        sys.stdout.flush()

    def hold(self) -> None:
        """Hold the game's messages back until the name is chosen."""
        if self.held is None:
            self.held = []

    def release(self) -> int | None:
        """The name is chosen: what the server said meanwhile (the table, the move's prompt)."""
        held, self.held = self.held or [], None
        for message in held:
            status = self.handle(message)
            if status is not None:
                return status
        return None

    def handle(self, message: dict[str, Any]) -> int | None:
        kind = message.get("type")
        if self.held is not None and kind in HELD:
            self.held.append(message)
            return None
        if kind == "welcome":
            self.seat = message["seat"]
            self.header = str(message.get("header") or "")
            self.hints = bool(message.get("hints"))
            players = message["players"]
            number = message.get("game") or 1
            if not message.get("between"):
                self.result = None
                self.shown_turn = None
                self.waiting_said = ""
                if self.asking == "again":
                    self.asking = None
                    self.out("")
            if self.seat is None:
                self.out(_("{title}, game {number}: watching the table.").format(title=message["title"],
                                                                                 number=number))
            else:
                self.name = players[self.seat]["name"]
                self.out(_("{title}, game {number}: you are {name} (seat {seat}).").format(
                    title=message["title"], number=number, name=self.name, seat=self.seat))
            for line in message.get("log", [])[-10:]:
                self.out("  " + line)
            if message.get("ask_name"):
                if self.wanted is not None:
                    self.outbox.append({"type": "name", "name": self.wanted})
                    self.hold()
                elif self.ask:
                    self.asking = "name"
                    self.hold()
                    self.question(_("Your name at the table [{name}]").format(name=self.name))
            elif self.asking == "name":  # chosen before the connection was lost: nothing to ask
                self.asking = None
        elif kind == "players":
            if self.seat is not None:
                self.name = message["players"][self.seat]["name"]
            if self.held is not None and self.asking != "name":  # the name sent is taken
                return self.release()
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
                turn = _("{name}, it is your turn. (Type ? for a hint.)") if self.hints else \
                    _("{name}, it is your turn.")
                self.out(turn.format(name=self.name), bold=True)
            elif self.seat is None and message["events"]:
                self.out(message["table"]["text"])
        elif kind == "evening":
            self.between(message)
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
            if message.get("code") == "too-fast":  # the table wants a pause before this link comes back
                self.retry = REJOIN_EVERY
            if message.get("code") == "bad-name" and self.ask:
                self.asking = "name"
                self.question(_("Your name at the table [{name}]").format(name=self.name))
            elif self.held is not None and self.asking != "name":  # the name sent is refused for good
                return self.release()
        elif kind == "over":
            self.result = message["result"]
            self.out("")
            self.out(message["text"])
        elif kind == "board":  # a read-only board (a score sheet kept by hand): shown whole each time
            self.out("")
            self.out(str(message.get("text") or message.get("headline") or ""))
        return None
