"""A round of End of the Page read from its final table: every meld checked
against the round's wild and the rules, every lay-off against its meld, every
card against the pack, and the scores the game's own: cards on the table
minus cards in hand."""

from __future__ import annotations

import pytest

from cardcli.contract.round_scores import BY_HAND, CARDS, MELDS
from cardcli.realtable.sheet import SheetError

from .conftest import WORKED, enter, make_sheet


def scores(sheet, number: int = 1) -> list[int | None]:
    played = sheet.rounds[number - 1]
    return [played.score(seat) for seat in range(sheet.players)]


def refused(sheet, line: str) -> str:
    before = (sheet.rounds, sheet.editing)
    with pytest.raises(SheetError) as error:
        sheet.enter(line)
    assert (sheet.rounds, sheet.editing) == before  # nothing changed
    return str(error.value)


def test_the_worked_example_comes_out_exactly(sheet):
    """The dealer (B) with 3s wild: two wilds and two 5-point cards on the
    table, 210; the other player 110 on the table minus 5 in hand, 105."""
    enter(sheet, *WORKED)
    played = sheet.rounds[0]
    assert played.dealer == 1 and played.scored.note == "3s wild"
    assert scores(sheet) == [105, 210]
    assert played.scored.players[0].detail == "110 on the table - 5 in hand"
    assert played.scored.players[1].detail == "210 on the table - 0 in hand"
    assert [played.checked(seat) for seat in (0, 1)] == [MELDS, MELDS]
    assert sheet.totals() == [105, 210] and sheet.leaders() == [1]


@pytest.mark.parametrize(("line", "score"), [
    ("A meld AS AH AD, out", 300),         # aces 100
    ("A meld 8S 9S 10S, out", 30),         # 8 to K 10
    ("A meld JC QC KC, out", 30),
    ("A meld 5S 6S 7S, out", 15),          # 3 to 7 5
    ("A meld 5S 6S 3D=7S, out", 110),      # a wild 100, whatever it stands for
    ("A meld 8S 9S 10S, hand AC 4D", -75),  # minus the cards in hand
    ("A meld QH KH AH, hand 3C", 20),      # a wild in hand counts 100 against
])
def test_each_card_scores_its_points(sheet, line, score):
    enter(sheet, "wild 3H", line)
    assert scores(sheet)[0] == score


def test_the_rules_points_are_the_ones_counted():
    sheet = make_sheet(wild_value=50, ace_value=15, high_value=2, low_value=1)
    enter(sheet, "wild 3H", "A meld AS AH 3D=A, hand 9C 4C", "B meld 8S 9S 10S, out")
    assert scores(sheet) == [15 + 15 + 50 - 2 - 1, 6]


@pytest.mark.parametrize(("meld", "reason"), [
    ("4C 3H=5C 3D=6C 7C", "two wilds need two naturals between them"),
    ("4S 4H 3D 3C 3S", "a set with 3 wilds needs 4 naturals"),
    ("3S 3D 4S", "at least 2 natural"),
    ("3S 3D 3C", "at least 2 natural"),
    ("AH 3D=3H 4H", "aces are only high"),
    ("3D=2S 4S 5S", "a wild never stands for a 2"),
    ("QS KS AS 3D=2S", "aces are only high"),
    ("4S 4H 5D", "not a set (different ranks) and not a run (different suits)"),
    ("4C 5C 7C", "the run has a gap"),
    ("4C 5C", "at least 3 cards"),
    ("4C 5C 3D", "say what each wild stands for"),
    ("4S 4H 3D=5", "stands for that rank"),
])
def test_a_meld_the_rules_refuse_is_refused_with_the_rule(sheet, meld, reason):
    enter(sheet, "wild 3H")
    message = refused(sheet, f"A meld {meld}, out")
    assert message.startswith(f"round 1: A's meld {meld}: ") and reason in message


@pytest.mark.parametrize("meld", ["3H=4C 5C 6C 3D=7C", "4S 4H 3D=4 3C=4", "4S 4H 4D 4C 3D 3C 3S",
                                  "QH KH AH", "3D=3C 4C 5C", "4C 3H 6C"])
def test_a_meld_the_rules_allow_is_accepted(sheet, meld):
    enter(sheet, "wild 3H", f"A meld {meld}, out")
    assert sheet.rounds[0].checked(0) == MELDS


def test_the_round_s_wild_decides_what_is_wild():
    """The same cards are a meld with 3s wild and not with 9s wild."""
    threes = enter(make_sheet(), "wild 3H", "A meld 4C 3H 6C, out")
    assert scores(threes)[0] == 110
    nines = enter(make_sheet(), "wild 9H")
    assert "not a set" in refused(nines, "A meld 4C 3H 6C, out")


@pytest.mark.parametrize(("opening", "reason"), [
    ("AS", "never an ace"),
    ("2H", "the 2s are out of the pack"),
    ("JK", "no jokers"),
    ("ZZ", "not a card"),
])
def test_the_dealers_wild_card_is_a_card_of_the_pack_and_never_an_ace(sheet, opening, reason):
    message = refused(sheet, f"wild {opening}")
    assert message.startswith("round 1: the dealer's wild card") and reason in message.lower()


