"""A type checker follows a plugin through the core.

``mypy`` (run by CI, see ``[tool.mypy]`` in pyproject.toml) checks this file
too: each ``assert_type`` below fails the type check, not the test, if the
core loses track of a variant's own state class (``Variant`` is generic
over it).  At run time the test checks the same objects for real.
"""

from __future__ import annotations

import random
from typing import assert_type

from cardcli.contract.variant import Policy, State, Variant
from cardcli.cpu.players import make_cpu
from cardcli.engine.driver import Driver
from cardcli.engine.game import Game
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.record_format import SeatInfo
from cardcli.unseen.knowledge import redeal
from cardcli_matching.state import MatchingState
from cardcli_matching.variant import MatchingVariant
from cardcli_trick.state import TrickState
from cardcli_trick.variant import TrickVariant


def test_a_variant_makes_and_reads_its_own_state_class() -> None:
    variant = MatchingVariant()
    typed: Variant[MatchingState] = variant
    # And not a variant of another game's state: were the core to lose track
    # (an untyped Variant), this ignore would go unused, which mypy refuses.
    other: Variant[TrickState] = variant  # type: ignore[assignment]
    assert typed is variant and other.name == "matching"
    rules = dict(default_ruleset(variant).options)
    state = variant.new_state(rules, 3, 0)
    assert_type(state, MatchingState)
    copy = state.clone()
    assert_type(copy, MatchingState)
    assert isinstance(copy, MatchingState) and copy is not state
    assert_type(redeal(state, 0, random.Random(1)), MatchingState)


def test_the_driver_and_the_game_keep_the_state_class() -> None:
    variant = TrickVariant()
    rules = dict(default_ruleset(variant).options)
    state = variant.new_state(rules, 3, 0)
    driver = Driver(state, [make_cpu(variant, "easy", 1, seat) for seat in range(3)],
                    rng=random.Random(1))
    driver.run()
    assert_type(driver.state, TrickState)
    assert driver.state.hands is not None  # an attribute of TrickState, not of State
    seats = [SeatInfo(f"cpu{i}", "cpu:easy") for i in range(3)]
    game = Game(variant, rules, seats, 0, seed=1)
    assert_type(game.state, TrickState)
    assert_type(game.state_after(0), TrickState)
    assert isinstance(game.state_after(0), TrickState)


def test_a_policy_is_typed_by_the_state_it_reads() -> None:
    policy: Policy[TrickState] = TrickVariant().cpu_policy("normal")
    # A policy of trick states cannot be handed a bare State (nor a matching one).
    loose: Policy[State] = TrickVariant().cpu_policy("normal")  # type: ignore[assignment]
    assert callable(policy) and policy is loose
