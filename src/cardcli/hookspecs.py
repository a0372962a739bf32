"""The hooks a cardcli plugin may implement.

A plugin is any module or object registered under the ``cardcli.plugins``
entry-point group.  Hooks receive a ``register`` callback instead of
returning values, so the core collects, checks and de-duplicates what each
plugin offers and can name the plugin that broke its contract.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("cardcli")
hookimpl = pluggy.HookimplMarker("cardcli")


@hookspec
def cardcli_register_variants(register):
    """Call ``register(variant)`` for each :class:`cardcli.variant.Variant` instance offered."""


@hookspec
def cardcli_register_rulesets(register):
    """Call ``register(directory)`` for each folder of TOML rulesets the plugin ships."""
