"""The conformance kit's own tools (golden records are made, kept and checked),
and the kit itself: each check fails for a toy variant with the bug it is for."""

from __future__ import annotations

import importlib
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import Phase, settings

from cardcli.cli import cli
from cardcli.contract.options import cached_config
from cardcli.contract.variant import Variant
from cardcli.engine.plugins import VariantInfo, get_registry
from cardcli.kit.cards import parse_card
from cardcli.kit.errors import CardcliError, IllegalMove
from cardcli.testing import VariantConformance, check_golden_record, make_golden_records
from cardcli.testing.golden import main


def test_golden_records_are_made_once_and_check_out(tmp_path):
    paths = make_golden_records("trick", tmp_path, games=3, seed=4)
    assert [p.name for p in paths] == ["trick-2p-seed4.jsonl", "trick-4p-seed5.jsonl", "trick-8p-seed6.jsonl"]
    for path in paths:
        stated = check_golden_record(path)
        assert stated == json.loads(path.read_text().splitlines()[-1])["result"]
    with pytest.raises(CardcliError, match="never overwritten"):
        make_golden_records("trick", tmp_path, games=1, seed=4)


@pytest.mark.parametrize("change", ["result", "move"])
def test_a_golden_record_that_no_longer_reads_fails(tmp_path, change):
    (path,) = make_golden_records("matching", tmp_path, games=1, seed=2, players=[3])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    if change == "result":
        lines[-1]["result"]["winner"] = (lines[-1]["result"]["winner"] + 1) % 3
        message = "no longer validates"
    else:
        index = next(i for i, line in enumerate(lines) if line.get("move") == "play")
        lines[index]["card"] = "JK"
        message = "no longer validates"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(AssertionError, match=message):
        check_golden_record(path)


def test_golden_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    made = main(["matching", "out", "--games", "2", "--players", "2", "--ruleset", "american"])
    printed = capsys.readouterr().out.split()
    assert made == 0
    assert printed == ["out/matching-2p-seed1-american.jsonl", "out/matching-2p-seed2-american.jsonl"]
    header = json.loads((tmp_path / printed[0]).read_text().splitlines()[0])
    assert header["rules"]["skip_rank"] == "A"
    assert main(["matching", "out", "--games", "1", "--players", "2", "--ruleset", "american"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "never overwritten" in error
    assert main(["nosuchgame", "out"]) == 1
    assert "unknown variant 'nosuchgame'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["gold"], ["golden", "nosuchgame", "out"]])
def test_golden_is_a_subcommand_of_python_m_cardcli_testing(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["python -m cardcli.testing", *argv])
    with pytest.raises(SystemExit) as done:
        runpy.run_module("cardcli.testing", run_name="__main__")
    error = capsys.readouterr().err
    if argv[:1] == ["golden"]:
        assert done.value.code == 1 and "unknown variant" in error
    else:
        assert done.value.code == 2 and "usage: python -m cardcli.testing golden" in error


SUITES = """
from pathlib import Path
from cardcli.testing import VariantConformance

class TestMatching(VariantConformance):
    variant = "matching"
    golden = Path({matching!r})

class TestMatchingMoreOptions(VariantConformance):
    variant = "matching"
    option_sets = ({{"stack_twos": False}},)

class TestTrickMoreOptions(VariantConformance):  # before the suite that has golden records
    variant = "trick"

class TestTrick(VariantConformance):
    variant = "trick"
    golden = Path({trick!r})

class TestTrickInherited(TestTrick):  # the same folder, inherited: checked there too
    games = 1

class TestEndOfPage(VariantConformance):  # a plugin author without golden records yet
    variant = "endofpage"

class TestEndOfPageMoreOptions(VariantConformance):
    variant = "endofpage"
    option_sets = ({{"page_lines": 1}},)
"""


def test_golden_records_are_checked_by_the_suites_that_have_them_and_missed_once(tmp_path):
    """Run by pytest as a plugin's tests are: the golden check belongs to the
    suites that set a folder; a variant without one is told how to make
    them in one skip, and its other suites say nothing."""
    golden = Path(__file__).parent / "golden"
    (tmp_path / "test_suites.py").write_text(SUITES.format(matching=str(golden / "matching"),
                                                           trick=str(golden / "trick")))
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-rs",
                           "-k", "golden", "test_suites.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = sorted(line.split()[0].split("::")[1] + " " + line.split()[1] for line in done.stdout.splitlines()
                 if "::test_golden_records_validate_and_replay " in line)
    assert ran == ["TestEndOfPage SKIPPED", "TestMatching PASSED", "TestTrick PASSED",
                   "TestTrickInherited PASSED"]
    assert ("no golden records for endofpage: make a few with python -m cardcli.testing golden endofpage "
            "tests/golden and set golden = that folder in one suite") in done.stdout
    assert "3 passed, 1 skipped" in done.stdout

# --------------------------------------------------------------------------
# The kit catches what it promises: toy variants, each with one bug the kit
# is meant to find, built on the game `cardcli new-variant` writes.

@pytest.fixture(scope="module")
def toy_game(tmp_path_factory):
    """The generated game's modules (state, variant), imported from a fresh copy."""
    folder = tmp_path_factory.mktemp("toy") / "cardcli-kittoy"
    result = CliRunner().invoke(cli, ["new-variant", "kittoy", str(folder)])
    assert result.exit_code == 0, result.output
    sys.path.insert(0, str(folder))
    try:
        state = importlib.import_module("cardcli_kittoy.state")
        variant = importlib.import_module("cardcli_kittoy.variant")
        yield state, variant
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.startswith("cardcli_kittoy")]:
            del sys.modules[name]


