"""``cardcli export``: a record as one seat saw it, or a spectator: no card
the viewer did not see, no seed, and it validates as what the table saw."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.testing import play_game

CARD = re.compile(r'"((?:10|[2-9JQKA])[SHDC]|JK)"')


def invoke(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for variant in ("matching", "trick", "endofpage"):
        options = {"page_lines": 2} if variant == "endofpage" else {}
        _game, buffer = play_game(variant, players=3, seed=11, options=options)
        paths[variant] = folder / f"{variant}.jsonl"
        paths[variant].write_text(buffer.getvalue())
    return paths


def seen_by(path, seat):
    """The cards a seat (None: nobody) saw: every move's, every turn-up, its own deals and draws."""
    seen = set()
    for line in path.read_text().splitlines()[1:]:
        data = json.loads(line)
        own = data.get("seat") == seat or "move" in data or data.get("chance") == "turn_up"
        if data.get("chance") == "deal" and "hands" in data:
            own = False
            if seat is not None:
                seen.update(data["hands"][seat])
        if data.get("chance") == "deal" and "cards" in data:
            seen.add(data["cards"][0])  # End of the Page turns each hand's first card up
            seen.update(data["cards"][:data["cards"].index(data["wild"]) + 1] if "wild" in data else ())
        if own:
            seen.update(CARD.findall(line))
    return seen


@pytest.mark.parametrize("variant", ["matching", "trick", "endofpage"])
@pytest.mark.parametrize("seat", [None, 0, 2])
def test_an_export_shows_only_what_the_viewer_saw(records, tmp_path, variant, seat):
    path = records[variant]
    out = tmp_path / "view.jsonl"
    args = ["--public"] if seat is None else ["--seat", seat]
    result = invoke("export", path, *args, "-o", out)
    assert result.exit_code == 0, result.output
    text = out.read_text()
    header = json.loads(text.splitlines()[0])
    assert "seed" not in header and header["view"] == ("public" if seat is None else f"seat {seat}")
    for line in text.splitlines()[1:]:
        if '"shown"' in line:
            continue  # the hands the table counted at a round's end
        assert set(CARD.findall(line)) <= seen_by(path, seat), line
    checked = invoke("validate", out)
    assert checked.exit_code == 0, checked.output
    assert "consistent with what the table saw" in checked.output


def test_export_writes_to_stdout_and_reads_stdin(records):
    text = records["trick"].read_text()
    result = invoke("export", "-", "--public", input=text)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert json.loads(lines[0])["view"] == "public" and '"??"' in result.output


@pytest.mark.parametrize("args", [[], ["--public", "--seat", "1"]])
def test_export_needs_one_view(records, args):
    result = invoke("export", records["matching"], *args)
    assert result.exit_code == 2 and "--seat N or --public" in result.output


def test_export_refuses_a_seat_the_game_has_not(records):
    result = invoke("export", records["matching"], "--seat", 3)
    assert result.exit_code == 1 and "there is no seat 3: the seats are 0 to 2" in result.output


def _sorted_shown(text):
    """A record's lines, the hands of its ``shown`` lines in card order (a set of cards each)."""
    lines = [json.loads(line) for line in text.splitlines()]
    return [{"shown": [sorted(hand) for hand in line["shown"]]} if "shown" in line else line
            for line in lines]


@pytest.mark.parametrize("variant", ["matching", "trick", "endofpage"])
def test_a_seats_record_exported_as_a_spectator_is_the_public_export(records, tmp_path, variant):
    seat = tmp_path / "seat.jsonl"
    assert invoke("export", records[variant], "--seat", 1, "-o", seat).exit_code == 0
    again = invoke("export", seat, "--public")
    assert again.exit_code == 0, again.output
    public = invoke("export", records[variant], "--public")
    assert _sorted_shown(again.output) == _sorted_shown(public.output)
    assert _sorted_shown(invoke("export", seat, "--seat", 1).output) == _sorted_shown(seat.read_text())


def test_export_refuses_a_view_wider_than_the_records(records, tmp_path):
    public = tmp_path / "public.jsonl"
    assert invoke("export", records["matching"], "--public", "-o", public).exit_code == 0
    result = invoke("export", public, "--seat", 0)
    assert result.exit_code == 1
    assert "written from a spectator's view: it holds no cards of seat 0 to show" in result.output
    seat = tmp_path / "seat.jsonl"
    assert invoke("export", records["matching"], "--seat", 1, "-o", seat).exit_code == 0
    result = invoke("export", seat, "--seat", 2)
    assert result.exit_code == 1
    assert "written from seat 1's view: it holds no cards of seat 2" in result.output


@pytest.mark.parametrize("variant", ["matching", "trick", "endofpage"])
@pytest.mark.parametrize("seat", [None, 1])
def test_a_record_of_a_real_table_replays_move_by_move_as_its_viewer_saw_it(records, tmp_path, variant, seat):
    from cardcli.contract.views import SPECTATOR
    from cardcli.engine.plugins import get_registry
    from cardcli.records.replay import load_replay

    view = tmp_path / "view.jsonl"
    args = ["--public"] if seat is None else ["--seat", seat]
    assert invoke("export", records[variant], *args, "-o", view).exit_code == 0
    registry = get_registry()
    with open(records[variant], "rb") as stream:
        full = load_replay(stream, "full", registry)
    with open(view, "rb") as stream:
        seen = load_replay(stream, "view", registry)
    assert seen.error is None and [f.move for f in seen.frames] == [f.move for f in full.frames]
    variant_ = full.game.variant
    for index in range(len(full.frames)):  # what everyone sees is the same at every move
        assert variant_.render(seen.state(index), SPECTATOR, seen.game.names) == \
            variant_.render(full.state(index), SPECTATOR, full.game.names), index
        if seat is not None:
            assert sorted(seen.state(index).hands[seat]) == sorted(full.state(index).hands[seat])
    told = " ".join(" ".join(seen.told(index, SPECTATOR if seat is None else seat))
                    for index in range(len(seen.frames)))
    assert "??" not in told  # a card nobody saw is "a card" in words
    result = invoke("replay", view, "--to", full.total)
    assert result.exit_code == 0, result.output
    other = invoke("replay", view, "--to", 1, "--seat", 2)
    assert other.exit_code == 2 and "it shows no other seat's cards" in other.output


def test_export_of_a_broken_record_writes_nothing(records, tmp_path):
    lines = records["matching"].read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines[:5], lines[3], *lines[5:]]) + "\n")
    out = tmp_path / "out.jsonl"
    result = invoke("export", broken, "--public", "-o", out)
    assert result.exit_code == 1 and "broken.jsonl:6" in result.output
    assert not out.exists()


def test_export_never_overwrites(records, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("keep me\n")
    result = invoke("export", records["matching"], "--public", "-o", out)
    assert result.exit_code == 1 and "already exists" in result.output
    assert out.read_text() == "keep me\n"
