"""The streaming record reader: one reader, many visitors.

:func:`read_record` reads a record line by line (it never holds more than
one line of the file; the game keeps the actions read, for replay and
resume), checks its structure (a header first, then events in an order the
game allows, a result line last, if any) and applies every event to a
:class:`~cardcli.engine.game.Game` through the variant's own rules, so every
decision is legal and every chance outcome possible.  What to *do* with the
game as it unfolds is a visitor's business, in the spirit of python-chess's
``pgn.read_game(handle, Visitor=...)``: ``validate`` (a report), ``replay``
(the frames), ``play --resume`` (the game, ready to go on) are each a small
:class:`RecordVisitor`, and so is any new use (statistics over a folder of
records, a converter)::

    class MovesPerSeat(RecordVisitor[list[int]]):
        def __init__(self, seats: int):
            self.counts = [0] * seats

        def visit_event(self, game, event):
            if event.seat >= 0:
                self.counts[event.seat] += 1

        def result(self):
            return self.counts

    counter = MovesPerSeat(4)
    for path in folder.glob("*.jsonl"):
        with open(path, "rb") as stream:
            read_record(stream, str(path), registry, counter)
    print(counter.result())

One visitor object may read many records: :meth:`RecordVisitor.begin_record`
starts each.  See ``docs/records.md`` ("Reading records in Python").
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import IO, Any, Generic, NoReturn, TypeVar

from ..contract.record_fields import card_field
from ..contract.unseen import UnseenCards, reading_unseen
from ..contract.variant import CHANCE, TERMINAL, Action
from ..engine.game import Game, check_result, header_to_game
from ..engine.plugins import Registry
from ..kit.cards import NAME
from ..kit.errors import IllegalMove, Kind, RecordError
from ..kit.language import core as _
from ..kit.record_format import Header, parse_header, read_lines, view_seat
from ..unseen.reading import Lookahead, TableSight
from ..words.narration import describe_attempt

T = TypeVar("T")

#: Returned by :meth:`RecordVisitor.visit_header` to stop reading this record
#: after its header (a visitor that needs only the table, say).
SKIP = object()


@dataclass(slots=True)
class Event:
    """One event line of a record, decoded and found legal."""

    line: int  # its line number in the record
    data: dict[str, Any]  # the line as read
    action: Action  # the variant's action
    seat: int  # the deciding seat, or CHANCE
    move: int  # decisions so far, this one included


class RecordVisitor(Generic[T]):
    """What to do with a record as it is read.  Every method but
    :meth:`result` does nothing by default: override what you need.

    Calls, for one record: ``begin_record``; ``visit_header`` once the header
    is read and its rules checked (``game`` is the fresh game); for each
    event, ``visit_event`` (the event is legal; ``game.state`` is as before
    it) then ``visit_state`` (``game.state`` with it applied); ``visit_result``
    for a result line that matches the game's; ``end_record`` when the
    stream ends.  A visitor may raise :class:`~cardcli.kit.errors.RecordError`
    from any of them.  Any such error, the reader's or a visitor's, goes to
    ``handle_error``: re-raise it (the default) or keep it, and reading
    stops.  :func:`read_record` returns ``result()``.
    """

    def begin_record(self, source: str) -> None:
        """A new record (``source`` names it in messages) is about to be read."""

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        """The header, and the game it sets up.  Return :data:`SKIP` to stop
        reading this record here (``end_record`` is still called)."""
        return None

    def visit_event(self, game: Game, event: Event) -> None:
        """An event, checked legal; ``game.state`` is as it was before it."""

    def visit_state(self, game: Game, event: Event) -> None:
        """The same event, now applied: ``game.state``, ``game.moves``,
        ``game.events`` and ``game.history`` include it."""

    def visit_checkpoint(self, game: Game, stated: dict[str, Any], line: int) -> None:
        """A checkpoint line (already checked against what the rules give there)."""

    def visit_result(self, game: Game, stated: dict[str, Any], line: int) -> None:
        """The result line (already checked against the rules' result)."""

    def end_record(self, game: Game) -> None:
        """The stream ended (or the header said :data:`SKIP`) with no error."""

    def handle_error(self, error: RecordError) -> None:
        """The record is broken at ``error.line``.  Re-raise (the default), or
        keep the error and return: reading stops either way."""
        raise error

    def result(self) -> T:
        """What :func:`read_record` returns."""
        raise NotImplementedError


def read_record(stream: IO[bytes], source: str, registry: Registry, visitor: RecordVisitor[T], *,
                live: bool = False) -> T:
    """Read one record from ``stream`` through ``visitor``; return ``visitor.result()``.

    ``source`` names the record in messages ("game.jsonl:12: move 9, seat 1
    ...").  ``live``: the record is a real table's still being written (a
    referee's, resumed): its game keeps undo, and its last event stays open
    for the next entry to settle what its rules turned on.
    Every broken line raises (or is handed to ``handle_error`` as) a
    :class:`~cardcli.kit.errors.RecordError` with its line, move and seat.
    """
    visitor.begin_record(source)
    at = _Where()
    try:
        _read(stream, source, registry, visitor, at, live)
    except RecordError as error:
        visitor.handle_error(error)
    except Exception as error:
        # A bug (the variant's, cardcli's or a visitor's), met at this line: it
        # is this record's verdict, with where it happened, and the caller
        # goes on to the next record.  CARDCLI_DEBUG=1 shows the traceback.
        if os.environ.get("CARDCLI_DEBUG"):
            raise
        visitor.handle_error(internal_error(error, source, line=at.line, move=at.move))
    return visitor.result()


def internal_error(error: Exception, source: str, *, line: int | None = None,
                   move: int | None = None) -> RecordError:
    """A bug met while reading ``source``, as that record's verdict (kind ``internal``)."""
    # Translators: {kind} is the Python exception's name (KeyError), {error} its message.
    return RecordError(_("internal error: {kind}: {error} (a bug in cardcli or the variant, not a mistake in "
                         "the record; set CARDCLI_DEBUG=1 to see where)").format(
                           kind=type(error).__name__, error=error),
                       source=source, line=line, move=move, kind=Kind.INTERNAL)


@dataclass
class _Where:
    """The line being read, for a message about an error nobody expected."""

    line: int | None = None
    move: int | None = None


def _read(stream: IO[bytes], source: str, registry: Registry, visitor: RecordVisitor[Any],
          at: _Where, live: bool = False) -> None:
    lines = read_lines(stream, source)
    first = next(lines, None)
    if first is None:
        raise RecordError(_("empty record: no header line"), source=source, kind=Kind.HEADER)
    header_line, header_data = first
    at.line = header_line
    header = parse_header(header_data, source, header_line)
    game = header_to_game(header, registry, source, header_line, undo=live)
    sight = None
    if header.view is not None:
        if not isinstance(game.state, UnseenCards):
            raise RecordError(_("bad header: this record is written from a view ({view!r}), but the variant "
                                "{variant!r} cannot read records with unseen cards").format(
                                  view=header.view, variant=game.variant.name),
                              source=source, line=header_line, kind=Kind.HEADER)
        sight = TableSight(game, source, view_seat(header.view, len(game.seats)))
        lines = Lookahead(lines)
    if visitor.visit_header(game, header, header_line) is SKIP:
        visitor.end_record(game)
        return
    if sight is None:
        _events(lines, source, game, visitor, at, None)
        return
    with reading_unseen(sight.oracle):
        _events(lines, source, game, visitor, at, sight, open_end=live)


def _events(lines: Any, source: str, game: Game, visitor: RecordVisitor[Any], at: _Where,
            sight: TableSight | None, open_end: bool = False) -> None:
    variant = game.variant
    decode_action = variant.decode_action
    apply_known = game.apply_known
    # Visitors that leave a method as the base class has it are not called for it.
    visit_event = _overridden(visitor, "visit_event")
    visit_state = _overridden(visitor, "visit_state")
    result_seen = False
    checkpoint_due = False  # a checkpoint line may follow an event, once
    for line, data in lines:
        at.line = line
        at.move = game.moves
        state = game.state
        if result_seen:
            raise RecordError(_("the record goes on after its result line"), source=source, line=line,
                              move=game.moves, kind=Kind.STRUCTURE)
        if "result" in data:
            check_result(game, data, source, line)
            result_seen = True
            game.result_line_seen = True
            visitor.visit_result(game, data["result"], line)
            continue
        if "move" in data:
            current = state.current_player()
            seat = data.get("seat")
            move = game.moves + 1
            if current < 0:
                if current == TERMINAL:
                    _over(game, source, line)
                # Translators: {expected} is the variant's words for what comes next ("a deal").
                raise RecordError(_("move {move}: expected {expected}, but the record has a move by seat "
                                    "{seat}").format(move=move, expected=state.expecting(), seat=seat),
                                  source=source, line=line, move=move,
                                  seat=seat if isinstance(seat, int) else None, kind=Kind.MISSING_EVENT)
            if type(seat) is not int:
                raise RecordError(_("move {move}: 'seat' must be a seat number").format(move=move),
                                  source=source, line=line, move=move, kind=Kind.SYNTAX)
            if seat != current:
                raise RecordError(_("move {move}: seat {seat} moved, but it is seat {current}'s turn "
                                    "(wrong player)").format(move=move, seat=seat, current=current),
                                  source=source, line=line, move=move, seat=seat,
                                  kind=Kind.WRONG_PLAYER)
        elif "chance" in data:
            current = state.current_player()
            move = game.moves
            seat = CHANCE
            if current != CHANCE:
                if current == TERMINAL:
                    _over(game, source, line)
                # Translators: {chance} is the record's name of a chance event ('deal', 'draw'), as written.
                raise RecordError(_("after move {move}: expected {expected}, but the record has a {chance!r} "
                                    "chance event").format(move=move, expected=state.expecting(),
                                                           chance=data.get("chance")), source=source,
                                  line=line, move=move, seat=current, kind=Kind.UNEXPECTED_EVENT)
        elif "checkpoint" in data:
            check_checkpoint(game, data, source, line, due=checkpoint_due)
            checkpoint_due = False
            visitor.visit_checkpoint(game, data, line)
            continue
        elif "shown" in data:
            check_shown(game, data, source, line, due=checkpoint_due,
                        known=sight.known_at_end if sight is not None else None)
            continue
        else:
            if state.current_player() == TERMINAL:
                _over(game, source, line)
            raise RecordError(_("a line must have 'move', 'chance', 'checkpoint' or 'result'"), source=source,
                              line=line, move=game.moves, kind=Kind.SYNTAX)
        try:
            action = decode_action(state, data)
        except ValueError as error:
            where = (_("move {move}, seat {seat}: {error}") if seat != CHANCE else
                     _("after move {move}: {error}")).format(move=move, seat=seat, error=error)
            raise RecordError(where, source=source, line=line,
                              move=move, seat=None if seat == CHANCE else seat, kind=Kind.SYNTAX) from None
        event = Event(line, data, action, seat, move)
        if sight is not None:
            sight.push(game, action, seat, line, move, lines.peek(), visit_event, event)
        else:
            try:
                state.check(action)
            except IllegalMove as error:
                _illegal(variant, state, action, error, source, line, move, seat)
            if visit_event is not None:
                visit_event(game, event)
            apply_known(action, seat)
        checkpoint_due = True
        if visit_state is not None:
            visit_state(game, event)
    at.line = None
    if sight is not None and not open_end:
        sight.settle(game, None)  # the record ends here: its last event is what it seemed
    visitor.end_record(game)


def _illegal(variant: Any, state: Any, action: Action, error: IllegalMove, source: str, line: int, move: int,
             seat: int) -> NoReturn:
    """The move as attempted and the rule it breaks, never what it would have done."""
    text = describe_attempt(variant, state, action)
    if seat != CHANCE:
        # Translators: {attempt} is the move as tried, in the variant's words ("played AS on 6C"),
        # {rule} why the rules refuse it ("AS is not in seat 0's hand").
        said = _("move {move}, seat {seat} {attempt}: {rule}")
    else:
        # Translators: a chance event (a draw, a deal) the rules refuse: {attempt} is the event,
        # {rule} why.
        said = _("after move {move}, {attempt}: {rule}")
    raise RecordError(said.format(move=move, seat=seat, attempt=text, rule=error), source=source, line=line,
                      move=move, seat=None if seat == CHANCE else seat, kind=Kind.ILLEGAL) from None


def check_shown(game: Game, data: dict[str, Any], source: str, line: int, *, due: bool,
                known: list[Counter[int]] | None = None) -> None:
    """A ``shown`` line (the hands the table saw at a round's end) must stand
    right after the event that ended the round and state each shown hand as
    it was (``null`` for a hand not shown).  ``known``: in a record with
    unseen cards, what the table knew each hand held then, the only cards a
    message names."""
    shown = data["shown"]
    state = game.state
    hands = state.round_end_hands() if due and isinstance(state, UnseenCards) else None
    if hands is None:
        raise RecordError(_("after move {move}: hands are shown, but no round ended here "
                            "(next: {expected})").format(move=game.moves, expected=state.expecting()),
                          source=source, line=line, move=game.moves,
                          kind=Kind.STRUCTURE)
    if not isinstance(shown, list) or len(shown) != len(hands) or not all(
            hand is None or isinstance(hand, list) for hand in shown):
        raise RecordError(_("'shown' must list one hand per seat ({count}), each a list of cards or "
                            "null").format(count=len(hands)),
                          source=source, line=line, move=game.moves, kind=Kind.SYNTAX)
    if len(data) > 1:
        key = sorted(set(data) - {"shown"})[0]
        raise RecordError(_("unknown key {key!r} on a 'shown' line").format(key=key),
                          source=source, line=line, move=game.moves, kind=Kind.SYNTAX)
    for seat, names in enumerate(shown):
        if names is None:
            continue
        try:
            cards = Counter(card_field(name, "shown card") for name in names)
        except ValueError as error:
            raise RecordError(_("the hand shown for seat {seat}: {error}").format(seat=seat, error=error),
                              source=source, line=line, move=game.moves, kind=Kind.SYNTAX) from None
        held = Counter(hands[seat])
        if cards != held:
            if known is None:
                said = _("after move {move}: seat {seat} shows {cards}, but held {held} as the round "
                         "ended").format(move=game.moves, seat=seat, cards=_names(cards), held=_names(held))
            else:
                seen = known[seat] if seat < len(known) else Counter()
                said = _shown_short(game.moves, seat, cards, held, seen)
            raise RecordError(said,
                              source=source, line=line, move=game.moves, seat=seat, kind=Kind.IMPOSSIBLE)


def _shown_short(move: int, seat: int, cards: Counter[int], held: Counter[int], known: Counter[int]) -> str:
    """Why a hand shown is not the hand held, naming only what the table saw:
    a card it knew the hand held, or how many cards the hand held."""
    missing = sorted(card for card in known if cards[card] < known[card])
    if missing:
        return _("after move {move}: seat {seat} shows {cards}, but {card}, seen in that hand and never "
                 "played, is not among them").format(move=move, seat=seat, cards=_names(cards),
                                                     card=NAME[missing[0]])
    total = sum(held.values())
    return _.ngettext("after move {move}: seat {seat} shows {cards}, but held {count} card as the round "
                      "ended, not {shown}",
                      "after move {move}: seat {seat} shows {cards}, but held {count} cards as the round "
                      "ended, not {shown}", total).format(move=move, seat=seat, cards=_names(cards),
                                                          count=total, shown=sum(cards.values()))


def _names(cards: Counter[int]) -> str:
    listed = sorted(cards.elements())
    # Translators: a hand shown empty at a round's end.
    return " ".join(NAME[card] for card in listed) if listed else _("no card")


def _overridden(visitor: RecordVisitor[Any], name: str) -> Any:
    """``visitor``'s bound method ``name``, or ``None`` where it is the base class's (which does nothing)."""
    method = getattr(visitor, name)
    return None if getattr(type(visitor), name) is getattr(RecordVisitor, name) else method


def _over(game: Game, source: str, line: int) -> NoReturn:
    raise RecordError(_("the game is already over after move {move}, but the record goes on").format(
        move=game.moves),
                      source=source, line=line, move=game.moves, kind=Kind.STRUCTURE)


def check_checkpoint(game: Game, data: dict[str, Any], source: str, line: int, *, due: bool) -> None:
    """A checkpoint line must stand right after the event the variant gives
    one for (:meth:`~cardcli.contract.variant.Variant.checkpoint`), and every key it
    states must be what the rules give there (keys left out are not checked)."""
    name = data["checkpoint"]
    if not isinstance(name, str):
        raise RecordError(_("'checkpoint' must name the checkpoint, e.g. \"round_end\""), source=source,
                          line=line, move=game.moves, kind=Kind.SYNTAX)
    expected = game.variant.checkpoint(game.state) if due else None
    if expected is None or expected.get("checkpoint") != name:
        if expected:
            said = _("after move {move}: a {name!r} checkpoint, but none stands here (next: {expected}); "
                     "the rules give a {wanted!r} checkpoint here")
        else:
            said = _("after move {move}: a {name!r} checkpoint, but none stands here (next: {expected})")
        raise RecordError(said.format(move=game.moves, name=name, expected=game.state.expecting(),
                                      wanted=expected["checkpoint"] if expected else None),
                          source=source, line=line, move=game.moves, kind=Kind.WRONG_CHECKPOINT)
    for key, value in data.items():
        if key == "checkpoint":
            continue
        if key not in expected:
            keys = ", ".join(k for k in expected if k != "checkpoint")
            said = _("unknown key {key!r} on a {name!r} checkpoint (the rules give: {keys})")
            raise RecordError(said.format(key=key, name=name, keys=keys), source=source, line=line,
                              move=game.moves, kind=Kind.SYNTAX)
        # Compared as JSON, so true is not 1 and false is not 0.
        if json.dumps(expected[key], sort_keys=True) != json.dumps(value, sort_keys=True):
            said = _("wrong {name} checkpoint: {key} is {expected!r} by the rules, the record says {value!r}")
            raise RecordError(said.format(name=name, key=key, expected=expected[key], value=value),
                              source=source, line=line, move=game.moves, kind=Kind.WRONG_CHECKPOINT)


class GameLoader(RecordVisitor[Game]):
    """The game a record leaves, ready to go on (``play --resume``): its state,
    counters and :attr:`~cardcli.engine.driver.Driver.history` are the record's."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def begin_record(self, source: str) -> None:
        self.game = None

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        self.game = game
        return None

    def result(self) -> Game:
        assert self.game is not None, "read_record raises for a record without a header"
        return self.game


def load_game(stream: IO[bytes], source: str, registry: Registry) -> tuple[Game, bool]:
    """Replay a record into a :class:`~cardcli.engine.game.Game`; return it and whether it is over."""
    game = read_record(stream, source, registry, GameLoader())
    return game, game.state.is_terminal()
