"""Finding variants: the one plugin manager, loaded lazily and defensively.

Each entry point of the ``cardcli.plugins`` group is imported and registered
on its own; one that fails to import, or whose hooks raise or register
something that is not a variant, costs a one-line warning on stderr and
nothing else.  ``CARDCLI_LOAD_PLUGINS`` (comma-separated entry-point names)
limits which plugins load; set it empty to load none.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TextIO

import pluggy

from . import hookspecs
from .errors import PluginError
from .variant import Variant

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
            known = ", ".join(sorted(self.variants)) or "none installed"
            raise PluginError(f"unknown variant {name!r} (installed: {known})")
        return info.variant


_REQUIRED = ("name", "title", "description", "min_players", "max_players", "options")


def _check_variant(obj: object) -> str | None:
    if not isinstance(obj, Variant):
        return f"registered {type(obj).__name__}, which is not a cardcli Variant"
    for attribute in _REQUIRED:
        if not hasattr(obj, attribute):
            return f"variant is missing {attribute!r}"
    if not isinstance(obj.name, str) or not obj.name.isidentifier():
        return f"variant name {obj.name!r} is not a simple word"
    if not 1 <= obj.min_players <= obj.max_players:
        return f"variant {obj.name!r} has an impossible player range"
    return None


def _entry_points() -> list[metadata.EntryPoint]:
    return list(metadata.entry_points(group=ENTRY_POINT_GROUP))


def load_registry(warn: Callable[[str], None] | None = None,
                  extra_plugins: tuple[object, ...] = ()) -> Registry:
    """Load every plugin and collect what it registers.

    ``extra_plugins`` are registered as if found through entry points (tests
    and embedding programs use it).  ``warn`` receives one line per broken
    plugin; by default it goes to stderr.
    """
    registry = Registry()

    def report(message: str) -> None:
        registry.warnings.append(message)
        (warn or _stderr)(message)

    manager = pluggy.PluginManager("cardcli")
    manager.add_hookspecs(hookspecs)
    allowed = os.environ.get("CARDCLI_LOAD_PLUGINS")
    wanted = None if allowed is None else {n.strip() for n in allowed.split(",") if n.strip()}
    sources: list[tuple[str, str, object]] = []
    for entry_point in _entry_points():
        if wanted is not None and entry_point.name not in wanted:
            continue
        package = entry_point.dist.name if entry_point.dist is not None else entry_point.value
        try:
            plugin = entry_point.load()
        except Exception as error:
            report(f"cardcli: plugin {entry_point.name!r} ({package}) failed to load: "
                   f"{type(error).__name__}: {error}")
            continue
        sources.append((entry_point.name, package, plugin))
    for index, plugin in enumerate(extra_plugins):
        sources.append((getattr(plugin, "__name__", f"extra{index}"), "(built in)", plugin))

    for name, package, plugin in sources:
        try:
            manager.register(plugin, name=f"{name}:{package}")
        except Exception as error:
            report(f"cardcli: plugin {name!r} ({package}) is not a valid plugin: {error}")
            continue
        found: list[object] = []
        dirs: list[object] = []
        try:
            hooks = manager.subset_hook_caller("cardcli_register_variants", remove_plugins=[
                p for p in manager.get_plugins() if p is not plugin])
            hooks(register=found.append)
            ruleset_hooks = manager.subset_hook_caller("cardcli_register_rulesets", remove_plugins=[
                p for p in manager.get_plugins() if p is not plugin])
            ruleset_hooks(register=dirs.append)
        except Exception as error:
            report(f"cardcli: plugin {name!r} ({package}) failed while registering: "
                   f"{type(error).__name__}: {error}")
            manager.unregister(plugin)
            continue
        for variant in found:
            problem = _check_variant(variant)
            if problem is None and variant.name in registry.variants:  # type: ignore[attr-defined]
                other = registry.variants[variant.name].package  # type: ignore[attr-defined]
                problem = f"variant {variant.name!r} is already provided by {other}"  # type: ignore[attr-defined]
            if problem:
                report(f"cardcli: plugin {name!r} ({package}) ignored: {problem}")
                continue
            registry.variants[variant.name] = VariantInfo(variant, name, package)  # type: ignore[attr-defined]
        for directory in dirs:
            path = Path(str(directory))
            if path.is_dir():
                registry.ruleset_dirs.append(path)
            else:
                report(f"cardcli: plugin {name!r} ({package}) registered a ruleset folder "
                       f"that does not exist: {path}")
    return registry


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
