"""The fast paths do exactly what the checked ones do.

``simulate`` without records runs the driver's plain loop (no hooks, no
checks); ``play`` and ``simulate --records`` run a :class:`~cardcli.engine.game.Game`
that checks every event and writes it.  The same seed must give the same
game, byte for byte, either way; and ``validate``, however it is sped up,
still finds every card that goes missing or appears.
"""

from __future__ import annotations

import io
import random

import pytest

from cardcli.cpu.players import default_seats, make_cpu
from cardcli.cpu.simulate import play_fast, play_recorded
from cardcli.engine.driver import Driver
from cardcli.engine.game import Game, choose_dealer, derive_seed
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.record_format import RecordWriter
from cardcli.testing import play_game, validate_bytes

TABLES = [("matching", 4, "easy"), ("matching", 3, "normal"), ("trick", 4, "easy"), ("trick", 6, "normal"),
          ("endofpage", 2, "easy"), ("endofpage", 3, "normal")]


def _table(name: str, players: int, level: str):
    variant = get_registry().get(name)
    rules = dict(default_ruleset(variant).options)
    if name == "endofpage":
        rules["page_lines"] = 2  # two rounds: a round's end and a new deal, kept short
    return variant, rules, default_seats(variant, players, human=None, level=level)


def _fast_record(variant, rules, seats, seed: int) -> tuple[bytes, Driver]:
    """The game as the plain loop plays it (what ``play_fast`` runs, keeping
    the history), then written by a Game that applies that history, checked."""
    n = len(seats)
    dealer = choose_dealer(seed, n)
    players = [make_cpu(variant, seat.cpu_level or "easy", seed, i) for i, seat in enumerate(seats)]
    driver = Driver(variant.new_state(rules, n, dealer), players,
                    rng=random.Random(derive_seed(seed, "chance")))
    driver.run()
    buffer = io.StringIO()
    game = Game(variant, rules, seats, dealer, seed=seed, writer=RecordWriter(buffer))
    for action in driver.history:
        game.apply(action)  # checked: the fast path's every event is legal
    game.finish()
    return buffer.getvalue().encode(), driver


@pytest.mark.parametrize(("name", "players", "level"), TABLES)
def test_fast_and_checked_paths_write_the_same_record(tmp_path, name, players, level):
    variant, rules, seats = _table(name, players, level)
    seeds = range(12) if name != "endofpage" else range(3)
    for index in seeds:
        seed = derive_seed(99, index)
        path = tmp_path / f"{name}-{index}.jsonl"
        checked = play_recorded(variant, rules, seats, seed, path)
        fast_bytes, driver = _fast_record(variant, rules, seats, seed)
        assert path.read_bytes() == fast_bytes, f"seed {seed}: the two paths played different games"
        fast = play_fast(variant, rules, seats, seed)
        assert (fast.places, fast.winner, fast.decisions, fast.events, fast.scores) == (
            checked.places, checked.winner, checked.decisions, checked.events, checked.scores)
        assert (driver.moves, driver.events) == (fast.decisions, fast.events)
        report = validate_bytes(path.read_bytes(), str(path))
        assert report.valid, report.error
        assert (report.moves, report.events) == (checked.decisions, checked.events)


def _break_cards(monkeypatch, how: str, after_moves: int = 5) -> None:
    """Make matching lose (or duplicate) a card from the state's zones once
    ``after_moves`` cards lie on the discard pile."""
    from cardcli_matching.state import MatchingState

    real = MatchingState.card_zones

    def card_zones(self):
        zones = real(self)
        if len(self.discard) > after_moves:
            zones = {name: list(cards) for name, cards in zones.items()}
            if how == "lose":
                zones["stock"] = zones["stock"][1:]
            elif how == "duplicate":
                zones["discards"] = zones["discards"] + zones["discards"][:1]
            else:  # swap one card for another the pack also holds: the count stays right
                card = zones["discards"][-1]
                zones["discards"][-1] = (card + 1) % 52
        return zones

    monkeypatch.setattr(MatchingState, "card_zones", card_zones)


@pytest.mark.parametrize("how", ["lose", "duplicate", "swap"])
def test_validate_finds_a_card_gone_astray(monkeypatch, how):
    _, buffer = play_game("matching", players=4, seed=3)
    record = buffer.getvalue().encode()
    assert validate_bytes(record).valid
    _break_cards(monkeypatch, how)
    report = validate_bytes(record)
    assert not report.valid
    assert report.error is not None and report.error.kind == "cards"
    message = str(report.error)
    assert "cards are not accounted for" in message
    if how == "lose":
        assert "extra []" in message and "missing []" not in message
    elif how == "duplicate":
        assert "missing []" in message and "extra []" not in message
    else:
        assert "missing []" not in message and "extra []" not in message


@pytest.mark.parametrize("how", ["lose", "duplicate"])
def test_validate_finds_a_card_gone_astray_in_a_record_with_unseen_cards(monkeypatch, how):
    # A spectator's export: the known cards are checked against the pack
    # (as a set where no card is known twice), the unseen ones counted.
    from cardcli.testing.unseen import export_bytes

    _, buffer = play_game("matching", players=4, seed=3)
    record = export_bytes(buffer.getvalue().encode(), None)
    assert validate_bytes(record).valid
    _break_cards(monkeypatch, how)
    report = validate_bytes(record)
    assert not report.valid
    assert report.error is not None and report.error.kind == "cards"
    assert "cards are not accounted for" in str(report.error)
