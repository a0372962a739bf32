"""Trick-taking Page One told to people: the log, a refused move as tried, the rule behind each move, a
deal's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.variant import Action
from cardcli.kit.cards import JOKER, NAME, SUIT, sorted_hand, suit_word, suit_words
from cardcli.kit.grammar import seat_name, seat_names
from cardcli.words import narration
from cardcli.words.narration import (
    RoundSummaries,
    RuleWords,
    called,
    drawn_by,
    either,
    forgot_call,
    must_draw,
    seat_rows,
    told_with_draws,
)

from .language import N_, _
from .state import D_PENALTY, DRAW, DRAW_ACTION, DRAWN, P_DRAW, P_FORCED, PLAY, PLAYS, RESHUFFLE, TrickState

#: The reasons state.py writes (``seat 1 played their last card``), as people read them: the core
#: finds them by pattern, ``{name}`` for the seat and ``{count}`` for the one other number; a called-off
#: deal's also without "the hand was called off: " (the table's note says it so), and in both forms
#: of its count ("1 rebuild", "2 rebuilds").
REASONS = (N_("{name} played their last card"),
           N_("the hand was called off: nothing left to draw and no way to follow"),
           N_("the hand was called off: the stock ran out after {count} rebuild, the most the option "
              "reshuffles allows"),
           N_("the hand was called off: the stock ran out after {count} rebuilds, the most the option "
              "reshuffles allows"),
           N_("{count} deals played; most deals won takes the match"),
           N_("nothing left to draw and no way to follow"),
           N_("the stock ran out after {count} rebuild, the most the option reshuffles allows"),
           N_("the stock ran out after {count} rebuilds, the most the option reshuffles allows"))


def play_words(state: TrickState, card: int, call: bool) -> str:
    """A play as made, before what it does: "led 9H", "played 7S on the led joker"."""
    if not state.trick:
        text = _("led {card}")
    elif state.suit < 0:
        text = _("played {card} on the led joker")
    else:
        text = _("played {card}")
    text = text.format(card=NAME[card])
    return called(text) if call else text


def _rebuilt(seat: int, state: TrickState, action: Action, cards: list[int]) -> bool:
    return action[0] == RESHUFFLE and bool(cards)  # once drawing is under way


#: The house rules in the header's words (an ``either``'s, marked ``N_``, are said by the core).
RULE_WORDS: dict[str, RuleWords] = {
    "hand_size": narration.hand_size_words,
    "decks": narration.decks_words,
    "jokers": lambda value, changed: _("no joker") if value == 0 else _.ngettext(
        "{count:,} joker", "{count:,} jokers", value).format(count=value),
    "joker_any_time": either(N_("the joker at any time"), N_("the joker only when unable to follow")),
    "joker_last": either(N_("going out on the joker"), N_("no going out on the joker")),
    "page_one_penalty": narration.page_one_penalty_words,
    "deals": lambda value, changed: _.ngettext("{count:,} deal", "{count:,} deals",
                                               value).format(count=value),
    "reshuffles": lambda value, changed: (_("no limit on stock rebuilds") if value is None else _.ngettext(
        "at most {count:,} stock rebuild a deal", "at most {count:,} stock rebuilds a deal",
        value).format(count=value)),
}


class TrickNarration(RoundSummaries[TrickState]):
    rule_words = RULE_WORDS

    def describe_attempt(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        """The move as attempted: never who would win the trick or the deal."""
        kind = action[0]
        if kind == PLAY:
            return play_words(state, action[1], action[2])
        if kind == DRAW:
            return _("chose to draw")
        if kind == DRAWN:
            who = seat_name(state.draw_seat, names) if state.draw_seat >= 0 else _("a seat")  # none draws now
            penalty = state.phase == P_DRAW and state.draw_for == D_PENALTY
            text = _("{name} drew {cards} (forgot Page One)") if penalty else _("{name} drew {cards}")
            return text.format(name=who, cards=" ".join(NAME[c] for c in action[1]))
        if kind == RESHUFFLE:
            return _("reshuffled the finished tricks into a new stock")
        return str(self.describe(state, action, names=names))

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, but drawing in one line with the play it ends in: "cpu2
        could not follow clubs: drew 7 cards, played 4C", "ann played 5H - forgot to call Page One, so
        drew 5 cards"."""
        def told(state: TrickState, action: Action, line: str, cards: str, last: TrickState) -> str:
            if action[0] == PLAY:  # "ann led 3C - forgot to call Page One, so drew 5 cards"
                said = self.describe(state, action, viewer=viewer, names=names)
                play = play_told(state, action[1], action[2], names, forgot=False)  # without "- forgot ..."
                return forgot_call(line.replace(said, play), cards)
            who = seat_name(state.turn, names)
            if state.suit >= 0:
                return _("{name} could not follow {suits}: {drew}").format(
                    name=who, suits=suit_words(state.suit), drew=cards)
            return _("{name} held only the joker, which may not be the last card: {drew}").format(name=who,
                                                                                                  drew=cards)

        def then(seat: int, after: TrickState, action: Action, line: str) -> str | None:
            # The line told above, with the drawn card played at once.
            if after.phase != P_FORCED or after.turn != seat or action[0] != PLAY:
                return None
            # Translators: a draw told ("ann could not follow: drew 4D"), then the drawn card played.
            return _("{line}, {played}").format(line=line, played=self.describe(after, action, viewer=viewer,
                                                                                   names=names))

        return told_with_draws(self, events, viewer, names, drawn=drawn_by(DRAWN), rebuilt=_rebuilt,
                               told=told, then=then,
                               on_the_way=_("the finished tricks were shuffled into a new stock on the way"))

    def rule_behind(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        """From public knowledge only; the cards drawn need none (the draw and the play that ends it
        said why)."""
        kind = action[0]
        if kind == PLAY:
            return _explain_play(state, action, names)
        if kind == DRAW:
            if state.suit >= 0:
                one = suit_word(state.suit)
                if not state.can_draw():
                    return _("must draw: no {suit} in hand, and nothing is left to draw: the hand is called "
                             "off").format(suit=one)
                return _("must draw: no {suit} in hand; drawing to follow {suits} until a {suit} "
                         "comes").format(suit=one, suits=suit_words(state.suit))
            return must_draw(state.why_illegal(PLAYS[JOKER][False]))  # the joker may not be the last card
        if kind == RESHUFFLE:
            return _("the stock is empty: the finished tricks are shuffled into a new stock")
        return ""

    def round_table(self, state: TrickState, after: TrickState, names: Sequence[str] | None) -> str:
        hands = after.round_end_hands() or state.hands
        why = narration.reason_said(self, after.round_reason, seat_names(names, state.num_players))
        return "\n".join([_("Deal {deal} of {deals} is over: {why}.").format(
            deal=state.round + 1, deals=state.cfg.deals, why=why),
            *seat_rows(names, state.num_players, lambda seat, name: _.ngettext(
                "{name}  {count:,} deal won  left holding: {cards}",
                "{name}  {count:,} deals won  left holding: {cards}", after.totals[seat]).format(
                name=name, count=after.totals[seat],
                cards=" ".join(NAME[c] for c in sorted_hand(hands[seat])) or _("no cards")))])


# -------------------------------------------------------------- the plays
def play_told(state: TrickState, card: int, call: bool, names: Sequence[str] | None,
               forgot: bool = True) -> str:
    """A play as the log tells it, with what it does: "played 7C; the trick goes to ann - forgot to call
    Page One!" (``forgot``: with the forgotten call, where it was)."""
    seat = state.turn
    hand = state.hands[seat]
    # The trick's last card, or the deal's: nobody is left to follow it.
    followed = len(state.trick) + 1 < state.num_players and len(hand) > 1
    if not state.trick:
        text = (_("led {card} (the next card sets the suit)") if card == JOKER
                else _("led {card}")).format(card=NAME[card])
    elif state.suit < 0:
        text = (_("played {card} on the led joker ({suits} to follow)").format(
            card=NAME[card], suits=suit_words(SUIT[card])) if card != JOKER and followed
            else _("played {card} on the led joker").format(card=NAME[card]))
    elif card == JOKER:
        text = _("played {card} on {suits}").format(card=NAME[card], suits=suit_words(state.suit))
    elif SUIT[card] != state.suit:  # only in a broken record: the check says why
        return play_words(state, card, call)
    else:
        text = _("played {card}").format(card=NAME[card])
    if call:
        text = called(text)
    # Below, {play} is the play as told ("played 7C", 'called "Page One!" and played 7C').
    if len(hand) == 1:
        return _("{play}: the last card, which wins the deal!").format(play=text)
    takes = len(state.trick) + 1 == state.num_players
    forgotten = forgot and len(hand) == 2 and not call
    if takes:
        name = seat_name(state.winner_with(card), names)
        if forgotten:
            return _("{play}; the trick goes to {name} - forgot to call Page One!").format(play=text,
                                                                                           name=name)
        return _("{play}; the trick goes to {name}").format(play=text, name=name)
    if forgotten:
        return _("{play} - forgot to call Page One!").format(play=text)
    return text


# -------------------------------------------------------------- the rules
def _explain_play(state: TrickState, action: Any, names: Sequence[str] | None) -> str:
    card, call = action[1], action[2]
    cfg = state.cfg
    seat = state.turn
    hand = state.hands[seat]
    suit = state.suit
    if state.phase == P_FORCED:
        text = state.why_illegal(DRAW_ACTION)  # the rules' words: the drawn card must be played at once
    elif not state.trick:
        text = (_("leads: any card may lead; a led joker lets the next card set the suit") if card == JOKER
                else _("leads: any card may lead"))
    elif suit < 0:
        text = _("after a led joker any card may follow, and its suit is the one to follow")
    elif card == JOKER:
        if cfg.joker_any_time:
            text = _("the joker may be played at any time, and wins any trick")
        else:
            text = _("the joker, played for want of a {suit} (it wins any trick)").format(
                suit=suit_word(suit))
    else:
        text = _("follows {suits}").format(suits=suit_words(suit))
    effects = []
    if len(hand) == 1:
        effects.append(_("the last card: wins the deal"))
    else:
        if len(state.trick) + 1 == state.num_players:
            winner = state.winner_with(card)
            best = state.trick[state.win_pos]
            led = suit if suit >= 0 else SUIT[card]
            name = seat_name(winner, names)
            if (card == JOKER and winner == seat) or (winner != seat and best == JOKER):
                effects.append(_("the trick is complete: {name} takes it with the joker and leads "
                                 "next").format(name=name))
            else:
                effects.append(_("the trick is complete: {name} takes it with the highest {suit} and leads "
                                 "next").format(name=name, suit=suit_word(led)))
        if len(hand) == 2:
            if call:
                effects.append(_("Page One! called with the play that leaves one card"))
            elif cfg.page_one_penalty:
                penalty = cfg.page_one_penalty
                # The English says "1 cards": both forms are the same so that it stays as it was.
                effects.append(_.ngettext("Page One! not called: {count} cards to draw",
                                          "Page One! not called: {count} cards to draw", penalty).format(
                    count=penalty))
    return "; ".join([text, *effects])
