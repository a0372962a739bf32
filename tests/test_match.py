"""``cardcli.contract.match``: the core keeps a match of deals; a variant writes one deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcli.contract.dealing import DealtMatch
from cardcli.contract.match import Match, round_end_checkpoint
from cardcli.contract.phases import PhasedState
from cardcli.kit.errors import IllegalMove
from cardcli.kit.results import Result, places_after, places_value, rank_places

P_DEAL, P_PLAY, P_OVER = range(3)


class HighCard(Match, PhasedState):
    """A toy match: each deal gives each seat one card, and the highest card
    wins the deal, scoring its rank; ``deals`` deals, the highest total wins."""

    decision_phases = (P_PLAY,)
    over_phase = P_OVER
    deal_phase = P_DEAL
    shared = ("deck",)
    __slots__ = ("deals", "deck", "hands", "num_players", "phase", "turn")

    def __init__(self, deals: int, num_players: int, dealer: int):
        self.deals = deals
        self.num_players = num_players
        self.deck = list(range(52))
        self.begin_match(dealer)

    def new_deal(self) -> None:
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.phase = P_DEAL
        self.turn = (self.dealer + 1) % self.num_players

    # The rules, as small as a state may be: the deal is the only event.
    def legal_actions(self) -> list:
        return []

    def sample_chance(self, rng: random.Random) -> tuple:
        return ("deal", tuple(rng.sample(self.deck, self.num_players)))

    def check_chance(self, action: Any) -> None:
        self.expect(action, "deal")

    def apply_legal(self, action: Any) -> None:
        self.deal(list(action[1]))

    def card_zones(self) -> dict[str, list[int]]:
        return {f"hand {seat}": hand for seat, hand in enumerate(self.hands)}

    def deal(self, cards: list[int]) -> None:
        self.hands = [[card] for card in cards]
        self.phase = P_PLAY
        best = max(cards)
        winner = cards.index(best)
        places = rank_places([-card for card in cards])
        self.end_deal([best if seat == winner else 0 for seat in range(self.num_players)],
                      f"seat {winner} held the highest card", places, winner)

    def match_over(self) -> str | None:
        return None if self.round < self.deals else f"{self.deals} deals played"

    def deal_alone(self) -> bool:
        return self.deals == 1


class Lowest(HighCard):
    """The lowest total wins, and a search values a position between deals by hand."""

    lower_wins = True
    __slots__ = ()

    def rollout_value(self, seat: int) -> float | None:
        return 0.25


def test_a_match_of_deals_keeps_scores_totals_and_moves_the_dealer_left():
    state = HighCard(3, 3, dealer=2)
    assert (state.round, state.totals, state.round_scores, state.dealer) == (0, [0, 0, 0], [], 2)
    assert state.last_round is None and state.round_end_hands() is None and state.rollout_value(0) is None
    state.deal([5, 9, 7])
    assert state.round == 1 and state.totals == [0, 9, 0] and state.round_scores == [[0, 9, 0]]
    assert state.dealer == 0 and state.phase == P_DEAL and state.result() is None
    assert state.round_places == [3, 1, 2] and state.round_reason == "seat 1 held the highest card"
    # The table as the deal ended, for its summary, while the next is dealt.
    assert state.last_round == ([[5], [9], [7]], "seat 1 held the highest card")
    assert state.round_end_hands() == [[5], [9], [7]]
    assert state.rollout_value(1) == places_value(rank_places([0, 9, 0], lower_is_better=False), 1)
    state.deal([11, 3, 4])
    state.deal([1, 2, 13])
    assert state.phase == P_OVER and state.round == 3 and state.dealer == 1
    assert state.result() == Result(places=[2, 3, 1], winner=2, reason="3 deals played", scores=[11, 9, 13],
                                    rounds=[[0, 9, 0], [11, 0, 0], [0, 0, 13]])
    assert state.round_end_hands() == [[1], [2], [13]]  # over: the hands stay as the last deal ended


def test_a_match_of_one_deal_has_that_deals_result():
    state = HighCard(1, 2, dealer=0)
    state.deal([40, 12])
    assert state.result() == Result(places=[1, 2], winner=0, reason="seat 0 held the highest card")


def test_a_tie_for_first_has_no_winner():
    state = HighCard(2, 2, dealer=0)
    state.deal([9, 3])
    state.deal([3, 9])
    result = state.result()
    assert result is not None and result.places == [1, 1] and result.winner is None


def test_the_lowest_total_wins_and_a_hand_written_rollout_value_stays():
    state = Lowest(2, 2, dealer=0)
    assert state.rollout_value(0) == 0.25
    state.deal([9, 3])
    state.deal([8, 2])
    result = state.result()
    assert result is not None and result.places == [2, 1] and result.winner == 1


def test_clones_share_what_the_match_keeps_and_stay_independent():
    assert set(Match.__slots__) <= set(HighCard.shared) and "deck" in HighCard.shared
    state = HighCard(3, 2, dealer=0)
    state.deal([9, 3])
    copy = state.clone()
    assert copy.totals is state.totals  # replaced, never changed: shared
    copy.deal([2, 30])
    assert state.round == 1 and state.totals == [9, 0] and state.round_scores == [[9, 0]]
    assert copy.round == 2 and copy.totals == [9, 30] and copy.dealer == 0
    assert state.dealer == 1


def test_a_match_played_through_the_state_contract():
    state = HighCard(4, 3, dealer=1)
    rng = random.Random(5)
    while state.result() is None:
        state.apply(state.sample_chance(rng))
    result = state.result()
    assert result is not None and state.round == 4 and result.rounds == state.round_scores
    assert result.scores == state.totals == [sum(row[seat] for row in result.rounds) for seat in range(3)]


def test_a_match_needs_its_deal_and_match_rules():
    class Bare(Match):
        __slots__ = ("hands", "num_players", "phase")

    bare = Bare()
    bare.num_players = 2
    with pytest.raises(NotImplementedError):
        bare.begin_match(0)


def test_places_after_the_seats_out_then_by_cards_held():
    assert places_after([2], [5, 3, 0, 3]) == [4, 2, 1, 2]  # seat 2 went out; the rest by cards held
    assert places_after([1, 3], [4, 0, 2, 0]) == [4, 1, 3, 2]  # two went out, in order
    assert places_after([], [2, 2, 1]) == [2, 2, 1]  # nobody out: ranked by cards alone
    assert places_after([0], [0, 7]) == rank_places([-1, 7])


class Dealt(DealtMatch, PhasedState):
    """A toy match of one deal, the core's usual one: ``cfg.hand_size`` cards each, the rest the
    stock; then one seat draws, the table pointing at it, and the match is over."""

    decision_phases = ()
    over_phase = P_OVER
    deal_phase = P_DEAL
    deal_kind = "deal"
    chance_seats = {P_PLAY: "turn"}
    __slots__ = ("phase", "turn")

    def legal_actions(self) -> list:
        return []

    def sample_chance(self, rng: random.Random) -> tuple:
        return self.sample_deal(rng) if self.phase == P_DEAL else ("draw",)

    def check_chance(self, action: Any) -> None:
        if self.phase == P_DEAL:
            self.check_deal(action)

    def apply_legal(self, action: Any) -> None:
        if action[0] == "deal":
            self.take_deal(action[1])
            self.phase = P_PLAY
        else:
            self.end_deal([0] * self.num_players, "drawn", [1] * self.num_players)

    def card_zones(self) -> dict[str, list[int]]:
        return {**{f"hand {seat}": hand for seat, hand in enumerate(self.hands)}, "stock": self.stock}

    def match_over(self) -> str | None:
        return "one deal"

    def deal_alone(self) -> bool:
        return True


def test_the_usual_deal_is_the_cores():
    cfg = type("Cfg", (), {"hand_size": 3})()
    state = Dealt(cfg, 2, 0, list(range(10)))
    assert state.turn == 1 and state.phase == P_DEAL and state.hands == [[], []] and state.stock == []
    with pytest.raises(IllegalMove, match="seat 1 was dealt 2 cards, not 3"):
        state.check(("deal", ((0, 1, 2), (3, 4))))
    with pytest.raises(IllegalMove, match="expected"):
        state.check(("draw",))
    action = state.sample_chance(random.Random(1))
    state.apply(action)
    assert state.hands == [list(action[1][0]), list(action[1][1])] and len(state.stock) == 4
    assert sorted(state.stock + state.hands[0] + state.hands[1]) == list(range(10))
    assert state.acting() == 1
    assert state.clone().deck is state.deck and "deck" in Dealt.shared
    state.apply(("draw",))
    assert state.result() is not None and state.acting() == -2  # TERMINAL: nobody


class Noted(HighCard):
    """A match whose deal's summary reads a slot besides the hands (``note``), named in ``ended``."""

    ended = ("hands", "note")
    __slots__ = ("note",)

    def new_deal(self) -> None:
        super().new_deal()
        self.note = f"deal {self.round + 1}"


