"""End of the Page's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cardcli.contract.variant import Action, Variant
from cardcli.contract.views import MeldView, MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.kit.cards import NAME, rank_words
from cardcli.kit.grammar import is_you, listed, name_seats, possessive, seat_name, seat_names
from cardcli.kit.melds import meld_cards, meld_label, meld_shown, meld_text, stands_for
from cardcli.words.prompts import packed
from cardcli.words.table_text import hand_order, hand_text, score_sheet, seat_rows
from cardcli.words.view import seat_views, viewer_hand

from .language import N_, _
from .state import DISCARD, DRAW, LAYOFF, MELD, P_PLAY, PICKUP, TAKE, EndOfPageState

#: How a round ended as the state notes it (a record's English words, seats by number), said
#: to people by :func:`round_words`: a note that names nobody, or ``{names}`` for who went out.
ROUND_ENDS = (N_("the stock ran out after the last reshuffle allowed: nobody went out"),
              N_("the stock ran out with no discards to reshuffle: nobody went out"))
_WENT_OUT = re.compile(r"((?:seat \d+, )*seat \d+) went out")


class EndOfPageTable(Variant[EndOfPageState]):
    """The table as data (every discard: deeper ones can be picked up), and a move by the hand
    cards it uses, what the wilds stand for as the choice.  A label never tells how the round
    would end (that would read the other hands)."""

    def table_view(self, state: EndOfPageState, viewer: int | None, names: Sequence[str]) -> TableView:
        cfg = state.cfg
        over = state.result() is not None
        piles = [Pile(_("discard pile"), [NAME[c] for c in state.discard], len(state.discard))]
        if state.faceup >= 0:
            piles.append(Pile(_("face-up wild"), [NAME[state.faceup]], 1,
                              note=_("in front of {name}").format(name=names[state.dealer])))
        piles.append(Pile(_("stock"), [], len(state.stock),
                          note=_("rebuilds left: {count}").format(count=cfg.reshuffles - state.reshuffled)))
        melds = [MeldView(meld_text(meld, state.mrules).split(), owner, meld_label(meld))
                 for meld, owner in zip(state.melds, state.owners)]
        notes = [_("Round {round} of {rounds}").format(round=state.round + (0 if over else 1),
                                                       rounds=cfg.page_lines)]
        if cfg.target_score is not None:
            notes.append(_("Target {score}").format(score=cfg.target_score))
        if state.wild:
            notes.append(_("Wild: {ranks}").format(ranks=rank_words(state.wild)))
        held = hand_order(viewer_hand(state.hands, viewer), state.wild)
        marks = {NAME[card]: "wild" for card in held if state.is_wild(card)}
        scores = (ScoreSheet.by_round(_("points"), state.round_scores, state.totals) if state.round_scores
                  else None)
        rows = players(state, names)
        return TableView(viewer=viewer, turn=state.acting(), players=rows, hand=[NAME[card] for card in held],
                         marks=marks, piles=piles, melds=melds, notes=notes, scores=scores,
                         text=render_table(state, viewer, names, rows))

    def move_view(self, state: EndOfPageState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        return move_view(state, seat, action)

    def render_short(self, state: EndOfPageState, viewer: int | None = None,
                     names: Sequence[str] | None = None) -> str:
        """The table with its melds packed a few to a line, without what each is and who laid
        off on it: a busy table of six, with its round, wild and discard pile in view."""
        return render_table(state, viewer, names, short=True)


def round_words(note: str, names: Sequence[str]) -> str:
    """How a round ended, from the state's note (``seat 1 went out``, a
    record's words), said to people: in the chosen language, with the
    players' names."""
    went = _WENT_OUT.fullmatch(note)
    if went:
        seats = [int(seat) for seat in re.findall(r"\d+", went.group(1))]
        if not names or all(seat < len(names) for seat in seats):
            return _("{names} went out").format(names=listed([seat_name(seat, names) for seat in seats]))
    return name_seats(_(note) if note in ROUND_ENDS else note, names)


def sheet_lines(state: EndOfPageState, names: Sequence[str]) -> list[str]:
    """The score sheet so far: a line per round played (with how it ended), the totals."""
    return score_sheet(names, state.round_scores, state.totals, [round_words(n, names) for n in state.notes])


def meld_line(state: EndOfPageState, index: int, names: Sequence[str]) -> str:
    """A meld on the table, numbered, with its owner, what each wild stands
    for and the cards others laid off on it:
    ``  2. ann: 5C 5H 9D(=5)  [set of 5s]  (laid off: 5S by bob)``."""
    owner = state.owners[index]
    laid = [_("{card} by {name}").format(card=NAME[c], name=names[s])
            for i, s, c, _unused in state.layoffs if i == index and s != owner]
    meld = meld_shown(state.melds[index], state.mrules)
    if laid:
        return "  " + _("{number}. {name}: {meld}  (laid off: {cards})").format(
            number=index + 1, name=names[owner], meld=meld, cards=listed(laid))
    return f"  {index + 1}. {names[owner]}: {meld}"


def short_meld(state: EndOfPageState, index: int, names: Sequence[str]) -> str:
    """A meld as the short table shows it: ``2. ann: 5C 5H 9D(=5)`` (cards laid off included)."""
    return f"{index + 1}. {names[state.owners[index]]}: {meld_cards(state.melds[index], state.mrules)}"


