"""End of the Page as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.contract.match import round_end_checkpoint
from cardcli.contract.options import cached_config
from cardcli.contract.record_fields import (
    Card,
    Cards,
    Custom,
    Event,
    RecordEvents,
    Reshuffle,
    Seat,
    Stated,
    cards_field,
)
from cardcli.contract.variant import Action, Rules, Variant
from cardcli.kit.cards import NAME, RANK, build_deck, rank_words
from cardcli.kit.grammar import possessive, seat_name
from cardcli.kit.melds import Meld, meaning_on, meld_from_names, meld_text, stands_for

from . import cpu
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, decks_for
from .config import card_of_pack as _card
from .dialogue import EndOfPagePrompts
from .language import N_, _
from .narrate import EndOfPageNarration, laid_off, round_over
from .sheet import EndOfPageSheet
from .state import (
    DEAL,
    DISCARD,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    LAYOFF,
    MELD,
    PICKUP,
    RESHUFFLE,
    TAKE,
    TURN_UP,
    EndOfPageState,
    wild_of,
)
from .table import EndOfPageTable, render_table


def parse_meld_items(items: Any, state: EndOfPageState) -> Meld:
    """A meld from record notation: ``["4C", "3H=5C", "6C"]``."""
    return meld_from_names(items, state.mrules, _card)


def _meld_names(meld: Meld, state: EndOfPageState) -> list[str]:
    return meld_text(meld, state.mrules).split()


def _encode_layoff(state: EndOfPageState, action: Action) -> dict[str, Any]:
    """The meld's number counts from 1; ``as``, what a wild card stands for, only for a wild card."""
    _kind, index, card, as_rank = action
    data: dict[str, Any] = {"move": "layoff", "card": NAME[card], "meld": index + 1}
    if state.is_wild(card):
        meld = state.melds[index] if 0 <= index < len(state.melds) else None
        data["as"] = stands_for(meld, as_rank)
    return data


def _decode_layoff(state: EndOfPageState, data: Mapping[str, Any]) -> Action:
    card = _card(data.get("card"))
    number = data.get("meld")
    if type(number) is not int:
        raise ValueError(_("'meld' must be the number of a meld on the table (1 for the first)"))
    meld = state.melds[number - 1] if 0 < number <= len(state.melds) else None
    return (LAYOFF, number - 1, card, meaning_on(meld, card, data.get("as"), state.mrules, number))


def _decode_draw(state: EndOfPageState, data: Mapping[str, Any]) -> Action:
    """The seat, where stated, is the one to draw; the card is ``"cards": ["7D"]`` as in every
    variant, or ``"card": "7D"``, the spelling of earlier version-1 records."""
    seat = data.get("seat")
    if seat is not None and (type(seat) is not int or seat != state.turn):
        raise ValueError(_("the card drawn now is seat {seat}'s, not seat {other}'s").format(
            seat=state.turn, other=repr(seat)))
    if "cards" not in data:
        return (DRAWN, _card(data.get("card")))
    if "card" in data:
        raise ValueError(_("a draw states 'cards' (or the older 'card'), not both"))
    cards = data["cards"]
    if not isinstance(cards, list) or len(cards) != 1:
        raise ValueError(_("'cards' must list the one card drawn, e.g. {example}").format(example='["7D"]'))
    return (DRAWN, cards_field(cards, _card)[0])


