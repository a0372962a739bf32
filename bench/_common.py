"""What the speed benchmarks share: a timed run, two sides timed interleaved,
installing a reference engine on demand, and driving an OpenSpiel game.

The reference engines (RLCard, OpenSpiel) are never dependencies of cardcli:
a benchmark that wants one installs it into the running interpreter with pip,
and still prints cardcli's own figures when that fails.
"""

from __future__ import annotations

import importlib
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: The clock of in-process measurements: this process's CPU time, so that
#: other work on a shared machine slows the figures less than wall time would.
cpu_clock = time.process_time


@dataclass
class Measurement:
    """One timed run: games played, decisions made, seconds taken."""

    games: int
    decisions: int
    seconds: float

    @property
    def rate(self) -> float:
        """Decisions per second."""
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Comparison:
    """Two sides measured in alternating order, round by round (A B, B A, A B, ...)."""

    a: list[Measurement] = field(default_factory=list)
    b: list[Measurement] = field(default_factory=list)

    @property
    def ratios(self) -> list[float]:
        """Per round, A's decisions per second over B's."""
        return [x.rate / y.rate if y.rate > 0 else math.inf for x, y in zip(self.a, self.b, strict=True)]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)

    @property
    def low(self) -> float:
        return min(self.ratios)

    @property
    def high(self) -> float:
        return max(self.ratios)

    def rate_a(self) -> float:
        return statistics.median(m.rate for m in self.a)

    def rate_b(self) -> float:
        return statistics.median(m.rate for m in self.b)

    def as_dict(self) -> dict:
        return {"ratio_median": round(self.ratio, 3), "ratio_low": round(self.low, 3),
                "ratio_high": round(self.high, 3), "ratios": [round(r, 3) for r in self.ratios],
                "a_rate_median": round(self.rate_a(), 1), "b_rate_median": round(self.rate_b(), 1)}


def interleaved(a: Callable[[], Measurement], b: Callable[[], Measurement], rounds: int) -> Comparison:
    """Run ``a`` and ``b`` ``rounds`` times each, alternating which goes first
    (A B, B A, A B, ...), so that a machine that gets busier or quieter
    during the run weighs on both sides alike."""
    comparison = Comparison()
    for number in range(rounds):
        if number % 2 == 0:
            comparison.a.append(a())
            comparison.b.append(b())
        else:
            comparison.b.append(b())
            comparison.a.append(a())
    return comparison


def best_of(repeats: int, measure: Callable[[], Measurement]) -> Measurement:
    """The fastest of ``repeats`` runs of the same seeded games."""
    return max((measure() for _ in range(max(1, repeats))), key=lambda m: m.rate)


def games_for(sample: Measurement, seconds: float, floor: int) -> int:
    """How many games take about ``seconds``, judging by a sample run."""
    if sample.seconds <= 0:
        return floor
    return max(floor, math.ceil(sample.games * seconds / sample.seconds))


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), to print beside figures."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def module_version(module: str, distribution: str, *also: str) -> str | None:
    """The installed version of ``distribution`` if ``module`` (and ``also``) import, else None."""
    importlib.invalidate_caches()
    try:
        imported = importlib.import_module(module)
        for name in also:
            importlib.import_module(name)
    except Exception:
        return None
    try:
        from importlib.metadata import version

        return version(distribution)
    except Exception:
        return str(getattr(imported, "__version__", "unknown"))


def ensure_reference(module: str, distribution: str, install: bool, *also: str,
                     timeout: float = 900) -> tuple[str | None, str]:
    """Import a reference engine, running ``pip install DISTRIBUTION`` first if it is missing.

    Returns ``(version, note)``; ``version`` is None when it could not be had,
    and ``note`` says why (or how it was had).
    """
    found = module_version(module, distribution, *also)
    if found is not None:
        return found, "already installed"
    if not install:
        return None, f"{distribution} is not installed (and --no-install was given)"
    print(f"{distribution} is missing: running `python -m pip install {distribution}` ...",
          file=sys.stderr, flush=True)
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
                               distribution], capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"pip install {distribution} did not run: {error}"
    if done.returncode != 0:
        print("\n".join((done.stdout + done.stderr).strip().splitlines()[-5:]), file=sys.stderr)
        return None, f"pip install {distribution} failed (exit {done.returncode})"
    found = module_version(module, distribution, *also)
    if found is None:
        return None, f"{distribution} was installed but {module} does not import"
    return found, "installed by this script"


def check_uniform_chance(game_name: str, params: dict | None = None, games: int = 20, seed: int = 0) -> None:
    """Raise unless every chance node met in ``games`` random games has a
    uniform distribution: :func:`open_spiel_random_games` draws chance
    outcomes with one uniform index, which is right only then."""
    import pyspiel

    game = pyspiel.load_game(game_name, params or {})
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probabilities = [p for _, p in outcomes]
                if max(probabilities) - min(probabilities) > 1e-9:
                    raise ValueError(f"{game_name}: a chance node with a non-uniform distribution")
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])


def open_spiel_random_games(game_name: str, games: int, seed: int, params: dict | None = None,
                            clock: Callable[[], float] = cpu_clock) -> Measurement:
    """``games`` games of an OpenSpiel game driven from the fastest plain
    Python loop we know: one ``current_player()`` call per node; at a
    decision, the action at one random index of ``legal_actions()``; at a
    chance node, the outcome at one random index of ``chance_outcomes()``
    (every chance node of the games benched is uniform:
    :func:`check_uniform_chance`).  The rules run in C++, the loop in Python.

    A decision is an action applied where a player is to move (forced ones
    too); chance outcomes are applied but not counted.
    """
    import pyspiel

    game = pyspiel.load_game(game_name, params or {})
    rnd = random.Random(seed).random
    new_state = game.new_initial_state
    chance = int(pyspiel.PlayerId.CHANCE)
    decisions = 0
    started = clock()
    for _ in range(games):
        state = new_state()
        current_player, apply_action = state.current_player, state.apply_action
        legal_actions, chance_outcomes = state.legal_actions, state.chance_outcomes
        while True:
            player = current_player()
            if player >= 0:
                legal = legal_actions()
                apply_action(legal[int(rnd() * len(legal))])
                decisions += 1
            elif player == chance:
                outcomes = chance_outcomes()
                apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                break
    return Measurement(games, decisions, clock() - started)
