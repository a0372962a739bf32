"""Matching Page One told to people (the narration ability): the log in
whole sentences, a refused move as it was tried, the rule behind each move
(``replay --explain``), a round's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.abilities import Narration
from cardcli.contract.variant import Action
from cardcli.kit.cards import NAME, RANK, RANK_NAMES, SUIT, SUIT_NAMES, SUIT_SINGULAR, sorted_hand
from cardcli.kit.grammar import join_and, name_seats, plural, seat_name, seat_names
from cardcli.words.narration import RuleWords, either, round_end, told_with_draws

from .config import EIGHT, NONE, REVERSE, SKIP, THREE, TWO
from .state import (
    ANY_SUIT,
    DRAW,
    DRAWN,
    FOR_PAGE_ONE,
    FOR_STOP,
    KEEP,
    P_AFTER_DRAW,
    PLAY,
    RESHUFFLE,
    TURN_UP,
    MatchingState,
)

#: What each option says in the header when it differs from the default, in this order.
RULE_WORDS: dict[str, RuleWords] = {
    "hand_size": lambda value, changed: f"{value} cards each",
    "skip": lambda value, changed: "" if value else "no skip card",
    "skip_rank": lambda value, changed: "" if changed.get("skip") is False else f"{value} skips",
    "reverse": lambda value, changed: "" if value else "no reverse card",
    "reverse_rank": lambda value, changed: "" if changed.get("reverse") is False else f"{value} reverses",
    "draw_two": either("2s draw two", "2s are plain cards"),
    "draw_three": either("3s draw three", "3s are plain cards"),
    "stack_twos": either("penalties pass on", "no stacking"),
    "wild_eight": either("8s are wild", "8s are not wild"),
    "first_special": lambda value, changed: ("a special first card takes effect" if value == "apply"
                                             else "a special first card is sent under"),
    "draw_when_able": either("drawing allowed with a card that plays", "no drawing with a card that plays"),
    "draw_until_playable": either("draw until a card plays", "draw one card"),
    "page_one_penalty": lambda value, changed: (f"a {value}-card Page One penalty" if value
                                                else "no Page One penalty"),
    "stop_call": either("\"Stop!\" called with the last card", "no Stop call"),
    "finish_on_special": either("going out on a special card", "no going out on a special card"),
    "rank_all_places": either("play on for every place", "the first out wins"),
    "rounds": lambda value, changed: plural(value, "round"),
}


class MatchingNarration(Narration):
    """Matching Page One told to people (see the module docstring)."""

    rule_words = RULE_WORDS

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, except that a draw is told in one
        line with what it drew and what the drawer did with it:

        * "cpu1 took the penalty: drew 2 cards" (not "took the penalty (draws 2)"
          then "drew 2 cards (penalty)");
        * "cpu2 could not play: drew a card and played 4C on 9C";
        * "ann played 5H on 5S - forgot to call Page One, so drew 2 cards" (or
          "forgot to call Stop", with the last card).
        """
        def told(state: MatchingState, action: Action, line: str, cards: str, last: MatchingState) -> str:
            if action[0] == DRAW and state.penalty:
                line = f"{seat_name(state.turn, names)} took the penalty"
                if forced(state, viewer):
                    line += f" ({forced_penalty(state)})"
            elif action[0] == PLAY and last.draw_for in (FOR_PAGE_ONE, FOR_STOP):
                forgot = "Page One" if last.draw_for == FOR_PAGE_ONE else "Stop"
                return f"{line} - forgot to call {forgot}, so {cards}"
            return f"{line}: {cards}"

        def then(seat: int, after: MatchingState, action: Action) -> str | None:
            if after.current_player() != seat or after.phase != P_AFTER_DRAW or action[0] not in (PLAY, KEEP):
                return None
            if action[0] == KEEP:
                return " and kept it"
            played = self.describe(after, action, viewer, names)
            # 'drew a card, called "Page One!" and played ...': one "and" to a line.
            return (", " if played.startswith(CALLED_ANY) else " and ") + played

        return told_with_draws(self, events, viewer, names, drawn=_drawn, rebuilt=_rebuilt,
                               told=told, then=then,
                               on_the_way="the discards were reshuffled into a new stock on the way")

    def describe_attempt(self, state: MatchingState, action: Action,
                         names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: no effects of the card."""
        kind = action[0]
        if kind == PLAY:
            return play_text(state, action[1], action[2], action[3])
        if kind == DRAW:
            return "took the penalty" if state.penalty else "chose to draw"
        if kind == KEEP:
            return "chose to keep a drawn card"
        if kind == TURN_UP:
            return f"turned up {NAME[action[1]]}"
        return str(self.describe(state, action, names=names))

    def rule_behind(self, state: MatchingState, action: Action, names: Sequence[str] | None = None) -> str:
        """The rule that allowed or forced a move, from public knowledge only."""
        kind = action[0]
        cfg = state.cfg
        if kind == PLAY:
            return _explain_play(state, action, names)
        if kind == DRAW:
            if state.penalty:
                rank = state.penalty_rank
                if not cfg.stack_twos:
                    return f"facing a penalty of {state.penalty}: it must be taken (no stacking)"
                return (f"takes the penalty of {state.penalty}: it could be passed on only with a "
                        f"{RANK_NAMES[rank]}")
            if cfg.draw_when_able:
                return "draws: a player may draw even holding a card that plays (draw_when_able)"
            return "must draw: " + _lacking(state)
        if kind == KEEP:
            return "a drawn card that plays may be played at once or kept"
        if kind == TURN_UP:
            special = cfg.card_special[action[1]]
            if special != NONE and cfg.first_special == "reflip" and len(state.stock) > 1:
                return "a special card turned up first is sent under the stock and another turned"
            if special != NONE:
                return "a special card turned up first takes effect on the first player"
            return ""
        if kind == RESHUFFLE:
            return "the stock is empty: the discards under the top card become the new stock"
        return ""  # the cards drawn: the move that made them drawn said why

    def round_summary(self, state: MatchingState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        """When ``action`` ends a round of a longer game: every hand as it ended,
        the round's scores and the totals."""
        return self._summary(state, action, names, round_end(state, action) if state.cfg.rounds > 1 else None)

    def last_round_summary(self, state: MatchingState, action: Action,
                           names: Sequence[str] | None = None) -> str | None:
        """The same for the last round of a longer game, which ends it."""
        return self._summary(state, action, names,
                             round_end(state, action, last=True) if state.cfg.rounds > 1 else None)

    def _summary(self, state: MatchingState, action: Action, names: Sequence[str] | None,
                 after: MatchingState | None) -> str | None:
        ended: Any
        if after is not None and after.result() is not None:  # the last round: the hands stay as it ended
            ended = (after.hands, after.round_reason)
        else:
            ended = getattr(after, "last_round", None)
        if after is None or ended is None:
            return None
        hands, why = ended
        n = state.num_players
        labels = seat_names(names, n)
        width = max(len(x) for x in labels)
        scores = after.round_scores[-1]
        score_width = max(len(str(x)) for x in (*scores, *after.totals))
        why = name_seats(why, labels)
        lines = [f"Round {state.round + 1} of {state.cfg.rounds} is over: {why}.",
                 "Cards left in hand count against their holder:"]
        for seat in range(n):
            cards = " ".join(NAME[c] for c in sorted_hand(hands[seat])) or "-"
            lines.append(f"  {labels[seat]:<{width}}  {scores[seat]:>{score_width}} points  "
                         f"(total {after.totals[seat]:>{score_width}})  {cards}")
        return "\n".join(lines)


# ------------------------------------------------------- a forced move
#: How a play the rules forced is told (beside the card's effect, if any).
forced_play = "forced: the only card that plays"


def forced(state: MatchingState, viewer: int | None) -> bool:
    """Whether the decision about to be made in ``state`` is the only legal
    one, told to ``viewer`` only when it is theirs (or to a viewer of every
    hand): how many moves another player had depends on cards hidden from
    the rest of the table."""
    if viewer is not None and viewer != state.turn:
        return False
    return state.current_player() >= 0 and len(state.legal_actions()) == 1


def forced_penalty(state: MatchingState) -> str:
    """Why a penalty had to be taken: no card answers it."""
    if not state.cfg.stack_twos:
        return "forced: no stacking"
    return f"forced: no {RANK_NAMES[state.penalty_rank]} to pass it on"


# ------------------------------------------------------- a refused move
def _drawn(seat: int, state: MatchingState, action: Action) -> Any:
    return action[1] if action[0] == DRAWN and state.draw_seat == seat else None


def _rebuilt(seat: int, state: MatchingState, action: Action, cards: list[int]) -> bool:
    return action[0] == RESHUFFLE and state.draw_seat == seat


def play_text(state: MatchingState, card: int, suit: int, call: bool) -> str:
    """``played 8C on JH (spades named), naming hearts``: the play itself, no effect."""
    text = f"played {NAME[card]} on {NAME[state.top]}" if state.discard else f"played {NAME[card]}"
    if state.suit >= 0 and state.suit != ANY_SUIT:
        text += f" ({SUIT_NAMES[state.suit]} named)"
    if 0 <= suit <= 3:
        text += f", naming {SUIT_NAMES[suit]}"
    return called(state) + text if call else text


#: How a play with the Page One call starts; with the Stop call; with either.
CALLED = "called \"Page One!\" and "
CALLED_STOP = "called \"Stop!\" and "
CALLED_ANY = "called \""


def called(state: MatchingState) -> str:
    """How a play with its call starts: Stop with the last card (where
    ``stop_call`` is on), else Page One (a call with another card is
    refused in Page One's words)."""
    return CALLED_STOP if state.cfg.stop_call and len(state.hands[state.turn]) == 1 else CALLED


def goes_out(state: MatchingState, call: bool) -> bool:
    """Whether the play about to be made (``call``: with its call) is the
    player's last card and takes them out: a forgotten Stop draws the
    penalty instead (unless there is none: then the call is a formality)."""
    cfg = state.cfg
    return len(state.hands[state.turn]) == 1 and (call or not cfg.stop_call or not cfg.page_one_penalty)


def effect_text(state: MatchingState, card: int, names: Sequence[str] | None, call: bool = True) -> str:
    """What a special card does to the table, for the log (``call``: the play's)."""
    kind = state.cfg.card_special[card]
    seat = state.turn
    if kind == 0 or (goes_out(state, call) and not state.cfg.rank_all_places):
        return ""
    following = seat_name(state.next_seat(seat), names)
    if kind in (TWO, THREE):
        return f"{following} must draw {state.penalty + (2 if kind == TWO else 3)} or pass it on"
    if kind == SKIP:
        return f"skips {following}"
    if kind == REVERSE:
        if state.players_in() == 2:
            return f"skips {following}"
        return "reverses the direction"
    return ""


def _lacking(state: MatchingState) -> str:
    """Why nothing plays, in what the hand lacks: "no spade and no 8 in hand"."""
    cfg = state.cfg
    named = 0 <= state.suit < ANY_SUIT
    if named:
        parts = [f"no {SUIT_SINGULAR[state.suit]}"]
    else:
        top = state.discard[-1]
        parts = [f"no {SUIT_SINGULAR[SUIT[top]]}", f"no {RANK_NAMES[RANK[top]]}"]
    if cfg.special[8] == EIGHT:
        parts.append("no 8")
    text = join_and(parts) + " in hand"
    if named:
        text += f" ({SUIT_NAMES[state.suit]} named by the 8)"
    if len(state.hands[state.turn]) == 1 and not cfg.finish_on_special:
        text += " (or only a special card, which may not be the last)"
    return text


def _explain_play(state: MatchingState, action: Any, names: Sequence[str] | None) -> str:
    _, card, suit, call = action
    cfg = state.cfg
    seat = state.turn
    special = cfg.card_special[card]
    hand = state.hands[seat]
    rank_name = RANK_NAMES[RANK[card]]
    if state.phase == P_AFTER_DRAW:
        text = f"the drawn {NAME[card]} plays, so it may be played at once"
    elif state.penalty:
        grown = state.penalty + (2 if special == TWO else 3)
        text = (f"a {rank_name} on a pending {rank_name}: the penalty grows to {grown} and passes to "
                f"{seat_name(state.next_seat(seat), names)}")
    elif special == EIGHT:
        text = "8s are wild: an 8 goes on anything"
    elif state.suit == ANY_SUIT:
        text = "anything may follow the 8 turned up first"
    elif state.suit >= 0:
        text = f"follows {SUIT_NAMES[state.suit]}, the suit the 8 named"
    else:
        top = state.discard[-1]
        same_rank, same_suit = RANK[card] == RANK[top], SUIT[card] == SUIT[top]
        if same_rank and same_suit:  # pragma: no cover - one deck
            text = f"matches {NAME[top]}"
        elif same_rank:
            text = f"matches the rank of {NAME[top]}"
        else:
            text = f"matches the suit of {NAME[top]} ({SUIT_NAMES[SUIT[top]]})"
    effects = []
    if special == EIGHT and 0 <= suit <= 3:
        effects.append(f"it names {SUIT_NAMES[suit]}")
    out = goes_out(state, call)
    if len(hand) == 1 and cfg.stop_call:
        if call:
            effects.append("Stop! called with the last card: out")
        elif out:
            effects.append("the last card: out (Stop! not called: with no penalty the call is a formality)")
        else:
            effects.append(f"Stop! not called with the last card: {cfg.page_one_penalty} cards to draw "
                           "instead of going out")
    elif len(hand) == 1:
        effects.append("the last card: out")
    elif len(hand) == 2:
        if call:
            effects.append("Page One! called with the second-to-last card")
        elif cfg.page_one_penalty:
            effects.append(f"Page One! not called with the second-to-last card: "
                           f"{cfg.page_one_penalty} cards to draw")
    if not out or cfg.rank_all_places:
        following = state.next_seat(seat)
        if special in (TWO, THREE) and not state.penalty:
            effects.append(f"the {rank_name} makes {seat_name(following, names)} draw "
                           f"{2 if special == TWO else 3} or pass it on")
        elif special == SKIP:
            effects.append(f"the {rank_name} skips {seat_name(following, names)}")
        elif special == REVERSE:
            if state.players_in() == 2:
                effects.append(f"the {rank_name} reverses, which with two players skips "
                               f"{seat_name(following, names)}")
            else:
                effects.append(f"the {rank_name} reverses the direction")
    return "; ".join([text, *effects])
