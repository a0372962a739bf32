"""Reading a record with unseen cards: what the table saw, step by step.

A record whose header names a ``view`` (``"public"``, ``"seat 2"``) may
write cards as ``"??"``.  The reader (:mod:`cardcli.records.reader`) still applies
every event through the variant's own rules, which hold an unseen card as
:data:`~cardcli.kit.cards.UNSEEN`; a :class:`TableSight` stands beside it and
does what the rules cannot know:

* before a move, a card the move takes that the hand was not seen to hold
  becomes one of the hand's unseen cards (the rules then check the move as
  usual);
* before a chance event, a card the table saw come off the stock is put in
  the stock, whose cards are otherwise unseen;
* where the rules turn on a card just drawn that nobody saw, the next line
  of the record says which way they went;
* every step goes to the :class:`~cardcli.unseen.solver.Solver`, which
  decides whether the unseen cards could have been dealt so.

``docs/unseen.md`` tells the method; ``docs/records.md`` the format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..contract.unseen import reading_unseen
from ..contract.variant import CHANCE, Action
from ..engine.driver import Hook
from ..kit.cards import JOKER, NAME, UNSEEN
from ..kit.errors import IllegalMove, Kind, RecordError
from ..kit.language import N_
from ..kit.language import core as _
from ..words.narration import describe_attempt
from .solver import CardWords, Impossible, Said, Solver, Step, Words, bits, cards_in_words

__all__ = ["Lookahead", "TableSight"]

#: How a card a move needed in hand (:meth:`TableSight.held_for`) is revealed.
HELD = "is held"


class Lookahead:
    """The record's lines with one line of lookahead (:meth:`peek`)."""

    def __init__(self, lines: Iterator[tuple[int, dict[str, Any]]]):
        self._lines = lines
        self._next: tuple[int, dict[str, Any]] | None = None
        self._done = False

    def __iter__(self) -> Lookahead:
        return self

    def __next__(self) -> tuple[int, dict[str, Any]]:
        if self._next is not None:
            item, self._next = self._next, None
            return item
        return next(self._lines)

    def peek(self) -> dict[str, Any] | None:
        """The next line's object, still to be read (``None`` at the end)."""
        if self._next is None and not self._done:
            try:
                self._next = next(self._lines)
            except StopIteration:
                self._done = True
        return self._next[1] if self._next is not None else None


def replace_unseen(action: Any, card: int) -> Any:
    """``action`` with every unseen card written as ``card``."""
    if type(action) is tuple:
        return tuple(replace_unseen(part, card) for part in action)
    return card if action == UNSEEN else action


def _unseen_where_seen(action: Any, public: Any) -> bool:
    """Whether ``action`` has an unseen card where everyone sees one (``public``
    is the same event, every card known, as a spectator saw it)."""
    if type(action) is tuple and type(public) is tuple and len(action) == len(public):
        return any(_unseen_where_seen(a, p) for a, p in zip(action, public))
    return action == UNSEEN and public != UNSEEN


class _Oracle:
    """Answers the rules' questions about unseen cards from the record's next
    line: yes exactly when it is a move by the seat asked about."""

    def __init__(self, values: list[int]):
        self.values = values
        self.next: Any = None
        self.asked: list[tuple[str, int, int, bool | None]] = []  # (kind, seat, cards, answer)
        self._masks: dict[frozenset[int], int] = {}

    def mask(self, test: Any) -> int:
        """The cards of the pack that pass ``test`` (a set of cards, or a test of one), as bits."""
        if isinstance(test, frozenset):
            mask = self._masks.get(test)
            if mask is None:
                mask = self._masks[test] = bits(test)
            return mask
        return bits(card for card in self.values if test(card))

    def begin(self, next_data: Any) -> None:
        self.next = next_data
        self.asked = []

    def card(self, seat: int, test: Any) -> bool:
        mask = self.mask(test)
        answer = None if self.next is None else "move" in self.next and self.next.get("seat") == seat
        self.asked.append(("card", seat, mask, answer))
        return answer is not False

    def hand(self, state: Any, seat: int, able: Any) -> bool:
        hand = state.hands[seat]
        index = hand.index(UNSEEN)
        mask = 0
        for card in self.values:
            hand[index] = card
            if able():
                mask |= 1 << card
        hand[index] = UNSEEN
        answer = None if self.next is None else "move" in self.next and self.next.get("seat") == seat
        self.asked.append(("hand", seat, mask, answer))
        return answer is not False


