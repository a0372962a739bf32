"""A ruleset is checked whole: every mistake reported at once, a misspelt
option answered with the nearest name, the widest table it allows refused
when it cannot be dealt, and ``cardcli rules`` showing what is really allowed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.errors import RulesetError
from cardcli.testing import validate_bytes


def write(tmp_path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text)
    return str(path)


def refusal(tmp_path, text: str) -> RulesetError:
    path = write(tmp_path, text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, get_registry())
    return caught.value


def test_every_mistake_is_reported_at_once(tmp_path):
    error = refusal(tmp_path, 'variant = "matching"\n[options]\nhand_sise = 5\npage_one_penalty = 9\n'
                              'skip_rank = "Q"\n')
    assert error.problems == [
        "unknown option 'hand_sise' (did you mean 'hand_size'?)",
        "option 'page_one_penalty': got 9; allowed: a whole number from 0 to 5",
        "options 'skip_rank' and 'reverse_rank' are both 'Q': they must be two different ranks",
    ]
    text = str(error)
    assert text.startswith(f"{tmp_path / 'house.toml'}: 3 mistakes:\n  - unknown option 'hand_sise'")
    result = CliRunner().invoke(cli, ["rules", "--ruleset", str(tmp_path / "house.toml")])
    assert result.exit_code == 1
    assert all(problem in result.output for problem in error.problems)


def test_a_combination_with_a_wrong_option_is_not_reported_twice(tmp_path):
    # skip_rank = "8" is wrong in itself; its default (J) would then clash with
    # reverse_rank = "J", which is not the person's mistake.
    error = refusal(tmp_path, 'variant = "matching"\n[options]\nskip_rank = "8"\nreverse_rank = "J"\n')
    assert len(error.problems) == 1
    assert error.problems[0].startswith("option 'skip_rank': got '8'; allowed: a rank: \"3\"")
    assert str(error) == f"{tmp_path / 'house.toml'}: {error.problems[0]}"


@pytest.mark.parametrize(("name", "suggestion"), [
    ("hand_sise", "hand_size"), ("reshufles", "reshuffles"), ("jokers_last", "joker_last"),
    ("Hand_Size", "hand_size"),
])
def test_a_misspelt_option_gets_the_nearest_name(tmp_path, name, suggestion):
    variant = "trick" if "joker" in name or "reshuf" in name else "matching"
    error = refusal(tmp_path, f'variant = "{variant}"\n[options]\n{name} = 5\n')
    assert f"unknown option {name!r} (did you mean {suggestion!r}?)" in str(error)


def test_an_option_far_from_any_name_lists_them_all(tmp_path):
    error = refusal(tmp_path, 'variant = "trick"\n[options]\ncolour = "red"\n')
    assert "unknown option 'colour' (options: deals, decks, hand_size," in str(error)


@pytest.mark.parametrize(("text", "message"), [
    ('variant = "trick"\n[options]\nmax_players = 8\nhand_size = 7\n',
     "8 players (the widest table, option 'max_players') x 7 cards do not fit one deck"),
    ('variant = "matching"\n[options]\nhand_size = 10\n',
     "6 players (the widest table, option 'max_players') x 10 cards do not fit one deck"),
    ('variant = "endofpage"\n[options]\ndecks = 1\n',
     "option 'decks' is 1, but 'max_players' is 6: four or more players need two decks"),
])
def test_a_ruleset_whose_widest_table_cannot_be_dealt_is_refused_when_loaded(tmp_path, text, message):
    """Refused however few players sit down now (docs/variants/*.md)."""
    path = write(tmp_path, text)
    variant = text.split('"')[1]
    result = CliRunner().invoke(cli, ["simulate", variant, "--ruleset", path, "--players", "2", "-n", "1"])
    assert result.exit_code == 1, result.output
    assert message in result.output
    narrower = {"trick": text.replace("max_players = 8", "max_players = 7"),
                "matching": text + "max_players = 5\n", "endofpage": text + "max_players = 3\n"}[variant]
    assert load_ruleset(write(tmp_path, narrower), get_registry()).variant == variant


def test_a_record_header_is_checked_for_its_own_table():
    """A hand-written header need not narrow max_players: the record's table is what counts."""
    header = {"format": "cardcli-record", "version": 1, "variant": "matching", "rules": {"hand_size": 10},
              "players": ["ann", "bob"], "dealer": 0}
    report = validate_bytes((json.dumps(header) + "\n").encode())
    assert report.error is not None and "legal so far; unfinished after move 0" in str(report.error)
    header["rules"] = {"hand_sise": 10, "rounds": 0}
    report = validate_bytes((json.dumps(header) + "\n").encode())
    assert str(report.error).endswith(
        "bad header: rules: unknown option 'hand_sise' (did you mean 'hand_size'?); option 'rounds': "
        "got 0; allowed: a whole number from 1 to 99")


def test_rules_shows_what_is_really_allowed():
    result = CliRunner().invoke(cli, ["rules", "matching"])
    assert result.exit_code == 0
    for line in result.output.splitlines():
        if line.lstrip().startswith(("skip_rank", "reverse_rank")):
            assert '"7", "9"' in line and '"8"' not in line and '"2"' not in line
    assert "Between options:\n  - skip_rank and reverse_rank are two different ranks\n" in result.output
    assert "may be 3 while draw_three is on" in result.output
    assert "min_players is at most max_players" in result.output
    data = json.loads(CliRunner().invoke(cli, ["rules", "matching", "--json"]).output)
    assert data["constraints"][0] == "skip_rank and reverse_rank are two different ranks"


def test_rules_says_how_to_write_none():
    result = CliRunner().invoke(cli, ["rules", "trick"])
    assert 'reshuffles' in result.output and 'or "none"' in result.output
    assert '"none": write "none" in a ruleset (TOML has no null); a record header may write null or ' \
           '"none".' in " ".join(result.output.split())
    assert '"none"' not in CliRunner().invoke(cli, ["rules", "matching"]).output


@pytest.mark.parametrize("value", ["none", "None", "NONE", None])
def test_none_is_read_as_documented(value):
    from cardcli.contract.options import resolve

    options = get_registry().get("trick").options
    assert resolve(options, {"reshuffles": value}, source="x")["reshuffles"] is None
