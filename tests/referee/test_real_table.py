"""The referee driven entry by entry as a family drives it: every real game
of every shipped ruleset, in every wording the docs offer, is accepted at
once and gives exactly the record the table saw; ``undo`` of any entry and
the same entry again give the same record; each entry of a real table that
was once refused, lost or told wrongly is taken as the rules say."""

from __future__ import annotations

import io
import json
import random

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset, load_ruleset, shipped_rulesets
from cardcli.kit.record_format import Header, SeatInfo, parse_header
from cardcli.realtable.referee import Referee, Refused
from cardcli.records.validate import validate_stream
from cardcli.testing import play_game
from cardcli.testing.unseen import export_bytes

from .words import WORDINGS, referee_words


def _tables() -> list[tuple[str, str, int]]:
    """(variant, ruleset, players): every shipped ruleset at its smallest,
    default and largest table."""
    registry = get_registry()
    tables = []
    for name, _path, _data in shipped_rulesets(registry):
        ruleset = load_ruleset(name, registry)
        variant = registry.get(ruleset.variant)
        low = max(variant.min_players, ruleset.options.get("min_players", variant.min_players))
        high = min(variant.max_players, ruleset.options.get("max_players", variant.max_players))
        middle = max(low, min(variant.default_players, high))
        tables += [(ruleset.variant, name, players) for players in sorted({low, middle, high})]
    return tables


TABLES = _tables()


def exported(table: tuple[str, str, int], seed: int, viewer: int | None) -> list[dict]:
    """A simulated game's export from ``viewer``'s view (``None``: the public's)."""
    variant, ruleset, players = table
    options = dict(load_ruleset(ruleset, get_registry(), variant, players).options)
    _game, buffer = play_game(variant, players=players, seed=seed, options=options)
    text = export_bytes(buffer.getvalue().encode(), viewer).decode()
    return [json.loads(line) for line in text.splitlines()]


def follow(lines: list[dict], wording: dict, undo_at: set[int] = frozenset()) -> Referee:
    """Enter ``lines`` in ``wording``; after each entry of ``undo_at``, undo
    it and enter it again: the record must come back the same."""
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for number, entry in enumerate(referee_words(lines, **wording)):
        try:
            table.enter(entry)
        except Refused as error:
            raise AssertionError(f"entry {number} {entry!r} of a real game refused: {error}") from None
        if number in undo_at:
            kept = table.lines
            table.undo()
            table.enter(entry)
            assert table.lines == kept, f"undo and {entry!r} again changed the record"
    return table


def check_game(table: tuple[str, str, int], seed: int, viewer: int | None, wording: dict,
               undo_at: set[int] = frozenset()) -> None:
    lines = exported(table, seed, viewer)
    where = f"{table}, seed {seed}, {'public' if viewer is None else f'seat {viewer}'}, {wording}"
    try:
        followed = follow(lines, wording, undo_at)
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from None
    assert followed.over, f"{where}: the game is not over"
    assert followed.lines == lines[1:], f"{where}: the record is not the export line for line"


# --------------------------------------------------------- the real games
# A fast sample: every table, its view and wording in turn; the slow test
# takes every view of every table in every wording.

@pytest.mark.parametrize("number,table", list(enumerate(TABLES)))
def test_a_real_game_of_every_table_is_entered_as_it_was_played(number, table):
    views = [None, *range(table[2])]
    check_game(table, 1, views[number % len(views)], WORDINGS[number % len(WORDINGS)])


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("seed", range(4))
def test_real_games_from_every_view_in_every_wording(table, seed):
    for viewer in [None, *range(table[2])]:
        for wording in WORDINGS:
            check_game(table, seed, viewer, wording)


@pytest.mark.parametrize("table,seed,viewer", [(("trick", "trick-five-cards", 2), 3, None),
                                               (("matching", "matching-standard", 3), 2, 1),
                                               (("endofpage", "endofpage-short", 2), 4, None)])
