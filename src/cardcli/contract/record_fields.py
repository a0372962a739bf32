"""Reading and writing the fields of record events: the small checks every
variant's ``decode_action`` needs, written once so every variant's records
fail in the same words."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..kit.cards import CARD_BY_NAME, NAME, UNSEEN, parse_card
from ..kit.grammar import join_or, plural
from ..kit.language import N_
from ..kit.language import core as _
from .unseen import unseen_allowed

__all__ = ["EventFields", "card_field", "cards_field", "drawn_cards", "flag_field", "hand_names",
           "hands_field", "join_or", "only_fields", "plural", "reshuffle_size"]

#: How a record writes a card its writer did not see.
UNSEEN_NAME = "??"

# Translators: what a record's field holds, in a refusal ("card must be a card name like "7H"", "a hand
# written "??" ..."): the words the variants pass as ``what``.
_WHAT = (N_("card"), N_("shown card"), N_("drawn card"), N_("wild"), N_("hand"))


def _what(what: str) -> str:
    """``what`` (a field's card, as the variants name it) in the chosen language."""
    return _(what)


def only_fields(data: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse a field the event does not have ("unknown field 'x' in a play event").

    Pass a ``frozenset`` where it is called per event: then the common case
    (no unknown field) costs one set comparison."""
    if not isinstance(allowed, (set, frozenset)):
        allowed = set(allowed)
    if data.keys() <= allowed:
        return
    for key in data:
        if key not in allowed:
            # Translators: {event} is the event's name in the record ("play", "deal"): keep it.
            raise ValueError(_("unknown field {key!r} in a {event} event (allowed: {fields})").format(
                key=key, event=what, fields=", ".join(sorted(allowed))))


def card_field(value: Any, what: str = "card") -> int:
    """A card written by name ("7H", "10S", "JK"); ``ValueError`` saying how otherwise."""
    card = CARD_BY_NAME.get(value) if type(value) is str else None
    if card is not None:  # the plain notation, as records write it
        return card
    if not isinstance(value, str):
        raise ValueError(_("{what} must be a card name like \"7H\", got {value!r}").format(
            what=_what(what), value=value))
    if value == UNSEEN_NAME:
        raise ValueError(_("the {what} cannot be \"??\": everyone at the table sees it").format(
            what=_what(what)))
    return parse_card(value)


def _unseen(what: str) -> int:
    """``UNSEEN`` where the record may leave a card unseen; else why not."""
    if unseen_allowed():
        return UNSEEN
    said = _("a {what} written \"??\" (a card nobody saw) needs the header to say whose view the record is: "
             "add \"view\": \"public\" or \"view\": \"seat N\" (docs/records.md)")
    raise ValueError(said.format(what=_what(what)))


def cards_field(values: list[Any], card: Callable[[Any], int] = card_field,
                what: str = "card") -> tuple[int, ...]:
    """Cards dealt or drawn, each a name or ``"??"`` (a card the writer did not see)."""
    return tuple(_unseen(what) if value == UNSEEN_NAME else card(value) for value in values)


def hand_names(hand: Iterable[int]) -> list[str] | int:
    """A dealt hand as a record writes it: its cards by name, or how many
    when nobody saw any of them (a record from one seat's view)."""
    cards = list(hand)
    if cards and all(card == UNSEEN for card in cards):
        return len(cards)
    return [NAME[card] for card in cards]


def flag_field(data: Mapping[str, Any], key: str) -> bool:
    """A true/false field, false when absent (``"call": true``)."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        # Translators: {key} is the record's field ("call"): keep it.
        raise ValueError(_("{key} must be true or false, got {value!r}").format(key=key, value=value))
    return value


#: No hand a record deals holds more cards than this (four decks and their jokers): a count of
#: cards nobody saw is checked before anything is made of it.
MOST_CARDS = 4 * 54


def hands_field(data: Mapping[str, Any], card: Callable[[Any], int] = card_field, *,
                size: int | None = None) -> tuple[tuple[int, ...], ...]:
    """A deal's ``hands``: one per seat, each a list of cards read by
    ``card``, or the number of cards dealt where nobody saw them.  ``size``:
    how many cards the rules deal each seat, where the caller knows it (a
    count that is not is refused before any hand is made of it)."""
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, list) or type(hand) is int for hand in hands):
        raise ValueError(_("'hands' must be a list of card lists, one per seat"))
    dealt = []
    for seat, hand in enumerate(hands):
        if type(hand) is int:
            if hand < 0:
                raise ValueError(_("a hand nobody saw must be a number of cards, not {count}").format(
                    count=hand))
            if (size is not None and hand != size) or hand > MOST_CARDS:
                if size is not None:
                    said = _("seat {seat} was dealt {count:,} cards nobody saw, but the rules deal {size}")
                else:
                    said = _("seat {seat} was dealt {count:,} cards nobody saw, but no pack holds {count:,}")
                raise ValueError(said.format(seat=seat, count=hand, size=size))
            dealt.append((_unseen("hand"),) * hand if hand else ())
        else:
            dealt.append(tuple(card(value) for value in hand))
    return tuple(dealt)



def drawn_cards(data: Mapping[str, Any], drawer: int | None,
                card: Callable[[Any], int] = card_field) -> tuple[int, ...]:
    """The cards of a chance ``draw`` line, ``{"chance": "draw", "seat": 1,
    "cards": ["7H", "2C"]}``: a non-empty list, drawn by the seat named,
    which must be ``drawer`` (the seat the rules have drawing now, where the
    caller knows it)."""
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise ValueError(_("'cards' must be a non-empty list of the cards drawn"))
    seat = data.get("seat")
    if type(seat) is not int:
        raise ValueError(_("a draw must name the seat that draws (\"seat\": N)"))
    if drawer is not None and seat != drawer:
        raise ValueError(_("the cards drawn now are seat {drawer}'s, not seat {seat}'s").format(drawer=drawer,
                                                                                                seat=seat))
    return cards_field(cards, card, "drawn card")


def reshuffle_size(data: Mapping[str, Any], size: int) -> None:
    """A ``reshuffle`` line's ``cards``, where it states them, must be the
    size of the stock the rules make (``size``)."""
    stated = data.get("cards")
    if stated is not None and stated != size:
        raise ValueError(_("the reshuffle makes a stock of {size} cards, not {stated!r}").format(size=size,
                                                                                                stated=stated))


class EventFields:
    """The events of a variant's records and the fields each may have, to
    read a line by: :meth:`name` says which event a line is, and refuses an
    event the variant does not have or a field its event cannot have, in the
    same words for every variant ("unknown move 'x' (trick moves: play,
    draw)", "unknown field 'y' in a play event").  ``"move"``, ``"seat"``
    and ``"chance"`` are allowed where they belong; list the rest::

        EVENTS = EventFields("trick", moves={"play": ("card", "call"), "draw": ()},
                             chances={"deal": ("hands", "dealer"), "draw": ("seat", "cards")})
    """

    def __init__(self, game: str, moves: Mapping[str, Iterable[str]], chances: Mapping[str, Iterable[str]]):
        self.game = game
        self.moves = {name: frozenset({"move", "seat", *fields}) for name, fields in moves.items()}
        self.chances = {name: frozenset({"chance", *fields}) for name, fields in chances.items()}

    def name(self, data: Mapping[str, Any]) -> str:
        """The event ``data`` is (``"play"``; a chance event's name, ``"deal"``),
        its fields checked; ``ValueError`` saying why not."""
        move = data.get("move")
        if move is not None:
            allowed = self.moves.get(move) if move.__class__ is str else None
            if allowed is None:
                # Translators: {game} is the variant's name and {moves} its moves as records write them.
                raise ValueError(_("unknown move {move!r} ({game} moves: {moves})").format(
                    move=move, game=self.game, moves=", ".join(self.moves)))
            if not data.keys() <= allowed:  # read per event: the common case is one comparison
                only_fields(data, allowed, move)
            return move
        chance = data.get("chance")
        allowed = self.chances.get(chance) if chance.__class__ is str else None
        if allowed is None:
            raise ValueError(_("unknown chance event {chance!r} ({game}: {events})").format(
                chance=chance, game=self.game, events=", ".join(self.chances)))
        if not data.keys() <= allowed:
            only_fields(data, allowed, str(chance))
        return str(chance)
