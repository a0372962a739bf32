"""Records with unseen cards are never rejected when the game could have
happened: every record cardcli writes, exported from every view, validates
(over every variant and shipped ruleset); and a tampered export is rejected
only when the full record, tampered the same way, is invalid too."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardcli.consistency import Solver
from cardcli.errors import Kind
from cardcli.plugins import get_registry
from cardcli.rulesets import load_ruleset, shipped_rulesets
from cardcli.testing import play_game
from cardcli.testing.unseen import check_exports, export_bytes
from cardcli.validate import validate_stream


def _tables() -> list[tuple[str, str, int]]:
    """(variant, ruleset, players) for every shipped ruleset, at its smallest and largest table."""
    registry = get_registry()
    tables = []
    for name, _path, _data in shipped_rulesets(registry):
        ruleset = load_ruleset(name, registry)
        variant = registry.get(ruleset.variant)
        low = max(variant.min_players, ruleset.options.get("min_players", variant.min_players))
        high = min(variant.max_players, ruleset.options.get("max_players", variant.max_players), 6)
        for players in sorted({low, high}):
            tables.append((ruleset.variant, name, players))
    return tables


TABLES = _tables()
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


def _record(table: tuple[str, str, int], seed: int) -> bytes:
    variant, ruleset, players = table
    options = load_ruleset(ruleset, get_registry(), variant, players).options
    _, buffer = play_game(variant, players=players, seed=seed, options=dict(options))
    return buffer.getvalue().encode()


def _exported_all(table: tuple[str, str, int], seed: int) -> None:
    check_exports(_record(table, seed), table[2], f"{table[1]}, {table[2]} players, seed {seed}")


def test_every_shipped_ruleset_is_covered():
    assert {variant for variant, _, _ in TABLES} == {"matching", "trick", "endofpage"}
    assert len({ruleset for _, ruleset, _ in TABLES}) == len(shipped_rulesets(get_registry()))


@settings(max_examples=30, **SETTINGS)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31))
def test_every_export_of_a_real_game_validates(table, seed):
    _exported_all(table, seed)


@pytest.mark.slow
@settings(max_examples=600, **SETTINGS)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31))
def test_every_export_of_many_real_games_validates(table, seed):
    _exported_all(table, seed)


def _tamper(lines: list[str], rng: random.Random) -> list[str] | None:
    """The same change made to a record and its export: a move's card changed,
    two moves swapped or one dropped (moves are the same in both)."""
    moves = [i for i, line in enumerate(lines) if '"move"' in line]
    if len(moves) < 2:
        return None
    out = lines[:]
    kind = rng.choice(("card", "swap", "drop", "seat"))
    at = rng.choice(moves)
    data = json.loads(out[at])
    if kind == "card" and "card" in data:
        data["card"] = rng.choice(["AS", "7H", "QD", "4C", "9S", "KH", "3D", "10C", "JK"])
        out[at] = json.dumps(data)
    elif kind == "seat":
        data["seat"] = (data["seat"] + 1) % 2
        out[at] = json.dumps(data)
    elif kind == "swap":
        other = rng.choice(moves)
        out[at], out[other] = out[other], out[at]
    else:
        del out[at]
    return out


def _verdict(lines: list[str]) -> tuple[bool, str]:
    data = ("\n".join(lines) + "\n").encode()
    report = validate_stream(io.BytesIO(data), "<tampered>", get_registry())
    kind = "valid" if report.valid else str(report.error.kind if report.error else Kind.INVALID)
    assert kind != Kind.INTERNAL, report.error
    return report.valid, kind


@settings(max_examples=40, **SETTINGS)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31), viewer=st.integers(-1, 5),
       tamper=st.integers(0, 2**31))
# A pickup whose card is not in the meld it names (a swap of two moves): an illegal move, not a crash.
@example(table=("endofpage", "endofpage-short", 6), seed=1718090, viewer=0, tamper=53177)
def test_a_tampered_export_is_rejected_only_if_the_game_could_not_happen(table, seed, viewer, tamper):
    record = _record(table, seed)
    seat = None if viewer < 0 or viewer >= table[2] else viewer
    full = record.decode().splitlines()
    exported = export_bytes(record, seat).decode().splitlines()
    full_moves = [line for line in full if '"move"' in line]
    assert full_moves == [line for line in exported if '"move"' in line]
    # The same change to both: the lines that are moves, at the same places among the moves.
    rng = random.Random(tamper)
    changed = _tamper(full_moves, rng)
    if changed is None:
        return

    def rebuild(lines: list[str]) -> list[str]:
        it = iter(changed)
        out = []
        count = sum(1 for line in lines if '"move"' in line)
        for line in lines:
            if '"move"' in line:
                out.append(next(it, ""))
            else:
                out.append(line)
        rest = list(it)
        assert len(changed) - len(rest) <= count
        return [line for line in out if line]
    full_valid, _ = _verdict(rebuild(full))
    export_valid, export_kind = _verdict(rebuild(exported))
    if full_valid:
        assert export_valid, f"the game could happen (its full record is valid): the export is {export_kind}"


@pytest.mark.slow
def test_a_long_two_deck_export_is_explained_by_the_matching_alone(monkeypatch):
    """A long trick game with two decks and many reshuffles (seed 19 of
    trick-eight-players at four seats): a revealed card's copy may come from
    several stocks.  The matching with the reveals' pools in its paths
    explains the public export without the exhaustive search over pools
    (which took minutes on it), and what it keeps is a real deal."""
    data = _record(("trick", "trick-eight-players", 4), 19)
    assert data.count(b"\n") > 700
    ends: list[list[str]] = []

    def exhaustive(solver: Solver) -> None:
        raise AssertionError(f"fell back to the exhaustive search at step {len(solver.log) - 1}")

    def new_round(solver: Solver) -> None:
        if hasattr(solver, "slots"):
            ends.append(solver.witness())
        start(solver)

    start = Solver.new_round
    monkeypatch.setattr(Solver, "_exhaustive", exhaustive)
    monkeypatch.setattr(Solver, "new_round", new_round)
    result = validate_stream(io.BytesIO(export_bytes(data, None)), "<export>", get_registry())
    assert result.valid, result.error
    assert ends and all(wrong == [] for wrong in ends)
