"""Matching told to people: merged log lines, the rule behind each move, a
round's end, the house rules in the header, and the prompt's keys."""

from __future__ import annotations

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import load_ruleset
from cardcli.kit.cards import parse_card
from cardcli.words.narration import rules_summary
from cardcli_matching.state import DRAW_ACTION, DRAWN, KEEP_ACTION, PLAY

from .conftest import Table

NAMES = ["ann", "bob", "cat"]


class Steps:
    """Moves applied to a table, each kept with the state before it (what a log holds)."""

    def __init__(self, table: Table):
        self.table = table
        self.events: list = []

    def __call__(self, action) -> None:
        self.events.append((self.table.state.clone(), action))
        self.table.state.apply(action)

    def lines(self, viewer):
        return self.table.variant.describe_events(self.events, viewer=viewer, names=NAMES)


def play(card: str, suit: int = -1, call: bool = False):
    return (PLAY, parse_card(card), suit, call)


def drawn(*names: str):
    return (DRAWN, tuple(parse_card(c) for c in names))


def test_a_taken_penalty_is_said_once_with_what_was_drawn():
    t = Table(["2H 5C 6C", "9S 4D 7D", "KC QC JC"], "9H")
    steps = Steps(t)
    steps(play("2H"))
    steps(DRAW_ACTION)
    steps(drawn("3S", "4S"))
    assert steps.lines(viewer=2) == ["ann played 2H on 9H (bob must draw 2 or pass it on)",
                                     "bob took the penalty: drew 2 cards"]
    # bob holds no 2: the rules made him take it, which only he (and a viewer of every hand) is told.
    assert steps.lines(viewer=1)[1] == "bob took the penalty (forced: no 2 to pass it on): drew 3S 4S"
    assert not any("draws 2" in line or "(penalty)" in line for line in steps.lines(viewer=None))


def test_a_move_the_rules_forced_is_told_as_forced_to_its_player_only():
    """ann's only card that plays is played for her: her log says so (as
    trick says a drawn card must be played); the others are not told, since
    whether she had a choice depends on her hidden cards."""
    t = Table(["9S 5C 6C", "2D 4D 7S", "KC QC JC"], "9H")
    steps = Steps(t)
    steps(play("9S"))
    assert steps.lines(viewer=0) == ["ann played 9S on 9H (forced: the only card that plays)"]
    assert steps.lines(viewer=1) == ["ann played 9S on 9H"]
    steps(play("7S"))  # bob chose: 7S or 4D? only 7S plays on 9S, but he may not draw: forced too
    steps(DRAW_ACTION)
    steps(drawn("AH"))
    assert steps.lines(viewer=2)[1:] == ["bob played 7S on 9S", "cat could not play: drew AH"]
    chosen = Table(["9S 9C 6C", "2D 4D 7S", "KC QC JC"], "9H")
    steps = Steps(chosen)
    steps(play("9S"))
    assert steps.lines(viewer=0) == ["ann played 9S on 9H"]  # 9C played too: a choice
    penalty = Table(["2H 5C 6C", "9S 2D 7D", "KC QC JC"], "9H")
    steps = Steps(penalty)
    steps(play("2H"))
    steps(DRAW_ACTION)  # bob could have passed it on with 2D: his choice, not forced
    steps(drawn("3S", "4S"))
    assert steps.lines(viewer=1)[1] == "bob took the penalty: drew 3S 4S"


def test_a_draw_is_one_line_with_what_the_drawer_did_with_the_card():
    t = Table(["9S 5C 6C", "KD 4D 7D", "KC QC JC"], "9H")
    steps = Steps(t)
    steps(DRAW_ACTION if DRAW_ACTION in t.state.legal_actions() else play("9S"))
    assert steps.lines(viewer=1) == ["ann played 9S on 9H"]
    steps(DRAW_ACTION)  # bob: no spade, no 9, no 8
    steps(drawn("5S"))
    steps(play("5S"))
    assert steps.lines(viewer=0)[1] == "bob could not play: drew a card and played 5S on 9S"
    assert steps.lines(viewer=1)[1] == "bob could not play: drew 5S and played 5S on 9S"
    steps(DRAW_ACTION)  # cat: nothing plays on 5S
    steps(drawn("5H"))
    steps(KEEP_ACTION)
    assert steps.lines(viewer=0)[2] == "cat could not play: drew a card and kept it"


def test_a_forgotten_page_one_call_is_one_line():
    t = Table(["9S 5S", "KD 4D", "KC QC"], "9H")
    steps = Steps(t)
    steps(play("9S"))
    steps(drawn("2C", "3C"))
    assert steps.lines(viewer=1) == ["ann played 9S on 9H - forgot to call Page One, so drew 2 cards"]


