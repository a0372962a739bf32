"""Every way a shipped game can end is said in Japanese: the result's reason,
written in English into the record, is found in the variant's catalog."""

from __future__ import annotations

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset, shipped_rulesets
from cardcli.kit.language import speaking
from cardcli.testing.games import play_game
from cardcli.words.narration import reason_words

REGISTRY = get_registry()
CASES = [(variant, name) for variant in ("matching", "trick", "endofpage")
         for name, _path, _data in shipped_rulesets(REGISTRY, variant)]


@pytest.mark.parametrize("variant, ruleset", CASES)
def test_every_reason_a_game_ends_with_is_said_in_japanese(variant, ruleset):
    target = REGISTRY.get(variant)
    options = dict(load_ruleset(ruleset, REGISTRY, variant).options)
    players = max(target.min_players, min(3, options.get("max_players", target.max_players)))
    names = [f"p{seat}" for seat in range(players)]
    reasons = set()
    for seed in range(6):
        game, _buffer = play_game(target, players=players, seed=seed, options=options, checked=False)
        reasons.add(game.state.result().reason)
    assert reasons
    for reason in reasons:
        with speaking("ja"):
            said = reason_words(target, reason, names)
        assert said is not None, f"{variant} ({ruleset}): no Japanese for {reason!r}"
        assert any(ord(ch) > 0x3000 for ch in said) and "seat" not in said, said
        assert all(digit in said for digit in reason if digit.isdigit() and "seat" not in reason), said


def test_a_reason_with_a_count_is_found_by_its_pattern():
    target = REGISTRY.get("matching")
    with speaking("ja"):
        said = reason_words(target, "3 rounds played; lowest total wins", ["ann", "bob"])
    assert said is not None and "3" in said and "rounds" not in said
    with speaking("en"):
        assert reason_words(target, "3 rounds played; lowest total wins", ["ann", "bob"]) is None
