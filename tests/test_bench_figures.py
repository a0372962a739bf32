"""docs/cpu.md's measured strength is the saved run in the repository, not
figures typed in by hand: the block between its markers is exactly what
``bench/bench_hard.py --table`` prints of ``bench/results/hard-run.json``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

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