def test_undo_of_any_entry_then_the_same_entry_gives_the_same_record(table, seed, viewer):
    count = len(referee_words(exported(table, seed, viewer)))
    check_game(table, seed, viewer, WORDINGS[seed % len(WORDINGS)], undo_at=set(range(count)))


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
def test_undo_anywhere_in_real_games(table):
    rng = random.Random(str(table))
    for seed in range(3):
        viewer = rng.choice([None, *range(table[2])])
        count = len(referee_words(exported(table, seed, viewer)))
        undo_at = set(rng.sample(range(count), min(count, 12)))
        check_game(table, seed, viewer, rng.choice(WORDINGS), undo_at=undo_at)


def test_every_trick_match_of_the_rebuilt_stock_is_entered():
    """Three players, best of five: stocks rebuilt from finished tricks,
    whose cards were public, and drawn again unseen (once refused)."""
    rebuilt = 0
    for seed in range(3, 13):
        lines = exported(("trick", "trick-best-of-five", 3), seed, None)
        rebuilt += sum(line.get("chance") == "reshuffle" for line in lines)
        for wording in WORDINGS:
            check_game(("trick", "trick-best-of-five", 3), seed, None, wording)
    assert rebuilt, "no game rebuilt its stock: the test no longer shows what it is for"


# ------------------------------------------------- entries once mistaken
def new_table(variant: str, names: str, dealer: int = 0, rules: dict | None = None,
              view: str = "public") -> Referee:
    registry = get_registry()
    options = dict(default_ruleset(registry.get(variant)).options)
    options.update(rules or {})
    return Referee(registry, Header(variant, options, [SeatInfo(name) for name in names.split(",")], dealer,
                                    view=view))


def valid(table: Referee) -> str:
    """The record so far, as validate reads it: its verdict's kind."""
    data = "".join(json.dumps(line) + "\n" for line in [table.header.as_dict(), *table.lines]).encode()
    report = validate_stream(io.BytesIO(data), "<referee>", get_registry())
    return "valid" if report.valid else str(report.error.kind)


def test_page_one_on_the_next_line_keeps_the_play():
    table = new_table("matching", "ann,bob", 1, {"hand_size": 3})
    for entry in ("up 5h", "ann 6h", "bob 6s", "ann 6c"):
        table.enter(entry)
    assert table.lines[-1]["chance"] == "draw", "the forgotten call's penalty is drawn"
    table.enter("page one")
    assert table.lines[-1] == {"seat": 0, "move": "play", "card": "6C", "call": True}
    table.enter("bob draws")
    assert table.lines[-3:] == [{"seat": 0, "move": "play", "card": "6C", "call": True},
                                {"seat": 1, "move": "draw"}, {"chance": "draw", "seat": 1, "cards": ["??"]}]
    assert valid(table) == "unfinished"


def test_page_one_on_the_next_line_after_a_draw_then_a_play():
    # Seed 4, two players: a player who cannot follow draws one card and
    # plays it, leaving one card: ``X draws 1 then 8h``, then ``page one``.
    lines = exported(("trick", "trick-standard", 2), 4, None)
    at = next(i for i in range(1, len(lines) - 2) if lines[i].get("move") == "draw"
              and lines[i + 1].get("chance") == "draw" and lines[i + 2].get("call"))
    words = referee_words(lines[:at + 3], draws="then", call="next")
    assert words[-1] == "page one" and " draws " in words[-2] and " then " in words[-2]
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in words:
        table.enter(entry)
    assert table.lines == lines[1:at + 3]
    with pytest.raises(Refused, match="called already"):
        table.enter("page one")
    assert table.undo()[0] == "Taken back: page one."
    uncalled = {key: value for key, value in lines[at + 2].items() if key != "call"}
    assert [line for line in table.lines if "move" in line][-1] == uncalled  # the play stays, uncalled


def test_one_draw_when_the_stock_runs_out_mid_draw():
    # Two players, seven cards each: a stock of 38 cards, drawn dry by one
    # player who cannot follow; the stock is rebuilt from the finished
    # tricks before the next single draw.
    lines = exported(("trick", "trick-standard", 2), 0, None)
    words = referee_words(lines, draws="each")
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in words:
        table.enter(entry)
    assert table.over and table.lines == lines[1:]


