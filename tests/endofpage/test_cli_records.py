"""End of the Page through the commands: a round played at the prompt, its
record validated and replayed, and hand-written broken records refused."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.testing import validate_bytes
from cardcli_endofpage.state import LAYOFF, MELD

from .conftest import WORKED, record

RULESET = 'name = "one line"\nvariant = "endofpage"\n\n[options]\npage_lines = 1\n'


def test_cli_round_records_validates_and_replays(tmp_path):
    ruleset = tmp_path / "one.toml"
    ruleset.write_text(RULESET)
    path = tmp_path / "game.jsonl"
    runner = CliRunner()
    # Always draw from the stock; try a bad meld and a lay-off first, then discard card 1.
    turn = "1\nm 1 2\nhelp\nlist\nd 1\n"
    result = runner.invoke(cli, ["play", "endofpage", "--players", "you,cpu:normal", "--seed", "3",
                                 "--record", str(path), "--ruleset", str(ruleset)], input=turn * 80)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "WILD:" in result.output and "Score sheet:" in result.output
    assert "Not a legal meld: a meld needs at least 3 cards." in result.output
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[-1]["result"]["rounds"]
    assert [x["chance"] for x in lines[1:4]] == ["deal", "deal", "turn_up"]
    assert "wild" in lines[2]
    valid = runner.invoke(cli, ["validate", str(path)])
    assert valid.exit_code == 0, valid.output
    replay = runner.invoke(cli, ["replay", str(path)], input="\n" * 400)
    assert replay.exit_code == 0, replay.output
    assert "Traceback" not in replay.output


def broken(index: int, **change) -> list:
    lines = [dict(x) for x in WORKED]
    lines[index] = {**lines[index], **change}
    return lines


def last_card_plays() -> list:
    """B draws 7C, which extends B's own run, and discards it to go out."""
    lines = broken(21, cards=["7C"])
    lines[22] = {**lines[22], "card": "7C"}
    return lines


@pytest.mark.parametrize("lines,line,message", [
    (broken(10, move="layoff", card="3S", meld=1, **{"as": "4"}), 11, "after your own first meld"),
    (last_card_plays(), 23, "must be played"),
    (broken(1, cards=["4S", "4H", "3D"]), 2, "means 4 cards"),
    (broken(2, wild="KC"), 3, "first non-ace"),
    (broken(6, cards=["4S", "4H", "9S"]), 7, "not a set (different ranks) and not a run"),
    (broken(6, cards=["4S", "4H", "9S=4"]), 7, "9S is not wild"),
    (broken(15, cards=["4C", "3H=7C", "6C"]), 16, "gap"),
    (broken(23, result={"scores": [105, 200]}), 24, "wrong result: scores"),
    (broken(23, result={"rounds": [[110, 210]]}), 24, "wrong result: rounds"),
    (broken(14, move="pickup", card="KC", meld=["KC", "3H=KC", "3S=KC"]), 15, "natural"),
    (broken(14, move="take", card="KC"), 15, "top discard is 6C"),
])
def test_broken_records_are_refused(lines, line, message):
    report = validate_bytes(record(lines))
    assert not report.valid
    assert report.error.line == line, str(report.error)
    assert message in str(report.error), str(report.error)


def test_everyone_gets_a_turn_in_a_record():
    # Seat 0 cannot simply stop the round: after B went out the record must end.
    lines = [dict(x) for x in WORKED]
    lines.insert(23, {"seat": 0, "move": "draw"})
    report = validate_bytes(record(lines))
    assert not report.valid and "already over" in str(report.error)


