"""The contract between the core and a game: :class:`State` and :class:`Variant`.

Shaped like OpenSpiel's games.  A state is a position; whoever acts next is a
seat (0..n-1), ``CHANCE`` (the deck: a deal, a draw, a reshuffle) or nobody
(``TERMINAL``).  Decisions and chance outcomes are both *actions*, applied the
same way, so playing, validating a record, replaying it, simulating and CPU
search all drive one rules implementation.

Actions are opaque to the core: any hashable value the variant likes (the
built-in variants use small tuples, because the hot path creates millions).
The variant converts them to and from a record's JSON fields and describes
them to people.

This module is the whole of what every variant must write: seven methods of
the state and four of the variant, and its record events declared once
(``events``: the record codec comes from it; ``docs/plugins.md``, "The contract").
The variant's optional methods (its own words, table data, typed moves,
checkpoints) are here too, each with the core's default; the abilities a
state declares by inheriting them (hidden information, unseen cards) and
the score sheet are :mod:`cardcli.contract.abilities`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from ..kit import cloning
from ..kit.errors import IllegalMove, PluginError
from ..kit.language import Catalog
from ..kit.language import core as _
from ..kit.language import core as core_words
from ..kit.rand import pick
from ..kit.results import Result, rank_places
from .options import Option, Value
from .views import MoveView, TableView

__all__ = ["CHANCE", "TERMINAL", "UI", "Action", "Events", "Policy", "Result", "RuleWords", "Rules", "State",
           "Variant", "hand_zones", "random_policy", "rank_places"]

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
#: Events told together: ``(state, action)`` pairs, each state as it was before its action.
Events = Sequence[tuple[Any, Action]]
#: How an option is said in the header's house rules: ``words(value, changed)``.
RuleWords = Callable[[Any, Mapping[str, Any]], str]


class UI(Protocol):
    """What a dialogue may do at the terminal (or a remote player's prompt).

    ``show`` prints a line (cards in the plain notation: the terminal styles
    them), ``ask`` reads an answer (``?`` for the hint is handled there),
    ``choose`` offers a numbered menu and returns the index chosen, and
    ``offer`` says which key picks which legal action, so the hint can name
    them.  ``again`` are the lines a hint is followed by (the hand and the
    choices), before the prompt is asked again.
    """

    def show(self, text: str = "", *, played: Collection[str] = ()) -> None: ...

    def ask(self, prompt: str, default: str | None = None, *, again: Sequence[str] = ()) -> str: ...

    def choose(self, title: str, labels: Sequence[str], *, legal: Sequence[Any] | None = None) -> int: ...

    def offer(self, keys: Mapping[Any, str]) -> None: ...


class State(ABC):
    """A position.  Mutable: ``apply`` changes it in place; ``clone`` copies it.

    Seven methods are required.  The rest have defaults: ``check`` accepts
    exactly what ``legal_actions`` lists (``why_illegal`` and
    ``alternatives`` word its refusals), ``expecting`` says whose turn it
    is, and ``clone`` is written from the class's ``__slots__``
    (:mod:`cardcli.kit.cloning`; a list named in ``shared`` is never copied).
    """

    __slots__ = ()
    num_players: int
    #: Slots holding lists that never change once the state is made (the full
    #: pack): ``clone`` shares them instead of copying.
    shared: ClassVar[tuple[str, ...]] = ()

    # -- required ----------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE``, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal decision for the current seat (empty at chance and terminal)."""

    @abstractmethod
    def apply_legal(self, action: Action) -> None:
        """Apply an action known to be legal (taken from ``legal_actions()`` or
        ``sample_chance()`` of this very state) without checking it again:
        the fast path for simulation and search."""

    @abstractmethod
    def check_chance(self, action: Action) -> None:
        """Raise :class:`cardcli.kit.errors.IllegalMove` unless ``action`` is a
        possible outcome of the current chance node: a card drawn must be in
        the stock, a deal must hold the pack's cards, and so on."""

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Action:
        """A random outcome for the current chance node, possible in this state."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the game is over; ``None`` before."""

    @abstractmethod
    def card_zones(self) -> dict[str, list[int]]:
        """Where every card is (hands ``"hand N"``, stock, discards, ...), for
        conservation checks and the views."""

    # -- provided ----------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply a decision or a chance outcome, checking it against the rules.

        Raises :class:`cardcli.kit.errors.IllegalMove` with the rule broken and,
        where it helps, the legal alternatives.  An illegal action leaves the
        state unchanged.
        """
        self.check(action)
        self.apply_legal(action)

    def check(self, action: Action) -> None:
        """Raise :class:`cardcli.kit.errors.IllegalMove` unless ``action`` is allowed now.

        Nothing is allowed once the game is over; chance outcomes go to
        :meth:`check_chance`, decisions to :meth:`check_decision`.
        """
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMove(_("the game is over"))
        if player == CHANCE:
            self.check_chance(action)
            return
        self.check_decision(action)

    def check_decision(self, action: Action) -> None:
        """Raise :class:`cardcli.kit.errors.IllegalMove` unless the decision
        ``action`` is allowed for the seat to move.

        The default suits a variant whose ``legal_actions`` lists *every*
        legal decision: a decision is allowed exactly when it is listed, and
        otherwise refused with :meth:`why_illegal` and :meth:`alternatives`.
        A variant whose list leaves legal decisions out (End of the Page
        lists only the shortest melds) overrides this.
        """
        legal = self.legal_actions()
        if action in legal:
            return
        raise IllegalMove(self.why_illegal(action), self.alternatives(legal) or None)

    def why_illegal(self, action: Action) -> str:
        """Why a decision that ``legal_actions`` does not list is refused, in
        words that name the rule ("must follow hearts").  It may receive
        anything a caller passes, malformed actions included."""
        return _("not allowed now")

    def alternatives(self, legal: list[Action]) -> str:
        """The legal decisions in words, shown after a refusal ("could play
        7H or draw"); empty for none worth naming."""
        return ""

    def expecting(self) -> str:
        """What must happen next, in words ("seat 2 to play", "a reshuffle"),
        for messages about a record that goes wrong."""
        player = self.current_player()
        if player == TERMINAL:
            # Translators: what must happen next, after "expected" or "next:": nothing.
            return _("nothing (the game is over)")
        if player == CHANCE:
            # Translators: what must happen next: a deal, a draw... (the deck's turn).
            return _("a chance event")
        # Translators: what must happen next: a seat's decision.
        return _("seat {seat} to move").format(seat=player)

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def clone(self) -> Self:
        """An independent copy, written from the class's ``__slots__``
        (:mod:`cardcli.kit.cloning`)."""
        copy: Self = cloning.clone(self)
        return copy


def hand_zones(hands: Sequence[list[int]]) -> dict[str, list[int]]:
    """``{"hand 0": hands[0], ...}``: the start of a ``card_zones`` whose
    hands are zones ``"hand N"`` (names made once, not per call: validate
    asks for the zones after every event)."""
    if len(hands) <= len(_HAND_ZONES):
        return dict(zip(_HAND_ZONES, hands))
    return {f"hand {seat}": hand for seat, hand in enumerate(hands)}


_HAND_ZONES = tuple(f"hand {seat}" for seat in range(16))


def random_policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Uniformly random legal move: the baseline every variant gets for free."""
    return pick(legal, rng)


class Variant(ABC, Generic[S]):
    """A game's rules, registered by a plugin.

    Class attributes describe it (``events``: its record lines); four methods
    create states and tell people what happens.  The optional methods return
    ``None`` for the core's default: a variant overrides those it says or shows
    better.  Generic over its state class, so a type checker follows a plugin:
    ``class MyVariant(Variant[MyState])`` creates ``MyState`` and its methods
    may read ``MyState``'s attributes.
    """

    __slots__ = ()
    name: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    #: The widest table the variant supports (``min_players``/``max_players``
    #: options narrow it), and the table ``cardcli play`` seats by default.
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]]
    #: The CPU strengths offered, weakest first, each a policy (the core adds
    #: ``hard``).  The default plays a random legal move at both levels.
    cpu_policies: ClassVar[Mapping[str, Policy[Any]]] = {"easy": random_policy, "normal": random_policy}
    #: What a ``Result``'s ``scores`` count, in the final ranking.
    score_label: ClassVar[str] = "points"
    #: The rules between options, in words, for ``cardcli rules`` ("skip_rank
    #: and reverse_rank are two different ranks"); ``check_rules`` enforces them.
    constraints: ClassVar[tuple[str, ...]] = ()
    #: The plugin's messages in the chosen language: its gettext domain, named
    #: after its distribution (``Catalog("cardcli-mygame", "cardcli_mygame")``).
    #: The core shows ``title``, ``description``, the options' meanings and
    #: ``constraints`` through it; None (the default) speaks English only.
    catalog: ClassVar[Catalog | None] = None
    #: The record's events, declared once (:class:`~cardcli.contract.record_fields.RecordEvents`): each
    #: move's and chance event's action and fields, from which ``encode_action`` and ``decode_action`` come.
    events: ClassVar[Any] = None  # a RecordEvents (not imported: it imports this module)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that declares ``events`` gets the declaration's codec as its
        own ``encode_action`` and ``decode_action`` (where it writes neither),
        called directly: a record line costs no call more than code written
        out by hand."""
        super().__init_subclass__(**kwargs)
        events = cls.__dict__.get("events")
        if events is not None:
            for method, codec in (("encode_action", events.encode), ("decode_action", events.decode)):
                if method not in cls.__dict__:
                    setattr(cls, method, staticmethod(codec))

    def words(self, text: str) -> str:
        """``text`` declared by this variant (its title, an option's meaning), in the chosen language:
        from its own catalog, else the core's (an option every variant shares)."""
        if self.catalog is not None:
            said = self.catalog.gettext(text)
            if said != text:
                return said
        return core_words.gettext(text)

    # -- required ----------------------------------------------------------
    @abstractmethod
    def new_state(self, rules: Rules, num_players: int, dealer: int) -> S:
        """The state before the deal: its first node is a chance node."""

    @abstractmethod
    def deck(self, rules: Rules, num_players: int) -> list[int]:
        """The cards in play, as a multiset (the list may contain copies)."""

    @abstractmethod
    def describe(self, state: S, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        """One line for people: what ``action`` does in ``state`` (before it is applied).

        For a decision, the text follows the actor's name ("played 7H on 9S");
        a chance event names whoever it concerns, using ``names`` (default
        "seat N").  ``viewer`` is the seat watching (hide what they cannot
        see) or ``None`` for everything.
        """

    @abstractmethod
    def render(self, state: S, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
        """The table as text, seen by ``viewer`` (``None``: every card shown).

        Write cards in the plain notation (``10H``, ``JK``): the terminal
        shows them with suit symbols and colour where it can
        (:mod:`cardcli.terminal.style`).  The seat rows are best written with
        :func:`cardcli.words.table_text.seat_rows`, whose marker for the player to
        move the terminal highlights.  A variant that writes its table once, as
        data, assigns ``render = cardcli.words.view.render_from_view`` instead:
        the text is then drawn from its ``table_view`` (or its zones).
        """

    # -- provided ----------------------------------------------------------
    def encode_action(self, state: S, action: Action) -> dict[str, Any]:
        """Record fields for ``action`` applied in ``state``.

        Decisions return ``{"move": NAME, ...}``, chance outcomes
        ``{"chance": NAME, ...}``; the core adds the acting seat.  Written
        as :attr:`events` declares (a variant may write its own instead).
        """
        return self._events().encode(state, action)

    def decode_action(self, state: S, data: Mapping[str, Any]) -> Action:
        """The action a record line describes, read as :attr:`events`
        declares.  Raises ``ValueError`` saying why not."""
        return self._events().decode(state, data)

    def _events(self) -> Any:
        if self.events is None:
            raise PluginError(f"{self.name} neither declares its record events (events = RecordEvents(...)) "
                              "nor writes encode_action and decode_action")
        return self.events

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        """Raise ``RulesetError`` for combinations of options the rules forbid.

        ``num_players`` is given when a table size is known (a ruleset whose
        deal cannot fit the deck is refused then).  The default forbids nothing.
        """

    @property
    def cpu_levels(self) -> tuple[str, ...]:
        """The CPU strengths of :attr:`cpu_policies`, weakest first."""
        return tuple(self.cpu_policies)

    def cpu_policy(self, level: str) -> Policy[S]:
        """The policy of the CPU strength ``level``."""
        policy = self.cpu_policies.get(level)
        if policy is None:
            raise PluginError(_("{variant} has no CPU strength {level!r} (it has {levels})").format(
                variant=self.name, level=level, levels=", ".join(self.cpu_policies)))
        return policy

    # -- optional: its own words (None: the core's, cardcli.words.narration) --
    #: The house rules in words, by option, in the order the header says them:
    #: ``{"skip_rank": lambda value, changed: f"{value} skips", "wild_eight":
    #: either("8s are wild", "8s are not wild")}``.  Read by the default
    #: :meth:`rules_summary`; an option left out is not said.
    rule_words: ClassVar[Mapping[str, RuleWords]] = {}

    def describe_events(self, events: Events, viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str] | None:
        """A stretch of play told to ``viewer``, one line per thing that happened.

        ``events`` are ``(state, action)`` pairs in order, each state as it
        was before its action.  The default says each event as ``describe``
        does, after the actor's name; a variant merges events a person reads
        as one ("cpu2 could not follow clubs: drew 7, played 4C").  Hide what
        ``viewer`` cannot see, as ``describe`` does.
        """
        return None

    def describe_attempt(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """One line for the message that refuses ``action``: the move as it
        was attempted ("discarded 9D", "played 2S"), never what it would have
        done (no "went out", no "the trick goes to ...").  ``action`` may be
        illegal in ``state``, so this must not apply it.  The default names
        the record fields ("discard (card 9D)")."""
        return None

    def rule_behind(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """The rule that allowed or forced ``action`` in ``state``, in a few
        words, for ``cardcli replay --explain`` ("must draw: no spade and no
        8 in hand", "the J skips ann").  Public knowledge only: a replay
        watched from one seat shows it for every seat's moves.  The default
        says whether the move was forced or one of several; ``""`` says
        nothing (chance events, by default)."""
        return None

    def round_summary(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """When ``action`` (about to be applied to ``state``) ends a round or
        a deal, but not the game: what everyone should see before play goes
        on (the round's final table, every hand shown, and its scores).  The
        terminal shows it and waits for Enter.  ``None`` for every other event."""
        return None

    def last_round_summary(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """When ``action`` ends the last round of a game played in rounds (and
        with it the game): that round's summary, as :meth:`round_summary`
        says the end of the others, which the terminal shows before the
        ranking.  ``None``: the game's final table says it."""
        return None

    def rules_summary(self, rules: Rules) -> list[str] | None:
        """The house rules that differ from the defaults, a few words each
        ("A skips", "3s draw three"), for the header above the table.  The
        default: as :attr:`rule_words` says them, or by name and value without it."""
        return None

    def render_short(self, state: S, viewer: int | None = None,
                     names: Sequence[str] | None = None) -> str | None:
        """The table in fewer rows, for a terminal where ``render``'s would leave
        no room for the turn under it: what a decision needs (the round, the
        piles, the seats, the hand) kept, details left out.  ``None``: the
        variant has no shorter table."""
        return None

    # -- optional: the table as data (None: the core's, cardcli.words.view) --
    def table_view(self, state: S, viewer: int | None, names: Sequence[str]) -> TableView | None:
        """The table as ``viewer`` sees it (a seat, ``SPECTATOR`` for the
        public table, ``None`` for everything), as data, for the served page.
        Read only what ``viewer`` may see: the server sends this view and
        nothing else.  The default: from the zones and the rendered text."""
        return None

    def move_view(self, state: S, seat: int, action: Action, names: Sequence[str]) -> MoveView | None:
        """How ``seat`` picks the legal decision ``action``: its label, the hand
        cards it uses, and the choice or call that sets it apart from moves
        with the same cards.  The default: from the record fields."""
        return None

    # -- optional: the dialogue (None: the core's, cardcli.words.prompts) ------
    def parse_move(self, state: S, text: str, legal: list[Action]) -> Action | None:
        """A typed move (``8s``, ``draw``) as one of ``legal``, or ``None``.
        Where a variant does not override it, the numbered menu takes numbers only."""
        return None

    def why_not_move(self, state: S, text: str) -> str | None:
        """Why a typed move that ``parse_move`` does not take is refused, in the
        rule's words, so a referee can say more than "not a move"; ``None``
        when the variant has no reason to give."""
        return None

    def human_turn(self, state: S, seat: int, legal: list[Action], ui: UI) -> Action | None:
        """Ask a person for a decision.  The default is the core's numbered
        menu of ``legal`` (:func:`cardcli.words.prompts.menu_turn`), where
        typed moves go through ``parse_move``."""
        return None

    # -- optional: checkpoints ---------------------------------------------
    def checkpoint(self, state: S) -> dict[str, Any] | None:
        """The checkpoint line due right after the event just applied, or ``None``.

        A checkpoint states something the rules worked out, where a person
        keeping the game on paper would write it down (End of the Page: a
        round's scores when the round ends): ``{"checkpoint": NAME, ...}``.
        cardcli writes it after that event; in a record it is optional, and
        where one stands every key it states must equal this line's.
        """
        return None
