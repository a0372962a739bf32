"""Cards nobody saw: the ability a state needs to be read from a real table's record.

At a real table nobody sees every hand, so a record written there (or
exported from one seat's view, ``cardcli export``) writes the cards its
writer did not see as ``"??"``.  cardcli reads such a record through the
variant's own rules, with every unseen card held as :data:`UNSEEN`, a
placeholder that matches nothing: a play of a card the table had not seen
in that hand turns one of the hand's unseen cards into it, and
:mod:`cardcli.unseen.solver` decides whether the unseen cards could all have
been dealt so (``docs/unseen.md``).

A state declares the ability by inheriting :class:`UnseenCards` (it keeps
its hands in ``state.hands`` and its stock in ``state.stock``, as
:class:`~cardcli.contract.hidden.HandsAndStock` does) and writing two methods:
:meth:`UnseenCards.cards_taken` (which hidden cards an event takes) and
:meth:`UnseenCards.seen_by` (what each seat saw of a chance event), or naming
its record events, whose fields say both where they hold all of its cards.  Where
its rules turn on a card just drawn, they ask :func:`unseen_is` instead of
looking at an unseen card (and :func:`unseen_can` where they turn on
what a hand with unseen cards could do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar, Protocol

from ..kit.cards import UNSEEN
from ..kit.errors import IllegalMove
from .hidden import CardTest, HandsAndStock
from .variant import Action

__all__ = ["UNSEEN", "Oracle", "UnseenCards", "hands_seen_by", "reading_unseen", "unseen_allowed",
           "unseen_can", "unseen_is"]

#: Whether the record being read may write cards as "??" (its header says whose view it is).
_ALLOWED: ContextVar[bool] = ContextVar("cardcli_unseen_allowed", default=False)
#: Answers the rules' questions about cards nobody saw (set by the record reader).
_ORACLE: ContextVar[Oracle | None] = ContextVar("cardcli_unseen_oracle", default=None)


class Oracle(Protocol):
    """What the record reader answers for: see :func:`unseen_is` and :func:`unseen_can`."""

    def card(self, seat: int, test: CardTest | frozenset[int]) -> bool: ...

    def hand(self, state: Any, seat: int, able: Callable[[], object]) -> bool: ...


def unseen_allowed() -> bool:
    """Whether ``"??"`` may stand for a card in the record being read."""
    return _ALLOWED.get()


@contextmanager
def reading_unseen(oracle: Oracle) -> Iterator[None]:
    """Within the block, records may write unseen cards as ``"??"``, and
    ``oracle`` answers the rules' questions about them."""
    allowed, asked = _ALLOWED.set(True), _ORACLE.set(oracle)
    try:
        yield
    finally:
        _ALLOWED.reset(allowed)
        _ORACLE.reset(asked)


def _oracle() -> Oracle:
    oracle = _ORACLE.get()
    if oracle is None:
        raise RuntimeError("the rules asked about a card nobody saw outside a record being read")
    return oracle


def unseen_is(seat: int, test: CardTest | frozenset[int]) -> bool:
    """Whether the card ``seat`` just drew, which nobody saw, passes ``test``
    (a test of one card, or the set of cards that pass).

    The rules call it where what happens next turns on that card (is it
    playable? of the suit led?)::

        playable = self.is_playable(card) if card != UNSEEN else unseen_is(seat, self.is_playable)

    The record answers: yes exactly when its next line is a move by
    ``seat`` (the drawer plays it, or keeps it); the answer is then known of
    that card.
    """
    return _oracle().card(seat, test)


def unseen_can(state: Any, seat: int, able: Callable[[], object]) -> bool:
    """Whether ``seat`` can do what ``able()`` says (it is true, say a list
    of legal plays that is not empty), its unseen cards being what they were.

    With the hand as seen, ``able()`` decides; a hand with unseen cards the
    record answers for: yes exactly when its next line is a move by
    ``seat``.  A no is known of every unseen card it held: none was a card
    that would have made ``able()`` true.
    """
    if able():
        return True
    if UNSEEN not in state.hands[seat]:
        return False
    return _oracle().hand(state, seat, able)


def hands_seen_by(hands: Sequence[Sequence[int]], viewer: int | None) -> tuple[Sequence[int], ...]:
    """A deal's hands as ``viewer`` saw them (``seen_by``): their own, and as
    many unseen cards as each other hand holds."""
    return tuple(hand if seat == viewer else (UNSEEN,) * len(hand) for seat, hand in enumerate(hands))


