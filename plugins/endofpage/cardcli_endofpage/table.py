"""End of the Page's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.abilities import TableData
from cardcli.contract.variant import CHANCE, Action
from cardcli.contract.views import MeldView, MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.kit.cards import NAME, RANK_PLURALS
from cardcli.kit.grammar import is_you, name_seats, possessive, seat_names
from cardcli.kit.melds import meld_label, meld_shown, meld_text, stands_for
from cardcli.words.table_text import hand_order, hand_text, score_sheet, seat_rows
from cardcli.words.view import seat_views, viewer_hand

from .state import DISCARD, DRAW, LAYOFF, MELD, P_DEAL, P_PLAY, PICKUP, TAKE, EndOfPageState


class EndOfPageTable(TableData):
    """The table as data: the discard pile (every card: deeper ones can be
    picked up), the melds with what each wild stands for, the score sheet,
    each player's count and points; the viewer's hand, wilds marked.  A move:
    draw or take as buttons; a pick-up, meld, lay-off or discard by the hand
    cards it uses, with what the wilds stand for as the choice.  A label
    never tells how the round would end (that would read the other hands)."""

    def table_view(self, state: EndOfPageState, viewer: int | None, names: Sequence[str]) -> TableView:
        return table_view(state, viewer, names)

    def move_view(self, state: EndOfPageState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        return move_view(state, seat, action)


def sheet_lines(state: EndOfPageState, names: Sequence[str]) -> list[str]:
    """The score sheet so far: a line per round played (with how it ended), the totals."""
    return score_sheet(names, state.round_scores, state.totals, [name_seats(n, names) for n in state.notes])


def meld_line(state: EndOfPageState, index: int, names: Sequence[str]) -> str:
    """A meld on the table, numbered, with its owner, what each wild stands
    for and the cards others laid off on it:
    ``  2. ann: 5C 5H 9D(=5)  [set of 5s]  (laid off: 5S by bob)``."""
    owner = state.owners[index]
    laid = ", ".join(f"{NAME[c]} by {names[s]}" for i, s, c, _ in state.layoffs if i == index and s != owner)
    return f"  {index + 1}. {names[owner]}: {meld_shown(state.melds[index], state.mrules)}" + (
        f"  (laid off: {laid})" if laid else "")


def players(state: EndOfPageState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: the count of cards, the points on the
    table this round and the total, and dealer, out, floating (melded their
    last card) or has melded."""
    def notes(seat: int, hand: Sequence[int]) -> list[str]:
        if seat in state.out:
            return ["out"]
        return ["floating" if not hand else "has melded"] if state.melded[seat] else []

    def score(seat: int) -> str:
        return f"table {sum(state.points[c] for c in state.played[seat])}, total {state.totals[seat]}"
    return seat_views(state.hands, names, state.dealer, notes, score)


def acting(state: EndOfPageState) -> int:
    """The seat the table points at: the player to move, or the one a card comes to."""
    player = state.current_player()
    return state.turn if player == CHANCE and state.phase != P_DEAL else player


