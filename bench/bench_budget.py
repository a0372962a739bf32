"""Would more playouts make the hard CPU stronger?

The arena answers this slowly: a gain of a point or two needs thousands of
games.  This bench asks the decisions instead.  ``hard`` plays against
``normal`` CPUs at its default budget; at each of its first real decisions
of a game (more than one legal move), copies of it that followed the same
game with the same knowledge choose again with other budgets, and a long
*reference* search (every move given the same share of a much larger
budget, so each move's value is measured as well as the next) rates every
legal move.  For each budget it prints:

* how often its choice is the reference's best move;
* the mean *regret*: the reference's value of its best move less its value
  of the move chosen (values are the search's own, mostly the chance of
  winning: 1 for a sure win, 0 for a sure last place, so a regret of 0.01
  is about one point of that chance given away);
* how many decisions had a regret over 0.02 (a move the reference finds
  clearly worse, not a near tie).

If a bigger budget does not bring the choices closer to the reference, the
budget is not what the hard CPU lacks.

Usage::

    python bench/bench_budget.py trick --players 2 --games 40
    python bench/bench_budget.py matching --players 4 --games 60 --budgets 600 2400 --reference 9600
    python bench/bench_budget.py trick --quick      # a smoke run, in seconds
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from typing import Any

from cardcli.cpu.players import make_cpu
from cardcli.cpu.players.hard import Budget, HardPlayer
from cardcli.engine.driver import Driver
from cardcli.engine.game import choose_dealer, derive_seed
from cardcli.engine.plugins import PluginError, get_registry
from cardcli.engine.rulesets import default_ruleset


class _Enough(Exception):
    """The game has given the decisions this bench wanted of it."""


class Probe(HardPlayer):
    """``hard`` at the first budget, with copies at the others and the
    reference, all following the same game from the same seat."""

    def __init__(self, variant: Any, seed: int, seat: int, budgets: list[int], reference: int,
                 decisions: int, rows: list[dict]):
        super().__init__(variant, seed, seat, Budget(budgets[0], None))
        self.copies = [HardPlayer(variant, seed + 1 + i, seat, Budget(budget, None))
                       for i, budget in enumerate(budgets[1:])]
        self.reference = HardPlayer(variant, seed + 99, seat, Budget(reference, None), halving=False)
        self.decisions = decisions
        self.rows = rows
        self.asked = 0

    def observe(self, state: Any, seat: int, action: Any, event: int) -> None:
        super().observe(state, seat, action, event)
        for other in (*self.copies, self.reference):
            other.observe(state, seat, action, event)

    def act(self, state: Any, seat: int, legal: list[Any]) -> Any:
        if len(legal) > 1 and self.asked >= self.decisions:
            raise _Enough
        choice = super().act(state, seat, legal)
        if len(legal) > 1:
            self.asked += 1
            choices = [choice, *(copy.act(state, seat, legal) for copy in self.copies)]
            values = {rating.action: rating.value for rating in self.reference.rate(state, seat, legal)}
            best = max(values.values())
            self.rows.append({"moves": len(legal), "regrets": [best - values[c] for c in choices]})
        return choice


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=5, help="real decisions asked of each game")
    parser.add_argument("--budgets", type=int, nargs="+", default=[600, 1200],
                        help="playouts; the first is the one that plays")
    parser.add_argument("--reference", type=int, default=6000, help="the reference search's playouts")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run in seconds: one decision of one game, budgets of 10 and 20 "
                             "playouts, a reference of 40 (the figures mean nothing)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.decisions, args.budgets, args.reference = 1, 1, [10, 20], 40
    try:
        variant = get_registry().get(args.variant)
    except PluginError as error:
        print(f"bench_budget: {error}", file=sys.stderr)
        return 2
    rules = dict(default_ruleset(variant).options)
    rows: list[dict] = []
    started = time.perf_counter()
    for game in range(args.games):
        seed = derive_seed(args.seed, "budget", game)
        state = variant.new_state(rules, args.players, choose_dealer(seed, args.players))
        seat = game % args.players
        probe = Probe(variant, seed, seat, args.budgets, args.reference, args.decisions, rows)
        players = [probe if s == seat else make_cpu(variant, "normal", seed, s) for s in range(args.players)]
        with contextlib.suppress(_Enough):
            Driver(state, players, rng=random.Random(seed)).run()
    print(f"{args.variant}, {args.players} players: {len(rows)} decisions of hard's first {args.decisions} "
          f"in {args.games} games, rated by a reference search of {args.reference} playouts "
          f"({time.perf_counter() - started:.0f} s)")
    if not rows:
        return 0
    moves = statistics.mean(row["moves"] for row in rows)
    print(f"  legal moves a decision: {moves:.1f} on average")
    for index, budget in enumerate(args.budgets):
        regrets = [row["regrets"][index] for row in rows]
        agree = sum(1 for r in regrets if r == 0) / len(regrets)
        clear = sum(1 for r in regrets if r > 0.02)
        print(f"  {budget:>6} playouts: the reference's best move {agree:.1%}, mean regret "
              f"{statistics.mean(regrets):.4f}, regret over 0.02 in {clear} of {len(regrets)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
