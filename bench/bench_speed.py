"""The speed table: validate beside simulate, each engine beside OpenSpiel, start-up.

Why this exists: cardcli's speed goals are ratios, and a ratio is only as
honest as the way its two sides are timed.  This one command prints every
row of the table, each side timed in alternating order (A B, B A, A B, ...)
in one process for ``--rounds`` rounds, with the median ratio and its range.

Rows (targets in brackets):

* **validate ÷ simulate** per variant [>= 0.8]: decisions per second of
  validating records beside simulating the very same games (4 players,
  ``easy`` CPUs, default rules).  A: ``cardcli.cpu.simulate.run(...,
  workers=1)``, what ``cardcli simulate --workers 1`` runs; B: each record
  opened and checked as ``cardcli validate`` does (``open_record`` then
  ``validate_stream``).  The records are written once before timing.
* **engine ÷ OpenSpiel**: decisions per second of ``cardcli.cpu.simulate.run``
  (``easy`` CPUs, one worker, default rules) beside an OpenSpiel game driven
  from the fastest plain Python loop (``_common.open_spiel_random_games``):
  matching at 4 players ÷ ``crazy_eights`` at 4 [>= 1.0], trick at 4 ÷
  ``oh_hell`` at 4 [>= 1.0], End of the Page at 2 ÷ ``gin_rummy`` [>= 2.0].
* **start-up** [<= 1.5]: the wall time of ``cardcli --help`` over that of
  ``python -c "import click, pluggy"`` (what any click + pluggy program
  pays), both run as new processes from this interpreter's environment.

A decision is an action applied where a player is to move, forced ones
included, on both sides; chance events (deals, draws) are applied but not
counted.  In-process rows are timed by this process's CPU time.  OpenSpiel
is installed by this script (``pip install open_spiel``) when missing,
never by the project; without it those rows say so.

Usage::

    python bench/bench_speed.py              # about two minutes
    python bench/bench_speed.py --quick      # a smoke run
    python bench/bench_speed.py --json       # the figures as one JSON object
    python bench/bench_speed.py --wheel      # also start-up from wheels in a new venv
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from _common import (
    Comparison,
    Measurement,
    check_uniform_chance,
    cpu_clock,
    ensure_reference,
    games_for,
    interleaved,
    load_average,
    open_spiel_random_games,
)

from cardcli.cpu.players import default_seats
from cardcli.cpu.simulate import run
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.record_format import open_record
from cardcli.records.validate import validate_stream

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240601


@dataclass
class Row:
    """One line of the table: what A and B are, the target, and the figures."""

    name: str
    a: str
    b: str
    target: float
    at_most: bool = False  # the ratio must be at most the target (a time, not a rate)
    comparison: Comparison | None = None
    times: tuple[list[float], list[float]] | None = None  # start-up: seconds per round, A and B
    note: str = ""

    @property
    def ratios(self) -> list[float]:
        if self.comparison is not None:
            return self.comparison.ratios
        if self.times is not None:
            return [x / y for x, y in zip(*self.times, strict=True)]
        return []

    def met(self) -> bool | None:
        if not self.ratios:
            return None
        ratio = statistics.median(self.ratios)
        return ratio <= self.target if self.at_most else ratio >= self.target

    def as_dict(self) -> dict:
        data: dict = {"row": self.name, "a": self.a, "b": self.b,
                      "target": f"{'<=' if self.at_most else '>='} {self.target}", "met": self.met(),
                      "note": self.note}
        if self.comparison is not None:
            data |= self.comparison.as_dict()
        elif self.times is not None:
            ratios = self.ratios
            data |= {"ratio_median": round(statistics.median(ratios), 3), "ratio_low": round(min(ratios), 3),
                     "ratio_high": round(max(ratios), 3), "ratios": [round(r, 3) for r in ratios],
                     "a_seconds_median": round(statistics.median(self.times[0]), 4),
                     "b_seconds_median": round(statistics.median(self.times[1]), 4)}
        return data


# --- cardcli's side ---------------------------------------------------------------------------------------
def table(name: str, players: int) -> tuple:
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    return variant, rules, default_seats(variant, players, human=None, level="easy")


def simulate_side(name: str, players: int, games: int, seed: int) -> Callable[[], Measurement]:
    """``cardcli simulate NAME --players N --cpu easy --workers 1 --games G --seed S``, timed."""
    variant, rules, seats = table(name, players)

    def measure() -> Measurement:
        started = cpu_clock()
        summary = run(variant, rules, seats, games, seed, workers=1)
        return Measurement(summary.games, summary.decisions, cpu_clock() - started)
    return measure


def validate_side(paths: list[Path]) -> Callable[[], Measurement]:
    """``cardcli validate`` of each record, timed; every record must be valid."""
    registry = get_registry()

    def measure() -> Measurement:
        decisions = 0
        started = cpu_clock()
        for path in paths:
            with open_record(str(path)) as stream:
                report = validate_stream(stream, str(path), registry)
            if not report.valid:
                raise SystemExit(f"{path}: not valid: {report.error}")
            decisions += report.moves
        return Measurement(len(paths), decisions, cpu_clock() - started)
    return measure


def sized(measure_for: Callable[[int], Callable[[], Measurement]], seconds: float, floor: int) -> int:
    """Games enough for one side to take about ``seconds``, from a sample run."""
    return games_for(measure_for(floor)(), seconds, floor)


def validate_row(name: str, seconds: float, rounds: int, folder: Path) -> Row:
    players = 4
    games = sized(lambda g: simulate_side(name, players, g, SEED), seconds / 2, 20)
    variant, rules, seats = table(name, players)
    records = folder / name
    run(variant, rules, seats, games, SEED, workers=1, record_dir=records)
    paths = sorted(records.glob("game-*.jsonl"))
    simulate = simulate_side(name, players, games, SEED)
    validate = validate_side(paths)
    comparison = interleaved(validate, simulate, rounds)
    for v, s in zip(comparison.a, comparison.b, strict=True):
        if v.decisions != s.decisions:
            raise SystemExit(f"{name}: validate counted {v.decisions} decisions, simulate {s.decisions}")
    return Row(f"validate ÷ simulate, {name} 4p", f"validate {games} records",
               f"simulate the same {games} games", 0.8, comparison=comparison)


REFERENCES = {
    "matching": (4, "crazy_eights", {"players": 4}, 1.0),
    "trick": (4, "oh_hell", {"players": 4}, 1.0),
    "endofpage": (2, "gin_rummy", {}, 2.0),
}


def engine_row(name: str, seconds: float, rounds: int, have_spiel: bool, note: str) -> Row:
    players, game, params, target = REFERENCES[name]
    title = f"{name} {players}p ÷ OpenSpiel {game}" + (f" {params['players']}p" if params else "")
    row = Row(title, f"simulate {name}", f"OpenSpiel {game}, Python loop", target)
    if not have_spiel:
        row.note = f"OpenSpiel not measured: {note}"
        return row
    check_uniform_chance(game, params)
    ours = sized(lambda g: simulate_side(name, players, g, SEED), seconds, 20)
    theirs = games_for(open_spiel_random_games(game, 20, SEED, params), seconds, 20)
    row.comparison = interleaved(simulate_side(name, players, ours, SEED),
                                 lambda: open_spiel_random_games(game, theirs, SEED, params), rounds)
    return row


# --- start-up --------------------------------------------------------------------------------------------
def wall(command: list[str], runs: int) -> float:
    """The median wall time of ``runs`` runs of ``command`` (output discarded)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def startup_row(python: str, rounds: int, runs: int, label: str = "") -> Row:
    script = Path(python).parent / "cardcli"
    ours = ([str(script), "--help"] if script.exists()
            else [python, "-c", "from cardcli.cli import main; main()", "--help"])
    base = [python, "-c", "import click, pluggy"]
    row = Row(f"`cardcli --help` ÷ import click, pluggy{label}", "cardcli --help",
              'python -c "import click, pluggy"', 1.5, at_most=True)
    wall(ours, 2)  # warm the file cache for both
    wall(base, 2)
    a: list[float] = []
    b: list[float] = []
    for number in range(rounds):
        if number % 2 == 0:
            a.append(wall(ours, runs))
            b.append(wall(base, runs))
        else:
            b.append(wall(base, runs))
            a.append(wall(ours, runs))
    row.times = (a, b)
    return row


