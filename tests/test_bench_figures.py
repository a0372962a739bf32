"""docs/cpu.md's measured strength is the saved run in the repository, not
figures typed in by hand: the block between its markers is exactly what
``bench/bench_hard.py --table`` prints of ``bench/results/hard-run.json``."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardcli.contract.variant import CHANCE
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import SUIT

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "bench" / "results" / "hard-run.json"
BEGIN = "<!-- begin: python bench/bench_hard.py --table bench/results/hard-run.json -->"
END = "<!-- end of the --table output -->"


def printed_table(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "bench_hard.py"), "--table", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_the_docs_show_the_saved_run_as_the_bench_prints_it():
    text = (ROOT / "docs" / "cpu.md").read_text(encoding="utf-8")
    found = re.search(re.escape(BEGIN) + r"\n(.*?)\n" + re.escape(END), text, re.S)
    assert found, "docs/cpu.md has no block of bench_hard --table output between its markers"
    printed = printed_table(RUN)
    assert printed.returncode == 0, printed.stderr
    assert found.group(1).strip() == printed.stdout.strip()


def test_the_saved_run_is_of_one_commit_with_no_changes():
    run = json.loads(RUN.read_text(encoding="utf-8"))["run"]
    assert re.fullmatch(r"[0-9a-f]{40}", run["code"]["commit"])
    assert run["code"]["changed"] is False


def test_a_file_that_is_not_a_saved_run_gets_one_line(tmp_path):
    bad = tmp_path / "hard.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    printed = printed_table(bad)
    assert printed.returncode == 2
    assert printed.stderr.strip() == f"bench_hard: {bad} is not a file saved by --save"
    assert "Traceback" not in printed.stderr


def _bench_hard():
    """bench/bench_hard.py as a module (the bench is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_hard", ROOT / "bench" / "bench_hard.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_the_suit_counts_copy_imagines_hands_of_the_real_suits_and_nothing_more(name):
    """The bench-only copy told the other hands' suit counts deals every
    other hand cards of exactly its real suits (the joker as a suit of its
    own), the hidden cards are the real ones, and it does not hand back the
    real hands (so it shows what knowing the suits is worth, not the cards)."""
    bench = _bench_hard()
    variant = get_registry().get(name)
    state = variant.new_state(dict(default_ruleset(variant).options), 4, 0)
    rng = random.Random(5)
    while state.current_player() == CHANCE:
        state.apply_legal(state.sample_chance(rng))
    seat = state.current_player()
    player = bench.SuitCountsHard(variant, 1, seat)
    real = state.card_zones()
    hidden = state.hidden_zones(seat)
    different = 0
    for _ in range(20):
        zones = player.imagine(state, seat, rng).card_zones()
        assert sorted(c for n in hidden for c in zones[n]) == sorted(c for n in hidden for c in real[n])
        for zone in hidden:
            assert len(zones[zone]) == len(real[zone])
            if zone.startswith("hand "):
                assert Counter(SUIT[c] for c in zones[zone]) == Counter(SUIT[c] for c in real[zone])
                different += sorted(zones[zone]) != sorted(real[zone])
    assert different > 0
