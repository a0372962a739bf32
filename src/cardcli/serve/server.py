"""The network side: one HTTP + WebSocket server (``websockets``) for any number of tables.

``GET /t/TOKEN`` serves the page (a static HTML file and a small script,
shipped as package data: no build step), ``GET /static/...`` its files, and
``/ws`` the WebSocket every client speaks :mod:`cardcli.serve.protocol` on.
The bare address (``GET /``, what someone types from the host's screen
without the token) gets a short page saying to ask the host for an invite
link, and nothing about the tables; a link that no longer opens its seat
(the host gave the seat a new link, or it was left) says so.
A client's first message names its token; from then on the token's table
receives its messages.  Beside tables, the server hosts *boards*
(:mod:`cardcli.serve.board`): read-only pages at a watch link.  Both are
*venues*: whatever has links, the page they open, and takes clients.
Nothing a client sends can stop the server: each problem is answered with
an error message to that client (or a closed connection), and the tables
go on.

Every request must name, in ``Host``, an address the server serves (the one
in its links, or this machine's loopback): a page elsewhere that points a
name it controls at this machine (DNS rebinding) gets nothing.  A WebSocket
opened by a browser must also come from a page of this server (``Origin``);
one from any other page is closed before it is read, with the reason.  The
responses name no software (no ``Server`` header); the pages may not be
framed by another page, and may open a connection to this server only.
When more than :data:`MAX_WAITING` connections wait to say hello, those
that have waited :data:`HELLO_GRACE` seconds are closed (a client that
means to play says hello at once), so a flood of connections that never
say hello holds nothing for long, and a crowd arriving at once still sits down.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import weakref
from collections import OrderedDict
from importlib import resources
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..kit.language import N_, current
from ..kit.language import core as _
from ..kit.safe_text import printable
from .page_words import best_language, in_language, speaking_as
from .protocol import MAX_FRAME, BadMessage, encode, error, parse_client
from .table import GONE_WORDS, Client

#: Messages queued for a client that does not read them before it is dropped
#: (it reconnects and gets the whole table again).
MAX_QUEUED = 200
#: Seconds a new connection has to say hello; how many may wait to at once
#: before those that waited ``HELLO_GRACE`` seconds are closed.
HELLO_TIMEOUT = 10.0
MAX_WAITING = 32
HELLO_GRACE = 2.0
#: This machine's own addresses, always served; and the addresses that mean
#: "every interface" (listened on, never named by a link).
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
_SECURITY = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def policy(host: str) -> str:
    """The pages' Content-Security-Policy, for a request to ``host`` (``Host``,
    already checked to be an address this server serves): nothing from
    elsewhere, never framed, and WebSockets to this very address only."""
    own = "'self'" if host.startswith("[") or not host else f"'self' ws://{host} wss://{host}"
    return (f"default-src 'self'; connect-src {own}; img-src 'self' data:; style-src 'self'; "
            "script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _static(name: str) -> bytes | None:
    if "/" in name or name.startswith("."):
        return None
    path = resources.files("cardcli.serve").joinpath("static", name)
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def _response(status: int, reason: str, body: bytes, kind: str, host: str = "") -> Response:
    headers = Headers({"Content-Type": kind, "Content-Length": str(len(body)), **_SECURITY,
                       "Content-Security-Policy": policy(host)})
    return Response(status, reason, headers, body)


def _note(text: str) -> bytes:
    """A page of one sentence (HTML already), in the language in use, for a
    browser that has no table to show (no inline style: the pages'
    Content-Security-Policy would refuse it)."""
    language = current()
    lang = "" if language == "en" else f"<html lang={language}>"
    return (f"<!doctype html>{lang}<meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>cardcli</title><p>{text}</p>").encode()


_GONE = N_("This link does not open a table here: the game may be over, or the link mistyped. "
           "Ask the host for a new one.")
#: The bare address: someone typed the host and port without their link.  It
#: says nothing of the tables (not how many, not which game, not who plays).
_WELCOME = N_("This is a cardcli card table. To sit down, ask the host for your invite link (or scan "
              "its QR code on the host's screen): each player has a link of their own.")


def _said(message: str) -> bytes:
    """:func:`_note` of a message (marked with ``N_``), in the language in use."""
    return _note(html.escape(_(message), quote=False))


class Venue(Protocol):
    """What the server serves: a :class:`~cardcli.serve.table.Table` or a
    :class:`~cardcli.serve.board.Board`.  It says which of its links a token
    is, the page those links open, and takes the clients that said hello."""

    page: str

    def find(self, token: str) -> tuple[str, int | None] | None: ...

    def join(self, client: Client, seat: int | None) -> None: ...

    def leave(self, client: Client) -> None: ...

    def receive(self, client: Client, message: dict[str, Any]) -> None: ...

    def refuse(self, client: Client, problem: BadMessage) -> None: ...


_last: tuple[dict[str, Any] | None, str] = (None, "")


def _encoded(message: dict[str, Any]) -> str:
    """``message`` as JSON text, encoded once when the same message goes to
    one client after another (the watchers' update, who is connected)."""
    global _last
    if _last[0] is not message:
        _last = (message, encode(message))
    return _last[1]


class Connection:
    """One WebSocket client: its outgoing queue (so a slow phone never holds a
    table up) and, once it said hello, its table and seat."""

    def __init__(self, socket: ServerConnection, language: str | None = None):
        self.socket = socket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.prompts = False
        #: The language its messages are made in (``None``: the host's).
        self.language = language
        self.table: Venue | None = None
        self.closing = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close("not reading its messages")
            return
        self.queue.put_nowait(_encoded(message))

    def close(self, reason: str, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(None)
            self.reason = reason
            self.code = code

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                reason = getattr(self, "reason", "").encode()[:123].decode(errors="ignore")
                await self.socket.close(getattr(self, "code", 1000), reason)
                return
            await self.socket.send(text)


class TableServer:
    """Serves tables: looks tokens up, routes clients' messages, and keeps
    every client's problem to that client."""

    def __init__(self, page_language: str = "host") -> None:
        self.tables: list[Venue] = []
        #: Whose language the pages (and each phone's messages) are in: ``"host"``,
        #: the language in use here; ``"phone"``, each request's ``Accept-Language``
        #: (:func:`~cardcli.serve.page_words.best_language`), else the host's.
        self.page_language = page_language
        #: The host's language: the one in use when the server was made.
        self.language = current()
        #: The addresses requests may name in ``Host`` (``host:port``, lower case).
        self.hosts: set[str] = set()
        self._names: set[str] = set()
        self._refused: weakref.WeakKeyDictionary[ServerConnection, str] = weakref.WeakKeyDictionary()
        #: The connections waiting to say hello, and since when: the longest-waiting first.
        self.waiting: OrderedDict[Connection, float] = OrderedDict()
        self.server: WsServer | None = None
        self.log = logging.getLogger("cardcli.serve")
        self.log.addHandler(logging.NullHandler())
        self.log.propagate = False

    def add(self, table: Venue) -> None:
        self.tables.append(table)

    def remove(self, table: Venue) -> None:
        if table in self.tables:
            self.tables.remove(table)

    def find(self, token: str) -> tuple[Venue, str, int | None] | None:
        for table in self.tables:
            found = table.find(token)
            if found is not None:
                return table, found[0], found[1]
        return None

    def why_gone(self, token: str) -> str | None:
        """Why ``token``, once a seat's link here, opens nothing now (a close reason), or ``None``."""
        for table in self.tables:
            why = getattr(table, "why_gone", None)
            reason = why(token) if why is not None else None
            if reason is not None:
                return reason
        return None

    def serve_as(self, *names: str) -> None:
        """Addresses (beside this machine's loopback and the one listened on)
        that the links name, so requests may name them in ``Host``."""
        self._names.update(name.lower() for name in names)
        if self.server is not None:
            self._allow(int(self.server.sockets[0].getsockname()[1]))

    def _allow(self, port: int) -> None:
        for name in self._names | set(LOOPBACK):
            shown = f"[{name}]" if ":" in name else name
            self.hosts.add(f"{shown}:{port}")
            if port == 80:
                self.hosts.add(shown)

    async def start(self, host: str, port: int) -> int:
        """Listen; return the port (``port=0`` picks a free one)."""
        self.server = await serve(self.handle, host, port, process_request=self.http, max_size=MAX_FRAME,
                                  max_queue=64, compression=None, logger=self.log, ping_interval=20,
                                  ping_timeout=20, close_timeout=2, server_header=None)
        actual = int(self.server.sockets[0].getsockname()[1])
        if host not in WILDCARD:
            self._names.add(host.lower())
        self._allow(actual)
        return actual

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)

    def foreign(self, request: Request) -> str | None:
        """Why a request is not for this server (its ``Host``, or for a
        WebSocket its ``Origin``, is not an address it serves), or ``None``."""
        hosts = request.headers.get_all("Host")
        host = hosts[0].strip().lower() if len(hosts) == 1 else ""
        if host not in self.hosts:
            named = printable(host)[:60]
            if not named:
                return _("this table is not served as 'that' (open the link the host gave)")
            return _("this table is not served as {address!r} (open the link the host gave)").format(
                address=named)
        origins = request.headers.get_all("Origin")
        if origins and request.path.split("?", 1)[0] == "/ws":
            if len(origins) != 1:
                return _("refused: a page from several origins may not open this table")
            parts = urlsplit(origins[0].strip().lower())
            if parts.scheme not in ("http", "https") or parts.netloc not in self.hosts:
                return _("refused: a page from {origin} may not open this table").format(
                    origin=printable(origins[0])[:60])
        return None

    def language_of(self, request: Request | None) -> str | None:
        """The language a request is answered in: ``None``, the one in use (the
        host's); with ``page_language`` ``"phone"``, the best its
        ``Accept-Language`` asks for (else the host's)."""
        if self.page_language != "phone" or request is None:
            return None
        asked = request.headers.get_all("Accept-Language")
        return best_language(",".join(asked), self.language)

    def http(self, connection: ServerConnection, request: Request) -> Response | None:
        with speaking_as(self.language_of(request)):
            return self._http(connection, request)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        problem = self.foreign(request)
        if path == "/ws":
            if problem is not None:
                self._refused[connection] = problem  # closed with the reason, in handle()
            return None  # the WebSocket handshake
        if problem is not None:
            refused = _("{problem}.").format(problem=problem)
            return _response(421, "Misdirected Request", _note(html.escape(refused)), _TYPES[".html"])
        host = request.headers["Host"].strip().lower()  # one, and served here (foreign() checked)
        if path in ("/", "/t", "/t/"):
            return _response(200, "OK", _said(_WELCOME), _TYPES[".html"], host)
        if path.startswith("/t/"):
            token = unquote(path[3:])
            found = self.find(token)
            if found is None:
                reason = self.why_gone(token)
                words = _said(_GONE if reason is None else GONE_WORDS.get(reason, reason))
                return _response(410 if reason else 404, "Gone" if reason else "Not Found", words,
                                 _TYPES[".html"], host)
            page = _static(found[0].page)
            assert page is not None
            return _response(200, "OK", in_language(page), _TYPES[".html"], host)
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            body = _static(name)
            suffix = name[name.rfind("."):] if "." in name else ""
            if body is not None and suffix in _TYPES:
                return _response(200, "OK", body, _TYPES[suffix], host)
        return _response(404, "Not Found", _said(_GONE), _TYPES[".html"], host)

    async def handle(self, socket: ServerConnection) -> None:
        # A phone's page speaks its language: so does what it is sent.
        client = Connection(socket, self.language_of(socket.request))
        writer = asyncio.ensure_future(client.writer())
        try:
            refused = self._refused.pop(socket, None)
            if refused is not None:  # a page of another site, or another address: nothing is read
                client.close(refused, 1008)
                await socket.wait_closed()
                return
            self._wait(client)
            try:
                await self._hello(client)
            finally:
                self.waiting.pop(client, None)
            if client.table is not None:
                async for frame in socket:
                    if not client.closing:  # once closing, frames are read and dropped until the close
                        self._receive(client, frame)
        except ConnectionClosed:
            pass
        finally:
            if client.table is not None:
                client.table.leave(client)
            client.close("")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()

    def _wait(self, client: Connection) -> None:
        """``client`` waits to say hello.  Past :data:`MAX_WAITING` waiting, the
        ones that have waited :data:`HELLO_GRACE` seconds are closed, now and
        once the newest has waited as long."""
        loop = asyncio.get_running_loop()
        self.waiting[client] = loop.time()
        if len(self.waiting) > MAX_WAITING:
            self._trim()
            loop.call_later(HELLO_GRACE, self._trim)

    def _trim(self) -> None:
        """Close the longest-waiting connections that waited past the grace, while too many wait."""
        now = asyncio.get_running_loop().time()
        while len(self.waiting) > MAX_WAITING:
            oldest, since = next(iter(self.waiting.items()))
            if now - since < HELLO_GRACE:
                return
            del self.waiting[oldest]
            oldest.close("too many connections waiting to say hello", 1013)

    async def _hello(self, client: Connection) -> None:
        """The first message must be a hello with a token of a table here."""
        try:
            frame = await asyncio.wait_for(client.socket.recv(), HELLO_TIMEOUT)
        except TimeoutError:
            with speaking_as(client.language):
                client.send(error("no-hello", _("say hello first (with the token from your link)")))
            client.close("no hello")
            return
        with speaking_as(client.language):
            self._welcome(client, frame)

    def _welcome(self, client: Connection, frame: str | bytes) -> None:
        """``client``'s hello (``frame``): it joins the table of its token, or is told why not."""
        try:
            message = parse_client(frame)
            if message["type"] != "hello":
                raise BadMessage("no-hello", _("say hello first (with the token from your link)"))
            found = self.find(message["token"])
            if found is None:
                gone = self.why_gone(message["token"])
                if gone is not None:  # a seat's old link: why it opens nothing now, and a final close
                    client.send(error("bad-token", _(GONE_WORDS.get(gone, gone))))
                    client.close(gone)
                    return
                raise BadMessage("bad-token",
                                 _("this link does not open a table here (the game may be over)"))
            table, _role, seat = found
            client.prompts = bool(message.get("prompts", False))
            table.join(client, seat)
            client.table = table
        except BadMessage as problem:
            client.send(error(problem.code, problem.message))
            client.close(problem.code)
            return

    def _receive(self, client: Connection, frame: str | bytes) -> None:
        table = client.table
        assert table is not None
        try:
            message: dict[str, Any] | None = parse_client(frame)
        except Exception:  # said below, in the client's language
            message = None
        # What the client is told back is in its language (a ping is told nothing).
        with speaking_as(None if message is not None and message["type"] == "ping" else client.language):
            try:
                table.receive(client, message if message is not None else parse_client(frame))
            except BadMessage as problem:
                table.refuse(client, problem)
            except Exception as problem:  # a bug must cost one message, never the table
                self.log.exception("message from a client")
                said = _("the server could not handle that: {problem}").format(problem=problem)
                table.refuse(client, BadMessage("server", said))
