"""What people read: the end of a round announced with its scores, names on
the score sheet, the last round's table at the end, refusals with reasons."""

from __future__ import annotations

import re

import pytest

from cardcli.kit.cards import parse_card
from cardcli.kit.errors import IllegalMove
from cardcli_endofpage.state import DISCARD, DRAW_ACTION, DRAWN, LAYOFF
from cardcli_endofpage.table import render_table

from .conftest import table


def c(name: str) -> int:
    return parse_card(name)


def test_the_discard_that_ends_a_round_says_so_and_the_summary_gives_the_scores(variant):
    """The scores are said once, on the round's summary screen that follows
    the line (in play, replay and at a served table), not in the line too."""
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=2)
    text = variant.describe(state, (DISCARD, c("9D")), 1, ["ann", "bob"])
    assert text == "discarded 9D and went out. Round 1 is over"
    summary = variant.round_summary(state, (DISCARD, c("9D")), ["ann", "bob"])
    assert summary.startswith("Round 1 of 2 is over: ann went out.")
    assert re.search(r"ann +300 on the table - +0 in hand = +300", summary)
    assert re.search(r"bob +0 on the table - +35 in hand = +-35", summary)
    state.hands[0].append(c("KD"))
    assert variant.describe(state, (DISCARD, c("9D")), 1, ["ann", "bob"]) == "discarded 9D"


def test_a_round_ended_by_another_players_move_says_who_went_out(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=0, melds=[(0, "AC AD AH")], page_lines=2)
    state.apply((DISCARD, c("9D")))
    assert state.round == 0 and state.turn == 1  # bob has his last turn
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("KD")))
    text = variant.describe(state, (DISCARD, c("4C")), 0, ["ann", "bob"])
    assert text == "discarded 4C. Round 1 is over (ann went out)"


def test_score_sheet_names_players_and_the_end_shows_the_last_round(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=1)
    state.apply((DISCARD, c("9D")))
    text = render_table(state, None, ["you", "bob"])
    assert "(you went out)" in text and "seat 0" not in text
    assert "The last round, round 1, as it ended (you went out):" in text
    assert "1. you: AH AD AC" in text and "bob's hand: QS | QH | QD | 4C" in text


def test_lay_off_on_your_meld_reads_yours(variant):
    state = table(hands=["4D 9S", "QH"], melds=[(0, "4S 4H 3D=4")], turn=0)
    assert variant.describe(state, (LAYOFF, 0, c("4D"), 4), 1, ["you", "cpu1"]) == \
        "laid off 4D on meld 1 (yours)"
    assert variant.describe(state, (LAYOFF, 0, c("4D"), 4), 1, ["ann", "cpu1"]).endswith("(ann's)")


@pytest.mark.parametrize("hand,meld,card,reason", [
    ("3S 9S", "5C 3D=6C 7C", "3S", "two wilds need two naturals between them (at the low and high ends)"),
    ("3S 9S", "3D=QC KC AC", "3S", "two wilds need two naturals between them (at the low end)"),
    ("9S 8D", "5C 6C 7C", "9S", "a run of clubs takes only clubs"),
    ("9S 8D", "5C 6C 7C", "9S", "a run of clubs takes only clubs"),
    ("9C 8D", "5C 6C 7C", "9C", "grows only by the card next to either end"),
    ("9C 8D", "4S 4H 4D", "9C", "a set of 4s takes only 4s (or a wild)"),
])
def test_lay_off_refusals_say_why(hand, meld, card, reason):
    state = table(hands=[hand, "QH"], melds=[(0, meld)], turn=0)
    with pytest.raises(IllegalMove) as error:
        state.check((LAYOFF, 0, c(card), 8))
    assert reason in error.value.rule
