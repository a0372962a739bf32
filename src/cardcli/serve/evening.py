"""An evening at a served table: game after game at the same seats, with the same links.

Each game is its own record, complete on its own (it validates and replays
alone): the first is the file ``cardcli serve`` names (``GAME.jsonl``), the
next ``GAME.game2.jsonl``, ``GAME.game3.jsonl`` and so on, beside it.  The
evening itself (the games so far and their results, the seats, the rules of
the next game) is kept in the table file beside the first record
(``GAME.table.json``, with the links), written whenever it changes, so
``cardcli serve --resume GAME.jsonl`` continues the evening where it
stopped: in a game, or between two.

Between games the table stays open (:meth:`Table.between`): the next game
starts when the host says so, or (``again = "all"``) when every person at
the table has said "play again"; meanwhile the host may change the seats and
the rules (:mod:`cardcli.serve.lobby`).  The dealer moves on one seat each
game, and each game has its own seed, derived from the evening's.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..contract.options import Value
from ..contract.variant import Variant
from ..contract.views import SPECTATOR
from ..engine.game import Game, choose_dealer, derive_seed
from ..kit.errors import CardcliError, system_words
from ..kit.grammar import is_you
from ..kit.language import core as _
from ..kit.record_format import RecordExistsError, RecordWriter, SeatInfo
from ..records.saved import now_stamp
from ..terminal.session import over_text, ranking_text, table_header
from .table import HOST_NAME, Seat, Table
from .tally import tally

#: Who starts the next game: the host, or everyone saying "play again".
STARTS = ("host", "all")
_GAME_SUFFIX = re.compile(r"\.game\d+(-\d+)?$")


def first_record(record: Path) -> Path:
    """The evening's first record, for any of its records: ``x.game3.jsonl`` -> ``x.jsonl``."""
    stem = record.name[:-len(".jsonl")] if record.name.endswith(".jsonl") else record.name
    return record.with_name(_GAME_SUFFIX.sub("", stem) + ".jsonl")


@dataclass
class Played:
    """A game of the evening: its record (a file name beside the first), the
    tally's player in each seat, its dealer and, once over, its result."""

    record: str
    players: list[int]
    dealer: int
    result: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"record": self.record, "players": self.players, "dealer": self.dealer, "result": self.result}


