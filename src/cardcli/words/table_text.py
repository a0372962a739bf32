"""The table as text: the seat rows every variant's ``render`` shows.

A row says who sits where and how many cards they hold, the notes beside
them (dealer, Page One) and, for the viewer, their cards::

     > 1 ann   5 cards  (dealer)  4S 9S 3H KD JK
       2 bob   1 card   (Page One)

The row of the player to move starts with :data:`ACTING` (" > "), which is
how the terminal knows which row to show in bold (:mod:`cardcli.terminal.style`): a
variant that writes its rows with :func:`seat_rows` gets that for free.

A hand with wilds is shown grouped by suit, the wilds apart (:func:`hand_text`),
and a player picks cards from it by name or by their number there
(:func:`picked_cards`); a game played in rounds shows its score sheet with :func:`score_sheet`, as
``cardcli scoresheet`` shows a page kept by hand.  A variant that draws no text
of its own gets its :class:`~cardcli.contract.views.TableView` drawn by :func:`view_text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..contract.views import Pile, PlayerView, TableView
from ..kit.cards import NAME, RANK, SUIT, UNSEEN, parse_card, sorted_hand
from ..kit.errors import CardError
from ..kit.fit import visible_width
from ..kit.grammar import listed
from ..kit.language import core as _

#: How the row of the player to move begins.
ACTING = " > "


def seat_rows(players: Sequence[PlayerView], acting: int | None, shown: Mapping[int, str] | None = None
              ) -> list[str]:
    """One row per seat of ``players`` (:class:`~cardcli.contract.views.PlayerView`, as
    the served table shows them too): the marker for ``acting``, the seat's
    number and name, its card count, its score and notes, and the cards
    ``shown`` for it (:func:`hands_shown`: the viewer's own hand, or every
    hand for a viewer of ``None``)."""
    # Padded to the columns a name takes on a terminal (a full-width name takes two a character).
    columns = [_width(p.name) for p in players]
    width = max(columns, default=0)
    # The card counts line up: each as wide as a count of two figures ("10 cards").
    counted = _width(_cards_held(10))
    rows = []
    for player, taken in zip(players, columns):
        name = player.name + " " * (width - taken)
        row = (ACTING if player.seat == acting else "   ") + f"{player.seat} {name}"
        if player.cards is not None:
            held = _cards_held(player.cards)
            row += "  " + held + " " * (counted - _width(held))
        if player.score:
            row += f"  {player.score}"
        if player.notes:
            row += f"  ({listed(player.notes)})"
        cards = (shown or {}).get(player.seat)
        if cards:
            row += f"  {cards}"
        rows.append(row.rstrip())
    return rows


def _width(text: str) -> int:
    """The columns ``text`` takes on a terminal (a wide character, Japanese, two)."""
    return len(text) if text.isascii() else visible_width(text)


def _cards_held(count: int) -> str:
    # Translators: how many cards a player holds, in a seat's row of the table (" 5 cards"); the
    # counts of the rows line up, a count of one figure padded to two.
    return _.ngettext("{count:2d} card", "{count:2d} cards", count).format(count=count)


def hands_shown(hands: Sequence[Sequence[int]], viewer: int | None) -> dict[int, str]:
    """The hands ``viewer`` may see, sorted and named, by seat: its own, or
    every hand where ``viewer`` is ``None``."""
    return {seat: " ".join(NAME[card] for card in sorted_hand(hand)) for seat, hand in enumerate(hands)
            if viewer is None or viewer == seat}


def hand_order(hand: Iterable[int], wild: int) -> list[int]:
    """A hand in display order: by suit, low to high, the cards of the ``wild`` rank last."""
    return sorted(hand, key=lambda card: (RANK[card] == wild, SUIT[card], RANK[card]))


def hand_text(hand: Iterable[int], wild: int, numbered: bool = False) -> str:
    """A hand sorted and grouped (:func:`hand_order`), the wilds apart and marked
    ``*``: ``4S 9S | 7D | 3C*``; ``numbered`` puts each card's place in front
    (``1:4S``), for picking cards by number."""
    groups: list[list[str]] = []
    current: object = None
    for number, card in enumerate(hand_order(hand, wild), start=1):
        is_wild = RANK[card] == wild
        group = "wild" if is_wild else SUIT[card]  # not a suit number: an unseen card has suit -1
        if group != current or not groups:
            groups.append([])
            current = group
        label = NAME[card] + ("*" if is_wild else "")
        groups[-1].append(f"{number}:{label}" if numbered else label)
    return " | ".join(" ".join(words) for words in groups)


def picked_cards(hand: Sequence[int], words: Iterable[str], wild: int) -> list[int]:
    """The cards of ``hand`` that ``words`` name, each by name (``4s``) or by
    its number in :func:`hand_text` ``numbered``; a card named twice must be
    held twice.  Raises ``ValueError`` with the reason a person should read."""
    order = hand_order(hand, wild)
    picked: list[int] = []
    left = list(hand)
    words = list(words)
    if len(words) > len(hand):
        raise ValueError(_.ngettext("you hold only {count} card, not {named}",
                                    "you hold only {count} cards, not {named}",
                                    len(hand)).format(count=len(hand), named=len(words)))
    for word in words:
        if word.isdigit():
            if not 1 <= int(word) <= len(order):
                raise ValueError(_("there is no card number {number} in your hand (1 to {count})").format(
                    number=int(word), count=len(order)))
            card = order[int(word) - 1]
        else:
            try:
                card = parse_card(word)
            except CardError as error:
                raise ValueError(str(error)) from None
            if card not in hand and UNSEEN not in hand:  # (a hand nobody saw may hold it)
                raise ValueError(_("{card} is not in your hand").format(card=NAME[card]))
        if card not in left and UNSEEN not in left:
            if UNSEEN in hand:  # the cards nobody saw went to the cards named before it
                # Translators: a hand partly unseen; {named}: the cards named before this one.
                raise ValueError(_.ngettext(
                    "you hold only {count} card: with the {named} named before it, none can be {card}",
                    "you hold only {count} cards: with the {named} named before it, none can be {card}",
                    len(hand)).format(count=len(hand), named=len(picked), card=NAME[card]))
            # Translators: a card named more often than it is held ("you hold only 1 7H").
            raise ValueError(_("you hold only {count} {card}").format(count=picked.count(card),
                                                                      card=NAME[card]))
        left.remove(card if card in left else UNSEEN)
        picked.append(card)
    return picked


def score_sheet(names: Sequence[str], rounds: Sequence[Sequence[Any]], totals: Sequence[Any],
                notes: Sequence[str] = ()) -> list[str]:
    """The running score sheet of a game in rounds: a line per round (its
    score per seat, then its note, such as how it ended), then the totals::

        Score sheet:
          round    ann    bob
              1    105    210   (bob went out)
          total    105    210
    """
    width = max(6, *(len(name) for name in names))
    # Translators: the headings of the score sheet's first column: "round" over the rounds' numbers,
    # "total" before the totals.
    round_word, total_word = _("round"), _("total")
    first = max(5, _width(round_word), _width(total_word))  # the first column, as wide as its words
    lines = [_("Score sheet:"),
             f"  {_pad(round_word, first)} " + " ".join(f"{name:>{width}}" for name in names)]
    for number, scores in enumerate(rounds, start=1):
        note = f"   ({notes[number - 1]})" if number <= len(notes) and notes[number - 1] else ""
        lines.append(f"  {number:>{first}} " + " ".join(f"{score:>{width}}" for score in scores) + note)
    lines.append(f"  {_pad(total_word, first)} " + " ".join(f"{score:>{width}}" for score in totals))
    return lines


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def view_text(view: TableView, shown: Mapping[int, str] | None = None) -> str:
    """The table as text drawn from its data alone, so that a variant writes
    one presentation (its ``table_view``) for the page and the terminal:
    the notes, a line per pile and per meld, the seat rows (with the cards
    ``shown``, :func:`seat_rows`), the score sheet."""
    lines = list(view.notes)
    lines.extend(pile_line(pile) for pile in view.piles)
    names = [player.name for player in view.players]
    for number, meld in enumerate(view.melds, start=1):
        owner = f"{names[meld.owner]}: " if meld.owner is not None and 0 <= meld.owner < len(names) else ""
        label = f"  [{meld.label}]" if meld.label else ""
        lines.append(f"  {number}. {owner}{' '.join(meld.cards)}{label}")
    lines.extend(seat_rows(view.players, view.turn, shown))
    if view.scores is not None and view.scores.rows:
        lines.extend(score_sheet(names, [row[1:] for row in view.scores.rows], view.scores.totals))
    return "\n".join(lines)


def pile_line(pile: Pile) -> str:
    """A pile as a line: its face-up cards (each after who played it, where
    ``labels`` say), or how many cards it holds, then its note:
    ``trick: ann 9H, bob 2H  (hearts to follow)``, ``stock: 31 cards``."""
    held = _cards_held(pile.count).strip()
    if pile.cards:
        said = played_by(pile) if pile.labels else " ".join(pile.cards)
        if pile.count > len(pile.cards):  # the cards under the top, unseen
            said += f" ({held})"
    else:
        said = held
    return f"{pile.name}: {said}" + (f"  ({pile.note})" if pile.note else "")


def played_by(pile: Pile) -> str:
    """A pile's cards after who played each (its ``labels``): ``ann 9H, bob 2H``."""
    return listed([f"{label} {card}" for label, card in zip(pile.labels, pile.cards)])
