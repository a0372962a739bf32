"""Fuzzing records: whatever is done to a record, every command ends cleanly.

Simulated records of every variant are mutated by a seeded mutator (bytes
flipped, the file cut short, lines deleted, duplicated and swapped, values of
the wrong type, huge numbers, unknown keys, the end of the game cut off) and
each result goes through ``cardcli validate``, ``cardcli replay`` and, where
the record is a game in progress, ``cardcli play --resume``.  Every run must
end in a verdict: exit status 0, 1 or 2 (130 for a resumed game waiting for a
human), never an internal error or an exception.  A resumed game that finishes must validate.

A few cases run by default; ``pytest -m slow`` runs thousands.  A failure
names the case's seed: ``mutated(variant, seed)`` rebuilds it.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.testing import play_game

#: The simulated records mutated: (variant, players, options, seed).
BASES = [
    ("matching", 2, {}, 1),
    ("matching", 4, {"rounds": 2, "draw_until_playable": True}, 2),
    ("trick", 3, {}, 3),
    ("trick", 2, {}, 4),
    ("endofpage", 2, {}, 5),
    ("endofpage", 3, {}, 6),
]
VARIANTS = sorted({base[0] for base in BASES})

#: Values of every type, for a field that expects another.
WEIRD: list[Any] = [None, True, False, 0, -1, 1, 7, 1.5, -0.0, 1e308, 2**64, -(10**30), 10**400, "", "x",
                    "7H", "JK", "10", "none", "cpu:easy", "human", "\x1b[2J", "\u202e", [], {}, [[]],
                    [1, 2], ["7H"], [["7H", "8H"]], {"a": 1}, {"places": [1]}]
UNKNOWN_KEYS = ["zzz", "Seat", "card ", "move", "chance", "result", "cards", "card", "seat", "meld", "suit"]


@cache
def base_record(variant: str, players: int, options: tuple, seed: int) -> bytes:
    _game, buffer = play_game(variant, players=players, seed=seed, options=dict(options))
    return buffer.getvalue().encode()


def bases_of(variant: str) -> list[bytes]:
    return [base_record(v, n, tuple(sorted(o.items())), s) for v, n, o, s in BASES if v == variant]


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value (dict keys, list indexes)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((*prefix, key))
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((*prefix, index))
            found.extend(_paths(item, (*prefix, index)))
    return found


def _set(root: Any, path: tuple, value: Any) -> None:
    for step in path[:-1]:
        root = root[step]
    root[path[-1]] = value


def _json_edit(lines: list[bytes], rng: random.Random, edit: str) -> str:
    index = rng.randrange(len(lines))
    try:
        data = json.loads(lines[index])
    except ValueError:
        return f"{edit} skipped (line {index + 1} is not JSON)"
    if edit == "wrong-type":
        paths = _paths(data)
        if not paths:
            return "wrong-type skipped"
        path = rng.choice(paths)
        value = rng.choice(WEIRD)
        _set(data, path, value)
        what = f"{'/'.join(map(str, path))} = {value!r}"
    elif edit == "unknown-key":
        targets = [data, *(v for p in _paths(data) if isinstance(v := _get(data, p), dict))]
        target = rng.choice(targets)
        key = rng.choice(UNKNOWN_KEYS)
        target[key] = rng.choice(WEIRD)
        what = f"{key!r} added"
    else:  # a number made huge, or out of range
        paths = [p for p in _paths(data) if isinstance(_get(data, p), int)]
        if not paths:
            return "huge-number skipped"
        path = rng.choice(paths)
        huge = rng.choice([10**18, 2**63, -(2**63), 10**300, 10**4299])
        _set(data, path, huge)
        what = f"{'/'.join(map(str, path))} = {len(str(huge))} digits"
    lines[index] = json.dumps(data, ensure_ascii=rng.random() < 0.5).encode()
    return f"{edit} on line {index + 1}: {what}"


def _get(root: Any, path: tuple) -> Any:
    for step in path:
        root = root[step]
    return root


def mutate(record: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """One to three mutations of ``record``, and what they were."""
    lines = record.rstrip(b"\n").split(b"\n")
    done = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["flip", "delete", "duplicate", "swap", "swap-near", "wrong-type", "wrong-type",
                           "unknown-key", "huge-number", "too-many-digits", "cut", "cut-lines"])
        if kind == "flip":
            index = rng.randrange(len(lines))
            line = bytearray(lines[index])
            if line:
                at = rng.randrange(len(line))
                line[at] = rng.choice([line[at] ^ (1 << rng.randrange(8)), rng.randrange(256)])
                lines[index] = bytes(line)
            done.append(f"flip on line {index + 1}")
        elif kind == "delete" and len(lines) > 1:
            index = rng.randrange(len(lines))
            del lines[index]
            done.append(f"delete line {index + 1}")
        elif kind == "duplicate":
            index = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[index])
            done.append(f"duplicate line {index + 1}")
        elif kind in ("swap", "swap-near") and len(lines) > 1:
            a = rng.randrange(len(lines))
            b = min(len(lines) - 1, a + 1) if kind == "swap-near" else rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            done.append(f"swap lines {a + 1} and {b + 1}")
        elif kind == "too-many-digits":
            index = rng.randrange(len(lines))
            digits = b"9" * rng.choice([4301, 5000, 20000])
            lines[index] = lines[index].replace(b": 0", b": " + digits, 1).replace(b": 1", b": " + digits, 1)
            done.append(f"too many digits on line {index + 1}")
        elif kind == "cut":
            text = b"\n".join(lines)
            at = rng.randrange(len(text) + 1)
            lines = text[:at].split(b"\n")
            done.append(f"cut at byte {at}")
        elif kind == "cut-lines":
            keep = rng.randrange(1, len(lines) + 1)
            del lines[keep:]
            done.append(f"keep the first {keep} lines")
        elif kind in ("wrong-type", "unknown-key", "huge-number"):
            done.append(_json_edit(lines, rng, kind))
    ending = b"" if done and done[-1].startswith("cut") else b"\n"
    return b"\n".join(lines) + ending, done


def mutated(variant: str, seed: int) -> tuple[bytes, list[str]]:
    """Case ``seed`` of ``variant``: a base record and its mutations."""
    rng = random.Random(f"{variant}:{seed}")
    return mutate(rng.choice(bases_of(variant)), rng)


def invoke(*args: Any, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    problem = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problem = f"exception {type(result.exception).__name__}: {result.exception}"
    elif "internal error" in result.output or "Traceback" in result.output:
        problem = "internal error: " + result.output[-500:]
    elif result.exit_code not in (0, 1, 2, 130):
        problem = f"exit status {result.exit_code}"
    assert problem is None, problem
    return result.exit_code, result.output


def check_case(tmp_path, variant: str, seed: int, *, resume: bool = True) -> None:
    data, mutations = mutated(variant, seed)
    path = tmp_path / f"{variant}-{seed}.jsonl"
    path.write_bytes(data)
    where = f"case mutated({variant!r}, {seed}): {'; '.join(mutations)}"
    try:
        code, out = invoke("validate", "--json", path)
        assert code in (0, 1), f"validate exit status {code}"
        report = json.loads(out.splitlines()[0])
        assert report["valid"] == (code == 0)
        invoke("replay", path, "--to", report["moves"])
        kind = (report.get("error") or {}).get("kind")
        if resume and kind in ("unfinished", "torn-line", "missing-result"):
            code, out = invoke("play", "--resume", path, input="")
            if code == 0:
                again, out = invoke("validate", path)
                assert again == 0, f"resumed game does not validate: {out}"
    except AssertionError as error:
        raise AssertionError(f"{where}\n{error}") from None


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_base_record_is_valid(tmp_path, variant):
    for number, data in enumerate(bases_of(variant)):
        path = tmp_path / f"{number}.jsonl"
        path.write_bytes(data)
        assert invoke("validate", path)[0] == 0


def test_the_mutator_is_seeded_and_mutates():
    for variant in VARIANTS:
        assert mutated(variant, 3) == mutated(variant, 3)
        changed = sum(mutated(variant, seed)[0] not in bases_of(variant) for seed in range(30))
        assert changed >= 25


@pytest.mark.parametrize("variant", VARIANTS)
def test_mutated_records_get_a_clean_verdict(tmp_path, variant):
    for seed in range(8):
        check_case(tmp_path, variant, seed, resume=variant != "endofpage" or seed < 2)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_mutated_records_get_a_clean_verdict(tmp_path, variant):
    failures = []
    for seed in range(1000, 3000):
        try:
            check_case(tmp_path, variant, seed)
        except AssertionError as error:
            failures.append(str(error))
    assert not failures, f"{len(failures)} failing case(s), the first:\n" + "\n\n".join(failures[:5])


# ------------------------------------------------ records of a real table
# The same mutations made to exports (a spectator's view, a seat's): records
# whose cards nobody saw are "??" and whose hands may be written as a count.
# Each goes through validate, replay, export --public and referee --resume:
# one clean verdict each, in bounded time and memory (a count of cards is
# checked before anything is made of it).

def exported(variant: str, seed: int) -> tuple[bytes, list[str]]:
    """Case ``seed`` of ``variant``: an export of a base record, mutated."""
    from cardcli.testing.unseen import export_bytes

    rng = random.Random(f"export:{variant}:{seed}")
    base = rng.choice(bases_of(variant))
    view = rng.choice([None, 0, 1])
    data, done = mutate(export_bytes(base, view), rng)
    return data, [f"view {'public' if view is None else f'seat {view}'}", *done]


def check_export_case(tmp_path, variant: str, seed: int) -> None:
    data, mutations = exported(variant, seed)
    path = tmp_path / f"export-{variant}-{seed}.jsonl"
    path.write_bytes(data)
    where = f"case exported({variant!r}, {seed}): {'; '.join(mutations)}"
    try:
        code, out = invoke("validate", "--json", path)
        assert code in (0, 1), f"validate exit status {code}"
        report = json.loads(out.splitlines()[0])
        assert report["valid"] == (code == 0)
        invoke("replay", path, "--to", report["moves"])
        invoke("export", path, "--public")
        kind = (report.get("error") or {}).get("kind")
        if kind in ("unfinished", "torn-line", "missing-result"):
            invoke("referee", "--resume", path, input="")
    except AssertionError as error:
        raise AssertionError(f"{where}\n{error}") from None


@pytest.mark.parametrize("variant", VARIANTS)
def test_mutated_exports_get_a_clean_verdict(tmp_path, variant):
    for seed in range(8):
        check_export_case(tmp_path, variant, seed)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_mutated_exports_get_a_clean_verdict(tmp_path, variant):
    failures = []
    for seed in range(1000, 2700):
        try:
            check_export_case(tmp_path, variant, seed)
        except AssertionError as error:
            failures.append(str(error))
    assert not failures, f"{len(failures)} failing case(s), the first:\n" + "\n\n".join(failures[:5])


@pytest.mark.parametrize("variant", ["matching", "trick"])
@pytest.mark.parametrize("count", [10**8, 2**63])
def test_a_huge_count_of_cards_nobody_saw_is_refused_at_once(tmp_path, variant, count):
    header = {"format": "cardcli-record", "version": 1, "variant": variant, "rules": {"hand_size": 3},
              "players": ["ann", "bob"], "dealer": 1, "view": "public"}
    path = tmp_path / "count.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps({"chance": "deal", "hands": [count, 3]}) + "\n")
    for command in (["validate"], ["export", "--public"], ["replay"]):
        code, out = invoke(*command, path)
        assert code == 1, out
        assert f"seat 0 was dealt {count:,} cards nobody saw, but the rules deal 3" in " ".join(out.split())
