"""A person at the terminal, asked through the variant's own dialogue."""

from __future__ import annotations

from ..ui import TerminalUI
from ..variant import Action, State, Variant


class HumanPlayer:
    def __init__(self, variant: Variant, ui: TerminalUI) -> None:
        self.variant = variant
        self.ui = ui

    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        return self.variant.human_turn(state, seat, legal, self.ui)
