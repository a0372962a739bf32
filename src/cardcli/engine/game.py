"""A game at a table, being played or read back from its record.

:class:`Game` is the :class:`~cardcli.engine.driver.Driver` of a table: the
variant's state, the seats, dealer and seed, and the record, written event by
event as they are applied.  :mod:`cardcli.records.reader` reads a record back into a
``Game``, checking each event with the variant's rules and applying it
through the same driver.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any

from ..contract.options import seat_count_problem
from ..contract.variant import Action, S, Variant
from ..kit.errors import Kind, PluginError, RecordError, RulesetError
from ..kit.language import core as _
from ..kit.rand import below, seeded
from ..kit.record_format import Header, RecordWriter, SeatInfo
from ..kit.safe_text import printable
from .driver import Driver, Hook, Player
from .plugins import Registry
from .rulesets import rules_from_record

_sha256 = hashlib.sha256


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts (run seed, game number, ...), stable everywhere."""
    text = f"{parts[0]}:{parts[1]}" if len(parts) == 2 else ":".join(map(str, parts))
    return int.from_bytes(_sha256(text.encode()).digest()[:8], "big") >> 1


def choose_dealer(seed: int, num_players: int) -> int:
    return below(seeded(derive_seed(seed, "dealer")), num_players)


class Recorder(Hook):
    """Writes each event to a record: encoded before it is applied (encoding
    reads the state), written after, so an illegal action writes nothing."""

    def __init__(self, game: Game[Any]):
        self.game = game
        self.line: dict[str, Any] | None = None

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        self.line = self.game.encode(action)

    def after(self, driver: Driver[Any], seat: int, action: Action) -> None:
        writer = self.game.writer
        if writer is not None and self.line is not None:
            writer.write(self.line)
            line = self.game.variant.checkpoint(self.game.state)
            if line is not None:
                writer.write(line)
        self.line = None


#: Stands for the chance source of a seeded :class:`Game` until it is first used.
_LATER: Any = object()


class Game(Driver[S]):
    """A game at a table: the driver of the variant's state, the seats, and the
    record being written (while :attr:`writer` is set, every event is written
    as it is applied, before any later hook sees it)."""

    def __init__(self, variant: Variant[S], rules: dict[str, Any], seats: Sequence[SeatInfo], dealer: int,
                 *, seed: int | None = None, ruleset: str | None = None,
                 writer: RecordWriter | None = None, players: Sequence[Player | None] | None = None,
                 created: str | None = None, undo: bool = False):
        self.variant = variant
        #: When the game started (ISO 8601), kept in the header for information.
        self.created = created
        self.rules = rules
        self.seats = list(seats)
        self.dealer = dealer
        self.seed = seed
        self.ruleset = ruleset
        # The chance source is made when first used: reading a record (validate,
        # replay) never draws from it, and seeding one costs more than a short game's check.
        self._chance_seed = derive_seed(seed, "chance") if seed is not None else None
        self._rng: random.Random | None = None
        rng = _LATER if seed is not None else random.Random(derive_seed(random.randrange(2**62), "chance"))
        super().__init__(variant.new_state(rules, len(self.seats), dealer), players, rng=rng, checked=True,
                         fresh=self.new_state, undo=undo)
        self.result_line_seen = False
        self._recorder = Recorder(self)
        self._writer: RecordWriter | None = None
        self.writer = writer
        if writer is not None:
            writer.write(self.header().as_dict())

    @property
    def rng(self) -> random.Random:
        """Where chance outcomes come from: seeded from the game's seed when first used."""
        rng = self._rng
        if rng is None:
            assert self._chance_seed is not None, "a game without a seed has its chance source from the start"
            rng = self._rng = seeded(self._chance_seed)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = None if rng is _LATER else rng

    @property
    def writer(self) -> RecordWriter | None:
        """Where events are written; setting it (``play --resume``) starts writing."""
        return self._writer

    @writer.setter
    def writer(self, writer: RecordWriter | None) -> None:
        self._writer = writer
        if writer is None:
            if self._recorder in self.hooks:
                self.hooks.remove(self._recorder)
        elif self._recorder not in self.hooks:
            self.hooks.insert(0, self._recorder)

    @property
    def names(self) -> list[str]:
        """The players' names as shown to people: control characters escaped."""
        return [printable(seat.name) for seat in self.seats]

    def header(self) -> Header:
        return Header(variant=self.variant.name, rules=dict(self.rules), players=self.seats,
                      dealer=self.dealer, seed=self.seed, ruleset=self.ruleset,
                      extra={"created": self.created} if self.created else {})

    def encode(self, action: Action) -> dict[str, Any]:
        """The record line for ``action`` in the current state."""
        player = self.state.current_player()
        fields = self.variant.encode_action(self.state, action)
        if player >= 0:
            return {"seat": player, **fields}
        return fields

    def chance(self) -> Action:
        """A random outcome for the current chance node."""
        return self.state.sample_chance(self.rng)

    def new_state(self) -> S:
        """The state before the first event (the table as dealt to)."""
        return self.variant.new_state(self.rules, len(self.seats), self.dealer)

    def finish(self) -> dict[str, Any] | None:
        """Write the result line once the game is over; return the result."""
        result = self.state.result()
        if result is None:
            return None
        data = result.as_dict()
        if self.writer is not None:
            self.writer.write({"result": data})
        return data

    def reseed(self) -> None:
        """Continue a resumed game with chance derived from the seed and the point reached."""
        self.rng = random.Random(derive_seed(self.seed if self.seed is not None else 0, "resume",
                                             self.events))