@contextmanager
def answered(game: Any, next_data: Any) -> Iterator[None]:
    """Within the block, the rules' questions about cards nobody saw are
    answered as by a record whose next line is ``next_data`` (``None``: the
    record ends there): for what replays an event of a real table's record
    again on a copy (a round's summary)."""
    oracle = _Oracle(sorted(set(game.variant.deck(game.rules, len(game.seats)))))
    oracle.begin(next_data)
    with reading_unseen(oracle):
        yield


class _Behind:
    """Stands for a sight's solver after the driver took events back: its
    first use reads the solver again (:meth:`TableSight._caught_up`)."""

    def __init__(self, sight: TableSight):
        self._sight = sight

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sight._caught_up(), name)


class _Open:
    """The last event read, with the line after it still unknown (a
    referee's entry, the end of a record): applied as if its next line
    answered every question "yes"; what the rules did is settled by the
    next line (:meth:`TableSight.settle`)."""

    __slots__ = ("action", "asked", "before", "line", "move", "seat")

    def __init__(self, before: Any, action: Action, seat: int, line: int, move: int,
                 asked: list[tuple[str, int, int, bool | None]]):
        self.before = before  # the state just before it was applied (its cards shown in hand), or None
        self.action = action
        self.seat = seat
        self.line = line
        self.move = move
        self.asked = asked


