"""``cardcli arena``: how strong is each CPU?  Seats rotated, intervals given."""

from __future__ import annotations

import json
import random

import click

from ..cpu import arena as engine
from ..cpu.players import check_count, parse_players
from ..kit.fit import echo, table, terminal_width
from ..kit.grammar import duration
from ..kit.language import core as _
from .common import (
    backend_options,
    complete_variant,
    handle_errors,
    open_backend,
    progress_bar,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)
from .simulate import games_words, ruleset_words, workers_words

#: A run longer than this (seconds) is announced with how long it will take.
LONG_RUN = 60


@click.command(help=_("""Play CPU players of VARIANT against each other, seats rotated: win rates.

    Reports each player's win rate (with a 95% interval), mean place, mean
    decision time and, where the game keeps score, the mean score in what it
    counts (points, deals won)."""))
@click.argument("variant", shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", required=True, metavar="SPEC",
              help=_("The CPUs, e.g. cpu:hard,cpu:normal or cpu:hard=2000,cpu:normal,cpu:normal,cpu:normal."))
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True,
              help=_("Games to play (a multiple of the number of players keeps seats even)."))
@click.option("--seed", type=int, help=_("The run's seed (default: random, printed)."))
@ruleset_option()
@backend_options
@click.option("--json", "as_json", is_flag=True, help=_("Print the report as one JSON object."))
@handle_errors
def arena(variant: str, players_spec: str, games: int, seed: int | None, ruleset: str | None,
          workers: int | None, backend: str, ray_address: str | None, as_json: bool) -> None:
    """``cardcli arena``: its help is the command's ``help``."""
    target = variant_named(variant)
    if players_spec.strip().isdigit():
        resolve_ruleset(target, ruleset, int(players_spec))  # refused before a seat is made
    players = parse_players(players_spec, target, cpu_names=True)
    if any(p.is_human for p in players):
        raise click.BadParameter(_("the arena is for CPU players only (cpu:easy, cpu:normal, cpu:hard)"),
                                 param_hint="--players")
    chosen = resolve_ruleset(target, ruleset, len(players))
    check_count(players, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    with open_backend(backend, workers, ray_address) as pool:
        estimate = engine.estimate_seconds(target, chosen.options, players, games, seed, pool.workers)
        if estimate is not None and estimate > LONG_RUN:
            echo(_("This run will take roughly {duration} ({games} on {workers}, cpu:hard searching before "
                   "each of its moves); Ctrl-C stops it. Fewer --games, or a smaller budget (cpu:hard=200), "
                   "is quicker.").format(duration=duration(estimate), games=games_words(games),
                                         workers=workers_words(pool.workers, "local")), err=True)
        with progress_bar(games, games_words(games)) as progress:
            report = engine.run(target, chosen.options, players, games, seed, backend=pool,
                                progress=progress)
    data = report.as_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    said = _("{games} of {variant} ({ruleset}), seats rotated, seed {seed}: {seconds:.1f} s on {workers}")
    echo(said.format(games=games_words(report.games), variant=target.name,
                     ruleset=ruleset_words(target, ruleset, chosen.name), seed=seed, seconds=report.seconds,
                     workers=workers_words(report.workers, backend)))
    if games % len(players):
        echo(_("(note: {games} is not a multiple of {players}; seats are not perfectly even)").format(
            games=games, players=len(players)))
    scored = any("mean_score" in p for p in data["players"])
    label = target.words(report.score_label)
    # Translators: the heads of the arena's table, kept short: a player's name, its CPU strength ("kind"), ...
    heads = [_("player"), _("kind"), _("wins"), _("win rate"), _("95% interval"), _("place"), _("ms/move")]
    if scored:
        heads.append(label)
    rows = []
    for p in data["players"]:
        low, high = p["win_rate_ci95"]
        ms = (p["mean_decision_seconds"] or 0) * 1000
        row = [p["name"], p["kind"], str(p["wins"]), f"{p['win_rate']:.1%}", f"{low:.1%}-{high:.1%}",
               f"{p['mean_place']:.2f}", f"{ms:.3f}"]
        if scored:
            row.append(f"{p.get('mean_score', 0):.1f}")
        rows.append(row)
    for line in table(heads, rows, terminal_width(), indent=2, right=range(2, len(heads)),
                      give=range(len(heads))):
        click.echo(line)
    note = (_("(place and {label}: the mean over the games; ms/move: the mean time a decision took)")
            if scored else _("(place: the mean over the games; ms/move: the mean time a decision took)"))
    echo("  " + note.format(label=label), err=False)
    click.echo("  " + _("games with no single winner: {count}").format(count=report.draws))
