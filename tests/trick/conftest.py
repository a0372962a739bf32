"""Positions for trick rule tests, reached through a real stated deal, so every
test drives the same ``apply`` that records use.  Where a position needs
uneven hands or a particular stock, the test sets them explicitly."""

from __future__ import annotations

import pytest

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import NAME, parse_card
from cardcli.kit.errors import IllegalMove
from cardcli_trick.state import DEAL, DRAW_ACTION, DRAWN, PLAY, PLAYS, RESHUFFLE_ACTION, TrickState


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


class Table:
    """A trick game under test, with short verbs for its moves.

    ``hands`` are dealt (equal sizes: ``hand_size`` follows them); the dealer
    defaults to the last seat, so seat 0 leads.
    """

    def __init__(self, hands: list[str], dealer: int | None = None, **options):
        self.variant = get_registry().get("trick")
        rules = dict(default_ruleset(self.variant).options)
        dealt = [cards(h) for h in hands]
        rules["hand_size"] = len(dealt[0])
        rules["max_players"] = 8
        rules.update(options)
        self.rules = rules
        n = len(hands)
        self.state: TrickState = self.variant.new_state(rules, n, n - 1 if dealer is None else dealer)
        self.state.apply((DEAL, tuple(tuple(h) for h in dealt)))

    # position set-up (not card-conserving: for compact positions)
    def set_hand(self, seat: int, text: str) -> None:
        self.state.hands[seat] = cards(text)

    def set_stock(self, text: str) -> None:
        self.state.stock = cards(text)

    def set_tricks(self, text: str) -> None:
        self.state.tricks = cards(text)
        self.state.tricks_done = len(self.state.tricks) // self.state.num_players

    def restart_turn(self, seat: int | None = None) -> None:
        """Re-enter the turn after a set-up change (re-checks a stuck position)."""
        self.state._begin_turn(self.state.turn if seat is None else seat)

    # inspection
    @property
    def turn(self) -> int:
        return self.state.current_player()

    @property
    def over(self) -> bool:
        return self.state.current_player() == TERMINAL

    @property
    def chance(self) -> bool:
        return self.state.current_player() == CHANCE

    def hand(self, seat: int) -> list[str]:
        return sorted(NAME[c] for c in self.state.hands[seat])

    def playable(self) -> set[str]:
        return {NAME[a[1]] for a in self.state.legal_actions() if a[0] == PLAY}

    def can_draw(self) -> bool:
        return DRAW_ACTION in self.state.legal_actions()

    # moves
    def play(self, card: str, call: bool = False) -> None:
        self.state.apply(PLAYS[parse_card(card)][call])

    def draw(self) -> None:
        self.state.apply(DRAW_ACTION)

    def deliver(self, *drawn: str) -> None:
        self.state.apply((DRAWN, tuple(parse_card(c) for c in drawn)))

    def reshuffle(self) -> None:
        self.state.apply(RESHUFFLE_ACTION)

    def illegal(self, action) -> IllegalMove:
        before = self.state.clone()
        with pytest.raises(IllegalMove) as caught:
            self.state.apply(action)
        assert self.state.hands == before.hands and self.state.phase == before.phase
        return caught.value

    def illegal_play(self, card: str, call: bool = False) -> IllegalMove:
        return self.illegal(PLAYS[parse_card(card)][call])


@pytest.fixture
def table():
    return Table
