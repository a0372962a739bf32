"""One test (at least) per rule and option of trick-taking Page One (docs/variants/trick.md).

Each builds an exact position through a stated deal and stated draws and
checks what the rules allow next, so a wrong rule fails here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from cardcli.cpu.players.ismcts import place_value
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import JOKER, parse_card
from cardcli.kit.errors import IllegalMove, RulesetError
from cardcli.testing import play_game, record_lines
from cardcli.unseen.knowledge import redeal
from cardcli_trick.state import DEAL, DRAW_ACTION, DRAWN, P_DRAW, P_FORCED, P_RESHUFFLE, PLAYS

from .conftest import Table, cards


def variant():
    return get_registry().get("trick")


def rules(**options):
    base = dict(default_ruleset(variant()).options)
    base.update(options)
    return base


# 1. The pack, the dealer and the deal --------------------------------------------------------------
def test_pack_is_53_cards_with_one_joker_by_default():
    deck = variant().deck(rules(), 4)
    assert len(deck) == 53 and deck.count(JOKER) == 1


@pytest.mark.parametrize(("jokers", "decks", "size"), [(0, 1, 52), (2, 1, 54), (1, 2, 105), (2, 2, 106)])
def test_jokers_and_decks_options(jokers, decks, size):
    deck = variant().deck(rules(jokers=jokers, decks=decks), 4)
    assert len(deck) == size
    assert deck.count(JOKER) == jokers  # jokers counts the whole pack, however many decks
    assert deck.count(parse_card("QH")) == decks


def test_dealer_left_leads_and_rest_is_stock():
    t = Table(["3S 4S 5S 6S", "3H 4H 5H 6H", "3D 4D 5D 6D"], dealer=1)
    assert t.turn == 2
    assert len(t.state.stock) == 53 - 12


@pytest.mark.parametrize("size", [3, 4, 5, 7])
def test_hand_size_option_deals_that_many(size):
    _, buffer = play_game("trick", players=3, seed=4, options={"hand_size": size})
    deal = record_lines(buffer)[1]
    assert [len(h) for h in deal["hands"]] == [size] * 3


def test_deal_must_be_the_pack():
    state = variant().new_state(rules(), 2, 0)
    hand = tuple(cards("JK AS KS QS"))
    with pytest.raises(Exception, match="more often than the pack holds it"):
        state.apply((DEAL, (hand, hand)))
    with pytest.raises(Exception, match="dealt 3 cards, not 4"):
        state.apply((DEAL, (hand[:3], hand[:3])))


def test_two_decks_deal_two_copies():
    state = variant().new_state(rules(decks=2), 2, 0)
    hand = tuple(cards("AS KS QS JS"))
    state.apply((DEAL, (hand, hand)))
    assert state.stock.count(parse_card("AS")) == 0


def test_deal_that_cannot_fit_is_refused():
    with pytest.raises(RulesetError, match="do not fit"):
        variant().check_rules(rules(hand_size=7, max_players=8), 8)
    variant().check_rules(rules(hand_size=7, max_players=8, decks=2), 8)
    variant().check_rules(rules(max_players=8), 8)  # 8 x 4 = 32 fits one deck


# 3. Following suit ---------------------------------------------------------------------------------
def test_must_follow_suit_with_precise_message():
    t = Table(["9H 3C 4C 5C", "7H QH 2S JK"])
    t.play("9H")
    assert t.playable() == {"7H", "QH", "JK"}
    assert not t.can_draw()
    error = t.illegal_play("2S")
    assert error.rule == "must follow hearts"
    assert error.alternatives == "could play 7H, QH or JK"


def test_leader_may_lead_any_card():
    t = Table(["9H 3C 4S JK", "7H QH 2S 3S"])
    assert t.playable() == {"9H", "3C", "4S", "JK"}
    assert not t.can_draw()
    assert "holding a card to lead" in str(t.illegal(DRAW_ACTION))


def test_highest_of_suit_led_wins_and_leads_next():
    t = Table(["9H 3C 4S 5S", "7H QH 2S 3S", "AS 2H 3D 4D"])
    t.play("9H")
    t.play("QH")
    t.play("2H")
    assert t.turn == 1  # QH won
    assert t.state.tricks_done == 1 and sorted(t.state.tricks) == sorted(cards("9H QH 2H"))
    assert t.state.trick == []


def test_off_suit_card_never_wins():
    t = Table(["9H 3C 4S 5S", "2H QH 2S 3S", "AS 3D 4D 5D"])
    t.play("9H")
    t.play("2H")
    t.draw()
    t.deliver("AC")  # not hearts: drawing goes on
    t.deliver("3H")
    t.play("3H")
    assert t.turn == 0


def test_two_decks_first_of_two_equal_cards_wins():
    t = Table(["QH 3C 4S 5S", "QH 2S 3S 4S", "2H 3D 4D 5D"], decks=2)
    t.play("QH")
    t.play("QH")
    t.play("2H")
    assert t.turn == 0


def test_two_decks_equal_cards_later_in_the_trick():
    t = Table(["2H 3C 4S 5S", "KH 2S 3S 4S", "KH 3D 4D 5D"], decks=2)
    t.play("2H")
    t.play("KH")
    t.play("KH")
    assert t.turn == 1


# 4. The joker --------------------------------------------------------------------------------------
def test_joker_may_be_played_by_a_player_who_could_follow_and_wins():
    t = Table(["AH 3C 4S 5S", "7H JK 2S 3S", "KH 3D 4D 5D"])
    t.play("AH")
    t.play("JK")
    t.play("KH")
    assert t.turn == 1


def test_joker_led_lets_next_player_play_anything_and_sets_suit():
    t = Table(["JK 3C 4S 5C", "7H QH 2S 3S", "KH 3D 4D 5S"])
    t.play("JK")
    assert t.playable() == {"7H", "QH", "2S", "3S"}
    t.play("2S")
    assert t.state.suit == 3 - 3  # spades
    assert t.playable() == {"5S"}
    t.play("5S")
    assert t.turn == 0  # the led joker wins


def test_joker_led_then_second_joker_keeps_suit_open():
    t = Table(["JK 3C 4S 5S", "JK QH 2S 3S", "KH 3D 4D 5D"], jokers=2)
    t.play("JK")
    t.play("JK")
    assert t.state.suit == -1
    assert t.playable() == {"KH", "3D", "4D", "5D"}
    t.play("3D")
    assert t.turn == 0  # the first joker wins


def test_two_jokers_after_a_suit_is_led_the_first_wins():
    t = Table(["AH 3C 4S 5S", "JK 2S 3S 6S", "JK 3D 4D 5D"], jokers=2)
    t.play("AH")
    t.play("JK")
    t.play("JK")
    assert t.turn == 1


def test_joker_played_late_beats_the_ace_of_the_suit_led():
    t = Table(["2H 3C 4S 5S", "AH 2S 3S 6S", "JK 3D 4D 5D"])
    t.play("2H")
    t.play("AH")
    t.play("JK")
    assert t.turn == 2


def test_joker_any_time_off_after_a_led_joker_the_set_suit_binds():
    t = Table(["JK 3C 4S 5S", "2S 3H 4H 5H", "JK 6S 4D 5D"], joker_any_time=False, jokers=2)
    t.play("JK")
    t.play("2S")
    assert t.playable() == {"6S"}  # can follow spades: the second joker is not allowed
    assert "cannot follow suit" in t.illegal_play("JK").rule


def test_cannot_follow_chooses_between_joker_and_drawing():
    t = Table(["9H 3C 4S 5S", "JK 2C 2S 3S"])
    t.play("9H")
    assert t.playable() == {"JK"}
    assert t.can_draw()


def test_joker_any_time_off_only_when_unable_to_follow():
    t = Table(["9H 3C 4S 5S", "7H JK 2S 3S", "JK 3D 4D 5D"], joker_any_time=False, jokers=2)
    t.play("9H")
    assert t.playable() == {"7H"}
    error = t.illegal_play("JK")
    assert "cannot follow suit (joker_any_time is off)" in error.rule
    t.play("7H")
    assert t.playable() == {"JK"} and t.can_draw()  # cannot follow: the joker is allowed


def test_joker_any_time_off_joker_may_still_be_led_or_played_while_no_suit_set():
    t = Table(["JK 3C 4S 5S", "JK QH 2S 3S", "KH 3D 4D 5D"], joker_any_time=False, jokers=2)
    assert "JK" in t.playable()
    t.play("JK")
    assert "JK" in t.playable()  # no suit set yet


# 5. Cannot follow: draw until the suit comes -------------------------------------------------------
def test_draw_one_at_a_time_until_suit_then_must_play_it():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    assert t.playable() == set() and t.can_draw()
    t.draw()
    assert t.chance and t.state.phase == P_DRAW
    t.deliver("5D")
    assert t.chance  # not hearts: drawing goes on
    with pytest.raises(Exception, match="the rules draw 1 here"):
        t.deliver("6D", "7D")  # one card per draw event
    t.deliver("KH")
    assert t.state.phase == P_FORCED and t.turn == 1
    assert t.playable() == {"KH"}
    error = t.illegal_play("2C")
    assert "must play the drawn KH" in error.rule
    t.play("KH")
    assert t.turn == 1  # KH beats 9H
    assert t.hand(1) == sorted(["2C", "2S", "3S", "4D", "5D"])


def test_joker_drawn_while_drawing_is_kept_and_drawing_goes_on():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    t.draw()
    t.deliver("JK")
    assert t.chance and t.state.phase == P_DRAW
    assert "JK" in t.hand(1)
    t.deliver("3H")
    assert t.playable() == {"3H"}  # the joker may not replace the drawn card
    t.play("3H")
    assert "JK" in t.hand(1)


def test_drawn_card_must_be_in_the_stock():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    t.draw()
    with pytest.raises(Exception, match=r"drew 3C, which is not in the stock \(it is in seat 0's hand\)"):
        t.deliver("3C")


# 7. Stock runs out ---------------------------------------------------------------------------------
def test_empty_stock_reshuffles_finished_tricks():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.set_stock("")
    t.set_tricks("KH 2D 3D 4H")
    t.play("9H")
    t.draw()
    assert t.state.phase == P_RESHUFFLE
    with pytest.raises(Exception, match="the finished tricks must be reshuffled first"):
        t.deliver("KH")
    t.reshuffle()
    assert sorted(t.state.stock) == sorted(cards("KH 2D 3D 4H")) and t.state.tricks == []
    t.deliver("2D")
    t.deliver("4H")
    assert t.playable() == {"4H"}


def test_reshuffle_not_allowed_while_stock_has_cards():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    t.draw()
    with pytest.raises(Exception, match="no reshuffle now"):
        t.reshuffle()


def test_nothing_to_draw_and_no_way_to_follow_calls_the_hand_off():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D", "5C 6C 7C 8C"])
    t.set_stock("3H")
    t.set_tricks("")
    t.play("9H")
    t.draw()
    t.deliver("3H")
    t.play("3H")
    # seat 2 has no hearts, no joker, the stock and finished tricks are empty
    assert t.over
    result = t.state.result()
    assert result.winner is None and result.places == [1, 1, 1]
    assert "called off" in result.reason


def test_nothing_to_draw_while_drawing_calls_the_hand_off():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.set_stock("5D")
    t.play("9H")
    t.draw()
    t.deliver("5D")
    assert t.over and t.state.result().winner is None


def test_nothing_to_draw_a_held_joker_or_drawing_which_calls_the_hand_off():
    """docs/variants/trick.md, "Cannot follow" and "Stock runs out": a player
    who cannot follow chooses between the joker and drawing, even when nothing
    can be drawn; drawing then calls the hand off."""
    t = Table(["9H 3C 4S 5S", "2C 2S JK 4D"])
    t.set_stock("")
    t.play("9H")
    assert t.playable() == {"JK"} and t.can_draw()
    t.draw()
    assert t.over
    result = t.state.result()
    assert result.winner is None and result.places == [1, 1]
    assert result.reason == "the hand was called off: nothing left to draw and no way to follow"


def test_nothing_to_draw_the_held_joker_may_still_be_played():
    t = Table(["9H 3C 4S 5S", "2C 2S JK 4D"])
    t.set_stock("")
    t.play("9H")
    t.play("JK")
    assert t.turn == 1  # the joker wins the trick


def test_joker_drawn_then_stock_runs_dry_calls_the_hand_off():
    """Drawing to follow ends only with a card of the suit led: a joker drawn
    on the way does not end it, so the hand is called off."""
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.set_stock("JK")
    t.play("9H")
    t.draw()
    t.deliver("JK")
    assert t.over and t.state.result().winner is None
    assert "JK" in t.hand(1)


def test_joker_held_while_drawing_does_not_end_the_draw():
    t = Table(["9H 3C 4S 5S", "2C 2S JK 4D"])
    t.set_stock("5D 6D")
    t.set_tricks("")
    t.play("9H")
    t.draw()  # chose to draw rather than play the joker
    t.deliver("5D")
    assert t.chance  # the joker in hand does not stop the drawing
    t.deliver("6D")
    assert t.over and t.state.result().winner is None


def test_running_dry_while_drawing_rebuilds_from_the_finished_tricks_first():
    t = Table(["9H 3C 4S 5S", "2C 2S JK 4D"])
    t.set_stock("5D")
    t.set_tricks("7H 8C")
    t.play("9H")
    t.draw()
    t.deliver("5D")
    assert t.state.phase == P_RESHUFFLE
    t.reshuffle()
    t.deliver("7H")
    assert t.playable() == {"7H"}


# 8. Page One ---------------------------------------------------------------------------------------
def test_call_is_allowed_only_with_the_play_that_leaves_one_card():
    t = Table(["9H 3C 4S", "7H 2S 3S"])
    error = t.illegal_play("9H", call=True)
    assert "leaves one card" in error.rule
    t.play("9H")
    t.play("7H")
    assert PLAYS[parse_card("3C")][True] in t.state.legal_actions()
    t.play("3C", call=True)
    assert t.turn == 1  # no penalty: called


def test_forgotten_call_draws_the_penalty_before_the_next_player():
    t = Table(["9H 3C 4S", "7H 2S 3S", "8H 5D 6D"])
    t.play("9H")
    t.play("7H")
    t.play("8H")
    t.play("3C")  # two cards -> one, no call
    assert t.chance and t.state.phase == P_DRAW and t.state.draw_seat == 0
    with pytest.raises(Exception, match="the rules draw 5 here"):
        t.deliver("2D")
    t.deliver("2D", "3D", "4D", "5C", "6C")
    assert t.turn == 1 and len(t.hand(0)) == 6


def test_penalty_option_size_and_zero():
    t = Table(["9H 3C 4S", "7H 2S 3S"], page_one_penalty=2)
    t.play("9H")
    t.play("7H")
    t.play("3C")
    t.deliver("2D", "3D")
    assert t.turn == 1
    t = Table(["9H 3C 4S", "7H 2S 3S"], page_one_penalty=0)
    t.play("9H")
    t.play("7H")
    t.play("3C")
    assert t.turn == 1 and not t.chance


def test_forgetting_on_the_play_that_completes_the_trick_sets_it_aside_first():
    t = Table(["9H 3C 4S", "7H 2S 3S"], page_one_penalty=3)
    t.play("3C")
    t.draw()
    t.deliver("KC")
    t.play("KC")  # seat 1 wins; 4 cards
    t.play("2S")
    t.play("4S")  # seat 0: two cards -> one, forgets; completes the trick
    t.set_stock("AD")
    assert t.state.tricks_done == 2 and t.state.trick == []
    assert t.state.phase == P_DRAW
    t.deliver("AD")
    assert t.state.phase == P_RESHUFFLE  # the trick just finished can be reshuffled into the penalty
    assert sorted(t.state.tricks) == sorted(cards("3C KC 2S 4S"))
    t.reshuffle()
    t.deliver("3C", "2S")
    assert t.turn == 0  # its winner (seat 0, 4S over 2S) then leads
    assert len(t.hand(0)) == 4


def test_forgetting_on_the_trick_completing_play_the_trick_winner_leads_after_the_penalty():
    t = Table(["9H 3C 4S", "AH 2S 3S", "2H 5D 6D"], page_one_penalty=2)
    t.set_hand(2, "2H 5D")
    t.play("9H")
    t.play("AH")
    t.play("2H")  # seat 2: two cards -> one, forgets; completes the trick won by seat 1
    assert t.state.trick == [] and t.state.tricks_done == 1
    assert t.state.phase == P_DRAW and t.state.draw_seat == 2
    t.deliver("7C", "8C")
    assert t.turn == 1  # the trick's winner leads, not the forgetter's left (seat 0)
    assert t.hand(2) == ["5D", "7C", "8C"]


def test_forgetting_mid_trick_the_next_player_plays_after_the_penalty():
    t = Table(["9H 3C 4S", "AH 2S 3S", "2H 5D 6D"], page_one_penalty=1)
    t.set_hand(1, "AH 2S")
    t.play("9H")
    t.play("AH")  # seat 1 forgets, mid-trick
    assert t.chance and t.state.draw_seat == 1 and t.state.trick == cards("9H AH")
    t.deliver("7C")
    assert t.turn == 2 and t.state.trick == cards("9H AH")


def test_penalty_with_empty_stock_and_no_tricks_is_waived():
    t = Table(["9H 3C 4S", "7H 2C 3S"])
    t.play("9H")
    t.play("7H")
    t.set_stock("2D")
    t.set_tricks("")
    t.play("3C")
    t.deliver("2D")  # what there is
    assert t.turn == 1 and t.hand(0) == ["2D", "4S"]


def test_penalty_with_nothing_at_all_to_draw():
    t = Table(["9H 3C 4S", "7H 2C 3S"])
    t.set_stock("")
    t.play("9H")
    t.play("7H")
    assert t.state.tricks_done == 1
    t.set_tricks("")
    t.play("3C")
    assert t.turn == 1 and not t.chance


# 9. Winning ----------------------------------------------------------------------------------------
def test_first_to_play_last_card_wins_at_once_mid_trick():
    t = Table(["9H 3C 4S", "7H 2S 3S", "AH 5D 6D"])
    t.set_hand(1, "7H")
    t.set_hand(2, "AH 5D 6D 7D")
    t.play("9H")
    t.play("7H")  # last card, mid-trick (seat 2 has not played)
    assert t.over
    result = t.state.result()
    assert result.winner == 1 and result.places == [2, 1, 3]


def test_others_ranked_by_cards_held_ties_share():
    t = Table(["9H 3C 4S", "7H 8S 9S", "2C 5D 6D"])
    t.set_hand(1, "7H")
    t.set_hand(2, "2C 5D")
    t.play("9H")
    t.play("7H")
    assert t.state.result().places == [2, 1, 2]


def test_ranking_ties_share_a_place_and_skip_the_next():
    t = Table(["9H 3C 4S 5S", "7H 8S 9S 2D", "2C 5D 6D 7D", "3H 4D 8D 9D"])
    t.set_hand(1, "7H")
    t.set_hand(2, "2C 5D 6D")
    t.set_hand(3, "3H 4D 8D")
    t.play("9H")
    t.play("7H")  # seat 1 goes out; seat 0 holds 3, seats 2 and 3 hold 3 as well
    assert t.state.result().places == [2, 1, 2, 2]
    t = Table(["9H 3C 4S 5S", "7H 8S 9S 2D", "2C 5D 6D 7D", "3H 4D 8D 9D"])
    t.set_hand(1, "7H")
    t.set_hand(2, "2C")
    t.set_hand(3, "3H 4D 8D 9D")
    t.play("9H")
    t.play("7H")
    assert t.state.result().places == [3, 1, 2, 4]


def test_going_out_on_the_joker_is_allowed_by_default():
    t = Table(["9H 3C 4S", "JK 8S 9S"])
    t.set_hand(1, "JK")
    t.play("9H")
    assert t.playable() == {"JK"}
    t.play("JK")
    assert t.state.result().winner == 1


def test_joker_last_off_forbids_going_out_on_the_joker():
    t = Table(["9H 3C 4S", "JK 8S 9S"], joker_last=False)
    t.set_hand(1, "JK")
    t.play("9H")
    assert t.playable() == set() and t.can_draw()
    error = t.illegal_play("JK")
    assert "may not be the last card" in error.rule
    t.draw()
    t.deliver("2H")
    t.play("2H")
    assert t.hand(1) == ["JK"]


def test_joker_last_off_joker_fine_with_another_card_in_hand():
    t = Table(["9H 3C 4S", "JK 8S 9S"], joker_last=False)
    t.set_hand(1, "JK 8S")
    t.play("9H")
    assert t.playable() == {"JK"}


def test_joker_last_off_holding_only_the_joker_when_leading_draws_one_and_leads_it():
    t = Table(["9H 3C 4S", "JK 8S 9S"], joker_last=False)
    t.set_hand(0, "JK")
    assert t.playable() == set() and t.can_draw()
    t.draw()
    t.deliver("5C")  # any card: it is led
    assert t.state.phase == P_FORCED and t.playable() == {"5C"}
    assert PLAYS[parse_card("5C")][True] in t.state.legal_actions()  # leaves one card: the call
    t.play("5C", call=True)
    assert t.turn == 1 and t.state.suit == 3


def test_joker_last_off_holding_only_the_joker_after_a_led_joker():
    t = Table(["JK 3C 4S", "JK 8S 9S"], joker_last=False, jokers=2)
    t.set_hand(1, "JK")
    t.set_stock("JK 2D")
    t.play("JK")
    assert t.playable() == set() and t.can_draw()
    t.draw()
    t.deliver("JK")  # drawn: it is the card to play, and the other joker stays
    t.play("JK", call=True)
    assert t.turn == 0 and t.hand(1) == ["JK"]


# 10. Several deals ---------------------------------------------------------------------------------
def test_deals_move_the_dealer_and_tally_deals_won():
    _, buffer = play_game("trick", players=3, seed=2, options={"deals": 4})
    lines = record_lines(buffer)
    deals = [line for line in lines if line.get("chance") == "deal"]
    assert len(deals) == 4
    first = lines[0]["dealer"]
    assert [d["dealer"] for d in deals] == [(first + i) % 3 for i in range(4)]
    result = lines[-1]["result"]
    winners = result["deal_winners"]
    assert len(winners) == 4
    tally = [sum(1 for w in winners if w == s) for s in range(3)]
    assert result["scores"] == tally
    assert result["rounds"] == [[1 if w == s else 0 for s in range(3)] for w in winners]
    best = max(tally)
    assert result["places"] == [1 + sum(1 for x in tally if x > mine) for mine in tally]
    assert (result["winner"] is None) == (tally.count(best) > 1)


def test_called_off_deal_counts_for_nobody_in_a_match():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=2)
    t.set_stock("5D")
    t.play("9H")
    t.draw()
    t.deliver("5D")
    state = t.state
    assert state.deal_winners == [None] and state.totals == [0, 0]
    assert state.dealer == 0 and t.chance  # the next deal, dealt by the next seat
    deck = variant().deck(t.rules, 2)
    hands = (tuple(deck[0:4]), tuple(deck[4:8]))
    state.apply((DEAL, hands))
    assert t.turn == 1  # the new dealer's left leads
    state.hands[1] = [parse_card("2H")]
    t.play("2H")
    result = state.result()
    assert result.scores == [0, 1] and result.places == [2, 1] and result.winner == 1
    assert result.extra["deal_winners"] == [None, 1]


def test_a_search_values_a_deal_of_a_match_as_a_deal_on_its_own():
    """A playout of a match stops at the deal's end: winning it is worth all,
    losing nothing, and a called-off deal little (as a single deal's is), not
    half a win, which made the search play for called-off deals."""
    won = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=2)
    won.state.hands[0] = [parse_card("9H")]
    won.play("9H")
    assert (won.state.rollout_value(0), won.state.rollout_value(1)) == (1.0, 0.0)
    off = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=2)
    off.set_stock("5D")
    off.play("9H")
    off.draw()
    off.deliver("5D")
    assert off.state.deal_winners == [None]
    single = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    single.set_stock("5D")
    single.play("9H")
    single.draw()
    single.deliver("5D")
    assert single.state.result().winner is None
    for seat in (0, 1):
        assert off.state.rollout_value(seat) == place_value(single.state, seat) < 0.25


def test_match_tie_has_no_single_winner():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], deals=2)
    t.state.hands[0] = [parse_card("9H")]
    t.play("9H")
    deck = variant().deck(t.rules, 2)
    t.state.apply((DEAL, (tuple(deck[0:4]), tuple(deck[4:8]))))
    t.state.hands[1] = [parse_card("AS")]
    t.play("AS")
    result = t.state.result()
    assert result.places == [1, 1] and result.winner is None and result.scores == [1, 1]


# Eight players -------------------------------------------------------------------------------------
def test_eight_players_need_the_house_rule():
    from cardcli.kit.errors import RecordError
    from cardcli.testing import record_bytes, validate_bytes
    header = {"format": "cardcli-record", "version": 1, "variant": "trick", "rules": {},
              "players": [f"p{i}" for i in range(8)], "dealer": 0}
    report = validate_bytes(record_bytes([header]))
    assert isinstance(report.error, RecordError) and "2 to 6" in str(report.error)
    game, _ = play_game("trick", players=8, seed=1, options={"max_players": 8, "decks": 2})
    assert Counter(variant().deck(game.rules, 8))[JOKER] == 1


def test_draw_events_name_one_card_while_following():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.play("9H")
    t.draw()
    assert t.state.draw_count() == 1
    with pytest.raises(IllegalMove, match="0 card"):
        t.state.apply((DRAWN, ()))


def test_reshuffles_option_calls_the_deal_off_at_the_next_rebuild():
    """``reshuffles = N``: once the stock has been rebuilt N times in a deal,
    the next time it must be rebuilt the deal is called off as a draw."""
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], reshuffles=1)
    t.set_stock("")
    t.set_tricks("5D 6D 7D 8D")
    t.play("9H")
    t.draw()
    t.reshuffle()  # the first rebuild is allowed
    assert t.state.rebuilds == 1
    for card in ("5D", "6D", "7D"):
        t.deliver(card)
    t.state.tricks = cards("KC QC")  # finished tricks to rebuild from again
    t.deliver("8D")
    assert t.over
    result = t.state.result()
    assert result.winner is None and result.places == [1, 1]
    assert result.reason == ("the hand was called off: the stock ran out after 1 rebuild, the most the "
                             "option reshuffles allows")


def test_reshuffles_zero_calls_the_deal_off_instead_of_any_rebuild():
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"], reshuffles=0)
    t.set_stock("")
    t.set_tricks("5D 6D 7D 8D")
    t.play("9H")
    t.draw()
    assert t.over and "after 0 rebuilds" in t.state.result().reason


def test_reshuffles_none_by_default_rebuilds_without_limit():
    assert variant().options[[o.name for o in variant().options].index("reshuffles")].default is None
    t = Table(["9H 3C 4S 5S", "2C 2S 3S 4D"])
    t.state.rebuilds = 500  # far past any bound the old code had
    t.set_stock("")
    t.set_tricks("5D 6D")
    t.play("9H")
    t.draw()
    assert t.state.phase == P_RESHUFFLE


def test_reshuffles_option_range():
    from cardcli.contract.options import resolve

    options = variant().options
    assert resolve(options, {"reshuffles": "none"}, source="x")["reshuffles"] is None
    assert resolve(options, {"reshuffles": 99}, source="x")["reshuffles"] == 99
    for bad in (-1, 100, "3", True):
        with pytest.raises(RulesetError, match="reshuffles"):
            resolve(options, {"reshuffles": bad}, source="x")


def test_a_called_off_deal_by_the_reshuffles_bound_validates():
    from cardcli.testing import validate_bytes

    for seed in range(100):
        game, buffer = play_game("trick", players=2, seed=seed, levels=["normal", "normal"],
                                 options={"reshuffles": 0})
        result = game.state.result()
        if result.winner is None and "reshuffles" in result.reason:
            break
    else:
        pytest.fail("no game of 100 ran the stock out with reshuffles = 0")
    assert result.places == [1, 1] and game.state.rebuilds == 0
    assert validate_bytes(buffer.getvalue().encode()).valid


def test_a_seen_void_is_respected_when_hidden_cards_are_dealt_anew():
    """A player who had to draw to follow hearts holds no hearts in any world
    a search player imagines, until a penalty brings unseen cards."""
    import random as _random

    from cardcli.kit.cards import SUIT
    from cardcli.testing import play_game
    from cardcli_trick.state import DRAW

    seen = 0
    for seed in range(40):
        def check(game, action):
            nonlocal seen
            state = game.state
            if action[0] != DRAW or state.suit < 0:
                return
            drawer = state.draw_seat if state.draw_seat >= 0 else state.turn
            suit = state.suit
            assert state.voids[drawer] == 1 << suit
            viewer = (drawer + 1) % state.num_players
            for trial in range(5):
                world = redeal(state, viewer, _random.Random(trial))
                assert not any(SUIT[c] == suit for c in world.hands[drawer] if c != 52)
            seen += 1

        play_game("trick", players=3, seed=seed, on_event=check)
        if seen >= 10:
            break
    assert seen >= 10


def test_a_drawn_card_that_must_be_played_stays_in_the_drawers_hand_when_others_imagine_the_cards():
    """Re-dealt for another seat, the drawer still holds the card it must
    play, a card of the suit led, and the rest of its hand has none."""
    import random as _random

    from cardcli.kit.cards import SUIT

    t = Table(["9H 3C 4S", "2C 2S 3S", "5D 6D 7D"])
    t.play("9H")
    t.draw()
    t.deliver("2H")  # seat 1 had no hearts: it drew 2H and must play it
    state = t.state
    assert state.forced == parse_card("2H") and state.current_player() == 1
    for viewer in (0, 2):
        for trial in range(30):
            world = redeal(state, viewer, _random.Random(trial))
            hand = world.hands[1]
            assert world.forced in hand and SUIT[world.forced] == 1
            assert sum(1 for c in hand if SUIT[c] == 1 and c != 52) == 1
            for action in world.legal_actions():
                world.clone().apply(action)
