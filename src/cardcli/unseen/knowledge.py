"""What a seat can work out about the cards it cannot see, and deals that respect it.

A search player imagines the hidden cards anew for every line it thinks
through (*determinization*).  The better it imagines them, the better it
plays: a hand that was seen to lack hearts holds none; a stock rebuilt from
the finished tricks holds only those cards, so the other hands hold the rest.

:class:`Knowledge` follows a game from one seat's point of view, event by
event (:meth:`Knowledge.observe`), and keeps each hidden zone as *groups* of
cards: a group is a number of cards that reached the zone together and the
cards each of them can still be.  Everything it reads is what the seat can
see (the :class:`View`): the zones it sees, the sizes of those it does not,
and the variant's own public facts (``known_cards``, ``ruled_out``,
``pending_card`` without its card).  From one view to the next it works out
where cards went:

* cards that appear in sight came out of the zone that shrank (a card played
  from a hand), so that zone's groups lose them;
* cards that leave sight went into the zone that grew (a reshuffle of seen
  cards into the stock), which gets a group of exactly those cards;
* cards that move between unseen zones (a draw from the stock) take the
  source's possibilities with them;
* each fact the variant states about a zone now (``ruled_out``: a suit a
  player had to draw to follow) holds for every card in it now, and stays
  true of those cards after new ones join the hand: a group remembers what
  its cards were seen to lack while newcomers start afresh.

Where the views leave it unclear which group a card came from, the groups
concerned are merged (what each card can be is widened, never narrowed): the
knowledge may be less than a perfect reasoner's, but it is never wrong.
When an event cannot be explained at all (a new deal), it starts again from
the current view, which is what a seat knows from the table alone.

:meth:`Knowledge.deal` then deals the hidden cards at random into the groups,
each card only where it can be: a bipartite matching, found greedily from a
random order and repaired by augmenting paths where the greedy order gets
stuck.  The deal depends only on the knowledge, the pooled hidden cards (as
a sorted multiset) and the random source, never on where the hidden cards
really are.

Written once here, it serves every variant whose states name their hidden
zones (``hidden_zones``/``set_zones``), and reads the optional facts
``known_cards``, ``ruled_out`` and ``pending_card`` where a variant states
them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..kit.rand import shuffle

if TYPE_CHECKING:
    from ..contract.hidden import HiddenInfo

S = TypeVar("S", bound="HiddenInfo")


@dataclass(frozen=True)
class View:
    """All a seat can see of a position, as the inference reads it.

    ``visible`` is the multiset of every card in sight (any zone the seat can
    see, its own hand included), ``sizes`` the size of each hidden zone,
    ``pool`` the hidden cards as a sorted multiset (what is not in sight),
    ``known`` and ``excluded`` the variant's facts per hidden zone, and
    ``pending`` the zone of a hidden card the next move turns on with the
    set of cards it can be.
    """

    visible: Counter[int]
    sizes: dict[str, int]
    pool: tuple[int, ...]
    known: dict[str, Counter[int]]
    excluded: dict[str, frozenset[int]]
    pending: tuple[str, frozenset[int]] | None


def view_of(state: Any, seat: int) -> View:
    """What ``seat`` sees of ``state``: never a hidden card's place."""
    names = state.hidden_zones(seat)
    zones = state.card_zones()
    hidden = set(names)
    visible: Counter[int] = Counter()
    for name, cards in zones.items():
        if name not in hidden:
            visible.update(cards)
    pool = tuple(sorted(card for name in names for card in zones[name]))
    kinds = frozenset(pool)
    known = {name: Counter(cards) for name, cards in state.known_cards(seat).items()
             if cards and name in hidden}
    excluded = {}
    for name, test in state.ruled_out(seat).items():
        if name in hidden:
            out = frozenset(card for card in kinds if test(card))
            if out:
                excluded[name] = out
    pending = None
    found = state.pending_card(seat)
    if found is not None and found[0] in hidden:
        zone, _card, fits = found  # the card itself is not looked at: only what the table knows of it
        pending = (zone, frozenset(card for card in kinds if fits(card)))
    return View(visible, {name: len(zones[name]) for name in names}, pool, known, excluded, pending)


