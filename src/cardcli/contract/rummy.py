"""A rummy round's final table as a family writes it down, checked by :mod:`cardcli.kit.melds`.

For any rummy variant whose round scores each player's cards on the table
minus the cards left in hand (End of the Page).  A player's line is parts
separated by commas::

    meld 4S 4H 3D=4, meld 9C 10C JC   a meld the player made (wilds as in records: 3D=4, 3H=5C)
    off 3S=4 on mom 1                 a card laid off on mom's first meld (on mom: her only one;
                                      on 2: the player's own second meld)
    hand 7D 9S                        the cards left in hand; out: none
    cards 4S 4H 3D* 9C                instead of melds and lay-offs: the cards on the table, any order

A wild may be marked ``*`` anywhere (``3D*``): a mark on a card that is not
wild is refused, and every card of the wild rank counts as a wild, marked or
not.  Melds are checked as they are entered, every card against the pack;
lay-offs once every player's line is in (one may build on another's, in any
order), each against the meld as the lay-offs before it left it.  A card
list is scored but its melds are not checked, nor a lay-off on the melds of
a player who listed cards or whose score was entered by hand: such scores
are marked.  The game
supplies the meld rules of the round, each card's points, the pack and its
reader of card names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..kit.cards import NAME, RANK_NAMES
from ..kit.grammar import join_and, plural, possessive
from ..kit.melds import (
    Meld,
    MeldRules,
    add_card,
    layoff_meanings,
    layoff_problem,
    meaning_on,
    meld_from_names,
    meld_problem,
    meld_text,
)
from .round_scores import CARDS, MELDS, EntryError, PlayerScore

#: A player's words, for ``help``.
LINE_HELP = (
    "meld 4S 4H 3D=4          a meld (a wild says what it stands for: 3D=4 in a set, 3H=5C in a run)",
    "off 3S=4 on mom 1        a card laid off on mom's first meld (on mom: her only meld; on 2: "
    "your own second)",
    "hand 7D 9S  or  out      the cards left in hand, or none",
    "cards 4S 4H 3D* 9C       instead of melds and lay-offs: the cards on the table, wilds marked *",
    "score 105                the score alone, entered by hand (not checked)",
)


@dataclass(frozen=True)
class RummyRound:
    """What a game tells the reader about one round."""

    rules: MeldRules
    points: Sequence[int]  # per card
    pack: Sequence[int]  # the cards in play, a multiset
    card: Callable[[str], int]  # the game's reader of one card name (ValueError saying why not)


@dataclass
class _Layoff:
    seat: int
    card: int
    said: str | None  # what a wild stands for, as written after "=" (None: left out)
    owner: int
    number: int | None  # the owner's meld, from 1 (None: their only one)
    words: str


@dataclass
class _Line:
    """One player's line, read."""

    melds: list[Meld] = field(default_factory=list)
    layoffs: list[_Layoff] = field(default_factory=list)
    hand: list[int] | None = None
    listed: list[int] | None = None
    places: list[tuple[int, str]] = field(default_factory=list)  # (card, where it was entered)


def score_lines(game: RummyRound, names: Sequence[str], lines: Mapping[int, str | None]
                ) -> dict[int, PlayerScore]:
    """Each entered seat's score (cards on the table minus cards in hand), or
    :class:`~cardcli.contract.round_scores.EntryError` saying what the rules refuse."""
    read = {seat: _read(game, names, seat, words) for seat, words in lines.items() if words is not None}
    _check_pack(game, names, read)
    complete = len(lines) == len(names)
    melds = {seat: list(line.melds) for seat, line in read.items()}
    unknown: set[int] = set()  # seats with a lay-off on melds not entered (a card list, a score by hand)
    checkable = []
    for line in read.values():
        for layoff in line.layoffs:
            if _check_target(names, lines, read, layoff):
                checkable.append(layoff)
            elif layoff.owner in lines:
                unknown.add(layoff.seat)
    if complete:
        # Where some cards on the table are not known as melds (a card list, a
        # score by hand), a lay-off may build on one of them: one that does not
        # fit then is not refused, only not checked.
        blind = any(words is None or read[seat].listed is not None for seat, words in lines.items())
        unknown.update(layoff.seat for layoff in _lay_off(game, names, melds, checkable, blind))
    points = game.points
    scores = {}
    for seat, line in read.items():
        played = [card for meld in line.melds for card in meld[3]] + [lay.card for lay in line.layoffs]
        played += line.listed or []
        held = line.hand or []
        table = played_minus_held(points, played, ())
        score = played_minus_held(points, played, held)
        checked = CARDS if line.listed is not None or seat in unknown else MELDS
        scores[seat] = PlayerScore(score, f"{table} on the table - {table - score} in hand", checked)
    return scores