class Evening:
    """The games of one served table tonight, the rules of the next, and the tally."""

    def __init__(self, first: Path, variant: Variant, rules: dict[str, Value], ruleset: str | None,
                 seed: int, *, again: str = "host"):
        self.first = first
        self.variant = variant
        self.rules = rules
        self.ruleset = ruleset
        self.seed = seed
        #: Who starts the next game now, and who the host chose (what the file
        #: keeps: a table served from a terminal nobody can type at starts
        #: each game when everyone is ready, but only while it is so served).
        self.again = self.chosen = again
        self.games: list[Played] = []
        #: The tally's players by number: the name each has now (or had when they left).
        self.people: dict[int, str] = {}

    # -------------------------------------------------------------- games
    @property
    def number(self) -> int:
        """The number of the game on now, or of the last one played."""
        return len(self.games)

    @property
    def playing(self) -> bool:
        return bool(self.games) and self.games[-1].result is None

    def begin(self, game: Game, table: Table, record: Path) -> None:
        """``game`` (written to ``record``) is the evening's next game, at the table's seats."""
        self.games.append(Played(record.name, [seat.player for seat in table.seats], game.dealer))
        self.remember(table)

    def record_path(self, played: Played) -> Path:
        return self.first.with_name(played.record)

    def next_game(self, table: Table) -> tuple[Game, Path]:
        """A new game at the table's seats as they are now: its own record
        (created here, never over another file), its own seed, the dealer one
        seat on from the last game's."""
        number = len(self.games) + 1
        seed = derive_seed(self.seed, "game", number) % 2**31
        count = len(table.seats)
        dealer = (self.games[-1].dealer + 1) % count if self.games else choose_dealer(seed, count)
        seats = [SeatInfo(seat.name, f"cpu:{seat.level}" if seat.kind == "cpu" else "human")
                 for seat in table.seats]
        stem = self.first.name[:-len(".jsonl")] if self.first.name.endswith(".jsonl") else self.first.name
        for attempt in itertools.count(1):
            path = self.first.with_name(f"{stem}.game{number}{f'-{attempt}' if attempt > 1 else ''}.jsonl")
            try:
                writer = RecordWriter.create(path)
                break
            except RecordExistsError:
                continue  # a record left by a server stopped as it began this game
            except OSError as error:
                raise CardcliError(_("cannot write the record {path}: {problem}").format(
                    path=path, problem=system_words(error))) from None
        game = Game(self.variant, dict(self.rules), seats, dealer, seed=seed, ruleset=self.ruleset,
                    writer=writer, created=now_stamp())
        self.begin(game, table, path)
        return game, path

    def finished(self, result: dict[str, Any], table: Table) -> None:
        """The game on now ended with ``result``."""
        self.games[-1].result = result
        self.remember(table)

    def remember(self, table: Table) -> None:
        self.remember_seats(table.seats)

    def remember_seats(self, seats: list[Seat]) -> None:
        """The tally's names: each seated player under the name they have now."""
        for seat in seats:
            self.people[seat.player] = seat.name

    def new_player(self) -> int:
        """A number for someone new at the table (a CPU added, a seat changing hands)."""
        return max(self.people, default=-1) + 1

    def header(self) -> str:
        """The next game's rules, as the line above the table says them."""
        return table_header(self.variant, self.rules, self.ruleset)

    def all_ready(self, table: Table) -> bool:
        """Every person at the table (the host and each friend still seated) said "play again"."""
        people = [seat for seat in table.seats if seat.person and not seat.left]
        return bool(people) and all(seat.ready for seat in people)

    # -------------------------------------------------------- what is shown
    def _names(self, table: Table, viewer: int) -> dict[int, str]:
        """The tally's players as ``viewer`` reads them: "you" only to itself (the
        host, in the language in use, to the others)."""
        mine = table.seats[viewer].player if viewer >= 0 and viewer < len(table.seats) else None
        names = {}
        for player, name in self.people.items():
            names[player] = ("you" if player == mine else _(HOST_NAME)) if is_you(name) else name
        return names

    def tally(self, table: Table, viewer: int) -> dict[str, Any]:
        done = [(played.players, played.result) for played in self.games if played.result is not None]
        return tally(done, self._names(table, viewer), self.variant.words(self.variant.score_label))

    def message(self, table: Table, viewer: int) -> dict[str, Any]:
        """The ``evening`` message for ``viewer``: the tally, how the last game
        ended, the next game's seats and who has said "play again"."""
        last = None
        ended = [played for played in self.games if played.result is not None]
        if ended:
            played = ended[-1]
            assert played.result is not None
            known = self._names(table, viewer)
            names = [known.get(player) or _("player {number}").format(number=seat + 1)
                     for seat, player in enumerate(played.players)]
            headline = over_text(played.result, names, self.variant)
            label = self.variant.words(self.variant.score_label)
            last = {"game": len(ended), "result": played.result, "headline": headline,
                    "ranking": ranking_text(played.result, names, label)}
        return {"type": "evening", "game": len(self.games) + (0 if self.playing else 1),
                "tally": self.tally(table, viewer), "last": last,
                "next": table.lobby_view(viewer, self.again) if table.lobby is not None else None}

    def host_viewer(self, table: Table) -> int:
        return next((seat.index for seat in table.seats if seat.kind == "host"), SPECTATOR)

    # ----------------------------------------------------------- the file
    def as_dict(self, table: Table) -> dict[str, Any]:
        return {"variant": self.variant.name, "rules": self.rules, "ruleset": self.ruleset, "seed": self.seed,
                "again": self.chosen, "games": [played.as_dict() for played in self.games],
                "people": {str(player): name for player, name in self.people.items()},
                "seats": [{"name": s.name, "kind": s.kind, "level": s.level, "player": s.player,
                           "named": s.named, "left": s.left} for s in table.seats]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], first: Path, variant: Variant,
                  rules: dict[str, Value]) -> tuple[Evening, list[Seat]]:
        """The evening and its seats as the table file keeps them (``rules``
        already checked against ``variant``).  Raises ``ValueError``, ``KeyError``
        or ``TypeError`` for a file that is not one."""
        again = str(data.get("again", "host"))
        if again not in STARTS:
            raise ValueError(_("unknown 'again' {again!r}").format(again=again))
        ruleset = data.get("ruleset")
        evening = cls(first, variant, rules, None if ruleset is None else str(ruleset), int(data["seed"]),
                      again=again)
        for entry in data["games"]:
            result = entry.get("result")
            if result is not None and not isinstance(result, dict):
                raise ValueError(_("a game's result is not an object"))
            record = str(entry["record"])
            if "/" in record or "\\" in record or not record.endswith(".jsonl"):
                raise ValueError(_("a game's record {record!r} is not a file name beside the first").format(
                    record=record))
            evening.games.append(Played(record, [int(p) for p in entry["players"]], int(entry["dealer"]),
                                        result))
        evening.people = {int(player): str(name) for player, name in dict(data.get("people", {})).items()}
        seats = []
        for index, entry in enumerate(data["seats"]):
            kind = str(entry["kind"])
            if kind not in ("host", "friend", "cpu"):
                raise ValueError(_("unknown seat kind {kind!r}").format(kind=kind))
            seats.append(Seat(index, str(entry["name"]), kind, level=str(entry.get("level") or "normal"),
                              player=int(entry["player"]), named=bool(entry.get("named", False)),
                              left=bool(entry.get("left", False))))
        if not seats:
            raise ValueError(_("no seats"))
        return evening, seats
