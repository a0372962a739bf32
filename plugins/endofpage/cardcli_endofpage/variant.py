"""End of the Page as a cardcli variant: records, descriptions, the table and the prompt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcli.cards import NAME, RANK, RANK_NAMES, SUIT, SUITS, build_deck, parse_rank, parse_suit
from cardcli.errors import CardError, RulesetError
from cardcli.events import card_field, only_fields
from cardcli.melds import RUN, SET, layoff_meanings, meld_from, meld_text
from cardcli.options import changed_options
from cardcli.variant import CHANCE, Action, Policy, Rules, Variant, after_move
from cardcli.view import MeldView, MoveView, Pile, PlayerView, ScoreSheet, TableView
from cardcli.words import name_seats, possessive, seat_name, seat_names

from . import cpu, narrate
from .config import CONSTRAINTS, OPTIONS, Config, check_rules, decks_for
from .dialogue import human_dialogue
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


class EndOfPageVariant(Variant[EndOfPageState]):
    name = "endofpage"
    title = "End of the Page"
    description = "Rummy over many rounds: hand sizes by turned cards, a new wild rank each deal"
    min_players = 2
    max_players = 6
    default_players = 2
    options = OPTIONS
    constraints = CONSTRAINTS
    cpu_levels = ("easy", "normal")

    _configs: dict[tuple, Config] = {}

    def config(self, rules: Mapping[str, Any], num_players: int) -> Config:
        key = (tuple(sorted(rules.items())), num_players)
        cfg = self._configs.get(key)
        if cfg is None:
            cfg = self._configs[key] = Config(rules, num_players)
        return cfg

    def check_rules(self, rules: Rules, num_players: int | None = None) -> None:
        check_rules(rules, num_players)

    def deck(self, rules: Rules, num_players: int) -> list[int]:
        return build_deck(decks_for(rules, num_players), without_ranks=(2,))

    def new_state(self, rules: Rules, num_players: int, dealer: int) -> EndOfPageState:
        if rules.get("decks") == 1 and num_players > 3:
            raise RulesetError(f"{num_players} players need two decks (option 'decks')")
        return EndOfPageState(self.config(rules, num_players), num_players, dealer,
                              self.deck(rules, num_players))

    def cpu_policy(self, level: str) -> Policy[EndOfPageState]:
        if level not in cpu.POLICIES:
            raise ValueError(level)
        return cpu.POLICIES[level]

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
            stated = data.get("cards")
            if stated is not None and stated != len(state.discard) - 1:
                raise ValueError(f"the reshuffle makes a stock of {len(state.discard) - 1} cards, "
                                 f"not {stated!r}")
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
            text = _laid_off(state, index, card, as_rank)
            return f"laid off {text} on meld {index + 1}"
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
        return self.describe(state, action, names=names)

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
            text = _laid_off(state, index, card, as_rank)
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

    def describe_events(self, events: Sequence[tuple[Any, Any]], viewer: int | None = None,
                        names: Sequence[str] | None = None) -> list[str]:
        """A draw from the stock in one line with its card ("ann drew 7D from the stock")."""
        return narrate.describe_events(self, events, viewer, names)

    def explain(self, state: EndOfPageState, action: Action, names: Sequence[str] | None = None) -> str:
        return narrate.explain(state, action, names)

    def round_summary(self, state: EndOfPageState, action: Action,
                      names: Sequence[str] | None = None) -> str | None:
        return narrate.round_summary(state, action, names)

    def rules_summary(self, rules: Rules) -> list[str]:
        return narrate.rules_summary(changed_options(rules, self.options))

    def render(self, state: EndOfPageState, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
        return render_table(state, viewer, names)

    def table_view(self, state: EndOfPageState, viewer: int | None, names: Sequence[str]) -> TableView:
        """The table as data: the discard pile (every card: deeper ones can be
        picked up), the melds with what each wild stands for, the score sheet,
        each player's count and points; the viewer's hand, wilds marked."""
        return table_view(state, viewer, names, self.render(state, viewer=viewer, names=names))

    def move_view(self, state: EndOfPageState, seat: int, action: Action, names: Sequence[str]) -> MoveView:
        """Draw or take as buttons; a pick-up, meld, lay-off or discard by the
        hand cards it uses, with what the wilds stand for as the choice.  The
        label never tells how the round would end (that would read the other hands)."""
        return move_view(state, seat, action)

    def parse_move(self, state: EndOfPageState, text: str, legal: list[Action]) -> Action | None:
        """Typed moves: ``draw``, ``take``, ``d KC`` (discard), ``m 4s 4h 3d``
        (meld, wild meanings worked out when only one fits), ``l 3s 1`` (lay
        off on meld 1).  ``None`` when the text is not one of ``legal``."""
        from .dialogue import parse_command

        try:
            action = parse_command(state, state.turn, text)
        except ValueError:
            return None
        if isinstance(action, list):
            action = action[0] if len(action) == 1 else None
        return action if action in legal else None

    def human_turn(self, state: EndOfPageState, seat: int, legal: list[Action], ui: Any) -> Action:
        return human_dialogue(self, state, seat, legal, ui)


def _laid_off(state: EndOfPageState, index: int, card: int, as_rank: int) -> str:
    """A card laid off, with what a wild stands for: ``5H (as QS)``.  The
    meld may not exist (a refused move names whatever it was given)."""
    text = NAME[card]
    if state.is_wild(card):
        meld = state.melds[index] if 0 <= index < len(state.melds) else None
        suit = SUITS[meld[1]] if meld is not None and meld[0] == RUN else ""
        text += f" (as {RANK_NAMES.get(as_rank, '?')}{suit})"
    return text


def named(text: str, names: Sequence[str] | None) -> str:
    """``text`` with "seat N" replaced by the players' names."""
    return name_seats(text, names)


