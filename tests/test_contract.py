"""The variant contract: what a variant must write, the optional methods it
may override, the abilities it may declare, the ``clone`` the core writes
from ``__slots__``, and the one clear message a plugin written for the
earlier, wider contract gets."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from cardcli.contract import abilities
from cardcli.contract.abilities import HandsAndStock, HiddenInfo
from cardcli.contract.variant import State, Variant
from cardcli.engine import plugins
from cardcli.engine.plugins import get_registry
from cardcli.kit import cloning

from .thirdparty import HighCard

ROOT = Path(__file__).resolve().parents[1]
PLUGINS_DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def required(cls: type) -> set[str]:
    return set(getattr(cls, "__abstractmethods__", ()))


# ------------------------------------------------------------ the contract
#: The methods a variant may override, each returning ``None`` for the core's default.
OPTIONAL = {"describe_events", "describe_attempt", "rule_behind", "round_summary", "last_round_summary",
            "rules_summary", "render_short", "table_view", "move_view", "parse_move", "why_not_move",
            "human_turn", "checkpoint"}


def test_the_contract_is_eleven_methods_and_the_record_events_and_the_docs_show_each():
    assert required(State) == {"current_player", "legal_actions", "apply_legal", "check_chance",
                               "sample_chance", "result", "card_zones"}
    assert required(Variant) == {"new_state", "deck", "describe", "render"}
    contract = PLUGINS_DOC.split("## The contract", 1)[1].split("\n## ", 1)[0]
    for name in required(State) | required(Variant):
        assert f"def {name}(" in contract, f"docs/plugins.md's contract does not show {name}"
    assert "events = RecordEvents(" in contract  # encode_action and decode_action come from it
    block = contract.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(block.splitlines()) <= 55  # one screen: the required methods and the optional ones
    public = {name for name in vars(Variant) if not name.startswith("_")}
    for name in public - required(Variant):
        assert name in block, f"docs/plugins.md's contract does not name Variant.{name}"


def test_each_optional_method_says_none_for_the_core_default():
    variant = HighCard()
    assert variant.rule_words == {}
    for name in OPTIONAL:
        method = getattr(variant, name)
        needed = [p for p in inspect.signature(method).parameters.values() if p.default is p.empty]
        assert method(*[None] * len(needed)) is None, name


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_the_built_in_variants_declare_their_abilities_and_say_their_own_words(name):
    variant = get_registry().get(name)
    state = variant.new_state({o.name: o.default for o in variant.options}, 2, 0)
    assert isinstance(state, HiddenInfo) and isinstance(state, HandsAndStock)
    own = {method for method in OPTIONAL if getattr(type(variant), method) is not getattr(Variant, method)}
    assert own >= {"describe_attempt", "rule_behind", "round_summary", "last_round_summary", "table_view",
                   "move_view", "parse_move", "human_turn"}, name
    assert variant.rule_words
    assert ("checkpoint" in own) == (name == "endofpage")


def test_every_ability_is_one_import_away_and_documented():
    for ability in abilities.__all__:
        if inspect.isclass(getattr(abilities, ability)):
            assert f"`{ability}`" in PLUGINS_DOC, f"docs/plugins.md never names {ability}"


def test_hidden_info_needs_both_halves():
    class Half(HiddenInfo, State):
        def current_player(self): return -2
        def legal_actions(self): return []
        def apply_legal(self, action): pass
        def check_chance(self, action): pass
        def sample_chance(self, rng): return None
        def result(self): return None
        def card_zones(self): return {}
        def hidden_zones(self, seat): return []

    with pytest.raises(TypeError, match="set_zones"):
        Half()


def test_cpu_strengths_are_looked_up_one_way():
    variant = get_registry().get("trick")
    assert variant.cpu_levels == ("easy", "normal")
    assert variant.cpu_policy("normal") is variant.cpu_policies["normal"]
    with pytest.raises(plugins.PluginError, match=r"no CPU strength 'expert' \(it has easy, normal\)"):
        variant.cpu_policy("expert")


# ------------------------------------------------------- clone from slots
class Table(State):
    """A toy state with every kind of slot the built-in games have."""

    __slots__ = ("deck", "hands", "last", "num_players", "scores", "seen", "stock", "turn", "zones")
    shared = ("deck",)

    def __init__(self) -> None:
        self.num_players = 2
        self.deck = [1, 2, 3, 4]
        self.hands = [[1], [2]]
        self.stock = [3, 4]
        self.scores: list[list[int]] = []
        self.seen: dict[int, int] = {}
        self.zones: set[int] = set()
        self.turn = 0
        self.last = None

    def current_player(self): return self.turn
    def legal_actions(self): return []
    def apply_legal(self, action): pass
    def check_chance(self, action): pass
    def sample_chance(self, rng): return None
    def result(self): return None
    def card_zones(self): return {"hand 0": self.hands[0], "hand 1": self.hands[1], "stock": self.stock}


def test_clone_copies_every_list_and_shares_the_rest():
    first = Table()
    copy = first.clone()
    copy.hands[0].append(9)
    copy.stock.pop()
    copy.seen[1] = 2
    copy.zones.add(5)
    copy.turn = 1
    assert first.hands == [[1], [2]] and first.stock == [3, 4] and not first.seen and not first.zones
    assert first.turn == 0 and copy.deck is first.deck  # named in shared
    first.scores.append([1, 2])  # empty when the copier was written: looked at on every copy
    first.last = [[7]]  # None then: the same
    later = first.clone()
    later.scores[0].append(3)
    later.last[0].append(8)
    assert first.scores == [[1, 2]] and first.last == [[7]]


def test_clone_of_a_slot_that_held_a_list_when_written_and_none_now():
    """A round's places: a list at a round's end (the first state cloned,
    say, by a replay), cleared to None at the next deal."""

    class Rounds(Table):
        __slots__ = ()

    ended = Rounds()
    ended.last = [[2, 1]]
    ended.scores = [[1, 2], [3]]
    assert ended.clone().last == [[2, 1]]  # the copier is written from this state
    dealt = Rounds()
    dealt.last = None
    dealt.scores = [[4]]
    copy = dealt.clone()
    assert copy.last is None and copy.scores == [[4]] and copy.scores[0] is not dealt.scores[0]
    ended.last[0].append(3)
    again = ended.clone()  # the new copier still copies the lists
    again.last[0].append(4)
    assert ended.last == [[2, 1, 3]] and dealt.clone().last is None


def test_clone_of_a_state_with_a_slot_unset_and_without_slots():
    class Sparse(Table):
        __slots__ = ("extra",)

    sparse = Sparse()
    assert not hasattr(sparse.clone(), "extra")  # unset, and unset in the copy
    sparse.extra = [1]
    assert sparse.clone().extra == [1] and sparse.clone().extra is not sparse.extra
    del sparse.extra
    assert not hasattr(sparse.clone(), "extra")  # set when written, unset now

    class Loose(State):  # no __slots__: copied from its __dict__
        num_players = 1

        def __init__(self) -> None:
            self.hands = [[1, 2]]
            self.note = "x"

        current_player = Table.current_player
        legal_actions = Table.legal_actions
        apply_legal = Table.apply_legal
        check_chance = Table.check_chance
        sample_chance = Table.sample_chance
        result = Table.result
        card_zones = Table.card_zones

    loose = Loose()
    other = loose.clone()
    other.hands[0].pop()
    assert loose.hands == [[1, 2]] and other.note == "x"


def test_the_first_state_cloned_does_not_decide_how_the_others_are(monkeypatch):
    """A copier written from a state whose slot held a list copies a state
    whose slot is None (a finished game cloned first, a new one after)."""
    monkeypatch.setattr(cloning, "_COPIERS", {})
    finished = Table()
    finished.last = [3, 4]
    finished.scores = [[1], [2]]
    assert finished.clone().last == [3, 4]
    fresh = Table()
    copy = fresh.clone()
    assert copy.last is None and copy.scores == [] and copy.hands == [[1], [2]]
    copy.hands[0].append(5)
    assert fresh.hands == [[1], [2]]


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_a_written_clone_copies_a_played_position_of_every_game(name):
    from cardcli.testing import play_positions

    positions = play_positions(name, players=3, seed=2)
    for position in positions[:: max(1, len(positions) // 20)]:
        state = position.state
        copy = state.clone()
        for slot in cloning._slots(type(state)):
            value = getattr(state, slot, None)
            if isinstance(value, list) and slot not in type(state).shared:
                assert getattr(copy, slot) is not value, f"{name}: {slot} shared by a copy"
                assert getattr(copy, slot) == value


def test_the_driver_and_the_kit_never_catch_not_implemented():
    for path in (ROOT / "src" / "cardcli").rglob("*.py"):
        assert "except NotImplementedError" not in path.read_text(encoding="utf-8"), path
