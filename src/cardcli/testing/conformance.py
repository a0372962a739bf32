"""The conformance suite: what every variant must do, whatever its rules.

* random games end (within a bound on events);
* every card is accounted for after every event (a multiset, so two decks work);
* a state's clone is independent of it;
* a record written while playing validates, and replaying it gives the same
  state after every event;
* a record broken in the usual ways (bad JSON, binary, empty, truncated,
  wrong player, wrong result, a line after the result, an unknown move, a
  bad header) is rejected with a :class:`RecordError` naming the line, and
  the ``validate`` command exits 1 without a traceback;
* ``legal_actions`` is exactly what ``apply`` accepts, and a refused action
  leaves no trace (a property test over many positions and every kind of
  wrong action: decisions and chance outcomes from elsewhere in the game,
  record lines of other events, anything once the game is over);
* what ``cpu:hard``, hints and the arena do works from any position: deal
  what a seat cannot see anew and play on to the end, every event checked;
* a seat is shown nothing that depends on the cards it cannot see (``render``,
  the table view, its moves and ``describe`` with that viewer, compared
  across re-dealt worlds: :mod:`cardcli.testing.privacy`);
* decoding a broken record line raises nothing but ``ValueError``;
* for a variant with unseen cards (:class:`~cardcli.contract.unseen.UnseenCards`):
  every record exported from every view validates, and ``cards_lacked``
  bars what the rules bar (:mod:`cardcli.testing.unseen`);
* golden records (seeded games kept beside the tests) still validate and
  replay to the result they state: checked by every suite that sets
  ``golden``; a variant none of whose suites sets it is told once how to
  make them (a skip, in its first suite), and its other suites stay quiet.

Class attributes tune the cost: the defaults take a few seconds per variant;
a ``@pytest.mark.slow`` subclass with more ``games``, ``positions`` and
``examples`` is the heavier run.
"""

from __future__ import annotations

import io
import random
import weakref
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..contract.hidden import HiddenInfo
from ..contract.unseen import UnseenCards
from ..contract.variant import CHANCE, State, Variant
from ..cpu.players import make_cpu
from ..cpu.players.hard import Budget, HardPlayer
from ..engine.driver import Driver
from ..engine.game import Game, choose_dealer
from ..engine.rulesets import default_ruleset
from ..kit.errors import IllegalMove, Kind, RecordError
from ..unseen.knowledge import redeal
from ..words.narration import describe_attempt
from .checks import (
    BlindCheck,
    Position,
    check_redeal,
    check_wrong_action,
    deep_signature,
    play_out,
    wrong_actions,
)
from .games import (
    MAX_EVENTS,
    assert_cards_conserved,
    fit_players,
    play_game,
    play_positions,
    record_bytes,
    record_lines,
    replay_states,
    resolve_variant,
    state_signature,
    validate_bytes,
    validate_command,
    write_record,
)
from .golden import check_golden_record, golden_paths
from .jsonfuzz import LineBreaker, shape, swept_lines
from .unseen import check_cards_lacked, check_exports

#: Positions of the games the mid-game checks start from, per variant object
#: (weakly: a variant made for one test goes with its positions).
_POSITIONS: weakref.WeakKeyDictionary[Variant, dict[tuple, list[Position]]] = weakref.WeakKeyDictionary()

#: Per variant name: the suites that check its golden records, and the one
#: suite without a folder that says how to make them (see ``__init_subclass__``).
_GOLDEN_CHECKED: set[str] = set()
_GOLDEN_REMINDER: dict[str, type] = {}
_GOLDEN_TEST = "test_golden_records_validate_and_replay"


