"""``cardcli scoresheet`` as a person runs it: entries from standard input or
a file, the sheet's file written as it goes and resumed, the exports, and one
clear message (exit 1 or 2, never a traceback) for every bad input."""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli

from .conftest import WORKED

WORDS = "\n".join(WORKED) + "\n"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None):
    result = CliRunner().invoke(cli, ["scoresheet", *args], input=input, env=env)
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        result.exception
    return result


def new(tmp_path: Path, *args: str, input: str = WORDS, name: str = "sheet.jsonl"):
    return run("endofpage", "--players", "A,B", "--dealer", "B", "--save", str(tmp_path / name), *args,
               input=input)


def test_the_worked_example_from_standard_input(tmp_path):
    result = new(tmp_path, "--page-lines", "1")
    assert result.exit_code == 0
    assert "  A    105  110 on the table - 5 in hand" in result.output
    assert "  B    210  210 on the table - 0 in hand" in result.output
    assert "      1   105    210    (B dealt, 3s wild)" in result.output
    assert "B wins with 210." in result.output


def test_the_sheet_s_file_is_new_owner_only_and_holds_every_entry(tmp_path):
    result = new(tmp_path, input=WORDS + "wild 5D\nundo\n")
    assert result.exit_code == 0
    path = tmp_path / "sheet.jsonl"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["format"] == "cardcli-scoresheet" and lines[0]["players"] == ["A", "B"]
    assert lines[0]["dealer"] == 1
    assert [line["entry"] for line in lines[1:]] == [*WORKED, "wild 5D", "undo"]
    again = new(tmp_path)
    assert again.exit_code == 1
    assert f"{path} already exists; to go on with the sheet it keeps: cardcli scoresheet --resume {path}" in \
        again.output


def test_the_default_file_goes_to_the_sheets_folder(tmp_path):
    result = run("endofpage", "--players", "A,B", input=WORDS, env={"CARDCLI_SHEETS": str(tmp_path / "s")})
    assert result.exit_code == 0
    [kept] = (tmp_path / "s").glob("*-endofpage-sheet.jsonl")
    assert f"The sheet is kept in {kept}" in result.output


