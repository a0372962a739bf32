"""Trick told to people: drawing in one line, the rule behind each move, a
deal's end, the house rules, and the prompt's keys."""

from __future__ import annotations

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.cards import parse_card
from cardcli.words.narration import rules_summary
from cardcli_trick.state import DRAW_ACTION, DRAWN, PLAYS

from .conftest import Table
from .test_play import human

NAMES = ["ann", "bob", "cat"]


def events_of(t: Table, actions):
    events = []
    for action in actions:
        events.append((t.state.clone(), action))
        t.state.apply(action)
    return events


def drawn(card: str):
    return (DRAWN, (parse_card(card),))


def test_drawing_to_follow_is_one_line_ending_in_the_play():
    t = Table(["9C 3H 4S 5S", "2H 2S 3S 4D", "AH 5D 6D 7D"])
    t.set_stock("5D 9S JK 4C KH")
    events = events_of(t, [PLAYS[parse_card("9C")][False], DRAW_ACTION, drawn("9S"), drawn("JK"),
                           drawn("4C"), PLAYS[parse_card("4C")][False]])
    variant = t.variant
    lines = variant.describe_events(events, viewer=0, names=NAMES)
    assert lines == ["ann led 9C", "bob could not follow clubs: drew 3 cards, played 4C"]
    mine = variant.describe_events(events, viewer=1, names=NAMES)
    assert mine[1] == "bob could not follow clubs: drew 9S JK 4C, played 4C"
    # Before the drawn club is played (the drawer's prompt), the line ends at the draw.
    assert variant.describe_events(events[:5], viewer=1, names=NAMES)[1] == \
        "bob could not follow clubs: drew 9S JK 4C"


def test_a_forgotten_call_and_its_penalty_are_one_line():
    t = Table(["9H 3C 4S", "7H 2S 3S"])
    t.set_stock("5D 9S JK 4C KH 2D 3D")
    events = events_of(t, [PLAYS[parse_card("9H")][False], PLAYS[parse_card("7H")][False],
                           PLAYS[parse_card("3C")][False],
                           (DRAWN, tuple(parse_card(c) for c in ["5D", "9S", "JK", "4C", "KH"]))])
    lines = t.variant.describe_events(events, viewer=1, names=NAMES)
    assert lines[-1] == "ann led 3C - forgot to call Page One, so drew 5 cards"


def test_explain_names_the_rule():
    t = Table(["9C 3H 4S 5S", "2H 2S 3S 4D", "AH 5D 6D 7C"])
    t.set_stock("5D 9S JK 4C KH")
    variant = t.variant
    assert variant.rule_behind(t.state, PLAYS[parse_card("9C")][False], NAMES) == "leads: any card may lead"
    t.play("9C")
    assert variant.rule_behind(t.state, DRAW_ACTION, NAMES) == \
        "must draw: no club in hand; drawing to follow clubs until a club comes"
    t.draw()
    assert variant.rule_behind(t.state, drawn("9S"), NAMES) == ""  # the draw said it
    t.deliver("4C")
    assert variant.rule_behind(t.state, PLAYS[parse_card("4C")][False], NAMES) == \
        "must play the drawn 4C at once, not draw again"  # the state's words
    t.play("4C")
    assert variant.rule_behind(t.state, PLAYS[parse_card("7C")][False], NAMES) == \
        "follows clubs; the trick is complete: ann takes it with the highest club and leads next"


def test_deal_summary_in_a_match():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=3)
    t.state.hands[0] = [parse_card("9H")]
    text = t.variant.round_summary(t.state, PLAYS[parse_card("9H")][False], ["you", "bob"])
    assert text.splitlines()[0] == "Deal 1 of 3 is over: you played your last card."
    assert "bob  0 deals won  left holding: 2S 3S 4D 2C" in text
    assert "you  1 deal won" in text
    single = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    single.state.hands[0] = [parse_card("9H")]
    assert single.variant.round_summary(single.state, PLAYS[parse_card("9H")][False], NAMES) is None


def test_house_rules_in_a_few_words():
    registry = get_registry()
    variant = registry.get("trick")
    assert rules_summary(variant, load_ruleset("five-cards", registry, "trick").options) == ["5 cards each"]
    assert rules_summary(variant, load_ruleset("best-of-five", registry, "trick").options) == ["5 deals"]


def test_the_prompt_offers_d_only_when_drawing_is_allowed_and_says_why_not():
    t = Table(["9H 3C 4S", "QH 2H 3S"])
    t.play("9H")
    action, ui = human(t, ["d", "1"])
    prompts = [line for line in ui.shown if line.startswith("Your move")]
    assert prompts and not any("d to draw" in line for line in prompts)
    # The rules' reasons, in the state's words, with what could be played instead.
    assert "Not allowed: may not draw while able to follow hearts (could play QH or 2H)." in ui.text
    assert action == PLAYS[parse_card("2H")][False]
    lead = Table(["9H 3C 4S", "QH 2H 3S"])
    action, ui = human(lead, ["d", "3"])
    assert "Not allowed: may not draw: holding a card to lead (could play 9H, 3C or 4S)." in ui.text
    joker = Table(["JK 3C 4S", "QH 2H 3S"])
    joker.play("JK")
    action, ui = human(joker, ["d", "1"])
    assert "Not allowed: may not draw: any card may be played after a led joker (could play QH, 2H or 3S)." \
        in ui.text
    t2 = Table(["9H 3C 4S", "2C 2S 3S"])
    t2.play("9H")
    action, ui = human(t2, ["d"])
    assert "d to draw" in ui.text and action == DRAW_ACTION


def test_a_card_after_the_joker_names_the_suit_to_follow_only_while_someone_follows():
    """After a joker lead the next card sets the suit: "(hearts to follow)"
    while others must follow, nothing when it completes the trick."""
    three = Table(["JK 3C 4S", "2H 2S 3S", "AH 5D 6D"])
    three.play("JK")
    assert three.variant.describe(three.state, PLAYS[parse_card("2H")][False], names=NAMES) == \
        "played 2H on the led joker (hearts to follow)"
    heads_up = Table(["JK 3C 4S", "2H 2S 3S"])
    heads_up.play("JK")
    said = heads_up.variant.describe(heads_up.state, PLAYS[parse_card("2H")][False], names=NAMES)
    assert said.startswith("played 2H on the led joker; the trick goes to ") and "to follow" not in said
