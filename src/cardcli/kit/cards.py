"""Cards as small integers, and their names.

The engine's hot path compares and copies cards millions of times, so a card
is a plain ``int``: ``suit * 13 + (rank - 2)`` for the 52 suited cards and
``JOKER`` (52) for the joker.  Two copies of a card (two decks) are the same
integer, which is exactly the "interchangeable copies" rule: games conserve a
multiset of cards.  Names (``AS``, ``10H``, ``JK``) exist only at the edges:
records, prompts and error messages.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from .errors import CardError, IllegalMove
from .language import N_
from .language import core as _
from .rand import shuffle

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: One card's suit, in words: "a heart", "no spade".
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
ACE = 14
#: A rank in the plural, for sentences: "5s", "jacks", "aces".
RANK_PLURALS = {**{rank: name + "s" for rank, name in RANK_NAMES.items()},
                11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
JOKER = 52
#: A card nobody at the table saw, as a record of a real game writes it
#: (``"??"``): a placeholder that matches nothing in the rules until the
#: card is seen (``cardcli.contract.unseen``).  Never a card of a deck.
UNSEEN = 53
NO_SUIT = -1
NO_RANK = 0

#: ``RANK[c]`` is the rank (2..14) of card ``c``; 0 for the joker and an unseen card.
RANK: tuple[int, ...] = tuple([c % 13 + 2 for c in range(52)] + [NO_RANK, NO_RANK])
#: ``SUIT[c]`` is the suit index (0..3, in ``SUITS`` order); -1 for the joker and an unseen card.
SUIT: tuple[int, ...] = tuple([c // 13 for c in range(52)] + [NO_SUIT, NO_SUIT])
#: ``NAME[c]`` is the plain notation of card ``c``.
NAME: tuple[str, ...] = tuple(
    [RANK_NAMES[c % 13 + 2] + SUITS[c // 13] for c in range(52)] + ["JK", "??"]
)

#: The card of each plain name (``"10H"``, ``"JK"``): the names records write.
CARD_BY_NAME: dict[str, int] = {name: card for card, name in enumerate(NAME) if card != UNSEEN}
_RANK_INPUT = {name: rank for rank, name in RANK_NAMES.items()}
_RANK_INPUT["T"] = 10
_RANK_INPUT["1"] = 14  # never produced; "1" alone is rejected below


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return suit * 13 + rank - 2


def parse_rank(text: str) -> int:
    """A rank name (``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A``) as 2..14."""
    key = text.strip().upper()
    if key in _RANK_INPUT and key != "1":
        return _RANK_INPUT[key]
    raise CardError(_("{text!r} is not a rank (use 2-10, J, Q, K or A)").format(text=text))


def parse_suit(text: str) -> int:
    """A suit letter, symbol or word as an index into ``SUITS``."""
    key = text.strip()
    if key in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(key)
    upper = key.upper()
    if len(upper) == 1 and upper in SUITS:
        return SUITS.index(upper)
    lower = key.lower()
    for index, word in enumerate(SUIT_NAMES):
        if lower in (word, word[:-1]):
            return index
    raise CardError(_("{text!r} is not a suit (use S, H, D or C)").format(text=text))


def parse_card(text: str) -> int:
    """Parse card notation, case-insensitively: ``AS``, ``10h``, ``th``, ``jk``.

    Raises :class:`CardError` with a message fit to show a person.
    """
    if not isinstance(text, str):
        raise CardError(_("{text!r} is not a card name").format(text=text))
    card = CARD_BY_NAME.get(text)
    if card is not None:  # the plain notation, as records write it
        return card
    key = text.strip().upper()
    if key in ("JK", "JOKER"):
        return JOKER
    if len(key) < 2:
        raise CardError(_not_a_card(text))
    rank_part, suit_part = key[:-1], key[-1]
    for index, symbol in enumerate(SUIT_SYMBOLS):
        if key.endswith(symbol):
            rank_part, suit_part = key[: -len(symbol)], SUITS[index]
    if suit_part not in SUITS or rank_part not in _RANK_INPUT or rank_part == "1":
        raise CardError(_not_a_card(text))
    return make_card(_RANK_INPUT[rank_part], SUITS.index(suit_part))


def _not_a_card(text: str) -> str:
    # Translators: "7H, 10S or QD" are card names as typed and written in records: keep them.
    return _("{text!r} is not a card (write rank then suit, e.g. 7H, 10S or QD)").format(text=text)


def build_deck(decks: int = 1, jokers: int = 0, *, without_ranks: Iterable[int] = ()) -> list[int]:
    """The cards of ``decks`` standard decks plus ``jokers`` jokers in the pack."""
    skip = set(without_ranks)
    one = [c for c in range(52) if RANK[c] not in skip]
    return one * decks + [JOKER] * jokers


def deal_hands(deck: Iterable[int], num_players: int, size: int,
               rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A random deal of ``size`` cards to each of ``num_players`` from ``deck``."""
    cards = list(deck)
    shuffle(rng, cards)
    return tuple(tuple(cards[i * size:(i + 1) * size]) for i in range(num_players))


