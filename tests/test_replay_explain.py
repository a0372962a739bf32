"""A replay that teaches (``--explain``) and a replay of a record with a
mistake, which steps up to it and then shows it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.cpu.commentary import frame_commentary
from cardcli.cpu.players.hard import Budget
from cardcli.engine.game import Game
from cardcli.kit.record_format import SeatInfo

from .thirdparty import HighCard


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    run("simulate", "matching", "-n", "1", "--seed", "21", "--records", folder, "-w", "1")
    return folder / "game-000000.jsonl"


def decisions(path, seat):
    """Move numbers at which ``seat`` decided, in a record."""
    moves, found = 0, []
    for line in path.read_text().splitlines()[1:]:
        data = json.loads(line)
        if "move" in data:
            moves += 1
            if data["seat"] == seat:
                found.append(moves)
    return found


def test_explain_says_the_rule_of_every_move(recorded):
    out = run("replay", recorded, "--to", "3", "--explain").output
    assert "    why: " in out
    for move in range(1, 4):
        assert "why:" in run("replay", recorded, "--to", move, "--explain").output
    assert "why:" not in run("replay", recorded, "--to", "3").output  # only when asked


def test_explain_from_a_seat_rates_its_alternatives(recorded):
    rated = None
    for move in decisions(recorded, 0)[:6]:
        out = run("replay", recorded, "--to", move, "--explain", "--seat", "0").output
        if "the hard CPU's view from" in out:
            rated = out
            break
    assert rated, "seat 0 had a choice in its first six moves"
    lines = rated.splitlines()
    start = next(i for i, line in enumerate(lines) if "the hard CPU's view from cpu1's seat" in line)
    rows = [line.strip() for line in lines[start + 1:]
            if line.startswith("      ") and "sure last" not in line]
    assert len(rows) >= 2 and sum("<- played" in row for row in rows) == 1
    values = [float(row.split(": ")[-1].split()[0]) for row in rows]
    assert values == sorted(values, reverse=True)
    assert all(not row.startswith("played") for row in rows)  # labels are commands: "play 4D"
    other = decisions(recorded, 1)[0]
    assert "hard CPU" not in run("replay", recorded, "--to", other, "--explain", "--seat", "0").output


def test_a_third_party_variant_is_explained_by_the_core():
    variant = HighCard()
    game = Game(variant, {"bonus": 0, "min_players": 2, "max_players": 4}, [SeatInfo("ann"), SeatInfo("bob")],
                1, seed=1)
    state = game.state
    deal = ("deal", ((0, 14), (26, 27)))
    state.apply(deal)
    lines = frame_commentary(game, [(state.clone(), ("play", 0))], viewer=0,
                          budget=Budget(iterations=40, seconds=None))
    assert lines[0] == "why: a choice: one of 2 legal moves"
    assert lines[1].startswith("the hard CPU's view from ann's seat (40 playouts")
    assert any(line.strip().startswith("play 2S: ") and line.endswith("<- played") for line in lines)


def broken_copy(recorded, tmp_path):
    """The record with its 6th move made illegal (a card nobody holds)."""
    lines = recorded.read_text().splitlines()
    moves = [i for i, line in enumerate(lines) if '"move": "play"' in line]
    index = moves[5]
    data = json.loads(lines[index])
    data["card"] = "JOKER"  # no such card in matching: refused where it stands
    lines[index] = json.dumps(data)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines[:index + 1]) + "\n")
    before = sum(1 for line in lines[1:index] if '"move"' in line)
    return path, before, index + 1


def test_a_record_with_a_mistake_steps_up_to_it_then_shows_it(recorded, tmp_path):
    path, before, line = broken_copy(recorded, tmp_path)
    result = run("replay", path, input="n\n" * (before + 3) + "q\n")
    out = result.output
    assert result.exit_code == 1
    assert (f"This record has a mistake at move {before + 1}: it is shown up to move {before}, the "
            "position before it.") in " ".join(out.split())
    assert f"After move {before} of {before}" in out
    said = " ".join(out.split())  # (wrapped to the terminal's width)
    assert f"The record stops being a legal game here. {path}:{line}: move {before + 1}, seat" in said
    assert out.index(f"After move {before} of") < out.index("The record stops being a legal game here")
    shown = run("replay", path, "--to", before - 1)
    assert shown.exit_code == 1 and f"After move {before - 1} of {before}" in shown.output
    assert "This record has a mistake later" in shown.output
    beyond = run("replay", path, "--to", before + 1)
    assert beyond.exit_code == 1 and f"a legal game up to move {before}" in beyond.output
    assert f"{path}:{line}: move {before + 1}, seat" in beyond.output
    assert run("validate", path).exit_code == 1  # the same mistake, as validate says it


def test_the_last_frame_says_how_the_game_ended_once(recorded):
    total = len(decisions(recorded, 0)) + len(decisions(recorded, 1)) + len(decisions(recorded, 2)) + \
        len(decisions(recorded, 3))
    out = run("replay", recorded, "--to", total).output
    assert out.count("Game over") == 1 and "Ranking:" in out
