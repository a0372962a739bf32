"""Decisions per second of ``cardcli simulate matching`` beside RLCard's UNO engine.

Why this exists: the project's performance goal is stated against a reference
engine, "at least 1.0x RLCard's decisions per second at 4 players on one core
(--workers 1), and close to 2x that with both cores". This script measures both
sides on the same machine, in the same Python, so that claim can be checked
rather than assumed.

What is measured:

* cardcli: ``cardcli.simulate.run`` (the library call behind ``cardcli simulate``)
  on the ``matching`` variant with its default rules and random (``easy``) CPUs,
  with 1 worker process and with 2.
* RLCard: the UNO game object ``rlcard.games.uno.game.UnoGame`` driven directly
  in a plain Python loop (``init_game``, then ``get_legal_actions``/``step``
  until ``is_over``) with uniformly random legal actions, in this one process.
  RLCard's env wrapper is deliberately not used: it adds a numpy state encoding
  on every step that a random player never needs.

A decision is one choice by a player: one ``step`` in RLCard, one player move in
cardcli (forced moves, such as a lone "draw", count on both sides). Each figure
is the best of ``--repeats`` runs of the same seeded games, sized so that one run
takes about ``--seconds``. Setup (dealing) is inside the timing on both sides.

RLCard is not a dependency of the project. When it is missing this script runs
``python -m pip install rlcard`` (which brings ``termcolor``, and numpy when
absent); if that fails it prints the cardcli figures and says so, exiting 0.

Usage::

    python bench/bench_simulate.py            # full run, a table
    python bench/bench_simulate.py --quick    # a smoke run of a few games
    python bench/bench_simulate.py --json     # the figures as one JSON object
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from dataclasses import asdict
from typing import Any

from _common import Measurement, best_of, ensure_reference, games_for

from cardcli.players import default_seats
from cardcli.plugins import get_registry
from cardcli.rulesets import default_ruleset
from cardcli.simulate import run

VARIANT = "matching"
LEVEL = "easy"
REFERENCE = "rlcard"
TARGET_PLAYERS = 4
DRIVER_NOTE = ("RLCard UNO: rlcard.games.uno.game.UnoGame driven directly (init_game, then "
               "get_legal_actions/step until is_over), uniformly random legal actions, one process; "
               "the env wrapper (numpy state encoding) is not used.")


# --- cardcli -------------------------------------------------------------------------------------------


def cardcli_run(players: int, workers: int, games: int, seed: int) -> Measurement:
    """``cardcli simulate matching --players N --cpu easy --workers W --games G --seed S``."""
    variant = get_registry().get(VARIANT)
    rules = default_ruleset(variant).options
    seats = default_seats(variant, players, human=None, level=LEVEL)
    summary = run(variant, rules, seats, games, seed, workers=workers)
    return Measurement(summary.games, summary.decisions, summary.seconds)


def measure_cardcli(players: int, workers: int, games: int, seed: int, repeats: int) -> Measurement:
    return best_of(repeats, lambda: cardcli_run(players, workers, games, seed))


# --- RLCard --------------------------------------------------------------------------------------------


def ensure_rlcard(install: bool) -> tuple[str | None, str]:
    """Import RLCard (its UNO game too), installing it with pip first if it is missing."""
    return ensure_reference(REFERENCE, REFERENCE, install, "rlcard.games.uno.game", timeout=600)


def rlcard_run(players: int, games: int, seed: int) -> Measurement:
    """``games`` UNO games of random legal moves on RLCard's game object."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)  # the deck shuffles; init_game hands it on
    choose = random.Random(seed).choice
    init_game, is_over, legal_actions, step = game.init_game, game.is_over, game.get_legal_actions, game.step
    decisions = 0
    started = time.perf_counter()
    for _ in range(games):
        init_game()
        while not is_over():
            step(choose(legal_actions()))
            decisions += 1
    return Measurement(games, decisions, time.perf_counter() - started)


def measure_rlcard(players: int, games: int, seed: int, repeats: int) -> Measurement:
    return best_of(repeats, lambda: rlcard_run(players, games, seed))


# --- the report ----------------------------------------------------------------------------------------


def ratio(ours: Measurement | None, theirs: Measurement | None) -> float | None:
    if ours is None or theirs is None or theirs.rate <= 0:
        return None
    return ours.rate / theirs.rate


