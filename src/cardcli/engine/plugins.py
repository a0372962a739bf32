"""Finding variants: the one plugin manager, loaded lazily and defensively.

Each entry point of the ``cardcli.engine.plugins`` group is imported and registered
on its own; one that fails to import, or whose hooks raise or register
something that is not a variant, costs a one-line warning on stderr and
nothing else.  ``CARDCLI_LOAD_PLUGINS`` (comma-separated entry-point names)
limits which plugins load; set it empty to load none.  A misspelt hook is
caught (pluggy's ``check_pending``) and reported the same way.
``CARDCLI_TRACE_PLUGINS=1`` prints each plugin loaded, each hook called and
what it registered.
"""

from __future__ import annotations

import difflib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TextIO

import pluggy

from ..contract import hookspecs
from ..contract.variant import Variant
from ..kit.errors import PluginError
from ..kit.language import core as _

ENTRY_POINT_GROUP = "cardcli.plugins"


@dataclass
class VariantInfo:
    """A registered variant and where it came from."""

    variant: Variant
    plugin: str
    package: str


@dataclass
class Registry:
    """Everything the installed plugins offer."""

    variants: dict[str, VariantInfo] = field(default_factory=dict)
    ruleset_dirs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def get(self, name: str) -> Variant:
        """The variant called ``name``, or a ``PluginError`` listing what is installed."""
        info = self.variants.get(name.lower())
        if info is None:
            if not self.variants:
                raise PluginError(_("unknown variant {name!r} (installed: none installed)").format(name=name))
            raise PluginError(_("unknown variant {name!r} (installed: {variants})").format(
                name=name, variants=", ".join(sorted(self.variants))))
        return info.variant


_REQUIRED = ("name", "title", "description", "min_players", "max_players", "options")


def _as_variant(obj: object) -> Variant:
    """``obj`` if it is a usable variant, else a ``PluginError`` saying what is wrong."""
    if not isinstance(obj, Variant):
        raise PluginError(_("registered {type}, which is not a cardcli Variant").format(
            type=type(obj).__name__))
    for attribute in _REQUIRED:
        if not hasattr(obj, attribute):
            raise PluginError(_("variant is missing {attribute!r}").format(attribute=attribute))
    if not isinstance(obj.name, str) or not obj.name.isidentifier():
        raise PluginError(_("variant name {name!r} is not a simple word").format(name=obj.name))
    if not 1 <= obj.min_players <= obj.max_players:
        raise PluginError(_("variant {name!r} has an impossible player range").format(name=obj.name))
    return obj


def _entry_points() -> list[metadata.EntryPoint]:
    return list(metadata.entry_points(group=ENTRY_POINT_GROUP))


def load_registry(warn: Callable[[str], None] | None = None,
                  extra_plugins: tuple[object, ...] = (),
                  trace: Callable[[str], None] | None = None) -> Registry:
    """Load every plugin and collect what it registers.

    ``extra_plugins`` are registered as if found through entry points (tests
    and embedding programs use it).  ``warn`` receives one line per broken
    plugin; by default it goes to stderr.  ``trace`` receives a line per
    plugin loaded, hook called and thing registered; by default it is on when
    ``CARDCLI_TRACE_PLUGINS`` is set (to anything but empty or ``0``), and
    goes to stderr.
    """
    registry = Registry()

    def report(message: str) -> None:
        registry.warnings.append(message)
        (warn or _stderr)(message)

    if trace is None and os.environ.get("CARDCLI_TRACE_PLUGINS", "") not in ("", "0"):
        trace = _stderr
    note = trace or _ignore

    manager = pluggy.PluginManager("cardcli")
    manager.add_hookspecs(hookspecs)
    allowed = os.environ.get("CARDCLI_LOAD_PLUGINS")
    wanted = None if allowed is None else {n.strip() for n in allowed.split(",") if n.strip()}
    sources: list[tuple[str, str, object]] = []
    for entry_point in _entry_points():
        package = entry_point.dist.name if entry_point.dist is not None else entry_point.value
        if wanted is not None and entry_point.name not in wanted:
            note(f"cardcli trace: plugin {entry_point.name!r} ({package}) skipped: "
                 f"not in CARDCLI_LOAD_PLUGINS")
            continue
        started = time.perf_counter()
        try:
            plugin = entry_point.load()
        except Exception as error:
            report(_("cardcli: plugin {name!r} ({package}) failed to load: {error}").format(
                name=entry_point.name, package=package, error=f"{type(error).__name__}: {error}"))
            continue
        note(f"cardcli trace: plugin {entry_point.name!r} ({package}) imported {entry_point.value} "
             f"in {(time.perf_counter() - started) * 1000:.1f} ms")
        sources.append((entry_point.name, package, plugin))
    for index, plugin in enumerate(extra_plugins):
        sources.append((getattr(plugin, "__name__", f"extra{index}"), "(built in)", plugin))

    for name, package, plugin in sources:
        who = f"plugin {name!r} ({package})"  # for the trace
        # Translators: a plugin that cannot be used ({name}, {package}: the plugin's; {problem}: why).
        invalid = _("cardcli: plugin {name!r} ({package}) is not a valid plugin: {problem}")
        try:
            manager.register(plugin, name=f"{name}:{package}")
        except pluggy.PluginValidationError as error:
            report(invalid.format(name=name, package=package, problem=_validation_message(error)))
            continue
        except Exception as error:
            report(invalid.format(name=name, package=package, problem=f"{type(error).__name__}: {error}"))
            continue
        problem = _hook_problem(manager, plugin)
        if problem:
            report(invalid.format(name=name, package=package, problem=problem))
            manager.unregister(plugin)
            continue
        found: list[object] = []
        dirs: list[object] = []
        others = [p for p in manager.get_plugins() if p is not plugin]
        try:
            for hook_name, sink in (("cardcli_register_variants", found),
                                    ("cardcli_register_rulesets", dirs)):
                caller = manager.subset_hook_caller(hook_name, remove_plugins=others)
                if not caller.get_hookimpls():
                    continue
                before = len(sink)
                caller(register=sink.append)
                offered = ", ".join(_describe_offer(item) for item in sink[before:]) or "nothing"
                note(f"cardcli trace: {who} {hook_name}(register) registered {offered}")
        except Exception as error:
            report(_("cardcli: plugin {name!r} ({package}) failed while registering: {error}").format(
                name=name, package=package, error=f"{type(error).__name__}: {error}"))
            manager.unregister(plugin)
            continue
        for candidate in found:
            try:
                variant = _as_variant(candidate)
                if variant.name in registry.variants:
                    other = registry.variants[variant.name].package
                    raise PluginError(_("variant {name!r} is already provided by {package}").format(
                        name=variant.name, package=other))
            except PluginError as problem:
                report(_("cardcli: plugin {name!r} ({package}) ignored: {problem}").format(
                    name=name, package=package, problem=problem))
                continue
            registry.variants[variant.name] = VariantInfo(variant, name, package)
        for directory in dirs:
            path = Path(str(directory))
            if path.is_dir():
                registry.ruleset_dirs.append(path)
            else:
                report(_("cardcli: plugin {name!r} ({package}) registered a ruleset folder that does not "
                         "exist: {path}").format(name=name, package=package, path=path))
    return registry


