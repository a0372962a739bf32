"""A game in progress and a game read back from its record.

:class:`Game` is the :class:`~cardcli.driver.Driver` of a table: the
variant's state, the seats, dealer and seed, and the record, written event by
event as they are applied.  :func:`walk_record` reads a record back through
the very same ``Game.apply``; validate, replay and ``play --resume`` are each
a small loop around it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

from .driver import Driver, Hook, Player, rebuild
from .errors import IllegalMove, PluginError, RecordError, RulesetError
from .options import player_range
from .plugins import Registry
from .records import Header, RecordWriter, SeatInfo, parse_header, read_lines
from .rulesets import rules_from_record
from .text import printable
from .variant import CHANCE, TERMINAL, Action, State, Variant


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts (run seed, game number, ...), stable everywhere."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def choose_dealer(seed: int, num_players: int) -> int:
    return random.Random(derive_seed(seed, "dealer")).randrange(num_players)


class Recorder(Hook):
    """Writes each event to a record: encoded before it is applied (encoding
    reads the state), written after, so an illegal action writes nothing."""

    def __init__(self, game: Game):
        self.game = game
        self.line: dict[str, Any] | None = None

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        self.line = self.game.encode(action)

    def after(self, driver: Driver[Any], seat: int, action: Action) -> None:
        writer = self.game.writer
        if writer is not None and self.line is not None:
            writer.write(self.line)
        self.line = None


class Game(Driver[State]):
    """A game at a table: the driver of the variant's state, the seats, and the
    record being written (while :attr:`writer` is set, every event is written
    as it is applied, before any later hook sees it)."""

    def __init__(self, variant: Variant, rules: dict[str, Any], seats: Sequence[SeatInfo], dealer: int,
                 *, seed: int | None = None, ruleset: str | None = None,
                 writer: RecordWriter | None = None, players: Sequence[Player | None] | None = None):
        self.variant = variant
        self.rules = rules
        self.seats = list(seats)
        self.dealer = dealer
        self.seed = seed
        self.ruleset = ruleset
        rng = random.Random(derive_seed(seed if seed is not None else random.randrange(2**62), "chance"))
        super().__init__(variant.new_state(rules, len(self.seats), dealer), players, rng=rng, checked=True)
        self.result_line_seen = False
        self._recorder = Recorder(self)
        self._writer: RecordWriter | None = None
        self.writer = writer
        if writer is not None:
            writer.write(self.header().as_dict())

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
                      dealer=self.dealer, seed=self.seed, ruleset=self.ruleset)

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

    def new_state(self) -> State:
        """The state before the first event (the table as dealt to)."""
        return self.variant.new_state(self.rules, len(self.seats), self.dealer)

    def state_after(self, events: int) -> State:
        """A fresh copy of the state after the first ``events`` events of the
        history: rebuilt from the actions, without touching :attr:`state`."""
        return rebuild(self.new_state(), self.history[:events])

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


def header_to_game(header: Header, registry: Registry, source: str, line: int = 1) -> Game:
    """A fresh :class:`Game` for a record's header (rules checked like a ruleset)."""
    try:
        variant = registry.get(header.variant)
    except PluginError as error:
        raise RecordError(f"bad header: {error}", source=source, line=line, kind="header") from None
    n = len(header.players)
    try:
        rules = rules_from_record(variant, header.rules, "rules", n)
    except RulesetError as error:
        raise RecordError(f"bad header: {error.one_line()}", source=source, line=line,
                          kind="header") from None
    low, high = player_range(rules, variant.min_players, variant.max_players)
    if not low <= n <= high:
        raise RecordError(f"bad header: {n} players, but these rules allow {low} to {high}",
                          source=source, line=line, kind="header")
    return Game(variant, rules, header.players, header.dealer, seed=header.seed, ruleset=header.ruleset)


@dataclass
class Step:
    """One event read from a record and applied."""

    line: int
    data: dict[str, Any]
    action: Action
    seat: int  # the deciding seat, or CHANCE
    move: int  # decisions so far, this one included
    text: str  # the event described for people


def _describe_next(game: Game) -> str:
    return game.state.expecting()


def describe_event(game: Game, action: Action, viewer: int | None = None) -> str:
    """An event in words, with the actor's name: "cpu2 played 7H on 9S"."""
    state = game.state
    player = state.current_player()
    text = game.variant.describe(state, action, viewer=viewer, names=game.names)
    return f"{game.names[player]} {text}" if player >= 0 else text


