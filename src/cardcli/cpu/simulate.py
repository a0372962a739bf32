"""CPU-only games as fast as the engine allows, in parallel processes.

Game ``i`` of a run with seed ``S`` uses the seed ``derive_seed(S, i)``, so the
same run gives the same games and the same summary whatever the number of
workers (and a large run can be split across machines by game number).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..contract.variant import Variant
from ..engine.driver import Driver
from ..engine.game import Game, choose_dealer, derive_seed
from ..engine.plugins import get_registry
from ..kit.errors import Kind, RecordError, system_words
from ..kit.language import core as _
from ..kit.rand import seeded
from ..kit.record_format import RecordExistsError, RecordWriter, SeatInfo
from .parallel import Backend, LocalBackend, chunks
from .players import make_cpu


@dataclass
class GameOutcome:
    index: int
    seed: int
    places: list[int]
    winner: int | None
    decisions: int
    events: int
    scores: list[int] | None = None
    rounds: int | None = None  # rounds (deals) played, where the variant scores rounds
    reason: str = ""  # how the game ended, in the variant's words


def play_fast(variant: Variant, rules: dict, seats: Sequence[SeatInfo], seed: int) -> GameOutcome:
    """One game with no record: the driver's plain loop (no hooks, no checks,
    no history: nothing looks back at this game)."""
    n = len(seats)
    state = variant.new_state(rules, n, choose_dealer(seed, n))
    players = [make_cpu(variant, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    driver = Driver(state, players, rng=seeded(derive_seed(seed, "chance")), history=False)
    result = driver.run()
    assert result is not None
    return GameOutcome(0, seed, result.places, result.winner, driver.moves, driver.events, result.scores,
                       _rounds(result.rounds), result.reason)


def play_recorded(variant: Variant, rules: dict, seats: Sequence[SeatInfo], seed: int, path: Path,
                  ruleset: str | None = None) -> GameOutcome:
    """One game written to ``path``, through the same ``Game`` that ``play`` uses.

    ``path`` must not exist (it is never overwritten, nor followed if it is a
    symbolic link); the record is created readable by its owner only.
    """
    n = len(seats)
    players = [make_cpu(variant, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    try:
        writer = RecordWriter.create(path)
    except RecordExistsError:
        raise
    except OSError as error:
        raise RecordError(_("cannot write: {reason}").format(reason=system_words(error)), source=str(path),
                          kind=Kind.IO) from None
    with writer.stream:
        game = Game(variant, rules, seats, choose_dealer(seed, n), seed=seed, ruleset=ruleset,
                    writer=writer, players=players)
        game.run()
        game.finish()
    result = game.state.result()
    assert result is not None
    return GameOutcome(0, seed, result.places, result.winner, game.moves, game.events, result.scores,
                       _rounds(result.rounds), result.reason)


def _rounds(rounds: list[list[int]] | None) -> int | None:
    return None if rounds is None else len(rounds)


def record_name(index: int) -> str:
    """The file name of game ``index``'s record in a ``--records`` folder."""
    return f"game-{index:06d}.jsonl"


def check_record_dir(record_dir: Path, games: int) -> None:
    """Refuse a ``--records`` folder that already holds a record this run would write.

    Checked before the first game, for a clear message; the files are still
    created exclusively, so a file that appears meanwhile is not overwritten
    either.
    """
    if not record_dir.is_dir():
        return
    taken = sorted(entry.name for entry in record_dir.iterdir()
                   if entry.name.startswith("game-") and entry.name.endswith(".jsonl"))
    for name in taken:
        number = name[len("game-"):-len(".jsonl")]
        if number.isdigit() and int(number) < games and name == record_name(int(number)):
            raise RecordExistsError(_("already holds {name}: simulate never overwrites a record; "
                                      "give a new or empty folder").format(name=name),
                                    source=str(record_dir), kind=Kind.IO)


#: One worker's share: variant, rules, seats, seed, game numbers, record folder, ruleset name.
_Chunk = tuple[str, dict, list[SeatInfo], int, range, str | None, str | None]


