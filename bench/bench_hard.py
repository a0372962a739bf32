"""How strong is the hard CPU, and how long does it think?

Measures every figure of docs/cpu.md's "Measured strength", seats rotated,
95% Wilson intervals, and prints them as the tables the page shows:

* heads-up: hard against normal, and normal against easy;
* four players: hard against three normal CPUs (with the share of games
  someone won, for trick, whose called-off deals nobody wins);
* what the search is made of, each against normal heads-up on the same
  deals: hard without its tree (every later choice as normal would make it:
  flat Monte Carlo) and hard knowing only what the table shows now (no
  memory of earlier events);
* for reference, bench-only copies that see more than a seat may: one that
  sees the other hands (not the order of the stock), the *sighted* copy, as
  well as any reading of the hands could ever do; one that sees every card,
  the *omniscient* copy; at four players, one told only how many cards of
  each suit every other hand holds (how far an exact reading of the suits
  would take it);
* a short arena in every shipped ruleset: hard against normal heads-up;
* decision time at the default budget, heads-up and at four players
  (median, 95th percentile and the share of decisions the clock stopped).

Usage::

    python bench/bench_hard.py                            # everything: hours on two cores
    python bench/bench_hard.py --variants matching --games 1000
    python bench/bench_hard.py --quick                    # a smoke run
    python bench/bench_hard.py --variants matching --only hard_vs_3_normal --search exploration=0.3
    python bench/bench_hard.py --json > figures.json
    python bench/bench_hard.py --save figures.json    # keeps each row as it is measured
    python bench/bench_hard.py --table figures.json   # the tables of a saved (even unfinished) run
    python bench/bench_hard.py --save figures.json --resume   # go on with a stopped run

The full run takes hours, so a run saved with ``--save`` can be stopped and
taken up again with ``--resume``: the rows already measured are kept, and the
rest are measured by the same code with the same settings. The file names the
commit it was measured at and refuses to be resumed by another (or by a
checkout with changes): check that commit out, for instance in a worktree,
to finish the run.

A game of End of the Page is a whole page (ten rounds by default), so its
rows have their own, smaller sample (``--pages``, ``--pages4``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from cardcli.cpu import arena
from cardcli.cpu.parallel import LocalBackend
from cardcli.cpu.players import make_cpu
from cardcli.cpu.players.hard import Budget, HardPlayer, supports_hard
from cardcli.engine.driver import Driver
from cardcli.engine.game import choose_dealer, derive_seed
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset, load_ruleset, shipped_rulesets
from cardcli.kit.cards import SUIT
from cardcli.kit.record_format import SeatInfo

_original_make_cpu = make_cpu
#: The budget every hard player of the bench gets (``--playouts`` sets it; default: the default budget).
BUDGET = Budget()
#: The budget of a --quick run (a smoke run: the rows run, their figures mean nothing), and its
#: house rules where a variant has them (a page of one round: an End of the Page game is ten).
QUICK_PLAYOUTS = 10
QUICK_RULES = {"page_lines": 1}
quick_run = False
#: Search settings every hard player of the bench gets (``--search exploration=0.3``; default: none).
SEARCH: dict[str, float] = {}

#: Bench-only players (never offered in play): ``cpu:LEVEL`` for the arena.
VARIANTS_OF_HARD = {
    "flat": {"depth": False},          # no tree below the root
    "table": {"follow": False},        # what the table shows now, no memory of earlier events
    "reading": {"read": True},         # the opponent model on top
}


class SightedHard(HardPlayer):
    """Bench only: ``hard`` shown the other hands (not the order of the stock).

    How well could any honest reading of the hands do?  No better than this.
    """

    def imagine(self, state: Any, seat: int, rng: random.Random) -> Any:
        zones = state.card_zones()
        hidden = [name for name in state.hidden_zones(seat) if not name.startswith("hand ")]
        pool = sorted(card for name in hidden for card in zones[name])
        rng.shuffle(pool)
        return _with_zones(state, _dealt_in_order(pool, zones, hidden))


class SuitCountsHard(HardPlayer):
    """Bench only: ``hard`` told how many cards of each suit every other hand
    holds (not which cards), the rest dealt at random.

    Much more about the hands' suits than a seat can work out from the table
    (a suit a player had to draw to follow, a draw instead of a play): how far
    would an exact reading of the suits take the search?
    """

    def imagine(self, state: Any, seat: int, rng: random.Random) -> Any:
        zones = state.card_zones()
        hidden = state.hidden_zones(seat)
        pool = sorted(card for name in hidden for card in zones[name])
        rng.shuffle(pool)
        dealt = {}
        for name in hidden:
            if name.startswith("hand "):
                wanted = Counter(SUIT[card] for card in zones[name])  # the joker: "no suit"
                dealt[name], pool = _take_suits(pool, wanted)
        rest = [name for name in hidden if not name.startswith("hand ")]
        return _with_zones(state, {**dealt, **_dealt_in_order(pool, zones, rest)})


def _dealt_in_order(pool: list[int], zones: dict, names: list[str]) -> dict[str, list[int]]:
    """``pool`` dealt into ``names`` in order, each zone as many cards as it holds."""
    dealt, start = {}, 0
    for name in names:
        dealt[name] = pool[start:start + len(zones[name])]
        start += len(zones[name])
    return dealt


def _with_zones(state: Any, dealt: dict[str, list[int]]) -> Any:
    """A copy of ``state`` with ``dealt`` put in its zones."""
    world = state.clone()
    world.set_zones(dealt)
    return world


def _take_suits(pool: list[int], wanted: Counter) -> tuple[list[int], list[int]]:
    """The first cards of ``pool`` that make up ``wanted`` cards per suit, and the rest."""
    taken, rest = [], []
    for card in pool:
        if wanted[SUIT[card]] > 0:
            wanted[SUIT[card]] -= 1
            taken.append(card)
        else:
            rest.append(card)
    return taken, rest


def _make_cpu_for_bench(variant, level, seed, seat):
    """The arena's player factory, plus the bench-only players."""
    budget, search = BUDGET, SEARCH
    if level == "hard":
        return HardPlayer(variant, derive_seed(seed, "hard"), seat, budget, search=search)
    if level == "omniscient":
        return HardPlayer(variant, derive_seed(seed, "hard"), seat, budget, omniscient=True, search=search)
    if level == "sighted":
        return SightedHard(variant, derive_seed(seed, "hard"), seat, budget, search=search)
    if level == "suits":
        return SuitCountsHard(variant, derive_seed(seed, "hard"), seat, budget, search=search)
    if level.startswith("hard-") and level[5:] in VARIANTS_OF_HARD:
        return HardPlayer(variant, derive_seed(seed, "hard"), seat, budget, search=search,
                          **VARIANTS_OF_HARD[level[5:]])
    return _original_make_cpu(variant, level, seed, seat)


