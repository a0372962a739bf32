"""Trick-taking Page One told to people (the narration ability): the log in
whole sentences, a refused move as it was tried, the rule behind each move
(``replay --explain``), a deal's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.abilities import Narration
from cardcli.contract.variant import Action
from cardcli.kit.cards import JOKER, NAME, SUIT, SUIT_NAMES, SUIT_SINGULAR, sorted_hand
from cardcli.kit.grammar import name_seats, plural, seat_name, seat_names
from cardcli.words.narration import RuleWords, either, round_end, told_with_draws

from .state import D_PENALTY, DRAW, DRAWN, P_DRAW, P_FORCED, PLAY, RESHUFFLE, TrickState


def play_words(state: TrickState, card: int, call: bool, more: str = "") -> str:
    """A play as it was made, before what it does: "led 9H", "played 7S on the
    led joker", 'called "Page One!" and played 8H' (``more`` after the card)."""
    if not state.trick:
        text = f"led {NAME[card]}"
    elif state.suit < 0:
        text = f"played {NAME[card]} on the led joker"
    else:
        text = f"played {NAME[card]}"
    return ("called \"Page One!\" and " if call else "") + text + more


def _drawn(seat: int, state: TrickState, action: Action) -> Any:
    return action[1] if action[0] == DRAWN and state.draw_seat == seat else None


def _rebuilt(seat: int, state: TrickState, action: Action, cards: list[int]) -> bool:
    return action[0] == RESHUFFLE and bool(cards)  # once drawing is under way


#: What each option says in the header when it differs from the default, in this order.
RULE_WORDS: dict[str, RuleWords] = {
    "hand_size": lambda value, changed: f"{value} cards each",
    "decks": lambda value, changed: plural(value, "deck"),
    "jokers": lambda value, changed: "no joker" if value == 0 else plural(value, "joker"),
    "joker_any_time": either("the joker at any time", "the joker only when unable to follow"),
    "joker_last": either("going out on the joker", "no going out on the joker"),
    "page_one_penalty": lambda value, changed: (f"a {value}-card Page One penalty" if value
                                                else "no Page One penalty"),
    "deals": lambda value, changed: plural(value, "deal"),
    "reshuffles": lambda value, changed: ("no limit on stock rebuilds" if value is None
                                          else f"at most {plural(value, 'stock rebuild')} a deal"),
}


