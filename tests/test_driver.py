"""The game driver: run to the end, step with an external seat, hooks, history."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.cpu.players import make_cpu
from cardcli.engine.driver import DecisionClock, Driver, ExternalTurn, Follower, Hook, PolicyPlayer, Walk
from cardcli.engine.game import Game, choose_dealer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.errors import IllegalMove
from cardcli.kit.record_format import SeatInfo
from cardcli.testing import state_signature

VARIANTS = ("matching", "trick", "endofpage")


def table(name: str, seed: int, players: int = 3, external: tuple[int, ...] = ()):
    """A fresh state of ``name`` with easy CPUs, and ``None`` in the external seats."""
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    if name == "endofpage":
        rules["page_lines"] = 1
    state = variant.new_state(rules, players, choose_dealer(seed, players))
    cpus = [None if seat in external else make_cpu(variant, "easy", seed, seat) for seat in range(players)]
    return variant, state, cpus


class Log(Hook):
    """Remembers every call, with the state's signature at that moment."""

    def __init__(self, name: str, calls: list, variant):
        self.name, self.calls, self.variant = name, calls, variant

    def deciding(self, driver, seat, legal):
        self.calls.append((self.name, "deciding", seat, list(legal), driver.events))

    def before(self, driver, seat, action):
        self.calls.append((self.name, "before", seat, action, driver.events,
                           state_signature(self.variant, driver.state)))

    def after(self, driver, seat, action):
        self.calls.append((self.name, "after", seat, action, driver.events,
                           state_signature(self.variant, driver.state)))


@pytest.mark.parametrize("name", VARIANTS)
def test_run_plays_to_the_end_and_counts(name):
    _, state, cpus = table(name, seed=3)
    driver = Driver(state, cpus, rng=random.Random(3))
    result = driver.run()
    assert result is not None and state.is_terminal()
    assert driver.events == len(driver.history) > driver.moves > 0


@pytest.mark.parametrize("name", VARIANTS)
def test_the_plain_loops_and_the_hooked_loop_play_the_same_game(name):
    """No hooks (the hot loops, keeping history or not) or a hook that
    watches (the general loop): the same seed gives the same game."""
    variant, state2, cpus2 = table(name, seed=5)
    calls: list = []
    watched = Driver(state2, cpus2, rng=random.Random(5), hooks=[Log("h", calls, variant)])
    watched.run()
    for keep in (True, False):
        _, state1, cpus1 = table(name, seed=5)
        plain = Driver(state1, cpus1, rng=random.Random(5), history=keep)
        plain.run()
        assert plain.history == (watched.history if keep else [])
        assert (plain.moves, plain.events) == (watched.moves, watched.events)
        assert state_signature(variant, state1) == state_signature(variant, state2)


def test_hooks_run_in_order_with_the_state_before_and_after():
    variant, state, cpus = table("matching", seed=7)
    calls: list = []
    driver = Driver(state, cpus, rng=random.Random(7),
                    hooks=[Log("first", calls, variant), Log("second", calls, variant)])
    start = state_signature(variant, state)
    driver.run()
    befores = [c for c in calls if c[1] == "before"]
    afters = [c for c in calls if c[1] == "after"]
    assert len(befores) == len(afters) == 2 * driver.events
    previous = start
    index = 0
    decisions = 0
    while index < len(calls):
        if calls[index][1] == "deciding":
            first, second = calls[index:index + 2]
            assert (first[0], second[0]) == ("first", "second") and first[2:] == second[2:]
            legal = first[3]
            index += 2
            b1, b2, a1, a2 = calls[index:index + 4]
            assert b1[3] in legal  # the player chose among what it was offered
            decisions += 1
        else:
            b1, b2, a1, a2 = calls[index:index + 4]
            assert b1[2] == CHANCE
        assert [c[:2] for c in (b1, b2, a1, a2)] == [("first", "before"), ("second", "before"),
                                                    ("first", "after"), ("second", "after")]
        assert b1[5] == b2[5] == previous  # before: the state as it was
        assert a1[5] == a2[5] != previous  # after: the state with the event applied
        assert a1[4] == b1[4] + 1  # the counters include the event only after it
        previous = a1[5]
        index += 4
    assert decisions == driver.moves
    assert previous == state_signature(variant, state)


