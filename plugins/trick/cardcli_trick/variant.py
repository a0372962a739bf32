"""Trick-taking Page One as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.options import cached_config
from cardcli.contract.variant import Action, Rules, Variant
from cardcli.kit.cards import JOKER, NAME, SUIT, suit_word, suit_words
from cardcli.kit.grammar import cards_told, seat_name
from cardcli.words.narration import dealt_words

from . import cpu
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, pack
from .dialogue import TrickPrompts
from .language import N_, _
from .narrate import TrickNarration, play_told
from .state import D_FOLLOW, D_PENALTY, DEAL, DRAW, DRAWN, PLAY, RESHUFFLE, TrickState
from .table import TrickTable, render, tally_text


class TrickVariant(TrickNarration, TrickTable, TrickPrompts, Variant[TrickState]):
    """Page One played in tricks: follow suit or draw until you can."""

    name = "trick"
    catalog = _
    title = N_("Page One (trick-taking)")
    description = N_("Follow suit or draw until you can; the joker wins any trick; first to empty a hand "
                     "wins")
    min_players = 2
    max_players = 8
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_policies = cpu.POLICIES
    score_label = N_("deals won")

    check_rules = staticmethod(check_rules)
    render = staticmethod(render)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return pack(rules)

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> TrickState:
        return TrickState(cached_config(Config, rules), num_players, dealer, pack(rules))

    events = TrickState.events

    # ----------------------------------------------------------------- people
    def describe(self, state: TrickState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            return play_told(state, action[1], action[2], names)
        if kind == DRAW:
            if state.suit >= 0:
                if not state.can_draw():
                    return _("cannot follow {suits} and drew with nothing left to draw: the hand is called "
                             "off").format(suits=suit_words(state.suit))
                return _("cannot follow {suits}: drawing from the stock").format(suits=suit_words(state.suit))
            return _("holding only the joker (it may not be the last card): drawing a card to play")
        if kind == DRAWN:
            return self._describe_drawn(state, action[1], viewer, names)
        if kind == RESHUFFLE:
            count = len(state.tricks)
            return _.ngettext("the stock is empty: {count:,} card of finished tricks shuffled into a new "
                              "stock",
                              "the stock is empty: {count:,} cards of finished tricks shuffled into a new "
                              "stock", count).format(count=count)
        if kind == DEAL:
            cfg = state.cfg
            if cfg.deals == 1:
                return dealt_words(state, names)
            count, dealer, deal = cfg.hand_size, seat_name(state.dealer, names), state.round + 1
            if state.round == 0:
                return _.ngettext("Deal {deal} of {deals}: dealt {count} cards each (dealer: {name})",
                                  "Deal {deal} of {deals}: dealt {count} cards each (dealer: {name})",
                                  count).format(deal=deal, deals=cfg.deals, count=count, name=dealer)
            # ``tally``: the deals won so far, a sentence of its own ("Deal 1 won by ann; deals won: ...").
            return _.ngettext("Deal {deal} of {deals}: dealt {count} cards each (dealer: {name}). {tally}",
                              "Deal {deal} of {deals}: dealt {count} cards each (dealer: {name}). {tally}",
                              count).format(deal=deal, deals=cfg.deals, count=count, name=dealer,
                                            tally=tally_text(state, names))
        return repr(action)

    def _describe_drawn(self, state: TrickState, cards: Sequence[int], viewer: int | None,
                        names: Sequence[str] | None) -> str:
        """Cards drawn for the penalty, or one at a time to follow (or to play), by name where ``viewer``
        may see them."""
        seat = state.draw_seat
        who = seat_name(seat, names)
        if state.draw_for == D_PENALTY:
            told = cards_told([NAME[c] for c in cards], viewer in (None, seat))
            return _("{name} drew {cards} (forgot Page One)").format(name=who, cards=told)
        card, so_far = cards[0], state.drawn_now + 1
        counted = so_far > 1  # "(3 drawn)" after the card
        if viewer not in (None, seat):
            return (_("{name} drew a card ({count} drawn)") if counted
                    else _("{name} drew a card")).format(name=who, count=so_far)
        if card not in state.stock:  # only in a broken record: the check says why
            return _("{name} drew {card}").format(name=who, card=NAME[card])
        if state.draw_for != D_FOLLOW:
            text = (_("{name} drew {card}: it must be played ({count} drawn)") if counted
                    else _("{name} drew {card}: it must be played"))
        elif SUIT[card] == state.suit:
            text = (_("{name} drew {card}, a {suit}: it must be played ({count} drawn)") if counted
                    else _("{name} drew {card}, a {suit}: it must be played"))
        elif card == JOKER:
            text = (_("{name} drew {card} (the joker: kept, drawing goes on) ({count} drawn)") if counted
                    else _("{name} drew {card} (the joker: kept, drawing goes on)"))
        else:
            text = (_("{name} drew {card}, drawing on ({count} drawn)") if counted
                    else _("{name} drew {card}, drawing on"))
        suit = suit_word(state.suit) if state.suit >= 0 else ""
        return text.format(name=who, card=NAME[card], suit=suit, count=so_far)
