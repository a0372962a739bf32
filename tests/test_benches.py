"""Every script in bench/ runs in its quick mode: a change that breaks a bench fails here.

A bench no test runs rots (``bench_serve.py`` once crashed on a changed
constructor and, patched, hung on an old protocol number).  Each quick mode
takes seconds and its figures mean nothing; what is checked is that the
script runs to its end, says what it measured, and never shows a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"

#: Each script's quick command line, and a piece of what it prints when it has run to the end.
QUICK = {
    "bench_budget.py": (["trick", "--quick"], "playouts: the reference's best move"),
    "bench_driver.py": (["--quick"], "hard's playouts"),
    "bench_hard.py": (["--quick"], "decision time at 4 players"),
    "bench_referee.py": (["--quick"], "trick 2p, seed"),
    "bench_ray.py": (["--quick"], "local x2"),
    "bench_serve.py": (["--quick"], "records valid: 4 of 4"),
    "bench_simulate.py": (["--quick", "--no-install"], "ratio = cardcli / RLCard"),
    "bench_speed.py": (["--quick", "--no-install"], "ratio = A / B per round"),
    "bench_unseen.py": (["--quick"], "trick-standard"),
    "bench_versions.py": (["--quick"], "validate, matching"),
    "called_off_trick.py": (["--quick"], "| 6 | 50 |"),
    "reshuffle_bound.py": (["--quick"], "normal"),
}


def test_every_bench_script_has_a_quick_run_here():
    scripts = {path.name for path in BENCH.glob("*.py") if not path.name.startswith("_")}
    assert scripts == set(QUICK), "a bench script without a quick run in this test (or one gone)"


@pytest.mark.parametrize("script", sorted(QUICK))
def test_the_bench_runs_in_its_quick_mode(script):
    arguments, printed = QUICK[script]
    done = subprocess.run([sys.executable, str(BENCH / script), *arguments], capture_output=True, text=True,
                          timeout=300, cwd=BENCH.parent)
    assert done.returncode == 0, f"{script} --quick failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert printed in done.stdout, done.stdout[-2000:]
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
