"""Rule options: what a variant lets a ruleset change, and their checking.

A variant declares its options as :class:`Option` specs.  Resolved rules are a
plain ``dict`` of every option's value (JSON types only), because that is what
a record's header stores and what a person reads; variants turn it into their
own fast, typed configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import RANK_NAMES, parse_rank
from .errors import CardError, RulesetError

Value = bool | int | str | None


@dataclass(frozen=True)
class Option:
    """One house rule: its name, default, allowed values and meaning.

    ``kind`` is ``"bool"``, ``"int"``, ``"choice"`` (one of ``choices``) or
    ``"rank"`` (a card rank written ``"2"``..``"10"``, ``"J"``, ``"Q"``,
    ``"K"``, ``"A"``).  ``nullable`` allows ``None`` ("none"; in TOML, leave
    the key out or write ``"none"``).
    """

    name: str
    default: Value
    help: str
    kind: str = "bool"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False

    def allowed(self) -> str:
        """The allowed values, in words, for help and error messages."""
        if self.kind == "bool":
            text = "true or false"
        elif self.kind == "int":
            if self.minimum is not None and self.maximum is not None:
                text = f"a whole number from {self.minimum} to {self.maximum}"
            elif self.minimum is not None:
                text = f"a whole number of at least {self.minimum}"
            else:
                text = "a whole number"
        elif self.kind == "choice":
            text = "one of " + ", ".join(f'"{c}"' for c in self.choices)
        elif self.kind == "rank":
            ranks = [RANK_NAMES[r] for r in range(2, 15)
                     if (self.minimum is None or r >= self.minimum)
                     and (self.maximum is None or r <= self.maximum)]
            text = "a rank: " + ", ".join(f'"{r}"' for r in ranks)
        else:  # pragma: no cover - guarded by check()
            text = self.kind
        if self.nullable:
            text += ', or "none"'
        return text

    def check(self, value: Any) -> Value:
        """Return ``value`` normalised, or raise ``ValueError`` saying what is allowed."""
        if self.nullable and (value is None or (isinstance(value, str) and value.lower() == "none")):
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
        elif self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool) and (
                    self.minimum is None or value >= self.minimum) and (
                    self.maximum is None or value <= self.maximum):
                return value
        elif self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
        elif self.kind == "rank":
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if isinstance(value, str):
                try:
                    rank = parse_rank(value)
                except CardError:
                    rank = None
                if rank is not None and (self.minimum is None or rank >= self.minimum) and (
                        self.maximum is None or rank <= self.maximum):
                    return RANK_NAMES[rank]
        else:
            raise ValueError(f"unknown option kind {self.kind!r}")
        raise ValueError(f"got {value!r}; allowed: {self.allowed()}")


def players_options(low: int, high: int) -> tuple[Option, Option]:
    """The ``min_players``/``max_players`` pair every variant offers."""
    return (
        Option("min_players", low, "fewest players at the table", "int", low, high),
        Option("max_players", high, "most players at the table", "int", low, high),
    )


def player_range(rules: Mapping[str, Value], low: int, high: int) -> tuple[int, int]:
    """The table sizes ``rules`` allow: their ``min_players``/``max_players``
    where they set them, else ``low`` and ``high`` (the variant's own range)."""
    fewest, most = rules.get("min_players"), rules.get("max_players")
    return (fewest if isinstance(fewest, int) else low, most if isinstance(most, int) else high)


def resolve(options: Iterable[Option], settings: Mapping[str, Any], *, source: str) -> dict[str, Value]:
    """Every option's value: ``settings`` checked against the specs, defaults elsewhere.

    Raises :class:`RulesetError` naming ``source``, the key and what is allowed.
    """
    specs = {option.name: option for option in options}
    for key in settings:
        if key not in specs:
            known = ", ".join(sorted(specs))
            raise RulesetError(f"{source}: unknown option {key!r} (options: {known})")
    resolved: dict[str, Value] = {}
    for name, option in specs.items():
        if name in settings:
            try:
                resolved[name] = option.check(settings[name])
            except ValueError as error:
                raise RulesetError(f"{source}: option {name!r}: {error}") from None
        else:
            resolved[name] = option.default
    low, high = resolved.get("min_players"), resolved.get("max_players")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        raise RulesetError(f"{source}: option 'min_players' ({low}) is more than 'max_players' ({high})")
    return resolved