def walk_record(stream: IO[bytes], source: str, registry: Registry, *,
                on_header: Callable[[Game], None] | None = None,
                describe: Callable[[Game, Action], str] | None = None) -> Iterator[Step]:
    """Apply a record's events one by one, yielding each as a :class:`Step`.

    The game is available through ``on_header``; ``describe(game, action)``,
    called before each event is applied, fills :attr:`Step.text`.  Raises :class:`RecordError`
    at the first line that breaks the format or the rules, with its line,
    move and seat.  Stops after the result line; checks it matches.
    """
    lines = read_lines(stream, source)
    first = next(lines, None)
    if first is None:
        raise RecordError("empty record: no header line", source=source, kind="header")
    header_line, header_data = first
    game = header_to_game(parse_header(header_data, source, header_line), registry, source, header_line)
    if on_header is not None:
        on_header(game)
    variant, state_of = game.variant, (lambda: game.state)
    result_seen = False
    for line, data in lines:
        state = state_of()
        if result_seen:
            raise RecordError("the record goes on after its result line", source=source, line=line,
                              move=game.moves, kind="structure")
        if "result" in data:
            check_result(game, data, source, line)
            result_seen = True
            game.result_line_seen = True
            continue
        current = state.current_player()
        if current == TERMINAL:
            raise RecordError(f"the game is already over after move {game.moves}, but the record goes on",
                              source=source, line=line, move=game.moves, kind="structure")
        if "move" in data:
            seat = data.get("seat")
            move = game.moves + 1
            if current == CHANCE:
                raise RecordError(f"move {move}: expected {_describe_next(game)}, but the record has "
                                  f"a move by seat {seat}", source=source, line=line, move=move,
                                  seat=seat if isinstance(seat, int) else None, kind="missing-event")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise RecordError(f"move {move}: 'seat' must be a seat number", source=source,
                                  line=line, move=move, kind="syntax")
            if seat != current:
                raise RecordError(f"move {move}: seat {seat} moved, but it is seat {current}'s turn "
                                  f"(wrong player)", source=source, line=line, move=move, seat=seat,
                                  kind="wrong-player")
            where = f"move {move}, seat {seat}"
        elif "chance" in data:
            move = game.moves
            seat = CHANCE
            if current != CHANCE:
                raise RecordError(f"after move {move}: expected {_describe_next(game)}, but the record "
                                  f"has a {data.get('chance')!r} chance event", source=source,
                                  line=line, move=move, seat=current, kind="unexpected-event")
            where = f"after move {move},"
        else:
            raise RecordError("a line must have 'move', 'chance' or 'result'", source=source,
                              line=line, move=game.moves, kind="syntax")
        try:
            action = variant.decode_action(state, data)
        except ValueError as error:
            raise RecordError(f"{where.rstrip(',')}: {error}", source=source, line=line, move=move,
                              seat=None if seat == CHANCE else seat, kind="syntax") from None
        try:
            state.check(action)
        except IllegalMove as error:
            # The move as attempted and the rule it breaks, never what it would have done.
            text = variant.describe_attempt(state, action)
            raise RecordError(f"{where} {text}: {error}", source=source, line=line, move=move,
                              seat=None if seat == CHANCE else seat, kind="illegal") from None
        text = describe(game, action) if describe is not None else ""
        game.apply(action, checked=False)
        yield Step(line=line, data=data, action=action, seat=seat, move=game.moves, text=text)


def check_result(game: Game, data: dict[str, Any], source: str, line: int) -> None:
    """The stated result must be the one the rules give (every stated key)."""
    result = game.state.result()
    if result is None:
        raise RecordError(f"the record states a result after move {game.moves}, but the game is not over "
                          f"(next: {game.state.expecting()})", source=source, line=line,
                          move=game.moves, kind="wrong-result")
    stated = data["result"]
    if not isinstance(stated, dict):
        raise RecordError("'result' must be an object", source=source, line=line, kind="syntax")
    if set(data) != {"result"}:
        extra = sorted(set(data) - {"result"})[0]
        raise RecordError(f"unknown key {extra!r} on the result line", source=source, line=line,
                          kind="syntax")
    if not stated:
        raise RecordError("the result is empty: state at least 'places', 'winner' or 'scores'",
                          source=source, line=line, kind="syntax")
    actual = result.as_dict()
    for key, value in stated.items():
        if key not in actual:
            raise RecordError(f"wrong result: the rules give no {key!r} for this game",
                              source=source, line=line, move=game.moves, kind="wrong-result")
        # Compared as JSON, so true is not 1 and false is not 0.
        if json.dumps(actual[key], sort_keys=True) != json.dumps(value, sort_keys=True):
            raise RecordError(f"wrong result: {key} is {actual[key]!r} by the rules, the record says "
                              f"{value!r}", source=source, line=line, move=game.moves, kind="wrong-result")


def load_game(stream: IO[bytes], source: str, registry: Registry) -> tuple[Game, bool]:
    """Replay a record into a :class:`Game`; return it and whether a result line was read."""
    holder: list[Game] = []
    for _ in walk_record(stream, source, registry, on_header=holder.append):
        pass
    game = holder[0]
    return game, game.state.is_terminal()