class UnseenCards(HandsAndStock):
    """Opt-in ability of a :class:`~cardcli.contract.variant.State`: records with unseen cards.

    Inherit it before ``State``.  Its rules must hold :data:`UNSEEN` in a
    hand or the stock as a card that matches nothing (it is in no suit and
    has no rank, never playable, worth nothing), and ask :func:`unseen_is`
    where they look at a card just drawn.  Required: :meth:`cards_taken`
    and :meth:`seen_by`, unless the state names its record events
    (:attr:`events`) and they say which cards each event holds; the rest
    has a default.
    """

    __slots__ = ()
    #: The record's events (the variant's ``events``): where they say which
    #: cards each event holds, :meth:`cards_taken` and :meth:`seen_by` come from them.
    events: ClassVar[Any] = None  # a RecordEvents (not imported: it imports this module)

    def cards_taken(self, action: Action) -> Sequence[int]:
        """The hidden cards ``action`` takes: a decision's, from the hand of
        the seat that makes it (the card played, the cards melded); a chance
        event's, from the stock (the cards dealt or drawn; :data:`UNSEEN`
        for each card nobody saw).  While a drawn card waits to be played
        (:meth:`~cardcli.contract.hidden.HiddenInfo.pending_card`), a decision that
        takes a card takes that one first.  The default reads them from
        :attr:`events` (:meth:`~cardcli.contract.record_fields.RecordEvents.cards_taken`)."""
        try:  # the declared events' function for this kind, called directly: the reading's hot path
            return self.events.taken[action[0]](self, action)
        except (AttributeError, KeyError):  # no events, or none that says: why, from RecordEvents
            return self._record_events("cards_taken").cards_taken(self, action)

    def seen_by(self, action: Action, viewer: int | None) -> Action:
        """The chance event ``action`` as seat ``viewer`` saw it (``None``: a
        spectator): each card it did not see replaced by :data:`UNSEEN`
        (another seat's deal, another seat's draw).  Decisions are seen by
        everyone and come back unchanged.  The default reads it from
        :attr:`events` (:meth:`~cardcli.contract.record_fields.RecordEvents.seen_by`)."""
        try:
            return self.events.seen[action[0]](self, action, viewer)
        except (AttributeError, KeyError):
            return self._record_events("seen_by").seen_by(self, action, viewer)

    def _record_events(self, method: str) -> Any:
        if self.events is None:
            raise NotImplementedError(f"{type(self).__name__} must write {method} or name its record events "
                                      "(events = the variant's RecordEvents)")
        return self.events

    def cards_lacked(self, action: Action) -> CardTest | frozenset[int] | None:
        """The cards the seat making ``action`` cannot have held for it to be
        legal (drawing while a card of the suit led would have to be
        followed), as a test of one card or the set of them, or ``None``.

        The default asks the rules: it puts each card of the pack in place of
        one of the seat's unseen cards and checks ``action``.  That is exact
        and slow; a variant may say it directly, which the conformance kit
        checks against this default."""
        return probe_lacks(self, action)

    def round_end_hands(self) -> Sequence[Sequence[int]] | None:
        """The hands as a round ended, right after the event that ended it
        (``None`` at any other time): what the table shows, and checks
        against a record's ``shown`` line."""
        return None

    def hands_count(self) -> bool:
        """Whether the cards left in hand at a round's end count for the
        result (a score by the cards held): a record must then show hands
        it left unseen.  Default: no (a ranking by how many, which the
        table sees)."""
        return False


def probe_lacks(state: UnseenCards, action: Action) -> CardTest | None:
    """:meth:`UnseenCards.cards_lacked` by asking the rules, card by card."""
    seat = state.current_player()  # type: ignore[attr-defined]  # the State's
    hand = state.hands[seat]
    try:
        index = hand.index(UNSEEN)
    except ValueError:
        return None
    barred = []
    check = state.check  # type: ignore[attr-defined]
    for card in sorted(set(state.deck)):  # type: ignore[attr-defined]
        hand[index] = card
        try:
            check(action)
        except IllegalMove:
            barred.append(card)
    hand[index] = UNSEEN
    return frozenset(barred).__contains__ if barred else None