@pytest.fixture
def kit_for(monkeypatch):
    """A conformance suite run against a variant instance, registered for the
    test as if installed (record checks look variants up by name).  Shrinking
    is off: the failures are expected, their smallest example is not needed."""
    profile = settings._current_profile or "default"
    settings.register_profile("kit-meta", parent=settings.get_profile(profile),
                              phases=(Phase.explicit, Phase.reuse, Phase.generate))
    settings.load_profile("kit-meta")

    def make(variant: Variant) -> VariantConformance:
        monkeypatch.setitem(get_registry().variants, variant.name, VariantInfo(variant, "test", "(test)"))
        suite = type("KitUnderTest", (VariantConformance,), {"variant": variant.name, "player_counts": (2, 4),
                                                              "examples": 8, "positions": 8})
        return suite()

    yield make
    settings.load_profile(profile)


def broken_variant(toy_game, **methods: object) -> object:
    """The generated game with some methods of its state replaced."""
    state_module, variant_module = toy_game
    State = type("BrokenState", (state_module.KittoyState,), dict(methods))

    class Broken(variant_module.KittoyVariant):
        name = "broken"

        def new_state(self, rules, num_players, dealer):
            return State(cached_config(variant_module.Config, rules), num_players, dealer)

    return Broken()


def test_the_generated_game_passes_the_mid_game_checks(toy_game, kit_for):
    kit = kit_for(toy_game[1].KittoyVariant())
    kit.test_apply_rejects_what_legal_actions_omit()
    kit.test_property_illegal_action_leaves_state_unchanged()
    kit.test_determinized_positions_play_out()
    kit.test_hard_cpu_decides_from_random_positions()
    kit.test_property_decoding_broken_lines_raises_only_value_error()


def test_a_stale_index_after_a_redeal_passes_the_record_checks_and_fails_search(toy_game, kit_for):
    """The toy that passed every older kit check and crashed under cpu:hard:
    an index of who holds each card, kept up by the moves (and copied by
    clone), but not by set_zones when search deals the hidden hands anew."""
    base = toy_game[0].KittoyState

    def deal(self, hands):
        base._deal(self, hands)
        self.holder = {card: seat for seat, hand in enumerate(hands) for card in hand}

    def play(self, card):
        self.hands[self.holder.pop(card)].remove(card)  # the index says whose hand
        self.hands[self.turn].append(card)
        base._play(self, card)

    def clone(self):
        other = base.clone(self)
        other.holder = dict(getattr(self, "holder", {}))
        return other

    kit = kit_for(broken_variant(toy_game, _deal=deal, _play=play, clone=clone))
    kit.test_records_validate_and_replay_identically()
    kit.test_random_games_end_and_conserve_cards()
    kit.test_fast_path_matches_checked_path()
    kit.test_apply_rejects_what_legal_actions_omit()
    kit.test_property_illegal_action_leaves_state_unchanged()
    with pytest.raises(AssertionError, match=r"re-dealt for seat .* crashed \(ValueError"):
        kit.test_determinized_positions_play_out()


def test_a_check_that_accepts_any_card_in_hand_fails(toy_game, kit_for):
    def check(self, action):
        if action[0] == toy_game[0].PLAY and action[1] in self.hands[self.turn]:
            return
        toy_game[0].KittoyState.check(self, action)

    kit = kit_for(broken_variant(toy_game, check=check))
    with pytest.raises(AssertionError, match="which legal_actions omits"):
        kit.test_apply_rejects_what_legal_actions_omit()


def test_a_refusal_that_moves_the_turn_on_fails(toy_game, kit_for):
    def check(self, action):
        try:
            toy_game[0].KittoyState.check(self, action)
        except IllegalMove:
            if self.turn >= 0:
                self.turn = (self.turn + 1) % self.num_players
            raise

    kit = kit_for(broken_variant(toy_game, check=check))
    with pytest.raises(AssertionError, match="changed the state"):
        kit.test_property_illegal_action_leaves_state_unchanged()


def test_a_table_that_shows_every_hand_fails_the_privacy_check(toy_game, kit_for):
    class Leaky(toy_game[1].KittoyVariant):
        name = "leaky"

        def render(self, state, viewer=None, names=None):
            return super().render(state, None, names)

    with pytest.raises(AssertionError, match="depends on cards it cannot see"):
        kit_for(Leaky()).test_seat_messages_are_private()


def test_a_decoder_that_raises_key_error_fails_the_fuzzing(toy_game, kit_for):
    class Careless(toy_game[1].KittoyVariant):
        name = "careless"

        def decode_action(self, state, data):
            if data.get("move") == "play":
                return (toy_game[0].PLAY, parse_card(data["card"]))
            return super().decode_action(state, data)

    with pytest.raises(KeyError):
        kit_for(Careless()).test_property_decoding_broken_lines_raises_only_value_error()
