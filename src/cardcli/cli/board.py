"""``--serve`` for a command that keeps a real table's game: its options, and
the live read-only page (a board) it opens.

``cardcli scoresheet`` uses it for the score sheet; a referee following a
game played with a real deck uses it the same way for its public table::

    @board_options("the table")
    def referee(..., serve: BoardOptions, ...):
        live = open_board(serve, first_view, "the table", say) if serve.serve else None
        ...
        live.publish(BoardView(title, headline, status, table=public_table(variant, state, names)))
        ...
        live.close()

What the page shows is only what the view holds (see :mod:`cardcli.serve.board`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ..kit.language import core as _

if TYPE_CHECKING:
    from ..contract.views import BoardView
    from ..serve.live import LivePage

#: The port a board listens on by default (a served game's is 8765).
DEFAULT_PORT = 8766


@dataclass(frozen=True)
class BoardOptions:
    """What ``--serve``, ``--lan``, ``--host``, ``--port`` and ``--no-qr`` asked for."""

    serve: bool = False
    lan: bool = False
    host: str | None = None
    port: int | None = None
    no_qr: bool = False

    @property
    def listen(self) -> str:
        return self.host or ("0.0.0.0" if self.lan else "127.0.0.1")


def board_options(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--serve`` options of a command showing ``what`` ("the sheet"),
    given to it as one :class:`BoardOptions` argument named ``serve``."""

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def wrapper(*args: Any, serve_page: bool, lan: bool, host: str | None, port: int | None,
                    no_qr: bool, **kwargs: Any) -> Any:
            if not serve_page and (lan or host is not None or port is not None or no_qr):
                raise click.UsageError(_("--lan, --host, --port and --no-qr go with --serve"))
            return function(*args, serve=BoardOptions(serve_page, lan, host, port, no_qr), **kwargs)

        options = [
            click.option("--serve", "serve_page", is_flag=True,
                         help=_("Show {what} live on a read-only page, at a watch link with a QR "
                                "code.").format(what=_(what))),
            click.option("--lan", is_flag=True, help=_("With --serve: share the page with your local network "
                         "(without it only this machine can open it).")),
            click.option("--host", "host", metavar="ADDRESS",
                         help=_("With --serve: listen on ADDRESS and name it in the link (default 127.0.0.1; "
                                "with --lan, this machine's LAN address).")),
            click.option("--port", type=click.IntRange(0, 65535), default=None,
                         help=_("With --serve: the port (default {port}; 0 picks a free one).").format(
                             port=DEFAULT_PORT)),
            click.option("--no-qr", is_flag=True, help=_("With --serve: print the link without "
                                                         "its QR code.")),
        ]
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def open_board(options: BoardOptions, first: BoardView, what: str, say: Callable[[str], None],
               colour: bool = False, to_stderr: bool = False) -> LivePage:
    """Serve a new board showing ``first`` as ``options`` ask, from a thread
    of its own; say its link (and print its QR code) and return it: call
    ``publish(view)`` on it after each change and ``close()`` at the end.
    :class:`~cardcli.kit.errors.CardcliError` if the address cannot be listened on."""
    from ..serve.board import Board
    from ..serve.links import lan_address
    from ..serve.live import LivePage
    from ..serve.qr import terminal_lines

    shown = options.host or (lan_address() if options.lan else "127.0.0.1")
    live = LivePage(Board(), options.listen, shown, DEFAULT_PORT if options.port is None else options.port)
    live.publish(first)
    link = live.start()
    shown_what = what[:1].upper() + what[1:]
    if options.lan:
        say(_("{what}, live and read-only, for your local network: {link}").format(what=shown_what,
                                                                                    link=link))
    else:
        say(_("{what}, live and read-only, for this machine only (--lan shares it with your Wi-Fi): "
              "{link}").format(what=shown_what, link=link))
    if not options.no_qr:
        for line in terminal_lines(link, colour=colour):
            click.echo("  " + line, err=to_stderr)
    return live
