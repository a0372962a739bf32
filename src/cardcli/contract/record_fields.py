"""Reading and writing the fields of record events, written once so every
variant's records fail in the same words: a variant declares its events
(:class:`RecordEvents`: each event's action and its fields' types) and its
``encode_action`` and ``decode_action`` come from that; the small checks
they use are here for code of a variant's own."""

from __future__ import annotations

import linecache
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, ClassVar

from ..kit.cards import CARD_BY_NAME, NAME, SUITS, UNSEEN, parse_card, parse_suit
from ..kit.grammar import join_or, plural
from ..kit.language import N_
from ..kit.language import core as _
from .unseen import hands_seen_by, unseen_allowed

__all__ = ["Card", "Cards", "Custom", "Drawn", "Event", "Field", "Flag", "Hands", "RecordEvents",
           "Reshuffle", "Seat", "Stated", "Suit", "card_field", "cards_field", "drawn_cards", "flag_field",
           "hand_names", "hands_field", "join_or", "only_fields", "plural", "reshuffle_size"]

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
        raise ValueError(_reshuffle_refusal(size, stated))


def _reshuffle_refusal(size: int, stated: Any) -> str:
    return _("the reshuffle makes a stock of {size} cards, not {stated!r}").format(size=size, stated=stated)


# ----------------------------------------------------------------- the codec
#: ``ref(value)``: the name under which a codec's code sees ``value``.
Ref = Callable[[Any], str]
#: What a variant writes to word a refusal: called only when a line is refused, so it
#: says it in the language chosen then.
Refusal = Callable[[], str]
#: Something the state says: a function of the state, or the name of its attribute (``"draw_seat"``,
#: ``"cfg.hand_size"``), which the compiled code reads as it is, with no call.
OfState = Callable[[Any], Any] | str


def _of_state(what: OfState, ref: Ref) -> str:
    """The source that reads ``what`` from ``state``."""
    if isinstance(what, str):
        if not all(part.isidentifier() for part in what.split(".")):
            raise ValueError(f"not an attribute of the state: {what!r}")
        return f"state.{what}"
    return f"{ref(what)}(state)"


def _getter(what: OfState) -> Callable[[Any], Any]:
    return attrgetter(what) if isinstance(what, str) else what


class Field:
    """One field of an event's record line, as :class:`RecordEvents` reads
    and writes it.  A field either holds the action's next item (``slot``)
    or is taken from the state (a seat, a count: it holds no place in the
    action, is written from the state and checked against it).

    A field says its reading and writing as Python source, which the
    events compile into their ``encode`` and ``decode`` when they are
    declared: a record line then costs what the same code written out by
    hand costs, with no look at the declaration per line."""

    #: Whether the field holds a place in the action tuple.
    slot: ClassVar[bool] = True
    #: The cards its item holds, for a state's default ``cards_taken`` and ``seen_by``
    #: (:class:`~cardcli.contract.unseen.UnseenCards`): ``"card"``, ``"cards"``, a deal's
    #: ``"hands"``, ``"drawn"`` (cards its drawer alone sees), ``""`` (none), or ``None``
    #: (the declaration cannot say).
    holds: str | None = ""

    def __init__(self, *keys: str):
        self.keys = keys

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        """Each key written: ``(key, value, condition)``, the value's source
        and the condition under which it is written (``None``: always).
        ``item`` is the source of the action's item (``action[1]``)."""
        raise NotImplementedError

    def reads(self, ref: Ref) -> str:
        """A slot's item read from ``data`` (and ``state``), as an
        expression; for a field of the state, a statement checking ``data``
        (or ``""``: nothing to check)."""
        raise NotImplementedError


class Card(Field):
    """A card, written by name (``"card": "7H"``) and read by ``read``
    (``card_field``, or the variant's own that also refuses a card its pack
    lacks).  ``optional``: none (-1) leaves the key out; ``absent``: the
    card where the record leaves the key out (what the state says, :data:`OfState`).
    ``taken``: whether the action takes it from cards nobody else sees (a
    hand, the stock); by default a card that is not optional is."""

    def __init__(self, read: Callable[[Any], int] = card_field, key: str = "card", *, optional: bool = False,
                 absent: OfState | None = None, taken: bool | None = None):
        super().__init__(key)
        self.read, self.optional, self.absent = read, optional, absent
        self.holds = "card" if (not optional if taken is None else taken) else ""

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], f"{ref(NAME)}[{item}]", f"{item} >= 0" if self.optional else None)]

    def reads(self, ref: Ref) -> str:
        key, read = repr(self.keys[0]), ref(self.read)
        if self.absent is not None:
            return f"({read}(data[{key}]) if {key} in data else {_of_state(self.absent, ref)})"
        if self.optional:
            return f"(-1 if (value := data.get({key})) is None else {read}(value))"
        return f"{read}(data.get({key}))"


