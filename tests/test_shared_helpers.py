"""The helpers the built-in variants share from the core: each checked on
its own, so a change that breaks one shows here and not only deep inside a
variant's games."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.options import deal_problem
from cardcli.contract.phases import PhasedState
from cardcli.contract.unseen import hands_seen_by
from cardcli.contract.variant import CHANCE, TERMINAL, State
from cardcli.contract.views import ScoreSheet, TableView
from cardcli.kit.cards import NAME, UNSEEN, parse_card
from cardcli.kit.errors import IllegalMove
from cardcli.kit.stock import where
from cardcli.words.narration import told_with_draws
from cardcli.words.prompts import PAGE_ONE, STOP, split_call, split_calls, typed_move
from cardcli.words.view import seat_views, viewer_hand

P_DEAL, P_PLAY, P_DRAW, P_OVER = range(4)
PLAY, DRAW, DEAL, DRAWN = range(4)


class Toy(PhasedState):
    """Deal, then seats play or draw until the game is over."""

    decision_phases = (P_PLAY, P_DRAW)
    over_phase = P_OVER
    __slots__ = ("_result", "hands", "num_players", "phase", "turn")

    def __init__(self) -> None:
        self.num_players = 2
        self.hands = [[0, 1], [2, 3]]
        self.phase = P_DEAL
        self.turn = 1
        self._result = None

    def legal_actions(self) -> list:
        return [(PLAY, card) for card in self.hands[self.turn]] if self.phase == P_PLAY else []

    def apply_legal(self, action) -> None:
        self.phase = P_PLAY

    def check_chance(self, action) -> None:
        self.expect(action, DEAL)

    def sample_chance(self, rng: random.Random):
        return (DEAL,)

    def card_zones(self) -> dict[str, list[int]]:
        return {"hand 0": self.hands[0], "hand 1": self.hands[1]}

    def expecting(self) -> str:
        return "the deal"


@pytest.mark.parametrize(("phase", "player"),
                         [(P_DEAL, CHANCE), (P_PLAY, 1), (P_DRAW, 1), (P_OVER, TERMINAL)])
def test_a_phased_state_s_player_follows_from_its_phase(phase, player):
    state = Toy()
    state.phase = phase
    assert state.current_player() == player
    assert state.is_terminal() == (phase == P_OVER)


def test_a_phased_state_s_result_and_its_chance_of_the_wrong_kind():
    state = Toy()
    assert state.result() is None
    state._result = "the end"
    assert state.result() == "the end"
    state._result = None
    with pytest.raises(IllegalMove, match=r"^expected the deal$"):
        state.check((PLAY, 0))
    state.check((DEAL,))  # the kind this phase waits for
    for malformed in ("deal", (), None):
        with pytest.raises(IllegalMove, match="not an action"):
            state.check(malformed)


def test_a_phased_state_that_writes_current_player_keeps_its_own():
    class Own(Toy):
        __slots__ = ()

        def current_player(self) -> int:
            return 0

    assert Own().current_player() == 0


def test_a_phased_state_without_its_phases_says_so():
    class Unnamed(PhasedState):
        __slots__ = ("_result", "phase", "turn")
        legal_actions = apply_legal = check_chance = sample_chance = card_zones = Toy.legal_actions

    with pytest.raises(TypeError, match="names no decision_phases"):
        Unnamed().current_player()


def test_check_decision_alone_is_overridden_and_check_still_guards_the_rest():
    class Loose(Toy):
        """Every play of a held card is allowed, listed or not."""

        __slots__ = ()

        def check_decision(self, action) -> None:
            if action[1] not in self.hands[self.turn]:
                raise IllegalMove("not in hand")

    state = Loose()
    with pytest.raises(IllegalMove, match="expected the deal"):
        state.check((PLAY, 2))  # a chance node still goes to check_chance
    state.phase = P_PLAY
    state.check((PLAY, 3))
    with pytest.raises(IllegalMove, match="not in hand"):
        state.check((PLAY, 0))
    state.phase = P_OVER
    with pytest.raises(IllegalMove, match="the game is over"):
        state.check((PLAY, 3))


def test_the_default_check_decision_allows_exactly_the_legal_list():
    state = Toy()
    state.phase = P_PLAY
    state.check((PLAY, 2))
    with pytest.raises(IllegalMove, match="not allowed now"):
        state.check((PLAY, 0))
    assert isinstance(state, State)


class Told:
    """Just enough of a variant for :func:`event_line`: each event's words."""

    def describe(self, state, action, viewer=None, names=None) -> str:
        return {PLAY: "played", DRAW: "drew"}.get(action[0], "dealt")


class At:
    """A state before an event: who acts then."""

    def __init__(self, player: int) -> None:
        self.player = player

    def current_player(self) -> int:
        return self.player


def _tell(viewer):
    events = [(At(0), (PLAY, 5)), (At(CHANCE), (DRAWN, (7, 8))), (At(CHANCE), ("rebuild",)),
              (At(CHANCE), (DRAWN, (9,))), (At(0), (PLAY, 9)), (At(1), (PLAY, 4))]
    return told_with_draws(
        Told(), events, viewer, ["ann", "bob"],
        drawn=lambda seat, state, action: action[1] if action[0] == DRAWN else None,
        rebuilt=lambda seat, state, action, cards: action[0] == "rebuild" and bool(cards),
        on_the_way="reshuffled on the way",
        told=lambda state, action, line, cards, last: f"{line}: {cards}",
        then=lambda seat, state, action, line: line + ", then played it" if state.player == seat else None)