def _play_chunk(args: _Chunk) -> list[GameOutcome]:
    variant_name, rules, seats, run_seed, indices, record_dir, ruleset = args
    variant = get_registry().get(variant_name)
    outcomes = []
    for index in indices:
        seed = derive_seed(run_seed, index)
        if record_dir is not None:
            path = Path(record_dir) / record_name(index)
            outcome = play_recorded(variant, rules, seats, seed, path, ruleset)
        else:
            outcome = play_fast(variant, rules, seats, seed)
        outcome.index = index
        outcomes.append(outcome)
    return outcomes


@dataclass
class Summary:
    variant: str
    players: list[SeatInfo]
    seed: int
    workers: int
    games: int = 0
    decisions: int = 0
    events: int = 0
    seconds: float = 0.0
    draws: int = 0
    moves_total: int = 0
    moves_max: int = 0

    def __post_init__(self) -> None:
        self.wins_by_seat = [0] * len(self.players)
        self.places_total = [0] * len(self.players)

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        self.decisions += outcome.decisions
        self.events += outcome.events
        self.moves_total += outcome.decisions
        self.moves_max = max(self.moves_max, outcome.decisions)
        if outcome.winner is None:
            self.draws += 1
        else:
            self.wins_by_seat[outcome.winner] += 1
        for seat, place in enumerate(outcome.places):
            self.places_total[seat] += place

    def wins_by_level(self) -> dict[str, dict[str, float]]:
        levels: dict[str, dict[str, float]] = {}
        for seat, info in enumerate(self.players):
            entry = levels.setdefault(info.kind, {"seats": 0, "wins": 0})
            entry["seats"] += 1
            entry["wins"] += self.wins_by_seat[seat]
        for entry in levels.values():
            games = self.games * entry["seats"]
            entry["win_rate_per_seat"] = round(entry["wins"] / games, 4) if games else 0.0
        return levels

    def as_dict(self) -> dict:
        games = self.games or 1
        return {
            "variant": self.variant,
            "players": [p.as_dict() for p in self.players],
            "seed": self.seed,
            "workers": self.workers,
            "games": self.games,
            "decisions": self.decisions,
            "events": self.events,
            "seconds": round(self.seconds, 4),
            "decisions_per_second": round(self.decisions / self.seconds, 1) if self.seconds else None,
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_level": self.wins_by_level(),
            "draws": self.draws,
            "mean_place_by_seat": [round(t / games, 4) for t in self.places_total],
            "moves_mean": round(self.moves_total / games, 2),
            "moves_max": self.moves_max,
        }


def play_games(variant: Variant, rules: dict, seats: list[SeatInfo], games: int, seed: int, *,
               backend: Backend, record_dir: Path | None = None, ruleset: str | None = None,
               progress: Callable[[int], None] | None = None) -> list[GameOutcome]:
    """Every game's outcome, in game order (the same for any backend and worker count)."""
    if record_dir is not None:
        check_record_dir(record_dir, games)
        try:
            record_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise RecordError(_("cannot make the folder: {reason}").format(reason=system_words(error)),
                              source=str(record_dir), kind=Kind.IO) from None
    directory = str(record_dir) if record_dir is not None else None
    tasks = [(variant.name, dict(rules), list(seats), seed, numbers, directory, ruleset)
             for numbers in chunks(games, backend.workers, largest=200)]
    results: list[GameOutcome] = backend.run(_play_chunk, tasks, progress)
    return sorted(results, key=lambda o: o.index)


def run(variant: Variant, rules: dict, seats: list[SeatInfo], games: int, seed: int, *,
        workers: int | None = None, record_dir: Path | None = None, ruleset: str | None = None,
        progress: Callable[[int], None] | None = None, backend: Backend | None = None) -> Summary:
    """Play ``games`` games and summarise them (identically for any ``workers`` or backend)."""
    backend = backend or LocalBackend(workers)
    summary = Summary(variant.name, seats, seed, backend.workers)
    started = time.perf_counter()
    outcomes = play_games(variant, rules, seats, games, seed, backend=backend, record_dir=record_dir,
                          ruleset=ruleset, progress=progress)
    summary.seconds = time.perf_counter() - started
    for outcome in outcomes:
        summary.add(outcome)
    return summary
