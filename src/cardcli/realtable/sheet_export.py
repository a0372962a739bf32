"""The sheet shown and written out: the page as text, JSON, CSV, the live page's view, a plot."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..contract.round_scores import BY_HAND, CARDS
from ..contract.views import SheetRow, SheetView
from ..kit.grammar import join_and
from ..kit.language import N_
from ..kit.language import core as _
from ..words.table_text import score_sheet
from .sheet import Round, Sheet, opening_word_said

if TYPE_CHECKING:
    from ..contract.views import BoardView

#: How a score is marked on the page, by what was checked of it.
MARKS = {BY_HAND: "?", CARDS: "~"}
#: What each mark means, under the page (translated where shown).
LEGEND = {"?": N_("? entered by hand, not checked"),
          "~": N_("~ cards counted, not checked (cards listed, or laid off on melds not entered)")}


def title(sheet: Sheet) -> str:
    return f"{sheet.variant.words(sheet.variant.title)}: {join_and(sheet.names)}"


def headline(sheet: Sheet) -> str:
    """Where the game stands: ``Round 3 of 10: mom deals, 5s wild``."""
    over = sheet.over()
    if over is not None:
        return over[0].upper() + over[1:]
    size = sheet.page_size()
    current = sheet.current
    if current is not None:
        # Translators: {note} is what opens the round, as the page notes it ("5s wild").
        said = _("Round {number} of {size}: {dealer} deals, {note}") if size else \
            _("Round {number}: {dealer} deals, {note}")
        return said.format(number=current.number, size=size, dealer=sheet.names[current.dealer],
                           note=current.scored.shown)
    said = _("Round {number} of {size}: {dealer} deals") if size else _("Round {number}: {dealer} deals")
    return said.format(number=len(sheet.rounds) + 1, size=size, dealer=sheet.names[sheet.next_dealer()])


def standing(sheet: Sheet) -> str:
    """Who leads (or, once the game is over, who won), in words."""
    if not sheet.complete_rounds():
        return ""
    totals = sheet.totals()
    leaders = sheet.leaders()
    best = totals[leaders[0]]
    names = join_and([sheet.names[seat] for seat in leaders])
    if sheet.over() is not None:
        if len(leaders) == 1:
            return _("{names} wins with {best}.").format(names=names, best=best)
        return _("{names} share first place with {best}.").format(names=names, best=best)
    if len(leaders) > 1:
        return _("{names} are level on {best}.").format(names=names, best=best)
    others = [total for seat, total in enumerate(totals) if seat != leaders[0]]
    margin = abs(best - (min(others) if sheet.game.lower_wins else max(others)))
    return _("{names} leads by {margin}.").format(names=names, margin=margin)


def _mark(played: Round, seat: int) -> str:
    return MARKS.get(played.checked(seat) or "", "")


def _note(sheet: Sheet, played: Round) -> str:
    # Translators: a round's note on the page: who dealt, and what opened it ("5s wild").
    return _("{dealer} dealt, {note}").format(dealer=sheet.names[played.dealer], note=played.scored.shown)


def page(sheet: Sheet) -> list[str]:
    """The page: the complete rounds and the totals, who leads, the round
    being entered, and what the marks mean."""
    rounds = sheet.complete_rounds()
    rows = [[f"{played.score(seat)}{_mark(played, seat) or ' '}" for seat in range(sheet.players)]
            for played in rounds]
    lines = [title(sheet), *score_sheet(sheet.names, rows, [f"{total} " for total in sheet.totals()],
                                        [_note(sheet, played) for played in rounds])]
    said = standing(sheet)
    if said:
        lines.append(said)
    current = sheet.current
    if current is not None:
        lines.append(round_text(sheet, current))
    marks = {_mark(played, seat) for played in rounds for seat in range(sheet.players)}
    lines += [_(LEGEND[mark]) for mark in sorted(marks) if mark]
    return lines


def round_text(sheet: Sheet, played: Round) -> str:
    """A round's line for each player, with how each score was reached."""
    lines = [_("Round {number} ({note}):").format(number=played.number, note=_note(sheet, played))]
    width = max(len(name) for name in sheet.names)
    for seat, name in enumerate(sheet.names):
        score = played.score(seat)
        if score is None:
            # A row of the round's table: the name's column, then what is said of it.
            lines.append(f"  {name:<{width}}  " + _("not entered yet"))
            continue
        checked = played.checked(seat)
        if checked == BY_HAND:
            how = _("entered by hand, not checked")
        else:
            detail = played.scored.players[seat].said
            # Translators: {detail} is how the score was reached ("110 on the table - 5 in hand").
            how = _("{detail} (melds not checked)").format(detail=detail) if checked == CARDS else detail
        lines.append(f"  {name:<{width}}  {score:>5}  {how}")
    return "\n".join(lines)


