"""``cardcli compare``: what does a house rule change?  Rulesets on the same seeds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click

from ..contract.options import Value, parse_value, resolve, show_value
from ..contract.variant import Variant
from ..cpu import compare as engine
from ..cpu.players import PlayersError, check_count, default_count, default_seats, levels_of
from ..engine.rulesets import check, load_ruleset
from ..kit.fit import table, terminal_width, wrap
from ..kit.grammar import listed
from ..kit.language import core as _
from ..kit.language import current, speaking
from ..words import narration
from .common import (
    backend_options,
    complete_ruleset,
    complete_variant,
    handle_errors,
    open_backend,
    progress_bar,
    registry,
    resolve_ruleset,
    variant_named,
)


@click.command(help=_("""Compare house rules of VARIANT: game length, seats, skill, on the same seeds.

    Game i of every ruleset starts from the same seed (the same dealer, the
    same shuffle, the same CPU randomness), so the differences are measured
    game by game. The first ruleset is the baseline; each other one gets
    paired 95% intervals and a verdict in words. RULESET is a shipped name
    or a TOML file; --set makes one without a file (one --set alone is
    compared with the defaults, or --base):

    \b
      cardcli compare matching standard no-stacking
      cardcli compare matching --set stack_twos=false
      cardcli compare matching --set hand_size=5 --set hand_size=9 \\
          --plot hands.png
    """))
@click.argument("variant", shell_complete=complete_variant)
@click.argument("rulesets", nargs=-1, metavar="[RULESET]...", shell_complete=complete_ruleset)
@click.option("--set", "settings", multiple=True, metavar="OPTION=VALUE[,OPTION=VALUE]",
              help=_("One more ruleset: the defaults (or --base) with these options changed. Repeatable."))
@click.option("--base", metavar="FILE_OR_NAME", help=_("The ruleset each --set starts from (default: the "
              "variant's defaults)."))
@click.option("--games", "-n", type=click.IntRange(2), default=1000, show_default=True,
              help=_("Games per ruleset (and per skill measure)."))
@click.option("--players", "-p", type=click.IntRange(1), default=None, metavar="P",
              help=_("Players at the table (default: the variant's usual table)."))
@click.option("--cpu", "level", default="normal", show_default=True, metavar="LEVEL",
              help=_("CPU strength of every seat in the games that measure length and seats: easy, "
                   "normal or hard."))
@click.option("--seed", type=int, help=_("The run's seed (default: random, printed)."))
@click.option("--skill/--no-skill", default=True, show_default=True,
              help=_("Measure how often normal beats easy under each ruleset (its score: ties shared)."))
@click.option("--hard", "with_hard", is_flag=True,
              help=_("Also measure hard against normal (slow: hard searches before every move)."))
@backend_options
@click.option("--json", "as_json", is_flag=True, help=_("Print the comparison as one JSON object."))
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help=_("Also draw it: game lengths, seat win rates and skill side by side (.png or .svg; "
                   "pip install 'cardcli[plot]')."))
@handle_errors
def compare(variant: str, rulesets: tuple[str, ...], settings: tuple[str, ...], base: str | None, games: int,
            players: int | None, level: str, seed: int | None, skill: bool, with_hard: bool,
            workers: int | None, backend: str, ray_address: str | None, as_json: bool,
            plot_path: Path | None) -> None:
    """``cardcli compare``: its help is the command's ``help``."""
    target = variant_named(variant)
    count = players or default_count(target)
    levels = levels_of(target)
    if level not in levels:
        said = _("{level} is not a CPU strength of {variant} (choose from {levels})")
        raise click.BadParameter(said.format(level=repr(level), variant=variant, levels=listed(levels)),
                                 param_hint="--cpu")
    skills = [pair for pair, wanted in ((engine.SKILL_EASY, skill), (engine.SKILL_HARD, with_hard))
              if wanted and all(lv in levels for lv in pair)]
    if plot_path is not None:
        from ..cpu import plot

        plot.check_target(plot_path)
    arms = gather_arms(target, rulesets, settings, base, count)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    total = engine.total_games(len(arms), games, len(skills))
    with open_backend(backend, workers, ray_address) as pool, \
            progress_bar(total, _.ngettext("{count} ruleset", "{count} rulesets", len(arms)).format(
                count=len(arms))) as progress:
        result = engine.run(target, arms, count, games, seed, cpu=level, skills=skills, backend=pool,
                            progress=progress)
    with speaking("en"):  # the data, its verdicts in words included, is English (--json is an interface)
        data = result.as_dict()
    if plot_path is not None:
        from ..cpu import plot

        plot.draw(data, [r.moves for r in result.results], plot_path)
    if as_json:
        click.echo(json.dumps(data))
        return
    shown = data if current() == "en" else {**data, "differences": result.differences()}  # verdicts said
    show(shown, variant=target)
    if plot_path is not None:
        click.echo(_("Plot written to {path}").format(path=plot_path))