def header_to_game(header: Header, registry: Registry, source: str, line: int = 1, *,
                   undo: bool = False) -> Game:
    """A fresh :class:`Game` for a record's header (rules checked like a ruleset);
    ``undo``: one that can take events back (:meth:`~cardcli.engine.driver.Driver.pop`)."""
    try:
        variant = registry.get(header.variant)
    except PluginError as error:
        raise RecordError(_("bad header: {problem}").format(problem=error), source=source, line=line,
                          kind=Kind.HEADER) from None
    n = len(header.players)
    try:
        rules = rules_from_record(variant, header.rules, "rules", n)
    except RulesetError as error:
        raise RecordError(_("bad header: {problem}").format(problem=error.one_line()), source=source,
                          line=line, kind=Kind.HEADER) from None
    if header.ruleset:
        # Translators: where a record's rules come from, in a refusal of its table ({ruleset}: its name).
        where = _("the header's rules for {ruleset!r}").format(ruleset=header.ruleset)
    else:
        where = _("the header's rules")
    problem = seat_count_problem(n, rules, variant.name, (variant.min_players, variant.max_players),
                                 where, header.rules)
    if problem:
        raise RecordError(_("bad header: {problem}").format(problem=printable(problem)), source=source,
                          line=line, kind=Kind.HEADER)
    created = header.extra.get("created")
    return Game(variant, rules, header.players, header.dealer, seed=header.seed, ruleset=header.ruleset,
                created=created if isinstance(created, str) else None, undo=undo)


def check_result(game: Game, data: dict[str, Any], source: str, line: int) -> None:
    """The stated result must be the one the rules give (every stated key)."""
    result = game.state.result()
    if result is None:
        raise RecordError(_("the record states a result after move {move}, but the game is not over (next: "
                            "{next})").format(move=game.moves, next=game.state.expecting()),
                          source=source, line=line, move=game.moves, kind=Kind.WRONG_RESULT)
    stated = data["result"]
    if not isinstance(stated, dict):
        raise RecordError(_("'result' must be an object"), source=source, line=line, kind=Kind.SYNTAX)
    if set(data) != {"result"}:
        extra = sorted(set(data) - {"result"})[0]
        raise RecordError(_("unknown key {key!r} on the result line").format(key=extra), source=source,
                          line=line, kind=Kind.SYNTAX)
    if not stated:
        raise RecordError(_("the result is empty: state at least 'places', 'winner' or 'scores'"),
                          source=source, line=line, kind=Kind.SYNTAX)
    actual = result.as_dict()
    for key, value in stated.items():
        if key not in actual:
            raise RecordError(_("wrong result: the rules give no {key!r} for this game").format(key=key),
                              source=source, line=line, move=game.moves, kind=Kind.WRONG_RESULT)
        # Compared as JSON, so true is not 1 and false is not 0.
        if json.dumps(actual[key], sort_keys=True) != json.dumps(value, sort_keys=True):
            # Translators: {key} is the result's field in the record ("winner"): keep it.
            raise RecordError(_("wrong result: {key} is {actual!r} by the rules, the record says {stated!r}")
                              .format(key=key, actual=actual[key], stated=value), source=source, line=line,
                              move=game.moves, kind=Kind.WRONG_RESULT)
