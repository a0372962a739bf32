"""One test (at least) per rule and option of matching Page One (docs/variants/matching.md).

Each builds an exact position through stated chance events and checks what
the rules allow next, so a wrong rule fails here.
"""

from __future__ import annotations

import pytest

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.kit.cards import parse_card
from cardcli.kit.errors import RulesetError
from cardcli.unseen.knowledge import redeal
from cardcli_matching.state import DRAW_ACTION, DRAWN, KEEP_ACTION, P_AFTER_DRAW, P_RESHUFFLE, PLAY, TURN_UP

from .conftest import Table


# 1. Deal and the first top card -------------------------------------------------------------
def test_deal_and_dealers_left_starts():
    t = Table(["3S 4S", "5H 6H", "9C KC"], "7S", dealer=1)
    assert t.turn == 2  # the dealer's left
    assert t.state.top == parse_card("7S")
    assert t.state.stock_size() == 52 - 6 - 1


def test_deal_must_give_hand_size_cards():
    t = Table.__new__(Table)
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    from cardcli_matching.state import DEAL
    variant = get_registry().get("matching")
    state = variant.new_state(default_ruleset(variant).options, 2, 0)
    with pytest.raises(Exception, match="dealt 2 cards, not 7"):
        state.apply((DEAL, ((1, 2), (3, 4))))
    hand = tuple(range(7))
    with pytest.raises(Exception, match=r"2S is dealt more often than the pack holds it \(1\)"):
        state.apply((DEAL, (hand, hand)))
    del t


def test_special_first_card_is_sent_under_and_reflipped():
    t = Table(["3S 4S", "5H 6H"], ["2D", "JC", "7H"])
    assert t.state.top == parse_card("7H")
    assert t.state.under == [parse_card("2D"), parse_card("JC")]
    assert t.state.penalty == 0 and t.turn == 0


def test_sent_under_cards_come_out_only_after_the_rest_of_the_stock():
    t = Table(["3S 4S", "5H 6H"], ["2D", "7H"])
    t.state.apply(DRAW_ACTION)  # 3S 4S: no heart, no 7
    error = t.illegal((DRAWN, (parse_card("2D"),)))
    assert "bottom of the stock" in str(error)


@pytest.mark.parametrize(("first", "turn", "penalty", "direction"), [
    ("2D", 0, 2, 1),     # hits the dealer's left, who may pass it on
    ("JC", 1, 0, 1),     # skips the dealer's left
    ("QC", 1, 0, -1),    # reverses: the dealer's right starts (dealer is seat 2)
    ("8C", 0, 0, 1),     # names no suit: anything may follow
])
def test_first_special_apply(first, turn, penalty, direction):
    t = Table(["3S 4S", "5H 6H", "9D KD"], first, first_special="apply")
    assert t.turn == turn
    assert t.state.penalty == penalty
    assert t.state.direction == direction


def test_first_special_apply_reverse_with_two_players_dealer_starts():
    t = Table(["3S 4S", "5H 6H"], "QC", first_special="apply")
    assert t.turn == 1  # seat 1 is the dealer


def test_first_special_apply_eight_lets_anything_follow():
    t = Table(["3S 4D", "5H 6H", "9D KD"], "8C", first_special="apply")
    assert t.playable() == {"3S", "4D"}


def test_every_card_left_special_the_turned_card_stays_and_applies():
    # Six players of eight: four cards stay in the stock, all of them special.
    deck = [f"{r}{s}" for s in "SHDC" for r in (["3", "4", "5", "6", "7", "9", "10", "K", "A"])]
    deck += ["2S", "2H", "2D", "8S", "8H", "8D", "JS", "JH", "JD", "QS", "QH", "QD"]
    hands = [" ".join(deck[i * 8:(i + 1) * 8]) for i in range(6)]
    t = Table(hands, ["2C", "8C", "JC", "QC"])
    assert t.state.top == parse_card("QC")
    assert t.state.direction == -1  # the queen applied
    assert t.turn == 4  # the dealer (5) reversed: the dealer's right starts


