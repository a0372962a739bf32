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
from ..kit.grammar import join_and, join_or, possessive
from ..kit.language import N_
from ..kit.language import core as _
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

#: A player's words, for ``help``: one message (the table is translated whole, its typed words
#: kept), a line per form.
# Translators: the score sheet's help for a player's line: the left column is what a person types
# (keep those words, or give the Japanese entry words the sheet reads as them); translate the
# explanations.
_LINE_HELP = N_("""\
meld 4S 4H 3D=4          a meld (a wild says what it stands for: 3D=4 in a set, 3H=5C in a run)
off 3S=4 on mom 1        a card laid off on mom's first meld (on mom: her only meld; on 2: your own second)
hand 7D 9S  or  out      the cards left in hand, or none
cards 4S 4H 3D* 9C       instead of melds and lay-offs: the cards on the table, wilds marked *
score 105                the score alone, entered by hand (not checked)""")
LINE_HELP = tuple(_LINE_HELP.splitlines())


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
        scores[seat] = PlayerScore(score, f"{table} on the table - {table - score} in hand", checked,
                                   _("{table} on the table - {in_hand} in hand").format(
                                       table=table, in_hand=table - score))
    return scores


# ------------------------------------------------------------------ reading
def _read(game: RummyRound, names: Sequence[str], seat: int, words: str) -> _Line:
    name = names[seat]
    line = _Line()
    for part in (piece.strip() for piece in words.replace(";", ",").split(",")):
        if not part:
            continue
        verb, _space, rest = part.partition(" ")
        verb = verb.lower()
        rest = rest.strip()
        if verb in ("meld", "m"):
            line.melds.append(_meld(game, name, seat, rest, line))
        elif verb in ("off", "layoff", "l"):
            line.layoffs.append(_layoff(game, names, seat, rest, line))
        elif verb in ("hand", "out"):
            if line.hand is not None:
                # Translators: in the refusals of a player's line, "hand 7D 9S", "out", "cards 4S 4H 3D*",
                # "meld 4S 4H 3D=4" and "off 3S=4 on mom 1" are the words typed.
                raise EntryError(_("{name}'s hand is said twice: say it once (hand 7D 9S, or out)").format(
                    name=name), seat)
            if verb == "out" and rest:
                raise EntryError(_("{name}: out means no cards left in hand (hand {cards} lists some)")
                                 .format(name=name, cards=rest), seat)
            if verb == "hand" and not rest:
                raise EntryError(_("{name}: hand lists the cards left in hand (hand 7D 9S); out says there "
                                   "are none").format(name=name), seat)
            line.hand = _cards(game, seat, rest, _("{name}'s hand").format(name=name),
                               _("{whose} hand").format(whose=possessive(name)), line)
        elif verb in ("cards", "table"):
            if line.listed is not None:
                raise EntryError(_("{name}'s cards on the table are listed twice: list them once").format(
                    name=name), seat)
            if not rest:
                raise EntryError(_("{name}: cards lists the cards on the table (cards 4S 4H 3D*)").format(
                    name=name), seat)
            line.listed = _cards(game, seat, rest, _("{name}'s cards on the table").format(name=name),
                                 _("{whose} cards on the table").format(whose=possessive(name)), line)
        else:
            said = _("{name}: {part} is not a part of a player's line (meld CARDS, off CARD on NAME, hand "
                     "CARDS or out, cards CARDS, or score N)")
            raise EntryError(said.format(name=name, part=repr(part)), seat)
    if line.listed is not None and (line.melds or line.layoffs):
        raise EntryError(_("{name}: give the cards on the table either as melds and lay-offs or as one card "
                           "list (cards ...), not both").format(name=name), seat)
    if line.hand is None:
        raise EntryError(_("{name}: say the cards left in hand (hand 7D 9S), or out if there are none")
                         .format(name=name), seat)
    if line.layoffs and not line.melds:
        raise EntryError(_("{name} laid off {card} but made no meld: lay-offs come only after one's own "
                           "first meld").format(name=name, card=line.layoffs[0].words), seat)
    return line


def _token(game: RummyRound, seat: int, word: str, where: str) -> tuple[int, str | None]:
    """A card as written in a line: ``3D``, ``3D*`` (marked wild), ``3D=4``;
    ``where`` it was written, for a refusal ("mom's hand")."""
    text, sep, means = word.partition("=")
    marked = text.endswith("*")
    try:
        card = game.card(text.rstrip("*"))
    except ValueError as error:
        raise EntryError(f"{where}: {error}", seat) from None
    rules = game.rules
    if (marked or sep) and not rules.is_wild(card):
        # Translators: {where} is where the card was entered ("mom's hand"), {rank} the wild rank ("5"):
        # "5s are wild".
        said = _("{where}: {card} is marked wild (*), but it is not wild: {rank}s are wild this round") \
            if marked else \
            _("{where}: {card} is given a meaning (=), but it is not wild: {rank}s are wild this round")
        raise EntryError(said.format(where=where, card=NAME[card], rank=RANK_NAMES.get(rules.wild, "?")),
                         seat)
    return card, (means if sep else None)