def test_validate_command_exit_status_for_a_broken_record(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(record(last_card_plays()))
    result = CliRunner().invoke(cli, ["validate", str(bad)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"{bad}:23:" in result.output and "must be played" in result.output


def _without_result(lines: list) -> list:
    return [line for line in lines if "result" not in line]


ILLEGAL = [
    # a discard of a card not held
    (broken(7, card="KH"), 8, "move 3, seat 0 discarded KH: KH is not in seat 0's hand"),
    # a meld with a card not held
    (broken(6, cards=["4S", "4D", "3D=4"]), 7,
     "move 2, seat 0 melded 4S 4D 3D=4: 4D is not in seat 0's hand"),
    # lay-offs on melds that are not on the table
    (broken(16, meld=99), 17,
     "move 10, seat 1 laid off 3S (as 4) on meld 99: there is no meld 99 on the table (2 meld(s))"),
    (broken(16, meld=-5), 17,
     "move 10, seat 1 laid off 3S (as 4) on meld -5: there is no meld -5 on the table (2 meld(s))"),
    # a last card that plays, discarded: the message names the rule, not the round it would end
    (last_card_plays(), 23, "move 14, seat 1 discarded 7C: your last card 7C plays (on meld 2): it must "
     "be played, not discarded to go out"),
]


@pytest.mark.parametrize("lines,line,message", ILLEGAL)
@pytest.mark.parametrize("command", ["validate", "replay", "resume"])
def test_an_illegal_move_gets_the_rule_message_everywhere(tmp_path, lines, line, message, command):
    """Describing an illegal move must not apply it (it used to: "internal
    error"), and names the move and the rule, never its effects."""
    path = tmp_path / "game.jsonl"
    path.write_bytes(record(_without_result(lines)))
    args = {"validate": ["validate", str(path)], "replay": ["replay", str(path), "--to", "40"],
            "resume": ["play", "--resume", str(path)]}[command]
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    assert f"{path}:{line}: {message}" in result.output
    assert "Round 1 is over" not in result.output and "went out" not in result.output


def test_describing_an_illegal_end_of_round_move_does_not_apply_it(variant):
    """The one-line description of a last-card discard that plays: the round
    it would end is not narrated, and the state is untouched."""
    from cardcli_endofpage.state import DISCARD

    from .conftest import cards, table

    state = table(hands=["7C", "5H 6H"], melds=[(0, "4C 5C 6C")], turns=4)
    before = state.clone()
    action = (DISCARD, cards("7C")[0])
    assert "Round 1 is over" not in variant.describe(state, action)  # an illegal move ends nothing
    assert variant.describe_attempt(state, action) == "discarded 7C"
    assert state.hands == before.hands and state.round == before.round


def test_the_drawn_card_is_spelt_cards_as_in_every_variant():
    """cardcli writes ``"cards": [...]`` for a chance draw in every variant,
    and still reads End of the Page's older ``"card"`` (version-1 records)."""
    from cardcli.testing import play_game

    _game, buffer = play_game("endofpage", players=2, seed=4, options={"page_lines": 1})
    draws = [json.loads(line) for line in buffer.getvalue().splitlines() if '"chance": "draw"' in line]
    assert draws and all(set(d) == {"chance", "seat", "cards"} and len(d["cards"]) == 1 for d in draws)
    older = [dict(x) for x in WORKED]
    for line in older:
        if line.get("chance") == "draw":
            line["card"] = line.pop("cards")[0]
    assert validate_bytes(record(older)).valid
    both = broken(5, card="7D")
    assert "not both" in str(validate_bytes(record(both)).error)
    two = broken(5, cards=["7D", "8D"])
    assert "the one card drawn" in str(validate_bytes(record(two)).error)


def test_replay_shows_a_rounds_end_as_play_does_with_the_scores_said_once(tmp_path):
    """The move that ends a round, then the round's summary (every hand and
    the scores), then the next deal's table, which keeps only the totals."""
    from cardcli.testing import play_game, record_lines

    _game, buffer = play_game("endofpage", players=2, seed=9, options={"page_lines": 2})
    path = tmp_path / "game.jsonl"
    path.write_text(buffer.getvalue())
    lines = record_lines(buffer)
    end = next(i for i, line in enumerate(lines) if "checkpoint" in line)
    move = sum(1 for line in lines[:end] if "move" in line)
    scores = lines[end]["scores"]
    for seat in (None, 0):
        args = ["replay", str(path), "--to", str(move), "--explain"] + ([] if seat is None else
                                                                         ["--seat", str(seat)])
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        out = result.output
        told = out[:out.index("Round 1 of 2 is over")]
        assert "Round 1 is over" in told and "it scores" not in told  # the line, without the scores
        assert "why: " in told  # the move's rule, before the summary
        summary = out[out.index("Round 1 of 2 is over"):out.index("Round 2 of 2 |")]
        assert "The table as the round ended:" in summary
        for seat_score in scores:
            assert f"= {seat_score:>4}" in summary
        assert out.count("Score sheet:") == 1  # in the summary; the next table keeps the totals
        assert "was dealt" in summary  # the next deal comes after the summary


def test_a_typo_is_told_what_it_is_not_refused_as_a_move(tmp_path):
    """A word that is no command, an empty answer, a card not held: said as
    what they are; "Not allowed" is for a move the rules refuse."""
    turn = "1\nxyz\n\nd qx\nm 1 2\nd 1\n"
    result = CliRunner().invoke(cli, ["play", "endofpage", "--players", "you,cpu:easy", "--seed", "3",
                                      "--record", str(tmp_path / "game.jsonl")], input=turn * 3)
    out = result.output
    assert "'xyz' is not a command (help for the list)." in out
    assert "Type a command (help for the list)." in out
    assert "Not a legal meld: a meld needs at least 3 cards." in out
    assert "Not allowed: 'xyz'" not in out and "Not allowed: type" not in out


def test_the_hint_says_which_moves_are_too_close_to_call(tmp_path):
    """A meld a point behind a discard is within the search's noise: the
    hint says so (a ± on every move after the first, "a near-tie" where the
    gap is within it), so the order of near-ties is not read as advice."""
    result = CliRunner().invoke(cli, ["play", "endofpage", "--players", "you,cpu:normal", "--seed", "4",
                                      "--record", str(tmp_path / "game.jsonl")], input="1\n?\n")
    out = result.output
    hint = out[out.index("Hint - "):out.index("(100 = sure first place")].splitlines()[1:]
    rated = [re.match(r"  (.+): (\d+\.\d)(?: ±(\d+\.\d))?(, a near-tie)?$", line) for line in hint
             if line.strip() and not line.startswith("  ... and")]
    assert all(rated) and len(rated) >= 5, hint
    first, *others = rated
    assert first.group(3) is None  # the first is what the others are measured against
    top = float(first.group(2))
    for line in others:
        value, noise, tie = float(line.group(2)), float(line.group(3)), bool(line.group(4))
        assert tie == (top - value <= noise + 0.05), line.group(0)  # (rounded to a tenth)
    assert any(line.group(4) for line in others)
    assert "(±: the search's noise in the gap to the first; a near-tie is within it)" in out


def test_list_shows_every_meld_and_lay_off_once_whichever_wild_plays_the_part(tmp_path):
    """``list`` names every meld and lay-off the rules allow (no "... and 17
    more"), and a move that another wild of the hand could make as well is
    one line naming that wild, not a line per wild."""
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.record_format import open_record
    from cardcli.records.reader import load_game
    from cardcli.words.view import move_view

    path = tmp_path / "game.jsonl"
    result = CliRunner().invoke(cli, ["play", "endofpage", "--players", "you,cpu:normal", "--seed", "19",
                                      "--record", str(path)], input="1\nlist\n")
    out = result.output
    listed = re.findall(r"^(?:.*> )?  ((?:meld|lay off) .*?)(?:  \(or with (.+)\))?$", out, re.M)
    assert listed and "more" not in out.split("list")[-1]
    with open_record(str(path)) as stream:
        game, _over = load_game(stream, str(path), get_registry())
    state = game.state
    wilds = [word for word in re.findall(r"\d+:(\S+)\*", out)]  # the hand's wilds, marked *
    assert len(wilds) >= 2
    labels = {move_view(game.variant, state, 0, action, game.names).label
              for action in state.legal_actions() if action[0] in (MELD, LAYOFF)}
    said = set()
    for label, others in listed:
        said.add(label)
        if not others:
            continue
        shown = next(wild for wild in wilds if f"{wild}=" in label or f"off {wild} as" in label)
        for other in others.split(", "):
            said.add(label.replace(f"{shown}=", f"{other}=").replace(f"off {shown} as", f"off {other} as"))
    assert said == labels
    assert len(listed) == len({label for label, _others in listed}) < len(labels)
    assert any(others for _label, others in listed)
