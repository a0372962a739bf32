"""The rules of End of the Page as a state machine (``docs/variants/endofpage.md``).

A turn is several decisions, which keeps each legal-action list short:

1. the draw: ``DRAW_ACTION`` (the stock; a chance event then says which
   card), ``(TAKE, card)`` (the top discard) or ``(PICKUP, card, meld)`` (a
   deeper discard, melded at once with two naturals from the hand);
2. any number of ``(MELD, meld)`` and ``(LAYOFF, index, card, as_rank)``;
3. ``(DISCARD, card)``, which ends the turn (a player who melds or lays off
   their last card ends it floating, with nothing to discard).

Chance: ``(DEAL, seat, cards, wild_card)`` once per player (the first card is
the turned-up one, ``wild_card`` is the dealer's wild or -1),
``(TURN_UP, card)``, ``(DRAWN, card)`` and ``RESHUFFLE_ACTION``.

Melds are canonical tuples of :mod:`cardcli.kit.melds`.  The stock is an unordered
pool: its order is unknown until a card comes out, which is what a record
states.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from functools import cache

from cardcli.contract.abilities import UnseenCards
from cardcli.contract.match import Match
from cardcli.contract.phases import PhasedState
from cardcli.contract.rummy import played_minus_held
from cardcli.contract.variant import Action, hand_zones
from cardcli.kit.cards import NAME, RANK, RANK_NAMES, UNSEEN
from cardcli.kit.errors import IllegalMove
from cardcli.kit.grammar import listed
from cardcli.kit.melds import (
    Meld,
    MeldRules,
    add_card,
    layoff_meanings,
    layoff_problem,
    meld_problem,
    meld_text,
    natural_layoffs,
    pickup_melds,
    three_card_melds,
)
from cardcli.kit.rand import below
from cardcli.kit.stock import draw_one, first_missing, rebuild, take

from .config import Config
from .language import N_, _

DEAL, TURN_UP, DRAWN, RESHUFFLE, DRAW, TAKE, PICKUP, MELD, LAYOFF, DISCARD = range(10)
DRAW_ACTION = (DRAW,)
RESHUFFLE_ACTION = (RESHUFFLE,)
DECISIONS = (DRAW, TAKE, PICKUP, MELD, LAYOFF, DISCARD)
#: A lead at a round's end of this many points is worth about 0.88 to a playout (0.5 + 0.5 tanh 1).
MARGIN_SCALE = 400.0

P_DEAL, P_TURN_UP, P_DRAW, P_STOCK, P_PLAY, P_RESHUFFLE, P_OVER = range(7)

#: What each phase but the deal waits for (:meth:`EndOfPageState.expecting`; ``{seat}``: the turn's).
EXPECTING = {P_TURN_UP: N_("the first discard to be turned up"),
             P_RESHUFFLE: N_("a reshuffle of the discards into a new stock"),
             P_STOCK: N_("the card seat {seat} draws from the stock"),
             P_DRAW: N_("seat {seat} to draw"),
             P_PLAY: N_("seat {seat} to meld, lay off or discard"),
             P_OVER: N_("nothing (the game is over)")}

#: Hand size named by a turned-up card: face value, J 11, Q 12, K 13, A 14.
HAND_SIZE = tuple(RANK[c] for c in range(52))


@cache
def meld_rules(wild: int) -> MeldRules:
    """The (shared, immutable) meld rules of a round whose wild rank is ``wild``."""
    return MeldRules(wild=wild, lowest=3, highest=14)


def wild_of(cards: Sequence[int]) -> int:
    """The dealer's wild card: the first non-ace of the turned cards (-1 if none)."""
    return next((card for card in cards if RANK[card] != 14), -1)


def not_in_hand(card: int, seat: int) -> str:
    """A refusal: ``card`` is not in ``seat``'s hand ("seat N": the player's name where shown)."""
    return _("{card} is not in seat {seat}'s hand").format(card=NAME[card], seat=seat)


