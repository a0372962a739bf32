"""The table as data (cardcli.words.view): the generic views a third party's variant
gets untouched, and the privacy check catching a view that leaks."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.variant import Variant
from cardcli.contract.views import SPECTATOR, MeldView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.engine.plugins import get_registry
from cardcli.kit.cards import NAME, parse_card
from cardcli.testing import play_game
from cardcli.testing.privacy import PrivacyCheck
from cardcli.words.table_text import view_text
from cardcli.words.view import move_view, render_from_view, table_view, viewer_cards
from cardcli_matching.variant import MatchingVariant

from .thirdparty import HighCard


class PlainMatching(MatchingVariant):
    """Matching as a third party might write it: no table_view or move_view of its own."""

    table_view = Variant.table_view
    move_view = Variant.move_view


class LeakyMatching(MatchingVariant):
    """A view that shows the next player's hand: the privacy check must catch it."""

    def table_view(self, state, viewer, names) -> TableView:
        view = super().table_view(state, viewer, names)
        if viewer is not None and 0 <= viewer < state.num_players:
            view.notes.append(" ".join(str(c) for c in state.hands[(viewer + 1) % state.num_players]))
        return view


class LeakyDescription(MatchingVariant):
    """Tells everyone which cards another player drew."""

    def describe(self, state, action, viewer=None, names=None):
        return super().describe(state, action, viewer=None, names=names)


def _midgame(variant, events: int = 30):
    seen = []
    play_game(variant, players=3, seed=4, on_event=lambda g, a: seen.append(g.state.clone())
              if g.events == events else None)
    return seen[0]


def test_generic_view_shows_own_hand_counts_and_the_rendered_table():
    variant = PlainMatching()
    state = _midgame(variant)
    names = ["ann", "bob", "cy"]
    view = table_view(variant, state, 1, names)
    assert view.hand and len(view.hand) == len(state.hands[1])
    assert [p.cards for p in view.players] == [len(h) for h in state.hands]
    assert view.text == variant.render(state, viewer=1, names=names)
    stock = next(p for p in view.piles if p.name == "stock")
    assert stock.cards == [] and stock.count == len(state.stock)  # hidden: a count only
    discards = next(p for p in view.piles if p.name == "discards")
    assert len(discards.cards) == len(state.discard)  # face up
    spectator = table_view(variant, state, SPECTATOR, names)
    assert spectator.hand == [] and "ann" in spectator.text


def test_generic_moves_use_the_cards_their_record_fields_name():
    variant = PlainMatching()
    state = _midgame(variant)
    while state.current_player() < 0:
        state.apply_legal(state.sample_chance(random.Random(1)))
    seat = state.current_player()
    legal = state.legal_actions()
    moves = [move_view(variant, state, seat, a, ["a", "b", "c"]) for a in legal]
    plays = [m for m, a in zip(moves, legal) if a[0] == 0]
    for move, action in zip(moves, legal):
        fields = variant.encode_action(state, action)
        assert move.kind == fields["move"]
        assert move.label.split()[0] == fields["move"]  # a command: "play 7H", "draw"
        assert all(str(fields[key]) in move.label for key in ("card",) if key in fields)
        assert move.cards == ([fields["card"]] if "card" in fields else [])
    assert plays or any(m.kind == "draw" for m in moves)


@pytest.mark.parametrize("variant", [LeakyMatching(), LeakyDescription()], ids=["view", "describe"])
def test_the_privacy_check_catches_a_leak(variant):
    check = PrivacyCheck(variant, ["p0", "p1", "p2"], seed=1)
    with pytest.raises(AssertionError, match="cannot"):
        play_game(variant, players=3, seed=3, on_event=check.on_event)


def test_the_generic_views_pass_the_privacy_check():
    variant = PlainMatching()
    check = PrivacyCheck(variant, ["p0", "p1", "p2"], seed=2, limit=80)
    play_game(variant, players=3, seed=5, on_event=check.on_event)
    assert check.views > 100 and check.events > 20


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_each_move_of_a_real_game_names_cards_from_the_hand(name):
    """Every move's cards are in the mover's hand, and moves with the same
    cards, kind and declaration are told apart by their choice or target."""
    variant = get_registry().get(name)
    checked = []

    def look(game, _action):
        state = game.state
        seat = state.current_player()
        if seat < 0:
            return
        hand = [NAME[c] for c in state.hands[seat]]
        keys = set()
        for action in state.legal_actions():
            move = move_view(variant, state, seat, action, [f"p{i}" for i in range(state.num_players)])
            left = list(hand)
            for card in move.cards:
                left.remove(card)
            key = (move.kind, tuple(sorted(move.cards)), move.declare, move.choice, move.target)
            assert key not in keys, f"two moves look alike: {move}"
            keys.add(key)
        checked.append(seat)

    play_game(variant, players=2, seed=8, on_event=look)
    assert len(checked) > 10


