"""The table and its choices as data: what a variant may return for a client
that is not a terminal (a phone's browser, a watch page), and what the core
fills in for one that does not (:mod:`cardcli.words.view`).  Data only: no rules,
no code that builds them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kit.language import core as _

#: The viewer for a spectator: no seat, so no hand is shown (``None`` would
#: show every card).  Variants compare ``viewer`` with seats and never index
#: with it, so any value that is not a seat hides every hand.
SPECTATOR = -3


@dataclass
class PlayerView:
    """One seat as everyone sees it."""

    seat: int
    name: str
    cards: int | None = None  # cards in hand (None: the variant keeps no hands)
    notes: list[str] = field(default_factory=list)  # "dealer", "Page One", "out, place 2"
    score: str = ""  # running score or tally, as text


@dataclass
class Pile:
    """Cards on the table: face-up cards shown (the last is the top), or a count."""

    name: str
    cards: list[str] = field(default_factory=list)
    count: int = 0  # how many cards the pile holds (shown or not)
    labels: list[str] = field(default_factory=list)  # per shown card (who played it), or empty
    note: str = ""


@dataclass
class MeldView:
    """A meld on the table.  A wild shows what it stands for: ``7D=4S``."""

    cards: list[str]
    owner: int | None = None
    label: str = ""


@dataclass
class ScoreSheet:
    """Scores by round: ``rows`` are ``[label, score per seat...]``."""

    label: str
    rows: list[list[Any]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    @classmethod
    def by_round(cls, label: str, rounds: Sequence[Sequence[Any]], totals: Sequence[int]) -> ScoreSheet:
        """The sheet of a game in rounds: a row ``round N`` for each (in the language spoken)."""
        # Translators: a score sheet's row, on the served page: the round it is ("round 2").
        said = _("round {number}")
        return cls(label, [[said.format(number=i), *row] for i, row in enumerate(rounds, start=1)],
                   list(totals))


@dataclass
class SheetRow:
    """A row of a :class:`SheetView`: its cells before the scores (``["1",
    "me", "3H"]``), each seat's score (``None``: not entered yet) and mark."""

    cells: list[str]
    scores: list[int | None]
    marks: list[str] = field(default_factory=list)  # per seat: "" or a mark the legend explains
    note: str = ""


@dataclass
class SheetView:
    """A score sheet as a page shows it across the table: a row per round,
    the totals, who leads; ``columns`` head the cells before the scores."""

    label: str
    players: list[str]
    columns: list[str] = field(default_factory=list)
    rows: list[SheetRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)  # the seats leading, or winning once it is over
    legend: list[str] = field(default_factory=list)  # what each mark means: "? entered by hand"

    @classmethod
    def of_scores(cls, scores: ScoreSheet, players: Sequence[str], lower_wins: bool = False) -> SheetView:
        """A table's :class:`ScoreSheet` (rows ``[label, score per seat...]``) as a sheet."""
        totals = list(scores.totals)
        best = (min(totals) if lower_wins else max(totals)) if totals else None
        rows = [SheetRow([str(row[0])], [None if score is None else int(score) for score in row[1:]])
                for row in scores.rows]
        return cls(scores.label, list(players), ["round"], rows, totals,
                   [seat for seat, total in enumerate(totals) if total == best])

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "players": list(self.players), "columns": list(self.columns),
                "rows": [{"cells": list(row.cells), "scores": list(row.scores), "marks": list(row.marks),
                          "note": row.note} for row in self.rows],
                "totals": list(self.totals), "leaders": list(self.leaders), "legend": list(self.legend)}


@dataclass
class TableView:
    """The table as ``viewer`` sees it.  ``text`` is the terminal's table
    (``render``'s: the core fills it where a variant leaves it empty)."""

    viewer: int | None
    turn: int | None  # the seat to decide, or None (the deck is acting, or the game is over)
    players: list[PlayerView]
    hand: list[str] = field(default_factory=list)  # the viewer's cards, in display order
    marks: dict[str, str] = field(default_factory=dict)  # card name -> "wild", ...
    piles: list[Pile] = field(default_factory=list)
    melds: list[MeldView] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # penalties, the wild rank, the direction ...
    scores: ScoreSheet | None = None
    text: str = ""

    def __post_init__(self) -> None:
        if self.turn is not None and self.turn < 0:  # CHANCE or TERMINAL, as a state says it: nobody
            self.turn = None

    def as_dict(self) -> dict[str, Any]:
        """As JSON-ready data (what ``dataclasses.asdict`` gives, written out:
        a server builds one per client per update, and ``asdict``'s deep
        copies were most of a served table's time, ``bench/bench_serve.py``)."""
        scores = self.scores
        return {
            "viewer": self.viewer, "turn": self.turn,
            "players": [{"seat": p.seat, "name": p.name, "cards": p.cards, "notes": list(p.notes),
                         "score": p.score} for p in self.players],
            "hand": list(self.hand), "marks": dict(self.marks),
            "piles": [{"name": p.name, "cards": list(p.cards), "count": p.count, "labels": list(p.labels),
                       "note": p.note} for p in self.piles],
            "melds": [{"cards": list(m.cards), "owner": m.owner, "label": m.label} for m in self.melds],
            "notes": list(self.notes),
            "scores": None if scores is None else {"label": scores.label,
                                                   "rows": [list(row) for row in scores.rows],
                                                   "totals": list(scores.totals)},
            "text": self.text,
        }


@dataclass
class MoveView:
    """One legal decision, the way a person picks it.

    ``cards`` are the hand cards the move uses: a client lets the player tap
    them and then offers the moves using exactly those cards.  Moves that
    differ only by ``choice`` (the suit an 8 names, what a wild stands for) are
    offered together; ``declare`` names something said with the move (the
    "Page One!" call), which a client offers as a separate button so that
    forgetting it stays possible.  ``target`` says where the move goes
    ("meld 2") when that is not obvious from ``label``.
    """

    kind: str
    label: str
    cards: list[str] = field(default_factory=list)
    choice: str = ""
    declare: str = ""
    target: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "cards": list(self.cards), "choice": self.choice,
                "declare": self.declare, "target": self.target}


#: Lines of a board's log a page shows.
LINES_KEPT = 12


@dataclass
class BoardView:
    """What a board shows: a headline and a status line in large type, a
    score sheet, a table, the latest lines, and all of it as text."""

    title: str
    headline: str = ""  # "Round 3 of 10: mom deals, 5s wild"
    status: str = ""  # "me leads by 270"
    sheet: SheetView | None = None
    table: TableView | None = None
    lines: list[str] = field(default_factory=list)  # the newest last
    text: str = ""  # the whole board as text (cardcli join prints it)
    over: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.title, "headline": self.headline, "status": self.status,
                "sheet": None if self.sheet is None else self.sheet.as_dict(),
                "table": None if self.table is None else self.table.as_dict(),
                "lines": list(self.lines[-LINES_KEPT:]), "text": self.text, "over": self.over}
