"""Matching Page One's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.abilities import TableData
from cardcli.contract.variant import CHANCE, Action
from cardcli.contract.views import MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.kit.cards import NAME, SUIT_NAMES, UNSEEN, sorted_hand
from cardcli.kit.grammar import seat_names
from cardcli.words.table_text import hands_shown, seat_rows
from cardcli.words.view import generic_move_view, seat_views, viewer_hand

from .state import ANY_SUIT, DRAW, KEEP, P_AFTER_DRAW, P_DRAWING, PLAY, MatchingState


def render(state: MatchingState, viewer: int | None = None, names: Sequence[str] | None = None,
           rows: list[PlayerView] | None = None) -> str:
    """The table as text: the direction and the piles, the top card and the
    suit named, a pending penalty, a row per player (``rows``, where the
    table's data has them already), the drawn card."""
    names = seat_names(names, state.num_players)
    cfg = state.cfg
    head = []
    if cfg.rounds > 1:
        head.append(_round(state))
    head.append("direction: " + _direction(state))
    head.append(f"stock: {state.stock_size()}")
    head.append(f"discards: {len(state.discard)}")
    lines = [" | ".join(head)]
    if state.discard:
        note = _top_note(state)
        lines.append(f"Top card: {NAME[state.top]}" + (f"  - {note}" if note else ""))
    if _penalty(state):
        lines.append(_penalty(state))
    lines.extend(seat_rows(rows or players(state, names), acting(state), hands_shown(state.hands, viewer)))
    if state.phase == P_AFTER_DRAW and (viewer is None or viewer == state.turn):
        lines.append(_drawn(state))
    return "\n".join(lines)


class MatchingTable(TableData):
    """The table as data: the top card (and the suit named), the stock, the
    penalty pending, the direction, each player's count; the viewer's hand.
    A move: a card to play (an 8 once per suit it may name, each as a
    choice), the Page One call (Stop with the last card) as a declaration,
    drawing or keeping as plain buttons."""

    def table_view(self, state: MatchingState, viewer: int | None, names: Sequence[str]) -> TableView:
        cfg = state.cfg
        piles = []
        if state.discard:
            piles.append(Pile("top card", [NAME[state.top]], len(state.discard), note=_top_note(state)))
        piles.append(Pile("stock", [], state.stock_size()))
        notes = [_round(state)] if cfg.rounds > 1 else []
        if _penalty(state):
            notes.append(_penalty(state))
        notes.append("Direction: " + _direction(state))
        hand = [NAME[c] for c in sorted_hand(viewer_hand(state.hands, viewer))]
        if state.phase == P_AFTER_DRAW and viewer == state.turn:
            notes.append(_drawn(state))
        scores = None
        if cfg.rounds > 1 and state.round_scores:
            scores = ScoreSheet.by_round("points", state.round_scores, state.totals)
        rows = players(state, names)
        return TableView(viewer=viewer, turn=acting(state), players=rows,
                         hand=hand, piles=piles, notes=notes, scores=scores,
                         text=render(state, viewer=viewer, names=names, rows=rows))

    def move_view(self, state: MatchingState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        kind = action[0]
        if kind == PLAY:
            card, suit, call = action[1], action[2], action[3]
            label = f"play {NAME[card]}" + (f", naming {SUIT_NAMES[suit]}" if suit >= 0 else "")
            said = ("Stop!" if len(state.hands[seat]) == 1 else "Page One!") if call else ""
            if call:
                label = f"call \"{said}\" and " + label
            return MoveView("play", label, [NAME[card]], choice=SUIT_NAMES[suit] if suit >= 0 else "",
                            declare=said)
        if kind == DRAW:
            return MoveView("draw", f"take the penalty (draw {state.penalty})" if state.penalty
                            else "draw a card")
        if kind == KEEP:
            return MoveView("keep", "keep the drawn card")
        return generic_move_view(self, state, seat, action, names)  # type: ignore[arg-type]


def players(state: MatchingState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: the count of cards, the dealer, who is
    out (and in what place), Page One, and the running total of a longer game."""
    def notes(seat: int, hand: Sequence[int]) -> list[str]:
        if not state.active[seat]:
            return [f"out, place {state.out.index(seat) + 1}"]
        return ["Page One"] if len(hand) == 1 else []
    return seat_views(state.hands, names, state.dealer, notes,
                      lambda seat: f"total {state.totals[seat]}" if state.cfg.rounds > 1 else "")


def acting(state: MatchingState) -> int:
    """The seat the table points at: the player to move, or the one drawing."""
    player = state.current_player()
    return state.draw_seat if player == CHANCE and state.phase == P_DRAWING else player


def _round(state: MatchingState) -> str:
    return f"Round {min(state.round + 1, state.cfg.rounds)} of {state.cfg.rounds}"


def _direction(state: MatchingState) -> str:
    return "clockwise (left)" if state.direction == 1 else "anticlockwise (right)"


def _top_note(state: MatchingState) -> str:
    if state.suit == ANY_SUIT:
        return "any card may follow"
    if state.suit >= 0:
        return f"suit named: {SUIT_NAMES[state.suit]}"
    return ""


def _penalty(state: MatchingState) -> str:
    """The penalty the next player faces ("" for none: a finished game has none)."""
    if not state.penalty or state.is_terminal():
        return ""
    return f"Penalty pending: draw {state.penalty} (answer with a {state.penalty_rank} or take it)"


def _drawn(state: MatchingState) -> str:
    if state.drawn == UNSEEN:  # a real table's record: played or kept only if it plays
        return "Drawn card: not seen (played or kept if it plays, else the turn passes)"
    return f"Drawn card: {NAME[state.drawn]} (play it or keep it)"
