"""Trick-taking Page One's table, as text for the terminal and as data for the served page."""

from __future__ import annotations

from collections.abc import Sequence

from cardcli.contract.variant import Action, Variant
from cardcli.contract.views import MoveView, Pile, PlayerView, TableView
from cardcli.kit.cards import NAME, UNSEEN, suit_words
from cardcli.kit.grammar import listed, seat_name, seat_names
from cardcli.words.narration import reason_said
from cardcli.words.table_text import hands_shown, played_by, seat_rows
from cardcli.words.view import generic_move_view, seat_views, viewer_cards

from .language import _
from .state import D_PENALTY, DRAW, P_DRAW, P_FORCED, P_OVER, PLAY, TrickState


def render(state: TrickState, viewer: int | None = None, names: Sequence[str] | None = None,
           rows: list[PlayerView] | None = None) -> str:
    """The table as text (``rows``: the players' rows, where the table's data has them already)."""
    names = seat_names(names, state.num_players)
    cfg = state.cfg
    head = [_deal(state)] if cfg.deals > 1 else []
    head.append(_("stock: {count}").format(count=len(state.stock)))
    cards = len(state.tricks)
    done = _.ngettext("finished tricks: {tricks} ({count:,} card)",
                      "finished tricks: {tricks} ({count:,} cards)", cards)
    head.append(done.format(tricks=state.tricks_done, count=cards))
    lines = [" | ".join(head)]
    if cfg.deals > 1:
        lines.append(tally_text(state, names))
    trick, last = _trick_piles(state, names)
    if last is not None and state.last_trick is not None:
        winner = names[state.last_trick[2]]
        lines.append((_("Last trick: {played}  (won by {name})") if state.trick else
                      _("Last trick: {played}  (won by {name}, who leads)")).format(played=played_by(last),
                                                                                   name=winner))
    if trick is not None:
        if state.phase == P_OVER:
            lines.append(_("Trick left unfinished: {played}").format(played=played_by(trick)))
        else:
            lines.append(_("Trick: {played}  ({note})").format(played=played_by(trick), note=trick.note))
    lines.extend(seat_rows(rows or players(state, names), state.acting(), hands_shown(state.hands, viewer)))
    if _drawing(state, names):
        lines.append(_drawing(state, names))
    if state.phase == P_FORCED and (viewer is None or viewer == state.turn):
        lines.append(_forced(state))
    return "\n".join(lines)


def _forced(state: TrickState) -> str:
    if state.forced == UNSEEN:  # a real table's record: played only if it follows
        return _("Drawn card: not seen (played if it follows, else the drawing goes on)")
    return _("Drawn card {card} must be played").format(card=NAME[state.forced])


class TrickTable(Variant[TrickState]):
    """The table as data; a move: a card to play, the Page One call as a declaration, drawing a button."""

    def table_view(self, state: TrickState, viewer: int | None, names: Sequence[str]) -> TableView:
        cfg = state.cfg
        piles = [pile for pile in _trick_piles(state, names) if pile is not None]
        piles.append(Pile(_("stock"), [], len(state.stock)))
        piles.append(Pile(_("finished tricks"), [], len(state.tricks)))
        notes = [_deal(state), tally_text(state, names)] if cfg.deals > 1 else []
        if _drawing(state, names):
            notes.append(_drawing(state, names))
        if state.phase == P_FORCED and viewer == state.turn:
            notes.append(_forced(state))
        if state.phase == P_OVER and state.round_reason and cfg.deals == 1:
            notes.append(_("Deal over: {why}").format(why=_reason(self, state, names)))
        rows = players(state, names)
        return TableView(viewer, state.acting(), rows, viewer_cards(state.hands, viewer), piles=piles,
                         notes=notes, text=render(state, viewer, names, rows))

    def move_view(self, state: TrickState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        if action[0] == PLAY:
            card, call = action[1], action[2]
            label = _("call \"Page One!\" and play {card}") if call else _("play {card}")
            return MoveView("play", label.format(card=NAME[card]), [NAME[card]],
                            declare=_("Page One!") if call else "")
        if action[0] == DRAW:
            return MoveView("draw", _("draw from the stock"))
        return generic_move_view(self, state, seat, action, names)


def players(state: TrickState, names: Sequence[str]) -> list[PlayerView]:
    """Each seat as the table shows it: Page One, and the deals won in a match."""
    return seat_views(state.hands, names, state.dealer,
                      lambda seat, hand: [_("Page One")] if len(hand) == 1 and state.phase != P_OVER else [],
                      lambda seat: _.ngettext("{count:,} deal won", "{count:,} deals won",
                                              state.totals[seat]).format(count=state.totals[seat])
                      if state.cfg.deals > 1 else "")


def tally_text(state: TrickState, names: Sequence[str] | None) -> str:
    """``Deal 2 won by ann; deals won: ann 1, bob 1`` (the deal just finished, then the tally)."""
    # Translators: a player and the deals they have won, one of a list ("ann 1, bob 1").
    tally = listed([_("{name} {count}").format(name=seat_name(s, names), count=state.totals[s])
                    for s in range(state.num_players)])
    if not state.deal_winners:
        return _("Deals won: {tally}").format(tally=tally)
    number = len(state.deal_winners)
    last = state.deal_winners[-1]
    if last is None:
        return _("Deal {deal} called off (counts for nobody); deals won: {tally}").format(deal=number,
                                                                                          tally=tally)
    return _("Deal {deal} won by {name}; deals won: {tally}").format(deal=number, name=seat_name(last, names),
                                                                    tally=tally)


def _trick_piles(state: TrickState, names: Sequence[str]) -> tuple[Pile | None, Pile | None]:
    """The trick on the table (who played what, and who is winning it) and the last trick, where there are."""
    trick = last = None
    if state.trick:
        if state.phase == P_OVER:
            note = _("left unfinished")
        elif state.suit >= 0:
            note = _("{suits} to follow; winning: {name} with {card}").format(
                suits=suit_words(state.suit), name=names[state.trick_seats[state.win_pos]],
                card=NAME[state.trick[state.win_pos]])
        else:
            note = _("joker led: the next card sets the suit")
        trick = Pile(_("trick"), [NAME[c] for c in state.trick], len(state.trick),
                     [names[s] for s in state.trick_seats], note)
    if state.last_trick is not None and (state.phase != P_OVER or state.trick):
        cards, seats, winner = state.last_trick
        last = Pile(_("last trick"), [NAME[c] for c in cards], len(cards), [names[s] for s in seats],
                    _("won by {name}").format(name=names[winner]))
    return trick, last


def _deal(state: TrickState) -> str:
    return _("Deal {deal} of {deals}").format(deal=min(state.round + 1, state.cfg.deals),
                                              deals=state.cfg.deals)


def _drawing(state: TrickState, names: Sequence[str]) -> str:
    if state.phase == P_DRAW and state.draw_for != D_PENALTY and state.drawn_now:
        count = state.drawn_now
        text = _.ngettext("{name} is drawing: {count:,} card so far",
                          "{name} is drawing: {count:,} cards so far", count)
        return text.format(name=names[state.draw_seat], count=count)
    return ""


def _reason(variant: TrickTable, state: TrickState, names: Sequence[str]) -> str:
    """How the deal ended; one called off, and why (the record's words after "the hand was called off: ")."""
    if state.deal_winners[-1] is not None:
        return reason_said(variant, state.round_reason, names)
    why = reason_said(variant, state.round_reason.partition(": ")[2], names)
    return _("called off as a draw ({why})").format(why=why) if why else _("called off as a draw")