class Group:
    """``count`` cards of a hidden zone, each one of ``cards``; ``pinned``
    for a card the seat knows is there, ``pending`` for the card the next
    move turns on."""

    __slots__ = ("cards", "count", "pending", "pinned")

    def __init__(self, count: int, cards: frozenset[int], pinned: bool = False, pending: bool = False):
        self.count = count
        self.cards = cards
        self.pinned = pinned
        self.pending = pending

    def copy(self) -> Group:
        return Group(self.count, self.cards, self.pinned, self.pending)

    def __repr__(self) -> str:
        flags = "".join(flag for flag, on in (("pinned ", self.pinned), ("pending ", self.pending)) if on)
        return f"Group({flags}{self.count} of {sorted(self.cards)})"


class Knowledge:
    """What one seat knows of the hidden zones, followed event by event."""

    def __init__(self, seat: int):
        self.seat = seat
        self.zones: dict[str, list[Group]] = {}
        self.view: View | None = None
        #: How often the knowledge had to start again from the table alone (a new deal, say).
        self.restarts = 0
        #: Per hidden zone: the cards that came into sight out of it, in order,
        #: and how many times unseen cards joined it (since the last restart).
        self.left: dict[str, list[int]] = {}
        self.arrivals: dict[str, int] = {}

    @classmethod
    def from_state(cls, state: Any, seat: int) -> Knowledge:
        """What ``seat`` knows from the table alone (no memory of earlier events)."""
        knowledge = cls(seat)
        knowledge.observe(state)
        return knowledge

    def copy(self) -> Knowledge:
        other = Knowledge(self.seat)
        other.zones = {name: [group.copy() for group in groups] for name, groups in self.zones.items()}
        other.view = self.view
        other.restarts = self.restarts
        other.left = {name: cards[:] for name, cards in self.left.items()}
        other.arrivals = dict(self.arrivals)
        return other

    # ----------------------------------------------------------- following
    def observe(self, state: Any) -> None:
        """Bring the knowledge up to date with ``state`` (after one or more events)."""
        view = view_of(state, self.seat)
        before = self.view
        self.view = view
        if before is None or not self._follow(before, view):
            self._restart(view)
        kinds = frozenset(view.pool)
        for groups in self.zones.values():
            for group in groups:
                if not group.cards <= kinds:  # a card in sight now was never among these
                    group.cards = group.cards & kinds or group.cards
        self._apply_facts(view)

    def _restart(self, view: View) -> None:
        """Start again from the view alone: each hidden zone one group of any hidden card."""
        kinds = frozenset(view.pool)
        self.zones = {name: [Group(size, kinds)] if size else [] for name, size in view.sizes.items()}
        self.restarts += 1
        self.left = {name: [] for name in view.sizes}
        self.arrivals = {name: 0 for name in view.sizes}

    def _follow(self, before: View, after: View) -> bool:
        """Move the groups as the cards moved between ``before`` and ``after``;
        ``False`` when the change cannot be explained (start again)."""
        if set(before.sizes) != set(after.sizes):
            return False
        shrunk = {name: before.sizes[name] - size for name, size in after.sizes.items()
                  if size < before.sizes[name]}
        grown = {name: size - before.sizes[name] for name, size in after.sizes.items()
                 if size > before.sizes[name]}
        seen = after.visible - before.visible  # came into sight: out of hidden zones
        hidden = before.visible - after.visible  # went out of sight: into hidden zones
        came = sum(seen.values())
        went = sum(hidden.values())
        if sum(grown.values()) - sum(shrunk.values()) != went - came:
            return False
        if not shrunk and not grown:
            return not seen and not hidden
        if seen:
            if len(shrunk) != 1:
                return False
            (source, lost), = shrunk.items()
            if lost < came:
                return False
            for card, copies in seen.items():
                for _ in range(copies):
                    if not self._take(source, card):
                        return False
            shrunk[source] = lost - came
            if not shrunk[source]:
                del shrunk[source]
        if hidden:
            # Cards gone out of sight: into the zones that grew (beyond what
            # came from other hidden zones).
            if shrunk:
                return False
            kinds = frozenset(hidden)
            for name, count in grown.items():
                self.zones[name].append(Group(count, kinds))
                self.arrivals[name] += 1
            return True
        if not shrunk and not grown:
            return True
        if len(shrunk) != 1 or len(grown) != 1:
            return False
        (source, count), = shrunk.items()
        (target, added), = grown.items()
        if count != added:
            return False
        groups = self._merged(source, lambda group: not group.pinned)
        if groups is None or groups.count < count:
            return False
        groups.count -= count
        self.zones[target].append(Group(count, groups.cards))
        self.arrivals[target] += 1
        self._prune(source)
        return True

    def _take(self, zone: str, card: int) -> bool:
        """A ``card`` left ``zone`` for a place in sight: one of the groups
        that could hold it gives it up (several: merged first)."""
        groups = self.zones.get(zone)
        if not groups:
            return False
        holders = [group for group in groups if card in group.cards and group.count]
        if not holders:
            return False
        if len(holders) == 1:
            group = holders[0]
        else:
            group = self._merge(zone, holders)
        group.count -= 1
        if group.pinned or group.pending:
            group.pinned = group.pending = False
        self._prune(zone)
        self.left[zone].append(card)
        return True

    def _merge(self, zone: str, groups: list[Group]) -> Group:
        merged = Group(sum(group.count for group in groups), frozenset().union(*(g.cards for g in groups)))
        rest = [group for group in self.zones[zone] if all(group is not g for g in groups)]
        self.zones[zone] = [*rest, merged]
        return merged

    def _merged(self, zone: str, which: Callable[[Group], bool]) -> Group | None:
        groups = [group for group in self.zones.get(zone, ()) if which(group) and group.count]
        if not groups:
            return None
        return groups[0] if len(groups) == 1 else self._merge(zone, groups)

    def _prune(self, zone: str) -> None:
        self.zones[zone] = [group for group in self.zones[zone] if group.count > 0]

    def _apply_facts(self, view: View) -> None:
        """What the variant states now: known cards pinned, cards ruled out
        struck from every group of the zone, the pending card set apart."""
        for name, known in view.known.items():
            groups = self.zones.get(name)
            if groups is None:
                continue
            pinned = Counter({card: 0 for card in known})
            for group in groups:
                if group.pinned:
                    pinned.update(group.cards)
            for card, copies in known.items():
                for _ in range(copies - pinned[card]):
                    self._pin(name, card)
        pending = view.pending
        for name, groups in self.zones.items():
            if pending is None or pending[0] != name:
                for group in groups:
                    if group.pending:
                        group.pending = False  # played or kept: an ordinary card of the hand now
        if pending is not None and pending[0] in self.zones:
            zone, fits = pending
            groups = self.zones[zone]
            if not any(group.pending for group in groups):
                newest = next((g for g in reversed(groups) if not g.pinned and g.count), None)
                if newest is not None:
                    newest.count -= 1
                    groups.append(Group(1, newest.cards & fits or newest.cards, pending=True))
                    self._prune(zone)
        for name, out in view.excluded.items():
            for group in self.zones.get(name, ()):
                if not group.pinned and not group.pending:
                    narrowed = group.cards - out
                    if narrowed:
                        group.cards = narrowed

    def _pin(self, zone: str, card: int) -> None:
        holders = [group for group in self.zones[zone]
                   if not group.pinned and card in group.cards and group.count]
        if not holders:
            return  # the variant knows it from elsewhere: the sampler keeps it where the view says
        group = holders[0] if len(holders) == 1 else self._merge(zone, holders)
        group.count -= 1
        self.zones[zone].append(Group(1, frozenset((card,)), pinned=True))
        self._prune(zone)

    def admits(self, zones: dict[str, list[int]]) -> bool:
        """Whether the hidden zones' real contents (``zones``, as ``card_zones``
        gives them) fit the knowledge: the check that it is never wrong."""
        for name, groups in self.zones.items():
            cards = list(zones[name])
            if len(cards) != sum(group.count for group in groups):
                return False
            filled = _match(cards, [group.cards for group in groups], [group.count for group in groups])
            if any(card not in group.cards for group, held in zip(groups, filled) for card in held):
                return False
        return True

    # -------------------------------------------------------------- dealing
    def deal(self, rng: random.Random) -> tuple[dict[str, list[int]], int | None]:
        """The hidden cards dealt at random into the zones, each card where it
        can be; and the pending card, if any (dealt into its zone too)."""
        view = self.view
        assert view is not None, "observe a state first"
        slots: list[tuple[str, Group]] = [(name, group) for name, groups in self.zones.items()
                                           for group in groups]
        pool = list(view.pool)
        shuffle(rng, pool)
        filled = _match(pool, [group.cards for _, group in slots], [group.count for _, group in slots])
        dealt: dict[str, list[int]] = {name: [] for name in view.sizes}
        pending_card = None
        for (name, group), cards in zip(slots, filled):
            if group.pending and cards:
                pending_card = cards[0]
            if group.pinned:
                dealt[name][:0] = cards
            else:
                dealt[name].extend(cards)
        return dealt, pending_card


