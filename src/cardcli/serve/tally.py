"""The evening's tally: who won each game played at a served table, and each game's scores.

Built from the games' results alone (``places``, ``winner``, ``scores``: the
record's result line), so it knows no game; the page draws it as a table and
the terminals as the lines of :func:`tally_lines`.  A player is whoever sat
in a seat (``Seat.player``): the same person game after game, under the name
they have now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..kit.fit import visible_width
from ..kit.grammar import spoken_name
from ..kit.language import core as _


def won(result: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` won the game: first place (a shared first place is a win for each)."""
    places = result.get("places")
    if isinstance(places, list) and seat < len(places):
        return places[seat] == 1
    return result.get("winner") == seat


def tally(games: Sequence[tuple[Sequence[int], Mapping[str, Any]]], names: Mapping[int, str],
          label: str) -> dict[str, Any]:
    """The tally of ``games`` (each: the player in each seat, and its result):
    per player (in the order they first sat down) the games won and played;
    per game each player's place and, when the game keeps score, score."""
    order: list[int] = []
    for players, _result in games:
        order.extend(p for p in players if p not in order)
    wins = dict.fromkeys(order, 0)
    played = dict.fromkeys(order, 0)
    rows = []
    scored = any(isinstance(result.get("scores"), list) for _players, result in games)
    for number, (players, result) in enumerate(games, start=1):
        places: list[int | None] = [None] * len(order)
        scores: list[int | None] = [None] * len(order)
        for seat, player in enumerate(players):
            column = order.index(player)
            played[player] += 1
            if won(result, seat):
                wins[player] += 1
            if isinstance(result.get("places"), list) and seat < len(result["places"]):
                places[column] = result["places"][seat]
            if isinstance(result.get("scores"), list) and seat < len(result["scores"]):
                scores[column] = result["scores"][seat]
        rows.append({"game": number, "places": places, "scores": scores if scored else None})
    return {"games": len(games), "label": label, "scored": scored,
            "players": [{"name": names.get(p) or _("player {number}").format(number=p + 1), "wins": wins[p],
                         "games": played[p]} for p in order],
            "rows": rows}


def tally_lines(tally: Mapping[str, Any]) -> list[str]:
    """The tally for a terminal: a column per player, a row per game (the
    score, ``*`` for the winner, or the place), then the games won."""
    if not tally.get("games"):
        return []
    players = tally["players"]
    scored = tally.get("scored")
    head = [spoken_name(str(p["name"])) for p in players]
    grid: list[tuple[str, list[str]]] = []
    for row in tally["rows"]:
        cells = []
        for column in range(len(players)):
            place = row["places"][column]
            if scored and row["scores"] is not None and row["scores"][column] is not None:
                cells.append(f"{row['scores'][column]}{'*' if place == 1 else ' '}")
            elif place is not None:
                # Translators: a place in one game of the evening's tally, in a narrow column ("2.").
                cells.append(_("{place}.").format(place=place))
            else:
                cells.append("-")
        # Translators: a row of the evening's tally, in a narrow column.
        grid.append((_("game {number}").format(number=row["game"]), cells))
    # Translators: the last row of the evening's tally, in a narrow column.
    grid.append((_("wins"), [str(p["wins"]) for p in players]))
    # Columns on a terminal (a full-width character takes two), not characters.
    first = max(visible_width(label) for label, _cells in grid)
    widths = [max(visible_width(head[c]), *(visible_width(cells[c]) for _label, cells in grid))
              for c in range(len(players))]
    count = tally["games"]
    lines = [_.ngettext("The evening so far ({count:,} game):", "The evening so far ({count:,} games):",
                        count).format(count=count),
             "  " + " " * first + "".join(f"  {' ' * (width - visible_width(name))}{name}"
                                          for name, width in zip(head, widths))]
    for label, cells in grid:
        row = "".join(f"  {' ' * (width - visible_width(cell))}{cell}" for cell, width in zip(cells, widths))
        lines.append(f"  {label}{' ' * (first - visible_width(label))}{row}".rstrip())
    lines.append("  " + (_("({label} of each game; * won it)").format(label=tally["label"]) if scored else
                         _("(the place in each game)")))
    return lines