def round_over(state: EndOfPageState, action: Action, names: Sequence[str] | None) -> str:
    """When ``action`` ends the round: that it does, and how when the line
    does not say it already (nothing for an illegal action, which ends
    nothing).  The round's scores are not here: they are the round's summary
    (``round_summary``, shown next) and the score sheet, said once."""
    after = after_move(state, action)
    if after is None or after.round == state.round:
        return ""
    names = seat_names(names, state.num_players)
    how = named(after.notes[-1], names)
    if how == f"{names[state.turn]} went out":  # "discarded 9D and went out" says it
        return f". Round {state.round + 1} is over"
    return f". Round {state.round + 1} is over ({how})"


# --------------------------------------------------------------------- table
def hand_text(state: EndOfPageState, hand: Sequence[int], numbered: bool = False) -> str:
    """A hand sorted and grouped: suits low to high, the wilds apart."""
    order = sorted_for_display(state, hand)
    groups: list[str] = []
    current = None
    words: list[str] = []
    for number, card in enumerate(order, start=1):
        group = "wild" if state.is_wild(card) else SUITS[SUIT[card]]
        if group != current:
            if words:
                groups.append(" ".join(words))
            words = []
            current = group
        label = NAME[card] + ("*" if state.is_wild(card) else "")
        words.append(f"{number}:{label}" if numbered else label)
    if words:
        groups.append(" ".join(words))
    return " | ".join(groups)


def sorted_for_display(state: EndOfPageState, hand: Sequence[int]) -> list[int]:
    return sorted(hand, key=lambda c: (1 if state.is_wild(c) else 0, SUIT[c], RANK[c]))


def meld_display(state: EndOfPageState, index: int) -> str:
    meld = state.melds[index]
    parts = []
    kind, key, low, cards = meld
    for i, card in enumerate(cards):
        if state.is_wild(card):
            means = RANK_NAMES[key] if kind == SET else RANK_NAMES[low + i] + SUITS[key]
            parts.append(f"{NAME[card]}(={means})")
        else:
            parts.append(NAME[card])
    what = f"set of {RANK_NAMES[key]}s" if kind == SET else f"run of {SUITS[key]}"
    return f"{' '.join(parts)}  [{what}]"


