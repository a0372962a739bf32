"""Melds for rummy-like games: sets and suited runs, with a wild rank.

Any rummy variant can use this: it knows nothing of turns or scoring.  A meld
is a canonical tuple ``(kind, key, low, cards)`` so that the same meld always
compares equal (legal-action lists and records rely on it):

* a **set**: ``(SET, rank, 0, cards)``, ``cards`` the naturals sorted, then
  the wilds sorted (a set can be ordered freely, so order carries nothing);
* a **run**: ``(RUN, suit, low, cards)``, ``cards`` in rank order from
  ``low``, so the position of each wild says what it stands for.

A wild is any card of ``wild`` rank (0: no wild rank).  :class:`MeldRules`
holds the knobs a game may turn: the lowest rank in play (3 when the 2s are
removed), whether aces are high only, how many naturals a meld needs and
how many naturals must separate two wilds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import (
    NAME,
    RANK,
    RANK_NAMES,
    SUIT,
    SUITS,
    make_card,
    parse_rank,
    parse_suit,
    rank_words,
    suit_words,
)
from .errors import CardError
from .grammar import join_or
from .language import core as _
from .language import current

SET = 0
RUN = 1
Meld = tuple  # (kind, key, low, cards)


@dataclass(frozen=True)
class MeldRules:
    """The shape rules of melds: shared by every meld of a game, never mutated."""

    wild: int = 0           # the wild rank, 0 for none
    lowest: int = 3         # the lowest rank a card (or a wild) may stand for
    highest: int = 14       # aces high only
    min_size: int = 3
    min_naturals: int = 2
    wild_gap: int = 2       # naturals needed between any two wilds

    def is_wild(self, card: int) -> bool:
        return RANK[card] == self.wild


_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def _count(number: int) -> str:
    """A small number as a sentence says it: spelled out in English ("two"),
    in figures in other languages."""
    return _WORDS[number] if 0 <= number < len(_WORDS) and current() == "en" else str(number)


def meaning(meld: Meld, index: int) -> int:
    """The rank the card at ``index`` of ``meld`` stands for (itself, for a natural)."""
    kind, key, low, _cards = meld
    return key if kind == SET else low + index


def meaning_name(meld: Meld, index: int) -> str:
    """What a card stands for, in notation: ``4`` in a set, ``5C`` in a run."""
    kind, key, low, _cards = meld
    if kind == SET:
        return RANK_NAMES[key]
    return NAME[make_card(low + index, key)]


def meld_problem(meld: Meld, rules: MeldRules) -> str | None:
    """Why ``meld`` (canonical) breaks the rules, in words (the chosen
    language); ``None`` when it is legal."""
    problem = _problem(meld, rules)
    return None if problem is None else problem()


def _problem(meld: Meld, rules: MeldRules) -> Callable[[], str] | None:
    """:func:`meld_problem`, its words said only when called (a search asks it
    of many candidate melds and reads none of the words)."""
    kind, key, low, cards = meld
    wild = rules.wild
    size = len(cards)
    if size < rules.min_size:
        return lambda: _("a meld needs at least {count} cards").format(count=rules.min_size)
    naturals = sum(1 for c in cards if RANK[c] != wild)
    wilds = size - naturals
    if naturals < rules.min_naturals:
        return lambda: _("a meld needs at least {count} natural (not wild) cards").format(
            count=rules.min_naturals)
    gap = rules.wild_gap
    if kind == SET:
        if key == wild:
            return lambda: _("{ranks} are wild: they cannot be the natural rank of a set").format(
                ranks=rank_words(key))
        if not rules.lowest <= key <= rules.highest:
            return lambda: _("there are no {ranks} in play").format(ranks=rank_words(key))
        for card in cards:
            if RANK[card] != wild and RANK[card] != key:
                return lambda: _("{card} is not a {rank}: a set is one rank").format(
                    card=NAME[card], rank=RANK_NAMES[key])
        if wilds > 1 and naturals < gap * (wilds - 1):
            # Translators: {count} is a number (English spells it out: "two").
            return lambda: _("two wilds need {count} naturals between them (a set with {wilds} wilds needs "
                             "{needed} naturals)").format(count=_count(gap), wilds=wilds,
                                                          needed=gap * (wilds - 1))
        return None
    if low < rules.lowest:
        return lambda: _("a run may not go below {rank} (aces are high only; wilds never stand for a "
                         "{below})").format(rank=RANK_NAMES[rules.lowest], below=RANK_NAMES[rules.lowest - 1])
    if low + size - 1 > rules.highest:
        return lambda: _("a run may not go past the ace (aces are high only)")
    last_wild = -gap - 1
    for index, card in enumerate(cards):
        if RANK[card] == wild:
            if index - last_wild - 1 < gap:
                return lambda: _two_wilds(gap)
            last_wild = index
        elif SUIT[card] != key:
            return lambda: _("{card} is not a {suit}: a run is one suit").format(card=NAME[card],
                                                                                  suit=SUITS[key])
        elif RANK[card] != low + index:
            return lambda: _("{card} does not fit: a run is consecutive ranks with no repeats").format(
                card=NAME[card])
    return None


def _two_wilds(gap: int) -> str:
    # Translators: {count} is a number (English spells it out: "two").
    return _("two wilds need {count} naturals between them").format(count=_count(gap))


def make_set(rank: int, cards: Iterable[int], rules: MeldRules) -> Meld:
    """The canonical set of ``rank`` made of ``cards`` (any order)."""
    wild = rules.wild
    items = list(cards)
    naturals = sorted(c for c in items if RANK[c] != wild)
    wilds = sorted(c for c in items if RANK[c] == wild)
    return (SET, rank, 0, tuple(naturals + wilds))


def interpretations(cards: Sequence[int], rules: MeldRules) -> list[Meld]:
    """Every legal meld ``cards`` (a multiset, any order) can form, each wild's
    meaning decided.  Several when a wild could stand at either end of a run."""
    wild = rules.wild
    naturals = [c for c in cards if RANK[c] != wild]
    wilds = sorted(c for c in cards if RANK[c] == wild)
    found: list[Meld] = []
    if not naturals:
        return found
    ranks = {RANK[c] for c in naturals}
    if len(ranks) == 1:
        candidate = make_set(RANK[naturals[0]], cards, rules)
        if _problem(candidate, rules) is None:
            found.append(candidate)
    suits = {SUIT[c] for c in naturals}
    if len(suits) == 1 and len(ranks) == len(naturals):
        suit = SUIT[naturals[0]]
        size = len(cards)
        lo, hi = min(ranks), max(ranks)
        for low in range(max(rules.lowest, hi - size + 1), min(lo, rules.highest - size + 1) + 1):
            slots: list[int | None] = [None] * size
            for card in naturals:
                slots[RANK[card] - low] = card
            empty = [i for i, c in enumerate(slots) if c is None]
            if len(empty) != len(wilds):
                continue
            # Wild cards differ only by name; try each distinct assignment to the slots.
            for order in _distinct_orders(wilds):
                filled = list(slots)
                for index, card in zip(empty, order):
                    filled[index] = card
                candidate = (RUN, suit, low, tuple(filled))
                if _problem(candidate, rules) is None and candidate not in found:
                    found.append(candidate)
    return found


def _distinct_orders(cards: list[int]) -> list[tuple[int, ...]]:
    if len(set(cards)) <= 1:
        return [tuple(cards)]
    from itertools import permutations

    return sorted(set(permutations(cards)))


def why_not_meld(cards: Sequence[int], rules: MeldRules) -> str:
    """Why ``cards`` form no legal meld, in words (for prompts and errors)."""
    wild = rules.wild
    if len(cards) < rules.min_size:
        return _("a meld needs at least {count} cards").format(count=rules.min_size)
    naturals = [c for c in cards if RANK[c] != wild]
    wilds = len(cards) - len(naturals)
    if len(naturals) < rules.min_naturals:
        return _("a meld needs at least {count} natural (not wild) cards").format(count=rules.min_naturals)
    ranks = {RANK[c] for c in naturals}
    if len(ranks) == 1:
        return meld_problem(make_set(RANK[naturals[0]], cards, rules), rules) or _("not a meld")
    suits = {SUIT[c] for c in naturals}
    if len(suits) > 1:
        return _("not a set (different ranks) and not a run (different suits)")
    if len(ranks) < len(naturals):
        return _("a run may not hold the same rank twice")
    lo, hi = min(ranks), max(ranks)
    if hi - lo + 1 - len(naturals) > wilds:
        low_ace = {1 if r == rules.highest else r for r in ranks}
        if hi == rules.highest and rules.lowest > 2 and max(low_ace) < len(cards) + 1:
            # A run if the ace were low and a wild filled in below the lowest rank ("AH W 3H").
            below = RANK_NAMES.get(rules.lowest - 1, str(rules.lowest - 1))
            return _("aces are only high and a wild never stands for a {rank}").format(rank=below)
        return _("the run has gaps that the wilds cannot fill")
    if wilds >= 2:
        return _two_wilds(rules.wild_gap)
    return _("a run may not go past the ace or below 3 (aces are high only)")


def layoff_meanings(meld: Meld, card: int, rules: MeldRules) -> list[int]:
    """The ranks ``card`` may stand for when added to ``meld`` (empty: it does not fit).

    A natural can only be itself; a wild joins a set as its rank, or a run at
    either end, as long as the meld stays legal.
    """
    kind, key, low, cards = meld
    wild = rules.wild
    gap = rules.wild_gap
    rank = RANK[card]
    if kind == SET:
        if rank == wild:
            naturals = sum(1 for c in cards if RANK[c] != wild)
            wilds = len(cards) - naturals
            return [key] if naturals >= gap * wilds else []
        return [key] if rank == key else []
    high = low + len(cards) - 1
    if rank != wild:
        if SUIT[card] != key:
            return []
        if rank == low - 1 and rank >= rules.lowest:
            return [rank]
        if rank == high + 1 and rank <= rules.highest:
            return [rank]
        return []
    out = []
    if low - 1 >= rules.lowest and all(RANK[c] != wild for c in cards[:gap]):
        out.append(low - 1)
    if high + 1 <= rules.highest and all(RANK[c] != wild for c in cards[len(cards) - gap:]):
        out.append(high + 1)
    return out


def natural_layoffs(melds: Sequence[Meld], rules: MeldRules) -> dict[int, list[tuple[int, int]]]:
    """For each natural card that may be laid off on ``melds``, its
    ``(meld index, rank)`` places in index order: what :func:`layoff_meanings`
    gives a natural card on each meld, found meld by meld rather than card by
    card (a natural fits a set of its rank, or a run of its suit at either end)."""
    wild, lowest, highest = rules.wild, rules.lowest, rules.highest
    fits: dict[int, list[tuple[int, int]]] = {}
    for index, (kind, key, low, cards) in enumerate(melds):
        if kind == SET:
            if key != wild:
                for suit in range(4):
                    fits.setdefault(suit * 13 + key - 2, []).append((index, key))
            continue
        base = key * 13 - 2
        if low - 1 >= lowest and low - 1 != wild:
            fits.setdefault(base + low - 1, []).append((index, low - 1))
        high = low + len(cards)
        if high <= highest and high != wild:
            fits.setdefault(base + high, []).append((index, high))
    return fits


def layoff_problem(meld: Meld, card: int, rules: MeldRules) -> str:
    """Why ``card`` cannot be added to ``meld`` (when :func:`layoff_meanings` is empty)."""
    kind, key, low, cards = meld
    rank = RANK[card]
    if kind == SET:
        if rank == rules.wild:
            return _two_wilds(rules.wild_gap)
        return _("a set of {ranks} takes only {ranks} (or a wild)").format(ranks=rank_words(key))
    high = low + len(cards) - 1
    if rank != rules.wild:
        if SUIT[card] != key:
            return _("a run of {suits} takes only {suits}").format(suits=suit_words(key))
        return _("a run of {low} to {high} grows only by the card next to either end").format(
            low=RANK_NAMES[low] + SUITS[key], high=RANK_NAMES[high] + SUITS[key])
    low_end, high_end = low - 1 >= rules.lowest, high + 1 <= rules.highest
    if not (low_end or high_end):
        return _("the run cannot grow: it goes from 3 to the ace")
    if low_end and high_end:
        # Translators: {count} is a number (English spells it out: "two").
        said = _("two wilds need {count} naturals between them (at the low and high ends)")
    elif low_end:
        # Translators: {count} is a number (English spells it out: "two").
        said = _("two wilds need {count} naturals between them (at the low end); a run may not go past the "
                 "ace or below 3")
    else:
        # Translators: {count} is a number (English spells it out: "two").
        said = _("two wilds need {count} naturals between them (at the high end); a run may not go past the "
                 "ace or below 3")
    return said.format(count=_count(rules.wild_gap))


def add_card(meld: Meld, card: int, as_rank: int, rules: MeldRules) -> Meld:
    """``meld`` with ``card`` added, standing for ``as_rank`` (checked by :func:`layoff_meanings`)."""
    kind, key, low, cards = meld
    if kind == SET:
        return make_set(key, (*cards, card), rules)
    if as_rank < low:
        return (RUN, key, as_rank, (card, *cards))
    return (RUN, key, low, (*cards, card))


def three_card_melds(hand: Sequence[int], rules: MeldRules) -> list[Meld]:
    """Every legal three-card meld in ``hand`` (distinct, canonical).

    Any longer legal meld is such a meld plus lay-offs, so a turn can always
    reach it through these; games list these as the meld decisions.
    """
    wild = rules.wild
    by_rank: dict[int, list[int]] = {}
    present = set(hand)
    wilds = sorted({c for c in hand if RANK[c] == wild})
    for card in hand:
        if RANK[card] != wild:
            by_rank.setdefault(RANK[card], []).append(card)
    found: list[Meld] = []
    seen = set()
    need_wild = rules.min_naturals < 3
    for rank, naturals in by_rank.items():
        naturals.sort()
        if len(naturals) >= 3:
            for combo in combinations(naturals, 3):
                meld = (SET, rank, 0, combo)
                if meld not in seen:
                    seen.add(meld)
                    found.append(meld)
        if need_wild and wilds and len(naturals) >= 2:
            for pair in combinations(naturals, 2):
                for w in wilds:
                    meld = (SET, rank, 0, (*pair, w))
                    if meld not in seen:
                        seen.add(meld)
                        found.append(meld)
    lowest, highest = rules.lowest, rules.highest
    with_wilds = need_wild and bool(wilds)
    masks = _natural_masks(present, wild)
    for suit in range(4):
        mask = masks[suit]
        if not mask:
            continue
        base = suit * 13 - 2
        for low, bits in _windows(mask, lowest, highest, 2 if with_wilds else 3):
            a, b, c = base + low, base + low + 1, base + low + 2
            if bits == 7:
                found.append((RUN, suit, low, (a, b, c)))
            if with_wilds:
                for w in wilds:
                    if bits & 6 == 6:
                        found.append((RUN, suit, low, (w, b, c)))
                    if bits & 5 == 5:
                        found.append((RUN, suit, low, (a, w, c)))
                    if bits & 3 == 3:
                        found.append((RUN, suit, low, (a, b, w)))
    return found


def _natural_masks(cards: Iterable[int], wild: int) -> list[int]:
    """Per suit, a bit ``1 << rank`` for each natural (not wild) suited card of ``cards``."""
    masks = [0, 0, 0, 0]
    for card in cards:
        if card < 52 and RANK[card] != wild:
            masks[SUIT[card]] |= 1 << RANK[card]
    return masks


_WINDOWS: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = {}
_LIVE: dict[tuple[int, int, int, bool], int] = {}


def _live_ranks(mask: int, lowest: int, highest: int, gaps: bool) -> int:
    """A bit ``1 << rank`` for each rank whose card of a suit, beside the
    naturals ``mask`` of that suit in a hand, makes a three-card run or (with
    ``gaps``) a four-card run with a wild filling a gap inside: exactly the
    runs :func:`pickup_melds` lists.  Pure, and remembered."""
    key = (mask, lowest, highest, gaps)
    live = _LIVE.get(key)
    if live is not None:
        return live
    live = 0
    for rank in range(2, 15):
        held = mask | 1 << rank
        lows = [low for low in (rank - 2, rank - 1, rank) if lowest <= low and low + 2 <= highest]
        if any(held >> low & 7 == 7 for low in lows):
            live |= 1 << rank
            continue
        if gaps:
            for low in range(max(rank - 3, lowest), min(rank, highest - 3) + 1):
                bits = held >> low & 15
                if any(low + slot != rank and bits & others == others
                       for slot, others in ((1, 0b1101), (2, 0b1011))):
                    live |= 1 << rank
                    break
    if len(_LIVE) < 1 << 16:
        _LIVE[key] = live
    return live


def _windows(mask: int, lowest: int, highest: int, need: int) -> tuple[tuple[int, int], ...]:
    """``(low, bits)`` for each run of three ranks ``low .. low + 2`` within
    ``lowest .. highest`` that holds at least ``need`` of the ranks in
    ``mask``, lowest first; ``bits`` has bit ``i`` for rank ``low + i``.  A
    pure function of its arguments, remembered (hands repeat their masks)."""
    key = (mask, lowest, highest, need)
    found = _WINDOWS.get(key)
    if found is None:
        found = tuple((low, bits) for low in range(lowest, highest - 1)
                      if (bits := mask >> low & 7) and (bits & 1) + (bits >> 1 & 1) + (bits >> 2) >= need)
        if len(_WINDOWS) < 1 << 16:
            _WINDOWS[key] = found
    return found


def melds_with(card: int, hand: Sequence[int], rules: MeldRules) -> list[Meld]:
    """Three-card melds of ``card`` with two *natural* cards of ``hand`` (a deep pickup)."""
    return [meld for _, meld in pickup_melds((card,), hand, rules)]


def pickup_melds(candidates: Iterable[int], hand: Sequence[int], rules: MeldRules) -> list[tuple[int, Meld]]:
    """``(card, meld)`` for every smallest meld of one of ``candidates`` (distinct
    cards, e.g. the discards below the top) with two *natural* cards of ``hand``:
    three-card melds, and four-card runs whose gap inside is filled by a wild
    of the hand (``5C + 7C 8C + W``: no three-card meld holds the card and two
    naturals of the hand there).  Every legal meld of such a card with at
    least two naturals of the hand is one of these plus lay-offs.

    The hand is indexed once, so listing a draw's choices stays cheap however
    deep the discard pile is.
    """
    wild = rules.wild
    lowest, highest = rules.lowest, rules.highest
    by_rank: dict[int, list[int]] = {}
    present = set()
    hand_wilds: list[int] = []
    for c in hand:
        if RANK[c] != wild:
            by_rank.setdefault(RANK[c], []).append(c)
            present.add(c)
        elif c not in hand_wilds:
            hand_wilds.append(c)
    hand_wilds.sort()
    masks = _natural_masks(present, wild)
    gap_runs = rules.min_naturals <= 3 and rules.wild_gap <= 2
    pairs_by_rank = {rank: sorted(set(combinations(sorted(cards), 2)))
                     for rank, cards in by_rank.items() if len(cards) >= 2}
    found: list[tuple[int, Meld]] = []
    wild_runs: list[tuple[int, int, tuple[int, int, int], int]] | None = None
    gaps = bool(hand_wilds) and gap_runs
    live = [_LIVE.get((mask, lowest, highest, gaps), -1) for mask in masks]
    for suit, known in enumerate(live):
        if known < 0:
            live[suit] = _live_ranks(masks[suit], lowest, highest, gaps)
    for card in candidates:
        rank = RANK[card]
        if rank != wild:
            suit = SUIT[card]
            for pair in pairs_by_rank.get(rank, ()):
                found.append((card, make_set(rank, (card, *pair), rules)))
            if card >= 52 or not live[suit] >> rank & 1:
                continue  # no run of this card with the hand (most cards of a deep pile)
            base = suit * 13 - 2
            held = masks[suit] | 1 << rank  # the hand's naturals of the suit, and the card
            for low in (rank - 2, rank - 1, rank):
                if low < lowest or low + 2 > highest:
                    continue
                if held >> low & 7 == 7:
                    found.append((card, (RUN, suit, low, (base + low, base + low + 1, base + low + 2))))
            if hand_wilds and gap_runs:
                # Four cards, a wild from the hand inside: 5C + 7C 8C + W = 5C W 6C... (the
                # card and two naturals of the hand span four ranks, one gap filled).
                for low in range(rank - 3, rank + 1):
                    if low < lowest or low + 3 > highest:
                        continue
                    bits = held >> low & 15
                    for slot in (1, 2):
                        if low + slot == rank:
                            continue
                        others = 15 & ~(1 << slot)
                        if bits & others == others:
                            for w in hand_wilds:
                                filled = [base + low, base + low + 1, base + low + 2, base + low + 3]
                                filled[slot] = w
                                found.append((card, (RUN, suit, low, tuple(filled))))
            continue
        for rank2, pairs in pairs_by_rank.items():
            for pair in pairs:
                found.append((card, (SET, rank2, 0, (*pair, card))))
        if wild_runs is None:
            wild_runs = []
            for suit in range(4):
                mask = masks[suit]
                if not mask:
                    continue
                base = suit * 13 - 2
                for low, bits in _windows(mask, lowest, highest, 2):
                    span = (base + low, base + low + 1, base + low + 2)
                    if bits & 6 == 6:
                        wild_runs.append((suit, low, span, 0))
                    if bits & 5 == 5:
                        wild_runs.append((suit, low, span, 1))
                    if bits & 3 == 3:
                        wild_runs.append((suit, low, span, 2))
        for suit, low, span, slot in wild_runs:
            cards = list(span)
            cards[slot] = card
            found.append((card, (RUN, suit, low, tuple(cards))))
    return found


def stands_for(meld: Meld | None, rank: int) -> str:
    """What a wild laid off on ``meld`` as ``rank`` stands for, in notation:
    ``4`` on a set, ``5C`` on a run (a rank alone where there is no such meld)."""
    return RANK_NAMES.get(rank, "?") + (SUITS[meld[1]] if meld is not None and meld[0] == RUN else "")


def meld_label(meld: Meld) -> str:
    """What a meld is, in a few words, in the chosen language: ``set of 4s``,
    ``set of aces``, ``run of hearts``."""
    if meld[0] == SET:
        return _("set of {ranks}").format(ranks=rank_words(meld[1]))
    return _("run of {suits}").format(suits=suit_words(meld[1]))


def meld_shown(meld: Meld, rules: MeldRules) -> str:
    """A meld as a table shows it, each wild with what it stands for, and what
    it is: ``4S 4H 3D(=4)  [set of 4s]``."""
    return f"{meld_cards(meld, rules)}  [{meld_label(meld)}]"


def meld_cards(meld: Meld, rules: MeldRules) -> str:
    """A meld's cards as a table shows them, each wild with what it stands for:
    ``4S 4H 3D(=4)`` (:func:`meld_shown` without what it is)."""
    return " ".join(f"{NAME[card]}(={meaning_name(meld, index)})" if rules.is_wild(card) else NAME[card]
                    for index, card in enumerate(meld[3]))


def meld_text(meld: Meld, rules: MeldRules) -> str:
    """A meld in record notation, wilds written ``3H=5C`` (run) or ``3H=4`` (set)."""
    return " ".join(card_text(meld, i, rules) for i in range(len(meld[3])))


def card_text(meld: Meld, index: int, rules: MeldRules) -> str:
    card = meld[3][index]
    if RANK[card] == rules.wild:
        return f"{NAME[card]}={meaning_name(meld, index)}"
    return NAME[card]


def meld_from(entries: Sequence[tuple[int, int | None, int | None]], rules: MeldRules) -> Meld:
    """The canonical meld of ``entries``: ``(card, rank, suit)`` where a wild
    states the rank (and optionally the suit) it stands for, ``None`` if unsaid.

    Raises ``ValueError`` when the cards cannot be laid out as one set or run
    (a wild's meaning missing where it matters, two cards for one place, a
    gap); rule checks beyond the layout are :func:`meld_problem`'s.
    """
    wild = rules.wild
    cards = [card for card, _, _ in entries]
    naturals = [card for card in cards if RANK[card] != wild]
    stated = [(card, rank, suit) for card, rank, suit in entries if RANK[card] == wild]
    ranks = {RANK[c] for c in naturals}
    said = {rank for _, rank, _ in stated if rank is not None}
    if len(ranks) <= 1 and len(said | ranks) <= 1:
        rank = next(iter(ranks or said or {wild}))
        return make_set(rank, cards, rules)
    suits = {SUIT[c] for c in naturals}
    if len(suits) > 1:
        if len(ranks) == 1:
            raise ValueError(_("a wild in a set of {ranks} stands for that rank").format(
                ranks=rank_words(next(iter(ranks)))))
        raise ValueError(_("not a set (different ranks) and not a run (different suits)"))
    suit = next(iter(suits))
    if any(rank is None for _, rank, _ in stated):
        found = [m for m in interpretations(cards, rules) if m[0] == RUN]
        if len(found) == 1:
            return found[0]
        if not found:
            raise ValueError(why_not_meld(cards, rules))
        raise ValueError(_("say what each wild stands for, e.g. 3H=5C"))
    placed: dict[int, int] = {}
    for card in naturals:
        if RANK[card] in placed:
            raise ValueError(_("a run may not hold {card} twice").format(
                card=RANK_NAMES[RANK[card]] + SUITS[suit]))
        placed[RANK[card]] = card
    for card, meant, stated_suit in stated:
        assert meant is not None
        if stated_suit is not None and stated_suit != suit:
            raise ValueError(_("{card} cannot stand for {meant} in a run of {suits}").format(
                card=NAME[card], meant=RANK_NAMES[meant] + SUITS[stated_suit], suits=suit_words(suit)))
        if meant < rules.lowest:
            below = RANK_NAMES.get(rules.lowest - 1, str(rules.lowest - 1))
            if rules.highest in placed:
                why = _("{card} cannot stand for {meant}: aces are only high and a wild never stands for a "
                        "{below}")
            else:
                why = _("{card} cannot stand for {meant}: a wild never stands for a {below}")
            meaning = RANK_NAMES.get(meant, str(meant)) + SUITS[suit]
            raise ValueError(why.format(card=NAME[card], meant=meaning, below=below))
        if meant in placed:
            raise ValueError(_("two cards stand for {card}").format(card=RANK_NAMES[meant] + SUITS[suit]))
        placed[meant] = card
    low, high = min(placed), max(placed)
    if high == rules.highest and high - 1 not in placed and low <= rules.lowest:
        # An ace played low ("AH 3H 4H"): a run does not wrap round from the ace.
        raise ValueError(_("aces are only high: {card} cannot go below {low}").format(
            card=NAME[placed[high]], low=RANK_NAMES[rules.lowest] + SUITS[suit]))
    for rank in range(low, high + 1):
        if rank not in placed:
            name = RANK_NAMES[rank] + SUITS[suit] if 2 <= rank <= 14 else str(rank)
            raise ValueError(_("the run has a gap: nothing stands for {card}").format(card=name))
    return (RUN, suit, low, tuple(placed[r] for r in range(low, high + 1)))


def parse_meaning(text: str) -> tuple[int, int | None]:
    """What a wild stands for, as a record or a player writes it: ``5C`` (a
    rank and a suit) or ``5`` (a rank), as ``(rank, suit or None)``."""
    key = text.strip().upper()
    try:
        return parse_rank(key), None
    except CardError:
        pass
    if len(key) >= 2:
        try:
            return parse_rank(key[:-1]), parse_suit(key[-1])
        except CardError:
            pass
    raise CardError(_("{text} is not what a wild can stand for (write a card like 5C, or a rank like 5)")
                    .format(text=repr(text)))


def meld_from_names(items: Any, rules: MeldRules, card: Callable[[Any], int]) -> Meld:
    """A meld from the record notation that :func:`meld_text` writes:
    ``["4C", "3H=5C", "6C"]`` (each card read by ``card``, the game's reader of
    its own pack).  ``ValueError`` says what is wrong."""
    if not isinstance(items, list) or not items:
        raise ValueError(_("a meld must be a list of card names, e.g. [\"4C\", \"3H=5C\", \"6C\"]"))
    entries: list[tuple[int, int | None, int | None]] = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError(_("a meld lists card names, got {item}").format(item=repr(item)))
        name, sep, means = item.partition("=")
        value = card(name)
        rank: int | None = None
        suit: int | None = None
        if sep:
            if not rules.is_wild(value):
                if rules.wild:
                    raise ValueError(_("{card} is not wild ({ranks} wild): only a wild says what it stands "
                                       "for").format(card=NAME[value], ranks=rank_words(rules.wild)))
                raise ValueError(_("{card} is not wild (no rank wild): only a wild says what it stands for")
                                 .format(card=NAME[value]))
            rank, suit = parse_meaning(means)
        entries.append((value, rank, suit))
    return meld_from(entries, rules)


def meaning_on(meld: Meld | None, card: int, said: Any, rules: MeldRules, number: int) -> int:
    """The rank ``card`` stands for when laid off on ``meld`` (the table's meld
    ``number``, ``None`` where there is none), as a record's ``"as"`` says it
    (``said``: a rank or a card, ``"4"`` or ``"5C"``; ``None`` where it is left
    out, which is fine when one meaning fits).  ``ValueError`` says what is
    wrong; whether the card fits the meld at all is the rules' to check."""
    wild = rules.is_wild(card)
    if said is not None:
        if not isinstance(said, str):
            raise ValueError(_("'as' must be a rank or card, like \"4\" or \"5C\", got {said}").format(
                said=repr(said)))
        rank, suit = parse_meaning(said)
        if not wild and rank != RANK[card]:
            raise ValueError(_("{card} is not wild: it stands only for itself").format(card=NAME[card]))
        if suit is not None and meld is not None and meld[0] == RUN and meld[1] != suit:
            raise ValueError(_("meld {number} is a run of {suits}: {card} cannot stand for {said}").format(
                number=number, suits=suit_words(meld[1]), card=NAME[card], said=said))
        return rank
    if not wild or meld is None:
        return RANK[card]
    meanings = layoff_meanings(meld, card, rules)
    if len(meanings) > 1:
        raise ValueError(_("say what the wild {card} stands for on meld {number} (\"as\": {choices})").format(
            card=NAME[card], number=number, choices=join_or([RANK_NAMES[r] for r in meanings])))
    return meanings[0] if meanings else 0
