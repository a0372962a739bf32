"""The hooks a cardcli plugin may implement.

A plugin is any module or object registered under the ``cardcli.engine.plugins``
entry-point group.  Hooks receive a ``register`` callback instead of
returning values, so the core collects, checks and de-duplicates what each
plugin offers and can name the plugin that broke its contract.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .variant import Variant

hookspec = pluggy.HookspecMarker("cardcli")
hookimpl = pluggy.HookimplMarker("cardcli")


@hookspec
def cardcli_register_variants(register: Callable[[Variant], None]) -> None:
    """Call ``register(variant)`` for each :class:`cardcli.contract.variant.Variant` instance offered."""


@hookspec
def cardcli_register_rulesets(register: Callable[[str | os.PathLike[str] | Traversable], None]) -> None:
    """Call ``register(directory)`` for each folder of TOML rulesets the plugin ships,
    e.g. ``register(importlib.resources.files("my_plugin") / "rulesets")``."""


class VariantPlugin:
    """The hooks of a plugin that offers one variant and, where it ships
    them, a folder of rulesets: what most plugins are.  In the module an entry
    point names::

        plugin = VariantPlugin(MyVariant, files("my_plugin") / "rulesets")
        cardcli_register_variants = plugin.cardcli_register_variants
        cardcli_register_rulesets = plugin.cardcli_register_rulesets
    """

    def __init__(self, variant: Callable[[], Variant],
                 rulesets: str | os.PathLike[str] | Traversable | None = None):
        self.variant = variant
        self.rulesets = rulesets

    @hookimpl
    def cardcli_register_variants(self, register: Callable[[Variant], None]) -> None:
        register(self.variant())

    @hookimpl
    def cardcli_register_rulesets(self,
                                  register: Callable[[str | os.PathLike[str] | Traversable], None]) -> None:
        if self.rulesets is not None:
            register(self.rulesets)
