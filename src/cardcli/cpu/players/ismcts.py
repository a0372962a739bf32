"""The hard CPU's search: information-set Monte Carlo tree search over what its seat knows.

Information-set MCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012) searches one tree over what the
searching seat can know instead of one tree per imagined deal: each iteration
imagines the hidden cards anew (a *determinization*, from
:mod:`cardcli.unseen.knowledge`) and walks the tree using only the moves that are
legal in that imagined deal.  Here:

* **Nodes are the seat's information sets.**  A node is where the seat
  decides, reached by its own moves and the other seats' decisions it saw on
  the way (they are keyed by those decisions, every one of them public in
  the Page One games; chance is not branched on: what a draw brought is not
  seen by the others, and the seat's own draws show in which moves are legal).
* **The other seats follow a model**, the variant's ``normal`` policy, which
  reads only their own (imagined) hand and the table: the seat searches for
  its best answer to players like that, not to players who would know its
  cards.
* **Each move's first visit is a playout** with every seat following the
  policy; below, the seat's choices are made by PUCT (the rule of AlphaZero),
  whose prior puts most of its weight on the move the policy would make, so
  a line few iterations have seen plays as the policy would.
* **The root is paired.**  Each imagined deal is played out after *every*
  root move with the same random stream (common random numbers), so the luck
  of the deal cancels out of the comparison between moves (measured: the
  comparison that decides the move is far noisier without it).  With
  *sequential halving* the budget is spent in rounds, each keeping the
  better half of the moves, so little goes on moves that are plainly worse
  (forgetting the Page One call, say).

A playout stops where the variant's ``rollout_value`` values the position (a
round's end in a long match), or, for a variant whose ``playout_estimate``
guesses a long position's value, after :data:`PLAYOUT_CUTOFF` events.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...contract.hidden import HiddenInfo
from ...contract.variant import TERMINAL, Action, Policy, State
from ...engine.driver import Driver, PolicyPlayer
from ...kit.results import outcome_value

#: The longest playout: a game still running after this many events is valued 0.5.
MAX_PLAYOUT_EVENTS = 5000
#: Events after which a playout stops when the variant estimates a long
#: position's value (``playout_estimate``): measured in trick, where long
#: deals of big hands cost most of the thinking and decide little.
PLAYOUT_CUTOFF = 100
#: PUCT's exploration constant and the share of the prior on the policy's move.
EXPLORATION = 0.7
PRIOR_WEIGHT = 0.7


def place_value(state: Any, seat: int) -> float:
    """A finished game's value for ``seat``, from 1 (won) to 0 (last).

    Players tied on a place share the places they span (a heads-up draw is
    worth half the place part to each), and only a single winner gets the
    win part.
    """
    result = state.result()
    assert result is not None
    return outcome_value(result.places, result.winner, seat)


def play_out(driver: Driver[Any], world: Any, seat: int) -> float:
    """One playout of ``world`` through ``driver`` (its players seated):
    ``seat``'s value where it ends, where the variant's ``rollout_value``
    stops it, or the variant's ``playout_estimate`` once it has run long."""
    driver.reset(world)
    kind = type(world)
    stops = kind.rollout_value is not HiddenInfo.rollout_value
    estimates = kind.playout_estimate is not HiddenInfo.playout_estimate
    limit = PLAYOUT_CUTOFF if estimates else MAX_PLAYOUT_EVENTS
    driver.advance(limit, rollout_seat=seat if stops else None)
    if stops:
        early = world.rollout_value(seat)
        if early is not None:
            return early
    if world.current_player() == TERMINAL:
        return place_value(world, seat)
    if estimates:
        guess = world.playout_estimate(seat)
        if guess is not None:
            return guess
    return 0.5


class Edge:
    """A move of the searching seat from one of its information sets: its
    statistics, its prior, and the information sets it led to."""

    __slots__ = ("children", "prior", "total", "visits")

    def __init__(self, prior: float) -> None:
        self.visits = 0
        self.total = 0.0
        self.prior = prior
        self.children: dict[tuple[Action, ...], Node] | None = None

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def child(self, seen: Sequence[Action]) -> Node:
        """The information set after this move and the decisions ``seen``."""
        if self.children is None:
            self.children = {}
        key = tuple(seen)
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node()
        return node


def paired_gap(first: dict[int, float], second: dict[int, float],
               floor: float = 0.0) -> tuple[float, float, int]:
    """How far ``first``'s playouts came out ahead of ``second``'s on the deals
    both were played out from (:attr:`Search.root_values`): the mean
    difference, its standard error and the number of deals; the luck of a
    deal cancels out of each difference.  ``floor`` is added to the sum of
    squared deviations, so that moves whose playouts happened never to
    differ are not called exactly equal.  ``(nan, nan, n)`` with fewer than
    two shared deals."""
    shared = first.keys() & second.keys()
    if len(shared) < 2:
        return math.nan, math.nan, len(shared)
    gaps = [first[deal] - second[deal] for deal in shared]
    mean = math.fsum(gaps) / len(gaps)
    spread = (math.fsum((gap - mean) ** 2 for gap in gaps) + floor) / (len(gaps) - 1)
    return mean, math.sqrt(spread / len(gaps)), len(gaps)


