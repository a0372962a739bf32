"""Checking a record against the rules its header names.

There is no second rules implementation here: the record is replayed
through the variant's own ``State.apply``, which refuses anything illegal,
and this module adds only what belongs to records (the result line must be
there and must match, every card stays accounted for).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

from .errors import CardcliError, RecordError
from .game import Game, walk_record
from .plugins import Registry


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

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"file": self.source, "valid": self.valid, "variant": self.variant,
                                "moves": self.moves, "events": self.events}
        if self.result is not None:
            data["result"] = self.result
        if self.error is not None:
            data["error"] = self.error.as_dict()
        return data


def validate_stream(stream: IO[bytes], source: str, registry: Registry, *,
                    check_cards: bool = True) -> Report:
    """Validate one record; never raises for bad input (the report says why)."""
    report = Report(source)
    holder: list[Game] = []
    try:
        deck: Counter[int] | None = None
        last_line = 0
        for step in walk_record(stream, source, registry, on_header=holder.append):
            game = holder[0]
            last_line = step.line
            if check_cards:
                if deck is None:
                    deck = Counter(game.variant.deck(game.rules, len(game.seats)))
                zones = game.state.card_zones()
                held = Counter(card for cards in zones.values() for card in cards)
                if held != deck:
                    missing, extra = deck - held, held - deck
                    raise RecordError(f"after move {game.moves}: cards are not accounted for "
                                      f"(missing {sorted(missing.elements())}, extra "
                                      f"{sorted(extra.elements())}) - a bug in the variant",
                                      source=source, line=step.line, move=game.moves, kind="cards")
        if not holder:  # pragma: no cover - walk_record raises for an empty record
            raise RecordError("empty record", source=source)
        game = holder[0]
        report.variant = game.variant.name
        report.moves, report.events = game.moves, game.events
        if not game.state.is_terminal():
            resume = "" if source == "<stdin>" else f"; continue it with `cardcli play --resume {source}`"
            raise RecordError(f"legal so far; unfinished after move {game.moves} "
                              f"(next: {game.state.expecting()}){resume}", source=source,
                              line=last_line or None, move=game.moves, kind="unfinished")
        result = game.state.result()
        report.result = result.as_dict() if result else None
        if not game.result_line_seen:
            repair = ("" if source == "<stdin>" else
                      f"; add that line, or let `cardcli play --resume {source}` write it")
            raise RecordError("the game is over but the record has no result line "
                              f"(expected {json.dumps({'result': report.result})}){repair}",
                              source=source, move=game.moves, kind="missing-result")
        report.valid = True
    except RecordError as error:
        report.error = error
        if holder:
            report.variant = holder[0].variant.name
            report.moves, report.events = holder[0].moves, holder[0].events
    except CardcliError as error:
        report.error = RecordError(str(error), source=source)
    return report