def _match(pool: Sequence[int], allowed: Sequence[frozenset[int]], counts: Sequence[int]) -> list[list[int]]:
    """Cards of ``pool`` (in its random order) into groups of ``counts`` cards,
    each card into a group that ``allowed`` it: the most constrained groups
    first, then augmenting paths for a group left short.  Every card is
    placed; a card no group can take (knowledge gone wrong) fills a gap."""
    order = sorted(range(len(counts)), key=lambda g: (len(allowed[g]) - counts[g], g))
    filled: list[list[int]] = [[] for _ in counts]
    free = list(pool)
    for g in order:
        want = counts[g]
        if not want:
            continue
        cards = allowed[g]
        take: list[int] = []
        keep: list[int] = []
        for card in free:
            if len(take) < want and card in cards:
                take.append(card)
            else:
                keep.append(card)
        filled[g] = take
        free = keep
    short = [g for g in order if len(filled[g]) < counts[g]]
    for g in short:
        while len(filled[g]) < counts[g] and free:
            if not _augment(g, free, filled, allowed):
                break
    for g in order:  # anything still unplaced goes where there is room
        while len(filled[g]) < counts[g] and free:
            filled[g].append(free.pop())
    return filled


def _augment(target: int, free: list[int], filled: list[list[int]],
             allowed: Sequence[frozenset[int]]) -> bool:
    """Give group ``target`` one more card through a chain of moves, found
    breadth first: a free card goes to a group that may hold it, which hands
    one of its cards to the next group, and so on to ``target``."""
    passes: dict[int, tuple[int, int]] = {}  # group -> (the group it hands a card to, that card's index)
    frontier = [target]
    seen = {target}
    while frontier:
        following = []
        for group in frontier:
            cards = allowed[group]
            for i, card in enumerate(free):
                if card in cards:
                    incoming = free.pop(i)
                    while True:
                        filled[group].append(incoming)
                        if group == target:
                            return True
                        receiver, index = passes[group]
                        incoming = filled[group].pop(index)
                        group = receiver
            for other, held in enumerate(filled):
                if other in seen:
                    continue
                for index, card in enumerate(held):
                    if card in cards:
                        passes[other] = (group, index)
                        seen.add(other)
                        following.append(other)
                        break
        frontier = following
    return False