# 2-3. Matching and drawing -------------------------------------------------------------------
def test_rank_or_suit_match():
    t = Table(["7C 9S KD 8H", "5H 6H 3D 4D"], "9H")
    assert t.playable() == {"9S", "8H"}  # 9 by rank, 8 is wild; 7C and KD match nothing
    error = t.illegal((PLAY, parse_card("7C"), -1, False))
    assert "no rank or suit match" in str(error)
    assert "(could play 9S or 8H)" in str(error)


def test_draw_when_unable_and_play_the_drawn_card():
    t = Table(["3C 4C", "5H 6H"], "9H")
    t.draw("9S")
    assert t.state.phase == P_AFTER_DRAW
    assert {a[0] for a in t.state.legal_actions()} == {PLAY, KEEP_ACTION[0]}
    t.play("9S")
    assert t.turn == 1


def test_drawn_card_may_be_kept():
    t = Table(["3C 4C", "5H 6H"], "9H")
    t.draw("9S")
    t.keep()
    assert t.turn == 1 and "9S" in t.hand(0)


def test_unplayable_drawn_card_ends_the_turn():
    t = Table(["3C 4C", "5H 6H"], "9H")
    t.draw("5C")
    assert t.turn == 1


def test_only_the_drawn_card_may_be_played_after_a_draw():
    t = Table(["3C 4C 9C", "5H 6H 7H"], "QD", skip=False, reverse=False)
    t.draw("QC")
    error = t.illegal((PLAY, parse_card("9C"), -1, False))
    assert "only the drawn card" in str(error)


def test_may_not_draw_while_holding_a_playable_card():
    t = Table(["3H 4C", "5H 6H"], "9H")
    assert DRAW_ACTION not in t.state.legal_actions()
    assert "may not draw" in str(t.illegal(DRAW_ACTION))


def test_draw_when_able_option():
    t = Table(["3H 4C", "5H 6H"], "9H", draw_when_able=True)
    assert DRAW_ACTION in t.state.legal_actions()
    t.draw("KC")
    assert t.turn == 1


def test_draw_when_able_with_nothing_to_draw_skips_the_draw_and_passes():
    """The rules (docs/variants/matching.md): with draw_when_able a player holding a playable
    card may choose to draw even when nothing can be drawn; the draw is
    skipped and the turn passes."""
    t = Table(["3H 4C", "5H 6H"], "9H", draw_when_able=True)
    state = t.state
    state.hands[1].extend(state.stock)
    state.stock = []
    assert DRAW_ACTION in state.legal_actions()
    text = t.variant.describe(state, DRAW_ACTION)
    assert text == "chose to draw, but there was nothing to draw: the turn passes"
    t.state.apply(DRAW_ACTION)
    assert t.turn == 1 and t.hand(0) == ["3H", "4C"]  # nothing drawn, turn over


def test_draw_until_playable_option():
    t = Table(["3C 4C", "5H 6H"], "9H", draw_until_playable=True)
    t.draw("5C")
    assert t.state.current_player() == CHANCE  # keeps drawing
    t.deliver("6D")
    t.deliver("KH")
    assert t.state.phase == P_AFTER_DRAW and t.hand(0) == sorted(["3C", "4C", "5C", "6D", "KH"])


def test_reshuffle_when_the_stock_runs_out():
    t = Table(["3C 4C", "5H 6H"], "9H")
    state = t.state
    # Empty the stock by hand into the discards (below the top card).
    top = state.discard.pop()
    state.discard = [*state.stock, top]
    state.stock = []
    t.state.apply(DRAW_ACTION)
    assert state.phase == P_RESHUFFLE
    assert "reshuffled first" in str(t.illegal((DRAWN, (parse_card("KS"),))))
    t.reshuffle()
    assert state.discard == [top] and state.stock_size() == 52 - 4 - 1
    t.deliver("KS")
    assert t.turn == 1


