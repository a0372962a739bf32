"""Golden records: a few seeded games kept beside a variant's tests.

Random games test today's rules against today's rules.  A record written
months ago tests today's rules against the ones people played by: if a
change of the rules or of the record format makes an old record fail to
validate, or replay to another result, a golden record fails a test first.

Make a variant's golden records once, commit them, and never regenerate them
to make a test pass (a failing golden record means old games no longer read
as they were played: change the code or write a conversion, not the record)::

    python -m cardcli.testing golden myvariant tests/golden

and point the conformance kit at the folder (``golden = Path(__file__).parent / "golden"``).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..contract.variant import Variant
from ..engine.plugins import Registry, get_registry
from ..kit.errors import CardcliError
from ..records.reader import load_game
from ..records.validate import validate_stream
from .games import fit_players, play_game


def golden_paths(folder: str | Path) -> list[Path]:
    """The golden records in ``folder``, in name order."""
    return sorted(Path(folder).glob("*.jsonl"))


def check_golden_record(path: Path, registry: Registry | None = None) -> dict[str, Any]:
    """A golden record must validate and replay to the result it states; return that result."""
    registry = registry or get_registry()
    data = path.read_bytes()
    report = validate_stream(io.BytesIO(data), str(path), registry)
    assert report.valid, (f"{report.error}\nThis golden record no longer validates: a change of the "
                          f"rules or of the record format broke games recorded before it.")
    stated = json.loads(data.decode().strip().splitlines()[-1])["result"]
    game, _over = load_game(io.BytesIO(data), str(path), registry)
    result = game.state.result()
    assert result is not None, f"{path}: replayed to an unfinished game"
    replayed = result.as_dict()
    assert {key: replayed.get(key) for key in stated} == stated, (
        f"{path}: replays to {replayed}, but the record states {stated}")
    return stated


def make_golden_records(variant: str | Variant, folder: str | Path, *, games: int = 3, seed: int = 1,
                        players: Sequence[int] | None = None, options: dict[str, Any] | None = None,
                        label: str = "") -> list[Path]:
    """Play ``games`` seeded CPU games of ``variant`` and write their records to ``folder``.

    Table sizes cycle through ``players`` (default: the smallest table, four
    players and the largest, as the variant allows); CPU strengths cycle
    through the variant's levels.  ``label`` ends the file names (a ruleset's
    name, say).  An existing file is never overwritten.
    """

    target = variant if isinstance(variant, Variant) else get_registry().get(variant)
    sizes = list(players or dict.fromkeys(
        (target.min_players, max(target.min_players, min(4, target.max_players)), target.max_players)))
    levels = target.cpu_levels
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for number in range(games):
        count = sizes[number % len(sizes)]
        game_seed = seed + number
        path = out / f"{target.name}-{count}p-seed{game_seed}{'-' + label if label else ''}.jsonl"
        if path.exists():
            raise CardcliError(f"{path} exists: golden records are never overwritten (remove it first "
                               f"if you really mean to replace it)")
        seat_levels = [levels[(number + i) % len(levels)] for i in range(count)]
        merged = fit_players(target, dict(options or {}), count)
        _game, buffer = play_game(target, players=count, seed=game_seed, options=merged,
                                  levels=seat_levels)
        path.write_text(buffer.getvalue(), encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cardcli.testing golden",
        description="Write a few seeded games of VARIANT to FOLDER as golden records for its tests.")
    parser.add_argument("variant")
    parser.add_argument("folder")
    parser.add_argument("--games", type=int, default=3, help="how many records (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--players", type=int, action="append",
                        help="a table size (repeat for several; default: the smallest, 4, the largest)")
    parser.add_argument("--ruleset", help="play under this ruleset (a file or a shipped name)")
    args = parser.parse_args(argv)
    try:
        options: dict[str, Any] = {}
        if args.ruleset:
            from ..engine.rulesets import load_ruleset

            options = dict(load_ruleset(args.ruleset, get_registry(), args.variant).options)
        for path in make_golden_records(args.variant, args.folder, games=args.games, seed=args.seed,
                                        players=args.players, options=options,
                                        label=Path(args.ruleset).stem if args.ruleset else ""):
            print(path)
    except CardcliError as error:
        print(f"cardcli: {error}", file=sys.stderr)
        return 1
    return 0

