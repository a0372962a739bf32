"""Validating a record with unseen cards beside the full record it was exported from.

Why this exists: a record of a real table (``"??"`` for every card its
writer did not see) is checked by the same reader as a full record, plus the
matching of ``cardcli.unseen.solver``; that extra work must stay a small
multiple of the full check (the target: a ``--public`` export within 5x of
its full record).  Per shipped ruleset, at its default table, this plays a
fixed set of seeded games, exports each as a spectator saw it (and as seat 0
did), and times ``validate_stream`` of the full records against the exports,
interleaved in one process (A B, B A, A B, ... for ``--rounds`` rounds, CPU
time): the table gives the median ratio (export over full, time per record)
and its range, and the solver's steps back (two decks and a reshuffle make a
revealed card's pool a choice, tried in turn).

Usage::

    python bench/bench_unseen.py                 # about a minute
    python bench/bench_unseen.py --rounds 9 --games 40 --json
    python bench/bench_unseen.py --largest       # also each ruleset's largest table
    python bench/bench_unseen.py --quick         # a smoke run, in seconds
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import cpu_clock, load_average

import cardcli.unseen.solver as consistency
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset, shipped_rulesets
from cardcli.records.validate import validate_stream
from cardcli.testing import play_game
from cardcli.testing.unseen import export_bytes


def _tables(name: str, largest: bool) -> list[int]:
    """The ruleset's default table, and (``largest``) its largest, if another."""
    registry = get_registry()
    ruleset = load_ruleset(name, registry)
    variant = registry.get(ruleset.variant)
    most = ruleset.options.get("max_players", variant.max_players)
    players = max(variant.min_players, min(variant.default_players, variant.max_players))
    players = min(max(players, ruleset.options.get("min_players", players)), most)
    return [players, most] if largest and most != players else [players]


def _records(name: str, players: int, games: int) -> tuple[str, int, list[bytes]]:
    registry = get_registry()
    ruleset = load_ruleset(name, registry)
    options = load_ruleset(name, registry, ruleset.variant, players).options
    records = []
    for seed in range(games):
        _game, buffer = play_game(ruleset.variant, players=players, seed=seed, options=dict(options))
        records.append(buffer.getvalue().encode())
    return ruleset.variant, players, records


def _time(records: list[bytes]) -> float:
    registry = get_registry()
    start = cpu_clock()
    for data in records:
        report = validate_stream(io.BytesIO(data), "<bench>", registry)
        assert report.valid, report.error
    return (cpu_clock() - start) / len(records)


def _steps_back(records: list[bytes]) -> int:
    """How often the solver went back to a choice, over the records."""
    count = 0
    original = consistency.Solver._back

    def counting(self: consistency.Solver, failure: consistency.Impossible) -> None:
        nonlocal count
        count += 1
        original(self, failure)

    consistency.Solver._back = counting  # type: ignore[method-assign]
    try:
        _time(records)
    finally:
        consistency.Solver._back = original  # type: ignore[method-assign]
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per ruleset")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (A B, B A, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--largest", action="store_true",
                        help="also each ruleset at its largest table (trick-eight-players at 8)")
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds (1 game, 2 rounds)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.rounds = 1, 2
    if not args.json:
        print(f"validate: exports (cards unseen) over their full records, time per record; "
              f"{args.games} games, {args.rounds} rounds, load {load_average()}")
        print(f"{'ruleset':<28} {'view':<7} {'full ms':>8} {'export ms':>9}  ratio (range)      steps back")
    tables = [(name, players) for name, _path, _data in shipped_rulesets(get_registry())
              for players in _tables(name, args.largest)]
    for name, players in tables:
        variant, players, full = _records(name, players, args.games)
        for view in (None, 0):
            exported = [export_bytes(data, view) for data in full]
            ratios, a_times, b_times = [], [], []
            for round_ in range(args.rounds):
                # A B, then B A: each side timed in turn, in one run.
                if round_ % 2 == 0:
                    a = _time(full)
                    b = _time(exported)
                else:
                    b = _time(exported)
                    a = _time(full)
                a_times.append(a)
                b_times.append(b)
                ratios.append(b / a)
            row = {"ruleset": name, "variant": variant, "players": players,
                   "view": "public" if view is None else f"seat {view}",
                   "full_ms": round(1000 * statistics.median(a_times), 2),
                   "export_ms": round(1000 * statistics.median(b_times), 2),
                   "ratio_median": round(statistics.median(ratios), 2),
                   "ratio_low": round(min(ratios), 2), "ratio_high": round(max(ratios), 2),
                   "steps_back": _steps_back(exported)}
            if args.json:
                print(json.dumps(row))
            else:
                print(f"{name + f' ({players}p)':<28} {row['view']:<7} {row['full_ms']:>8.2f} "
                      f"{row['export_ms']:>9.2f}  {row['ratio_median']:.2f}x ({row['ratio_low']:.2f}-"
                      f"{row['ratio_high']:.2f})   {row['steps_back']:>6}")


if __name__ == "__main__":
    main()