def test_nothing_to_draw_skips_the_draw():
    t = Table(["3C 4C", "5H 6H"], "9H")
    state = t.state
    state.hands[1].extend(state.stock)
    state.stock = []
    t.state.apply(DRAW_ACTION)
    assert t.turn == 1  # nothing drawn, turn over


def test_penalty_draws_what_there_is():
    from cardcli.kit.cards import NAME
    t = Table(["2H 4C 5C", "5H 6C 7C"], "9H")
    state = t.state
    keep = state.stock[:1]
    state.hands[1].extend(state.stock[1:])
    state.stock = keep
    t.play("2H")
    state.hands[1].append(state.discard.pop(0))  # leave nothing below the top card
    t.draw()
    assert state.current_player() == CHANCE
    t.deliver(NAME[keep[0]])  # one card of the two, then nothing is left
    assert t.turn == 0 and state.penalty == 0


# 5. Special cards ---------------------------------------------------------------------------
def test_two_makes_the_next_player_draw_two_and_lose_the_turn():
    t = Table(["2H 4C 5C", "5D 6C 7C", "9S 9D 9C"], "9H")
    t.play("2H")
    assert t.turn == 1 and t.state.penalty == 2
    assert {a for a in t.state.legal_actions()} == {DRAW_ACTION}
    t.draw("KS", "KD")
    assert t.turn == 2  # seat 1 lost its turn
    assert t.state.penalty == 0 and len(t.hand(1)) == 5


def test_twos_stack_and_grow():
    t = Table(["2H 4C 5C", "2D 6C 7C", "9S 9D 9C"], "9H")
    t.play("2H")
    assert t.playable() == {"2D"}
    t.play("2D")
    assert t.turn == 2 and t.state.penalty == 4
    t.draw("KS", "KD", "KH", "KC")
    assert t.turn == 0


def test_stack_twos_off_the_penalty_must_be_taken():
    t = Table(["2H 4C 5C", "2D 6C 7C", "9S 9D 9C"], "9H", stack_twos=False)
    t.play("2H")
    assert t.state.legal_actions() == [DRAW_ACTION]
    assert "must be taken" in str(t.illegal((PLAY, parse_card("2D"), -1, False)))


def test_an_eight_does_not_answer_a_penalty():
    t = Table(["2H 4C 5C", "8D 6C 7C", "9S 9D 9C"], "9H")
    t.play("2H")
    assert "only choices" in str(t.illegal((PLAY, parse_card("8D"), 0, False)))


def test_a_taken_penalty_is_spent():
    t = Table(["2H 4C 5C", "5D 6C 7C", "3H 9D 9C"], "9H")
    t.play("2H")
    t.draw("KS", "KD")
    assert t.state.penalty == 0
    assert t.playable() == {"3H"}  # matches the 2H as usual


def test_wild_eight_plays_on_anything_and_names_a_suit():
    t = Table(["8C 4C 5C", "5D 6C 7D", "9S 9D 9C"], "9H")
    assert "8C" in t.playable()
    t.play("8C", suit="D")
    assert t.state.suit == 3 - 1  # diamonds
    assert t.playable() == {"5D", "7D"}
    assert "suit named by the 8" in str(t.illegal((PLAY, parse_card("6C"), -1, False)))


def test_an_eight_must_name_a_suit_and_may_name_its_own():
    t = Table(["8C 4C 5C", "5D 6C 7D"], "9H")
    assert "must name a suit" in str(t.illegal((PLAY, parse_card("8C"), -1, False)))
    t.play("8C", suit="C")
    assert t.playable() == {"6C"}


def test_skip_skips_the_next_player():
    t = Table(["JH 4C 5C", "5D 6C 7C", "9S 9D 9C"], "9H")
    t.play("JH")
    assert t.turn == 2