def test_a_card_counts_no_more_often_than_the_pack_holds_it():
    two = make_sheet()  # two players: one deck
    enter(two, "wild 3H", "A meld 4S 4H 4D, hand 9C")
    message = refused(two, "B meld 9C 10C JC, out")
    assert "9C is entered 2 times (A's hand and B's meld), but the pack holds it once" in message
    three = make_sheet(("A", "B", "C"))  # three players: two decks
    enter(three, "wild 3H", "A meld 4S 4H 4D, hand 9C", "B meld 9C 10C JC, out")
    assert "the pack holds it 2 times" in refused(three, "C meld 9S 9H 9C, out")
    one = make_sheet(("A", "B", "C"), decks=1)
    enter(one, "wild 3H", "A meld 4S 4H 4D, hand 9C")
    assert "the pack holds it once" in refused(one, "B meld 9C 10C JC, out")


def test_a_mark_says_a_card_is_wild_and_must_be_true(sheet):
    enter(sheet, "wild 3H")
    assert "5H is marked wild (*), but it is not wild: 3s are wild this round" in \
        refused(sheet, "A cards 4S 5H*, out")
    assert "is given a meaning (=), but it is not wild" in refused(sheet, "A meld 4S 4H 5D=4, out")
    enter(sheet, "A cards 4S 4H 3D*, hand 3C")  # a wild marked, another not: both wild
    assert scores(sheet)[0] == 110 - 100


def test_a_card_list_is_scored_and_marked_its_melds_unchecked(sheet):
    enter(sheet, "wild 3H", "A cards 3D 4S 4H, hand 7D", "B meld 4C 3H=5C 6C, off 3S=4 on A, out")
    played = sheet.rounds[0]
    assert scores(sheet) == [105, 210]
    assert played.checked(0) == CARDS
    assert played.checked(1) == CARDS  # its lay-off went on melds nobody entered


def test_a_line_says_the_hand_once_and_cards_one_way(sheet):
    enter(sheet, "wild 3H")
    assert "say the cards left in hand (hand 7D 9S), or out" in refused(sheet, "A meld 4S 4H 4D")
    assert "out means no cards left in hand" in refused(sheet, "A meld 4S 4H 4D, out 7D")
    assert "hand is said twice" in refused(sheet, "A meld 4S 4H 4D, out, hand 7D")
    assert "either as melds and lay-offs or as one card list" in \
        refused(sheet, "A meld 4S 4H 4D, cards 9S, out")
    assert "is not a part of a player's line" in refused(sheet, "A meld 4S 4H 4D, discard 9S, out")


def test_a_lay_off_comes_after_ones_own_first_meld(sheet):
    enter(sheet, "wild 3H", "A meld 4S 4H 3D=4, hand 7D")
    assert "B laid off 3S=4 but made no meld: lay-offs come only after one's own first meld" in \
        refused(sheet, "B off 3S=4 on A, out")


@pytest.mark.parametrize(("layoff", "reason"), [
    ("off 3S=5 on A", "3S can stand only for 4 there"),
    ("off 9S on A", "a set of 4s takes only 4s (or a wild)"),
    ("off 3S=5S on A", "3S can stand only for 4"),
    ("off 8C on B", "grows only by the card next to either end"),
    ("off 8D on B", "a run of clubs takes only clubs"),
])
def test_a_lay_off_that_does_not_fit_is_refused_when_the_round_is_complete(sheet, layoff, reason):
    """Lay-offs are checked once every line is in: the line that completes
    the round is refused, naming the lay-off and why."""
    enter(sheet, "wild 3H", f"B meld 4C 3H=5C 6C, {layoff}, hand 9H")
    message = refused(sheet, "A meld 4S 4H 3D=4, hand 7D")
    assert message.startswith("round 1: B's lay-off") and reason in message


def test_a_lay_off_names_a_meld_there_is(sheet):
    enter(sheet, "wild 3H", "A meld 4S 4H 3D=4, meld 9C 10C JC, hand 7D")
    assert "say which of A's 2 melds (on A 1 to on A 2)" in \
        refused(sheet, "B meld 5S 6S 7S, off 4D on A, out")
    assert "B's lay-off QC on A's meld 3: A made 2 melds" in \
        refused(sheet, "B meld 5S 6S 7S, off QC on A 3, out")
    assert "'Z' is not a player here" in refused(sheet, "B meld 5S 6S 7S, off QC on Z 1, out")
    enter(sheet, "B meld 5S 6S 7S, off QC on A 2, off 8S on 1, out")
    assert scores(sheet) == [110 + 30 - 5, 15 + 10 + 10]


def test_a_wild_laid_off_where_both_ends_fit_says_what_it_stands_for(sheet):
    enter(sheet, "wild 3H", "A meld 5C 6C 7C, hand 9D")
    assert "say what the wild 3S stands for on meld 1" in refused(sheet, "B meld 8S 9S 10S, off 3S on A, out")
    enter(sheet, "B meld 8S 9S 10S, off 3S=8C on A, out")
    assert scores(sheet) == [15 - 10, 130]


def test_lay_offs_may_build_on_each_other_in_any_order(sheet):
    """A's 4C goes on A's run only after B's 5C: entered A first, it fits once B's line is in."""
    enter(sheet, "wild 3H", "A meld 6C 7C 8C, off 4C on 1, hand 9D", "B meld 8S 9S 10S, off 5C on A, out")
    assert scores(sheet) == [5 + 5 + 10 + 5 - 10, 30 + 5]


def test_a_score_by_hand_is_accepted_and_marked_unchecked(sheet):
    enter(sheet, "wild 3H", "A score 105", "B meld 4C 3H=5C 6C, off 3S=4 on A, out")
    played = sheet.rounds[0]
    assert scores(sheet) == [105, 210]
    assert played.checked(0) == BY_HAND and played.checked(1) == CARDS
    enter(sheet, "wild 5D", "A score -35", "B score 0")
    assert sheet.totals() == [70, 210]
    assert "takes a whole number" in refused(sheet, "A score lots")