def test_explain_names_the_rule():
    t = Table(["2H 5C 6C", "2S 4D 7D", "KC QC JC"], "9H")
    variant = t.variant
    assert variant.rule_behind(t.state, play("2H"), NAMES) == \
        "matches the suit of 9H (hearts); the 2 makes bob draw 2 or pass it on"
    t.play("2H")
    assert variant.rule_behind(t.state, play("2S"), NAMES) == \
        "a 2 on a pending 2: the penalty grows to 4 and passes to cat"
    assert variant.rule_behind(t.state, DRAW_ACTION, NAMES) == \
        "facing a draw-two penalty of 2, the only choices are a 2 or taking the penalty"  # the state's words
    no_stacking = Table(["2H 5C 6C", "2S 4D 7D", "KC QC JC"], "9H", stack_twos=False)
    no_stacking.play("2H")
    assert variant.rule_behind(no_stacking.state, DRAW_ACTION, NAMES) == \
        "facing a draw-two penalty of 2, the penalty must be taken (no stacking)"
    t2 = Table(["9S 5C 6C", "KD 4D 7D", "KC QC JC"], "9H")
    t2.play("9S")
    assert variant.rule_behind(t2.state, DRAW_ACTION, NAMES) == "must draw: no spade, no 9 and no 8 in hand"
    t3 = Table(["8S 5C 6C", "KD 4D 7D", "JS QC JC"], "9H")
    assert variant.rule_behind(t3.state, play("8S", 2), NAMES) == \
        "8s are wild: an 8 goes on anything; it names diamonds"
    t3.play("8S", "D")
    assert variant.rule_behind(t3.state, play("4D"), NAMES) == "follows diamonds, the suit the 8 named"
    t3.play("4D")
    assert variant.rule_behind(t3.state, play("JS"), NAMES).endswith("the J skips ann")


def test_round_summary_shows_every_hand_and_the_scores():
    t = Table(["5H 6S 7S", "KD 4D 7D", "KC QC JC"], "9H", rounds=3)
    t.state.hands[0] = [parse_card("5H")]  # ann's last card
    text = t.variant.round_summary(t.state, play("5H"), NAMES)
    assert text.splitlines()[0] == "Round 1 of 3 is over: ann went out."
    assert "  bob  21 points  (total 21)  4D 7D KD" in text
    assert "  ann   0 points  (total  0)  -" in text
    assert t.variant.round_summary(t.state, DRAW_ACTION, NAMES) is None
    one = Table(["5H 6S 7S", "KD 4D 7D", "KC QC JC"], "9H")
    one.state.hands[0] = [parse_card("5H")]
    assert one.variant.round_summary(one.state, play("5H"), NAMES) is None  # the game's end says it


def test_house_rules_in_a_few_words():
    registry = get_registry()
    variant = registry.get("matching")
    american = load_ruleset("american", registry, "matching")
    assert rules_summary(variant, american.options) == [
        "A skips", "9 reverses", "3s draw three", "a 5-card Page One penalty", "play on for every place",
        "5 rounds"]
    standard = load_ruleset("standard", registry, "matching")
    assert rules_summary(variant, standard.options) == []


class Answers:
    """Answers a dialogue's questions from a list, and keeps what it showed and offered."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.shown: list[str] = []
        self.keys: dict = {}

    def show(self, text=""):
        self.shown.append(text)

    def ask(self, prompt, default=None, again=()):
        self.shown.append(prompt)
        return self.answers.pop(0)

    def offer(self, keys):
        self.keys = dict(keys)


def test_the_prompt_offers_only_keys_that_work_and_says_why_not():
    t = Table(["2C 5C 9S", "KD 4D 7D"], "9C")
    ui = Answers(["d", "k", "p", "7", "1"])
    action = t.variant.human_turn(t.state, 0, t.state.legal_actions(), ui)
    assert action == play("9S")  # the menu lists cards by suit: 9S, 2C, 5C
    prompts = [line for line in ui.shown if line.startswith("Your move")]
    assert prompts[0] == "Your move (number, a card like 8s)"  # no d, k or p: none works now
    # The rules' reasons, in the state's words, with what could be played instead.
    assert "Not allowed: may not draw while holding a playable card (could play 2C, 5C or 9S)." in ui.shown
    assert "Not allowed: there is no drawn card to keep (could play 2C, 5C or 9S)." in ui.shown
    assert "Page One is called with the play that leaves you one card; not now." in ui.shown
    assert "Type a number from 1 to 3." in ui.shown
    assert ui.keys[play("9S")] == "1" and ui.keys[play("5C")] == "3"


def test_after_a_draw_the_prompt_offers_keep_and_refuses_a_second_draw():
    t = Table(["KD 5D 6S", "KS 4S 7S"], "9C")
    t.draw("9H")
    ui = Answers(["d", "k"])
    assert t.variant.human_turn(t.state, 0, t.state.legal_actions(), ui) == KEEP_ACTION
    assert next(line for line in ui.shown if line.startswith("Your move")) == \
        "Your move (number, a card like 8s, k to keep)"
    assert "Not allowed: only the drawn card may be played, or kept (could play 9H or keep it)." in ui.shown
    assert ui.keys[KEEP_ACTION] == "2"


def test_a_call_after_a_draw_is_told_with_one_and():
    t = Table(["9S 5C 6C", "KD 4D 7H", "KC QC JC"], "9H")
    for card in ("4D", "7H"):  # bob holds KD alone: the card he draws and plays leaves him one
        t.state.hands[1].remove(parse_card(card))
    steps = Steps(t)
    steps(play("9S"))
    steps(DRAW_ACTION)  # bob: no spade, no 9
    steps(drawn("5S"))
    steps(play("5S", call=True))
    line = steps.lines(viewer=0)[1]
    assert line == 'bob could not play: drew a card, called "Page One!" and played 5S on 9S'
    assert line.count(" and ") == 1