def deal_remainder(deck: Iterable[int], hands: Iterable[Iterable[int]]) -> list[int]:
    """The cards of ``deck`` left after dealing ``hands`` (the stock).

    Raises :class:`IllegalMove` for a card dealt more often than the pack
    holds it, so a stated deal (a record's) is checked by the same code that
    applies it.
    """
    pack = list(deck)
    pool = pack[:]
    unseen = 0
    for hand in hands:
        for card in hand:
            if card == UNSEEN:
                unseen += 1
                continue
            try:
                pool.remove(card)
            except ValueError:
                raise IllegalMove(_("{card} is dealt more often than the pack holds it ({count})").format(
                    card=NAME[card], count=pack.count(card))) from None
    if unseen:  # which cards stay in the stock is as unseen as the cards dealt
        if unseen > len(pool):
            dealt = len(pack) - len(pool) + unseen
            raise IllegalMove(_("{dealt} cards are dealt, but the pack holds {count}").format(
                dealt=dealt, count=len(pack)))
        return [UNSEEN] * (len(pool) - unseen)
    return pool


def check_deal(deck: Iterable[int], hands: Sequence[Sequence[int]], num_players: int,
               hand_size: int) -> list[int]:
    """Check a stated deal of ``hand_size`` cards to each of ``num_players``
    (a record's, say) and return the stock it leaves; :class:`IllegalMove`
    says what is wrong with it."""
    if len(hands) != num_players:
        raise IllegalMove(_("the deal has {hands} hands for {players} players").format(
            hands=len(hands), players=num_players))
    for seat, hand in enumerate(hands):
        if len(hand) != hand_size:
            raise IllegalMove(_.ngettext("seat {seat} was dealt {count} card, not {size}",
                                         "seat {seat} was dealt {count} cards, not {size}", len(hand)).format(
                seat=seat, count=len(hand), size=hand_size))
    return deal_remainder(deck, hands)


def sort_key(card: int) -> tuple[int, int]:
    """Sort hands by suit (S H D C), then rank low to high; the joker last."""
    return (SUIT[card] if card != JOKER else 4, RANK[card])


def sorted_hand(cards: Iterable[int]) -> list[int]:
    return sorted(cards, key=sort_key)


def multiset(cards: Iterable[int]) -> Counter[int]:
    return Counter(cards)


#: The suits' words as people read them, in the chosen language (``SUIT_NAMES``
#: stays English: typed words and records read it).
_SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
_SUIT_WORD = (N_("spade"), N_("heart"), N_("diamond"), N_("club"))


def suit_words(suit: int) -> str:
    """``hearts``, in the chosen language (a sentence's word for a suit)."""
    return _(_SUIT_WORDS[suit])


#: A rank in the plural as people read it, in the chosen language (``RANK_PLURALS``
#: stays English).
# Translators: a rank in the plural ("5s are wild", "set of 5s"): often the rank alone ("5").
_RANK_WORDS = {2: N_("2s"), 3: N_("3s"), 4: N_("4s"), 5: N_("5s"), 6: N_("6s"), 7: N_("7s"), 8: N_("8s"),
               9: N_("9s"), 10: N_("10s"), 11: N_("jacks"), 12: N_("queens"), 13: N_("kings"), 14: N_("aces")}


def rank_words(rank: int) -> str:
    """``5s``, ``jacks``: a rank in the plural, in the chosen language."""
    return _(_RANK_WORDS[rank])


def suit_word(suit: int) -> str:
    """``heart`` (no heart in hand), in the chosen language."""
    return _(_SUIT_WORD[suit])