@pytest.mark.parametrize("name", VARIANTS)
def test_step_api_with_an_external_seat(name):
    """advance stops where seat 0 (outside) must decide; submit applies its
    choice; the game goes on to the end that way."""
    variant, state, cpus = table(name, seed=11, external=(0,))
    calls: list = []
    driver = Driver(state, cpus, rng=random.Random(11), hooks=[Log("view", calls, variant)])
    outside = random.Random(0)
    asked = 0
    while True:
        seat = driver.advance()
        if seat == TERMINAL:
            break
        assert seat == 0 and driver.waiting_for() == 0 and driver.is_external(0)
        assert driver.advance() == 0, "advancing again changes nothing while seat 0 decides"
        deciding = [c for c in calls if c[1] == "deciding"]
        assert deciding[-1][2] == 0 and deciding[-1][4] == driver.events
        asked += 1
        assert sum(1 for c in deciding if c[4] == driver.events) == 1, "announced once per decision"
        with pytest.raises(ExternalTurn):
            driver.decide()
        legal = state.legal_actions()
        driver.submit(0, legal[outside.randrange(len(legal))])
    assert state.result() is not None
    assert asked == sum(1 for c in calls if c[1] == "before" and c[2] == 0)
    assert driver.waiting_for() is None


def test_run_refuses_a_table_with_an_external_seat():
    _, state, cpus = table("matching", seed=2, external=(1,))
    driver = Driver(state, cpus, rng=random.Random(2))
    with pytest.raises(ExternalTurn, match="seat 1 is external"):
        driver.run()
    assert driver.waiting_for() == 1


def another_action(name: str, seed: int, state, seat: int):
    """A decision of ``seat`` from elsewhere in a game, not legal in ``state``."""
    legal = state.legal_actions()
    _, other, cpus = table(name, seed + 1000)
    driver = Driver(other, cpus, rng=random.Random(seed))
    while driver.to_move() != TERMINAL:
        if driver.to_move() >= 0:
            for action in other.legal_actions():
                if action not in legal:
                    return action
        driver.step()
    return None