class TableSight(Hook):
    """What the table saw of a game read from a record with unseen cards: a
    hook of the game's driver, beside the rules.

    Every event goes through :meth:`push` (the record reader's and the
    referee's one way in): the cards a move shows are put in the hand, the
    rules check it, the driver applies it, and the solver hears what the
    table saw (this hook's :meth:`before` and :meth:`after`).  Where the
    rules ask about a card nobody saw, the next line answers; where it is
    not known yet, the event stays open until :meth:`settle`.  A driver
    that keeps undo takes events back with the sight's part too
    (:meth:`saved`, :meth:`restore`: the solver is read again up to that
    point when next needed).
    """

    def __init__(self, game: Any, source: str, viewer: int | None):
        self.source = source
        self.viewer = viewer
        variant = game.variant
        pack = variant.deck(game.rules, len(game.seats))
        self.pack = pack
        self.values = sorted(set(pack))
        self.decks = max(Counter(card for card in pack if card < 52).values(), default=1)
        #: The matching of this round (see ``_caught_up``); ``_current`` is it even while stood in for.
        self.solver = self._current = Solver(pack, self.decks)
        self._logs: list[list[tuple[str, tuple[Any, ...]]]] = []  # each ended round's solver steps
        self._pending: tuple[int, int] | None = None  # (round, steps): the solver to read again to
        self.last_slot: dict[int, int] = {}  # seat -> the slot it received last
        #: The move the latest chance event came after, the seat it brought cards, and how many in a row did.
        self._draws_move = self._draws_seat = -1
        self._draws_count = 0
        self.shown: dict[str, Any] | None = None  # the shown line read ahead, for the event before it
        #: (seat, card, slot, verb) of the move being read: the cards it showed the hand held
        self.revealed: list[tuple[int, int, int | None, str]] = []
        self.oracle = _Oracle(self.values)
        self.held_why = ""  # the rules' reason a move needed a card the hand held unseen
        #: The cards the table knew each hand held as the last round ended.
        self.known_at_end: list[Counter[int]] = []
        #: The last event, if the line after it is not known yet.
        self.open: _Open | None = None
        #: The state just before the event last settled, its shown cards in hand (for a round's summary).
        self.settled_before: Any = None
        # The event being pushed: where it stands, the line after it, and what the hook keeps of it.
        self._line = self._move = 0
        self._next: Any = None
        self._variant = game.variant
        #: Whether the game keeps undo (a referee's): then the sight keeps what settling needs.
        self._undoable = game.keeps_undo
        self._chance: tuple[Sequence[int], list[int]] = ((), [])
        self._before: Any = None
        self._blur(game.state, new_round=True)
        game.hooks.append(self)

    # ------------------------------------------------------------ the solver
    # ``self.solver`` is a plain attribute, read on every event.  When the
    # driver takes events back it becomes a stand-in (:class:`_Behind`) whose
    # first use reads the solver again up to where the driver came back to:
    # once, however many events were taken back.

    def _caught_up(self) -> Solver:
        """The solver, read again up to where the driver came back to."""
        if self._pending is None:
            return self._current
        round_no, steps = self._pending
        self._pending = None
        if round_no == len(self._logs) and steps == len(self._current.log):
            self.solver = self._current  # nothing to read again
            return self._current
        log = self._logs[round_no] if round_no < len(self._logs) else self._current.log
        del self._logs[round_no:]
        solver = Solver(self.pack, self.decks)
        for name, args in log[:steps]:
            solver._step(name, *args)
        self.solver = self._current = solver
        return solver

    def saved(self, driver: Any) -> object:
        """Where the sight stands: the solver's round and steps, and the rest
        it keeps between events (small)."""
        where = self._pending or (len(self._logs), len(self._current.log))
        return (where, dict(self.last_slot), self.open, self.known_at_end,
                (self._draws_move, self._draws_seat, self._draws_count))

    def restore(self, driver: Any, saved: Any) -> None:
        where, last_slot, self.open, self.known_at_end, draws = saved
        self.last_slot = dict(last_slot)
        self._draws_move, self._draws_seat, self._draws_count = draws
        self._pending = where
        self.solver = _Behind(self)  # type: ignore[assignment]  # read again when next used
        self.shown = None

    # ------------------------------------------------------------- messages
    def _fail(self, message: str, line: int, move: int, seat: int | None,
              kind: Kind = Kind.IMPOSSIBLE) -> RecordError:
        return RecordError(message, source=self.source, line=line, move=move, seat=seat, kind=kind)

    # ------------------------------------------------------------ one event
    def push(self, game: Any, action: Action, seat: int, line: int, move: int, next_data: Any,
             checked: Callable[[Any, Any], None] | None = None, event: Any = None) -> None:
        """Apply one event of the record as the table saw it (the line after
        it is ``next_data``, or ``None`` where not known yet).  Raises
        :class:`~cardcli.kit.errors.RecordError` for an illegal or impossible
        event; on a driver that keeps undo, the game is then as it was.
        ``checked(game, event)`` runs once the rules found it legal, before
        it is applied (a reader's visitor)."""
        if self.open is not None:
            self.settle(game, {"chance": True} if seat == CHANCE else {"move": True, "seat": seat})
        saved = game.save() if self._undoable else None
        state = game.state
        try:
            try:
                try:
                    if seat == CHANCE:
                        self._before_chance(state, action, line, move)
                    else:
                        self._before_move(state, action, seat)
                except RecordError:
                    raise
                except Exception:
                    state.check(action)  # an event the rules refuse (a turn-up before the deal): their reason
                    raise
                state.check(action)
            except IllegalMove as error:
                if seat == CHANCE or not self.held_for(state, action, seat, str(error)):
                    text = describe_attempt(game.variant, state, action)
                    raise RecordError(_refused(move, seat, text, error), source=self.source, line=line,
                                      move=move, seat=None if seat == CHANCE else seat,
                                      kind=Kind.ILLEGAL) from None
                state.check(action)  # legal with the card the hand held
            if checked is not None:
                checked(game, event)
        except RecordError:
            if saved is not None:
                game.restore(saved)  # the cards put in hand for the check are taken out again
            raise
        self._line, self._move, self._next = line, move, next_data
        if saved is None:
            game.apply_known(action, seat)
        else:
            game.apply_known(action, seat, saved=saved)

    def before(self, driver: Any, seat: int, action: Action) -> None:
        """The event is legal and about to be applied: the solver hears what a
        move showed; a shown line next puts its cards in the hands; the
        oracle answers from the next line."""
        state = driver.state
        next_data = self._next
        if seat != CHANCE:
            self._checked_move(state, action, seat, self._line, self._move, self._variant)
        else:
            self._chance = (state.cards_taken(action), [hand.count(UNSEEN) for hand in state.hands])
        if next_data is None:
            self._before = state.clone() if self._undoable else None
        elif "shown" in next_data:
            self.before_event(state, action, seat, next_data)
            self.oracle.begin(next_data)
            return
        self.shown = None
        self.oracle.begin(next_data)

    def after(self, driver: Any, seat: int, action: Action) -> None:
        """The event is applied: the unseen cards it brought become slots; what
        the rules' questions showed and a round's end follow, unless the
        next line is not known yet (the event stays open)."""
        state = driver.state
        line, move = self._line, self._move
        if seat == CHANCE:
            self._arrived(state, line, move)
        asked = self.oracle.asked
        if self._next is None:
            self.open = _Open(self._before, action, seat, line, move, asked)
            self._before = None
            return
        if asked:
            self._answered(state, asked, f"after move {move}", line, move)
        self.after_event(state, line, move)

    def settle(self, game: Any, next_data: Any) -> None:
        """The line after the open event is known (``next_data``; ``None``:
        the record ends there): apply it again where the rules' questions
        get other answers (the drawer did not play the card it drew) or a
        shown line puts cards in the hands, then tell the solver."""
        open_ = self.open
        if open_ is None:
            return
        self.open = None
        state = game.state
        asked = open_.asked
        self.settled_before = None
        if next_data is not None and open_.before is not None and (asked or "shown" in next_data):
            again = open_.before.clone()
            self.before_event(again, open_.action, open_.seat, next_data)
            self.settled_before = again.clone()
            self.oracle.begin(next_data)
            again.apply_legal(open_.action)
            asked = self.oracle.asked
            self.open = open_  # the moment before settling keeps it open
            game.replace_state(again)
            self.open = None
            state = again
        elif self._undoable:
            self.open = open_
            game.replace_state(state)  # a moment to come back to: settling is taken back with the entry
            self.open = None
        if asked and next_data is not None:
            self._answered(state, asked, f"after move {open_.move}", open_.line, open_.move)
        self.after_event(state, open_.line, open_.move)

    def allows(self, state: Any, action: Action, seat: int) -> bool:
        """Whether the rules allow ``action`` in ``state`` as the table saw it
        (the cards it shows put in place on a copy): a probe, nothing changes."""
        probe = state.clone()
        try:
            if seat == CHANCE:
                self._before_chance(probe, action, 0, 0)
            else:
                self._before_move(probe, action, seat)
            probe.check(action)
        except (IllegalMove, RecordError):
            return False
        return True

    def state_if(self, game: Any, next_data: Any) -> Any:
        """The state as it stands if the next line is ``next_data`` (the open
        event's questions answered by it): a copy where that changes
        anything, else the game's own state."""
        open_ = self.open
        if open_ is None or not open_.asked or open_.before is None:
            return game.state
        again = open_.before.clone()
        self.oracle.begin(next_data)
        again.apply_legal(open_.action)
        return again

    def _before_move(self, state: Any, action: Action, seat: int) -> None:
        """Turn unseen cards of ``seat``'s hand into the cards the move takes."""
        self.revealed = revealed = []
        taken = state.cards_taken(action)
        if not taken:
            return
        hand = state.hands[seat]
        if UNSEEN not in hand:
            return
        taken = list(taken)
        pending = state.pending_card(-1)
        if pending is not None and pending[1] == UNSEEN and pending[0] == f"hand {seat}":
            card = taken.pop(0)
            hand[hand.index(UNSEEN)] = card
            state.set_pending_card(card)
            revealed.append((seat, card, self.last_slot.get(seat), "is played"))
        held = Counter(hand)
        for card in taken:
            if held[card] > 0:
                held[card] -= 1
            elif held[UNSEEN] > 0:
                held[UNSEEN] -= 1
                hand[hand.index(UNSEEN)] = card
                revealed.append((seat, card, None, "is played"))

    def held_for(self, state: Any, action: Action, seat: int, why: str) -> bool:
        """A move the rules refuse with the hand as seen may be legal because
        of a card the hand held unseen (trick: drawing with nothing left to
        draw is allowed beside a playable joker).  Where exactly one kind of
        card makes it legal, the hand held one: an unseen card becomes it (a
        reveal the move never plays) and the move is legal; else nothing
        changes.  ``why``: the rules' reason with the hand as seen."""
        hand = state.hands[seat]
        if UNSEEN not in hand:
            return False
        index = hand.index(UNSEEN)
        fits = []
        for card in self.values:
            hand[index] = card
            try:
                state.check(action)
            except IllegalMove:
                continue
            fits.append(card)
            if len(fits) > 1:
                break
        if len(fits) != 1:
            hand[index] = UNSEEN
            return False
        hand[index] = fits[0]
        self.revealed.append((seat, fits[0], None, HELD))
        self.held_why = why
        return True

    def _checked_move(self, state: Any, action: Action, seat: int, line: int, move: int,
                      variant: Any) -> None:
        """The move is legal: tell the solver what it showed (``variant``
        says the move in words, for a message)."""
        solver = self.solver
        step = f"move {move}"
        try:
            for _, card, slot, verb in self.revealed:
                if verb == HELD:
                    try:
                        solver.reveal(seat, card, step, slot, verb)
                    except Impossible as error:
                        raise Impossible(_held_words(self.held_why, card, error)) from None
                    continue
                solver.reveal(seat, card, step, slot, verb)
            shown = {card for _, card, _, _ in self.revealed}
            for card in state.cards_taken(action):
                if card not in shown:
                    solver.note(card, step)
            if UNSEEN in state.hands[seat]:
                test = state.cards_lacked(action)
                if test is not None:
                    barred = self.oracle.mask(test)
                    if barred:
                        pack = solver.pack_mask
                        said = variant.describe(state, action)  # the state changes: say it now
                        solver.lacks(seat, barred, lambda: Said(
                            N_("seat {seat} had no {cards} at {step} ({move})"), seat=seat,
                            cards=CardWords(barred, pack), step=Step(step), move=said))
        except Impossible as error:
            attempt = describe_attempt(variant, state, action)
            raise self._fail(_refused(move, seat, attempt, error), line, move, seat) from None

    # ---------------------------------------------------------- chance events
    def _before_chance(self, state: Any, action: Action, line: int, move: int) -> None:
        """Check that no card everyone sees is unseen, and put the cards the
        table saw come off the stock into it."""
        taken = state.cards_taken(action)
        if UNSEEN in taken:
            public = state.seen_by(replace_unseen(action, self.values[0]), None)
            if _unseen_where_seen(action, public):
                raise self._fail(_("after move {move}, a card everyone at the table sees is written \"??\"; "
                                   "write its name (only cards some seat did not see may be unseen)").format(
                                       move=move), line, move, None, Kind.ILLEGAL)
        stock = state.stock
        if UNSEEN not in stock:
            return
        held = Counter(stock)
        for card in taken:
            if card == UNSEEN:
                continue
            if held[card] > 0:
                held[card] -= 1
            elif held[UNSEEN] > 0:
                held[UNSEEN] -= 1
                stock[stock.index(UNSEEN)] = card

    def _arrived(self, state: Any, line: int, move: int) -> None:
        """After a chance event: the cards everyone saw come off the stock, and
        each unseen card that came into a hand is a new slot."""
        taken, before = self._chance
        solver = self.solver
        step = f"after move {move}"
        try:
            for card in taken:
                if card != UNSEEN:
                    solver.known(card, f"{NAME[card]} seen {step}")
            for other, hand in enumerate(state.hands):
                arrived = hand.count(UNSEEN) - before[other]
                if arrived <= 0:
                    continue
                # A seat drawing again after the same move, one card at a time: which draw, in messages.
                if move == self._draws_move and other == self._draws_seat:
                    self._draws_count += 1
                else:
                    self._draws_move, self._draws_seat, self._draws_count = move, other, 1
                count = self._draws_count
                said = step if count == 1 or arrived > 1 else _AGAIN.get(count, f"a {count}th time ") + step
                for _each in range(arrived):
                    self.last_slot[other] = solver.arrive(other, said)
        except Impossible as error:
            raise self._fail(_("after move {move}: {error}").format(move=move, error=error), line, move,
                             None) from None

    def _answered(self, state: Any, asked: list[tuple[str, int, int, bool | None]], step: str, line: int,
                  move: int) -> None:
        """What the answers to the rules' questions showed, to the solver."""
        solver = self.solver
        pack = solver.pack_mask
        try:
            for kind, seat, mask, answer in asked:
                if answer is None:  # the record ends here: nothing is shown
                    continue
                if kind == "card":
                    slot = self.last_slot[seat]
                    solver.test(slot, mask if answer else ~mask & pack,
                                _drew_words(seat, solver.slots[slot].step, mask, answer, pack))
                elif not answer:
                    solver.lacks(seat, mask, _lacked_words(seat, step, mask, pack))
        except Impossible as error:
            raise self._fail(_("after move {move}: {error}").format(move=move, error=error), line, move,
                             None) from None

    # -------------------------------------------------------------- the stock
    def _blur(self, state: Any, new_round: bool = False, move: int = 0) -> None:
        """Known cards in the stock: the rest of the pack at a round's start,
        or discards a reshuffle made the new stock.  Either way, from now on
        nobody knows which of them comes next: they become unseen cards and
        the solver keeps which cards they are."""
        stock = state.stock
        known = len(stock) - stock.count(UNSEEN)
        if not known:
            return
        if not new_round and len(stock) != self.solver.left():
            if known != len(stock):
                raise RecordError(_("internal error: a reshuffle into a stock that still holds unseen cards, "
                                    "which cardcli cannot check yet"), source=self.source, kind=Kind.INTERNAL)
            self.solver.open_pool(stock, f"after move {move}")
        stock[:] = [UNSEEN] * len(stock)

    # ---------------------------------------------------------- rounds, shows
    def before_event(self, state: Any, action: Action, seat: int, next_data: Any) -> None:
        """A ``shown`` line next: put the shown cards in the hands before the
        event that ends the round scores them."""
        self.shown = None
        if not (next_data and "shown" in next_data):
            return
        shown = next_data["shown"]
        if not isinstance(shown, list):
            return  # the shown line's own check says why
        # The state as it was, to tell whether the round would have ended without the cards shown.
        self.shown = {"hands": shown, "revealed": [], "unshown": state.clone(), "action": action}
        taken = list(state.cards_taken(action)) if seat >= 0 else []
        for other, names in enumerate(shown):
            if not isinstance(names, list) or other >= len(state.hands):
                continue
            try:
                cards = [_card(name) for name in names]
            except ValueError:
                continue
            hand = state.hands[other]
            held = Counter(hand)
            if other == seat:
                cards += taken
            for card in cards:
                if held[card] > 0:
                    held[card] -= 1
                elif held[UNSEEN] > 0:
                    held[UNSEEN] -= 1
                    hand[hand.index(UNSEEN)] = card
                    self.shown["revealed"].append((other, card))

    def after_event(self, state: Any, line: int, move: int) -> None:
        """After each event: at a round's end, the shown cards go to the
        solver, a round scored on hidden cards must show them, and the next
        round starts afresh."""
        hands = state.round_end_hands()
        if hands is None:
            if self.shown is not None and self.shown["revealed"]:
                self._shown_kept_going(line, move)
            self.shown = None  # a shown line here: its own check says it stands nowhere
            self._blur(state, move=move)
            return
        solver = self.solver
        step = f"the end of the round after move {move}"
        shown = self.shown
        try:
            if shown is not None:
                for seat, card in shown["revealed"]:
                    solver.reveal(seat, card, step, verb="is shown")
                for seat, names in enumerate(shown["hands"]):
                    if isinstance(names, list) and seat < len(hands) and UNSEEN not in hands[seat]:
                        solver.close(seat)
        except Impossible as error:
            raise self._fail(_("the hands shown after move {move}: {error}").format(move=move, error=error),
                             line + 1, move, None) from None
        if state.hands_count():
            showing = shown["hands"] if shown is not None else []
            for seat, hand in enumerate(hands):
                if UNSEEN in hand and not (seat < len(showing) and isinstance(showing[seat], list)):
                    raise self._fail(_("after move {move}: the round ends, and its score counts the cards "
                                       "left in hand, but seat {seat}'s were not seen: add a line "
                                       "{{\"shown\": [...]}} with the hands the table counted "
                                       "(docs/records.md)").format(move=move, seat=seat), line, move, None,
                                     Kind.MISSING_EVENT)
        self.known_at_end = self._known_hands(hands, shown)
        self.shown = None
        self._logs.append(solver.log)
        solver.new_round()
        self.last_slot.clear()
        self._blur(state, new_round=True)


    def _shown_kept_going(self, line: int, move: int) -> None:
        """A shown line follows an event that ended no round: if the round
        ends there without the cards shown (a seat could not go on, so the
        deal was called off), those cards are what kept it going: impossible,
        and the reason is what the end of the round says of that hand."""
        assert self.shown is not None
        probe = self.shown["unshown"]
        oracle = self.oracle
        oracle.begin({"shown": self.shown["hands"]})
        probe.apply_legal(self.shown["action"])
        if probe.round_end_hands() is None:
            return
        pack = self.solver.pack_mask
        shown_by = {seat for seat, _ in self.shown["revealed"]}
        for kind, seat, mask, answer in oracle.asked:
            cards = [card for other, card in self.shown["revealed"] if other == seat and mask >> card & 1]
            if kind == "hand" and answer is False and seat in shown_by and cards:
                raise self._fail(_("the hands shown after move {move}: seat {seat} shows {card}, but the "
                                   "round ends here only because seat {seat} had no {cards} (it could not go "
                                   "on)")
                                 .format(move=move, seat=seat, card=NAME[cards[0]],
                                         cards=cards_in_words(mask, pack)), line + 1, move, seat)

    def _known_hands(self, hands: Any, shown: dict[str, Any] | None) -> list[Counter[int]]:
        """The cards the table knew each hand held as the round ended (not
        those a shown line put there): the only cards a message about a
        shown line names."""
        put = Counter((seat, card) for seat, card in shown["revealed"]) if shown is not None else Counter()
        known = []
        for seat, hand in enumerate(hands):
            cards = Counter(card for card in hand if card != UNSEEN)
            for card in list(cards):
                cards[card] -= put[seat, card]
            known.append(+cards)
        return known



