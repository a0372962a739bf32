"""Where games run: the local pool and the Ray backend give the same results.

The Ray tests start a real local Ray instance (several seconds), so they are
slow-marked; CI installs the ``ray`` extra and runs them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.test_cli import run

TIMINGS = ("seconds", "decisions_per_second", "games_per_second")


def without_timings(output: str) -> dict:
    data = json.loads(output)
    for key in TIMINGS:
        data.pop(key, None)
    return data


def test_ray_is_never_imported_by_the_local_backend():
    code = ("import sys\n"
            "from click.testing import CliRunner\n"
            "from cardcli.cli import cli\n"
            "for args in (['simulate', 'matching', '-n', '4', '-w', '2'],\n"
            "             ['arena', 'matching', '-p', 'cpu,cpu', '-n', '2', '-w', '1']):\n"
            "    assert CliRunner().invoke(cli, args).exit_code == 0\n"
            "print('ray' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("command", [["simulate", "matching", "-n", "2"],
                                     ["arena", "matching", "-p", "cpu,cpu", "-n", "2"]])
def test_ray_backend_without_ray_says_how_to_install_it(monkeypatch, command):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without the extra sees
    result = run(*command, "--backend", "ray")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "pip install 'cardcli[ray]'" in lines[0]


def test_unreachable_ray_cluster_is_one_clear_line():
    pytest.importorskip("ray")
    result = run("simulate", "matching", "-n", "2", "--backend", "ray", "--ray-address", "127.0.0.1:1")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "cannot reach the Ray cluster at 127.0.0.1:1" in result.output


def test_an_unknown_backend_is_a_usage_error():
    result = run("simulate", "matching", "-n", "2", "--backend", "spark")
    assert result.exit_code == 2 and "'local'" in result.output and "'ray'" in result.output


# ------------------------------------------------------------- a real Ray
@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module (the backend uses it and leaves it running)."""
    ray = pytest.importorskip("ray")
    import logging

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_simulate_on_ray_gives_the_same_summary_and_records(local_ray, tmp_path):
    common = ["simulate", "trick", "-n", "30", "--seed", "11", "--players", "cpu:easy,cpu:normal,cpu:easy",
              "--json", "-w", "2"]
    local = run(*common, "--records", tmp_path / "local")
    remote = run(*common, "--records", tmp_path / "ray", "--backend", "ray")
    assert local.exit_code == remote.exit_code == 0
    assert without_timings(local.output) == without_timings(remote.output)
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert len(names) == 30 and names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in names:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()


@pytest.mark.slow
def test_arena_on_ray_gives_the_same_report(local_ray):
    common = ["arena", "matching", "-p", "cpu:normal,cpu:easy,cpu:easy", "-n", "45", "--seed", "4",
              "--json", "-w", "2"]
    local = without_timings(run(*common).output)
    remote = without_timings(run(*common, "--backend", "ray").output)
    for report in (local, remote):
        for player in report["players"]:
            player.pop("mean_decision_seconds")
    assert local == remote and local["games"] == 45
    assert "2 Ray workers" in " ".join(run(*common[:-3], "--backend", "ray").output.split())  # wrapped at 80


@pytest.mark.slow
def test_compare_on_ray_gives_the_same_comparison(local_ray):
    common = ["compare", "matching", "standard", "no-stacking", "-n", "24", "--seed", "6", "--json",
              "-w", "2"]
    local = without_timings(run(*common).output)
    remote = without_timings(run(*common, "--backend", "ray").output)
    assert (local.pop("backend"), remote.pop("backend")) == ("local", "ray")
    assert local == remote and len(local["rulesets"]) == 2
