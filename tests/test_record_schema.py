"""The record line schema: a valid JSON Schema that every line of real records
and of the documented examples satisfies, and that malformed lines fail."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cardcli.engine.plugins import get_registry
from cardcli.testing import play_game, record_lines, validate_bytes
from cardcli.testing.unseen import export_bytes

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "src" / "cardcli" / "records" / "schema" / "record.schema.json"
DOC_PATH = ROOT / "docs" / "records.md"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
KINDS = ("header", "decision", "chance", "checkpoint", "shown", "result")


def def_validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"],
                                 "$ref": f"#/$defs/{name}"})


DEF_VALIDATORS = {name: def_validator(name) for name in KINDS}


def expected_kind(line: dict[str, Any]) -> str:
    """What the record reader takes a line for (header aside, by its keys)."""
    if "format" in line:
        return "header"
    if "result" in line:
        return "result"
    if "move" in line:
        return "decision"
    if "chance" in line:
        return "chance"
    if "shown" in line:
        return "shown"
    return "checkpoint"


def assert_line_ok(line: dict[str, Any], where: str) -> None:
    errors = sorted(VALIDATOR.iter_errors(line), key=lambda e: list(e.path))
    assert not errors, f"{where}: {json.dumps(line)}: {errors[0].message}"
    matching = [name for name, validator in DEF_VALIDATORS.items() if validator.is_valid(line)]
    assert matching == [expected_kind(line)], f"{where}: {json.dumps(line)} matches {matching}"


def assert_record_ok(lines: list[dict[str, Any]], where: str) -> None:
    assert expected_kind(lines[0]) == "header" and expected_kind(lines[-1]) == "result"
    for number, line in enumerate(lines, start=1):
        assert_line_ok(line, f"{where}:{number}")


def test_schema_is_valid_draft_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)
    assert {"oneOf", "$defs"} <= set(SCHEMA)
    assert set(KINDS) <= set(SCHEMA["$defs"])


def test_schema_ships_with_the_package() -> None:
    shipped = files("cardcli.records") / "schema" / "record.schema.json"
    assert json.loads(shipped.read_text(encoding="utf-8")) == SCHEMA


MATCHING_GAMES = [
    (2, 1, {}),
    (3, 2, {}),
    (4, 3, {"first_special": "apply"}),
    (5, 0, {}),  # has a reshuffle
    (6, 4, {"draw_until_playable": True, "draw_when_able": True}),
    (3, 5, {"rounds": 3, "hand_size": 3}),
    (4, 6, {"rank_all_places": True, "hand_size": 4}),
    (3, 7, {"draw_three": True, "page_one_penalty": 5, "skip_rank": "A", "reverse_rank": "9"}),
]


@pytest.mark.parametrize(("players", "seed", "options"), MATCHING_GAMES)
def test_real_matching_records_satisfy_the_schema(players: int, seed: int, options: dict) -> None:
    _game, buffer = play_game("matching", players=players, seed=seed, options=options)
    assert_record_ok(record_lines(buffer), f"matching seed {seed}")


def test_real_matching_records_cover_every_event() -> None:
    seen: set[tuple[str, str]] = set()
    for players, seed, options in MATCHING_GAMES:
        _game, buffer = play_game("matching", players=players, seed=seed, options=options)
        for line in record_lines(buffer)[1:-1]:
            seen.add(("move", line["move"]) if "move" in line else ("chance", line["chance"]))
    assert seen == {("move", "play"), ("move", "draw"), ("move", "keep"), ("chance", "deal"),
                    ("chance", "turn_up"), ("chance", "draw"), ("chance", "reshuffle")}


@pytest.mark.parametrize("variant", ["trick", "endofpage"])
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_real_records_of_other_variants_satisfy_the_schema(variant: str, players: int, seed: int) -> None:
    info = get_registry().variants.get(variant)
    if info is None:
        pytest.skip(f"the {variant} variant is not installed")
    low, high = info.variant.min_players, info.variant.max_players
    _game, buffer = play_game(variant, players=min(max(players, low), high), seed=seed)
    assert_record_ok(record_lines(buffer), f"{variant} seed {seed}")


@pytest.mark.parametrize("variant", ["matching", "trick", "endofpage"])
@pytest.mark.parametrize("viewer", [None, 0])
def test_exported_records_satisfy_the_schema(variant: str, viewer: int | None) -> None:
    _game, buffer = play_game(variant, players=3, seed=4)
    exported = export_bytes(buffer.getvalue().encode(), viewer)
    lines = [json.loads(line) for line in exported.decode().splitlines()]
    assert lines[0]["view"] == ("public" if viewer is None else "seat 0")
    assert_record_ok(lines, f"{variant} exported for {viewer}")


def doc_json_blocks() -> list[tuple[int, list[dict[str, Any]], bytes]]:
    """Every ```json block of docs/records.md: (line of the fence, its lines, its bytes)."""
    text = DOC_PATH.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(r"^```json\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL):
        body = match.group(1)
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        blocks.append((text.count("\n", 0, match.start()) + 1, lines, body.encode("utf-8")))
    return blocks


