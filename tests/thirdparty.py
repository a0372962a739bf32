"""A third party's variant, as small as a variant can be: only what the
contract requires, and of the abilities only hidden information (so it gets
``cpu:hard``), no narration, table data or prompts, so tests can check what
the core gives it by default.

"High card": each player is dealt two cards; in each of two rounds everyone
plays a card, and the highest rank (ties: the first played) scores a point.
Most points wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.contract.abilities import HandsAndStock
from cardcli.contract.options import Option, players_options
from cardcli.contract.record_fields import card_field, hands_field, only_fields
from cardcli.contract.variant import CHANCE, TERMINAL, Result, State, Variant, rank_places
from cardcli.kit.cards import NAME, RANK, build_deck, check_deal, deal_hands, sorted_hand
from cardcli.kit.errors import IllegalMove

HAND = 2


class HighCardState(HandsAndStock, State):
    def __init__(self, num_players: int, dealer: int):
        self.num_players = num_players
        self.dealer = dealer
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.stock: list[int] = build_deck()
        self.table: list[int] = []
        self.seen: list[int] = []
        self.points = [0] * num_players
        self.turn = -1
        self.winner_of_round: int | None = None

    def current_player(self) -> int:
        if self.turn == -1:
            return CHANCE
        if all(not hand for hand in self.hands) and not self.table:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list:
        if self.current_player() < 0:
            return []
        return [("play", card) for card in sorted_hand(set(self.hands[self.turn]))]

    def check_chance(self, action: Any) -> None:
        if not (isinstance(action, tuple) and action and action[0] == "deal"):
            raise IllegalMove("expected the deal")
        self.stock = check_deal(build_deck(), action[1], self.num_players, HAND)

    def why_illegal(self, action: Any) -> str:
        return "only a card from your hand may be played"

    def apply_legal(self, action: Any) -> None:
        if action[0] == "deal":
            self.hands = [list(hand) for hand in action[1]]
            self.stock = [c for c in build_deck() if all(c not in h for h in action[1])]
            self.turn = (self.dealer + 1) % self.num_players
            return
        card = action[1]
        self.hands[self.turn].remove(card)
        self.table.append(card)
        if len(self.table) == self.num_players:
            first = (self.turn + 1) % self.num_players
            order = [(first + i) % self.num_players for i in range(self.num_players)]
            best = max(range(self.num_players), key=lambda i: (RANK[self.table[i]], -i))
            self.points[order[best]] += 1
            self.seen.extend(self.table)
            self.table = []
        self.turn = (self.turn + 1) % self.num_players

    def sample_chance(self, rng: random.Random) -> Any:
        return ("deal", deal_hands(build_deck(), self.num_players, HAND, rng))

    def result(self) -> Result | None:
        if self.current_player() != TERMINAL:
            return None
        places = rank_places(self.points, lower_is_better=False)
        best = [s for s in range(self.num_players) if places[s] == 1]
        return Result(places=places, winner=best[0] if len(best) == 1 else None,
                      reason="most rounds won", scores=list(self.points))

    def card_zones(self) -> dict[str, list[int]]:
        zones = {f"hand {seat}": hand for seat, hand in enumerate(self.hands)}
        zones["stock"] = self.stock
        zones["table"] = self.table
        zones["seen"] = self.seen
        return zones

    def expecting(self) -> str:
        return "the deal" if self.turn == -1 else f"seat {self.turn} to play"


class HighCard(Variant):
    name = "highcard"
    title = "High card"
    description = "Two cards each; the highest card wins each round"
    min_players = 2
    max_players = 4
    options = (Option("bonus", 0, "points for nothing", "int", 0, 9), *players_options(2, 4))

    def new_state(self, rules: Mapping[str, Any], num_players: int, dealer: int) -> HighCardState:
        return HighCardState(num_players, dealer)

    def deck(self, rules: Mapping[str, Any], num_players: int) -> list[int]:
        return build_deck()

    def encode_action(self, state: State, action: Any) -> dict[str, Any]:
        if action[0] == "deal":
            return {"chance": "deal", "hands": [[NAME[c] for c in hand] for hand in action[1]]}
        return {"move": "play", "card": NAME[action[1]]}

    def decode_action(self, state: State, data: Mapping[str, Any]) -> Any:
        if data.get("chance") == "deal":
            only_fields(data, {"chance", "hands"}, "deal")
            return ("deal", hands_field(data))
        only_fields(data, {"move", "seat", "card"}, "play")
        return ("play", card_field(data.get("card")))

    def describe(self, state: State, action: Any, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        if action[0] == "deal":
            return f"dealt {HAND} cards each"
        return f"played {NAME[action[1]]}"

    def render(self, state: State, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
        assert isinstance(state, HighCardState)
        names = list(names) if names else [f"seat {i}" for i in range(state.num_players)]
        lines = ["On the table: " + (" ".join(NAME[c] for c in state.table) or "nothing")]
        for seat, hand in enumerate(state.hands):
            mark = ">" if seat == state.current_player() else " "
            cards = " ".join(NAME[c] for c in sorted_hand(hand)) if viewer in (None, seat) else ""
            lines.append(f" {mark} {names[seat]}  {state.points[seat]} points  {cards}".rstrip())
        return "\n".join(lines)
