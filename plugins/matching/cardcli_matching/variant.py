"""Matching Page One as a cardcli variant: records, descriptions, the table and the prompt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import NAME, SUIT_NAMES, SUITS, build_deck, parse_card, parse_suit, sorted_hand
from cardcli.errors import CardError
from cardcli.events import card_field, flag_field, hands_field, only_fields
from cardcli.options import changed_options
from cardcli.variant import CHANCE, Action, Policy, Rules, Variant
from cardcli.view import MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.words import join_or, seat_name, seat_names, type_a_number

from . import cpu, narrate
from .config import CONSTRAINTS, EIGHT, OPTIONS, SPECIAL_NAMES, Config, check_rules
from .state import (
    ANY_SUIT,
    DEAL,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    FOR_PAGE_ONE,
    FOR_PENALTY,
    KEEP,
    KEEP_ACTION,
    P_AFTER_DRAW,
    P_DRAWING,
    PLAY,
    RESHUFFLE,
    RESHUFFLE_ACTION,
    TURN_UP,
    MatchingState,
)

_FIELDS = {
    "play": {"move", "seat", "card", "suit", "call"},
    "draw": {"move", "seat"},
    "keep": {"move", "seat"},
    "deal": {"chance", "hands"},
    "turn_up": {"chance", "card"},
    "draw_cards": {"chance", "seat", "cards"},
    "reshuffle": {"chance", "cards"},
}


def _card(value: Any) -> int:
    card = card_field(value)
    if card >= 52:
        raise ValueError("there is no joker in matching Page One")
    return card


class MatchingVariant(Variant[MatchingState]):
    name = "matching"
    title = "Page One (matching)"
    description = "Crazy-Eights-style race: match rank or suit; 2 draw two, 8 wild, J skip, Q reverse"
    min_players = 2
    max_players = 6
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_levels = ("easy", "normal")

    _configs: dict[tuple, Config] = {}

    def config(self, rules: Mapping[str, Any]) -> Config:
        key = tuple(sorted(rules.items()))
        cfg = self._configs.get(key)
        if cfg is None:
            cfg = self._configs[key] = Config(rules)
        return cfg

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        check_rules(rules, num_players)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return build_deck(1)

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> MatchingState:
        return MatchingState(self.config(rules), num_players, dealer, build_deck(1))

    def cpu_policy(self, level: str) -> Policy[MatchingState]:
        return cpu.POLICIES[level]

    # ---------------------------------------------------------------- records
    def encode_action(self, state: MatchingState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == PLAY:
            data: dict[str, Any] = {"move": "play", "card": NAME[action[1]]}
            if action[2] >= 0:
                data["suit"] = SUITS[action[2]]
            if action[3]:
                data["call"] = True
            return data
        if kind == DRAW:
            return {"move": "draw"}
        if kind == KEEP:
            return {"move": "keep"}
        if kind == DEAL:
            return {"chance": "deal", "hands": [[NAME[c] for c in hand] for hand in action[1]]}
        if kind == TURN_UP:
            return {"chance": "turn_up", "card": NAME[action[1]]}
        if kind == DRAWN:
            return {"chance": "draw", "seat": state.draw_seat, "cards": [NAME[c] for c in action[1]]}
        if kind == RESHUFFLE:
            return {"chance": "reshuffle", "cards": len(state.discard) - 1}
        raise ValueError(f"not a matching action: {action!r}")

    def decode_action(self, state: MatchingState, data: Mapping[str, Any]) -> Action:
        move = data.get("move")
        if move is not None:
            if move == "play":
                only_fields(data, _FIELDS["play"], "play")
                card = _card(data.get("card"))
                suit = data.get("suit")
                suit_index = -1
                if suit is not None:
                    if not isinstance(suit, str):
                        raise ValueError(f"suit must be S, H, D or C, got {suit!r}")
                    suit_index = parse_suit(suit)
                return (PLAY, card, suit_index, flag_field(data, "call"))
            if move == "draw":
                only_fields(data, _FIELDS["draw"], "draw")
                return DRAW_ACTION
            if move == "keep":
                only_fields(data, _FIELDS["keep"], "keep")
                return KEEP_ACTION
            raise ValueError(f"unknown move {move!r} (matching moves: play, draw, keep)")
        chance = data.get("chance")
        if chance == "deal":
            only_fields(data, _FIELDS["deal"], "deal")
            return (DEAL, hands_field(data, _card))
        if chance == "turn_up":
            only_fields(data, _FIELDS["turn_up"], "turn_up")
            return (TURN_UP, _card(data.get("card")))
        if chance == "draw":
            only_fields(data, _FIELDS["draw_cards"], "draw")
            cards = data.get("cards")
            if not isinstance(cards, list) or not cards:
                raise ValueError("'cards' must be a non-empty list of the cards drawn")
            seat = data.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ValueError("a draw must name the seat that draws (\"seat\": N)")
            if state.phase == P_DRAWING and seat != state.draw_seat:
                raise ValueError(f"the cards drawn now are seat {state.draw_seat}'s, not seat {seat}'s")
            return (DRAWN, tuple(_card(c) for c in cards))
        if chance == "reshuffle":
            only_fields(data, _FIELDS["reshuffle"], "reshuffle")
            stated = data.get("cards")
            if stated is not None and stated != len(state.discard) - 1:
                raise ValueError(f"the reshuffle makes a stock of {len(state.discard) - 1} cards, "
                                 f"not {stated!r}")
            return RESHUFFLE_ACTION
        raise ValueError(f"unknown chance event {chance!r} (matching: deal, turn_up, draw, reshuffle)")

    # ----------------------------------------------------------------- people
    def describe_attempt(self, state: MatchingState, action: Action,
                         names: Sequence[str] | None = None) -> str:
        """The move as attempted, for a refusal: no effects of the card."""
        kind = action[0]
        if kind == PLAY:
            return _play_text(state, action[1], action[2], action[3])
        if kind == DRAW:
            return "took the penalty" if state.penalty else "chose to draw"
        if kind == KEEP:
            return "chose to keep a drawn card"
        if kind == TURN_UP:
            return f"turned up {NAME[action[1]]}"
        return self.describe(state, action, names=names)

    def describe(self, state: MatchingState, action: Action, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
        kind = action[0]
        if kind == PLAY:
            card, call = action[1], action[3]
            text = _play_text(state, card, action[2], False)
            effect = _effect_text(state, card, names)
            if effect:
                text += f" ({effect})"
            if call:
                text = "called \"Page One!\" and " + text
            return text
        if kind == DRAW:
            if state.penalty:
                return f"took the penalty of {state.penalty}"
            chose = any(a[0] == PLAY for a in state.legal_actions())
            if state.stock_size() == 0 and len(state.discard) <= 1:
                return ("chose to draw, but there was nothing to draw: the turn passes" if chose else
                        "could not play and had nothing to draw")
            return "chose to draw" if chose else "could not play"
        if kind == KEEP:
            shown = viewer is None or viewer == state.turn
            return f"kept the drawn {NAME[state.drawn]}" if shown else "kept the drawn card"
        if kind == DRAWN:
            cards = action[1]
            reason = {FOR_PENALTY: " (penalty)", FOR_PAGE_ONE: " (forgot Page One)"}.get(state.draw_for, "")
            who = seat_name(state.draw_seat, names)
            if viewer is None or viewer == state.draw_seat:
                return f"{who} drew {' '.join(NAME[c] for c in cards)}{reason}"
            count = len(cards)
            return f"{who} drew {count} card{'s' if count != 1 else ''}{reason}"
        if kind == TURN_UP:
            card = action[1]
            special = state.cfg.card_special[card]
            if special and state.cfg.first_special == "reflip" and len(state.stock) > 1:
                return f"turned up {NAME[card]} ({SPECIAL_NAMES[special]}): sent under, turning again"
            return f"turned up {NAME[card]} as the first top card"
        if kind == RESHUFFLE:
            return f"reshuffled {len(state.discard) - 1} discards into a new stock"
        if kind == DEAL:
            return f"dealt {state.cfg.hand_size} cards each (dealer: {seat_name(state.dealer, names)})"
        return repr(action)

    def describe_events(self, events: Sequence[tuple[Any, Any]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """A draw in one line with what was drawn and done with it ("cpu2
        could not play: drew a card and played 4C on 9C")."""
        return narrate.describe_events(self, events, viewer, names)

    def explain(self, state: MatchingState, action: Action, names: Sequence[str] | None = None) -> str:
        return narrate.explain(state, action, names)

    def round_summary(self, state: MatchingState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        return narrate.round_summary(state, action, names)

    def rules_summary(self, rules: Rules) -> list[str]:
        return narrate.rules_summary(changed_options(rules, self.options))

    def render(self, state: MatchingState, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
        names = seat_names(names, state.num_players)
        lines = []
        cfg = state.cfg
        head = []
        if cfg.rounds > 1:
            head.append(f"Round {min(state.round + 1, cfg.rounds)} of {cfg.rounds}")
        head.append("direction: " + ("clockwise (left)" if state.direction == 1 else "anticlockwise (right)"))
        head.append(f"stock: {state.stock_size()}")
        head.append(f"discards: {len(state.discard)}")
        lines.append(" | ".join(head))
        if state.discard:
            top = f"Top card: {NAME[state.top]}"
            if state.suit == ANY_SUIT:
                top += "  - any card may follow"
            elif state.suit >= 0:
                top += f"  - suit named: {SUIT_NAMES[state.suit]}"
            lines.append(top)
        if state.penalty:
            lines.append(f"Penalty pending: draw {state.penalty} "
                         f"(answer with a {state.penalty_rank} or take it)")
        acting = _acting(state)
        width = max(len(n) for n in names)
        for seat, hand in enumerate(state.hands):
            marker = ">" if seat == acting else " "
            flags = _seat_notes(state, seat)
            if cfg.rounds > 1:
                flags.append(f"total {state.totals[seat]}")
            count = f"{len(hand):2d} card{'s' if len(hand) != 1 else ' '}"
            cards = ""
            if viewer is None or viewer == seat:
                cards = "  " + " ".join(NAME[c] for c in sorted_hand(hand))
            extra = f"  ({', '.join(flags)})" if flags else ""
            lines.append(f" {marker} {seat} {names[seat]:<{width}}  {count}{extra}{cards}")
        if state.phase == P_AFTER_DRAW and (viewer is None or viewer == state.turn):
            lines.append(f"Drawn card: {NAME[state.drawn]} (play it or keep it)")
        return "\n".join(lines)

    def table_view(self, state: MatchingState, viewer: int | None, names: Sequence[str]) -> TableView:
        """The table as data: the top card (and the suit named), the stock, the
        penalty pending, the direction, each player's count; the viewer's hand."""
        cfg = state.cfg
        acting = _acting(state)
        players = []
        for seat, cards in enumerate(state.hands):
            players.append(PlayerView(seat, names[seat], len(cards), _seat_notes(state, seat),
                                      f"total {state.totals[seat]}" if cfg.rounds > 1 else ""))
        piles = []
        if state.discard:
            note = ""
            if state.suit == ANY_SUIT:
                note = "any card may follow"
            elif state.suit >= 0:
                note = f"suit named: {SUIT_NAMES[state.suit]}"
            piles.append(Pile("top card", [NAME[state.top]], len(state.discard), note=note))
        piles.append(Pile("stock", [], state.stock_size()))
        notes = []
        if cfg.rounds > 1:
            notes.append(f"Round {min(state.round + 1, cfg.rounds)} of {cfg.rounds}")
        if state.penalty:
            notes.append(f"Penalty pending: draw {state.penalty} (answer with a {state.penalty_rank} "
                         "or take it)")
        notes.append("Direction: " + ("clockwise (left)" if state.direction == 1
                                      else "anticlockwise (right)"))
        hand: list[str] = []
        if viewer is not None and 0 <= viewer < state.num_players:
            hand = [NAME[c] for c in sorted_hand(state.hands[viewer])]
            if state.phase == P_AFTER_DRAW and viewer == state.turn:
                notes.append(f"Drawn card: {NAME[state.drawn]} (play it or keep it)")
        scores = None
        if cfg.rounds > 1 and state.round_scores:
            scores = ScoreSheet("points", [[f"round {i}", *row] for i, row in
                                           enumerate(state.round_scores, start=1)], list(state.totals))
        return TableView(viewer=viewer, turn=acting if acting >= 0 else None, players=players, hand=hand,
                         piles=piles, notes=notes, scores=scores,
                         text=self.render(state, viewer=viewer, names=names))

    def move_view(self, state: MatchingState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        """A card to play (an 8 once per suit it may name, each as a choice), the
        Page One call as a declaration, drawing or keeping as plain buttons."""
        kind = action[0]
        if kind == PLAY:
            card, suit, call = action[1], action[2], action[3]
            label = f"play {NAME[card]}" + (f", naming {SUIT_NAMES[suit]}" if suit >= 0 else "")
            if call:
                label = "call \"Page One!\" and " + label
            return MoveView("play", label, [NAME[card]], choice=SUIT_NAMES[suit] if suit >= 0 else "",
                            declare="Page One!" if call else "")
        if kind == DRAW:
            return MoveView("draw", f"take the penalty (draw {state.penalty})" if state.penalty
                            else "draw a card")
        if kind == KEEP:
            return MoveView("keep", "keep the drawn card")
        return super().move_view(state, seat, action, names)

    def parse_move(self, state: MatchingState, text: str, legal: list[Action]) -> Action | None:
        """Typed moves: ``7h``, ``8s h`` (an 8 naming hearts), ``7h!`` (with the
        Page One call), ``draw``/``d``, ``keep``/``k``."""
        words = text.strip().lower().replace("!", " ! ").split()
        if not words:
            return None
        call = "!" in words
        words = [w for w in words if w != "!"]
        if words and words[0] in ("p", "page", "pageone", "page-one"):
            call = True
            words = words[1:]
            if words and words[0] == "one":
                words = words[1:]
        if not words:
            return None
        if words[0] in ("d", "draw", "take") and len(words) == 1:
            return DRAW_ACTION if DRAW_ACTION in legal else None
        if words[0] in ("k", "keep") and len(words) == 1:
            return KEEP_ACTION if KEEP_ACTION in legal else None
        try:
            card = parse_card(words[0])
        except CardError:
            return None
        suit = -1
        if len(words) > 1:
            try:
                suit = parse_suit(words[1])
            except CardError:
                return None
        action = (PLAY, card, suit, call)
        return action if action in legal else None

    def human_turn(self, state: MatchingState, seat: int, legal: list[Action], ui: Any) -> Action:
        return human_dialogue(self, state, seat, legal, ui)


def _acting(state: MatchingState) -> int:
    """The seat the table points at: the player to move, or the one drawing."""
    player = state.current_player()
    return state.draw_seat if player == CHANCE and state.phase == P_DRAWING else player


def _seat_notes(state: MatchingState, seat: int) -> list[str]:
    """What the table says beside a player: dealer, out (and in what place), Page One."""
    notes = []
    if seat == state.dealer:
        notes.append("dealer")
    if not state.active[seat]:
        notes.append(f"out, place {state.out.index(seat) + 1}")
    elif len(state.hands[seat]) == 1:
        notes.append("Page One")
    return notes


def _play_text(state: MatchingState, card: int, suit: int, call: bool) -> str:
    """``played 8C on JH (spades named), naming hearts``: the play itself, no effect."""
    text = f"played {NAME[card]} on {NAME[state.top]}" if state.discard else f"played {NAME[card]}"
    if state.suit >= 0 and state.suit != ANY_SUIT:
        text += f" ({SUIT_NAMES[state.suit]} named)"
    if 0 <= suit <= 3:
        text += f", naming {SUIT_NAMES[suit]}"
    return ("called \"Page One!\" and " if call else "") + text


def _effect_text(state: MatchingState, card: int, names: Sequence[str] | None) -> str:
    """What a special card does to the table, for the log."""
    from .config import REVERSE, SKIP, THREE, TWO

    kind = state.cfg.card_special[card]
    seat = state.turn
    if kind == 0 or (len(state.hands[seat]) == 1 and not state.cfg.rank_all_places):
        return ""
    following = seat_name(state.next_seat(seat), names)
    if kind in (TWO, THREE):
        return f"{following} must draw {state.penalty + (2 if kind == TWO else 3)} or pass it on"
    if kind == SKIP:
        return f"skips {following}"
    if kind == REVERSE:
        if state.players_in() == 2:
            return f"skips {following}"
        return "reverses the direction"
    return ""


def human_dialogue(variant: MatchingVariant, state: MatchingState, seat: int, legal: list[Action],
                   ui: Any) -> Action:
    """The human's turn: numbered choices or typed cards, then the suit for an 8.

    The prompt names only the keys that do something now (``d`` only when
    drawing is allowed, ``k`` only after a draw, ``p`` only with two cards);
    a key typed anyway is answered with the reason.  The Page One call is
    not pressed for you: forgetting it is part of the game.
    """
    cards: list[int] = []
    for action in legal:
        if action[0] == PLAY and action[1] not in cards:
            cards.append(action[1])
    cards.sort(key=lambda c: (c // 13, c))
    can_call = any(a[0] == PLAY and a[3] for a in legal)
    can_draw = DRAW_ACTION in legal
    can_keep = KEEP_ACTION in legal
    called = False
    hand = sorted_hand(state.hands[seat])
    options = [f"play {NAME[c]}" for c in cards]
    keys: dict[Any, str] = {}
    for action in legal:
        if action[0] == PLAY:
            keys[action] = str(cards.index(action[1]) + 1)
    if can_draw:
        options.append("take the penalty" if state.penalty else "draw a card")
        keys[DRAW_ACTION] = str(len(options))
    if can_keep:
        options.append("keep the drawn card")
        keys[KEEP_ACTION] = str(len(options))
    offer = getattr(ui, "offer", None)
    if offer is not None:
        offer(keys)
    words = ["number", "a card like 8s" if cards else ""]
    if can_draw:
        words.append("d to take the penalty" if state.penalty else "d to draw")
    if can_keep:
        words.append("k to keep")
    if can_call:
        words.append("p to call Page One")
    prompt = "Your move (" + ", ".join(w for w in words if w) + ")"
    while True:
        ui.show("Your hand: " + " ".join(NAME[c] for c in hand))
        ui.show("  ".join(f"[{i}] {text}" for i, text in enumerate(options, start=1)))
        if can_call:
            ui.show("  [p] call \"Page One!\"" + ("  (called)" if called else ""))
        answer = ui.ask(prompt).strip()
        lowered = answer.lower()
        if lowered == "help":
            ui.show("Play a card that matches the top card's rank or suit (an 8 goes on anything). "
                    "Type its number or its name (7h, 10s, qd).")
            continue
        if lowered in ("p", "page one", "pageone", "page-one"):
            if can_call:
                called = True
                ui.show("\"Page One!\" - now choose your card.")
            else:
                ui.show("Page One is called with the play that leaves you one card; not now.")
            continue
        if lowered in ("d", "draw", "take"):
            if can_draw:
                return DRAW_ACTION
            ui.show(_no_draw(state, cards))
            continue
        if lowered in ("k", "keep"):
            if can_keep:
                return KEEP_ACTION
            ui.show("There is no drawn card to keep.")
            continue
        if not lowered:
            ui.show(type_a_number(len(options))[:-1] + (", or a card like 8s." if cards else "."))
            continue
        choice: tuple | None = None
        if answer.isdigit():
            if not 1 <= int(answer) <= len(options):
                ui.show(type_a_number(len(options)))
                continue
            index = int(answer) - 1
            if index < len(cards):
                choice = (PLAY, cards[index], -1, False)
            elif options[index].startswith(("draw", "take")):
                choice = DRAW_ACTION
            else:
                choice = KEEP_ACTION
        else:
            parts = lowered.replace("!", " ! ").split()
            if "!" in parts and can_call:
                called = True
            parsed = None
            if parts and parts[0] != "!":
                try:
                    parsed = parse_card(parts[0])
                except CardError:
                    parsed = None
            if parsed is not None:
                if parsed not in cards:
                    if parsed in state.hands[seat]:
                        probe = (PLAY, parsed, 0 if state.cfg.card_special[parsed] == EIGHT else -1, False)
                        ui.show(f"You can't play {NAME[parsed]} now: {state.why_illegal(probe)}.")
                    else:
                        ui.show(f"{NAME[parsed]} is not in your hand.")
                    continue
                suit = -1
                if len(parts) > 1 and parts[1] != "!":
                    try:
                        suit = parse_suit(parts[1])
                    except CardError as error:
                        ui.show(str(error))
                        continue
                choice = (PLAY, parsed, suit, False)
            else:
                move = variant.parse_move(state, answer, legal)
                if move is None:
                    ui.show(f"{answer!r} is not one of your choices.")
                    continue
                choice = move
        if choice[0] == PLAY:
            card, suit = choice[1], choice[2]
            if state.cfg.card_special[card] == EIGHT and suit < 0:
                suit = _ask_suit(state, seat, card, ui)
            action = (PLAY, card, suit, called and can_call)
            if action in legal:
                return action
            ui.show("That move is not allowed now.")
            continue
        return choice


def _no_draw(state: MatchingState, cards: list[int]) -> str:
    """Why ``d`` does nothing now: "You can't draw: you can play 2C"."""
    if state.phase == P_AFTER_DRAW:
        return f"You have drawn already: play the drawn {NAME[state.drawn]} or keep it (k)."
    playable = join_or([NAME[c] for c in cards])
    return f"You can't draw: you can play {playable}."


def _ask_suit(state: MatchingState, seat: int, card: int, ui: Any) -> int:
    counts = [0, 0, 0, 0]
    for c in state.hands[seat]:
        if c != card and c < 52:
            counts[c // 13] += 1
    while True:
        menu = "  ".join(f"[{s + 1}/{SUITS[s].lower()}] {SUIT_NAMES[s]} ({counts[s]} in hand)"
                         for s in range(4))
        ui.show(menu)
        answer = ui.ask("Name the next suit").strip()
        if answer in ("1", "2", "3", "4"):
            return int(answer) - 1
        try:
            return parse_suit(answer)
        except CardError as error:
            ui.show(str(error))
