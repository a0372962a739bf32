"""``bench/bench_referee.py`` runs (its quick mode): a change that breaks the
bench fails here, not months later when someone measures again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_referee.py"


def test_the_referee_bench_runs_in_its_quick_mode():
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json"], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [row["game"] for row in rows] == ["matching 4p", "trick 2p"]
    for row in rows:
        assert row["this"]["entries"] == 60 and row["this"]["max_ms"] > 0
