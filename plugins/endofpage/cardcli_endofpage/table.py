"""End of the Page's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.abilities import TableData
from cardcli.cards import NAME, RANK, RANK_NAMES, SUIT, SUITS
from cardcli.grammar import name_seats, seat_names
from cardcli.melds import RUN, SET, meld_text
from cardcli.table_text import seat_rows
from cardcli.variant import CHANCE, Action
from cardcli.view import MeldView, MoveView, Pile, PlayerView, ScoreSheet, TableView

from .state import DISCARD, DRAW, LAYOFF, MELD, P_DEAL, PICKUP, TAKE, EndOfPageState


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


def hand_text(state: EndOfPageState, hand: Sequence[int], numbered: bool = False) -> str:
    """A hand sorted and grouped: suits low to high, the wilds apart."""
    order = sorted_for_display(state, hand)
    groups: list[str] = []
    current = None
    words: list[str] = []
    for number, card in enumerate(order, start=1):
        group = "wild" if state.is_wild(card) else SUITS[SUIT[card]]
        if group != current:
            if words:
                groups.append(" ".join(words))
            words = []
            current = group
        label = NAME[card] + ("*" if state.is_wild(card) else "")
        words.append(f"{number}:{label}" if numbered else label)
    if words:
        groups.append(" ".join(words))
    return " | ".join(groups)


def sorted_for_display(state: EndOfPageState, hand: Sequence[int]) -> list[int]:
    return sorted(hand, key=lambda c: (1 if state.is_wild(c) else 0, SUIT[c], RANK[c]))


def meld_display(state: EndOfPageState, index: int) -> str:
    meld = state.melds[index]
    parts = []
    kind, key, low, cards = meld
    for i, card in enumerate(cards):
        if state.is_wild(card):
            means = RANK_NAMES[key] if kind == SET else RANK_NAMES[low + i] + SUITS[key]
            parts.append(f"{NAME[card]}(={means})")
        else:
            parts.append(NAME[card])
    what = f"set of {RANK_NAMES[key]}s" if kind == SET else f"run of {SUITS[key]}"
    return f"{' '.join(parts)}  [{what}]"


def score_sheet(state: EndOfPageState, names: Sequence[str]) -> list[str]:
    """The running score sheet: one line per round played, then the totals."""
    width = max(6, *(len(n) for n in names))
    lines = ["Score sheet:", "  round " + " ".join(f"{n:>{width}}" for n in names)]
    for number, scores in enumerate(state.round_scores, start=1):
        lines.append(f"  {number:>5} " + " ".join(f"{s:>{width}}" for s in scores)
                     + f"   ({name_seats(state.notes[number - 1], names)})")
    lines.append("  total " + " ".join(f"{s:>{width}}" for s in state.totals))
    return lines


def players(state: EndOfPageState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: the count of cards, the points on the
    table this round and the total, and dealer, out, floating (melded their
    last card) or has melded."""
    views = []
    for seat, hand in enumerate(state.hands):
        notes = ["dealer"] if seat == state.dealer else []
        if seat in state.out:
            notes.append("out")
        elif not hand and state.melded[seat]:
            notes.append("floating")
        elif state.melded[seat]:
            notes.append("has melded")
        on_table = sum(state.points[c] for c in state.played[seat])
        score = f"table {on_table}, total {state.totals[seat]}"
        views.append(PlayerView(seat, names[seat], len(hand), notes, score))
    return views


def acting(state: EndOfPageState) -> int:
    """The seat the table points at: the player to move, or the one a card comes to."""
    player = state.current_player()
    return state.turn if player == CHANCE and state.phase != P_DEAL else player


