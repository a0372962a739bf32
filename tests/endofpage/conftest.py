"""Helpers for End of the Page rule tests: hand-set tables and hand-written records."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import RANK, parse_card, parse_rank
from cardcli_endofpage.state import P_DRAW, P_PLAY, EndOfPageState, meld_rules
from cardcli_endofpage.variant import parse_meld_items

HEADER = {"format": "cardcli-record", "version": 1, "variant": "endofpage", "rules": {"page_lines": 1},
          "players": ["A", "B"], "dealer": 1}

# The worked check of docs/variants/endofpage.md: 3s wild, B deals, A melds a set of
# 4s, B melds a run with a wild and lays a second wild off on A's set, then
# goes out while A holds a 5-point card.  A 105, B 210.
WORKED = [
    HEADER,
    {"chance": "deal", "seat": 0, "cards": ["4S", "4H", "3D", "9S"]},
    {"chance": "deal", "seat": 1, "cards": ["3H", "4C", "KC"], "wild": "3H"},
    {"chance": "turn_up", "card": "10D"},
    {"seat": 0, "move": "draw"},
    {"chance": "draw", "seat": 0, "cards": ["7D"]},
    {"seat": 0, "move": "meld", "cards": ["4S", "4H", "3D=4"]},
    {"seat": 0, "move": "discard", "card": "9S"},
    {"seat": 1, "move": "draw"},
    {"chance": "draw", "seat": 1, "cards": ["3S"]},
    {"seat": 1, "move": "discard", "card": "KC"},
    {"seat": 0, "move": "draw"},
    {"chance": "draw", "seat": 0, "cards": ["6C"]},
    {"seat": 0, "move": "discard", "card": "6C"},
    {"seat": 1, "move": "take", "card": "6C"},
    {"seat": 1, "move": "meld", "cards": ["4C", "3H=5C", "6C"]},
    {"seat": 1, "move": "layoff", "card": "3S", "meld": 1, "as": "4"},
    {"seat": 0, "move": "draw"},
    {"chance": "draw", "seat": 0, "cards": ["AS"]},
    {"seat": 0, "move": "discard", "card": "AS"},
    {"seat": 1, "move": "draw"},
    {"chance": "draw", "seat": 1, "cards": ["10H"]},
    {"seat": 1, "move": "discard", "card": "10H"},
    {"result": {"places": [2, 1], "winner": 1, "scores": [105, 210], "rounds": [[105, 210]]}},
]


def record(lines: list[Any]) -> bytes:
    return b"".join((line if isinstance(line, str) else json.dumps(line)).encode() + b"\n"
                    for line in lines)


@pytest.fixture
def variant():
    return get_registry().get("endofpage")


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def table(*, wild: str = "3", hands: list[str], discard: str = "10D", players: int | None = None,
          dealer: int = 1, turn: int = 0, phase: int = P_PLAY, melds: list[tuple[int, str]] = (),
          turns: int = 2, **options: Any) -> EndOfPageState:
    """A state in the middle of a round, set by hand.

    ``melds`` are ``(owner, "4S 4H 3D=4")``; the owner has melded.  The stock
    is every other card of the pack.
    """
    target = get_registry().get("endofpage")
    n = players or len(hands)
    rules = dict(default_ruleset(target).options)
    rules.update(options)
    state = target.new_state(rules, n, dealer)
    rank = parse_rank(wild)
    state.wild = rank
    state.mrules = meld_rules(rank)
    state.points = state.cfg.points_table(rank)
    state.hands = [cards(h) for h in hands]
    state.discard = cards(discard)
    for owner, text in melds:
        meld = parse_meld_items(text.split(), state)
        state.melds.append(meld)
        state.owners.append(owner)
        state.played[owner].extend(meld[3])
        state.melded[owner] = True
    used = Counter(c for h in state.hands for c in h) + Counter(state.discard) + Counter(
        c for m in state.melds for c in m[3])
    stock = Counter(state.deck) - used
    assert not (used - Counter(state.deck)), "a card is used more often than the pack holds it"
    state.stock = list(stock.elements())
    state.turn = turn
    state.phase = phase
    state.turns = turns
    return state


__all__ = ["HEADER", "P_DRAW", "P_PLAY", "RANK", "WORKED", "cards", "record", "table"]
