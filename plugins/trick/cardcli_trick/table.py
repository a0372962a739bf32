"""Trick-taking Page One's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.abilities import TableData
from cardcli.contract.variant import CHANCE, Action
from cardcli.contract.views import MoveView, Pile, PlayerView, TableView
from cardcli.kit.cards import NAME, SUIT_NAMES, UNSEEN, sorted_hand
from cardcli.kit.grammar import name_seats, plural, seat_name, seat_names
from cardcli.words.table_text import hands_shown, seat_rows
from cardcli.words.view import generic_move_view, seat_views, viewer_hand

from .state import D_PENALTY, DRAW, P_DRAW, P_FORCED, P_OVER, PLAY, TrickState


def render(state: TrickState, viewer: int | None = None, names: Sequence[str] | None = None,
           rows: list[PlayerView] | None = None) -> str:
    """The table as text: the stock and finished tricks, the tally of a
    match, the last trick, the trick so far, a row per player (``rows``,
    where the table's data has them already), the drawing."""
    names = seat_names(names, state.num_players)
    cfg = state.cfg
    head = [_deal(state)] if cfg.deals > 1 else []
    head.append(f"stock: {len(state.stock)}")
    head.append(f"finished tricks: {state.tricks_done} ({plural(len(state.tricks), 'card')})")
    lines = [" | ".join(head)]
    if cfg.deals > 1:
        lines.append(tally_text(state, names))
    for pile in reversed(_tricks(state, names)):  # the last trick, then the trick on the table
        played = ", ".join(f"{who} {card}" for who, card in zip(pile.labels, pile.cards))
        if pile.name == "last trick":
            lines.append(f"Last trick: {played}  ({pile.note}{'' if state.trick else ', who leads'})")
        elif state.phase == P_OVER:
            lines.append(f"Trick left unfinished: {played}")
        else:
            lines.append(f"Trick: {played}  ({pile.note})")
    lines.extend(seat_rows(rows or players(state, names), acting(state), hands_shown(state.hands, viewer)))
    if _drawing(state, names):
        lines.append(_drawing(state, names))
    if state.phase == P_FORCED and (viewer is None or viewer == state.turn):
        lines.append(_forced(state))
    return "\n".join(lines)


def _forced(state: TrickState) -> str:
    """The drawn card that must be played; one nobody saw (a real table's
    record) is played only if it follows."""
    if state.forced == UNSEEN:
        return "Drawn card: not seen (played if it follows, else the drawing goes on)"
    return f"Drawn card {NAME[state.forced]} must be played"


class TrickTable(TableData):
    """The table as data: the trick so far (who played what), the last
    trick, the stock, each player's count; the viewer's hand.  A move: a card
    to play, the Page One call as a declaration, drawing as a button."""

    def table_view(self, state: TrickState, viewer: int | None, names: Sequence[str]) -> TableView:
        cfg = state.cfg
        piles = _tricks(state, names)
        piles.append(Pile("stock", [], len(state.stock)))
        piles.append(Pile("finished tricks", [], len(state.tricks)))
        notes = [_deal(state), tally_text(state, names)] if cfg.deals > 1 else []
        if _drawing(state, names):
            notes.append(_drawing(state, names))
        hand = [NAME[c] for c in sorted_hand(viewer_hand(state.hands, viewer))]
        if state.phase == P_FORCED and viewer == state.turn:
            notes.append(_forced(state))
        if state.phase == P_OVER and state.deal_reason and cfg.deals == 1:
            notes.append(f"Deal over: {_reason(state, names)}")
        rows = players(state, names)
        return TableView(viewer=viewer, turn=acting(state), players=rows, hand=hand, piles=piles, notes=notes,
                         text=render(state, viewer=viewer, names=names, rows=rows))

    def move_view(self, state: TrickState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        if action[0] == PLAY:
            card, call = action[1], action[2]
            label = ("call \"Page One!\" and " if call else "") + f"play {NAME[card]}"
            return MoveView("play", label, [NAME[card]], declare="Page One!" if call else "")
        if action[0] == DRAW:
            return MoveView("draw", "draw from the stock")
        return generic_move_view(self, state, seat, action, names)  # type: ignore[arg-type]


def players(state: TrickState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: the count of cards, the dealer,
    Page One, and the deals won in a match."""
    return seat_views(state.hands, names, state.dealer,
                      lambda seat, hand: ["Page One"] if len(hand) == 1 and state.phase != P_OVER else [],
                      lambda seat: plural(state.tally[seat], "deal") + " won" if state.cfg.deals > 1 else "")


def acting(state: TrickState) -> int:
    """The seat the table points at: the player to move, or the one drawing."""
    player = state.current_player()
    return state.draw_seat if player == CHANCE and state.phase == P_DRAW else player


def tally_text(state: TrickState, names: Sequence[str] | None) -> str:
    """``Deal 2 won by ann; deals won: ann 1, bob 1`` (the deal just finished, then the tally)."""
    tally = ", ".join(f"{seat_name(s, names)} {state.tally[s]}" for s in range(state.num_players))
    if not state.deal_winners:
        return f"Deals won: {tally}"
    number = len(state.deal_winners)
    last = state.deal_winners[-1]
    head = (f"Deal {number} called off (counts for nobody)" if last is None else
            f"Deal {number} won by {seat_name(last, names)}")
    return f"{head}; deals won: {tally}"


def _tricks(state: TrickState, names: Sequence[str]) -> list[Pile]:
    """The trick on the table (who played what, and who is winning it) and the last trick."""
    piles = []
    if state.trick:
        if state.phase == P_OVER:
            note = "left unfinished"
        elif state.suit >= 0:
            note = (f"{SUIT_NAMES[state.suit]} to follow; winning: {names[state.winning_seat()]} with "
                    f"{NAME[state.trick[state.win_pos]]}")
        else:
            note = "joker led: the next card sets the suit"
        piles.append(Pile("trick", [NAME[c] for c in state.trick], len(state.trick),
                          [names[s] for s in state.trick_seats], note))
    if state.last_trick is not None and (state.phase != P_OVER or state.trick):
        cards, seats, winner = state.last_trick
        piles.append(Pile("last trick", [NAME[c] for c in cards], len(cards), [names[s] for s in seats],
                          f"won by {names[winner]}"))
    return piles


def _deal(state: TrickState) -> str:
    return f"Deal {min(state.deal_no + 1, state.cfg.deals)} of {state.cfg.deals}"


def _drawing(state: TrickState, names: Sequence[str]) -> str:
    if state.phase == P_DRAW and state.draw_for != D_PENALTY and state.drawn_now:
        return f"{names[state.draw_seat]} is drawing: {plural(state.drawn_now, 'card')} so far"
    return ""


def _reason(state: TrickState, names: Sequence[str]) -> str:
    last = state.deal_winners[-1] if state.deal_winners else None
    if last is None:
        why = state.deal_reason.partition(": ")[2]
        return f"called off as a draw ({why})" if why else "called off as a draw"
    return name_seats(f"seat {last} played their last card", names)