# ------------------------------------------------------------ the rulesets
def gather_arms(target: Variant, rulesets: tuple[str, ...], settings: tuple[str, ...], base: str | None,
                players: int) -> list[engine.Arm]:
    """The rulesets to compare, checked, with labels that tell them apart."""
    seats = default_seats(target, players, human=None)  # a table the variant can never seat: refused first
    defaults = resolve_ruleset(target, None).options
    arms = []
    sources: list[tuple[str | None, frozenset[str]]] = []  # where each ruleset comes from, what it sets
    for name in rulesets:
        loaded = load_ruleset(name, registry(), target.name, players)
        arms.append(engine.Arm(name, loaded.options, loaded.name, changed(loaded.options, defaults)))
        sources.append((loaded.source, loaded.stated))
    start = resolve_ruleset(target, base, players) if base else None
    for text in settings:
        changes = parse_settings(text)
        source = f"--set {text}"
        wanted = {**(start.options if start else defaults), **changes}
        options = resolve(target.options, wanted, source=source)
        check(target, options, players, source)
        label = text if start is None else f"{base} + {text}"
        arms.append(engine.Arm(label, options, start.name if start else f"{target.name} defaults",
                               changed(options, defaults)))
        sources.append((source, frozenset(changes)) if start is None else
                       (f"{start.source} {source}", start.stated | frozenset(changes)))
    if len(arms) == 1 and settings:  # one --set: against what it changes
        label = base if start is not None and base else engine.DEFAULTS
        options = start.options if start is not None else defaults
        arms.insert(0, engine.Arm(label, dict(options), start.name if start else f"{target.name} defaults",
                                  changed(options, defaults)))
        sources.insert(0, (start.source, start.stated) if start is not None else (None, frozenset()))
    if len(arms) < 2:
        said = (_("compare needs at least two rulesets (got only {label}): name rulesets, or give --set once "
                  "per ruleset, e.g. --set stack_twos=true --set stack_twos=false") if arms else
                _("compare needs at least two rulesets (got none): name rulesets, or give --set once per "
                  "ruleset, e.g. --set stack_twos=true --set stack_twos=false"))
        raise click.UsageError(said.format(label=repr(arms[0].label) if arms else ""))
    seen: dict[str, int] = {}
    for arm in arms:
        seen[arm.label] = seen.get(arm.label, 0) + 1
        if seen[arm.label] > 1:
            arm.label = f"{arm.label} #{seen[arm.label]}"
    for arm, (where, stated) in zip(arms, sources):
        try:
            check_count(seats, arm.options, target, where, stated)
        except PlayersError as error:
            raise PlayersError(f"{arm.label}: {error}") from None
    return arms


def parse_settings(text: str) -> dict[str, Value]:
    """``stack_twos=false,hand_size=5`` as option values (true/false, numbers, words)."""
    changes: dict[str, Value] = {}
    for item in text.split(","):
        key, equals, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not equals or not key or not raw:
            raise click.BadParameter(_("{item} is not OPTION=VALUE (e.g. stack_twos=false)").format(
                item=repr(item.strip())), param_hint="--set")
        changes[key] = parse_value(raw)
    return changes


def changed(options: dict[str, Value], defaults: dict[str, Value]) -> dict[str, Value]:
    return {k: v for k, v in options.items() if defaults.get(k) != v}


# ------------------------------------------------------------ the table
def _rate(value: float, interval: list[float]) -> str:
    return f"{value:.1%} [{interval[0]:.1%}, {interval[1]:.1%}]"


