"""A person at the terminal, asked through the variant's own dialogue (or the core's menu)."""

from __future__ import annotations

from ...contract.variant import UI, Action, State, Variant
from ...words.prompts import human_turn


class HumanPlayer:
    """Asks a person for each decision.  A decision the rules make alone (one
    legal move: the drawn card that must be played, the penalty that must be
    taken) is made for them unless ``confirm_forced``; their next look at the
    table tells it."""

    def __init__(self, variant: Variant, ui: UI, *, confirm_forced: bool = False) -> None:
        self.variant = variant
        self.ui = ui
        self.confirm_forced = confirm_forced

    def asks(self, legal: list[Action]) -> bool:
        """Whether a decision among ``legal`` is put to the person."""
        return self.confirm_forced or len(legal) != 1

    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        if not self.asks(legal):
            return legal[0]
        return human_turn(self.variant, state, seat, legal, self.ui)
