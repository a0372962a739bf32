"""Positions for rule tests, reached through real chance events (a stated deal
and turn-up), so every test drives the same ``apply`` that records use."""

from __future__ import annotations

import pytest

from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import parse_card
from cardcli.kit.errors import IllegalMove
from cardcli_matching.state import (
    DEAL,
    DRAW_ACTION,
    DRAWN,
    KEEP_ACTION,
    PLAY,
    RESHUFFLE_ACTION,
    TURN_UP,
    MatchingState,
)


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


class Table:
    """A matching game under test, with short verbs for its moves."""

    def __init__(self, hands: list[str], top: str | list[str], dealer: int | None = None, **options):
        self.variant = get_registry().get("matching")
        rules = dict(default_ruleset(self.variant).options)
        dealt = [cards(h) for h in hands]
        rules["hand_size"] = len(dealt[0])
        rules.update(options)
        self.rules = rules
        n = len(hands)
        self.state: MatchingState = self.variant.new_state(rules, n, n - 1 if dealer is None else dealer)
        self.state.apply((DEAL, tuple(tuple(h) for h in dealt)))
        for card in ([top] if isinstance(top, str) else top):
            self.state.apply((TURN_UP, parse_card(card)))

    @property
    def turn(self) -> int:
        return self.state.current_player()

    def hand(self, seat: int) -> list[str]:
        from cardcli.kit.cards import NAME
        return sorted(NAME[c] for c in self.state.hands[seat])

    def play(self, card: str, suit: str | None = None, call: bool = False) -> None:
        from cardcli.kit.cards import parse_suit
        self.state.apply((PLAY, parse_card(card), parse_suit(suit) if suit else -1, call))

    def draw(self, *drawn: str) -> None:
        """Draw (or take a penalty), then the stated cards come out of the stock."""
        self.state.apply(DRAW_ACTION)
        if drawn:
            self.state.apply((DRAWN, tuple(parse_card(c) for c in drawn)))

    def deliver(self, *drawn: str) -> None:
        self.state.apply((DRAWN, tuple(parse_card(c) for c in drawn)))

    def keep(self) -> None:
        self.state.apply(KEEP_ACTION)

    def reshuffle(self) -> None:
        self.state.apply(RESHUFFLE_ACTION)

    def illegal(self, action) -> IllegalMove:
        with pytest.raises(IllegalMove) as caught:
            self.state.apply(action)
        return caught.value

    def playable(self) -> set[str]:
        from cardcli.kit.cards import NAME
        return {NAME[a[1]] for a in self.state.legal_actions() if a[0] == PLAY}


@pytest.fixture
def table():
    return Table