class Node:
    """An information set of the searching seat, where it is to decide."""

    __slots__ = ("edges", "total", "visits")

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}
        self.visits = 0
        self.total = 0.0


class Search:
    """One decision's search for ``seat``, the other seats following ``policy``."""

    def __init__(self, policy: Policy, seat: int, num_players: int, *, depth: bool = True,
                 halving: bool = True, exploration: float = EXPLORATION, prior_weight: float = PRIOR_WEIGHT):
        self.policy = policy
        self.seat = seat
        self.depth = depth
        self.halving = halving
        self.exploration = exploration
        self.prior_weight = prior_weight
        # One random source for everything a playout draws, reseeded per
        # playout (the same stream as a fresh ``random.Random(stream)``).
        self.rng = random.Random()
        model = PolicyPlayer(policy, self.rng)
        self.rollout: Driver[Any] = Driver(None, [model] * num_players, rng=self.rng,
                                           history=False)
        others: list[PolicyPlayer | None] = [model] * num_players
        others[seat] = None  # the searching seat's decisions are the tree's
        self.others: Driver[Any] = Driver(None, others, rng=self.rng, history=False)
        self.playouts = 0
        #: Whether the clock ended the search before its playouts were spent.
        self.stopped_by_clock = False
        #: Each root move's playout values, by the imagined deal they came from
        #: (every move alive in a round is played out from the same deals):
        #: what :func:`paired_gap` compares two moves on.
        self.root_values: list[dict[int, float]] = []

    def rate(self, legal: list[Action], worlds: Callable[[], State], stream: Callable[[], int],
             iterations: int | None, deadline: float | None) -> list[Edge]:
        """The statistics of every root move after spending the budget:
        ``iterations`` playouts (exactly, in whole rounds of paired
        playouts) and/or until ``deadline`` (``time.perf_counter``)."""
        edges = [Edge(0.0) for _ in legal]
        values: list[dict[int, float]] = [{} for _ in legal]
        self.root_values = values
        alive = list(range(len(legal)))
        rounds = max(1, (len(legal) - 1).bit_length()) if self.halving and iterations is not None else 1
        for number in range(rounds):
            if iterations is None:
                share = None
            else:
                left = iterations - self.playouts
                share = max(len(alive), left // (rounds - number) // len(alive) * len(alive))
            spent = 0
            while True:
                if share is not None and spent + len(alive) > share:
                    break
                if deadline is not None and self.playouts and time.perf_counter() >= deadline:
                    self.stopped_by_clock = share is not None
                    break
                world = worlds()
                seed = stream()
                deal = self.playouts
                for index in alive:
                    trial = world.clone()
                    trial.apply_legal(legal[index])
                    self.rng.seed(seed)
                    values[index][deal] = self._after_root(edges[index], trial)
                spent += len(alive)
                self.playouts += len(alive)
            if self.stopped_by_clock:
                break
            if number < rounds - 1:
                alive.sort(key=lambda i: -edges[i].mean)
                alive = sorted(alive[:(len(alive) + 1) // 2])
        return edges

    def _after_root(self, edge: Edge, state: Any) -> float:
        """One iteration below the root move ``edge``, already applied to
        ``state``; the value it found."""
        value = None
        if edge.visits and self.depth:
            seen: list[Action] = []
            self.others.reset(state)
            if self.others.advance(MAX_PLAYOUT_EVENTS, rollout_seat=self.seat, decisions=seen) == self.seat:
                value = self._descend(edge.child(seen), state)
        if value is None:
            value = play_out(self.rollout, state, self.seat)
        edge.visits += 1
        edge.total += value
        return value

    def _descend(self, node: Node, state: Any) -> float:
        """One iteration from ``node`` (the seat to decide in ``state``): down
        by PUCT to a move not tried yet, a playout from there, and the value
        backed up the way it came."""
        seat = self.seat
        path: list[Node | Edge] = [node]
        while True:
            legal = state.legal_actions()
            edges = node.edges
            if any(action not in edges for action in legal):
                favourite = self.policy(state, seat, legal, self.rng)
                share = (1 - self.prior_weight) / len(legal)
                for action in legal:
                    if action not in edges:
                        edges[action] = Edge(share + (self.prior_weight if action == favourite else 0.0))
            mean = node.total / node.visits if node.visits else 0.5
            scale = self.exploration * math.sqrt(node.visits + 1)
            best = legal[0]
            best_score = -math.inf
            for action in legal:
                edge = edges[action]
                value = edge.total / edge.visits if edge.visits else mean
                score = value + scale * edge.prior / (1 + edge.visits)
                if score > best_score:
                    best, best_score = action, score
            edge = edges[best]
            path.append(edge)
            state.apply_legal(best)
            if not edge.visits:
                value = play_out(self.rollout, state, seat)
                break
            seen: list[Action] = []
            self.others.reset(state)
            if self.others.advance(MAX_PLAYOUT_EVENTS, rollout_seat=seat, decisions=seen) != seat:
                value = play_out(self.rollout, state, seat)
                break
            node = edge.child(seen)
            path.append(node)
        for item in path:
            item.visits += 1
            item.total += value
        return value
