"""Could the unseen cards have been dealt so?  An exact answer, by matching.

A record of a real game leaves cards unseen (``"??"``): the other hands, the
draws nobody saw.  Each such card is a *slot*: a card that arrived unseen in
a seat's hand (dealt or drawn) at some step.  The record tells the slots
apart only by what the table saw:

* a card the seat later played, melded or showed, not known to be in its
  hand, was one of its slots then (a *reveal*);
* a seat that drew where the rules allow a draw only without a playable
  card held none then: no slot it had then is such a card (*lacks*);
* what the rules did next with a card just drawn (the seat drew again, or
  had to play it) says which kind of card that one slot is (a *test*);
* every card of the pack exists once per deck: a card taken from the stock
  is one of the stock's copies, and a reshuffle makes a new stock of known
  discards (a new *pool*).

The record is possible exactly when the slots can be given cards so that
all of that holds: every slot gets a card of its pool that it may be (a
b-matching between slots and the cards of each pool, with capacities), and
every reveal gets a slot of its seat that may be that card.  The matching
is kept as the record is read and repaired by augmenting paths after each
step, so the first step after which none exists is the first step no deal
explains.  Where two decks and a reshuffle leave a revealed card's copy in
two pools, the pool is a choice, tried in turn (a depth-first search that
goes back to the last choice when a later step fails).  ``docs/unseen.md``
writes the method up.

The module knows cards and seats, never a game: the record reader
(:mod:`cardcli.unseen.reading`) turns what the rules say into these steps.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..kit.cards import JOKER, NAME, RANK, RANK_NAMES, SUIT, SUIT_SINGULAR, suit_word
from ..kit.grammar import join_or, listed
from ..kit.language import N_
from ..kit.language import core as _

#: The searches' depths: first unbounded with Kuhn's rule, then deeper and
#: deeper with each path on its own (iterative deepening), within a budget.
_LIMITS = (0, 3, 5, 7, 9, 12, 16, 24)
_BUDGET = 100000
#: A new reveal's deeper searches, slot by slot: the budget of each.  Over
#: a hundred seeded games of every shipped ruleset at its default and largest
#: tables, seen from both views, no reveal needed a deep search at all (the
#: first ones, unbounded with Kuhn's rule, matched every one); the few that
#: reached it were matched by none and went on to the exhaustive search:
#: a deep search is worth little, so it is kept short.
_DEEP_BUDGET = 2000
#: The orders a search tries in turn: a slot looks for a card first, then
#: (a search of its own, where the first found nothing) for a reveal first.
_ORDERS = (False, True)
#: Cards by number, jokers included (``cards.JOKER`` is the highest).
_CARDS = JOKER + 1


def _deep(search: Callable[..., bool]) -> Callable[..., bool]:
    """A step of a path: refused beyond the search's depth."""
    def step(self: Solver, *args: int) -> bool:
        if self._depth >= self._limit:
            return False
        self._depth += 1
        try:
            return search(self, *args)
        finally:
            self._depth -= 1
    step.__doc__ = search.__doc__
    return step


class _GiveUp(Exception):
    """A search ran out of its budget."""


class Impossible(Exception):
    """No way of dealing the unseen cards explains the record up to this step;
    the message says why, in a person's words."""


@dataclass(slots=True)
class Slot:
    seat: int
    pool: int  # the stock (pool) it came from: 0 at the deal, one more per reshuffle
    step: str  # where it arrived, for messages ("move 12")
    mask: int  # the cards it may be if it stays unseen: one bit per card
    cuts: list[tuple[int, Why]] = field(default_factory=list)  # (cards ruled out, why)
    card: int = -1  # the card it holds in the matching, if unseen to the end
    reveal: int = -1  # the reveal it is matched to, or -1
    reveals: list[int] = field(default_factory=list)  # the reveals it may be


@dataclass(slots=True)
class Reveal:
    seat: int
    card: int
    step: str
    pool: int = -1
    slots: list[int] = field(default_factory=list)  # the slots it may be
    slot: int = -1


def bits(cards: Iterable[int]) -> int:
    """The cards as a bit set."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def members(mask: int) -> list[int]:
    """The cards of a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: The cards of each suit, and of each rank, as bits.
_SUIT_BITS = tuple(bits(c for c in range(52) if SUIT[c] == suit) for suit in range(4))
_RANK_BITS = {rank: bits(c for c in range(52) if RANK[c] == rank) for rank in range(2, 15)}


