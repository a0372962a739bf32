"""The cost of one referee entry, early and late in a long game.

Why this exists: a family types a real game into ``cardcli referee`` entry by
entry; an entry must cost the same at the end of a long game as at its start
(the referee follows the game as a live game of the engine, it does not read
the record again), and never be slow enough to notice.  Two long games are
entered from their public export, in the words a person types:

* **matching**: four players, a game of about 1,200 record lines (ten cards
  each, drawing until a card plays, no special cards, a long game);
* **trick**: one deal between two players, about 400 lines, with a run of
  more than 12 cards drawn to follow (``bob draws 15`` as one entry).

Each entry is timed in CPU time.  The table gives, per game, the median of
the first 50 entries and of the last 50, their ratio (target: at most 1.5)
and the costliest entry (target: at most 50 ms).  ``--against PYTHON`` also
runs the same entries in another interpreter (another version of cardcli,
in its own venv) and interleaves the two, A B B A ..., ``--rounds`` rounds,
to give the median ratio of their totals and its range.

Usage::

    python bench/bench_referee.py                     # about a minute
    python bench/bench_referee.py --against /tmp/old/bin/python --rounds 4
    python bench/bench_referee.py --quick             # a smoke run (seconds)
    python bench/bench_referee.py --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: Runs in either interpreter: enter every entry of a game, print each entry's CPU time.
PROBE = r"""
import json, sys, time
try:  # this layout, or the one before the core's folders (an older version to compare with)
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.record_format import parse_header
    from cardcli.realtable.referee import Referee
except ImportError:
    from cardcli.plugins import get_registry
    from cardcli.records import parse_header
    from cardcli.referee import Referee
game = json.load(open(sys.argv[1]))
table = Referee(get_registry(), parse_header(game["header"], "<bench>"))
times = []
clock = time.process_time
refused = None
for number, entry in enumerate(game["entries"]):
    started = clock()
    try:
        table.enter(entry)
    except Exception as error:  # a version that refuses a real game's entry: timed up to it
        refused = {"entry": number, "text": entry, "why": str(error)}
        break
    times.append(clock() - started)
