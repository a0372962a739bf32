"""``cardcli join``: take a seat at a served table (or watch it) from this terminal."""

from __future__ import annotations

import asyncio

import click

from ..kit.language import core as _
from .common import colour_option, handle_errors


@click.command(help=_("""Take the seat of an invite LINK from cardcli serve (or watch, with a watch link).

    \b
    cardcli join http://192.168.1.20:8765/t/3q2-...
    cardcli join http://192.168.1.20:8765/t/3q2-... --name ann

    The table and the prompts are those of cardcli play. If the connection
    drops, the client reconnects by itself; running the same command again
    later takes the seat back. When a game ends, y plays again and q leaves
    the table.
    """))
@click.argument("link")
@click.option("--name", metavar="NAME",
              help=_("The name the others see (else asked at the door, the first time the link is opened)."))
@colour_option
@handle_errors
def join(link: str, name: str | None, colour: bool | None) -> None:
    """``cardcli join``: its help is the command's ``help``."""
    from ..serve.client import JoinClient
    from ..terminal.style import Style

    client = JoinClient(link, style=Style.for_stream(colour), name=name)
    try:
        status = asyncio.run(client.run())
    except KeyboardInterrupt:
        click.echo("\n" + _("Left the table; the same command takes the seat back."), err=True)
        raise SystemExit(130) from None
    if status:
        raise SystemExit(status)
