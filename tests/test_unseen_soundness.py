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

from cardcli.cpu.players import default_seats
from cardcli.engine.driver import PolicyPlayer
from cardcli.engine.game import Game, choose_dealer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset, load_ruleset, shipped_rulesets
from cardcli.kit.errors import Kind
from cardcli.kit.record_format import RecordWriter
from cardcli.records.validate import validate_stream
from cardcli.testing import play_game
from cardcli.testing.unseen import check_exports, export_bytes
from cardcli.unseen.solver import Solver


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


# ------------------------------------------------------------ running dry
# The rare endings: a deal that runs out of cards to draw (trick: stock and
# finished tricks both empty, so the hand is called off; matching: nothing
# left to draw and nobody can play; End of the Page: the stock runs out with
# no reshuffle left).  The shipped rulesets rarely get there, so these games
# are searched for, at every table size each variant's options allow, with
# the most cards dealt that the table allows and players who draw whenever
# they may.  Every game that runs dry must validate from every view.

def _dry_options(variant: str, players: int) -> dict:
    if variant == "trick":
        hand = max(h for h in range(3, 8) if players * h < 53)
        return {"hand_size": hand, "max_players": max(players, 2)}
    if variant == "matching":
        hand = max(h for h in range(1, 11) if players * h < 51)
        return {"hand_size": hand, "draw_when_able": True, "wild_eight": False}
    return {"reshuffles": 0, "page_lines": 1}


def _ran_dry(variant: str, game) -> bool:
    if variant == "trick":
        return "nothing left to draw" in game.state.result().reason
    if variant == "matching":
        return "nothing was left to draw" in game.state.result().reason
    return any("the stock ran out" in note for note in game.state.notes)


def _drawer(variant):
    """A player who draws (and keeps what it drew) whenever the rules let it,
    else plays at random: hands fill up and the stock runs dry."""
    def policy(state, seat, legal, rng):
        draws = [a for a in legal if variant.encode_action(state, a).get("move") in ("draw", "keep")]
        return rng.choice(draws) if draws and rng.random() < 0.9 else rng.choice(legal)
    return policy


def _dry_records(variant_name: str, players: int, want: int, budget: int) -> list[bytes]:
    registry = get_registry()
    variant = registry.get(variant_name)
    rules = dict(default_ruleset(variant).options)
    rules.update(_dry_options(variant_name, players))
    found = []
    for seed in range(budget):
        seats = default_seats(variant, players, human=None, level="easy")
        buffer = io.StringIO()
        drawers = [PolicyPlayer(_drawer(variant), random.Random(seed * 10 + s)) for s in range(players)]
        game = Game(variant, rules, seats, choose_dealer(seed, players), seed=seed,
                    writer=RecordWriter(buffer), players=drawers)
        game.advance(50_000)
        assert game.state.is_terminal()
        game.finish()
        if _ran_dry(variant_name, game):
            found.append(buffer.getvalue().encode())
            if len(found) >= want:
                break
    assert found, f"no {variant_name} game at {players} ran dry in {budget} games: widen the search"
    return found


DRY_TABLES = [("trick", n) for n in range(2, 9)] + [("matching", n) for n in range(2, 7)] + \
    [("endofpage", n) for n in range(2, 7)]


@pytest.mark.parametrize("variant,players", DRY_TABLES)
def test_games_that_run_dry_validate_from_every_view(variant, players):
    for record in _dry_records(variant, players, want=1, budget=200):
        check_exports(record, players, f"{variant} at {players}, run dry")


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", DRY_TABLES)
def test_many_games_that_run_dry_validate_from_every_view(variant, players):
    for record in _dry_records(variant, players, want=40, budget=4000):
        check_exports(record, players, f"{variant} at {players}, run dry")
