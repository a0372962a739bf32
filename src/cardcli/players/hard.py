"""The ``hard`` CPU: search on the variant interface, honest about hidden cards.

Determinized flat Monte Carlo (perfect-information Monte Carlo): each
iteration deals everything the seat cannot see anew, consistently with what it
knows (:meth:`HiddenInfo.determinize`), then plays the game out after each of its
legal moves with a fast policy, the same random stream for every move (common
random numbers: the luck of the deal cancels out of the comparison).  The move
with the best mean value is played.  It never reads another
hand or the stock order: a determinization depends only on what the seat can
see, which ``tests/test_hard.py`` checks by changing the hidden cards.

Written once here, it serves every variant whose states declare the
hidden-information ability (:class:`cardcli.hidden.HiddenInfo`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ..driver import Driver, PolicyPlayer
from ..errors import CardcliError
from ..hidden import HiddenInfo
from ..results import places_value
from ..variant import Action, State, Variant

#: Playouts per decision by default (a seat may ask for more: ``cpu:hard=2000``).
DEFAULT_ITERATIONS = 2000
#: ...but never more than this many seconds by default.
DEFAULT_SECONDS = 0.5
#: The most a seat may ask for: a minute, or about that many playouts on a
#: laptop.  A budget comes from a command line or from a record's header, and
#: a record naming ``hard=100000000s`` must not hang the game that resumes it.
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0
MAX_PLAYOUT_EVENTS = 5000
#: What a rating means (a hint's, ``replay --explain``'s), said under the ratings.
SCALE = "  (100 = sure first place, 0 = sure last)"


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
        raise CardcliError(f"hard CPU budget {text!r}: write a number of playouts (hard=2000, at most "
                           f"{MAX_ITERATIONS:,}) or seconds (hard=1.5s, at most {MAX_SECONDS:g})")

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} playouts")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


@dataclass
class Rating:
    """What the search thinks of one legal move."""

    action: Action
    value: float
    playouts: int


#: How much of a finished game's value is winning it outright (the rest is
#: the place reached).  Mostly winning: a shared, called-off hand is not a win,
#: and valuing it as an average result made the search steer into draws.
WIN_WEIGHT = 0.75


def place_value(state: State, seat: int) -> float:
    """A finished game's value for ``seat``, from 1 (won) to 0 (last).

    Players tied on a place share the places they span (a heads-up draw is
    worth half the place part to each), and only a single winner gets the
    win part.
    """
    result = state.result()
    assert result is not None
    won = 1.0 if result.winner == seat else 0.0
    return WIN_WEIGHT * won + (1 - WIN_WEIGHT) * places_value(result.places, seat)


class HardPlayer:
    """A search-based CPU (see the module docstring)."""

    def __init__(self, variant: Variant, seed: int, seat: int, budget: Budget | None = None,
                 rollout: str | None = None, omniscient: bool = False):
        self.variant = variant
        self.budget = budget or Budget()
        self.rng = random.Random(seed * 1_000_003 + seat)
        # Playouts model the other players with the variant's sensible policy
        # (measured: much stronger than random playouts at equal time).
        if rollout is None:
            rollout = "normal" if "normal" in variant.cpu_levels else variant.cpu_levels[-1]
        self.rollout = variant.cpu_policy(rollout)
        self.omniscient = omniscient  # sees every card: for benchmarks only, never offered in play
        self.last_ratings: list[Rating] = []
        self.decision_seconds: list[float] = []

    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            self.last_ratings = [Rating(legal[0], 0.0, 0)]
            return legal[0]
        started = time.perf_counter()
        self.last_ratings = self.rate(state, seat, legal)
        action = max(self.last_ratings, key=lambda r: (r.value, r.playouts)).action
        self.decision_seconds.append(time.perf_counter() - started)  # real choices only
        return action

    def rate(self, state: State, seat: int, legal: list[Action],
             rng: random.Random | None = None) -> list[Rating]:
        """Mean playout value of each legal move, from ``seat``'s point of view.

        Moves are compared in pairs: each sampled world is played out once
        after every legal move, with the same random stream, so the luck of
        the deal cancels out of the differences between moves.
        """
        rng = rng or self.rng
        count = len(legal)
        totals = [0.0] * count
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        limit = budget.iterations
        worlds = done = 0
        # One driver for every playout, its random source reseeded per playout
        # (the same stream as a fresh ``random.Random(stream)``).
        playout_rng = random.Random()
        driver = Driver(state, [PolicyPlayer(self.rollout, playout_rng)] * state.num_players,
                        rng=playout_rng, history=False)
        while True:
            if limit is not None and done + count > max(limit, count):
                break
            if deadline is not None and worlds and time.perf_counter() >= deadline:
                break
            world = self.imagine(state, seat, rng)
            stream = rng.getrandbits(64)
            for index in range(count):
                trial = world.clone()
                trial.apply_legal(legal[index])
                playout_rng.seed(stream)
                totals[index] += self._play_out(driver, trial, seat)
            worlds += 1
            done += count
        return [Rating(legal[i], totals[i] / worlds if worlds else 0.0, worlds) for i in range(count)]

    def imagine(self, state: Any, seat: int, rng: random.Random) -> State:
        """The world a round of playouts starts from: what ``seat`` cannot see,
        dealt anew (or, for the bench-only omniscient copy, the truth)."""
        return state.clone() if self.omniscient else state.determinize(seat, rng)

    def playout(self, world: State, seat: int, rng: random.Random) -> float:
        """Play ``world`` forward with the fast policy; ``seat``'s value at the end
        (or where the variant's ``rollout_value`` stops it early)."""
        driver = Driver(world, [PolicyPlayer(self.rollout, rng)] * world.num_players, rng=rng, history=False)
        return self._play_out(driver, world, seat)

    @staticmethod
    def _play_out(driver: Driver[State], world: Any, seat: int) -> float:
        """One playout of ``world`` through ``driver`` (its players seated)."""
        driver.reset(world)
        if type(world).rollout_value is HiddenInfo.rollout_value:  # it never stops early
            driver.advance(MAX_PLAYOUT_EVENTS)
        else:
            driver.advance(MAX_PLAYOUT_EVENTS, rollout_seat=seat)
            early = world.rollout_value(seat)
            if early is not None:
                return early
        return place_value(world, seat) if world.is_terminal() else 0.5


def supports_hard(variant: Variant[Any], state: State) -> bool:
    """Whether the variant's states say what each seat can see (the
    hidden-information ability), which is all ``hard`` needs."""
    return isinstance(state, HiddenInfo)