def score_sheet(state: EndOfPageState, names: Sequence[str]) -> list[str]:
    """The running score sheet: one line per round played, then the totals."""
    width = max(6, *(len(n) for n in names))
    lines = ["Score sheet:", "  round " + " ".join(f"{n:>{width}}" for n in names)]
    for number, scores in enumerate(state.round_scores, start=1):
        lines.append(f"  {number:>5} " + " ".join(f"{s:>{width}}" for s in scores)
                     + f"   ({named(state.notes[number - 1], names)})")
    lines.append("  total " + " ".join(f"{s:>{width}}" for s in state.totals))
    return lines


def _acting(state: EndOfPageState) -> int:
    """The seat the table points at: the player to move, or the one a card comes to."""
    player = state.current_player()
    return state.turn if player == CHANCE and state.phase != P_DEAL else player


def _seat_notes(state: EndOfPageState, seat: int) -> list[str]:
    """What the table says beside a player: dealer, out, floating (melded
    their last card), has melded."""
    notes = []
    if seat == state.dealer:
        notes.append("dealer")
    if seat in state.out:
        notes.append("out")
    elif not state.hands[seat] and state.melded[seat]:
        notes.append("floating")
    elif state.melded[seat]:
        notes.append("has melded")
    return notes


def _seat_score(state: EndOfPageState, seat: int) -> str:
    """A player's points on the table this round, and their total."""
    on_table = sum(state.points[c] for c in state.played[seat])
    return f"table {on_table}, total {state.totals[seat]}"