def test_the_ended_slots_are_kept_as_the_deal_ended_and_put_back_on_a_copy():
    state = Noted(3, 2, dealer=0)
    assert state.table_as_ended() is None  # no deal has ended
    state.deal([9, 3])
    assert state.last_round == ([[9], [3]], "deal 1")
    assert state.note == "deal 2" and state.hands == [[], []]  # the next deal's table
    table = state.table_as_ended()
    assert table is not state and (table.hands, table.note) == ([[9], [3]], "deal 1")
    assert (state.hands, state.note) == ([[], []], "deal 2")  # the state itself is untouched
    state.deal([1, 40])
    state.deal([7, 2])
    assert state.phase == P_OVER and state.table_as_ended() is state  # over: the table as it ended


def test_the_round_end_checkpoint_states_the_deal_its_scores_and_the_totals():
    state = HighCard(2, 2, dealer=0)
    assert round_end_checkpoint(None, state) is None  # no deal has ended
    state.deal([9, 3])
    assert round_end_checkpoint(None, state) == {"checkpoint": "round_end", "round": 1, "scores": [9, 0],
                                                 "totals": [9, 0]}
    state.deal([2, 30])
    assert round_end_checkpoint(None, state) == {"checkpoint": "round_end", "round": 2, "scores": [0, 30],
                                                 "totals": [9, 30]}
