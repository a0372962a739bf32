"""A state whose phase says who acts: the usual shape of a card game's state.

Every built-in variant keeps a ``phase`` (dealing, a seat's turn, drawing,
over...), the seat whose ``turn`` it is, and the game's ``_result`` once it
is over.  Who acts then follows from the phase alone, and writing that out in
each variant was the same seven lines three times.  A state that inherits
:class:`PhasedState` names its phases instead::

    class MyState(PhasedState):
        decision_phases = (P_PLAY, P_DRAW)   # the seat in ``turn`` decides
        over_phase = P_OVER                  # nobody acts; ``_result`` is set
        __slots__ = ("phase", "turn", "_result", ...)

and every other phase is a chance node.  Its actions are tuples, their
kind first: ``check`` refuses anything else before the rules look.
``current_player`` is the hottest call of simulation and search, so it is
built once per class with the phases bound in, as fast as by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..kit.errors import IllegalMove
from ..kit.language import core as _
from ..kit.results import Result
from .variant import CHANCE, TERMINAL, Action, State

__all__ = ["PhasedState"]


class PhasedState(State):
    """A :class:`~cardcli.contract.variant.State` whose ``current_player`` and
    ``result`` come from its ``phase``, ``turn`` and ``_result`` slots."""

    __slots__ = ()
    #: The phases in which the seat in ``turn`` decides.
    decision_phases: ClassVar[tuple[int, ...]]
    #: The phase of a finished game.
    over_phase: ClassVar[int]
    #: The chance phases in which the deck acts for a seat (it draws), each with the slot holding
    #: that seat (``{P_DRAW: "draw_seat"}``): the table points at it then (:meth:`acting`).
    chance_seats: ClassVar[Mapping[int, str]] = {}
    phase: int
    turn: int
    _result: Result | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "current_player" not in cls.__dict__ and hasattr(cls, "decision_phases"):
            cls.current_player = _current_player(tuple(cls.decision_phases), cls.over_phase)  # type: ignore[method-assign]
        super().__init_subclass__(**kwargs)

    def current_player(self) -> int:
        """The seat in ``turn`` in a decision phase, nobody once over, else chance."""
        raise TypeError(f"{type(self).__name__} names no decision_phases and over_phase")

    def result(self) -> Result | None:
        return self._result

    def acting(self) -> int:
        """The seat the table points at: the one to decide, or the one the deck acts for
        (:attr:`chance_seats`)."""
        player = self.current_player()
        slot = self.chance_seats.get(self.phase) if player == CHANCE else None
        return getattr(self, slot) if slot else player

    def check(self, action: Action) -> None:
        """As :meth:`State.check`, for actions that are tuples, their kind
        first: anything else is refused as no action before the rules look
        (so ``check_chance`` and ``check_decision`` may read ``action[0]``).
        Written out rather than calling it: ``check`` runs for every event
        ``validate`` reads, and a call more is a frame more each time."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMove(_("the game is over"))
        if not isinstance(action, tuple) or not action:
            raise IllegalMove(_("not an action: {action!r}").format(action=action))
        if player == CHANCE:
            self.check_chance(action)
        else:
            self.check_decision(action)

    def not_a_move(self, action: Any, kinds: Sequence[Any], play: Any, size: int, cards: int) -> str | None:
        """Why ``action`` is no move at all, for ``why_illegal`` (which may be given anything): not a
        tuple, not of the ``kinds`` of move, or a ``play`` not ``size`` long or of no card ``0..cards-1``
        (its second item); ``None`` for a move."""
        if not isinstance(action, tuple) or not action or \
                (action[0] == play and (len(action) != size or action[1] not in range(cards))):
            return _("not an action: {action!r}").format(action=action)
        if action[0] not in kinds:
            return _("it is seat {seat}'s turn, not a chance event").format(seat=self.turn)
        return None

    def expect(self, action: Action, kind: Any) -> None:
        """Refuse a chance outcome of another kind than ``kind``, the one
        this phase waits for: "expected the deal", in :meth:`check_chance`."""
        if action[0] != kind:
            # Translators: a chance event of another kind than the rules wait for ({what}: "the deal").
            raise IllegalMove(_("expected {what}").format(what=self.expecting()))


def _current_player(decide: tuple[int, ...], over: int) -> Any:
    def current_player(self: PhasedState) -> int:
        """The seat in ``turn`` in a decision phase, nobody once over, else chance."""
        phase = self.phase
        if phase in decide:
            return self.turn
        return TERMINAL if phase == over else CHANCE
    return current_player
