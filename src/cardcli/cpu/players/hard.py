"""The ``hard`` CPU: search over what its seat knows, strength set by playouts.

Each decision is an information-set tree search (:mod:`cardcli.cpu.players.ismcts`)
over deals imagined from what the seat knows (:mod:`cardcli.unseen.knowledge`): the
hard CPU follows its game event by event (it is a
:class:`~cardcli.engine.driver.Follower`), so it remembers what the table showed
earlier (a suit a player had to draw to follow, the cards a rebuilt stock
was made of), not only what the table shows now.  It never reads another
hand or the stock: everything it imagines comes from its seat's view, which
the conformance kit checks by dealing the hidden cards anew before its
choices (:class:`cardcli.testing.checks.BlindCheck`).

Its strength is its budget in playouts: ``cpu:hard=N`` spends exactly ``N``
(at most, in whole rounds), so a game is repeatable from its seed.  The
default budget adds a clock, a safety stop for a slow machine that should
seldom be reached (``bench/bench_hard.py`` counts how often it is).

Written once here, it serves every variant whose states declare the
hidden-information ability (:class:`cardcli.contract.hidden.HiddenInfo`).
"""

from __future__ import annotations

import random
import time
from bisect import bisect
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from ...contract.hidden import HiddenInfo
from ...contract.variant import Action, State, Variant
from ...engine.driver import Driver, Follower, PolicyPlayer
from ...kit.errors import CardcliError
from ...kit.language import N_
from ...kit.language import core as _
from ...kit.results import WIN_WEIGHT
from ...unseen.knowledge import Knowledge, Reading, redeal
from .ismcts import MAX_PLAYOUT_EVENTS, Search, place_value, play_out

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_SECONDS", "MAX_ITERATIONS", "MAX_PLAYOUT_EVENTS", "MAX_SECONDS",
           "WIN_WEIGHT", "Budget", "HardPlayer", "Rating", "place_value", "supports_hard"]

#: Playouts per decision by default (a seat may ask for more: ``cpu:hard=2000``).
DEFAULT_ITERATIONS = 600
#: ...and a clock that stops a decision on a slow or busy machine.
DEFAULT_SECONDS = 1.5
#: The most a seat may ask for: a minute, or about that many playouts on a
#: laptop.  A budget comes from a command line or from a record's header, and
#: a record naming ``hard=100000000s`` must not hang the game that resumes it.
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0
#: Imagined deals weighed by the opponent model per decision (when it reads).
PARTICLES = 128
#: What a rating means (a hint's, ``replay --explain``'s), said under the ratings.
#: Shown through the core's catalog: ``_(SCALE)``.
SCALE = N_("  (100 = sure first place, 0 = sure last)")


