"""Names that moved when the variant contract was cut down, and the one
message that says where each went.

A plugin written for the earlier, wider contract either keeps working or
is refused, when it loads, with a message naming what to change: a module
or a name imported from its old place, or a method of an ability defined
without declaring the ability (``cardcli.variant`` checks those).
"""

from __future__ import annotations

import sys
from typing import Any

GUIDE = "see docs/plugins.md, \"Upgrading a plugin\""

#: Modules renamed, old name -> new name.
MODULES = {
    "cardcli.events": "cardcli.record_fields",
    "cardcli.words": "cardcli.grammar",
    "cardcli.text": "cardcli.safe_text",
    "cardcli.explain": "cardcli.commentary",
}

#: Names that left ``cardcli.variant``, name -> the module that holds them now.
FROM_VARIANT = {
    "event_line": "cardcli.narration",
    "after_move": "cardcli.narration",
    "deal_anew": "cardcli.hidden",
    "set_hands_and_stock": "cardcli.hidden",
    "places_value": "cardcli.results",
}

#: Where each ability is defined (``from cardcli.abilities import ...`` finds them all).
ABILITIES = {"HiddenInfo": "cardcli.hidden", "Narration": "cardcli.narration", "TableData": "cardcli.view",
             "Prompts": "cardcli.prompts", "Checkpoints": "cardcli.abilities"}

#: Methods that belong to an ability: method -> (ability, the method's name there).
ABILITY_METHODS: dict[str, tuple[str, str]] = {
    **{name: ("HiddenInfo", name) for name in ("hidden_zones", "set_zones", "known_cards", "ruled_out",
                                               "pending_card", "set_pending_card", "rollout_value",
                                               "determinize")},
    **{name: ("Narration", name) for name in ("describe_events", "describe_attempt", "round_summary",
                                              "last_round_summary", "rules_summary")},
    "explain": ("Narration", "rule_behind"),
    "table_view": ("TableData", "table_view"),
    "move_view": ("TableData", "move_view"),
    "human_turn": ("Prompts", "human_turn"),
    "parse_move": ("Prompts", "parse_move"),
    "checkpoint": ("Checkpoints", "checkpoint"),
}

_CORE = {"cardcli.variant", *ABILITIES.values()}


def undeclared_abilities(cls: type, base: type) -> str | None:
    """Why class ``cls`` (a ``State`` or ``Variant``, ``base``) is written for
    the earlier contract, or ``None``: methods of an ability it does not
    declare, which the core would never call (or an ability method under its
    old name)."""
    declared = {klass.__name__ for klass in cls.__mro__ if ABILITIES.get(klass.__name__) == klass.__module__}
    found: dict[str, list[str]] = {}
    for klass in cls.__mro__:
        if klass.__module__ in _CORE:
            continue
        for name in vars(klass):
            ability = ABILITY_METHODS.get(name)
            if ability is not None and (ability[0] not in declared or name != ability[1]):
                found.setdefault(ability[0], []).append(name)
    if not found:
        return None
    wanted, methods = next(iter(found.items()))
    names = ", ".join(dict.fromkeys(methods))
    renamed = [f"{m} is now {ABILITY_METHODS[m][1]}" for m in methods if ABILITY_METHODS[m][1] != m]
    kind = "state" if base.__name__ == "State" else "variant"
    if wanted in declared:
        return f"{cls.__name__}: {'; '.join(renamed)} (the {wanted} ability); {GUIDE}"
    return (f"{cls.__name__} defines {names}, which cardcli reads only from a {kind} that declares the "
            f"{wanted} ability: write `class {cls.__name__}({wanted}, {base.__name__}...)` with "
            f"`from cardcli.abilities import {wanted}`"
            + (f" ({'; '.join(renamed)})" if renamed else "") + f"; {GUIDE}")


def moved_name(module: str, name: str) -> ImportError:
    """The error for ``from cardcli.variant import NAME`` where NAME moved."""
    target = FROM_VARIANT[name]
    return ImportError(f"{name} is no longer in {module}: import it from {target} ({GUIDE})",
                       name=module)


class _Renamed:
    """A meta path finder that answers an import of a renamed module with
    where it went (consulted only after every real finder found nothing)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        new = MODULES.get(fullname)
        if new is not None:
            raise ImportError(f"{fullname} was renamed {new}: import from {new} ({GUIDE})", name=fullname)
        return None


def install() -> None:
    """Put the renamed-module finder at the end of ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Renamed) for finder in sys.meta_path):
        sys.meta_path.append(_Renamed())
