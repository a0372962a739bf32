"""Score sheets kept by hand: ``cardcli scoresheet VARIANT``.

A family playing with a real deck writes each round's scores on paper.
cardcli keeps that page instead, and checks it: at the end of each round one
person types what the table shows (for End of the Page, the dealer's wild
card, each player's melds and lay-offs, the cards left in hand), and the
variant's own rules code reads it, refuses what cannot be, and scores it.

* :mod:`.ability`: the ``RoundScores`` ability a variant declares to be kept
  on a sheet, and what it answers;
* :mod:`.rummy`: reading and checking a rummy round's final table with
  :mod:`cardcli.melds`, for any rummy variant that scores table minus hand;
* :mod:`.sheet`: the page (rounds, totals, who leads, undo and edit) and
  the words that change it;
* :mod:`.saved`: the sheet's file, written as it goes, and ``--resume``;
* :mod:`.export`: the page as text, JSON, CSV, a plot and a live page.
"""

from ..round_scores import EntryError, PlayerScore, RoundScores, ScoredRound

__all__ = ["EntryError", "PlayerScore", "RoundScores", "ScoredRound"]
