"""The options of trick-taking Page One and their fast, typed form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcli.contract.options import Option, OptionsConfig, deal_problem
from cardcli.kit.cards import build_deck
from cardcli.kit.errors import RulesetError

from .language import N_, _

OPTIONS: tuple[Option, ...] = (
    Option("hand_size", 4, N_("cards dealt to each player (5 is the common variation)"), "int", 3, 7),
    Option("jokers", 1, N_("jokers in the whole pack, however many decks"), "int", 0, 2),
    Option("decks", 1, N_("standard 52-card decks in the pack"), "int", 1, 2),
    Option("joker_any_time", True, N_("the joker may be played even by a player who could follow suit")),
    Option("page_one_penalty", 5, N_("cards drawn for forgetting the Page One call"), "int", 0, 7),
    Option("joker_last", True, N_("the joker may be a player's last card (going out on it)")),
    Option("deals", 1, N_("deals in the match; the dealer moves left, most deals won takes it"),
           "int", 1, 99),
    Option("reshuffles", None, N_("stock rebuilds allowed in a deal; one more calls the deal off as a "
           "draw (none: no limit)"), "int", 0, 99, nullable=True),
    Option("min_players", 2, N_("fewest players at the table"), "int", 2, 8),
    Option("max_players", 6, N_("most players at the table (7 or 8 is a house rule)"), "int", 2, 8),
)


def pack(rules: Mapping[str, Any]) -> list[int]:
    """The cards in play: ``decks`` decks plus ``jokers`` jokers in all."""
    return build_deck(rules["decks"], rules["jokers"])


#: The rules between options, in words (``cardcli rules trick``); check_rules enforces them.
CONSTRAINTS = (
    N_("players x hand_size must be less than the pack (52 x decks + jokers), so that a stock is left, "
    "at every table size up to max_players"),
)


def check_rules(rules: Mapping[str, Any], num_players: int | None = None) -> None:
    """Refuse a deal too big for the pack at ``num_players`` (without it, at ``max_players``)."""
    decks, jokers = rules["decks"], rules["jokers"]
    size = 52 * decks + jokers
    # Translators: the pack, the cards kept back and the options, each a field of the core's sentence
    # ("6 players x 9 cards do not fit one deck and 1 joker(s) (53 cards) with a stock left over (...)").
    cards = _("one deck and {jokers} joker(s) ({size} cards)") if decks == 1 else \
        _("{decks} decks and {jokers} joker(s) ({size} cards)")
    deal = deal_problem(rules, num_players, size, cards.format(decks=decks, jokers=jokers, size=size),
                        _("a stock left over"), _("options 'hand_size', 'decks', 'max_players'"))
    if deal:
        raise RulesetError(deal)


class Config(OptionsConfig, options=OPTIONS):
    """The rules as attributes, shared by every state."""
