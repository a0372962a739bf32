"""The core's default ``State.check``: for a variant whose ``legal_actions``
lists every legal decision, a decision not listed is refused with the
variant's reason and the alternatives; chance goes to ``check_chance``."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.phases import PhasedState
from cardcli.contract.variant import CHANCE, TERMINAL, Result, State
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.errors import IllegalMove
from cardcli.words.narration import after_move


class Coin(State):
    """A toy game: a coin is tossed (chance), then seat 0 calls heads or tails."""

    num_players = 1

    def __init__(self) -> None:
        self.tossed: str | None = None
        self.called: str | None = None

    def current_player(self) -> int:
        if self.tossed is None:
            return CHANCE
        return 0 if self.called is None else TERMINAL

    def legal_actions(self) -> list:
        return ["heads", "tails"] if self.current_player() == 0 else []

    def check_chance(self, action) -> None:
        if action not in ("H", "T"):
            raise IllegalMove(f"a coin shows H or T, not {action!r}")

    def why_illegal(self, action) -> str:
        return f"call heads or tails, not {action!r}"

    def alternatives(self, legal: list) -> str:
        return "could call " + " or ".join(legal)

    def apply_legal(self, action) -> None:
        if self.tossed is None:
            self.tossed = action
        else:
            self.called = action

    def sample_chance(self, rng: random.Random):
        return rng.choice("HT")

    def clone(self) -> Coin:
        copy = Coin()
        copy.tossed, copy.called = self.tossed, self.called
        return copy

    def result(self) -> Result | None:
        return None if self.called is None else Result(places=[1], winner=0)

    def card_zones(self) -> dict[str, list[int]]:
        return {}

    def expecting(self) -> str:
        return "a call"


def test_a_listed_decision_is_allowed():
    coin = Coin()
    coin.apply("H")
    coin.apply("tails")
    assert coin.is_terminal()


def test_an_unlisted_decision_gets_the_variants_reason_and_the_alternatives():
    coin = Coin()
    coin.apply("H")
    with pytest.raises(IllegalMove) as caught:
        coin.apply("edge")
    assert caught.value.rule == "call heads or tails, not 'edge'"
    assert caught.value.alternatives == "could call heads or tails"
    assert str(caught.value) == "call heads or tails, not 'edge' (could call heads or tails)"
    assert coin.called is None  # refused: nothing applied


def test_chance_goes_to_check_chance_and_the_end_refuses_everything():
    coin = Coin()
    with pytest.raises(IllegalMove, match="a coin shows H or T"):
        coin.apply("X")
    coin.apply("T")
    coin.apply("heads")
    with pytest.raises(IllegalMove, match="the game is over"):
        coin.check("heads")


def test_the_defaults_name_no_rule_of_their_own():
    class Bare(Coin):
        why_illegal = State.why_illegal
        alternatives = State.alternatives

    bare = Bare()
    bare.tossed = "H"
    with pytest.raises(IllegalMove) as caught:
        bare.check("edge")
    assert str(caught.value) == "not allowed now"


@pytest.mark.parametrize("name", ["matching", "trick"])
def test_matching_and_trick_use_the_core_check(name):
    variant = get_registry().get(name)
    state = variant.new_state(dict(default_ruleset(variant).options), 2, 1)
    assert type(state).check is PhasedState.check  # the core's, not one of their own
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    # Malformed decisions get a reason, never an exception of another kind.
    for junk in ("play", (), (99,), (0,), (0, 999, -1, False), (0, 5), [0, 5, -1, False], None):
        with pytest.raises(IllegalMove) as caught:
            state.check(junk)
        assert caught.value.rule
    with pytest.raises(IllegalMove, match="not an action"):
        state.check(None)


def test_after_move_applies_to_a_copy_and_refuses_what_check_refuses():
    coin = Coin()
    coin.apply("H")
    after = after_move(coin, "tails")
    assert after is not None and after.called == "tails" and coin.called is None
    assert after_move(coin, "edge") is None and coin.called is None
