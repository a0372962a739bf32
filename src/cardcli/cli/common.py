"""Helpers shared by the commands: finding variants and rules, reporting errors."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from ..errors import CardcliError
from ..plugins import Registry, get_registry
from ..rulesets import Ruleset, check, default_ruleset, load_ruleset
from ..variant import Variant


def handle_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the library's typed errors into one-line Click errors (exit 1)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except CardcliError as error:
            raise click.ClickException(str(error)) from None

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
