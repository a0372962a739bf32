"""The table as text: the seat rows every variant's ``render`` shows.

A row says who sits where and how many cards they hold, the notes beside
them (dealer, Page One) and, for the viewer, their cards::

     > 1 ann   5 cards  (dealer)  4S 9S 3H KD JK
       2 bob   1 card   (Page One)

The row of the player to move starts with :data:`ACTING` (" > "), which is
how the terminal knows which row to show in bold (:mod:`cardcli.style`): a
variant that writes its rows with :func:`seat_rows` gets that for free.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import NAME, sorted_hand
from .view import PlayerView

#: How the row of the player to move begins.
ACTING = " > "


def seat_rows(players: Sequence[PlayerView], acting: int | None, shown: Mapping[int, str] | None = None
              ) -> list[str]:
    """One row per seat of ``players`` (:class:`~cardcli.view.PlayerView`, as
    the served table shows them too): the marker for ``acting``, the seat's
    number and name, its card count, its score and notes, and the cards
    ``shown`` for it (:func:`hands_shown`: the viewer's own hand, or every
    hand for a viewer of ``None``)."""
    width = max((len(player.name) for player in players), default=0)
    rows = []
    for player in players:
        row = (ACTING if player.seat == acting else "   ") + f"{player.seat} {player.name:<{width}}"
        if player.cards is not None:
            row += f"  {player.cards:2d} card{'s' if player.cards != 1 else ' '}"
        if player.score:
            row += f"  {player.score}"
        if player.notes:
            row += f"  ({', '.join(player.notes)})"
        cards = (shown or {}).get(player.seat)
        if cards:
            row += f"  {cards}"
        rows.append(row.rstrip())
    return rows


def hands_shown(hands: Sequence[Sequence[int]], viewer: int | None) -> dict[int, str]:
    """The hands ``viewer`` may see, sorted and named, by seat: its own, or
    every hand where ``viewer`` is ``None``."""
    return {seat: " ".join(NAME[card] for card in sorted_hand(hand)) for seat, hand in enumerate(hands)
            if viewer is None or viewer == seat}
