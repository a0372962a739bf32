"""How strong is the hard CPU, and how long does it think?

Reproduces the figures of the hard-CPU targets:

* heads-up, seats rotated: hard against normal, and normal against easy;
* four players: hard against three normal CPUs;
* for reference, an omniscient copy of hard that sees every card (a
  bench-only player, never offered in play): against normal heads-up, against
  three normal CPUs, and against hard; and how much of the omniscient
  player's edge over normal the honest one keeps;
* a "sighted" copy of hard that sees the other hands but not the order of
  the stock (bench only too), against normal heads-up and against three
  normal CPUs: as well as any honest reading of the hands could ever do;
* decision time at the default budget (median and 95th percentile, four
  players, choices with more than one legal move).

Win rates come with 95% Wilson intervals.  Usage::

    python bench/bench_hard.py                    # every variant that supports hard
    python bench/bench_hard.py --variants matching --games 1000
    python bench/bench_hard.py --quick            # a smoke run
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from cardcli import arena
from cardcli.driver import Driver
from cardcli.game import choose_dealer, derive_seed
from cardcli.players import make_cpu
from cardcli.players.hard import Budget, HardPlayer, supports_hard
from cardcli.plugins import get_registry
from cardcli.records import SeatInfo
from cardcli.rulesets import default_ruleset
from cardcli.variant import State

OMNISCIENT = "cpu:omniscient"
SIGHTED = "cpu:sighted"
_original_make_cpu = make_cpu


class SightedHard(HardPlayer):
    """Bench only: ``hard`` shown the other hands (not the order of the stock).

    How well could any honest reading of the hands do?  No better than this.
    """

    def imagine(self, state: State, seat: int, rng: random.Random) -> State:
        zones = state.card_zones()
        hidden = [name for name in state.hidden_zones(seat) if not name.startswith("hand ")]
        pool = sorted(card for name in hidden for card in zones[name])
        rng.shuffle(pool)
        dealt, start = {}, 0
        for name in hidden:
            dealt[name] = pool[start:start + len(zones[name])]
            start += len(zones[name])
        world = state.clone()
        world.set_zones(dealt)
        return world


def _make_cpu_for_bench(variant, level, seed, seat):
    """The arena's player factory, plus the bench-only omniscient and sighted players."""
    if level == "omniscient":
        return HardPlayer(variant, derive_seed(seed, "hard"), seat, Budget(), omniscient=True)
    if level == "sighted":
        return SightedHard(variant, derive_seed(seed, "hard"), seat, Budget())
    return _original_make_cpu(variant, level, seed, seat)


arena.make_cpu = _make_cpu_for_bench  # this process and its forked workers only


def matchup(name: str, kinds: list[str], games: int, seed: int, workers: int | None) -> dict:
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    players = [SeatInfo(f"p{i}-{kind.split(':')[1]}", kind) for i, kind in enumerate(kinds)]
    report = arena.run(variant, rules, players, games, seed, workers=workers)
    data = report.as_dict()
    return {"matchup": " vs ".join(kinds), "games": report.games, "seconds": round(report.seconds, 1),
            "draws": report.draws, "players": data["players"]}


def decision_times(name: str, games: int, seed: int) -> dict:
    """Seconds per real decision of a default-budget hard CPU among three normal ones."""
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    times: list[float] = []
    for game in range(games):
        game_seed = derive_seed(seed, "times", game)
        state = variant.new_state(rules, 4, choose_dealer(game_seed, 4))
        hard_seat = game % 4
        hard = HardPlayer(variant, game_seed, hard_seat, Budget())
        others = [make_cpu(variant, "normal", game_seed, s) for s in range(4)]
        players = [hard if seat == hard_seat else others[seat] for seat in range(4)]
        Driver(state, players, rng=random.Random(game_seed)).run()
        times.extend(hard.decision_seconds)
    times.sort()
    return {"decisions": len(times), "choices_per_game": round(len(times) / games, 1),
            "median_seconds": round(statistics.median(times), 4),
            "p95_seconds": round(times[int(0.95 * (len(times) - 1))], 4), "max_seconds": round(times[-1], 4),
            "budget": Budget().describe()}


