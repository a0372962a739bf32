"""What people and CPUs see and do: descriptions, the table, the human's
dialogue and the CPU strengths."""

from __future__ import annotations

import random

from cardcli.cpu.players import default_seats, parse_players
from cardcli.cpu.simulate import run
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import JOKER, SUIT, parse_card
from cardcli.unseen.knowledge import redeal
from cardcli_trick import cpu
from cardcli_trick.state import DRAW_ACTION, DRAWN, PLAYS

from .conftest import Table

NAMES = ["ann", "bob", "cat"]


class FakeUI:
    """Answers prompts from a list and keeps what was shown."""

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

    @property
    def text(self):
        return "\n".join(self.shown)


def human(t: Table, answers):
    ui = FakeUI(answers)
    seat = t.turn
    action = t.variant.human_turn(t.state, seat, t.state.legal_actions(), ui)
    assert action in t.state.legal_actions()
    return action, ui


# --- descriptions and the table ----------------------------------------------------------------------------
def test_drawn_cards_shown_to_the_drawer_only():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D", "AH 5D 6D 7D"])
    t.play("9H")
    t.draw()
    action = (DRAWN, (parse_card("8C"),))
    assert t.variant.describe(t.state, action, viewer=1, names=NAMES) == "bob drew 8C, drawing on"
    assert t.variant.describe(t.state, action, viewer=0, names=NAMES) == "bob drew a card"
    t.state.apply(action)
    action = (DRAWN, (parse_card("KH"),))
    assert t.variant.describe(t.state, action, viewer=None, names=NAMES) == \
        "bob drew KH, a heart: it must be played (2 drawn)"
    assert t.variant.describe(t.state, action, viewer=2, names=NAMES) == "bob drew a card (2 drawn)"
    assert "is drawing: 1 card so far" in t.variant.render(t.state, viewer=0, names=NAMES)


def test_table_shows_trick_suit_winner_counts_stock_and_tricks():
    t = Table(["9H 3C 4S 5S", "QH 2S 3S 4D", "AS 5D 6D 7D"])
    t.play("9H")
    t.play("QH")
    text = t.variant.render(t.state, viewer=2, names=NAMES)
    assert "stock: 41" in text and "finished tricks: 0" in text
    assert "Trick: ann 9H, bob QH  (hearts to follow; winning: bob with QH)" in text
    assert "AS 5D 6D 7D" in text and "3C" not in text  # only the viewer's hand
    assert " 3 cards" in text and " 4 cards" in text
    t.draw()
    t.deliver("2H")
    t.play("2H")
    text = t.variant.render(t.state, viewer=None, names=NAMES)
    assert "finished tricks: 1 (3 cards)" in text
    assert "Last trick: ann 9H, bob QH, cat 2H  (won by bob, who leads)" in text


def test_table_keeps_the_last_trick_beside_the_trick_in_progress():
    t = Table(["9H 3C 4S 5S", "QH 2S 3S 4D", "2H 5D 6D 7D"])
    t.play("9H")
    t.play("QH")
    t.play("2H")
    t.play("2S")  # bob leads the next trick
    text = t.variant.render(t.state, viewer=0, names=NAMES)
    assert "Last trick: ann 9H, bob QH, cat 2H  (won by bob)" in text
    assert "Trick: bob 2S  (spades to follow; winning: bob with 2S)" in text
    assert text.index("Last trick:") < text.index("Trick: bob")


def test_table_at_the_end_shows_the_unfinished_trick_without_a_winner():
    t = Table(["9H 3C 4S", "7H 2S 3S", "AH 5D 6D"])
    t.set_hand(1, "7H")
    t.play("9H")
    t.play("7H")
    text = t.variant.render(t.state, viewer=None, names=NAMES)
    assert "Trick left unfinished: ann 9H, bob 7H" in text
    assert "winning:" not in text and "to follow" not in text
    assert "Deal over" not in text  # the end of the game says how it ended, once
    assert not any(line.endswith(" ") for line in text.splitlines())  # bob's empty hand


def test_match_table_shows_the_tally_once_and_the_deal_just_finished():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=3)
    text = t.variant.render(t.state, viewer=0, names=NAMES)
    assert "Deal 1 of 3" in text and "Deals won: ann 0, bob 0" in text
    assert "deals won 0" not in text  # no second copy of the tally beside each seat
    t.state.hands[0] = [parse_card("9H")]
    t.play("9H")
    deal = t.variant.describe(t.state, t.state.sample_chance(random.Random(1)), viewer=0, names=NAMES)
    assert deal == "Deal 2 of 3: dealt 4 cards each (dealer: ann). Deal 1 won by ann; deals won: ann 1, bob 0"
    assert "Deal 1 won by ann; deals won: ann 1, bob 0" in t.variant.render(t.state, viewer=0, names=NAMES)


