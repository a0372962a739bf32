"""How often a trick deal is called off as a draw, by table size.

Why this exists: docs/variants/trick.md states the share of deals called off
(docs/variants/trick.md, "Stock runs out": nothing left to draw and no way to follow, or the
``reshuffles`` bound) between ``normal`` CPUs.  Those figures change whenever
the rules or the CPU change, so they are printed by this script and copied
from its output, never worked out by hand.

What is measured: ``cardcli.cpu.simulate.run`` (the library call behind
``cardcli simulate trick --cpu normal --players N``), one deal a game, every
option at its default unless ``--option`` sets it.  A single deal has no
winner exactly when it is called off, so the share is the run's ``draws``
over its games.  Each share comes with a 95% Wilson interval.

Usage::

    python bench/called_off_trick.py                     # 2, 3, 4, 6 players, 4,000 deals each
    python bench/called_off_trick.py --deals 500         # a quicker look
    python bench/called_off_trick.py --option reshuffles=20
    python bench/called_off_trick.py --json
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from cardcli.contract.options import resolve
from cardcli.cpu.players import default_seats
from cardcli.cpu.simulate import run
from cardcli.engine.plugins import get_registry


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    share = hits / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=VALUE")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4,6", help="table sizes, comma-separated")
    parser.add_argument("--deals", type=int, default=4000, help="deals (games) per table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", type=parse_option, default=[],
                        help="a trick option, NAME=VALUE (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds (50 deals a table size)")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals = 50

    variant = get_registry().get("trick")
    settings = dict(args.option)
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        rules = resolve(variant.options, {"max_players": max(players, 6), **settings}, source="--option")
        variant.check_rules(rules, players)
        seats = default_seats(variant, players, human=None, level="normal")
        summary = run(variant, rules, seats, args.deals, args.seed, workers=args.workers)
        low, high = wilson(summary.draws, summary.games)
        rows.append({"players": players, "deals": summary.games, "called_off": summary.draws,
                     "share": round(summary.draws / summary.games, 4),
                     "interval_95": [round(low, 4), round(high, 4)],
                     "moves_mean": round(summary.moves_total / summary.games, 1)})
    if args.json:
        print(json.dumps({"options": settings, "seed": args.seed, "rows": rows}, indent=2))
        return 0
    shown = ", ".join(f"{k}={v}" for k, v in settings.items()) or "every option at its default"
    print(f"trick deals called off between normal CPUs ({shown}; seed {args.seed})")
    print("| players | deals | called off | share | 95% interval | moves a deal |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        low, high = row["interval_95"]
        print(f"| {row['players']} | {row['deals']:,} | {row['called_off']:,} | {row['share']:.1%} "
              f"| {low:.1%}-{high:.1%} | {row['moves_mean']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
