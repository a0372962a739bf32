"""Trick-taking Page One as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import JOKER, NAME, RANK, SUIT, SUIT_NAMES
from cardcli.grammar import plural, seat_name
from cardcli.options import cached_config
from cardcli.record_fields import (
    card_field,
    drawn_cards,
    flag_field,
    hands_field,
    only_fields,
    reshuffle_size,
)
from cardcli.variant import Action, Rules, Variant

from . import cpu
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, pack
from .dialogue import TrickPrompts
from .narrate import TrickNarration
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

_FIELDS = {
    "play": {"move", "seat", "card", "call"},
    "draw": {"move", "seat"},
    "deal": {"chance", "hands", "dealer"},
    "draw_cards": {"chance", "seat", "cards"},
    "reshuffle": {"chance", "cards"},
}


class TrickVariant(TrickNarration, TrickTable, TrickPrompts, Variant[TrickState]):
    """Page One played in tricks: follow suit or draw until you can."""

    name = "trick"
    title = "Page One (trick-taking)"
    description = "Follow suit or draw until you can; the joker wins any trick; first to empty a hand wins"
    min_players = 2
    max_players = 8
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_policies = cpu.POLICIES
    score_label = "deals won"

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        check_rules(rules, num_players)

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
                    "hands": [[NAME[c] for c in hand] for hand in action[1]]}
        raise ValueError(f"not a trick action: {action!r}")

    def decode_action(self, state: TrickState, data: Mapping[str, Any]) -> Action:
        move = data.get("move")
        if move is not None:
            if move == "play":
                only_fields(data, _FIELDS["play"], "play")
                card = card_field(data.get("card"))
                return PLAYS[card][flag_field(data, "call")]
            if move == "draw":
                only_fields(data, _FIELDS["draw"], "draw")
                return DRAW_ACTION
            raise ValueError(f"unknown move {move!r} (trick moves: play, draw)")
        chance = data.get("chance")
        if chance == "deal":
            only_fields(data, _FIELDS["deal"], "deal")
            hands = hands_field(data)
            dealer = data.get("dealer")
            if dealer is not None and dealer != state.dealer:
                raise ValueError(f"the dealer of this deal is seat {state.dealer}, not {dealer!r}")
            return (DEAL, hands)
        if chance == "draw":
            only_fields(data, _FIELDS["draw_cards"], "draw")
            return (DRAWN, drawn_cards(data, state.draw_seat if state.phase == P_DRAW else None))
        if chance == "reshuffle":
            only_fields(data, _FIELDS["reshuffle"], "reshuffle")
            reshuffle_size(data, len(state.tricks))
            return RESHUFFLE_ACTION
        raise ValueError(f"unknown chance event {chance!r} (trick: deal, draw, reshuffle)")

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
                if viewer is None or viewer == seat:
                    return f"{who} drew {' '.join(NAME[c] for c in cards)} (forgot Page One)"
                return f"{who} drew {plural(len(cards), 'card')} (forgot Page One)"
            so_far = state.drawn_now + 1
            card = cards[0]
            if viewer is None or viewer == seat:
                text = f"{who} drew {NAME[card]}"
                if card not in state.stock:  # only in a broken record: the check says why
                    return text
                if state.draw_for == D_FOLLOW:
                    if SUIT[card] == state.suit:
                        text += f", a {SUIT_NAMES[state.suit][:-1]}: it must be played"
                    elif card == JOKER:
                        text += " (the joker: kept, drawing goes on)"
                    else:
                        text += ", drawing on"
                else:
                    text += ": it must be played"
                return text + (f" ({so_far} drawn)" if so_far > 1 else "")
            return f"{who} drew a card ({so_far} drawn)" if so_far > 1 else f"{who} drew a card"
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
        if not state.trick:
            text = f"led {NAME[card]}"
            if card == JOKER:
                text += " (the next card sets the suit)"
        elif state.suit < 0:
            text = f"played {NAME[card]} on the led joker"
            if card != JOKER:
                text += f" ({SUIT_NAMES[SUIT[card]]} to follow)"
        else:
            text = f"played {NAME[card]}"
            if card == JOKER:
                text += f" on {SUIT_NAMES[state.suit]}"
            elif SUIT[card] != state.suit:  # only in a broken record: the check says why
                return ("called \"Page One!\" and " if call else "") + text
        if call:
            text = "called \"Page One!\" and " + text
        if len(hand) == 1:
            return text + ": the last card, which wins the deal!"
        if len(state.trick) + 1 == state.num_players:
            best = state.trick[state.win_pos]
            suit = state.suit if state.suit >= 0 else SUIT[card]
            if best != JOKER and (card == JOKER or (SUIT[card] == suit and RANK[card] > RANK[best])):
                winner = seat
            else:
                winner = state.trick_seats[state.win_pos]
            text += f"; the trick goes to {seat_name(winner, names)}"
        if len(hand) == 2 and not call:
            text += " - forgot to call Page One!"
        return text

    def render(self, state: TrickState, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
        return render(state, viewer, names)
