"""Matching Page One told to people: the log, a refused move as tried, the rule behind each move, a
round's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.variant import Action
from cardcli.kit.cards import NAME, RANK, RANK_NAMES, SUIT, UNSEEN, sorted_hand, suit_word, suit_words
from cardcli.kit.grammar import seat_name, seat_names
from cardcli.words import narration
from cardcli.words.narration import (
    RoundSummaries,
    RuleWords,
    choice_count,
    drawn_by,
    either,
    forgot_call,
    must_draw,
    seat_rows,
    told_with_draws,
)

from .config import EIGHT, NONE, REVERSE, SKIP, THREE, TWO
from .language import N_, _
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

#: The reasons state.py writes (``seat 1 went out``), as people read them: the core finds them by
#: pattern, ``{name}`` for the seat and ``{count}`` for the one other number.
REASONS = (N_("{name} went out"), N_("no card could be played and nothing was left to draw"),
           N_("every place played out"), N_("{count} rounds played; lowest total wins"))

#: The house rules in the header's words (an ``either``'s, marked ``N_``, are said by the core).
RULE_WORDS: dict[str, RuleWords] = {
    "hand_size": narration.hand_size_words,
    "skip": lambda value, changed: "" if value else _("no skip card"),
    "skip_rank": lambda value, changed: "" if changed.get("skip") is False else _("{rank} skips").format(
        rank=value),
    "reverse": lambda value, changed: "" if value else _("no reverse card"),
    "reverse_rank": lambda value, changed: "" if changed.get("reverse") is False else _(
        "{rank} reverses").format(rank=value),
    "draw_two": either(N_("2s draw two"), N_("2s are plain cards")),
    "draw_three": either(N_("3s draw three"), N_("3s are plain cards")),
    "stack_twos": either(N_("penalties pass on"), N_("no stacking")),
    "wild_eight": either(N_("8s are wild"), N_("8s are not wild")),
    "first_special": lambda value, changed: (_("a special first card takes effect") if value == "apply"
                                             else _("a special first card is sent under")),
    "draw_when_able": either(N_("drawing allowed with a card that plays"),
                             N_("no drawing with a card that plays")),
    "draw_until_playable": either(N_("draw until a card plays"), N_("draw one card")),
    "page_one_penalty": narration.page_one_penalty_words,
    "stop_call": either(N_("\"Stop!\" called with the last card"), N_("no Stop call")),
    "finish_on_special": either(N_("going out on a special card"), N_("no going out on a special card")),
    "rank_all_places": either(N_("play on for every place"), N_("the first out wins")),
    "rounds": narration.rounds_words,
}


class MatchingNarration(RoundSummaries[MatchingState]):
    rule_words = RULE_WORDS

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, but a draw in one line with what it drew and what the
        drawer did with it: "cpu2 could not play: drew a card and played 4C on 9C"."""
        def told(state: MatchingState, action: Action, line: str, cards: str, last: MatchingState) -> str:
            if action[0] == DRAW and state.penalty:
                name = seat_name(state.turn, names)
                if forced(state, viewer):
                    return _("{name} took the penalty ({why}): {drew}").format(
                        name=name, why=forced_penalty(state), drew=cards)
                return _("{name} took the penalty: {drew}").format(name=name, drew=cards)
            if action[0] == PLAY and last.draw_for in (FOR_PAGE_ONE, FOR_STOP):
                return forgot_call(line, cards, stop=last.draw_for == FOR_STOP)
            return _("{line}: {drew}").format(line=line, drew=cards)

        def then(seat: int, after: MatchingState, action: Action, line: str) -> str | None:
            # The line told above, with the drawn card kept or played at once.
            if after.current_player() != seat or after.phase != P_AFTER_DRAW or action[0] not in (PLAY, KEEP):
                return None
            if action[0] == KEEP:
                # Translators: a draw told ("cpu2 could not play: drew 7H"), then the card kept.
                return _("{line} and kept it").format(line=line)
            played = self.describe(after, action, viewer, names)
            if action[3]:  # 'drew a card, called "Page One!" and played ...': one "and" to a line.
                # Translators: a draw told, then the call and play that followed ('called "Page One!" and
                # played 7H on 9H').
                return _("{line}, {played}").format(line=line, played=played)
            # Translators: a draw told ("cpu2 could not play: drew 7H"), then the drawn card played.
            return _("{line} and {played}").format(line=line, played=played)

        return told_with_draws(self, events, viewer, names, drawn=drawn_by(DRAWN), rebuilt=_rebuilt,
                               told=told, then=then,
                               on_the_way=_("the discards were reshuffled into a new stock on the way"))

    def describe_attempt(self, state: MatchingState, action: Action,
                         names: Sequence[str] | None = None) -> str:
        """The move as attempted: no effects of the card."""
        kind = action[0]
        if kind == PLAY:
            return play_text(state, action[1], action[2], action[3])
        if kind == DRAW:
            return _("took the penalty") if state.penalty else _("chose to draw")
        if kind == KEEP:
            return _("chose to keep a drawn card")
        if kind == TURN_UP:
            return _("turned up {card}").format(card=NAME[action[1]])
        return str(self.describe(state, action, names=names))

    def rule_behind(self, state: MatchingState, action: Action, names: Sequence[str] | None = None) -> str:
        kind = action[0]
        cfg = state.cfg
        if kind == PLAY:
            return _explain_play(state, action, names)
        if kind == DRAW:
            if state.penalty:  # the rules' reason a card of the hand does not answer it
                card = next((card for card in state.hands[state.turn] if card != UNSEEN), None)
                return choice_count(state) if card is None else play_refused(state, card)
            if cfg.draw_when_able:
                return _("draws: a player may draw even holding a card that plays (draw_when_able)")
            return must_draw(_lacking(state))
        if kind == KEEP:
            return _("a drawn card that plays may be played at once or kept")
        if kind == TURN_UP:
            special = cfg.card_special[action[1]]
            if special != NONE and cfg.first_special == "reflip" and len(state.stock) > 1:
                return _("a special card turned up first is sent under the stock and another turned")
            if special != NONE:
                return _("a special card turned up first takes effect on the first player")
            return ""
        if kind == RESHUFFLE:
            return _("the stock is empty: the discards under the top card become the new stock")
        return ""  # the cards drawn: the move that made them drawn said why

    def round_table(self, state: MatchingState, after: MatchingState,
                    names: Sequence[str] | None) -> str | None:
        hands = after.round_end_hands()
        if hands is None:
            return None
        scores = after.round_scores[-1]
        width = max(len(str(x)) for x in (*scores, *after.totals))
        why = narration.reason_said(self, after.round_reason, seat_names(names, state.num_players))
        return "\n".join([
            _("Round {round} of {rounds} is over: {why}.").format(round=state.round + 1,
                                                                   rounds=state.cfg.rounds, why=why),
            _("Cards left in hand count against their holder:"),
            *seat_rows(names, state.num_players, lambda seat, name: _(
                "{name}  {score} points  (total {total})  {cards}").format(
                name=name, score=f"{scores[seat]:>{width}}", total=f"{after.totals[seat]:>{width}}",
                cards=" ".join(NAME[c] for c in sorted_hand(hands[seat])) or "-"))])