# ------------------------------------------------------------------ reading
def _read(game: RummyRound, names: Sequence[str], seat: int, words: str) -> _Line:
    name = names[seat]
    line = _Line()
    for part in (piece.strip() for piece in words.replace(";", ",").split(",")):
        if not part:
            continue
        verb, _, rest = part.partition(" ")
        verb = verb.lower()
        rest = rest.strip()
        if verb in ("meld", "m"):
            line.melds.append(_meld(game, name, seat, rest, line))
        elif verb in ("off", "layoff", "l"):
            line.layoffs.append(_layoff(game, names, seat, rest, line))
        elif verb in ("hand", "out"):
            if line.hand is not None:
                raise EntryError(f"{name}'s hand is said twice: say it once (hand 7D 9S, or out)", seat)
            if verb == "out" and rest:
                raise EntryError(f"{name}: out means no cards left in hand (hand {rest} lists some)", seat)
            if verb == "hand" and not rest:
                raise EntryError(f"{name}: hand lists the cards left in hand (hand 7D 9S); out says "
                                 "there are none", seat)
            line.hand = _cards(game, name, seat, rest, "hand", line)
        elif verb in ("cards", "table"):
            if line.listed is not None:
                raise EntryError(f"{name}'s cards on the table are listed twice: list them once", seat)
            if not rest:
                raise EntryError(f"{name}: cards lists the cards on the table (cards 4S 4H 3D*)", seat)
            line.listed = _cards(game, name, seat, rest, "cards on the table", line)
        else:
            raise EntryError(f"{name}: {part!r} is not a part of a player's line (meld CARDS, "
                             "off CARD on NAME, hand CARDS or out, cards CARDS, or score N)", seat)
    if line.listed is not None and (line.melds or line.layoffs):
        raise EntryError(f"{name}: give the cards on the table either as melds and lay-offs or as one "
                         "card list (cards ...), not both", seat)
    if line.hand is None:
        raise EntryError(f"{name}: say the cards left in hand (hand 7D 9S), or out if there are none", seat)
    if line.layoffs and not line.melds:
        raise EntryError(f"{name} laid off {line.layoffs[0].words} but made no meld: lay-offs come only "
                         "after one's own first meld", seat)
    return line


def _token(game: RummyRound, name: str, seat: int, word: str, where: str) -> tuple[int, str | None]:
    """A card as written in a line: ``3D``, ``3D*`` (marked wild), ``3D=4``."""
    text, sep, means = word.partition("=")
    marked = text.endswith("*")
    try:
        card = game.card(text.rstrip("*"))
    except ValueError as error:
        raise EntryError(f"{name}'s {where}: {error}", seat) from None
    rules = game.rules
    if (marked or sep) and not rules.is_wild(card):
        mark = "marked wild (*)" if marked else "given a meaning (=)"
        raise EntryError(f"{name}'s {where}: {NAME[card]} is {mark}, but it is not wild: "
                         f"{RANK_NAMES.get(rules.wild, '?')}s are wild this round", seat)
    return card, (means if sep else None)


def _cards(game: RummyRound, name: str, seat: int, text: str, where: str, line: _Line) -> list[int]:
    cards = []
    for word in text.split():
        card, means = _token(game, name, seat, word, where)
        if means is not None:
            raise EntryError(f"{name}'s {where}: only a wild in a meld or a lay-off says what it stands "
                             f"for ({word})", seat)
        cards.append(card)
        line.places.append((card, f"{possessive(name)} {where}"))
    return cards


def _meld(game: RummyRound, name: str, seat: int, text: str, line: _Line) -> Meld:
    where = f"meld {text}"
    if not text:
        raise EntryError(f"{name}: meld lists the meld's cards (meld 4S 4H 3D=4)", seat)
    items = []
    for word in text.split():
        card, means = _token(game, name, seat, word, where)
        items.append(NAME[card] + ("" if means is None else "=" + means))
        line.places.append((card, f"{possessive(name)} meld"))
    try:
        meld = meld_from_names(items, game.rules, game.card)
    except ValueError as error:
        raise EntryError(f"{name}'s {where}: {error}", seat) from None
    problem = meld_problem(meld, game.rules)
    if problem:
        raise EntryError(f"{name}'s {where}: not a legal meld: {problem}", seat)
    return meld


