"""Hand-written matching records: a valid one, and each way of breaking it,
rejected through the real ``cardcli validate`` with the right message."""

from __future__ import annotations

import json

import pytest

from cardcli.testing import play_game, record_lines, validate_command, write_record

HEADER = {"format": "cardcli-record", "version": 1, "variant": "matching", "rules": {"hand_size": 2},
          "players": ["ann", "bob"], "dealer": 1}
GAME = [
    HEADER,
    {"chance": "deal", "hands": [["9H", "9S"], ["KH", "4C"]]},
    {"chance": "turn_up", "card": "7S"},
    {"seat": 0, "move": "play", "card": "9S", "call": True},
    {"seat": 1, "move": "draw"},
    {"chance": "draw", "seat": 1, "cards": ["9D"]},
    {"seat": 1, "move": "play", "card": "9D"},
    {"seat": 0, "move": "play", "card": "9H"},
    {"result": {"places": [1, 2], "winner": 0}},
]


def write(tmp_path, lines, name="game.jsonl"):
    return write_record(tmp_path / name, lines)


def replace(index, line):
    return [*GAME[:index], line, *GAME[index + 1:]]


def test_hand_written_record_is_valid(tmp_path):
    result = validate_command(write(tmp_path, GAME))
    assert result.exit_code == 0, result.output
    assert "valid (every card known): matching game, 4 moves, ann won" in result.output


def test_json_report(tmp_path):
    result = validate_command("--json", write(tmp_path, GAME))
    record, summary = map(json.loads, result.output.splitlines())
    assert record["valid"] is True
    assert record["moves"] == 4
    assert record["result"]["winner"] == 0
    assert summary == {"summary": {"records": 1, "valid": 1, "unfinished": 0, "invalid": 0,
                                   "all_valid": True}}


def test_stdin(tmp_path):
    text = write(tmp_path, GAME).read_text()
    result = validate_command("-", input=text)
    assert result.exit_code == 0 and "<stdin>: valid" in result.output


@pytest.mark.parametrize(("lines", "message"), [
    # an illegal card
    (replace(3, {"seat": 0, "move": "play", "card": "9H", "call": True}),
     "game.jsonl:4: move 1, seat 0 called \"Page One!\" and played 9H on 7S: no rank or suit match "
     "(could play 9S)"),
    # the wrong player
    (replace(4, {"seat": 0, "move": "draw"}),
     "game.jsonl:5: move 2: seat 0 moved, but it is seat 1's turn (wrong player)"),
    # a forgotten Page One call with no penalty drawn
    (replace(3, {"seat": 0, "move": "play", "card": "9S"}),
     "game.jsonl:5: move 2: expected seat 0 to draw the forgotten Page One penalty (2 cards), "
     "but the record has a move by seat 1"),
    # a card drawn that was not in the stock (9S is on the discard pile)
    (replace(5, {"chance": "draw", "seat": 1, "cards": ["9S"]}),
     "game.jsonl:6: after move 2, seat 1 drew 9S: 9S is not in the stock"),
    # a card that is not in the player's hand
    (replace(6, {"seat": 1, "move": "play", "card": "5D"}),
     "game.jsonl:7: move 3, seat 1 played 5D on 9S: after a draw only the drawn card (9D) may be played"),
    # a duplicated card in the deal
    (replace(1, {"chance": "deal", "hands": [["9H", "9S"], ["9H", "4C"]]}),
     "game.jsonl:2: after move 0, dealt 2 cards each (dealer: seat 1): 9H is dealt more often than "
     "the pack holds it (1)"),
    # a hand of the wrong size in the deal
    (replace(1, {"chance": "deal", "hands": [["9H", "9S"], ["KH", "4C", "5C"]]}),
     "seat 1 was dealt 3 cards, not 2"),
    # the wrong result
    (replace(8, {"result": {"places": [2, 1], "winner": 1}}),
     "game.jsonl:9: wrong result: places is [1, 2] by the rules, the record says [2, 1]"),
    # bad JSON
    (replace(3, '{"seat": 0, "move": "play", "card": "9S",'),
     "game.jsonl:4: not valid JSON"),
    # a bad card name
    (replace(3, {"seat": 0, "move": "play", "card": "9X"}),
     "game.jsonl:4: move 1, seat 0: '9X' is not a card"),
    # fields of the wrong type
    (replace(3, {"seat": 0, "move": "play", "card": "9S", "call": "yes"}),
     "game.jsonl:4: move 1, seat 0: call must be true or false, got 'yes'"),
    (replace(1, {"chance": "deal", "hands": "9H 9S"}),
     "game.jsonl:2: after move 0: 'hands' must be a list of card lists, one per seat"),
    (replace(1, {"chance": "deal", "hands": [["9H", "JK"], ["KH", "4C"]]}),
     "there is no joker in matching Page One"),
    # the wrong header
    (replace(0, {**HEADER, "format": "pgn"}), "game.jsonl:1: bad header: 'format' must be 'cardcli-record'"),
    (replace(0, {**HEADER, "variant": "bridge"}), "game.jsonl:1: bad header: unknown variant 'bridge'"),
    (replace(0, {**HEADER, "dealer": 5}), "game.jsonl:1: bad header: 'dealer' must be a seat number"),
    (replace(0, {**HEADER, "rules": {"hand_size": 11}}),
     "game.jsonl:1: bad header: rules: option 'hand_size': got 11; allowed: a whole number from 1 to 10"),
    (replace(0, {**HEADER, "players": ["a", "b", "c", "d", "e", "f", "g"]}),
     "game.jsonl:1: bad header: 7 players, but matching with these rules is for 2 to 6 players (option "
     "max_players = 6 by default, the most matching seats; not set in the header's rules)"),
    (replace(0, {**HEADER, "ruleset": "Small table", "rules": {"hand_size": 2, "max_players": 3},
                 "players": ["a", "b", "c", "d"]}),
     "game.jsonl:1: bad header: 4 players, but matching with these rules is for 2 to 3 players (option "
     "max_players = 3 in the header's rules for 'Small table')"),
    (replace(0, {**HEADER, "rules": {"hand_size": 2, "min_players": 3}}),
     "game.jsonl:1: bad header: 2 players, but matching with these rules is for 3 to 6 players (option "
     "min_players = 3 in the header's rules)"),
    # the game goes on after the end, or stops early
    ([*GAME[:8], {"seat": 1, "move": "draw"}, GAME[8]],
     "game.jsonl:9: the game is already over after move 4, but the record goes on"),
    (GAME[:6], "game.jsonl:6: legal so far; unfinished after move 2"),
    (GAME[:8], "the game is over but the record has no result line"),
    # a chance event where a decision is due
    (replace(4, {"chance": "draw", "seat": 1, "cards": ["9D"]}),
     "game.jsonl:5: after move 1: expected seat 1 to play, but the record has a 'draw' chance event"),
])
def test_broken_records_are_rejected(tmp_path, lines, message):
    result = validate_command(write(tmp_path, lines))
    assert result.exit_code == 1
    assert message in result.output, result.output