class EndOfPageVariant(EndOfPageNarration, EndOfPageTable, EndOfPagePrompts, EndOfPageSheet,
                       Variant[EndOfPageState]):
    name = "endofpage"
    catalog = _
    title = N_("End of the Page")
    description = N_("Rummy over many rounds: hand sizes by turned cards, a new wild rank each deal")
    min_players = 2
    max_players = 6
    default_players = 2
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_policies = cpu.POLICIES

    check_rules = staticmethod(check_rules)
    render = staticmethod(render_table)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return build_deck(decks_for(rules, num_players), without_ranks=(2,))

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> EndOfPageState:
        check_rules(rules, num_players)  # (a ruleset checks it first; this is for a state made directly)
        return EndOfPageState(cached_config(Config, rules, num_players), num_players, dealer,
                              self.deck(rules, num_players))

    # ---------------------------------------------------------------- records
    events = RecordEvents(
        "End of the Page",
        moves={"draw": DRAW_ACTION, "take": (TAKE, Card(_card, absent="top")),
               "pickup": (PICKUP, Card(_card), Custom("meld", _meld_names, parse_meld_items)),
               "meld": (MELD, Custom("cards", _meld_names, parse_meld_items)),
               "layoff": Event(LAYOFF, "card", "meld", "as", encode=_encode_layoff, decode=_decode_layoff),
               "discard": (DISCARD, Card(_card))},
        chances={"deal": (DEAL, Seat(refuse=lambda: _("a deal names the 'seat' dealt to")),
                          Cards(_card, refuse=lambda: _("'cards' must list the cards dealt, the turned-up "
                                                        "card first")),
                          Card(lambda value: _card(value, "wild"), "wild", optional=True)),
                 "turn_up": (TURN_UP, Card(_card)),
                 "draw": Event(DRAWN, Stated("seat", "turn"),
                               Custom("cards", lambda card, state: [NAME[card]]), "card",
                               decode=_decode_draw),
                 "reshuffle": (RESHUFFLE, Reshuffle(lambda state: len(state.discard) - 1))})

    checkpoint = round_end_checkpoint  # each round's scores and the totals, as a family writes them

    # ----------------------------------------------------------------- people
    def describe(self, state: EndOfPageState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == DRAW:
            return _("drew from the stock")
        if kind == TAKE:
            return _("took {card} from the discard pile").format(card=NAME[action[1]])
        if kind == PICKUP:
            return _("picked up {card} from deeper in the discard pile and melded {meld}").format(
                card=NAME[action[1]], meld=meld_text(action[2], state.mrules))
        if kind == MELD:
            return _("melded {meld}").format(meld=meld_text(action[1], state.mrules)) + round_over(
                state, action, names)
        if kind == LAYOFF:
            _kind, index, card, as_rank = action
            text = laid_off(state, index, card, as_rank)
            known = 0 <= index < len(state.owners)
            owner = possessive(seat_name(state.owners[index], names), alone=True) if known else "?"
            # Translators: {owner} is whose meld it is: a player's name as owner ("ann's", "yours").
            return _("laid off {card} on meld {number} ({owner})").format(
                card=text, number=index + 1, owner=owner) + round_over(state, action, names)
        if kind == DISCARD:
            hand = state.hands[state.turn]
            text = (_("discarded {card} and went out") if len(hand) == 1 else _("discarded {card}")).format(
                card=NAME[action[1]])
            return text + round_over(state, action, names)
        if kind == DEAL:
            _kind, seat, cards, _wild = action
            name = seat_name(seat, names)
            # Translators: {name} is "you" (the English verb agrees with it): said as "{name} was dealt ...".
            dealt = (_("{name} were dealt {count} cards (turned up {card})") if name.lower() == "you"
                     else _("{name} was dealt {count} cards (turned up {card})"))
            clauses = [dealt.format(name=name, count=len(cards), card=NAME[cards[0]])]
            if seat == state.dealer:
                card = action[3] if action[3] >= 0 else wild_of(cards)
                if card >= 0:
                    clauses.append(_("the wild card is {card} ({ranks} are wild)").format(
                        card=NAME[card], ranks=rank_words(RANK[card])))
            text = "; ".join(clauses)  # the deal, then what it made wild: clauses of their own
            if viewer is None or viewer == seat:
                text += ": " + " ".join(NAME[c] for c in cards)  # the cards dealt, listed
            return text
        if kind == TURN_UP:
            return _("turned up {card} to start the discard pile").format(card=NAME[action[1]])
        if kind == DRAWN:
            if viewer is None or viewer == state.turn:
                return _("{name} drew {card}").format(name=seat_name(state.turn, names), card=NAME[action[1]])
            return _("{name} drew a card").format(name=seat_name(state.turn, names))
        if kind == RESHUFFLE:
            # The English says "1 discards": both forms are the same so that it stays as it was.
            count = len(state.discard) - 1
            return _.ngettext("the stock ran out: {count} discards reshuffled into a new stock "
                              "(rebuild {number} of {rebuilds} this round)",
                              "the stock ran out: {count} discards reshuffled into a new stock "
                              "(rebuild {number} of {rebuilds} this round)", count).format(
                count=count, number=state.reshuffled + 1, rebuilds=state.cfg.reshuffles)
        return repr(action)
