"""The kit's checks that start in the middle of a game.

Search-based players (``cpu:hard``, the play-time hint, the arena) do not
play games from the deal: they take a position, deal what a seat cannot see
anew (:func:`cardcli.unseen.knowledge.redeal`) and play on from there.  A variant whose
records and random games are flawless can still break on such re-dealt
states.  Validation meets wrong actions anywhere in a game, and must refuse
them without a trace.  These functions check one position at a time;
:class:`cardcli.testing.VariantConformance` runs them over many positions of
random games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..contract.variant import CHANCE, TERMINAL, Action, State, Variant
from ..engine.driver import Driver, Hook, PolicyPlayer
from ..kit.errors import IllegalMove
from ..unseen.knowledge import redeal
from ..words.narration import describe_attempt

#: A playout longer than this is taken to run forever.
MAX_PLAYOUT_EVENTS = 50_000


@dataclass
class Position:
    """A state reached in a real game, and what the game did next.

    ``state`` is shared between checks: clone it before changing anything.
    ``action`` and ``line`` (its record line) are ``None`` at the end.
    """

    state: State
    action: Action | None
    line: dict[str, Any] | None
    index: int
    names: list[str]
    rules: dict[str, Any]


def deep_signature(variant: Variant, state: State) -> tuple:
    """Everything a person or a program can observe of a state, from every seat."""
    player = state.current_player()
    zones = tuple(sorted((name, tuple(sorted(cards))) for name, cards in state.card_zones().items()))
    legal = tuple(map(repr, state.legal_actions())) if player >= 0 else ()
    result = state.result()
    views = tuple(variant.render(state, seat) for seat in range(state.num_players))
    return (player, zones, legal, variant.render(state, None), views, state.expecting(),
            None if result is None else repr(result.as_dict()))


def visible_zones(state: Any, seat: int) -> tuple:
    """The zones ``seat`` can see, with their cards (``state`` has the HiddenInfo ability)."""
    hidden = set(state.hidden_zones(seat))
    return tuple(sorted((name, tuple(sorted(cards))) for name, cards in state.card_zones().items()
                        if name not in hidden))


def assert_conserved(deck: Counter[Any], state: State, where: str) -> None:
    held = Counter(card for cards in state.card_zones().values() for card in cards)
    assert held == deck, (f"{where}: cards not conserved: missing {sorted((deck - held).elements())}, "
                          f"extra {sorted((held - deck).elements())}")


def check_redeal(variant: Variant, state: Any, world: State, seat: int, deck: Counter[Any],
                 where: str) -> None:
    """``world`` (``state`` re-dealt for ``seat``) keeps all that ``seat`` knows."""
    assert_conserved(deck, world, f"{where}, re-dealt for seat {seat}")
    assert world.current_player() == state.current_player(), f"{where}: re-dealing changed whose turn it is"
    assert visible_zones(world, seat) == visible_zones(state, seat), (
        f"{where}: re-dealing for seat {seat} changed a zone it can see")
    before, after = state.card_zones(), world.card_zones()
    for name in state.hidden_zones(seat):
        assert len(after[name]) == len(before[name]), f"{where}: re-dealing changed the size of {name!r}"
    for name, cards in state.known_cards(seat).items():
        assert not Counter(cards) - Counter(after[name]), (
            f"{where}: re-dealing moved cards seat {seat} knows are in {name!r}")


def play_out(variant: Variant, world: State, rng: random.Random, deck: Counter[Any], levels: Sequence[str],
             where: str) -> State:
    """Play ``world`` to the end with the variant's CPU policies (through the
    core's driver), every event checked by ``State.check`` and every card
    accounted for after it."""
    policies = [variant.cpu_policy(levels[i % len(levels)]) for i in range(world.num_players)]
    checks = _PlayoutChecks(deck, where)
    driver = Driver(world, [PolicyPlayer(policy, rng) for policy in policies], rng=rng, hooks=[checks])
    try:
        driver.advance(MAX_PLAYOUT_EVENTS)
    except AssertionError:
        raise
    except Exception as error:
        if not checks.applying:  # a policy, legal_actions or sample_chance: its own traceback
            raise
        raise AssertionError(f"{where}, event {driver.events} of the playout: applying {checks.action!r} "
                             f"crashed ({type(error).__name__}: {error}); is every field derived from the "
                             "hidden zones brought up to date by set_zones?") from error
    if world.current_player() != TERMINAL:
        raise AssertionError(f"{where}: the playout did not end within {MAX_PLAYOUT_EVENTS} events")
    assert world.result() is not None, f"{where}: a finished game without a result"
    return world


class _PlayoutChecks(Hook):
    """:func:`play_out`'s checks of every event, as a hook on the driver."""

    def __init__(self, deck: Counter[Any], where: str):
        self.deck, self.where = deck, where
        self.legal: list[Action] = []
        self.action: Action = None
        self.applying = False  # between the check of ``action`` and its having been applied

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Action]) -> None:
        assert legal, f"{self.where}, event {driver.events} of the playout: seat {seat} has no legal action"
        self.legal = legal

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        self.action = action
        if seat >= 0:
            assert action in self.legal, f"{self.where}: the CPU chose {action!r}, which is not legal"
        self.applying = True
        try:
            driver.state.check(action)
        except IllegalMove as error:
            raise AssertionError(f"{self.where}, event {driver.events} of the playout: {action!r} came from "
                                 f"{'sample_chance' if seat == CHANCE else 'legal_actions'} "
                                 f"but apply refused it: {error}") from None

    def after(self, driver: Driver[Any], seat: int, action: Action) -> None:
        self.applying = False
        assert_conserved(self.deck, driver.state, f"{self.where}, event {driver.events - 1} of the playout")