def test_match_called_off_deal_is_named_in_the_tally():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=2)
    t.set_stock("5D")
    t.set_tricks("")
    t.play("9H")
    t.draw()
    t.deliver("5D")
    text = t.variant.render(t.state, viewer=0, names=NAMES)
    assert "Deal 1 called off (counts for nobody); deals won: ann 0, bob 0" in text


def test_describe_drawing_reads_with_any_name():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    text = t.variant.describe(t.state, DRAW_ACTION, names=NAMES)
    assert text == "cannot follow hearts: drawing from the stock"  # "bob cannot ...", "you cannot ..."


def test_joker_led_is_shown():
    t = Table(["JK 3C 4S 5S", "QH 2S 3S 4D"])
    assert "(the next card sets the suit)" in t.variant.describe(t.state, PLAYS[JOKER][False], names=NAMES)
    t.play("JK")
    assert "joker led: the next card sets the suit" in t.variant.render(t.state, names=NAMES)


def test_describe_forgotten_call_and_going_out():
    t = Table(["9H 3C 4S", "7H 2S 3S"])
    t.play("9H")
    t.play("7H")
    text = t.variant.describe(t.state, PLAYS[parse_card("3C")][False], names=NAMES)
    assert text == "led 3C - forgot to call Page One!"  # the draw that follows says how many
    t.state.hands[1] = [parse_card("2C")]
    t.play("3C", call=True)
    assert t.variant.describe(t.state, PLAYS[parse_card("2C")][False]) == \
        "played 2C: the last card, which wins the deal!"


# --- the human's dialogue ----------------------------------------------------------------------------------
def test_human_offered_only_legal_cards():
    t = Table(["9H 3C 4S 5S", "QH 2H 3S 4D"])
    t.play("9H")
    action, ui = human(t, ["1"])
    assert "[1] play QH" not in ui.text and "[1] play 2H  [2] play QH" in ui.text
    assert "3S" not in ui.text.split("Your hand:")[1].split("\n")[1]  # the menu line
    assert "[p]" not in ui.text
    assert action == PLAYS[parse_card("2H")][False]


def test_human_typed_cards_and_reasons():
    t = Table(["9H 3C 4S 5S", "QH 2H 3S 4D"])
    t.play("9H")
    action, ui = human(t, ["3s", "ks", "qh"])
    assert "You can't play 3S now: must follow hearts." in ui.text
    assert "KS is not in your hand." in ui.text
    assert action == PLAYS[parse_card("QH")][False]


def test_human_page_one_offered_only_when_it_applies_and_not_pressed():
    t = Table(["9H 3C 4S", "QH 2H 3S"])
    t.play("9H")
    t.play("QH")
    t2 = Table(["9H 3C 4S", "QH 2H 3S"])
    action, ui = human(t2, ["1"])
    assert "[p]" not in ui.text
    # seat 1 (won the trick) now leads from two cards: the call is offered
    action, ui = human(t, ["1"])
    assert "[p] call \"Page One!\"" in ui.text
    assert action[2] is False  # not pressed for the player
    action, ui = human(t, ["p", "1"])
    assert action[2] is True
    action, ui = human(t, ["3s!"])
    assert action == PLAYS[parse_card("3S")][True]


def test_human_call_forms_and_mistakes():
    t = Table(["9H 3C 4S", "QH 2H 3S"])
    t.play("9H")
    t.play("QH")  # bob leads from two cards
    action, ui = human(t, ["p 3s"])
    assert action == PLAYS[parse_card("3S")][True]
    action, ui = human(t, ["page one 2h"])
    assert action == PLAYS[parse_card("2H")][True]
    action, ui = human(t, ["1!"])
    assert action[2] is True
    action, ui = human(t, ["", "7", "1"])
    assert "Type a number from 1 to 2, or a card like qh or jk." in ui.text
    assert "Type a number from 1 to 2." in ui.text and action[2] is False
    t2 = Table(["9H 3C 4S", "QH 2H 3S"])
    action, ui = human(t2, ["9h!", "p 9h", "9h"])  # three cards: no call with this play
    assert ui.text.count("Page One is called with the play that leaves you one card; not now.") == 2
    assert action == PLAYS[parse_card("9H")][False]