@dataclass(frozen=True)
class Budget:
    """How much thinking a decision gets: playouts, seconds, or both (first reached)."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = DEFAULT_SECONDS

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """``None`` (the default), ``"2000"`` (playouts, exactly: deterministic) or ``"1.5s"``."""
        if not text:
            return cls()
        try:
            if text.endswith("s"):
                seconds = float(text[:-1])
                if 0 < seconds <= MAX_SECONDS:
                    return cls(iterations=None, seconds=seconds)
            elif 0 < int(text) <= MAX_ITERATIONS:
                return cls(iterations=int(text), seconds=None)
        except ValueError:
            pass
        raise CardcliError(_("hard CPU budget {text}: write a number of playouts (hard=2000, at most "
                             "{most:,}) or seconds (hard=1.5s, at most {seconds:g})").format(
                                 text=repr(text), most=MAX_ITERATIONS, seconds=MAX_SECONDS))

    def describe(self) -> str:
        """The budget as a person reads it: ``600 playouts or 1.5 s``."""
        playouts = None if self.iterations is None else _("{count} playouts").format(count=self.iterations)
        seconds = None if self.seconds is None else _("{seconds:g} s").format(seconds=self.seconds)
        if playouts is not None and seconds is not None:
            # Translators: a search's budget, whichever is reached first ("600 playouts or 1.5 s").
            return _("{playouts} or {seconds}").format(playouts=playouts, seconds=seconds)
        return playouts or seconds or ""


@dataclass
class Rating:
    """What the search thinks of one legal move."""

    action: Action
    value: float
    playouts: int
    #: Its playout values by imagined deal (:func:`~cardcli.cpu.players.ismcts.paired_gap`).
    values: dict[int, float] = field(default_factory=dict, repr=False)


class HardPlayer(Follower):
    """A search-based CPU (see the module docstring).

    ``follow=False`` forgets earlier events (it knows only what the table
    shows now), ``read=True`` weighs the imagined deals by how well they
    explain the other seats' recent moves (:class:`cardcli.unseen.knowledge.Reading`),
    ``depth=False`` searches no deeper than the root (every later choice as
    the policy would make it: flat Monte Carlo), ``halving=False`` spends the
    budget evenly on every move: the settings ``bench/bench_hard.py``
    compares; ``search`` overrides the search's own settings
    (:class:`~cardcli.cpu.players.ismcts.Search`'s ``exploration`` and
    ``prior_weight``), for the bench's ``--search``.  ``omniscient`` sees
    every card: for benchmarks only, never offered in play.
    """

    def __init__(self, variant: Variant[Any], seed: int, seat: int, budget: Budget | None = None,
                 rollout: str | None = None, omniscient: bool = False, *, follow: bool = True,
                 read: bool = False, depth: bool = True, halving: bool = True,
                 search: dict[str, float] | None = None):
        self.variant = variant
        self.seat = seat
        self.budget = budget or Budget()
        self.rng = random.Random(seed * 1_000_003 + seat)
        # Playouts model every player with the variant's sensible policy
        # (measured: much stronger than random playouts at equal time).
        if rollout is None:
            rollout = "normal" if "normal" in variant.cpu_levels else variant.cpu_levels[-1]
        self.rollout = variant.cpu_policy(rollout)
        self.omniscient = omniscient
        self.depth = depth
        self.halving = halving
        self.search = dict(search or {})
        self.knowledge: Knowledge | None = Knowledge(seat) if follow else None
        self.reading = Reading(variant, seat, self.rollout) if read and follow else None
        self._next_event = 0
        self._followed = False
        self._worlds: tuple[list[Any], list[float]] | None = None
        self._using: Knowledge | None = None
        self.last_ratings: list[Rating] = []
        #: Seconds spent on each real choice (more than one legal move).
        self.decision_seconds: list[float] = []
        #: How many of those the clock stopped before the playout budget was spent.
        self.clock_stops = 0

    # ------------------------------------------------------------ following
    def observe(self, state: Any, seat: int, action: Action, event: int) -> None:
        """The driver's news of each event: the seat's view of it, nothing more."""
        knowledge = self.knowledge
        if knowledge is None:
            return
        if event != self._next_event:  # events missed: start again from what the table shows
            knowledge = self.knowledge = Knowledge(self.seat)
            if self.reading is not None:
                self.reading.decisions.clear()
        self._next_event = event + 1
        knowledge.observe(state)
        self._followed = True
        if self.reading is not None:
            self.reading.observe(state, seat, action, knowledge)

    def knowledge_of(self, state: Any, seat: int) -> Knowledge:
        """What ``seat`` knows in ``state``: followed through the game when
        this player has followed it from that seat, else what the table shows."""
        if self._followed and seat == self.seat and self.knowledge is not None:
            self.knowledge.observe(state)  # the last event, not yet told
            return self.knowledge
        return Knowledge.from_state(state, seat)

    # -------------------------------------------------------------- deciding
    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            self.last_ratings = [Rating(legal[0], 0.0, 0)]
            return legal[0]
        started = time.perf_counter()
        self.last_ratings = self.rate(state, seat, legal)
        # The move the search kept longest (sequential halving), then the best mean.
        action = max(self.last_ratings, key=lambda r: (r.playouts, r.value)).action
        self.decision_seconds.append(time.perf_counter() - started)  # real choices only
        return action

    def rate(self, state: State, seat: int, legal: list[Action],
             rng: random.Random | None = None) -> list[Rating]:
        """What the search makes of each legal move, from ``seat``'s point of
        view: its mean value (1 for a sure win, 0 for a sure last place) and
        the playouts it got."""
        rng = rng or self.rng
        self._prepare(state, seat, rng)
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        search = Search(self.rollout, seat, state.num_players, depth=self.depth, halving=self.halving,
                        **self.search)
        edges = search.rate(legal, lambda: self.imagine(state, seat, rng), lambda: rng.getrandbits(64),
                            budget.iterations, deadline)
        if search.stopped_by_clock:
            self.clock_stops += 1
        self._worlds = self._using = None
        return [Rating(action, edge.mean, edge.visits, values)
                for action, edge, values in zip(legal, edges, search.root_values)]

    def _prepare(self, state: Any, seat: int, rng: random.Random) -> None:
        """The knowledge the decision's deals come from, and, when reading the
        other players, a weighed set of deals to draw from."""
        if self.omniscient:
            return
        self._using = knowledge = self.knowledge_of(state, seat)
        if self.reading is None or knowledge is not self.knowledge:
            return
        decisions = self.reading.readable(knowledge)
        if decisions:
            worlds = [redeal(state, seat, rng, knowledge) for _ in range(PARTICLES)]
            weights = list(accumulate(self.reading.weight(w, decisions, knowledge) for w in worlds))
            self._worlds = (worlds, weights)

    def imagine(self, state: Any, seat: int, rng: random.Random) -> State:
        """The world a round of playouts starts from: what ``seat`` cannot see,
        dealt anew as it knows it (or, for the bench-only omniscient copy,
        the truth)."""
        if self.omniscient:
            return state.clone()
        if self._worlds is not None:
            worlds, weights = self._worlds
            return worlds[bisect(weights, rng.random() * weights[-1])]
        return redeal(state, seat, rng, self._using or Knowledge.from_state(state, seat))

    def playout(self, world: State, seat: int, rng: random.Random) -> float:
        """Play ``world`` forward with the fast policy; ``seat``'s value at the end
        (or where the variant's ``rollout_value`` or ``playout_estimate`` stops it)."""
        driver = Driver(world, [PolicyPlayer(self.rollout, rng)] * world.num_players, rng=rng, history=False)
        return play_out(driver, world, seat)


def supports_hard(variant: Variant[Any], state: State) -> bool:
    """Whether the variant's states say what each seat can see (the
    hidden-information ability), which is all ``hard`` needs."""
    return isinstance(state, HiddenInfo)
