"""What a seat works out about the hidden cards (``cardcli.unseen.knowledge``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardcli.engine.driver import Driver, Follower, PolicyPlayer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.unseen.knowledge import Group, Knowledge, redeal, view_of

#: (variant, options, players): tables whose knowledge is followed through whole games.
TABLES = [
    ("matching", {}, 2), ("matching", {}, 4), ("matching", {"rounds": 2, "draw_until_playable": True}, 3),
    ("trick", {}, 2), ("trick", {}, 4), ("trick", {"decks": 2, "jokers": 2, "max_players": 8}, 3),
    ("trick", {"deals": 2, "joker_any_time": False}, 2),
    ("endofpage", {"page_lines": 2}, 2), ("endofpage", {"page_lines": 1}, 4),
]


class EverySeat(Follower):
    """Follows a game from every seat and checks each seat's knowledge as it goes."""

    def __init__(self, players: int, check: bool = True):
        self.knowledge = [Knowledge(seat) for seat in range(players)]
        self.check = check
        self.checked = 0

    def observe(self, state, seat, action, event):
        for knowledge in self.knowledge:
            knowledge.observe(state)
            if self.check:
                assert knowledge.admits(state.card_zones()), (
                    f"event {event} ({state.expecting()}): seat {knowledge.seat}'s knowledge "
                    f"{knowledge.zones} rules out where the cards really are")
                self.checked += 1


class Watched(PolicyPlayer, Follower):
    def __init__(self, policy, rng, watcher):
        super().__init__(policy, rng)
        self.watcher = watcher

    def observe(self, state, seat, action, event):
        self.watcher.observe(state, seat, action, event)


def play(name, options, players, seed, watcher):
    variant = get_registry().get(name)
    rules = {**dict(default_ruleset(variant).options), **options}
    rng = random.Random(seed)
    levels = variant.cpu_levels
    seated = [Watched(variant.cpu_policy(levels[(seat + seed) % len(levels)]), rng, watcher)
              for seat in range(players)]
    driver = Driver(variant.new_state(rules, players, seed % players), seated, rng=rng)
    driver.run(50_000)
    return driver


@pytest.mark.parametrize(("name", "options", "players"), TABLES)
def test_followed_knowledge_never_rules_out_the_truth(name, options, players):
    """After every event of whole games, every seat's knowledge admits where
    the hidden cards really are."""
    checked = 0
    for seed in range(4):
        watcher = EverySeat(players)
        play(name, options, players, seed, watcher)
        checked += watcher.checked
    assert checked > 100


@pytest.mark.parametrize(("name", "options", "players"), TABLES[::2])
def test_followed_knowledge_is_never_looser_than_the_table(name, options, players):
    """Each group a followed seat keeps allows no card that what the table
    shows now (``Knowledge.from_state``) would rule out."""
    variant = get_registry().get(name)
    rules = {**dict(default_ruleset(variant).options), **options}
    watcher = EverySeat(players, check=False)
    rng = random.Random(3)
    seated = [Watched(variant.cpu_policy("normal"), rng, watcher) for _ in range(players)]
    driver = Driver(variant.new_state(rules, players, 0), seated, rng=rng)
    compared = 0
    while not driver.state.is_terminal():
        driver.step()
        state = driver.state
        for knowledge in watcher.knowledge:
            knowledge.observe(state)
            table = Knowledge.from_state(state, knowledge.seat)
            for zone, groups in knowledge.zones.items():
                widest = frozenset().union(*(g.cards for g in table.zones[zone]))
                for group in groups:
                    assert group.cards <= widest, (zone, group, table.zones[zone])
                compared += 1
    assert compared > 0