def test_human_draw_and_forced_card():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    action, ui = human(t, ["d"])
    assert action == DRAW_ACTION and "You have no hearts" in ui.text
    t.draw()
    t.deliver("KH")
    action, ui = human(t, ["2c", "1"])
    assert "must be played" not in ui.text  # the table says it, once
    assert "Drawn card KH must be played" in t.variant.render(t.state, viewer=t.turn)
    assert action == PLAYS[parse_card("KH")][False]


# --- CPUs ----------------------------------------------------------------------------------------
def decide(level, t, seed=0):
    seat = t.turn
    return cpu.POLICIES[level](t.state, seat, t.state.legal_actions(), random.Random(seed))


def test_normal_leads_from_longest_suit():
    t = Table(["2S 9S 5S AH", "QH 2H 3S 4D"])
    assert decide("normal", t) == PLAYS[parse_card("9S")][False]


def test_normal_leads_a_suit_another_player_was_seen_to_lack():
    t = Table(["2S 9S 5S AH", "QC 2C 3S 4D"])
    t.state.voids[1] = 1 << SUIT[parse_card("QH")]  # seat 1 had to draw to follow hearts
    assert decide("normal", t) == PLAYS[parse_card("AH")][False]
    t.state.voids[1] = 0
    assert decide("normal", t) == PLAYS[parse_card("9S")][False]


def test_normal_plays_low_when_it_cannot_win_and_saves_the_joker():
    t = Table(["AH 3C 4S 5S", "QH 2H JK 4D", "KH 5D 6D 7D"])
    t.play("AH")
    assert decide("normal", t) == PLAYS[parse_card("2H")][False]


def test_normal_wins_when_it_can():
    t = Table(["9H 3C 4S 5S", "QH 2H 3S 4D"])
    t.play("9H")
    assert decide("normal", t) == PLAYS[parse_card("QH")][False]  # last to play: cheapest winner


def test_normal_takes_the_lead_with_the_joker_when_it_matters_and_calls():
    t = Table(["9H 3C 4S", "QH JK 3S"])
    t.state.hands[1] = [parse_card("QH"), JOKER]
    t.play("9H")
    assert decide("normal", t) == PLAYS[JOKER][True]


def test_normal_plays_the_joker_rather_than_draw():
    t = Table(["9H 3C 4S 5S", "2C JK 3S 4D"])
    t.play("9H")
    assert decide("normal", t) == PLAYS[JOKER][False]


def test_easy_is_random_and_forgets_the_call_sometimes():
    t = Table(["9H 3C 4S", "QH 2H 3S"])
    t.play("9H")
    t.play("QH")
    calls = {decide("easy", t, seed)[2] for seed in range(60)}
    assert calls == {True, False}
    cards = {decide("easy", t, seed)[1] for seed in range(60)}
    assert len(cards) == 2


def test_cpus_read_only_their_own_hand_and_the_table():
    for level in ("easy", "normal"):
        for seed in range(20):
            t = Table(["9H 3C 4S 5S", "QH 2H 3S 4D", "AS 5D 6D 7D"])
            t.play("9H")
            before = decide(level, t, seed)
            rng = random.Random(seed)
            others = t.state.clone()
            pool = others.stock + others.hands[0] + others.hands[2]
            rng.shuffle(pool)
            others.hands[0], others.hands[2] = pool[:3], pool[3:7]
            others.stock = pool[7:]
            assert cpu.POLICIES[level](others, 1, others.legal_actions(), random.Random(seed)) == before


def test_normal_beats_easy():
    variant = get_registry().get("trick")
    seats = parse_players("cpu:normal,cpu:easy,cpu:easy,cpu:easy", variant)
    summary = run(variant, default_ruleset(variant).options, seats, 400, 7, workers=1)
    assert summary.wins_by_seat[0] > max(summary.wins_by_seat[1:])
    assert default_seats(variant, 4, human=None)[0].kind == "cpu:normal"


def test_determinization_keeps_what_the_seat_sees():
    from collections import Counter

    t = Table(["9H 3C 4S 5S", "QH 2H 3S 4D", "AS 5D 6D 7D"])
    t.play("9H")
    copy = redeal(t.state, 1, random.Random(3))
    assert copy.hands[1] == t.state.hands[1] and copy.trick == t.state.trick
    assert [len(h) for h in copy.hands] == [len(h) for h in t.state.hands]
    assert len(copy.stock) == len(t.state.stock)
    before = Counter(c for zone in t.state.card_zones().values() for c in zone)
    assert Counter(c for zone in copy.card_zones().values() for c in zone) == before