def _suit(value: Any) -> int:
    if not isinstance(value, str):
        raise ValueError(f"suit must be S, H, D or C, got {value!r}")
    return parse_suit(value)


class Suit(Field):
    """A suit (``"suit": "H"``); none (-1) leaves the key out."""

    def __init__(self, key: str = "suit"):
        super().__init__(key)

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], f"{ref(SUITS)}[{item}]", f"{item} >= 0")]

    def reads(self, ref: Ref) -> str:
        return f"(-1 if (value := data.get({self.keys[0]!r})) is None else {ref(_suit)}(value))"


class Flag(Field):
    """A true/false item, written ``"call": true`` and left out when false."""

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], "True", item)]

    def reads(self, ref: Ref) -> str:
        key = repr(self.keys[0])  # a call only for a value that is not true or false, to refuse it
        value = f"(value := data.get({key}, False))"
        return f"(value if {value} is False or value is True else {ref(flag_field)}(data, {key}))"


class Hands(Field):
    """A deal's ``hands`` (:func:`hands_field`), each card read by ``read``;
    ``size``: how many cards the rules deal each seat (:data:`OfState`)."""

    def __init__(self, read: Callable[[Any], int] = card_field, *, size: OfState | None = None):
        super().__init__("hands")
        self.read, self.size = read, size
        self.holds = "hands"

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [("hands", f"[{ref(hand_names)}(hand) for hand in {item}]", None)]

    def reads(self, ref: Ref) -> str:
        size = "" if self.size is None else f", size={_of_state(self.size, ref)}"
        return f"{ref(hands_field)}(data, {ref(self.read)}{size})"


class Cards(Field):
    """A non-empty list of cards, each read by ``read`` (``"??"`` where
    unseen); ``refuse()`` says what the list must be."""

    def __init__(self, read: Callable[[Any], int] = card_field, key: str = "cards", *, refuse: Refusal):
        super().__init__(key)
        self.read, self.refuse = read, refuse
        self.holds = "cards"

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], f"[{ref(NAME)}[card] for card in {item}]", None)]

    def reads(self, ref: Ref) -> str:
        read, refuse = self.read, self.refuse

        def cards(values: Any) -> tuple[int, ...]:
            if not isinstance(values, list) or not values:
                raise ValueError(refuse())
            return cards_field(values, read)
        return f"{ref(cards)}(data.get({self.keys[0]!r}))"


class Seat(Field):
    """A seat the action names (``"seat": 1``, a deal's seat dealt to);
    ``refuse()`` says so where the record's is not a seat number."""

    def __init__(self, key: str = "seat", *, refuse: Refusal):
        super().__init__(key)
        self.refuse = refuse

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], item, None)]

    def reads(self, ref: Ref) -> str:
        refuse = self.refuse

        def seat(value: Any) -> int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(refuse())
            return value
        return f"{ref(seat)}(data.get({self.keys[0]!r}))"


class Drawn(Field):
    """The cards of a chance ``draw`` (:func:`drawn_cards`), written after
    the drawing seat: ``"seat": 1, "cards": [...]``, the seat as the state
    says it (``seat``, :data:`OfState`).  The record's seat is checked
    against it where the state says ``drawing`` (else the rules refuse the
    draw, in their words)."""

    def __init__(self, read: Callable[[Any], int] = card_field, *, seat: OfState, drawing: OfState):
        super().__init__("seat", "cards")
        self.read, self.seat, self.drawing = read, seat, drawing
        self.holds = "drawn"

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        cards = f"[{ref(NAME)}[card] for card in {item}]"
        return [("seat", _of_state(self.seat, ref), None), ("cards", cards, None)]

    def reads(self, ref: Ref) -> str:
        drawer = f"{_of_state(self.seat, ref)} if {_of_state(self.drawing, ref)} else None"
        return f"{ref(drawn_cards)}(data, {drawer}, {ref(self.read)})"