def render_table(state: EndOfPageState, viewer: int | None = None,
                 names: Sequence[str] | None = None, rows: list[PlayerView] | None = None) -> str:
    n = state.num_players
    names = seat_names(names, n)
    cfg = state.cfg
    lines: list[str] = []
    over = state.result() is not None
    # The score sheet of the rounds before is the round's summary, shown when
    # it ends (``round_summary``); the table keeps only the totals, in its
    # rows, until the sheet closes the game.
    if state.round_scores and over:
        lines.extend(sheet_lines(state, names))
        lines.append("")
    if over:
        lines.append(f"The last round, round {state.round}, as it ended ({name_seats(state.ended, names)}):")
        head = []
    else:
        head = [f"Round {state.round + 1} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        head.append(f"target {cfg.target_score}")
    if state.wild:
        head.append(f"WILD: {RANK_PLURALS[state.wild]}")
    head.append(f"stock: {len(state.stock)}")
    head.append(f"rebuilds left: {cfg.reshuffles - state.reshuffled}")
    lines.append(" | ".join(head))
    if state.faceup >= 0:
        lines.append(f"Face-up wild in front of the dealer ({names[state.dealer]}): {NAME[state.faceup]}")
    if state.discard:
        below = " ".join(NAME[c] for c in reversed(state.discard[:-1]))
        lines.append(f"Discard pile: top {NAME[state.discard[-1]]}" + (f"; below (newest first): {below}"
                                                                       if below else ""))
    else:
        lines.append("Discard pile: empty")
    if state.melds:
        lines.append("On the table:")
        lines.extend(meld_line(state, index, names) for index in range(len(state.melds)))
    else:
        lines.append("On the table: no melds yet")
    lines.extend(seat_rows(rows or players(state, names), acting(state)))
    if viewer is not None and 0 <= viewer < n:
        # Numbered while the viewer picks cards from it (a meld, a lay-off, a discard).
        picking = state.phase == P_PLAY and state.current_player() == viewer
        lines.append(f"Your hand: {hand_text(state.hands[viewer], state.wild, numbered=picking)}")
    elif viewer is None:
        for seat, hand in enumerate(state.hands):
            if hand:
                lines.append(f"  {'Your' if is_you(names[seat]) else possessive(names[seat])} hand: "
                             f"{hand_text(hand, state.wild)}")
    return "\n".join(lines)


def table_view(state: EndOfPageState, viewer: int | None, names: Sequence[str]) -> TableView:
    cfg = state.cfg
    over = state.result() is not None
    piles = [Pile("discard pile", [NAME[c] for c in state.discard], len(state.discard))]
    if state.faceup >= 0:
        piles.append(Pile("face-up wild", [NAME[state.faceup]], 1, note=f"in front of {names[state.dealer]}"))
    piles.append(Pile("stock", [], len(state.stock),
                      note=f"rebuilds left: {cfg.reshuffles - state.reshuffled}"))
    melds = []
    for index, meld in enumerate(state.melds):
        melds.append(MeldView(meld_text(meld, state.mrules).split(), state.owners[index], meld_label(meld)))
    notes = [f"Round {state.round + (0 if over else 1)} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        notes.append(f"Target {cfg.target_score}")
    if state.wild:
        notes.append(f"Wild: {RANK_PLURALS[state.wild]}")
    held = hand_order(viewer_hand(state.hands, viewer), state.wild)
    hand = [NAME[card] for card in held]
    marks = {NAME[card]: "wild" for card in held if state.is_wild(card)}
    scores = ScoreSheet.by_round("points", state.round_scores, state.totals) if state.round_scores else None
    rows = players(state, names)
    return TableView(viewer=viewer, turn=acting(state), players=rows,
                     hand=hand, marks=marks, piles=piles, melds=melds, notes=notes, scores=scores,
                     text=render_table(state, viewer, names, rows))


def move_view(state: EndOfPageState, seat: int, action: Action) -> MoveView:
    kind = action[0]
    rules = state.mrules
    if kind == DRAW:
        return MoveView("draw", f"draw from the stock ({len(state.stock)} cards)")
    if kind == TAKE:
        return MoveView("take", f"take {NAME[action[1]]} from the discard pile", target="discard pile")
    if kind == PICKUP:
        cards = list(action[2][3])
        cards.remove(action[1])
        text = meld_text(action[2], rules)
        return MoveView("pickup", f"pick up {NAME[action[1]]} from deeper in the pile and meld {text}",
                        [NAME[c] for c in cards], choice=text, target="discard pile")
    if kind == MELD:
        text = meld_text(action[1], rules)
        wild = any(state.is_wild(c) for c in action[1][3])
        return MoveView("meld", f"meld {text}", [NAME[c] for c in action[1][3]], choice=text if wild else "")
    if kind == LAYOFF:
        _, index, card, as_rank = action
        meld = state.melds[index]
        means = stands_for(meld, as_rank)
        wild = state.is_wild(card)
        return MoveView("layoff", f"lay off {NAME[card]}" + (f" as {means}" if wild else "") +
                        f" on meld {index + 1}", [NAME[card]], choice=f"as {means}" if wild else "",
                        target=f"meld {index + 1}")
    if kind == DISCARD:
        last = len(state.hands[seat]) == 1
        return MoveView("discard", f"discard {NAME[action[1]]}" + (" and go out" if last else ""),
                        [NAME[action[1]]])
    raise ValueError(f"not a decision: {action!r}")
