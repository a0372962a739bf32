"""Plugin discovery: entry points load one by one, and a broken plugin costs
one line on stderr while every other variant keeps working."""

from __future__ import annotations

import sys
import types
from importlib import metadata

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.contract import hookspecs
from cardcli.contract.hookspecs import hookimpl
from cardcli.engine import plugins


def fake_module(name: str, **attributes) -> str:
    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    sys.modules[name] = module
    return name


@pytest.fixture
def extra_entry_points(monkeypatch):
    """Add fake entry points beside the real ones, and reload the registry."""
    added: list[metadata.EntryPoint] = []
    real = plugins._entry_points

    def entry_points():
        return real() + added

    monkeypatch.setattr(plugins, "_entry_points", entry_points)
    plugins.reset_registry()
    yield added
    plugins.reset_registry()


def test_builtin_variant_comes_through_the_entry_point_group():
    names = {ep.name for ep in metadata.entry_points(group=plugins.ENTRY_POINT_GROUP)}
    assert "matching" in names
    info = plugins.load_registry(warn=lambda m: None).variants["matching"]
    assert info.package == "cardcli-matching"


@pytest.mark.parametrize("breakage", ["import", "hook_raises", "not_a_variant", "duplicate", "bad_dir",
                                      "misspelt_hook", "unmarked_hook", "wrong_argument"])
def test_a_broken_plugin_is_one_line_and_the_rest_works(extra_entry_points, breakage, tmp_path):
    if breakage == "import":
        value = "cardcli_no_such_module_anywhere"
    elif breakage == "hook_raises":
        @hookimpl
        def cardcli_register_variants(register):
            raise RuntimeError("boom")
        value = fake_module("fake_raises", cardcli_register_variants=cardcli_register_variants)
    elif breakage == "not_a_variant":
        @hookimpl
        def cardcli_register_variants(register):
            register("a string")
        value = fake_module("fake_string", cardcli_register_variants=cardcli_register_variants)
    elif breakage == "duplicate":
        from cardcli_matching import MatchingVariant

        @hookimpl
        def cardcli_register_variants(register):
            register(MatchingVariant())
        value = fake_module("fake_dup", cardcli_register_variants=cardcli_register_variants)
    elif breakage == "misspelt_hook":
        @hookimpl
        def cardcli_register_variant(register):
            raise AssertionError("a hook without a spec is never called")
        value = fake_module("fake_misspelt", cardcli_register_variant=cardcli_register_variant)
    elif breakage == "unmarked_hook":
        def cardcli_register_variants(register):
            raise AssertionError("pluggy ignores a function without the marker")
        value = fake_module("fake_unmarked", cardcli_register_variants=cardcli_register_variants)
    elif breakage == "wrong_argument":
        @hookimpl
        def cardcli_register_variants(registr):
            raise AssertionError("never called")
        value = fake_module("fake_argument", cardcli_register_variants=cardcli_register_variants)
    else:
        @hookimpl
        def cardcli_register_rulesets(register):
            register(tmp_path / "missing")
        value = fake_module("fake_dir", cardcli_register_rulesets=cardcli_register_rulesets)
    extra_entry_points.append(metadata.EntryPoint("broken", value, plugins.ENTRY_POINT_GROUP))
    result = CliRunner().invoke(cli, ["variants"])
    assert result.exit_code == 0
    assert "matching" in result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("cardcli: plugin 'broken'")]
    assert len(warnings) == 1, result.output
    assert "Traceback" not in result.output
    expected = {"misspelt_hook": "unknown hook 'cardcli_register_variant' (did you mean "
                                 "'cardcli_register_variants'?)",
                "unmarked_hook": "cardcli_register_variants is not marked with "
                                 "@cardcli.contract.hookspecs.hookimpl",
                "wrong_argument": "registr"}
    assert expected.get(breakage, "") in warnings[0]


def test_trace_prints_each_hook_call_and_what_it_registered(monkeypatch, capsys):
    monkeypatch.setenv("CARDCLI_TRACE_PLUGINS", "1")
    monkeypatch.setenv("CARDCLI_LOAD_PLUGINS", "matching")
    plugins.load_registry()
    lines = capsys.readouterr().err.splitlines()
    assert any(line.startswith("cardcli trace: plugin 'matching' (cardcli-matching) imported "
                               "cardcli_matching.plugin in ") for line in lines), lines
    assert ("cardcli trace: plugin 'matching' (cardcli-matching) cardcli_register_variants(register) "
            "registered variant 'matching' (MatchingVariant)") in lines
    assert any("'trick'" in line and "skipped" in line for line in lines), lines


def test_no_trace_unless_asked(monkeypatch, capsys):
    monkeypatch.delenv("CARDCLI_TRACE_PLUGINS", raising=False)
    plugins.load_registry()
    assert "cardcli trace" not in capsys.readouterr().err
    monkeypatch.setenv("CARDCLI_TRACE_PLUGINS", "0")
    plugins.load_registry()
    assert "cardcli trace" not in capsys.readouterr().err


def test_a_third_party_variant_registers_like_a_builtin(extra_entry_points):
    from cardcli_matching import MatchingVariant

    class Mini(MatchingVariant):
        name = "mini"
        title = "Mini"

    @hookimpl
    def cardcli_register_variants(register):
        register(Mini())

    value = fake_module("fake_mini", cardcli_register_variants=cardcli_register_variants)
    extra_entry_points.append(metadata.EntryPoint("mini", value, plugins.ENTRY_POINT_GROUP))
    result = CliRunner().invoke(cli, ["simulate", "mini", "-n", "5", "-w", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "5 games of mini" in result.output


def test_load_plugins_environment_variable(monkeypatch):
    monkeypatch.setenv("CARDCLI_LOAD_PLUGINS", "")
    assert plugins.load_registry(warn=lambda m: None).variants == {}
    monkeypatch.setenv("CARDCLI_LOAD_PLUGINS", "matching")
    assert set(plugins.load_registry(warn=lambda m: None).variants) == {"matching"}


def test_every_hook_is_documented():
    import inspect
    from pathlib import Path

    docs = (Path(__file__).parents[1] / "docs" / "plugins.md").read_text()
    for name, hook in inspect.getmembers(hookspecs, inspect.isfunction):
        if name.startswith("cardcli_"):
            assert hook.__doc__, f"{name} has no docstring"
            assert name in docs, f"{name} is not in docs/plugins.md"
