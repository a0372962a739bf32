"""Helpers shared by the commands: finding variants and rules, reporting errors,
choosing where games run and showing their progress."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..errors import CardcliError
from ..parallel import BACKENDS
from ..plugins import Registry, get_registry
from ..rulesets import Ruleset, check, default_ruleset, load_ruleset
from ..text import printable
from ..variant import Variant


def handle_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the library's typed errors into one-line Click errors (exit 1)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except CardcliError as error:
            raise click.ClickException(printable(str(error), newlines=True)) from None

    return wrapper


def registry() -> Registry:
    return get_registry()


def variant_named(name: str) -> Variant:
    return registry().get(name)


def resolve_ruleset(variant: Variant, name: str | None, num_players: int | None = None) -> Ruleset:
    if name is None:
        ruleset = default_ruleset(variant)
        check(variant, ruleset.options, num_players, "rules")
        return ruleset
    return load_ruleset(name, registry(), variant.name, num_players)


def backend_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--backend`` and ``--ray-address``, shared by simulate, arena and compare."""
    function = click.option(
        "--ray-address", metavar="ADDRESS", default=None,
        help="With --backend ray: the cluster to use (default: $RAY_ADDRESS, else a Ray "
             "started on this machine for the run).")(function)
    return click.option(
        "--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
        help="Where the games run: a process pool here, or Ray tasks (pip install 'cardcli[ray]'). "
             "Same results either way.")(function)


def colour_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--color/--no-color``: colour forced on or off (default: on for a
    terminal, off when NO_COLOR is set or the output is not a terminal)."""
    return click.option(
        "--color/--no-color", "colour", default=None,
        help="Colour on or off (default: on at a terminal unless NO_COLOR is set).")(function)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on a terminal's stderr (none in CI or when piped): its update function."""
    if not sys.stderr.isatty() or os.environ.get("CI"):
        yield None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update