def test_each_entry_is_written_the_moment_it_is_accepted(tmp_path):
    """A real process reading a pipe: the file holds the entry before the next line is sent."""
    cardcli = shutil.which("cardcli")
    if cardcli is None:
        pytest.skip("the cardcli command is not on PATH")
    path = tmp_path / "sheet.jsonl"
    process = subprocess.Popen([cardcli, "scoresheet", "endofpage", "--players", "A,B", "--save", str(path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdin is not None
        for line in WORKED:
            process.stdin.write(line + "\n")
            process.stdin.flush()
            deadline = time.monotonic() + 20
            while not path.exists() or f'"entry": {json.dumps(line)}' not in path.read_text():
                assert time.monotonic() < deadline, f"{line!r} never reached the file"
                time.sleep(0.05)
        process.stdin.close()
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_resume_goes_on_with_the_sheet(tmp_path):
    new(tmp_path, "--page-lines", "2")
    path = tmp_path / "sheet.jsonl"
    result = run("--resume", str(path), input="wild 5D\nA score 10\nB score 20\n")
    assert result.exit_code == 0, result.output
    assert "  total   115    230 " in result.output and "B wins with 230." in result.output
    entries = [json.loads(line).get("entry") for line in path.read_text().splitlines()[1:]]
    assert entries == [*WORKED, "wild 5D", "A score 10", "B score 20"]
    over = run("--resume", str(path), input="wild 6D\n")
    assert over.exit_code == 1 and "<stdin>:1: the game is over (the end of the page: 2 rounds played)" \
        in over.output


def test_resume_says_which_line_of_the_file_the_rules_refuse(tmp_path):
    new(tmp_path)
    path = tmp_path / "sheet.jsonl"
    path.write_text(path.read_text().replace("4S 4H 3D=4", "4S 4H 5D"))
    result = run("--resume", str(path), input="")
    assert result.exit_code == 1
    assert f"{path}:3: cannot resume: round 1: A's meld 4S 4H 5D: not a set" in result.output


def test_resume_drops_a_last_line_cut_short(tmp_path):
    new(tmp_path)
    path = tmp_path / "sheet.jsonl"
    with open(path, "a") as stream:
        stream.write('{"entry": "wild 5')
    result = run("--resume", str(path), input="wild 5D\n")
    assert result.exit_code == 0
    assert "its last line was cut short by an interrupted write: dropped" in result.output
    assert path.read_text().splitlines()[-1] == '{"entry": "wild 5D"}'


@pytest.mark.parametrize(("content", "message"), [
    ('{"format": "cardcli-record", "version": 1}\n', "not a cardcli score sheet (a record is continued with "
                                                      "cardcli play --resume)"),
    ('{"format": "cardcli-scoresheet", "version": 7}\n', "a score sheet of version 7, written by a newer"),
    ("not json\n", ":1: not valid JSON"),
    ("", "empty: not a cardcli score sheet"),
    ('{"format": "cardcli-record", "version": 1}\nmy notes, no line end', "not a cardcli score sheet"),
    ("a letter\nwith no line end", ":1: not valid JSON"),
    ('{"format": "cardcli-scoresheet", "version": 1, "variant": "endofpage", "rules": {}, "players": '
     '["a", "b"], "dealer": 0}\n{"entry": "wild AS"}\n{"entry": "wild 3', "cannot resume"),
])
def test_resume_refuses_what_is_not_a_sheet(tmp_path, content, message):
    """And leaves the file as it was, a last line with no end included."""
    path = tmp_path / "other.jsonl"
    path.write_text(content)
    result = run("--resume", str(path), input="")
    assert result.exit_code == 1 and message in result.output
    assert path.read_text() == content


def test_json_and_csv_go_to_files_or_standard_output(tmp_path):
    result = new(tmp_path, "--json", str(tmp_path / "page.json"), "--csv", str(tmp_path / "page.csv"))
    assert result.exit_code == 0
    assert json.loads((tmp_path / "page.json").read_text())["totals"] == [105, 210]
    assert (tmp_path / "page.csv").read_text() == "round,dealer,wild,A,B,by hand\n1,B,3H,105,210,\n" \
                                                  "total,,,105,210,\n"
    out = new(tmp_path, "--csv", "-", name="two.jsonl")
    assert out.exit_code == 0
    assert out.stdout == "round,dealer,wild,A,B,by hand\n1,B,3H,105,210,\ntotal,,,105,210,\n"
    assert "B leads by 105." in out.stderr


def test_plot_draws_the_running_totals(tmp_path):
    pytest.importorskip("matplotlib")
    more = WORDS + "wild 5D\nA score 40\nB score 0\n"
    result = new(tmp_path, "--plot", str(tmp_path / "totals.png"), input=more)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "totals.png").read_bytes().startswith(b"\x89PNG")


def test_a_plot_file_of_another_kind_is_refused_before_anything(tmp_path):
    result = new(tmp_path, "--plot", str(tmp_path / "totals.txt"))
    assert result.exit_code == 1 and "write a .png or .svg file" in result.output
    assert not (tmp_path / "sheet.jsonl").exists()


def test_a_refused_entry_in_a_file_stops_with_its_line_and_the_rule(tmp_path):
    words = tmp_path / "rounds.txt"
    words.write_text("wild 3H\n# mom's melds\nA meld 4S 4H 5D, hand 7D\nB score 5\n")
    result = new(tmp_path, "--input", str(words))
    assert result.exit_code == 1
    assert f"{words}:3: round 1: A's meld 4S 4H 5D: not a set (different ranks)" in result.output
    entries = [json.loads(line).get("entry") for line in (tmp_path / "sheet.jsonl").read_text().splitlines()]
    assert entries[1:] == ["wild 3H"]  # kept as it stood before the refused line


@pytest.mark.parametrize(("args", "status", "message"), [
    ([], 2, "name a VARIANT"),
    (["endofpage"], 2, "name the players in seat order"),
    (["matching", "--players", "a,b"], 1, "matching keeps no score sheet"),
    (["nosuch", "--players", "a,b"], 1, "unknown variant 'nosuch'"),
    (["endofpage", "--players", "a,b", "--dealer", "c"], 2, "'c' is not one of the players"),
    (["endofpage", "--players", "a,b,c,d,e,f,g"], 1, "7 players"),
    (["endofpage", "--players", "a"], 1, "1 player"),
    (["endofpage", "--players", "a,A"], 1, "two players are called 'A'"),
    (["endofpage", "--players", "a,undo"], 1, "may not be called 'undo'"),
    (["endofpage", "--players", "a,b", "--page-lines", "0"], 2, "--page-lines"),
    (["endofpage", "--players", "a,b", "--page-lines", "100"], 1, "page_lines"),
    (["endofpage", "--players", "a,b", "--lan"], 2, "go with --serve"),
    (["endofpage", "--players", "a,b", "-r", "nosuch"], 1, "nosuch"),
    (["endofpage", "--players", "a,b,c,d", "-r", "endofpage-family"], 1, "4 players"),
    (["--resume", "x.jsonl", "--players", "a,b"], 2, "--resume takes the sheet as it was kept"),
    (["--resume", "nofile.jsonl"], 1, "nofile.jsonl"),
    (["endofpage", "--players", "a,b", "--input", "nofile.txt"], 1, "--input nofile.txt: cannot read"),
])
def test_bad_command_lines_get_one_clear_message(tmp_path, monkeypatch, args, status, message):
    monkeypatch.chdir(tmp_path)
    result = run(*args, input="", env={"CARDCLI_SHEETS": str(tmp_path)})
    assert result.exit_code == status, result.output
    assert message in result.output
    assert result.output.count("\n") <= 4
    assert not list(tmp_path.glob("*.jsonl"))  # and no sheet was begun


@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe wild 3H\n", ":1: not text (UTF-8)"),
    (b"wild 3H\n" + b"A meld " + b"4S " * 30000, ":2: the line is too long"),
    (b"\0" * 200_000, ":1: the line is too long"),  # no line end at all, as /dev/zero
])
def test_a_file_of_entries_that_cannot_be_read_begins_no_sheet(tmp_path, content, message):
    words = tmp_path / "rounds.txt"
    words.write_bytes(content)
    result = run("endofpage", "--players", "A,B", "--input", str(words),
                 env={"CARDCLI_SHEETS": str(tmp_path)})
    assert result.exit_code == 1 and f"--input {words}{message}" in result.output
    assert result.output.count("\n") <= 2 and not list(tmp_path.glob("*.jsonl"))


