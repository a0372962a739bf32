"""Rulesets: shipped ones load, and every kind of bad one is refused with the
file, the key and what is allowed."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.contract.options import Option, changed_options
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset, shipped_rulesets
from cardcli.kit.errors import RulesetError


def test_every_shipped_ruleset_loads():
    shipped = shipped_rulesets(get_registry())
    assert {"matching-standard", "matching-plain", "matching-no-stacking", "matching-american"} <= {
        name for name, _, _ in shipped}
    for _name, path, data in shipped:
        if data["variant"] in get_registry().variants:
            assert load_ruleset(str(path), get_registry()).variant == data["variant"]


def test_shipped_rulesets_say_what_they_promise():
    reg = get_registry()
    assert load_ruleset("matching-standard", reg).options == load_ruleset("matching-standard", reg).options
    plain = load_ruleset("plain", reg, "matching").options
    assert not any(plain[k] for k in ("draw_two", "wild_eight", "skip", "reverse", "draw_three"))
    assert load_ruleset("no-stacking", reg, "matching").options["stack_twos"] is False
    american = load_ruleset("american", reg, "matching").options
    assert (american["skip_rank"], american["reverse_rank"], american["draw_three"],
            american["page_one_penalty"], american["rank_all_places"], american["rounds"]) == (
        "A", "9", True, 5, True, 5)


def write(tmp_path, text):
    path = tmp_path / "house.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(("text", "message"), [
    ('variant = "matching"\n[options]\nhand_sise = 5\n', "unknown option 'hand_sise'"),
    ('variant = "matching"\n[options]\nhand_size = "five"\n', "option 'hand_size': got 'five'; allowed: "
     "a whole number from 1 to 10"),
    ('variant = "matching"\n[options]\nhand_size = 11\n', "a whole number from 1 to 10"),
    ('variant = "matching"\n[options]\nstack_twos = 1\n',
     "option 'stack_twos': got 1; allowed: true or false"),
    ('variant = "matching"\n[options]\nfirst_special = "burn"\n', 'one of "reflip", "apply"'),
    ('variant = "matching"\n[options]\nskip_rank = "Z"\n', "option 'skip_rank': got 'Z'; allowed: a rank"),
    ('variant = "matching"\n[options]\nskip_rank = "Q"\n', "two different ranks"),
    ('variant = "matching"\n[options]\nmin_players = 5\nmax_players = 3\n', "more than 'max_players'"),
    ('[options]\nhand_size = 5\n', "key 'variant' is missing"),
    ('variant = "matching"\ncolour = "red"\n', "unknown key 'colour' at the top level"),
    ('variant = "matching"\noptions = 3\n', "'options' must be a table"),
    ('variant = "matching"\n[options\n', "not valid TOML"),
    ('variant = "chess"\n', "unknown variant 'chess'"),
])
def test_bad_rulesets_are_refused(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, get_registry())
    assert message in str(caught.value)
    if "unknown variant" not in message:
        assert str(caught.value).startswith(path)
    result = CliRunner().invoke(cli, ["play", "matching", "--ruleset", path])
    assert result.exit_code == 1
    expected = "this ruleset is for 'chess', not 'matching'" if "chess" in message else message
    assert expected in result.output and "Traceback" not in result.output


def test_a_ruleset_for_another_variant_is_refused(tmp_path):
    path = write(tmp_path, 'variant = "trick"\n')
    with pytest.raises(RulesetError, match="this ruleset is for 'trick', not 'matching'"):
        load_ruleset(path, get_registry(), "matching")


def test_unknown_ruleset_name_lists_the_shipped_ones():
    result = CliRunner().invoke(cli, ["simulate", "matching", "--ruleset", "nonesuch"])
    assert result.exit_code == 1
    assert "no ruleset called 'nonesuch' for matching" in result.output
    assert "matching-american" in result.output


def test_an_unknown_ruleset_for_a_chosen_variant_lists_only_that_variants():
    result = CliRunner().invoke(cli, ["arena", "trick", "--ruleset", "nonesuch", "--players",
                                      "cpu:normal,cpu:easy", "--games", "2"])
    assert result.exit_code == 1
    listed = result.output.partition("shipped: ")[2]
    assert "trick-best-of-five" in listed and "matching" not in listed and "endofpage" not in listed
    everything = CliRunner().invoke(cli, ["rules", "--ruleset", "nonesuch"]).output
    assert "trick-best-of-five" in everything and "matching-american" in everything


@pytest.mark.parametrize(("args", "meant"), [
    (["rules", "--ruleset", "amercan"], "american"),
    (["play", "trick", "--ruleset", "five-card"], "five-cards"),
    (["simulate", "matching", "--ruleset", "matching-standrd"], "matching-standard"),
])
def test_a_misspelt_ruleset_name_gets_the_nearest_one(args, meant):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert f"(did you mean {meant!r}? shipped: " in result.output
    assert "did you mean" not in CliRunner().invoke(cli, ["rules", "--ruleset", "zzz"]).output


def test_a_ruleset_that_does_not_fit_the_table(tmp_path):
    path = write(tmp_path, 'variant = "matching"\n[options]\nhand_size = 10\n')
    result = CliRunner().invoke(cli, ["simulate", "matching", "--ruleset", path, "--players", "6"])
    assert result.exit_code == 1 and "do not fit one deck" in result.output


def test_rulesets_folder_from_environment(tmp_path, monkeypatch):
    (tmp_path / "mine.toml").write_text('name = "Mine"\nvariant = "matching"\n[options]\nhand_size = 3\n')
    monkeypatch.setenv("CARDCLI_RULESETS", str(tmp_path))
    assert load_ruleset("mine", get_registry()).options["hand_size"] == 3


def test_changed_options_are_those_away_from_their_defaults_in_the_options_order():
    options = (Option("hand_size", 7, "cards each", "int", 1, 10),
               Option("skip_rank", "J", "the rank that skips", "rank", 3, 14),
               Option("wild_eight", True, "8s are wild", "bool"))
    rules = {"wild_eight": False, "hand_size": 7, "skip_rank": "A"}
    assert changed_options(rules, options) == {"skip_rank": "A", "wild_eight": False}
    assert list(changed_options(rules, options)) == ["skip_rank", "wild_eight"]
    assert changed_options({}, options) == {}


# ------------------------------------------------- a ruleset's own language
def cardcli_in(language_code, *args, cwd=None):
    """``cardcli --lang LANGUAGE_CODE ARGS`` in a real process (the language is chosen once a run)."""
    import os
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items()
           if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "CARDCLI_LANG")}
    env.update(COLUMNS="80", LINES="24", PAGER="cat")
    result = subprocess.run([sys.executable, "-c", "from cardcli.cli import main; main()", "--lang",
                             language_code, *args], capture_output=True, text=True, env=env, timeout=120,
                            input="q\n", cwd=cwd)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def flat(text):
    """``text`` without its line breaks and spaces (a Japanese line wraps between characters)."""
    return "".join(text.split())


def test_a_shipped_ruleset_speaks_japanese():
    result = cardcli_in("ja", "rules", "--ruleset", "matching-japanese")
    assert result.returncode == 0, result.stderr
    assert "ルールセット: アメリカンページワン(日本式)" in result.stdout
    assert flat("手札は各5枚。Aでスキップ、9でリバース") in flat(result.stdout)
    assert "Japanese table" not in result.stdout and "Five cards each" not in result.stdout
    listed = cardcli_in("ja", "rules", "matching").stdout
    assert re.search(r"^  matching-plain +役札なし$", listed, re.M), listed
    # --json is an interface: the name as the file writes it.
    assert '"ruleset": "American Page One (Japanese table)"' in cardcli_in(
        "ja", "rules", "--ruleset", "matching-japanese", "--json").stdout


def test_every_shipped_rulesets_name_and_description_has_japanese():
    from cardcli.engine.rulesets import ruleset_text
    from cardcli.kit.language import speaking

    reg = get_registry()
    with speaking("ja"):
        for name, _path, data in shipped_rulesets(reg):
            variant = reg.get(data["variant"])
            for key in ("name", "description"):
                assert ruleset_text(variant, data[key]) != data[key], (name, key)
    with speaking("en"):
        assert ruleset_text(variant, data["name"]) == data["name"]  # English: as written


def test_the_play_heading_names_a_shipped_ruleset_in_japanese_and_the_record_as_written(tmp_path):
    import json

    record = tmp_path / "game.jsonl"
    result = cardcli_in("ja", "play", "matching", "--ruleset", "japanese", "--seed", "3", "--players",
                        "you,cpu:easy", "--record", str(record))
    assert "アメリカンページワン(日本式): 手札5枚" in result.stdout, result.stdout
    assert "American Page One" not in result.stdout and "Japanese table" not in result.stdout
    header = json.loads(record.read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == "American Page One (Japanese table)"


def test_a_users_ruleset_is_shown_as_written_in_japanese(tmp_path):
    path = write(tmp_path, 'name = "Our kitchen table"\nvariant = "matching"\n'
                           'description = "Twos never stack at our house."\n[options]\nstack_twos = false\n')
    result = cardcli_in("ja", "rules", "--ruleset", path)
    assert result.returncode == 0, result.stderr
    assert "ルールセット: Our kitchen table" in result.stdout
    assert "Twos never stack at our house." in result.stdout
    played = cardcli_in("ja", "play", "matching", "--ruleset", path, "--seed", "3", "--players",
                        "you,cpu:easy", "--record", str(tmp_path / "game.jsonl"))
    assert "Our kitchen table: " in played.stdout, played.stdout
