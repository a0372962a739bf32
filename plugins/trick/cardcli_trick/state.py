"""The rules of trick-taking Page One as a state machine (``docs/variants/trick.md``).

Actions are small tuples, built once where possible, because simulations create millions of them:
decisions ``(PLAY, card, call)`` (``call``: the Page One call) and ``DRAW_ACTION``; chance ``(DEAL,
hands)``, ``(DRAWN, cards)`` and ``RESHUFFLE_ACTION``.

The stock is an unordered multiset (its order is unknown until cards are drawn, as a record states
them).  Drawing to follow suit is one card per chance event, because whether to draw again depends on
the card that came; a Page One penalty draws what it can in one event.  A deal won scores 1: the totals
are the deals won.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cardcli.contract.abilities import UnseenCards, unseen_can, unseen_is
from cardcli.contract.dealing import DealtMatch
from cardcli.contract.phases import PhasedState
from cardcli.contract.record_fields import Card, Drawn, Event, Flag, Hands, RecordEvents, Reshuffle, Stated
from cardcli.contract.variant import Action, hand_zones
from cardcli.kit.cards import JOKER, NAME, RANK, SUIT, UNSEEN, suit_words
from cardcli.kit.errors import IllegalMove
from cardcli.kit.grammar import could_play, listed
from cardcli.kit.results import outcome_value, places_after, places_value, rank_places
from cardcli.kit.stock import check_drawn, draw_one, take, where

from .config import Config
from .language import N_, _

PLAY, DRAW, DEAL, DRAWN, RESHUFFLE = range(5)
DRAW_ACTION = (DRAW,)
RESHUFFLE_ACTION = (RESHUFFLE,)
#: ``PLAYS[card][call]``: the play actions, built once.
PLAYS = tuple(((PLAY, card, False), (PLAY, card, True)) for card in range(53))
#: ``OFFERED[card][call]``: the plays of ``card`` a hand offers, with the Page One call when ``call``.
OFFERED = (*(((plays[0],), plays) for plays in PLAYS), ((), ()))  # an unseen card offers none

#: A long playout's value (``playout_estimate``): a base shared by the seats
#: and a part for holding fewer cards than the others.
ESTIMATE_BASE, ESTIMATE_SPREAD = 0.45, 0.2
#: The cards of each suit.
SUITED = tuple(frozenset(card for card in range(52) if SUIT[card] == suit) for suit in range(4))

# Phases.
P_DEAL, P_PLAY, P_FORCED, P_DRAW, P_RESHUFFLE, P_OVER = range(6)
# Why cards are being drawn.
D_FOLLOW, D_ANY, D_PENALTY = range(3)
#: A card's place, in a refusal ("it is in the trick on the table"), said with ``_()`` where it is shown.
TRICK_WORDS = {"trick": N_("the trick on the table")}


def _not_the_dealer(seat: int, dealer: Any) -> str:
    return _("the dealer of this deal is seat {seat}, not {dealer}").format(seat=seat, dealer=repr(dealer))


class TrickState(DealtMatch, UnseenCards, PhasedState):
    """A position of a trick-taking Page One match of one or more deals."""

    decision_phases = (P_PLAY, P_FORCED)
    over_phase = P_OVER
    chance_seats = {P_DRAW: "draw_seat"}
    deal_phase = P_DEAL
    deal_kind = DEAL
    #: The record's events (the variant's), which also say which cards each takes and who sees them.
    events = RecordEvents(
        "trick",
        moves={"play": Event(PLAY, Card(), Flag("call"), built=PLAYS), "draw": DRAW_ACTION},
        chances={"deal": (DEAL, Stated("dealer", "dealer", _not_the_dealer), Hands(size="cfg.hand_size")),
                 "draw": (DRAWN, Drawn(seat="draw_seat", drawing=lambda state: state.phase == P_DRAW)),
                 "reshuffle": (RESHUFFLE, Reshuffle(lambda state: len(state.tricks)))})
    cfg: Config
    __slots__ = (
        "draw_for", "draw_left", "draw_seat", "drawn_now", "forced", "last_trick", "phase", "rebuilds",
        "resume", "suit", "trick", "trick_seats", "tricks", "tricks_done", "turn", "voids", "win_pos"
    )

    def new_deal(self) -> None:
        super().new_deal()
        n = self.num_players
        self.tricks: list[int] = []  # finished tricks set aside, pooled
        self.tricks_done = 0
        self.rebuilds = 0  # times the stock was rebuilt from finished tricks this deal
        # Per seat, a bit per suit the table saw it lack (it had to draw to follow): public knowledge.
        self.voids = [0] * n
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.win_pos = -1
        self.suit = -1  # the suit to follow; -1 at the lead and after a led joker
        self.draw_seat = -1
        self.draw_for = D_FOLLOW
        self.draw_left = 0
        self.drawn_now = 0
        self.forced = -1
        self.resume = -1
        self.last_trick: tuple | None = None

    # ------------------------------------------------------------- inspection
    def can_draw(self) -> bool:
        """Whether a card could come: from the stock, or from reshuffled finished tricks."""
        return bool(self.stock) or bool(self.tricks)

    def winner_with(self, card: int) -> int:
        """The seat winning the trick once the player to move plays ``card`` (the first joker wins)."""
        if not self.trick:
            return self.turn
        best = self.trick[self.win_pos]
        suit = self.suit if self.suit >= 0 else SUIT[card]
        if best != JOKER and (card == JOKER or (SUIT[card] == suit and RANK[card] > RANK[best])):
            return self.turn
        return self.trick_seats[self.win_pos]

    def legal_actions(self) -> list:
        phase = self.phase
        if phase == P_PLAY:
            hand = self.hands[self.turn]
            call = 1 if len(hand) == 2 else 0
            suit = self.suit
            cfg = self.cfg
            actions: list = []
            # Each card once (a seen-list was quadratic in a long deal's hand of 30 cards).
            cards = hand if cfg.decks == 1 and cfg.jokers <= 1 else dict.fromkeys(hand)
            if suit < 0:  # leading, or after a led joker: any card
                joker_ok = cfg.joker_last or len(hand) > 1
                for card in cards:
                    if card != JOKER or joker_ok:
                        actions.extend(OFFERED[card][call])
                if not actions and (self.stock or self.tricks):
                    actions.append(DRAW_ACTION)
                return actions
            joker = False
            for card in cards:
                if SUIT[card] == suit:
                    actions.extend(OFFERED[card][call])
                elif card == JOKER:
                    joker = True
            if joker and (not actions or cfg.joker_any_time) and (cfg.joker_last or len(hand) > 1):
                follow = bool(actions)
                actions.extend(OFFERED[JOKER][call])
                if follow:
                    return actions
            elif actions:
                return actions
            # Cannot follow: drawing is offered when a card could come, and beside a playable joker even
            # when none can (the hand is then called off); with neither, the turn never starts (_begin_turn).
            if actions or self.stock or self.tricks:
                actions.append(DRAW_ACTION)
            return actions
        if phase == P_FORCED:
            return list(OFFERED[self.forced][len(self.hands[self.turn]) == 2])
        return []

    def expecting(self) -> str:
        phase, deals = self.phase, self.cfg.deals
        if phase == P_DEAL and deals > 1:
            return _("the deal of deal {deal} of {deals}").format(deal=self.round + 1, deals=deals)
        if phase == P_RESHUFFLE:
            return _("a reshuffle of the finished tricks into a new stock (the stock is empty)")
        if phase == P_DRAW:
            seat = self.draw_seat
            if self.draw_for == D_PENALTY:
                count = self.draw_count()
                return _.ngettext("seat {seat} to draw the forgotten Page One penalty ({count:,} card)",
                                  "seat {seat} to draw the forgotten Page One penalty ({count:,} cards)",
                                  count).format(seat=seat, count=count)
            if self.draw_for == D_FOLLOW:
                return _("seat {seat} to draw a card (cannot follow {suits})").format(
                    seat=seat, suits=suit_words(self.suit))
            return _("seat {seat} to draw a card to play").format(seat=seat)
        seat = self.turn
        if phase == P_FORCED:
            if self.forced == UNSEEN:  # a real table's record: the next line says whether it followed
                if self.draw_for == D_FOLLOW and self.suit >= 0:
                    return _("seat {seat} to play the card drawn, if it follows {suits}").format(
                        seat=seat, suits=suit_words(self.suit))
                return _("seat {seat} to play the card drawn").format(seat=seat)
            return _("seat {seat} to play the drawn {card}").format(seat=seat, card=NAME[self.forced])
        if phase == P_PLAY:
            return (_("seat {seat} to play to the trick") if self.trick else _("seat {seat} to lead")).format(
                seat=seat)
        return super().expecting()  # the deal, or nothing: the game is over

    def card_zones(self) -> dict[str, list[int]]:
        zones = hand_zones(self.hands)
        zones["stock"] = self.stock
        zones["finished tricks"] = self.tricks
        zones["trick"] = self.trick
        if self.phase == P_DEAL:
            zones["undealt"] = list(self.deck)
        return zones

    # ------------------------------------------------- what a seat can know
    def pending_card(self, seat: int) -> tuple[str, int, Callable[[int], bool]] | None:
        """The drawn card that must be played now: of the suit led (drawing to follow stops there), or,
        for a draw with no suit to follow, any card."""
        if self.phase != P_FORCED or seat == self.turn:
            return None
        suit = self.suit
        if self.draw_for == D_FOLLOW and suit >= 0:
            return f"hand {self.turn}", self.forced, lambda card: card != JOKER and SUIT[card] == suit
        return f"hand {self.turn}", self.forced, lambda card: True

    def set_pending_card(self, card: int) -> None:
        self.forced = card

    def ruled_out(self, seat: int) -> dict:
        tests = {}
        for other, mask in enumerate(self.voids):
            if other != seat and mask:
                tests[f"hand {other}"] = lambda card, m=mask: card != JOKER and bool(m >> SUIT[card] & 1)
        return tests

    def cards_lacked(self, action: Action) -> Callable[[int], bool] | frozenset[int] | None:
        """Drawing (or the joker played where only a player who cannot follow may) shows no card of the
        suit led; drawing to lead, no card to lead."""
        suit, hand, cfg = self.suit, self.hands[self.turn], self.cfg
        if self.phase != P_PLAY or (action[0] == PLAY and (action[1] != JOKER or suit < 0
                                                           or cfg.joker_any_time)):
            return None
        if suit >= 0:
            return SUITED[suit]
        return lambda card: card != JOKER or cfg.joker_last or len(hand) > 1

    def match_value(self, seat: int) -> float:
        """A deal decided, valued as a deal alone is: a called-off deal is worth little (as half a win, it
        made the search steer into called-off deals and win fewer over 100 matches of five deals)."""
        assert self.round_places is not None
        return outcome_value(self.round_places, _winner(self.round_scores[-1]), seat)

    def playout_estimate(self, seat: int) -> float | None:
        """A long playout is a deal of big hands, most often called off (``normal`` CPUs heads-up, 100
        more events: about 0.44 of a win for the seat holding fewer cards, 0.23 for the other)."""
        places = rank_places([len(hand) for hand in self.hands])
        return ESTIMATE_BASE / self.num_players + ESTIMATE_SPREAD * places_value(places, seat)

    # ---------------------------------------------------------------- chance
    def draw_count(self) -> int:
        """Cards the next draw event takes: one to follow, the penalty as far as the stock goes."""
        if self.draw_for == D_PENALTY:
            return min(self.draw_left, len(self.stock))
        return 1

    def sample_chance(self, rng: random.Random) -> tuple:
        phase = self.phase
        if phase == P_DRAW:
            stock = self.stock
            if self.draw_for != D_PENALTY:
                return (DRAWN, (draw_one(stock, rng),))
            # Penalties drawn as random.sample draws them: seeded games stay the same.
            return (DRAWN, tuple(rng.sample(stock, min(self.draw_left, len(stock)))))
        if phase == P_RESHUFFLE:
            return RESHUFFLE_ACTION
        if phase == P_DEAL:
            return self.sample_deal(rng)
        raise ValueError("not a chance node")

    # -------------------------------------------------------------- checking
    def alternatives(self, legal: list[Action]) -> str:
        cards = list(dict.fromkeys(NAME[action[1]] for action in legal if action[0] == PLAY))
        if DRAW_ACTION not in legal:
            return could_play(cards)
        # Drawing said in whole sentences of this catalog (the cards as the core lists them).
        if not cards:
            return _("could draw")
        # Translators: the moves a refused player could make instead ({cards}: "7H, QH").
        return _("could play {cards} or draw").format(cards=listed(cards))

    def why_illegal(self, action: Action) -> str:
        if refused := self.not_a_move(action, (PLAY, DRAW), PLAY, 3, JOKER + 1):
            return refused
        seat = self.turn
        hand = self.hands[seat]
        cfg = self.cfg
        suit = self.suit
        if self.phase == P_FORCED:
            forced = NAME[self.forced]
            if action[0] == DRAW:
                return _("must play the drawn {card} at once, not draw again").format(card=forced)
            if action[1] != self.forced:
                if suit >= 0:
                    return _("must play the drawn {card}, the card of the suit led ({suits}) just "
                             "drawn").format(card=forced, suits=suit_words(suit))
                return _("must play the drawn {card}, the card just drawn").format(card=forced)
        if action[0] == DRAW:
            if suit < 0:
                return _("may not draw: holding a card to lead") if not self.trick else \
                    _("may not draw: any card may be played after a led joker")
            if any(SUIT[c] == suit for c in hand):
                return _("may not draw while able to follow {suits}").format(suits=suit_words(suit))
            return _("nothing is left to draw (stock and finished tricks are empty)")
        _kind, card, call = action
        if card not in hand:
            return _("{card} is not in seat {seat}'s hand").format(card=NAME[card], seat=seat)
        if call and len(hand) != 2:
            return _("Page One may only be called with the play that leaves one card")
        if card == JOKER:
            if not cfg.joker_last and len(hand) == 1:
                return _("the joker may not be the last card (joker_last is off)")
            if suit >= 0 and not cfg.joker_any_time:
                return _("the joker may only be played by a player who cannot follow suit "
                         "(joker_any_time is off): must follow {suits}").format(suits=suit_words(suit))
        if suit >= 0 and SUIT[card] != suit:
            return _("must follow {suits}").format(suits=suit_words(suit))
        return _("not allowed now")

    def check_chance(self, action: Action) -> None:
        kind, phase = action[0], self.phase
        if phase == P_DEAL:
            self.check_deal(action)
        elif phase == P_RESHUFFLE:
            if kind != RESHUFFLE:
                raise IllegalMove(_("the stock is empty: the finished tricks must be reshuffled first"))
        elif kind == RESHUFFLE:  # the only other chance phase: P_DRAW
            raise IllegalMove(_("no reshuffle now: the stock still has {count} card(s)").format(
                count=len(self.stock)))
        else:
            self.expect(action, DRAWN)
            # Drawing to follow takes one card a time: one that is in the stock needs no more look.
            if self.draw_for == D_PENALTY or len(action[1]) != 1 or action[1][0] not in self.stock:
                check_drawn(self.stock, action[1], self.draw_count(), self._where)

    def _where(self, card: int) -> str:
        """Where a drawn card that is not in the stock lies, for the refusal (``where``'s words)."""
        return where(self.card_zones(), card, {zone: _(said) for zone, said in TRICK_WORDS.items()})

    # -------------------------------------------------------------- applying
    def apply_legal(self, action: Action) -> None:
        kind = action[0]
        if kind == PLAY:
            self._play(action[1], action[2])
        elif kind == DRAWN:
            self._drawn(action[1])
        elif kind == DRAW:
            hand_suit = self.suit
            # Drawing to follow shows none of the suit (and the cards drawn on the way are of other
            # suits); what was known before goes.
            self.voids[self.turn] = 1 << hand_suit if hand_suit >= 0 else 0
            self._begin_draw(self.turn, D_FOLLOW if hand_suit >= 0 else D_ANY, 1)
        elif kind == RESHUFFLE:
            self.stock = self.tricks
            self.tricks = []
            self.tricks_done = 0
            self.rebuilds += 1
            self.phase = P_DRAW
        elif kind == DEAL:
            self.take_deal(action[1])
            self._begin_turn(self.turn)
        else:  # pragma: no cover - check() rejects these
            raise ValueError(action)

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` the turn; with nothing to draw and no legal play the hand is called off."""
        self.phase = P_PLAY
        self.turn = seat
        if not self.stock and not self.tricks and not unseen_can(self, seat, self.legal_actions):
            self._end_deal(None)

    def _play(self, card: int, call: bool) -> None:
        seat = self.turn
        hand = self.hands[seat]
        forgot = len(hand) == 2 and not call
        hand.remove(card)
        self.forced = -1
        trick = self.trick
        pos = len(trick)
        trick.append(card)
        self.trick_seats.append(seat)
        if pos == 0:
            self.win_pos = 0
            self.suit = SUIT[card]
        else:
            suit = self.suit
            if suit < 0 and card != JOKER:
                self.suit = suit = SUIT[card]
            best = trick[self.win_pos]
            if best != JOKER and (card == JOKER or (SUIT[card] == suit and RANK[card] > RANK[best])):
                self.win_pos = pos
        if not hand:
            self._end_deal(seat)
            return
        n = self.num_players
        if pos + 1 == n:
            winner = self.trick_seats[self.win_pos]
            self.last_trick = (tuple(trick), tuple(self.trick_seats), winner)
            self.tricks.extend(trick)
            self.tricks_done += 1
            self.trick = []
            self.trick_seats = []
            self.win_pos = -1
            self.suit = -1
            following = winner
        else:
            following = seat + 1 if seat + 1 < n else 0
        if forgot and self.cfg.page_one_penalty:
            # Drawn before the next player acts; a completed trick is already set aside.
            self.resume = following
            self._begin_draw(seat, D_PENALTY, self.cfg.page_one_penalty)
        else:
            self._begin_turn(following)

    def _begin_draw(self, seat: int, reason: int, count: int) -> None:
        if reason == D_PENALTY:
            self.voids[seat] = 0  # unseen cards of any suit
        self.draw_seat = seat
        self.draw_for = reason
        self.draw_left = count
        self.drawn_now = 0
        self.phase = P_DRAW
        if not self.stock:
            self._stock_empty()

    def _stock_empty(self) -> None:
        """The stock ran out while cards must be drawn: rebuild it from the finished tricks (at most
        ``reshuffles`` times a deal), or call the hand off; a penalty not drawn is waived."""
        limit = self.cfg.reshuffles
        if self.tricks and (limit is None or self.rebuilds < limit):
            self.phase = P_RESHUFFLE
            return
        self.draw_seat = -1
        self.draw_left = 0
        if self.tricks:
            self._end_deal(None, f"the hand was called off: the stock ran out after {self.rebuilds} "
                                 f"rebuild{'s' if self.rebuilds != 1 else ''}, the most the "
                                 f"option reshuffles allows")
        elif self.draw_for == D_PENALTY:
            self._begin_turn(self.resume)  # whatever cannot be drawn is waived
            self.resume = -1
        else:
            self._end_deal(None)

    def _drawn(self, cards: Sequence[int]) -> None:
        seat = self.draw_seat
        hand = self.hands[seat]
        stock = self.stock
        for card in cards:
            take(stock, card)
            hand.append(card)
        self.drawn_now += len(cards)
        reason = self.draw_for
        if reason == D_FOLLOW:
            card, suit = cards[-1], self.suit
            if SUIT[card] == suit if card != UNSEEN else unseen_is(seat, SUITED[suit]):
                self._force(seat, card)
            elif not stock:
                self._stock_empty()
            return
        if reason == D_ANY:
            self._force(seat, cards[-1])
            return
        self.draw_left -= len(cards)
        if self.draw_left <= 0:
            self.draw_seat = -1
            self._begin_turn(self.resume)
            self.resume = -1
        elif not stock:
            self._stock_empty()

    def _force(self, seat: int, card: int) -> None:
        self.forced = card
        self.draw_seat = -1
        self.phase = P_FORCED
        self.turn = seat

    # --------------------------------------------------------------- scoring
    def _end_deal(self, winner: int | None, reason: str = "") -> None:
        n = self.num_players
        if winner is None:
            places = [1] * n
            reason = reason or "the hand was called off: nothing left to draw and no way to follow"
        else:
            places = places_after([winner], [len(hand) for hand in self.hands])
            reason = f"seat {winner} played their last card"
        self.end_deal([int(seat == winner) for seat in range(n)], reason, places, winner)

    def match_over(self) -> str | None:
        deals = self.cfg.deals
        return None if self.round < deals else f"{deals} deals played; most deals won takes the match"

    def deal_alone(self) -> bool:
        return self.cfg.deals == 1

    def match_extra(self) -> dict[str, Any]:
        return {"deal_winners": self.deal_winners}

    @property
    def deal_winners(self) -> list[int | None]:
        """Who won each deal finished (``None``: called off)."""
        return [_winner(scores) for scores in self.round_scores]


def _winner(scores: Sequence[int]) -> int | None:
    """The seat that won a deal, from its scores (1 for the winner)."""
    return scores.index(1) if 1 in scores else None
