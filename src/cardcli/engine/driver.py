"""The one game driver: every use of the engine moves a state through it.

A :class:`Driver` owns a :class:`~cardcli.contract.variant.State` and knows, per seat,
who decides there: a *player* (anything with ``act(state, seat, legal)``: a
CPU, a person at the terminal whose ``act`` blocks on input) or nobody
(``None``), an *external* seat whose decision arrives from outside (a remote
player of a server) through :meth:`Driver.submit`.  Chance comes from the
driver's ``rng``.

Two ways to drive:

* **Run to the end** - :meth:`Driver.run`: chance and players until the game
  is over (simulate, arena, hard's playouts, the conformance suite, a game at
  the terminal).
* **Step** - :meth:`Driver.advance` applies chance events and players'
  decisions until an external seat must decide (or the game is over) and
  returns that seat; :meth:`Driver.submit` applies that seat's action,
  checked against the rules.  For finer control, :meth:`Driver.decide` asks
  for the next event without applying it (a slow CPU may think in a worker
  thread) and :meth:`Driver.apply` applies one.

**Hooks** (:class:`Hook`) add what a use needs, without another loop:
``deciding`` before a seat decides, ``before`` an event is applied (the state
as it was: encode the record line, describe the event to each viewer) and
``after`` it (the state as it is now: write the line, check the cards).

**History**: every action applied is appended to :attr:`Driver.history`, the
one record of how the game got here.  A driver given ``fresh`` (what makes
the state before the first event) walks it: :meth:`Driver.state_after` and
:meth:`Driver.walk` (a :class:`Walk`, one state moved along the history) give
replay's frames, a resumed game's recap and any "go to move N".  A use that
never looks back (a simulation without records, a playout) may pass
``history=False``: keeping every action alive costs about 2% of a fast
game's time (``bench/bench_driver.py``).

With no hooks and ``checked=False`` the driver runs one tight loop, as fast
as the hand-written loops it replaced (``bench/bench_driver.py`` measures it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from typing import Any, Generic, Protocol, TypeVar

from ..contract.hidden import HiddenInfo
from ..contract.variant import CHANCE, TERMINAL, Action, Policy, State
from ..kit.errors import CardcliError, IllegalMove
from ..kit.language import core as _
from ..kit.results import Result

S = TypeVar("S", bound=State)


class Player(Protocol):
    """Whoever decides at a seat.  ``act`` may block (a person typing) or take
    a while (a searching CPU); it must not change ``state``."""

    def act(self, state: Any, seat: int, legal: list[Action]) -> Action: ...


class Hook:
    """Observes a driver's events.  Subclass and override what you need; every
    method does nothing by default.  Hooks run in the order they were added.

    ``seat`` is the deciding seat, or ``CHANCE`` for a chance event.
    """

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Action]) -> None:
        """``seat`` is about to decide among ``legal``: called before a player's
        ``act``, and once when :meth:`Driver.advance` stops at an external seat."""

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        """``action`` is about to be applied (already checked, if checking):
        ``driver.state``, ``moves`` and ``events`` are as before it."""

    def after(self, driver: Driver[Any], seat: int, action: Action) -> None:
        """``action`` was applied: ``driver.state``, ``moves``, ``events`` and
        ``history`` include it."""

    def saved(self, driver: Driver[Any]) -> object:
        """What this hook needs to come back to this moment when the driver
        takes an event back (:meth:`Driver.pop`): asked before each event of
        a driver that keeps undo.  Default: nothing (a hook with nothing of
        its own to take back)."""
        return None

    def restore(self, driver: Driver[Any], saved: object) -> None:
        """Come back to what :meth:`saved` gave: the driver took back the
        events since (``driver.state`` is already as it was then)."""


class Follower:
    """A player told of every event of its game as it happens: the driver
    calls :meth:`observe` before applying each event, with the state as it
    was, the seat acting (``CHANCE`` for the deck) and the action.

    The state is the real one, hidden cards and all; a follower must read
    only what its own seat may know (the hard CPU reads its seat's view of
    the state and other seats' decisions, never a chance outcome).
    ``event`` numbers the events of the game from 0, so a follower can
    tell when it missed some.
    """

    def observe(self, state: Any, seat: int, action: Action, event: int) -> None:
        """Called before the ``event``-th event, ``action`` by ``seat``, is applied to ``state``."""


class PolicyPlayer:
    """A policy (``(state, seat, legal, rng) -> action``) with its random
    source, as a player.  Its ``policy`` and ``rng`` are read when it is
    seated in a driver."""

    def __init__(self, policy: Policy, rng: random.Random):
        self.policy = policy
        self.rng = rng

    def act(self, state: Any, seat: int, legal: list[Action]) -> Action:
        return self.policy(state, seat, legal, self.rng)


def _through_act(act: Callable[[Any, int, list[Action]], Action]) -> Policy:
    def policy(state: Any, seat: int, legal: list[Action], rng: random.Random | None) -> Action:
        return act(state, seat, legal)
    return policy


class ExternalTurn(CardcliError):
    """An external seat must decide: the driver cannot make the next event
    itself (:meth:`Driver.decide`, :meth:`Driver.run`)."""


class Driver(Generic[S]):
    """Moves ``state`` forward: chance from ``rng``, decisions from ``players``.

    ``players[seat]`` is a :class:`Player` or ``None`` (external: see
    :meth:`submit`); by default every seat is external.  ``checked=True``
    checks even the driver's own events against the rules (slower; the
    record-writing paths do it), while :meth:`submit` always checks.

    :attr:`moves` counts decisions applied, :attr:`events` every event
    (decisions and chance), :attr:`history` holds the actions in order
    (unless ``history=False``: then it stays empty).

    One driver belongs to one thread at a time: a server running
    :meth:`advance` in a worker thread must not touch the same table from
    another until it returns (use :meth:`decide` in the thread and
    :meth:`apply` on the event loop to keep every change on one thread).
    """

    def __init__(self, state: S, players: Sequence[Player | None] | None = None, *,
                 rng: random.Random | None = None, hooks: Iterable[Hook] = (), checked: bool = False,
                 history: bool = True, fresh: Callable[[], S] | None = None, undo: bool = False):
        self.state: S = state
        #: What :meth:`pop` comes back to, newest last (``None``: no undo kept).
        self._undo: list[_Saved] | None = [] if undo else None
        #: Makes the state before the first event, to rebuild from the history.
        self.fresh = fresh
        self.rng = rng if rng is not None else random.Random()
        self.hooks: list[Hook] = list(hooks)
        self.checked = checked
        self.history: list[Action] = []
        self.keeps_history = history
        self.moves = 0
        self.events = 0
        self._asked = -1  # the event count at which ``deciding`` last ran for an external seat
        self.players = players if players is not None else [None] * state.num_players

    @property
    def players(self) -> list[Player | None]:
        return self._players

    @players.setter
    def players(self, players: Sequence[Player | None]) -> None:
        self._players = seated = list(players)
        # The hot loop calls a policy with its random source: a PolicyPlayer's
        # own, or any other player's ``act`` through an adapter.
        policies: list[Policy | None] = []
        rngs: list[Any] = []  # a policy's random source (None for the adapter)
        for player in seated:
            if player is None:
                policies.append(None)
                rngs.append(None)
            elif type(player).act is PolicyPlayer.act:
                policies.append(player.policy)  # type: ignore[attr-defined]
                rngs.append(player.rng)  # type: ignore[attr-defined]
            else:
                policies.append(_through_act(player.act))
                rngs.append(None)
        self._policies, self._rngs = policies, rngs
        followers: list[Follower] = []
        for player in seated:
            if isinstance(player, Follower):
                followers.append(player)
        self._followers = followers

    def reset(self, state: S) -> None:
        """Drive ``state`` from now on, with the same players, random source
        and hooks; history and counters start afresh (search reuses one
        driver for its many playouts)."""
        self.state = state
        self.history = []
        self.moves = self.events = 0
        self._asked = -1
        if self._undo is not None:
            self._undo = []

    # ---------------------------------------------------------- inspection
    def to_move(self) -> int:
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        return self.state.current_player()

    def is_external(self, seat: int) -> bool:
        """Whether ``seat``'s decisions come from outside (through :meth:`submit`)."""
        return self._players[seat] is None

    def waiting_for(self) -> int | None:
        """The external seat that must decide now, or ``None``."""
        seat = self.state.current_player()
        return seat if seat >= 0 and self._players[seat] is None else None

    def result(self) -> Result | None:
        return self.state.result()

    # ------------------------------------------------------------- one step
    def decide(self) -> Action:
        """The next event the driver makes itself, not yet applied: a chance
        outcome from ``rng``, or the choice of the player in the seat to move
        (``deciding`` hooks run first).  Raises :class:`ExternalTurn` at an
        external seat, ``IllegalMove`` when the game is over."""
        state = self.state
        seat = state.current_player()
        if seat == CHANCE:
            return state.sample_chance(self.rng)
        if seat == TERMINAL:
            raise IllegalMove(_("the game is over"))
        player = self._players[seat]
        if player is None:
            raise ExternalTurn(f"seat {seat} is external: its decision comes through submit()")
        legal = state.legal_actions()
        for hook in self.hooks:
            hook.deciding(self, seat, legal)
        return player.act(state, seat, legal)

    def apply(self, action: Action, *, checked: bool = True) -> None:
        """Apply ``action`` (a decision or a chance outcome) at the current node.

        With ``checked`` (the default) the rules check it first: an illegal
        action raises :class:`~cardcli.kit.errors.IllegalMove` before any hook
        runs and leaves the state, the history and the counters unchanged.
        ``checked=False`` trusts an action taken from this very state's
        ``legal_actions``/``sample_chance``.
        """
        state = self.state
        seat = state.current_player()
        if checked:
            state.check(action)
        self.apply_known(action, seat)

    def apply_known(self, action: Action, seat: int, *, saved: _Saved | None = None) -> None:
        """Apply ``action``, already checked (or taken from this state's own
        lists), at a node where ``seat`` acts (``CHANCE`` for a chance
        event): the hooks, the history and the counters, as :meth:`apply`
        does after its check.  The record reader calls it directly.

        A driver that keeps undo remembers the moment before (``saved``, if
        the caller took it before changing the state itself: :meth:`save`).
        """
        if self._undo is not None:
            self._apply_undoable(action, seat, saved)
            return
        state = self.state
        for follower in self._followers:
            follower.observe(state, seat, action, self.events)
        hooks = self.hooks
        if hooks:
            for hook in hooks:
                hook.before(self, seat, action)
        self.state.apply_legal(action)
        if self.keeps_history:
            self.history.append(action)
        if seat >= 0:
            self.moves += 1
        self.events += 1
        if hooks:
            for hook in hooks:
                hook.after(self, seat, action)

    def _apply_undoable(self, action: Action, seat: int, saved: _Saved | None) -> None:
        """:meth:`apply_known` on a driver that keeps undo: the moment before is
        kept, and if a hook fails midway (a reader's check of what the table
        saw) the event is taken back at once.  The event itself is applied by
        :meth:`apply_known` with the undo stack set aside for that call (so
        the plain path pays nothing for undo)."""
        undo = self._undo
        assert undo is not None
        saved = saved if saved is not None else self.save()
        events = self.events
        self._undo = None
        try:
            self.apply_known(action, seat)
        except BaseException:
            self.restore(saved)
            if self.events > events:
                self._count_back()
            raise
        finally:
            self._undo = undo
        undo.append(saved)

    # ------------------------------------------------------------- push, pop
    # As python-chess's Board.push and pop: the driver owns the history and
    # can take events back.  A driver made with ``undo=True`` keeps, per
    # event, a copy of the state before it and what each hook needs to come
    # back (:meth:`Hook.saved`); a driver without (a simulation, a playout)
    # keeps nothing and pays nothing.

    @property
    def keeps_undo(self) -> bool:
        """Whether :meth:`pop` can take events back (the driver was made with ``undo=True``)."""
        return self._undo is not None

    def push(self, action: Action, *, checked: bool = True) -> None:
        """Apply ``action`` so that :meth:`pop` can take it back: :meth:`apply`
        (checked by default) on a driver that keeps undo."""
        if self._undo is None:
            raise TypeError("this driver keeps no undo: make it with undo=True to push and pop")
        self.apply(action, checked=checked)

    def save(self) -> _Saved:
        """The moment as it is: a copy of the state and each hook's own (for
        :meth:`apply_known`'s ``saved`` and :meth:`replace_state`)."""
        return _Saved(self.state.clone(), [(hook, hook.saved(self)) for hook in self.hooks
                                           if type(hook).saved is not Hook.saved])

    def mark(self) -> int:
        """A point to come back to with :meth:`rollback` (an entry's start)."""
        if self._undo is None:
            raise TypeError("this driver keeps no undo: make it with undo=True")
        return len(self._undo)

    def pop(self) -> Action:
        """Take back the last event: the state, the history, the counters and
        each hook's own come back to the moment before it.  Returns the
        action taken back."""
        if not self._undo:
            raise IndexError("no event to take back" if self._undo is not None else
                             "this driver keeps no undo: make it with undo=True to push and pop")
        while True:
            saved = self._undo.pop()
            self.restore(saved)
            if not saved.replaced:
                break
        return self._count_back()

    def _count_back(self) -> Action:
        """The history and counters without the last event (the state is already as before it)."""
        action = self.history.pop() if self.keeps_history else None
        if self.state.current_player() >= 0:
            self.moves -= 1
        self.events -= 1
        self._asked = -1
        return action

    def rollback(self, mark: int) -> None:
        """Back to :meth:`mark`: every event and state replacement since is taken back."""
        undo = self._undo
        if undo is None:
            raise TypeError("this driver keeps no undo: make it with undo=True")
        while len(undo) > mark:
            if undo[-1].replaced:
                self.restore(undo.pop())
            else:
                self.pop()

    def replace_state(self, state: S) -> None:
        """Go on from ``state`` in place of the current one, with the same
        history (a reading of a real table learns, from the next line, what
        the rules did with a card nobody saw); :meth:`pop` and
        :meth:`rollback` undo it."""
        if self._undo is not None:
            saved = self.save()
            saved.replaced = True
            self._undo.append(saved)
        self.state = state
        self._asked = -1

    def restore(self, saved: _Saved) -> None:
        """Back to a moment :meth:`save` took, for a caller that changed the
        state itself before applying an event it then found illegal (the
        history and counters are not touched: see :meth:`pop`)."""
        self.state = saved.state
        for hook, token in saved.hooks:
            hook.restore(self, token)

    def step(self) -> Action:
        """Decide and apply one event the driver makes itself; return it."""
        action = self.decide()
        self.apply(action, checked=self.checked)
        return action

    def submit(self, seat: int, action: Action) -> None:
        """Apply a decision that came from outside for ``seat``, checked against
        the rules.  Raises :class:`~cardcli.kit.errors.IllegalMove` (and changes
        nothing) when it is not ``seat``'s turn or the rules forbid it."""
        current = self.state.current_player()
        if current != seat:
            if current == TERMINAL:
                raise IllegalMove(_("the game is over"))
            if current == CHANCE:
                # Translators: whose turn it is instead: the deck's (a deal, a draw), after "it is not seat
                # 1's turn".
                whose = _("it is the deck's (a chance event)")
            else:
                whose = _("it is seat {seat}'s").format(seat=current)
            raise IllegalMove(_("it is not seat {seat}'s turn").format(seat=seat), whose)
        self.apply(action, checked=True)

    # ------------------------------------------------------------ many steps
    def advance(self, limit: int | None = None, *, rollout_seat: int | None = None,
                decisions: list[Action] | None = None) -> int:
        """Apply chance events and players' decisions until an external seat
        must decide or the game is over; return ``to_move()`` then.

        ``limit`` caps the events applied by this call.  ``rollout_seat``
        makes it a search's playout: the call applies no event past a
        position where ``state.rollout_value(rollout_seat)`` gives a value
        (the end of a round of a long match, say), the one it starts from
        included (a search's own move may have ended the round).  At an
        external seat the ``deciding`` hooks run once for that decision.
        ``decisions``, when given, gets every decision this call applies, in
        order (a search keys what it saw the other seats do by them).

        With no hooks and no checks this runs the hot loop, which keeps
        :attr:`moves` and :attr:`events` in local variables until it
        returns: players may read the state and :attr:`history`, not those
        counters.
        """
        if not self.hooks and not self.checked and not self._followers and self._undo is None:
            return self._advance_plain(limit, rollout_seat, decisions)
        state = self.state
        current_player = state.current_player
        players = self._players
        done = 0
        if rollout_seat is not None and _rollout_value(state, rollout_seat) is not None:
            return current_player()
        while True:
            seat = current_player()
            if seat == TERMINAL:
                return seat
            if seat >= 0 and players[seat] is None:
                if self._asked != self.events:
                    self._asked = self.events
                    legal = state.legal_actions()
                    for hook in self.hooks:
                        hook.deciding(self, seat, legal)
                return seat
            if limit is not None and done >= limit:
                return seat
            action = self.decide()
            self.apply(action, checked=self.checked)
            if decisions is not None and seat >= 0:
                decisions.append(action)
            done += 1
            if rollout_seat is not None and _rollout_value(state, rollout_seat) is not None:
                return current_player()

    def _advance_plain(self, limit: int | None, rollout_seat: int | None,
                       decisions: list[Action] | None = None) -> int:
        """:meth:`advance` with no hooks and no checks: the hot loop.

        A :class:`PolicyPlayer`'s policy is called directly (one call a
        decision, not two).
        """
        if limit is None and rollout_seat is None and not self.keeps_history and decisions is None:
            return self._run_bare()
        state = self.state
        current_player = state.current_player
        legal_actions = state.legal_actions
        apply_legal = state.apply_legal
        sample_chance = state.sample_chance
        rollout_value = state.rollout_value if isinstance(state, HiddenInfo) else _no_rollout_value
        remember = self.history.append if self.keeps_history else None
        policies, rngs, rng = self._policies, self._rngs, self.rng
        if rollout_seat is not None and rollout_value(rollout_seat) is not None:
            return current_player()
        moves = events = 0
        try:
            for _ in repeat(None) if limit is None else repeat(None, limit):
                seat = current_player()
                if seat >= 0:
                    policy = policies[seat]
                    if policy is None:
                        break
                    action = policy(state, seat, legal_actions(), rngs[seat])
                    moves += 1
                    if decisions is not None:
                        decisions.append(action)
                elif seat == CHANCE:
                    action = sample_chance(rng)
                else:
                    break
                apply_legal(action)
                events += 1
                if remember is not None:
                    remember(action)
                if rollout_seat is not None and rollout_value(rollout_seat) is not None:
                    break
        finally:
            self.moves += moves
            self.events += events
        return current_player()

    def _run_bare(self) -> int:
        """The plain loop with nothing to count, stop or keep: the to-the-end
        run of a simulation, whose every check per event shows in its speed."""
        state = self.state
        current_player = state.current_player
        legal_actions = state.legal_actions
        apply_legal = state.apply_legal
        sample_chance = state.sample_chance
        policies, rngs, rng = self._policies, self._rngs, self.rng
        moves = events = 0
        try:
            while True:
                seat = current_player()
                if seat >= 0:
                    policy = policies[seat]
                    if policy is None:
                        break
                    action = policy(state, seat, legal_actions(), rngs[seat])
                    moves += 1
                elif seat == CHANCE:
                    action = sample_chance(rng)
                else:
                    break
                apply_legal(action)
                events += 1
        finally:
            self.moves += moves
            self.events += events
        return seat

    def run(self, limit: int | None = None) -> Result | None:
        """Play to the end (at most ``limit`` events); the result, or ``None``
        if the limit was reached first.  Every seat must have a player."""
        seat = self.advance(limit)
        if seat >= 0 and self._players[seat] is None:
            raise ExternalTurn(f"seat {seat} is external: run() needs a player in every seat "
                              "(use advance() and submit())")
        return self.state.result()


    # ------------------------------------------------------------- history
    def state_after(self, events: int) -> S:
        """A new state after the first ``events`` events of the history
        (:attr:`state` is left alone).  Needs ``fresh``."""
        return self.walk().to(events)

    def walk(self) -> Walk[S]:
        """A :class:`Walk` along this driver's history, from the start."""
        if self.fresh is None:
            raise TypeError("this driver was made without 'fresh', so it cannot rebuild its history")
        return Walk(self.fresh, self.history)


