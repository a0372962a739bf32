"""Matching Page One's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.variant import Action, Variant
from cardcli.contract.views import MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.kit.cards import NAME, UNSEEN, suit_words
from cardcli.kit.grammar import seat_names
from cardcli.words.table_text import hands_shown, seat_rows
from cardcli.words.view import generic_move_view, seat_views, viewer_cards

from .language import _
from .state import ANY_SUIT, DRAW, KEEP, P_AFTER_DRAW, PLAY, MatchingState


def render(state: MatchingState, viewer: int | None = None, names: Sequence[str] | None = None,
           rows: list[PlayerView] | None = None) -> str:
    """The table as text (``rows``: the players' rows, where the table's data has them already)."""
    names = seat_names(names, state.num_players)
    cfg = state.cfg
    head = [_round(state)] if cfg.rounds > 1 else []
    head += [_("direction: {direction}").format(direction=_direction(state)),
             _("stock: {count}").format(count=state.stock_size()),
             _("discards: {count}").format(count=len(state.discard))]
    lines = [" | ".join(head)]
    if state.discard:
        note = _top_note(state)
        lines.append(_("Top card: {card}  - {note}").format(card=NAME[state.top], note=note) if note
                     else _("Top card: {card}").format(card=NAME[state.top]))
    if _penalty(state):
        lines.append(_penalty(state))
    lines.extend(seat_rows(rows or players(state, names), state.acting(), hands_shown(state.hands, viewer)))
    if state.phase == P_AFTER_DRAW and (viewer is None or viewer == state.turn):
        lines.append(_drawn(state))
    return "\n".join(lines)


class MatchingTable(Variant[MatchingState]):
    """The table as data; a move: a card to play (an 8 once per suit it may name, each a choice), the
    call (Page One, or Stop with the last card) as a declaration, drawing or keeping as buttons."""

    def table_view(self, state: MatchingState, viewer: int | None, names: Sequence[str]) -> TableView:
        cfg = state.cfg
        piles = [Pile(_("top card"), [NAME[state.top]], len(state.discard), note=_top_note(state))] \
            if state.discard else []
        piles.append(Pile(_("stock"), [], state.stock_size()))
        notes = [_round(state)] if cfg.rounds > 1 else []
        if _penalty(state):
            notes.append(_penalty(state))
        notes.append(_("Direction: {direction}").format(direction=_direction(state)))
        if state.phase == P_AFTER_DRAW and viewer == state.turn:
            notes.append(_drawn(state))
        scores = ScoreSheet.by_round(_("points"), state.round_scores, state.totals) \
            if cfg.rounds > 1 and state.round_scores else None
        rows = players(state, names)
        return TableView(viewer, state.acting(), rows, viewer_cards(state.hands, viewer), piles=piles,
                         notes=notes, scores=scores, text=render(state, viewer, names, rows))

    def move_view(self, state: MatchingState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        kind = action[0]
        if kind == PLAY:
            card, suit, call = action[1], action[2], action[3]
            # The suit in the chosen language, in the label and as the choice (only the served page reads
            # the choice, to offer an 8's suits together: it matches no typed word).
            named = suit_words(suit) if suit >= 0 else ""
            stop = len(state.hands[seat]) == 1
            said = (_("Stop!") if stop else _("Page One!")) if call else ""
            play = _("play {card}, naming {suit}") if named else _("play {card}")
            label = play.format(card=NAME[card], suit=named)
            if call:
                # Translators: {move} is the play the call goes with ("play 8C, naming hearts").
                with_call = _("call \"Stop!\" and {move}") if stop else _("call \"Page One!\" and {move}")
                label = with_call.format(move=label)
            return MoveView("play", label, [NAME[card]], choice=named, declare=said)
        if kind == DRAW:
            return MoveView("draw", _("take the penalty (draw {count})").format(count=state.penalty)
                            if state.penalty else _("draw a card"))
        if kind == KEEP:
            return MoveView("keep", _("keep the drawn card"))
        return generic_move_view(self, state, seat, action, names)


def players(state: MatchingState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: who is out (in what place), Page One, the total of a longer game."""
    def notes(seat: int, hand: Sequence[int]) -> list[str]:
        if not state.active[seat]:
            return [_("out, place {place}").format(place=state.out.index(seat) + 1)]
        return [_("Page One")] if len(hand) == 1 else []
    return seat_views(state.hands, names, state.dealer, notes,
                      lambda seat: _("total {total}").format(total=state.totals[seat]) if state.cfg.rounds > 1
                      else "")


def _round(state: MatchingState) -> str:
    return _("Round {round} of {rounds}").format(round=min(state.round + 1, state.cfg.rounds),
                                                 rounds=state.cfg.rounds)


def _direction(state: MatchingState) -> str:
    return _("clockwise (left)") if state.direction == 1 else _("anticlockwise (right)")


def _top_note(state: MatchingState) -> str:
    if state.suit == ANY_SUIT:
        return _("any card may follow")
    if state.suit >= 0:
        return _("suit named: {suits}").format(suits=suit_words(state.suit))
    return ""


def _penalty(state: MatchingState) -> str:
    """The penalty the next player faces ("" for none: a finished game has none)."""
    if not state.penalty or state.is_terminal():
        return ""
    return _("Penalty pending: draw {count} (answer with a {rank} or take it)").format(
        count=state.penalty, rank=state.penalty_rank)


def _drawn(state: MatchingState) -> str:
    if state.drawn == UNSEEN:  # a real table's record: played or kept only if it plays
        return _("Drawn card: not seen (played or kept if it plays, else the turn passes)")
    return _("Drawn card: {card} (play it or keep it)").format(card=NAME[state.drawn])
