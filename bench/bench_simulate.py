"""Decisions per second of ``cardcli simulate matching`` beside RLCard's UNO engine.

Why this exists: the project's performance goal is stated against a reference
engine, "at least 1.0x RLCard's decisions per second at 4 players on one core
(--workers 1), and close to 2x that with both cores". This script measures both
sides on the same machine, in the same Python, so that claim can be checked
rather than assumed.

What is measured:

* cardcli: ``cardcli.cpu.simulate.run`` (the library call behind ``cardcli simulate``)
  on the ``matching`` variant with its default rules and random (``easy``) CPUs,
  with 1 worker process and with 2.
* RLCard: the UNO game object ``rlcard.games.uno.game.UnoGame`` driven directly
  in a plain Python loop (``init_game``, then ``get_legal_actions``/``step``
  until ``is_over``) with uniformly random legal actions, in this one process.
  RLCard's env wrapper is deliberately not used: it adds a numpy state encoding
  on every step that a random player never needs.

A decision is one choice by a player: one ``step`` in RLCard, one player move in
cardcli (forced moves, such as a lone "draw", count on both sides). The two sides
run interleaved (A B, B A, ...) for ``--rounds`` rounds on the same seeded games,
each run sized to take about ``--seconds``, and each ratio is the median of the
per-round ratios with their range. With one worker both sides are timed by this
process's CPU time; with two workers (processes) both are timed by the wall clock.
Setup (dealing) is inside the timing on both sides.

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
from typing import Any

from _common import Comparison, Measurement, cpu_clock, ensure_reference, games_for, interleaved, load_average

from cardcli.cpu.players import default_seats
from cardcli.cpu.simulate import run
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset

VARIANT = "matching"
LEVEL = "easy"
REFERENCE = "rlcard"
TARGET_PLAYERS = 4
DRIVER_NOTE = ("RLCard UNO: rlcard.games.uno.game.UnoGame driven directly (init_game, then "
               "get_legal_actions/step until is_over), uniformly random legal actions, one process; "
               "the env wrapper (numpy state encoding) is not used.")


# --- cardcli -------------------------------------------------------------------------------------------


def cardcli_run(players: int, workers: int, games: int, seed: int) -> Measurement:
    """``cardcli simulate matching --players N --cpu easy --workers W --games G --seed S``.

    One worker runs in this process: timed by its CPU time.  Two run in
    processes of their own: timed by the wall clock (``Summary.seconds``).
    """
    variant = get_registry().get(VARIANT)
    rules = default_ruleset(variant).options
    seats = default_seats(variant, players, human=None, level=LEVEL)
    started = cpu_clock()
    summary = run(variant, rules, seats, games, seed, workers=workers)
    seconds = cpu_clock() - started if workers == 1 else summary.seconds
    return Measurement(summary.games, summary.decisions, seconds)


# --- RLCard --------------------------------------------------------------------------------------------


def ensure_rlcard(install: bool) -> tuple[str | None, str]:
    """Import RLCard (its UNO game too), installing it with pip first if it is missing."""
    return ensure_reference(REFERENCE, REFERENCE, install, "rlcard.games.uno.game", timeout=600)


def rlcard_run(players: int, games: int, seed: int, clock=cpu_clock) -> Measurement:
    """``games`` UNO games of random legal moves on RLCard's game object."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)  # the deck shuffles; init_game hands it on
    choose = random.Random(seed).choice
    init_game, is_over, legal_actions, step = game.init_game, game.is_over, game.get_legal_actions, game.step
    decisions = 0
    started = clock()
    for _ in range(games):
        init_game()
        while not is_over():
            step(choose(legal_actions()))
            decisions += 1
    return Measurement(games, decisions, clock() - started)


# --- the report ----------------------------------------------------------------------------------------


