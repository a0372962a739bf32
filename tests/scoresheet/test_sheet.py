"""The page: rounds one after another with the deal moving left, the totals
and who leads, the end of the page, undo, edit and the words the sheet reads."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcli.realtable import sheet_export as export
from cardcli.realtable.sheet import Sheet, SheetError

from .conftest import WORKED, enter, make_sheet


def refused(sheet: Sheet, line: str) -> str:
    before = (sheet.rounds, sheet.editing)
    with pytest.raises(SheetError) as error:
        sheet.enter(line)
    assert (sheet.rounds, sheet.editing) == before
    return str(error.value)


def by_hand(sheet: Sheet, wild: str, *points: int) -> None:
    enter(sheet, f"wild {wild}", *(f"{name} score {score}" for name, score in zip(sheet.names, points)))


def test_the_deal_moves_left_each_round_and_the_totals_run():
    sheet = make_sheet(("ann", "bob", "cat"), dealer=2)
    for wild, points in (("5D", (10, 20, 30)), ("6D", (5, -5, 0)), ("7D", (0, 0, 40))):
        by_hand(sheet, wild, *points)
    assert [r.dealer for r in sheet.rounds] == [2, 0, 1]
    assert sheet.running() == [[10, 20, 30], [15, 15, 30], [15, 15, 70]]
    assert sheet.leaders() == [2]
    assert export.standing(sheet) == "cat leads by 55."


def test_the_end_of_the_page_ends_the_game():
    sheet = make_sheet(page_lines=2)
    by_hand(sheet, "5D", 10, 20)
    assert sheet.over() is None
    by_hand(sheet, "6D", 30, 0)
    assert sheet.over() == "the end of the page: 2 rounds played"
    assert "the game is over" in refused(sheet, "wild 7D")
    assert "the game is over" in refused(sheet, "A score 5")
    result = sheet.result()
    assert result is not None and result.places == [1, 2] and result.scores == [40, 20]
    assert export.standing(sheet) == "A wins with 40."


def test_a_tie_for_first_has_no_single_winner():
    sheet = make_sheet(page_lines=1)
    by_hand(sheet, "5D", 20, 20)
    result = sheet.result()
    assert result is not None and result.places == [1, 1] and result.winner is None
    assert export.standing(sheet) == "A and B share first place with 20."


def test_a_target_score_ends_the_game_after_the_round_that_reaches_it():
    sheet = make_sheet(target_score=100)
    by_hand(sheet, "5D", 60, 20)
    by_hand(sheet, "6D", 50, 0)
    assert sheet.over() == "a total reached 100 after round 2"
    assert "the game is over" in refused(sheet, "wild 7D")


def test_a_round_opens_only_when_the_one_before_is_complete(sheet):
    enter(sheet, "wild 3H", "A score 5")
    assert "round 1 is not complete (B to enter): edit 1 changes the dealer's wild card (3H)" in \
        refused(sheet, "wild 5D")
    enter(sheet, "B score 7")
    assert "round 2 starts with the dealer's wild card (A deals): wild 3H" in refused(sheet, "A score 1")


def test_a_line_entered_again_replaces_the_first(sheet):
    enter(sheet, "wild 3H", "A meld 4S 4H 4D, hand 9C", "A meld 4S 4H 4D, out")
    assert sheet.rounds[0].score(0) == 15 and len(sheet.rounds[0].lines) == 1


def test_undo_takes_back_each_entry_in_turn(sheet):
    enter(sheet, *WORKED, "wild 5D", "A score 10")
    assert sheet.totals() == [105, 210] and sheet.rounds[1].score(0) == 10
    enter(sheet, "undo")
    assert sheet.rounds[1].score(0) is None
    enter(sheet, "undo")
    assert len(sheet.rounds) == 1
    enter(sheet, "undo")
    assert sheet.current is not None and sheet.totals() == [0, 0]
    enter(sheet, "undo", "undo")
    assert sheet.rounds == ()
    assert refused(sheet, "undo") == "nothing to undo"


def test_edit_corrects_a_round_and_the_totals_follow(sheet):
    enter(sheet, *WORKED)
    by_hand(sheet, "5D", 10, 20)
    enter(sheet, "edit 1", "A meld 4S 4H 3D=4, out")
    assert sheet.editing == 0 and sheet.totals() == [110 + 10, 230]
    enter(sheet, "done")
    assert sheet.editing is None
    enter(sheet, "undo", "undo", "undo")  # done, the line, edit
    assert sheet.totals() == [115, 230] and sheet.editing is None


def test_a_corrected_wild_card_checks_every_line_again(sheet):
    enter(sheet, *WORKED, "edit 1")
    message = refused(sheet, "wild 5H")
    assert message.startswith("round 1: A's meld 4S 4H 3D=4: 3D is given a meaning (=), but it is not wild")
    enter(sheet, "wild 3S")
    assert sheet.rounds[0].scored.opening == "3S" and sheet.totals() == [105, 210]


def test_edit_and_done_refuse_what_is_not_there(sheet):
    assert "there is no round 1 to correct (the sheet has no round yet)" in refused(sheet, "edit 1")
    enter(sheet, *WORKED)
    assert "(the sheet has round 1)" in refused(sheet, "edit 3")
    assert "nothing is being corrected" in refused(sheet, "done")
    assert "say which round to correct: edit 2" in refused(sheet, "edit two")
    enter(sheet, "edit 1")
    assert "say whose line it is" in refused(sheet, "meld 4S 4H 4D, out")


def test_an_edit_that_would_end_the_game_earlier_is_refused():
    sheet = make_sheet(target_score=100)
    by_hand(sheet, "5D", 60, 20)
    by_hand(sheet, "6D", 30, 0)
    enter(sheet, "edit 1")
    assert "the game would end after round 1 (a total reached 100 after round 1), but the sheet goes on " \
           "to round 2" in refused(sheet, "A score 100")


def test_words_alone_go_to_the_round_s_opening_or_the_next_player(sheet):
    assert sheet.enter("3H").text == "wild 3H"
    # A first: the dealer's left.
    assert sheet.enter("meld 4S 4H 3D=4, hand 7D").text == "A meld 4S 4H 3D=4, hand 7D"
    assert sheet.enter("meld 4C 3H=5C 6C, off 3S=4 on A, out").text == \
        "B meld 4C 3H=5C 6C, off 3S=4 on A, out"
    assert sheet.totals() == [105, 210]
    assert sheet.enter("  # a comment  ") is None and sheet.enter("") is None


def test_a_misspelt_name_is_pointed_out():
    sheet = make_sheet(("mom", "me"))
    enter(sheet, "wild 3H")
    assert "(is 'mum' a misspelt mom?)" in refused(sheet, "mum meld 4S 4H 4D, out")


@pytest.mark.parametrize(("names", "reason"), [
    (("undo", "me"), "a player may not be called 'undo'"),
    (("wild", "me"), "a player may not be called 'wild'"),
    (("mom", "Mom"), "two players are called 'Mom'"),
    (("a:b", "me"), "may not hold a comma, a colon or #"),
    (("", "me"), "may not be empty"),
])
def test_names_the_words_can_tell_apart(names, reason):
    with pytest.raises(SheetError) as error:
        make_sheet(names)
    assert reason in str(error.value)


def test_a_name_may_have_spaces_and_a_colon_after_it():
    sheet = make_sheet(("aunt may", "me"), dealer=1)
    enter(sheet, "wild 3H", "Aunt May: meld 4S 4H 3D=4, hand 7D",
          "me meld 4C 3H=5C 6C, off 3S=4 on aunt may, out")
    assert sheet.totals() == [105, 210]


def test_a_variant_without_the_ability_keeps_no_sheet():
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset

    matching = get_registry().get("matching")
    with pytest.raises(SheetError) as error:
        Sheet(matching, default_ruleset(matching).options, ["a", "b"])
    assert "matching keeps no score sheet" in str(error.value)


def test_the_page_shows_the_rounds_the_totals_who_leads_and_the_marks(sheet):
    enter(sheet, *WORKED, "wild 5D", "A cards 6S 7S 8S 5C*, hand 9D", "B score 40")
    text = "\n".join(export.page(sheet))
    assert "End of the Page: A and B" in text
    assert "      1   105    210    (B dealt, 3s wild)" in text
    assert "      2   110~    40?   (A dealt, 5s wild)" in text
    assert "  total   215    250 " in text
    assert "B leads by 35." in text
    assert "? entered by hand, not checked" in text and "~ cards counted, not checked (cards listed" in text


def test_the_exports_hold_the_same_sheet(sheet):
    enter(sheet, *WORKED, "wild 5D", "A score 10")
    data = export.as_dict(sheet)
    assert data["totals"] == [105, 210] and data["leaders"] == ["B"]
    first, second = data["rounds"]
    assert first["wild"] == "3H" and first["dealer"] == "B" and first["complete"]
    assert [p["score"] for p in first["players"]] == [105, 210]
    assert first["players"][0]["words"] == "meld 4S 4H 3D=4, hand 7D"
    assert not second["complete"] and second["players"][0]["checked"] == "by hand"
    assert export.csv_text(sheet).splitlines() == ["round,dealer,wild,A,B,by hand", "1,B,3H,105,210,",
                                                   "total,,,105,210,"]


WORDS = ["wild", "A", "B", "a:", "meld", "off", "on", "hand", "out", "cards", "score", "undo", "edit", "done",
         "3H", "3D=4", "3S=5C", "4S", "4H", "4C", "5C", "6C", "AS", "2H", "JK", "10D*", "=", "*", ",", "1",
         "2", "-7", "x", "#", "99999999999999999999", "\u00b2", "\t"]
LINES = st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=9).map(" ".join)


@settings(max_examples=120, deadline=None)
@given(st.lists(LINES, max_size=14))
def test_no_line_gets_anything_but_a_clear_refusal(lines):
    """Whatever is typed, an entry is taken or refused with one line saying
    why, and a refused one leaves the sheet as it was."""
    sheet = make_sheet(page_lines=2)
    for line in lines:
        before = (sheet.rounds, sheet.editing)
        try:
            sheet.enter(line)
        except SheetError as error:
            assert str(error) and "\n" not in str(error) and "Traceback" not in str(error)
            assert (sheet.rounds, sheet.editing) == before
        assert sheet.totals() == [sum(r.score(s) or 0 for r in sheet.complete_rounds()) for s in (0, 1)]


def test_in_japanese_the_opening_word_shown_is_the_japanese_entry_word_and_the_exports_stay_english():
    """The served page's column and the round's prompt say ワイルド (an entry word the sheet
    reads); the JSON and the CSV keep the English word."""
    import json

    from cardcli.kit.language import speaking
    from cardcli.realtable.sheet_session import SheetSession

    sheet = enter(make_sheet(), *WORKED)
    session = SheetSession(sheet, None, print)  # type: ignore[arg-type]  # no file: only asked
    with speaking("ja"):
        assert export.sheet_view(sheet).columns[2] == "ワイルド"
        assert session.prompt() == "第2ラウンド(親はA)、ワイルド"
        assert sheet.parse("ワイルド ハート5").text == "wild 5h"
    with speaking("en"):
        assert export.sheet_view(sheet).columns[2] == "wild"
        assert session.prompt() == "round 2 (A deals), wild"
        assert export.csv_text(sheet).startswith("round,dealer,wild,")
        assert "wild" in json.dumps(export.as_dict(sheet))


class _NoFile:
    """A sheet's file that keeps nothing."""

    path = "sheet.jsonl"

    def entry(self, text: str) -> None:
        pass