def rate(entry: dict, index: int = 0) -> float:
    return entry["players"][index]["win_rate"]


def line(entry: dict) -> str:
    parts = []
    for p in entry["players"]:
        low, high = p["win_rate_ci95"]
        parts.append(f"{p['kind']} {p['win_rate']:.1%} [{low:.1%}, {high:.1%}]")
    text = f"  {entry['matchup']:<44} {entry['games']:>5} games  " + "  |  ".join(parts)
    if entry["draws"]:  # called-off games: nobody wins them, so say how the rest went too
        decided = entry["games"] - entry["draws"]
        share = entry["players"][0]["wins"] / decided if decided else 0.0
        text += f"  ({entry['draws']} with no single winner; first player wins {share:.1%} of the rest)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", help="variants to measure (default: all that support hard)")
    parser.add_argument("--games", type=int, default=400, help="games per heads-up matchup (default 400)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="a smoke run with few games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = 8 if args.quick else args.games
    registry = get_registry()
    names = args.variants or sorted(registry.variants)
    figures: dict[str, dict] = {}
    for name in names:
        variant = registry.get(name)
        if not supports_hard(variant, variant.new_state(default_ruleset(variant).options, 2, 0)):
            print(f"{name}: does not support the hard CPU (no hidden_zones/set_zones)", file=sys.stderr)
            continue
        started = time.perf_counter()
        entry: dict = {}
        entry["hard_vs_normal"] = matchup(name, ["cpu:hard", "cpu:normal"], games, args.seed, args.workers)
        easy_games = 8 if args.quick else max(games, 1000)  # cheap: always 1,000 games
        entry["normal_vs_easy"] = matchup(name, ["cpu:normal", "cpu:easy"], easy_games, args.seed,
                                          args.workers)
        three_normal = ["cpu:normal"] * 3
        entry["hard_vs_3_normal"] = matchup(name, ["cpu:hard", *three_normal], games, args.seed, args.workers)
        entry["omniscient_vs_normal"] = matchup(name, [OMNISCIENT, "cpu:normal"], games, args.seed,
                                                args.workers)
        entry["omniscient_vs_3_normal"] = matchup(name, [OMNISCIENT, *three_normal], games, args.seed,
                                                  args.workers)
        entry["omniscient_vs_hard"] = matchup(name, [OMNISCIENT, "cpu:hard"], games, args.seed, args.workers)
        entry["sighted_vs_normal"] = matchup(name, [SIGHTED, "cpu:normal"], games, args.seed, args.workers)
        entry["sighted_vs_3_normal"] = matchup(name, [SIGHTED, *three_normal], games, args.seed,
                                               args.workers)
        omniscient_edge = rate(entry["omniscient_vs_normal"]) - 0.5
        hard_edge = rate(entry["hard_vs_normal"]) - 0.5
        entry["edge_kept"] = round(hard_edge / omniscient_edge, 3) if omniscient_edge > 0 else None
        entry["decision_time"] = decision_times(name, 2 if args.quick else 12, args.seed)
        entry["seconds"] = round(time.perf_counter() - started, 1)
        figures[name] = entry
        if not args.json:
            print(f"{name} ({entry['seconds']} s)")
            for key in ("hard_vs_normal", "normal_vs_easy", "hard_vs_3_normal", "omniscient_vs_normal",
                        "omniscient_vs_3_normal", "omniscient_vs_hard", "sighted_vs_normal",
                        "sighted_vs_3_normal"):
                print(line(entry[key]))
            kept = entry["edge_kept"]
            print(f"  edge over normal kept by the honest player: "
                  f"{'n/a' if kept is None else f'{kept:.0%}'}")
            t = entry["decision_time"]
            print(f"  decision time (4 players, {t['budget']}): median {t['median_seconds'] * 1000:.0f} ms, "
                  f"95th percentile {t['p95_seconds'] * 1000:.0f} ms over {t['decisions']} decisions "
                  f"({t['choices_per_game']} real choices a game)")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