def test_a_deal_called_off_mid_match_is_settled_by_the_next_entry():
    """Without ``called off`` typed, the next entry (the new deal's first
    move) says the last card drawn did not follow."""
    settled = 0
    for seed in range(12):
        lines = exported(("trick", "trick-best-of-five", 3), seed, None)
        words = referee_words(lines)
        last = len(words) - 1
        dropped = [entry for number, entry in enumerate(words) if entry != "called off" or number == last]
        settled += len(words) - len(dropped)
        table = Referee(get_registry(), parse_header(lines[0], "<test>"))
        for entry in dropped:
            table.enter(entry)
        assert table.over and table.lines == lines[1:], seed
    assert settled, "no deal was called off mid-match: the test no longer shows what it is for"


def test_end_of_the_page_turns_up_several_deals_in_one_entry():
    table = new_table("endofpage", "ann,bob,mom", 2)
    table.enter("up qc 4s 5s")
    assert table.lines == [{"chance": "deal", "seat": 0, "cards": ["QC", *["??"] * 11]},
                           {"chance": "deal", "seat": 1, "cards": ["4S", "??", "??", "??"]},
                           {"chance": "deal", "seat": 2, "cards": ["5S", *["??"] * 4], "wild": "5S"}]
    table.enter("up jh")
    assert table.lines[-1] == {"chance": "turn_up", "card": "JH"}
    assert table.expected() == "Next: ann to draw."


def test_end_of_the_page_a_dealer_turning_one_card_at_a_time():
    table = new_table("endofpage", "ann,bob", 1)
    table.enter("up 10h")
    assert table.expected().startswith("Next: the card turned up in bob's deal")
    table.enter("up ah")  # an ace: the dealer turns on
    assert table.lines == [{"chance": "deal", "seat": 0, "cards": ["10H", *["??"] * 9]}]
    assert "so far AH" in table.expected()
    table.enter("up 3h")
    assert table.lines[-1] == {"chance": "deal", "seat": 1, "cards": ["AH", "3H", *["??"] * 12], "wild": "3H"}
    table.undo()
    assert table.lines == [{"chance": "deal", "seat": 0, "cards": ["10H", *["??"] * 9]}]
    assert "so far AH" in table.expected()


def test_end_of_the_page_takes_only_the_top_discard():
    table = new_table("endofpage", "ann,bob", 0)
    for entry in ("up 10h", "up kd", "up ks"):
        table.enter(entry)
    with pytest.raises(Refused) as refused:
        table.enter("bob takes 9s")
    assert str(refused.value) == "'take 9s': 9S is not in that move: here bob took KS from the discard pile"
    table.enter("bob takes ks")
    assert table.lines[-1] == {"seat": 1, "move": "take", "card": "KS"}


def test_a_seat_draws_its_card_after_the_reshuffle_due_first():
    # Seed 1, two players, from seat 0: at one of its draws the stock is
    # empty, and the discards are reshuffled before it draws its card.
    lines = exported(("matching", "matching-standard", 2), 1, 0)
    assert any(lines[i].get("move") == "draw" and lines[i]["seat"] == 0 and
               lines[i + 1].get("chance") == "reshuffle" for i in range(1, len(lines) - 1))
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in referee_words(lines):
        table.enter(entry)
    assert table.over and table.lines == lines[1:]


# ---------------------------------------------------- what the table hears
def test_what_the_rules_did_is_said():
    table = new_table("matching", "ann,bob", 1, {"hand_size": 3})
    for entry in ("up 5h", "ann 6h", "bob 6s"):
        table.enter(entry)
    said = table.enter("ann 6c")
    assert said[0] == "ann drew 2 cards (forgot Page One)"
    assert table.expected() == "Next: bob to play."
    table.enter("bob draws")
    assert table.expected() == "Next: bob to play or keep the card drawn, if it plays; if not, ann to play."


def test_a_draw_with_nothing_left_says_the_deal_ends():
    lines = exported(("trick", "trick-standard", 3), 9, None)
    words = referee_words(lines)
    assert words[-1] == "called off", "the game no longer ends so"
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in words[:-1]:
        table.enter(entry)
    assert table.expected().endswith("; if not, nobody can move and the deal ends: type called off.")
    said = table.enter("called off")
    assert said[-1] == table.expected()
    assert table.expected().startswith("Game over: the hand was called off") and \
        table.expected().endswith("No single winner.")


