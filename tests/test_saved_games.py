"""Saved games: ``cardcli games`` lists them newest first, and ``cardcli play
--resume`` alone (or ``--resume last``) continues the newest unfinished one
after a recap of its last moves."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardcli.cli import cli


def run(*args, input=None, env=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output
    return result


def set_started(path, when: str) -> None:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["created"] = when
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    games = tmp_path / "games"
    monkeypatch.setenv("CARDCLI_GAMES", str(games))
    return games


def test_games_lists_newest_first_and_resume_continues_the_newest_unfinished(folder):
    assert "No saved games in" in run("games").output
    assert run("play", "--resume").exit_code == 1
    assert "no unfinished game in" in run("play", "--resume", "last").output
    old = run("play", "matching", "--players", "you,cpu:easy", "--seed", "1", input="1\n" * 3)
    assert old.exit_code == 130
    done = run("play", "trick", "--players", "cpu:easy,cpu:easy", "--seed", "2")
    assert done.exit_code == 0
    new = run("play", "endofpage", "--players", "you,cpu:easy", "--seed", "3", input="1\n" * 2)
    assert new.exit_code == 130
    paths = {p.name.split("-")[2]: p for p in folder.glob("*.jsonl")}
    set_started(paths["matching"], "2026-01-01T10:00:00+00:00")
    set_started(paths["trick"], "2026-01-02T10:00:00+00:00")
    set_started(paths["endofpage"], "2026-01-03T10:00:00+00:00")
    listing = run("games", env={"COLUMNS": "300"}).output.splitlines()  # a terminal wide enough
    assert listing[0].split() == ["started", "variant", "players", "moves", "state", "file"]
    rows = listing[1:4]
    assert [row.split()[2] for row in rows] == ["endofpage", "trick", "matching"]
    assert "unfinished" in rows[0] and " finished " in rows[1] and "unfinished" in rows[2]
    assert "you, cpu1 (cpu:easy)" in rows[0] and rows[2].endswith(str(paths["matching"]))
    assert listing[-1] == "2 unfinished games: cardcli play --resume continues the newest."
    assert listing[0].index("moves") + len("moves") == rows[0].index("  unfinished")  # right-aligned
    # At 80 columns each game takes two lines, its file by the name --resume takes.
    narrow = run("games", env={"COLUMNS": "80"}).output.splitlines()
    assert narrow[0].split()[:4] == ["started", "moves", "state", "game"]
    assert all(len(line) <= 80 for line in narrow if str(folder) not in line)
    assert narrow[1].endswith(paths["endofpage"].name) and narrow[2].startswith("  endofpage: you, cpu1")
    assert words(narrow[-2] + " " + narrow[-1]) == f"The games folder: {folder}"
    name = paths["matching"].name
    assert "Resuming Page One (matching)" in run("play", "--resume", name[:-len(".jsonl")], input="").output
    data = [json.loads(line) for line in run("games", "--json").output.splitlines()]
    assert [d["variant"] for d in data] == ["endofpage", "trick", "matching"]
    assert [d["finished"] for d in data] == [False, True, False] and data[1]["moves"] > 0
    unfinished = run("games", "--unfinished", "--json").output.splitlines()
    assert [json.loads(line)["variant"] for line in unfinished] == ["endofpage", "matching"]

    resumed = run("play", "--resume", input="")
    # (a path too long for a line is said as its name, then its folder)
    said = words(resumed.output)
    assert (f"Resuming End of the Page after move 5. Recording to {paths['endofpage'].name}, in the folder "
            f"{folder}") in said
    assert "The game so far:" in resumed.output and "you drew" in resumed.output
    assert resumed.output.index("The game so far:") < resumed.output.index("you, it is your turn.")
    again = run("play", "--resume", "last", input="")
    assert f"Recording to {paths['endofpage'].name}, in the folder {folder}" in words(again.output)


def test_a_broken_record_in_the_folder_is_listed_not_fatal(folder):
    folder.mkdir(parents=True)
    (folder / "20260101-100000-matching-1.jsonl").write_bytes(b"\x00garbage\n")
    listing = run("games")
    assert listing.exit_code == 0 and "unreadable" in listing.output
    assert "no unfinished game" in run("play", "--resume").output


def test_the_recap_tells_the_last_moves_from_the_players_seat(folder):
    first = run("play", "matching", "--players", "you,cpu:normal", "--seed", "4", input="1\n" * 12)
    assert first.exit_code == 130
    resumed = run("play", "--resume", input="")
    out = resumed.output
    assert "The last 6 moves before the game stopped:" in out
    recap = out[out.index("The last 6 moves"):out.index("you, it is your turn.")]
    assert recap.count("\n  you ") + recap.count("\n  cpu1 ") >= 3
    assert "drew a card" in recap or "cpu1 played" in recap


def words(text: str) -> str:
    """``text`` with every run of spaces and line breaks as one space."""
    return " ".join(text.split())


def test_every_command_that_reads_a_record_takes_a_saved_game_by_its_name(folder, tmp_path, monkeypatch):
    """The name ``cardcli games`` shows works wherever a record is read, not
    only with ``play --resume``; run from another folder, as a player would."""
    assert run("play", "matching", "--players", "cpu:easy,cpu:easy", "--seed", "2").exit_code == 0
    (path,) = folder.glob("*.jsonl")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for name in (path.name, path.stem):
        checked = run("validate", name)
        assert checked.exit_code == 0, checked.output
        assert "valid (every card known): matching game" in checked.output
        shown = run("replay", name, "--to", "3")
        assert shown.exit_code == 0, shown.output
        assert "--- After move 3 of" in shown.output
        exported = run("export", name, "--public")
        assert exported.exit_code == 0, exported.output
        assert json.loads(exported.output.splitlines()[0])["view"] == "public"
    # A name that is neither a file nor a saved game says the file is missing, once.
    missing = run("validate", "no-such-game")
    assert missing.exit_code == 1 and "no-such-game: cannot read: No such file or directory" in missing.output


def test_a_command_names_a_saved_game_by_its_name_and_any_other_record_by_its_path(folder, tmp_path,
                                                                                   monkeypatch):
    from cardcli.records.saved import find_record, record_argument

    folder.mkdir(parents=True)
    saved = folder / "20260101-100000-matching-1.jsonl"
    saved.write_text("")
    assert record_argument(saved) == "20260101-100000-matching-1"
    assert find_record(record_argument(saved)) == str(saved)
    elsewhere = tmp_path / "a folder" / "our game.jsonl"
    assert record_argument(elsewhere) == f"'{elsewhere}'"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert record_argument(elsewhere) == "~/'a folder/our game.jsonl'"
