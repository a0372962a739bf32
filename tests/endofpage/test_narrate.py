"""End of the Page told to people: draws in one line, the rule behind each
move, the round's final table, the house rules, and the prompt's keys."""

from __future__ import annotations

import io

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.cards import parse_card
from cardcli.records.reader import RecordVisitor, read_record
from cardcli.words.narration import rules_summary
from cardcli_endofpage.state import DISCARD, LAYOFF

from .conftest import WORKED, record, table


def worked_events():
    """The worked check of docs/variants/endofpage.md as (state before, action) pairs."""

    class Events(RecordVisitor[list]):
        def begin_record(self, source):
            self.events = []

        def visit_event(self, game, event):
            self.game = game
            self.events.append((game.state.clone(), event.action))

        def result(self):
            return self.events

    visitor = Events()
    events = read_record(io.BytesIO(record(WORKED)), "worked", get_registry(), visitor)
    return visitor.game.variant, events


def test_a_draw_from_the_stock_is_one_line_with_its_card():
    variant, events = worked_events()
    lines = variant.describe_events(events, viewer=0, names=["ann", "bob"])
    assert "ann drew 7D from the stock" in lines and "bob drew a card from the stock" in lines
    assert "bob took 6C from the discard pile" in lines
    assert "bob laid off 3S (as 4) on meld 1 (ann's)" in lines
    assert not any(line.endswith("drew from the stock") for line in lines)


def test_explain_names_the_rule():
    variant, events = worked_events()
    said = {variant.encode_action(state, action).get("move"):
            variant.rule_behind(state, action, ["ann", "bob"])
            for state, action in events if state.current_player() >= 0}
    assert said["meld"] == ("a run: three or more clubs in sequence; 3s are wild this round: "
                            "3H stands for 5C; a first meld opens lay-offs on any meld")
    assert said["layoff"] == ("after a first meld, a card may be laid off on any meld: 3S extends ann's "
                              "set of 4s; 3s are wild this round: 3S stands for 4; a last card that plays "
                              "must be played")
    assert said["take"].startswith("each turn starts with a draw: the top discard")
    deal = next(variant.rule_behind(s, a, None) for s, a in events if a[0] == 0 and s.deal_seat == 1)
    assert deal.startswith("the turned-up 3H sets the hand: 3 cards; the dealer's first turned card")


def test_the_round_summary_shows_the_final_table_and_the_scores(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=2)
    text = variant.round_summary(state, (DISCARD, parse_card("9D")), ["ann", "bob"])
    lines = text.splitlines()
    assert lines[0] == "Round 1 of 2 is over: ann went out."
    assert "  1. ann: AH AD AC  [set of aces]" in lines
    assert any(line.startswith("  ann ") and "= " in line and "no cards (out)" in line for line in lines)
    assert any(line.startswith("  bob ") and "QS | QH | QD | 4C" in line for line in lines)
    assert "Score sheet:" in text
    last = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=1)
    assert variant.round_summary(last, (DISCARD, parse_card("9D")), ["ann", "bob"]) is None


def test_house_rules_in_a_few_words():
    registry = get_registry()
    variant = registry.get("endofpage")
    assert rules_summary(variant, load_ruleset("short", registry, "endofpage").options)
    assert rules_summary(variant, {"page_lines": 3, "target_score": 500, "wild_value": 50}) == [
        "3 rounds", "first to 500 points", "wilds 50 points"]


class Answers:
    def __init__(self, answers):
        self.answers = list(answers)
        self.shown: list[str] = []

    def show(self, text=""):
        self.shown.append(text)

    def ask(self, prompt, default=None, again=()):
        self.shown.append(prompt)
        return self.answers.pop(0)

    def offer(self, keys):
        self.keys = dict(keys)


def test_the_prompt_offers_only_what_can_be_done_and_says_why_not(variant):
    state = table(hands=["9D KS 4C", "QH QD QS"], turn=0, melds=[(1, "AC AD AH")])
    ui = Answers(["l 9d 1", "m 9d ks 4c", "draw", "d 9d"])
    action = variant.human_turn(state, 0, state.legal_actions(), ui)
    assert action == (DISCARD, parse_card("9D"))
    assert ui.shown[1] == "Discard (d)? (help, ? for a hint)"
    # The rules' reasons, in the state's words.
    assert "Not allowed: lay-offs are allowed only after your own first meld." in ui.shown
    assert "You can't meld: no three cards of your hand make a set or a run." in ui.shown
    assert "Not allowed: already drew this turn: meld, lay off or discard." in ui.shown
    last = table(hands=["4D", "QH"], melds=[(0, "4S 4H 3D=4")], turn=0)
    ui = Answers(["d 4d", "l 4d 1"])
    action = variant.human_turn(last, 0, last.legal_actions(), ui)
    assert action == (LAYOFF, 0, parse_card("4D"), 4)
    assert ("You can't discard: your last card 4D plays (on meld 1): it must be played, not discarded to go "
            "out.") in ui.shown


def test_the_draw_menu_says_why_a_command_of_the_rest_of_the_turn_waits(variant):
    from cardcli_endofpage.state import DRAW_ACTION, P_DRAW, TAKE

    state = table(hands=["9D KS 4C", "QH QD QS"], turn=0, phase=P_DRAW, discard="5H 10D")
    legal = state.legal_actions()
    ui = Answers(["d 9d", "m 9d ks 4c", "l 9d 1", "list", "help", "x", "7", "2"])
    assert variant.human_turn(state, 0, legal, ui) == (TAKE, parse_card("10D"))
    said = [line for line in ui.shown if not line.startswith("  [") and line != "Draw from"]
    assert said[0] == ("Draw first: the stock (1) or the top discard, 10D (2); a discard ends your turn, "
                       "after the draw.")
    assert said[1] == "Draw first: the stock (1) or the top discard, 10D (2); melds come after the draw."
    assert said[2] == ("Draw first: the stock (1) or the top discard, 10D (2); lay-offs come after the "
                       "draw.")
    assert said[3].startswith("Draw first:") and "list shows the melds" in said[3]
    assert said[4].startswith("Draw first:") and "deeper discard may be taken only to meld it" in said[4]
    assert said[5:] == ["Type a number from 1 to 2.", "Type a number from 1 to 2."]
    for typed, action in (("draw", DRAW_ACTION), ("s", DRAW_ACTION), ("take", (TAKE, parse_card("10D"))),
                          ("1", DRAW_ACTION)):
        assert variant.human_turn(state, 0, legal, Answers([typed])) == action


def test_the_draw_menu_points_to_a_deep_pickup_for_a_meld(variant):
    from cardcli_endofpage.state import P_DRAW, PICKUP

    state = table(hands=["9D 9S 4C", "QH QD QS"], turn=0, phase=P_DRAW, discard="9H 5H 10D")
    legal = state.legal_actions()
    number = next(n for n, a in enumerate(legal, start=1) if a[0] == PICKUP)
    ui = Answers(["m 9d 9s 9h", str(number)])
    assert variant.human_turn(state, 0, legal, ui)[0] == PICKUP
    assert (f"Draw first: the stock (1) or the top discard, 10D (2); melds come after the draw. A deeper "
            f"discard can be picked up to meld it at once: {number} above.") in ui.shown