#: "a 2nd time ", "a 3rd time ", ...: the words before a draw's step when a seat draws again.
_AGAIN = {n: f"a {n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'} time " for n in range(2, 100)}


def _refused(move: int, seat: int, attempt: str, error: Exception) -> str:
    """Why the record's event is refused, for a person: where it stands, the
    event as attempted (``attempt``), and the reason (``error``)."""
    if seat == CHANCE:
        return _("after move {move}, {attempt}: {rule}").format(move=move, attempt=attempt, rule=error)
    return _("move {move}, seat {seat} {attempt}: {rule}").format(move=move, seat=seat, attempt=attempt,
                                                                  rule=error)


def _reason(error: Impossible) -> Words | str:
    """The solver's reason, still to be said."""
    reason = error.args[0] if error.args else ""
    return reason if isinstance(reason, Words) else str(reason)


def _held_words(why: str, card: int, error: Impossible) -> Words:
    """A move the rules allow only with ``card`` in hand (``why``: their
    reason without it), which the hand cannot have held (``error``)."""
    if card == JOKER:
        return Said(N_("{why}, which only a joker in hand would allow, but {error}"), why=why,
                    error=_reason(error))
    return Said(N_("{why}, which only {card} in hand would allow, but {error}"), why=why, card=NAME[card],
                error=_reason(error))


def _drew_words(seat: int, step: str, mask: int, answer: bool, pack: int) -> Callable[[], Words]:
    said = N_("the card seat {seat} drew {step} was a {cards}") if answer \
        else N_("the card seat {seat} drew {step} was no {cards}")
    return lambda: Said(said, seat=seat, step=Step(step), cards=CardWords(mask, pack))


def _lacked_words(seat: int, step: str, mask: int, pack: int) -> Callable[[], Words]:
    return lambda: Said(N_("seat {seat} had no {cards} {step} (it could not go on)"), seat=seat,
                        cards=CardWords(mask, pack), step=Step(step))


def _card(name: Any) -> int:
    from ..contract.record_fields import card_field
    return card_field(name, "shown card")


def _fits(state: Any, data: Any) -> bool:
    """Whether the record's next line can follow ``state`` (by who acts)."""
    if not isinstance(data, dict):
        return True
    if "move" in data:
        return state.current_player() == data.get("seat")
    if "chance" in data:
        return state.current_player() == CHANCE
    return True
