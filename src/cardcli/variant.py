"""The interface between the core and a game: :class:`Variant` and :class:`State`.

Shaped like OpenSpiel's games.  A state is a position; whoever acts next is a
seat (0..n-1), ``CHANCE`` (the deck: a deal, a draw, a reshuffle) or nobody
(``TERMINAL``).  Decisions and chance outcomes are both *actions*, applied the
same way, so playing, validating a record, replaying it, simulating and CPU
search all drive one rules implementation.

Actions are opaque to the core: any hashable value the variant likes (the
built-in variants use small tuples, because the hot path creates millions).
The variant converts them to and from a record's JSON fields and describes
them to people.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from .errors import IllegalMove
from .options import Option, Value, changed_options, show_value
from .rand import pick, shuffle
from .view import MoveView, TableView, generic_move_view, generic_table_view
from .words import seat_name

CHANCE = -1
TERMINAL = -2

Action = Any
Rules = Mapping[str, Value]
#: A variant's state type: ``Variant[S]`` creates and reads states of type ``S``.
S = TypeVar("S", bound="State")
#: A CPU policy: ``(state, seat, legal_actions, rng) -> action``.  It may read
#: only what ``seat`` could know; the built-in easy/normal levels read their
#: own hand and the public table.  ``Policy[MyState]`` reads ``MyState``.
Policy = Callable[[S, int, list[Action], random.Random], Action]


def rank_places(values: Sequence[float], *, lower_is_better: bool = True) -> list[int]:
    """Competition ranking ("1, 2, 2, 4") of ``values`` per seat."""
    places = []
    for value in values:
        better = sum(1 for other in values if (other < value if lower_is_better else other > value))
        places.append(better + 1)
    return places


def places_value(places: Sequence[int], seat: int) -> float:
    """``seat``'s share of a ranking, from 1 (first) to 0 (last).

    Seats tied on a place share the places they span: a heads-up draw is
    worth 0.5 to each.  Search uses it to value finished games and rounds.
    """
    n = len(places)
    if n < 2:
        return 1.0
    place = places[seat]
    tied = list(places).count(place)
    return sum((n - q) / (n - 1) for q in range(place, place + tied)) / tied


@dataclass
class Result:
    """How a game ended.  ``places`` is per seat (1 = first, ties share).

    ``winner`` is the single seat in first place, or ``None`` when nobody won
    (a draw, a called-off hand, or a tie for first).  ``scores`` and
    ``rounds`` are the totals and the per-round scores where the variant
    keeps score.
    """

    places: list[int]
    winner: int | None
    reason: str = ""
    scores: list[int] | None = None
    rounds: list[list[int]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"places": self.places, "winner": self.winner}
        if self.reason:
            data["reason"] = self.reason
        if self.scores is not None:
            data["scores"] = self.scores
        if self.rounds is not None:
            data["rounds"] = self.rounds
        data.update(self.extra)
        return data


class State(ABC):
    """A position.  Mutable: ``apply`` changes it in place; ``clone`` copies it.

    Subclasses keep ``clone`` cheap (lists of ints, no deep copies of shared,
    immutable configuration) because search-based players copy states
    constantly.
    """

    num_players: int

    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE``, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal decision for the current seat (empty at chance and terminal)."""

    def apply(self, action: Action) -> None:
        """Apply a decision or a chance outcome, checking it against the rules.

        Raises :class:`cardcli.errors.IllegalMove` with the rule broken and,
        where it helps, the legal alternatives.  An illegal action leaves the
        state unchanged.
        """
        self.check(action)
        self.apply_legal(action)

    def check(self, action: Action) -> None:
        """Raise :class:`cardcli.errors.IllegalMove` unless ``action`` is allowed now.

        The default suits a variant whose ``legal_actions`` lists *every*
        legal decision: a decision is allowed exactly when it is listed, and
        otherwise refused with the variant's reason (:meth:`why_illegal`) and
        the alternatives (:meth:`alternatives`).  Chance outcomes go to
        :meth:`check_chance`.  A variant whose list leaves legal decisions
        out (End of the Page lists only the shortest melds) overrides this.
        """
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMove("the game is over")
        if player == CHANCE:
            self.check_chance(action)
            return
        legal = self.legal_actions()
        if action in legal:
            return
        raise IllegalMove(self.why_illegal(action), self.alternatives(legal) or None)

    def check_chance(self, action: Action) -> None:
        """Raise :class:`cardcli.errors.IllegalMove` unless ``action`` is a
        possible outcome of the current chance node (the default ``check``
        calls it there): a card drawn must be in the stock, and so on."""
        raise NotImplementedError(f"{type(self).__name__} uses the default check, so it must "
                                  "implement check_chance")

    def why_illegal(self, action: Action) -> str:
        """Why a decision that ``legal_actions`` does not list is refused, in
        words that name the rule ("must follow hearts").  It may receive
        anything a caller passes, malformed actions included."""
        return "not allowed now"

    def alternatives(self, legal: list[Action]) -> str:
        """The legal decisions in words, shown after a refusal ("could play
        7H or draw"); empty for none worth naming."""
        return ""

    @abstractmethod
    def apply_legal(self, action: Action) -> None:
        """Apply an action known to be legal (taken from ``legal_actions()`` or
        ``sample_chance()`` of this very state) without checking it again:
        the fast path for simulation and search."""

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Action:
        """A random outcome for the current chance node, possible in this state."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the game is over; ``None`` before."""

    @abstractmethod
    def card_zones(self) -> dict[str, list[int]]:
        """Where every card is (hands, stock, discards, ...), for conservation checks."""

    @abstractmethod
    def expecting(self) -> str:
        """What must happen next, in words ("seat 2 to play", "a reshuffle")."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- What a seat can know: the interface search-based players use. ------
    # A variant that implements ``hidden_zones`` and ``set_zones`` gets the
    # core's ``hard`` CPU, the arena and the play-time hint for free.

    def hidden_zones(self, seat: int) -> list[str]:
        """The names (keys of ``card_zones``) of the zones ``seat`` cannot see:
        other hands, the stock ...  Raise ``NotImplementedError`` if unknown."""
        raise NotImplementedError

    def known_cards(self, seat: int) -> dict[str, list[int]]:
        """Cards ``seat`` knows to be in a hidden zone (a card it saw another
        player take and keep, say).  Default: none."""
        return {}

    def ruled_out(self, seat: int) -> dict[str, Callable[[int], bool]]:
        """Hidden zones with cards ``seat`` knows are *not* there, as a test per
        zone (a suit a player was seen to lack).  Default: none."""
        return {}

    def set_zones(self, zones: dict[str, list[int]]) -> None:
        """Replace the contents of hidden zones (same sizes), for determinization."""
        raise NotImplementedError

    def pending_card(self, seat: int) -> tuple[str, int, Callable[[int], bool]] | None:
        """A card in a zone ``seat`` cannot see that the decision now turns on
        (a drawn card the player to act must or may play), as ``(zone, card,
        fits)``: ``fits`` is what the table knows of it (it plays on the top
        card, say).  A re-deal for ``seat`` keeps a card that fits in that
        zone and hands it to :meth:`set_pending_card`, so the copy stays a
        position that can happen.  Default: none."""
        return None

    def set_pending_card(self, card: int) -> None:
        """Point a re-dealt copy at its pending card (see :meth:`pending_card`)."""
        raise NotImplementedError

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy in which everything ``seat`` cannot see is dealt anew at
        random, consistently with what it knows (zone sizes, known cards,
        cards ruled out, a pending card's zone and what fits it).

        The result depends only on what ``seat`` can see and on ``rng``: the
        hidden cards are pooled and sorted before shuffling, so two states
        that differ only in hidden cards give the same copy.  (The deal is
        :func:`cardcli.inference.redeal`'s, from the table alone; the hard
        CPU also remembers what earlier events showed.)
        """
        from .inference import redeal

        return redeal(self, seat, rng)

    def rollout_value(self, seat: int) -> float | None:
        """Where a search may stop a playout early (say, at the end of a round
        of a long match): ``seat``'s value in [0, 1], or ``None`` to play on."""
        return None


