"""Games per second of ``simulate`` with the local process pool and with Ray.

What ``--backend ray`` costs on one machine: the same seeded games of
``matching`` (4 players, ``--cpu`` CPUs) through ``cardcli.cpu.simulate.run``,
with the local pool and with a local Ray, each at 1 and 2 workers.  The four
set-ups are timed in rounds whose order alternates (L1 L2 R1 R2, then
R2 R1 L2 L1, ...), so a machine that gets busier or quieter during the run
does not favour one side.

For Ray three figures are kept apart: starting Ray (once per run of
``cardcli``), the first run on the fresh workers (what a command gets after
the start: the workers still import cardcli), and a second run on the same,
warm workers (what each further chunk costs).  The local figure includes
starting its process pool, as every ``cardcli simulate`` does.

Ray is installed with the ``ray`` extra (``python -m pip install -e ".[ray]"``);
without it the script prints the local figures only and says so.

    python bench/bench_ray.py             # 3 rounds of 3000 games (about 2 minutes)
    python bench/bench_ray.py --quick     # 1 round of 400 games
    python bench/bench_ray.py --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from cardcli.cpu import simulate
from cardcli.cpu.parallel import BackendError, LocalBackend
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.record_format import SeatInfo


def timed_run(variant, rules, seats, games: int, seed: int, backend) -> float:
    """Games per second of one ``simulate.run``."""
    started = time.perf_counter()
    summary = simulate.run(variant, rules, seats, games, seed, backend=backend)
    seconds = time.perf_counter() - started
    assert summary.games == games
    return games / seconds


def measure_local(variant, rules, seats, games, seed, workers) -> dict:
    return {"games_per_second": timed_run(variant, rules, seats, games, seed, LocalBackend(workers))}


def measure_ray(variant, rules, seats, games, seed, workers) -> dict:
    from cardcli.cpu.ray import RayBackend

    started = time.perf_counter()
    backend = RayBackend(workers, "local")
    start_seconds = time.perf_counter() - started
    try:
        cold = timed_run(variant, rules, seats, games, seed, backend)
        warm = timed_run(variant, rules, seats, games, seed, backend)
    finally:
        backend.close()
    return {"start_seconds": start_seconds, "cold_games_per_second": cold, "games_per_second": warm}


def summarise(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "runs": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per timed run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the four set-ups")
    parser.add_argument("--cpu", default="easy", help="CPU strength of every seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one round of 400 games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.games, args.rounds = 400, 1

    variant = get_registry().get("matching")
    rules = default_ruleset(variant).options
    seats = [SeatInfo(f"cpu{i + 1}", f"cpu:{args.cpu}") for i in range(4)]
    timed_run(variant, rules, seats, 50, args.seed, LocalBackend(1))  # warm up: imports, caches
    setups = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]
    results: dict[tuple[str, int], list[dict]] = {setup: [] for setup in setups}
    ray_missing = None
    for number in range(args.rounds):
        order = setups if number % 2 == 0 else setups[::-1]
        for name, workers in order:
            if name == "ray" and ray_missing:
                continue
            measure = measure_local if name == "local" else measure_ray
            try:
                figures = measure(variant, rules, seats, args.games, args.seed, workers)
            except BackendError as error:
                ray_missing = str(error)
                continue
            results[(name, workers)].append(figures)
            print(f"  round {number + 1}: {name} x{workers}: {figures['games_per_second']:,.0f} games/s",
                  file=sys.stderr)

    report: dict = {"variant": "matching", "players": 4, "cpu": args.cpu, "games_per_run": args.games,
                    "rounds": args.rounds, "setups": {}, "ray_vs_local": {}, "note": ray_missing}
    for (name, workers), runs in results.items():
        if not runs:
            continue
        entry = {"games_per_second": summarise([r["games_per_second"] for r in runs])}
        if name == "ray":
            entry["cold_games_per_second"] = summarise([r["cold_games_per_second"] for r in runs])
            entry["start_seconds"] = summarise([r["start_seconds"] for r in runs])
        report["setups"][f"{name} x{workers}"] = entry
    for workers in (1, 2):
        local, ray = results[("local", workers)], results[("ray", workers)]
        if local and ray:
            # Round by round: each Ray run against the local run of the same round.
            ratios = [r["games_per_second"] / q["games_per_second"] for r, q in zip(ray, local)]
            report["ray_vs_local"][f"x{workers}"] = {
                "median": round(statistics.median(ratios), 3), "min": round(min(ratios), 3),
                "max": round(max(ratios), 3), "runs": len(ratios)}
    if args.json:
        print(json.dumps(report))
        return
    print(f"simulate matching, 4 x cpu:{args.cpu}, {args.games} games a run, {args.rounds} round(s), "
          "interleaved (medians, range in brackets; the machine may be shared)")
    for label, entry in report["setups"].items():
        gps = entry["games_per_second"]
        line = f"  {label:<9} {gps['median']:>9,.0f} games/s [{gps['min']:,.0f} - {gps['max']:,.0f}]"
        if "start_seconds" in entry:
            cold, start = entry["cold_games_per_second"], entry["start_seconds"]
            line += (f"   first run on fresh workers {cold['median']:,.0f} games/s; "
                     f"starting Ray {start['median']:.1f} s")
        print(line)
    for label, ratio in report["ray_vs_local"].items():
        print(f"  Ray / local at {label}: {ratio['median']:.2f} [{ratio['min']:.2f} - {ratio['max']:.2f}] "
              "(warm workers, same games)")
    if ray_missing:
        print(f"  (Ray not measured: {ray_missing})")


if __name__ == "__main__":
    main()
