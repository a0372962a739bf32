"""Matching Page One as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.contract.options import cached_config
from cardcli.contract.record_fields import (
    EventFields,
    card_field,
    drawn_cards,
    flag_field,
    hand_names,
    hands_field,
    reshuffle_size,
)
from cardcli.contract.variant import Action, Rules, Variant
from cardcli.kit.cards import NAME, SUITS, build_deck, parse_suit
from cardcli.kit.grammar import seat_name

from . import cpu
from .config import CONSTRAINTS, OPTIONS, SPECIAL_NAMES, Config, check_rules
from .dialogue import MatchingPrompts
from .language import N_, _
from .narrate import MatchingNarration, called, effect_text, forced, forced_penalty, forced_play, play_text
from .state import (
    DEAL,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    FOR_PAGE_ONE,
    FOR_PENALTY,
    FOR_STOP,
    KEEP,
    KEEP_ACTION,
    P_DRAWING,
    PLAY,
    RESHUFFLE,
    RESHUFFLE_ACTION,
    TURN_UP,
    MatchingState,
)
from .table import MatchingTable, render

EVENTS = EventFields("matching", moves={"play": ("card", "suit", "call"), "draw": (), "keep": ()},
                     chances={"deal": ("hands",), "turn_up": ("card",), "draw": ("seat", "cards"),
                              "reshuffle": ("cards",)})


def _card(value: Any) -> int:
    card = card_field(value)
    if card >= 52:
        raise ValueError("there is no joker in matching Page One")
    return card


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

    # ---------------------------------------------------------------- records
    def encode_action(self, state: MatchingState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == PLAY:
            data: dict[str, Any] = {"move": "play", "card": NAME[action[1]]}
            if action[2] >= 0:
                data["suit"] = SUITS[action[2]]
            if action[3]:
                data["call"] = True
            return data
        if kind == DRAW:
            return {"move": "draw"}
        if kind == KEEP:
            return {"move": "keep"}
        if kind == DEAL:
            return {"chance": "deal", "hands": [hand_names(hand) for hand in action[1]]}
        if kind == TURN_UP:
            return {"chance": "turn_up", "card": NAME[action[1]]}
        if kind == DRAWN:
            return {"chance": "draw", "seat": state.draw_seat, "cards": [NAME[c] for c in action[1]]}
        if kind == RESHUFFLE:
            return {"chance": "reshuffle", "cards": len(state.discard) - 1}
        raise ValueError(f"not a matching action: {action!r}")

    def decode_action(self, state: MatchingState, data: Mapping[str, Any]) -> Action:
        event = EVENTS.name(data)
        if "move" in data:
            if event != "play":
                return DRAW_ACTION if event == "draw" else KEEP_ACTION
            card = _card(data.get("card"))
            suit = data.get("suit")
            if suit is not None and not isinstance(suit, str):
                raise ValueError(f"suit must be S, H, D or C, got {suit!r}")
            return (PLAY, card, -1 if suit is None else parse_suit(suit), flag_field(data, "call"))
        if event == "deal":
            return (DEAL, hands_field(data, _card, size=state.cfg.hand_size))
        if event == "turn_up":
            return (TURN_UP, _card(data.get("card")))
        if event == "draw":
            return (DRAWN, drawn_cards(data, state.draw_seat if state.phase == P_DRAWING else None, _card))
        reshuffle_size(data, len(state.discard) - 1)
        return RESHUFFLE_ACTION

    # ----------------------------------------------------------------- people
    def describe(self, state: MatchingState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            card, call = action[1], action[3]
            text = play_text(state, card, action[2], False)
            notes = [forced_play] if forced(state, viewer) else []
            effect = effect_text(state, card, names, call)
            if effect:
                notes.append(effect)
            if notes:
                text += f" ({'; '.join(notes)})"
            return called(state) + text if call else text
        if kind == DRAW:
            if state.penalty:
                return f"took the penalty of {state.penalty}" + (f" ({forced_penalty(state)})"
                                                                 if forced(state, viewer) else "")
            chose = any(a[0] == PLAY for a in state.legal_actions())
            if state.stock_size() == 0 and len(state.discard) <= 1:
                return ("chose to draw, but there was nothing to draw: the turn passes" if chose else
                        "could not play and had nothing to draw")
            return "chose to draw" if chose else "could not play"
        if kind == KEEP:
            shown = viewer is None or viewer == state.turn
            return f"kept the drawn {NAME[state.drawn]}" if shown else "kept the drawn card"
        if kind == DRAWN:
            cards = action[1]
            reason = {FOR_PENALTY: " (penalty)", FOR_PAGE_ONE: " (forgot Page One)",
                      FOR_STOP: " (forgot Stop)"}.get(state.draw_for, "")
            who = seat_name(state.draw_seat, names) if state.draw_seat >= 0 else "a seat"  # none draws now
            if viewer is None or viewer == state.draw_seat:
                return f"{who} drew {' '.join(NAME[c] for c in cards)}{reason}"
            count = len(cards)
            return f"{who} drew {count} card{'s' if count != 1 else ''}{reason}"
        if kind == TURN_UP:
            card = action[1]
            special = state.cfg.card_special[card]
            if special and state.cfg.first_special == "reflip" and len(state.stock) > 1:
                return f"turned up {NAME[card]} ({SPECIAL_NAMES[special]}): sent under, turning again"
            return f"turned up {NAME[card]} as the first top card"
        if kind == RESHUFFLE:
            return f"reshuffled {len(state.discard) - 1} discards into a new stock"
        if kind == DEAL:
            return f"dealt {state.cfg.hand_size} cards each (dealer: {seat_name(state.dealer, names)})"
        return repr(action)
