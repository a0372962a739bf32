"""Simulated End of the Page games, each round's final table written down in
the score sheet's words, as a family would copy it from the table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cardcli.contract.variant import CHANCE, TERMINAL
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.kit.cards import NAME
from cardcli.kit.melds import meld_text, stands_for
from cardcli_endofpage.state import DEAL, LAYOFF, MELD, PICKUP, wild_of


@dataclass
class PlayedRound:
    """A round as it was played: its wild card, and each seat's words."""

    dealer: int
    wild: str = ""
    words: dict[int, str] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)


@dataclass
class PlayedGame:
    names: list[str]
    rules: dict
    dealer: int
    rounds: list[PlayedRound]
    totals: list[int]
    places: list[int]


def play(seed: int, players: int = 2, level: str = "normal", listed: frozenset[int] = frozenset(),
         **options) -> PlayedGame:
    """A whole game between CPUs, written down round by round.  A seat in
    ``listed`` writes its cards on the table as a card list, wilds marked."""
    variant = get_registry().get("endofpage")
    rules = {**default_ruleset(variant).options, **options}
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    state = variant.new_state(rules, players, dealer)
    names = [f"p{seat}" for seat in range(players)]
    policies = [variant.cpu_policy(level) for _ in range(players)]
    rounds: list[PlayedRound] = []
    made: dict[int, list[str]] = {}  # seat -> its parts, this round
    cards: dict[int, list[str]] = {}  # seat -> every card it put on the table, this round
    ordinal: list[int] = []  # per meld on the table: its owner's count of melds so far
    current = PlayedRound(dealer)
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = policies[player](state, player, state.legal_actions(), rng)
        kind = action[0]
        seat = state.turn
        if kind == DEAL and action[1] == state.dealer:
            card = action[3] if action[3] >= 0 else wild_of(action[2])
            current = PlayedRound(state.dealer, NAME[card])
            made, cards, ordinal = {}, {}, []
        elif kind in (MELD, PICKUP):
            meld = action[1] if kind == MELD else action[2]
            made.setdefault(seat, []).append("meld " + meld_text(meld, state.mrules))
            cards.setdefault(seat, []).extend(_marked(state, meld[3]))
            ordinal.append(sum(1 for owner in state.owners if owner == seat) + 1)
        elif kind == LAYOFF:
            _, index, card, as_rank = action
            name = NAME[card] + ("=" + stands_for(state.melds[index], as_rank) if state.is_wild(card) else "")
            owner = state.owners[index]
            made.setdefault(seat, []).append(f"off {name} on {names[owner]} {ordinal[index]}")
            cards.setdefault(seat, []).extend(_marked(state, [card]))
        before = state.round
        state.apply(action)
        if state.round != before:
            hands = state.last_round[0] if state.result() is None else state.hands
            wild = state.last_round[7] if state.result() is None else state.wild
            for who in range(players):
                held = " ".join(NAME[c] + ("*" if c % 13 + 2 == wild else "") for c in hands[who])
                hand = f"hand {held}" if held else "out"
                if who in listed:
                    table = f"cards {' '.join(cards[who])}, " if cards.get(who) else ""
                    current.words[who] = table + hand
                else:
                    current.words[who] = ", ".join([*made.get(who, []), hand])
            current.scores = list(state.round_scores[-1])
            rounds.append(current)
    result = state.result()
    assert result is not None
    return PlayedGame(names, rules, dealer, rounds, list(state.totals), list(result.places))


def _marked(state, cards) -> list[str]:
    return [NAME[c] + ("*" if state.is_wild(c) else "") for c in cards]


def entries(game: PlayedGame) -> list[str]:
    """The game's rounds in the sheet's words, in the order a family enters
    them: the wild card, then each player's line from the dealer's left."""
    lines = []
    for played in game.rounds:
        lines.append(f"wild {played.wild}")
        for step in range(1, len(game.names) + 1):
            seat = (played.dealer + step) % len(game.names)
            lines.append(f"{game.names[seat]} {played.words[seat]}")
    return lines
