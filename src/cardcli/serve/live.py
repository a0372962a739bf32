"""A board served from a thread of its own, for a command whose loop reads the terminal.

``cardcli scoresheet --serve`` reads its entries line by line, as any
command at a prompt does; the page must stay served meanwhile.  A
:class:`LivePage` runs the server's event loop in a daemon thread: the
command calls :meth:`LivePage.publish` after each change (thread-safe) and
:meth:`LivePage.close` at the end.  A referee's loop uses it the same way.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from ..contract.views import BoardView
from ..kit.errors import CardcliError
from ..kit.language import core as _
from .board import Board
from .links import base_url, seat_link
from .server import TableServer

#: Seconds to wait for the server to listen, and to stop.
START_TIMEOUT, STOP_TIMEOUT = 10.0, 5.0


class LivePage:
    """``board`` served on ``listen:port`` (0: a free port), its links naming ``shown``."""

    def __init__(self, board: Board, listen: str, shown: str, port: int):
        self.board = board
        self.listen, self.shown, self.port = listen, shown, port
        self.server = TableServer()
        self.server.add(board)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._problem: BaseException | None = None
        self._stop: asyncio.Event | None = None

    def start(self) -> str:
        """Listen, then return the watch link.  :class:`CardcliError` if the
        address or port cannot be listened on."""
        self.thread = threading.Thread(target=self._run, name="cardcli-live-page", daemon=True)
        self.thread.start()
        if not self._ready.wait(START_TIMEOUT):
            raise CardcliError(_("the page could not be served on {address}:{port} in time").format(
                address=self.listen, port=self.port))
        if self._problem is not None:
            error = self._problem
            problem = getattr(error, "strerror", None) or error
            raise CardcliError(_("cannot listen on {address}:{port}: {problem} (another program may use the "
                                 "port: choose one with --port)").format(
                address=self.listen, port=self.port, problem=problem)) from None
        return self.link

    @property
    def link(self) -> str:
        return seat_link(base_url(self.shown, self.port), self.board.watch_token)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            loop.run_until_complete(self._serve())
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        try:
            self.port = await self.server.start(self.listen, self.port)
            self.server.serve_as(self.shown)
        except OSError as error:
            self._problem = error
            self._ready.set()
            return
        self._ready.set()
        await self._stop.wait()
        self.board.close_all("the page was closed")
        await asyncio.sleep(0.1)  # let the last messages go out
        await self.server.stop()

    def call(self, function: Any, *args: Any) -> None:
        """Run ``function(*args)`` on the page's loop (any thread may ask)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(function, *args)

    def publish(self, view: BoardView) -> None:
        """Show ``view`` at the link (from any thread)."""
        if self.loop is None:
            self.board.publish(view)  # not served yet (nobody watches): shown once it is
            return
        self.call(self.board.publish, view)

    def close(self) -> None:
        """Close the pages and stop serving."""
        if self._stop is not None:
            self.call(self._stop.set)
        if self.thread is not None:
            self.thread.join(STOP_TIMEOUT)
