"""A state's opt-in abilities, and the score sheet, one import away.

The contract every variant fulfils is :mod:`cardcli.contract.variant`: a
:class:`~cardcli.contract.variant.State` and a :class:`~cardcli.contract.variant.Variant`,
whose optional methods (its own words, table data, typed moves, checkpoints)
have the core's defaults.  What more a variant does is an *ability* it
declares by inheriting it, and the core asks for it with ``isinstance``:

* :class:`HiddenInfo` (on the state): what each seat can see, and re-dealing
  the rest: ``cpu:hard``, hints, ``replay --explain``'s ratings and the
  privacy check.  :class:`HandsAndStock` writes it for the usual layout.
* :class:`UnseenCards` (on the state, with :class:`HandsAndStock`'s
  layout): records of a real table, with cards nobody saw (``"??"``):
  ``validate`` checks them exactly, ``export`` writes one seat's view.
* :class:`RoundScores` (on the variant): a round scored from what a family
  writes down at its end, for ``cardcli scoresheet`` (:mod:`cardcli.realtable.sheet`).
"""

from __future__ import annotations

from .hidden import HandsAndStock, HiddenInfo
from .round_scores import RoundScores
from .unseen import UNSEEN, UnseenCards, hands_seen_by, unseen_can, unseen_is

__all__ = ["UNSEEN", "HandsAndStock", "HiddenInfo", "RoundScores", "UnseenCards", "hands_seen_by",
           "unseen_can", "unseen_is"]
