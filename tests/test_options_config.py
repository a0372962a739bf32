"""OptionsConfig: a variant's Config made from its options, read as plain slots."""

from __future__ import annotations

import importlib
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from cardcli.contract.options import Option, OptionsConfig, cached_config, resolve
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import parse_rank

OPTIONS = (
    Option("hand_size", 7, "cards dealt", "int", 1, 10),
    Option("skip_rank", "J", "the rank that skips", "rank", 3, 14),
    Option("stop_rank", None, "the rank that stops", "rank", 3, 14, nullable=True),
    Option("decks", None, "decks", "int", 1, 2, nullable=True),
)


class Config(OptionsConfig, options=OPTIONS, ranks=("skip_rank", "stop_rank")):
    __slots__ = ("decks", "double_hand", "seats")

    def derive(self, rules: Mapping[str, Any], num_players: int = 2) -> None:
        self.double_hand = 2 * self.hand_size
        self.decks = rules["decks"] or (1 if num_players <= 2 else 2)
        self.seats = num_players


def test_each_option_is_a_plain_slot_holding_its_value():
    cfg = Config(resolve(OPTIONS, {"hand_size": 5}, source="test"), 3)
    assert (cfg.hand_size, cfg.skip_rank, cfg.stop_rank, cfg.double_hand, cfg.seats) == (5, 11, None, 10, 3)
    assert not hasattr(cfg, "__dict__")
    for name in ("hand_size", "skip_rank", "double_hand"):
        assert isinstance(vars(Config)[name], types.MemberDescriptorType), name
    # Nothing between the hot path and the slot: no __getattr__, no properties.
    assert all("__getattr__" not in vars(klass) for klass in Config.__mro__)
    with pytest.raises(AttributeError):
        cfg.hand_szie  # noqa: B018 - a typo is an error, not a default


def test_an_option_in_the_variants_own_slots_is_the_one_derive_sets():
    assert Config.__slots__.count("decks") == 1
    rules = resolve(OPTIONS, {}, source="test")
    one_deck = {**rules, "decks": 1}
    assert (Config(rules, 2).decks, Config(rules, 4).decks, Config(one_deck, 4).decks) == (1, 2, 1)


def test_cached_config_passes_what_follows_the_rules_to_derive_and_keys_on_it():
    rules = resolve(OPTIONS, {}, source="test")
    two, four = cached_config(Config, rules, 2), cached_config(Config, rules, 4)
    assert (two.seats, four.seats) == (2, 4)
    assert cached_config(Config, dict(rules), 4) is four


def test_ranks_must_name_rank_options():
    with pytest.raises(TypeError, match="hand_size"):
        class Wrong(OptionsConfig, options=OPTIONS, ranks=("hand_size",)):
            pass


def test_a_config_without_derive_is_only_its_options():
    class Plain(OptionsConfig, options=OPTIONS[:2]):
        """No tables."""

    cfg = Plain({"hand_size": 3, "skip_rank": "J"})
    assert (cfg.hand_size, cfg.skip_rank, Plain.__slots__) == (3, "J", ("hand_size", "skip_rank"))


def test_a_dataclass_config_is_still_made_from_its_fields():
    @dataclass(frozen=True, slots=True)
    class Fields:
        hand_size: int

    assert cached_config(Fields, {"hand_size": 4, "skip_rank": "J"}).hand_size == 4


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_the_built_in_configs_carry_every_option(name):
    variant = get_registry().get(name)
    module = importlib.import_module(f"cardcli_{name}.config")
    rules = dict(default_ruleset(variant).options)
    args = (4,) if name == "endofpage" else ()
    cfg = module.Config(rules, *args)
    assert [option.name for option in variant.options] == [option.name for option in module.OPTIONS]
    for option in variant.options:
        value = getattr(cfg, option.name)
        if option.kind == "rank":
            assert value == parse_rank(rules[option.name])
        elif not (name == "endofpage" and option.name == "decks"):
            assert value == rules[option.name], option.name