def test_the_game_ends_with_its_winner():
    lines = exported(("matching", "matching-standard", 2), 1, None)
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in referee_words(lines):
        table.enter(entry)
    winner = lines[-1]["result"]["winner"]
    assert table.expected() == f"Game over: cpu{winner + 1} went out. cpu{winner + 1} wins."


def test_end_of_the_page_states_each_rounds_scores_once_its_hands_are_shown():
    lines = exported(("endofpage", "endofpage-short", 2), 1, None)
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    words = referee_words(lines)
    first_show = next(number for number, entry in enumerate(words) if " shows " in entry)
    for entry in words[:first_show]:
        table.enter(entry)
    assert table.waiting is not None
    shown = "\n".join(table.situation())
    assert "Round 2" not in shown and "The round is over" in shown
    said = table.enter(words[first_show])
    assert any(line.startswith("Round 1 of 3 is over") for line in said)
    assert "Score sheet:" in said


def test_undo_says_what_it_took_back():
    table = new_table("matching", "ann,bob", 1)
    table.enter("up 5h")
    table.enter("ann draws")
    assert table.undo()[0] == "Taken back: ann draws."


def test_refusals_name_the_player_and_use_the_referees_words():
    table = new_table("matching", "ann,bob,mom", 0, view="seat 0")
    table.enter("ann gets 7c 8s 9c 10d jd qd kd")
    table.enter("up 5h")
    table.enter("bob 5s")
    with pytest.raises(Refused) as refused:
        table.enter("mom 8s")
    assert str(refused.value) == "'8s': an 8 names the suit to follow: say it after the card, e.g. 8s hearts"
    table = new_table("endofpage", "ann,bob", 0)
    for entry in ("up 10h", "up kd", "up ks", "bob takes"):
        table.enter(entry)
    with pytest.raises(Refused) as refused:
        table.enter("bob lays off 4s on 1")
    assert str(refused.value) == "'l 4s 1': lay-offs are allowed only after bob's own first meld"


def test_a_meld_of_more_cards_than_were_named_possible_says_so():
    table = new_table("endofpage", "ann,bob", 0)
    for entry in ("up 10h", "up kd", "up ks", "bob takes ks", "bob discards 5c", "ann draws"):
        table.enter(entry)
    with pytest.raises(Refused) as refused:
        table.enter("ann melds 4s 5s 6s 7s 8s 9s 10s js qs ks as 2s 3s 4h")
    assert str(refused.value).endswith(
        ": ann holds only 14 cards: with the 13 named before it, none can be 4H")


def test_a_hand_shown_with_too_few_cards_names_only_the_count():
    lines = exported(("endofpage", "endofpage-short", 2), 1, None)
    words = referee_words(lines)
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    first_show = next(number for number, entry in enumerate(words) if " shows " in entry)
    for entry in words[:first_show]:
        table.enter(entry)
    name, _shows, *cards = words[first_show].split()
    with pytest.raises(Refused) as refused:
        table.enter(" ".join([name, "shows", *cards[:-1]]))
    assert str(refused.value).endswith(
        f"but held {len(cards)} cards as the round ended, not {len(cards) - 1}")
    table.enter(words[first_show])  # the right hand is taken after the refusal
    assert table.waiting is None


def test_a_hand_shown_again_once_the_round_is_over_is_told_the_cards_known():
    lines = exported(("endofpage", "endofpage-short", 2), 1, None)
    words = referee_words(lines)
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    first_show = next(number for number, entry in enumerate(words) if " shows " in entry)
    for entry in words[:first_show + 1]:
        table.enter(entry)
    assert table.waiting is None, "more than one hand is shown: the test no longer shows what it is for"
    name, _shows, *cards = words[first_show].split()
    with pytest.raises(Refused) as refused:
        table.enter(" ".join([name, "shows", *cards[:-1]]))
    text = str(refused.value)
    known = text.removeprefix(f"{name}'s cards at the round's end are known already: ")
    assert known != text and sorted(known.split()) == sorted(card.upper() for card in cards), text
    table.enter(" ".join([name, "shows", *cards]))  # the same cards again: taken, writing nothing
    out = next(other for other in table.names if other != name)
    with pytest.raises(Refused) as refused:
        table.enter(f"{out} shows 4c")
    assert str(refused.value) == f"{out} had no cards left at the round's end: nothing to show"
    before = len(table.lines)
    table.undo()  # the show taken again wrote nothing: undone, it takes nothing from the record
    assert len(table.lines) == before


