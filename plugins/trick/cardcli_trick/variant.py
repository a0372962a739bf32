"""Trick-taking Page One as a cardcli variant: its records and its words for each event."""

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
from cardcli.kit.cards import JOKER, NAME, SUIT, SUIT_NAMES, SUIT_SINGULAR
from cardcli.kit.grammar import cards_told, plural, seat_name

from . import cpu
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, pack
from .dialogue import TrickPrompts
from .language import N_, _
from .narrate import TrickNarration, play_words
from .state import (
    D_FOLLOW,
    D_PENALTY,
    DEAL,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    P_DRAW,
    PLAY,
    PLAYS,
    RESHUFFLE,
    RESHUFFLE_ACTION,
    TrickState,
)
from .table import TrickTable, render, tally_text

EVENTS = EventFields("trick", moves={"play": ("card", "call"), "draw": ()},
                     chances={"deal": ("hands", "dealer"), "draw": ("seat", "cards"),
                              "reshuffle": ("cards",)})


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
    score_label = "deals won"

    check_rules = staticmethod(check_rules)
    render = staticmethod(render)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return pack(rules)

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> TrickState:
        return TrickState(cached_config(Config, rules), num_players, dealer, pack(rules))

    # ---------------------------------------------------------------- records
    def encode_action(self, state: TrickState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == PLAY:
            data: dict[str, Any] = {"move": "play", "card": NAME[action[1]]}
            if action[2]:
                data["call"] = True
            return data
        if kind == DRAW:
            return {"move": "draw"}
        if kind == DRAWN:
            return {"chance": "draw", "seat": state.draw_seat, "cards": [NAME[c] for c in action[1]]}
        if kind == RESHUFFLE:
            return {"chance": "reshuffle", "cards": len(state.tricks)}
        if kind == DEAL:
            return {"chance": "deal", "dealer": state.dealer,
                    "hands": [hand_names(hand) for hand in action[1]]}
        raise ValueError(f"not a trick action: {action!r}")

    def decode_action(self, state: TrickState, data: Mapping[str, Any]) -> Action:
        event = EVENTS.name(data)
        if "move" in data:
            if event == "draw":
                return DRAW_ACTION
            return PLAYS[card_field(data.get("card"))][flag_field(data, "call")]
        if event == "deal":
            hands = hands_field(data, size=state.cfg.hand_size)
            dealer = data.get("dealer")
            if dealer is not None and dealer != state.dealer:
                raise ValueError(f"the dealer of this deal is seat {state.dealer}, not {dealer!r}")
            return (DEAL, hands)
        if event == "draw":
            return (DRAWN, drawn_cards(data, state.draw_seat if state.phase == P_DRAW else None))
        reshuffle_size(data, len(state.tricks))
        return RESHUFFLE_ACTION

    # ----------------------------------------------------------------- people
    def describe(self, state: TrickState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            return self._describe_play(state, action[1], action[2], names)
        if kind == DRAW:
            if state.suit >= 0:
                if not state.can_draw():
                    return (f"cannot follow {SUIT_NAMES[state.suit]} and drew with nothing left to draw: "
                            "the hand is called off")
                return f"cannot follow {SUIT_NAMES[state.suit]}: drawing from the stock"
            return "holding only the joker (it may not be the last card): drawing a card to play"
        if kind == DRAWN:
            seat = state.draw_seat
            who = seat_name(seat, names)
            cards = action[1]
            if state.draw_for == D_PENALTY:
                told = cards_told([NAME[c] for c in cards], viewer in (None, seat))
                return f"{who} drew {told} (forgot Page One)"
            card, so_far = cards[0], state.drawn_now + 1
            count = f" ({so_far} drawn)" if so_far > 1 else ""
            if viewer not in (None, seat):
                return f"{who} drew a card{count}"
            if card not in state.stock:  # only in a broken record: the check says why
                return f"{who} drew {NAME[card]}"
            if state.draw_for != D_FOLLOW:
                how = ": it must be played"
            elif SUIT[card] == state.suit:
                how = f", a {SUIT_SINGULAR[state.suit]}: it must be played"
            else:
                how = " (the joker: kept, drawing goes on)" if card == JOKER else ", drawing on"
            return f"{who} drew {NAME[card]}{how}{count}"
        if kind == RESHUFFLE:
            return (f"the stock is empty: {plural(len(state.tricks), 'card')} of finished tricks "
                    f"shuffled into a new stock")
        if kind == DEAL:
            text = ""
            cfg = state.cfg
            if cfg.deals > 1:
                text = f"Deal {state.deal_no + 1} of {cfg.deals}: "
            text += f"dealt {cfg.hand_size} cards each (dealer: {seat_name(state.dealer, names)})"
            if state.deal_no > 0:
                text += ". " + tally_text(state, names)
            return text
        return repr(action)

    def _describe_play(self, state: TrickState, card: int, call: bool,
                       names: Sequence[str] | None) -> str:
        seat = state.turn
        hand = state.hands[seat]
        # The trick's last card, or the deal's: nobody is left to follow it.
        followed = len(state.trick) + 1 < state.num_players and len(hand) > 1
        if not state.trick:
            more = " (the next card sets the suit)" if card == JOKER else ""
        elif state.suit < 0:
            more = f" ({SUIT_NAMES[SUIT[card]]} to follow)" if card != JOKER and followed else ""
        elif card == JOKER:
            more = f" on {SUIT_NAMES[state.suit]}"
        elif SUIT[card] != state.suit:  # only in a broken record: the check says why
            return play_words(state, card, call)
        else:
            more = ""
        text = play_words(state, card, call, more)
        if len(hand) == 1:
            return text + ": the last card, which wins the deal!"
        if len(state.trick) + 1 == state.num_players:
            text += f"; the trick goes to {seat_name(state.winner_with(card), names)}"
        if len(hand) == 2 and not call:
            text += " - forgot to call Page One!"
        return text
