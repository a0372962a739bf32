"""Helpers shared by the commands: finding variants and rules, reporting errors,
choosing where games run and showing their progress."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import click

from ..contract.options import player_range, resolve, seat_count_problem
from ..contract.variant import Variant
from ..cpu.parallel import Backend, BackendError, LocalBackend
from ..cpu.players import PlayersError
from ..engine.plugins import Registry, get_registry
from ..engine.rulesets import Ruleset, check, default_ruleset, load_ruleset, ruleset_text, shipped_rulesets
from ..kit.errors import CardcliError
from ..kit.fit import tell
from ..kit.grammar import join_or
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.safe_text import printable


class Failure(click.ClickException):
    """A Click error (exit 1) whose message is wrapped at spaces when it goes
    to a terminal, and one line to grep in a pipe or a file."""

    def show(self, file: IO[Any] | None = None) -> None:
        if file is not None:
            super().show(file)
        else:
            tell(_("Error: {message}").format(message=self.format_message()), err=True)


def handle_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the library's typed errors into one-line Click errors (exit 1)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except CardcliError as error:
            raise Failure(printable(str(error), newlines=True)) from None

    return wrapper


def registry() -> Registry:
    return get_registry()


def variant_named(name: str) -> Variant:
    return registry().get(name)


def resolve_ruleset(variant: Variant, name: str | None, num_players: int | None = None) -> Ruleset:
    """The rules ``--ruleset`` names (the variant's defaults without one),
    checked for a table of ``num_players``: a count the rules cannot seat is
    refused first, by the option that sets the limit (never by a rule that
    follows from the count, such as a deal that would not fit), with the
    shipped rulesets that seat that many."""
    ruleset = default_ruleset(variant) if name is None else load_ruleset(name, registry(), variant.name)
    if num_players is not None:
        problem = seat_count_problem(num_players, ruleset.options, variant.name,
                                     (variant.min_players, variant.max_players),
                                     None if name is None else ruleset.source,
                                     None if name is None else ruleset.stated)
        if problem:
            raise PlayersError(problem + rulesets_seating(variant, num_players, ruleset))
    check(variant, ruleset.options, num_players, "rules" if name is None else ruleset.source)
    return ruleset


def rulesets_seating(variant: Variant, count: int, chosen: Ruleset) -> str:
    """Where a table of ``count`` can be had instead of ``chosen``: the
    shipped rulesets of ``variant`` that seat that many ("; --ruleset
    eight-players seats 7 players"), else the most (or fewest) any seats."""
    sizes: dict[str, tuple[int, int]] = {}
    for ruleset_name, path, data in shipped_rulesets(registry(), variant.name):
        try:
            options = resolve(variant.options, data.get("options", {}), source=str(path))
        except CardcliError:
            continue
        short = ruleset_name.removeprefix(variant.name + "-")
        if str(path) != chosen.source:
            sizes[short] = player_range(options, variant.min_players, variant.max_players)
    fits = sorted(name for name, (low, high) in sizes.items() if low <= count <= high)
    if fits:
        return _.ngettext("; --ruleset {names} seats {count} player",
                          "; --ruleset {names} seats {count} players", count).format(
                              names=join_or(fits), count=count)
    low, high = player_range(chosen.options, variant.min_players, variant.max_players)
    if count > high and sizes:
        most = max(top for _low, top in sizes.values())
        if most > high:
            names = sorted(name for name, (_low, top) in sizes.items() if top == most)
            return _("; the most {variant} seats is {count}, with --ruleset {names}").format(
                variant=variant.name, count=most, names=join_or(names))
    if count < low and sizes:
        fewest = min(bottom for bottom, _high in sizes.values())
        if fewest < low:
            names = sorted(name for name, (bottom, _high) in sizes.items() if bottom == fewest)
            return _("; the fewest {variant} seats is {count}, with --ruleset {names}").format(
                variant=variant.name, count=fewest, names=join_or(names))
    return ""


def seat_named(player: str | None, names: list[str], option: str = "--dealer") -> int:
    """The seat an option naming a player (``--dealer NAME``, ``--seat
    NAME``) names among the players (the first when not given)."""
    if player is None:
        return 0
    lowered = [name.lower() for name in names]
    if player.strip().lower() not in lowered:
        raise click.BadParameter(_("{player} is not one of the players ({names})").format(
            player=repr(player), names=", ".join(names)), param_hint=option)
    return lowered.index(player.strip().lower())


#: The backends ``--backend`` offers.
BACKENDS = ("local", "ray")


@contextmanager
def open_backend(name: str = "local", workers: int | None = None,
                 address: str | None = None) -> Iterator[Backend]:
    """The backend called ``name``, shut down when the block ends.

    Ray is imported only here, and only when ``name`` is ``"ray"``.
    """
    if name == "local":
        yield LocalBackend(workers)
        return
    if name != "ray":
        raise BackendError(_("unknown backend {name} (choose from {names})").format(
            name=repr(name), names=", ".join(BACKENDS)))
    from ..cpu.ray import RayBackend

    backend = RayBackend(workers, address)
    try:
        yield backend
    finally:
        backend.close()


def backend_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--workers``, ``--backend`` and ``--ray-address``: where a run's games
    are played, shared by simulate, arena and compare."""
    function = click.option(
        "--ray-address", metavar="ADDRESS", default=None,
        help=_("With --backend ray: the cluster to use (default: $RAY_ADDRESS, else a Ray "
             "started on this machine for the run)."))(function)
    function = click.option(
        "--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
        help=_("Where the games run: a process pool here, or Ray tasks (pip install 'cardcli[ray]'). "
             "Same results either way."))(function)
    return click.option(
        "--workers", "-w", type=click.IntRange(1), default=None,
        help=_("Parallel processes (default: every core). Results do not depend on it."))(function)


def ruleset_option(help_text: str = N_("House rules: a shipped name or a TOML file.")) -> Callable[..., Any]:
    """``--ruleset``/``-r``, a shipped name or a file, completed in the shell."""
    return click.option("--ruleset", "-r", metavar="FILE_OR_NAME", shell_complete=complete_ruleset,
                        help=_(help_text))


def complete_variant(ctx: click.Context, param: click.Parameter,
                     incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a VARIANT: the installed variants' names."""
    try:
        found = registry().variants
    except Exception:  # completion must never print a traceback into the shell
        return []
    return [click.shell_completion.CompletionItem(name, help=found[name].variant.title)
            for name in sorted(found) if name.startswith(incomplete)]


def complete_ruleset(ctx: click.Context, param: click.Parameter,
                     incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a ruleset: the shipped names (for the VARIANT
    already typed, with and without its prefix), or a file for a path."""
    Item = click.shell_completion.CompletionItem
    if os.sep in incomplete or incomplete.startswith((".", "~")):
        return [Item(incomplete, type="file")]
    try:
        reg = registry()
        # The VARIANT typed before --ruleset (left unparsed while the option's value is incomplete).
        typed = [ctx.params.get("variant"), *ctx.args]
        variant = next((word for word in typed if isinstance(word, str) and word in reg.variants), None)
        shipped = shipped_rulesets(reg, variant)
    except Exception:  # completion must never print a traceback into the shell
        return []
    names: dict[str, str] = {}
    for name, _path, data in shipped:
        title = str(data.get("name", name))
        info = reg.variants.get(data["variant"])
        if info is not None and "name" in data:  # a shipped ruleset's name in the chosen language
            title = ruleset_text(info.variant, title)
        names[name] = title
        if variant is not None and name.startswith(variant + "-"):
            names[name[len(variant) + 1:]] = title
    return [Item(name, help=title) for name, title in sorted(names.items()) if name.startswith(incomplete)]


def complete_record(ctx: click.Context, param: click.Parameter,
                    incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a RECORD: the folders and the ``.jsonl`` files
    where the path typed so far points."""
    Item = click.shell_completion.CompletionItem
    folder, _, start = incomplete.rpartition("/")
    where = os.path.expanduser(folder or ".") if folder or not incomplete.startswith("/") else "/"
    try:
        entries = sorted(os.scandir(where or "/"), key=lambda entry: entry.name)
    except OSError:
        return []
    prefix = f"{folder}/" if folder or incomplete.startswith("/") else ""
    items = []
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        try:
            if entry.is_dir():
                items.append(Item(prefix + entry.name + "/", type="plain"))
            elif entry.name.endswith(".jsonl"):
                items.append(Item(prefix + entry.name))
        except OSError:
            continue
    return items


def complete_saved(ctx: click.Context, param: click.Parameter,
                   incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of ``--resume``: the saved games by name (newest
    first, unfinished ones only), or record files for a path."""
    if "/" in incomplete or incomplete.startswith((".", "~")):
        return complete_record(ctx, param, incomplete)
    from ..records.saved import saved_games

    try:
        found = [game for game in saved_games() if game.state == "unfinished"]
    except Exception:  # completion must never print a traceback into the shell
        return []
    return [click.shell_completion.CompletionItem(game.path.name, help=", ".join(game.players or []))
            for game in found if game.path.name.startswith(incomplete)]


def colour_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--color/--no-color``: colour forced on or off (default: on for a
    terminal, off when NO_COLOR is set or the output is not a terminal)."""
    return click.option(
        "--color/--no-color", "colour", default=None,
        help=_("Colour on or off (default: on at a terminal unless NO_COLOR is set)."))(function)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on a terminal's stderr (none in CI or when piped): its update function."""
    if not sys.stderr.isatty() or os.environ.get("CI"):
        yield None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update