def test_a_reshuffle_the_rules_make_is_said():
    lines = exported(("matching", "matching-standard", 2), 1, None)
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    told = []
    for entry in referee_words(lines):
        before = len(table.lines)
        said = table.enter(entry)
        if any(line.get("chance") == "reshuffle" for line in table.lines[before:]):
            told.append(said[0])
    assert told and all(line.startswith("reshuffled ") and line.endswith(" discards into a new stock")
                        for line in told), told


# ------------------------------------------------------------ the Stop call
def stop_table() -> Referee:
    """Two cards each with the Stop call on: ann calls Page One with 6H and
    bob forgets it with 6S (he draws 2, unseen); ann holds her last card."""
    table = new_table("matching", "ann,bob", 1, {"hand_size": 2, "stop_call": True})
    for entry in ("up 5h", "ann 6h page one", "bob 6s"):
        table.enter(entry)
    assert table.lines[-1] == {"chance": "draw", "seat": 1, "cards": ["??", "??"]}
    return table


def test_stop_on_the_line_of_the_last_card_goes_out():
    table = stop_table()
    refused = table.lines
    with pytest.raises(Refused, match=r"^'7s page one': the call with the last card is Stop, not Page One$"):
        table.enter("ann 7s page one")
    assert table.lines == refused
    said = table.enter("ann 7s stop")
    assert table.lines[-2:] == [{"seat": 0, "move": "play", "card": "7S", "call": True},
                                {"result": {"places": [1, 2], "winner": 0, "reason": "seat 0 went out"}}]
    assert said[-1] == "Game over: ann went out. ann wins."
    assert valid(table) == "valid"


def test_stop_on_the_next_line_calls_the_last_card_and_undo_takes_the_call_back():
    table = stop_table()
    said = table.enter("ann 7s")  # forgotten: she draws two and bob plays on
    assert said[0] == "ann drew 2 cards (forgot Stop)"
    assert table.lines[-1] == {"chance": "draw", "seat": 0, "cards": ["??", "??"]}
    with pytest.raises(Refused, match="the last move was ann's, not bob's"):
        table.enter("bob stop")
    with pytest.raises(Refused, match="the call with the last card is Stop, not Page One"):
        table.enter("page one")
    table.enter("stop")
    assert table.over and table.lines[-2]["call"] is True
    with pytest.raises(Refused, match="ann called already"):
        table.enter("ann stop")
    assert table.undo()[0] == "Taken back: stop."
    assert table.lines[-2:] == [{"seat": 0, "move": "play", "card": "7S"},
                                {"chance": "draw", "seat": 0, "cards": ["??", "??"]}]  # the play stays
    table.enter("ann calls stop")
    assert table.over


def test_stop_is_refused_with_any_other_card_and_at_a_table_without_it():
    table = new_table("matching", "ann,bob", 1, {"hand_size": 2, "stop_call": True})
    table.enter("up 5h")
    with pytest.raises(Refused, match=r"^'6h stop': the call with the second-to-last card is Page One"):
        table.enter("ann 6h stop")
    table.enter("ann 6h")
    with pytest.raises(Refused, match="the call with the second-to-last card is Page One, not Stop"):
        table.enter("stop")
    with pytest.raises(Refused, match=r"^Stop is called with the card just played: on its line"):
        table.enter("bob draws then stop")
    plain = new_table("matching", "ann,bob", 1, {"hand_size": 1})
    plain.enter("up 5h")
    with pytest.raises(Refused, match=r"^'6h stop': there is no Stop call at this table"):
        plain.enter("ann 6h stop")
    plain.enter("ann 6h")
    assert plain.over
