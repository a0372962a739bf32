"""This checkout beside another version of cardcli: the engine and validate rows, interleaved.

Why this exists: a change to the core (the variant contract, the driver, the
reader) must not make the engine or validation slower, and "not slower" is
only as honest as the way both sides are timed.  Each side runs in its own
interpreter (one with this checkout installed, one with the other version),
each measurement a fresh process, in the order A B B A A B ... for
``--rounds`` rounds; the table gives, per row, the median ratio (this
checkout over the other, decisions per second of CPU time) and its range.

Rows, each for matching (4 players), trick (4) and End of the Page (2), easy
CPUs and default rules as ``bench_speed.py`` has them:

* **engine**: ``cardcli.cpu.simulate.run(..., workers=1)`` of a fixed set of games;
* **validate**: ``validate_stream`` of those games' records, written once
  per side (the records are the same games either side: the same seeds);
* **unseen**: ``validate_stream`` of the same records exported as a
  spectator saw them (``--public``), the exact check of the unseen cards.

``--instructions`` counts instructions instead of timing (``valgrind
--tool=callgrind``, from Debian's ``valgrind``): the count of the same work
is the same whatever else the machine is doing, so a loaded machine still
gives a figure to trust.  Each row is the work alone: a process doing it
three times, less one doing it once, halved.

Usage::

    python -m venv /tmp/old && /tmp/old/bin/pip install -e OLD_CHECKOUT \\
        -e OLD_CHECKOUT/plugins/matching -e OLD_CHECKOUT/plugins/trick -e OLD_CHECKOUT/plugins/endofpage
    python bench/bench_versions.py --against /tmp/old/bin/python   # about two minutes
    python bench/bench_versions.py --against /tmp/old/bin/python --json
    python bench/bench_versions.py --quick     # a smoke run in seconds: this checkout against itself
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: Runs in each side's interpreter: time one row, print decisions per CPU second.
PROBE = r"""
import json, sys, time
from pathlib import Path
try:  # this layout, or the one before the core's folders (an older version to compare with)
    from cardcli.cpu.players import default_seats
    from cardcli.cpu.simulate import run
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    from cardcli.kit.record_format import open_record
    from cardcli.records.validate import validate_stream
except ImportError:
    from cardcli.players import default_seats
    from cardcli.plugins import get_registry
    from cardcli.records import open_record
    from cardcli.rulesets import default_ruleset
    from cardcli.simulate import run
    from cardcli.validate import validate_stream

row, name, players, games, folder = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
reps = int(sys.argv[6]) if len(sys.argv) > 6 else 1
registry = get_registry()
variant = registry.get(name)
rules = dict(default_ruleset(variant).options)
seats = default_seats(variant, players, human=None, level="easy")
records = Path(folder) / name
if row == "write":
    from cardcli.testing.unseen import export_bytes
    run(variant, rules, seats, games, 20240601, workers=1, record_dir=records)
    (records / "public").mkdir()
    for path in sorted(records.glob("game-*.jsonl")):
        (records / "public" / path.name).write_bytes(export_bytes(path.read_bytes(), None, str(path)))
    print(json.dumps({"written": games}))
    sys.exit(0)
started = time.process_time()
decisions = 0
for _ in range(reps):
    if row == "engine":
        decisions += run(variant, rules, seats, games, 20240601, workers=1).decisions
        continue
    for path in sorted((records / "public" if row == "unseen" else records).glob("game-*.jsonl")):
        with open_record(str(path)) as stream:
            report = validate_stream(stream, str(path), registry)
        assert report.valid, report.error
        decisions += report.moves