def _card_words(mask: int, pack: int, translated: bool) -> str:
    """:func:`cards_in_words`, in the chosen language or (``translated``
    false) in English."""
    words = []
    left = mask
    for suit in range(4):
        whole = pack & _SUIT_BITS[suit]
        if whole and mask & whole == whole:
            words.append(suit_word(suit) if translated else SUIT_SINGULAR[suit])
            left &= ~whole
    for rank in range(2, 15):
        whole = pack & _RANK_BITS[rank]
        if whole and mask & whole == whole and left & whole:
            words.append(RANK_NAMES[rank])
            left &= ~whole
    joker = _("joker") if translated else "joker"
    words += [joker if card == JOKER else NAME[card] for card in members(left)]
    if translated:
        return join_or(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def cards_in_words(mask: int, pack: int) -> str:
    """A set of cards as a person says it: ``"heart, 7 or 8"`` (whole suits,
    whole ranks, then single cards, as far as the pack goes), in the chosen
    language."""
    return _card_words(mask, pack, True)


# ---------------------------------------------------------------- messages
# The solver says why a record is impossible, but it makes many reasons
# nobody reads: a search that goes back to a choice drops the one it made,
# and reasons are compared to leave out the same one twice.  So a reason is
# kept as words said only when read (:class:`Words`): ``str()`` says them in
# the chosen language (where the record reader makes the message for a
# person), :meth:`Words.english` in English, untranslated, to compare them.

class Words:
    """Words for a person, said when read: ``str()`` in the chosen language."""

    __slots__ = ()

    def english(self) -> str:
        """The words in English, untranslated (what tells two reasons apart)."""
        raise NotImplementedError


def english(value: object) -> str:
    """``value`` (words, text or a number) in English."""
    return value.english() if isinstance(value, Words) else str(value)


class Said(Words):
    """A message (English, marked with ``N_`` where it is written) and its
    fields: text, numbers or other :class:`Words`."""

    __slots__ = ("fields", "message")

    def __init__(self, message: str, **fields: object) -> None:
        self.message = message
        self.fields = fields

    def english(self) -> str:
        return self.message.format(**{name: english(value) for name, value in self.fields.items()})

    def __str__(self) -> str:
        return _(self.message).format(**{name: str(value) for name, value in self.fields.items()})


class CardWords(Words):
    """A set of cards as a person says it (:func:`cards_in_words`)."""

    __slots__ = ("mask", "pack")

    def __init__(self, mask: int, pack: int) -> None:
        self.mask = mask
        self.pack = pack

    def english(self) -> str:
        return _card_words(self.mask, self.pack, False)

    def __str__(self) -> str:
        return _card_words(self.mask, self.pack, True)


class Listed(Words):
    """Words one after another: steps (``"move 3, move 5"``) or, with
    ``reasons``, reasons (``"...; ..."``)."""

    __slots__ = ("items", "reasons")

    def __init__(self, items: Sequence[Words | str], reasons: bool = False) -> None:
        self.items = items
        self.reasons = reasons

    def english(self) -> str:
        return ("; " if self.reasons else ", ").join(english(item) for item in self.items)

    def __str__(self) -> str:
        texts = [str(item) for item in self.items]
        if not self.reasons:
            return listed(texts)
        text = texts[0] if texts else ""
        for reason in texts[1:]:
            # Translators: one more reason a record is impossible, after the others.
            text = _("{reasons}; {reason}").format(reasons=text, reason=reason)
        return text


#: The steps of a record the reader names (``Slot.step``, ``Reveal.step``,
#: where a card was seen): English text, kept as the reader writes it (it is
#: made at every event) and said in the chosen language only in a message.
_STEPS = tuple((re.compile(pattern), message) for pattern, message in (
    # Translators: the steps of a record, where a card was drawn, played or seen: "the card seat 1
    # drew {step}" (after move 2, a 2nd time after move 2), "seat 1 had no heart at {step}" (move 2).
    (r"move (?P<move>\d+)", N_("move {move}")),
    (r"after move (?P<move>\d+)", N_("after move {move}")),
    (r"a 2nd time after move (?P<move>\d+)", N_("a 2nd time after move {move}")),
    (r"a 3rd time after move (?P<move>\d+)", N_("a 3rd time after move {move}")),
    (r"a (?P<count>\d+)th time after move (?P<move>\d+)", N_("a {count}th time after move {move}")),
    (r"the end of the round after move (?P<move>\d+)", N_("the end of the round after move {move}")),
    (r"(?P<card>\S+) seen after move (?P<move>\d+)", N_("{card} seen after move {move}")),
))


class Step(Words):
    """A step of the record, as the reader names it (``"move 9"``, ``"a 2nd
    time after move 9"``, ``"7H seen after move 9"``)."""

    __slots__ = ("step",)

    def __init__(self, step: str) -> None:
        self.step = step

    def english(self) -> str:
        return self.step

    def __str__(self) -> str:
        for pattern, message in _STEPS:
            found = pattern.fullmatch(self.step)
            if found is not None:
                return _(message).format(**found.groupdict())
        return self.step


#: What happened to a card, for messages: the verbs the reader gives (a
#: reveal's ``verb``, or a card off the stock).
# Translators: {event} in "{event}, but the pack has no joker": "JK is played" (in a move), "JK is shown"
# (in a hand shown at a round's end), "JK is held" (a move allowed only with it in hand).
_EVENTS = {"is played": N_("{card} is played"), "is shown": N_("{card} is shown"),
           "is held": N_("{card} is held"), "comes off the stock": N_("{card} comes off the stock")}
#: ... and the same, once more than the decks hold the card.
_EVENTS_AGAIN = {
    "is played": N_("{card} is played for the {nth} in {game} ({before})"),
    "is shown": N_("{card} is shown for the {nth} in {game} ({before})"),
    "comes off the stock": N_("{card} comes off the stock for the {nth} in {game} ({before})")}
# Translators: "{card} is played for the {nth} in {game}": the second time a card is seen.
_NTH = {1: N_("first time"), 2: N_("second time"), 3: N_("third time"), 4: N_("fourth time")}


def _event(card: int, verb: str) -> Words:
    """``7H is played``: what happened to ``card`` (``verb``)."""
    message = _EVENTS.get(verb)
    return Said(message, card=NAME[card]) if message else Said("{card} " + verb, card=NAME[card])


def _nth(count: int) -> Words:
    return Said(_NTH[count]) if count in _NTH else Said(N_("{count}th time"), count=count)


#: Why cards were ruled out, for messages: words, or what makes them (built only when needed).
Why = str | Words | Callable[[], str | Words]


def _say(why: Why) -> str | Words:
    return why() if callable(why) else why


class Solver:
    """The matching for one round of a game (:meth:`new_round` starts the next).

    Each method is one step of the record, applied at once; it raises
    :class:`Impossible` when no deal explains the record any more.  ``pack``
    is the deck the round is dealt from; ``decks`` its number of decks (for
    messages).
    """

    def __init__(self, pack: Sequence[int], decks: int = 1):
        self.pack = Counter(pack)
        self.pack_mask = bits(self.pack)
        self.decks = decks
        self.new_round()

    # ------------------------------------------------------------ the steps
    def new_round(self) -> None:
        """A new round, dealt from the whole pack again."""
        self.quick = True  # reveals' pools in the matching; False: the search over pools
        self._reset()

    def _reset(self) -> None:
        self.slots: list[Slot] = []
        self.reveals: list[Reveal] = []
        self.by_seat: dict[int, list[int]] = {}
        self.cap: list[list[int]] = []  # per pool, by card: the copies it had
        self.used: list[list[int]] = []  # per pool, by card: copies taken (known, revealed or held)
        self.holders: list[dict[int, set[int]]] = []  # per pool: card -> slots holding it unseen
        self.free: list[int] = []  # per pool: the cards it still has a copy of to give, as bits
        self.pool_bits: list[int] = []  # per pool: the cards it had
        self.pool_steps: list[str] = []  # per pool: where the stock was rebuilt ("" for the deal)
        #: card -> where it was seen this round: (whether it was played, where)
        self.seen: dict[int, list[tuple[bool, str]]] = {}
        self.log: list[tuple[str, tuple[Any, ...]]] = []
        self.choices: list[tuple[int, Any, list[int]]] = []  # (log index, snapshot, pools left)
        self._forced: int | None = None  # the pool to choose, replaying a choice
        self._trail: set[int] = set()  # the slots the last search went through, for messages
        self._at = -1  # the step (index in the log) being applied
        self._known_cards: list[tuple[int, int]] = []  # (card, pool) seen off the stock
        self.by_card: dict[int, list[int]] = {}  # card -> its reveals (quick mode)
        self._undo: list[tuple[int, int, int]] = []  # quick mode: how to take back a search's moves
        self._tried: dict[int, int] = {}  # quick mode, per search: pool -> cards it was asked to free
        self._moved: set[int] = set()  # quick mode, per search: the reveals it moved
        #: quick mode, per search: how to take back marks, (pool, cards tried before) or (-1, reveal moved)
        self._marked: list[tuple[int, int]] = []
        self._local, self._budget = False, 0  # quick mode: forget failed paths; work left
        self._limit, self._depth = 0, 0  # quick mode: how deep a path may go, and goes
        self._reveals_first = False  # quick mode: a slot looks for a reveal to take before a card
        self._pool(self.pack.elements())

    def open_pool(self, cards: Iterable[int], step: str = "") -> None:
        """A reshuffle (``step`` says where, for messages): the stock is now
        these (known) cards."""
        self._step("_pool", tuple(cards), step)

    def known(self, card: int, step: str) -> None:
        """A known card came off the stock (dealt face up, turned up, drawn in sight)."""
        self._step("_known", card, step)

    def arrive(self, seat: int, step: str) -> int:
        """An unseen card came off the stock into ``seat``'s hand: its slot."""
        self._step("_arrive", seat, step)
        return len(self.slots) - 1

    def test(self, slot: int, keep: int, why: Why) -> None:
        """What the rules did next says slot ``slot`` is one of the cards ``keep``."""
        self._step("_test", slot, keep, why)

    def lacks(self, seat: int, cards: int, why: Why) -> None:
        """``seat`` held none of ``cards`` now (``why`` says how the table saw it)."""
        self._step("_lacks", seat, cards, why)

    def reveal(self, seat: int, card: int, step: str, slot: int | None = None,
               verb: str = "is played") -> None:
        """One of ``seat``'s unseen cards (slot ``slot``, where the rules say
        which) turned out to be ``card``: played, melded or shown (``verb``
        says which, for messages)."""
        self._step("_reveal", seat, card, step, slot, verb)

    def note(self, card: int, step: str) -> None:
        """A known card was played at ``step`` (for messages only)."""
        self._step("_note", card, step)

    def close(self, seat: int) -> None:
        """``seat`` showed its whole hand: none of its cards stays unseen."""
        self._step("_close", seat)

    def left(self) -> int:
        """Cards still in the stock of the current pool."""
        pool = len(self.cap) - 1
        return sum(self.cap[pool]) - sum(self.used[pool])

    # ------------------------------------------------- going back to a choice
    def _step(self, name: str, *args: Any) -> None:
        self.log.append((name, args))
        self._at = len(self.log) - 1
        self._trail = set()
        if self.quick:
            try:
                getattr(self, name)(*args)
                return
            except Impossible:
                self._exhaustive()
                return
        try:
            getattr(self, name)(*args)
        except Impossible as first:
            self._back(first)

    def _exhaustive(self) -> None:
        """The matching with free pools found none after the last step (it
        may miss one): read the round again choosing each reveal's pool, an
        exhaustive search that gives the exact answer and today's reasons."""
        log = self.log
        self.quick = False
        self._reset()
        for name, args in log:
            self._step(name, *args)

    def _back(self, failure: Impossible) -> None:
        """The last step failed: try the choices left, newest first, replaying
        the steps since; raise ``failure`` when none explains them all."""
        while self.choices:
            index, snapshot, pools = self.choices.pop()
            self._restore(snapshot)
            pool = pools.pop(0)
            if pools:
                self.choices.append((index, self._snapshot(), pools))
            try:
                self._replay(index, pool)
                return
            except Impossible:
                continue
        raise failure

    def _replay(self, index: int, pool: int) -> None:
        name, args = self.log[index]
        self._forced = pool
        self._at, self._trail = index, set()
        try:
            getattr(self, name)(*args)
        finally:
            self._forced = None
        for at in range(index + 1, len(self.log)):
            name, args = self.log[at]
            self._at, self._trail = at, set()
            getattr(self, name)(*args)

    def _snapshot(self) -> Any:
        """A copy of the matching, to come back to (written out: ``deepcopy`` is far slower)."""
        return ([Slot(s.seat, s.pool, s.step, s.mask, s.cuts[:], s.card, s.reveal, s.reveals[:])
                 for s in self.slots],
                [Reveal(r.seat, r.card, r.step, r.pool, r.slots[:], r.slot) for r in self.reveals],
                {seat: slots[:] for seat, slots in self.by_seat.items()},
                [cap.copy() for cap in self.cap], [used.copy() for used in self.used],
                [{card: set(slots) for card, slots in holders.items()} for holders in self.holders],
                {card: seen[:] for card, seen in self.seen.items()}, self.free[:], self.pool_bits[:])

    def _restore(self, snapshot: Any) -> None:
        """Back to a snapshot, which the solver then owns (the caller keeps no other use of it)."""
        (self.slots, self.reveals, self.by_seat, self.cap, self.used, self.holders, self.seen,
         self.free, self.pool_bits) = snapshot

    # ------------------------------------------------------------- the work
    def _pool(self, cards: Iterable[int], step: str = "") -> None:
        self.pool_steps.append(step)
        cap = [0] * _CARDS
        for card in cards:
            cap[card] += 1
        self.cap.append(cap)
        self.used.append([0] * _CARDS)
        self.holders.append({})
        self.pool_bits.append(bits(card for card, count in enumerate(cap) if count))
        self.free.append(self.pool_bits[-1])

    def _spare(self, pool: int, card: int) -> int:
        return self.cap[pool][card] - self.used[pool][card]

    def _use(self, pool: int, card: int, count: int) -> None:
        """``count`` more copies of ``card`` of ``pool`` taken (fewer, if negative)."""
        used = self.used[pool]
        used[card] += count
        if self.cap[pool][card] > used[card]:
            self.free[pool] |= 1 << card
        else:
            self.free[pool] &= ~(1 << card)

    def _known(self, card: int, step: str) -> None:
        pool = len(self.cap) - 1
        self._known_cards.append((card, pool))
        self._use(pool, card, 1)
        before = list(self.seen.get(card, ()))
        self.seen.setdefault(card, []).append((False, step))
        if self.quick:
            if self._spare(pool, card) < 0 and not self._search(lambda: self._q_free(pool, card)):
                raise Impossible("")
        elif self._spare(pool, card) < 0:
            self._evict(pool, card, lambda: self._twice(card, "comes off the stock", before))

    def _arrive(self, seat: int, step: str) -> None:
        pool = len(self.cap) - 1
        slot = Slot(seat, pool, step, self.pool_bits[pool])
        self.slots.append(slot)
        self.by_seat.setdefault(seat, []).append(len(self.slots) - 1)
        if not self._fill(len(self.slots) - 1):
            raise Impossible(Said(N_("seat {seat} drew a card, but every card the stock held is accounted "
                                     "for"), seat=seat))

    def _test(self, index: int, keep: int, why: Why) -> None:
        self._cut(index, ~keep & self.pack_mask, why)
        self._rematch([index], lambda: self._slot_empty(index, why))

    def _lacks(self, seat: int, cards: int, why: Why) -> None:
        moved = []
        for index in self.by_seat.get(seat, ()):
            slot = self.slots[index]
            if slot.mask & cards:
                self._cut(index, cards, why)
                if slot.card >= 0 and not slot.mask >> slot.card & 1:
                    moved.append(index)
        self._rematch(moved, lambda: self._cannot_lack(seat, why))

    def _cut(self, index: int, cards: int, why: Why) -> None:
        slot = self.slots[index]
        removed = slot.mask & cards
        if removed:
            slot.mask &= ~cards
            slot.cuts.append((removed, why))

    def _rematch(self, indices: list[int], explain: Callable[[], Words]) -> None:
        """Slots whose card is ruled out: find each another."""
        for index in indices:
            slot = self.slots[index]
            if slot.card >= 0 and not slot.mask >> slot.card & 1:
                self._unhold(index)
                if not self._fill(index):
                    raise Impossible(explain())

    def _fill(self, index: int) -> bool:
        """Give slot ``index`` (holding nothing) a card or a reveal."""
        if self.quick:
            return self._search(lambda: self._q_find(index))
        return self._find(index, [0], set())

    def _note(self, card: int, step: str) -> None:
        self.seen.setdefault(card, []).append((True, step))

    def _reveal(self, seat: int, card: int, step: str, only: int | None, verb: str) -> None:
        candidates = [i for i in (self.by_seat.get(seat, ()) if only is None else (only,))
                      if self.slots[i].mask >> card & 1]
        if self.quick:
            # Any of the seat's slots that may be the card, from any pool: the
            # copy is the pool's of the slot the reveal takes in the matching.
            number = len(self.reveals)
            self.reveals.append(Reveal(seat, card, step, -1, candidates))
            self.by_card.setdefault(card, []).append(number)
            for index in candidates:
                self.slots[index].reveals.append(number)
            if not self._q_reveal(number):
                raise Impossible("")
            self.seen.setdefault(card, []).append((True, step))
            return
        mine: Counter[int] = Counter(self.slots[i].pool for i in candidates)
        pools = [pool for pool in mine if self.cap[pool][card] - self._fixed(pool, card) > 0]
        if len(pools) > 1:
            # The likeliest pool first: where this seat holds the larger share
            # of the unseen cards the copy may be among.
            share = {pool: mine[pool] / max(1, sum(1 for slot in self.slots
                                                   if slot.pool == pool and slot.mask >> card & 1))
                     for pool in pools}
            pools.sort(key=lambda pool: (-share[pool], pool))
        if not pools:
            raise Impossible(self._cannot_reveal(seat, card, verb, only))
        if self._forced is not None:
            pool, self._forced = self._forced, None
        else:
            pool = pools[0]
            if len(pools) > 1:
                self.choices.append((self._at, self._snapshot(), pools[1:]))
        reveal = Reveal(seat, card, step, pool)
        self.reveals.append(reveal)
        number = len(self.reveals) - 1
        for index in candidates:
            if self.slots[index].pool == pool:
                reveal.slots.append(index)
                self.slots[index].reveals.append(number)
        self._use(pool, card, 1)
        evicted = []
        if self._spare(pool, card) < 0:
            holders = self.holders[pool].get(card, set())
            # Prefer to let go a slot this reveal may take.
            takeable = [i for i in holders if i in reveal.slots]
            victim = takeable[0] if takeable else next(iter(holders))
            self._unhold(victim)
            evicted.append(victim)
        if not self._cover(number, set()) or any(
                self.slots[index].reveal < 0 and not self._find(index, [0], set()) for index in evicted):
            self._use(pool, card, -1)  # as it was, for the message
            raise Impossible(self._cannot_reveal(seat, card, verb, only))
        self.seen.setdefault(card, []).append((True, step))

    def _fixed(self, pool: int, card: int) -> int:
        """Copies of ``card`` in ``pool`` taken for good: seen off the stock, or revealed."""
        holding = len(self.holders[pool].get(card, ()))
        return self.used[pool][card] - holding

    def _close(self, seat: int) -> None:
        why = Said(N_("seat {seat} showed its hand"), seat=seat)
        for index in self.by_seat.get(seat, ()):
            slot = self.slots[index]
            self._cut(index, self.pack_mask, why)
            if self.quick and slot.reveal < 0:
                self._unhold(index)
                if not self._fill(index):
                    raise Impossible("")
            if slot.reveal < 0:  # pragma: no cover - the hand's size says every slot is shown
                raise Impossible(Said(N_("seat {seat} showed fewer cards than it held"), seat=seat))

    def _evict(self, pool: int, card: int, explain: Callable[[], Words]) -> None:
        holders = self.holders[pool].get(card)
        if not holders:
            raise Impossible(explain())
        victim = next(iter(holders))
        self._unhold(victim)
        if not self._find(victim, [0], set()):
            raise Impossible(explain())

    # ------------------------------------------------- the augmenting paths
    def _hold(self, index: int, card: int) -> None:
        slot = self.slots[index]
        slot.card = card
        self._use(slot.pool, card, 1)
        self.holders[slot.pool].setdefault(card, set()).add(index)

    def _unhold(self, index: int) -> None:
        slot = self.slots[index]
        if slot.card >= 0:
            self._use(slot.pool, slot.card, -1)
            self.holders[slot.pool][slot.card].discard(index)
            slot.card = -1

    def _find(self, index: int, cards_seen: list[int], reveals_seen: set[int]) -> bool:
        """Give slot ``index`` (holding nothing) a card or a reveal, moving
        others along an augmenting path where needed.  ``cards_seen[0]``:
        the cards (of this slot's pool: a path never leaves it) already
        tried on this path."""
        slot = self.slots[index]
        self._trail.add(index)
        pool = slot.pool
        spare = slot.mask & self.free[pool] & ~cards_seen[0]
        if spare:
            self._hold(index, (spare & -spare).bit_length() - 1)
            return True
        for number in slot.reveals:
            if self.reveals[number].slot < 0 and number not in reveals_seen:
                self._take(index, number)
                return True
        for card in members(slot.mask & ~cards_seen[0]):
            cards_seen[0] |= 1 << card
            for other in list(self.holders[pool].get(card, ())):
                if other == index:
                    continue
                self._unhold(other)
                if self._find(other, cards_seen, reveals_seen):
                    self._hold(index, card)
                    return True
                self._hold(other, card)
        for number in slot.reveals:
            if number in reveals_seen:
                continue
            reveals_seen.add(number)
            other = self.reveals[number].slot
            self._release(other)
            if self._find(other, cards_seen, reveals_seen):
                self._take(index, number)
                return True
            self._take(other, number)
        return False

    def _cover(self, number: int, slots_seen: set[int]) -> bool:
        """Give reveal ``number`` (matched to nothing) a slot: one holding a
        card unseen (which it lets go), or one another reveal can spare."""
        reveal = self.reveals[number]
        self._trail.update(reveal.slots)
        for index in reveal.slots:
            if self.slots[index].reveal < 0 and index not in slots_seen:
                self._unhold(index)
                self._take(index, number)
                return True
        for index in reveal.slots:
            if index in slots_seen:
                continue
            slots_seen.add(index)
            other = self.slots[index].reveal
            self._release(index)
            if self._cover(other, slots_seen):
                self._take(index, number)
                return True
            self._take(index, other)
        return False

    def _take(self, index: int, number: int) -> None:
        self.slots[index].reveal = number
        self.reveals[number].slot = index

    def _release(self, index: int) -> None:
        slot = self.slots[index]
        if slot.reveal >= 0:
            self.reveals[slot.reveal].slot = -1
            slot.reveal = -1

    # ---------------------------- quick mode: the reveals' pools in the paths
    # A reveal takes a slot of any pool that may be its card, and the copy
    # from that slot's pool (``used`` counts it while the reveal holds the
    # slot).  The paths below may then also move a reveal to another pool's
    # slot.  Every move is written to ``_undo``, so a path that fails is
    # taken back whole; a search that succeeds leaves a matching (every slot
    # a card or a reveal, every reveal a slot, no pool short of a copy).  A
    # search that fails may have missed a matching: the caller then falls
    # back to the exhaustive search (:meth:`_exhaustive`).

    def witness(self) -> list[str]:
        """What is wrong with the matching kept (nothing, always): for tests."""
        wrong = []
        for index, slot in enumerate(self.slots):
            if (slot.card >= 0) == (slot.reveal >= 0):
                wrong.append(f"slot {index} holds {slot.card} and reveal {slot.reveal}")
            elif slot.card >= 0 and not slot.mask >> slot.card & 1:
                wrong.append(f"slot {index} holds {slot.card}, ruled out")
            elif slot.reveal >= 0 and (index not in self.reveals[slot.reveal].slots
                                       or self.reveals[slot.reveal].slot != index):
                wrong.append(f"slot {index} has reveal {slot.reveal}, not one of its own")
        for number, reveal in enumerate(self.reveals):
            if reveal.slot < 0 or self.slots[reveal.slot].reveal != number:
                wrong.append(f"reveal {number} has no slot")
        for pool, cap in enumerate(self.cap):
            taken = Counter(card for card, _ in self._known_cards if _ == pool)
            for slot in self.slots:
                if slot.pool == pool:
                    taken[slot.card if slot.card >= 0 else self.reveals[slot.reveal].card] += 1
            if not self.quick:
                continue
            for card, count in taken.items():
                if count > cap[card] or count != self.used[pool][card]:
                    wrong.append(f"pool {pool} gives {count} of {card} (has {cap[card]}, "
                                 f"counts {self.used[pool][card]})")
        return wrong

    def _q_reveal(self, number: int) -> bool:
        """Match a new reveal: in one search, or else in a search of its own
        for each slot it may take (the cards a path has tried depend on
        which card the slot let go)."""
        self._budget = _BUDGET
        slots = self.reveals[number].slots
        for first in _ORDERS:
            if self._search(lambda: self._q_cover(number), limits=_LIMITS[:1], reveals_first=first):
                return True
            for index in slots:
                if self._search(partial(self._q_at, number, index), limits=_LIMITS[:1], reveals_first=first):
                    return True
        # Then deeper and deeper, slot by slot (in each order in turn), each
        # on a small budget: a short path through any slot is found, and a
        # reveal that no short path matches goes to the exhaustive search
        # (exact, and over shipped games far quicker than a long quick one).
        for first in _ORDERS:
            for index in slots:
                self._budget = _DEEP_BUDGET
                if self._search(partial(self._q_at, number, index), limits=_LIMITS, reveals_first=first):
                    return True
        return False

    def _q_at(self, number: int, index: int) -> bool:
        """Reveal ``number`` takes slot ``index``, whatever that slot held."""
        self._move(number)
        reveal, slot = self.reveals[number], self.slots[index]
        displaced = slot.reveal
        if displaced >= 0:
            self._move(displaced)
            self._q_release(index)
        else:
            self._q_unhold(index)
        if not (self._spare(slot.pool, reveal.card) > 0 or self._q_free(slot.pool, reveal.card)):
            return False
        self._q_take(index, number)
        return displaced < 0 or self._q_place(displaced, -1)

    def _search(self, path: Callable[[], bool], mark: int = 0,
                limits: tuple[int, ...] | None = None, reveals_first: bool | None = None) -> bool:
        """One search with fresh marks; what it did is taken back if it fails.

        First each card and reveal is tried once per search (Kuhn's rule,
        quick); if that finds nothing, once per path (a failed path forgets
        what it tried, which finds what the first misses), within a budget.
        A slot looks for a card before a reveal, or (``reveals_first``) the
        other way round; without ``limits``, in each order in turn, each on
        the whole budget."""
        if reveals_first is None:
            return any(self._search(path, mark, limits, first) for first in _ORDERS)
        if limits is None:
            limits, self._budget = _LIMITS, _BUDGET
        self._reveals_first = reveals_first
        for limit in limits:
            del self._undo[mark:]
            self._tried, self._moved, self._marked = {}, set(), []
            self._local, self._limit, self._depth = limit > 0, limit or 1 << 30, 0
            try:
                if path():
                    return True
            except _GiveUp:
                self._rollback(mark)
                return False
            self._rollback(mark)
        return False

    def _marks(self) -> int | None:
        """Where the search's marks stand, if a failed path is to forget what it tried since."""
        self._budget -= 1
        if self._budget < 0:
            raise _GiveUp
        return len(self._marked) if self._local else None

    def _try_card(self, pool: int, card: int) -> None:
        """Mark ``card`` of ``pool`` as one the search asked to free."""
        before = self._tried.get(pool, 0)
        self._tried[pool] = before | 1 << card
        self._marked.append((pool, before))

    def _move(self, number: int) -> None:
        """Mark reveal ``number`` as one the search moved."""
        if number not in self._moved:
            self._moved.add(number)
            self._marked.append((-1, number))

    def _rollback(self, mark: int, marks: int | None = None) -> None:
        if marks is not None:
            marked, tried, moved = self._marked, self._tried, self._moved
            while len(marked) > marks:
                pool, value = marked.pop()
                if pool < 0:
                    moved.discard(value)
                else:
                    tried[pool] = value
        undo, slots, reveals = self._undo, self.slots, self.reveals
        while len(undo) > mark:
            kind, index, value = undo.pop()
            slot = slots[index]
            pool = slot.pool
            if kind == 0:  # it had held card ``value``
                slot.card = value
                self._use(pool, value, 1)
                self.holders[pool].setdefault(value, set()).add(index)
            elif kind == 1:  # it had held nothing (it took card ``value``)
                slot.card = -1
                self._use(pool, value, -1)
                self.holders[pool][value].discard(index)
            elif kind == 2:  # it had been taken by reveal ``value``
                slot.reveal = value
                reveals[value].slot = index
                self._use(pool, reveals[value].card, 1)
            else:  # it had been free of reveal ``value``
                slot.reveal = -1
                reveals[value].slot = -1
                self._use(pool, reveals[value].card, -1)

    def _q_hold(self, index: int, card: int) -> None:
        self._hold(index, card)
        self._undo.append((1, index, card))

    def _q_unhold(self, index: int) -> None:
        card = self.slots[index].card
        if card >= 0:
            self._unhold(index)
            self._undo.append((0, index, card))

    def _q_take(self, index: int, number: int) -> None:
        slot = self.slots[index]
        slot.reveal = number
        self.reveals[number].slot = index
        self._use(slot.pool, self.reveals[number].card, 1)
        self._undo.append((3, index, number))

    def _q_release(self, index: int) -> None:
        slot = self.slots[index]
        number = slot.reveal
        slot.reveal = -1
        self.reveals[number].slot = -1
        self._use(slot.pool, self.reveals[number].card, -1)
        self._undo.append((2, index, number))

    def _q_spare(self, pool: int, card: int) -> bool:
        """A copy of ``card`` in ``pool`` to take, not one a path is freeing."""
        return self._spare(pool, card) > 0 and not self._tried.get(pool, 0) >> card & 1

    @_deep
    def _q_find(self, index: int) -> bool:
        """Give slot ``index`` (holding nothing) a card, or a reveal moved from another slot."""
        slot = self.slots[index]
        pool = slot.pool
        tried = self._tried.get(pool, 0)
        spare = slot.mask & self.free[pool] & ~tried
        if spare:
            self._q_hold(index, (spare & -spare).bit_length() - 1)
            return True
        if self._reveals_first and self._q_take_from(index):
            return True
        # The cards a slot holding them can let go at once (it may be a
        # spare card) first: a short path before long ones.
        cards = members(slot.mask & ~tried)
        free, holders, slots = self.free[pool] & ~tried, self.holders[pool], self.slots
        easy = [card for card in cards if any(slots[other].mask & free & ~(1 << card)
                                              for other in holders.get(card, ()))]
        if easy:
            cards = easy + [card for card in cards if card not in easy]
        for card in cards:
            if self._tried.get(pool, 0) >> card & 1:
                continue
            mark, marks = len(self._undo), self._marks()
            if self._q_free(pool, card) and self._spare(pool, card) > 0:
                self._q_hold(index, card)
                return True
            self._rollback(mark, marks)
        return not self._reveals_first and self._q_take_from(index)

    def _q_take_from(self, index: int) -> bool:
        """Give slot ``index`` (holding nothing) a reveal moved from another slot."""
        pool = self.slots[index].pool
        for number in self.slots[index].reveals:
            if number in self._moved:
                continue
            reveal = self.reveals[number]
            other = reveal.slot
            if other < 0:
                continue
            mark, marks = len(self._undo), self._marks()
            self._move(number)
            self._q_release(other)
            if self.slots[other].pool == pool or self._q_spare(pool, reveal.card) or self._q_free(
                    pool, reveal.card):
                self._q_take(index, number)
                if self._q_find(other):
                    return True
            self._rollback(mark, marks)
        return False

    @_deep
    def _q_free(self, pool: int, card: int) -> bool:
        """One copy of ``card`` in ``pool`` fewer taken: a slot holding it
        finds another card, or a reveal of it moves to another pool's slot."""
        self._try_card(pool, card)
        before = self.used[pool][card]
        for other in list(self.holders[pool].get(card, ())):
            mark, marks = len(self._undo), self._marks()
            self._q_unhold(other)
            if self._q_find(other) and self.used[pool][card] < before:
                return True
            self._rollback(mark, marks)
        for number in self.by_card.get(card, ()):
            reveal = self.reveals[number]
            if number in self._moved or reveal.slot < 0 or self.slots[reveal.slot].pool != pool:
                continue
            mark, marks = len(self._undo), self._marks()
            self._move(number)
            other = reveal.slot
            self._q_release(other)
            if self._q_place(number, pool) and self._q_find(other) and self.used[pool][card] < before:
                return True
            self._rollback(mark, marks)
        return False

    def _q_cover(self, number: int) -> bool:
        """Give reveal ``number`` (matched to nothing) a slot: with more than
        one deck, first one whose pool has a copy of its card to spare (the
        cards of one deck are best left in the slots' order, oldest first:
        so the simulated games say)."""
        self._move(number)
        return self._q_place(number, -1, self.decks > 1)

    @_deep
    def _q_place(self, number: int, avoid: int, spare_first: bool = False) -> bool:
        """Give reveal ``number`` a slot of a pool other than ``avoid``: the
        slot lets go the card it held, or the reveal that held it moves on
        (``spare_first``: slots that need no path for the card's copy first)."""
        reveal = self.reveals[number]
        card = reveal.card
        slots = self.slots

        def spare(index: int) -> bool:
            pool = slots[index].pool
            return slots[index].card == card or self._q_spare(pool, card)

        # Slots holding a card first: taking one moves no other reveal.
        for index in sorted(reveal.slots, key=lambda index: (slots[index].reveal >= 0,
                                                              spare_first and not spare(index))):
            slot = self.slots[index]
            pool = slot.pool
            if pool == avoid:
                continue
            displaced, held = slot.reveal, slot.card
            if displaced < 0 and held < 0:
                continue  # a slot some path is filling
            if displaced in self._moved:
                continue
            mark, marks = len(self._undo), self._marks()
            if displaced >= 0:
                self._move(displaced)
                self._q_release(index)
            else:
                self._q_unhold(index)
            if held == card or self._q_spare(pool, card) or self._q_free(pool, card):
                self._q_take(index, number)
                if displaced < 0 or self._q_place(displaced, -1):
                    return True
            self._rollback(mark, marks)
        return False

    # ------------------------------------------------------------- messages
    def _twice(self, card: int, verb: str, before: list[tuple[bool, str]]) -> Words:
        """``card`` is seen once more than the pack holds it."""
        name = NAME[card]
        plays = [where for play, where in before if play]
        if plays and len(plays) == len(before) and verb == "is held":
            copies, word = self.pack[card], CardWords(1 << card, 0)
            where = Listed([Step(step) for step in plays])
            if copies == 1:
                return Said(N_("the pack's only {card} was played before ({where})"), card=word, where=where)
            return Said(N_("all {count} of the pack's {card}s were played before ({where})"), count=copies,
                        card=word, where=where)
        again = _EVENTS_AGAIN.get(verb)
        if plays and len(plays) == len(before) and again:
            game = Said(N_("a one-deck game")) if self.decks == 1 else \
                Said(N_("a {count}-deck game"), count=self.decks)
            first = Said(N_("first at {step}"), step=Step(plays[0])) if len(plays) == 1 else \
                Said(N_("before at {steps}"), steps=Listed([Step(step) for step in plays]))
            return Said(again, card=name, nth=_nth(len(plays) + 1), game=game, before=first)
        copies = self.pack[card]
        event = _event(card, verb)
        where = Listed([Step(step) for _, step in before])
        if copies == 1:
            return Said(N_("{event}, but the pack's only {card} is accounted for ({where})"), event=event,
                        card=name, where=where)
        return Said(N_("{event}, but all {count} of the pack's {card} are accounted for ({where})"),
                    event=event, count=copies, card=name, where=where)

    def _not_in_pools(self, seat: int, card: int, verb: str, pools: list[int]) -> Words:
        """``card`` was never seen this round, yet no stock ``seat``'s unseen
        cards came from could give it: the pack has none, or each such stock
        was rebuilt from discards without it."""
        name = NAME[card]
        event = _event(card, verb)
        if not self.pack[card]:
            return Said(N_("{event}, but the pack has no {card}"), event=event, card=CardWords(1 << card, 0))
        stocks = [Said(N_("the stock rebuilt {step} of {count} discards, none of them {card}"),
                       step=Step(self.pool_steps[p]), count=sum(self.cap[p]), card=name)
                  for p in pools if p > 0]
        if not stocks:  # pragma: no cover - the deal's stock holds the whole pack
            return Said(N_("{event}, but no deal of the unseen cards lets seat {seat} hold it"), event=event,
                        seat=seat)
        if len(stocks) == 1:
            return Said(N_("{event}, but every card seat {seat} could hold unseen was drawn from {stock}"),
                        event=event, seat=seat, stock=stocks[0])
        return Said(N_("{event}, but every card seat {seat} could hold unseen was drawn from one of "
                       "{stocks}"), event=event, seat=seat, stocks=Listed(stocks, reasons=True))

    def _cannot_reveal(self, seat: int, card: int, verb: str, only: int | None) -> Words:
        indices = list(self.by_seat.get(seat, ())) if only is None else [only]
        pools = {self.slots[i].pool for i in indices}
        if not any(self.cap[p][card] - self._fixed(p, card) > 0 for p in pools):
            if not self.seen.get(card):
                return self._not_in_pools(seat, card, verb, sorted(pools))
            return self._twice(card, verb, self.seen.get(card, []))
        # Each reason once (told apart by its English words), and how many slots it ruled out.
        reasons: dict[str, int] = {}
        said: dict[str, str | Words] = {}
        for index in indices:
            for removed, why in self.slots[index].cuts:
                if removed >> card & 1:
                    text = _say(why)
                    key = english(text)
                    reasons[key] = reasons.get(key, 0) + 1
                    said.setdefault(key, text)
                    break
        name = NAME[card]
        if only is not None:
            step = Step(self.slots[only].step)
            first = next(iter(reasons), None)
            if first is None:
                return Said(N_("the card seat {seat} drew {step} cannot be {card}"), seat=seat, step=step,
                            card=name)
            return Said(N_("the card seat {seat} drew {step} cannot be {card} ({why})"), seat=seat, step=step,
                        card=name, why=said[first])
        for index in indices:  # a card known for what it was: drawn, then played at once
            slot = self.slots[index]
            if slot.mask >> card & 1 and slot.reveal >= 0 and self.reveals[slot.reveal].slots == [index]:
                shown = self.reveals[slot.reveal]
                text = Said(N_("the card seat {seat} drew {step} was {card} ({where})"), seat=seat,
                            step=Step(slot.step), card=NAME[shown.card], where=Step(shown.step))
                key = english(text)
                reasons[key] = reasons.get(key, 0) + 1
                said.setdefault(key, text)
        if reasons and sum(reasons.values()) == len(indices):
            if len(reasons) == 1:
                # Translators: {reason} says why the seat could not hold the card then ("seat 1 had no
                # heart at move 2"): the seat has drawn nothing since.
                return Said(N_("{reason} and has drawn no card since"), reason=said[next(iter(reasons))])
            return Listed([said[key] for key in reasons], reasons=True)
        others: dict[str, str | Words] = {}
        for i in sorted(self._trail):
            if self.slots[i].seat != seat:
                for _, why in self.slots[i].cuts:
                    text = _say(why)
                    key = english(text)
                    if key not in reasons:
                        others.setdefault(key, text)
        steps = sorted({self.reveals[n].step for i in indices for n in self.slots[i].reveals
                        if self.reveals[n].card != card}, key=_step_order)
        because = [*(said[key] for key in reasons), *others.values()][:3]
        if steps:
            because.append(Said(N_("the cards seat {seat} played at {steps} were unseen too"), seat=seat,
                                steps=Listed([Step(step) for step in steps])))
        if not because:
            return Said(N_("no deal of the unseen cards lets seat {seat} hold {card}"), seat=seat, card=name)
        return Said(N_("no deal of the unseen cards lets seat {seat} hold {card}: {reasons}"), seat=seat,
                    card=name, reasons=Listed(because, reasons=True))

    def _cannot_lack(self, seat: int, why: Why) -> Words:
        return Said(N_("{why}, but every card seat {seat} could hold then is such a card (the others are "
                       "accounted for)"), why=_say(why), seat=seat)

    def _slot_empty(self, index: int, why: Why) -> Words:
        slot = self.slots[index]
        return Said(N_("the card seat {seat} drew {step} cannot be what the rules say ({why}): every such "
                       "card is accounted for"), seat=slot.seat, step=Step(slot.step), why=_say(why))


def _step_order(step: str) -> tuple[int, str]:
    """Steps ("move 9", "a 2nd time after move 9") in the order they happened, for messages."""
    _, _, after = step.rpartition("move ")
    digits = "".join(ch for ch in after.split()[0] if ch.isdigit()) if after.split() else ""
    return (int(digits) if digits else 0, step)
