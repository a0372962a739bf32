"""Each rule and option of End of the Page (docs/variants/endofpage.md), one test
per rule that fails if the rule is wrong."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.engine.rulesets import default_ruleset, resolve
from cardcli.kit.cards import RANK, parse_card
from cardcli.kit.errors import IllegalMove, RulesetError
from cardcli.kit.melds import RUN, SET, MeldRules, interpretations, meld_problem, three_card_melds
from cardcli.testing import validate_bytes
from cardcli_endofpage.state import (
    DEAL,
    DISCARD,
    DRAW_ACTION,
    DRAWN,
    LAYOFF,
    MELD,
    P_DEAL,
    P_DRAW,
    P_PLAY,
    P_RESHUFFLE,
    P_TURN_UP,
    PICKUP,
    RESHUFFLE_ACTION,
    TAKE,
    TURN_UP,
)
from cardcli_endofpage.variant import parse_meld_items

from .conftest import WORKED, cards, record, table


def rules_for(variant, **options):
    rules = dict(default_ruleset(variant).options)
    rules.update(options)
    return rules


def c(name: str) -> int:
    return parse_card(name)


# ------------------------------------------------------------------- the deck
def test_deck_has_no_twos_or_jokers_and_decks_by_players(variant):
    rules = rules_for(variant)
    one = variant.deck(rules, 2)
    assert len(one) == 48 and not any(RANK[x] == 2 for x in one) and 52 not in one
    assert len(variant.deck(rules, 3)) == 96  # default: two decks from three players
    assert len(variant.deck(rules_for(variant, decks=1), 3)) == 48
    assert len(variant.deck(rules_for(variant, decks=2), 2)) == 96


def test_one_deck_refused_above_three_players(variant):
    with pytest.raises(RulesetError, match="two decks"):
        variant.check_rules(rules_for(variant, decks=1), 4)
    variant.check_rules(rules_for(variant, decks=1), 3)
    variant.check_rules(rules_for(variant), 6)


def test_options_ranges(variant):
    with pytest.raises(RulesetError):
        resolve(variant.options, {"page_lines": 0}, source="t")
    with pytest.raises(RulesetError):
        resolve(variant.options, {"reshuffles": 100}, source="t")
    with pytest.raises(RulesetError):
        resolve(variant.options, {"decks": 3}, source="t")
    assert resolve(variant.options, {"target_score": "none"}, source="t")["target_score"] is None


# -------------------------------------------------------------------- the deal
def deal_state(variant, players=2, dealer=1, **options):
    return variant.new_state(rules_for(variant, **options), players, dealer)


def test_deal_size_is_the_turned_card_value(variant):
    state = deal_state(variant)
    assert state.phase == P_DEAL and state.current_player() == CHANCE
    with pytest.raises(IllegalMove, match="means 5 cards"):
        state.apply((DEAL, 0, tuple(cards("5S 6S 7S 8S")), -1))
    with pytest.raises(IllegalMove, match="seat 0"):
        state.apply((DEAL, 1, tuple(cards("5S 6S 7S 8S 9S")), -1))
    state.apply((DEAL, 0, tuple(cards("5S 6S 7S 8S 9S")), -1))
    assert len(state.hands[0]) == 5
    jack = cards("JD 3C 4C 5C 6C 7C 8C 9C 10C JC QC")
    state.apply((DEAL, 1, tuple(jack), -1))
    assert len(state.hands[1]) == 11
    assert state.wild == 11 and state.faceup == c("JD")  # the dealer's turned card is wild
    assert state.phase == P_TURN_UP


def test_ace_never_wild_dealer_turns_again(variant):
    state = deal_state(variant)
    state.apply((DEAL, 0, tuple(cards("3S 4S 5S")), -1))
    aces = cards("AS AH 7D 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC")  # an ace: 14 cards
    with pytest.raises(IllegalMove, match="7D"):
        state.apply((DEAL, 1, tuple(aces), c("AH")))
    state.apply((DEAL, 1, tuple(aces), c("7D")))
    assert state.wild == 7 and state.faceup == c("7D")
    assert len(state.hands[1]) == 14
    state.apply((TURN_UP, c("9H")))
    assert state.discard == [c("9H")] and state.current_player() == 0


def test_sampled_deals_follow_the_rules(variant):
    for seed in range(30):
        state = deal_state(variant, players=3)
        rng = random.Random(seed)
        while state.phase == P_DEAL:
            action = state.sample_chance(rng)
            state.apply(action)
            seat = action[1]
            assert len(state.hands[seat]) == RANK[action[2][0]]
        assert state.wild not in (0, 14, 2)


# ----------------------------------------------------------------- meld shapes
FIVES = MeldRules(wild=5)


def meld_of(text: str, rules: MeldRules = FIVES):
    found = interpretations(cards(text), rules)
    return found


def test_seed_examples_of_wild_spacing():
    # 5s wild: 9 5 5 Q K is illegal, 7 5 9 and 5 Q K are legal.
    bad = (RUN, 0, 9, tuple(cards("9S 5H 5D QS KS")))
    assert bad[3][0] == c("9S")
    assert "two wilds need two naturals" in meld_problem((RUN, 0, 9, tuple(cards("9S 5H 5D QS KS"))), FIVES)
    assert meld_of("7S 5H 9S") == [(RUN, 0, 7, tuple(cards("7S 5H 9S")))]
    assert meld_of("5D QS KS")  # the wild as JS (or AS)
    assert not meld_of("9S 5H 5D QS KS")


def test_three_wilds_are_never_a_set():
    threes = MeldRules(wild=3)
    assert not meld_of("3S 3H 3D", threes)
    assert "natural" in meld_problem((SET, 3, 0, tuple(cards("3S 3H 3D"))), threes)
    assert not three_card_melds(cards("3S 3H 3D"), threes)


def test_set_spacing_naturals_at_least_twice_wilds_minus_one():
    threes = MeldRules(wild=3)
    assert meld_problem((SET, 4, 0, tuple(cards("4S 4H 3D 3S"))), threes) is None  # W 4 4 W
    assert meld_problem((SET, 4, 0, tuple(cards("4S 4H 4D 3D 3S 3C"))), threes) is not None
    assert meld_problem((SET, 4, 0, tuple(cards("4S 4H 4D 4C 3D 3S 3C"))), threes) is None
    assert meld_problem((SET, 4, 0, tuple(cards("4S 3D 3S"))), threes) is not None


def test_run_spacing_in_rank_order_and_aces_high_only():
    threes = MeldRules(wild=3)
    assert meld_problem((RUN, 0, 4, tuple(cards("3H 5S 6S 3D"))), threes) is None  # W N N W
    assert meld_problem((RUN, 0, 4, tuple(cards("3H 5S 3D 7S"))), threes) is not None
    assert meld_problem((RUN, 0, 12, tuple(cards("QS KS AS"))), threes) is None
    # Aces are never low, and a wild never stands for a 2.
    assert meld_problem((RUN, 0, 2, tuple(cards("3H 3S 4S"))), threes) is not None
    assert not interpretations(cards("AS 4S 3H"), threes)
    assert meld_problem((RUN, 0, 13, tuple(cards("KS AS 3H"))), threes) is not None


@pytest.mark.parametrize(("items", "message"), [
    # the example: 6s wild, a wild below 3 next to an ace
    (["AH", "6H=2H", "3H"], "6H cannot stand for 2H: aces are only high and a wild never stands for a 2"),
    (["QH", "KH", "AH", "6H=2H"], "6H cannot stand for 2H: aces are only high and a wild never stands "
     "for a 2"),
    (["6H=2H", "3H", "4H"], "6H cannot stand for 2H: a wild never stands for a 2"),
    (["AH", "6H", "3H"], "aces are only high and a wild never stands for a 2"),  # meaning left out
    (["AH", "3H", "4H"], "aces are only high: AH cannot go below 3H"),
    (["AH", "3H", "6H=4H", "5H"], "aces are only high: AH cannot go below 3H"),
])
def test_a_low_ace_or_a_wild_two_is_refused_for_that_reason(items, message):
    state = table(wild="6", hands=["AH 6H 3H 4H 5H", "5D 6D"])
    with pytest.raises(ValueError) as caught:
        parse_meld_items(items, state)
    assert str(caught.value) == message
    assert "gap" not in str(caught.value)


def test_a_wild_two_next_to_an_ace_in_a_record():
    from cardcli.testing import validate_bytes

    from .conftest import WORKED, record

    lines = [dict(x) for x in WORKED]
    lines[6] = {"seat": 0, "move": "meld", "cards": ["AS", "3D=2S", "4S"]}
    report = validate_bytes(record(lines))
    assert str(report.error).endswith(":7: move 2, seat 0: 3D cannot stand for 2S: aces are only high and "
                                      "a wild never stands for a 2")


# ----------------------------------------------------------- draws and pickups
def test_deep_pickup_needs_two_naturals_from_hand():
    state = table(hands=["4C 6C KD 3S", "9H 9D 10S"], discard="6D 5C JH", phase=P_DRAW)
    legal = state.legal_actions()
    run = (RUN, 3, 4, tuple(cards("4C 5C 6C")))
    assert (PICKUP, c("5C"), run) in legal
    assert (TAKE, c("JH")) in legal and DRAW_ACTION in legal
    # With a wild and only one natural, refused.
    one_natural = parse_meld_items(["4C", "5C", "3S=6C"], state)
    with pytest.raises(IllegalMove, match=r"two\s+natural"):
        state.check((PICKUP, c("5C"), one_natural))
    # The top card is simply taken.
    with pytest.raises(IllegalMove, match="top discard"):
        state.check((PICKUP, c("JH"), run))
    state.apply((PICKUP, c("5C"), run))
    assert state.discard == cards("6D JH")  # the cards above stay in order
    assert state.melds == [run] and state.melded[0] and state.phase == P_PLAY
    assert sorted(state.hands[0]) == sorted(cards("KD 3S"))


def test_deep_pickup_may_make_a_longer_meld_with_wilds():
    state = table(hands=["4C 6C 7C 3S KD", "9H 9D 10S"], discard="6D 5C JH", phase=P_DRAW)
    longer = parse_meld_items(["4C", "5C", "6C", "7C", "3S=8C"], state)
    state.apply((PICKUP, c("5C"), longer))
    assert state.hands[0] == cards("KD")


# -------------------------------------------------------------- lay-offs
def test_layoff_only_after_own_first_meld():
    state = table(hands=["4D 9S 9H KD", "QH QD"], melds=[(1, "4S 4H 3D=4")], turn=0)
    with pytest.raises(IllegalMove, match="after your own first meld"):
        state.check((LAYOFF, 0, c("4D"), 4))
    assert not any(a[0] == LAYOFF for a in state.legal_actions())
    state.melded[0] = True  # once A has melded (this turn or earlier)
    state.check((LAYOFF, 0, c("4D"), 4))


def test_layoff_on_anothers_meld_scores_for_the_layer():
    state = table(hands=["3S 9S", "QH QD 7C"], melds=[(1, "4S 4H 3D=4"), (0, "8C 9C 10C")], turn=0)
    state.apply((LAYOFF, 0, c("3S"), 4))  # W 4 4 W is legal
    assert state.melds[0][3] == tuple(cards("4H 4S 3D 3S")) or sorted(state.melds[0][3]) == sorted(
        cards("4S 4H 3D 3S"))
    assert c("3S") in state.played[0] and c("3S") not in state.played[1]
    # A third wild would need four naturals.
    state.hands[0].append(c("3C"))
    with pytest.raises(IllegalMove, match="two wilds need two naturals"):
        state.check((LAYOFF, 0, c("3C"), 4))


def test_wild_layoff_on_a_run_end():
    state = table(hands=["3S 9S KD", "QH"], melds=[(0, "5C 6C 7C")], turn=0)
    legal = state.legal_actions()
    assert (LAYOFF, 0, c("3S"), 4) in legal and (LAYOFF, 0, c("3S"), 8) in legal
    state.apply((LAYOFF, 0, c("3S"), 8))
    # The wild at the top end now needs two naturals before another wild goes there.
    state.hands[0].append(c("3C"))
    assert (LAYOFF, 0, c("3C"), 9) not in state.legal_actions()
    assert (LAYOFF, 0, c("3C"), 4) in state.legal_actions()


# -------------------------------------------------------------- going out
def test_going_out_with_a_card_that_plays_is_refused():
    state = table(hands=["7C", "QH QD QS"], melds=[(0, "4C 5C 6C")], turn=0)
    with pytest.raises(IllegalMove, match="plays"):
        state.check((DISCARD, c("7C")))
    assert state.legal_actions() == [(LAYOFF, 0, c("7C"), 7)]


def test_going_out_with_a_card_that_does_not_play():
    state = table(hands=["9D", "QH QD QS"], melds=[(0, "4C 5C 6C")], turn=0, turns=2, page_lines=1)
    assert state.legal_actions() == [(DISCARD, c("9D"))]
    state.apply((DISCARD, c("9D")))
    assert state.is_terminal()  # everyone had a turn: round over (one line on the page)
    assert state.notes == ["seat 0 went out"]


def test_two_cards_any_discard_allowed():
    state = table(hands=["7C 9D", "QH QD QS"], melds=[(0, "4C 5C 6C")], turn=0)
    state.check((DISCARD, c("7C")))


def test_floating_then_going_out():
    state = table(hands=["8S 9S 10S", "QH QD QS JD"], turn=0, turns=2, page_lines=1)
    state.apply((MELD, (RUN, 0, 8, tuple(cards("8S 9S 10S")))))
    assert state.hands[0] == [] and state.turn == 1 and state.out == []  # floating: turn over
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("5H")))
    state.apply((DISCARD, c("JD")))
    assert state.turn == 0 and state.phase == P_DRAW
    # The floater draws a card that plays: it must be played, floating again.
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("JS")))
    assert state.legal_actions() == [(LAYOFF, 0, c("JS"), 11)]
    state.apply((LAYOFF, 0, c("JS"), 11))
    assert state.hands[0] == [] and state.turn == 1 and not state.out
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("5S")))
    state.apply((DISCARD, c("5H")))
    # Next a card that does not play: discarding it goes out.
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("4D")))
    assert state.legal_actions() == [(DISCARD, c("4D"))]
    state.apply((DISCARD, c("4D")))
    assert state.is_terminal() and state.result().rounds[0][0] == 10 * 4


def test_dealer_going_out_on_first_turn_ends_round_at_once():
    # Dealer is seat 1; seat 0 has had its turn (turns=1); the dealer goes out.
    state = table(hands=["QH QD QS 4C", "9D"], turn=1, turns=1, melds=[(1, "5C 6C 7C")], page_lines=2)
    state.apply((DISCARD, c("9D")))
    assert state.round == 1 and state.phase == P_DEAL  # round over, next deal
    assert state.round_scores[0][1] == 15 and state.round_scores[0][0] == -(30 + 5)


def test_first_player_going_out_lets_everyone_have_a_turn():
    state = table(hands=["9D", "QH QD QS 9H", "KH KD KS"], players=3, dealer=2, turn=0, turns=0,
                  melds=[(0, "5C 6C 7C")], page_lines=2)
    state.apply((DISCARD, c("9D")))
    assert state.out == [0] and state.turn == 1 and state.round == 0  # seats 1 and 2 still play
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("QC")))
    state.apply((MELD, (SET, 12, 0, tuple(sorted(cards("QC QD QH QS"))))))
    state.apply((DISCARD, c("9H")))
    assert state.out == [0, 1] and state.round == 0 and state.turn == 2
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("AS")))
    state.apply((DISCARD, c("AS")))
    assert state.round == 1  # the dealer had a turn: over


# ---------------------------------------------------------- the stock running out
def test_reshuffle_then_bound_ends_round(variant):
    state = table(hands=["QH QD 9S", "KH KD 8S"], discard="4D 5D 6D", turn=1, turns=1, reshuffles=1,
                  page_lines=2)
    state.stock = []
    state.apply((DISCARD, c("8S")))  # the next turn finds the stock empty
    assert state.phase == P_RESHUFFLE
    state.apply(RESHUFFLE_ACTION)
    assert sorted(state.stock) == sorted(cards("4D 5D 6D")) and state.discard == cards("8S")
    state.apply(DRAW_ACTION)
    state.apply((DRAWN, c("4D")))
    state.stock = []  # as if the rebuilt stock were used up
    state.apply((DISCARD, c("4D")))
    # Second time: the bound (1 rebuild) is reached, the round ends with nobody out.
    assert state.round == 1 and "nobody went out" in state.notes[0]


def test_no_reshuffles_allowed(variant):
    state = table(hands=["QH QD 9S", "KH KD 8S"], discard="4D 5D 6D", turn=1, turns=1, reshuffles=0,
                  page_lines=1)
    state.stock = []
    state.apply((DISCARD, c("8S")))
    assert state.is_terminal()
    assert state.result().rounds == [[-(10 + 10 + 10), -(10 + 10)]]


def test_reshuffle_bound_is_counted_in_simulation(variant):
    rules = rules_for(variant, page_lines=3, reshuffles=0)
    state = variant.new_state(rules, 2, 0)
    rng = random.Random(1)
    from cardcli_endofpage.cpu import easy

    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            assert action != RESHUFFLE_ACTION
            state.apply_legal(action)
        else:
            state.apply_legal(easy(state, state.turn, state.legal_actions(), rng))
    assert len(state.result().rounds) == 3


# ---------------------------------------------------------------- scoring
def test_worked_example_scores_210_and_105():
    report = validate_bytes(record(WORKED))
    assert report.valid, report.error
    assert report.result["scores"] == [105, 210]
    assert report.result["rounds"] == [[105, 210]]
    assert report.result["winner"] == 1


@pytest.mark.parametrize("option,value,expected", [
    ("wild_value", 50, [5 + 5 + 50 - 5, 5 + 50 + 5 + 50]),
    ("low_value", 1, [1 + 1 + 100 - 1, 1 + 100 + 1 + 100]),
])
def test_value_options_in_the_worked_example(option, value, expected):
    lines = [dict(x) for x in WORKED]
    lines[0] = {**lines[0], "rules": {"page_lines": 1, option: value}}
    lines[-1] = {"result": {"scores": expected}}
    report = validate_bytes(record(lines))
    assert report.valid, report.error


def test_ace_and_high_values():
    state = table(hands=["AS KD", "8H"], turn=0, ace_value=7, high_value=3, low_value=2,
                  melds=[(1, "4C 5C 6C")])
    assert state.round_points() == [-(7 + 3), 2 + 2 + 2 - 3]
    assert state.points[c("3H")] == 100  # wild_value


def test_wilds_count_as_wild_wherever_they_are():
    state = table(hands=["3S", "8H"], turn=0, melds=[(1, "4C 5C 3D=6C")])
    assert state.round_points() == [-100, 5 + 5 + 100 - 10]


def test_target_score_ends_the_game(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")],
                  target_score=250, page_lines=10)
    state.apply((DISCARD, c("9D")))
    assert state.is_terminal()
    result = state.result()
    assert result.scores == [300, -35] and result.winner == 0 and "reached 250" in result.reason


def test_page_lines_and_dealer_moves_left(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")], page_lines=2,
                  dealer=1)
    state.apply((DISCARD, c("9D")))
    assert not state.is_terminal() and state.dealer == 0 and state.deal_seat == 1


def test_tie_for_first_has_no_winner(variant):
    state = table(hands=["9D", "9H"], turn=0, turns=2, page_lines=1,
                  melds=[(0, "QC QH QS"), (1, "KC KH KS KD")])
    state.apply((DISCARD, c("9D")))
    result = state.result()
    assert result.scores == [30, 30] and result.winner is None and result.places == [1, 1]


def test_a_deal_larger_than_the_turned_card_is_refused(variant):
    state = deal_state(variant)
    with pytest.raises(IllegalMove, match="means 5 cards, but 6 were dealt"):
        state.apply((DEAL, 0, tuple(cards("5S 6S 7S 8S 9S 10S")), -1))


def test_target_score_reached_exactly_ends_the_game(variant):
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")],
                  target_score=300, page_lines=10)
    state.apply((DISCARD, c("9D")))
    assert state.is_terminal() and state.result().scores == [300, -35]
    state = table(hands=["9D", "QH QD QS 4C"], turn=0, turns=2, melds=[(0, "AC AD AH")],
                  target_score=301, page_lines=10)
    state.apply((DISCARD, c("9D")))
    assert not state.is_terminal() and state.round == 1
