"""Benchmark: End of the Page rounds and decisions per second, beside OpenSpiel's gin_rummy.

    python bench/bench_endofpage.py [--rounds 2000] [--openspiel-games 300]

cardcli: ``cardcli simulate endofpage --players 2 --workers 1`` with a
one-round page (so games = rounds = deals), random (easy) and normal CPUs.
OpenSpiel: ``gin_rummy`` driven from a Python loop with uniformly random
legal actions (chance outcomes sampled from their distribution).  OpenSpiel
is installed with pip into the running interpreter if missing; if that
fails the cardcli figures are still printed.

Also reports how often a round ends by the ``reshuffles`` bound (the stock
ran out with nobody out) under easy and under normal play.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ensure_reference, open_spiel_random_games

ONE_ROUND = 'name = "bench"\nvariant = "endofpage"\n\n[options]\npage_lines = 1\n'


def cardcli_simulate(rounds: int, level: str, seed: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        ruleset = Path(folder) / "one-round.toml"
        ruleset.write_text(ONE_ROUND)
        out = subprocess.run([sys.executable, "-c", "from cardcli.cli import main; main()", "simulate",
                              "endofpage", "--players", "2", "--cpu", level, "--workers", "1",
                              "--games", str(rounds), "--seed", str(seed), "--ruleset", str(ruleset),
                              "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def reshuffle_bound_rate(rounds: int, level: str, seed: int = 7) -> float:
    """Share of rounds that end because the stock ran out (nobody out)."""
    from cardcli.driver import Driver
    from cardcli.game import derive_seed
    from cardcli.players import PolicyPlayer
    from cardcli.plugins import get_registry
    from cardcli.rulesets import default_ruleset

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


def openspiel_gin_rummy(games: int, seed: int = 1) -> dict | None:
    """OpenSpiel's gin_rummy with random legal play, or None when OpenSpiel cannot be had."""
    version, note = ensure_reference("pyspiel", "open_spiel", True)
    if version is None:
        print(f"  {note}")
        return None
    run = open_spiel_random_games("gin_rummy", games, seed)
    return {"games": run.games, "decisions": run.decisions, "seconds": run.seconds,
            "games_per_second": run.games_per_second, "decisions_per_second": run.rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--openspiel-games", type=int, default=300)
    parser.add_argument("--bound-rounds", type=int, default=1000)
    args = parser.parse_args()

    print(f"cardcli simulate endofpage, 2 players, --workers 1, {args.rounds} one-round games")
    easy = cardcli_simulate(args.rounds, "easy")
    normal = cardcli_simulate(args.rounds, "normal")
    for name, data in (("easy", easy), ("normal", normal)):
        print(f"  {name:<6} {data['games_per_second']:>9,.0f} rounds/s  "
              f"{data['decisions_per_second']:>10,.0f} decisions/s  "
              f"({data['decisions'] / data['games']:.1f} decisions a round)")
    print(f"Rounds ended by the reshuffles bound (stock ran out, nobody out), {args.bound_rounds} rounds:")
    print(f"  easy   {reshuffle_bound_rate(args.bound_rounds, 'easy'):6.1%}")
    print(f"  normal {reshuffle_bound_rate(args.bound_rounds, 'normal'):6.1%}")
    print(f"OpenSpiel gin_rummy, random legal actions from a Python loop, {args.openspiel_games} games")
    spiel = openspiel_gin_rummy(args.openspiel_games)
    if spiel is None:
        print("  (not available: only cardcli's figures above)")
        return
    print(f"  {spiel['games_per_second']:>9,.0f} games/s   "
          f"{spiel['decisions_per_second']:>10,.0f} decisions/s")
    ratio = easy["games_per_second"] / spiel["games_per_second"]
    print(f"Ratio (cardcli easy rounds/s to OpenSpiel gin_rummy games/s): {ratio:.2f}x "
          f"({'meets' if ratio >= 1 else 'misses'} the target of at least 1x)")
    print(f"Decisions/s ratio: {easy['decisions_per_second'] / spiel['decisions_per_second']:.2f}x")


if __name__ == "__main__":
    main()
