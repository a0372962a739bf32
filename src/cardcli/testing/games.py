"""Playing and reading games in tests: the helpers the conformance kit and a
variant's own rule tests share (a CPU game recorded in memory, its positions,
records built line by line, validating and replaying them)."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..contract.options import player_range
from ..contract.variant import Action, State, Variant
from ..cpu.players import default_seats, make_cpu
from ..engine.driver import Driver, Hook
from ..engine.game import Game, choose_dealer
from ..engine.plugins import Registry, get_registry
from ..engine.rulesets import default_ruleset
from ..kit.record_format import RecordWriter
from ..records.reader import Event, RecordVisitor, read_record
from ..records.validate import Report, validate_stream
from .checks import Position

#: A game longer than this is taken to run forever (the variant needs a rule
#: that ends it, as endofpage's bound on reshuffles).
MAX_EVENTS = 50_000


def _registry() -> Registry:
    return get_registry()


def resolve_variant(variant: str | Variant) -> Variant:
    return variant if isinstance(variant, Variant) else _registry().get(variant)


def play_game(variant: str | Variant, *, players: int | None = None, seed: int = 0,
              options: dict[str, Any] | None = None, levels: Iterable[str] | None = None,
              on_event: Callable[[Game, Any], None] | None = None,
              checked: bool = True) -> tuple[Game, io.StringIO]:
    """Play one CPU game to the end, recording it in memory.

    Returns the finished :class:`Game` and the record's text buffer.
    ``on_event(game, action)`` runs after each event is applied.
    """
    target = resolve_variant(variant)
    rules = dict(default_ruleset(target).options)
    rules.update(options or {})
    count = players or max(target.min_players, min(4, target.max_players))
    seats = default_seats(target, count, human=None, level="easy")
    if levels is not None:
        for seat, level in zip(seats, levels):
            seat.kind = f"cpu:{level}"
    buffer = io.StringIO()
    cpus = [make_cpu(target, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    game = Game(target, rules, seats, choose_dealer(seed, count), seed=seed, writer=RecordWriter(buffer),
                players=cpus)
    game.checked = checked
    game.hooks.append(_EventChecks(on_event))
    game.advance(MAX_EVENTS)
    if not game.state.is_terminal():
        raise AssertionError(f"game did not end within {MAX_EVENTS} events (seed {seed})")
    game.finish()
    return game, buffer


def fit_players(variant: Variant, options: dict[str, Any], players: int) -> dict[str, Any]:
    """Widen ``min_players``/``max_players`` in ``options`` so ``players`` may sit down."""
    defaults = default_ruleset(variant).options
    low, high = player_range(defaults, players, players)
    if "min_players" in defaults and players < low:
        options.setdefault("min_players", players)
    if "max_players" in defaults and players > high:
        options.setdefault("max_players", players)
    return options


def play_positions(variant: str | Variant, **kw: Any) -> list[Position]:
    """Play a game (as :func:`play_game`, same arguments) and keep every
    position: the state before each event, the event and its record line,
    and the final state."""
    target = resolve_variant(variant)
    after: list[State] = []
    actions: list[Action] = []

    def keep(game: Game, action: Action) -> None:
        after.append(game.state.clone())
        actions.append(action)

    game, buffer = play_game(target, on_event=keep, **kw)
    lines = record_lines(buffer)[1:]
    first = target.new_state(game.rules, len(game.seats), game.dealer)
    before = [first, *after[:-1]]
    names, rules = game.names, dict(game.rules)
    positions = [Position(state, action, line, index, names, rules)
                 for index, (state, action, line) in enumerate(zip(before, actions, lines))]
    positions.append(Position(after[-1] if after else first, None, None, len(actions), names, rules))
    return positions


class _EventChecks(Hook):
    """The suite's checks on every event: a seat to move has a legal action,
    the CPU picks one of them; then the caller's ``on_event(game, action)``."""

    def __init__(self, on_event: Callable[[Game, Any], None] | None):
        self.on_event = on_event
        self.legal: list[Any] = []

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Any]) -> None:
        assert legal, f"seat {seat} has no legal action ({driver.state.expecting()})"
        self.legal = legal

    def before(self, driver: Driver[Any], seat: int, action: Any) -> None:
        if seat >= 0:
            assert action in self.legal, f"CPU chose an illegal action {action!r}"

    def after(self, driver: Driver[Any], seat: int, action: Any) -> None:
        if self.on_event is not None:
            assert isinstance(driver, Game)
            self.on_event(driver, action)


def record_lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def record_bytes(lines: Iterable[dict[str, Any] | str | bytes]) -> bytes:
    """A record from line objects (or raw text/bytes lines, to write broken ones)."""
    out = []
    for line in lines:
        if isinstance(line, bytes):
            out.append(line)
        elif isinstance(line, str):
            out.append(line.encode())
        else:
            out.append(json.dumps(line).encode())
    return b"\n".join(out) + b"\n"


def write_record(path: Any, lines: Iterable[dict[str, Any] | str | bytes]) -> Any:
    """Write a record (see :func:`record_bytes`) to ``path``; return the path."""
    path.write_bytes(record_bytes(lines))
    return path


def validate_command(*args: Any, input: str | None = None) -> Any:
    """Run ``cardcli validate ARGS`` as a person would; it must never show a traceback."""
    from click.testing import CliRunner

    from ..cli import cli

    result = CliRunner().invoke(cli, ["validate", *map(str, args)], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def validate_bytes(data: bytes, source: str = "game.jsonl") -> Report:
    return validate_stream(io.BytesIO(data), source, _registry())


def state_signature(variant: Variant, state: State) -> tuple:
    """Everything observable about a state, for comparing two of them."""
    zones = {name: sorted(cards) for name, cards in state.card_zones().items()}
    legal = state.legal_actions() if state.current_player() >= 0 else []
    result = state.result()
    return (state.current_player(), sorted(zones.items()), sorted(map(repr, legal)),
            variant.render(state, None), None if result is None else result.as_dict())


class _Signatures(RecordVisitor[list[tuple]]):
    """A record visitor: the signature of the state after every event."""

    def __init__(self) -> None:
        self.signatures: list[tuple] = []

    def visit_state(self, game: Game, event: Event) -> None:
        self.signatures.append(state_signature(game.variant, game.state))

    def result(self) -> list[tuple]:
        return self.signatures


def replay_states(data: bytes, source: str = "game.jsonl") -> list[tuple]:
    """The signature of the state after every event of a record, read back."""
    return read_record(io.BytesIO(data), source, _registry(), _Signatures())


def assert_cards_conserved(variant: Variant, game: Game) -> None:
    deck = Counter(variant.deck(game.rules, len(game.seats)))
    held = Counter(card for cards in game.state.card_zones().values() for card in cards)
    assert held == deck, (f"cards not conserved after event {game.events}: missing "
                          f"{sorted((deck - held).elements())}, extra {sorted((held - deck).elements())}")