def players(state: EndOfPageState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat's row: its points on the table this round and total; out, floating (melded
    their last card) or has melded."""
    def notes(seat: int, hand: Sequence[int]) -> list[str]:
        if seat in state.out:
            return [_("out")]
        return [_("floating") if not hand else _("has melded")] if state.melded[seat] else []

    def score(seat: int) -> str:
        points = sum(state.points[c] for c in state.played[seat])
        return _("table {points}, total {total}").format(points=points, total=state.totals[seat])
    return seat_views(state.hands, names, state.dealer, notes, score)


def render_table(state: EndOfPageState, viewer: int | None = None,
                 names: Sequence[str] | None = None, rows: list[PlayerView] | None = None, *,
                 short: bool = False) -> str:
    """The table as text; ``short``: the melds packed a few to a line (``render_short``)."""
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
        lines.append(_("The last round, round {round}, as it ended ({how}):").format(
            round=state.round, how=round_words(state.round_reason, names)))
        head = []
    else:
        head = [_("Round {round} of {rounds}").format(round=state.round + 1, rounds=cfg.page_lines)]
    if cfg.target_score is not None:
        head.append(_("target {score}").format(score=cfg.target_score))
    if state.wild:
        head.append(_("WILD: {ranks}").format(ranks=rank_words(state.wild)))
    head.append(_("stock: {count}").format(count=len(state.stock)))
    head.append(_("rebuilds left: {count}").format(count=cfg.reshuffles - state.reshuffled))
    lines.append(" | ".join(head))
    if state.faceup >= 0:
        lines.append(_("Face-up wild in front of the dealer ({name}): {card}").format(
            name=names[state.dealer], card=NAME[state.faceup]))
    if state.discard:
        below = " ".join(NAME[c] for c in reversed(state.discard[:-1]))
        top = NAME[state.discard[-1]]
        pile = (_("Discard pile: top {card}; below (newest first): {below}") if below
                else _("Discard pile: top {card}"))
        lines.append(pile.format(card=top, below=below))
    else:
        lines.append(_("Discard pile: empty"))
    if state.melds:
        lines.append(_("On the table:"))
        if short:
            lines.extend(packed([short_meld(state, index, names) for index in range(len(state.melds))]))
        else:
            lines.extend(meld_line(state, index, names) for index in range(len(state.melds)))
    else:
        lines.append(_("On the table: no melds yet"))
    lines.extend(seat_rows(rows or players(state, names), state.acting()))
    if viewer is not None and 0 <= viewer < n:
        # Numbered while the viewer picks cards from it (a meld, a lay-off, a discard).
        picking = state.phase == P_PLAY and state.current_player() == viewer
        lines.append(_("Your hand: {hand}").format(
            hand=hand_text(state.hands[viewer], state.wild, numbered=picking)))
    elif viewer is None:
        for seat, hand in enumerate(state.hands):
            if hand:
                cards = hand_text(hand, state.wild)
                lines.append("  " + (_("Your hand: {hand}").format(hand=cards) if is_you(names[seat]) else
                                     # Translators: {owner} is a player's name as owner ("ann's").
                                     _("{owner} hand: {hand}").format(owner=possessive(names[seat]),
                                                                      hand=cards)))
    return "\n".join(lines)


def move_view(state: EndOfPageState, seat: int, action: Action) -> MoveView:
    kind = action[0]
    if kind == DRAW:
        # The English says "1 cards": both forms are the same so that it stays as it was.
        count = len(state.stock)
        return MoveView("draw", _.ngettext("draw from the stock ({count} cards)",
                                           "draw from the stock ({count} cards)", count).format(count=count))
    if kind == TAKE:
        return MoveView("take", _("take {card} from the discard pile").format(card=NAME[action[1]]),
                        target=_("discard pile"))
    if kind == PICKUP:
        cards = list(action[2][3])
        cards.remove(action[1])
        text = meld_text(action[2], state.mrules)
        label = _("pick up {card} from deeper in the pile and meld {meld}").format(card=NAME[action[1]],
                                                                                    meld=text)
        return MoveView("pickup", label, [NAME[c] for c in cards], choice=text, target=_("discard pile"))
    if kind == MELD:
        text = meld_text(action[1], state.mrules)
        wild = any(state.is_wild(c) for c in action[1][3])
        return MoveView("meld", _("meld {meld}").format(meld=text), [NAME[c] for c in action[1][3]],
                        choice=text if wild else "")
    if kind == LAYOFF:
        _kind, index, card, as_rank = action
        meld = state.melds[index]
        means = stands_for(meld, as_rank)
        wild = state.is_wild(card)
        label = (_("lay off {card} as {means} on meld {number}") if wild
                 else _("lay off {card} on meld {number}"))
        return MoveView("layoff", label.format(card=NAME[card], means=means, number=index + 1), [NAME[card]],
                        choice=_("as {means}").format(means=means) if wild else "",
                        target=_("meld {number}").format(number=index + 1))
    if kind == DISCARD:
        last = len(state.hands[seat]) == 1
        return MoveView("discard", (_("discard {card} and go out") if last else _("discard {card}")).format(
            card=NAME[action[1]]), [NAME[action[1]]])
    raise ValueError(f"not a decision: {action!r}")