def bench(players_list: list[int], seconds: float, repeats: int, seed: int, quick: bool,
          reference: str | None) -> list[dict[str, Any]]:
    """Every measurement, one row per table size."""
    rows = []
    for players in players_list:
        print(f"measuring {players} players ...", file=sys.stderr, flush=True)
        if quick:
            games_one = 200
        else:
            games_one = games_for(cardcli_run(players, 1, 300, seed), seconds, 300)
        one = measure_cardcli(players, 1, games_one, seed, repeats)
        two = measure_cardcli(players, 2, 2 * games_one, seed, repeats)
        theirs = None
        if reference is not None:
            games_ref = 100 if quick else games_for(rlcard_run(players, 300, seed), seconds, 300)
            theirs = measure_rlcard(players, games_ref, seed, repeats)
        rows.append({
            "players": players,
            "cardcli_workers_1": asdict(one) | {"decisions_per_second": round(one.rate, 1)},
            "cardcli_workers_2": asdict(two) | {"decisions_per_second": round(two.rate, 1)},
            "rlcard_uno": None if theirs is None
            else asdict(theirs) | {"decisions_per_second": round(theirs.rate, 1)},
            "ratio_workers_1": _round(ratio(one, theirs)),
            "ratio_workers_2": _round(ratio(two, theirs)),
        })
    return rows


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _rate(cell: dict[str, Any] | None) -> str:
    return "n/a" if cell is None else f"{cell['decisions_per_second']:,.0f}"


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def render_table(rows: list[dict[str, Any]]) -> str:
    header = ["players", "cardcli 1 worker dec/s", "cardcli 2 workers dec/s", "RLCard UNO dec/s",
              "ratio (1 worker)", "ratio (2 workers)"]
    body = [[str(row["players"]), _rate(row["cardcli_workers_1"]), _rate(row["cardcli_workers_2"]),
             _rate(row["rlcard_uno"]), _ratio(row["ratio_workers_1"]), _ratio(row["ratio_workers_2"])]
            for row in rows]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [" | ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
             for line in [header, *body]]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def verdict(rows: list[dict[str, Any]]) -> list[str]:
    """The goal, at ``TARGET_PLAYERS`` players, in words."""
    row = next((r for r in rows if r["players"] == TARGET_PLAYERS), None)
    if row is None or row["ratio_workers_1"] is None:
        return []
    one, two = row["ratio_workers_1"], row["ratio_workers_2"]
    rate_one = row["cardcli_workers_1"]["decisions_per_second"]
    scaling = row["cardcli_workers_2"]["decisions_per_second"] / rate_one if rate_one else 0.0
    return [f"Goal at {TARGET_PLAYERS} players: >= 1.0x RLCard with --workers 1: {one:.2f}x "
            f"({'met' if one >= 1.0 else 'NOT met'}); close to 2x with both cores (--workers 2): "
            f"{two:.2f}x ({scaling:.2f}x cardcli's own 1-worker rate)."]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: few games, one repeat")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--players", default="2,4,6", help="table sizes, comma separated (default 2,4,6)")
    parser.add_argument("--seconds", type=float, default=2.5,
                        help="about how long one measured run takes (default 2.5)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the games (default 20240601)")
    parser.add_argument("--no-install", action="store_true", help="do not pip install rlcard when missing")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats = 1
    args.players_list = [int(p) for p in args.players.split(",") if p.strip()]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    version, note = ensure_rlcard(install=not args.no_install)
    reference_line = (f"Reference: rlcard {version} ({note}). {DRIVER_NOTE}" if version is not None
                      else f"Reference: RLCard could not be installed or imported ({note}); "
                           "only cardcli's figures are shown.")
    rows = bench(args.players_list, args.seconds, args.repeats, args.seed, args.quick, version)
    if args.json:
        print(json.dumps({
            "variant": VARIANT,
            "cpu_level": LEVEL,
            "seed": args.seed,
            "repeats": args.repeats,
            "quick": args.quick,
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "implementation": platform.python_implementation()},
            "reference": {"engine": REFERENCE, "version": version, "available": version is not None,
                          "note": note, "driver": DRIVER_NOTE},
            "rows": rows,
        }, indent=2))
        return 0
    print(f"cardcli simulate {VARIANT} (--cpu {LEVEL}, default rules) vs RLCard UNO, decisions per second; "
          f"best of {args.repeats}{', QUICK smoke run' if args.quick else ''}; "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(reference_line)
    print()
    print(render_table(rows))
    print()
    print("ratio = cardcli / RLCard UNO (RLCard in one process).")
    for line in verdict(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
