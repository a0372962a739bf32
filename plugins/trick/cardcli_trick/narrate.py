"""Trick-taking Page One told to people: the log in whole sentences, the
rule behind each move (``replay --explain``), a deal's end, the house rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import JOKER, NAME, RANK, SUIT, SUIT_NAMES, sorted_hand
from cardcli.variant import after_move, event_line
from cardcli.words import cards_told, name_seats, plural, seat_name

from .state import DRAW, DRAWN, P_FORCED, PLAY, RESHUFFLE, TrickState


def _singular(suit: int) -> str:
    return SUIT_NAMES[suit][:-1]


# ----------------------------------------------------------------- the log
def describe_events(variant: Any, events: Sequence[tuple[TrickState, Any]], viewer: int | None,
                    names: Sequence[str] | None) -> list[str]:
    """Each event as ``describe`` says it, except that drawing is told in one
    line with the play it ends in:

    * "cpu2 could not follow clubs: drew 7 cards, played 4C" (the drawer, and a
      viewer who sees everything, read the cards: "drew 5D 9S JK 4C");
    * "ann played 5H - forgot to call Page One!: drew 5 cards".
    """
    lines: list[str] = []
    index = 0
    while index < len(events):
        state, action = events[index]
        seat = state.current_player()
        index += 1
        if seat < 0 or action[0] not in (DRAW, PLAY):
            lines.append(event_line(variant, state, action, viewer, names))
            continue
        drew: list[int] = []
        rebuilt = False
        last: TrickState | None = None
        while index < len(events):
            later, event = events[index]
            if event[0] == DRAWN and later.draw_seat == seat:
                drew.extend(event[1])
                last = later
            elif event[0] == RESHUFFLE and drew:
                rebuilt = True
            else:
                break
            index += 1
        if last is None:
            lines.append(event_line(variant, state, action, viewer, names))
            continue
        cards = "drew " + cards_told([NAME[c] for c in drew], viewer is None or viewer == seat)
        if rebuilt:
            cards += " (the finished tricks were shuffled into a new stock on the way)"
        who = seat_name(seat, names)
        if action[0] == PLAY:
            line = event_line(variant, state, action, viewer, names) + ": " + cards
        elif state.suit >= 0:
            line = f"{who} could not follow {SUIT_NAMES[state.suit]}: {cards}"
        else:
            line = f"{who} held only the joker, which may not be the last card: {cards}"
        if index < len(events):
            after, then = events[index]
            if after.phase == P_FORCED and after.turn == seat and then[0] == PLAY:
                index += 1
                line += ", " + variant.describe(after, then, viewer=viewer, names=names)
        lines.append(line)
    return lines


# -------------------------------------------------------------- the rules
def explain(state: TrickState, action: Any, names: Sequence[str] | None) -> str:
    """The rule that allowed or forced a move, from public knowledge only.
    The cards drawn need no words of their own: the draw said why, and the
    play that ends it says the rest."""
    kind = action[0]
    if kind == PLAY:
        return _explain_play(state, action, names)
    if kind == DRAW:
        if state.suit >= 0:
            one = _singular(state.suit)
            if not state.can_draw():
                return f"must draw: no {one} in hand, and nothing is left to draw: the hand is called off"
            led = SUIT_NAMES[state.suit]
            return f"must draw: no {one} in hand; drawing to follow {led} until a {one} comes"
        return "holding only the joker, which may not be the last card: a card is drawn to play"
    if kind == RESHUFFLE:
        return "the stock is empty: the finished tricks are shuffled into a new stock"
    return ""


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
            text = f"the joker, played for want of a {_singular(suit)} (it wins any trick)"
    else:
        text = f"follows {SUIT_NAMES[suit]}"
    effects = []
    if len(hand) == 1:
        effects.append("the last card: wins the deal")
    else:
        if len(state.trick) + 1 == state.num_players:
            best = state.trick[state.win_pos]
            led = suit if suit >= 0 else SUIT[card]
            if best != JOKER and (card == JOKER or (SUIT[card] == led and RANK[card] > RANK[best])):
                winner = seat
            else:
                winner = state.trick_seats[state.win_pos]
            why = "the joker" if (card == JOKER and winner == seat) or (
                winner != seat and best == JOKER) else f"the highest {_singular(led)}"
            effects.append(f"the trick is complete: {seat_name(winner, names)} takes it with {why} "
                           "and leads next")
        if len(hand) == 2:
            if call:
                effects.append("Page One! called with the play that leaves one card")
            elif cfg.page_one_penalty:
                effects.append(f"Page One! not called: {cfg.page_one_penalty} cards to draw")
    return "; ".join([text, *effects])


# ------------------------------------------------------------ a deal's end
def round_summary(state: TrickState, action: Any, names: Sequence[str] | None) -> str | None:
    """When ``action`` ends a deal of a longer match: who won it, every hand
    as it ended, and the deals won so far."""
    if state.cfg.deals == 1:
        return None
    after = after_move(state, action)
    if after is None or after.deal_no == state.deal_no or after.result() is not None:
        return None
    hands = getattr(after, "last_hands", None) or state.hands
    n = state.num_players
    labels = [seat_name(s, names) for s in range(n)]
    width = max(len(x) for x in labels)
    lines = [f"Deal {state.deal_no + 1} of {state.cfg.deals} is over: "
             f"{name_seats(after.deal_reason, labels)}."]
    for seat in range(n):
        cards = " ".join(NAME[c] for c in sorted_hand(hands[seat])) or "no cards"
        lines.append(f"  {labels[seat]:<{width}}  {plural(after.tally[seat], 'deal')} won  "
                     f"left holding: {cards}")
    return "\n".join(lines)


# ---------------------------------------------------------- the house rules
def rules_summary(changed: Mapping[str, Any]) -> list[str]:
    """The house rules ``changed`` from the defaults
    (:func:`cardcli.options.changed_options`), in a few words each."""
    said: list[str] = []
    if "hand_size" in changed:
        said.append(f"{changed['hand_size']} cards each")
    if "decks" in changed:
        said.append(plural(changed["decks"], "deck"))
    if "jokers" in changed:
        said.append("no joker" if changed["jokers"] == 0 else plural(changed["jokers"], "joker"))
    if "joker_any_time" in changed:
        said.append("the joker at any time" if changed["joker_any_time"]
                    else "the joker only when unable to follow")
    if "joker_last" in changed:
        said.append("going out on the joker" if changed["joker_last"] else "no going out on the joker")
    if "page_one_penalty" in changed:
        penalty = changed["page_one_penalty"]
        said.append(f"a {penalty}-card Page One penalty" if penalty else "no Page One penalty")
    if "deals" in changed:
        said.append(plural(changed["deals"], "deal"))
    if "reshuffles" in changed:
        limit = changed["reshuffles"]
        said.append("no limit on stock rebuilds" if limit is None
                    else f"at most {plural(limit, 'stock rebuild')} a deal")
    return said


__all__ = ["describe_events", "explain", "round_summary", "rules_summary"]