def render_table(state: EndOfPageState, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
    n = state.num_players
    names = seat_names(names, n)
    cfg = state.cfg
    lines: list[str] = []
    over = state.result() is not None
    # The score sheet of the rounds before is the round's summary, shown when
    # it ends (``round_summary``); the table keeps only the totals, in its
    # rows, until the sheet closes the game.
    if state.round_scores and over:
        lines.extend(score_sheet(state, names))
        lines.append("")
    if over:
        lines.append(f"The last round, round {state.round}, as it ended ({name_seats(state.ended, names)}):")
        head = []
    else:
        head = [f"Round {state.round + 1} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        head.append(f"target {cfg.target_score}")
    if state.wild:
        head.append(f"WILD: {RANK_NAMES[state.wild]}s")
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
        for index in range(len(state.melds)):
            laid = [f"{NAME[card]} by {names[seat]}" for (i, seat, card, _r) in state.layoffs
                    if i == index and seat != state.owners[index]]
            note = f"  (laid off: {', '.join(laid)})" if laid else ""
            lines.append(f"  {index + 1}. {names[state.owners[index]]}: {meld_display(state, index)}{note}")
    else:
        lines.append("On the table: no melds yet")
    lines.extend(seat_rows(players(state, names), acting(state)))
    if viewer is not None and 0 <= viewer < n:
        lines.append(f"Your hand: {hand_text(state, state.hands[viewer])}")
    elif viewer is None:
        for seat, hand in enumerate(state.hands):
            if hand:
                owner = "Your" if names[seat].lower() == "you" else f"{names[seat]}'s"
                lines.append(f"  {owner} hand: {hand_text(state, hand)}")
    return "\n".join(lines)


def table_view(state: EndOfPageState, viewer: int | None, names: Sequence[str]) -> TableView:
    cfg = state.cfg
    turn = acting(state)
    over = state.result() is not None
    piles = [Pile("discard pile", [NAME[c] for c in state.discard], len(state.discard))]
    if state.faceup >= 0:
        piles.append(Pile("face-up wild", [NAME[state.faceup]], 1, note=f"in front of {names[state.dealer]}"))
    piles.append(Pile("stock", [], len(state.stock),
                      note=f"rebuilds left: {cfg.reshuffles - state.reshuffled}"))
    melds = []
    for index, meld in enumerate(state.melds):
        kind, key = meld[0], meld[1]
        label = f"set of {RANK_NAMES[key]}s" if kind == SET else f"run of {SUITS[key]}"
        melds.append(MeldView(meld_text(meld, state.mrules).split(), state.owners[index], label))
    notes = [f"Round {state.round + (0 if over else 1)} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        notes.append(f"Target {cfg.target_score}")
    if state.wild:
        notes.append(f"Wild: {RANK_NAMES[state.wild]}s")
    hand: list[str] = []
    marks: dict[str, str] = {}
    if viewer is not None and 0 <= viewer < state.num_players:
        for card in sorted_for_display(state, state.hands[viewer]):
            hand.append(NAME[card])
            if state.is_wild(card):
                marks[NAME[card]] = "wild"
    scores = None
    if state.round_scores:
        rows = [[f"round {i}", *row] for i, row in enumerate(state.round_scores, start=1)]
        scores = ScoreSheet("points", rows, list(state.totals))
    return TableView(viewer=viewer, turn=turn if turn >= 0 else None, players=players(state, names),
                     hand=hand, marks=marks, piles=piles, melds=melds, notes=notes, scores=scores,
                     text=render_table(state, viewer, names))


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
        means = RANK_NAMES[as_rank] + (SUITS[meld[1]] if meld[0] == RUN else "")
        wild = state.is_wild(card)
        return MoveView("layoff", f"lay off {NAME[card]}" + (f" as {means}" if wild else "") +
                        f" on meld {index + 1}", [NAME[card]], choice=f"as {means}" if wild else "",
                        target=f"meld {index + 1}")
    if kind == DISCARD:
        last = len(state.hands[seat]) == 1
        return MoveView("discard", f"discard {NAME[action[1]]}" + (" and go out" if last else ""),
                        [NAME[action[1]]])
    raise ValueError(f"not a decision: {action!r}")