class VariantConformance:
    """Subclass with ``variant = "name"`` to run every variant-independent check.

    Optional class attributes: ``player_counts`` (default: every count the
    variant allows), ``option_sets`` (option overrides to run the games
    under, default: just the defaults), ``games`` (random games per count
    and option set), ``levels`` (CPU strengths to play with); for the
    checks that start mid-game, ``position_games``, ``positions`` and
    ``examples``; ``golden``, a folder of golden records.
    """

    variant: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...] | None] = None
    option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    games: ClassVar[int] = 6
    levels: ClassVar[tuple[str, ...] | None] = None
    #: Games whose positions the mid-game checks below start from.
    position_games: ClassVar[int] = 4
    #: Mid-game positions the search and privacy checks start from.
    positions: ClassVar[int] = 16
    #: Hypothesis examples for the wrong-action and record-fuzzing properties.
    examples: ClassVar[int] = 40
    #: A folder of golden records (see :mod:`cardcli.testing.golden`), or ``None``.
    golden: ClassVar[str | Path | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give the golden check only to the suites that have golden records.

        A variant usually has one main suite with ``golden`` set and others
        that run the kit under more options: those need not check the same
        records again, and a skip in each would only be noise.  A variant
        none of whose suites sets ``golden`` keeps the check in its first
        suite, where it skips, once, saying how to make them.
        """
        super().__init_subclass__(**kwargs)
        variant = getattr(cls, "variant", None)
        if variant is None:  # a shared base of several suites: its subclasses decide
            return
        name = variant.name if isinstance(variant, Variant) else str(variant)
        check = VariantConformance.__dict__[_GOLDEN_TEST]
        if cls.golden is not None:
            _GOLDEN_CHECKED.add(name)
            if getattr(cls, _GOLDEN_TEST) is None:
                setattr(cls, _GOLDEN_TEST, check)
            reminder = _GOLDEN_REMINDER.pop(name, None)
            if reminder is not None and reminder.__module__ == cls.__module__:
                # An earlier suite of this module said "no golden records": not so.
                setattr(reminder, _GOLDEN_TEST, None)
        elif name in _GOLDEN_CHECKED or name in _GOLDEN_REMINDER:
            setattr(cls, _GOLDEN_TEST, None)  # not a test: pytest collects nothing
        else:
            _GOLDEN_REMINDER[name] = cls
            if getattr(cls, _GOLDEN_TEST) is None:
                setattr(cls, _GOLDEN_TEST, check)

    # -------------------------------------------------------------- helpers
    @classmethod
    def _variant(cls) -> Variant:
        return resolve_variant(cls.variant)

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
        fit_players(self._variant(), options, players)

    def _game_positions(self, players: int, seed: int, options: dict[str, Any]) -> list[Position]:
        """Every position of one seeded game (cached: the checks only clone them)."""
        target = self._variant()
        levels = self.levels or target.cpu_levels
        key = (players, seed, repr(sorted(options.items())), tuple(levels))
        cache = _POSITIONS.setdefault(target, {})
        if key not in cache:
            merged = fit_players(target, dict(options), players)
            chosen = [levels[(seed + i) % len(levels)] for i in range(players)]
            cache[key] = play_positions(target, players=players, seed=seed, options=merged, levels=chosen)
        return cache[key]

    def _position_games(self) -> list[list[Position]]:
        """``position_games`` games, over the smallest and largest tables and
        spread over the option sets."""
        counts = self._counts()
        tables = list(dict.fromkeys((counts[0], counts[-1])))
        sets = self.option_sets
        count = max(1, self.position_games)
        step = max(1, len(sets) // count)
        return [self._game_positions(tables[number % len(tables)], 100 + number,
                                     sets[(number * step) % len(sets)])
                for number in range(count)]

    def _sample_positions(self, count: int, seed: int = 0) -> list[Position]:
        """``count`` positions before an event, spread over the games."""
        pool = [p for game in self._position_games() for p in game if p.action is not None]
        rng = random.Random(seed)
        return rng.sample(pool, min(count, len(pool)))

    def _deck(self, position: Position) -> Counter:
        return Counter(self._variant().deck(position.rules, position.state.num_players))

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

    def test_exports_validate_from_every_view(self) -> None:
        """Every record, exported as each seat and a spectator saw it, is
        consistent with what the table saw (:mod:`cardcli.testing.unseen`)."""
        target = self._variant()
        if not isinstance(target.new_state(default_ruleset(target).options, self._counts()[0], 0),
                          UnseenCards):
            pytest.skip(f"{target.name} does not declare UnseenCards: no records with unseen cards")
        for options in self.option_sets:
            for players in self._counts():
                for seed in range(max(1, self.games // 3)):
                    _, buffer = self._play(seed, players, options)
                    check_exports(buffer.getvalue().encode(), players,
                                  f"seed {seed}, {players} players, {options}")

    def test_cards_lacked_says_what_the_rules_say(self) -> None:
        """A variant's ``cards_lacked`` bars the cards its rules bar."""
        rng = random.Random(7)
        checked = 0
        for positions in self._position_games():
            for position in positions:
                checked += check_cards_lacked(position, rng)
        if not checked:
            pytest.skip("the variant does not declare UnseenCards")

    def test_seat_messages_are_private(self) -> None:
        """What a table's server sends each seat (and a spectator) is the same
        whatever the cards that seat cannot see (see :mod:`cardcli.testing.privacy`):
        the first events of a game at the smallest and the largest table."""
        self._check_privacy(limit=100)

    @pytest.mark.slow
    def test_seat_messages_are_private_in_whole_games(self) -> None:
        self._check_privacy(limit=None, games=3)

    def _check_privacy(self, limit: int | None, games: int = 1) -> None:
        from ..cpu.players.hard import supports_hard
        from .privacy import PrivacyCheck

        target = self._variant()
        probe = target.new_state(default_ruleset(target).options, self._counts()[0], 0)
        if not supports_hard(target, probe):
            pytest.skip("the variant's states do not declare HiddenInfo (which zones each seat cannot see)")
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

    def test_a_move_by_the_wrong_seat_is_rejected(self) -> None:
        """A record whose first decision is made by another seat fails there as "wrong player"."""
        _game, buffer = self._play(5, self._counts()[0])
        lines = record_lines(buffer)
        index = next(i for i, line in enumerate(lines) if "move" in line)
        broken = [dict(x) for x in lines]
        broken[index]["seat"] = (lines[index]["seat"] + 1) % len(lines[0]["players"])
        report = validate_bytes(record_bytes(broken))
        assert not report.valid and report.error is not None
        assert report.error.line == index + 1
        assert report.error.kind == Kind.WRONG_PLAYER

    def test_apply_rejects_what_legal_actions_omit(self) -> None:
        """At every decision of a few games, ``check`` accepts each action of
        ``legal_actions`` and refuses every other decision seen in the game."""
        target = self._variant()
        for game in self._position_games()[:2]:
            universe = list(dict.fromkeys(a for p in game if p.state.current_player() >= 0
                                          for a in p.state.legal_actions()))
            for position in game:
                state = position.state
                if state.current_player() < 0:
                    continue
                legal = state.legal_actions()
                where = f"event {position.index} ({state.expecting()})"
                for action in legal:
                    try:
                        state.check(action)
                    except IllegalMove as error:
                        raise AssertionError(f"{where}: {action!r} is in legal_actions, but check "
                                             f"refuses it: {error}") from None
                for action in universe:
                    if action in legal:
                        continue
                    try:
                        state.check(action)
                    except IllegalMove:
                        continue
                    attempt = describe_attempt(target, state, action)
                    raise AssertionError(f"{where}: check accepts {action!r} ({attempt}), "
                                         "which legal_actions omits")

    def test_property_illegal_action_leaves_state_unchanged(self) -> None:
        """Any wrong action (a decision or chance outcome from elsewhere in the
        game, another event's record line, anything after the end) is refused
        without a trace: the state is as it was, describing it for the error
        message works, and the game goes on as it did."""
        target = self._variant()
        games = self._position_games()

        @settings(max_examples=self.examples, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
        @given(data=st.data())
        def run(data: st.DataObject) -> None:
            game = data.draw(st.sampled_from(games), label="game")
            position = game[data.draw(st.integers(0, len(game) - 1), label="position")]
            rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
            kinds = wrong_actions(position, game, target, rng, per_kind=4)
            rest = [p.action for p in game[position.index:position.index + 6] if p.action is not None]
            deck = self._deck(position)
            where = f"event {position.index} ({position.state.expecting()})"
            for kind, actions in kinds.items():
                for action in actions:
                    check_wrong_action(target, position, action, rest, deck, f"{where}, {kind} {action!r}")

        run()

    def test_determinized_positions_play_out(self) -> None:
        """What ``cpu:hard``, hints and the arena do: from positions of random
        games, deal what a seat cannot see anew and play on to the end, every
        event checked by ``apply`` and every card accounted for."""
        target = self._variant()
        if not self._supports_search():
            pytest.skip(f"{target.name} does not declare HiddenInfo: cpu:hard, hints and the arena "
                        "are not available for it")
        rng = random.Random(2)
        levels = self.levels or target.cpu_levels
        decisions = [p for p in self._sample_positions(self.positions * 3, seed=1)
                     if p.state.current_player() >= 0]
        for number, position in enumerate(decisions[:self.positions]):
            state: Any = position.state.clone()
            state.legal_actions()  # asked first, as by the game that calls the CPU
            deck = self._deck(position)
            before = deep_signature(target, state)
            seat = state.current_player()
            where = f"event {position.index} ({state.expecting()})"
            world = redeal(state, seat, rng)
            assert deep_signature(target, state) == before, f"{where}: redeal changed the state"
            check_redeal(target, state, world, seat, deck, where)
            level = levels[number % len(levels)]
            play_out(target, world, rng, deck, [level], f"{where}, re-dealt for seat {seat}")

    def test_determinized_for_any_seat_plays_out(self) -> None:
        """Re-dealt for a seat that is not the one to act (a search thinking
        ahead, a watched seat's view), the state is still a valid one: the
        actor's pending choice (a drawn card that must be played, say) stays
        in the actor's hand, and the game plays out to the end."""
        target = self._variant()
        if not self._supports_search():
            pytest.skip(f"{target.name} does not declare HiddenInfo: nothing is ever re-dealt")
        rng = random.Random(4)
        levels = self.levels or target.cpu_levels
        decisions = [p for p in self._sample_positions(self.positions * 3, seed=5)
                     if p.state.current_player() >= 0]
        for number, position in enumerate(decisions[:self.positions]):
            state: Any = position.state.clone()
            actor = state.current_player()
            deck = self._deck(position)
            before = deep_signature(target, state)
            for seat in range(state.num_players):
                if seat == actor:
                    continue  # test_determinized_positions_play_out
                where = f"event {position.index} ({state.expecting()})"
                world = redeal(state, seat, rng)
                assert deep_signature(target, state) == before, f"{where}: redeal changed the state"
                check_redeal(target, state, world, seat, deck, where)
                legal = world.legal_actions()
                assert legal, f"{where}, re-dealt for seat {seat}: seat {actor} has no legal action"
                for action in legal:
                    try:
                        world.check(action)
                    except IllegalMove as error:
                        raise AssertionError(f"{where}, re-dealt for seat {seat}: {action!r} is listed as "
                                             f"legal but refused: {error}") from None
                level = levels[(number + seat) % len(levels)]
                play_out(target, world, rng, deck, [level], f"{where}, re-dealt for seat {seat}")

    def test_hard_cpu_decides_from_random_positions(self) -> None:
        """``cpu:hard`` (and the hint, which is its rating) at a small budget:
        a legal choice, and the real state untouched."""
        target = self._variant()
        if not self._supports_search():
            pytest.skip(f"{target.name} does not declare HiddenInfo: cpu:hard is not available for it")
        decisions = [p for p in self._sample_positions(self.positions * 4, seed=3)
                     if p.state.current_player() >= 0 and len(p.state.legal_actions()) > 1]
        assert decisions or self.positions == 0, "no position with a choice to make"
        for position in decisions[:max(2, self.positions // 4)]:
            state = position.state.clone()
            seat = state.current_player()
            legal = state.legal_actions()
            before = deep_signature(target, state)
            player = HardPlayer(target, position.index, seat, Budget(iterations=2 * len(legal), seconds=None))
            action = player.act(state, seat, legal)
            assert action in legal, f"event {position.index}: cpu:hard chose {action!r}, which is not legal"
            assert [r.action for r in player.last_ratings] == legal, "the hint rates every legal move"
            assert deep_signature(target, state) == before, (
                f"event {position.index}: cpu:hard changed the state")

    def test_hard_cpu_sees_only_its_seat(self) -> None:
        """``cpu:hard`` follows a whole game (remembering what each event
        showed its seat); before its real choices, the cards its seat cannot
        see are dealt anew consistently with what it knows, and its choice
        and its rating of every move must stay the same."""
        target = self._variant()
        if not self._supports_search():
            pytest.skip(f"{target.name} has no hidden_zones/set_zones: cpu:hard is not available for it")
        levels = self.levels or target.cpu_levels
        compared = 0
        for number, players in enumerate(sorted({self._counts()[0], self._counts()[-1]})):
            rules = fit_players(target, dict(default_ruleset(target).options), players)
            seed = 40 + number
            hard = HardPlayer(target, seed, 0, Budget(iterations=12, seconds=None))
            others = [make_cpu(target, levels[seat % len(levels)], seed, seat) for seat in range(players)]
            check = BlindCheck(0, hard, random.Random(seed), limit=max(2, self.positions // 4))
            state = target.new_state(rules, players, choose_dealer(seed, players))
            driver = Driver(state, [hard, *others[1:]], rng=random.Random(seed), hooks=[check])
            driver.advance(MAX_EVENTS)
            compared += check.compared
        assert compared or self.positions == 0, "the hard CPU never had a choice with hidden cards to compare"

    def test_property_decoding_broken_lines_raises_only_value_error(self) -> None:
        """No record line, however broken, makes ``decode_action`` raise anything
        but ``ValueError`` (which validate reports with the line); a line that
        decodes is then refused without a trace, or is legal.  Each kind of
        line has every field dropped and set to odd values in turn; then
        hypothesis breaks lines at random."""
        target = self._variant()
        games = self._position_games()

        def decode(position: Position, line: dict[str, Any]) -> None:
            state = position.state.clone()
            before = deep_signature(target, state)
            try:
                action = target.decode_action(state, line)
            except ValueError as error:
                assert str(error), "a ValueError from decode_action must say why"
                assert deep_signature(target, state) == before, "decode_action changed the state"
                return
            assert deep_signature(target, state) == before, "decode_action changed the state"
            check_wrong_action(target, position, action, [], self._deck(position),
                               f"event {position.index}, line {line!r} decoded as {action!r}")

        seen: set[tuple] = set()
        for game in games:
            for position in game:
                if position.line is not None and shape(position.line) not in seen:
                    seen.add(shape(position.line))
                    for line in swept_lines(position.line):
                        decode(position, line)

        breakers = [LineBreaker([p.line for p in game if p.line is not None]) for game in games]

        @settings(max_examples=self.examples * 2, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
        @given(data=st.data())
        def run(data: st.DataObject) -> None:
            number = data.draw(st.integers(0, len(games) - 1), label="game")
            game = games[number]
            position = game[data.draw(st.integers(0, len(game) - 2), label="position")]
            own = position.line
            assert own is not None
            other = game[data.draw(st.integers(0, len(game) - 2), label="other line")].line
            assert other is not None
            decode(position, data.draw(breakers[number].lines([own, other]), label="line"))

        run()

    def test_golden_records_validate_and_replay(self) -> None:
        """Records kept from earlier versions still validate and replay to the
        result they state (set ``golden`` to their folder)."""
        if self.golden is None:
            name = self._variant().name
            pytest.skip(f"no golden records for {name}: make a few with python -m cardcli.testing golden "
                        f"{name} tests/golden and set golden = that folder in one suite")
        paths = golden_paths(self.golden)
        assert paths, (f"no golden records in {self.golden}: make them with "
                       f"python -m cardcli.testing golden {self.variant} {self.golden}")
        for path in paths:
            check_golden_record(path)

    def _supports_search(self) -> bool:
        target = self._variant()
        state = target.new_state(dict(default_ruleset(target).options), self._counts()[0], 0)
        return isinstance(state, HiddenInfo)

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
