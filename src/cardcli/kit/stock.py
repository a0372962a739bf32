"""The stock as the built-in variants keep it: an unordered pool of cards.

A real stock is a face-down pile whose order nobody knows until a card comes
off it, which is exactly what a record states ("drew 7H").  So a state keeps
its stock as a list in no meaningful order: a card drawn is taken out
wherever it lies (:func:`take`), a random draw picks any card
(:func:`draw_one`, :func:`draw_some`), and a stated draw is checked against
what the stock holds (:func:`first_missing`).  When the stock runs out, the
discards under the top card become the new stock (:func:`rebuild`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from .cards import NAME
from .errors import IllegalMove
from .language import N_
from .language import core as _
from .rand import below


def draw_one(stock: list[int], rng: random.Random) -> int:
    """A card drawn at random from ``stock`` (not taken out)."""
    return stock[below(rng, len(stock))]


def draw_some(stock: list[int], count: int, rng: random.Random) -> tuple[int, ...]:
    """``count`` different cards of ``stock`` drawn at random, in the order
    drawn (not taken out).  Each is drawn from what is left of a copy of the
    stock, taken out of it where it lies."""
    if count == 1:
        return (stock[below(rng, len(stock))],)
    pool = stock[:]
    return tuple(pool.pop(below(rng, len(pool))) for _ in range(count))


def take(stock: list[int], card: int) -> None:
    """Take one ``card`` out of ``stock`` (the last card fills its place:
    the stock's order means nothing)."""
    index = stock.index(card)
    stock[index] = stock[-1]
    stock.pop()


def first_missing(cards: Iterable[int], pool: Iterable[int]) -> int | None:
    """The first of ``cards`` (a multiset: a card named twice must be there
    twice) that ``pool`` does not hold, or ``None`` when it holds them all."""
    have = Counter(pool)
    for card in cards:
        if have[card] <= 0:
            return card
        have[card] -= 1
    return None


def rebuild(discards: list[int]) -> tuple[list[int], list[int]]:
    """The stock made from ``discards`` when the stock runs out, and the
    discard pile left: the top card stays, the rest become the new stock."""
    return discards[:-1], discards[-1:]


#: The built-in variants' zones (``card_zones``) in words, for :func:`where`.
_ZONE_WORDS = {"discards": N_("the discards"), "finished tricks": N_("the finished tricks"),
               "trick": N_("the trick"), "undealt": N_("the undealt"), "table": N_("the table")}


def where(zones: Mapping[str, Sequence[int]], card: int, words: Mapping[str, str] | None = None) -> str:
    """Where a card that is not in the stock lies, from a state's
    ``card_zones``, for a refusal: " (it is in seat 0's hand)".  A zone is
    said as ``words`` says it, else "seat N's hand" or "the <zone>"."""
    for zone, cards in zones.items():
        if zone != "stock" and card in cards:
            said = words.get(zone) if words else None
            if said is None:
                if zone.startswith("hand "):
                    said = _("seat {seat}'s hand").format(seat=zone[5:])
                elif zone in _ZONE_WORDS:
                    said = _(_ZONE_WORDS[zone])
                else:
                    # Translators: a place of the cards ({zone}: its name in the code, "discards").
                    said = _("the {zone}").format(zone=zone)
            # Translators: after a refusal, where the card lies (with its space: " (it is in seat 0's hand)").
            return _(" (it is in {place})").format(place=said)
    return ""


def check_drawn(stock: Sequence[int], cards: Sequence[object], want: int,
                where: Callable[[int], str] = lambda card: "") -> None:
    """Raise :class:`~cardcli.kit.errors.IllegalMove` unless ``cards`` (a record's
    draw) are ``want`` cards that ``stock`` holds.  ``where(card)`` tells where
    a card that is not in the stock lies (" (it is in seat 0's hand)")."""
    if len(cards) != want:
        raise IllegalMove(_("{count} card(s) drawn, but the rules draw {want} here").format(
            count=len(cards), want=want))
    pool = list(stock)
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < len(NAME):
            raise IllegalMove(_("{card!r} is not a card of this game").format(card=card))
        if card not in pool:
            raise IllegalMove(_("drew {card}, which is not in the stock{where}").format(
                card=NAME[card], where=where(card)))
        pool.remove(card)
