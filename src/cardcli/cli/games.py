"""``cardcli games``: the saved games in the games folder, newest first."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ..kit import fit
from ..kit.fit import paged, terminal_width
from ..kit.language import N_, speaking
from ..kit.language import core as _
from ..kit.safe_text import printable
from ..records.saved import SavedGame, games_dir, saved_games, shown_path
from .common import handle_errors


@click.command(help=_("""List the saved games, newest first: variant, players, started, moves, finished
    or not, file.

    \b
    cardcli games
    cardcli play --resume            continue the newest unfinished one
    cardcli play --resume GAME       continue any other (its name, or its file)
    cardcli serve --resume GAME      serve again a game friends joined by link

    The games folder is $CARDCLI_GAMES, else $XDG_DATA_HOME/cardcli/games,
    else ~/.local/share/cardcli/games.  A list too wide for the terminal
    shows each game on two lines, its file by name; --json has everything.
    """))
@click.option("--json", "as_json", is_flag=True, help=_("Print the list as JSON Lines, one game a line."))
@click.option("--unfinished", is_flag=True, help=_("Only the games not finished yet."))
@handle_errors
def games(as_json: bool, unfinished: bool) -> None:
    """``cardcli games``: its help is the command's ``help``."""
    folder = games_dir()
    if as_json:  # an interface: a record's problem stays English whatever the language
        with speaking("en"):
            for game in saved_games(folder):
                if not unfinished or game.state == "unfinished":
                    click.echo(json.dumps(game.as_dict()))
        return
    found = [g for g in saved_games(folder) if not unfinished or g.state == "unfinished"]
    if not found:
        empty = (_("No unfinished games in {folder}. Start one with: cardcli play VARIANT") if unfinished
                 else _("No saved games in {folder}. Start one with: cardcli play VARIANT"))
        click.echo(printable(empty.format(folder=folder)))
        return
    with paged():  # the list grows with every game: paged at a terminal
        _show_games(found, folder)


def _show_games(found: list[SavedGame], folder: Path) -> None:
    width = terminal_width()
    wide = [(_started(game), game.variant, _players(game), str(game.moves), _(STATES[game.state]),
             shown_path(game.path)) for game in found]
    heads = (_("started"), _("variant"), _("players"), _("moves"), _("state"), _("file"))
    lines = fit.table(heads, wide, 10**6, right=[3])
    compact = max(fit.visible_width(line) for line in lines) > width
    if compact:
        # Too wide for the terminal: each game on two lines, the file by its
        # name in the games folder (what --resume takes).
        lines = []
        rows = fit.table((_("started"), _("moves"), _("state"), _("game (cardcli play --resume GAME)")),
                         [(row[0], row[3], row[4], game.path.name) for row, game in zip(wide, found)], width,
                         right=[1])
        # A cell too wide for its column goes on under it, on lines that start blank: the
        # heading's lines, then each game's, its players under them.
        groups: list[list[str]] = []
        for row in rows:
            if row.startswith(" ") and groups:
                groups[-1].append(row)
            else:
                groups.append([row])
        lines.extend(groups[0])
        for group, (_when, variant, players, *_rest) in zip(groups[1:], wide):
            lines.extend(group)
            lines.extend(fit.wrap(f"  {variant}: {players}", width))
    for line in lines:
        click.echo(printable(line))
    left = sum(1 for game in found if game.state == "unfinished")
    if left:
        click.echo("\n" + _.ngettext("{count} unfinished game: cardcli play --resume continues the newest.",
                                      "{count} unfinished games: cardcli play --resume continues the newest.",
                                      left).format(count=left))
    if compact:
        click.echo(printable(fit.lead_in(_("The games folder:"), shown_path(folder), width), newlines=True))


#: A saved game's state, as the list shows it (``--json`` says ``finished``: true or false).
STATES = {"finished": N_("finished"), "unfinished": N_("unfinished"), "unreadable": N_("unreadable")}


def _started(game: SavedGame) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started))


def _players(game: SavedGame) -> str:
    return ", ".join(game.players or []) or "?"