def as_dict(sheet: Sheet) -> dict[str, Any]:
    """The sheet as JSON-ready data (``--json``)."""
    rounds = []
    for played in sheet.rounds:
        players = []
        for seat, name in enumerate(sheet.names):
            line = played.line(seat)
            score = played.scored.players.get(seat)
            players.append({"name": name, "score": played.score(seat), "checked": played.checked(seat),
                            "words": None if line is None else line.words,
                            "detail": None if score is None or line is None or line.words is None
                            else score.detail})
        rounds.append({"round": played.number, "dealer": sheet.names[played.dealer],
                       sheet.game.opening_word: played.scored.opening, "note": played.scored.note,
                       "complete": played.complete(sheet.players), "players": players})
    result = sheet.result()
    return {"format": "cardcli-scoresheet-page", "variant": sheet.variant.name, "players": sheet.names,
            "rules": sheet.rules, "rounds": rounds, "totals": sheet.totals(),
            "leaders": [sheet.names[seat] for seat in sheet.leaders()] if sheet.complete_rounds() else [],
            "over": sheet.over(), "result": None if result is None else result.as_dict()}


def csv_text(sheet: Sheet) -> str:
    """The complete rounds as CSV: round, dealer, the opening, each player's
    score, the players whose score was entered by hand; then the totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "dealer", sheet.game.opening_word, *sheet.names, "by hand"])
    for played in sheet.complete_rounds():
        by_hand = [sheet.names[s] for s in range(sheet.players) if played.checked(s) == BY_HAND]
        writer.writerow([played.number, sheet.names[played.dealer], played.scored.opening,
                         *[played.score(seat) for seat in range(sheet.players)], " ".join(by_hand)])
    writer.writerow(["total", "", "", *sheet.totals(), ""])
    return out.getvalue()


def sheet_view(sheet: Sheet) -> SheetView:
    """The sheet for a page: a row per round (the one being entered too), the totals, who leads."""
    rows = []
    for played in sheet.rounds:
        seats = range(sheet.players)
        rows.append(SheetRow([str(played.number), sheet.names[played.dealer], played.scored.opening],
                             [played.score(seat) for seat in seats], [_mark(played, seat) for seat in seats],
                             played.scored.shown))
    marks = {mark for row in rows for mark in row.marks if mark}
    leaders = sheet.leaders() if sheet.complete_rounds() else []
    # The headings of the page's first columns (the opening's is the word typed: "wild", "ワイルド").
    columns = [_("round"),
               # Translators: the heading of the served sheet's column of who dealt each round.
               _("dealer"),
               opening_word_said(sheet.game.opening_word)]
    return SheetView(sheet.variant.score_label, list(sheet.names), columns, rows, sheet.totals(), leaders,
                     [_(LEGEND[mark]) for mark in sorted(marks)])


def board_view(sheet: Sheet, lines: list[str]) -> BoardView:
    """What ``--serve`` shows: the headline, who leads, the sheet, the latest lines."""
    from ..contract.views import BoardView

    return BoardView(title(sheet), headline(sheet), standing(sheet), sheet_view(sheet), lines=list(lines),
                     text="\n".join(page(sheet)), over=sheet.over() is not None)


def plot(sheet: Sheet, path: Path) -> None:
    """Draw each player's running total after each round (``--plot``, the ``plot`` extra)."""
    from ..cpu.plot import save_figure

    def build(plt: Any) -> Any:
        running = sheet.running()
        figure, axis = plt.subplots(figsize=(7, 4.4), layout="constrained")
        rounds = list(range(len(running) + 1))
        for seat, name in enumerate(sheet.names):
            axis.plot(rounds, [0] + [totals[seat] for totals in running], marker="o", label=name)
        axis.set_xlabel(_("round"))
        # Translators: the plot's axis of running totals; {label} is what is scored ("points").
        axis.set_ylabel(_("total {label}").format(label=sheet.variant.words(sheet.variant.score_label)))
        axis.set_xticks(rounds)
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set_title(title(sheet))
        axis.legend()
        return figure

    save_figure(build, path)
