"""The variant pages are enough to write a record: their examples validate,
and what they say is optional really may be left out (and is checked when
stated)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardcli.testing import play_game, record_lines, validate_bytes

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted((DOCS / "variants").glob("*.md"))


def json_blocks(path: Path) -> list[list[dict[str, Any]]]:
    text = path.read_text(encoding="utf-8")
    return [[json.loads(line) for line in body.splitlines() if line.strip()]
            for body in re.findall(r"^```json\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)]


def as_bytes(lines: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


@pytest.mark.parametrize("page", ["trick", "endofpage"])
def test_the_complete_game_on_each_variant_page_is_valid(page):
    games = [block for block in json_blocks(DOCS / "variants" / f"{page}.md")
             if "format" in block[0] and "result" in block[-1]]
    assert games, f"docs/variants/{page}.md has no complete example game"
    for lines in games:
        report = validate_bytes(as_bytes(lines), source=f"{page}.md")
        assert report.valid, str(report.error)


def _worked() -> list[dict[str, Any]]:
    from tests.endofpage.conftest import WORKED

    return [dict(line) for line in WORKED]


def test_endofpage_optional_fields_may_be_left_out_and_are_checked_when_stated():
    page = (DOCS / "variants" / "endofpage.md").read_text(encoding="utf-8")
    assert "**`wild` is optional**" in page and "**`card` is optional**" in page
    lines = _worked()
    del lines[2]["wild"]  # the dealer's wild card
    lines[14] = {"seat": 1, "move": "take"}  # the card taken
    del lines[-1]["result"]["scores"]
    assert validate_bytes(as_bytes(lines)).valid
    wrong = _worked()
    wrong[1]["wild"] = "4S"  # not the dealer's deal
    assert "only the dealer's deal names the wild card" in str(validate_bytes(as_bytes(wrong)).error)


def test_endofpage_deep_pickup_meld_is_written_like_a_meld_and_numbered():
    """The page's pickup example: the pickup's meld is meld 1, so the lay-off
    on it as 5C is legal, and on meld 2 (the set of 9s) it is not."""
    page = (DOCS / "variants" / "endofpage.md").read_text(encoding="utf-8")
    assert "a deep\n  pickup's meld counts" in page and "A deep pickup always melds" in page
    example = next(block for block in json_blocks(DOCS / "variants" / "endofpage.md")
               if any(line.get("move") == "pickup" for line in block))
    assert validate_bytes(as_bytes(example)).valid
    layoff = next(i for i, line in enumerate(example) if line.get("move") == "layoff")
    assert example[layoff]["meld"] == 1
    wrong = [dict(line) for line in example]
    wrong[layoff]["meld"] = 2
    error = str(validate_bytes(as_bytes(wrong)).error)
    assert "4H can stand only for 9 on meld 2" in error, error


def test_endofpage_wild_meanings_may_be_left_out_where_one_reading_exists():
    lines = _worked()
    lines[6] = {"seat": 0, "move": "meld", "cards": ["4S", "4H", "3D"]}  # a set: 3D can only be a 4
    lines[15] = {"seat": 1, "move": "meld", "cards": ["4C", "3H", "6C"]}  # a run: 3H can only be 5C
    lines[16] = {"seat": 1, "move": "layoff", "card": "3S", "meld": 1}  # a set: only as a 4
    assert validate_bytes(as_bytes(lines)).valid
    two_ends = _worked()
    two_ends[15] = {"seat": 1, "move": "meld", "cards": ["4C", "6C", "3H"]}
    assert validate_bytes(as_bytes(two_ends)).valid  # 4C 6C and a wild: only 5C
    page = (DOCS / "variants" / "endofpage.md").read_text(encoding="utf-8")
    assert "may be left out where only one reading exists" in page
    assert "cardcli always\n  writes every meaning" in page


@pytest.mark.parametrize("seed", range(6))
def test_cardcli_always_writes_every_wild_meaning(seed):
    _game, buffer = play_game("endofpage", players=2 + seed % 3, seed=seed, options={"page_lines": 2})
    wild = None
    for line in record_lines(buffer):
        if line.get("chance") == "deal" and "wild" in line:
            wild = line["wild"][:-1]
        meld = line.get("cards") if line.get("move") == "meld" else line.get("meld")
        if line.get("move") in ("meld", "pickup"):
            for item in meld:
                name = item.partition("=")[0]
                assert name[:-1] != wild or "=" in item, line
        if line.get("move") == "layoff" and line["card"][:-1] == wild:
            assert "as" in line, line


def test_trick_deal_dealer_is_optional_and_checked():
    page = (DOCS / "variants" / "trick.md").read_text(encoding="utf-8")
    assert "**`dealer` is optional**" in page and "**seat order**" in page
    game = next(block for block in json_blocks(DOCS / "variants" / "trick.md") if "format" in block[0])
    without = [dict(line) for line in game]
    del without[1]["dealer"]
    assert validate_bytes(as_bytes(without)).valid
    wrong = [dict(line) for line in game]
    wrong[1]["dealer"] = 0
    assert "the dealer of this deal is seat 1, not 0" in str(validate_bytes(as_bytes(wrong)).error)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_reshuffle_cards_is_documented_as_optional(page):
    text = page.read_text(encoding="utf-8")
    assert re.search(r"`cards` is optional|optional `cards`|its optional `cards`", text), page.name
    records = (DOCS / "records.md").read_text(encoding="utf-8")
    assert "is **optional** in every variant" in records