_HAND_ZONES = tuple(f"hand {seat}" for seat in range(16))


def deal_anew(zones: Mapping[str, Sequence[int]], names: Sequence[str], known: Mapping[str, Sequence[int]],
              rng: random.Random) -> dict[str, list[int]]:
    """The cards of the zones ``names`` dealt anew among them at random (each
    zone keeps its size), except the ``known`` cards, which stay in their
    zones.  The cards are pooled and sorted before the shuffle, so the deal
    depends only on which cards are hidden and on ``rng``, never on where
    they were."""
    pool: list[int] = []
    free: dict[str, int] = {}
    for name in names:
        cards = list(zones[name])
        for card in known.get(name, ()):
            cards.remove(card)
        pool.extend(cards)
        free[name] = len(cards)
    pool.sort()
    shuffle(rng, pool)
    dealt: dict[str, list[int]] = {}
    start = 0
    for name in names:
        dealt[name] = list(known.get(name, ())) + pool[start:start + free[name]]
        start += free[name]
    return dealt


def hand_zones(hands: Sequence[list[int]]) -> dict[str, list[int]]:
    """``{"hand 0": hands[0], ...}``: the start of a ``card_zones`` whose
    hands are zones ``"hand N"`` (names made once, not per call: validate
    asks for the zones after every event)."""
    if len(hands) <= len(_HAND_ZONES):
        return dict(zip(_HAND_ZONES, hands))
    return {f"hand {seat}": hand for seat, hand in enumerate(hands)}