def redeal(state: S, seat: int, rng: random.Random, knowledge: Knowledge | None = None) -> S:
    """A copy of ``state`` with the cards ``seat`` cannot see dealt anew at
    random, consistently with ``knowledge`` (by default, what the table shows
    now: :meth:`Knowledge.from_state`), which must be up to date with ``state``."""
    knowledge = knowledge or Knowledge.from_state(state, seat)
    dealt, pending = knowledge.deal(rng)
    copy: S = state.clone()  # type: ignore[attr-defined]  # the State's
    copy.set_zones(dealt)
    if pending is not None:
        copy.set_pending_card(pending)
    return copy


class Decision:
    """Another seat's decision as ``seat`` saw it: the position re-dealt from
    its view (so no hidden card of the real game is kept), the move, and where
    the follow-up stood in the knowledge when it was made."""

    __slots__ = ("action", "actor", "arrivals", "epoch", "left", "told", "world", "zone")

    def __init__(self, world: Any, actor: int, action: Any, told: str, zone: str, epoch: int, arrivals: int,
                 left: int):
        self.world = world
        self.actor = actor
        self.action = action
        self.told = told
        self.zone = zone
        self.epoch = epoch
        self.arrivals = arrivals
        self.left = left


class Reading:
    """An opponent model: which imagined hands would have made the moves seen.

    Each decision of another seat is kept (the last ``keep`` per seat) with
    the position as the reading seat saw it.  An imagined deal of the present
    is then checked against them: the other seat's hand back then is its
    imagined hand now plus the cards it has played since (only while no
    unseen card has joined it since), and ``policy`` (the variant's own
    ``normal``) is asked what it would have done with that hand.  A deal
    whose hands would have made every move seen keeps its full weight; each
    move they would not have made multiplies it by ``slack`` (people and
    other programs do not play like ``normal``; a move the imagined hand
    could not have made at all rules the deal out).

    What it compares is what the seat was told: the move played, or (for a
    different move that reads the same to the seat) its description.
    """

    def __init__(self, variant: Any, seat: int, policy: Callable[..., Any], keep: int = 6,
                 slack: float = 0.25):
        self.variant = variant
        self.seat = seat
        self.policy = policy
        self.keep = keep
        self.slack = slack
        self.decisions: dict[int, list[Decision]] = {}
        self._rng = random.Random(0)

    def observe(self, state: Any, actor: int, action: Any, knowledge: Knowledge) -> None:
        """``actor`` is about to make ``action`` in ``state`` (the knowledge is up to date with it)."""
        zone = f"hand {actor}"
        if actor < 0 or actor == self.seat or zone not in knowledge.zones:
            return
        if state.pending_card(self.seat) is not None:
            return  # a move about a card only the actor has seen: not read
        self._rng.seed(len(knowledge.left.get(zone, ())) * 7919 + knowledge.restarts)
        world = redeal(state, self.seat, self._rng, knowledge)
        told = self.variant.describe(state, action, viewer=self.seat)
        kept = self.decisions.setdefault(actor, [])
        kept.append(Decision(world, actor, action, told, zone, knowledge.restarts,
                             knowledge.arrivals.get(zone, 0), len(knowledge.left.get(zone, ()))))
        del kept[:-self.keep]

    def readable(self, knowledge: Knowledge) -> list[Decision]:
        """The kept decisions whose hands can be worked back from the present."""
        out = []
        for kept in self.decisions.values():
            for decision in kept:
                if (decision.epoch == knowledge.restarts
                        and knowledge.arrivals.get(decision.zone, 0) == decision.arrivals):
                    out.append(decision)
        return out

    def weight(self, world: Any, decisions: Sequence[Decision], knowledge: Knowledge) -> float:
        """How well an imagined present ``world`` explains the ``decisions``."""
        weight = 1.0
        zones = world.card_zones()
        for decision in decisions:
            then = decision.world
            hand = list(zones[decision.zone]) + knowledge.left[decision.zone][decision.left:]
            dealt = _put_back(then, self.seat, decision.zone, hand)
            if dealt is None:
                continue
            past = then.clone()
            past.set_zones(dealt)
            legal = past.legal_actions()
            if decision.action not in legal:
                weight *= self.slack * self.slack
                continue
            choice = self.policy(past, decision.actor, legal, self._rng)
            if choice != decision.action and (
                    self.variant.describe(past, choice, viewer=self.seat) != decision.told):
                weight *= self.slack
        return weight


def _put_back(world: Any, seat: int, zone: str, hand: list[int]) -> dict[str, list[int]] | None:
    """``world``'s hidden zones with ``zone`` holding ``hand`` and the rest of
    its hidden cards in the other hidden zones (sizes kept); ``None`` if
    ``hand`` cannot have been there."""
    zones = world.card_zones()
    names = world.hidden_zones(seat)
    if len(zones[zone]) != len(hand):
        return None
    rest = Counter(card for name in names for card in zones[name])
    rest.subtract(hand)
    if any(count < 0 for count in rest.values()):
        return None
    spare = list(rest.elements())
    dealt = {zone: hand}
    start = 0
    for name in names:
        if name != zone:
            size = len(zones[name])
            dealt[name] = spare[start:start + size]
            start += size
    return dealt
