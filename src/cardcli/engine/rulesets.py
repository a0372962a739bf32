"""House rules as TOML files.

A ruleset names its variant and sets some options; everything else takes
the variant's default::

    name = "No 2-stacking"
    variant = "matching"
    description = "A 2's penalty must be taken; it cannot be passed on."

    [options]
    stack_twos = false

``--ruleset`` takes a path or a shipped name.  Shipped names are searched in
``$CARDCLI_RULESETS`` (folders separated by ``os.pathsep``), then in the
folders plugins register through ``cardcli_register_rulesets`` -- the built-in
variants register the folder inside their package that carries the project's
``rulesets/`` files, so an installed wheel finds them as a checkout does.  For
a known variant ``american`` also finds ``matching-american``.

A shipped ruleset's ``name`` and ``description`` are messages of its plugin's
catalog (context ``ruleset``, extracted from the TOML by ``build_catalogs.py``)
and are shown through :func:`ruleset_text`; a ruleset of a user's, not in
the catalog, is shown as written.  Records, ``--json`` and CSV keep the name as
the file writes it: they are interfaces.
"""

from __future__ import annotations

import difflib
import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..contract.options import Value, resolve, resolve_all
from ..contract.variant import Variant
from ..kit.errors import PluginError, RulesetError
from ..kit.language import core as _
from ..kit.record_format import file_kind
from .plugins import Registry

#: A ruleset is a few hundred bytes; a file far larger is not one.
MAX_RULESET_BYTES = 1 << 20
_TOP_KEYS = {"name", "variant", "description", "options"}


@dataclass
class Ruleset:
    """A ruleset resolved against its variant: every option has a value."""

    variant: str
    options: dict[str, Value]
    name: str
    description: str = ""
    source: str = "(defaults)"
    #: The options the ruleset sets itself (the others have their defaults).
    stated: frozenset[str] = frozenset()


#: The gettext context (``msgctxt``) of a shipped ruleset's name and description in its plugin's catalog.
RULESET_CONTEXT = "ruleset"


def ruleset_text(variant: Variant, text: str) -> str:
    """A ruleset's ``name`` or ``description`` as a person reads it: a shipped ruleset's in the
    chosen language, from the catalog of the variant's plugin (which ships its rulesets), any
    other as written."""
    if not text or variant.catalog is None:
        return text
    return variant.catalog.pgettext(RULESET_CONTEXT, text)


def search_dirs(registry: Registry) -> list[Path]:
    """Where shipped names are looked up, first match winning."""
    dirs: list[Path] = []
    for entry in os.environ.get("CARDCLI_RULESETS", "").split(os.pathsep):
        if entry:
            dirs.append(Path(entry))
    dirs.extend(registry.ruleset_dirs)
    return dirs


def find_ruleset(name: str, registry: Registry, variant: str | None = None) -> Path:
    """The file a ``--ruleset`` argument means."""
    path = Path(name).expanduser()
    if path.suffix == ".toml" or os.sep in name or (os.altsep and os.altsep in name):
        if not path.is_file():
            problem = _not_a_file(path) or _("no such ruleset file")
            raise RulesetError(f"{name}: {problem}")
        return path
    candidates = [name]
    if variant:
        candidates.append(f"{variant}-{name}")
    for directory in search_dirs(registry):
        for candidate in candidates:
            found = directory / f"{candidate}.toml"
            if found.is_file():
                return found
    if variant is None:
        # A short name ("american") is enough when only one variant ships it.
        matches = {p.stem: p for d in search_dirs(registry) for p in d.glob(f"*-{name}.toml")}
        if len(matches) == 1:
            return next(iter(matches.values()))
        if len(matches) > 1:
            raise RulesetError(_("ruleset {name!r} is ambiguous: {rulesets}").format(
                name=name, rulesets=", ".join(sorted(matches))))
    if path.is_file():
        return path
    if _not_a_file(path):
        raise RulesetError(f"{name}: {_not_a_file(path)}")
    files: dict[str, Path] = {}
    for directory in search_dirs(registry):
        for found in directory.glob("*.toml"):
            files.setdefault(found.stem, found)
    # For a chosen variant only its own rulesets are worth naming.
    stems = sorted(stem for stem, found in files.items() if variant is None or _variant_of(found) == variant)
    short = [stem.partition("-")[2] for stem in stems]
    close = difflib.get_close_matches(name, [*stems, *short], n=1, cutoff=0.75)
    # Translators: no shipped ruleset at all (after "shipped:").
    shipped = ", ".join(stems) or _("none")
    if variant and close:
        said = _("no ruleset called {name!r} for {variant} (did you mean {close!r}? shipped: {shipped})")
    elif variant:
        said = _("no ruleset called {name!r} for {variant} (shipped: {shipped})")
    elif close:
        said = _("no ruleset called {name!r} (did you mean {close!r}? shipped: {shipped})")
    else:
        said = _("no ruleset called {name!r} (shipped: {shipped})")
    raise RulesetError(said.format(name=name, variant=variant, close=close[0] if close else "",
                                   shipped=shipped))


def _variant_of(path: Path) -> str | None:
    """The variant a ruleset file says it is for, or ``None`` if it is not a ruleset."""
    try:
        return _read_ruleset(path)["variant"]
    except RulesetError:
        return None


