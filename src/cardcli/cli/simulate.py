"""``cardcli simulate``: many CPU-only games, summarised."""

from __future__ import annotations

import json
import random
from pathlib import Path

import click

from ..contract.variant import Variant
from ..cpu import simulate as engine
from ..cpu.players import PlayersError, check_count, check_level, default_seats, parse_players
from ..engine.rulesets import ruleset_text
from ..kit.fit import echo, visible_width
from ..kit.grammar import listed
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


@click.command(help=_("""Play CPU-only games of VARIANT and summarise wins, draws and game lengths.

    The same --seed gives the same games and summary for any --workers and
    either --backend.
    """))
@click.argument("variant", shell_complete=complete_variant)
@click.option("--games", "-n", type=click.IntRange(1), default=1000, show_default=True,
              help=_("How many games to play."))
@click.option("--players", "-p", "players_spec", default="4", show_default=True, metavar="P",
              help=_("A number of CPUs (of --cpu strength), or a list like cpu:easy,cpu:normal."))
@click.option("--cpu", "level", default="easy", show_default=True, metavar="LEVEL",
              help=_("CPU strength when --players is a number: easy, normal or hard (hard=2000 playouts, "
                   "hard=1.5s; cardcli variants lists each game's)."))
@click.option("--seed", type=int, help=_("The run's seed (default: random, printed in the summary)."))
@ruleset_option()
@click.option("--records", "record_dir", type=click.Path(file_okay=False, path_type=Path),
              help=_("Write every game's record into this folder."))
@backend_options
@click.option("--json", "as_json", is_flag=True, help=_("Print the summary as one JSON object."))
@handle_errors
def simulate(variant: str, games: int, players_spec: str, level: str, seed: int | None, ruleset: str | None,
             record_dir: Path | None, workers: int | None, backend: str, ray_address: str | None,
             as_json: bool) -> None:
    """``cardcli simulate``: its help is the command's ``help``."""
    target = variant_named(variant)
    try:
        check_level(target, level)
    except PlayersError as error:
        raise click.BadParameter(str(error), param_hint="--cpu") from None
    if players_spec.strip().isdigit():
        resolve_ruleset(target, ruleset, int(players_spec))  # refused before a seat is made
        seats = default_seats(target, int(players_spec), human=None, level=level)
    else:
        seats = parse_players(players_spec, target, default_level=level, cpu_names=True)
    if any(seat.is_human for seat in seats):
        humans = listed([s.name for s in seats if s.is_human])
        raise click.BadParameter(_("simulations are CPU only, but {names} would be human "
                                   "(write cpu:easy, cpu:normal, ...)").format(names=humans),
                                 param_hint="--players")
    chosen = resolve_ruleset(target, ruleset, len(seats))
    check_count(seats, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    with open_backend(backend, workers, ray_address) as pool, \
            progress_bar(games, games_words(games)) as progress:
        summary = engine.run(target, chosen.options, seats, games, seed, backend=pool,
                             record_dir=record_dir, ruleset=None if ruleset is None else chosen.name,
                             progress=progress)
    data = summary.as_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    decisions = _.ngettext("{count:,} decision", "{count:,} decisions", data["decisions"]).format(
        count=data["decisions"])
    echo(_("{games} of {variant} ({ruleset}), seed {seed}, {workers}: {seconds:.2f} s, "
           "{decisions} ({rate:,.0f}/s)").format(
        games=games_words(data["games"]), variant=target.name,
        ruleset=ruleset_words(target, ruleset, chosen.name), seed=seed,
        workers=workers_words(data["workers"], backend), seconds=data["seconds"], decisions=decisions,
        rate=data["decisions_per_second"]))
    click.echo(_("Wins by seat:"))
    for index, seat in enumerate(seats):
        wins = data["wins_by_seat"][index]
        place = _("mean place {place:.2f}").format(place=data["mean_place_by_seat"][index])
        click.echo(f"  {index} {pad(seat.name, 8)} {pad(seat.kind, 12)} {wins:>7,}  ({wins / games:6.1%})  "
                   + place)
    click.echo(_("Wins by CPU level:"))
    for kind, entry in data["wins_by_level"].items():
        count = int(entry["seats"])
        said = _.ngettext("{wins:>7,} over {count:,} seat  ({rate:.1%} per seat)",
                          "{wins:>7,} over {count:,} seats  ({rate:.1%} per seat)", count)
        click.echo(f"  {pad(kind, 12)} " + said.format(wins=entry["wins"], count=count,
                                                       rate=entry["win_rate_per_seat"]))
    click.echo(_("Draws (no single winner): {count:,}").format(count=data["draws"]))
    click.echo(_("Game length in moves: mean {mean}, max {max:,}").format(mean=data["moves_mean"],
                                                                          max=data["moves_max"]))
    if record_dir is not None:
        click.echo(_("Records written to {folder}").format(folder=record_dir))


def games_words(count: int) -> str:
    """``1,000 games``, in the chosen language."""
    return _.ngettext("{count:,} game", "{count:,} games", count).format(count=count)


def workers_words(count: int, backend: str) -> str:
    """``2 workers`` (``2 Ray workers`` on Ray), in the chosen language."""
    said = (_.ngettext("{count:,} Ray worker", "{count:,} Ray workers", count) if backend == "ray"
            else _.ngettext("{count:,} worker", "{count:,} workers", count))
    return said.format(count=count)


def ruleset_words(target: Variant, asked: str | None, name: str) -> str:
    """The name of the rules played: the variant's defaults (``matching defaults``) in the
    chosen language, a ruleset by its own name (a shipped one's in the chosen language)."""
    return ruleset_text(target, name) if asked is not None else _("{variant} defaults").format(
        variant=target.name)


def pad(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` terminal cells (a Japanese name
    takes two a character), as ``f"{text:<width}"`` does for ASCII."""
    return text + " " * (width - visible_width(text))