def test_a_decision_and_its_draws_are_told_in_one_line():
    drew = " ".join(NAME[card] for card in (7, 8, 9))
    assert _tell(0) == [f"ann played: drew {drew} (reshuffled on the way), then played it", "bob played"]
    assert _tell(1)[0] == "ann played: drew 3 cards (reshuffled on the way), then played it"


def test_a_decision_with_no_draws_is_its_own_line():
    lines = told_with_draws(Told(), [(At(0), (PLAY, 1)), (At(1), (DRAW,))], None, None,
                            drawn=lambda seat, state, action: None,
                            told=lambda *args: pytest.fail("no draws to tell"))
    assert lines == ["seat 0 played", "seat 1 drew"]


def test_a_typed_move_is_a_plain_word_or_card_words_and_only_when_legal():
    legal = [("draw",), ("play", parse_card("7h"), True)]
    plain = {"d": ("draw",)}

    def play(words):
        return ("play", parse_card(words[0]), call)

    call, words = split_call("7h!")
    assert typed_move(words, legal, plain, play) == ("play", parse_card("7h"), True)
    call, words = split_call("7h")
    assert typed_move(words, legal, plain, play) is None  # the play without the call is not legal here
    assert typed_move(["d"], legal, plain, play) == ("draw",)
    assert typed_move(["d"], legal[1:], plain, play) is None
    assert typed_move(["zz"], legal, plain, play) is None  # not a card: no move, no error
    assert typed_move([], legal, plain, play) is None


@pytest.mark.parametrize(("text", "said", "words"), [
    ("7h", None, ["7h"]), ("7h!", "!", ["7h"]), ("p 7h", "Page One", ["7h"]),
    ("page one 7h", "Page One", ["7h"]), ("7h page one", "Page One", ["7h"]), ("7h page", "Page One", ["7h"]),
    ("s 7h", "Stop", ["7h"]), ("7h stop", "Stop", ["7h"]), ("8s h stop!", "Stop", ["8s", "h"]),
    ("8s s", None, ["8s", "s"]),  # a key after the card is a suit's letter, not a call
    ("page one", "Page One", []), ("stop", None, ["stop"])])  # a word alone is the menu's
def test_a_typed_move_says_which_call_it_makes(text, said, words):
    call, rest = split_calls(text, (PAGE_ONE, STOP))
    assert (call if call is None or isinstance(call, str) else call.name) == said
    assert rest == words


def test_split_call_reads_the_page_one_call_first_or_last():
    assert split_call("7h page one") == (True, ["7h"])
    assert split_call("page one 7h") == (True, ["7h"])
    assert split_call("7h stop") == (False, ["7h", "stop"])  # a game without Stop: not a call


def test_where_a_card_lies_is_said_from_the_zones():
    zones = {"hand 0": [1], "stock": [2], "trick": [3], "finished tricks": [4]}
    assert where(zones, 1) == " (it is in seat 0's hand)"
    assert where(zones, 4) == " (it is in the finished tricks)"
    assert where(zones, 3, {"trick": "the trick on the table"}) == " (it is in the trick on the table)"
    assert where(zones, 2) == ""  # in the stock: nothing to add
    assert where(zones, 9) == ""


def test_a_deal_too_big_for_the_pack_is_said_once():
    rules = {"hand_size": 10, "max_players": 6}
    assert deal_problem(rules, 5, 52, "one deck", "a stock left over", "option 'hand_size'") == ""
    assert deal_problem(rules, 6, 52, "one deck", "a card to turn up", "option 'hand_size'") == (
        "6 players x 10 cards do not fit one deck with a card to turn up (option 'hand_size')")
    assert "6 players (the widest table, option 'max_players') x 10 cards" in deal_problem(
        rules, None, 52, "one deck", "a stock", "options")
    assert deal_problem({"hand_size": 13, "max_players": 4}, None, 52, "one deck", "a stock", "o") != ""


def test_a_deal_as_one_seat_saw_it():
    assert hands_seen_by(((1, 2), (3, 4, 5)), 1) == ((UNSEEN, UNSEEN), (3, 4, 5))
    assert hands_seen_by(((1, 2), (3,)), None) == ((UNSEEN, UNSEEN), (UNSEEN,))


def test_the_table_s_seats_hand_and_sheet():
    views = seat_views([[1, 2], [3]], ["ann", "bob"], 1, lambda seat, hand: ["Page One"] * (len(hand) == 1),
                       lambda seat: f"total {seat * 10}")
    assert [(v.name, v.cards, v.notes, v.score) for v in views] == [
        ("ann", 2, [], "total 0"), ("bob", 1, ["dealer", "Page One"], "total 10")]
    assert viewer_hand([[1, 2], [3]], 1) == [3]
    assert list(viewer_hand([[1, 2], [3]], None)) == []
    assert list(viewer_hand([[1, 2], [3]], 5)) == []  # a watcher's number, not a seat
    sheet = ScoreSheet.by_round("points", [[1, 2], [3, 4]], [4, 6])
    assert (sheet.rows, sheet.totals) == ([["round 1", 1, 2], ["round 2", 3, 4]], [4, 6])
    from cardcli.kit.language import speaking

    with speaking("ja"):  # the served page's score table, in the language it speaks
        assert ScoreSheet.by_round("points", [[1, 2]], [1, 2]).rows == [["第1ラウンド", 1, 2]]
    assert TableView(viewer=None, turn=CHANCE, players=[]).turn is None
    assert TableView(viewer=None, turn=TERMINAL, players=[]).turn is None
    assert TableView(viewer=None, turn=0, players=[]).turn == 0
