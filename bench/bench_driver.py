"""The game driver's hot path beside the hand-written loops it replaced.

Why this exists: every use of the engine now goes through one driver
(``cardcli.engine.driver.Driver``).  Its plain path (no hooks, no checks) must stay
as fast as the fastest loop it replaced, ``simulate.play_fast``, and hard's
playouts must not slow down.  This script times both sides on the same games.

What is measured, per variant (4 players; End of the Page heads-up, one-round
pages), each side playing the very same seeded games:

* **games**: A is the former ``simulate.play_fast`` loop, copied here
  verbatim; B is today's ``simulate.play_fast``, which runs the driver
  (without history: nothing looks back at a simulated game), and again B
  keeping the history, to show what that costs.  Random (``easy``) CPUs.
* **hard's playouts**: the flat rating of the former ``HardPlayer.rate``
  (every legal move played out on the same imagined deals, 200 playouts a
  decision, at positions a few moves into games), A with the former
  hand-written playout loop (copied here, with today's stops: the
  variant's ``rollout_value``, and ``playout_estimate`` after
  ``PLAYOUT_CUTOFF`` events), B with ``HardPlayer.playout``, which runs the
  driver.  (Today's search, a tree over the seat's information sets, is
  built on those playouts; ``bench/bench_hard.py`` measures its strength.)

Both sides run interleaved, A B B A, for ``--rounds`` rounds in one process,
timed by the process's CPU time, so a shared machine slows both alike; the
figure is the median of the per-round ratios (A's time over B's: above 1.00
the driver is faster) with their range.  Both sides must do identical work:
the script checks the decision counts and the search's ratings.

Usage::

    python bench/bench_driver.py              # about a minute
    python bench/bench_driver.py --quick      # a smoke run
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from cardcli.contract.hidden import HiddenInfo
from cardcli.contract.variant import CHANCE, TERMINAL, State
from cardcli.cpu.players import default_seats, make_cpu
from cardcli.cpu.players.hard import MAX_PLAYOUT_EVENTS, Budget, HardPlayer, place_value
from cardcli.cpu.players.ismcts import PLAYOUT_CUTOFF
from cardcli.cpu.simulate import GameOutcome, play_fast
from cardcli.engine.driver import Driver
from cardcli.engine.game import choose_dealer, derive_seed
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset

TABLES = {"matching": (4, {}), "trick": (4, {}), "endofpage": (2, {"page_lines": 1})}


# --- A: the loops as they were written before the driver -------------------------------------------------
def former_play_fast(variant, rules, seats, seed: int) -> GameOutcome:
    """``simulate.play_fast`` before the driver, verbatim."""
    n = len(seats)
    dealer = choose_dealer(seed, n)
    state = variant.new_state(rules, n, dealer)
    chance_rng = random.Random(derive_seed(seed, "chance"))
    acts = [make_cpu(variant, seat.cpu_level or "easy", seed, i).act for i, seat in enumerate(seats)]
    decisions = events = 0
    current_player = state.current_player
    apply_legal = state.apply_legal
    while True:
        player = current_player()
        if player >= 0:
            legal = state.legal_actions()
            action = acts[player](state, player, legal)
            decisions += 1
        elif player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            break
        apply_legal(action)
        events += 1
    result = state.result()
    assert result is not None and player == TERMINAL
    return GameOutcome(0, seed, result.places, result.winner, decisions, events, result.scores)


def play_fast_with_history(variant, rules, seats, seed: int) -> GameOutcome:
    """Today's ``simulate.play_fast``, but keeping the driver's history."""
    n = len(seats)
    state = variant.new_state(rules, n, choose_dealer(seed, n))
    players = [make_cpu(variant, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    driver = Driver(state, players, rng=random.Random(derive_seed(seed, "chance")))
    result = driver.run()
    assert result is not None
    return GameOutcome(0, seed, result.places, result.winner, driver.moves, driver.events, result.scores)


def flat_rate(searcher: HardPlayer, state: State, seat: int, legal: list, rng: random.Random,
              playout: Callable[[State, int, random.Random], float]) -> list:
    """``HardPlayer.rate`` as it was (flat, with an iteration budget) with
    ``playout`` for its playouts; the mean value of each legal move."""
    count = len(legal)
    totals = [0.0] * count
    limit = searcher.budget.iterations
    worlds = done = 0
    while limit is None or done + count <= max(limit, count):
        world = searcher.imagine(state, seat, rng)
        stream = rng.getrandbits(64)
        for index in range(count):
            trial = world.clone()
            trial.apply_legal(legal[index])
            totals[index] += playout(trial, seat, random.Random(stream))
        worlds += 1
        done += count
    return [total / worlds for total in totals]


def former_playout(searcher: HardPlayer, world: State, seat: int, rng: random.Random) -> float:
    """``HardPlayer.playout`` before the driver, verbatim but for today's cutoff."""
    policy = searcher.rollout
    estimates = type(world).playout_estimate is not HiddenInfo.playout_estimate
    for _ in range(PLAYOUT_CUTOFF if estimates else MAX_PLAYOUT_EVENTS):
        player = world.current_player()
        if player >= 0:
            world.apply_legal(policy(world, player, world.legal_actions(), rng))
        elif player == CHANCE:
            world.apply_legal(world.sample_chance(rng))
        else:
            assert player == TERMINAL
            return place_value(world, seat)
        early = world.rollout_value(seat)
        if early is not None:
            return early
    if world.current_player() == TERMINAL:  # ended by the very last event allowed
        return place_value(world, seat)
    if estimates:
        return world.playout_estimate(seat)
    return 0.5