def set_hands_and_stock(state: Any, zones: dict[str, list[int]], game: str) -> None:
    """``State.set_zones`` for a game whose hidden zones are ``"hand N"`` and
    ``"stock"``, held in ``state.hands[N]`` and ``state.stock``."""
    for name, cards in zones.items():
        if name == "stock":
            state.stock = list(cards)
        elif name.startswith("hand "):
            state.hands[int(name[5:])] = list(cards)
        else:
            raise ValueError(f"zone {name!r} is not hidden in {game}")


class Variant(ABC, Generic[S]):
    """A game's rules, registered by a plugin.

    Class attributes describe it; methods create states and translate actions
    to and from records and people.  Generic over its state class, so a type
    checker follows a plugin: ``class MyVariant(Variant[MyState])`` creates
    ``MyState`` and its methods may read ``MyState``'s own attributes.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    #: The widest table the variant supports (``min_players``/``max_players``
    #: options narrow it).
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    #: CPU strengths offered, weakest first (the core adds ``hard``).
    cpu_levels: ClassVar[tuple[str, ...]] = ("easy", "normal")
    #: What a ``Result``'s ``scores`` count, in the final ranking.
    score_label: ClassVar[str] = "points"
    #: The rules between options, in words, for ``cardcli rules`` ("skip_rank
    #: and reverse_rank are two different ranks"); ``check_rules`` enforces them.
    constraints: ClassVar[tuple[str, ...]] = ()

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        """Raise ``RulesetError`` for combinations of options the rules forbid.

        ``num_players`` is given when a table size is known (a ruleset whose
        deal cannot fit the deck is refused then).  The default forbids nothing.
        """

    @abstractmethod
    def new_state(self, rules: Rules, num_players: int, dealer: int) -> S:
        """The state before the deal: its first node is a chance node."""

    @abstractmethod
    def deck(self, rules: Rules, num_players: int) -> list[int]:
        """The cards in play, as a multiset (the list may contain copies)."""

    @abstractmethod
    def encode_action(self, state: S, action: Action) -> dict[str, Any]:
        """Record fields for ``action`` applied in ``state``.

        Decisions return ``{"move": NAME, ...}``, chance outcomes
        ``{"chance": NAME, ...}``; the core adds the acting seat.
        """

    @abstractmethod
    def decode_action(self, state: S, data: Mapping[str, Any]) -> Action:
        """The action a record line describes.  Raises ``ValueError`` saying why not."""

    @abstractmethod
    def describe(self, state: S, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        """One line for people: what ``action`` does in ``state`` (before it is applied).

        For a decision, the text follows the actor's name ("played 7H on 9S");
        a chance event names whoever it concerns, using ``names`` (default
        "seat N").  ``viewer`` is the seat watching (hide what they cannot
        see) or ``None`` for everything.
        """

    def describe_attempt(self, state: S, action: Action, names: Sequence[str] | None = None) -> str:
        """One line for the message that refuses ``action``: the move as it
        was attempted ("discarded 9D", "played 2S"), never what it would have
        done (no "went out", no "the trick goes to ...").  ``action`` may be
        illegal in ``state``, so this must not apply it.

        The default names the record fields ("discard (card 9D)"); variants
        override it with their own words.
        """
        try:
            fields = dict(self.encode_action(state, action))
        except (LookupError, TypeError, ValueError):
            return repr(action)
        name = fields.pop("move", None) or fields.pop("chance", None) or "event"
        parts = []
        for key, value in fields.items():
            shown = " ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
            parts.append(f"{key} {shown}")
        return f"{name} ({', '.join(parts)})" if parts else str(name)

    def describe_events(self, events: Sequence[tuple[S, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """A stretch of play told to ``viewer``, one line per thing that happened.

        ``events`` are ``(state, action)`` pairs in order, each state as it
        was before its action.  The default says each event as
        :meth:`describe` does, after the actor's name; a variant merges
        events a person reads as one ("cpu2 could not follow clubs: drew 7,
        played 4C").  Like ``describe``, hide what ``viewer`` cannot see.
        """
        return [event_line(self, state, action, viewer, names) for state, action in events]

    def explain(self, state: S, action: Action, names: Sequence[str] | None = None) -> str:
        """The rule that allowed or forced ``action`` in ``state``, in a few
        words, for ``cardcli replay --explain`` ("must draw: no spade and no
        8 in hand", "the J skips ann").  Public knowledge only: a replay
        watched from one seat shows it for every seat's moves.

        The default says whether the move was forced or one of several;
        variants name their rules.  ``""`` says nothing (chance events,
        by default).
        """
        if state.current_player() < 0:
            return ""
        legal = state.legal_actions()
        if len(legal) <= 1:
            return "forced: the only legal move"
        return f"a choice: one of {len(legal)} legal moves"

    def round_summary(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """When ``action`` (about to be applied to ``state``) ends a round or
        a deal, but not the game: what everyone should see before play goes
        on (the round's final table, every hand shown, and its scores).  The
        terminal shows it and waits for Enter.  ``None`` (the default) for
        every other event."""
        return None

    def rules_summary(self, rules: Rules) -> list[str]:
        """The house rules that differ from the defaults, a few words each
        ("A skips", "3s draw three"), for the header above the table.

        The default names each option and its value.
        """
        return [f"{name} {show_value(value)}" for name, value in changed_options(rules, self.options).items()]

    @abstractmethod
    def render(self, state: S, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
        """The table as text, seen by ``viewer`` (``None``: every card shown).

        Write cards in the plain notation (``10H``, ``JK``): the terminal
        shows them with suit symbols and colour where it can
        (:mod:`cardcli.style`), and highlights the row that starts with the
        name of the player to move (`` > 2 ann ...``).
        """

    def checkpoint(self, state: S) -> dict[str, Any] | None:
        """The checkpoint line due right after the event just applied, or ``None``.

        A checkpoint states something the rules worked out, where a person
        keeping the game on paper would write it down (End of the Page: a
        round's scores when the round ends): ``{"checkpoint": NAME, ...}``.
        cardcli writes it after that event; in a record it is optional, and
        where one stands every key it states must equal this line's.  The
        default: the variant has none.
        """
        return None

    def cpu_policy(self, level: str) -> Policy[S]:
        """The policy of a CPU strength; the default plays a random legal move."""
        if level not in self.cpu_levels:
            raise ValueError(level)
        return random_policy

    def human_turn(self, state: S, seat: int, legal: list[Action], ui: Any) -> Action:
        """Ask a person for a decision.  The default offers a numbered menu of
        ``legal``, each move as :meth:`move_view` labels it ("play 7H");
        variants override this for a friendlier dialogue."""
        names = [f"seat {i}" for i in range(state.num_players)]
        labels = [self.move_view(state, seat, action, names).label for action in legal]
        return legal[ui.choose("Your move", labels, state=state, legal=legal)]

    def parse_move(self, state: S, text: str, legal: list[Action]) -> Action | None:
        """A typed move (``8s``, ``draw``) as one of ``legal``, or ``None``."""
        return None

    # -- The table as data, for the browser page and other network clients. --
    # The defaults build both from the methods above; a variant overrides them
    # to show its piles, melds and scores as such and to group its choices.

    def table_view(self, state: S, viewer: int | None, names: Sequence[str]) -> TableView:
        """The table as ``viewer`` sees it (a seat, :data:`cardcli.view.SPECTATOR`
        for the public table, ``None`` for everything), as data.  Read only what
        ``viewer`` may see: the server sends this view and nothing else."""
        return generic_table_view(self, state, viewer, names)

    def move_view(self, state: S, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        """How ``seat`` picks the legal decision ``action``: its label, the hand
        cards it uses, and the choice or call that sets it apart from moves
        with the same cards."""
        return generic_move_view(self, state, seat, action, names)


def random_policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Uniformly random legal move: the baseline every variant gets for free."""
    return pick(legal, rng)


def after_move(state: S, action: Action) -> S | None:
    """A copy of ``state`` with ``action`` applied, or ``None`` where the
    rules refuse it (an illegal move ends nothing): how a variant tells,
    before a move is applied, what it is about to do (end a round, say)."""
    try:
        state.check(action)
    except IllegalMove:
        return None
    after = state.clone()
    after.apply_legal(action)
    return after


def event_line(variant: Variant[Any], state: State, action: Action, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
    """One event as ``viewer`` is told it, before it is applied, with the
    actor's name in front of a decision: "cpu2 played 7H on 9S"."""
    player = state.current_player()
    text = variant.describe(state, action, viewer=viewer, names=names)
    if player < 0:
        return text
    return f"{seat_name(player, names)} {text}"

