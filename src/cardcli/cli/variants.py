"""``cardcli variants``: what is installed and who provides it."""

from __future__ import annotations

import json
from typing import Any

import click

from ..cpu.players import levels_of
from ..kit.fit import terminal_width, wrap
from ..kit.language import core as _
from ..kit.safe_text import printable
from .common import handle_errors, registry


@click.command(help=_("List the installed variants: name, players, and the package providing each."))
@click.option("--json", "as_json", is_flag=True, help=_("Print the list as JSON."))
@handle_errors
def variants(as_json: bool) -> None:
    """``cardcli variants`` (``--json`` keeps the English title: it is an interface)."""
    found = registry().variants
    rows: list[dict[str, Any]] = []
    for name in sorted(found):
        info = found[name]
        variant = info.variant
        rows.append({"name": name, "title": variant.title, "description": variant.description,
                     "min_players": variant.min_players, "max_players": variant.max_players,
                     "cpu_levels": list(levels_of(variant)), "package": info.package,
                     "plugin": info.plugin})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo(_('No variants installed. Install cardcli with its games ("cardcli[games]", '
                     "see README's Install) or a variant plugin."))
        return
    width = max(len(r["name"]) for r in rows)
    columns = terminal_width()
    for row in rows:
        variant = found[row["name"]].variant
        players = players_text(row["min_players"], row["max_players"])
        about = _("({players}; CPU: {levels})").format(players=players, levels=", ".join(row["cpu_levels"]))
        about += f"  [{row['package']}]"
        for text in (f"{row['name']:<{width}}  {variant.words(row['title'])}  {about}",
                     f"{'':<{width}}  {variant.words(row['description'])}"):
            click.echo(printable("\n".join(wrap(text, columns, indent=width + 2)), newlines=True))


def players_text(low: int, high: int) -> str:
    """``2 to 6 players`` (``2 players`` when it is one number), in the chosen language."""
    if low == high:
        return _.ngettext("{count} player", "{count} players", low).format(count=low)
    return _("{low} to {high} players").format(low=low, high=high)