@pytest.mark.parametrize("name", ["matching", "trick", "endofpage"])
def test_views_as_data_hold_every_field(name):
    """``as_dict`` is written out for speed: it must give what ``asdict`` gives,
    for views with every kind of field filled (melds, marks, scores ...)."""
    from dataclasses import asdict

    from cardcli.words.view import moves_for

    variant = get_registry().get(name)
    names = ["ann", "bob", "cy"]
    checked = {"melds": 0, "scores": 0, "marks": 0, "moves": 0}

    def check(game, action):
        state = game.state
        if game.events % 3:
            return
        for viewer in (0, SPECTATOR, None):
            view = table_view(variant, state, viewer, names)
            assert view.as_dict() == asdict(view)
            checked["melds"] += bool(view.melds)
            checked["scores"] += view.scores is not None
            checked["marks"] += bool(view.marks)
        seat = state.current_player()
        if seat >= 0:
            for move in moves_for(variant, state, seat, state.legal_actions(), names):
                assert move.as_dict() == asdict(move)
                checked["moves"] += 1

    play_game(variant, players=3, seed=2, on_event=check)
    assert checked["moves"]
    if name == "endofpage":
        assert checked["melds"] and checked["marks"] and checked["scores"]


# ------------------------------------------------- one presentation: the text drawn from the view
class OnePresentation(HighCard):
    """A third party's variant that writes its table once, as data: the core draws its text."""

    render = render_from_view

    def table_view(self, state, viewer, names) -> TableView:
        players = [PlayerView(seat, names[seat], len(hand), score=f"{state.points[seat]} points")
                   for seat, hand in enumerate(state.hands)]
        piles = [Pile("table", [NAME[c] for c in state.table], len(state.table)),
                 Pile("stock", [], len(state.stock))]
        return TableView(viewer, state.current_player(), players, viewer_cards(state.hands, viewer),
                         piles=piles, notes=[f"Round {len(state.seen) // state.num_players + 1} of 2"])


class ZonesOnly(HighCard):
    """No table of its own at all: its text is drawn from the view the core makes of its zones."""

    render = render_from_view


def _one_card_played(variant):
    state = variant.new_state({}, 2, 0)
    state.apply(("deal", [[parse_card("AS"), parse_card("2H")], [parse_card("KD"), parse_card("3C")]]))
    state.apply(("play", parse_card("3C")))
    return state


def test_a_variant_that_writes_only_its_view_gets_its_text_drawn_from_it():
    variant = OnePresentation()
    state = _one_card_played(variant)
    names = ["ann", "bob"]
    head = ["Round 1 of 2", "table: 3C", "stock: 48 cards"]
    assert variant.render(state, 0, names).splitlines() == [
        *head, " > 0 ann   2 cards  0 points  AS 2H", "   1 bob   1 card   0 points"]
    assert variant.render(state, None, names).splitlines()[-1] == "   1 bob   1 card   0 points  KD"  # all
    assert "AS" not in variant.render(state, SPECTATOR, names) and "AS" not in variant.render(state, 1, names)
    assert variant.render(state, 1).splitlines()[-1] == "   1 seat 1   1 card   0 points  KD"  # no names
    for viewer in (0, 1, SPECTATOR, None):  # the served view carries the same text
        assert table_view(variant, state, viewer, names).text == variant.render(state, viewer, names)


def test_a_variant_without_a_view_or_a_text_of_its_own_is_drawn_from_its_zones():
    variant = ZonesOnly()
    state = _one_card_played(variant)
    assert variant.render(state, 0, ["ann", "bob"]).splitlines() == [
        "stock: 48 cards", "table: 3C", " > 0 ann   2 cards  AS 2H", "   1 bob   1 card"]
    assert table_view(variant, state, 0, ["ann", "bob"]).text == variant.render(state, 0, ["ann", "bob"])


@pytest.mark.parametrize("variant", [OnePresentation(), ZonesOnly()], ids=["view", "zones"])
def test_a_text_drawn_from_the_view_keeps_what_a_seat_cannot_see(variant):
    check = PrivacyCheck(variant, ["p0", "p1", "p2"], seed=3)
    play_game(variant, players=3, seed=6, on_event=check.on_event)
    assert check.views > 10


def test_a_view_as_text_has_its_piles_melds_rows_and_score_sheet():
    view = TableView(1, 0, [PlayerView(0, "ann", 3, ["dealer"]), PlayerView(1, "bob", 10, score="total 5")],
                     ["4S", "9S"], {"9S": "wild"},
                     [Pile("trick", ["9H", "2H"], 2, ["ann", "bob"], "hearts to follow"),
                      Pile("discards", ["7C"], 12), Pile("stock", [], 1)],
                     [MeldView(["5C", "5H", "9D=5S"], 0, "set of 5s"), MeldView(["3D", "4D", "5D"])],
                     ["Wild: 9s"], ScoreSheet.by_round("points", [[10, 0], [5, 25]], [15, 25]))
    assert view_text(view, {1: "4S 9S"}).splitlines() == [
        "Wild: 9s",
        "trick: ann 9H, bob 2H  (hearts to follow)",
        "discards: 7C (12 cards)",
        "stock: 1 card",
        "  1. ann: 5C 5H 9D=5S  [set of 5s]",
        "  2. 3D 4D 5D",
        " > 0 ann   3 cards  (dealer)",
        "   1 bob  10 cards  total 5  4S 9S",
        "Score sheet:",
        "  round    ann    bob",
        "      1     10      0",
        "      2      5     25",
        "  total     15     25"]
