"""How often an End of the Page round ends by the ``reshuffles`` bound.

    python bench/reshuffle_bound.py [--rounds 1000]

The share of heads-up rounds (one-round pages) that end because the stock ran
out with nobody out, under easy (random) and under normal play.  It is not a
speed benchmark: ``bench_speed.py`` times End of the Page against OpenSpiel.
"""

from __future__ import annotations

import argparse
import random

from cardcli.cpu.players import PolicyPlayer
from cardcli.engine.driver import Driver
from cardcli.engine.game import derive_seed
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset


def reshuffle_bound_rate(rounds: int, level: str, seed: int = 7) -> float:
    """Share of rounds that end because the stock ran out (nobody out)."""
    variant = get_registry().get("endofpage")
    rules = dict(default_ruleset(variant).options)
    rules["page_lines"] = 1
    policy = variant.cpu_policy(level)
    stuck = 0
    for index in range(rounds):
        rng = random.Random(derive_seed(seed, index))
        state = variant.new_state(rules, 2, index % 2)
        player = PolicyPlayer(policy, rng)  # one stream for the deck and both players
        Driver(state, [player, player], rng=rng).run()
        stuck += "nobody went out" in state.notes[-1]
    return stuck / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds (20 rounds)")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 20
    print(f"Rounds ended by the reshuffles bound (stock ran out, nobody out), {args.rounds} rounds:")
    print(f"  easy   {reshuffle_bound_rate(args.rounds, 'easy'):6.1%}")
    print(f"  normal {reshuffle_bound_rate(args.rounds, 'normal'):6.1%}")


if __name__ == "__main__":
    main()
