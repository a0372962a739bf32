"""``cardcli games``: the saved games in the games folder, newest first."""

from __future__ import annotations

import json
import time

import click

from ..grammar import plural
from ..safe_text import printable
from ..saved import games_dir, saved_games
from .common import handle_errors


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON Lines, one game a line.")
@click.option("--unfinished", is_flag=True, help="Only the games not finished yet.")
@handle_errors
def games(as_json: bool, unfinished: bool) -> None:
    """List the saved games, newest first: variant, players, started, moves, finished or not, file.

    \b
    cardcli games
    cardcli play --resume            continue the newest unfinished one
    cardcli play --resume FILE       continue any other

    The games folder is $CARDCLI_GAMES, else $XDG_DATA_HOME/cardcli/games,
    else ~/.local/share/cardcli/games.
    """
    folder = games_dir()
    found = [g for g in saved_games(folder) if not unfinished or g.state == "unfinished"]
    if as_json:
        for game in found:
            click.echo(json.dumps(game.as_dict()))
        return
    if not found:
        what = "unfinished games" if unfinished else "saved games"
        click.echo(printable(f"No {what} in {folder}. Start one with: cardcli play VARIANT"))
        return
    rows = []
    for game in found:
        players = ", ".join(game.players or []) or "?"
        rows.append((time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started)), game.variant, players,
                     str(game.moves), game.state, str(game.path)))
    heads = ("started", "variant", "players", "moves", "state", "file")
    widths = [max(len(head), *(len(row[i]) for row in rows)) for i, head in enumerate(heads)]
    right = {3}  # numbers line up on the right

    def line(cells: tuple[str, ...]) -> str:
        parts = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
                 for i, cell in enumerate(cells)]
        return printable("  ".join(parts).rstrip())

    click.echo(line(heads))
    for row in rows:
        click.echo(line(row))
    left = sum(1 for game in found if game.state == "unfinished")
    if left:
        click.echo(f"\n{plural(left, 'unfinished game')}: cardcli play --resume continues the newest.")