print(json.dumps({"decisions": decisions, "seconds": time.process_time() - started}))
"""

#: Players and games per variant: about a second of simulating, more of validating, per measurement.
TABLES = {"matching": (4, 1500), "trick": (4, 2000), "endofpage": (2, 24)}
#: A --quick run plays this share of the games (1/50): a smoke run, its figures mean nothing.
QUICK_SHARE = 50
share = 1


def probe(python: str, row: str, name: str, folder: Path, reps: int = 1, count: bool = False) -> dict:
    """One measurement in a fresh process: its figures, and with ``count`` the
    instructions it ran (callgrind's count, for the whole process)."""
    players, games = TABLES[name]
    games = max(1, games // share)
    if count:  # fewer games under valgrind: it runs some fifty times slower
        games = max(1, games // 25)
    command = [python, "-c", PROBE, row, name, str(players), str(games), str(folder), str(reps)]
    if count:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{python}: {row} {name} failed:\n{done.stderr[-2000:]}")
    figures = json.loads(done.stdout.splitlines()[-1])
    if count:
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"valgrind gave no count:\n{done.stderr[-2000:]}")
        figures["instructions"] = int(found.group(1))
    return figures


def instructions(python: str, row: str, name: str, folder: Path) -> tuple[int, int]:
    """The instructions of the work alone (three times less once, halved) and its decisions."""
    once = probe(python, row, name, folder, 1, count=True)
    thrice = probe(python, row, name, folder, 3, count=True)
    return (thrice["instructions"] - once["instructions"]) // 2, once["decisions"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="the interpreter with the other version installed (required, "
                                               "but for --quick: this interpreter against itself)")
    parser.add_argument("--python", default=sys.executable,
                        help="this checkout's interpreter (default: this one)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per row, A B then B A (default 6)")
    parser.add_argument("--only", default="", help="comma-separated variants (default: all three)")
    parser.add_argument("--rows", default="engine,validate,unseen",
                        help="comma-separated rows (default: engine,validate,unseen)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with valgrind instead of timing")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run in seconds: matching only (unless --only), a fiftieth of "
                             "its games, 2 rounds")
    args = parser.parse_args(argv)
    global share
    if args.quick:
        args.rounds, share = 2, QUICK_SHARE
        args.only = args.only or "matching"
        args.against = args.against or args.python
    if args.against is None:
        parser.error("--against: name the interpreter with the other version installed")
    if args.instructions and not shutil.which("valgrind"):
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    names = [n for n in args.only.split(",") if n] or list(TABLES)
    rows = [r for r in args.rows.split(",") if r]
    for row in rows:
        if row not in ("engine", "validate", "unseen"):
            raise SystemExit(f"unknown row {row!r}: engine, validate or unseen")
    sides = {"this": args.python, "other": args.against}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for side, python in sides.items():
            for name in names:
                probe(python, "write", name, Path(tmp) / side)
                if args.instructions:  # the smaller set of games valgrind runs
                    players, games = TABLES[name]
                    counted = str(max(1, games // share // 25))
                    subprocess.run([python, "-c", PROBE, "write", name, str(players), counted,
                                    str(Path(tmp) / f"{side}-counted")], check=True, capture_output=True)
        for row in rows:
            if args.instructions:
                for name in names:
                    counts = {side: instructions(sides[side], row, name, Path(tmp) / f"{side}-counted")
                              for side in sides}
                    (this, decisions), (other, _same) = counts["this"], counts["other"]
                    results.append({"row": row, "variant": name, "instructions_this": this,
                                    "instructions_other": other, "decisions": decisions,
                                    "speed_ratio": round(other / this, 3)})
                continue
            for name in names:
                rates: dict[str, list[float]] = {"this": [], "other": []}
                for number in range(args.rounds):
                    order = ["this", "other"] if number % 2 == 0 else ["other", "this"]
                    for side in order:
                        figures = probe(sides[side], row, name, Path(tmp) / side)
                        rates[side].append(figures["decisions"] / figures["seconds"])
                ratios = [a / b for a, b in zip(rates["this"], rates["other"], strict=True)]
                results.append({"row": row, "variant": name,
                                "ratio_median": round(statistics.median(ratios), 3),
                                "ratio_low": round(min(ratios), 3), "ratio_high": round(max(ratios), 3),
                                "this_rate_median": round(statistics.median(rates["this"])),
                                "other_rate_median": round(statistics.median(rates["other"]))})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if args.json:
        print(json.dumps({"load_average": round(load, 2), "rounds": args.rounds, "rows": results}, indent=2))
        return 0
    if args.instructions:
        print("this checkout beside the other version: instructions of the same work (callgrind); "
              "speed = other's count ÷ this one's")
        print(f"{'row':<22} {'speed':>7} {'this':>16} {'other':>16} {'decisions':>10}")
        for r in results:
            print(f"{r['row'] + ', ' + r['variant']:<22} {r['speed_ratio']:>7.3f} "
                  f"{r['instructions_this']:>16,} {r['instructions_other']:>16,} {r['decisions']:>10,}")
        return 0
    print(f"this checkout ÷ the other version, decisions per CPU second ({args.rounds} rounds, "
          f"interleaved; load average {load:.1f})")
    print(f"{'row':<22} {'median':>7} {'range':>13} {'this':>12} {'other':>12}")
    for r in results:
        print(f"{r['row'] + ', ' + r['variant']:<22} {r['ratio_median']:>7.3f} "
              f"{r['ratio_low']:>6.3f}-{r['ratio_high']:<6.3f} {r['this_rate_median']:>10,}/s "
              f"{r['other_rate_median']:>10,}/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