def test_every_documented_line_satisfies_the_schema() -> None:
    blocks = doc_json_blocks()
    assert len(blocks) >= 10
    kinds = set()
    for fence, lines, _data in blocks:
        assert lines, f"records.md:{fence}: an empty json block"
        for offset, line in enumerate(lines, start=1):
            assert_line_ok(line, f"records.md:{fence + offset}")
            kinds.add(expected_kind(line))
    assert kinds == set(KINDS)


def test_the_documented_complete_game_is_valid() -> None:
    games = [(fence, lines, data) for fence, lines, data in doc_json_blocks()
             if len(lines) > 1 and expected_kind(lines[0]) == "header"
             and expected_kind(lines[-1]) == "result"]
    assert games, "docs/records.md has no complete example game"
    for fence, lines, data in games:
        report = validate_bytes(data, source=f"records.md:{fence}")
        assert report.valid, str(report.error)
        assert report.variant == lines[0]["variant"]
        assert report.result is not None
        for key, value in lines[-1]["result"].items():
            assert report.result[key] == value


HEADER = {"format": "cardcli-record", "version": 1, "variant": "matching", "rules": {"hand_size": 3},
          "players": ["ann", {"name": "bob", "kind": "cpu:easy"}], "dealer": 1, "seed": 7}


@pytest.mark.parametrize("line", [
    {key: value for key, value in HEADER.items() if key != "players"},
    {**HEADER, "players": []},
    {**HEADER, "players": [{"kind": "human"}]},
    {**HEADER, "players": ["ann", {"name": "bob", "kind": "robot"}]},
    {**HEADER, "format": "pgn"},
    {**HEADER, "version": 2},
    {**HEADER, "dealer": "1"},
    {**HEADER, "dealer": -1},
    {**HEADER, "seed": "7"},
    {**HEADER, "rules": [["hand_size", 3]]},
    {**HEADER, "rules": {"hand_size": 3.5}},
    {**HEADER, "date": "2024-05-01"},
    {"seat": "0", "move": "play", "card": "7H"},
    {"seat": True, "move": "draw"},
    {"seat": 0},
    {"seat": 0, "move": 3},
    {"move": "draw"},
    {"seat": 0, "move": "draw", "chance": "draw"},
    {"chance": 1},
    {"chance": "draw", "seat": "1", "cards": ["3H"]},
    {"result": {"places": "1,2", "winner": 0}},
    {"result": {"places": [0, 1]}},
    {"result": {"places": [1, 2], "winner": "ann"}},
    {"result": {"scores": [1, "2"]}},
    {"result": {"rounds": [1, 2]}},
    {"result": [1, 2]},
    {"result": {"places": [1, 2]}, "note": "ann won"},
    {"card": "7H"},
    {},
], ids=lambda line: json.dumps(line)[:60])
def test_malformed_lines_fail(line: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(line)


def test_the_sample_header_itself_is_fine() -> None:
    assert_line_ok(HEADER, "HEADER")