def _cards(game: RummyRound, seat: int, text: str, where: str, place: str, line: _Line) -> list[int]:
    """The cards of a hand or a card list; ``where`` says whose it is in a
    refusal ("mom's hand"), ``place`` in a list of places ("your hand")."""
    cards = []
    for word in text.split():
        card, means = _token(game, seat, word, where)
        if means is not None:
            raise EntryError(_("{where}: only a wild in a meld or a lay-off says what it stands for ({word})")
                             .format(where=where, word=word), seat)
        cards.append(card)
        line.places.append((card, place))
    return cards


def _meld(game: RummyRound, name: str, seat: int, text: str, line: _Line) -> Meld:
    where = _("{name}'s meld {cards}").format(name=name, cards=text)
    if not text:
        raise EntryError(_("{name}: meld lists the meld's cards (meld 4S 4H 3D=4)").format(name=name), seat)
    items = []
    place = _("{whose} meld").format(whose=possessive(name))
    for word in text.split():
        card, means = _token(game, seat, word, where)
        items.append(NAME[card] + ("" if means is None else "=" + means))
        line.places.append((card, place))
    try:
        meld = meld_from_names(items, game.rules, game.card)
    except ValueError as error:
        raise EntryError(f"{where}: {error}", seat) from None
    problem = meld_problem(meld, game.rules)
    if problem:
        raise EntryError(_("{where}: not a legal meld: {problem}").format(where=where, problem=problem), seat)
    return meld


def _layoff(game: RummyRound, names: Sequence[str], seat: int, text: str, line: _Line) -> _Layoff:
    name = names[seat]
    words = text.split()
    if words[2:3] and words[1].lower() == "on":
        del words[1]
    if len(words) < 2:
        raise EntryError(_("{name}: say the card and the meld it went on (off 3S=4 on mom 1)").format(
            name=name), seat)
    card, said = _token(game, seat, words[0], _("{name}'s lay-off {card}").format(name=name, card=words[0]))
    target = words[1:]
    number: int | None = None
    if target[-1].isdecimal():
        number = int(target.pop())
    owner = _seat_named(" ".join(target), names) if target else seat
    if owner is None:
        raise EntryError(_("{name}'s lay-off {card}: {target} is not a player here ({players})").format(
            name=name, card=words[0], target=repr(" ".join(target)), players=join_and(list(names))), seat)
    if not target and number is None:
        # Translators: "off {card} on NAME N" is the entry (NAME: a player, N: the number of their meld).
        raise EntryError(_("{name}: say the meld {card} went on (off {card} on NAME N)").format(
            name=name, card=words[0]), seat)
    line.places.append((card, _("{whose} lay-off").format(whose=possessive(name))))
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
                if not pack[card]:
                    raise EntryError(_("{card} is not in the pack").format(card=NAME[card]), seat)
                # Translators: {places} lists where the card was entered ("mom's hand and your meld").
                said = _.ngettext(
                    "{card} is entered {count} times ({places}), but the pack holds it once",
                    "{card} is entered {count} times ({places}), but the pack holds it {held} times",
                    pack[card])
                raise EntryError(said.format(card=NAME[card], count=seen[card], places=join_and(where[card]),
                                             held=pack[card]), seat)


def _check_target(names: Sequence[str], lines: Mapping[int, str | None], read: Mapping[int, _Line],
                  layoff: _Layoff) -> bool:
    """Whether the meld a lay-off names can be checked: its owner's line is
    in, with melds (not a card list or a score by hand); then it must be one
    of them."""
    theirs = read.get(layoff.owner)
    if theirs is None or theirs.listed is not None:
        return False
    name, owner = names[layoff.seat], names[layoff.owner]
    count = len(theirs.melds)
    if layoff.number is None and count != 1:
        # Translators: {whose} is the owner's, said before a word ("bob's", "your"); "on {owner} 1" is
        # the words typed for the owner's first meld.
        said = _("{name}'s lay-off {card} on {whose} meld: say which of {whose} {count} melds (on {owner} 1 "
                 "to on {owner} {count})")
        raise EntryError(said.format(name=name, card=NAME[layoff.card], whose=possessive(owner), count=count,
                                     owner=owner), layoff.seat)
    if layoff.number is not None and not 1 <= layoff.number <= count:
        said = _.ngettext("{name}'s lay-off {card} on {whose} meld {number}: {owner} made {count} meld",
                          "{name}'s lay-off {card} on {whose} meld {number}: {owner} made {count} melds",
                          count)
        raise EntryError(said.format(name=name, card=NAME[layoff.card], whose=possessive(owner),
                                     number=layoff.number, owner=owner, count=count), layoff.seat)
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
            said = _("{name}'s lay-off {card} on {whose} meld {number} ({meld}): {problem}")
            raise EntryError(said.format(name=names[layoff.seat], card=NAME[layoff.card],
                                         whose=possessive(names[layoff.owner]), number=index + 1,
                                         meld=meld_text(meld, rules), problem=problem), layoff.seat)
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
        # Translators: {ranks} is the ranks a wild card could stand for there ("4 or 8").
        return _("{card} can stand only for {ranks} there").format(
            card=NAME[card], ranks=join_or([RANK_NAMES[rank] for rank in meanings]))
    melds[layoff.owner][index] = add_card(meld, card, as_rank, rules)
    return None


def played_minus_held(points: Sequence[int], played: Iterable[int], held: Iterable[int]) -> int:
    """A rummy round's score: the points of the cards played to the table
    minus those of the cards left in hand."""
    return sum(points[card] for card in played) - sum(points[card] for card in held)

