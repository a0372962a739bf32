"""docs/plugins.md stays true: its tutorial starts from what ``cardcli
new-variant fan_tan`` writes, and its changes, made to a freshly generated
plugin, give a game that works and passes the conformance kit.

The page marks its code blocks with an HTML comment on the line before:

* ``<!-- scaffold: PATH -->`` — the block is part of the generated file PATH
  (lines in order, as written);
* ``<!-- replace: PATH -->`` then, before the next block, ``<!-- with -->`` —
  a tutorial change: the first block occurs exactly once in PATH as the
  tutorial has it so far, and becomes the second;
* ``<!-- new: PATH -->`` — the block is a new file.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli, scaffold
from cardcli.engine import plugins
from cardcli.testing import VariantConformance, make_golden_records
from cardcli.testing.golden import golden_paths

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "plugins.md"
NAME = "fan_tan"

_MARKER = re.compile(r"<!-- (scaffold|replace|new): (\S+) -->|<!-- (with) -->")
_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


@dataclass
class Block:
    kind: str  # scaffold, replace, new
    path: str
    text: str
    new_text: str = ""
    line: int = 0


def doc_blocks(text: str) -> list[Block]:
    """The marked code blocks of the page, in order."""
    blocks: list[Block] = []
    for match in _MARKER.finditer(text):
        fence = _FENCE.search(text, match.end())
        assert fence is not None, f"plugins.md: no code block after {match.group(0)}"
        line = text.count("\n", 0, match.start()) + 1
        assert not text[match.end():fence.start()].strip() or match.group(3), (
            f"plugins.md:{line}: the marked block must follow its marker")
        if match.group(3):  # <!-- with -->
            assert blocks and blocks[-1].kind == "replace" and not blocks[-1].new_text, (
                f"plugins.md:{line}: <!-- with --> without a <!-- replace: ... --> before it")
            blocks[-1].new_text = fence.group(1)
        else:
            blocks.append(Block(match.group(1), match.group(2), fence.group(1), line=line))
    for block in blocks:
        assert block.kind != "replace" or block.new_text, f"plugins.md:{block.line}: replace without with"
    return blocks


BLOCKS = doc_blocks(DOC.read_text(encoding="utf-8"))


def generated() -> dict[str, str]:
    return scaffold.render(scaffold.names_for(NAME))


def test_the_page_marks_its_generated_code_and_its_changes():
    kinds = [block.kind for block in BLOCKS]
    assert kinds.count("scaffold") >= 5 and kinds.count("replace") >= 10 and "new" in kinds


def test_a_ruleset_the_tutorial_runs_with_is_added_before_it_is_used():
    """Followed in order, each command of the tutorial works: a `--ruleset`
    it names is one new-variant writes or a file the page added before."""
    text = DOC.read_text(encoding="utf-8")
    tutorial = text[:text.index("The rest of this page is the reference.")]
    used = [(m.start(), m.group(1)) for m in re.finditer(r"--ruleset ([\w-]+)(?![\w.])", tutorial)]
    assert used, "the tutorial names no ruleset: update this test"
    files = generated()
    for at, name in used:
        path = f"cardcli_{NAME}/rulesets/{NAME}-{name}.toml"
        if path in files:
            continue  # new-variant writes it
        added = tutorial.find(f"<!-- new: {path} -->")
        line = text.count("\n", 0, at) + 1
        assert 0 <= added < at, f"plugins.md:{line}: --ruleset {name} is used before the tutorial adds it"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind == "scaffold"],
                         ids=lambda b: f"line{b.line}")
def test_code_said_to_be_generated_is_what_new_variant_writes(block):
    files = generated()
    assert block.path in files, f"plugins.md:{block.line}: new-variant writes no {block.path}"
    assert block.text in files[block.path], (
        f"plugins.md:{block.line}: this block is not what new-variant writes in {block.path}")


def apply_tutorial(folder: Path) -> None:
    """Make every change of the tutorial to a plugin generated in ``folder``, then
    its shell steps (new golden records)."""
    for block in BLOCKS:
        path = folder / block.path
        if block.kind == "replace":
            text = path.read_text(encoding="utf-8")
            count = text.count(block.text)
            assert count == 1, (f"plugins.md:{block.line}: the block to replace is in {block.path} "
                                f"{count} times, not once")
            path.write_text(text.replace(block.text, block.new_text), encoding="utf-8")
        elif block.kind == "new":
            assert not path.exists(), f"plugins.md:{block.line}: {block.path} exists already"
            path.write_text(block.text, encoding="utf-8")
    # The shell lines of step 7.
    for old in golden_paths(folder / "tests" / "golden"):
        old.unlink()


def make_tutorial_golden_records(folder: Path) -> None:
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import load_ruleset

    golden = folder / "tests" / "golden"
    make_golden_records(NAME, golden)
    stakes = load_ruleset("high-stakes", get_registry(), NAME).options
    make_golden_records(NAME, golden, seed=7, players=[3], options=dict(stakes), label="high-stakes")


@pytest.fixture
def fan_tan(tmp_path, monkeypatch):
    """The tutorial's plugin, generated, changed as the page says, importable
    and registered as if installed."""
    folder = tmp_path / "cardcli-fan-tan"
    result = CliRunner().invoke(cli, ["new-variant", NAME, str(folder)])
    assert result.exit_code == 0, result.output
    apply_tutorial(folder)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.syspath_prepend(str(folder / "tests"))
    for module in [m for m in sys.modules if m.startswith("cardcli_fan_tan") or m == "test_rules"]:
        monkeypatch.delitem(sys.modules, module)
    real = plugins._entry_points
    entry = metadata.EntryPoint(NAME, "cardcli_fan_tan.plugin", plugins.ENTRY_POINT_GROUP)
    monkeypatch.setattr(plugins, "_entry_points", lambda: [*real(), entry])
    plugins.reset_registry()
    make_tutorial_golden_records(folder)
    yield folder
    plugins.reset_registry()
    for module in [m for m in sys.modules if m.startswith("cardcli_fan_tan") or m == "test_rules"]:
        del sys.modules[module]


def test_the_tutorial_gives_fan_tan_and_it_passes_its_tests_and_the_kit(fan_tan):
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    assert ruff
    linted = subprocess.run([ruff, "check", "--no-cache", "."], cwd=fan_tan, capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout

    spec = importlib.util.spec_from_file_location("test_rules", fan_tan / "tests" / "test_rules.py")
    assert spec is not None and spec.loader is not None
    rules = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rules)
    tests = [getattr(rules, name) for name in dir(rules) if name.startswith("test_")]
    assert any(test.__name__ == "test_the_first_out_takes_the_pool_and_a_chip_for_every_card_left"
               for test in tests)
    for test in tests:
        test()

    class TestFanTan(VariantConformance):
        variant = NAME
        golden = fan_tan / "tests" / "golden"
        option_sets = ({}, {"ante": 0, "forfeit": 3}, {"opening": "left", "ace_high": True})
        examples = 15
        positions = 8

    kit = TestFanTan()
    for check in ("test_random_games_end_and_conserve_cards", "test_records_validate_and_replay_identically",
                  "test_fast_path_matches_checked_path", "test_clone_is_independent",
                  "test_apply_rejects_what_legal_actions_omit",
                  "test_property_illegal_action_leaves_state_unchanged",
                  "test_determinized_positions_play_out",
                  "test_hard_cpu_decides_from_random_positions", "test_seat_messages_are_private",
                  "test_property_decoding_broken_lines_raises_only_value_error",
                  "test_golden_records_validate_and_replay"):
        getattr(kit, check)()


def test_the_tutorial_game_plays_and_ranks_by_chips(fan_tan, tmp_path):
    runner = CliRunner()
    rules = runner.invoke(cli, ["rules", NAME])
    assert rules.exit_code == 0 and "ante" in rules.output and "forfeit" in rules.output
    played = tmp_path / "game.jsonl"
    result = runner.invoke(cli, ["play", NAME, "--players", "cpu:normal,cpu:easy,cpu:hard=20", "--seed", "5",
                                 "--ruleset", "high-stakes", "--record", str(played)])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  1\. cpu\d +\d+ chips$", result.output, re.MULTILINE), result.output
    assert "Pool: 0 chips" in result.output  # the winner took it
    checked = runner.invoke(cli, ["validate", str(played)])
    assert checked.exit_code == 0 and "valid (every card known): fan_tan game" in checked.output
    moves = [json.loads(line) for line in played.read_text().splitlines() if '"move"' in line]
    first_pass = next(number for number, move in enumerate(moves, start=1) if move["move"] == "pass")
    replayed = runner.invoke(cli, ["replay", str(played), "--to", str(first_pass)])
    assert replayed.exit_code == 0
    assert "passed, paying 2 chips into the pool" in replayed.output, replayed.output
    assert re.search(r"^Pool: [1-9]\d* chips$", replayed.output, re.MULTILINE), replayed.output


@pytest.mark.slow
def test_the_tutorial_result_installed_passes_its_own_tests(tmp_path):
    """The tutorial's plugin installed (not editable) beside cardcli from this
    checkout in a fresh venv: its own test suite, the conformance kit with the
    kit's slow checks too, passes."""
    folder = tmp_path / "cardcli-fan-tan"
    venv = tmp_path / "venv"
    python = str(venv / "bin" / "python")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(ROOT)], check=True)
    subprocess.run([str(venv / "bin" / "cardcli"), "new-variant", NAME, str(folder)], check=True,
                   capture_output=True)
    apply_tutorial(folder)
    subprocess.run([python, "-m", "pip", "install", "--quiet", f"{folder}[test]"], check=True)
    for args in ([], ["--ruleset", "high-stakes", "--seed", "7", "--players", "3"]):
        subprocess.run([python, "-m", "cardcli.testing", "golden", NAME, "tests/golden", *args], cwd=folder,
                       check=True, capture_output=True)
    for marks in ("not slow", "slow"):
        done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", marks],
                              cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