# ------------------------------------------------------- a forced move
def forced(state: MatchingState, viewer: int | None) -> bool:
    """Whether the decision about to be made is the only legal one, told to ``viewer`` only when it is
    theirs (or to a viewer of every hand): another player's choices depend on hidden cards."""
    if viewer is not None and viewer != state.turn:
        return False
    return state.current_player() >= 0 and len(state.legal_actions()) == 1


def forced_penalty(state: MatchingState) -> str:
    """Why a penalty had to be taken: no card answers it."""
    if not state.cfg.stack_twos:
        return _("forced: no stacking")
    return _("forced: no {rank} to pass it on").format(rank=RANK_NAMES[state.penalty_rank])


# ------------------------------------------------------- a refused move
def _rebuilt(seat: int, state: MatchingState, action: Action, cards: list[int]) -> bool:
    return action[0] == RESHUFFLE and state.draw_seat == seat


def play_text(state: MatchingState, card: int, suit: int, call: bool) -> str:
    """``played 8C on JH (spades named), naming hearts``: the play itself, no effect."""
    named = suit_words(suit) if 0 <= suit <= 3 else ""
    if not state.discard:  # no suit is named with no card to name it on
        text = _("played {card}, naming {suit}") if named else _("played {card}")
        top = ""
    else:
        text = _("played {card} on {top}, naming {suit}") if named else _("played {card} on {top}")
        top = NAME[state.top]
        if 0 <= state.suit < ANY_SUIT:
            top = _("{top} ({suits} named)").format(top=top, suits=suit_words(state.suit))
    text = text.format(card=NAME[card], top=top, suit=named)
    return called(state, text) if call else text


def called(state: MatchingState, play: str) -> str:
    """``play`` made with its call: Stop with the last card (where ``stop_call`` is on), else Page One."""
    return narration.called(play, stop=state.cfg.stop_call and len(state.hands[state.turn]) == 1)


def play_refused(state: MatchingState, card: int) -> str:
    """Why the rules refuse playing ``card`` now (an 8 as naming a suit, so that its suit is not why)."""
    return state.why_illegal((PLAY, card, 0 if state.cfg.card_special[card] == EIGHT else -1, False))


