"""End of the Page told to people: the log in whole
sentences, a refused move as it was tried, the rule behind each move
(``replay --explain``), a round's end, the house rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcli.contract.variant import Action
from cardcli.kit.cards import NAME, RANK, rank_words, suit_words
from cardcli.kit.grammar import listed, possessive, seat_name, seat_names
from cardcli.kit.melds import SET, meaning_name, meld_label, meld_text, stands_for
from cardcli.words.narration import (
    RoundSummaries,
    RuleWords,
    after_move,
    decks_words,
    rounds_words,
    seat_rows,
    told_with_draws,
)
from cardcli.words.table_text import hand_text

from .language import N_, _
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
from .table import meld_line, round_words, sheet_lines

#: A game's reasons as the record writes them (state.py's result: English, seats by number), as
#: people read them: the core finds them here by pattern, ``{count}`` for the one number, ``{name}``
#: for the one seat (a round's note, shown by :func:`.table.round_words`, which also says the notes
#: ``ROUND_ENDS`` and several seats going out); ``{count2}`` for a second number.
REASONS = (N_("the end of the page: {count} round played; highest total wins"),
           N_("the end of the page: {count} rounds played; highest total wins"),
           # Translators: {count} is the total reached, {count2} the round it was reached in.
           N_("a total reached {count} after round {count2}; highest total wins"),
           N_("{name} went out"))


#: What each option says in the header when it differs from the default, in this order (said in
#: the chosen language when the header is made).
RULE_WORDS: dict[str, RuleWords] = {
    "decks": lambda value, changed: _("decks by table size") if value is None else decks_words(value,
                                                                                               changed),
    "page_lines": rounds_words,
    "target_score": lambda value, changed: _("no target score") if value is None else _(
        "first to {score} points").format(score=value),
    "reshuffles": lambda value, changed: _.ngettext("{count:,} stock rebuild a round",
                                                    "{count:,} stock rebuilds a round",
                                                    value).format(count=value),
    "wild_value": lambda value, changed: _.ngettext("wilds {count:,} point", "wilds {count:,} points",
                                                    value).format(count=value),
    "ace_value": lambda value, changed: _.ngettext("aces {count:,} point", "aces {count:,} points",
                                                   value).format(count=value),
    "high_value": lambda value, changed: _.ngettext("8 to K {count:,} point", "8 to K {count:,} points",
                                                    value).format(count=value),
    "low_value": lambda value, changed: _.ngettext("3 to 7 {count:,} point", "3 to 7 {count:,} points",
                                                   value).format(count=value),
}


class EndOfPageNarration(RoundSummaries[EndOfPageState]):
    """End of the Page in words (see the module docstring)."""

    rule_words = RULE_WORDS

    def describe_attempt(self, state: EndOfPageState, action: Action,
                         names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: never whether it goes out or ends the round."""
        kind = action[0]
        if kind == PICKUP:
            return _("picked up {card} from deeper in the discard pile to meld {meld}").format(
                card=NAME[action[1]], meld=meld_text(action[2], state.mrules))
        if kind == MELD:
            return _("melded {meld}").format(meld=meld_text(action[1], state.mrules))
        if kind == LAYOFF:
            _kind, index, card, as_rank = action
            return _("laid off {card} on meld {number}").format(card=laid_off(state, index, card, as_rank),
                                                               number=index + 1)
        if kind == DISCARD:
            return _("discarded {card}").format(card=NAME[action[1]])
        if kind == RESHUFFLE:
            return _("reshuffled the discards into a new stock")
        if kind == DEAL:
            _kind, seat, cards, _wild = action
            who = names[seat] if names and 0 <= seat < len(names) else seat_name(seat, None)
            return _("{name} was dealt {cards}").format(name=who, cards=" ".join(NAME[c] for c in cards))
        return str(self.describe(state, action, names=names))

    def describe_events(self, events: Sequence[tuple[Any, Action]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Each event as ``describe`` says it, except that a draw from the stock
        is one line with its card: "ann drew 7D from the stock" (or "drew a card
        from the stock" for the others)."""
        def told(state: EndOfPageState, action: Action, line: str, cards: str, last: EndOfPageState) -> str:
            # Translators: {drew} is the draw as the core says it ("drew 7D", "drew a card").
            return _("{name} {drew} from the stock").format(name=seat_name(state.turn, names), drew=cards)

        return told_with_draws(self, events, viewer, names,
                               drawn=lambda seat, state, action: action[1:] if action[0] == DRAWN else None,
                               told=told)

    def rule_behind(self, state: EndOfPageState, action: Action, names: Sequence[str] | None = None) -> str:
        """The rule that allowed or forced a move, from public knowledge only: the rule
        and each thing that comes with it are clauses of their own, told one after
        another ("; ")."""
        kind = action[0]
        cfg = state.cfg
        if kind == DRAW:
            return _("each turn starts with a draw: from the stock here")
        if kind == TAKE:
            return _("each turn starts with a draw: the top discard here, which anyone may take")
        if kind == PICKUP:
            return "; ".join([_("a deeper discard may be taken only to meld it at once with at least two "
                                "natural cards from the hand; the cards above it stay in order"),
                              _meld_rule(state, action[2])])
        if kind == MELD:
            clauses = [_meld_rule(state, action[1])]
            if not state.melded[state.turn]:
                clauses.append(_("a first meld opens lay-offs on any meld"))
            return "; ".join(clauses)
        if kind == LAYOFF:
            _kind, index, card, as_rank = action
            meld = state.melds[index]
            owner = possessive(seat_name(state.owners[index], names), alone=False)
            # Translators: {owner} is a player's name as owner ("ann's"), {meld} what the meld is
            # ("set of 5s", "run of hearts").
            clauses = [_("after a first meld, a card may be laid off on any meld: {card} extends {owner} "
                         "{meld}").format(card=NAME[card], owner=owner, meld=meld_label(meld))]
            if state.is_wild(card):
                clauses.append(_wilds_stand(state, [(NAME[card], stands_for(meld, as_rank))]))
            if len(state.hands[state.turn]) == 1:
                clauses.append(_("a last card that plays must be played"))
            return "; ".join(clauses)
        if kind == DISCARD:
            card = action[1]
            hand = state.hands[state.turn]
            if len(hand) == 1:
                return _("a last card that does not play may be discarded to go out")
            clauses = [_("each turn ends with one discard")]
            if state.is_wild(card):
                clauses.append(_("a wild ({ranks} are wild this round) discarded may be taken by the next "
                                 "player").format(ranks=rank_words(state.wild)))
            return "; ".join(clauses)
        if kind == DEAL:
            _kind, seat, cards, _wild = action
            clauses = [_("the turned-up {card} sets the hand: {count} cards").format(
                card=NAME[cards[0]], count=HAND_SIZE[cards[0]])]
            if seat == state.dealer:
                clauses.append(_("the dealer's first turned card that is not an ace names the wild rank"))
            return "; ".join(clauses)
        if kind == RESHUFFLE:
            return _.ngettext("the stock ran out: the discards under the top card make a new stock (at most "
                              "{count:,} rebuild a round)",
                              "the stock ran out: the discards under the top card make a new stock (at most "
                              "{count:,} rebuilds a round)", cfg.reshuffles).format(count=cfg.reshuffles)
        return ""

    def round_table(self, state: EndOfPageState, after: EndOfPageState,
                    names: Sequence[str] | None) -> str | None:
        """The round's final table (every meld, every hand), what each player
        scored, and the score sheet (the whole of it after the last round)."""
        table = after.table_as_ended()
        if table is None:
            return None
        labels = seat_names(names, state.num_players)
        how = round_words(after.notes[-1], labels)
        lines = [_("Round {round} of {rounds} is over: {how}.").format(round=state.round + 1,
                                                                       rounds=state.cfg.page_lines, how=how),
                 _("The table as the round ended:")]
        lines.extend([meld_line(table, index, labels) for index in range(len(table.melds))]
                     or ["  " + _("no melds")])
        scores = after.round_scores[-1]

        def row(seat: int, name: str) -> str:
            hand = hand_text(table.hands[seat], table.wild) if table.hands[seat] else _("no cards (out)")
            # Translators: a player's points this round: on the table, less those in hand, make the
            # round's score.  The fields are padded to line up in columns.
            return _("{name}  {table} on the table - {in_hand} in hand = {score}   hand: {hand}").format(
                name=name, table=f"{sum(table.points[c] for c in table.played[seat]):>4}",
                in_hand=f"{sum(table.points[c] for c in table.hands[seat]):>3}", score=f"{scores[seat]:>4}",
                hand=hand)

        lines.extend([*seat_rows(names, state.num_players, row), ""])
        lines.extend(sheet_lines(after, labels))
        return "\n".join(lines)


# -------------------------------------------------------------- the rules
def _wilds_stand(state: EndOfPageState, stands: list[tuple[str, str]]) -> str:
    """"5s are wild this round: 5H stands for QS": the wild rank, and what each wild
    of a move (``stands``: its name and what it stands for) stands for."""
    said = listed([_("{card} stands for {means}").format(card=card, means=means) for card, means in stands])
    return _("{ranks} are wild this round: {stands}").format(ranks=rank_words(state.wild), stands=said)


def _meld_rule(state: EndOfPageState, meld: tuple) -> str:
    """"a run of three or more cards of a suit; 5s are wild this round: 5H stands for QS"."""
    kind, key, _low, cards = meld
    if kind == SET:
        text = _("a set: three or more {ranks}").format(ranks=rank_words(key))
    else:
        text = _("a run: three or more {suits} in sequence").format(suits=suit_words(key))
    wilds = [(i, c) for i, c in enumerate(cards) if state.is_wild(c) and not (
        kind == SET and RANK[c] == key)]
    if wilds:
        return "; ".join([text, _wilds_stand(state, [(NAME[c], meaning_name(meld, i)) for i, c in wilds])])
    return text


def laid_off(state: EndOfPageState, index: int, card: int, as_rank: int) -> str:
    """A card laid off, with what a wild stands for: ``5H (as QS)``.  The
    meld may not exist (a refused move names whatever it was given)."""
    if not state.is_wild(card):
        return NAME[card]
    meld = state.melds[index] if 0 <= index < len(state.melds) else None
    return _("{card} (as {means})").format(card=NAME[card], means=stands_for(meld, as_rank))


def round_over(state: EndOfPageState, action: Action, names: Sequence[str] | None) -> str:
    """When ``action`` ends the round, a sentence saying so, and how where the line does not
    (its leading ". " ends the line's); the scores are said once, by the round's summary."""
    after = after_move(state, action)
    if after is None or after.round == state.round:
        return ""
    note = after.notes[-1]
    if note == f"seat {state.turn} went out":  # "discarded 9D and went out" says it
        # Translators: a sentence put after a move's line ("discarded 9D and went out"); its ". "
        # ends that line's sentence.
        return _(". Round {round} is over").format(round=state.round + 1)
    how = round_words(note, seat_names(names, state.num_players))
    # Translators: as ". Round {round} is over", with how the round ended ("ann went out").
    return _(". Round {round} is over ({how})").format(round=state.round + 1, how=how)
