"""End of the Page told to people (the narration ability): the log in whole
sentences, a refused move as it was tried, the rule behind each move
(``replay --explain``), a round's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.abilities import Narration
from cardcli.contract.variant import Action
from cardcli.kit.cards import NAME, RANK, RANK_PLURALS, SUIT_NAMES
from cardcli.kit.grammar import name_seats, plural, possessive, seat_name, seat_names
from cardcli.kit.melds import SET, meaning_name, meld_label, meld_text, stands_for
from cardcli.words.narration import RuleWords, after_move, round_end, told_with_draws
from cardcli.words.table_text import hand_text

from .state import (
    DEAL,
    DISCARD,
    DRAW,
    DRAWN,
    HAND_SIZE,
    LAYOFF,
    MELD,
    PICKUP,
    RESHUFFLE,
    TAKE,
    EndOfPageState,
)
from .table import meld_line, sheet_lines

#: What each option says in the header when it differs from the default, in this order.
RULE_WORDS: dict[str, RuleWords] = {
    "decks": lambda value, changed: "decks by table size" if value is None else plural(value, "deck"),
    "page_lines": lambda value, changed: plural(value, "round"),
    "target_score": lambda value, changed: "no target score" if value is None else f"first to {value} points",
    "reshuffles": lambda value, changed: f"{plural(value, 'stock rebuild')} a round",
    "wild_value": lambda value, changed: f"wilds {plural(value, 'point')}",
    "ace_value": lambda value, changed: f"aces {plural(value, 'point')}",
    "high_value": lambda value, changed: f"8 to K {plural(value, 'point')}",
    "low_value": lambda value, changed: f"3 to 7 {plural(value, 'point')}",
}


class EndOfPageNarration(Narration):
    """The narration ability (see the module docstring)."""

    rule_words = RULE_WORDS

    def describe_attempt(self, state: EndOfPageState, action: Action,
                         names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: never whether it goes out or ends the round."""
        kind = action[0]
        rules = state.mrules
        if kind == PICKUP:
            return (f"picked up {NAME[action[1]]} from deeper in the discard pile to meld "
                    f"{meld_text(action[2], rules)}")
        if kind == MELD:
            return f"melded {meld_text(action[1], rules)}"
        if kind == LAYOFF:
            _, index, card, as_rank = action
            return f"laid off {laid_off(state, index, card, as_rank)} on meld {index + 1}"
        if kind == DISCARD:
            return f"discarded {NAME[action[1]]}"
        if kind == DRAWN:
            return f"{seat_name(state.turn, names)} drew {NAME[action[1]]}"
        if kind == RESHUFFLE:
            return "reshuffled the discards into a new stock"
        if kind == DEAL:
            _, seat, cards, _wild = action
            who = names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"
            return f"{who} was dealt {' '.join(NAME[c] for c in cards)}"
        return str(self.describe(state, action, names=names))

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, except that a draw from the stock
        is one line with its card: "ann drew 7D from the stock" (or "drew a card
        from the stock" for the others)."""
        return told_with_draws(self, events, viewer, names,
                               drawn=lambda seat, state, action: action[1:] if action[0] == DRAWN else None,
                               told=lambda state, action, line, cards, last:
                               f"{seat_name(state.turn, names)} {cards} from the stock")

    def rule_behind(self, state: EndOfPageState, action: Action, names: Sequence[str] | None = None) -> str:
        """The rule that allowed or forced a move, from public knowledge only."""
        kind = action[0]
        cfg = state.cfg
        if kind == DRAW:
            return "each turn starts with a draw: from the stock here"
        if kind == TAKE:
            return "each turn starts with a draw: the top discard here, which anyone may take"
        if kind == PICKUP:
            return ("a deeper discard may be taken only to meld it at once with at least two natural cards "
                    "from the hand; the cards above it stay in order; " + _meld_rule(state, action[2]))
        if kind == MELD:
            first = "" if state.melded[state.turn] else "; a first meld opens lay-offs on any meld"
            return _meld_rule(state, action[1]) + first
        if kind == LAYOFF:
            _, index, card, as_rank = action
            meld = state.melds[index]
            owner = possessive(seat_name(state.owners[index], names), alone=False)
            what = f"{owner} {meld_label(meld)}"
            text = f"after a first meld, a card may be laid off on any meld: {NAME[card]} extends {what}"
            if state.is_wild(card):
                means = stands_for(meld, as_rank)
                text += f"; {_wilds(state)}: {NAME[card]} stands for {means}"
            if len(state.hands[state.turn]) == 1:
                text += "; a last card that plays must be played"
            return text
        if kind == DISCARD:
            card = action[1]
            hand = state.hands[state.turn]
            if len(hand) == 1:
                return "a last card that does not play may be discarded to go out"
            text = "each turn ends with one discard"
            if state.is_wild(card):
                text += f"; a wild ({_wilds(state)}) discarded may be taken by the next player"
            return text
        if kind == DEAL:
            _, seat, cards, _wild = action
            size = HAND_SIZE[cards[0]]
            text = f"the turned-up {NAME[cards[0]]} sets the hand: {size} cards"
            if seat == state.dealer:
                text += "; the dealer's first turned card that is not an ace names the wild rank"
            return text
        if kind == RESHUFFLE:
            return (f"the stock ran out: the discards under the top card make a new stock "
                    f"(at most {plural(cfg.reshuffles, 'rebuild')} a round)")
        return ""

    def round_summary(self, state: EndOfPageState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        """When ``action`` ends a round before the last: the round's final table
        (every meld, every hand), what each player scored, and the score sheet."""
        return self._summary(state, action, names, round_end(state, action))

    def last_round_summary(self, state: EndOfPageState, action: Action,
                           names: Sequence[str] | None = None) -> str | None:
        """The same for the last round, which ends the game: its on the table -
        in hand breakdown, and the whole score sheet."""
        return self._summary(state, action, names, round_end(state, action, last=True))

    def _summary(self, state: EndOfPageState, action: Action, names: Sequence[str] | None,
                 after: EndOfPageState | None) -> str | None:
        ended: Any
        if after is not None and after.result() is not None:  # the last round: its table stays as it ended
            ended = (after.hands, after.melds, after.owners, after.layoffs, after.played, after.melded,
                     after.out, after.wild, after.mrules, after.points)
        else:
            ended = getattr(after, "last_round", None)
        if after is None or ended is None:
            return None
        n = state.num_players
        labels = seat_names(names, n)
        table = after.clone()
        (table.hands, table.melds, table.owners, table.layoffs, table.played, table.melded, table.out,
         table.wild, table.mrules, table.points) = ended
        width = max(len(x) for x in labels)
        lines = [f"Round {state.round + 1} of {state.cfg.page_lines} is over: "
                 f"{name_seats(after.notes[-1], labels)}.", "The table as the round ended:"]
        lines.extend([meld_line(table, index, labels) for index in range(len(table.melds))] or ["  no melds"])
        scores = after.round_scores[-1]
        for seat in range(n):
            on_table = sum(table.points[c] for c in table.played[seat])
            in_hand = sum(table.points[c] for c in table.hands[seat])
            hand = hand_text(table.hands[seat], table.wild) if table.hands[seat] else "no cards (out)"
            lines.append(f"  {labels[seat]:<{width}}  {on_table:>4} on the table - {in_hand:>3} in hand "
                         f"= {scores[seat]:>4}   hand: {hand}")
        lines.append("")
        lines.extend(sheet_lines(after, labels))
        return "\n".join(lines)


# -------------------------------------------------------------- the rules
def _wilds(state: EndOfPageState) -> str:
    return f"{RANK_PLURALS[state.wild]} are wild this round"


def _meld_rule(state: EndOfPageState, meld: tuple) -> str:
    """"a run of three or more cards of a suit; 5s are wild this round: 5H stands for QS"."""
    kind, key, _low, cards = meld
    if kind == SET:
        text = f"a set: three or more {RANK_PLURALS[key]}"
    else:
        text = f"a run: three or more {SUIT_NAMES[key]} in sequence"
    wilds = [(i, c) for i, c in enumerate(cards) if state.is_wild(c) and not (
        kind == SET and RANK[c] == key)]
    if wilds:
        stands = ", ".join(f"{NAME[c]} stands for {meaning_name(meld, i)}" for i, c in wilds)
        text += f"; {_wilds(state)}: {stands}"
    return text


def laid_off(state: EndOfPageState, index: int, card: int, as_rank: int) -> str:
    """A card laid off, with what a wild stands for: ``5H (as QS)``.  The
    meld may not exist (a refused move names whatever it was given)."""
    if not state.is_wild(card):
        return NAME[card]
    meld = state.melds[index] if 0 <= index < len(state.melds) else None
    return f"{NAME[card]} (as {stands_for(meld, as_rank)})"


def round_over(state: EndOfPageState, action: Action, names: Sequence[str] | None) -> str:
    """When ``action`` ends the round: that it does, and how when the line
    does not say it already (nothing for an illegal action, which ends
    nothing).  The round's scores are not here: they are the round's summary
    (``round_summary``, shown next) and the score sheet, said once."""
    after = after_move(state, action)
    if after is None or after.round == state.round:
        return ""
    labels = seat_names(names, state.num_players)
    how = name_seats(after.notes[-1], labels)
    if how == f"{labels[state.turn]} went out":  # "discarded 9D and went out" says it
        return f". Round {state.round + 1} is over"
    return f". Round {state.round + 1} is over ({how})"