def show(data: dict[str, Any], width: int | None = None, variant: Variant | None = None) -> None:
    """The comparison as text, no wider than ``width`` (the terminal's):
    a cell too wide for its column is wrapped within it.  With ``variant``,
    the reasons games nobody won ended are said in the chosen language."""
    width = width or terminal_width()
    label = engine.label_words

    def say(text: str, indent: int | None = None) -> None:
        click.echo("\n".join(wrap(text, width, indent)))

    rulesets = data["rulesets"]
    workers = data["workers"]
    said = (_.ngettext("{count:,} Ray worker", "{count:,} Ray workers", workers) if data["backend"] == "ray"
            else _.ngettext("{count:,} worker", "{count:,} workers", workers))
    say(_("{games} per ruleset of {variant}, {players} players (cpu:{cpu}), seed {seed}, the same seeds for "
          "every ruleset: {seconds:.1f} s on {workers}").format(
        games=_.ngettext("{count:,} game", "{count:,} games", data["games"]).format(count=data["games"]),
        variant=data["variant"], players=data["players"], cpu=data["cpu"], seed=data["seed"],
        seconds=data["seconds"], workers=said.format(count=workers)), indent=0)
    changes = [", ".join(f"{k}={show_value(v)}" for k, v in r["changes"].items()) or _("the defaults")
               for r in rulesets]
    if changes != [label(r["label"]) for r in rulesets]:  # what each ruleset changes, where its name doesn't
        for ruleset, changed in zip(rulesets, changes):
            say(f"  {label(ruleset['label'])}: {changed}", indent=4)
    rows: list[tuple[str, list[str]]] = [
        (_("moves: mean"), [f"{r['moves']['mean']:g}" for r in rulesets]),
        (_("moves: median, 90th pct"),
         [f"{r['moves']['median']:g}, {r['moves']['p90']:g}" for r in rulesets]),
    ]
    if any(r["rounds"] is not None and r["rounds"]["max"] > 1 for r in rulesets):
        rows.append((_("rounds: mean"),
                     [f"{r['rounds']['mean']:g}" if r["rounds"] else "-" for r in rulesets]))
        rows.append((_("rounds: median, 90th pct"),
                     [f"{r['rounds']['median']:g}, {r['rounds']['p90']:g}" if r["rounds"] else "-"
                      for r in rulesets]))
    rows.append((_("nobody won"),
                 [_rate(r["nobody_won"]["share"], r["nobody_won"]["ci95"]) for r in rulesets]))
    for k, seat in enumerate(rulesets[0]["seats"]):
        rows.append((_("wins: {position}").format(position=engine.position_words(seat["position"])),
                     [_rate(r["seats"][k]["win_rate"], r["seats"][k]["win_rate_ci95"]) for r in rulesets]))
    for k, measure in enumerate(rulesets[0]["skill"]):
        pairing = _("{stronger} against {weaker}").format(stronger=measure["stronger"],
                                                          weaker=measure["weaker"])
        rows.append((pairing, [_rate(r["skill"][k]["score"], r["skill"][k]["score_ci95"]) for r in rulesets]))
        if any(r["skill"][k]["nobody_won"]["games"] for r in rulesets):
            rows.append(("  " + _("nobody won"),
                         [_rate(r["skill"][k]["nobody_won"]["share"], r["skill"][k]["nobody_won"]["ci95"])
                          for r in rulesets]))
    heads = ["", *(label(r["label"]) for r in rulesets)]
    for line in table(heads, [[name, *cells] for name, cells in rows], width, indent=2,
                      give=range(len(heads))):
        click.echo(line)
    drawn = any(r["nobody_won"]["games"] for r in rulesets)
    even = f"{1 / data['players']:.1%}"
    share = (_("(an even share of wins at {players} players is {even} of the games someone won)") if drawn
             else _("(an even share of wins at {players} players is {even})"))
    say("  " + share.format(players=data["players"], even=even), indent=3)
    if rulesets[0]["skill"]:
        if any(m["nobody_won"]["games"] for r in rulesets for m in r["skill"]):
            note = _("(skill: the stronger CPU's score, a win counting 1 and a first place shared by k "
                     "players when nobody won 1/k; with no edge a player scores {even})")
        else:
            note = _("(skill: how often the stronger CPU wins; with no edge a player wins {even})")
        say("  " + note.format(even=even), indent=3)
    for ruleset in rulesets:
        for reason, count in ruleset["nobody_won"]["reasons"].items():
            said = _.ngettext("nobody won under {label}: {count:,} game ({reason})",
                              "nobody won under {label}: {count:,} games ({reason})", count)
            say("  " + said.format(label=label(ruleset["label"]), count=count,
                                   reason=reason_said(reason, variant, data["players"])))
    for diff in data["differences"]:
        say(_("{label} against {baseline}, game by game (95% intervals):").format(
            label=label(diff["label"]), baseline=label(diff["baseline"])))
        moves = diff["moves"]
        difference, relative = moves["difference"], moves["relative"]
        fields = {"value": difference["value"], "low": difference["ci95"][0], "high": difference["ci95"][1]}
        if relative:
            line = _("moves {value:+.2f} [{low:+.2f}, {high:+.2f}] per game ({share:+.1%} "
                     "[{share_low:+.1%}, {share_high:+.1%}])").format(
                share=relative["value"], share_low=relative["ci95"][0], share_high=relative["ci95"][1],
                **fields)
        else:
            line = _("moves {value:+.2f} [{low:+.2f}, {high:+.2f}] per game").format(**fields)
        say("  " + line)
        say("  " + _("In words: {verdict}.").format(verdict=diff["verdict"]), indent=4)


def reason_said(reason: str, variant: Variant | None, players: int) -> str:
    """How games nobody won ended (the variant's words, English in the data) in the chosen language."""
    if reason == engine.NO_REASON:
        return _(engine.NO_REASON)
    return narration.reason_said(variant, reason, [f"cpu{seat + 1}" for seat in range(players)])
