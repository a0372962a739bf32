"""``cardcli arena``: how strong is each CPU?  Seats rotated, intervals given."""

from __future__ import annotations

import json
import random

import click

from .. import arena as engine
from ..grammar import plural
from ..parallel import open_backend
from ..players import check_count, parse_players
from .common import (
    backend_options,
    complete_variant,
    handle_errors,
    progress_bar,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)


@click.command()
@click.argument("variant", shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", required=True, metavar="SPEC",
              help="The CPUs, e.g. cpu:hard,cpu:normal or cpu:hard=2000,cpu:normal,cpu:normal,cpu:normal.")
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True,
              help="Games to play (a multiple of the number of players keeps seats even).")
@click.option("--seed", type=int, help="The run's seed (default: random, printed).")
@ruleset_option()
@backend_options
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@handle_errors
def arena(variant: str, players_spec: str, games: int, seed: int | None, ruleset: str | None,
          workers: int | None, backend: str, ray_address: str | None, as_json: bool) -> None:
    """Play CPU players of VARIANT against each other, seats rotated: win rates.

    Reports each player's win rate (with a 95% interval), mean place, mean
    decision time and, where the game keeps score, the mean score in what it
    counts (points, deals won)."""
    target = variant_named(variant)
    players = parse_players(players_spec, target)
    if any(p.is_human for p in players):
        raise click.BadParameter("the arena is for CPU players only (cpu:easy, cpu:normal, cpu:hard)",
                                 param_hint="--players")
    chosen = resolve_ruleset(target, ruleset, len(players))
    check_count(players, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    with open_backend(backend, workers, ray_address) as pool, \
            progress_bar(games, plural(games, "game")) as progress:
        report = engine.run(target, chosen.options, players, games, seed, backend=pool, progress=progress)
    data = report.as_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"{plural(report.games, 'game')} of {target.name} ({chosen.name}), seats rotated, "
               f"seed {seed}: {report.seconds:.1f} s on "
               f"{plural(report.workers, 'Ray worker' if backend == 'ray' else 'worker')}")
    if games % len(players):
        click.echo(f"(note: {games} is not a multiple of {len(players)}; seats are not perfectly even)")
    scored = any("mean_score" in p for p in data["players"])
    score_head = f"{report.score_label} (mean)"
    head = f"  {'player':<10} {'kind':<16} {'wins':>6}  {'win rate':>8}  {'95% interval':>15}  " \
           f"{'mean place':>10}  {'ms/decision':>11}" + (f"  {score_head:>10}" if scored else "")
    click.echo(head)
    for p in data["players"]:
        low, high = p["win_rate_ci95"]
        ms = (p["mean_decision_seconds"] or 0) * 1000
        line = (f"  {p['name']:<10} {p['kind']:<16} {p['wins']:>6}  {p['win_rate']:>8.1%}  "
                f"{f'{low:.1%} - {high:.1%}':>15}  {p['mean_place']:>10.2f}  {ms:>11.3f}")
        if scored:
            line += f"  {p.get('mean_score', 0):>{max(10, len(score_head))}.1f}"
        click.echo(line)
    click.echo(f"  games with no single winner: {report.draws}")