def test_missing_reshuffle_is_rejected(tmp_path):
    # Find a real game with a reshuffle, then drop that line.
    for seed in range(200):
        _game, buffer = play_game("matching", players=5, seed=seed)
        lines = record_lines(buffer)
        found = [i for i, line in enumerate(lines) if line.get("chance") == "reshuffle"]
        if found:
            break
    else:  # pragma: no cover
        pytest.fail("no game with a reshuffle")
    index = found[0]
    broken = [*lines[:index], *lines[index + 1:]]
    result = validate_command(write(tmp_path, broken))
    assert result.exit_code == 1
    assert f"game.jsonl:{index + 1}:" in result.output
    assert "the stock is empty: the discards must be reshuffled first" in result.output


def test_binary_empty_and_missing_files(tmp_path):
    binary = tmp_path / "photo.jsonl"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    result = validate_command(binary, empty, tmp_path / "nope.jsonl", tmp_path)
    assert result.exit_code == 1
    assert f"{binary}:1: not text" in result.output
    assert f"{empty}: empty record" in result.output
    assert "nope.jsonl: cannot read: No such file or directory" in result.output
    assert "is a folder, not a record" in result.output


def test_one_message_per_bad_record_and_valid_ones_pass(tmp_path):
    good = write(tmp_path, GAME, "good.jsonl")
    bad = write(tmp_path, replace(4, {"seat": 0, "move": "draw"}), "bad.jsonl")
    result = validate_command(good, bad)
    assert result.exit_code == 1
    assert result.output.count("bad.jsonl:") == 1
    assert "good.jsonl: valid" in result.output


def test_a_huge_record_validates_streaming(tmp_path):
    """Many rounds in one record: validation reads it line by line."""
    game, buffer = play_game("matching", players=6, seed=3, options={"rounds": 60})
    path = tmp_path / "long.jsonl"
    path.write_text(buffer.getvalue())
    result = validate_command(path)
    assert result.exit_code == 0, result.output
    assert game.events > 3000


def test_a_refusal_names_the_play_never_the_cards_effect(tmp_path):
    """An illegal special card is refused without what it would have done
    (it used to say "... (skips ann): no rank or suit match")."""
    lines = replace(1, {"chance": "deal", "hands": [["9H", "9S"], ["KH", "JC"]]})
    lines = [*lines[:4], {"seat": 1, "move": "play", "card": "JC"}]
    path = write(tmp_path, lines)
    result = validate_command(path)
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{path}:5: move 2, seat 1 played JC on 9S: no rank or suit match "
                                    "(could draw)\n"), result.output


def test_the_core_describes_an_attempt_from_its_record_fields():
    """A variant that does not word its refusals gets the record's fields."""
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.cards import parse_card
    from cardcli.words.narration import attempt_from_fields
    from cardcli_matching.state import PLAY

    from .conftest import Table

    t = Table(["9H 9S", "KH JC"], "7S")
    variant = get_registry().get("matching")
    assert attempt_from_fields(variant, t.state, (PLAY, parse_card("JC"), -1, True)) == "played JC (call)"
    assert attempt_from_fields(variant, t.state, (0,)) == "(0,)"  # unreadable: shown as it is


def test_a_variant_without_checkpoints_refuses_a_checkpoint_line(tmp_path):
    lines = [*GAME[:4], {"checkpoint": "round_end", "scores": [0, 0]}, *GAME[4:]]
    path = write(tmp_path, lines)
    result = validate_command(path)
    assert result.exit_code == 1
    assert f"{path}:5: after move 1: a 'round_end' checkpoint, but none stands here" in result.output