class Stated(Field):
    """A value the state decides, not the action (``value``,
    :data:`OfState`): it holds no place in the action.  A record that
    states it must state that, else ``refuse(expected, stated)`` says why
    (a deal's dealer); without ``refuse``, it is only written."""

    slot = False

    def __init__(self, key: str, value: OfState,
                 refuse: Callable[[Any, Any], str] | None = None):
        super().__init__(key)
        self.value, self.refuse = value, refuse

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], _of_state(self.value, ref), None)]

    def reads(self, ref: Ref) -> str:
        key, value, refuse = self.keys[0], _getter(self.value), self.refuse
        if refuse is None:
            return ""

        def check(state: Any, data: Mapping[str, Any]) -> None:
            stated = data.get(key)
            if stated is not None:
                expected = value(state)
                if stated != expected:
                    raise ValueError(refuse(expected, stated))
        return f"{ref(check)}(state, data)"


class Reshuffle(Stated):
    """A reshuffle's ``cards``: the size of the stock it makes (``size``, :data:`OfState`)."""

    def __init__(self, size: OfState):
        super().__init__("cards", size, _reshuffle_refusal)


class Custom(Field):
    """Any other item: written as ``write(item, state)``, read as
    ``read(data.get(key), state)`` (a meld, written as its cards)."""

    def __init__(self, key: str, write: Callable[[Any, Any], Any],
                 read: Callable[[Any, Any], Any] | None = None):
        super().__init__(key)
        self.write, self.read = write, read
        self.holds = None

    def writes(self, item: str, ref: Ref) -> list[tuple[str, str, str | None]]:
        return [(self.keys[0], f"{ref(self.write)}({item}, state)", None)]

    def reads(self, ref: Ref) -> str:
        if self.read is None:
            raise TypeError(f"field {self.keys[0]!r} has no read: give it one, or the event a decode")
        return f"{ref(self.read)}(data.get({self.keys[0]!r}), state)"


Encode = Callable[[Any, Any], dict[str, Any]]
Decode = Callable[[Any, Mapping[str, Any]], Any]


class Event:
    """One event: the action's kind, then its fields in the action's order
    (fields of the state, :class:`Stated`, hold no place in it; their keys
    are written where they stand).  A plain tuple ``(KIND, *fields)`` says
    the same; a tuple with no field is the action itself (``DRAW_ACTION``).

    ``built``: the actions are made once, ahead: the action of items
    ``a, b`` is ``built[a][b]`` (``PLAYS[card][call]``).  ``encode(state,
    action)`` and ``decode(state, data)`` replace the compiled ones where
    an event's rule is special; a field named by its key alone (``"as"``)
    is one only they read and write.  ``action``: the action of an event
    with no item (``(kind,)``, made once)."""

    def __init__(self, kind: Any, *fields: Field | str, built: Any = None, encode: Encode | None = None,
                 decode: Decode | None = None, action: Any = None):
        self.kind, self.fields, self.built = kind, fields, built
        self.encode, self.decode = encode, decode
        self.action = (kind,) if action is None else action
        self.keys = tuple(key for field in fields
                          for key in ((field,) if isinstance(field, str) else field.keys))


def _event(spec: Event | tuple[Any, ...]) -> Event:
    if isinstance(spec, Event):
        return spec
    if len(spec) == 1:
        return Event(spec[0], action=spec)
    return Event(*spec)


class _Code:
    """The source of a compiled function and the values it names."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.scope: dict[str, Any] = {}

    def ref(self, value: Any) -> str:
        """The name under which the code sees ``value`` (an int, written as it is)."""
        if value.__class__ is int:
            return repr(value)
        key = id(value)
        if key not in self.names:
            self.names[key] = name = f"_{len(self.scope)}"
            self.scope[name] = value
        return self.names[key]

    def function(self, name: str, args: str, lines: list[str], where: str) -> Any:
        source = f"def {name}({args}):\n" + "".join(f"    {line}\n" for line in lines)
        filename = f"<{where}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # for tracebacks
        exec(compile(source, filename, "exec"), self.scope)  # source made from the declaration alone
        return self.scope[name]


def _encoding(head: str, name: str, event: Event, ref: Ref) -> list[str]:
    """The lines that return the record fields of one event's action."""
    if event.encode is not None:
        return [f"return {ref(event.encode)}(state, action)"]
    literal, after, slot = [f"{head!r}: {name!r}"], list[str](), 1
    for field in event.fields:
        if isinstance(field, str):  # read by the event's own decode only
            continue
        item = ""
        if field.slot:
            item, slot = f"action[{slot}]", slot + 1
        for key, value, condition in field.writes(item, ref):
            if condition is None and not after:
                literal.append(f"{key!r}: {value}")
            elif condition is None:
                after.append(f"data[{key!r}] = {value}")
            else:
                after.append(f"if {condition}: data[{key!r}] = {value}")
    made = "{" + ", ".join(literal) + "}"
    return [f"return {made}"] if not after else [f"data = {made}", *after, "return data"]


