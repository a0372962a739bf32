"""Decisions per second of ``cardcli simulate trick`` beside OpenSpiel's trick-taking games.

Why this exists: the trick variant's performance goal is stated against a
reference engine, "at least 0.5x OpenSpiel's Python-loop decisions per second
at 4 players".  This script measures both sides on the same machine, in the
same Python, so that the claim can be checked rather than assumed.

What is measured:

* cardcli: ``cardcli.simulate.run`` (the library call behind ``cardcli simulate
  trick --players 4 --cpu easy --workers 1``) with the default rules and random
  (``easy``) CPUs, in one process.
* OpenSpiel: ``pyspiel.load_game("hearts")`` (or ``--game oh_hell``) driven
  from a plain Python loop: at a chance node an outcome drawn from
  ``chance_outcomes()``, at a decision a uniformly random action from
  ``legal_actions()``, then ``apply_action``, until ``is_terminal()``.  The
  rules run in C++; the loop, the random choices and the bindings are Python.

A decision is one player's choice (chance outcomes are applied on both sides
but not counted).  The games differ, so compare rates, not game lengths.

OpenSpiel is not a dependency of the project.  When ``pyspiel`` is missing this
script runs ``python -m pip install open_spiel``; if that fails it prints
cardcli's figure, says so, and exits 0.

Usage::

    python bench/bench_trick.py              # about 3 s per side, best of 3
    python bench/bench_trick.py --quick      # a smoke run
    python bench/bench_trick.py --json       # the figures as one JSON object
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from dataclasses import asdict

from _common import Measurement, best_of, ensure_reference, games_for, open_spiel_random_games

from cardcli.players import default_seats
from cardcli.plugins import get_registry
from cardcli.rulesets import default_ruleset
from cardcli.simulate import run

TARGET = 0.5


# --- cardcli ---------------------------------------------------------------------------------------------
def cardcli_run(players: int, games: int, seed: int) -> Measurement:
    """``cardcli simulate trick --players N --cpu easy --workers 1 --games G --seed S``."""
    variant = get_registry().get("trick")
    rules = default_ruleset(variant).options
    seats = default_seats(variant, players, human=None, level="easy")
    summary = run(variant, rules, seats, games, seed, workers=1)
    return Measurement(summary.games, summary.decisions, summary.seconds)


# --- OpenSpiel -------------------------------------------------------------------------------------------
def open_spiel_run(game_name: str, players: int, games: int, seed: int) -> Measurement:
    """``games`` games of uniformly random legal play, driven from Python."""
    params = {"players": players} if game_name != "hearts" else {}
    return open_spiel_random_games(game_name, games, seed, params)


# --- the report ------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="hearts", choices=("hearts", "oh_hell"),
                        help="OpenSpiel's reference game (hearts is always 4 players)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one measured run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per side; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--no-install", action="store_true", help="do not pip-install open_spiel")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    seconds = 0.3 if args.quick else args.seconds
    repeats = 1 if args.quick else args.repeats

    sample = cardcli_run(args.players, 200, args.seed)
    games = games_for(sample, seconds, 200)
    ours = best_of(repeats, lambda: cardcli_run(args.players, games, args.seed))

    version, note = ensure_reference("pyspiel", "open_spiel", not args.no_install)
    theirs = None
    if version is not None:
        sample = open_spiel_run(args.game, args.players, 50, args.seed)
        ref_games = games_for(sample, seconds, 50)
        theirs = best_of(repeats, lambda: open_spiel_run(args.game, args.players, ref_games, args.seed))
    ratio = ours.rate / theirs.rate if theirs is not None and theirs.rate > 0 else None

    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players": args.players,
        "cardcli_trick_workers_1": asdict(ours) | {"decisions_per_second": round(ours.rate, 1)},
        "open_spiel": None if theirs is None else
        asdict(theirs) | {"game": args.game, "version": version,
                          "decisions_per_second": round(theirs.rate, 1)},
        "open_spiel_note": note,
        "ratio": None if ratio is None else round(ratio, 3),
        "target": TARGET,
        "meets_target": None if ratio is None else ratio >= TARGET,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"cardcli simulate trick, {args.players} players, easy CPUs, --workers 1: "
          f"{ours.rate:,.0f} decisions/s ({ours.decisions:,} decisions in {ours.seconds:.2f} s)")
    if theirs is None:
        print(f"OpenSpiel: not measured ({note}); only cardcli's figure is shown.")
        return 0
    print(f"OpenSpiel {args.game} {version}, Python loop, random legal actions: "
          f"{theirs.rate:,.0f} decisions/s ({theirs.decisions:,} decisions in {theirs.seconds:.2f} s)")
    verdict = "meets" if ratio >= TARGET else "misses"
    print(f"ratio cardcli / OpenSpiel: {ratio:.2f}x ({verdict} the {TARGET}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