def test_skip_rank_option():
    t = Table(["AH 4C 5C", "5D 6C 7C", "9S 9D 9C"], "10H", skip_rank="A", reverse_rank="9")
    t.play("AH")
    assert t.turn == 2


def test_reverse_reverses_the_direction():
    t = Table(["QH 4C 5C", "5D 6C 7C", "9S 9D 9C"], "9H")
    t.play("QH")
    assert t.state.direction == -1 and t.turn == 2


def test_reverse_with_two_players_is_a_skip():
    t = Table(["QH 4C 5C", "5D 6C 7C"], "9H")
    t.play("QH")
    assert t.turn == 0


def test_reverse_rank_option():
    t = Table(["9S 4C 5C", "5D 6C 7C", "3S 9D 9C"], "10S", reverse_rank="9", skip_rank="A")
    t.play("9S")
    assert t.state.direction == -1 and t.turn == 2


def test_switched_off_cards_play_as_ordinary_cards():
    t = Table(["2H 8C JH QH", "5D 6C 7C KD", "9S 9D 9C KC"], "9H",
              draw_two=False, wild_eight=False, skip=False, reverse=False)
    assert t.playable() == {"2H", "JH", "QH"}  # the 8 is not wild
    t.play("2H")
    assert t.turn == 1 and t.state.penalty == 0


def test_draw_three_option():
    t = Table(["3H 4C 5C", "3D 2C 7C", "9S 9D 9C"], "9H", draw_three=True)
    t.play("3H")
    assert t.state.penalty == 3
    assert t.playable() == {"3D"}  # a 3 penalty is passed on only with a 3
    t.play("3D")
    assert t.state.penalty == 6 and t.turn == 2


def test_a_two_penalty_is_passed_on_only_with_a_two():
    t = Table(["2H 4C 5C", "3H 6C 7C", "9S 9D 9C"], "9H", draw_three=True)
    t.play("2H")
    assert t.playable() == set()


def test_three_is_ordinary_without_draw_three():
    t = Table(["3H 4C 5C", "5D 6C 7C", "9S 9D 9C"], "9H")
    t.play("3H")
    assert t.state.penalty == 0 and t.turn == 1


# 6. Page One ---------------------------------------------------------------------------------
def test_page_one_call_only_with_the_second_to_last_card():
    t = Table(["4H 5C 6C", "5D 6D 7D"], "9H")
    assert all(not a[3] for a in t.state.legal_actions())
    assert "second-to-last" in str(t.illegal((PLAY, parse_card("4H"), -1, True)))


def test_called_page_one_costs_nothing():
    t = Table(["4H 5C", "5D 6D"], "9H")
    t.play("4H", call=True)
    assert t.turn == 1 and t.hand(0) == ["5C"]


def test_forgotten_page_one_draws_the_penalty_on_the_spot():
    t = Table(["JH 5C", "5D 6D", "7S 7D"], "9H")
    t.play("JH")  # forgot the call; the skip still applies afterwards
    assert t.state.current_player() == CHANCE
    assert "forgotten Page One" in t.state.expecting()
    t.deliver("KS", "KD")
    assert t.hand(0) == ["5C", "KD", "KS"]
    assert t.turn == 2  # the J's skip applied to the next turn


@pytest.mark.parametrize("penalty", [0, 3, 5])
def test_page_one_penalty_option(penalty):
    t = Table(["4H 5C", "5D 6D"], "9H", page_one_penalty=penalty)
    t.play("4H")
    if penalty == 0:
        assert t.turn == 1
    else:
        drawn = ["KS", "KD", "KH", "KC", "QS"][:penalty]
        t.deliver(*drawn)
        assert len(t.hand(0)) == 1 + penalty


def test_page_one_call_when_playing_a_drawn_card():
    t = Table(["3C 4C", "5H 6H"], "9H")
    t.draw("9S")
    # three cards now, so no call; after one play the hand is 2 and the next play may call
    assert all(not a[3] for a in t.state.legal_actions() if a[0] == PLAY)


