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

from .driver import DecisionClock, Driver
from .game import choose_dealer, derive_seed
from .parallel import Backend, LocalBackend, chunks
from .players import make_cpu
from .plugins import get_registry
from .rand import seeded
from .records import SeatInfo
from .variant import Variant

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
_Chunk = tuple[str, dict, list[SeatInfo], int, range]


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
               backend: Backend, progress: Callable[[int], None] | None = None) -> list[ArenaGame]:
    """Every rotated game, in game order (the same for any backend and worker count)."""
    tasks = [(variant.name, dict(rules), list(players), seed, numbers)
             for numbers in chunks(games, backend.workers, largest=50)]
    return sorted(backend.run(_play_chunk, tasks, progress), key=lambda g: g.index)


def run(variant: Variant, rules: dict, players: list[SeatInfo], games: int, seed: int, *,
        workers: int | None = None, progress: Callable[[int], None] | None = None,
        backend: Backend | None = None) -> ArenaReport:
    """Play ``games`` rotated games; the report does not depend on ``workers`` or the backend."""
    backend = backend or LocalBackend(workers)
    started = time.perf_counter()
    results = play_games(variant, rules, players, games, seed, backend=backend, progress=progress)
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
    return ArenaReport(variant.name, len(results), seed, backend.workers, time.perf_counter() - started,
                       draws, stats, variant.score_label)
