"""``cardcli join``: take a seat at a served table (or watch it) from this terminal."""

from __future__ import annotations

import asyncio

import click

from .common import colour_option, handle_errors


@click.command()
@click.argument("link")
@colour_option
@handle_errors
def join(link: str, colour: bool | None) -> None:
    """Take the seat of an invite LINK from cardcli serve (or watch, with a watch link).

    \b
    cardcli join http://192.168.1.20:8765/t/3q2-...

    The table and the prompts are those of cardcli play. If the connection
    drops, the client reconnects by itself; running the same command again
    later takes the seat back.
    """
    from ..serve.client import JoinClient
    from ..style import Style

    client = JoinClient(link, style=Style.for_stream(colour))
    try:
        status = asyncio.run(client.run())
    except KeyboardInterrupt:
        click.echo("\nLeft the table; the same command takes the seat back.", err=True)
        raise SystemExit(130) from None
    if status:
        raise SystemExit(status)
