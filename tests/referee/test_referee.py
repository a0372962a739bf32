"""The referee follows simulated games entered in words from their public
view, or from one seat's (``--seat``), exactly: every entry is accepted, and
the record it writes is the game's export from that view, line for line;
entries the rules forbid are refused with the rule and change nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset, shipped_rulesets
from cardcli.kit.record_format import Header, SeatInfo, parse_header
from cardcli.realtable.referee import Referee, Refused
from cardcli.records.validate import validate_stream
from cardcli.testing import play_game
from cardcli.testing.unseen import export_bytes

from .words import referee_words

#: (variant, ruleset, players) of the games followed.
FOLLOWED = [("matching", None, 3), ("trick", None, 3), ("trick", "five-cards", 2), ("endofpage", "short", 2),
            ("matching", "american", 4)]
#: A long four-player game is read again for each entry: slow-marked.
GAMES = [*FOLLOWED[:-1], pytest.param(*FOLLOWED[-1], marks=pytest.mark.slow)]


def public_lines(variant: str, ruleset: str | None, players: int, seed: int,
                 viewer: int | None = None) -> list[dict]:
    """A simulated game's export as a spectator (or seat ``viewer``) saw it."""
    registry = get_registry()
    options = dict(load_ruleset(ruleset, registry, variant, players).options) if ruleset else None
    _game, buffer = play_game(variant, players=players, seed=seed, options=options)
    exported = export_bytes(buffer.getvalue().encode(), viewer).decode()
    return [json.loads(line) for line in exported.splitlines()]


def follow(lines: list[dict]) -> Referee:
    table = Referee(get_registry(), parse_header(lines[0], "<test>"))
    for entry in referee_words(lines):
        table.enter(entry)
    return table


@pytest.mark.parametrize("variant,ruleset,players", GAMES)
@pytest.mark.parametrize("seed", [1])
def test_a_simulated_game_entered_in_words_gives_its_public_export(variant, ruleset, players, seed):
    lines = public_lines(variant, ruleset, players, seed)
    table = follow(lines)
    assert table.over
    assert table.lines == lines[1:]


@pytest.mark.parametrize("variant,ruleset,players", FOLLOWED[:-1])
@pytest.mark.parametrize("viewer", [0, 1])
def test_a_game_entered_from_one_seat_gives_that_seats_export(variant, ruleset, players, viewer):
    lines = public_lines(variant, ruleset, players, 2, viewer)
    assert lines[0]["view"] == f"seat {viewer}"
    table = follow(lines)
    assert table.viewer == viewer and table.over
    assert table.lines == lines[1:]
    typed = referee_words(lines)
    name = lines[0]["players"][viewer]["name"].lower()
    assert any(entry.startswith(f"{name} gets ") for entry in typed)  # the seat's own cards were entered


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(FOLLOWED[:-1]), seed=st.integers(0, 10_000), view=st.integers(-1, 1))
def test_every_game_entered_in_words_is_followed_to_its_end(game, seed, view):
    lines = public_lines(*game, seed, None if view < 0 else view)
    table = follow(lines)
    assert table.lines == lines[1:]


def new_table(variant: str, names: str = "ann,bob,mom", view: str = "public") -> Referee:
    from cardcli.engine.rulesets import default_ruleset

    registry = get_registry()
    seats = [SeatInfo(name) for name in names.split(",")]
    options = dict(default_ruleset(registry.get(variant)).options)
    return Referee(registry, Header(variant, options, seats, 0, view=view))


def refused(table: Referee, entry: str) -> str:
    before = list(table.lines)
    with pytest.raises(Refused) as caught:
        table.enter(entry)
    assert table.lines == before, "a refused entry writes nothing"
    return str(caught.value)


def test_matching_refuses_the_wrong_player_a_card_that_does_not_match_and_a_wrong_penalty():
    table = new_table("matching")
    assert "turns up a card" in table.expected()
    assert refused(table, "bob 5h").startswith("not yet: the table turns up a card first")
    assert "'zz' is not a card" in refused(table, "up zz")
    table.enter("up 5h")
    assert table.lines[-1] == {"chance": "turn_up", "card": "5H"}
    assert refused(table, "ann 7h") == "it is bob's turn, not ann's"
    assert refused(table, "bob 9c") == "move 1, bob played 9C on 5H: no rank or suit match (could draw)"
    table.enter("bob 2h")
    assert table.expected() == "Next: mom to draw 2 or answer with a 2."  # what the rules expect
    assert refused(table, "mom draws 3") == "mom draws 2 cards here, not 3"
    table.enter("mom draws 2")
    assert table.lines[-1] == {"chance": "draw", "seat": 2, "cards": ["??", "??"]}
    assert refused(table, "anne 5h").startswith("'anne' is not a player at this table (did you mean ann?)")