def goes_out(state: MatchingState, call: bool) -> bool:
    """Whether the play about to be made (``call``: with its call) takes the player out: a forgotten
    Stop draws the penalty instead (unless there is none)."""
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
        return _("{name} must draw {count} or pass it on").format(
            name=following, count=state.penalty + (2 if kind == TWO else 3))
    if kind == SKIP or (kind == REVERSE and state.players_in() == 2):
        return _("skips {name}").format(name=following)
    if kind == REVERSE:
        return _("reverses the direction")
    return ""


def _lacking(state: MatchingState) -> str:
    """Why nothing plays, in what the hand lacks: "no spade and no 8 in hand"."""
    cfg = state.cfg
    wild = cfg.special[8] == EIGHT
    if 0 <= state.suit < ANY_SUIT:  # the suit an 8 named
        suit, suits = suit_word(state.suit), suit_words(state.suit)
        text = (_("no {suit} and no 8 in hand ({suits} named by the 8)") if wild
                else _("no {suit} in hand ({suits} named by the 8)")).format(suit=suit, suits=suits)
    else:
        top = state.discard[-1]
        text = (_("no {suit}, no {rank} and no 8 in hand") if wild
                else _("no {suit} and no {rank} in hand")).format(suit=suit_word(SUIT[top]),
                                                                  rank=RANK_NAMES[RANK[top]])
    if len(state.hands[state.turn]) == 1 and not cfg.finish_on_special:
        text = _("{why} (or only a special card, which may not be the last)").format(why=text)
    return text


def _explain_play(state: MatchingState, action: Any, names: Sequence[str] | None) -> str:
    card, suit, call = action[1], action[2], action[3]
    cfg = state.cfg
    seat = state.turn
    special = cfg.card_special[card]
    hand = state.hands[seat]
    rank_name = RANK_NAMES[RANK[card]]
    if state.phase == P_AFTER_DRAW:
        text = _("the drawn {card} plays, so it may be played at once").format(card=NAME[card])
    elif state.penalty:
        grown = state.penalty + (2 if special == TWO else 3)
        text = _("a {rank} on a pending {rank}: the penalty grows to {count} and passes to {name}").format(
            rank=rank_name, count=grown, name=seat_name(state.next_seat(seat), names))
    elif special == EIGHT:
        text = _("8s are wild: an 8 goes on anything")
    elif state.suit == ANY_SUIT:
        text = _("anything may follow the 8 turned up first")
    elif state.suit >= 0:
        text = _("follows {suits}, the suit the 8 named").format(suits=suit_words(state.suit))
    else:
        top = state.discard[-1]  # one deck: a card matches its rank or its suit, not both
        if RANK[card] == RANK[top]:
            text = _("matches the rank of {top}").format(top=NAME[top])
        else:
            text = _("matches the suit of {top} ({suits})").format(top=NAME[top], suits=suit_words(SUIT[top]))
    effects = []
    if special == EIGHT and 0 <= suit <= 3:
        effects.append(_("it names {suits}").format(suits=suit_words(suit)))
    out = goes_out(state, call)
    penalty = cfg.page_one_penalty
    if len(hand) == 1 and cfg.stop_call:
        if call:
            effects.append(_("Stop! called with the last card: out"))
        elif out:
            effects.append(_("the last card: out (Stop! not called: with no penalty the call is a "
                             "formality)"))
        else:
            # The English says "1 cards": both forms are the same so that it stays as it was.
            effects.append(_.ngettext("Stop! not called with the last card: {count} cards to draw instead of "
                                      "going out",
                                      "Stop! not called with the last card: {count} cards to draw instead of "
                                      "going out", penalty).format(count=penalty))
    elif len(hand) == 1:
        effects.append(_("the last card: out"))
    elif len(hand) == 2:
        if call:
            effects.append(_("Page One! called with the second-to-last card"))
        elif penalty:
            effects.append(_.ngettext("Page One! not called with the second-to-last card: {count} cards to "
                                      "draw",
                                      "Page One! not called with the second-to-last card: {count} cards to "
                                      "draw", penalty).format(count=penalty))
    if not out or cfg.rank_all_places:
        following = seat_name(state.next_seat(seat), names)
        if special in (TWO, THREE) and not state.penalty:
            effects.append(_("the {rank} makes {name} draw {count} or pass it on").format(
                rank=rank_name, name=following, count=2 if special == TWO else 3))
        elif special == SKIP:
            effects.append(_("the {rank} skips {name}").format(rank=rank_name, name=following))
        elif special == REVERSE:
            if state.players_in() == 2:
                effects.append(_("the {rank} reverses, which with two players skips {name}").format(
                    rank=rank_name, name=following))
            else:
                effects.append(_("the {rank} reverses the direction").format(rank=rank_name))
    return "; ".join([text, *effects])