class Walk(Generic[S]):
    """One state moved along a history of actions: forward event by event, and
    back to the start (a fresh state) to go back.  The one way the core
    rebuilds a position from a history: replay's frames, a resumed game's
    recap, ``Driver.state_after``.

    ``state`` is the walk's own and changes as it moves: copy it to keep it.
    """

    def __init__(self, fresh: Callable[[], S], history: Sequence[Action]):
        self.fresh = fresh
        self.history = history
        self.state: S = fresh()
        self.at = 0  # events of the history applied to ``state``

    def to(self, events: int) -> S:
        """The state after the first ``events`` events of the history."""
        if events < self.at:
            self.state, self.at = self.fresh(), 0
        apply_legal = self.state.apply_legal
        for action in self.history[self.at:events]:
            apply_legal(action)
        self.at = events
        return self.state

    def events(self, start: int, stop: int | None = None) -> list[tuple[S, Action]]:
        """The events ``start`` to ``stop`` (the end) of the history, each with a
        copy of the state as it was before it: what ``describe_events`` and
        ``replay --explain`` read."""
        stop = len(self.history) if stop is None else stop
        state = self.to(start).clone()
        pairs = []
        for action in self.history[start:stop]:
            pairs.append((state.clone(), action))
            state.apply_legal(action)
        return pairs

    def decisions(self) -> list[int]:
        """The index in the history of every event at which a seat decided
        (not chance), from one pass over it."""
        state = self.fresh()
        found = []
        for index, action in enumerate(self.history):
            if state.current_player() >= 0:
                found.append(index)
            state.apply_legal(action)
        return found


class _Saved:
    """A moment a driver that keeps undo can come back to."""

    __slots__ = ("hooks", "replaced", "state")

    def __init__(self, state: Any, hooks: list[tuple[Hook, object]]):
        self.state = state
        self.hooks = hooks
        self.replaced = False  # the moment before a state replacement, not before an event


def _rollout_value(state: State, seat: int) -> float | None:
    return state.rollout_value(seat) if isinstance(state, HiddenInfo) else None


def _no_rollout_value(seat: int) -> None:
    return None


class DecisionClock(Hook):
    """Times each seat's decisions: from ``deciding`` to ``before``, per seat."""

    def __init__(self, num_players: int, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock
        self.seconds = [0.0] * num_players
        self.decisions = [0] * num_players
        self._started = 0.0

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Action]) -> None:
        self._started = self.clock()

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        if seat >= 0:
            self.seconds[seat] += self.clock() - self._started
            self.decisions[seat] += 1
