"""Measuring strength: CPU players against each other, seats rotated.

Game ``i`` seats player ``p`` in seat ``(p + i) % n``, so over a multiple of
``n`` games every player sits in every seat equally often and no one gains
from acting first.  Results are reported per player (not per seat), with a
95% Wilson score interval on each win rate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..contract.variant import Action, State, Variant
from ..engine.driver import DecisionClock, Driver, Hook
from ..engine.game import choose_dealer, derive_seed
from ..engine.plugins import get_registry
from ..kit.rand import seeded
from ..kit.record_format import SeatInfo
from .parallel import Backend, LocalBackend, chunks
from .players import make_cpu, split_level

Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).  ``wins``
    may be a total score of values between 0 and 1 (ties shared): the interval
    is then conservative, a score varying no more than wins and losses do."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaGame:
    index: int
    order: list[int]  # order[seat] = player index
    places: list[int]
    winner: int | None
    scores: list[int] | None
    seconds: list[float]  # per seat: time spent deciding
    decisions: list[int]  # per seat


def play_timed(variant: Variant, rules: dict, seats: Sequence[SeatInfo], seed: int) -> ArenaGame:
    """One game, timing every decision of every seat."""
    n = len(seats)
    state = variant.new_state(rules, n, choose_dealer(seed, n))
    players = [make_cpu(variant, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    clock = DecisionClock(n)
    result = Driver(state, players, rng=seeded(derive_seed(seed, "chance")), hooks=[clock]).run()
    assert result is not None
    return ArenaGame(0, [], result.places, result.winner, result.scores, clock.seconds, clock.decisions)


#: One worker's share: variant, rules, players, seed, game numbers.
_Chunk = tuple[str, dict, list[SeatInfo], int, Sequence[int]]


def _play_chunk(args: _Chunk) -> list[ArenaGame]:
    variant_name, rules, players, run_seed, indices = args
    variant = get_registry().get(variant_name)
    n = len(players)
    done = []
    for index in indices:
        order = [(seat + index) % n for seat in range(n)]
        seats = [SeatInfo(players[p].name, players[p].kind) for p in order]
        game = play_timed(variant, rules, seats, derive_seed(run_seed, "arena", index))
        game.index, game.order = index, order
        done.append(game)
    return done


@dataclass
class PlayerStats:
    name: str
    kind: str
    games: int = 0
    wins: int = 0
    places: int = 0
    seconds: float = 0.0
    decisions: int = 0
    scores: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        low, high = wilson_interval(self.wins, self.games)
        data = {"name": self.name, "kind": self.kind, "games": self.games, "wins": self.wins,
                "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
                "win_rate_ci95": [round(low, 4), round(high, 4)],
                "mean_place": round(self.places / self.games, 4) if self.games else None,
                "decisions": self.decisions,
                "mean_decision_seconds": round(self.seconds / self.decisions, 6) if self.decisions else None}
        if self.scores:
            data["mean_score"] = round(sum(self.scores) / len(self.scores), 2)
        return data


@dataclass
class ArenaReport:
    variant: str
    games: int
    seed: int
    workers: int
    seconds: float
    draws: int
    players: list[PlayerStats]
    #: What the scores count (the variant's ``score_label``: "points", "deals won").
    score_label: str = "points"

    def as_dict(self) -> dict:
        return {"variant": self.variant, "games": self.games, "seed": self.seed, "workers": self.workers,
                "seconds": round(self.seconds, 3), "draws": self.draws, "score_label": self.score_label,
                "players": [p.as_dict() for p in self.players]}


def play_games(variant: Variant, rules: dict, players: list[SeatInfo], games: int, seed: int, *,
               backend: Backend, progress: Callable[[int], None] | None = None,
               numbers: Sequence[int] | None = None) -> list[ArenaGame]:
    """Every rotated game, in game order (the same for any backend and worker count).

    ``numbers``: only these of the run's ``games`` games (a long run played
    a part at a time); a game is the same whichever part it is played in."""
    if numbers is None:
        parts: list[Sequence[int]] = list(chunks(games, backend.workers, largest=50))
    else:
        wanted = sorted(numbers)
        parts = [wanted[part.start:part.stop] for part in chunks(len(wanted), backend.workers, largest=50)]
    tasks = [(variant.name, dict(rules), list(players), seed, part) for part in parts]
    return sorted(backend.run(_play_chunk, tasks, progress), key=lambda g: g.index)


def summarize(variant: Variant, players: list[SeatInfo], results: Sequence[ArenaGame], seed: int,
              workers: int, seconds: float) -> ArenaReport:
    """The report of a run's games: each player's wins, places, scores and decision times."""
    stats = [PlayerStats(p.name, p.kind) for p in players]
    draws = 0
    for game in results:
        if game.winner is None:
            draws += 1
        for seat, player in enumerate(game.order):
            entry = stats[player]
            entry.games += 1
            entry.places += game.places[seat]
            entry.seconds += game.seconds[seat]
            entry.decisions += game.decisions[seat]
            if game.winner == seat:
                entry.wins += 1
            if game.scores is not None:
                entry.scores.append(game.scores[seat])
    return ArenaReport(variant.name, len(results), seed, workers, seconds, draws, stats, variant.score_label)


def run(variant: Variant, rules: dict, players: list[SeatInfo], games: int, seed: int, *,
        workers: int | None = None, progress: Callable[[int], None] | None = None,
        backend: Backend | None = None) -> ArenaReport:
    """Play ``games`` rotated games; the report does not depend on ``workers`` or the backend."""
    backend = backend or LocalBackend(workers)
    started = time.perf_counter()
    results = play_games(variant, rules, players, games, seed, backend=backend, progress=progress)
    return summarize(variant, players, results, seed, backend.workers, time.perf_counter() - started)


#: Trial games (searching seats played by ``normal``) that count the decisions
#: of a run's estimate, and the positions of theirs on which the search is timed.
_TRIALS = 8
_TIMED = 8
#: ...timed for no longer than this (seconds) in all.
_TIMING_SECONDS = 2.0


class _Positions(Hook):
    """Keeps a copy of the table at each decision of the ``watched`` seats."""

    def __init__(self, watched: set[int]):
        self.watched = watched
        self.found: list[tuple[State, int, list[Action]]] = []

    def deciding(self, driver: Driver, seat: int, legal: list[Action]) -> None:
        if seat in self.watched:
            self.found.append((driver.state.clone(), seat, list(legal)))


def estimate_seconds(variant: Variant, rules: dict, players: list[SeatInfo], games: int, seed: int,
                     workers: int) -> float | None:
    """Roughly how long a run with ``cpu:hard`` seats will take, in seconds
    (``None`` without one): trial games with the searching seats played by
    ``normal`` count their decisions, and the search is timed on a few of
    those positions.  The other CPUs' time is left out (a fraction of a
    millisecond a decision).  It costs two seconds at most, and the trials."""
    searching = {seat for seat, player in enumerate(players)
                 if split_level(player.cpu_level or "")[0] == "hard"}
    if not searching:
        return None
    n = len(players)
    positions = _Positions(searching)
    for trial in range(_TRIALS):
        trial_seed = derive_seed(seed, "arena-estimate", trial)
        stand_ins = [make_cpu(variant, "normal" if seat in searching else players[seat].cpu_level or "easy",
                              trial_seed, seat) for seat in range(n)]
        Driver(variant.new_state(rules, n, choose_dealer(trial_seed, n)), stand_ins,
               rng=seeded(derive_seed(trial_seed, "chance")), hooks=[positions]).run()
    found = positions.found
    if not found:
        return 0.0
    timed = found[len(found) // (2 * _TIMED)::max(1, len(found) // _TIMED)][:_TIMED]
    started = time.perf_counter()
    done = 0
    for state, seat, legal in timed:
        make_cpu(variant, players[seat].cpu_level or "hard", seed, seat).act(state, seat, legal)
        done += 1
        if time.perf_counter() - started > _TIMING_SECONDS:
            break
    per_decision = (time.perf_counter() - started) / done
    return games * len(found) / _TRIALS * per_decision / max(1, min(workers, games))
