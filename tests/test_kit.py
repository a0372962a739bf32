"""The conformance kit's own tools: golden records are made, kept and checked."""

from __future__ import annotations

import json
import runpy
import sys

import pytest

from cardcli.errors import CardcliError
from cardcli.testing import check_golden_record, make_golden_records
from cardcli.testing.golden import main


def test_golden_records_are_made_once_and_check_out(tmp_path):
    paths = make_golden_records("trick", tmp_path, games=3, seed=4)
    assert [p.name for p in paths] == ["trick-2p-seed4.jsonl", "trick-4p-seed5.jsonl", "trick-8p-seed6.jsonl"]
    for path in paths:
        stated = check_golden_record(path)
        assert stated == json.loads(path.read_text().splitlines()[-1])["result"]
    with pytest.raises(CardcliError, match="never overwritten"):
        make_golden_records("trick", tmp_path, games=1, seed=4)


@pytest.mark.parametrize("change", ["result", "move"])
def test_a_golden_record_that_no_longer_reads_fails(tmp_path, change):
    (path,) = make_golden_records("matching", tmp_path, games=1, seed=2, players=[3])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    if change == "result":
        lines[-1]["result"]["winner"] = (lines[-1]["result"]["winner"] + 1) % 3
        message = "no longer validates"
    else:
        index = next(i for i, line in enumerate(lines) if line.get("move") == "play")
        lines[index]["card"] = "JK"
        message = "no longer validates"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(AssertionError, match=message):
        check_golden_record(path)


def test_golden_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    made = main(["matching", "out", "--games", "2", "--players", "2", "--ruleset", "american"])
    printed = capsys.readouterr().out.split()
    assert made == 0
    assert printed == ["out/matching-2p-seed1-american.jsonl", "out/matching-2p-seed2-american.jsonl"]
    header = json.loads((tmp_path / printed[0]).read_text().splitlines()[0])
    assert header["rules"]["skip_rank"] == "A"
    assert main(["matching", "out", "--games", "1", "--players", "2", "--ruleset", "american"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "never overwritten" in error
    assert main(["nosuchgame", "out"]) == 1
    assert "unknown variant 'nosuchgame'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["gold"], ["golden", "nosuchgame", "out"]])
def test_golden_is_a_subcommand_of_python_m_cardcli_testing(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["python -m cardcli.testing", *argv])
    with pytest.raises(SystemExit) as done:
        runpy.run_module("cardcli.testing", run_name="__main__")
    error = capsys.readouterr().err
    if argv[:1] == ["golden"]:
        assert done.value.code == 1 and "unknown variant" in error
    else:
        assert done.value.code == 2 and "usage: python -m cardcli.testing golden" in error
