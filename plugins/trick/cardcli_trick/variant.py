"""Trick-taking Page One as a cardcli variant: records, descriptions, the table and the prompt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import JOKER, NAME, RANK, SUIT, SUIT_NAMES, parse_card, sorted_hand
from cardcli.errors import CardError
from cardcli.events import card_field, flag_field, hands_field, only_fields, plural
from cardcli.options import changed_options
from cardcli.variant import CHANCE, Action, Policy, Rules, Variant
from cardcli.view import MoveView, Pile, PlayerView, TableView
from cardcli.words import join_or, name_seats, seat_name, seat_names, type_a_number

from . import cpu, narrate
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, pack
from .state import (
    D_FOLLOW,
    D_PENALTY,
    DEAL,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    P_DRAW,
    P_FORCED,
    P_OVER,
    PLAY,
    PLAYS,
    RESHUFFLE,
    RESHUFFLE_ACTION,
    TrickState,
)

_FIELDS = {
    "play": {"move", "seat", "card", "call"},
    "draw": {"move", "seat"},
    "deal": {"chance", "hands", "dealer"},
    "draw_cards": {"chance", "seat", "cards"},
    "reshuffle": {"chance", "cards"},
}


class TrickVariant(Variant[TrickState]):
    """Page One played in tricks (seeds 001 and 003): follow suit or draw until you can."""

    name = "trick"
    title = "Page One (trick-taking)"
    description = "Follow suit or draw until you can; the joker wins any trick; first to empty a hand wins"
    min_players = 2
    max_players = 8
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_levels = ("easy", "normal")
    score_label = "deals won"

    _configs: dict[tuple, Config] = {}

    def config(self, rules: Mapping[str, Any]) -> Config:
        """The typed rules, built once per set of options and shared by every state."""
        key = tuple(sorted(rules.items()))
        cfg = self._configs.get(key)
        if cfg is None:
            cfg = self._configs[key] = Config(rules)
        return cfg

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        check_rules(rules, num_players)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return pack(rules)

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> TrickState:
        return TrickState(self.config(rules), num_players, dealer, pack(rules))

    def cpu_policy(self, level: str) -> Policy[TrickState]:
        if level not in cpu.POLICIES:
            raise ValueError(level)
        return cpu.POLICIES[level]

    # ---------------------------------------------------------------- records
    def encode_action(self, state: TrickState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == PLAY:
            data: dict[str, Any] = {"move": "play", "card": NAME[action[1]]}
            if action[2]:
                data["call"] = True
            return data
        if kind == DRAW:
            return {"move": "draw"}
        if kind == DRAWN:
            return {"chance": "draw", "seat": state.draw_seat, "cards": [NAME[c] for c in action[1]]}
        if kind == RESHUFFLE:
            return {"chance": "reshuffle", "cards": len(state.tricks)}
        if kind == DEAL:
            return {"chance": "deal", "dealer": state.dealer,
                    "hands": [[NAME[c] for c in hand] for hand in action[1]]}
        raise ValueError(f"not a trick action: {action!r}")

    def decode_action(self, state: TrickState, data: Mapping[str, Any]) -> Action:
        move = data.get("move")
        if move is not None:
            if move == "play":
                only_fields(data, _FIELDS["play"], "play")
                card = card_field(data.get("card"))
                return PLAYS[card][flag_field(data, "call")]
            if move == "draw":
                only_fields(data, _FIELDS["draw"], "draw")
                return DRAW_ACTION
            raise ValueError(f"unknown move {move!r} (trick moves: play, draw)")
        chance = data.get("chance")
        if chance == "deal":
            only_fields(data, _FIELDS["deal"], "deal")
            hands = hands_field(data)
            dealer = data.get("dealer")
            if dealer is not None and dealer != state.dealer:
                raise ValueError(f"the dealer of this deal is seat {state.dealer}, not {dealer!r}")
            return (DEAL, hands)
        if chance == "draw":
            only_fields(data, _FIELDS["draw_cards"], "draw")
            cards = data.get("cards")
            if not isinstance(cards, list) or not cards:
                raise ValueError("'cards' must be a non-empty list of the cards drawn")
            seat = data.get("seat")
            if state.phase == P_DRAW and seat != state.draw_seat:
                raise ValueError(f"the cards drawn now are seat {state.draw_seat}'s, not seat {seat}'s")
            return (DRAWN, tuple(card_field(c) for c in cards))
        if chance == "reshuffle":
            only_fields(data, _FIELDS["reshuffle"], "reshuffle")
            stated = data.get("cards")
            if stated is not None and stated != len(state.tricks):
                raise ValueError(f"the reshuffle makes a stock of {len(state.tricks)} cards, not {stated!r}")
            return RESHUFFLE_ACTION
        raise ValueError(f"unknown chance event {chance!r} (trick: deal, draw, reshuffle)")

    # ----------------------------------------------------------------- people
    def describe_attempt(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: never who would win the trick or the deal."""
        kind = action[0]
        if kind == PLAY:
            card = NAME[action[1]]
            if not state.trick:
                text = f"led {card}"
            elif state.suit < 0:
                text = f"played {card} on the led joker"
            else:
                text = f"played {card}"
            return ("called \"Page One!\" and " if action[2] else "") + text
        if kind == DRAW:
            return "chose to draw"
        if kind == DRAWN:
            who = seat_name(state.draw_seat, names) if state.draw_seat >= 0 else "a seat"
            text = f"{who} drew {' '.join(NAME[c] for c in action[1])}"
            penalty = state.phase == P_DRAW and state.draw_for == D_PENALTY
            return text + (" (forgot Page One)" if penalty else "")
        if kind == RESHUFFLE:
            return "reshuffled the finished tricks into a new stock"
        return self.describe(state, action, names=names)

    def describe(self, state: TrickState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            return self._describe_play(state, action[1], action[2], names)
        if kind == DRAW:
            if state.suit >= 0:
                if not state.can_draw():
                    return (f"cannot follow {SUIT_NAMES[state.suit]} and drew with nothing left to draw: "
                            "the hand is called off")
                return f"cannot follow {SUIT_NAMES[state.suit]}: drawing from the stock"
            return "holding only the joker (it may not be the last card): drawing a card to play"
        if kind == DRAWN:
            seat = state.draw_seat
            who = seat_name(seat, names)
            cards = action[1]
            if state.draw_for == D_PENALTY:
                if viewer is None or viewer == seat:
                    return f"{who} drew {' '.join(NAME[c] for c in cards)} (forgot Page One)"
                return f"{who} drew {plural(len(cards), 'card')} (forgot Page One)"
            so_far = state.drawn_now + 1
            card = cards[0]
            if viewer is None or viewer == seat:
                text = f"{who} drew {NAME[card]}"
                if card not in state.stock:  # only in a broken record: the check says why
                    return text
                if state.draw_for == D_FOLLOW:
                    if SUIT[card] == state.suit:
                        text += f", a {SUIT_NAMES[state.suit][:-1]}: it must be played"
                    elif card == JOKER:
                        text += " (the joker: kept, drawing goes on)"
                    else:
                        text += ", drawing on"
                else:
                    text += ": it must be played"
                return text + (f" ({so_far} drawn)" if so_far > 1 else "")
            return f"{who} drew a card ({so_far} drawn)" if so_far > 1 else f"{who} drew a card"
        if kind == RESHUFFLE:
            return (f"the stock is empty: {plural(len(state.tricks), 'card')} of finished tricks "
                    f"shuffled into a new stock")
        if kind == DEAL:
            text = ""
            cfg = state.cfg
            if cfg.deals > 1:
                text = f"Deal {state.deal_no + 1} of {cfg.deals}: "
            text += f"dealt {cfg.hand_size} cards each (dealer: {seat_name(state.dealer, names)})"
            if state.deal_no > 0:
                text += ". " + self._tally_text(state, names)
            return text
        return repr(action)

    def _tally_text(self, state: TrickState, names: Sequence[str] | None) -> str:
        """``Deal 2 won by ann; deals won: ann 1, bob 1`` (the deal just finished, then the tally)."""
        tally = ", ".join(f"{seat_name(s, names)} {state.tally[s]}" for s in range(state.num_players))
        if not state.deal_winners:
            return f"Deals won: {tally}"
        number = len(state.deal_winners)
        last = state.deal_winners[-1]
        head = (f"Deal {number} called off (counts for nobody)" if last is None else
                f"Deal {number} won by {seat_name(last, names)}")
        return f"{head}; deals won: {tally}"

    def _describe_play(self, state: TrickState, card: int, call: bool,
                       names: Sequence[str] | None) -> str:
        seat = state.turn
        hand = state.hands[seat]
        if not state.trick:
            text = f"led {NAME[card]}"
            if card == JOKER:
                text += " (the next card sets the suit)"
        elif state.suit < 0:
            text = f"played {NAME[card]} on the led joker"
            if card != JOKER:
                text += f" ({SUIT_NAMES[SUIT[card]]} to follow)"
        else:
            text = f"played {NAME[card]}"
            if card == JOKER:
                text += f" on {SUIT_NAMES[state.suit]}"
            elif SUIT[card] != state.suit:  # only in a broken record: the check says why
                return ("called \"Page One!\" and " if call else "") + text
        if call:
            text = "called \"Page One!\" and " + text
        if len(hand) == 1:
            return text + ": the last card, which wins the deal!"
        if len(state.trick) + 1 == state.num_players:
            best = state.trick[state.win_pos]
            suit = state.suit if state.suit >= 0 else SUIT[card]
            if best != JOKER and (card == JOKER or (SUIT[card] == suit and RANK[card] > RANK[best])):
                winner = seat
            else:
                winner = state.trick_seats[state.win_pos]
            text += f"; the trick goes to {seat_name(winner, names)}"
        if len(hand) == 2 and not call:
            text += " - forgot to call Page One!"
        return text

    def describe_events(self, events: Sequence[tuple[Any, Any]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """Drawing told in one line with the play it ends in ("cpu2 could not
        follow clubs: drew 7 cards, played 4C")."""
        return narrate.describe_events(self, events, viewer, names)

    def explain(self, state: TrickState, action: Action, names: Sequence[str] | None = None) -> str:
        return narrate.explain(state, action, names)

    def round_summary(self, state: TrickState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        return narrate.round_summary(state, action, names)

    def rules_summary(self, rules: Rules) -> list[str]:
        return narrate.rules_summary(changed_options(rules, self.options))

    def render(self, state: TrickState, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
        n = state.num_players
        names = seat_names(names, n)
        cfg = state.cfg
        lines = []
        head = []
        if cfg.deals > 1:
            head.append(f"Deal {min(state.deal_no + 1, cfg.deals)} of {cfg.deals}")
        head.append(f"stock: {len(state.stock)}")
        head.append(f"finished tricks: {state.tricks_done} ({plural(len(state.tricks), 'card')})")
        lines.append(" | ".join(head))
        if cfg.deals > 1:
            lines.append(self._tally_text(state, names))
        if state.last_trick is not None and (state.phase != P_OVER or state.trick):
            cards, seats, winner = state.last_trick
            played = ", ".join(f"{names[s]} {NAME[c]}" for s, c in zip(seats, cards))
            lines.append(f"Last trick: {played}  (won by {names[winner]}"
                         f"{'' if state.trick else ', who leads'})")
        if state.trick:
            played = ", ".join(f"{names[s]} {NAME[c]}" for s, c in zip(state.trick_seats, state.trick))
            if state.phase == P_OVER:
                lines.append(f"Trick left unfinished: {played}")
            else:
                if state.suit >= 0:
                    led = f"{SUIT_NAMES[state.suit]} to follow"
                else:
                    led = "joker led: the next card sets the suit"
                best = state.trick[state.win_pos]
                lines.append(f"Trick: {played}  ({led}; winning: {names[state.winning_seat()]} "
                             f"with {NAME[best]})")
        acting = _acting(state)
        width = max(len(x) for x in names)
        for seat, hand in enumerate(state.hands):
            marker = ">" if seat == acting else " "
            flags = _seat_notes(state, seat)
            count = f"{len(hand):2d} card{'s' if len(hand) != 1 else ' '}"
            cards = ""
            if (viewer is None or viewer == seat) and hand:
                cards = "  " + " ".join(NAME[c] for c in sorted_hand(hand))
            extra = f"  ({', '.join(flags)})" if flags else ""
            lines.append(f" {marker} {seat} {names[seat]:<{width}}  {count}{extra}{cards}")
        if state.phase == P_DRAW and state.draw_for != D_PENALTY and state.drawn_now:
            lines.append(f"{names[state.draw_seat]} is drawing: {plural(state.drawn_now, 'card')} so far")
        if state.phase == P_FORCED and (viewer is None or viewer == state.turn):
            lines.append(f"Drawn card {NAME[state.forced]} must be played")
        return "\n".join(lines)

    def table_view(self, state: TrickState, viewer: int | None, names: Sequence[str]) -> TableView:
        """The table as data: the trick so far (who played what), the last
        trick, the stock, each player's count; the viewer's hand."""
        cfg = state.cfg
        acting = _acting(state)
        players = []
        for seat, cards in enumerate(state.hands):
            players.append(PlayerView(seat, names[seat], len(cards), _seat_notes(state, seat),
                                      plural(state.tally[seat], "deal") + " won" if cfg.deals > 1 else ""))
        piles = []
        if state.trick:
            if state.phase == P_OVER:
                note = "left unfinished"
            elif state.suit >= 0:
                note = f"{SUIT_NAMES[state.suit]} to follow; winning: {names[state.winning_seat()]}"
            else:
                note = "joker led: the next card sets the suit"
            piles.append(Pile("trick", [NAME[c] for c in state.trick], len(state.trick),
                              [names[s] for s in state.trick_seats], note))
        if state.last_trick is not None and (state.phase != P_OVER or state.trick):
            cards, seats, winner = state.last_trick
            piles.append(Pile("last trick", [NAME[c] for c in cards], len(cards), [names[s] for s in seats],
                              f"won by {names[winner]}"))
        piles.append(Pile("stock", [], len(state.stock)))
        piles.append(Pile("finished tricks", [], len(state.tricks)))
        notes = []
        if cfg.deals > 1:
            notes.append(f"Deal {min(state.deal_no + 1, cfg.deals)} of {cfg.deals}")
            notes.append(self._tally_text(state, names))
        if state.phase == P_DRAW and state.draw_for != D_PENALTY and state.drawn_now:
            notes.append(f"{names[state.draw_seat]} is drawing: {plural(state.drawn_now, 'card')} so far")
        hand: list[str] = []
        if viewer is not None and 0 <= viewer < state.num_players:
            hand = [NAME[c] for c in sorted_hand(state.hands[viewer])]
            if state.phase == P_FORCED and viewer == state.turn:
                notes.append(f"Drawn card {NAME[state.forced]} must be played")
        if state.phase == P_OVER and state.deal_reason and cfg.deals == 1:
            notes.append(f"Deal over: {self._reason(state, names)}")
        return TableView(viewer=viewer, turn=acting if acting >= 0 else None, players=players, hand=hand,
                         piles=piles, notes=notes, text=self.render(state, viewer=viewer, names=names))

    def move_view(self, state: TrickState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        """A card to play, the Page One call as a declaration, drawing as a button."""
        if action[0] == PLAY:
            card, call = action[1], action[2]
            label = ("call \"Page One!\" and " if call else "") + f"play {NAME[card]}"
            return MoveView("play", label, [NAME[card]], declare="Page One!" if call else "")
        if action[0] == DRAW:
            return MoveView("draw", "draw from the stock")
        return super().move_view(state, seat, action, names)

    def _reason(self, state: TrickState, names: Sequence[str]) -> str:
        last = state.deal_winners[-1] if state.deal_winners else None
        if last is None:
            why = state.deal_reason.partition(": ")[2]
            return f"called off as a draw ({why})" if why else "called off as a draw"
        return name_seats(f"seat {last} played their last card", names)

    def parse_move(self, state: TrickState, text: str, legal: list[Action]) -> Action | None:
        """Typed moves: ``7h``, ``jk``, ``qh!`` or ``p qh`` (with the Page One call), ``draw``/``d``."""
        words = text.strip().lower().replace("!", " ! ").split()
        call = "!" in words
        words = [w for w in words if w != "!"]
        if words and words[0] in ("p", "page", "pageone", "page-one"):
            call = True
            words = words[1:]
            if words and words[0] == "one":
                words = words[1:]
        if len(words) != 1:
            return None
        if words[0] in ("d", "draw"):
            return DRAW_ACTION if DRAW_ACTION in legal else None
        try:
            card = parse_card(words[0])
        except CardError:
            return None
        action = PLAYS[card][call]
        return action if action in legal else None

    def human_turn(self, state: TrickState, seat: int, legal: list[Action], ui: Any) -> Action:
        return human_dialogue(self, state, seat, legal, ui)


def _acting(state: TrickState) -> int:
    """The seat the table points at: the player to move, or the one drawing."""
    player = state.current_player()
    return state.draw_seat if player == CHANCE and state.phase == P_DRAW else player


def _seat_notes(state: TrickState, seat: int) -> list[str]:
    """What the table says beside a player: dealer, Page One."""
    notes = []
    if seat == state.dealer:
        notes.append("dealer")
    if len(state.hands[seat]) == 1 and state.phase != P_OVER:
        notes.append("Page One")
    return notes


def human_dialogue(variant: TrickVariant, state: TrickState, seat: int, legal: list[Action],
                   ui: Any) -> Action:
    """The human's turn: numbered choices or typed cards (``qh``, ``jk``).

    Only legal cards are offered.  The Page One call is offered (as ``p``, or
    a ``!`` after the card) only when the play leaves one card, and it is not
    pressed for you: forgetting it is part of the game.
    """
    cards = [a[1] for a in legal if a[0] == PLAY and not a[2]]
    cards.sort(key=lambda c: (c // 13, c))
    can_call = any(a[0] == PLAY and a[2] for a in legal)
    can_draw = DRAW_ACTION in legal
    called = False
    hand = sorted_hand(state.hands[seat])
    if state.phase == P_FORCED:
        ui.show(f"You drew {NAME[state.forced]}: it must be played now.")
    elif not state.trick:
        ui.show("You lead: any card.")
    elif state.suit < 0:
        ui.show("The joker was led: play any card; its suit is the one to follow.")
    elif can_draw and not any(SUIT[c] == state.suit for c in cards):
        if not state.can_draw():
            ui.show(f"You have no {SUIT_NAMES[state.suit]} and nothing is left to draw: play the joker, "
                    "or draw and the hand is called off.")
        else:
            ui.show(f"You have no {SUIT_NAMES[state.suit]}" +
                    (": play the joker, or draw until one comes." if cards else
                     ": draw until one comes, and play it."))
    options = [f"play {NAME[c]}" for c in cards]
    keys: dict[Any, str] = {}
    for number, card in enumerate(cards, start=1):
        keys[PLAYS[card][False]] = keys[PLAYS[card][True]] = str(number)
    if can_draw:
        options.append("draw from the stock")
        keys[DRAW_ACTION] = str(len(options))
    offer = getattr(ui, "offer", None)
    if offer is not None:
        offer(keys)
    while True:
        ui.show("Your hand: " + " ".join(NAME[c] for c in hand))
        ui.show("  ".join(f"[{i}] {text}" for i, text in enumerate(options, start=1)))
        if can_call:
            ui.show("  [p] call \"Page One!\"" + ("  (called)" if called else ""))
        answer = ui.ask("Your move (number" + (", a card like qh or jk" if cards else "") +
                        (", d to draw" if can_draw else "") + (", p to call Page One" if can_call else "") +
                        ")").strip()
        lowered = answer.lower()
        if lowered in ("?", "hint", "help"):
            ui.show("Follow the suit led if you can; the joker wins any trick. With no card of the "
                    "suit led, draw until one comes and play it. Type a number or a card (7h, 10s, jk).")
            continue
        if lowered in ("p", "page one", "pageone", "page-one"):
            if can_call:
                called = True
                ui.show("\"Page One!\" - now choose your card.")
            else:
                ui.show("Page One is called with the play that leaves you one card; not now.")
            continue
        if not lowered:
            ui.show("Type a number from the list, or a card like qh or jk.")
            continue
        words = lowered.replace("!", " ! ").split()
        wants_call = "!" in words
        words = [w for w in words if w != "!"]
        if len(words) > 1 and words[0] in ("p", "page", "pageone", "page-one"):  # "p qh", "page one qh"
            wants_call = True
            words = words[2:] if words[0] == "page" and words[1] == "one" else words[1:]
        if wants_call:
            if not can_call:
                ui.show("Page One is called with the play that leaves you one card; not now.")
                continue
            called = True
        if len(words) == 1 and words[0].isdigit():
            if not 1 <= int(words[0]) <= len(options):
                ui.show(type_a_number(len(options)))
                continue
            index = int(words[0]) - 1
            if index < len(cards):
                return PLAYS[cards[index]][called and can_call]
            return DRAW_ACTION
        if len(words) == 1 and words[0] in ("d", "draw"):
            if can_draw:
                return DRAW_ACTION
            ui.show(_no_draw(state, cards))
            continue
        parsed = None
        if len(words) == 1:
            try:
                parsed = parse_card(words[0])
            except CardError:
                parsed = None
        if parsed is None:
            ui.show(f"{answer!r} is not one of your choices.")
            continue
        if parsed not in cards:
            if parsed in state.hands[seat]:
                ui.show(f"You cannot play {NAME[parsed]} now: {state.why_illegal(PLAYS[parsed][False])}.")
            else:
                ui.show(f"{NAME[parsed]} is not in your hand.")
            continue
        return PLAYS[parsed][called and can_call]



def _no_draw(state: TrickState, cards: list[int]) -> str:
    """Why ``d`` does nothing now: "You can't draw: you can follow hearts with 9H or QH"."""
    if state.phase == P_FORCED:
        return f"You can't draw again: the drawn {NAME[state.forced]} must be played."
    if state.suit >= 0 and any(SUIT[c] == state.suit for c in cards):
        follow = join_or([NAME[c] for c in cards if SUIT[c] == state.suit])
        return f"You can't draw: you can follow {SUIT_NAMES[state.suit]} with {follow}."
    if not state.trick:
        return "You can't draw: you lead, and any card may be led."
    if state.suit < 0:
        return "You can't draw: after a led joker any card may be played."
    return f"You can't draw: {state.why_illegal(DRAW_ACTION)}."
