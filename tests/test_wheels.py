"""The real wheels in a fresh virtual environment, as a user installs them.

Builds the four wheels with ``.ci/build-wheels``, installs ``cardcli[games]``
from them alone (no index, no checkout), and plays, validates, replays and
reads every shipped ruleset from a folder away from the checkout; then does
README's pipx install and inject.  Slow (a minute or so; pipx itself comes
from the package index): ``python -m pytest -m slow tests/test_wheels.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import cardcli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cardcli", "cardcli_matching", "cardcli_trick", "cardcli_endofpage")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> Path:
    """``dist/``: the four wheels and those of their dependencies."""
    dist = tmp_path_factory.mktemp("build") / "dist"
    subprocess.run(["bash", str(ROOT / ".ci" / "build-wheels"), str(dist)], check=True)
    built = sorted(path.name.split("-")[0] for path in dist.glob("cardcli*.whl"))
    assert built == sorted(PACKAGES)
    return dist


@pytest.fixture(scope="module")
def installed(tmp_path_factory, wheels):
    """(bin folder, site-packages, a working folder) of a venv holding the wheels."""
    base = tmp_path_factory.mktemp("wheels")
    venv.create(base / "venv", with_pip=True)
    bin_dir = base / "venv" / ("Scripts" if sys.platform == "win32" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-index",
                    "--find-links", str(wheels), "cardcli[games]"], check=True)
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run([str(bin_dir / "python"), "-c", where],
                          check=True, capture_output=True, text=True).stdout.strip()
    work = base / "elsewhere"
    work.mkdir()
    return bin_dir, Path(site), work


def run(installed, *args: str, input: str = "") -> str:
    bin_dir, _site, work = installed
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("CARDCLI_") and key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run([str(bin_dir / "cardcli"), *args], cwd=work, env=env, input=input,
                            capture_output=True, text=True)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, f"cardcli {' '.join(args)}: {result.stdout}{result.stderr}"
    return result.stdout


def test_the_packages_come_from_the_venv_with_their_markers(installed):
    bin_dir, site, work = installed
    where = subprocess.run([str(bin_dir / "python"), "-c",
                            f"import {', '.join(PACKAGES)}; print({PACKAGES[0]}.__file__)"],
                           cwd=work, check=True, capture_output=True, text=True).stdout.strip()
    assert Path(where).is_relative_to(site)
    for package in PACKAGES:
        assert (site / package / "py.typed").is_file(), package
    licenses = sorted(site.glob("cardcli*.dist-info/licenses/LICENSE"))
    assert len(licenses) == len(PACKAGES)
    assert all(path.read_text() == (ROOT / "LICENSE").read_text() for path in licenses)
    assert run(installed, "--version").split()[-1] == cardcli.__version__


def test_the_wheels_carry_every_file_and_every_module_imports(installed):
    """Nothing of a package is left out of its wheel, and each module's imports
    are installed with it (``cardcli.testing`` needs pytest: it is for tests)."""
    bin_dir, site, work = installed
    for package in PACKAGES:
        source = ROOT / "src" / package if package == "cardcli" else \
            ROOT / "plugins" / package.removeprefix("cardcli_") / package
        files = {path.relative_to(source) for path in source.rglob("*")
                 if path.is_file() and "__pycache__" not in path.parts}
        assert files and {f for f in files if not (site / package / f).is_file()} == set(), package
    script = ("import importlib, pkgutil\n"
              f"for name in {list(PACKAGES)!r}:\n"
              "    package = importlib.import_module(name)\n"
              "    for found in pkgutil.walk_packages(package.__path__, name + '.'):\n"
              "        if not found.name.startswith('cardcli.testing'):\n"
              "            importlib.import_module(found.name)\n"
              "            print(found.name)\n")
    imported = subprocess.run([str(bin_dir / "python"), "-c", script], cwd=work, check=True,
                              capture_output=True, text=True).stdout.split()
    assert {"cardcli.cli", "cardcli_matching.plugin", "cardcli_endofpage.state"} <= set(imported)


def test_every_shipped_ruleset_is_read_from_the_installed_package(installed):
    _bin, site, _work = installed
    rows = json.loads(run(installed, "variants", "--json"))
    assert {row["name"] for row in rows} == {"matching", "trick", "endofpage"}
    shipped = sorted((ROOT / "rulesets").glob("*.toml"))
    assert shipped
    for path in shipped:
        shown = json.loads(run(installed, "rules", "--ruleset", path.stem, "--json"))
        source = Path(shown["source"])
        assert source.is_relative_to(site), source
        assert source.read_text() == path.read_text()
    short = json.loads(run(installed, "rules", "--ruleset", "american", "--json"))
    assert short["variant"] == "matching" and Path(short["source"]).name == "matching-american.toml"


def test_simulate_play_validate_and_replay_from_the_wheels(installed):
    _bin, _site, work = installed
    for variant, ruleset, players in (("matching", "american", "3"), ("trick", "five-cards", "2"),
                                      ("endofpage", "short", "2")):
        run(installed, "simulate", variant, "--games", "2", "--players", players, "--ruleset", ruleset,
            "--seed", "1", "--workers", "1", "--records", f"records-{variant}")
    run(installed, "play", "trick", "--players", "cpu:easy,cpu:hard", "--ruleset", "five-cards",
        "--seed", "2", "--record", "played.jsonl")
    records = [*sorted(work.glob("records-*/*.jsonl")), work / "played.jsonl"]
    assert len(records) == 7
    checked = run(installed, "validate", *(str(path) for path in records))
    assert checked.count(": valid ") == len(records)
    assert "After move 3" in run(installed, "replay", "played.jsonl", "--seat", "0", "--to", "3")


def test_pipx_install_and_inject_as_readme_says(wheels, tmp_path):
    """README: ``pipx install --pip-args="--find-links dist" "cardcli[games]"``;
    a further variant joins with ``pipx inject cardcli PACKAGE``."""
    venv.create(tmp_path / "tool", with_pip=True)
    tool = tmp_path / "tool" / "bin"
    subprocess.run([str(tool / "python"), "-m", "pip", "install", "--quiet", "pipx"], check=True)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CARDCLI_", "PIPX_")) and key not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def pipx(*args: str, home: str) -> None:
        """pipx with its own home (venvs and command links) under ``tmp_path/home``."""
        where = {"PIPX_HOME": str(tmp_path / home), "PIPX_BIN_DIR": str(tmp_path / home / "bin"),
                 "PIPX_MAN_DIR": str(tmp_path / home / "man")}
        subprocess.run([str(tool / "pipx"), *args], cwd=wheels.parent, env={**env, **where},
                       check=True, capture_output=True)

    def variants(home: str) -> set[str]:
        shown = subprocess.run([str(tmp_path / home / "bin" / "cardcli"), "variants", "--json"], cwd=tmp_path,
                               env=env, check=True, capture_output=True, text=True).stdout
        return {row["name"] for row in json.loads(shown)}

    pipx("install", "--pip-args=--find-links dist", "cardcli[games]", home="games")
    assert variants("games") == {"matching", "trick", "endofpage"}
    pipx("install", "--pip-args=--find-links dist", "cardcli", home="bare")
    assert variants("bare") == set()
    (trick,) = wheels.glob("cardcli_trick-*.whl")
    pipx("inject", "cardcli", str(trick), home="bare")
    assert variants("bare") == {"trick"}