def render_table(state: EndOfPageState, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> str:
    n = state.num_players
    names = seat_names(names, n)
    cfg = state.cfg
    lines: list[str] = []
    over = state.result() is not None
    # The score sheet of the rounds before is the round's summary, shown when
    # it ends (``round_summary``); the table keeps only the totals, in its
    # rows, until the sheet closes the game.
    if state.round_scores and over:
        lines.extend(score_sheet(state, names))
        lines.append("")
    if over:
        lines.append(f"The last round, round {state.round}, as it ended ({named(state.ended, names)}):")
        head = []
    else:
        head = [f"Round {state.round + 1} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        head.append(f"target {cfg.target_score}")
    if state.wild:
        head.append(f"WILD: {RANK_NAMES[state.wild]}s")
    head.append(f"stock: {len(state.stock)}")
    head.append(f"rebuilds left: {cfg.reshuffles - state.reshuffled}")
    lines.append(" | ".join(head))
    if state.faceup >= 0:
        lines.append(f"Face-up wild in front of the dealer ({names[state.dealer]}): {NAME[state.faceup]}")
    if state.discard:
        below = " ".join(NAME[c] for c in reversed(state.discard[:-1]))
        lines.append(f"Discard pile: top {NAME[state.discard[-1]]}" + (f"; below (newest first): {below}"
                                                                       if below else ""))
    else:
        lines.append("Discard pile: empty")
    if state.melds:
        lines.append("On the table:")
        for index in range(len(state.melds)):
            laid = [f"{NAME[card]} by {names[seat]}" for (i, seat, card, _r) in state.layoffs
                    if i == index and seat != state.owners[index]]
            note = f"  (laid off: {', '.join(laid)})" if laid else ""
            lines.append(f"  {index + 1}. {names[state.owners[index]]}: {meld_display(state, index)}{note}")
    else:
        lines.append("On the table: no melds yet")
    acting = _acting(state)
    width = max(len(x) for x in names)
    for seat, hand in enumerate(state.hands):
        marker = ">" if seat == acting else " "
        flags = _seat_notes(state, seat)
        count = f"{len(hand):2d} card{'s' if len(hand) != 1 else ' '}"
        extra = f" ({', '.join(flags)})" if flags else ""
        lines.append(f" {marker} {seat} {names[seat]:<{width}}  {count}  {_seat_score(state, seat)}{extra}")
    if viewer is not None and 0 <= viewer < n:
        lines.append(f"Your hand: {hand_text(state, state.hands[viewer])}")
    elif viewer is None:
        for seat, hand in enumerate(state.hands):
            if hand:
                owner = "Your" if names[seat].lower() == "you" else f"{names[seat]}'s"
                lines.append(f"  {owner} hand: {hand_text(state, hand)}")
    return "\n".join(lines)


# ---------------------------------------------------------- the table as data
def table_view(state: EndOfPageState, viewer: int | None, names: Sequence[str], text: str) -> TableView:
    cfg = state.cfg
    acting = _acting(state)
    over = state.result() is not None
    players = [PlayerView(seat, names[seat], len(cards), _seat_notes(state, seat), _seat_score(state, seat))
               for seat, cards in enumerate(state.hands)]
    piles = [Pile("discard pile", [NAME[c] for c in state.discard], len(state.discard))]
    if state.faceup >= 0:
        piles.append(Pile("face-up wild", [NAME[state.faceup]], 1, note=f"in front of {names[state.dealer]}"))
    piles.append(Pile("stock", [], len(state.stock),
                      note=f"rebuilds left: {cfg.reshuffles - state.reshuffled}"))
    melds = []
    for index, meld in enumerate(state.melds):
        kind, key = meld[0], meld[1]
        label = f"set of {RANK_NAMES[key]}s" if kind == SET else f"run of {SUITS[key]}"
        melds.append(MeldView(meld_text(meld, state.mrules).split(), state.owners[index], label))
    notes = [f"Round {state.round + (0 if over else 1)} of {cfg.page_lines}"]
    if cfg.target_score is not None:
        notes.append(f"Target {cfg.target_score}")
    if state.wild:
        notes.append(f"Wild: {RANK_NAMES[state.wild]}s")
    hand: list[str] = []
    marks: dict[str, str] = {}
    if viewer is not None and 0 <= viewer < state.num_players:
        for card in sorted_for_display(state, state.hands[viewer]):
            hand.append(NAME[card])
            if state.is_wild(card):
                marks[NAME[card]] = "wild"
    scores = None
    if state.round_scores:
        rows = [[f"round {i}", *row] for i, row in enumerate(state.round_scores, start=1)]
        scores = ScoreSheet("points", rows, list(state.totals))
    return TableView(viewer=viewer, turn=acting if acting >= 0 else None, players=players, hand=hand,
                     marks=marks, piles=piles, melds=melds, notes=notes, scores=scores, text=text)


def move_view(state: EndOfPageState, seat: int, action: Action) -> MoveView:
    kind = action[0]
    rules = state.mrules
    if kind == DRAW:
        return MoveView("draw", f"draw from the stock ({len(state.stock)} cards)")
    if kind == TAKE:
        return MoveView("take", f"take {NAME[action[1]]} from the discard pile", target="discard pile")
    if kind == PICKUP:
        cards = list(action[2][3])
        cards.remove(action[1])
        text = meld_text(action[2], rules)
        return MoveView("pickup", f"pick up {NAME[action[1]]} from deeper in the pile and meld {text}",
                        [NAME[c] for c in cards], choice=text, target="discard pile")
    if kind == MELD:
        text = meld_text(action[1], rules)
        wild = any(state.is_wild(c) for c in action[1][3])
        return MoveView("meld", f"meld {text}", [NAME[c] for c in action[1][3]], choice=text if wild else "")
    if kind == LAYOFF:
        _, index, card, as_rank = action
        meld = state.melds[index]
        means = RANK_NAMES[as_rank] + (SUITS[meld[1]] if meld[0] == RUN else "")
        wild = state.is_wild(card)
        return MoveView("layoff", f"lay off {NAME[card]}" + (f" as {means}" if wild else "") +
                        f" on meld {index + 1}", [NAME[card]], choice=f"as {means}" if wild else "",
                        target=f"meld {index + 1}")
    if kind == DISCARD:
        last = len(state.hands[seat]) == 1
        return MoveView("discard", f"discard {NAME[action[1]]}" + (" and go out" if last else ""),
                        [NAME[action[1]]])
    raise ValueError(f"not a decision: {action!r}")
