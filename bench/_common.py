"""What the speed benchmarks share: a timed run, picking the best of several,
installing a reference engine on demand, and driving an OpenSpiel game.

The reference engines (RLCard, OpenSpiel) are never dependencies of cardcli:
a benchmark that wants one installs it into the running interpreter with pip,
and still prints cardcli's own figures when that fails.
"""

from __future__ import annotations

import importlib
import math
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass


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


def best_of(repeats: int, measure: Callable[[], Measurement]) -> Measurement:
    """The fastest of ``repeats`` runs of the same seeded games."""
    return max((measure() for _ in range(max(1, repeats))), key=lambda m: m.rate)


def games_for(sample: Measurement, seconds: float, floor: int) -> int:
    """How many games take about ``seconds``, judging by a sample run."""
    if sample.seconds <= 0:
        return floor
    return max(floor, math.ceil(sample.games * seconds / sample.seconds))


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


def open_spiel_random_games(game_name: str, games: int, seed: int,
                            params: dict | None = None) -> Measurement:
    """``games`` games of an OpenSpiel game driven from a plain Python loop:
    chance outcomes drawn from their distribution, decisions uniformly at
    random among the legal actions (the rules run in C++, the loop in Python)."""
    import pyspiel

    game = pyspiel.load_game(game_name, params or {})
    rng = random.Random(seed)
    randrange, choices = rng.randrange, rng.choices
    decisions = 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(actions, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
                decisions += 1
    return Measurement(games, decisions, time.perf_counter() - started)