def test_a_rebuilt_stock_is_known_to_hold_only_the_finished_tricks():
    """Trick heads-up: once the stock is rebuilt from the finished tricks (cards
    every seat saw), the followed knowledge keeps the stock to exactly those
    cards, and so knows the other hand far better than the table alone."""
    for seed in range(200):
        watcher = EverySeat(2, check=False)
        variant = get_registry().get("trick")
        rules = dict(default_ruleset(variant).options)
        rng = random.Random(seed)
        seated = [Watched(variant.cpu_policy("normal"), rng, watcher) for _ in range(2)]
        driver = Driver(variant.new_state(rules, 2, 0), seated, rng=rng)
        while not driver.state.is_terminal():
            before = driver.state.tricks[:]
            action = driver.step()
            if action[0] == 4:  # RESHUFFLE: the finished tricks became the stock
                state = driver.state
                knowledge = watcher.knowledge[0]
                knowledge.observe(state)
                stock = knowledge.zones["stock"]
                assert len(stock) == 1 and stock[0].count == len(before)
                assert stock[0].cards == frozenset(before)
                hand = knowledge.zones["hand 1"]
                assert all(not (group.cards & frozenset(before)) for group in hand)
                table = Knowledge.from_state(state, 0)
                assert table.zones["hand 1"][0].cards & frozenset(before)  # the table alone cannot tell
                return
    pytest.fail("no deal rebuilt its stock")


@pytest.mark.parametrize(("name", "options", "players"), TABLES[:6])
def test_deals_respect_the_knowledge_and_ignore_where_cards_are(name, options, players):
    """A re-deal puts every card where the knowledge allows it, keeps every
    zone's size, and is the same for two states that differ only in the
    cards the seat cannot see."""
    variant = get_registry().get(name)
    rules = {**dict(default_ruleset(variant).options), **options}
    rng = random.Random(1)
    state = variant.new_state(rules, players, 0)
    policy = variant.cpu_policy("normal")
    checked = 0
    for _ in range(2000):
        if state.is_terminal():
            if checked > 10:
                break
            state = variant.new_state(rules, players, 0)
        seat = state.current_player()
        if seat >= 0:
            knowledge = Knowledge.from_state(state, seat)
            world = redeal(state, seat, random.Random(5), knowledge)
            assert knowledge.admits(world.card_zones())
            other = redeal(state, seat, random.Random(9), knowledge)  # a truth the seat cannot tell apart
            again = redeal(other, seat, random.Random(5), Knowledge.from_state(other, seat))
            zones, twin = world.card_zones(), again.card_zones()
            hidden = state.hidden_zones(seat)
            assert {z: zones[z] for z in hidden} == {z: twin[z] for z in hidden}
            checked += 1
            state.apply_legal(policy(state, seat, state.legal_actions(), rng))
        else:
            state.apply_legal(state.sample_chance(rng))
    assert checked > 10


def test_admits_can_fail():
    """The soundness check is not vacuous: a knowledge that rules out a card
    really held is refused."""
    variant = get_registry().get("matching")
    state = variant.new_state(dict(default_ruleset(variant).options), 2, 0)
    state.apply_legal(state.sample_chance(random.Random(1)))
    knowledge = Knowledge.from_state(state, 0)
    assert knowledge.admits(state.card_zones())
    held = state.hands[1][0]
    knowledge.zones["hand 1"] = [Group(len(state.hands[1]), frozenset(knowledge.view.pool) - {held})]
    assert not knowledge.admits(state.card_zones())


def test_view_reads_nothing_hidden():
    """Two states that differ only in the cards a seat cannot see give it the same view."""
    variant = get_registry().get("trick")
    state = variant.new_state(dict(default_ruleset(variant).options), 3, 0)
    rng = random.Random(2)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.current_player() >= 0:
            seat = (state.current_player() + 1) % 3
            other = redeal(state, seat, rng)
            assert view_of(state, seat) == view_of(other, seat)
            assert Counter(view_of(state, seat).pool) == Counter(view_of(other, seat).pool)
            player = state.current_player()
            state.apply_legal(variant.cpu_policy("normal")(state, player, state.legal_actions(), rng))
        else:
            state.apply_legal(state.sample_chance(rng))
