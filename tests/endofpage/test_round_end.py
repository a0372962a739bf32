"""The round's end as a checkpoint line: cardcli writes one after every
round, a record may state it (or only some of its keys) and it is checked
where it stands; the core reads checkpoints for any variant."""

from __future__ import annotations

import json

import pytest

from cardcli.testing import play_game, record_lines, validate_bytes

from .conftest import WORKED, record

CHECKPOINT = {"checkpoint": "round_end", "round": 1, "scores": [105, 210], "totals": [105, 210]}


def with_line(index: int, line: dict) -> list:
    lines = [dict(x) for x in WORKED]
    return [*lines[:index], line, *lines[index:]]


def test_cardcli_writes_a_round_end_after_every_round_and_it_validates():
    game, buffer = play_game("endofpage", players=3, seed=2, options={"page_lines": 3})
    lines = record_lines(buffer)
    ends = [(i, line) for i, line in enumerate(lines) if "checkpoint" in line]
    result = game.state.result()
    assert [line["round"] for _, line in ends] == [1, 2, 3]
    assert [line["scores"] for _, line in ends] == result.rounds
    assert ends[-1][1]["totals"] == result.scores
    for index, _line in ends[:-1]:
        assert lines[index + 1]["chance"] == "deal"  # the next round's first deal follows
    assert "result" in lines[ends[-1][0] + 1]
    assert validate_bytes(buffer.getvalue().encode()).valid


@pytest.mark.parametrize("stated", [
    CHECKPOINT, {"checkpoint": "round_end"}, {"checkpoint": "round_end", "scores": [105, 210]},
])
def test_a_stated_round_end_is_checked_where_it_stands(stated):
    assert validate_bytes(record(with_line(23, stated))).valid


@pytest.mark.parametrize(("index", "stated", "line", "message"), [
    (23, {**CHECKPOINT, "scores": [105, 200]}, 24,
     "wrong round_end checkpoint: scores is [105, 210] by the rules, the record says [105, 200]"),
    (23, {**CHECKPOINT, "round": 2}, 24, "wrong round_end checkpoint: round is 1 by the rules"),
    (13, CHECKPOINT, 14, "after move 6: a 'round_end' checkpoint, but none stands here "
                         "(next: seat 0 to meld, lay off or discard)"),
    (1, CHECKPOINT, 2, "after move 0: a 'round_end' checkpoint, but none stands here"),
    (24, CHECKPOINT, 25, "the record goes on after its result line"),
    (23, {**CHECKPOINT, "winner": 1}, 24,
     "unknown key 'winner' on a 'round_end' checkpoint (the rules give: round, scores, totals)"),
    (23, {"checkpoint": 3}, 24, "'checkpoint' must name the checkpoint"),
    (23, {"checkpoint": "page_end"}, 24, "the rules give a 'round_end' checkpoint here"),
])
def test_a_wrong_or_misplaced_round_end_is_refused(index, stated, line, message):
    report = validate_bytes(record(with_line(index, stated)), source="game.jsonl")
    assert not report.valid
    assert str(report.error).startswith(f"game.jsonl:{line}: "), str(report.error)
    assert message in str(report.error), str(report.error)
    assert report.error.kind in ("wrong-checkpoint", "syntax", "structure")


def test_a_round_end_stands_once():
    lines = with_line(23, CHECKPOINT)
    lines.insert(24, dict(CHECKPOINT))
    report = validate_bytes(record(lines))
    assert report.error.line == 25 and "none stands here" in str(report.error)


def test_the_worked_game_on_paper_a_round_end_after_each_round():
    """Two rounds, as a family writes them: only the scores, after each round."""
    _game, buffer = play_game("endofpage", players=2, seed=9, options={"page_lines": 2})
    lines = record_lines(buffer)
    for line in lines:
        if "checkpoint" in line:
            del line["round"], line["totals"]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    assert validate_bytes(data).valid
    wrong = [dict(line) for line in lines]
    first = next(i for i, line in enumerate(wrong) if "checkpoint" in line)
    wrong[first]["scores"] = [s + 5 for s in wrong[first]["scores"]]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in wrong)
    report = validate_bytes(data)
    assert report.error.line == first + 1 and report.error.kind == "wrong-checkpoint"


def test_replay_and_resume_read_round_ends(tmp_path):
    from click.testing import CliRunner

    from cardcli.cli import cli

    path = tmp_path / "game.jsonl"
    path.write_bytes(record(with_line(23, CHECKPOINT)))
    replay = CliRunner().invoke(cli, ["replay", str(path), "--to", "14"])
    assert replay.exit_code == 0, replay.output
    unfinished = tmp_path / "cut.jsonl"
    unfinished.write_bytes(record([line for line in with_line(23, CHECKPOINT) if "result" not in line]))
    resumed = CliRunner().invoke(cli, ["play", "--resume", str(unfinished)], input="")
    assert resumed.exit_code == 0, resumed.output
    assert unfinished.read_text().splitlines()[-1].startswith('{"result"')