def test_standard_input_with_no_line_end_is_one_clear_message(tmp_path):
    result = new(tmp_path, input="wild 3H\n" + "x" * 100_000)
    assert result.exit_code == 1 and "<stdin>:2: the line is too long" in result.output
    entries = [json.loads(line).get("entry") for line in (tmp_path / "sheet.jsonl").read_text().splitlines()]
    assert entries[1:] == ["wild 3H"]


def test_a_port_in_use_is_refused_before_any_sheet_is_begun(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = run("endofpage", "--players", "a,b", "--serve", "--no-qr", "--port", port, input="",
                     env={"CARDCLI_SHEETS": str(tmp_path)})
    assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in result.output
    assert not list(tmp_path.glob("*.jsonl"))


def test_help_and_the_page_are_words_too(tmp_path):
    result = new(tmp_path, input="help\nwild 3H\nsheet\nA score 5\nB score 6\nquit\nwild 4D\n")
    assert result.exit_code == 0
    entries = [json.loads(line).get("entry") for line in (tmp_path / "sheet.jsonl").read_text().splitlines()]
    assert entries[1:] == ["wild 3H", "A score 5", "B score 6"]  # quit stopped; help and sheet change nothing


def test_the_command_is_listed():
    result = CliRunner().invoke(cli, ["--help"])
    assert "scoresheet   Keep the score sheet of VARIANT played" in result.output
