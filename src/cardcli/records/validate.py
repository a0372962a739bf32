"""Checking a record against the rules its header names.

There is no second rules implementation here: the record reader
(:mod:`cardcli.records.reader`) replays the record through the variant's own rules,
which refuse anything illegal, and this module's visitor adds only what
belongs to records (the game must be over and its result line there, every
card stays accounted for) and turns any problem into a report.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, Any

from ..engine.game import Game
from ..engine.plugins import Registry
from ..kit.cards import UNSEEN
from ..kit.errors import CardcliError, Kind, RecordError
from ..kit.language import core as _
from ..kit.record_format import Header
from .reader import Event, RecordVisitor, read_record


@dataclass
class Report:
    source: str
    valid: bool = False
    variant: str | None = None
    moves: int = 0
    events: int = 0
    result: dict[str, Any] | None = None
    error: RecordError | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Whose view a record with unseen cards is written from (``None``: every card is written).
    view: str | None = None
    #: The players' names, by seat, as the header gives them.
    names: list[str] = field(default_factory=list)

    @property
    def check(self) -> str:
        """Which check was made: ``"full"`` (every card known) or ``"consistent"``
        (some cards unseen: at least one deal of them makes every move legal)."""
        return "full" if self.view is None else "consistent"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"file": self.source, "valid": self.valid, "variant": self.variant,
                                "moves": self.moves, "events": self.events, "check": self.check}
        if self.view is not None:
            data["view"] = self.view
        if self.result is not None:
            data["result"] = self.result
        if self.error is not None:
            data["error"] = self.error.as_dict()
        return data


class Validator(RecordVisitor[Report]):
    """The ``validate`` visitor: every card accounted for after every event,
    the game over and its result line there; the report, never an exception."""

    def __init__(self, check_cards: bool = True):
        self.check_cards = check_cards
        self.report = Report("<record>")

    def begin_record(self, source: str) -> None:
        self.report = Report(source)
        self.game: Game | None = None
        self.deck: list[int] | None = None  # the pack, sorted
        self.cards: frozenset[int] = frozenset()  # the pack's cards, each once
        self.last_line = 0

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        self.game = game
        self.report.view = header.view
        if self.check_cards:
            self.deck = sorted(game.variant.deck(game.rules, len(game.seats)))
            if header.view is not None:
                self.cards = frozenset(self.deck)
                self.visit_state = self._seen_accounted  # type: ignore[method-assign]
        return None

    def _seen_accounted(self, game: Game, event: Event) -> None:
        """With unseen cards: as many cards as the pack, and the known ones the pack's."""
        self.last_line = event.line
        deck = self.deck
        assert deck is not None
        held: list[int] = []
        for cards in game.state.card_zones().values():
            held += cards
        held.sort()  # the unseen cards last (UNSEEN is the highest value)
        if len(held) != len(deck):
            self._unaccounted(game, event, deck)
        # The known cards, each a card of the pack: in C with sets where no
        # card is known twice (one deck), else counted copy by copy.
        known = held[:bisect_left(held, UNSEEN)]
        if not self.cards.issuperset(known) or (len(set(known)) != len(known) and not _within(held, deck)):
            self._unaccounted(game, event, deck)

    def visit_state(self, game: Game, event: Event) -> None:
        self.last_line = event.line
        deck = self.deck
        if deck is None:
            return
        # Every card, from every zone, against the pack: sorting the few dozen
        # cards in C costs less than counting them, and about what finding
        # what moved zone by zone costs (bench/README.md, "Where the time goes").
        held: list[int] = []
        for cards in game.state.card_zones().values():
            held += cards
        held.sort()
        if held != deck:
            self._unaccounted(game, event, deck)

    def _unaccounted(self, game: Game, event: Event, deck: list[int]) -> None:
        """The cards are not the pack's: say which are missing and which extra."""
        held = Counter(chain.from_iterable(game.state.card_zones().values()))
        pack = Counter(deck)
        missing, extra = pack - held, held - pack
        said = _("after move {move}: cards are not accounted for (missing {missing}, extra {extra}) - a bug "
                 "in the variant")
        raise RecordError(said.format(move=game.moves, missing=sorted(missing.elements()),
                                      extra=sorted(extra.elements())),
                          source=self.report.source, line=event.line, move=game.moves, kind=Kind.CARDS)

    def end_record(self, game: Game) -> None:
        report, source = self.report, self.report.source
        # A record of a real table goes on at the table (the referee's), not in play.
        command = "play" if report.view is None else "referee"
        if not game.state.is_terminal():
            if source == "<stdin>":
                said = _("legal so far; unfinished after move {move} (next: {expected})")
            else:
                # Translators: {command} is a command to type: `cardcli play --resume game.jsonl`.
                said = _("legal so far; unfinished after move {move} (next: {expected}); continue it with "
                         "`{command}`")
            said = said.format(move=game.moves, expected=game.state.expecting(),
                               command=f"cardcli {command} --resume {source}")
            raise RecordError(said, source=source,
                              line=self.last_line or None, move=game.moves, kind=Kind.UNFINISHED)
        result = game.state.result()
        report.result = result.as_dict() if result else None
        if not game.result_line_seen:
            if source == "<stdin>":
                # Translators: {line} is the result line the record lacks, as JSON.
                said = _("the game is over but the record has no result line (expected {line})")
            else:
                said = _("the game is over but the record has no result line (expected {line}); add that "
                         "line, or let `{command}` write it")
            said = said.format(line=json.dumps({"result": report.result}),
                               command=f"cardcli {command} --resume {source}")
            raise RecordError(said,
                              source=source, move=game.moves, kind=Kind.MISSING_RESULT)
        report.valid = True

    def handle_error(self, error: RecordError) -> None:
        self.report.error = error

    def result(self) -> Report:
        report, game = self.report, self.game
        if game is not None:
            report.variant = game.variant.name
            report.moves, report.events = game.moves, game.events
            report.names = list(game.names)
        return report


def _within(held: list[int], deck: list[int]) -> bool:
    """Whether the known cards of ``held`` (sorted, unseen ones last) are
    among ``deck``'s (sorted), copies counted."""
    at = 0
    end = len(deck)
    for card in held:
        if card == UNSEEN:
            return True
        while at < end and deck[at] < card:
            at += 1
        if at == end or deck[at] != card:
            return False
        at += 1
    return True


def validate_stream(stream: IO[bytes], source: str, registry: Registry, *,
                    check_cards: bool = True) -> Report:
    """Validate one record; never raises for bad input (the report says why)."""
    try:
        return read_record(stream, source, registry, Validator(check_cards))
    except CardcliError as error:
        report = Report(source)
        report.error = RecordError(str(error), source=source)
        return report
