"""Packaging: what the distributions declare and where the shipped rulesets
come from.

The shipped rulesets live once, in the project's ``rulesets/`` folder.  Each
built-in variant's package holds links to its own (so they ship inside its
wheel) and registers that folder through ``cardcli_register_rulesets``, as a
third-party plugin would; the core holds none.  ``test_wheels.py`` (slow)
builds the real wheels and plays from a fresh virtual environment.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from importlib.resources import files
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import cardcli
from cardcli.engine.plugins import get_registry, load_registry
from cardcli.engine.rulesets import search_dirs, shipped_rulesets

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"
BUILT_IN = ("matching", "trick", "endofpage")


def variant_of(path: Path) -> str:
    return tomllib.loads(path.read_text(encoding="utf-8"))["variant"]


def package_rulesets(variant: str) -> Path:
    return ROOT / "plugins" / variant / f"cardcli_{variant}" / "rulesets"


def project(path: Path) -> dict:
    return tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))["project"]


# ------------------------------------------------------ one source of truth
def test_each_shipped_ruleset_is_linked_from_its_variants_package():
    shipped = sorted(RULESETS.glob("*.toml"))
    assert len(shipped) >= len(BUILT_IN)
    for path in shipped:
        link = package_rulesets(variant_of(path)) / path.name
        assert link.is_symlink(), f"{link} should be a link to rulesets/{path.name}"
        assert link.resolve() == path.resolve()


def test_the_packages_carry_only_links_to_their_own_variants_rulesets():
    for variant in BUILT_IN:
        entries = sorted(package_rulesets(variant).iterdir())
        assert entries
        for entry in entries:
            assert entry.is_symlink(), f"{entry} is a copy: link to the file in rulesets/ instead"
            assert entry.resolve().parent == RULESETS.resolve(), entry
            assert variant_of(entry) == variant, entry


def test_shipped_rulesets_are_found_through_the_packages(monkeypatch):
    monkeypatch.delenv("CARDCLI_RULESETS", raising=False)
    registry = get_registry()
    assert RULESETS.resolve() not in {folder.resolve() for folder in search_dirs(registry)}
    found = shipped_rulesets(registry)
    assert {name for name, _path, _data in found} == {path.stem for path in RULESETS.glob("*.toml")}
    for _name, path, data in found:
        assert path.parent == Path(str(files(f"cardcli_{data['variant']}") / "rulesets"))


def test_the_core_ships_no_ruleset_of_its_own(monkeypatch):
    monkeypatch.delenv("CARDCLI_RULESETS", raising=False)
    monkeypatch.setenv("CARDCLI_LOAD_PLUGINS", "")
    assert shipped_rulesets(load_registry()) == []


# -------------------------------------------------------------- metadata
def test_the_version_is_written_once():
    core = project(ROOT)
    assert "version" not in core and "version" in core["dynamic"]
    assert metadata.version("cardcli") == cardcli.__version__


@pytest.mark.parametrize("variant", BUILT_IN)
def test_each_plugin_states_the_cardcli_releases_it_works_with(variant):
    requirements = [Requirement(text) for text in metadata.requires(f"cardcli-{variant}") or []]
    (core,) = [r for r in requirements if r.name == "cardcli"]
    assert cardcli.__version__ in core.specifier
    assert any(spec.operator in ("<", "~=", "==") for spec in core.specifier), \
        f"cardcli-{variant} should say the newest cardcli it works with: {core}"


def test_the_games_extra_installs_every_built_in_variant():
    wanted = {Requirement(text).name for text in metadata.requires("cardcli") or []
              if Requirement(text).marker is not None
              and Requirement(text).marker.evaluate({"extra": "games"})}
    providers = {entry.dist.name for entry in metadata.entry_points(group="cardcli.plugins")
                 if entry.name in BUILT_IN and entry.dist is not None}
    assert providers == {f"cardcli-{variant}" for variant in BUILT_IN}
    assert wanted == providers


def test_every_distribution_carries_the_mit_license():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted" in text
    for folder in (ROOT, *(ROOT / "plugins" / variant for variant in BUILT_IN)):
        declared = project(folder)
        assert declared["license"] == "MIT"
        assert declared["license-files"] == ["LICENSE"]
        assert (folder / "LICENSE").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("folder, package", [(ROOT, "cardcli"), *(
    (ROOT / "plugins" / variant, f"cardcli_{variant}") for variant in BUILT_IN)])
def test_every_data_file_of_a_package_ships_in_its_wheel(folder, package):
    """A file other than Python source ships only if package-data names it."""
    config = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    package_dir = folder / "src" / package if (folder / "src").is_dir() else folder / package
    patterns = config["package-data"][package]
    assert "py.typed" in patterns
    listed = {path for pattern in patterns for path in package_dir.glob(pattern)}
    data = {path for path in package_dir.rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts}
    missing = sorted(str(path.relative_to(folder)) for path in data - listed)
    assert not missing, f"{missing}: add to [tool.setuptools.package-data] in {folder}/pyproject.toml"