def _decoding(event: Event, ref: Ref, where: str) -> list[str]:
    """The lines that return one event's action read from ``data``."""
    if event.decode is not None:
        return [f"return {ref(event.decode)}(state, data)"]
    items: list[str] = []
    checks: list[str] = []
    for field in event.fields:
        if isinstance(field, str):
            raise TypeError(f"{where}: field {field!r} is named only: give the event its own decode")
        (items if field.slot else checks).append(field.reads(ref))
    checks = [check for check in checks if check]  # ("": a field only written)
    lines = []
    if checks and items:  # the action's items are read first, then the state's fields checked
        lines = [f"item{at} = {item}" for at, item in enumerate(items)]
        items = [f"item{at}" for at in range(len(items))]
    lines += checks
    if event.built is not None:
        action = ref(event.built) + "".join(f"[{item}]" for item in items)
    elif items:
        action = f"({ref(event.kind)}, {', '.join(items)})"
    else:
        action = ref(event.action)
    return [*lines, f"return {action}"]


def _holders(event: Event) -> list[tuple[int, Field]] | None:
    """Each of the action's items and its field, where the declaration
    says every card the action holds (``None`` where it cannot: an event
    that writes and reads itself, a custom item)."""
    if event.encode is not None or event.decode is not None:
        return None
    holders, slot = [], 1
    for field in event.fields:
        if isinstance(field, str) or field.holds is None:
            return None
        if field.slot:
            holders.append((slot, field))
            slot += 1
    return holders


def _taker(holders: list[tuple[int, Field]]) -> Callable[[Any, Any], Sequence[int]]:
    """The cards an action takes (``UnseenCards.cards_taken``), from the fields that hold them."""
    parts = [(index, field.holds) for index, field in holders if field.holds]
    if not parts:
        return lambda state, action: ()
    if len(parts) == 1:
        index, holds = parts[0]
        if holds == "card":
            return lambda state, action: (action[index],)
        if holds == "hands":
            return lambda state, action: tuple(card for hand in action[index] for card in hand)
        return lambda state, action: action[index]

    def taken(state: Any, action: Any) -> Sequence[int]:
        cards: list[int] = []
        for index, holds in parts:
            item = action[index]
            if holds == "card":
                cards.append(item)
            elif holds == "hands":
                cards.extend(card for hand in item for card in hand)
            else:
                cards.extend(item)
        return cards
    return taken


def _seer(holders: list[tuple[int, Field]]) -> Callable[[Any, Any, int | None], Any] | None:
    """A chance event as a seat saw it (``UnseenCards.seen_by``): a deal's
    hands but its own unseen, a draw unseen but by its drawer, a card
    turned up seen by all; ``None`` for cards the declaration cannot say
    whose they are."""
    if any(field.holds == "cards" for _index, field in holders):
        return None
    hidden = [(index, _getter(field.seat) if isinstance(field, Drawn) else None)
              for index, field in holders if field.holds in ("hands", "drawn")]

    def seen(state: Any, action: Any, viewer: int | None) -> Any:
        items = None
        for index, drawer in hidden:
            if drawer is None:
                items = items or list(action)
                items[index] = hands_seen_by(action[index], viewer)
            elif viewer != drawer(state):
                items = items or list(action)
                items[index] = (UNSEEN,) * len(action[index])
        return action if items is None else tuple(items)
    return seen


def _unknown_move(game: str, moves: Iterable[str], move: Any) -> ValueError:
    # Translators: {game} is the variant's name and {moves} its moves as records write them.
    return ValueError(_("unknown move {move!r} ({game} moves: {moves})").format(
        move=move, game=game, moves=", ".join(moves)))


def _unknown_chance(game: str, chances: Iterable[str], chance: Any) -> ValueError:
    return ValueError(_("unknown chance event {chance!r} ({game}: {events})").format(
        chance=chance, game=game, events=", ".join(chances)))


