"""Hypothesis strategies for broken record lines.

Record lines come from people's editors and from other programs, so a
variant's ``decode_action`` meets every kind of JSON value.  The lines made
here start from real lines of a game and change a few fields: to values of
the wrong type, huge or negative numbers, strings from the record's own
vocabulary (card names, event names) in the wrong places, lists nested too
deep, missing and unknown fields.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import strategies as st

ODD_STRINGS = ("", " ", "x", "teleport", "none", "null", "true", "0", "-1", "1e9", "10", "7h", " 7H",
               "7H ", "JK", "XX", "10X", "1S", "0S", "AS", "ZZ", "♠", "\x00", "\u202e", "a" * 300)
ODD_NUMBERS = (0, 1, -1, 2, 3, 52, 53, 99, 2**31, 2**63, -(2**63), 10**100, 0.5, -0.0, 1e308,
               math.inf, -math.inf, math.nan)


def vocabulary(lines: Iterable[Any]) -> tuple[set[str], set[str]]:
    """Every string value and every key found in ``lines`` (recursively)."""
    words: set[str] = set()
    keys: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            words.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                keys.add(key)
                walk(item)

    for line in lines:
        walk(line)
    return words, keys


def json_values(words: Sequence[str]) -> st.SearchStrategy[Any]:
    """Any JSON value a record line could hold, leaning on the record's own words."""
    scalars = (st.none() | st.booleans() | st.sampled_from(ODD_NUMBERS)
               | st.integers(min_value=-(2**70), max_value=2**70) | st.floats()
               | st.sampled_from(ODD_STRINGS) | st.text(max_size=6))
    if words:
        scalars = scalars | st.sampled_from(sorted(words))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                        | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)


def shape(line: dict[str, Any]) -> tuple:
    """What kind of line this is: its event name and its fields."""
    return (repr(line.get("move")), repr(line.get("chance")), tuple(sorted(line)))


def swept_lines(line: dict[str, Any]) -> list[dict[str, Any]]:
    """``line`` with each field dropped, and set to each odd value, in turn.

    The deterministic half of the fuzzing: hypothesis may take a while to
    drop the one field a decoder reads without checking.
    """
    odd: list[Any] = [None, True, [], {}, [[]], "", "x", -1, 2**63, 1e308, math.nan, [None], {"a": 1}]
    broken: list[dict[str, Any]] = []
    for key in line:
        broken.append({k: v for k, v in line.items() if k != key})
        broken.extend({**line, key: value} for value in odd)
    broken.append({**line, "unknown": 1})
    return broken


class LineBreaker:
    """Broken versions of a game's record lines, as a hypothesis strategy.

    Built once per game (the vocabulary and the value strategies are the
    costly part); :meth:`lines` starts from one of the lines it is given.
    """

    def __init__(self, lines: Sequence[dict[str, Any]]):
        words, keys = vocabulary(lines)
        vocab = sorted(words)
        self.keys = st.sampled_from(sorted(keys | {"move", "chance", "seat"})) | st.text(max_size=6)
        self.values = json_values(vocab)
        self.card_lists = st.lists(st.sampled_from(vocab) if vocab else st.text(max_size=3), max_size=6)
        self.nested = st.lists(self.card_lists, max_size=4)

    def lines(self, bases: Sequence[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        """One of ``bases`` with one to three fields changed, added or removed."""
        return _broken(self, list(bases))


@st.composite
def _broken(draw: st.DrawFn, breaker: LineBreaker, bases: list[dict[str, Any]]) -> dict[str, Any]:
    line = dict(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        operation = draw(st.sampled_from(("set", "set", "set", "drop", "list", "nest")))
        if operation == "drop" and line:
            line.pop(draw(st.sampled_from(sorted(line))))
        elif operation == "list":
            line[draw(breaker.keys)] = draw(breaker.card_lists)
        elif operation == "nest":
            line[draw(breaker.keys)] = draw(breaker.nested)
        else:
            line[draw(breaker.keys)] = draw(breaker.values)
    return line