arena.make_cpu = _make_cpu_for_bench  # this process and its forked workers only


def matchup(name: str, kinds: list[str], games: int, seed: int, workers: int | None,
            rules: dict | None = None, part: dict | None = None, save: Any = None) -> dict:
    """``kinds`` against each other over ``games`` rotated games.  With ``part``
    (a dict kept in the saved file) the games are played a tenth at a time and
    each tenth is saved, so a stopped run loses at most one; game i is the same
    in any part, so the figures are the whole run's."""
    variant = get_registry().get(name)
    rules = rules if rules is not None else dict(default_ruleset(variant).options)
    if quick_run:
        rules = {**rules, **{key: value for key, value in QUICK_RULES.items() if key in rules}}
    players = [SeatInfo(f"p{i}-{kind.split(':')[1]}", kind) for i, kind in enumerate(kinds)]
    backend = LocalBackend(workers)
    part = part if part is not None else {}
    played = [arena.ArenaGame(**game) for game in part.get("games", [])]
    have = {game.index for game in played}
    block = max(10, games // 10) if save else games
    for start in range(0, games, block):
        numbers = [i for i in range(start, min(games, start + block)) if i not in have]
        if not numbers:
            continue
        started = time.perf_counter()
        played += arena.play_games(variant, rules, players, games, seed, backend=backend, numbers=numbers)
        part["seconds"] = part.get("seconds", 0.0) + time.perf_counter() - started
        if save:
            part["games"] = [dataclasses.asdict(game) for game in played]
            save()
    played.sort(key=lambda game: game.index)
    report = arena.summarize(variant, players, played, seed, backend.workers, part.get("seconds", 0.0))
    data = report.as_dict()
    return {"matchup": " vs ".join(kinds), "games": report.games, "seconds": round(report.seconds, 1),
            "draws": report.draws, "players": data["players"]}


def decision_times(name: str, players: int, games: int, seed: int) -> dict:
    """Seconds per real decision (more than one legal move) of a default-budget
    hard CPU among normal ones, and how often the clock stopped it."""
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    if quick_run:
        rules.update((key, value) for key, value in QUICK_RULES.items() if key in rules)
    times: list[float] = []
    stops = 0
    for game in range(games):
        game_seed = derive_seed(seed, "times", players, game)
        state = variant.new_state(rules, players, choose_dealer(game_seed, players))
        hard_seat = game % players
        hard = HardPlayer(variant, game_seed, hard_seat, BUDGET, search=SEARCH)
        seated = [hard if seat == hard_seat else make_cpu(variant, "normal", game_seed, seat)
                  for seat in range(players)]
        Driver(state, seated, rng=random.Random(game_seed)).run()
        times.extend(hard.decision_seconds)
        stops += hard.clock_stops
    times.sort()
    if not times:
        return {"decisions": 0}
    return {"players": players, "games": games, "decisions": len(times),
            "load_average": round(os.getloadavg()[0], 2),
            "median_seconds": round(statistics.median(times), 4),
            "p95_seconds": round(times[math.ceil(0.95 * len(times)) - 1], 4),  # nearest rank
            "max_seconds": round(times[-1], 4),
            "clock_stops": stops, "clock_stop_share": round(stops / len(times), 4),
            "budget": BUDGET.describe()}


def cell(entry: dict, index: int = 0) -> str:
    """A player's win rate with its interval and sample, as the docs' table shows it."""
    p = entry["players"][index]
    low, high = p["win_rate_ci95"]
    text = f"{p['win_rate']:.1%} [{low:.1%}, {high:.1%}] ({entry['games']})"
    if entry["draws"]:
        decided = entry["games"] - entry["draws"]
        share = p["wins"] / decided if decided else 0.0
        text += f"; {entry['draws'] / entry['games']:.0%} called off, {share:.1%} of the rest"
    return text


def against(entry: dict) -> str:
    """Heads-up, the other player's win rate too (a called-off deal is nobody's)."""
    if len(entry["players"]) != 2:
        return ""
    other = entry["players"][1]
    return f"; {other['kind'].removeprefix('cpu:')} {other['win_rate']:.1%}"


def line(entry: dict) -> str:
    parts = []
    for p in entry["players"]:
        low, high = p["win_rate_ci95"]
        score = f", mean score {p['mean_score']:.0f}" if "mean_score" in p else ""
        parts.append(f"{p['kind']} {p['win_rate']:.1%} [{low:.1%}, {high:.1%}] "
                     f"(place {p['mean_place']:.2f}{score})")
    text = f"  {entry['matchup']:<40} {entry['games']:>5} games  " + "  |  ".join(parts)
    if entry["draws"]:  # called-off games: nobody wins them, so say how the rest went too
        decided = entry["games"] - entry["draws"]
        share = entry["players"][0]["wins"] / decided if decided else 0.0
        text += f"  ({entry['draws']} with no single winner; first player wins {share:.1%} of the rest)"
    return text


def measure(name: str, args: argparse.Namespace, rows: dict[str, Any], save: Any = None) -> dict:
    """Every figure of one variant, into ``rows``; ``save()`` after each row (a long run keeps
    what it measured)."""
    quick = args.quick
    pages = name == "endofpage"
    two = 2 if quick else (args.pages if pages else args.games)
    four = 1 if quick else (args.pages4 if pages else args.games4)
    reference = 1 if quick else min(two, args.reference_pages if pages else args.reference)
    reference4 = 1 if quick else min(four, args.reference_pages if pages else args.reference)
    seed, workers = args.seed, args.workers
    normal3 = ["cpu:normal"] * 3
    save = save or (lambda: None)

    def measured(into: dict, key: str, kinds: list[str], games: int, rules: dict | None = None,
                 label: str = "") -> None:
        """Row ``key`` of ``into``: kept if a resumed run has it, else measured (and saved)."""
        started, kept = time.perf_counter(), key in into
        if not kept:
            parts = rows.setdefault("unfinished", {})
            part = parts.setdefault(f"{label}/{key}" if label else key, {})
            into[key] = matchup(name, kinds, games, seed, workers, rules, part=part,
                                save=save if args.save else None)
            parts.pop(f"{label}/{key}" if label else key)
            save()
        if not args.json:
            took = "(kept)" if kept else f"({time.perf_counter() - started:.0f} s)"
            print(f"  [{key}] {line(into[key]).strip()}" if label else line(into[key]), took, flush=True)

    def run(key: str, kinds: list[str], games: int) -> None:
        if not args.only or key in args.only:
            measured(rows, key, kinds, games)

    run("hard_vs_normal", ["cpu:hard", "cpu:normal"], two)
    run("normal_vs_easy", ["cpu:normal", "cpu:easy"], 2 if quick else max(two, 1000))
    run("hard_vs_3_normal", ["cpu:hard", *normal3], four)
    run("flat_vs_normal", ["cpu:hard-flat", "cpu:normal"], reference)
    run("table_vs_normal", ["cpu:hard-table", "cpu:normal"], reference)
    run("reading_vs_normal", ["cpu:hard-reading", "cpu:normal"], reference)
    run("sighted_vs_normal", ["cpu:sighted", "cpu:normal"], reference)
    run("sighted_vs_3_normal", ["cpu:sighted", *normal3], reference4)
    run("suits_vs_3_normal", ["cpu:suits", *normal3], reference4)
    run("omniscient_vs_normal", ["cpu:omniscient", "cpu:normal"], reference)
    run("omniscient_vs_3_normal", ["cpu:omniscient", *normal3], reference4)
    run("omniscient_vs_hard", ["cpu:omniscient", "cpu:hard"], reference)
    if not args.only or "rulesets" in args.only:
        registry = get_registry()
        games = 1 if quick else (args.ruleset_pages if pages else args.ruleset_games)
        for ruleset, _path, _data in shipped_rulesets(registry, name):
            rules = dict(load_ruleset(ruleset, registry, name).options)
            measured(rows.setdefault("rulesets", {}), ruleset, ["cpu:hard", "cpu:normal"], games, rules,
                     label="rulesets")
    if not args.only or "time" in args.only:
        for players in (2, 4):
            games = 1 if quick else (args.time_games // (5 if pages else 1))
            kept = f"time_{players}" in rows
            if not kept:
                rows[f"time_{players}"] = decision_times(name, players, games, seed)
                save()
            t = rows[f"time_{players}"]
            if not args.json and t["decisions"]:
                print(f"  decision time ({players} players, {t['budget']}): median "
                      f"{t['median_seconds'] * 1000:.0f} ms, "
                      f"95th percentile {t['p95_seconds'] * 1000:.0f} ms, "
                      f"longest {t['max_seconds'] * 1000:.0f} ms over {t['decisions']} decisions of "
                      f"{t['games']} games; the clock stopped {t['clock_stops']} "
                      f"({t['clock_stop_share']:.1%}); load average {t['load_average']}"
                      + (" (kept)" if kept else ""), flush=True)
    return rows


def summary(figures: dict) -> str:
    """The strength table of docs/cpu.md, as Markdown."""
    names = list(figures)
    head = "| | " + " | ".join(names) + " |\n| --- |" + " --- |" * len(names)
    labels = [("normal_vs_easy", "normal vs easy, heads-up"), ("hard_vs_normal", "hard vs normal, heads-up"),
              ("hard_vs_3_normal", "hard vs three normal"),
              ("flat_vs_normal", "hard without its tree (flat) vs normal, heads-up"),
              ("table_vs_normal", "hard without memory (the table alone) vs normal, heads-up"),
              ("reading_vs_normal", "hard reading the other player as normal vs normal, heads-up"),
              ("sighted_vs_normal", "sighted vs normal, heads-up (bench only)"),
              ("sighted_vs_3_normal", "sighted vs three normal (bench only)"),
              ("suits_vs_3_normal", "told the other hands' suit counts vs three normal (bench only)"),
              ("omniscient_vs_normal", "omniscient vs normal, heads-up (bench only)"),
              ("omniscient_vs_3_normal", "omniscient vs three normal (bench only)"),
              ("omniscient_vs_hard", "omniscient vs hard, heads-up (bench only)")]
    lines = [head]
    for key, label in labels:
        if any(key in figures[n] for n in names):  # a row no variant measured is left out
            cells = [cell(figures[n][key]) + against(figures[n][key]) if key in figures[n] else ""
                     for n in names]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for players in (2, 4):
        cells = []
        for n in names:
            t = figures[n].get(f"time_{players}")
            cells.append("" if not t or not t.get("decisions") else
                         f"median {t['median_seconds']:.2f} s, 95th percentile {t['p95_seconds']:.2f} s, "
                         f"clock stopped {t['clock_stop_share']:.1%} ({t['decisions']} decisions)")
        if any(cells):  # a row no variant has timed yet is left out
            lines.append(f"| decision time, {'heads-up' if players == 2 else 'four players'} | "
                         + " | ".join(cells) + " |")
    rulesets = ["", "| ruleset | hard vs normal, heads-up | normal |", "| --- | --- | --- |"]
    for n in names:
        for ruleset, entry in figures[n].get("rulesets", {}).items():
            rulesets.append(f"| {ruleset} | {cell(entry, 0)} | {cell(entry, 1)} |")
    return "\n".join(lines + (rulesets if len(rulesets) > 3 else []))


#: The options that change what a row measures (``--workers`` does not: the arena's
#: report is the same for any number of workers; ``--variants`` and ``--only`` only
#: choose the rows, so a resumed run may measure others).
SETTINGS = ("games", "games4", "pages", "pages4", "reference", "reference_pages", "ruleset_games",
            "ruleset_pages", "time_games", "seed", "playouts", "search", "quick")


def code_version() -> dict:
    """The commit the bench runs at, and whether the checkout has changes to it."""
    here = os.path.dirname(os.path.abspath(__file__))

    def git(*words: str) -> str:
        try:
            return subprocess.run(["git", *words], cwd=here, capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
    changed = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": git("rev-parse", "HEAD") or "unknown", "changed": bool(changed)}


def run_description(args: argparse.Namespace) -> dict:
    return {"code": code_version(), "budget": BUDGET.describe(),
            "settings": {key: getattr(args, key) for key in SETTINGS},
            "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "sittings": 1,
            "cores": os.cpu_count()}


def resume_problem(saved: dict | None, now: dict) -> str | None:
    """Why a saved run cannot be taken up by this one (None: it can)."""
    if not saved:
        return "it has no description of its run (saved by an older bench)"
    if now["code"]["changed"]:
        return "this checkout has uncommitted changes; resume from a clean checkout of " \
            f"{saved['code']['commit'][:12]}"
    if saved["code"]["commit"] != now["code"]["commit"]:
        return (f"it was measured at commit {saved['code']['commit'][:12]}, this is "
                f"{now['code']['commit'][:12]}; check that commit out (git worktree add DIR "
                f"{saved['code']['commit'][:12]}) and resume there")
    for key in ("budget", "settings"):
        if saved[key] != now[key]:
            return f"its {key} were {saved[key]}, these are {now[key]}"
    return None


def describe_run(run: dict) -> str:
    code = run["code"]
    changed = " (with uncommitted changes)" if code["changed"] else ""
    return (f"Measured at commit {code['commit'][:12]}{changed}, "
            f"{run['budget']} a decision, started {run['started']}, last saved {run.get('saved', '?')}, "
            f"in {run.get('sittings', 1)} sitting(s) on {run.get('cores', '?')} cores.")


#: The aims the hard CPU is measured against (docs/cpu.md): heads-up against
#: normal at least this share of games, and at least what an earlier release won.
AIM_HEADS_UP = 0.55
EARLIER_HEADS_UP = {"matching": 0.624, "endofpage": 0.747}
AIM_FOUR = {"matching": 0.30, "trick": 0.30}
AIM_MEDIAN, AIM_P95, AIM_CLOCK = 0.5, 1.5, 0.10


def _verdict(entry: dict, aim: float, index: int = 0) -> str:
    """Met (the whole interval is past the aim), missed (all below), or not shown either way."""
    p = entry["players"][index]
    low, high = p["win_rate_ci95"]
    if low >= aim:
        return "met (all the interval is at or above it)"
    if high < aim:
        return "missed (all the interval is below it)"
    return ("at or above it, but the interval reaches below it" if p["win_rate"] >= aim
            else "below it, though the interval reaches it")


def _against_aim(entry: dict, aim: float, index: int = 0) -> str:
    """The figure with its interval and sample, and its verdict against ``aim``."""
    p = entry["players"][index]
    low, high = p["win_rate_ci95"]
    return f"{p['win_rate']:.1%} [{low:.1%}, {high:.1%}] of {entry['games']}: {_verdict(entry, aim, index)}"


def _hard_or_normal(entry: dict) -> str:
    """Heads-up, hard's share of the games someone won: above or below normal by its interval."""
    hard, normal = entry["players"][0]["wins"], entry["players"][1]["wins"]
    decided = hard + normal
    if not decided:
        return "no game won"
    low, high = arena.wilson_interval(hard, decided)
    verdict = "hard above normal" if low > 0.5 else "hard below normal" if high < 0.5 else \
        "hard level with normal within the interval" + (" (ahead)" if hard > normal else " (behind)"
                                                         if hard < normal else "")
    return f"hard won {hard}, normal {normal} of {entry['games']}: {verdict}"


def aims(figures: dict) -> str:
    """Each aim of docs/cpu.md against the figures, in words: met only where the interval says so."""
    lines = ["Against the aims (95% intervals):", ""]
    for name, rows in figures.items():
        if "hard_vs_normal" in rows:
            text = f"- {name}, heads-up against normal, aim {AIM_HEADS_UP:.0%}: " \
                f"{_against_aim(rows['hard_vs_normal'], AIM_HEADS_UP)}"
            if name in EARLIER_HEADS_UP:
                text += f"; against the earlier {EARLIER_HEADS_UP[name]:.1%}: " \
                    + _verdict(rows["hard_vs_normal"], EARLIER_HEADS_UP[name])
            lines.append(text)
        if "hard_vs_3_normal" in rows:
            entry = rows["hard_vs_3_normal"]
            fair = (1 - entry["draws"] / entry["games"]) / 4
            text = f"- {name}, hard against three normal: a fair share is {fair:.1%}"
            if entry["draws"]:
                text += f" ({entry['draws'] / entry['games']:.0%} of the deals called off, won by nobody)"
            if name in AIM_FOUR:
                text += f"; aim {AIM_FOUR[name]:.0%}: {_against_aim(entry, AIM_FOUR[name])}"
            text += "; against the fair share: " + _verdict(entry, fair)
            lines.append(text)
        for ruleset, entry in rows.get("rulesets", {}).items():
            lines.append(f"- {name}, {ruleset}: {_hard_or_normal(entry)}")
        for players in (2, 4):
            t = rows.get(f"time_{players}")
            if t and t.get("decisions"):
                met = [t["median_seconds"] <= AIM_MEDIAN, t["p95_seconds"] <= AIM_P95,
                       t["clock_stop_share"] < AIM_CLOCK]
                lines.append(f"- {name}, decision time at {players} players: median "
                             f"{t['median_seconds']:.2f} s "
                             f"(aim {AIM_MEDIAN} s: {'met' if met[0] else 'missed'}), 95th percentile "
                             f"{t['p95_seconds']:.2f} s (aim {AIM_P95} s: {'met' if met[1] else 'missed'}), "
                             f"the clock stopped {t['clock_stop_share']:.1%} (aim under {AIM_CLOCK:.0%}: "
                             f"{'met' if met[2] else 'missed'}); load average {t['load_average']}")
    return "\n".join(lines)


def _load(path: str) -> dict | None:
    """A file saved by ``--save``; ``None``, said why on stderr, if it cannot be read as one."""
    try:
        with open(path, encoding="utf-8") as saved:
            data = json.load(saved)
    except (OSError, ValueError) as error:
        print(f"bench_hard: cannot read {path}: {error}", file=sys.stderr)
        return None
    if not isinstance(data, dict):
        print(f"bench_hard: {path} is not a file saved by --save", file=sys.stderr)
        return None
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", help="variants to measure (default: all that support hard)")
    parser.add_argument("--games", type=int, default=1000, help="games heads-up (default 1000)")
    parser.add_argument("--games4", type=int, default=400, help="games at four players (default 400)")
    parser.add_argument("--pages", type=int, default=100, help="End of the Page games heads-up (default 100)")
    parser.add_argument("--pages4", type=int, default=40, help="End of the Page games at four (default 40)")
    parser.add_argument("--reference", type=int, default=200,
                        help="games for the rows that show what the search is made of and the "
                             "bench-only players (default 200, never more than the main rows)")
    parser.add_argument("--reference-pages", type=int, default=30, help="the same for End of the Page")
    parser.add_argument("--ruleset-games", type=int, default=100, help="games per shipped ruleset")
    parser.add_argument("--ruleset-pages", type=int, default=20, help="End of the Page games per ruleset")
    parser.add_argument("--time-games", type=int, default=30, help="games timed decision by decision")
    parser.add_argument("--only", nargs="*", help="only these rows (hard_vs_normal, rulesets, time, ...)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--playouts", type=int, help="a budget of exactly this many playouts for every "
                        "hard player (default: the default budget)")
    parser.add_argument("--search", nargs="*", default=[], metavar="KEY=VALUE",
                        help="search settings for every hard player, to compare with a run "
                        "without them on the same seeds: exploration=0.3 prior_weight=0.5")
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke run in seconds: a game or two a row, {QUICK_PLAYOUTS} playouts")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--save", help="also write the figures as JSON to this file, after each row")
    parser.add_argument("--resume", action="store_true",
                        help="with --save FILE: keep the rows FILE has and measure the rest "
                        "(same commit and settings only)")
    parser.add_argument("--table", metavar="FILE",
                        help="print the tables of figures saved by --save, measure nothing")
    args = parser.parse_args(argv)
    if args.table:
        data = _load(args.table)
        if data is None:
            return 2
        if "run" in data:
            print(describe_run(data["run"]), end="\n\n")
        print(summary(data.get("figures", data)))
        print()
        print(aims(data.get("figures", data)))
        return 0
    if args.resume and not args.save:
        parser.error("--resume goes on with the run saved in --save FILE: name the file")
    global BUDGET, quick_run
    for setting in args.search:
        key, _, value = setting.partition("=")
        try:
            if key not in ("exploration", "prior_weight"):
                raise ValueError(key)
            SEARCH[key] = float(value)
        except ValueError:
            parser.error(f"--search {setting!r}: write exploration=NUMBER or prior_weight=NUMBER")
    quick_run = args.quick
    if args.playouts or args.quick:
        BUDGET = Budget(iterations=args.playouts or (QUICK_PLAYOUTS if args.quick else 0), seconds=None)
    registry = get_registry()
    names = args.variants or sorted(registry.variants)
    figures: dict[str, dict] = {}
    run = run_description(args)
    if args.resume and os.path.exists(args.save):
        data = _load(args.save)
        if data is None:
            return 2
        problem = resume_problem(data.get("run"), run)
        if problem:
            print(f"bench_hard: cannot resume {args.save}: {problem}", file=sys.stderr)
            return 2
        figures = data["figures"]
        run["started"] = data["run"]["started"]
        run["sittings"] = data["run"].get("sittings", 1) + 1

    def save() -> None:
        if args.save:
            run["saved"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            with open(args.save + ".part", "w", encoding="utf-8") as out:
                json.dump({"run": run, "figures": figures}, out, indent=2)
            os.replace(args.save + ".part", args.save)  # a stop mid-write keeps the last whole file

    for name in names:
        variant = registry.get(name)
        if not supports_hard(variant, variant.new_state(default_ruleset(variant).options, 2, 0)):
            print(f"{name}: does not support the hard CPU (no hidden-information ability)", file=sys.stderr)
            continue
        started = time.perf_counter()
        if not args.json:
            print(f"{name} (load average {os.getloadavg()[0]:.1f})", flush=True)
        rows = figures.setdefault(name, {})
        measure(name, args, rows, save)
        rows["seconds"] = round(rows.get("seconds", 0) + time.perf_counter() - started, 1)
        save()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print()
        print(summary(figures))
        print()
        print(aims(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
