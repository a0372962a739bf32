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
from cardcli.kit.grammar import plural

from .config import Config, card_of_pack, decks_for
from .state import meld_rules


class EndOfPageSheet(RoundScores):
    """A round is the dealer's wild card (``wild 3H``), then each player's
    melds, lay-offs and hand (:mod:`cardcli.contract.rummy`)."""

    opening_word = "wild"
    opening_prompt = "the dealer's wild card"
    opening_example = "wild 3H"
    line_help = LINE_HELP
    rounds_option = "page_lines"

    def score_round(self, rules: Mapping[str, Any], names: Sequence[str], dealer: int, opening: str,
                    lines: Mapping[int, str | None]) -> ScoredRound:
        try:
            wild = card_of_pack(opening.strip(), "wild card")
        except ValueError as error:
            raise EntryError(f"the dealer's wild card: {error}") from None
        if RANK[wild] == 14:
            raise EntryError("the dealer's wild card is never an ace: the dealer turns up cards until one "
                             "is not an ace, and that one names the wild rank")
        cfg = cached_config(Config, rules, len(names))
        rank = RANK[wild]
        game = RummyRound(meld_rules(rank), cfg.points_table(rank),
                          build_deck(decks_for(rules, len(names)), without_ranks=(2,)), card_of_pack)
        return ScoredRound(NAME[wild], f"{RANK_NAMES[rank]}s wild", score_lines(game, names, lines))

    def sheet_over(self, rules: Mapping[str, Any], num_players: int, totals: Sequence[int],
                   rounds: int) -> str | None:
        cfg = cached_config(Config, rules, num_players)
        if cfg.target_score is not None and max(totals) >= cfg.target_score:
            return f"a total reached {cfg.target_score} after round {rounds}"
        if rounds >= cfg.page_lines:
            return f"the end of the page: {plural(rounds, 'round')} played"
        return None
