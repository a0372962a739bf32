"""The streaming record reader and its visitors: a new use of records is a
new visitor, with no change to the reader."""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.kit.errors import RecordError
from cardcli.records.reader import SKIP, Event, GameLoader, RecordVisitor, load_game, read_record
from cardcli.records.replay import load_replay
from cardcli.testing import play_game, record_lines, state_signature

DOC = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def recorded(name: str, seed: int, players: int = 3) -> tuple[bytes, list]:
    """A record of a CPU game, and the signature of the state after every event."""
    signatures: list = []
    _, buffer = play_game(name, players=players, seed=seed,
                             on_event=lambda g, a: signatures.append(state_signature(g.variant, g.state)))
    return buffer.getvalue().encode(), signatures


def moves_by_name(data: bytes) -> Counter:
    """Moves per player, counted from the lines themselves (no reader)."""
    lines = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    names = [p["name"] for p in lines[0]["players"]]
    return Counter(names[line["seat"]] for line in lines[1:] if "move" in line)


def test_the_documented_visitor_counts_moves_per_seat_over_a_folder(tmp_path, monkeypatch):
    """The example of docs/records.md, run as written over a folder of records
    of every variant: a new use, with no change to the reader."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Reading records in Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    folder = tmp_path / "records"
    folder.mkdir()
    expected: Counter = Counter()
    for number, name in enumerate(["matching", "trick", "endofpage", "matching", "trick"]):
        data, _ = recorded(name, seed=number, players=2 if name == "endofpage" else 3)
        (folder / f"game-{number}.jsonl").write_bytes(data)
        expected += moves_by_name(data)
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    namespace: dict = {"print": lambda *args: printed.write(" ".join(map(str, args)))}
    exec(compile(code.group(1), "records.md", "exec"), namespace)
    assert namespace["counts"] == dict(expected)
    assert printed.getvalue() == str(dict(expected))


class MovesPerRecord(RecordVisitor[list[list[int]]]):
    """Per record, the moves of each seat: one visitor object, many records."""

    def __init__(self) -> None:
        self.tables: list[list[int]] = []

    def visit_header(self, game, header, line):
        self.tables.append([0] * len(header.players))

    def visit_event(self, game, event: Event):
        if event.seat >= 0:
            assert game.state.current_player() == event.seat  # before it is applied
            self.tables[-1][event.seat] += 1

    def visit_state(self, game, event: Event):
        assert game.history[-1] == event.action  # after it is applied
        assert game.moves == event.move

    def result(self):
        return self.tables


def test_one_visitor_reads_many_records():
    counter = MovesPerRecord()
    expected = []
    for seed in range(4):
        data, _ = recorded("trick", seed)
        by_name = moves_by_name(data)
        expected.append([by_name[f"cpu{i}"] for i in range(1, 4)])
        tables = read_record(io.BytesIO(data), f"game-{seed}.jsonl", get_registry(), counter)
    assert tables == expected


def test_a_header_only_visitor_stops_reading_at_skip():
    """SKIP ends the record after its header: a broken line later is never read."""

    class Variants(RecordVisitor[Counter]):
        def __init__(self):
            self.seen: Counter = Counter()
            self.events = 0

        def visit_header(self, game, header, line):
            self.seen[header.variant] += 1
            return SKIP

        def visit_event(self, game, event):
            self.events += 1

        def result(self):
            return self.seen

    data, _ = recorded("matching", 1)
    broken = data + b"this is not JSON\n"
    visitor = Variants()
    for source in (data, broken):
        read_record(io.BytesIO(source), "game.jsonl", get_registry(), visitor)
    assert visitor.result() == Counter({"matching": 2}) and visitor.events == 0


class Collect(RecordVisitor[list]):
    """Keeps the error instead of raising it."""

    def __init__(self):
        self.errors: list[RecordError] = []
        self.lines: list[int] = []
        self.ended = False

    def visit_state(self, game, event):
        self.lines.append(event.line)

    def end_record(self, game):
        self.ended = True

    def handle_error(self, error):
        self.errors.append(error)

    def result(self):
        return self.errors


def test_an_error_goes_to_handle_error_and_reading_stops():
    data, _ = recorded("matching", 2)
    lines = data.decode().splitlines()
    lines[5] = '{"move": "teleport", "seat": 0}'
    broken = ("\n".join(lines) + "\n").encode()
    visitor = Collect()
    errors = read_record(io.BytesIO(broken), "game.jsonl", get_registry(), visitor)
    assert len(errors) == 1 and errors[0].line == 6
    assert visitor.lines == [2, 3, 4, 5], "no event after the broken line"
    assert not visitor.ended
    with pytest.raises(RecordError) as raised:  # the default handle_error re-raises
        read_record(io.BytesIO(broken), "game.jsonl", get_registry(), GameLoader())
    assert str(raised.value) == str(errors[0])


def test_a_visitor_may_refuse_a_record_in_its_own_words():
    """A visitor's RecordError goes to handle_error, like the reader's."""

    class NoDrawing(Collect):
        def visit_event(self, game, event):
            if event.data.get("move") == "draw":
                raise RecordError("this house plays without drawing", source="game.jsonl", line=event.line)

    data, _ = recorded("matching", 5)
    lines = record_lines(io.StringIO(data.decode()))
    draws = [number for number, line in enumerate(lines, 1) if line.get("move") == "draw"]
    assert draws
    visitor = NoDrawing()
    errors = read_record(io.BytesIO(data), "game.jsonl", get_registry(), visitor)
    assert [e.line for e in errors] == [draws[0]]
    assert visitor.lines[-1] == draws[0] - 1


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_replay_rebuilds_every_frame_from_the_history(name):
    """Each frame's table, reached forwards, backwards or by a jump (go to
    move N), is the table the game had after that move."""
    data, signatures = recorded(name, seed=8, players=2)
    replay = load_replay(io.BytesIO(data), "game.jsonl", get_registry())
    game = replay.game
    assert len(game.history) == game.events == len(signatures)
    frames = replay.frames
    assert frames[-1].events == game.events and frames[0].move == 0
    order = list(range(len(frames))) + list(reversed(range(len(frames))))
    order += random.Random(1).sample(range(len(frames)), min(20, len(frames)))
    for index in order:
        frame = frames[index]
        state = replay.state(index)
        assert state_signature(game.variant, state) == signatures[frame.events - 1]
        assert replay.index_of(frame.move) is not None
    assert replay.index_of(replay.total + 1) is None


def test_a_resumed_game_carries_the_records_history():
    data, signatures = recorded("matching", seed=4)
    cut = data.decode().splitlines()[:30]
    game, over = load_game(io.BytesIO(("\n".join(cut) + "\n").encode()), "game.jsonl", get_registry())
    assert not over
    assert len(game.history) == game.events == len(cut) - 1
    assert state_signature(game.variant, game.state_after(game.events)) == signatures[game.events - 1]
    # The history is the record's own actions: encoded again, they give its lines.
    state = game.new_state()
    for action, line in zip(game.history, record_lines(io.StringIO("\n".join(cut)))[1:], strict=True):
        if state.current_player() >= 0:
            del line["seat"]  # the core adds the acting seat
        assert game.variant.encode_action(state, action) == line
        state.apply_legal(action)
