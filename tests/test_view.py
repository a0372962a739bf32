"""The table as data (cardcli.words.view): the generic views a third party's variant
gets untouched, and the privacy check catching a view that leaks."""

from __future__ import annotations

import random

import pytest

from cardcli.contract.abilities import TableData
from cardcli.contract.views import SPECTATOR, TableView
from cardcli.engine.plugins import get_registry
from cardcli.kit.cards import NAME
from cardcli.testing import play_game
from cardcli.testing.privacy import PrivacyCheck
from cardcli.words.view import move_view, table_view
from cardcli_matching.variant import MatchingVariant


class PlainMatching(MatchingVariant):
    """Matching as a third party might write it: no table_view or move_view of its own."""

    table_view = TableData.table_view
    move_view = TableData.move_view


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