class EndOfPageState(Match, UnseenCards, PhasedState):
    """A position of a game of End of the Page: the whole page of rounds
    (:class:`Match`: the highest total wins).

    The other hands and the stock are hidden (:class:`UnseenCards`); the
    cards every player saw go into a hand and stay are :meth:`known_cards`.
    """

    decision_phases = (P_DRAW, P_PLAY)
    over_phase = P_OVER
    chance_seats = dict.fromkeys((P_TURN_UP, P_STOCK, P_RESHUFFLE), "turn")  # the one a card comes to
    deal_phase = P_DEAL
    shared = ("deck", "notes")
    #: The slots of the table as a round ended, kept for its summary (:meth:`Match.table_as_ended`).
    ended = ("hands", "melds", "owners", "layoffs", "played", "melded", "out", "wild", "mrules", "points")
    __slots__ = (
        "cfg", "deal_seat", "deck", "discard", "drawn", "faceup", "hands", "known", "layoffs", "melded",
        "melds", "mrules", "notes", "num_players", "out", "owners", "phase", "played", "points", "reshuffled",
        "stock", "turn", "turns", "wild"
    )

    def __init__(self, cfg: Config, num_players: int, dealer: int, deck: list[int]):
        self.cfg = cfg
        self.num_players = num_players
        self.deck = deck  # the full pack, shared and never mutated
        self.notes: list[str] = []  # how each round ended, for the score sheet (replaced, never changed)
        self.begin_match(dealer)

    def new_deal(self) -> None:
        n = self.num_players
        self.wild = 0
        self.mrules = meld_rules(0)
        self.points = self.cfg.points_table(0)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        #: Cards every player knows to be in each hand (:meth:`known_cards`); a copy is forgotten
        #: whenever a card of that name leaves the hand (with two decks, conservatively).
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = list(self.deck)
        self.discard: list[int] = []
        self.melds: list[tuple] = []
        self.owners: list[int] = []
        self.layoffs: list[tuple[int, int, int, int]] = []  # (meld index, seat, card, as rank)
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.melded = [False] * n
        self.faceup = -1
        self.turn = (self.dealer + 1) % n
        self.deal_seat = (self.dealer + 1) % n
        self.phase = P_DEAL
        self.turns = 0
        self.out: list[int] = []
        self.reshuffled = 0
        self.drawn = -1

    # ------------------------------------------------------------- inspection
    @property
    def top(self) -> int:
        return self.discard[-1] if self.discard else -1

    def is_wild(self, card: int) -> bool:
        return RANK[card] == self.wild

    def plays(self, card: int) -> bool:
        """Whether ``card`` could be laid off somewhere on the table."""
        rules = self.mrules
        return any(layoff_meanings(meld, card, rules) for meld in self.melds)

    def legal_actions(self) -> list:
        """The decisions now.  A known limitation: melds are listed as the
        three-card melds of the hand, deep pickups as the smallest melds of the
        card with two naturals of the hand (:func:`cardcli.kit.melds.pickup_melds`).
        Longer melds, which ``check`` and ``apply`` accept, are always a listed
        one plus lay-offs in the same turn, with the same result; listing them
        all costs too much for search (docs/variants/endofpage.md)."""
        phase = self.phase
        if phase == P_PLAY:
            seat = self.turn
            hand = self.hands[seat]
            if UNSEEN in hand:  # a record's unseen card: it makes no meld
                hand = [card for card in hand if card != UNSEEN]
            actions: list = []
            rules = self.mrules
            if len(hand) >= 3:
                for meld in three_card_melds(hand, rules):
                    actions.append((MELD, meld))
            distinct = sorted(set(hand))
            if self.melded[seat] and self.melds:
                melds = self.melds
                fits = natural_layoffs(melds, rules)
                wild = rules.wild
                for card in distinct:
                    if RANK[card] != wild:
                        for index, as_rank in fits.get(card, ()):
                            actions.append((LAYOFF, index, card, as_rank))
                        continue
                    for index, meld in enumerate(melds):
                        for as_rank in layoff_meanings(meld, card, rules):
                            actions.append((LAYOFF, index, card, as_rank))
            if len(hand) == 1 and actions:
                return actions  # a last card that plays must be played
            for card in distinct:
                actions.append((DISCARD, card))
            return actions
        if phase == P_DRAW:
            actions = [DRAW_ACTION]
            discard = self.discard
            if discard:
                actions.append((TAKE, discard[-1]))
                if len(discard) > 1:
                    for card, meld in pickup_melds(sorted(set(discard[:-1])), self.hands[self.turn],
                                                   self.mrules):
                        actions.append((PICKUP, card, meld))
            return actions
        return []

    def expecting(self) -> str:
        if self.phase == P_DEAL:
            # Translators: what must happen next (each phase's), put in sentences such as "expected
            # {what}" (a record that goes wrong) and the referee's "Next: ...".
            return _("the deal to seat {seat} (round {round})").format(seat=self.deal_seat,
                                                                      round=self.round + 1)
        return _(EXPECTING[self.phase]).format(seat=self.turn)

    def card_zones(self) -> dict[str, list[int]]:
        zones = hand_zones(self.hands)
        zones["stock"] = self.stock
        zones["discards"] = self.discard
        zones["table"] = table = []
        for meld in self.melds:
            table += meld[3]
        return zones

    def known_cards(self, seat: int) -> dict[str, list[int]]:
        """Cards in other hands that every player saw go there and stay: the
        turned-up cards of the deal (the dealer's face-up wild too) and
        discards taken from the pile, until they are melded, laid off or
        discarded."""
        return {f"hand {other}": cards[:] for other, cards in enumerate(self.known)
                if other != seat and cards}

    def cards_taken(self, action: Action) -> Sequence[int]:
        kind = action[0]
        if kind in (MELD, PICKUP):
            cards = list(action[-1][3])
            if kind == PICKUP and action[1] in cards:  # (not in it: an illegal pickup, refused next)
                cards.remove(action[1])  # the picked-up card comes from the discards
            return cards
        if kind in (DISCARD, TURN_UP, DRAWN):
            return (action[1],)
        return (action[2],) if kind == LAYOFF else action[2] if kind == DEAL else ()

    def seen_by(self, action: Action, viewer: int | None) -> Action:
        """Each seat's first card is turned up for all, and the dealer's
        until the wild card; the rest of a deal and the draws, by their seat."""
        kind, seat = action[0], self.deal_seat if action[0] == DEAL else self.turn
        if viewer == seat or kind not in (DEAL, DRAWN):
            return action
        if kind == DRAWN:
            return (DRAWN, UNSEEN)
        cards = action[2]
        shown = cards.index(wild_of(cards)) + 1 if seat == self.dealer else 1
        return (DEAL, seat, cards[:shown] + (UNSEEN,) * (len(cards) - shown), action[3])

    def cards_lacked(self, action: Action) -> None:
        """No move of End of the Page turns on a card it does not name."""
        return None

    def hands_count(self) -> bool:
        return True

    def match_value(self, seat: int) -> float:
        """A round has just ended and more remain: value ``seat``'s lead over
        the best other total, smoothly (the page is won on points, so a bigger
        lead is worth more; about 0.88 for a typical round's swing of 400)."""
        if self.num_players < 2:
            return 1.0
        lead = self.totals[seat] - max(t for s, t in enumerate(self.totals) if s != seat)
        return 0.5 + 0.5 * math.tanh(lead / MARGIN_SCALE)

    def round_points(self) -> list[int]:
        """Each seat's score for the round as it stands: played minus held."""
        return [played_minus_held(self.points, played, held) for played, held in zip(self.played, self.hands)]

    # ---------------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> tuple:
        phase = self.phase
        stock = self.stock
        if phase == P_STOCK:
            return (DRAWN, draw_one(stock, rng))
        if phase == P_DEAL:
            pool = stock[:]
            first = pool.pop(below(rng, len(pool)))
            cards = [first]
            for _ in range(HAND_SIZE[first] - 1):
                index = below(rng, len(pool))
                pool[index], pool[-1] = pool[-1], pool[index]
                cards.append(pool.pop())
            wild = wild_of(cards) if self.deal_seat == self.dealer else -1
            return (DEAL, self.deal_seat, tuple(cards), wild)
        if phase == P_TURN_UP:
            return (TURN_UP, draw_one(stock, rng))
        if phase == P_RESHUFFLE:
            return RESHUFFLE_ACTION
        raise ValueError("not a chance node")

    # -------------------------------------------------------------- checking
    def check_decision(self, action: Action) -> None:
        """Every meld is checked by the meld rules: the legal list holds only the shortest."""
        if action[0] not in DECISIONS:
            raise IllegalMove(_("expected a move by seat {seat}, not a chance event").format(seat=self.turn))
        if self.phase == P_DRAW:
            self._check_draw(action)
        else:
            self._check_play(action)

    def _check_draw(self, action: Action) -> None:
        kind = action[0]
        if kind in (MELD, LAYOFF, DISCARD):
            raise IllegalMove(_("draw first: from the stock, the top discard, or a deeper discard "
                                "melded at once"))
        if kind == DRAW:
            return
        discard = self.discard
        if kind == TAKE:
            if not discard:
                raise IllegalMove(_("the discard pile is empty"))
            if action[1] != discard[-1]:
                raise IllegalMove(_("the top discard is {top}, not {card}").format(top=NAME[discard[-1]],
                                                                                  card=NAME[action[1]]))
            return
        # PICKUP
        _kind, card, meld = action
        if card not in discard[:-1]:
            if discard and card == discard[-1]:
                raise IllegalMove(_("{card} is the top discard: take it (no meld needed)").format(
                    card=NAME[card]))
            raise IllegalMove(_("{card} is not in the discard pile below the top card").format(
                card=NAME[card]))
        cards = list(meld[3])
        if card not in cards:
            raise IllegalMove(_("the meld must include the picked-up {card}").format(card=NAME[card]))
        cards.remove(card)
        hand = self.hands[self.turn]
        missing = first_missing(cards, hand)
        if missing is not None:
            raise IllegalMove(not_in_hand(missing, self.turn))
        naturals = sum(1 for c in cards if RANK[c] != self.wild)
        if naturals < 2:
            raise IllegalMove(_("a deeper discard may be taken only to meld it at once with at least two "
                                "natural cards from the hand ({count} here)").format(count=naturals))
        problem = meld_problem(meld, self.mrules)
        if problem:
            raise IllegalMove(_("not a legal meld: {why}").format(why=problem))

    def _check_play(self, action: Action) -> None:
        kind = action[0]
        seat = self.turn
        hand = self.hands[seat]
        if kind in (DRAW, TAKE, PICKUP):
            raise IllegalMove(_("already drew this turn: meld, lay off or discard"))
        if kind == MELD:
            meld = action[1]
            missing = first_missing(meld[3], hand)
            if missing is not None:
                raise IllegalMove(not_in_hand(missing, seat))
            problem = meld_problem(meld, self.mrules)
            if problem:
                raise IllegalMove(_("not a legal meld: {why}").format(why=problem))
            return
        if kind == LAYOFF:
            _kind, index, card, as_rank = action
            if not self.melded[seat]:
                raise IllegalMove(_("lay-offs are allowed only after your own first meld"))
            if card not in hand:
                raise IllegalMove(not_in_hand(card, seat))
            if not 0 <= index < len(self.melds):
                raise IllegalMove(_("there is no meld {number} on the table ({count} meld(s))").format(
                    number=index + 1, count=len(self.melds)))
            meanings = layoff_meanings(self.melds[index], card, self.mrules)
            if as_rank not in meanings:
                raise IllegalMove(self._layoff_refused(index, card, meanings))
            return
        if kind == DISCARD:
            card = action[1]
            if card not in hand:
                raise IllegalMove(not_in_hand(card, seat))
            if len(hand) == 1 and self.melded[seat]:  # each way it plays, a wild's two meanings too
                plays = [index for index, meld in enumerate(self.melds)
                         for _meaning in layoff_meanings(meld, card, self.mrules)]
                if plays:
                    melds = listed([_("meld {number}").format(number=index + 1) for index in plays[:3]])
                    # Translators: {melds} lists the melds the card plays on ("meld 1, meld 3").
                    raise IllegalMove(_("your last card {card} plays (on {melds}): it must be played, not "
                                        "discarded to go out").format(card=NAME[card], melds=melds))
            return
        raise IllegalMove(f"not a move: {action!r}")  # pragma: no cover

    def _layoff_refused(self, index: int, card: int, meanings: Sequence[int]) -> str:
        """Why ``card`` may not be laid off on meld ``index`` as it was said: it fits
        no way (the meld rules' reason), or a wild stands there only for ``meanings``."""
        meld = self.melds[index]
        fields = {"card": NAME[card], "number": index + 1, "meld": meld_text(meld, self.mrules)}
        if not meanings:
            return _("{card} cannot be laid off on meld {number} ({meld}): {reason}").format(
                reason=layoff_problem(meld, card, self.mrules), **fields)
        if len(meanings) == 1:
            return _("{card} can stand only for {rank} on meld {number} ({meld})").format(
                rank=RANK_NAMES[meanings[0]], **fields)
        first = " or ".join(RANK_NAMES[r] for r in meanings[:-1])  # two at most: a run's two ends
        # Translators: {rank} and {other} are what a wild may stand for there (a run's two ends).
        return _("{card} can stand only for {rank} or {other} on meld {number} ({meld})").format(
            rank=first, other=RANK_NAMES[meanings[-1]], **fields)

    def check_chance(self, action: Action) -> None:
        phase = self.phase
        if phase == P_DEAL:
            self.expect(action, DEAL)
            _kind, seat, cards, wild = action
            if seat != self.deal_seat:
                raise IllegalMove(_("the deal goes to seat {seat} now (from the dealer's left, the dealer "
                                    "last), not seat {other}").format(seat=self.deal_seat, other=seat))
            if not cards:
                raise IllegalMove(_("a deal needs at least the turned-up card"))
            size = HAND_SIZE[cards[0]]
            if len(cards) != size:
                raise IllegalMove(_("seat {seat}'s turned-up {card} means {size} cards, but {count} were "
                                    "dealt").format(seat=seat, card=NAME[cards[0]], size=size,
                                                    count=len(cards)))
            missing = first_missing(cards, self.stock)
            if missing is not None:
                raise IllegalMove(_("{card} is dealt more times than the pack holds it").format(
                    card=NAME[missing]))
            if seat == self.dealer:
                expected = wild_of(cards)
                if expected < 0:
                    raise IllegalMove(_("the dealer's cards are all aces: no wild rank"))
                if wild >= 0 and wild != expected:
                    raise IllegalMove(_("the wild card is the dealer's first non-ace turned card, {card}, "
                                        "not {wild}").format(card=NAME[expected], wild=NAME[wild]))
            elif wild >= 0:
                raise IllegalMove(_("only the dealer's deal names the wild card"))
            return
        if phase in (P_TURN_UP, P_STOCK):
            self.expect(action, TURN_UP if phase == P_TURN_UP else DRAWN)
            if action[1] not in self.stock:
                raise IllegalMove(_("{card} is not in the stock").format(card=NAME[action[1]]))
            return
        if phase == P_RESHUFFLE:
            if action[0] != RESHUFFLE:
                raise IllegalMove(_("the stock is empty: the discards must be reshuffled first"))
            return
        raise IllegalMove(_("expected {what}").format(what=self.expecting()))  # pragma: no cover

    # -------------------------------------------------------------- applying
    def apply_legal(self, action: Action) -> None:
        kind = action[0]
        if kind == DISCARD:
            self._discard(action[1])
        elif kind == MELD:
            self._meld(action[1], action[1][3])
        elif kind == LAYOFF:
            self._layoff(action[1], action[2], action[3])
        elif kind == DRAW:
            self.phase = P_STOCK
        elif kind == DRAWN:
            card = action[1]
            take(self.stock, card)
            self.hands[self.turn].append(card)
            self.drawn = card
            self.phase = P_PLAY
        elif kind == TAKE:
            card = self.discard.pop()
            self.hands[self.turn].append(card)
            self.known[self.turn].append(card)
            self.drawn = card
            self.phase = P_PLAY
        elif kind == PICKUP:
            _, card, meld = action
            discard = self.discard
            for index in range(len(discard) - 2, -1, -1):
                if discard[index] == card:
                    del discard[index]
                    break
            cards = list(meld[3])
            cards.remove(card)
            self.drawn = card
            self.phase = P_PLAY
            self._meld(meld, cards)
        elif kind == DEAL:
            self._deal(action[1], action[2])
        elif kind == TURN_UP:
            self.stock.remove(action[1])
            self.discard.append(action[1])
            self._start_turn()
        elif kind == RESHUFFLE:
            self.stock, self.discard = rebuild(self.discard)
            self.reshuffled += 1
            self.phase = P_DRAW
        else:  # pragma: no cover - check() rejects these
            raise ValueError(action)

    def _deal(self, seat: int, cards: Sequence[int]) -> None:
        stock = self.stock
        for card in cards:
            stock.remove(card)
        self.hands[seat] = list(cards)
        if seat == self.dealer:
            wild_card = wild_of(cards)
            # Every card turned up, the aces before the wild included.
            self.known[seat] = list(cards[:cards.index(wild_card) + 1])
            self.faceup = wild_card
            self.wild = RANK[wild_card]
            self.mrules = meld_rules(self.wild)
            self.points = self.cfg.points_table(self.wild)
            self.phase = P_TURN_UP
        else:
            self.known[seat] = [cards[0]]
            self.deal_seat = (seat + 1) % self.num_players

    def _leave_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        known = self.known[seat]
        if card in known:
            known.remove(card)
        if seat == self.dealer and card == self.faceup and card not in self.hands[seat]:
            self.faceup = -1

    def _meld(self, meld: Meld, from_hand: Iterable[int]) -> None:
        seat = self.turn
        hand = self.hands[seat]
        for card in from_hand:
            self._leave_hand(seat, card)
        self.melds.append(meld)
        self.owners.append(seat)
        self.played[seat].extend(meld[3])
        self.melded[seat] = True
        if not hand:
            self._end_turn()

    def _layoff(self, index: int, card: int, as_rank: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        self._leave_hand(seat, card)
        self.melds[index] = add_card(self.melds[index], card, as_rank, self.mrules)
        self.layoffs.append((index, seat, card, as_rank))
        self.played[seat].append(card)
        if not hand:
            self._end_turn()

    def _discard(self, card: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        self._leave_hand(seat, card)
        self.discard.append(card)
        if not hand:
            self.out.append(seat)
        self._end_turn()

    def _start_turn(self) -> None:
        self.drawn = -1
        if self.stock:
            self.phase = P_DRAW
        elif self.reshuffled < self.cfg.reshuffles and len(self.discard) >= 2:
            self.phase = P_RESHUFFLE
        else:
            reason = ("the stock ran out after the last reshuffle allowed" if len(self.discard) >= 2
                      else "the stock ran out with no discards to reshuffle")
            self._end_round(f"{reason}: nobody went out")

    def _end_turn(self) -> None:
        self.turns += 1
        if self.out and self.turns >= self.num_players:
            self._end_round(", ".join(f"seat {s}" for s in self.out) + " went out")
            return
        self.turn = (self.turn + 1) % self.num_players
        self._start_turn()

    # --------------------------------------------------------------- scoring
    def _end_round(self, reason: str) -> None:
        self.notes = [*self.notes, reason]
        self.end_deal(self.round_points(), reason)

    def match_over(self) -> str | None:
        target, played = self.cfg.target_score, self.round
        if target is not None and max(self.totals) >= target:
            return f"a total reached {target} after round {played}; highest total wins"
        if played < self.cfg.page_lines:
            return None
        return f"the end of the page: {played} round{'s' if played != 1 else ''} played; highest total wins"
