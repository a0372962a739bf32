"""The ``RoundScores`` ability: a round scored from what a family writes down at its end.

The core keeps the sheet (its rounds, the dealer moving left, the totals, who
leads, undo and edit, the file, the exports and the live page) and knows no
game.  A variant that declares this ability reads one round's entries in its
own words, checks them with its own rules code and scores them: it is asked
again, from the start of the round, after every entry, so it holds no state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..kit.errors import CardcliError

#: What was checked of a player's score: every meld and lay-off against the
#: rules, only the cards (counted, every one against the pack), or nothing
#: (a score entered by hand).
MELDS, CARDS, BY_HAND = "melds", "cards", "by hand"


@dataclass(frozen=True)
class PlayerScore:
    """One player's score for a round, and how it was reached."""

    score: int
    #: How the score was reached, in words: ``110 on the table - 5 in hand``.
    detail: str = ""
    #: What was checked: :data:`MELDS` or :data:`CARDS` (the core marks :data:`BY_HAND`).
    checked: str = MELDS
    #: ``detail`` in the language chosen, for people (``detail`` itself is data: ``--json``).
    shown: str = ""

    @property
    def said(self) -> str:
        """How the score was reached, as people read it."""
        return self.shown or self.detail


@dataclass(frozen=True)
class ScoredRound:
    """A round as the variant read it: its opening as the sheet writes it
    (``3H``), a note for the page (``3s wild``), and the score of each seat
    whose cards were entered."""

    opening: str
    note: str
    players: Mapping[int, PlayerScore]
    #: The note as people read it, in the chosen language (``note`` itself, the
    #: sheet's data for ``--json`` and CSV, stays English).
    said: str = ""

    @property
    def shown(self) -> str:
        """The note for the page: :attr:`said`, else :attr:`note`."""
        return self.said or self.note


class EntryError(CardcliError, ValueError):
    """A round's entry the rules refuse, in words; ``seat`` is the player
    whose entry it is (``None``: the round's opening)."""

    def __init__(self, message: str, seat: int | None = None):
        super().__init__(message)
        self.message = message
        self.seat = seat


class RoundScores:
    """Opt-in ability of a :class:`~cardcli.contract.variant.Variant`: ``cardcli scoresheet``.

    A round starts with :attr:`opening_word` and what follows it (End of the
    Page: ``wild 3H``, the dealer's wild card); then each player's line, in
    the variant's words (``meld 4S 4H 3D=4, hand 7D``).  The core handles
    every other word (``mom score 105`` by hand, ``undo``, ``edit 2``).
    """

    __slots__ = ()
    #: The word that starts a round, and what follows it, for prompts and help.
    opening_word: ClassVar[str] = "round"
    opening_prompt: ClassVar[str] = "the round"
    opening_example: ClassVar[str] = "round 1"
    #: A player's words, for ``help``: a line per form, an example each.
    line_help: ClassVar[tuple[str, ...]] = ()
    #: The option that says how many rounds fill the page (``--page-lines``), if any.
    rounds_option: ClassVar[str | None] = None
    #: Whether the lowest total wins (the page's leader is the lowest then).
    lower_wins: ClassVar[bool] = False

    def score_round(self, rules: Mapping[str, Any], names: Sequence[str], dealer: int, opening: str,
                    lines: Mapping[int, str | None]) -> ScoredRound:
        """Read and score a round: ``opening`` (what followed the opening
        word) and ``lines``, each seat's words in the order they were entered
        (``None`` for a seat whose score was entered by hand: its cards are
        not known).  Every seat is in ``lines`` once the round is complete;
        before, check what can be checked already.  Raise :class:`EntryError`
        saying what the rules refuse, and whose entry it is."""
        raise NotImplementedError

    def sheet_over(self, rules: Mapping[str, Any], num_players: int, totals: Sequence[int],
                   rounds: int) -> str | None:
        """Why the game is over after ``rounds`` complete rounds with these
        ``totals`` (``the end of the page: 10 rounds played``), or ``None``."""
        return None