def _not_a_file(path: Path) -> str | None:
    """Why something at ``path`` is not a ruleset file (a folder, a FIFO, a
    device: never opened, as a FIFO would wait for a writer), or ``None``."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _("is {kind}, not a ruleset file").format(kind=file_kind(mode))


def parse_ruleset_text(text: str, source: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Translators: {problem} is Python's TOML reader's own message, in English.
        raise RulesetError(_("{source}: not valid TOML: {problem}").format(source=source, problem=error)) \
            from None
    except RecursionError:
        raise RulesetError(_("{source}: not valid TOML: nested too deeply").format(source=source)) from None
    except ValueError:  # a whole number of more than 4,300 digits
        raise RulesetError(_("{source}: not valid TOML: a number with too many digits").format(
            source=source)) from None
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise RulesetError(_("{source}: unknown key {key!r} at the top level (allowed: name, variant, "
                             "description, [options])").format(source=source, key=unknown[0]))
    if not isinstance(data.get("variant"), str):
        raise RulesetError(_("{source}: key 'variant' is missing; name the variant, e.g. variant = "
                             "\"matching\"").format(source=source))
    if not isinstance(data.get("options", {}), dict):
        raise RulesetError(_("{source}: 'options' must be a table: [options]").format(source=source))
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise RulesetError(_("{source}: key {key!r} must be a string").format(source=source, key=key))
    return data


def _read_ruleset(path: Path) -> dict[str, Any]:
    """A ruleset file's parsed text, checked as far as it goes without its variant."""
    source = str(path)
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_RULESET_BYTES + 1)
        if len(raw) > MAX_RULESET_BYTES:
            raise RulesetError(_("{source}: more than {limit:,} bytes: is this a ruleset?").format(
                source=source, limit=MAX_RULESET_BYTES))
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RulesetError(_("{source}: cannot read: {error}").format(source=source, error=error)) from None
    return parse_ruleset_text(text, source)


def load_ruleset(name: str, registry: Registry, variant: str | None = None,
                 num_players: int | None = None) -> Ruleset:
    """Load and check a ruleset.  With ``variant``, a ruleset for another is refused."""
    path = find_ruleset(name, registry, variant)
    source = str(path)
    data = _read_ruleset(path)
    if variant is not None and data["variant"] != variant:
        raise RulesetError(_("{source}: this ruleset is for {found!r}, not {wanted!r}").format(
            source=source, found=data["variant"], wanted=variant))
    try:
        target = registry.get(data["variant"])
    except PluginError as error:
        raise RulesetError(f"{source}: {error}") from None
    # The widest table the ruleset allows must be playable, whoever sits down now.
    options = resolve_rules(target, data.get("options", {}), source, widest=True, num_players=num_players)
    return Ruleset(variant=target.name, options=options, name=data.get("name", path.stem),
                   description=data.get("description", ""), source=source,
                   stated=frozenset(data.get("options", {})))


def default_ruleset(variant: Variant) -> Ruleset:
    options = resolve(variant.options, {}, source=variant.name)
    return Ruleset(variant=variant.name, options=options, name=f"{variant.name} defaults")


def rules_from_record(variant: Variant, settings: Any, source: str,
                      num_players: int | None = None) -> dict[str, Value]:
    """The rules a record's header states, checked like a ruleset but for the
    table the record has (``num_players``), not the widest one."""
    if not isinstance(settings, dict):
        raise RulesetError(_("{source}: 'rules' must be an object of option values").format(source=source))
    return resolve_rules(variant, settings, source, num_players=num_players)


def resolve_rules(variant: Variant, settings: dict[str, Any], source: str, *, widest: bool = False,
                  num_players: int | None = None) -> dict[str, Value]:
    """Every option's value from ``settings``, checked whole: each unknown
    option, wrong value and forbidden combination is reported in one
    :class:`RulesetError`.  Combinations are checked for ``num_players``
    when given, and for the widest table the rules allow when ``widest``.
    A combination that involves an option set wrongly is not reported
    (that option's own mistake is)."""
    resolved, problems, bad = resolve_all(variant.options, settings)
    tables: list[int | None] = []
    if widest or num_players is None:
        tables.append(None)
    if num_players is not None:
        tables.append(num_players)
    for table in tables:
        for problem in combination_problems(variant, resolved, table):
            if problem not in problems and not any(f"'{name}'" in problem for name in bad):
                problems.append(problem)
    if problems:
        raise RulesetError(*problems, source=source)
    return resolved


def combination_problems(variant: Variant, options: dict[str, Value], num_players: int | None) -> list[str]:
    """What ``variant.check_rules`` refuses in ``options``, each problem apart."""
    try:
        variant.check_rules(options, num_players)
    except RulesetError as error:
        return error.problems
    return []


def check(variant: Variant, options: dict[str, Value], num_players: int | None, source: str) -> None:
    problems = combination_problems(variant, options, num_players)
    if problems:
        raise RulesetError(*problems, source=source)


def shipped_rulesets(registry: Registry,
                     variant: str | None = None) -> list[tuple[str, Path, dict[str, Any]]]:
    """(name, path, raw data) of every ruleset found, optionally for one variant."""
    seen: dict[str, tuple[str, Path, dict[str, Any]]] = {}
    for directory in search_dirs(registry):
        for path in sorted(directory.glob("*.toml")):
            if path.stem in seen or _not_a_file(path):  # a FIFO would wait for a writer forever
                continue
            try:
                data = parse_ruleset_text(path.read_text(encoding="utf-8"), str(path))
            except (RulesetError, OSError, UnicodeDecodeError):
                continue
            if variant is None or data["variant"] == variant:
                seen[path.stem] = (path.stem, path, data)
    return list(seen.values())