# 7. Winning -----------------------------------------------------------------------------------
def test_first_out_wins_and_others_rank_by_fewest_cards():
    t = Table(["4H", "5D", "6D"], "9H", hand_size=1)
    t.play("4H")
    assert t.state.current_player() == TERMINAL
    result = t.state.result()
    assert result.winner == 0
    assert result.places == [1, 2, 2]  # ties share a place


def test_finish_on_special_off_forbids_a_special_last_card():
    t = Table(["2H", "5D"], "9H", hand_size=1, finish_on_special=False)
    assert t.playable() == set()
    assert t.state.legal_actions() == [DRAW_ACTION]


def test_rank_all_places_plays_on_and_the_last_card_takes_effect():
    t = Table(["JH", "5D", "6D", "7D"], "9H", hand_size=1, rank_all_places=True)
    t.play("JH")  # out, and the jack still skips seat 1
    assert t.state.current_player() == 2
    assert t.state.result() is None


def test_rank_all_places_reverse_with_two_left_is_a_skip():
    t = Table(["QH", "5D", "6D"], "9H", hand_size=1, rank_all_places=True)
    t.play("QH")  # two players still in: a skip
    assert t.turn == 2


def test_rank_all_places_order_of_going_out():
    t = Table(["4H", "9D", "4S"], "9H", hand_size=1, rank_all_places=True)
    t.play("4H")
    assert t.state.result() is None
    t.draw("5C")  # seat 1 has nothing matching 4H
    assert t.turn == 2
    t.play("4S")
    result = t.state.result()
    assert result.places == [1, 3, 2]


def test_stuck_table_ends_with_no_winner():
    t = Table(["4C 5C", "6C 7C"], "9H", finish_on_special=False)
    state = t.state
    # Nothing left to draw, and nobody can play: a whole round passes.
    state.discard = [state.discard[-1]]
    state.hands[0].extend(state.stock)
    state.stock = []
    state.turn_empty = True
    state.hands[0] = [parse_card("2C")]
    state.hands[1] = [parse_card("JC")]
    t.state.apply(DRAW_ACTION)
    assert state.result() is None
    t.state.apply(DRAW_ACTION)
    result = state.result()
    assert result is not None and result.winner is None


# 8. Rounds ------------------------------------------------------------------------------------
def test_rounds_score_penalty_points_and_move_the_deal():
    t = Table(["4H", "QD"], "9H", hand_size=1, rounds=2)
    t.play("4H")
    state = t.state
    assert state.round == 1 and state.dealer == 0  # the deal moved left
    assert state.totals == [0, 20]  # an active reverse scores 20
    assert state.current_player() == CHANCE


@pytest.mark.parametrize(("card", "points"), [
    ("2S", 20), ("8S", 20), ("JS", 20), ("QS", 20), ("10S", 10), ("KS", 10), ("AS", 1), ("7S", 7),
])
def test_card_points(card, points):
    from cardcli_matching.config import Config
    variant = Table(["3H", "3D"], "9H", hand_size=1).variant
    from cardcli.engine.rulesets import default_ruleset
    assert Config(default_ruleset(variant).options).card_points[parse_card(card)] == points


def test_lowest_total_wins_after_the_last_round():
    from cardcli.testing import play_game
    game, _ = play_game("matching", players=3, seed=4, options={"rounds": 3})
    result = game.state.result()
    assert result.scores is not None and len(result.rounds) == 3
    assert [sum(r[s] for r in result.rounds) for s in range(3)] == result.scores
    best = min(result.scores)
    for seat in range(3):
        assert (result.places[seat] == 1) == (result.scores[seat] == best)


# Rulesets that the rules forbid ----------------------------------------------------------------
@pytest.mark.parametrize(("options", "message"), [
    ({"skip_rank": "Q"}, "two different ranks"),
    ({"reverse_rank": "8", "skip_rank": "J"}, "may not be 8"),
    ({"skip_rank": "3", "draw_three": True}, "may not be 3"),
])
def test_check_rules_refuses(options, message):
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    variant = get_registry().get("matching")
    rules = {**default_ruleset(variant).options, **options}
    with pytest.raises(RulesetError, match=message):
        variant.check_rules(rules, 4)


