"""A read-only page everyone at a table can see: a *board*, at a watch link.

A table played with a real deck has no seats to serve, only something to
show: ``cardcli scoresheet --serve`` shows the score sheet, and a referee
following a real game can show its public table.  Whoever keeps the game
(the *publisher*) builds a :class:`BoardView` after each change and calls
:meth:`Board.publish`; the board sends it to every page open at its watch
link, and to a page that opens later.  Nobody can change anything from a
page: the only message a board answers is ``ping``.

What a board shows is exactly what the publisher puts in the view, so the
publisher decides what is public: a referee builds its ``table`` with
:func:`public_table` (the public table: no hand, as the watch link of a
served game shows it), never from a seat's view.

A :class:`Board` goes in a :class:`~cardcli.serve.server.TableServer` beside
tables (``server.add(board)``); :class:`~cardcli.serve.live.LivePage` runs
one in a thread of its own for a command whose own loop reads the terminal;
:func:`cardcli.cli.board.open_board` starts one as a command's ``--serve`` asks.
The messages are in ``docs/protocol.md`` ("Boards").
"""

from __future__ import annotations

from typing import Any

from ..contract.views import BoardView
from ..kit.language import core as _
from .links import new_token
from .protocol import PROTOCOL, BadMessage, error
from .table import Client, Limiter, same_token


class Board:
    """A watch link and the pages open at it (see the module docstring)."""

    #: The page a link of this board opens (a served game's is ``index.html``).
    page = "board.html"

    def __init__(self, watch_token: str | None = None):
        self.watch_token = watch_token or new_token()
        self.watchers: list[Client] = []
        self.view: BoardView | None = None
        self.version = 0
        self.limits: dict[int, Limiter] = {}

    def find(self, token: str) -> tuple[str, int | None] | None:
        return ("watch", None) if same_token(token, self.watch_token) else None

    def join(self, client: Client, seat: int | None) -> None:
        self.watchers.append(client)
        if self.view is not None:
            client.send(self.message())

    def leave(self, client: Client) -> None:
        self.watchers = [c for c in self.watchers if c is not client]
        self.limits.pop(id(client), None)

    def receive(self, client: Client, message: dict[str, Any]) -> None:
        self.count(client)
        if message["type"] == "ping":
            client.send({"type": "pong"})
            return
        if message["type"] == "hello":
            raise BadMessage("bad-message", _("already joined: 'hello' comes once"))
        raise BadMessage("read-only", _("this page only shows the board: nothing can be changed from it"))

    def refuse(self, client: Client, problem: BadMessage) -> None:
        client.send(error(problem.code, problem.message))

    def count(self, client: Client) -> None:
        if not self.limits.setdefault(id(client), Limiter()).allow():
            client.send(error("too-fast", _("too many messages: the connection is closed")))
            client.close("too many messages")

    def publish(self, view: BoardView) -> None:
        """Show ``view`` on every page open at the link, and on those opened later."""
        self.view = view
        self.version += 1
        message = self.message()
        for client in self.watchers:
            client.send(message)

    def message(self) -> dict[str, Any]:
        assert self.view is not None
        return {"type": "board", "protocol": PROTOCOL, "version": self.version, **self.view.as_dict()}

    def close_all(self, reason: str) -> None:
        for client in self.watchers:
            client.close(reason)