def test_the_help_lists_score_once_and_in_japanese_its_left_column_has_no_english_or():
    from cardcli.kit.language import speaking
    from cardcli.realtable.sheet_session import SheetSession

    session = SheetSession(make_sheet(), _NoFile(), print)  # type: ignore[arg-type]
    for language in ("en", "ja"):
        with speaking(language):
            shown = session.help()
        assert len([line for line in shown if line.split()[:2] == ["score", "105"]]) == 1, shown
        if language == "ja":
            assert not [line for line in shown if " or " in line], shown


def test_in_japanese_edit_offers_the_japanese_words_for_the_wild_card_and_done():
    from cardcli.kit.language import speaking
    from cardcli.realtable.sheet_session import SheetSession

    session = SheetSession(enter(make_sheet(), *WORKED), _NoFile(), print)  # type: ignore[arg-type]
    with speaking("ja"):
        said = session.enter("訂正 1")
    assert said is not None
    assert "ワイルド ..." in said[0] and "完了" in said[0], said[0]
    assert "wild" not in said[0] and "done" not in said[0], said[0]
    session.enter("完了")
    with speaking("en"):
        said = session.enter("edit 1")
    assert said is not None and said[0] == ("Correcting round 1: enter any player's line again (NAME ...) or "
                                            "wild ..., then done.")
