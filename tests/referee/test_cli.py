"""``cardcli referee`` as a person uses it: at a real terminal (a
pseudo-terminal) a simulated game entered from its public view, every entry
accepted and the record equal to the game's public export; from a file or
standard input; and every bad command line or entry answered in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pexpect
import pytest

from .test_referee import public_lines
from .words import referee_words

CARDCLI = shutil.which("cardcli")
pytestmark = pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    assert CARDCLI is not None
    return subprocess.run([CARDCLI, *args], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120)


def spawn(args: list[str]) -> pexpect.spawn:
    env = {key: value for key, value in os.environ.items() if key not in ("LC_ALL", "LC_CTYPE", "COLUMNS")}
    env.update(TERM="xterm-256color", LANG="C", NO_COLOR="1")
    return pexpect.spawn(CARDCLI, args, env=env, encoding="utf-8", dimensions=(24, 80), timeout=60)


@pytest.mark.parametrize("variant,ruleset,players,seed,viewer,wording", [
    ("matching", None, 3, 3, None, {}), ("trick", "five-cards", 2, 4, None, {}),
    ("endofpage", "short", 2, 6, None, {}), ("matching", None, 3, 3, 1, {}),
    ("endofpage", "short", 2, 6, 0, {}),
    # Page One called as the next entry; trick's draws one a line, the stock rebuilt between two of them
    ("matching", "standard", 2, 0, None, {"call": "next"}),
    ("trick", "standard", 2, 8, None, {"draws": "each"}),
    ("endofpage", "short", 2, 6, None, {"ups": "each"})])
def test_a_real_table_game_at_the_terminal_gives_the_export_of_its_view(tmp_path, variant, ruleset, players,
                                                                       seed, viewer, wording):
    lines = public_lines(variant, ruleset, players, seed, viewer)
    if wording.get("call") == "next":
        assert any(line.get("call") for line in lines), "the game no longer has a Page One call"
    if wording.get("draws") == "each":
        assert any(lines[i].get("chance") == "draw" and lines[i + 1].get("chance") == "reshuffle"
                   and lines[i + 2].get("chance") == "draw" for i in range(1, len(lines) - 2))
    names = ",".join(player["name"] for player in lines[0]["players"])
    record = tmp_path / "table.jsonl"
    dealer = lines[0]["players"][lines[0]["dealer"]]["name"]
    args = ["referee", variant, "--players", names, "--dealer", dealer, "--record", str(record)]
    if ruleset:
        args += ["--ruleset", ruleset]
    if viewer is not None:
        args += ["--seat", lines[0]["players"][viewer]["name"]]
    child = spawn(args)
    child.expect_exact("(help lists the words)")
    for entry in referee_words(lines, **wording):
        child.expect_exact("> ")
        child.sendline(entry)
        index = child.expect([r"Next: |Game over", "Refused: (.*)"])
        assert index == 0, f"{entry!r} refused: {child.match.group(1)}"
    child.expect_exact(f"Record: {record}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    written = [json.loads(line) for line in record.read_text().splitlines()]
    assert written[0]["view"] == lines[0]["view"] and written[0]["rules"] == lines[0]["rules"]
    assert written[0]["dealer"] == lines[0]["dealer"]
    assert written[1:] == lines[1:], "the referee's record is the simulated game's export from its view"
    check = run("validate", str(record), "--json")
    assert check.returncode == 0 and '"check": "consistent"' in check.stdout, check.stdout


def test_at_the_terminal_a_refused_entry_is_said_and_asked_again_and_undo_and_help(tmp_path):
    record = tmp_path / "t.jsonl"
    child = spawn(["referee", "matching", "--players", "ann,bob", "--record", str(record)])
    child.expect_exact("> ")
    child.sendline("up 5h")
    child.expect_exact("Next: bob to play.")
    child.sendline("bob 9c")
    # wrapped at a space to the 80 columns of the terminal, never cut in a word
    child.expect_exact("Refused: move 1, bob played 9C on 5H: no rank or suit match (could draw)\r\n"
                       "  (nothing was written)")
    child.sendline("help")
    child.expect_exact("undo              take back the last entry")
    child.sendline("bob 5s")
    child.expect_exact("Next: ann to play.")
    child.sendline("undo")
    child.expect_exact("Taken back: bob 5s.")
    child.expect_exact("Next: bob to play.")
    child.sendline("quit")
    child.expect_exact(f"go on: cardcli referee --resume {record}")
    child.expect(pexpect.EOF)
    written = [json.loads(line) for line in record.read_text().splitlines()]
    assert written[-1] == {"chance": "turn_up", "card": "5H"}
    checked = run("validate", str(record))  # unfinished: it goes on where it was begun
    assert checked.returncode == 1
    assert f"continue it with `cardcli referee --resume {record}`" in checked.stderr
    resumed = run("referee", "--resume", str(record), stdin="bob 5s\n")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(record.read_text().splitlines()[-1]) == {"seat": 1, "move": "play", "card": "5S"}


def test_in_japanese_the_japanese_quit_word_stops_at_the_terminal_and_from_a_file(tmp_path):
    """終了 is quit (docs/referee.md): the record is kept, nothing after it is read."""
    record = tmp_path / "t.jsonl"
    child = spawn(["--lang", "ja", "referee", "matching", "--players", "ann,bob", "--record", str(record)])
    child.expect_exact("> ")
    child.sendline("台札 ハート5")
    child.expect_exact("> ")
    child.sendline("終了")
    child.expect_exact(f"cardcli referee --resume {record}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    piped = run("--lang", "ja", "referee", "matching", "--players", "ann,bob", "--record",
                str(tmp_path / "p.jsonl"), stdin="台札 ハート5\n終了\nbob 9c\n")
    assert piped.returncode == 0, piped.stderr
    assert "受け付けません" not in piped.stderr + piped.stdout


def test_entries_from_standard_input_stop_at_the_first_refused_with_its_line(tmp_path):
    record = tmp_path / "t.jsonl"
    done = run("referee", "matching", "--players", "ann,bob", "--record", str(record),
               stdin="up 5h\nbob 5s\nann 9c\nann 5c\n")
    assert done.returncode == 1
    assert done.stderr.strip().endswith(
        "<stdin>:3: 'ann 9c': move 2, ann played 9C on 5S: no rank or suit match (could draw)")
    assert len(record.read_text().splitlines()) == 4  # header, deal, turn-up, bob's move: nothing after


@pytest.mark.parametrize("args,message", [
    (["referee", "matching"], "name the players in seat order"),
    (["referee", "matching", "--players", "ann,ann"], "give each player a different name"),
    (["referee", "matching", "--players", "ann,bob", "--dealer", "cat"], "'cat' is not one of the players"),
    (["referee", "nosuch", "--players", "ann,bob"], "nosuch"),
    (["referee", "matching", "--players", "a,b,c,d,e,f,g,h,i,j"], "players"),
    (["referee", "--resume", "missing.jsonl"], "missing.jsonl"),
    (["referee", "matching", "--players", "ann,bob", "--seat", "cat"], "'cat' is not one of the players"),
    (["referee", "--resume", "r.jsonl", "--seat", "ann"], "give no VARIANT, --players, --dealer, --seat"),
    (["referee", "matching", "--players", "ann,bob", "--input", "missing.txt"], "--input missing.txt"),
])
def test_bad_command_lines_get_one_line_and_no_traceback(tmp_path, args, message):
    done = run(*args, cwd=tmp_path)
    assert done.returncode in (1, 2)
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_resume_refuses_a_record_that_is_not_a_referees(tmp_path):
    full = tmp_path / "full.jsonl"
    assert run("simulate", "matching", "--games", "1", "--players", "2", "--seed", "1", "--workers", "1",
               "--records", str(tmp_path / "recs")).returncode == 0
    shutil.copy(next((tmp_path / "recs").glob("*.jsonl")), full)
    done = run("referee", "--resume", str(full))
    assert done.returncode == 1 and "is not a referee's record" in done.stderr


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_the_complete_games_in_the_docs_are_followed_to_their_end(tmp_path, name):
    path = Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{name}.txt"
    command = path.read_text().splitlines()[0]
    args = command.removeprefix("# cardcli ").split(" < ")[0].split()
    done = run(*args, "--record", str(tmp_path / "r.jsonl"), "--input", str(path))
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    assert run("validate", str(tmp_path / "r.jsonl")).returncode == 0


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_the_complete_games_in_japanese_write_the_records_of_the_english_ones(tmp_path, name):
    """docs/referee/NAME.ja.txt is NAME.txt in Japanese entry words: the same record, line for line."""
    records = {}
    for suffix in ("", ".ja"):
        path = Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{name}{suffix}.txt"
        lines = path.read_text(encoding="utf-8").splitlines()
        if suffix:
            assert any(ord(ch) > 0x3000 for line in lines[1:] for ch in line)  # it is written in Japanese
        args = lines[0].removeprefix("# cardcli ").split(" < ")[0].split()
        record = tmp_path / f"{name}{suffix}.jsonl"
        done = run(*args, "--record", str(record), "--input", str(path))
        assert done.returncode == 0, done.stderr
        records[suffix] = record.read_text(encoding="utf-8")
    assert records[".ja"] == records[""]


def test_a_seats_game_stopped_and_resumed_is_that_seats_export(tmp_path):
    lines = public_lines("trick", "five-cards", 2, 4, 1)
    names = [player["name"] for player in lines[0]["players"]]
    typed = referee_words(lines)
    record = tmp_path / "seat.jsonl"
    half = len(typed) // 2
    first = run("referee", "trick", "--players", ",".join(names), "--dealer", names[lines[0]["dealer"]],
                "--ruleset", "five-cards", "--seat", names[1], "--record", str(record),
                stdin="\n".join(typed[:half]) + "\n")
    assert first.returncode == 0 and "go on: cardcli referee --resume" in first.stdout, first.stderr
    second = run("referee", "--resume", str(record), stdin="\n".join(typed[half:]) + "\n")
    assert second.returncode == 0 and "Game over" in second.stdout, second.stderr
    written = [json.loads(line) for line in record.read_text().splitlines()]
    assert written[0]["view"] == "seat 1" and written[1:] == lines[1:]
    check = run("validate", str(record), "--json")
    assert check.returncode == 0 and '"view": "seat 1"' in check.stdout, check.stdout