# --- the two measurements --------------------------------------------------------------------------------
def games_pair(name: str, games: int, seed: int,
               history: bool = False) -> tuple[Callable[[], int], Callable[[], int]]:
    variant = get_registry().get(name)
    players, overrides = TABLES[name]
    rules = {**default_ruleset(variant).options, **overrides}
    seats = default_seats(variant, players, human=None, level="easy")
    seeds = [derive_seed(seed, name, i) for i in range(games)]

    today = play_fast_with_history if history else play_fast

    def before() -> int:
        return sum(former_play_fast(variant, rules, seats, s).decisions for s in seeds)

    def after() -> int:
        return sum(today(variant, rules, seats, s).decisions for s in seeds)

    return before, after


def search_pair(name: str, count: int, seed: int) -> tuple[Callable[[], float], Callable[[], float]]:
    """The hard CPU's search (``rate``, 200 playouts a decision) at positions a
    few decisions into games; each side returns the sum of every rating (they
    must agree: the same playouts)."""
    variant = get_registry().get(name)
    players, overrides = TABLES[name]
    rules = {**default_ruleset(variant).options, **overrides}
    searcher = HardPlayer(variant, seed, 0, Budget(iterations=200, seconds=None))
    starts: list[tuple[State, int, list]] = []
    rng = random.Random(seed)
    policy = variant.cpu_policy("easy")
    while len(starts) < count:
        state = variant.new_state(rules, players, rng.randrange(players))
        for _ in range(rng.randrange(4, 16)):
            player = state.current_player()
            if player == TERMINAL:
                break
            state.apply_legal(state.sample_chance(rng) if player == CHANCE
                              else policy(state, player, state.legal_actions(), rng))
        player = state.current_player()
        if player >= 0 and len(state.legal_actions()) > 1:
            starts.append((state, player, state.legal_actions()))

    def former(world: State, seat: int, rng: random.Random) -> float:
        return former_playout(searcher, world, seat, rng)

    def before() -> float:
        return sum(sum(flat_rate(searcher, state, seat, legal, random.Random(i), former))
                   for i, (state, seat, legal) in enumerate(starts))

    def after() -> float:
        return sum(sum(flat_rate(searcher, state, seat, legal, random.Random(i), searcher.playout))
                   for i, (state, seat, legal) in enumerate(starts))

    return before, after


def interleaved(before: Callable[[], float], after: Callable[[], float], rounds: int) -> dict:
    """A B B A ... for ``rounds`` rounds; per-round ratio of B's rate to A's."""
    clock = time.process_time  # this process's CPU time: fairer than wall time on a shared machine
    ratios = []
    a_seconds = b_seconds = 0.0
    work_a = work_b = 0.0
    for number in range(rounds):
        order = (before, after, after, before) if number % 2 == 0 else (after, before, before, after)
        times = {before: 0.0, after: 0.0}
        for side in order:
            started = clock()
            work = side()
            times[side] += clock() - started
            if side is before:
                work_a = work
            else:
                work_b = work
        if work_a != work_b:
            raise SystemExit(f"the two sides did different work: {work_a} against {work_b}")
        ratios.append(times[before] / times[after])
        a_seconds += times[before]
        b_seconds += times[after]
    return {"median": statistics.median(ratios), "low": min(ratios), "high": max(ratios),
            "rounds": rounds, "work": work_a, "a_seconds": a_seconds, "b_seconds": b_seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="A B B A rounds (default 7)")
    parser.add_argument("--games", type=int, default=150, help="games per side per run (default 150)")
    parser.add_argument("--positions", type=int, default=4,
                        help="hard decisions searched per side per run (default 4)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--variants", nargs="*", default=list(TABLES))
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.games, args.positions = 3, 5, 1
    print(f"Driver hot path, interleaved A B B A x {args.rounds} in one process "
          f"(the machine may be shared: both sides feel it alike).")
    print("ratio = A's time / B's time for the same work: above 1.00, the driver is faster.")
    for name in args.variants:
        players, _ = TABLES[name]
        games = interleaved(*games_pair(name, args.games, args.seed), args.rounds)
        print(f"  {name:<10} {players}p games    ({games['work'] / args.games:5.1f} decisions a game): "
              f"median {games['median']:.3f}  range {games['low']:.3f}-{games['high']:.3f}  "
              f"({games['work'] * 2 * args.rounds / games['b_seconds']:,.0f} decisions/s through the driver)")
        kept = interleaved(*games_pair(name, args.games, args.seed, history=True), args.rounds)
        print(f"  {name:<10} {players}p games, the driver keeping its history:          "
              f"median {kept['median']:.3f}  range {kept['low']:.3f}-{kept['high']:.3f}")
        search = interleaved(*search_pair(name, args.positions, args.seed), args.rounds)
        print(f"  {name:<10} {players}p hard's playouts ({args.positions} decisions, 200 playouts each): "
              f"median {search['median']:.3f}  range {search['low']:.3f}-{search['high']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