def _hook_problem(manager: pluggy.PluginManager, plugin: object) -> str | None:
    """Why a just-registered plugin's hooks cannot work, or ``None``.

    A misspelt hook (``cardcli_register_variant``) would silently register
    nothing: pluggy's ``check_pending`` finds it, and the nearest real hook
    name is suggested.  A function named like a hook but not marked with
    ``@hookimpl`` is ignored by pluggy, so it is reported too.
    """
    known = sorted(n for n in vars(hookspecs) if n.startswith("cardcli_"))
    try:
        manager.check_pending()
    except pluggy.PluginValidationError:
        unknown = sorted(n for n in vars(manager.hook) if not n.startswith("_") and n not in known
                         and any(i.plugin is plugin for i in getattr(manager.hook, n).get_hookimpls()))
        name = unknown[0] if unknown else "?"
        close = difflib.get_close_matches(name, known, n=1)
        if close:
            return _("unknown hook {name!r} (did you mean {close!r}?)").format(name=name, close=close[0])
        return _("unknown hook {name!r} (the hooks are {hooks})").format(name=name, hooks=", ".join(known))
    registered = {i.function for n in known for i in getattr(manager.hook, n).get_hookimpls()
                  if i.plugin is plugin}
    for attribute in sorted(dir(plugin)):
        value = getattr(plugin, attribute, None)
        if attribute in known and callable(value) and value not in registered:
            return _("{function} is not marked with @cardcli.contract.hookspecs.hookimpl").format(
                function=attribute)
    return None


def _validation_message(error: pluggy.PluginValidationError) -> str:
    """pluggy's three-line complaint about a hook's signature, in one line."""
    lines = str(error).splitlines()
    definition = next((line.split(": ", 1)[1] for line in lines
                       if line.startswith("hookimpl definition")), "")
    if definition and len(lines) > 2:
        # Translators: {problem} is pluggy's own words, in English; "register" is the argument's name.
        return _("{definition}: {problem} (every cardcli hook takes one argument, register)").format(
            definition=definition, problem=lines[-1])
    return " ".join(lines)


def _describe_offer(item: object) -> str:
    if isinstance(item, Variant):
        return f"variant {getattr(item, 'name', '?')!r} ({type(item).__name__})"
    if isinstance(item, (str, Path)):
        return f"ruleset folder {item}"
    return repr(item)


def _ignore(message: str) -> None:
    pass


def _stderr(message: str, stream: TextIO | None = None) -> None:
    print(message, file=stream or sys.stderr)


_cached: Registry | None = None


def get_registry() -> Registry:
    """The registry of installed plugins, loaded on first use."""
    global _cached
    if _cached is None:
        _cached = load_registry()
    return _cached


def reset_registry() -> None:
    """Forget the loaded plugins (tests that install fake ones use this)."""
    global _cached
    _cached = None
