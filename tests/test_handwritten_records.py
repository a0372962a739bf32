"""Records written by hand from docs/records.md and docs/variants/*.md alone,
as a family at a real table would: no seed, optional fields left out (trick's
``dealer``, End of the Page's ``take`` card, wild meanings with one reading,
``as`` on a set), "none" written both ways, checkpoint lines.  They must stay
valid: if one breaks, the format changed under the docs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli

FOLDER = Path(__file__).resolve().parent / "handwritten"
RECORDS = sorted(FOLDER.glob("*.jsonl"))

#: What validate says of each: variant, moves, winner.
EXPECTED = {
    "endofpage-2p-two-rounds": ("endofpage", 20, 1),
    "endofpage-2p": ("endofpage", 6, 1),
    "endofpage-3p-pickup": ("endofpage", 9, 2),
    "matching-3p": ("matching", 28, 0),
    "trick-3p": ("trick", 8, 0),
    # Written from one seat's view or a spectator's (docs/unseen.md): cards nobody saw are "??".
    "endofpage-2p-public": ("endofpage", 6, 1),
    "endofpage-2p-two-rounds-seat0": ("endofpage", 20, 1),
    "matching-2p-seat1": ("matching", 5, 0),
    "trick-3p-public": ("trick", 8, 0),
}


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_every_variant_has_a_handwritten_record():
    assert {path.stem for path in RECORDS} == set(EXPECTED)
    assert {variant for variant, _moves, _winner in EXPECTED.values()} == {"matching", "trick", "endofpage"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_handwritten_record_is_valid(path):
    variant, moves, winner = EXPECTED[path.stem]
    result = invoke("validate", path)
    assert result.exit_code == 0, result.output
    header = json.loads(path.read_text().splitlines()[0])
    view = header.get("view")
    seen = "public view" if view == "public" else f"{view}'s view"
    check = "valid (every card known)" if view is None else f"consistent with what the table saw ({seen})"
    name = header["players"][winner]  # the winner by the name the table called them
    name = name if isinstance(name, str) else name["name"]
    assert result.output == f"{path}: {check}: {variant} game, {moves} moves, {name} won\n"
    assert "seed" not in header  # a real deck


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_resume_writes_the_result_a_person_wrote(tmp_path, path):
    lines = path.read_text().splitlines()
    copy = tmp_path / path.name
    copy.write_text("\n".join(lines[:-1]) + "\n")
    assert json.loads(invoke("validate", "--json", copy).stdout.splitlines()[0])["error"]["kind"] \
        == "missing-result"
    assert invoke("play", "--resume", copy).exit_code == 0
    stated = json.loads(lines[-1])["result"]
    written = json.loads(copy.read_text().splitlines()[-1])["result"]
    assert {key: written[key] for key in stated} == stated
