"""What one seat sees, as data: the table and its choices for clients that are not a terminal.

The terminal shows :meth:`Variant.render`'s text.  A phone's browser needs the
same table as structure (its hand as cards to tap, the piles, everyone's card
count, melds, scores) and the legal moves with the hand cards each one uses.
:class:`TableView` and :class:`MoveView` are that structure.  A variant that
declares the :class:`TableData` ability fills them itself; for any other the
core fills them from what every variant already has (``card_zones``,
``hidden_zones``, ``render``, ``encode_action``), so a third party's variant
is playable from a browser untouched.  The core asks through
:func:`table_view` and :func:`move_view`.

A view is built for one viewer and holds only what that viewer may see: the
server sends nothing else.  ``cardcli.testing.VariantConformance`` checks it
by dealing every card the viewer cannot see anew and comparing the views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import NAME, sorted_hand
from .hidden import HiddenInfo, hidden_to_anyone

if TYPE_CHECKING:
    from .variant import Action, State, Variant

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


def viewer_hand(hands: Sequence[Sequence[int]], viewer: int | None) -> Sequence[int]:
    """The hand of ``viewer`` where it is a seat, else none (a spectator)."""
    return hands[viewer] if viewer is not None and 0 <= viewer < len(hands) else ()


def seat_views(hands: Sequence[Sequence[int]], names: Sequence[str], dealer: int,
               notes: Callable[[int, Sequence[int]], list[str]] = lambda seat, hand: [],
               score: Callable[[int], str] = lambda seat: "") -> list[PlayerView]:
    """Each seat as the table shows it: its name, the count of its cards,
    "dealer" first among its notes; ``notes(seat, hand)`` and ``score(seat)``
    add the variant's own ("Page One", "total 12")."""
    return [PlayerView(seat, names[seat], len(hand), ["dealer"] * (seat == dealer) + notes(seat, hand),
                       score(seat)) for seat, hand in enumerate(hands)]


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
        """The sheet of a game in rounds: a row ``round N`` for each."""
        return cls(label, [[f"round {i}", *row] for i, row in enumerate(rounds, start=1)], list(totals))


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
    """The table as ``viewer`` sees it.  ``text`` is the terminal's table."""

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


def hand_zone(state: State, seat: int) -> list[int] | None:
    """``seat``'s hand, by the ``"hand N"`` zone every built-in variant uses."""
    if not 0 <= seat < state.num_players:
        return None
    return state.card_zones().get(f"hand {seat}")


