"""A sheet of End of the Page to enter words into."""

from __future__ import annotations

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.realtable.sheet import Sheet

#: The worked check of docs/variants/endofpage.md, as the sheet's words: B
#: deals with 3s wild; A melds 4S 4H 3D=4 and holds 7D; B melds a run with a
#: wild, lays a second wild off on A's set and goes out.
WORKED = [
    "wild 3H",
    "A meld 4S 4H 3D=4, hand 7D",
    "B meld 4C 3H=5C 6C, off 3S=4 on A, out",
]


def make_sheet(names=("A", "B"), dealer: int = 1, **options) -> Sheet:
    variant = get_registry().get("endofpage")
    rules = {**default_ruleset(variant).options, **options}
    return Sheet(variant, rules, list(names), dealer)


def enter(sheet: Sheet, *lines: str) -> Sheet:
    for line in lines:
        sheet.enter(line)
    return sheet


@pytest.fixture
def sheet() -> Sheet:
    return make_sheet()
