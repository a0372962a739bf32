"""The privacy check: what a seat is sent does not depend on the cards it cannot see.

For every event of a few CPU games and every seat, the cards that seat cannot
see are dealt anew (as the ``hard`` CPU's determinization does) and the
messages the server would send it are built again from that other world:

* its table view and legal moves must be unchanged;
* another player's move must be told in the same words (``describe``, and
  ``describe_events``, which tells a served table's clients and the
  terminal's players what happened);
* a chance event (a draw) must be told in the same words as another outcome
  that leaves the seat's table and what it knows the same (another player
  drew other cards).

A spectator's public table is checked the same way against a world in which
every card that some seat cannot see is dealt anew.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..contract.hidden import deal_anew
from ..contract.variant import CHANCE, Action, State, Variant
from ..contract.views import SPECTATOR
from ..engine.game import Game
from ..kit.cards import NAME
from ..kit.errors import IllegalMove
from ..serve.protocol import event_text, table_fields
from ..words.narration import describe_events
from ..words.view import hidden_to


def redeal(state: Any, hidden: list[str], known: dict[str, list[int]], rng: random.Random) -> State:
    """A copy with the cards of the ``hidden`` zones dealt anew, except the
    ``known`` cards, which stay in their zones (sizes are kept)."""
    copy = state.clone()
    copy.set_zones(deal_anew(state.card_zones(), hidden, known, rng))
    return copy


def public_known(state: Any) -> dict[str, list[int]]:
    """Cards in hidden zones that every seat unable to see the zone knows are there."""
    known: dict[str, list[int]] = {}
    for name in sorted(hidden_to(state, SPECTATOR) or ()):
        common: Counter[int] | None = None
        for seat in range(state.num_players):
            if name in state.hidden_zones(seat):
                cards: Counter[int] = Counter(state.known_cards(seat).get(name, ()))
                common = cards if common is None else common & cards
        known[name] = sorted((common or Counter()).elements())
    return known


def _hidden(state: Any, viewer: int) -> tuple[list[str], dict[str, list[int]]]:
    if viewer == SPECTATOR:
        return sorted(hidden_to(state, SPECTATOR) or ()), public_known(state)
    return list(state.hidden_zones(viewer)), {k: list(v) for k, v in state.known_cards(viewer).items()}


def _named_cards(variant: Variant, state: State, action: Action, hand: list[int]) -> list[int]:
    """The cards of ``hand`` that a move's record fields name (the cards it plays)."""
    fields = variant.encode_action(state, action)
    names = []
    for key in ("card", "cards", "meld"):
        value = fields.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                names.append(item.split("=", 1)[0].upper())
    left = list(hand)
    used = []
    for name in names:
        for card in left:
            if NAME[card] == name:
                left.remove(card)
                used.append(card)
                break
    return used


def _sorted(known: dict[str, list[int]]) -> dict[str, list[int]]:
    return {zone: sorted(cards) for zone, cards in known.items() if cards}


class PrivacyCheck:
    """Runs the checks event by event (``on_event`` for :func:`play_game`) and counts them."""

    def __init__(self, variant: Variant, names: list[str], seed: int = 0, limit: int | None = None):
        self.variant = variant
        self.limit = limit  # events checked at most (the rest of the game is played unchecked)
        self.names = names
        self.rng = random.Random(seed)
        self.before: State | None = None
        self.views = self.events = 0

    def message(self, state: State, viewer: int) -> dict[str, Any]:
        """All the viewer is shown of the table: the server's table view and
        moves, and the table as the terminal draws it (``render``)."""
        fields = table_fields(self.variant, state, viewer, self.names)
        fields["render"] = self.variant.render(state, viewer, self.names)
        return fields

    def on_event(self, game: Game, action: Action) -> None:
        if self.limit is not None and game.events > self.limit:
            return
        state = game.state
        viewers = [*range(state.num_players), SPECTATOR]
        for viewer in viewers:
            hidden, known = _hidden(state, viewer)
            other = redeal(state, hidden, known, self.rng)
            assert self.message(other, viewer) == self.message(state, viewer), (
                f"what {'a spectator' if viewer == SPECTATOR else f'seat {viewer}'} is sent after "
                f"event {game.events} depends on cards it cannot see")
            self.views += 1
        before, self.before = self.before, state.clone()
        if before is not None:
            for viewer in range(state.num_players):
                self._check_event(before, action, state, viewer)

    def _told(self, state: State, action: Action, viewer: int) -> tuple[str, list[str]]:
        """An event as ``viewer`` is told it, alone and as a stretch of play."""
        return (event_text(self.variant, state, action, viewer, self.names),
                describe_events(self.variant, [(state, action)], viewer=viewer, names=self.names))

    def _check_event(self, before: Any, action: Action, after: Any, viewer: int) -> None:
        """Deal what ``viewer`` cannot see anew (keeping the cards another
        player's move names in its hand), take the same move or another chance
        outcome there: if the viewer's table and knowledge come out the same,
        it must be told the event in the same words."""
        variant = self.variant
        player = before.current_player()
        if player == viewer:
            return
        told = self._told(before, action, viewer)
        seen = self.message(after, viewer), _sorted(after.known_cards(viewer))
        hidden, known = _hidden(before, viewer)
        zone = f"hand {player}"
        if player >= 0 and zone in hidden:
            named = _named_cards(variant, before, action, before.card_zones()[zone])
            known = dict(known)
            known[zone] = sorted((Counter(known.get(zone, ())) | Counter(named)).elements())
        for _ in range(4):
            other = redeal(before, hidden, known, self.rng)
            if player == CHANCE:
                outcome = other.sample_chance(self.rng)
            else:
                outcome = action
                try:
                    other.check(outcome)
                except IllegalMove:
                    continue
            world: Any = other.clone()
            world.apply_legal(outcome)
            if (self.message(world, viewer), _sorted(world.known_cards(viewer))) == seen:
                assert self._told(other, outcome, viewer) == told, (
                    f"seat {viewer} is told {told!r}, but is told otherwise in a world it cannot "
                    "tell apart (other cards where it cannot see)")
                self.events += 1
                return