class RecordEvents:
    """A variant's record events, declared once: the moves and chance
    events, each its action's layout and its fields' types.  From it come
    the variant's ``encode_action`` and ``decode_action`` (``events =
    RecordEvents(...)`` in the variant's class), and a line that is not
    one of them is refused in the same words for every variant ("unknown
    move 'x' (trick moves: play, draw)", "unknown field 'y' in a play
    event").  ``"move"``, ``"seat"`` and ``"chance"`` are allowed where
    they belong::

        events = RecordEvents(
            "trick",
            moves={"play": Event(PLAY, Card(), Flag("call"), built=PLAYS), "draw": DRAW_ACTION},
            chances={"deal": (DEAL, Hands(size=lambda state: state.cfg.hand_size)),
                     "draw": (DRAWN, Drawn(seat=lambda state: state.draw_seat,
                                           drawing=lambda state: state.phase == P_DRAW)),
                     "reshuffle": (RESHUFFLE, Reshuffle(lambda state: len(state.tricks)))})

    ``encode(state, action)`` gives an action's record fields, and
    ``decode(state, data)`` a record line's action (``ValueError`` saying
    why not).  Both are compiled when the events are declared, each one
    function that tells the events apart as code written out by hand does:
    a record line costs what that code costs.
    """

    encode: Encode
    decode: Decode

    def __init__(self, game: str, moves: Mapping[str, Event | tuple[Any, ...]],
                 chances: Mapping[str, Event | tuple[Any, ...]]):
        self.game = game
        self.moves = {name: _event(spec) for name, spec in moves.items()}
        self.chances = {name: _event(spec) for name, spec in chances.items()}
        encoding, decoding = _Code(), _Code()
        ref = decoding.ref
        encode, decode, kinds = ["kind = action[0]"], [], set()
        for head, events, common in (("move", self.moves, ("move", "seat")),
                                     ("chance", self.chances, ("chance",))):
            decode.append(f"{head} = data.get({head!r})")
            if head == "move":
                decode.append("if move is not None:")
            for name, event in events.items():
                where = f"{game} {head} {name}"
                if event.kind in kinds:
                    raise TypeError(f"{where}: kind {event.kind!r} is declared twice")
                kinds.add(event.kind)
                encode.append(f"if kind == {encoding.ref(event.kind)}:")
                encode += [f"    {line}" for line in _encoding(head, name, event, encoding.ref)]
                allowed = ref(frozenset({*common, *event.keys}))
                said = head if head == "move" else "str(chance)"
                branch = [f"if {head} == {name!r}:",
                          f"    if not data.keys() <= {allowed}: {ref(only_fields)}(data, {allowed}, {said})",
                          *(f"    {line}" for line in _decoding(event, ref, where))]
                decode += [f"    {line}" for line in branch] if head == "move" else branch
            unknown = ref(_unknown_move if head == "move" else _unknown_chance)
            indent = "    " if head == "move" else ""
            decode.append(f"{indent}raise {unknown}({game!r}, {ref(tuple(events))}, {head})")
        article = "an" if game[:1].lower() in "aeiou" else "a"
        encode.append(f"raise ValueError({f'not {article} {game} action: '!r} + repr(action))")
        self.encode = encoding.function("encode", "state, action", encode, f"{game} encode")
        self.decode = decoding.function("decode", "state, data", decode, f"{game} decode")
        #: By an action's kind, the function saying the cards it takes, and the one saying it as a seat saw
        #: it (where the fields say so): what :meth:`cards_taken` and :meth:`seen_by` call.
        self.taken: dict[Any, Callable[[Any, Any], Sequence[int]]] = {}
        self.seen: dict[Any, Callable[[Any, Any, int | None], Any]] = {}
        for events, chance in ((self.moves, False), (self.chances, True)):
            for event in events.values():
                holders = _holders(event)
                if holders is not None:
                    self.taken[event.kind] = _taker(holders)
                    seen = _seer(holders) if chance else _as_it_is
                    if seen is not None:
                        self.seen[event.kind] = seen

    def cards_taken(self, state: Any, action: Any) -> Sequence[int]:
        """The hidden cards ``action`` takes (the default of
        :meth:`~cardcli.contract.unseen.UnseenCards.cards_taken`): those its
        ``Card``, ``Cards``, ``Hands`` and ``Drawn`` fields hold, an
        optional card (one shown) apart."""
        taken = self.taken.get(action[0])
        if taken is None:
            raise NotImplementedError(f"{type(state).__name__} must write cards_taken: its {self.game} "
                                      f"events do not say which cards {action!r} takes")
        return taken(state, action)

    def seen_by(self, state: Any, action: Any, viewer: int | None) -> Any:
        """``action`` as ``viewer`` saw it (the default of
        :meth:`~cardcli.contract.unseen.UnseenCards.seen_by`): a decision
        and a card turned up as they are, a deal's hands but the viewer's
        own unseen, a draw unseen but by its drawer."""
        seen = self.seen.get(action[0])
        if seen is None:
            raise NotImplementedError(f"{type(state).__name__} must write seen_by: its {self.game} events "
                                      f"do not say who sees the cards of {action!r}")
        return seen(state, action, viewer)


def _as_it_is(state: Any, action: Any, viewer: int | None) -> Any:
    return action