print(json.dumps({"times": times, "refused": refused}))
"""

#: The games: (name, variant, players, options, the least lines, the most, and the longest draw wanted).
GAMES = [("matching 4p", "matching", 4, {"hand_size": 10, "draw_until_playable": True, "wild_eight": False,
                                        "draw_two": False, "skip": False, "reverse": False}, 1150, 1400, 0),
         ("trick 2p", "trick", 2, {"hand_size": 7}, 380, 480, 12)]
QUICK = [("matching 4p", "matching", 4, {}, 60, 400, 0),
         ("trick 2p", "trick", 2, {"hand_size": 7}, 60, 400, 0)]
EDGE = 50  # entries at each end compared


def find_game(variant: str, players: int, options: dict, least: int, most: int, draw: int) -> dict:
    """The first seeded game whose public export has ``least`` to ``most``
    lines and a run of at least ``draw`` cards drawn: its header and entries."""
    from cardcli.testing import play_game
    from cardcli.testing.unseen import export_bytes
    from tests.referee.words import referee_words

    for seed in range(2000):
        _game, buffer = play_game(variant, players=players, seed=seed, options=dict(options))
        text = export_bytes(buffer.getvalue().encode(), None).decode()
        lines = [json.loads(line) for line in text.splitlines()]
        if not least <= len(lines) <= most:
            continue
        entries = referee_words(lines)
        longest = max((int(word) for entry in entries if " draws " in entry
                       for word in entry.split()[2:3] if word.isdigit()), default=1)
        if longest >= draw:
            return {"seed": seed, "lines": len(lines), "header": lines[0], "entries": entries,
                    "longest_draw": longest}
    raise SystemExit(f"no {variant} game of {least} to {most} lines with a draw of {draw} in 2,000 seeds")


def timed(python: str, path: Path) -> tuple[list[float], dict | None]:
    """Each entry's CPU time in ``python``'s cardcli, and the entry it refused, if one."""
    done = subprocess.run([python, "-c", PROBE, str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{python}: the referee failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.splitlines()[-1])
    return result["times"], result["refused"]


def summary(times: list[float], entries: list[str]) -> dict:
    edge = min(EDGE, len(times) // 2)
    first, last = statistics.median(times[:edge]), statistics.median(times[-edge:])
    worst = max(range(len(times)), key=times.__getitem__)
    return {"entries": len(times), "first_ms": round(first * 1000, 3), "last_ms": round(last * 1000, 3),
            "last_over_first": round(last / first, 2) if first > 0 else None,
            "max_ms": round(times[worst] * 1000, 2), "max_entry": entries[worst],
            "total_s": round(sum(times), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="another interpreter (another version of cardcli) to compare with")
    parser.add_argument("--rounds", type=int, default=4, help="rounds with --against (default 4)")
    parser.add_argument("--quick", action="store_true", help="short games, one round: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, variant, players, options, least, most, draw in (QUICK if args.quick else GAMES):
            game = find_game(variant, players, options, least, most, draw)
            if args.quick:
                game["entries"] = game["entries"][:60]
            path = Path(tmp) / f"{variant}.json"
            path.write_text(json.dumps(game))
            row = {"game": name, "seed": game["seed"], "lines": game["lines"],
                   "longest_draw": game["longest_draw"]}
            ours, refused = timed(sys.executable, path)
            if refused is not None:
                raise SystemExit(f"{row['game']}: this cardcli refused entry {refused['entry']} "
                                 f"{refused['text']!r} of a real game: {refused['why']}")
            row["this"] = summary(ours, game["entries"])
            if args.against:
                runs: dict[str, list[list[float]]] = {"this": [], "other": []}
                for number in range(max(1, args.rounds)):
                    for side in (["this", "other"] if number % 2 == 0 else ["other", "this"]):
                        times, refused = timed(sys.executable if side == "this" else args.against, path)
                        runs[side].append(times)
                        if side == "other":
                            row["other_refused"] = refused
                # Both sides over the entries both took (another version may refuse one of a real game).
                common = min(len(times) for times in runs["other"])
                ratios = [sum(b[:common]) / sum(a[:common]) for a, b in zip(runs["this"], runs["other"],
                                                                            strict=True)]
                row["compared_entries"] = common
                row["this_on_common"] = summary(runs["this"][-1][:common], game["entries"])
                row["other"] = summary(runs["other"][-1][:common], game["entries"])
                row["speedup"] = {"median": round(statistics.median(ratios), 2),
                                  "low": round(min(ratios), 2), "high": round(max(ratios), 2)}
            results.append(row)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"one referee entry, CPU time (median of the first and last {EDGE} entries; targets: "
          "last/first <= 1.5, every entry <= 50 ms)")
    for row in results:
        this = row["this"]
        print(f"{row['game']}, seed {row['seed']}, {row['lines']} lines, {this['entries']} entries, "
              f"longest draw {row['longest_draw']}:")
        print(f"  this:  first {this['first_ms']:.2f} ms, last {this['last_ms']:.2f} ms "
              f"(x{this['last_over_first']}), most {this['max_ms']:.1f} ms ({this['max_entry']!r}), "
              f"total {this['total_s']:.2f} s")
        if "other" in row:
            other, speedup, common = row["other"], row["speedup"], row["compared_entries"]
            refused = row.get("other_refused")
            if refused:
                print(f"  the other version refused entry {refused['entry']} {refused['text']!r}: "
                      f"{refused['why']}")
            mine = row["this_on_common"]
            print(f"  over the first {common} entries, both sides: this first {mine['first_ms']:.2f} ms, "
                  f"last {mine['last_ms']:.2f} ms, most {mine['max_ms']:.1f} ms, "
                  f"total {mine['total_s']:.2f} s")
            print(f"  other: first {other['first_ms']:.2f} ms, last {other['last_ms']:.2f} ms "
                  f"(x{other['last_over_first']}), most {other['max_ms']:.1f} ms ({other['max_entry']!r}), "
                  f"total {other['total_s']:.2f} s")
            print(f"  the other's total / this one's: median {speedup['median']} "
                  f"[{speedup['low']}, {speedup['high']}] over {args.rounds} interleaved rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