def bench(players_list: list[int], seconds: float, rounds: int, seed: int, quick: bool,
          reference: str | None) -> list[dict[str, Any]]:
    """Every measurement, one row per table size."""
    rows = []
    for players in players_list:
        print(f"measuring {players} players ...", file=sys.stderr, flush=True)
        games_one = 200 if quick else games_for(cardcli_run(players, 1, 300, seed), seconds, 300)
        one: Comparison | None = None
        two: Comparison | None = None
        if reference is not None:
            games_ref = 100 if quick else games_for(rlcard_run(players, 300, seed), seconds, 300)
            one = interleaved(lambda p=players, g=games_one: cardcli_run(p, 1, g, seed),
                              lambda p=players, g=games_ref: rlcard_run(p, g, seed), rounds)
            two = interleaved(lambda p=players, g=games_one: cardcli_run(p, 2, 2 * g, seed),
                              lambda p=players, g=games_ref: rlcard_run(p, g, seed, time.perf_counter),
                              rounds)
            rows.append({"players": players, "cardcli_workers_1_rate": round(one.rate_a(), 1),
                         "cardcli_workers_2_rate": round(two.rate_a(), 1),
                         "rlcard_uno_rate": round(one.rate_b(), 1),
                         "workers_1": one.as_dict(), "workers_2": two.as_dict()})
        else:
            alone = cardcli_run(players, 1, games_one, seed)
            rows.append({"players": players, "cardcli_workers_1_rate": round(alone.rate, 1),
                         "cardcli_workers_2_rate": None, "rlcard_uno_rate": None,
                         "workers_1": None, "workers_2": None})
    return rows


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _ratio(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "n/a"
    return f"{cell['ratio_median']:.2f}x [{cell['ratio_low']:.2f}-{cell['ratio_high']:.2f}]"


def render_table(rows: list[dict[str, Any]]) -> str:
    header = ["players", "cardcli 1 worker dec/s", "cardcli 2 workers dec/s", "RLCard UNO dec/s",
              "ratio (1 worker)", "ratio (2 workers)"]
    body = [[str(row["players"]), _rate(row["cardcli_workers_1_rate"]), _rate(row["cardcli_workers_2_rate"]),
             _rate(row["rlcard_uno_rate"]), _ratio(row["workers_1"]), _ratio(row["workers_2"])]
            for row in rows]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [" | ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
             for line in [header, *body]]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def verdict(rows: list[dict[str, Any]]) -> list[str]:
    """The goal, at ``TARGET_PLAYERS`` players, in words."""
    row = next((r for r in rows if r["players"] == TARGET_PLAYERS), None)
    if row is None or row["workers_1"] is None:
        return []
    one, two = row["workers_1"]["ratio_median"], row["workers_2"]["ratio_median"]
    return [f"Goal at {TARGET_PLAYERS} players: >= 1.0x RLCard with --workers 1: {one:.2f}x "
            f"({'met' if one >= 1.0 else 'NOT met'}); close to 2x with both cores (--workers 2): "
            f"{two:.2f}x (the two-worker run includes starting its processes)."]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: few games, one repeat")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--players", default="2,4,6", help="table sizes, comma separated (default 2,4,6)")
    parser.add_argument("--seconds", type=float, default=2.5,
                        help="about how long one measured run takes (default 2.5)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per figure (default 3)")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the games (default 20240601)")
    parser.add_argument("--no-install", action="store_true", help="do not pip install rlcard when missing")
    args = parser.parse_args(argv)
    args.rounds = max(3, args.rounds)
    args.players_list = [int(p) for p in args.players.split(",") if p.strip()]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    version, note = ensure_rlcard(install=not args.no_install)
    reference_line = (f"Reference: rlcard {version} ({note}). {DRIVER_NOTE}" if version is not None
                      else f"Reference: RLCard could not be installed or imported ({note}); "
                           "only cardcli's figures are shown.")
    rows = bench(args.players_list, args.seconds, args.rounds, args.seed, args.quick, version)
    if args.json:
        print(json.dumps({
            "variant": VARIANT,
            "cpu_level": LEVEL,
            "seed": args.seed,
            "rounds": args.rounds,
            "load_average": load_average(),
            "quick": args.quick,
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "implementation": platform.python_implementation()},
            "reference": {"engine": REFERENCE, "version": version, "available": version is not None,
                          "note": note, "driver": DRIVER_NOTE},
            "rows": rows,
        }, indent=2))
        return 0
    print(f"cardcli simulate {VARIANT} (--cpu {LEVEL}, default rules) vs RLCard UNO, decisions per second; "
          f"{args.rounds} interleaved rounds{', QUICK smoke run' if args.quick else ''}; "
          f"{os.cpu_count()} CPUs (shared), Python {platform.python_version()}, "
          f"load average {load_average()}")
    print(reference_line)
    print()
    print(render_table(rows))
    print()
    print("ratio = cardcli / RLCard UNO (RLCard in one process): the median of the rounds [their range].")
    for line in verdict(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