class TrickNarration(Narration):
    """The narration ability (see the module docstring)."""

    rule_words = RULE_WORDS

    def describe_attempt(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: never who would win the trick or the deal."""
        kind = action[0]
        if kind == PLAY:
            return play_words(state, action[1], action[2])
        if kind == DRAW:
            return "chose to draw"
        if kind == DRAWN:
            who = seat_name(state.draw_seat, names) if state.draw_seat >= 0 else "a seat"
            text = f"{who} drew {' '.join(NAME[c] for c in action[1])}"
            penalty = state.phase == P_DRAW and state.draw_for == D_PENALTY
            return text + (" (forgot Page One)" if penalty else "")
        if kind == RESHUFFLE:
            return "reshuffled the finished tricks into a new stock"
        return str(self.describe(state, action, names=names))

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, except that drawing is told in one
        line with the play it ends in:

        * "cpu2 could not follow clubs: drew 7 cards, played 4C" (the drawer, and a
          viewer who sees everything, read the cards: "drew 5D 9S JK 4C");
        * "ann played 5H - forgot to call Page One, so drew 5 cards".
        """
        def told(state: TrickState, action: Action, line: str, cards: str, last: TrickState) -> str:
            if action[0] == PLAY:  # "led 3C - forgot to call Page One, so drew 5 cards"
                return f"{line.removesuffix('!')}, so {cards}"
            who = seat_name(state.turn, names)
            if state.suit >= 0:
                return f"{who} could not follow {SUIT_NAMES[state.suit]}: {cards}"
            return f"{who} held only the joker, which may not be the last card: {cards}"

        def then(seat: int, after: TrickState, action: Action) -> str | None:
            if after.phase != P_FORCED or after.turn != seat or action[0] != PLAY:
                return None
            return ", " + self.describe(after, action, viewer=viewer, names=names)

        return told_with_draws(self, events, viewer, names, drawn=_drawn, rebuilt=_rebuilt,
                               told=told, then=then,
                               on_the_way="the finished tricks were shuffled into a new stock on the way")

    def rule_behind(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        """The rule that allowed or forced a move, from public knowledge only.
        The cards drawn need no words of their own: the draw said why, and the
        play that ends it says the rest."""
        kind = action[0]
        if kind == PLAY:
            return _explain_play(state, action, names)
        if kind == DRAW:
            if state.suit >= 0:
                one = SUIT_SINGULAR[state.suit]
                if not state.can_draw():
                    return f"must draw: no {one} in hand, and nothing is left to draw: the hand is called off"
                led = SUIT_NAMES[state.suit]
                return f"must draw: no {one} in hand; drawing to follow {led} until a {one} comes"
            return "holding only the joker, which may not be the last card: a card is drawn to play"
        if kind == RESHUFFLE:
            return "the stock is empty: the finished tricks are shuffled into a new stock"
        return ""

    def round_summary(self, state: TrickState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        """When ``action`` ends a deal of a longer match: who won it, every hand
        as it ended, and the deals won so far."""
        return self._summary(state, action, names,
                             round_end(state, action, "deal_no") if state.cfg.deals > 1 else None)

    def last_round_summary(self, state: TrickState, action: Action,
                           names: Sequence[str] | None = None) -> str | None:
        """The same for the match's last deal, which ends it."""
        return self._summary(state, action, names,
                             round_end(state, action, "deal_no", last=True) if state.cfg.deals > 1 else None)

    def _summary(self, state: TrickState, action: Action, names: Sequence[str] | None,
                 after: TrickState | None) -> str | None:
        if after is None:
            return None
        over = after.result() is not None  # the last deal: the hands stay as it ended
        hands = after.hands if over else getattr(after, "last_hands", None) or state.hands
        n = state.num_players
        labels = seat_names(names, n)
        width = max(len(x) for x in labels)
        lines = [f"Deal {state.deal_no + 1} of {state.cfg.deals} is over: "
                 f"{name_seats(after.deal_reason, labels)}."]
        for seat in range(n):
            cards = " ".join(NAME[c] for c in sorted_hand(hands[seat])) or "no cards"
            lines.append(f"  {labels[seat]:<{width}}  {plural(after.tally[seat], 'deal')} won  "
                         f"left holding: {cards}")
        return "\n".join(lines)


# -------------------------------------------------------------- the rules
def _explain_play(state: TrickState, action: Any, names: Sequence[str] | None) -> str:
    _, card, call = action
    cfg = state.cfg
    seat = state.turn
    hand = state.hands[seat]
    suit = state.suit
    if state.phase == P_FORCED:
        if suit >= 0:
            text = f"the drawn {NAME[card]} follows {SUIT_NAMES[suit]}: it must be played at once"
        else:
            text = f"the drawn {NAME[card]} must be played at once"
    elif not state.trick:
        text = "leads: any card may lead"
        if card == JOKER:
            text += "; a led joker lets the next card set the suit"
    elif suit < 0:
        text = "after a led joker any card may follow, and its suit is the one to follow"
    elif card == JOKER:
        if cfg.joker_any_time:
            text = "the joker may be played at any time, and wins any trick"
        else:
            text = f"the joker, played for want of a {SUIT_SINGULAR[suit]} (it wins any trick)"
    else:
        text = f"follows {SUIT_NAMES[suit]}"
    effects = []
    if len(hand) == 1:
        effects.append("the last card: wins the deal")
    else:
        if len(state.trick) + 1 == state.num_players:
            winner = state.winner_with(card)
            best = state.trick[state.win_pos]
            led = suit if suit >= 0 else SUIT[card]
            why = "the joker" if (card == JOKER and winner == seat) or (
                winner != seat and best == JOKER) else f"the highest {SUIT_SINGULAR[led]}"
            effects.append(f"the trick is complete: {seat_name(winner, names)} takes it with {why} "
                           "and leads next")
        if len(hand) == 2:
            if call:
                effects.append("Page One! called with the play that leaves one card")
            elif cfg.page_one_penalty:
                effects.append(f"Page One! not called: {cfg.page_one_penalty} cards to draw")
    return "; ".join([text, *effects])
