"""The options of matching Page One and their fast, typed form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcli.contract.options import Option, OptionsConfig, deal_problem, players_options
from cardcli.kit.cards import RANK, SUIT, UNSEEN, parse_rank
from cardcli.kit.errors import RulesetError

from .language import N_, _

OPTIONS: tuple[Option, ...] = (
    Option("hand_size", 7, N_("cards dealt to each player"), "int", 1, 10),
    Option("first_special", "reflip", N_("a special card turned up first: sent under and re-flipped, "
           "or applied to the first player"), "choice", choices=("reflip", "apply")),
    Option("draw_when_able", False, N_("a player holding a playable card may draw instead")),
    Option("draw_until_playable", False, N_("draw until a playable card comes, not just one card")),
    Option("draw_two", True, N_("2s make the next player draw two and lose their turn")),
    Option("stack_twos", True, N_("a draw penalty may be passed on with another 2 (or 3), growing")),
    Option("wild_eight", True, N_("8s are wild: playable on anything, and name the next suit")),
    Option("skip", True, N_("cards of skip_rank skip the next player")),
    Option("skip_rank", "J", N_("the rank that skips"), "rank", 3, 14, exclude=("8",)),
    Option("reverse", True, N_("cards of reverse_rank reverse the direction (a skip with two players)")),
    Option("reverse_rank", "Q", N_("the rank that reverses"), "rank", 3, 14, exclude=("8",)),
    Option("draw_three", False, N_("3s make the next player draw three (passed on only with a 3)")),
    Option("page_one_penalty", 2, N_("cards drawn for forgetting the Page One call (or the Stop call)"),
           "int", 0, 5),
    Option("stop_call", False, N_("the play of your last card carries a call too (\"Stop!\"); forget it and "
           "draw page_one_penalty cards instead of going out")),
    Option("finish_on_special", True, N_("an active special card may be a player's last card")),
    Option("rank_all_places", False, N_("play on after the winner until one player is left")),
    Option("rounds", 1, N_("rounds played; losers score penalty points, lowest total wins"), "int", 1, 99),
    *players_options(2, 6),
)

# Kinds of special card (index into Config.special by rank).
NONE, TWO, THREE, EIGHT, SKIP, REVERSE = range(6)
#: A special card's kind in words, shown as ``_(SPECIAL_NAMES[kind])``.
SPECIAL_NAMES = {TWO: N_("draw two"), THREE: N_("draw three"), EIGHT: N_("wild 8"), SKIP: N_("skip"),
                 REVERSE: N_("reverse")}


#: The rules between options, in words (``cardcli rules matching``); check_rules enforces them.
CONSTRAINTS = (
    N_("skip_rank and reverse_rank are two different ranks"),
    N_("neither skip_rank nor reverse_rank may be 3 while draw_three is on"),
    N_("players x hand_size, plus the first top card, must fit one deck of 52 cards at every table "
    "size up to max_players"),
)


def check_rules(rules: Mapping[str, Any], num_players: int | None = None) -> None:
    """Refuse what CONSTRAINTS forbid, every problem at once (without ``num_players``, at ``max_players``)."""
    problems = []
    skip_rank, reverse_rank = parse_rank(rules["skip_rank"]), parse_rank(rules["reverse_rank"])
    if skip_rank == reverse_rank:
        problems.append(_("options 'skip_rank' and 'reverse_rank' are both {rank}: they must be two "
                          "different ranks").format(rank=repr(rules["skip_rank"])))
    for key, rank in (("skip_rank", skip_rank), ("reverse_rank", reverse_rank)):
        if rank == 8:  # the option itself excludes it; kept for rules built in code
            problems.append(_("option {key} may not be 8 (the wild rank)").format(key=repr(key)))
        if rank == 3 and rules["draw_three"]:
            problems.append(_("option {key} may not be 3 while 'draw_three' is on").format(key=repr(key)))
    # Translators: the pack, the card kept back and the option, each a field of the core's sentence
    # ("6 players x 10 cards do not fit one deck with a card to turn up (option 'hand_size')").
    deal = deal_problem(rules, num_players, 52, _("one deck"), _("a card to turn up"),
                        _("option 'hand_size'"))
    if deal:
        problems.append(deal)
    if problems:
        raise RulesetError(*problems)


#: The kind of a play action, ``(PLAY, card, suit, call)`` (the others are in :mod:`.state`):
#: here, because :attr:`Config.plays` builds every play once.
PLAY = 0


def _plays(card: int, eight: bool) -> tuple[tuple[tuple, ...], tuple[tuple, ...]]:
    """The play actions of ``card`` without and with a call (Page One, or Stop with the last card)."""
    suits = range(4) if eight else (-1,)
    plain = tuple((PLAY, card, suit, False) for suit in suits)
    called = tuple(action for suit in suits
                   for action in ((PLAY, card, suit, False), (PLAY, card, suit, True)))
    return plain, called


class Config(OptionsConfig, options=OPTIONS, ranks=("skip_rank", "reverse_rank")):
    """Rules resolved into attributes and lookup tables for the hot path."""

    __slots__ = ("card_points", "card_special", "on_suit", "on_top", "plays", "special")

    def derive(self, rules: Mapping[str, Any]) -> None:
        """The special cards, points and legal_actions' tables of these rules."""
        special = [NONE] * 15
        for on, rank, kind in ((self.draw_two, 2, TWO), (self.draw_three, 3, THREE),
                               (self.wild_eight, 8, EIGHT), (self.skip, self.skip_rank, SKIP),
                               (self.reverse, self.reverse_rank, REVERSE)):
            if on:
                special[rank] = kind
        self.special = tuple(special)
        self.card_special = tuple(special[RANK[c]] if c < 52 else NONE for c in range(UNSEEN + 1))
        # A special card scores 20, an ace 1, a ten or a court card 10, any other card its rank.
        points = (20 if special[rank] != NONE else 1 if rank == 14 else min(rank, 10) for rank in RANK[:52])
        self.card_points = (*points, 0, 0)  # no joker; an unseen card counts only once shown
        eights = frozenset(c for c in range(52) if special[RANK[c]] == EIGHT)
        #: ``on_top[top]``: the cards that may follow ``top`` when no suit is named.
        self.on_top = tuple(frozenset(c for c in range(52) if RANK[c] == RANK[top] or SUIT[c] == SUIT[top])
                            | eights for top in range(52))
        #: ``on_suit[suit]``: the cards that may follow an 8 naming ``suit`` (4: any suit).
        self.on_suit = (*(frozenset(c for c in range(52) if SUIT[c] == suit) | eights for suit in range(4)),
                        frozenset(range(52)))
        #: ``plays[card][call]``: the play actions of ``card``, in legal_actions' order.
        self.plays = (*(_plays(card, special[RANK[card]] == EIGHT) for card in range(52)), ((), ()), ((), ()))