def test_a_deal_that_does_not_fit_is_refused():
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    variant = get_registry().get("matching")
    rules = {**default_ruleset(variant).options, "hand_size": 10}
    with pytest.raises(RulesetError, match="do not fit"):
        variant.check_rules(rules, 6)
    variant.check_rules(rules, 5)


def test_turn_up_of_a_card_not_in_the_stock_is_refused():
    t = Table(["3S 4S", "5H 6H"], "7H")
    del t
    from cardcli.engine.plugins import get_registry
    from cardcli.engine.rulesets import default_ruleset
    from cardcli_matching.state import DEAL
    variant = get_registry().get("matching")
    rules = {**default_ruleset(variant).options, "hand_size": 1}
    state = variant.new_state(rules, 2, 1)
    state.apply((DEAL, ((parse_card("3S"),), (parse_card("4S"),))))
    with pytest.raises(Exception, match="not in the stock"):
        state.apply((TURN_UP, parse_card("3S")))


def test_what_a_drawing_player_lacks_is_respected_when_hidden_cards_are_dealt_anew():
    """Drawing for want of a playable card shows the table the player holds
    nothing of the top card's suit or rank and no 8; a search player's
    imagined worlds respect that until unseen cards join the hand."""
    import random as _random

    from cardcli.kit.cards import RANK, SUIT

    t = Table(["3C 4C 5D", "5H 6S 7D", "9S 10D JC"], "9H", skip=False)
    t.draw("KC")  # seat 0 could not play on 9H: no hearts, no 9s, no 8s
    state = t.state
    for trial in range(20):
        world = redeal(state, 1, _random.Random(trial))
        assert not any(SUIT[c] == 1 or RANK[c] in (9, 8) for c in world.hands[0])
    # Keeping a drawn card that plays, or drawing a penalty, ends what is known.
    t2 = Table(["3C 4C 5D", "5H 6S 7D", "9S 10D JC"], "9H", skip=False)
    t2.draw("9C")
    t2.keep()
    assert t2.state.lacks[0] == 0 and t2.state.ruled_out(1) == {}


def test_a_drawn_card_waiting_to_be_played_stays_in_the_drawers_hand_when_others_imagine_the_cards():
    """Re-dealt for a seat that is not the drawer, the drawer's hand holds a
    drawn card that plays (the table knows that much), the rest of the hand
    lacks what the drawer was seen to lack, and which card was really drawn
    makes no difference to the imagined world."""
    import random as _random

    from cardcli.kit.cards import RANK, SUIT

    from .conftest import cards

    def after_drawing(card: str) -> Table:
        t = Table(["3C 4C 5D", "5H 6S 7D", "9S 10D JC"], "9H", skip=False)
        t.draw(card)  # seat 0 could not play on 9H; the card drawn plays
        return t

    state = after_drawing("QH").state
    assert state.drawn == cards("QH")[0] and state.current_player() == 0
    other = after_drawing("KH").state  # another card the other seats cannot tell apart
    for viewer in (1, 2):
        for trial in range(30):
            world = redeal(state, viewer, _random.Random(trial))
            hand = world.hands[0]
            assert world.drawn in hand and world.is_playable(world.drawn, len(hand))
            rest = list(hand)
            rest.remove(world.drawn)
            assert not any(SUIT[c] == 1 or RANK[c] in (9, 8) for c in rest)
            assert world.hands == redeal(other, viewer, _random.Random(trial)).hands
            assert world.drawn == redeal(other, viewer, _random.Random(trial)).drawn
            for action in world.legal_actions():
                world.clone().apply(action)  # each choice is a move that can be made
    assert redeal(state, 0, _random.Random(1)).drawn == state.drawn  # the drawer knows its card
