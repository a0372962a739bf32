"""A variant's opt-in abilities, one import away.

The contract every variant fulfils is :mod:`cardcli.variant`: a
:class:`~cardcli.variant.State` and a :class:`~cardcli.variant.Variant`.
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
  end, for ``cardcli scoresheet`` (:mod:`cardcli.scoresheet`).
"""

from __future__ import annotations

from typing import Any

from .hidden import HandsAndStock, HiddenInfo
from .narration import Narration
from .prompts import Prompts
from .scoresheet.ability import RoundScores
from .unseen import UNSEEN, UnseenCards, hands_seen_by, unseen_can, unseen_is
from .view import TableData

__all__ = ["UNSEEN", "Checkpoints", "HandsAndStock", "HiddenInfo", "Narration", "Prompts", "RoundScores",
           "TableData", "UnseenCards", "checkpoint", "hands_seen_by", "unseen_can", "unseen_is"]


class Checkpoints:
    """Opt-in ability of a :class:`~cardcli.variant.Variant`: checkpoint lines."""

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
