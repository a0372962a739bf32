"""Words for people: plurals, lists, ranges, and players named in sentences.

Every message a player reads is written from these, so "1 player", "2 to 4
players", "you win!" and "ann's" come out right whoever is named.  A player
may be called "you" (the default name of the person at the terminal), so a
sentence written about "seat 0" is put into the second person when seat 0
is "you".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1,000 games``; ``words`` is the plural where adding "s" is wrong."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


def join_or(items: list[str]) -> str:
    """``["9C", "8D", "draw"]`` -> ``"9C, 8D or draw"``, for lists of alternatives."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def join_and(items: list[str]) -> str:
    """``["ann", "bob", "cat"]`` -> ``"ann, bob and cat"``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def could_play(cards: Iterable[str], others: Iterable[str] = ()) -> str:
    """The legal choices after a refused move: ``could play 7H, 9H or draw``
    (each card named once, then the ``others``), ``could draw`` with no card
    to play; ``""`` when there is nothing to name."""
    named = list(dict.fromkeys(cards))
    words = [*named, *others]
    if not words:
        return ""
    return "could " + ("play " if named else "") + join_or(words)


def cards_told(cards: Sequence[str], shown: bool) -> str:
    """Cards as one player is told of them: by name (``7H 9C``) where they
    may see them, else only how many (``a card``, ``2 cards``)."""
    if shown:
        return " ".join(cards)
    return "a card" if len(cards) == 1 else plural(len(cards), "card")


def span(low: int, high: int, word: str, words: str | None = None) -> str:
    """A range of counts: ``2 to 6 players``, or ``2 players`` when it is one number."""
    if low == high:
        return plural(low, word, words)
    return f"{low} to {high} {words or word + 's'}"


def is_you(name: str) -> bool:
    return name.strip().lower() == "you"


def possessive(name: str, *, alone: bool = False) -> str:
    """``ann's``; ``your`` for the player named "you" (``yours`` standing ``alone``)."""
    if is_you(name):
        return "yours" if alone else "your"
    return f"{name}'s"


#: Third-person verbs after "you", put right: "you wins" -> "you win".
_AGREE = [
    (re.compile(r"\b(you) (was)\b", re.IGNORECASE), r"\1 were"),
    (re.compile(r"\b(you) (is)\b", re.IGNORECASE), r"\1 are"),
    (re.compile(r"\b(you) (has)\b", re.IGNORECASE), r"\1 have"),
    (re.compile(r"\b(you) (does)\b", re.IGNORECASE), r"\1 do"),
    (re.compile(r"\b(you) (wins|loses|draws|takes|plays|leads|goes|holds|needs|gets|keeps|scores|"
                r"melds|discards|picks|lays|passes|calls|names|follows|misses)\b",
                re.IGNORECASE), None),
]
_YOURS = re.compile(r"\b([Yy])ou's\b")
#: A clause's end: "their" after it no longer refers to the clause's "you".
_CLAUSE = re.compile(r"[.;:!?]")


def second_person(text: str, names: Sequence[str] = ()) -> str:
    """``text`` with third-person agreement after "you" corrected: "you wins"
    -> "you win", "you was" -> "you were", "you's seat" -> "your seat", and a
    "their" in a clause whose subject is "you" -> "your" ("you played 2C,
    their last card"; not where another of ``names`` comes between)."""
    for pattern, replacement in _AGREE:
        if replacement is None:
            text = pattern.sub(lambda m: f"{m.group(1)} {_base(m.group(2))}", text)
        else:
            text = pattern.sub(replacement, text)
    text = _YOURS.sub(r"\1our", text)
    others = [re.escape(name) for name in names if name and not is_you(name)]
    between = re.compile(r"\b(?:" + "|".join(others) + r")\b") if others else None
    parts = re.split(r"(\btheir\b)", text)
    for index in range(1, len(parts), 2):
        before = "".join(parts[:index])
        clause = _CLAUSE.split(before)[-1].lstrip()
        subject = clause.split(" ", 1)[0]
        if is_you(subject) and (between is None or not between.search(clause)):
            parts[index] = "your"
    return "".join(parts)


def _base(verb: str) -> str:
    if verb.lower() in ("goes", "passes", "misses"):
        return verb[:-2]
    return verb[:-1] if verb.lower().endswith("s") else verb


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """What a sentence calls ``seat``: its player's name, or "seat N" where
    no names are given (a record checked or replayed without them)."""
    return names[seat] if names else f"seat {seat}"


def seat_names(names: Sequence[str] | None, count: int) -> list[str]:
    """Every seat's name at a table of ``count``: ``names``, or "seat 0",
    "seat 1", ... where none are given."""
    return list(names) if names else [f"seat {seat}" for seat in range(count)]


def name_seats(text: str, names: Sequence[str] | None) -> str:
    """``text`` with each "seat N" replaced by that player's name (the
    results' reasons are written with seat numbers), in the second person
    where the name is "you"."""
    if not names:
        return text
    for seat in sorted(range(len(names)), reverse=True):  # "seat 12" before "seat 1"
        text = text.replace(f"seat {seat}", names[seat])
    return second_person(text, names) if any(is_you(name) for name in names) else text


def type_a_number(count: int) -> str:
    """What to type at a numbered menu of ``count`` choices: "Type a number
    from 1 to 4.", or for one choice, "type 1"."""
    return "There is one choice: type 1." if count == 1 else f"Type a number from 1 to {count}."


def duration(seconds: float) -> str:
    """A length of time as a person says it, roughly: "40 seconds", "3
    minutes", "1 hour 20 minutes"."""
    if seconds < 90:
        return plural(max(1, round(seconds)), "second")
    minutes = round(seconds / 60)
    if minutes < 90:
        return plural(minutes, "minute")
    hours, minutes = divmod(minutes, 60)
    minutes = 10 * round(minutes / 10)
    return plural(hours, "hour") + (f" {minutes} minutes" if minutes else "")
