"""The options of End of the Page and their fast, typed form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcli.contract.options import Option, OptionsConfig, players_options
from cardcli.contract.record_fields import card_field
from cardcli.kit.cards import NAME, RANK
from cardcli.kit.errors import RulesetError

from .language import N_, _

OPTIONS: tuple[Option, ...] = (
    Option("decks", None, N_('decks in the pack (2s removed): "none" means 1 for two players, 2 for more'),
           "int", 1, 2, nullable=True),
    Option("page_lines", 10, N_("rounds in a game (the lines on the score sheet)"), "int", 1, 99),
    Option("target_score", None, N_("end the game after the round in which a total reaches this"),
           "int", 1, 1_000_000, nullable=True),
    Option("reshuffles", 3, N_("times the stock may be rebuilt from the discards in one round"),
           "int", 0, 99),
    Option("wild_value", 100, N_("points for a wild card"), "int", 0, 1000),
    Option("ace_value", 100, N_("points for an ace"), "int", 0, 1000),
    Option("high_value", 10, N_("points for an 8, 9, 10, J, Q or K"), "int", 0, 1000),
    Option("low_value", 5, N_("points for a 3, 4, 5, 6 or 7"), "int", 0, 1000),
    *players_options(2, 6),
)


def card_of_pack(value: Any, what: str = "card") -> int:
    """A card of this pack, read from its name: no jokers, no 2s."""
    card = card_field(value, what)
    if card >= 52:
        raise ValueError(_("there are no jokers in End of the Page"))
    if RANK[card] == 2:
        raise ValueError(_("{card}: the 2s are out of the pack in End of the Page").format(card=NAME[card]))
    return card


def decks_for(rules: Mapping[str, Any], num_players: int) -> int:
    """The number of decks: the option, or 1 for two players and 2 for more."""
    decks = rules.get("decks")
    if decks is None:
        return 1 if num_players <= 2 else 2
    return int(decks)


#: The rules between options, in words (``cardcli rules endofpage``); check_rules enforces them.
CONSTRAINTS = (
    N_("decks = 1 is for two or three players: with it, max_players is 3 or fewer"),
)


def check_rules(rules: Mapping[str, Any], num_players: int | None = None) -> None:
    """One deck is refused above three players (the rules: two decks are
    required); without ``num_players``, for the widest table the rules allow."""
    if rules.get("decks") != 1:
        return
    if num_players is not None and num_players > 3:
        raise RulesetError(_("option 'decks' is 1, but {count} players need two decks (one deck is for two "
                             "or three players)").format(count=num_players))
    high = rules.get("max_players", 6)
    if num_players is None and high > 3:
        raise RulesetError(_("option 'decks' is 1, but 'max_players' is {high}: four or more players need "
                             "two decks (set max_players to 3 or fewer, or decks to 2 or \"none\")").format(
                                 high=high))


class Config(OptionsConfig, options=OPTIONS):
    """Rules resolved into attributes and lookup tables for the hot path."""

    __slots__ = ("base_points", "decks")

    def derive(self, rules: Mapping[str, Any], num_players: int) -> None:
        """The decks this table plays with (``decks`` may be "none") and each card's points."""
        self.decks = decks_for(rules, num_players)
        #: Points of each card when it is not wild.
        self.base_points = tuple(self.ace_value if RANK[card] == 14 else self.high_value if RANK[card] >= 8
                                 else self.low_value for card in range(52))

    def points_table(self, wild: int) -> tuple[int, ...]:
        """Each card's points in a round whose wild rank is ``wild``."""
        wv = self.wild_value
        # No joker; an unseen card is worth nothing (a round is scored on the hands shown).
        return (*(wv if RANK[c] == wild else self.base_points[c] for c in range(52)), 0, 0)