class TableData:
    """Opt-in ability of a :class:`~cardcli.variant.Variant`: the table and
    its moves as data of its own (its piles, melds and scores as such, its
    choices grouped), for the browser page and other network clients."""

    __slots__ = ()

    def table_view(self, state: Any, viewer: int | None, names: Sequence[str]) -> TableView:
        """The table as ``viewer`` sees it (a seat, :data:`SPECTATOR` for the
        public table, ``None`` for everything), as data.  Read only what
        ``viewer`` may see: the server sends this view and nothing else."""
        return generic_table_view(self, state, viewer, names)  # type: ignore[arg-type]

    def move_view(self, state: Any, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        """How ``seat`` picks the legal decision ``action``: its label, the hand
        cards it uses, and the choice or call that sets it apart from moves
        with the same cards."""
        return generic_move_view(self, state, seat, action, names)  # type: ignore[arg-type]


def table_view(variant: Variant[Any], state: State, viewer: int | None, names: Sequence[str]) -> TableView:
    """The table as ``viewer`` sees it, as data: the variant's own, or the core's."""
    if isinstance(variant, TableData):
        return variant.table_view(state, viewer, names)
    return generic_table_view(variant, state, viewer, names)


def move_view(variant: Variant[Any], state: State, seat: int, action: Action,
              names: Sequence[str]) -> MoveView:
    """How ``seat`` picks ``action``: the variant's own words, or the core's."""
    if isinstance(variant, TableData):
        return variant.move_view(state, seat, action, names)
    return generic_move_view(variant, state, seat, action, names)


def hidden_to(state: State, viewer: int | None) -> set[str] | None:
    """The zones ``viewer`` cannot see (a spectator: any zone hidden from some
    seat), or ``None`` when the variant does not say."""
    if viewer is None:
        return set()
    if not isinstance(state, HiddenInfo):
        return None
    if 0 <= viewer < state.num_players:
        return set(state.hidden_zones(viewer))
    return hidden_to_anyone(state, state.num_players)


def generic_table_view(variant: Variant, state: State, viewer: int | None,
                       names: Sequence[str]) -> TableView:
    """A view from what every variant has: the zones (hands as counts, the
    viewer's own hand as cards) and the rendered table as text."""
    zones = state.card_zones()
    player = state.current_player()
    players = [PlayerView(seat, names[seat], len(zones[f"hand {seat}"]) if f"hand {seat}" in zones else None)
               for seat in range(state.num_players)]
    own = f"hand {viewer}" if viewer is not None else None
    hidden = hidden_to(state, viewer)
    piles = []
    for name, cards in zones.items():
        if name.startswith("hand ") or not cards:
            continue
        shown = hidden is not None and name not in hidden
        if viewer is None:
            shown = True
        # A zone's order is the variant's business: a count, plus the cards
        # (sorted, so nothing is read into their order) where they are face up.
        piles.append(Pile(name, [NAME[c] for c in sorted_hand(cards)] if shown else [], len(cards)))
    hand: list[str] = []
    if own is not None and own in zones:
        hand = [NAME[c] for c in sorted_hand(zones[own])]
    return TableView(viewer=viewer, turn=player if player >= 0 else None, players=players, hand=hand,
                     piles=piles, text=variant.render(state, viewer=viewer, names=names))


def _card_names(value: Any) -> list[str]:
    """Card names in a record field: ``"7H"``, ``["4S", "3H=5S"]`` (the card before ``=``)."""
    items = value if isinstance(value, list) else [value]
    return [item.split("=", 1)[0].upper() for item in items if isinstance(item, str)]


def move_words(fields: Mapping[str, Any]) -> str:
    """A decision's record fields as a command, in the present tense: "play
    7H", "meld 4S 4H 4D", "play 8C (suit H, call)"."""
    rest = dict(fields)
    words = [str(rest.pop("move", None) or rest.pop("chance", None) or "move")]
    rest.pop("seat", None)
    for key in ("card", "cards"):
        value = rest.pop(key, None)
        words.extend(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
    notes = []
    for key, value in rest.items():
        if value is True:
            notes.append(key)
        elif value is not False and value is not None:
            shown = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
            notes.append(f"{key} {shown}")
    return " ".join(words) + (f" ({', '.join(notes)})" if notes else "")


def generic_move_view(variant: Variant, state: State, seat: int, action: Action,
                      names: Sequence[str]) -> MoveView:
    """A move from its record fields: its label says them as a command ("play
    7H"), and the cards it names that are in the seat's hand are the cards it
    uses."""
    fields = variant.encode_action(state, action)
    label = move_words(fields)
    hand = hand_zone(state, seat)
    cards: list[str] = []
    if hand is not None:
        left = Counter(NAME[c] for c in hand)
        for key in ("card", "cards"):
            for name in _card_names(fields.get(key)):
                if left[name] > 0:
                    left[name] -= 1
                    cards.append(name)
    return MoveView(kind=str(fields.get("move", "move")), label=label, cards=cards)


def moves_for(variant: Variant, state: State, seat: int, legal: Sequence[Action],
              names: Sequence[str]) -> list[MoveView]:
    """Every legal move of ``seat`` as a :class:`MoveView`, in ``legal``'s order."""
    return [move_view(variant, state, seat, action, names) for action in legal]


def played_cards(variant: Variant, state: State, action: Action) -> list[str]:
    """The cards a decision (about to be applied to ``state``) puts on the
    table: those its record fields name that are in the actor's hand.  Empty
    for a chance event or a move that plays no card (a draw, a take)."""
    seat = state.current_player()
    if seat < 0:
        return []
    fields = variant.encode_action(state, action)
    named = [name for key in ("card", "cards", "meld") for name in _card_names(fields.get(key))]
    hand = hand_zone(state, seat)
    if hand is None or not named:
        return named
    left = [NAME[c] for c in hand]
    cards = []
    for name in named:
        if name in left:
            left.remove(name)
            cards.append(name)
    return cards