def test_matching_page_one_goes_with_the_card_just_played():
    table = new_table("matching", "ann,bob")
    table.enter("up 5h")
    table.enter("bob 5s")
    assert refused(table, "ann page one") == "the last move was bob's, not ann's"
    assert "second-to-last card" in refused(table, "bob page one")
    assert table.lines[-1] == {"seat": 1, "move": "play", "card": "5S"}


def test_an_entry_typed_in_japanese_is_said_back_as_typed():
    """Japanese entry words are read as the English ones, but a refusal or an undo
    says the entry as it was typed; an English entry is said as before."""
    table = new_table("matching", "ann,bob")
    table.enter("台札 ハート5")
    table.enter("bob 5s")
    assert refused(table, "bob ストップ").startswith("'bob ストップ': there is no Stop call")
    assert refused(table, "bob stop").startswith("'5s stop': there is no Stop call")
    assert refused(table, "ann ハートXを出す").startswith("'ann ハートXを出す' is not a move here")
    assert refused(table, "キープ").startswith("'キープ' is not a player at this table")
    table.enter("ann 引く")
    assert table.enter("取り消し")[0] == "Taken back: ann 引く."
    table.enter("ann 引く")
    assert table.enter("undo")[0] == "Taken back: ann 引く."
    table.enter("ann draws")
    assert table.enter("取り消し")[0] == "Taken back: ann draws."


def test_trick_a_seat_that_drew_instead_of_following_cannot_then_follow():
    table = new_table("trick")
    table.enter("bob 7h")  # bob leads hearts
    table.enter("mom draws")  # mom has no heart: she draws until one comes
    assert table.expected() == ("Next: mom to play the card drawn, if it follows hearts; if not, mom to draw "
                                "a card (cannot follow hearts).")
    assert "cannot be 9S" in refused(table, "mom 9s")
    table.enter("mom 9h")  # the heart she drew
    table.enter("ann 3h")
    assert table.expected() == "Next: mom to lead."  # her 9H won the trick
    text = refused(table, "mom 5h")
    assert text.startswith("move 5, mom led 5H: mom had no heart at move 2 (cannot follow hearts: drawing "
                           "from the stock)"), text


def test_end_of_the_page_refuses_a_meld_the_rules_do_not_allow():
    table = new_table("endofpage", "ann,bob")
    table.enter("up 10h")
    table.enter("up kd")
    table.enter("up ah")
    assert table.expected() == "Next: bob to draw."
    assert refused(table, "bob discards 5c") == "'discard 5c': draw first: from the stock or the discard pile"
    table.enter("bob takes")
    assert refused(table, "bob draws") == "already drew this turn: meld, lay off or discard"
    assert refused(table, "bob melds 4s 5h 9c") == ("'meld 4s 5h 9c': not a legal meld: not a set (different "
                                                    "ranks) and not a run (different suits)")
    assert refused(table, "bob lays off 4s on 1") == ("'l 4s 1': lay-offs are allowed only after bob's own "
                                                      "first meld")
    assert refused(table, "bob discards") == "'discard': say which card to discard, e.g.  d kc"
    assert refused(table, "bob flies") == "'flies' is not a move here (help lists the words)"
    assert refused(table, "bob melds 4s 5s kc") == ("'meld 4s 5s kc': more than one meaning fits the wild: "
                                                    "write it as a record does, e.g.  kc=3s")
    assert table.lines[-1] == {"seat": 1, "move": "take", "card": "AH"}  # nothing written
    table.enter("bob melds 4s 5s kc=6s")  # the meaning said: the meld is taken
    assert table.lines[-1] == {"seat": 1, "move": "meld", "cards": ["4S", "5S", "KC=6S"]}


def test_undo_takes_back_the_entry_and_the_file_with_it(tmp_path):
    from cardcli.engine.rulesets import default_ruleset
    from cardcli.kit.record_format import RecordWriter

    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path)
    registry = get_registry()
    header = Header("matching", dict(default_ruleset(registry.get("matching")).options),
                    [SeatInfo("ann"), SeatInfo("bob")], 0, view="public")
    writer.write(header.as_dict())
    table = Referee(registry, header, writer=writer)
    table.enter("up 5h")
    kept = path.read_text()
    table.enter("bob 5s")
    assert path.read_text() != kept
    assert table.undo()[0] == "Taken back: bob 5s."
    assert path.read_text() == kept
    table.enter("bob 5c")
    writer.close()
    with open(path, "rb") as stream:
        report = validate_stream(stream, str(path), registry)
    assert "legal so far; unfinished after move 1" in str(report.error)  # consistent so far
    assert [json.loads(line) for line in path.read_text().splitlines()][-1] == {
        "seat": 1, "move": "play", "card": "5C"}


