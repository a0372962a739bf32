"""Matching Page One as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.options import cached_config
from cardcli.contract.variant import Action, Rules, Variant
from cardcli.kit.cards import NAME, build_deck
from cardcli.kit.grammar import seat_name
from cardcli.words.narration import dealt_words

from . import cpu
from .config import CONSTRAINTS, OPTIONS, SPECIAL_NAMES, Config, check_rules
from .dialogue import MatchingPrompts
from .language import N_, _
from .narrate import MatchingNarration, called, effect_text, forced, forced_penalty, play_text
from .state import (
    DEAL,
    DRAW,
    DRAWN,
    FOR_PAGE_ONE,
    FOR_PENALTY,
    FOR_STOP,
    KEEP,
    PLAY,
    RESHUFFLE,
    TURN_UP,
    MatchingState,
)
from .table import MatchingTable, render

#: Why cards are drawn, said after them ("ann drew 2 cards (penalty)"), by ``draw_for``.
DRAWN_FOR = {FOR_PENALTY: N_("penalty"), FOR_PAGE_ONE: N_("forgot Page One"), FOR_STOP: N_("forgot Stop")}


def _drawn_text(state: MatchingState, cards: Sequence[int], viewer: int | None,
                names: Sequence[str] | None) -> str:
    """The cards drawn (by name where ``viewer`` may see them), and why (a penalty, a call forgotten)."""
    who = seat_name(state.draw_seat, names) if state.draw_seat >= 0 else _("a seat")  # none draws now
    if viewer is None or viewer == state.draw_seat:
        text = _("{name} drew {cards}").format(name=who, cards=" ".join(NAME[c] for c in cards))
    else:
        text = _.ngettext("{name} drew {count} card", "{name} drew {count} cards", len(cards)).format(
            name=who, count=len(cards))
    why = DRAWN_FOR.get(state.draw_for)
    # Translators: cards drawn ("ann drew 2 cards"), then why ("penalty", "forgot Stop").
    return _("{drew} ({why})").format(drew=text, why=_(why)) if why else text


class MatchingVariant(MatchingNarration, MatchingTable, MatchingPrompts, Variant[MatchingState]):
    name = "matching"
    catalog = _
    title = N_("Page One (matching)")
    description = N_("Crazy-Eights-style race: match rank or suit; 2s draw two, 8s are wild, Js skip, "
                     "Qs reverse")
    min_players = 2
    max_players = 6
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_policies = cpu.POLICIES

    check_rules = staticmethod(check_rules)
    render = staticmethod(render)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return build_deck(1)

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> MatchingState:
        return MatchingState(cached_config(Config, rules), num_players, dealer, build_deck(1))

    events = MatchingState.events

    # ----------------------------------------------------------------- people
    def describe(self, state: MatchingState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            card, call = action[1], action[3]
            text = play_text(state, card, action[2], False)
            notes = [_("forced: the only card that plays")] if forced(state, viewer) else []
            effect = effect_text(state, card, names, call)
            if effect:
                notes.append(effect)
            if notes:  # each note a clause of its own: "(forced: ...; bob must draw 2 ...)"
                text = _("{play} ({notes})").format(play=text, notes="; ".join(notes))
            return called(state, text) if call else text
        if kind == DRAW:
            if state.penalty:
                if forced(state, viewer):
                    return _("took the penalty of {count} ({why})").format(count=state.penalty,
                                                                         why=forced_penalty(state))
                return _("took the penalty of {count}").format(count=state.penalty)
            chose = any(a[0] == PLAY for a in state.legal_actions())
            if state.stock_size() == 0 and len(state.discard) <= 1:
                return (_("chose to draw, but there was nothing to draw: the turn passes") if chose else
                        _("could not play and had nothing to draw"))
            return _("chose to draw") if chose else _("could not play")
        if kind == KEEP:
            if viewer is None or viewer == state.turn:
                return _("kept the drawn {card}").format(card=NAME[state.drawn])
            return _("kept the drawn card")
        if kind == DRAWN:
            return _drawn_text(state, action[1], viewer, names)
        if kind == TURN_UP:
            card = action[1]
            special = state.cfg.card_special[card]
            if special and state.cfg.first_special == "reflip" and len(state.stock) > 1:
                return _("turned up {card} ({special}): sent under, turning again").format(
                    card=NAME[card], special=_(SPECIAL_NAMES[special]))
            return _("turned up {card} as the first top card").format(card=NAME[card])
        if kind == RESHUFFLE:
            count = len(state.discard) - 1
            # The English says "1 discards": both forms are the same so that it stays as it was.
            return _.ngettext("reshuffled {count} discards into a new stock",
                              "reshuffled {count} discards into a new stock", count).format(count=count)
        if kind == DEAL:
            return dealt_words(state, names)
        return repr(action)