def wrong_actions(position: Position, pool: Sequence[Position], variant: Variant, rng: random.Random,
                  per_kind: int) -> dict[str, list[Action]]:
    """Actions that are (mostly) wrong at ``position``, by kind.

    * ``decision``: decisions legal somewhere else in the game;
    * ``chance``: chance outcomes that happened somewhere else in the game;
    * ``decoded``: record lines of other events, read at this position
      (a line that does not even decode is refused already, and skipped);
    * ``terminal``: anything, once the game is over (handled by the caller).

    Some of them may be legal here; the caller checks ``legal_actions``.
    """
    state = position.state
    decisions: list[Action] = []
    chances: list[Action] = []
    lines: list[dict[str, Any]] = []
    for other in pool:
        if other.action is None or other.index == position.index:
            continue
        if other.state.current_player() >= 0:
            decisions.extend(other.state.legal_actions())
        else:
            chances.append(other.action)
        if other.line is not None:
            lines.append(other.line)
    kinds: dict[str, list[Action]] = {"decision": _sample(decisions, rng, per_kind),
                                      "chance": _sample(chances, rng, per_kind), "decoded": []}
    for line in _sample(lines, rng, per_kind * 3):
        try:
            kinds["decoded"].append(variant.decode_action(state.clone(), line))
        except ValueError:
            continue
    return kinds


def _sample(items: list[Any], rng: random.Random, count: int) -> list[Any]:
    unique = list(dict.fromkeys(items)) if all(_hashable(i) for i in items) else items
    return rng.sample(unique, min(count, len(unique)))


def _hashable(item: Any) -> bool:
    try:
        hash(item)
    except TypeError:
        return False
    return True


def check_wrong_action(variant: Variant, position: Position, action: Action, rest: Sequence[Action],
                       deck: Counter[Any], where: str) -> bool:
    """Apply ``action`` at ``position``; return whether the rules allowed it.

    Refused, it must leave no trace: the state is unchanged (from every
    seat's view), describing it for the error message works and changes
    nothing, and the game goes on with the events it really had (``rest``).
    Allowed, it must be one of ``legal_actions`` (for a decision) and keep
    every card accounted for.
    """
    state = position.state.clone()
    before = deep_signature(variant, state)
    player = state.current_player()
    legal = state.legal_actions() if player >= 0 else None
    try:
        state.apply(action)
    except IllegalMove as error:
        assert str(error), f"{where}: refusing {action!r} raised IllegalMove without a reason"
        assert deep_signature(variant, state) == before, f"{where}: refusing {action!r} changed the state"
        describe_attempt(variant, state, action)  # validate's message names the refused move
        assert deep_signature(variant, state) == before, (
            f"{where}: describing the refused {action!r} changed the state")
        for number, event in enumerate(rest):
            try:
                state.apply(event)
            except IllegalMove as later:
                raise AssertionError(f"{where}: after refusing {action!r}, the game's own event "
                                     f"{number + 1} later ({event!r}) is refused: {later}") from None
        return False
    assert player != TERMINAL, f"{where}: the game is over, but apply accepted {action!r}"
    if legal is not None:
        assert action in legal, f"{where}: apply accepted {action!r}, which legal_actions omits"
    assert_conserved(deck, state, f"{where}, after {action!r}")
    return True



class BlindCheck(Hook):
    """Before each real choice of ``seat`` (a search player following the
    game), two copies of the player rate the moves: one from the real state,
    one from the state with every card the seat cannot see dealt anew
    consistently with what it knows.  Their choices and ratings must agree:
    the player decides only on what its seat can see."""

    def __init__(self, seat: int, player: Any, rng: random.Random, limit: int):
        self.seat = seat
        self.player = player
        self.rng = rng
        self.limit = limit
        self.compared = 0

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Action]) -> None:
        import copy

        if seat != self.seat or len(legal) < 2 or self.compared >= self.limit:
            return
        state = driver.state
        other = redeal(state, seat, self.rng)
        hidden = state.hidden_zones(seat)
        if all(sorted(state.card_zones()[z]) == sorted(other.card_zones()[z]) for z in hidden):
            return  # nothing hidden differs here
        first, second = copy.deepcopy(self.player), copy.deepcopy(self.player)
        assert other.legal_actions() == legal, "re-dealing the hidden cards changed the seat's own moves"
        a = [(r.action, r.value, r.playouts) for r in first.rate(state, seat, legal)]
        b = [(r.action, r.value, r.playouts) for r in second.rate(other, seat, legal)]
        assert a == b, (f"event {driver.events} ({state.expecting()}): the hard CPU rates the moves "
                        f"differently when cards its seat cannot see are elsewhere:\n  {a}\n  {b}")
        assert first.act(state, seat, legal) == second.act(other, seat, legal), (
            f"event {driver.events}: the hard CPU's choice depends on cards its seat cannot see")
        self.compared += 1