def test_a_record_the_referee_wrote_validates_as_consistent():
    import io

    lines = public_lines("trick", None, 3, 5)
    table = follow(lines)
    data = "".join(json.dumps(line) + "\n" for line in [table.header.as_dict(), *table.lines]).encode()
    report = validate_stream(io.BytesIO(data), "<referee>", get_registry())
    assert report.valid and report.check == "consistent"


def test_from_a_seat_its_deal_and_draws_are_entered_and_hold_the_checks():
    table = new_table("matching", "ann,bob", view="seat 0")
    assert table.expected() == ("Next: the cards dealt to ann: type them, any turned up for all first, "
                                "e.g. ann gets 7h 8s 2c")
    assert refused(table, "up 5h").startswith("ann's own cards come here")
    assert refused(table, "bob gets 7h") == "only ann's cards are entered here: bob's stay unseen"
    assert refused(table, "ann gets 7h 8s").endswith("ann was dealt 2 cards, not 7")
    assert "'7x' is not a card" in refused(table, "ann gets 7h 7x")
    table.enter("ann gets 7c 8s 9c 10d jd qd kd")
    assert table.lines[-1] == {"chance": "deal", "hands": [["7C", "8S", "9C", "10D", "JD", "QD", "KD"], 7]}
    assert refused(table, "ann gets 2c") == "no cards are dealt to ann now"
    table.enter("up 5h")
    table.enter("bob 5s")
    assert "9C" in "\n".join(table.situation()), "the seat's own hand is shown to it"
    assert "9C" not in "\n".join(table.situation(public=True)), "the page for everyone shows no hand"
    # ann's cards are known: a card she does not hold, and a draw while she can play, are refused
    assert refused(table, "ann 5c") == "move 2, ann played 5C on 5S: 5C is not in ann's hand (could play 8S)"
    assert refused(table, "ann draws 2s").startswith(
        "move 2, ann chose to draw: may not draw while holding a playable card")
    table.enter("ann 8s hearts")
    table.enter("bob draws")
    table.enter("bob 6h")  # what bob drew stays unseen
    assert table.lines[-2] == {"chance": "draw", "seat": 1, "cards": ["??"]}
    assert refused(table, "ann draws 2c 3c") == "ann draws 1 card here, not 2"
    table.enter("ann draws")  # as at the table: she draws, then looks
    assert table.lines[-1] == {"seat": 0, "move": "draw"}
    assert table.expected() == "Next: the cards ann draws: type them, e.g. ann draws 7h"
    assert refused(table, "ann 9c") == "not yet: the cards ann draws: type them, e.g. ann draws 7h"
    table.enter("ann draws 2c")
    assert table.lines[-2:] == [{"seat": 0, "move": "draw"}, {"chance": "draw", "seat": 0, "cards": ["2C"]}]


def test_an_entry_as_the_table_may_read_it_names_none_of_the_seats_own_cards():
    table = new_table("matching", view="seat 0")
    assert table.public_words("ann gets 7c 8s 9c 10d jd qd kd") == "ann gets 7 cards"
    assert table.public_words("Ann draws 2 7h 9c") == "ann draws 2"
    # a later part without a name is the first part's player's: her draw stays hidden too
    assert table.public_words("ann 7h then draws 2c 3c") == "ann 7h then ann draws 2"
    assert table.public_words("bob draws 2") == "bob draws 2"
    assert table.public_words("Bob 7H") == "Bob 7H"  # nothing hidden: as typed


def test_from_the_public_view_nobodys_cards_are_entered():
    table = new_table("trick")
    text = refused(table, "ann gets 7h 8s 9c 10d")
    assert text.startswith("this table is followed from the public view: nobody's hidden cards are entered")
    table.enter("bob 7h")
    assert refused(table, "mom draws 9h") == ("nobody sees the cards mom draws here: say only how many "
                                              "(mom draws 2)")


def _at_default_table(name: str) -> tuple[str, str, int]:
    """(variant, ruleset, players) of a shipped ruleset at its default table."""
    registry = get_registry()
    ruleset = load_ruleset(name, registry)
    variant = registry.get(ruleset.variant)
    players = max(variant.min_players, min(variant.default_players, variant.max_players))
    players = max(players, ruleset.options.get("min_players", players))
    return ruleset.variant, name, min(players, ruleset.options.get("max_players", players))


#: Every shipped ruleset but the long four-player game (followed above, slow-marked).
SHIPPED = [name for name, _path, _data in shipped_rulesets(get_registry()) if name != "matching-american"]


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("viewer", [None, 0])
def test_every_shipped_ruleset_is_followed_from_the_public_view_and_from_a_seat(name, viewer):
    lines = public_lines(*_at_default_table(name), 0, viewer)
    table = follow(lines)
    assert table.over and table.lines == lines[1:]
