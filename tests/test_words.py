"""The words a new player reads: no stale note on a finished table, "you"
in the second person, one seat's view named as such, a round's end that
can be checked against the table, examples that fit the game, one short
message for many unknown options, a fact said once, one way of writing
numbers, and no prompt for a move the rules already decided."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.cpu.players import levels_of, make_cpu
from cardcli.engine.driver import Driver
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import parse_card
from cardcli.kit.errors import CardError
from cardcli.kit.rand import seeded
from cardcli_endofpage.dialogue import parse_command
from cardcli_endofpage.state import DISCARD
from cardcli_matching.state import PLAY
from tests.endofpage.conftest import table
from tests.matching.conftest import Table

ROOT = Path(__file__).resolve().parents[1]


def run(*args: object, input: str | None = None, env: dict[str, str] | None = None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output
    return result


def words(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------ matching
def test_a_finished_matching_game_shows_no_pending_penalty():
    """Seed 185 ends on a 2 played on a 2: the penalty had grown to 4, but
    nobody will ever draw it, so the final table does not say it."""
    variant = get_registry().get("matching")
    rules = dict(default_ruleset(variant).options)
    driver = Driver(variant.new_state(rules, 2, 1), [make_cpu(variant, "easy", 185, s) for s in range(2)],
                    rng=seeded(185))
    driver.run()
    state = driver.state
    assert state.is_terminal() and state.penalty == 4  # the position the table must not misreport
    for viewer in (None, 0, 1):
        assert "Penalty pending" not in variant.render(state, viewer=viewer, names=["ann", "bob"])
    # A penalty still to be answered is said.
    t = Table(["2H 5C", "2S 9D"], "9H")
    t.play("2H", call=True)
    assert "Penalty pending: draw 2 (answer with a 2 or take it)" in t.variant.render(t.state, viewer=1)


def test_an_eight_without_a_suit_says_how_a_record_names_it():
    t = Table(["8C 4C 5C", "5D 6C 7D"], "9H")
    assert 'an 8 must name a suit: the move says it, e.g. "suit": "H"' in str(
        t.illegal((PLAY, parse_card("8C"), -1, False)))


# ------------------------------------------------------------ you
def test_a_seat_watched_in_replay_is_you_and_the_player_called_you_is_quoted(tmp_path):
    record = tmp_path / "g.jsonl"
    played = run("play", "matching", "--players", "you,cpu", "--seed", "3", "--record", record,
                 input="1\n" * 400)
    assert played.exit_code == 0, played.output[-800:]
    steps = "\n" * 30 + "q\n"
    shown = run("replay", record, "--seat", "1", input=steps, env={"COLUMNS": "200"}).output
    assert "--- After move 12 of" in shown and ", as seat 1 (cpu1) saw it ---" in shown
    told = [line.strip() for line in shown.splitlines() if line.startswith("  ")]
    assert any(line.startswith("'you' ") for line in told), shown
    assert not any(line.startswith("you ") for line in told), "'you' would be two seats at once"
    assert re.search(r"^ > 1 cpu1 +\d+ cards  \S", shown, re.MULTILINE)  # seat 1's own cards
    # From the seat of the player called "you", "you" is theirs.
    own = run("replay", record, "--seat", "0", input=steps, env={"COLUMNS": "200"}).output
    assert "'you'" not in own and any(line.startswith("  you ") for line in own.splitlines())


# ------------------------------------------------------------ End of the Page
def test_the_round_summary_keeps_the_lay_offs():
    variant = get_registry().get("endofpage")
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH AS")], page_lines=2)
    state.layoffs.append((0, 1, parse_card("AS"), None))  # bob laid off AS on ann's aces
    summary = variant.round_summary(state, (DISCARD, parse_card("9D")), ["ann", "bob"])
    assert "  1. ann: AS AH AD AC  [set of aces]  (laid off: AS by bob)" in summary.splitlines()


def test_a_card_written_with_its_meaning_is_read_as_a_record_writes_it():
    state = table(hands=["10S 5D 6D", "QH QD QS"], turn=0, melds=[(0, "5C 6C 7C"), (1, "4S 4H 4D")])
    with pytest.raises(ValueError) as refused:
        parse_command(state, 0, "l 10s=5c 1")  # 10S is no wild here: the rule, not the notation
    assert str(refused.value) == "10S cannot be laid off on meld 1: a run of clubs takes only clubs"
    for typo in ("q", "1x", "10s=5c"):
        with pytest.raises(CardError) as caught:
            parse_card(typo)
        assert "JK" not in str(caught.value)  # only some games have jokers
        assert "e.g. 7H, 10S or QD" in str(caught.value)


# ------------------------------------------------------------ records
def test_a_record_of_another_variant_names_its_first_unknown_option_once(tmp_path):
    lines = (ROOT / "tests" / "golden" / "matching" / "matching-4p-seed2.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["variant"] = "trick"
    relabelled = tmp_path / "relabelled.jsonl"
    relabelled.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = run("validate", relabelled)
    assert result.exit_code == 1
    message = result.output.strip()
    unknown = sorted(set(header["rules"]) - set(json.loads(run("rules", "trick", "--json").output)
                                                 ["options"]))
    assert len(unknown) > 2
    assert message.count("unknown option") == 1 and message.count("(options: ") == 1
    assert f"and {len(unknown) - 1} more" in message
    assert len(message) < 600, message


# ------------------------------------------------------------ trick
def test_a_forced_move_is_made_and_shown_or_confirmed_when_asked(tmp_path):
    """Seed 4: the player cannot follow diamonds twice.  By default the draw
    and the drawn card that follows are made for them, told in one line; with
    --confirm-forced each is a prompt of one choice.  The games are the same."""
    made, asked = tmp_path / "made.jsonl", tmp_path / "asked.jsonl"
    args = ["play", "trick", "--players", "you,cpu:easy,cpu:easy", "--seed", "4"]
    default = run(*args, "--record", made, input="1\n" * 400, env={"COLUMNS": "200"})
    confirmed = run(*args, "--record", asked, "--confirm-forced", input="1\n" * 400, env={"COLUMNS": "200"})
    assert default.exit_code == 0 and confirmed.exit_code == 0, default.output[-500:]
    assert "  you could not follow diamonds: drew 3D, played 3D; the trick goes to cpu1" in default.output
    assert "drew 8S 4C 3S AS JD, played JD" in default.output  # five cards drawn: one line
    prompts = default.output.count("Your move (")
    assert confirmed.output.count("Your move (") == prompts + 5
    # (the menu comes under the table, which shows the hand)
    menus = re.findall(r"it is your turn\..*\n(?:\S.*\n)?((?:  \[.*\n)+)Your move", confirmed.output)
    assert "  [1] play 3D\n" in menus and "  [1] draw from the stock\n" in menus
    default_menus = re.findall(r"it is your turn\..*\n(?:\S.*\n)?((?:  \[.*\n)+)Your move", default.output)
    assert default_menus and all("[1]" in menu and "[2]" in menu for menu in default_menus)
    # The fact is said once: the table names the drawn card, no line repeats it.
    assert confirmed.output.count("Drawn card 3D must be played") == 1
    assert "it must be played now" not in confirmed.output
    moves = [[line for line in path.read_text().splitlines()[1:]] for path in (made, asked)]
    assert moves[0] == moves[1]


# ------------------------------------------------------------ numbers
def test_numbers_are_written_one_way():
    out = run("simulate", "matching", "-n", "1200", "--seed", "1", "-w", "1", "--cpu", "easy").output
    assert "1,200 games of matching" in out
    body = re.sub(r"seed \d+", "", out)
    assert not re.search(r"(?<![\d.,])\d{4,}(?![\d.])", body), out  # no 1200 beside 1,200
    assert re.search(r"\d{1,3}(,\d{3})+ decisions \(\d{1,3}(,\d{3})*/s\)", words(out))


def test_the_records_doc_lists_every_cpu_strength():
    text = (ROOT / "docs" / "records.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `players` |"))
    for name, entry in get_registry().variants.items():
        if name in ("matching", "trick", "endofpage"):
            for level in levels_of(entry.variant):
                assert f'"cpu:{level}"' in row, (name, level)


def test_help_names_the_strengths_and_the_seat_option():
    simulate = words(run("simulate", "--help", env={"COLUMNS": "80"}).output)
    assert "--cpu LEVEL CPU strength when --players is a number: easy, normal or hard" in simulate
    replay = words(run("replay", "--help", env={"COLUMNS": "80"}).output)
    assert "--seat N Show only what seat N could see (seats count from 0" in replay


def test_a_round_summarys_rows_line_up_with_a_japanese_name():
    """Padding counts columns on the screen, not characters: あなた takes six."""
    from cardcli.kit.fit import visible_width
    from cardcli.words.narration import seat_rows

    rows = seat_rows(["あなた", "cpu1", "ann"], 3, lambda seat, name: f"{name}|{seat}")
    assert [visible_width(row.split("|")[0]) for row in rows] == [8, 8, 8], rows
    assert rows[1] == "  cpu1  |1" and rows[2] == "  ann   |2"
