"""End of the Page told to people: the log in whole sentences, the rule
behind each move (``replay --explain``), a round's end, the house rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import NAME, RANK, RANK_NAMES
from cardcli.melds import RUN, SET, meaning_name
from cardcli.variant import after_move, event_line
from cardcli.words import name_seats, plural, possessive, seat_name

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


# ----------------------------------------------------------------- the log
def describe_events(variant: Any, events: Sequence[tuple[EndOfPageState, Any]], viewer: int | None,
                    names: Sequence[str] | None) -> list[str]:
    """Each event as ``describe`` says it, except that a draw from the stock
    is one line with its card: "ann drew 7D from the stock" (or "drew a card
    from the stock" for the others)."""
    lines: list[str] = []
    index = 0
    while index < len(events):
        state, action = events[index]
        index += 1
        if action[0] == DRAW and index < len(events) and events[index][1][0] == DRAWN:
            drawn = events[index][1]
            index += 1
            seat = state.turn
            card = NAME[drawn[1]] if viewer is None or viewer == seat else "a card"
            lines.append(f"{seat_name(seat, names)} drew {card} from the stock")
            continue
        lines.append(event_line(variant, state, action, viewer, names))
    return lines


# -------------------------------------------------------------- the rules
def explain(state: EndOfPageState, action: Any, names: Sequence[str] | None) -> str:
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
        what = f"{owner} set of {RANK_NAMES[meld[1]]}s" if meld[0] == SET else \
            f"{owner} run of {('spades', 'hearts', 'diamonds', 'clubs')[meld[1]]}"
        text = f"after a first meld, a card may be laid off on any meld: {NAME[card]} extends {what}"
        if state.is_wild(card):
            means = RANK_NAMES[as_rank] + ("SHDC"[meld[1]] if meld[0] == RUN else "")
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


def _wilds(state: EndOfPageState) -> str:
    return f"{RANK_NAMES[state.wild]}s are wild this round"


def _meld_rule(state: EndOfPageState, meld: tuple) -> str:
    """"a run of three or more cards of a suit; 5s are wild this round: 5H stands for QS"."""
    kind, key, _low, cards = meld
    if kind == SET:
        text = f"a set: three or more {RANK_NAMES[key]}s"
    else:
        text = f"a run: three or more {('spades', 'hearts', 'diamonds', 'clubs')[key]} in sequence"
    wilds = [(i, c) for i, c in enumerate(cards) if state.is_wild(c) and not (
        kind == SET and RANK[c] == key)]
    if wilds:
        stands = ", ".join(f"{NAME[c]} stands for {meaning_name(meld, i)}" for i, c in wilds)
        text += f"; {_wilds(state)}: {stands}"
    return text


# ------------------------------------------------------------ a round's end
def round_summary(state: EndOfPageState, action: Any, names: Sequence[str] | None) -> str | None:
    """When ``action`` ends a round before the last: the round's final table
    (every meld, every hand), what each player scored, and the score sheet."""
    from .variant import hand_text, meld_display, score_sheet

    after = after_move(state, action)
    ended = getattr(after, "last_round", None)
    if after is None or after.round == state.round or after.result() is not None or ended is None:
        return None
    n = state.num_players
    labels = [seat_name(s, names) for s in range(n)]
    table = after.clone()
    (table.hands, table.melds, table.owners, table.layoffs, table.played, table.melded, table.out,
     table.wild, table.mrules, table.points) = ended
    width = max(len(x) for x in labels)
    lines = [f"Round {state.round + 1} of {state.cfg.page_lines} is over: "
             f"{name_seats(after.notes[-1], labels)}.", "The table as the round ended:"]
    if table.melds:
        for index in range(len(table.melds)):
            lines.append(f"  {index + 1}. {labels[table.owners[index]]}: {meld_display(table, index)}")
    else:
        lines.append("  no melds")
    scores = after.round_scores[-1]
    for seat in range(n):
        on_table = sum(table.points[c] for c in table.played[seat])
        in_hand = sum(table.points[c] for c in table.hands[seat])
        hand = hand_text(table, table.hands[seat]) if table.hands[seat] else "no cards (out)"
        lines.append(f"  {labels[seat]:<{width}}  {on_table:>4} on the table - {in_hand:>3} in hand "
                     f"= {scores[seat]:>4}   hand: {hand}")
    lines.append("")
    lines.extend(score_sheet(after, labels))
    return "\n".join(lines)


# ---------------------------------------------------------- the house rules
def rules_summary(changed: Mapping[str, Any]) -> list[str]:
    """The house rules ``changed`` from the defaults
    (:func:`cardcli.options.changed_options`), in a few words each."""
    said: list[str] = []
    if "decks" in changed:
        said.append("decks by table size" if changed["decks"] is None else plural(changed["decks"], "deck"))
    if "page_lines" in changed:
        said.append(plural(changed["page_lines"], "round"))
    if "target_score" in changed:
        target = changed["target_score"]
        said.append("no target score" if target is None else f"first to {target} points")
    if "reshuffles" in changed:
        said.append(f"{plural(changed['reshuffles'], 'stock rebuild')} a round")
    for key, what in (("wild_value", "wilds"), ("ace_value", "aces"), ("high_value", "8 to K"),
                      ("low_value", "3 to 7")):
        if key in changed:
            said.append(f"{what} {plural(changed[key], 'point')}")
    return said


__all__ = ["describe_events", "explain", "round_summary", "rules_summary"]