def wheel_python(folder: Path) -> str:
    """A new venv with cardcli installed from a wheel built here, as a user would have it."""
    wheels = folder / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    *map(str, wheels.glob("*.whl"))], check=True)
    return python


# --- the report ------------------------------------------------------------------------------------------
def render(rows: list[Row]) -> str:
    header = ["measurement", "median ratio", "range", "target", "met", "A median", "B median"]
    body = []
    for row in rows:
        data = row.as_dict()
        if "ratio_median" not in data:
            body.append([row.name, "n/a", "", data["target"], "", row.note, ""])
            continue
        if row.comparison is not None:
            rates = (f"{data['a_rate_median']:,.0f}/s", f"{data['b_rate_median']:,.0f}/s")
        else:
            rates = (f"{data['a_seconds_median'] * 1000:.0f} ms", f"{data['b_seconds_median'] * 1000:.0f} ms")
        spread = f"{data['ratio_low']:.2f}-{data['ratio_high']:.2f}"
        body.append([row.name, f"{data['ratio_median']:.2f}", spread, data["target"],
                     "yes" if data["met"] else "NO", *rates])
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [" | ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                        for i, (cell, width) in enumerate(zip(line, widths, strict=True)))
             for line in [header, *body]]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per row, at least 3 (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds of one side's run in one round (default 1.0)")
    parser.add_argument("--runs", type=int, default=7, help="start-up: processes per side per round")
    parser.add_argument("--quick", action="store_true", help="a smoke run (3 short rounds)")
    parser.add_argument("--only", default="", help="comma-separated rows: validate,engine,startup")
    parser.add_argument("--wheel", action="store_true",
                        help="also time start-up from a wheel installed in a new venv")
    parser.add_argument("--no-install", action="store_true", help="do not pip install open_spiel")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.seconds, args.runs = 3, 0.05, 1
    rounds = max(3, args.rounds)
    only = set(filter(None, args.only.split(","))) or {"validate", "engine", "startup"}
    load_before = load_average()
    version, note = ensure_reference("pyspiel", "open_spiel", not args.no_install)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        if "validate" in only:
            for name in ("matching", "trick", "endofpage"):
                print(f"timing validate and simulate: {name} ...", file=sys.stderr, flush=True)
                rows.append(validate_row(name, args.seconds, rounds, Path(folder)))
        if "engine" in only:
            for name in REFERENCES:
                print(f"timing {name} and OpenSpiel ...", file=sys.stderr, flush=True)
                rows.append(engine_row(name, args.seconds, rounds, version is not None, note))
        if "startup" in only:
            print("timing start-up ...", file=sys.stderr, flush=True)
            rows.append(startup_row(sys.executable, rounds, args.runs))
            if args.wheel:
                rows.append(startup_row(wheel_python(Path(folder)), rounds, args.runs, " (wheel install)"))
    load_after = load_average()
    machine = (f"{os.cpu_count()} CPUs (shared), Python {platform.python_version()}, "
               f"load average {load_before} before, {load_after} after")
    if args.json:
        print(json.dumps({"machine": machine, "open_spiel": version, "open_spiel_note": note,
                          "rounds": rounds, "quick": args.quick, "rows": [row.as_dict() for row in rows]},
                         indent=2))
        return 0
    quick = " (QUICK smoke run)" if args.quick else ""
    print(f"cardcli speed table: {rounds} interleaved rounds a row{quick}; "
          f"OpenSpiel {version or 'not available'}")
    print(machine)
    print()
    print(render(rows))
    print()
    print("ratio = A / B per round (rates: decisions per second, CPU time; start-up: wall time);")
    print("A and B: the left and right side of each measurement, medians over the rounds.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
