"""Rule options: what a variant lets a ruleset change, and their checking.

A variant declares its options as :class:`Option` specs.  Resolved rules are a
plain ``dict`` of every option's value (JSON types only), because that is what
a record's header stores and what a person reads; variants turn it into their
own fast, typed configuration.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from ..kit.cards import RANK_NAMES, parse_rank
from ..kit.errors import CardError, RulesetError
from ..kit.language import N_
from ..kit.language import core as _

Value = bool | int | str | None


@dataclass(frozen=True)
class Option:
    """One house rule: its name, default, allowed values and meaning.

    ``kind`` is ``"bool"``, ``"int"``, ``"choice"`` (one of ``choices``) or
    ``"rank"`` (a card rank written ``"2"``..``"10"``, ``"J"``, ``"Q"``,
    ``"K"``, ``"A"``).  ``exclude`` lists values inside the range that are
    never allowed (matching's ``skip_rank`` is never ``"8"``).  ``nullable``
    allows ``None``: "none", written ``"none"`` (any case) in a ruleset and
    ``null`` or ``"none"`` in a record's header.
    """

    name: str
    default: Value
    help: str
    kind: str = "bool"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    exclude: tuple[Value, ...] = ()

    def allowed(self) -> str:
        """The allowed values, in words (the chosen language), for help and error messages."""
        if self.kind == "bool":
            text = _("true or false")
        elif self.kind == "int":
            if self.minimum is not None and self.maximum is not None:
                if self.exclude:
                    text = _("a whole number from {low} to {high} except {values}").format(
                        low=self.minimum, high=self.maximum, values=", ".join(str(v) for v in self.exclude))
                else:
                    text = _("a whole number from {low} to {high}").format(low=self.minimum,
                                                                           high=self.maximum)
            elif self.minimum is not None:
                text = _("a whole number of at least {low}").format(low=self.minimum)
            else:
                text = _("a whole number")
        elif self.kind == "choice":
            text = _("one of {choices}").format(choices=", ".join(f'"{c}"' for c in self.choices))
        elif self.kind == "rank":
            ranks = [RANK_NAMES[r] for r in range(2, 15)
                     if (self.minimum is None or r >= self.minimum)
                     and (self.maximum is None or r <= self.maximum)
                     and RANK_NAMES[r] not in self.exclude]
            text = _("a rank: {ranks}").format(ranks=", ".join(f'"{r}"' for r in ranks))
        else:  # pragma: no cover - guarded by check()
            text = self.kind
        if self.nullable:
            text = _('{allowed}, or "none"').format(allowed=text)
        return text

    def check(self, value: Any) -> Value:
        """Return ``value`` normalised, or raise ``ValueError`` saying what is allowed."""
        checked = self._check(value)
        if checked is not None and checked in self.exclude and not isinstance(checked, bool):
            raise ValueError(self._refused(value))
        return checked

    def _check(self, value: Any) -> Value:
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
        raise ValueError(self._refused(value))

    def _refused(self, value: Any) -> str:
        """Why ``value`` is refused: what is allowed instead."""
        # Translators: an option's value refused ({allowed}: "a whole number from 1 to 10", "true or false").
        return _("got {value!r}; allowed: {allowed}").format(value=value, allowed=self.allowed())


class _OptionsConfigType(type):
    """Gives a :class:`OptionsConfig` class a slot per option before Python
    makes the class (slots cannot be added later), then its own ``__slots__``."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> _OptionsConfigType:
        own = namespace.get("__slots__", ())
        own = (own,) if isinstance(own, str) else tuple(own)
        namespace["__slots__"] = (*(option.name for option in kwargs.get("options", ())
                                    if option.name not in own), *own)
        return super().__new__(mcls, name, bases, namespace, **kwargs)


class OptionsConfig(metaclass=_OptionsConfigType):
    """A variant's fast, typed form of its rules, made from its options.

    ``class Config(OptionsConfig, options=OPTIONS, ranks=("skip_rank",))``
    has a slot per option, holding its value (a rank named in ``ranks`` as
    its number, by :func:`~cardcli.kit.cards.parse_rank`), so the hot path
    reads ``cfg.hand_size`` as a plain slot.  The variant lists only its
    derived tables in ``__slots__`` and fills them in :meth:`derive`, which
    also takes whatever :func:`cached_config` passes after the rules (an
    option listed there too is one ``derive`` sets anew).  A type checker
    reads an option as ``Any``; annotate one in the class body
    (``hand_size: int``) to type it.
    """

    __slots__ = ()
    #: The options copied, in order, each with whether it is a rank to parse.
    _copied: ClassVar[tuple[tuple[str, bool], ...]] = ()

    def __init_subclass__(cls, options: Iterable[Option] = (), ranks: Iterable[str] = (),
                          **kwargs: Any) -> None:
        """Note the options to copy; refuse a rank that names no rank option."""
        super().__init_subclass__(**kwargs)
        options = tuple(options)
        ranks = set(ranks)
        wrong = ranks - {option.name for option in options if option.kind == "rank"}
        if wrong:
            raise TypeError(f"{cls.__name__}: ranks names no option of kind 'rank': {sorted(wrong)}")
        cls._copied = (*cls._copied, *((option.name, option.name in ranks) for option in options))

    def __init__(self, rules: Mapping[str, Any], *args: Any) -> None:
        """``rules`` has every option, each value checked against its spec."""
        for name, rank in self._copied:
            value = rules[name]
            setattr(self, name, parse_rank(value) if rank and value is not None else value)
        self.derive(rules, *args)

    def derive(self, rules: Mapping[str, Any], *args: Any, **kwargs: Any) -> None:
        """Fill the variant's own slots (lookup tables for the hot path), after the options."""

    if TYPE_CHECKING:  # for a type checker only: at run time an option is a plain slot
        def __getattr__(self, name: str) -> Any: ...


C = TypeVar("C")
_CONFIGS: dict[tuple[Any, ...], Any] = {}


def cached_config(make: Callable[..., C], rules: Mapping[str, Value], *args: Any) -> C:
    """``make(rules, *args)``, built once per set of rules (and ``args``) and
    shared by every state that reads it: a variant's typed, fast form of its
    rules (its ``Config``, usually an :class:`OptionsConfig`), which states
    keep and never copy.  A dataclass whose fields are named after options
    is made from those options' values."""
    key = (make, tuple(sorted(rules.items())), *args)
    config = _CONFIGS.get(key)
    if config is None:
        if is_dataclass(make):
            config = make(**{field.name: rules[field.name] for field in fields(make)})
        else:
            config = make(rules, *args)
        _CONFIGS[key] = config
    return cast(C, config)


def show_value(value: Value) -> str:
    """An option's value as a ruleset writes it: ``true``, ``none``, ``A``, ``5``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_value(raw: str) -> Value:
    """A value typed on a command line (``--set stack_twos=false``): true or
    false, a whole number, else a word (quotes around it dropped)."""
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if re.fullmatch(r"[+-]?\d+", raw):
        return int(raw)
    return raw.strip("\"'")


def changed_options(rules: Mapping[str, Value], options: Iterable[Option]) -> dict[str, Value]:
    """The options ``rules`` set away from their defaults, with the values
    set, in the options' order: what a summary of house rules names."""
    return {option.name: rules[option.name] for option in options
            if option.name in rules and rules[option.name] != option.default}


def players_options(low: int, high: int) -> tuple[Option, Option]:
    """The ``min_players``/``max_players`` pair every variant offers."""
    return (
        Option("min_players", low, N_("fewest players at the table"), "int", low, high),
        Option("max_players", high, N_("most players at the table"), "int", low, high),
    )


def player_range(rules: Mapping[str, Value], low: int, high: int) -> tuple[int, int]:
    """The table sizes ``rules`` allow: their ``min_players``/``max_players``
    where they set them, else ``low`` and ``high`` (the variant's own range)."""
    fewest, most = rules.get("min_players"), rules.get("max_players")
    return (fewest if isinstance(fewest, int) else low, most if isinstance(most, int) else high)


def seat_count_problem(count: int, rules: Mapping[str, Value], variant: str, limits: tuple[int, int],
                       source: str | None = None, stated: Iterable[str] | None = None) -> str | None:
    """Why ``count`` players cannot sit at a table of ``rules``, naming the
    option that refuses them and where it was set, or ``None``.

    ``limits`` is the variant's own range; ``source`` where the rules come
    from (a ruleset file, a record's header; ``None``: the variant's default
    rules) and ``stated`` the options it sets itself (``None``: all of them)."""
    low, high = player_range(rules, *limits)
    if low <= count <= high:
        return None
    option, value = ("min_players", low) if count < low else ("max_players", high)
    said = stated is None or option in stated
    if option not in rules:
        # Translators: why a table size is refused: the players a game seats ({seats}: "2 to 6 players").
        why = _("{variant} seats {seats}").format(variant=variant, seats=_players(limits[0], limits[1]))
    elif source is None:
        why = _("option {option} = {value} in {variant}'s default rules").format(option=option, value=value,
                                                                                  variant=variant)
    elif said:
        why = _("option {option} = {value} in {source}").format(option=option, value=value, source=source)
    else:
        fewest = option == "min_players"
        own = limits[0] if fewest else limits[1]
        if value != own:
            why = _("option {option} = {value} by default; not set in {source}")
        elif fewest:
            why = _("option {option} = {value} by default, the fewest {variant} seats; not set in {source}")
        else:
            why = _("option {option} = {value} by default, the most {variant} seats; not set in {source}")
        why = why.format(option=option, value=value, variant=variant, source=source)
    # Translators: a table size refused ({seats}: "2 to 6 players"; {why}: the option or game that says so).
    refusal = _.ngettext("{count:,} player, but {variant} with these rules is for {seats} ({why})",
                         "{count:,} players, but {variant} with these rules is for {seats} ({why})", count)
    return refusal.format(count=count, variant=variant, seats=_players(low, high), why=why)


def _players(low: int, high: int) -> str:
    """``2 to 6 players`` (``2 players`` when it is one number), in the chosen language."""
    if low == high:
        return _.ngettext("{count:,} player", "{count:,} players", low).format(count=low)
    return _("{low} to {high} players").format(low=low, high=high)


def deal_problem(rules: Mapping[str, Any], num_players: int | None, pack: int, what: str, spare: str,
                 options: str) -> str:
    """Why ``hand_size`` cards to each player cannot be dealt from a pack of
    ``pack`` cards (``what``, in words) with ``spare`` left over, or ``""``.
    Without ``num_players``, the widest table (``max_players``) must be dealt."""
    players = num_players if num_players is not None else rules["max_players"]
    hand = rules["hand_size"]
    if players * hand < pack:
        return ""
    if num_players is None:
        # Translators: a deal that cannot be made ({what}: "one deck"; {spare}: "a card to turn up";
        # {options}: "option 'hand_size'"); keep 'max_players' as it is.
        said = _("{players} players (the widest table, option 'max_players') x {hand} cards do not fit "
                 "{what} with {spare} ({options})")
    else:
        # Translators: a deal that cannot be made ({what}: "one deck"; {spare}: "a card to turn up";
        # {options}: "option 'hand_size'").
        said = _("{players} players x {hand} cards do not fit {what} with {spare} ({options})")
    return said.format(players=players, hand=hand, what=what, spare=spare, options=options)


def resolve(options: Iterable[Option], settings: Mapping[str, Any], *, source: str) -> dict[str, Value]:
    """Every option's value: ``settings`` checked against the specs, defaults elsewhere.

    Raises :class:`RulesetError` naming ``source``, the keys and what is
    allowed, with every mistake found (not only the first).
    """
    resolved, problems, _bad = resolve_all(options, settings)
    if problems:
        raise RulesetError(*problems, source=source)
    return resolved


def resolve_all(options: Iterable[Option],
                settings: Mapping[str, Any]) -> tuple[dict[str, Value], list[str], set[str]]:
    """Resolve what can be: every option's value (the default where the
    setting is wrong), every problem in words, and the names of the options
    set wrongly (so that checks between options can skip them)."""
    specs = {option.name: option for option in options}
    problems: list[str] = []
    bad: set[str] = set()
    unknown = [key for key in settings if key not in specs]
    problems.extend(unknown_options(unknown, specs))
    resolved: dict[str, Value] = {}
    for name, option in specs.items():
        resolved[name] = option.default
        if name in settings:
            try:
                resolved[name] = option.check(settings[name])
            except ValueError as error:
                problems.append(_("option {name!r}: {problem}").format(name=name, problem=error))
                bad.add(name)
    low, high = resolved.get("min_players"), resolved.get("max_players")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append(_("option 'min_players' ({low}) is more than 'max_players' ({high})").format(
            low=low, high=high))
        bad.update(("min_players", "max_players"))
    return resolved, problems, bad


def unknown_options(keys: list[Any], specs: Iterable[str]) -> list[str]:
    """The problems of options not in ``specs``: a likely typo each with its
    correction; the rest said once, the first by name and how many more
    follow ("unknown option 'skip' and 12 more (options: ...)"): a record of
    another variant names many."""
    names = sorted(specs)
    problems = []
    strangers = []
    for key in keys:
        close = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
        if close:
            problems.append(_("unknown option {key!r} (did you mean {close!r}?)").format(key=key,
                                                                                       close=close[0]))
        else:
            strangers.append(key)
    if strangers:
        if len(strangers) > 1:
            said = _("unknown option {key!r} and {more} more (options: {options})")
        else:
            said = _("unknown option {key!r} (options: {options})")
        problems.append(said.format(key=strangers[0], more=len(strangers) - 1, options=", ".join(names)))
    return problems
