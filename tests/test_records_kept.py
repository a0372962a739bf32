"""Records are never lost or overwritten: new records never clobber a file, a
record cut short by a crash can be finished, and a killed simulation leaves
nothing running."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.cpu.simulate import play_recorded
from cardcli.testing import play_game, record_lines, write_record

DEADLINE = 120
CARDCLI = [sys.executable, "-c", "from cardcli.cli import main; main()"]


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def owner_only(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.fixture(scope="module")
def game_lines():
    _game, buffer = play_game("matching", players=3, seed=11)
    return record_lines(buffer)


# --------------------------------------------------------------------- play
def test_play_record_refuses_an_existing_file(tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_text("my notes\n")
    result = run("play", "matching", "--players", "cpu,cpu", "--seed", "1", "--record", record)
    assert result.exit_code == 1
    assert f"{record} already exists; to continue the game it records: cardcli play --resume {record}" \
        in result.output
    assert record.read_text() == "my notes\n"


def test_play_never_writes_through_a_symbolic_link(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    result = run("play", "matching", "--players", "cpu,cpu", "--seed", "1", "--record", link)
    assert result.exit_code == 1 and "already exists" in result.output
    assert target.read_text() == "keep me\n"


def test_default_record_names_never_collide(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDCLI_GAMES", str(tmp_path / "games"))
    monkeypatch.setattr(time, "strftime", lambda *_: "20250101-120000")  # the same second
    for _ in range(3):
        assert run("play", "matching", "--players", "cpu,cpu", "--seed", "9").exit_code == 0
    records = sorted((tmp_path / "games").iterdir())
    assert [p.name for p in records] == ["20250101-120000-matching-9-2.jsonl",
                                        "20250101-120000-matching-9-3.jsonl",
                                        "20250101-120000-matching-9.jsonl"]
    assert all(owner_only(p) for p in records)
    assert stat.S_IMODE((tmp_path / "games").stat().st_mode) == 0o700
    assert run("validate", *records).exit_code == 0


# ----------------------------------------------------------------- simulate
def test_simulate_records_are_private_and_never_overwrite(tmp_path):
    folder = tmp_path / "records"
    first = run("simulate", "matching", "-n", "3", "--seed", "1", "-w", "1", "--records", folder)
    assert first.exit_code == 0
    written = sorted(folder.iterdir())
    assert len(written) == 3 and all(owner_only(p) for p in written)
    before = {p: p.read_bytes() for p in written}
    again = run("simulate", "matching", "-n", "3", "--seed", "2", "-w", "1", "--records", folder)
    assert again.exit_code == 1
    assert f"{folder}: already holds game-000000.jsonl: simulate never overwrites a record" in again.output
    assert {p: p.read_bytes() for p in written} == before


def test_simulate_never_follows_a_planted_symbolic_link(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    (folder / "game-000001.jsonl").symlink_to(target)
    result = run("simulate", "matching", "-n", "3", "--seed", "1", "-w", "1", "--records", folder)
    assert result.exit_code == 1 and "already holds game-000001.jsonl" in result.output
    assert target.read_text() == "keep me\n"
    # The check before the run is for the message; the file is created exclusively all the same.
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.record_format import RecordExistsError, SeatInfo

    variant = get_registry().get("matching")
    rules = {o.name: o.default for o in variant.options}
    with pytest.raises(RecordExistsError):
        play_recorded(variant, rules, [SeatInfo("a", "cpu:easy"), SeatInfo("b", "cpu:easy")], 1,
                      folder / "game-000001.jsonl")
    assert target.read_text() == "keep me\n"


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc to find the workers")
def test_kill_9_of_simulate_leaves_no_worker_behind():
    process = subprocess.Popen([*CARDCLI, "simulate", "matching", "-n", "200000", "-w", "2", "--seed", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + DEADLINE
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = _children(process.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)  # let them take their first chunks
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + DEADLINE
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # pragma: no cover - clean up after a failure
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived the killed simulate"


# ---------------------------------------------- finishing a record cut short
def test_resume_writes_a_missing_result_line(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", game_lines[:-1])
    check = run("validate", path)
    assert check.exit_code == 1
    assert "the game is over but the record has no result line" in check.output
    assert f"add that line, or let `cardcli play --resume {path}` write it" in check.output
    result = run("play", "--resume", path)
    assert result.exit_code == 0
    assert "its record had no result line: written" in result.output and "Ranking:" in result.output
    assert record_lines_of(path) == game_lines
    assert run("validate", path).exit_code == 0
    assert "already over" in run("play", "--resume", path).output


def record_lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("cut", [1, 10, -2])
def test_resume_drops_a_torn_last_line(tmp_path, game_lines, cut):
    whole = write_record(tmp_path / "whole.jsonl", game_lines[:12]).read_bytes()
    lines = whole.splitlines(keepends=True)
    torn = b"".join(lines[:-1]) + lines[-1][:cut]
    path = tmp_path / "game.jsonl"
    path.write_bytes(torn)
    check = run("validate", path)
    assert check.exit_code == 1
    assert f"{path}:12: not valid JSON" in check.output
    assert "it is the last line and has no line end, as when a write is cut short" in check.output
    assert json.loads(run("validate", "--json", path).stdout.splitlines()[0])["error"]["kind"] == "torn-line"
    result = run("play", "--resume", path, input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    assert f"{path}:12: dropped the last line, cut short by an interrupted write: " in result.output
    assert "Resuming" in result.output
    assert path.read_bytes().startswith(b"".join(lines[:-1]))
    assert run("validate", path).exit_code == 0


def test_a_torn_result_line_is_dropped_and_written_again(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", game_lines)
    path.write_bytes(path.read_bytes()[:-9])
    result = run("play", "--resume", path)
    assert result.exit_code == 0
    assert "dropped the last line" in result.output and "no result line: written" in result.output
    assert record_lines_of(path) == game_lines


def test_a_bad_line_that_is_not_the_last_is_never_dropped(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", [*game_lines[:5], '{"seat": 0,', *game_lines[6:9]])
    before = path.read_bytes()
    result = run("play", "--resume", path)
    assert result.exit_code == 1 and f"cannot resume: {path}:6: not valid JSON" in result.output
    assert path.read_bytes() == before


# --------------------------------------------------------- games in progress
def test_validate_says_plainly_that_a_game_is_unfinished(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", game_lines[:10])
    result = run("validate", path)
    assert result.exit_code == 1
    moves = sum(1 for line in game_lines[1:10] if "move" in line)
    assert (f"{path}:10: legal so far; unfinished after move {moves} (next: " in result.stderr)
    assert f"); continue it with `cardcli play --resume {path}`" in result.stderr
    lines = [json.loads(line) for line in
             run("validate", "--json", path, path.with_name("none")).stdout.splitlines()]
    first, summary = lines[0], lines[-1]
    assert first["valid"] is False and first["error"]["kind"] == "unfinished"
    assert first["moves"] == moves
    assert summary["summary"] == {"records": 2, "valid": 0, "unfinished": 1, "invalid": 1,
                                  "all_valid": False}
    piped = run("validate", "-", input=path.read_text())
    assert "<stdin>:10: legal so far; unfinished after move" in piped.output
    assert "--resume" not in piped.output


def test_simulate_into_a_folder_it_cannot_make(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder\n")
    result = run("simulate", "matching", "-n", "2", "-w", "1", "--records", blocker / "records")
    assert result.exit_code == 1 and f"{blocker / 'records'}: cannot make the folder" in result.output


def test_serve_record_refuses_an_existing_file(tmp_path):
    record = tmp_path / "table.jsonl"
    record.write_text("my notes\n")
    result = run("serve", "matching", "--players", "friend,cpu", "--no-seat", "--record", record)
    assert result.exit_code == 1
    assert f"{record} already exists; to continue the game it records: cardcli serve --resume {record}" \
        in result.output
    assert record.read_text() == "my notes\n"


def test_a_torn_header_is_not_offered_to_resume(tmp_path, game_lines):
    whole = write_record(tmp_path / "whole.jsonl", game_lines[:1]).read_bytes()
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n" + whole[:30])  # a blank line, then the header cut short
    check = run("validate", path)
    assert check.exit_code == 1
    assert f"{path}:2: not valid JSON" in check.output
    assert "it is the header, with no line end" in check.output and "nothing to resume" in check.output
    assert "--resume` drops" not in check.output  # resume cannot help: there is no game
    result = run("play", "--resume", path)
    assert result.exit_code == 1 and "nothing to resume" in result.output


def test_a_torn_string_is_named_once(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", game_lines[:3])
    path.write_bytes(path.read_bytes() + b'{"seat": 0, "mo')
    result = run("validate", path)
    assert f"{path}:4: not valid JSON: Unterminated string starting at column 13;" in result.output
