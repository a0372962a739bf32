"""The rules of matching Page One as a state machine (``docs/variants/matching.md``).

Actions are small tuples, built once where possible, because simulations create millions of them:
decisions ``(PLAY, card, suit, call)`` (``suit``: the suit an 8 names, else -1; ``call``: Page One, or
Stop with the last card), ``DRAW_ACTION`` and ``KEEP_ACTION``; chance ``(DEAL, hands)``, ``(TURN_UP,
card)``, ``(DRAWN, cards)`` and ``RESHUFFLE_ACTION``.

The stock is an unordered pool (its order is unknown until cards are drawn, as a record states them)
plus the cards the first turn-up sent *under* it, which come out after the pool, in the order sent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardcli.contract.abilities import UnseenCards, unseen_is
from cardcli.contract.dealing import DealtMatch
from cardcli.contract.phases import PhasedState
from cardcli.contract.record_fields import Card, Drawn, Flag, Hands, RecordEvents, Reshuffle, Suit, card_field
from cardcli.contract.variant import Action, hand_zones
from cardcli.kit.cards import NAME, RANK, SUIT, UNSEEN, suit_words
from cardcli.kit.errors import IllegalMove
from cardcli.kit.grammar import could_play
from cardcli.kit.rand import below
from cardcli.kit.results import places_after
from cardcli.kit.stock import draw_one, draw_some, rebuild

from .config import EIGHT, NONE, PLAY, REVERSE, SKIP, THREE, TWO, Config
from .language import N_, _

DRAW, KEEP, DEAL, TURN_UP, DRAWN, RESHUFFLE = range(1, 7)
DRAW_ACTION = (DRAW,)
KEEP_ACTION = (KEEP,)
RESHUFFLE_ACTION = (RESHUFFLE,)

# Phases.
P_DEAL, P_TURN_UP, P_PLAY, P_AFTER_DRAW, P_DRAWING, P_RESHUFFLE, P_OVER = range(7)
# Why cards are being drawn (a forgotten call: Page One, or Stop with the last card).
FOR_TURN, FOR_PENALTY, FOR_PAGE_ONE, FOR_STOP = range(4)
ANY_SUIT = 4  # an 8 turned up first and applied: anything may follow
#: The penalty being drawn, by why (``draw_for``): "seat 1 to draw the draw penalty (2 cards)".
PENALTIES = {FOR_PENALTY: N_("the draw penalty"), FOR_PAGE_ONE: N_("the forgotten Page One penalty"),
             FOR_STOP: N_("the forgotten Stop penalty")}


def _card(value: Any) -> int:
    card = card_field(value)
    if card >= 52:
        raise ValueError("there is no joker in matching Page One")
    return card


class MatchingState(DealtMatch, UnseenCards, PhasedState):
    """A position of a matching Page One game of one round or several (the lowest total wins)."""

    decision_phases = (P_PLAY, P_AFTER_DRAW)
    over_phase = P_OVER
    chance_seats = {P_DRAWING: "draw_seat"}
    deal_phase = P_DEAL
    deal_kind = DEAL
    lower_wins = True
    #: The record's events (the variant's), which also say which cards most take and who sees them.
    events = RecordEvents(
        "matching",
        moves={"play": (PLAY, Card(_card), Suit(), Flag("call")), "draw": DRAW_ACTION, "keep": KEEP_ACTION},
        chances={"deal": (DEAL, Hands(_card, size="cfg.hand_size")),
                 "turn_up": (TURN_UP, Card(_card)),
                 "draw": (DRAWN, Drawn(_card, seat="draw_seat",
                                       drawing=lambda state: state.phase == P_DRAWING)),
                 "reshuffle": (RESHUFFLE, Reshuffle(lambda state: len(state.discard) - 1))})
    cfg: Config
    __slots__ = (
        "active", "direction", "discard", "draw_for", "draw_left", "draw_seat", "drawn", "idle", "lacks",
        "out", "penalty", "penalty_rank", "phase", "resume_turn", "suit", "turn", "turn_empty", "under"
    )

    def new_deal(self) -> None:
        super().new_deal()
        n = self.num_players
        self.under: list[int] = []
        self.discard: list[int] = []
        self.suit = -1
        self.direction = 1
        self.penalty = 0
        self.penalty_rank = 0
        self.draw_seat = -1
        self.draw_left = 0
        self.draw_for = FOR_TURN
        self.resume_turn = -1
        self.drawn = -1
        self.active = [True] * n
        self.out: list[int] = []
        self.idle = 0
        self.turn_empty = False
        # Per seat, what the table saw it lack when it drew for want of a playable card: suit bits 0-3,
        # rank bits 4 + rank (public knowledge; gone when unseen cards join the hand).
        self.lacks = [0] * n

    # ------------------------------------------------------------- inspection
    @property
    def top(self) -> int:
        return self.discard[-1]

    def stock_size(self) -> int:
        return len(self.stock) + len(self.under)

    def players_in(self) -> int:
        return sum(self.active)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` players on in the current direction, skipping players who are out."""
        n, direction, active = self.num_players, self.direction, self.active
        for _step in range(steps):
            seat = (seat + direction) % n
            while not active[seat]:
                seat = (seat + direction) % n
        return seat

    def is_playable(self, card: int, hand_size: int) -> bool:
        """Whether ``card`` may be played now (no penalty pending) from a hand of ``hand_size``."""
        cfg = self.cfg
        kind = cfg.card_special[card]
        if hand_size == 1 and kind != NONE and not cfg.finish_on_special:
            return False
        if kind == EIGHT:
            return True
        suit = self.suit
        if suit >= 0:
            return suit == ANY_SUIT or SUIT[card] == suit
        top = self.discard[-1]
        return RANK[card] == RANK[top] or SUIT[card] == SUIT[top]

    def _nothing_to_draw(self) -> bool:
        return not self.stock and not self.under and len(self.discard) <= 1

    def _answers_penalty(self, card: int, hand_size: int) -> bool:
        cfg = self.cfg
        if not cfg.stack_twos or RANK[card] != self.penalty_rank:
            return False
        return cfg.finish_on_special or hand_size > 1

    def legal_actions(self) -> list:
        phase = self.phase
        if phase == P_PLAY:
            hand = self.hands[self.turn]
            size = len(hand)
            cfg = self.cfg
            plays = cfg.plays
            call = size <= 2 and (size == 2 or cfg.stop_call)  # Page One; Stop with the last card
            actions: list = []
            if self.penalty:
                seen = set()
                for card in hand:
                    if card not in seen and self._answers_penalty(card, size):
                        seen.add(card)
                        actions.extend(plays[card][call])
                actions.append(DRAW_ACTION)
                return actions
            # One deck: no card is in a hand twice.
            suit = self.suit
            playable = cfg.on_suit[suit] if suit >= 0 else cfg.on_top[self.discard[-1]]
            if size == 1 and not cfg.finish_on_special:
                card = hand[0]
                if card in playable and cfg.card_special[card] == NONE:
                    actions.extend(plays[card][call])
            else:
                for card in hand:
                    if card in playable:
                        actions.extend(plays[card][call])
            if not actions or cfg.draw_when_able:
                # With draw_when_able a draw is a choice even with nothing to
                # draw: it is then skipped and the turn passes.
                actions.append(DRAW_ACTION)
            return actions
        if phase == P_AFTER_DRAW:
            return [*self.cfg.plays[self.drawn][len(self.hands[self.turn]) == 2], KEEP_ACTION]
        return []

    def expecting(self) -> str:
        phase = self.phase
        if phase == P_TURN_UP:
            return _("the first top card to be turned up")
        if phase == P_RESHUFFLE:
            return _("a reshuffle of the discards (the stock is empty)")
        if phase == P_DRAWING:
            seat, why = self.draw_seat, self.draw_for
            if why == FOR_TURN:
                return _("seat {seat} to draw a card").format(seat=seat)
            count = min(self.draw_left, self.stock_size())
            return _.ngettext("seat {seat} to draw {penalty} ({count} card)",
                              "seat {seat} to draw {penalty} ({count} cards)", count).format(
                seat=seat, penalty=_(PENALTIES[why]), count=count)
        if phase == P_AFTER_DRAW:
            if self.drawn == UNSEEN:  # a real table's record: the next line says whether it plays
                return _("seat {seat} to play or keep the card drawn, if it plays").format(seat=self.turn)
            return _("seat {seat} to play or keep the drawn {card}").format(seat=self.turn,
                                                                              card=NAME[self.drawn])
        if phase == P_PLAY:
            if self.penalty:
                return _("seat {seat} to draw {count} or answer with a {rank}").format(
                    seat=self.turn, count=self.penalty, rank=self.penalty_rank)
            return _("seat {seat} to play").format(seat=self.turn)
        return super().expecting()  # the deal, or nothing: the game is over

    def card_zones(self) -> dict[str, list[int]]:
        zones = hand_zones(self.hands)
        zones["stock"] = self.stock
        zones["under the stock"] = self.under  # turned up and sent under: seen by all
        zones["discards"] = self.discard
        if self.phase == P_DEAL:
            zones["undealt"] = list(self.deck)
        return zones

    def pending_card(self, seat: int) -> tuple[str, int, Callable[[int], bool]] | None:
        """The drawn card waiting to be played or kept: the table knows it plays (else the turn is over)."""
        if self.phase != P_AFTER_DRAW or seat == self.turn:
            return None
        size = len(self.hands[self.turn])
        return f"hand {self.turn}", self.drawn, lambda card: self.is_playable(card, size)

    def set_pending_card(self, card: int) -> None:
        self.drawn = card

    def cards_taken(self, action: Action) -> Sequence[int]:
        kind = action[0]
        if kind in (DRAWN, TURN_UP):  # the pool first; then cards sent under it, seen by all
            return (action[1],) if kind == TURN_UP and self.stock else action[1][:len(self.stock)]
        return super().cards_taken(action)

    def seen_by(self, action: Action, viewer: int | None) -> Action:
        if action[0] == DRAWN and self.draw_seat != viewer:
            pool = len(self.stock)
            return (DRAWN, tuple(UNSEEN if i < pool else card for i, card in enumerate(action[1])))
        return super().seen_by(action, viewer)

    def cards_lacked(self, action: Action) -> Callable[[int], bool] | frozenset[int] | None:
        """A draw with no penalty, where drawing is only for want of a playable card, shows none is held."""
        if action != DRAW_ACTION or self.phase != P_PLAY or self.penalty or self.cfg.draw_when_able:
            return None
        return self.playable(len(self.hands[self.turn]))

    def playable(self, size: int) -> Callable[[int], bool] | frozenset[int]:
        """The cards that may be played now (no penalty pending) from a hand of ``size``."""
        cfg = self.cfg
        if size == 1 and not cfg.finish_on_special:
            return lambda card: self.is_playable(card, 1)
        return cfg.on_suit[self.suit] if self.suit >= 0 else cfg.on_top[self.discard[-1]]

    def hands_count(self) -> bool:
        return self.cfg.rounds > 1

    # ---------------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> tuple:
        phase = self.phase
        if phase == P_DRAWING:
            stock = self.stock
            count = min(self.draw_left, len(stock) + len(self.under))
            if count == 1 and stock:  # the common draw, without a call
                return (DRAWN, (stock[below(rng, len(stock))],))
            # The pool first, in random order; then the cards sent under it, in order.
            drawn = draw_some(stock, min(count, len(stock)), rng) if stock else ()
            return (DRAWN, drawn + tuple(self.under[:count - len(drawn)]))
        if phase == P_TURN_UP:
            return (TURN_UP, draw_one(self.stock, rng) if self.stock else self.under[0])
        if phase == P_RESHUFFLE:
            return RESHUFFLE_ACTION
        if phase == P_DEAL:
            return self.sample_deal(rng)
        raise ValueError("not a chance node")

    # -------------------------------------------------------------- checking
    def alternatives(self, legal: list[Action]) -> str:
        others = []
        if DRAW_ACTION in legal:
            # Translators: a choice after "could play 7H, 9H or" (also alone: "could draw").
            others.append(_("take the penalty") if self.penalty else _("draw"))
        if KEEP_ACTION in legal:
            # Translators: a choice after "could play 7H or" (keep the card just drawn).
            others.append(_("keep it"))
        return could_play((NAME[action[1]] for action in legal if action[0] == PLAY), others)

    def why_illegal(self, action: Action) -> str:
        if refused := self.not_a_move(action, (PLAY, DRAW, KEEP), PLAY, 4, 52):
            return refused
        kind = action[0]
        seat = self.turn
        hand = self.hands[seat]
        cfg = self.cfg
        if kind == KEEP:
            return _("there is no drawn card to keep")
        if kind == DRAW:
            if self.phase == P_AFTER_DRAW:
                return _("only the drawn card may be played, or kept")
            return _("may not draw while holding a playable card")
        card, suit, call = action[1], action[2], action[3]
        if self.phase == P_AFTER_DRAW and card != self.drawn:
            return _("after a draw only the drawn card ({card}) may be played").format(card=NAME[self.drawn])
        if card not in hand:
            return _("{card} is not in seat {seat}'s hand").format(card=NAME[card], seat=seat)
        size = len(hand)
        special = cfg.card_special[card]
        if call and size != 2 and not (size == 1 and cfg.stop_call):
            if cfg.stop_call:
                return _("a call goes only with the play of the second-to-last card (Page One) or of the "
                         "last card (Stop)")
            return _("Page One may only be called with the play of the second-to-last card")
        if special == EIGHT and not 0 <= suit <= 3:
            # Translators: "suit": "H" is how a record's move names the suit (keep it as it is).
            return _('an 8 must name a suit: the move says it, e.g. "suit": "H"')
        if special != EIGHT and suit != -1:
            return _("only a wild 8 names a suit")
        if self.penalty:
            penalty = _("draw-two penalty") if self.penalty_rank == 2 else _("draw-three penalty")
            if not cfg.stack_twos:
                return _("facing a {penalty} of {count}, the penalty must be taken (no stacking)").format(
                    penalty=penalty, count=self.penalty)
            if size == 1 and special != NONE and not cfg.finish_on_special:
                return _("an active special card may not be the last card")
            return _("facing a {penalty} of {count}, the only choices are a {rank} or taking the "
                     "penalty").format(penalty=penalty, count=self.penalty, rank=self.penalty_rank)
        if size == 1 and special != NONE and not cfg.finish_on_special:
            return _("an active special card may not be the last card (finish_on_special is off)")
        if self.suit >= 0 and self.suit != ANY_SUIT:
            return _("does not follow the suit named by the 8 ({suits})").format(suits=suit_words(self.suit))
        return _("no rank or suit match")

    def _drawable(self, cards: Iterable[object]) -> None:
        pool = self.stock[:]
        under = 0
        for card in cards:
            if not isinstance(card, int) or not (0 <= card < 52 or card == UNSEEN):
                raise IllegalMove(_("{card} is not a card of this game").format(card=repr(card)))
            if pool:
                if card in pool:
                    pool.remove(card)
                    continue
                if card in self.under[under:]:
                    # The English says "card(s)" whatever the count, as it always has.
                    raise IllegalMove(_("{card} lies at the bottom of the stock, under {count} other "
                                        "card(s)").format(card=NAME[card], count=len(pool)))
                raise IllegalMove(_("{card} is not in the stock").format(card=NAME[card]))
            if under < len(self.under) and self.under[under] == card:
                under += 1
                continue
            if under >= len(self.under):
                raise IllegalMove(_("{card} cannot be drawn: the stock is empty").format(card=NAME[card]))
            raise IllegalMove(_("{card} is not the next card of the stock: that is {next} (sent under at the "
                                "turn-up)").format(card=NAME[card], next=NAME[self.under[under]]))

    def check_chance(self, action: Action) -> None:
        kind = action[0]
        phase = self.phase
        if phase == P_DEAL:
            self.check_deal(action)
            return
        if phase == P_TURN_UP:
            self.expect(action, TURN_UP)
            self._drawable((action[1],))
            return
        if phase == P_RESHUFFLE:
            if kind != RESHUFFLE:
                raise IllegalMove(_("the stock is empty: the discards must be reshuffled first"))
            return
        if kind == RESHUFFLE:  # the last chance phase: P_DRAWING
            raise IllegalMove(_("no reshuffle now: the stock still has cards"))
        self.expect(action, DRAWN)
        cards = action[1]
        want = min(self.draw_left, self.stock_size())
        if len(cards) != want:
            # The English says "card(s)" whatever the count, as it always has.
            raise IllegalMove(_("{count} card(s) drawn, but the rules draw {want} here").format(
                count=len(cards), want=want))
        self._drawable(cards)

    # -------------------------------------------------------------- applying
    def apply_legal(self, action: Action) -> None:
        kind = action[0]
        if kind == PLAY:
            self._play(action[1], action[2], action[3])
        elif kind == DRAW:
            self._start_draw()
        elif kind == KEEP:
            self.lacks[self.turn] = 0  # the kept card is one that plays
            self._end_turn(self.next_seat(self.turn))
        elif kind == DRAWN:
            self._drawn(action[1])
        elif kind == TURN_UP:
            self._turn_up(action[1])
        elif kind == RESHUFFLE:
            self.stock, self.discard = rebuild(self.discard)
            self.phase = P_DRAWING
        elif kind == DEAL:
            self.take_deal(action[1])
            self.phase = P_TURN_UP
        else:  # pragma: no cover - check() rejects these
            raise ValueError(action)

    def _take_from_stock(self, card: int) -> None:
        stock = self.stock
        if stock:  # stock.take, written out: it runs once per card drawn
            index = stock.index(card)
            stock[index] = stock[-1]
            stock.pop()
        else:
            self.under.pop(0)

    def _turn_up(self, card: int) -> None:
        self._take_from_stock(card)
        cfg = self.cfg
        special = cfg.card_special[card]
        if special != NONE and cfg.first_special == "reflip" and self.stock:
            self.under.append(card)
            return
        self.discard.append(card)
        self.phase = P_PLAY
        dealer = self.dealer
        if special == NONE:
            self.turn = self.next_seat(dealer)
        else:
            self._effect(dealer, card, ANY_SUIT)

    def _effect(self, seat: int, card: int, suit: int) -> None:
        """Apply a played (or turned-up) card's effect and give the turn to whoever is next."""
        special = self.cfg.card_special[card]
        if special == NONE:  # most plays: first, as the hot path
            self.suit = -1
            self._end_turn(self.next_seat(seat), played=True)
            return
        self.suit = suit if special == EIGHT else -1
        steps = 1
        if special in (TWO, THREE):
            self.penalty += 2 if special == TWO else 3
            self.penalty_rank = RANK[card]
        elif special == SKIP:
            steps = 2
        elif special == REVERSE and self.players_in() == 2:
            # A skip (whoever a skip card would have given the turn to), then the direction turns.
            following = self.next_seat(seat, 2)
            self.direction = -self.direction
            self._end_turn(following, played=True)
            return
        elif special == REVERSE:
            self.direction = -self.direction
        self._end_turn(self.next_seat(seat, steps), played=True)

    def _play(self, card: int, suit: int, call: bool) -> None:
        seat = self.turn
        hand = self.hands[seat]
        size = len(hand)
        # A call forgotten (and a penalty for it): Page One with the second-to-last card; Stop with the last.
        forgot = (size <= 2 and not call and (size == 2 or self.cfg.stop_call)
                  and self.cfg.page_one_penalty > 0)
        hand.remove(card)
        self.discard.append(card)
        self.drawn = -1
        if self.penalty and RANK[card] != self.penalty_rank:  # pragma: no cover - not legal
            raise ValueError("penalty must be answered in kind")
        if not hand and not forgot and self._goes_out(seat):
            return
        self._effect(seat, card, suit)
        if forgot and self.phase != P_OVER:
            # Drawn straight after the play; the card's effect applies to the next turn.  A
            # forgotten Stop always draws a card: the one played lies on another.
            self.resume_turn = self.turn
            self._begin_drawing(seat, self.cfg.page_one_penalty, FOR_PAGE_ONE if hand else FOR_STOP)

    def _goes_out(self, seat: int) -> bool:
        """A player has played their last card.  True when the round is over."""
        if not self.cfg.rank_all_places:
            self._end_round(winner=seat)
            return True
        self.out.append(seat)
        self.active[seat] = False
        if self.players_in() <= 1:
            self._end_round(winner=self.out[0])
            return True
        return False

    def _start_draw(self) -> None:
        seat = self.turn
        self.resume_turn = -1
        if self.penalty:  # (_begin_drawing forgets what the seat lacked)
            count = self.penalty
            self.penalty = self.penalty_rank = 0
            self._begin_drawing(seat, count, FOR_PENALTY)
        else:
            self.lacks[seat] = self._seen_lacking(seat)
            self._begin_drawing(seat, 1, FOR_TURN)

    def _seen_lacking(self, seat: int) -> int:
        """What drawing instead of playing shows the table this seat lacks."""
        cfg = self.cfg
        if (cfg.draw_when_able or self.suit == ANY_SUIT
                or (len(self.hands[seat]) == 1 and not cfg.finish_on_special)):
            return 0  # drawing proves nothing then
        if self.suit >= 0:
            mask = 1 << self.suit
        else:
            top = self.discard[-1]
            mask = 1 << SUIT[top] | 1 << (4 + RANK[top])
        if cfg.special[8] == EIGHT:
            mask |= 1 << (4 + 8)
        return mask

    def ruled_out(self, seat: int) -> dict:
        tests = {}
        for other, mask in enumerate(self.lacks):
            if other != seat and mask:
                tests[f"hand {other}"] = (
                    lambda card, m=mask: bool(m >> SUIT[card] & 1 or m >> (4 + RANK[card]) & 1))
        return tests

    def _begin_drawing(self, seat: int, count: int, reason: int) -> None:
        if reason != FOR_TURN:
            self.lacks[seat] = 0  # unseen cards of any kind join the hand
        self.draw_seat = seat
        self.draw_left = count
        self.draw_for = reason
        self.phase = P_DRAWING
        if not self.stock and not self.under:
            self._stock_empty()

    def _stock_empty(self) -> None:
        """Nothing left in the stock while cards must be drawn."""
        if len(self.discard) > 1:
            self.phase = P_RESHUFFLE
        else:
            self._drawing_done(nothing_to_draw=True)

    def _drawn(self, cards: Sequence[int]) -> None:
        seat = self.draw_seat
        hand = self.hands[seat]
        for card in cards:
            self._take_from_stock(card)
            hand.append(card)
        self.draw_left -= len(cards)
        if self.draw_for == FOR_TURN:
            card, size = cards[-1], len(hand)
            if self.is_playable(card, size) if card != UNSEEN else unseen_is(seat, self.playable(size)):
                self.drawn = card
                self.phase = P_AFTER_DRAW
                return
            if self.cfg.draw_until_playable:
                self.draw_left = 1
                if not self.stock and not self.under:
                    self._stock_empty()
                return
            self._drawing_done()
            return
        if self.draw_left == 0:
            self._drawing_done()
        elif not self.stock and not self.under:
            self._stock_empty()

    def _drawing_done(self, nothing_to_draw: bool = False) -> None:
        seat = self.draw_seat
        reason = self.draw_for
        self.draw_left = 0
        self.draw_seat = -1
        if reason in (FOR_PAGE_ONE, FOR_STOP):
            self.phase = P_PLAY
            self.turn = self.resume_turn
            self.resume_turn = -1
            self.turn_empty = self._nothing_to_draw()
            return
        # A turn's draw or a taken penalty: the turn is over.
        self._end_turn(self.next_seat(seat), played=False, stuck=nothing_to_draw)

    def _end_turn(self, next_seat: int, played: bool = False, stuck: bool = False) -> None:
        """Pass the turn.  A whole round of turns that began with nothing to draw and ended with no card
        played ends the round with no winner."""
        ended_empty = self.turn_empty
        self.phase = P_PLAY
        self.turn = next_seat
        self.drawn = -1
        self.turn_empty = self._nothing_to_draw()
        if played or not (ended_empty or stuck):
            self.idle = 0
            return
        self.idle += 1
        if self.idle >= self.players_in():
            self._end_round(winner=None)

    # --------------------------------------------------------------- scoring
    def _end_round(self, winner: int | None) -> None:
        if winner is None:
            reason, out = "no card could be played and nothing was left to draw", self.out
        elif self.cfg.rank_all_places:
            reason, out = "every place played out", self.out
        else:
            reason, out = f"seat {winner} went out", [winner]
        places = places_after(out, [len(hand) for hand in self.hands])
        points = self.cfg.card_points
        self.end_deal([sum(points[c] for c in hand) for hand in self.hands], reason, places, winner)

    def match_over(self) -> str | None:
        rounds = self.cfg.rounds
        return None if self.round < rounds else f"{rounds} rounds played; lowest total wins"

    def deal_alone(self) -> bool:
        return self.cfg.rounds == 1
