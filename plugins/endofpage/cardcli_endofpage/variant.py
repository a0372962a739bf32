"""End of the Page as a cardcli variant: its records and its words for each event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.abilities import Checkpoints
from cardcli.cards import NAME, RANK, RANK_NAMES, SUITS, build_deck, parse_rank, parse_suit
from cardcli.errors import CardError, RulesetError
from cardcli.grammar import possessive, seat_name
from cardcli.melds import RUN, layoff_meanings, meld_from, meld_text
from cardcli.options import cached_config
from cardcli.record_fields import card_field, only_fields, reshuffle_size
from cardcli.variant import Action, Rules, Variant

from . import cpu
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, decks_for
from .dialogue import EndOfPagePrompts
from .narrate import EndOfPageNarration, laid_off, round_over
from .state import (
    DEAL,
    DISCARD,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    LAYOFF,
    MELD,
    P_DEAL,
    P_OVER,
    PICKUP,
    RESHUFFLE,
    RESHUFFLE_ACTION,
    TAKE,
    TURN_UP,
    EndOfPageState,
)
from .table import EndOfPageTable, render_table

_FIELDS = {
    "draw": {"move", "seat"},
    "take": {"move", "seat", "card"},
    "pickup": {"move", "seat", "card", "meld"},
    "meld": {"move", "seat", "cards"},
    "layoff": {"move", "seat", "card", "meld", "as"},
    "discard": {"move", "seat", "card"},
    "deal": {"chance", "seat", "cards", "wild"},
    "turn_up": {"chance", "card"},
    "draw_card": {"chance", "seat", "cards", "card"},
    "reshuffle": {"chance", "cards"},
}


def _card(value: Any, what: str = "card") -> int:
    """A card of this pack: no jokers, no 2s."""
    card = card_field(value, what)
    if card >= 52:
        raise ValueError("there are no jokers in End of the Page")
    if RANK[card] == 2:
        raise ValueError(f"{NAME[card]}: the 2s are out of the pack in End of the Page")
    return card


def _drawn_card(data: Mapping[str, Any]) -> int:
    """The card of a chance ``draw``: ``"cards": ["7D"]`` as in every variant,
    or ``"card": "7D"``, the spelling of earlier version-1 records."""
    if "cards" in data:
        if "card" in data:
            raise ValueError("a draw states 'cards' (or the older 'card'), not both")
        cards = data["cards"]
        if not isinstance(cards, list) or len(cards) != 1:
            raise ValueError("'cards' must list the one card drawn, e.g. [\"7D\"]")
        return _card(cards[0])
    return _card(data.get("card"))


def parse_meaning(text: str) -> tuple[int, int | None]:
    """What a wild stands for: ``5C`` (rank and suit) or ``5`` (a rank)."""
    key = text.strip().upper()
    try:
        return parse_rank(key), None
    except CardError:
        pass
    if len(key) >= 2:
        try:
            return parse_rank(key[:-1]), parse_suit(key[-1])
        except CardError:
            pass
    raise CardError(f"{text!r} is not what a wild can stand for (write a card like 5C, or a rank like 5)")


def parse_meld_items(items: Any, state: EndOfPageState) -> tuple:
    """A meld from record notation: ``["4C", "3H=5C", "6C"]``."""
    if not isinstance(items, list) or not items:
        raise ValueError("a meld must be a list of card names, e.g. [\"4C\", \"3H=5C\", \"6C\"]")
    entries = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"a meld lists card names, got {item!r}")
        name, sep, means = item.partition("=")
        card = _card(name)
        rank: int | None = None
        suit: int | None = None
        if sep:
            if not state.is_wild(card):
                wild = RANK_NAMES[state.wild] + "s" if state.wild else "no rank"
                raise ValueError(f"{NAME[card]} is not wild ({wild} wild): only a wild says what it "
                                 "stands for")
            rank, suit = parse_meaning(means)
        entries.append((card, rank, suit))
    return meld_from(entries, state.mrules)


class EndOfPageVariant(EndOfPageNarration, EndOfPageTable, EndOfPagePrompts, Checkpoints,
                       Variant[EndOfPageState]):
    name = "endofpage"
    title = "End of the Page"
    description = "Rummy over many rounds: hand sizes by turned cards, a new wild rank each deal"
    min_players = 2
    max_players = 6
    default_players = 2
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_policies = cpu.POLICIES

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        check_rules(rules, num_players)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return build_deck(decks_for(rules, num_players), without_ranks=(2,))

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> EndOfPageState:
        if rules.get("decks") == 1 and num_players > 3:
            raise RulesetError(f"{num_players} players need two decks (option 'decks')")
        return EndOfPageState(cached_config(Config, rules, num_players), num_players, dealer,
                              self.deck(rules, num_players))

    # ---------------------------------------------------------------- records
    def encode_action(self, state: EndOfPageState, action: Action) -> dict[str, Any]:
        kind = action[0]
        rules = state.mrules
        if kind == DRAW:
            return {"move": "draw"}
        if kind == TAKE:
            return {"move": "take", "card": NAME[action[1]]}
        if kind == PICKUP:
            return {"move": "pickup", "card": NAME[action[1]], "meld": meld_text(action[2], rules).split()}
        if kind == MELD:
            return {"move": "meld", "cards": meld_text(action[1], rules).split()}
        if kind == LAYOFF:
            _, index, card, as_rank = action
            data: dict[str, Any] = {"move": "layoff", "card": NAME[card], "meld": index + 1}
            if state.is_wild(card):
                meld = state.melds[index] if 0 <= index < len(state.melds) else None
                if meld is not None and meld[0] == RUN:
                    data["as"] = RANK_NAMES[as_rank] + SUITS[meld[1]]
                else:
                    data["as"] = RANK_NAMES[as_rank]
            return data
        if kind == DISCARD:
            return {"move": "discard", "card": NAME[action[1]]}
        if kind == DEAL:
            data = {"chance": "deal", "seat": action[1], "cards": [NAME[c] for c in action[2]]}
            if action[3] >= 0:
                data["wild"] = NAME[action[3]]
            return data
        if kind == TURN_UP:
            return {"chance": "turn_up", "card": NAME[action[1]]}
        if kind == DRAWN:
            return {"chance": "draw", "seat": state.turn, "cards": [NAME[action[1]]]}
        if kind == RESHUFFLE:
            return {"chance": "reshuffle", "cards": max(0, len(state.discard) - 1)}
        raise ValueError(f"not an End of the Page action: {action!r}")

    def decode_action(self, state: EndOfPageState, data: Mapping[str, Any]) -> Action:
        move = data.get("move")
        if move is not None:
            if move == "draw":
                only_fields(data, _FIELDS["draw"], "draw")
                return DRAW_ACTION
            if move == "take":
                only_fields(data, _FIELDS["take"], "take")
                if "card" in data:
                    return (TAKE, _card(data["card"]))
                return (TAKE, state.top)
            if move == "pickup":
                only_fields(data, _FIELDS["pickup"], "pickup")
                card = _card(data.get("card"))
                return (PICKUP, card, parse_meld_items(data.get("meld"), state))
            if move == "meld":
                only_fields(data, _FIELDS["meld"], "meld")
                return (MELD, parse_meld_items(data.get("cards"), state))
            if move == "layoff":
                only_fields(data, _FIELDS["layoff"], "layoff")
                return self._decode_layoff(state, data)
            if move == "discard":
                only_fields(data, _FIELDS["discard"], "discard")
                return (DISCARD, _card(data.get("card")))
            raise ValueError(f"unknown move {move!r} (End of the Page moves: draw, take, pickup, meld, "
                             "layoff, discard)")
        chance = data.get("chance")
        if chance == "deal":
            only_fields(data, _FIELDS["deal"], "deal")
            seat = data.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ValueError("a deal names the 'seat' dealt to")
            cards = data.get("cards")
            if not isinstance(cards, list) or not cards:
                raise ValueError("'cards' must list the cards dealt, the turned-up card first")
            wild = data.get("wild")
            return (DEAL, seat, tuple(_card(c) for c in cards), -1 if wild is None else _card(wild, "wild"))
        if chance == "turn_up":
            only_fields(data, _FIELDS["turn_up"], "turn_up")
            return (TURN_UP, _card(data.get("card")))
        if chance == "draw":
            only_fields(data, _FIELDS["draw_card"], "draw")
            seat = data.get("seat")
            if seat is not None and seat != state.turn:
                raise ValueError(f"the card drawn now is seat {state.turn}'s, not seat {seat}'s")
            return (DRAWN, _drawn_card(data))
        if chance == "reshuffle":
            only_fields(data, _FIELDS["reshuffle"], "reshuffle")
            reshuffle_size(data, len(state.discard) - 1)
            return RESHUFFLE_ACTION
        raise ValueError(f"unknown chance event {chance!r} (End of the Page: deal, turn_up, draw, "
                         "reshuffle)")

    def _decode_layoff(self, state: EndOfPageState, data: Mapping[str, Any]) -> Action:
        card = _card(data.get("card"))
        number = data.get("meld")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError("'meld' must be the number of a meld on the table (1 for the first)")
        index = number - 1
        said = data.get("as")
        if said is not None:
            if not isinstance(said, str):
                raise ValueError(f"'as' must be a rank or card, like \"4\" or \"5C\", got {said!r}")
            rank, suit = parse_meaning(said)
            if not state.is_wild(card) and rank != RANK[card]:
                raise ValueError(f"{NAME[card]} is not wild: it stands only for itself")
            if suit is not None and 0 <= index < len(state.melds):
                meld = state.melds[index]
                if meld[0] == RUN and meld[1] != suit:
                    raise ValueError(f"meld {number} is a run of {SUITS[meld[1]]}: "
                                     f"{NAME[card]} cannot stand for {said}")
            return (LAYOFF, index, card, rank)
        if state.is_wild(card) and 0 <= index < len(state.melds):
            meanings = layoff_meanings(state.melds[index], card, state.mrules)
            if len(meanings) > 1:
                choices = " or ".join(RANK_NAMES[r] for r in meanings)
                raise ValueError(f"say what the wild {NAME[card]} stands for on meld {number} "
                                 f"(\"as\": {choices})")
            if meanings:
                return (LAYOFF, index, card, meanings[0])
            return (LAYOFF, index, card, 0)
        return (LAYOFF, index, card, RANK[card])

    def checkpoint(self, state: EndOfPageState) -> dict[str, Any] | None:
        """Right after the event that ends a round: the round's number, its
        scores and the running totals, as a family writes them on the page."""
        if not state.round_scores:
            return None
        if state.phase == P_OVER or (state.phase == P_DEAL and not any(state.hands)):
            number = len(state.round_scores)
            return {"checkpoint": "round_end", "round": number, "scores": list(state.round_scores[-1]),
                    "totals": list(state.totals)}
        return None

    # ----------------------------------------------------------------- people
    def describe(self, state: EndOfPageState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        rules = state.mrules
        if kind == DRAW:
            return "drew from the stock"
        if kind == TAKE:
            return f"took {NAME[action[1]]} from the discard pile"
        if kind == PICKUP:
            return (f"picked up {NAME[action[1]]} from deeper in the discard pile and melded "
                    f"{meld_text(action[2], rules)}")
        if kind == MELD:
            return f"melded {meld_text(action[1], rules)}" + round_over(state, action, names)
        if kind == LAYOFF:
            _, index, card, as_rank = action
            text = laid_off(state, index, card, as_rank)
            known = 0 <= index < len(state.owners)
            owner = possessive(seat_name(state.owners[index], names), alone=True) if known else "?"
            return f"laid off {text} on meld {index + 1} ({owner})" + round_over(state, action, names)
        if kind == DISCARD:
            hand = state.hands[state.turn]
            text = f"discarded {NAME[action[1]]}" + (" and went out" if len(hand) == 1 else "")
            return text + round_over(state, action, names)
        if kind == DEAL:
            _, seat, cards, _wild = action
            name = seat_name(seat, names)
            verb = "were" if name.lower() == "you" else "was"
            text = f"{name} {verb} dealt {len(cards)} cards (turned up {NAME[cards[0]]})"
            if seat == state.dealer:
                card = action[3] if action[3] >= 0 else -1
                if card < 0:
                    for c in cards:
                        if RANK[c] != 14:
                            card = c
                            break
                if card >= 0:
                    text += f"; the wild card is {NAME[card]} ({RANK_NAMES[RANK[card]]}s are wild)"
            if viewer is None or viewer == seat:
                text += ": " + " ".join(NAME[c] for c in cards)
            return text
        if kind == TURN_UP:
            return f"turned up {NAME[action[1]]} to start the discard pile"
        if kind == DRAWN:
            if viewer is None or viewer == state.turn:
                return f"{seat_name(state.turn, names)} drew {NAME[action[1]]}"
            return f"{seat_name(state.turn, names)} drew a card"
        if kind == RESHUFFLE:
            return (f"the stock ran out: {len(state.discard) - 1} discards reshuffled into a new stock "
                    f"(rebuild {state.reshuffled + 1} of {state.cfg.reshuffles} this round)")
        return repr(action)

    def render(self, state: EndOfPageState, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
        return render_table(state, viewer, names)
