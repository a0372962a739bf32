"""Words for people: plurals, lists, ranges, and players named in sentences.

Every message a player reads is written from these, so "1 player", "2 to 4
players", "you win!" and "ann's" come out right whoever is named.  A player
may be called "you" (the default name of the person at the terminal), so a
sentence written about "seat 0" is put into the second person when seat 0
is "you".

The words these helpers add themselves (" and ", "a card", "your") are
messages of the core's catalog, in the language chosen; where no language
is chosen they are the English written here, byte for byte.  ``plural`` and
``span`` take any English word and so cannot know another language's
counter: they stay English, and a message for people says its count in a
whole sentence of its own (``_.ngettext("{count} card", "{count} cards", n)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .language import core as _


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1,000 games``; ``words`` is the plural where adding "s" is wrong."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


def listed(items: Sequence[str]) -> str:
    """``["ann", "bob", "cat"]`` -> ``"ann, bob, cat"``: a list without a last
    word (the notes beside a seat, the hints of a prompt)."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        # Translators: one more item of a list ("ann, bob"; the last is joined by "and"/"or").
        text = _("{items}, {item}").format(items=text, item=item)
    return text


def join_or(items: list[str]) -> str:
    """``["9C", "8D", "draw"]`` -> ``"9C, 8D or draw"``, for lists of alternatives."""
    if len(items) <= 1:
        return "".join(items)
    # Translators: the last of a list of alternatives ("9C, 8D or draw").
    return _("{items} or {last}").format(items=listed(items[:-1]), last=items[-1])


def join_and(items: list[str]) -> str:
    """``["ann", "bob", "cat"]`` -> ``"ann, bob and cat"``."""
    if len(items) <= 1:
        return "".join(items)
    # Translators: the last of a list ("ann, bob and cat").
    return _("{items} and {last}").format(items=listed(items[:-1]), last=items[-1])


def could_play(cards: Iterable[str], others: Iterable[str] = ()) -> str:
    """The legal choices after a refused move: ``could play 7H, 9H or draw``
    (each card named once, then the ``others``), ``could draw`` with no card
    to play; ``""`` when there is nothing to name."""
    named = list(dict.fromkeys(cards))
    extra = list(others)
    if not named:
        # Translators: the moves a refused player could make instead ("could draw or keep it").
        return _("could {choices}").format(choices=join_or(extra)) if extra else ""
    if not extra:
        # Translators: the cards a refused player could play instead ("could play 7H, 9H or 7D").
        return _("could play {cards}").format(cards=join_or(named))
    if len(extra) == 1:
        # Translators: the cards a refused player could play, or the one other move ("could play 7H,
        # 9H or draw").
        return _("could play {cards} or {other}").format(cards=listed(named), other=extra[0])
    # Translators: the cards a refused player could play, then the other moves ("could play 7H,
    # draw or keep it").
    return _("could play {cards}, {others}").format(cards=listed(named), others=join_or(extra))


def cards_told(cards: Sequence[str], shown: bool) -> str:
    """Cards as one player is told of them: by name (``7H 9C``) where they
    may see them, else only how many (``a card``, ``2 cards``)."""
    if shown:
        return " ".join(cards)
    count = len(cards)
    return _.ngettext("a card", "{count} cards", count).format(count=count)


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
        # Translators: the player named "you", owning something: "yours" stands alone ("the meld is
        # yours"), "your" goes before a word ("your hand").
        return _("yours") if alone else _("your")
    # Translators: a player owning something ("ann's hand", "the meld is ann's").
    return _("{name}'s").format(name=name)


def spoken_name(name: str) -> str:
    """What a sentence calls the player named ``name``: the name itself, but
    for the player named "you" in a language that says it otherwise."""
    if is_you(name):
        # Translators: the player named "you" (the person at the terminal) in a sentence about them.
        said = _("you")
        if said != "you":
            return said
    return name


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
    if names:
        return spoken_name(names[seat])
    # Translators: a seat of a table whose players are not named (a record checked), "seat 2".
    return _("seat {seat}").format(seat=seat)


def seat_names(names: Sequence[str] | None, count: int) -> list[str]:
    """Every seat's name at a table of ``count``: ``names``, or "seat 0",
    "seat 1", ... where none are given."""
    if names:
        return [spoken_name(name) for name in names]
    return [_("seat {seat}").format(seat=seat) for seat in range(count)]


def name_seats(text: str, names: Sequence[str] | None) -> str:
    """``text`` with each "seat N" replaced by that player's name (the
    results' reasons are written with seat numbers), in the second person
    where the name is "you"."""
    if not names:
        return text
    # A record's words say "seat N" in English whatever the language; a message made for
    # people says it in the language chosen ("席2"): both are replaced.
    called = [spoken_name(name) for name in names]
    for seat in sorted(range(len(names)), reverse=True):  # "seat 12" before "seat 1"
        text = text.replace(f"seat {seat}", called[seat])
        said = _("seat {seat}").format(seat=seat)
        if said != f"seat {seat}":
            text = text.replace(said, called[seat])
    return second_person(text, called) if any(is_you(name) for name in called) else text


def type_a_number(count: int) -> str:
    """What to type at a numbered menu of ``count`` choices: "Type a number
    from 1 to 4.", or for one choice, "type 1"."""
    if count == 1:
        return _("There is one choice: type 1.")
    return _("Type a number from 1 to {count}.").format(count=count)


def duration(seconds: float) -> str:
    """A length of time as a person says it, roughly: "40 seconds", "3
    minutes", "1 hour 20 minutes"."""
    if seconds < 90:
        count = max(1, round(seconds))
        return _.ngettext("{count} second", "{count} seconds", count).format(count=count)
    minutes = round(seconds / 60)
    if minutes < 90:
        return _.ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    hours, minutes = divmod(minutes, 60)
    minutes = 10 * round(minutes / 10)
    if not minutes:
        return _.ngettext("{count:,} hour", "{count:,} hours", hours).format(count=hours)
    # Translators: a time of hours and minutes (the minutes a multiple of ten, 10 to 60).
    return _.ngettext("{count:,} hour {minutes} minutes", "{count:,} hours {minutes} minutes",
                      hours).format(count=hours, minutes=minutes)