def _layoff(game: RummyRound, names: Sequence[str], seat: int, text: str, line: _Line) -> _Layoff:
    name = names[seat]
    words = text.split()
    if words[2:3] and words[1].lower() == "on":
        del words[1]
    if len(words) < 2:
        raise EntryError(f"{name}: say the card and the meld it went on (off 3S=4 on mom 1)", seat)
    card, said = _token(game, name, seat, words[0], f"lay-off {words[0]}")
    target = words[1:]
    number: int | None = None
    if target[-1].isdecimal():
        number = int(target.pop())
    owner = _seat_named(" ".join(target), names) if target else seat
    if owner is None:
        raise EntryError(f"{name}'s lay-off {words[0]}: {' '.join(target)!r} is not a player here "
                         f"({join_and(list(names))})", seat)
    if not target and number is None:
        raise EntryError(f"{name}: say the meld {words[0]} went on (off {words[0]} on NAME N)", seat)
    line.places.append((card, f"{possessive(name)} lay-off"))
    return _Layoff(seat, card, said, owner, number, words[0])


def _seat_named(text: str, names: Sequence[str]) -> int | None:
    lowered = text.lower()
    return next((seat for seat, name in enumerate(names) if name.lower() == lowered), None)


# ----------------------------------------------------------------- checking
def _check_pack(game: RummyRound, names: Sequence[str], read: Mapping[int, _Line]) -> None:
    """No card entered more often than the pack holds it."""
    pack = Counter(game.pack)
    seen: Counter[int] = Counter()
    where: dict[int, list[str]] = {}
    for seat, line in read.items():
        for card, place in line.places:
            seen[card] += 1
            where.setdefault(card, []).append(place)
            if seen[card] > pack[card]:
                held = "once" if pack[card] == 1 else plural(pack[card], "time")
                if not pack[card]:
                    raise EntryError(f"{NAME[card]} is not in the pack", seat)
                raise EntryError(f"{NAME[card]} is entered {seen[card]} times ({join_and(where[card])}), "
                                 f"but the pack holds it {held}", seat)


def _check_target(names: Sequence[str], lines: Mapping[int, str | None], read: Mapping[int, _Line],
                  layoff: _Layoff) -> bool:
    """Whether the meld a lay-off names can be checked: its owner's line is
    in, with melds (not a card list or a score by hand); then it must be one
    of them."""
    theirs = read.get(layoff.owner)
    if theirs is None or theirs.listed is not None:
        return False
    name, owner = names[layoff.seat], names[layoff.owner]
    what = f"{name}'s lay-off {NAME[layoff.card]} on {possessive(owner)} meld"
    count = len(theirs.melds)
    if layoff.number is None and count != 1:
        raise EntryError(f"{what}: say which of {possessive(owner)} {count} melds (on {owner} 1 to "
                         f"on {owner} {count})", layoff.seat)
    if layoff.number is not None and not 1 <= layoff.number <= count:
        raise EntryError(f"{what} {layoff.number}: {owner} made {plural(count, 'meld')}", layoff.seat)
    return True


def _lay_off(game: RummyRound, names: Sequence[str], melds: dict[int, list[Meld]], pending: list[_Layoff],
             blind: bool = False) -> list[_Layoff]:
    """Every lay-off onto the melds, in an order that lets each fit if one
    does: naturals first (they only lengthen a meld), then the wilds, again
    and again while any fits.  What is left does not fit: refused, or with
    ``blind`` (some cards on the table are not known as melds) returned."""
    rules = game.rules
    pending = list(pending)
    while pending:
        for layoff in sorted(pending, key=lambda lay: rules.is_wild(lay.card)):
            if _fit(game, names, melds, layoff) is None:
                pending.remove(layoff)
                break
        else:
            if blind:
                return pending
            layoff = pending[0]
            problem = _fit(game, names, melds, layoff)
            index = (layoff.number or 1) - 1
            meld = melds[layoff.owner][index]
            raise EntryError(f"{names[layoff.seat]}'s lay-off {NAME[layoff.card]} on "
                             f"{possessive(names[layoff.owner])} meld {index + 1} "
                             f"({meld_text(meld, rules)}): {problem}", layoff.seat)
    return []


def _fit(game: RummyRound, names: Sequence[str], melds: dict[int, list[Meld]], layoff: _Layoff) -> str | None:
    """Lay ``layoff`` off if it fits its meld now (``None``); else why not."""
    rules = game.rules
    index = (layoff.number or 1) - 1
    meld = melds[layoff.owner][index]
    card = layoff.card
    try:
        as_rank = meaning_on(meld, card, layoff.said, rules, index + 1)
    except ValueError as error:
        return str(error)
    meanings = layoff_meanings(meld, card, rules)
    if not meanings:
        return layoff_problem(meld, card, rules)
    if as_rank not in meanings:
        return f"{NAME[card]} can stand only for {' or '.join(RANK_NAMES[r] for r in meanings)} there"
    melds[layoff.owner][index] = add_card(meld, card, as_rank, rules)
    return None


def played_minus_held(points: Sequence[int], played: Iterable[int], held: Iterable[int]) -> int:
    """A rummy round's score: the points of the cards played to the table
    minus those of the cards left in hand."""
    return sum(points[card] for card in played) - sum(points[card] for card in held)

