"""The conformance suite: what every variant must do, whatever its rules.

* random games end (within a bound on events);
* every card is accounted for after every event (a multiset, so two decks work);
* a state's clone is independent of it;
* a record written while playing validates, and replaying it gives the same
  state after every event;
* a record broken in the usual ways (bad JSON, binary, empty, truncated,
  wrong player, wrong result, a line after the result, an unknown move, a
  bad header) is rejected with a :class:`RecordError` naming the line, and
  the ``validate`` command exits 1 without a traceback.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..errors import RecordError
from ..game import Game, choose_dealer, walk_record
from ..options import player_range
from ..players import default_seats, make_cpu
from ..plugins import Registry, get_registry
from ..records import RecordWriter
from ..rulesets import default_ruleset
from ..validate import Report, validate_stream
from ..variant import CHANCE, TERMINAL, State, Variant

#: A game longer than this is taken to run forever (the variant needs a rule
#: that ends it, as endofpage's bound on reshuffles).
MAX_EVENTS = 50_000


def _registry() -> Registry:
    return get_registry()


def _resolve_variant(variant: str | Variant) -> Variant:
    return variant if isinstance(variant, Variant) else _registry().get(variant)


def play_game(variant: str | Variant, *, players: int | None = None, seed: int = 0,
              options: dict[str, Any] | None = None, levels: Iterable[str] | None = None,
              on_event: Callable[[Game, Any], None] | None = None,
              checked: bool = True) -> tuple[Game, io.StringIO]:
    """Play one CPU game to the end, recording it in memory.

    Returns the finished :class:`Game` and the record's text buffer.
    ``on_event(game, action)`` runs after each event is applied.
    """
    target = _resolve_variant(variant)
    rules = dict(default_ruleset(target).options)
    rules.update(options or {})
    count = players or max(target.min_players, min(4, target.max_players))
    seats = default_seats(target, count, human=None, level="easy")
    if levels is not None:
        for seat, level in zip(seats, levels):
            seat.kind = f"cpu:{level}"
    buffer = io.StringIO()
    game = Game(target, rules, seats, choose_dealer(seed, count), seed=seed, writer=RecordWriter(buffer))
    cpus = [make_cpu(target, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    for _ in range(MAX_EVENTS):
        state = game.state
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = game.chance()
        else:
            legal = state.legal_actions()
            assert legal, f"seat {player} has no legal action ({state.expecting()})"
            action = cpus[player].act(state, player, legal)
            assert action in legal, f"CPU chose an illegal action {action!r}"
        game.apply(action, checked=checked)
        if on_event is not None:
            on_event(game, action)
    else:
        raise AssertionError(f"game did not end within {MAX_EVENTS} events (seed {seed})")
    game.finish()
    return game, buffer


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


def replay_states(data: bytes, source: str = "game.jsonl") -> list[tuple]:
    """The signature of the state after every event of a record, read back."""
    holder: list[Game] = []
    signatures = []
    for _ in walk_record(io.BytesIO(data), source, _registry(), on_header=holder.append):
        game = holder[0]
        signatures.append(state_signature(game.variant, game.state))
    return signatures


def assert_cards_conserved(variant: Variant, game: Game) -> None:
    deck = Counter(variant.deck(game.rules, len(game.seats)))
    held = Counter(card for cards in game.state.card_zones().values() for card in cards)
    assert held == deck, (f"cards not conserved after event {game.events}: missing "
                          f"{sorted((deck - held).elements())}, extra {sorted((held - deck).elements())}")


class VariantConformance:
    """Subclass with ``variant = "name"`` to run every variant-independent check.

    Optional class attributes: ``player_counts`` (default: every count the
    variant allows), ``option_sets`` (option overrides to run the games
    under, default: just the defaults), ``games`` (random games per count
    and option set), ``levels`` (CPU strengths to play with).
    """

    variant: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...] | None] = None
    option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    games: ClassVar[int] = 6
    levels: ClassVar[tuple[str, ...] | None] = None

    # -------------------------------------------------------------- helpers
    @classmethod
    def _variant(cls) -> Variant:
        return _resolve_variant(cls.variant)

    @classmethod
    def _counts(cls) -> tuple[int, ...]:
        target = cls._variant()
        return cls.player_counts or tuple(range(target.min_players, target.max_players + 1))

    def _play(self, seed: int, players: int, options: dict[str, Any] | None = None,
              levels_override: list[str] | None = None, **kw: Any) -> tuple[Game, io.StringIO]:
        target = self._variant()
        levels = self.levels or target.cpu_levels
        chosen = levels_override or [levels[(seed + i) % len(levels)] for i in range(players)]
        merged = dict(options or {})
        self._fit_players(merged, players)
        return play_game(target, players=players, seed=seed, options=merged, levels=chosen, **kw)

    def _fit_players(self, options: dict[str, Any], players: int) -> None:
        target = self._variant()
        defaults = default_ruleset(target).options
        low, high = player_range(defaults, players, players)
        if "min_players" in defaults and players < low:
            options.setdefault("min_players", players)
        if "max_players" in defaults and players > high:
            options.setdefault("max_players", players)

    def _valid_record(self, seed: int = 1) -> list[dict[str, Any]]:
        _game, buffer = self._play(seed, self._counts()[0])
        return record_lines(buffer)

    # ---------------------------------------------------------------- tests
    def test_variant_is_registered(self) -> None:
        target = self._variant()
        assert target.name == self.variant or isinstance(self.variant, Variant)
        assert target.options, "a variant declares its options"
        for option in target.options:
            assert option.help, f"option {option.name!r} needs a one-line meaning"
            option.check(option.default)

    def test_random_games_end_and_conserve_cards(self) -> None:
        target = self._variant()
        for options in self.option_sets:
            for players in self._counts():
                for seed in range(self.games):
                    game, _ = self._play(seed, players, options,
                                         on_event=lambda g, a: assert_cards_conserved(target, g))
                    result = game.state.result()
                    assert result is not None
                    assert len(result.places) == players
                    assert min(result.places) == 1
                    if result.winner is not None:
                        assert result.places[result.winner] == 1
                        assert result.places.count(1) == 1

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
    @given(seed=st.integers(min_value=0, max_value=2**32), data=st.data())
    def test_property_cards_conserved_after_every_event(self, seed: int, data: st.DataObject) -> None:
        target = self._variant()
        players = data.draw(st.sampled_from(self._counts()))
        options = data.draw(st.sampled_from(self.option_sets))
        game, _ = self._play(seed, players, options,
                             on_event=lambda g, a: assert_cards_conserved(target, g))
        assert game.state.is_terminal()

    def test_records_validate_and_replay_identically(self) -> None:
        target = self._variant()
        for options in self.option_sets:
            for players in self._counts():
                for seed in range(max(1, self.games // 2)):
                    signatures: list[tuple] = []

                    def remember(g: Game, _action: Any, seen: list[tuple] = signatures) -> None:
                        seen.append(state_signature(target, g.state))

                    game, buffer = self._play(seed, players, options, on_event=remember)
                    data = buffer.getvalue().encode()
                    report = validate_bytes(data)
                    assert report.valid, f"seed {seed}, {players} players, {options}: {report.error}"
                    assert report.moves == game.moves
                    assert replay_states(data) == signatures

    def test_seat_messages_are_private(self) -> None:
        """What a table's server sends each seat (and a spectator) is the same
        whatever the cards that seat cannot see (see :mod:`cardcli.testing.privacy`):
        the first events of a game at the smallest and the largest table."""
        self._check_privacy(limit=100)

    @pytest.mark.slow
    def test_seat_messages_are_private_in_whole_games(self) -> None:
        self._check_privacy(limit=None, games=3)

    def _check_privacy(self, limit: int | None, games: int = 1) -> None:
        from ..players.hard import supports_hard
        from .privacy import PrivacyCheck

        target = self._variant()
        probe = target.new_state(default_ruleset(target).options, self._counts()[0], 0)
        if not supports_hard(target, probe):
            pytest.skip("the variant does not say which zones each seat cannot see (hidden_zones)")
        for players in sorted({self._counts()[0], self._counts()[-1]}):
            for seed in range(games):
                names = [f"p{seat}" for seat in range(players)]
                check = PrivacyCheck(target, names, seed=seed, limit=limit)
                self._play(seed + players, players, on_event=check.on_event)
                assert check.views > 0 and check.events > 0

    def test_fast_path_matches_checked_path(self) -> None:
        """apply_legal (simulation) and apply (records) play the same game."""
        for players in self._counts():
            _checked, buffer1 = self._play(7, players)
            _fast, buffer2 = self._play(7, players, checked=False)
            assert buffer1.getvalue() == buffer2.getvalue()

    def test_clone_is_independent(self) -> None:
        target = self._variant()
        snapshots: list[tuple[State, tuple]] = []

        def keep(game: Game, action: Any) -> None:
            if game.events % 5 == 0:
                copy = game.state.clone()
                snapshots.append((copy, state_signature(target, copy)))

        self._play(3, self._counts()[-1], on_event=keep)
        assert snapshots
        for copy, signature in snapshots:
            assert state_signature(target, copy) == signature

    def test_apply_rejects_what_legal_actions_omit(self) -> None:
        """Each decision's legal list is exactly what apply accepts (sampled)."""
        _game, buffer = self._play(5, self._counts()[0])
        lines = record_lines(buffer)
        # Replaying the record with every decision swapped for another seat's
        # number must fail as "wrong player".
        for index, line in enumerate(lines):
            if "move" in line:
                broken = [dict(x) for x in lines]
                broken[index]["seat"] = (line["seat"] + 1) % len(lines[0]["players"])
                report = validate_bytes(record_bytes(broken))
                assert not report.valid and report.error is not None
                assert report.error.line == index + 1
                assert report.error.kind in ("wrong-player", "missing-event", "illegal")
                break

    @pytest.mark.parametrize("breakage", [
        "bad_json", "binary", "empty", "truncated", "wrong_result", "after_result", "unknown_move",
        "bad_header", "unknown_variant", "no_result", "not_object", "bad_rules"])
    def test_broken_records_are_rejected(self, breakage: str) -> None:
        lines = self._valid_record()
        expect_line: int | None = None
        if breakage == "bad_json":
            data = record_bytes([lines[0], lines[1], '{"move": "play", ', *lines[3:]])
            expect_line = 3
        elif breakage == "binary":
            data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"
            expect_line = 1
        elif breakage == "empty":
            data = b""
        elif breakage == "truncated":
            data = record_bytes(lines[: len(lines) // 2])
        elif breakage == "wrong_result":
            result = dict(lines[-1]["result"])
            places = result["places"]
            result["places"] = places[1:] + places[:1] if len(set(places)) > 1 else [p + 1 for p in places]
            data = record_bytes([*lines[:-1], {"result": result}])
            expect_line = len(lines)
        elif breakage == "after_result":
            data = record_bytes([*lines, lines[-2]])
            expect_line = len(lines) + 1
        elif breakage == "unknown_move":
            index = next(i for i, line in enumerate(lines) if "move" in line)
            broken = dict(lines[index])
            broken["move"] = "teleport"
            data = record_bytes([*lines[:index], broken, *lines[index + 1:]])
            expect_line = index + 1
        elif breakage == "bad_header":
            header = dict(lines[0])
            header["format"] = "something-else"
            data = record_bytes([header, *lines[1:]])
            expect_line = 1
        elif breakage == "unknown_variant":
            header = dict(lines[0])
            header["variant"] = "no-such-variant"
            data = record_bytes([header, *lines[1:]])
            expect_line = 1
        elif breakage == "no_result":
            data = record_bytes(lines[:-1])
        elif breakage == "not_object":
            data = record_bytes([lines[0], "[1, 2, 3]", *lines[2:]])
            expect_line = 2
        else:  # bad_rules
            header = dict(lines[0])
            header["rules"] = {**header["rules"], "no_such_option": True}
            data = record_bytes([header, *lines[1:]])
            expect_line = 1
        report = validate_bytes(data)
        assert not report.valid, f"{breakage}: accepted"
        assert isinstance(report.error, RecordError)
        if expect_line is not None:
            assert report.error.line == expect_line, f"{breakage}: {report.error}"
        assert str(report.error).startswith("game.jsonl")

    def test_validate_command_exit_status(self, tmp_path: Any) -> None:
        lines = self._valid_record(seed=2)
        good = write_record(tmp_path / "good.jsonl", lines)
        bad = write_record(tmp_path / "bad.jsonl", [*lines[:-1], '{"result": {"winner": 99}}'])
        ok = validate_command(good)
        assert ok.exit_code == 0, ok.output
        failed = validate_command(good, bad)
        assert failed.exit_code == 1
        assert f"{bad}:{len(lines)}:" in failed.output

    def test_games_end_between_every_kind_of_cpu(self) -> None:
        """Random and sensible players alike must finish: a variant whose games
        can cycle forever needs a rule that ends them."""
        target = self._variant()
        for level in target.cpu_levels:
            for players in (self._counts()[0], self._counts()[-1]):
                for seed in range(max(3, self.games * 3)):
                    game, _ = self._play(seed, players, levels_override=[level] * players)
                    assert game.state.is_terminal()

    def test_seeded_games_repeat(self) -> None:
        players = self._counts()[0]
        first = self._play(11, players)[1].getvalue()
        again = self._play(11, players)[1].getvalue()
        assert first == again
        other = self._play(12, players)[1].getvalue()
        assert other != first

    def test_chance_sampling_is_reproducible(self) -> None:
        target = self._variant()
        rules = dict(default_ruleset(target).options)
        players = self._counts()[0]
        state = target.new_state(rules, players, 0)
        assert state.current_player() == CHANCE, "a game starts with chance (the deal)"
        first = state.sample_chance(random.Random(5))
        assert state.sample_chance(random.Random(5)) == first
