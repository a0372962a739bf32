"""A variant's opt-in abilities, one import away.

The contract every variant fulfils is :mod:`cardcli.contract.variant`: a
:class:`~cardcli.contract.variant.State` and a :class:`~cardcli.contract.variant.Variant`.
Everything more is an *ability* the variant declares by inheriting it, and
the core asks for it with ``isinstance``, never by trying a method:

* :class:`HiddenInfo` (on the state): what each seat can see, and re-dealing
  the rest: ``cpu:hard``, hints, ``replay --explain``'s ratings and the
  privacy check.  :class:`HandsAndStock` writes it for the usual layout.
* :class:`UnseenCards` (on the state, with :class:`HandsAndStock`'s
  layout): records of a real table, with cards nobody saw (``"??"``):
  ``validate`` checks them exactly, ``export`` writes one seat's view.
* :class:`Narration`: the variant's own words for the log, refusals, the
  rule behind a move, a round's end and the house rules.
* :class:`TableData`: the table and its moves as data, for the served page.
* :class:`Prompts`: typed moves and a dialogue of its own at the terminal.
* :class:`Checkpoints`: lines a record states where a person keeping the
  game on paper would write something down (a round's scores).
* :class:`RoundScores`: a round scored from what a family writes down at its
  end, for ``cardcli scoresheet`` (:mod:`cardcli.realtable.sheet`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .hidden import HandsAndStock, HiddenInfo
from .round_scores import RoundScores
from .unseen import UNSEEN, UnseenCards, hands_seen_by, unseen_can, unseen_is
from .views import MoveView, TableView

if TYPE_CHECKING:
    from .options import Option
    from .variant import Action, Rules

#: Events told together: ``(state, action)`` pairs, each state as it was before its action.
Events = Sequence[tuple[Any, "Action"]]
#: How an option is said in the header's house rules: ``words(value, changed)``.
RuleWords = Callable[[Any, Mapping[str, Any]], str]

__all__ = ["UI", "UNSEEN", "Checkpoints", "Events", "HandsAndStock", "HiddenInfo", "Narration", "Prompts",
           "RoundScores", "RuleWords", "TableData", "UnseenCards", "checkpoint", "hands_seen_by",
           "unseen_can", "unseen_is"]


class Checkpoints:
    """Opt-in ability of a :class:`~cardcli.contract.variant.Variant`: checkpoint lines."""

    __slots__ = ()

    def checkpoint(self, state: Any) -> dict[str, Any] | None:
        """The checkpoint line due right after the event just applied, or ``None``.

        A checkpoint states something the rules worked out, where a person
        keeping the game on paper would write it down (End of the Page: a
        round's scores when the round ends): ``{"checkpoint": NAME, ...}``.
        cardcli writes it after that event; in a record it is optional, and
        where one stands every key it states must equal this line's.
        """
        return None


def checkpoint(variant: Any, state: Any) -> dict[str, Any] | None:
    """The checkpoint due after the event just applied to ``state`` (``None``
    for a variant without the ability)."""
    return variant.checkpoint(state) if isinstance(variant, Checkpoints) else None


class Narration:
    """Opt-in ability of a :class:`~cardcli.contract.variant.Variant`: its own words
    for stretches of play, refusals, the rule behind a move, a round's end and
    its house rules.  Every method has the core's default."""

    __slots__ = ()
    if TYPE_CHECKING:  # what it reads of the variant it is part of
        options: ClassVar[tuple[Option, ...]]

        def describe(self, state: Any, action: Action, viewer: int | None = None,
                     names: Sequence[str] | None = None) -> str: ...

        def encode_action(self, state: Any, action: Action) -> dict[str, Any]: ...
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
        ``viewer`` cannot see, as ``describe`` does.  ``None``: the default.
        """
        return None

    def describe_attempt(self, state: Any, action: Action, names: Sequence[str] | None = None) -> str | None:
        """One line for the message that refuses ``action``: the move as it
        was attempted ("discarded 9D", "played 2S"), never what it would have
        done (no "went out", no "the trick goes to ...").  ``action`` may be
        illegal in ``state``, so this must not apply it.  The default
        (``None``) names the record fields ("discard (card 9D)")."""
        return None

    def rule_behind(self, state: Any, action: Action, names: Sequence[str] | None = None) -> str | None:
        """The rule that allowed or forced ``action`` in ``state``, in a few
        words, for ``cardcli replay --explain`` ("must draw: no spade and no
        8 in hand", "the J skips ann").  Public knowledge only: a replay
        watched from one seat shows it for every seat's moves.  The default
        (``None``) says whether the move was forced or one of several; ``""``
        says nothing (chance events, by default)."""
        return None

    def round_summary(self, state: Any, action: Action, names: Sequence[str] | None = None) -> str | None:
        """When ``action`` (about to be applied to ``state``) ends a round or
        a deal, but not the game: what everyone should see before play goes
        on (the round's final table, every hand shown, and its scores).  The
        terminal shows it and waits for Enter.  ``None`` (the default) for
        every other event."""
        return None

    def last_round_summary(self, state: Any, action: Action,
                           names: Sequence[str] | None = None) -> str | None:
        """When ``action`` ends the last round of a game played in rounds (and
        with it the game): that round's summary, as :meth:`round_summary`
        says the end of the others, which the terminal shows before the
        ranking.  ``None`` (the default): the game's final table says it."""
        return None

    def rules_summary(self, rules: Rules) -> list[str] | None:
        """The house rules that differ from the defaults, a few words each
        ("A skips", "3s draw three"), for the header above the table.  The
        default (``None``): as :attr:`rule_words` says them, or by name and
        value without it."""
        return None


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


class Prompts:
    """Opt-in ability of a :class:`~cardcli.contract.variant.Variant`: typed moves,
    and, where the numbered menu is not enough, a dialogue of its own."""

    __slots__ = ()

    def parse_move(self, state: Any, text: str, legal: list[Action]) -> Action | None:
        """A typed move (``8s``, ``draw``) as one of ``legal``, or ``None``."""
        return None

    def why_not_move(self, state: Any, text: str) -> str | None:
        """Why a typed move that ``parse_move`` does not take is refused, in the
        rule's words, so a referee can say more than "not a move"; ``None``
        when the variant has no reason to give."""
        return None

    def human_turn(self, state: Any, seat: int, legal: list[Action], ui: UI) -> Action | None:
        """Ask a person for a decision.  The default (``None``) is the core's
        numbered menu of ``legal`` (:func:`cardcli.words.prompts.menu_turn`), where
        typed moves go through ``parse_move``."""
        return None


class TableData:
    """Opt-in ability of a :class:`~cardcli.contract.variant.Variant`: the table and
    its moves as data of its own (its piles, melds and scores as such, its
    choices grouped), for the browser page and other network clients."""

    __slots__ = ()

    def table_view(self, state: Any, viewer: int | None, names: Sequence[str]) -> TableView | None:
        """The table as ``viewer`` sees it (a seat, :data:`SPECTATOR` for the
        public table, ``None`` for everything), as data.  Read only what
        ``viewer`` may see: the server sends this view and nothing else.  The
        default (``None``): the core's, from the zones and the rendered text."""
        return None

    def move_view(self, state: Any, seat: int, action: Action, names: Sequence[str]) -> MoveView | None:
        """How ``seat`` picks the legal decision ``action``: its label, the hand
        cards it uses, and the choice or call that sets it apart from moves
        with the same cards.  The default (``None``): the core's, from the
        record fields."""
        return None