@pytest.mark.parametrize("name", VARIANTS)
def test_a_refused_submission_changes_nothing(name):
    variant, state, cpus = table(name, seed=13, external=(0,))
    calls: list = []
    driver = Driver(state, cpus, rng=random.Random(13), hooks=[Log("view", calls, variant)])
    assert driver.advance() == 0
    for _ in range(3):  # a few decisions in, so hands have changed
        driver.submit(0, state.legal_actions()[0])
        if driver.advance() != 0:
            pytest.skip("the game ended early")
    illegal = another_action(name, 13, state, 0)
    assert illegal is not None
    before = (state_signature(variant, state), list(driver.history), driver.moves, driver.events, len(calls))
    with pytest.raises(IllegalMove):
        driver.submit(0, illegal)
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        driver.submit(1, state.legal_actions()[0])
    after = (state_signature(variant, state), list(driver.history), driver.moves, driver.events, len(calls))
    assert after == before, "the state, the history, the counters and the hooks saw nothing"
    driver.submit(0, state.legal_actions()[0])  # the table goes on
    assert driver.moves == before[2] + 1


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_history_rebuilds_every_state(name, seed):
    """Applying the history from a fresh state gives the same state at every point."""
    variant, state, cpus = table(name, seed)
    seen: list = []

    class Keep(Hook):
        def after(self, driver, seat, action):
            seen.append(state_signature(variant, driver.state))

    driver = Driver(state, cpus, rng=random.Random(seed), hooks=[Keep()])
    driver.run()
    history = driver.history
    assert len(history) == len(seen)
    walk = Walk(lambda: table(name, seed)[1], history)
    for events in (len(history) // 2, 0, 1, len(history)):  # forward, back to the start, forward
        rebuilt = walk.to(events)
        expected = seen[events - 1] if events else state_signature(variant, table(name, seed)[1])
        assert state_signature(variant, rebuilt) == expected


def test_game_state_after_rebuilds_from_its_history():
    variant = get_registry().get("trick")
    rules = dict(default_ruleset(variant).options)
    seats = [SeatInfo(f"cpu{i}", "cpu:easy") for i in range(3)]
    players = [make_cpu(variant, "easy", 4, i) for i in range(3)]
    game = Game(variant, rules, seats, 0, seed=4, players=players)
    signatures = []

    class Keep(Hook):
        def after(self, driver, seat, action):
            signatures.append(state_signature(variant, driver.state))

    game.hooks.append(Keep())
    game.run()
    for events in (1, len(signatures) // 3, len(signatures)):
        assert state_signature(variant, game.state_after(events)) == signatures[events - 1]
    assert game.state_after(len(signatures)) is not game.state
    walk = game.walk()
    decisions = walk.decisions()
    assert decisions and all(walk.to(index).current_player() >= 0 for index in decisions)
    assert len(decisions) == game.moves
    pairs = walk.events(decisions[-1])
    assert [action for _state, action in pairs] == game.history[decisions[-1]:]
    assert state_signature(variant, pairs[0][0]) == state_signature(variant, game.state_after(decisions[-1]))


def test_limit():
    _, state, cpus = table("matching", seed=1)
    driver = Driver(state, cpus, rng=random.Random(1))
    assert driver.advance(limit=5) != TERMINAL
    assert driver.events == len(driver.history) == 5
    driver.hooks.append(Hook())  # the general loop keeps the same promise
    driver.advance(limit=3)
    assert driver.events == len(driver.history) == 8
    assert 0 < driver.moves < 8


@pytest.mark.parametrize("hooked", [False, True])
def test_a_playout_stops_where_the_variant_values_the_position(hooked):
    """A two-round matching game: a playout for seat 1 stops at the end of the
    first round, where ``rollout_value`` first gives a value."""
    variant = get_registry().get("matching")
    rules = {**default_ruleset(variant).options, "rounds": 2}
    state = variant.new_state(rules, 2, 0)
    player = PolicyPlayer(variant.cpu_policy("easy"), random.Random(3))
    driver = Driver(state, [player, player], rng=random.Random(3), hooks=[Hook()] if hooked else [])
    driver.advance(rollout_seat=1)
    assert state.rollout_value(1) is not None and not state.is_terminal()
    values = []
    again = variant.new_state(rules, 2, 0)
    for action in driver.history:
        values.append(again.rollout_value(1))
        again.apply_legal(action)
    assert all(value is None for value in values[1:]), "it stopped at the first valued position"
    events = driver.events
    driver.advance(rollout_seat=1)  # started where the value is: no further
    assert driver.events == events
    assert driver.advance() == TERMINAL  # and plays on to the end when asked


def test_the_decision_clock_counts_every_decision_of_every_seat():
    _, state, cpus = table("trick", seed=9, players=4)
    clock = DecisionClock(4)
    driver = Driver(state, cpus, rng=random.Random(9), hooks=[clock])
    driver.run()
    assert sum(clock.decisions) == driver.moves
    assert all(count > 0 for count in clock.decisions)
    assert all(seconds >= 0 for seconds in clock.seconds)


def test_policy_players_and_other_players_alike():
    """A player with its own ``act`` (not a policy) is asked through ``act``."""

    class First:
        def __init__(self):
            self.asked = 0

        def act(self, state, seat, legal):
            self.asked += 1
            return legal[0]

    variant, state, _ = table("matching", seed=6, players=2)
    first = First()
    policy = PolicyPlayer(variant.cpu_policy("easy"), random.Random(1))
    driver = Driver(state, [first, policy], rng=random.Random(6))
    driver.run()
    assert first.asked > 0 and state.is_terminal()


def test_a_server_can_think_in_a_worker_thread():
    """The shape a server uses: CPUs and chance advance in a worker thread
    (hard thinks for a while), a remote seat's moves come back on the loop."""
    _, state, cpus = table("matching", seed=21, external=(2,))
    driver = Driver(state, cpus, rng=random.Random(21))

    async def host() -> int:
        turns = 0
        while (seat := await asyncio.to_thread(driver.advance)) != TERMINAL:
            assert seat == 2
            turns += 1
            driver.submit(2, state.legal_actions()[-1])
        return turns

    turns = asyncio.run(host())
    assert turns > 0 and state.result() is not None


class Listener(PolicyPlayer, Follower):
    """A CPU that is told every event (the way the hard CPU follows a game)."""

    def __init__(self, policy, rng):
        super().__init__(policy, rng)
        self.told: list[tuple[int, int, object, int]] = []

    def observe(self, state, seat, action, event):
        self.told.append((state.current_player(), seat, action, event))


@pytest.mark.parametrize("name", VARIANTS)
def test_followers_are_told_every_event_before_it_is_applied(name):
    variant, state, cpus = table(name, 4, players=2)
    listener = Listener(variant.cpu_policy("normal"), random.Random(1))
    driver = Driver(state, [listener, cpus[1]], rng=random.Random(2))
    driver.run()
    assert [event for *_, event in listener.told] == list(range(driver.events))
    assert [action for _, _, action, _ in listener.told] == driver.history
    assert all(before == seat for before, seat, _, _ in listener.told)  # the state as it was before


def test_a_follower_gets_the_same_game_as_a_plain_player():
    """Being told the events changes nothing of the game itself."""
    variant, state, cpus = table("trick", 6, players=2)
    plain = Driver(state.clone(), [PolicyPlayer(variant.cpu_policy("normal"), random.Random(1)), cpus[1]],
                   rng=random.Random(2))
    plain.run()
    variant, state, cpus = table("trick", 6, players=2)
    told = Driver(state, [Listener(variant.cpu_policy("normal"), random.Random(1)), cpus[1]],
                  rng=random.Random(2))
    told.run()
    assert told.history == plain.history
