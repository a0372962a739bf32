"""A person at the terminal, asked through the variant's own dialogue (or the core's menu)."""

from __future__ import annotations

from ..prompts import UI, human_turn
from ..variant import Action, State, Variant


class HumanPlayer:
    def __init__(self, variant: Variant, ui: UI) -> None:
        self.variant = variant
        self.ui = ui

    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        return human_turn(self.variant, state, seat, legal, self.ui)
