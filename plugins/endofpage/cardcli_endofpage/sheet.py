"""End of the Page kept on a score sheet (the ``RoundScores`` ability): a
round from its final table, checked by the meld rules and scored by the
points of this game's rules, as a round played here is scored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.contract.options import cached_config
from cardcli.contract.round_scores import EntryError, RoundScores, ScoredRound
from cardcli.contract.rummy import LINE_HELP, RummyRound, score_lines
from cardcli.kit.cards import NAME, RANK, RANK_NAMES, build_deck

from .config import Config, card_of_pack, decks_for
from .language import N_, _
from .state import meld_rules


class EndOfPageSheet(RoundScores):
    """A round is the dealer's wild card (``wild 3H``), then each player's
    melds, lay-offs and hand (:mod:`cardcli.contract.rummy`)."""

    opening_word = "wild"  # typed: the word that starts a round
    opening_prompt = N_("the dealer's wild card")  # said through the variant's catalog where shown
    opening_example = "wild 3H"
    line_help = LINE_HELP
    rounds_option = "page_lines"

    def score_round(self, rules: Mapping[str, Any], names: Sequence[str], dealer: int, opening: str,
                    lines: Mapping[int, str | None]) -> ScoredRound:
        try:
            wild = card_of_pack(opening.strip(), "wild card")
        except ValueError as error:
            raise EntryError(_("the dealer's wild card: {problem}").format(problem=error)) from None
        if RANK[wild] == 14:
            raise EntryError(_("the dealer's wild card is never an ace: the dealer turns up cards until one "
                               "is not an ace, and that one names the wild rank"))
        cfg = cached_config(Config, rules, len(names))
        rank = RANK[wild]
        game = RummyRound(meld_rules(rank), cfg.points_table(rank),
                          build_deck(decks_for(rules, len(names)), without_ranks=(2,)), card_of_pack)
        note = f"{RANK_NAMES[rank]}s wild"  # the sheet's data (--json, CSV): English
        # Translators: the round's note on the score sheet: its wild rank ("3s wild").
        said = _("{rank}s wild").format(rank=RANK_NAMES[rank])
        return ScoredRound(NAME[wild], note, score_lines(game, names, lines), said)

    def sheet_over(self, rules: Mapping[str, Any], num_players: int, totals: Sequence[int],
                   rounds: int) -> str | None:
        cfg = cached_config(Config, rules, num_players)
        if cfg.target_score is not None and max(totals) >= cfg.target_score:
            return _("a total reached {score} after round {round}").format(score=cfg.target_score,
                                                                           round=rounds)
        if rounds >= cfg.page_lines:
            return _.ngettext("the end of the page: {count:,} round played",
                              "the end of the page: {count:,} rounds played", rounds).format(count=rounds)
        return None
