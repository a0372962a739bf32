"""A person's turn at End of the Page (the prompts ability): draw, then meld /
lay off / discard, one decision per call, refusing illegal plays with the reason."""

from __future__ import annotations

from typing import Any

from cardcli.contract.abilities import UI, Prompts
from cardcli.contract.variant import Action
from cardcli.kit.cards import NAME, RANK, parse_card
from cardcli.kit.errors import IllegalMove
from cardcli.kit.grammar import type_a_number
from cardcli.kit.melds import (
    interpretations,
    layoff_meanings,
    layoff_problem,
    meld_text,
    stands_for,
    why_not_meld,
)
from cardcli.words.prompts import Say, Turn, ask
from cardcli.words.table_text import hand_text, picked_cards

from .state import DISCARD, DRAW_ACTION, LAYOFF, MELD, P_DRAW, PICKUP, TAKE, EndOfPageState
from .table import move_view

EMPTY = "type a command (help for the list)"
NO_COMMAND = "is not a command (help for the list)"  # how parse_command refuses a word that is none
HELP = """Commands:
  m CARDS      meld, e.g.  m 4s 4h 7d  (cards by name or by number in hand)
  l CARD MELD  lay off a card on a meld on the table, e.g.  l 7c 2
  d CARD       discard and end your turn, e.g.  d kc  (a last card that plays
               cannot be discarded)
  list         the melds and lay-offs you could make now
  ? or hint    a hint: how the hard CPU rates your choices from your seat
  help         this help
Wilds (marked *) stand for the card you choose; two wilds need two natural
cards between them."""


def _cards(state: EndOfPageState, seat: int, words: list[str]) -> list[int]:
    for word in words:  # "10s=5c": what a wild stands for is asked once the move is clear
        if "=" in word:
            raise ValueError(f"name the card alone ({word.split('=')[0]}); what a wild stands for is "
                             "asked next")
    return picked_cards(state.hands[seat], words, state.wild)


def _meld(state: EndOfPageState, seat: int, held: list[str], text: str, said: list[str],
          picked: int | None = None) -> list[Any]:
    """The melds the words make of cards ``held`` (each wild's meaning, where
    said as a record writes it, ``3d=4s``, must match)."""
    cards = _cards(state, seat, [word.split("=")[0] for word in held]) + ([] if picked is None else [picked])
    found = interpretations(cards, state.mrules)
    if "=" in text:
        words = sorted(word.upper() for word in said)
        found = [m for m in found if sorted(meld_text(m, state.mrules).upper().split()) == words]
    if not found:
        raise ValueError(f"not a legal meld: {why_not_meld(cards, state.mrules)}")
    return found


def parse_command(state: EndOfPageState, seat: int, text: str) -> Any:
    """A typed command as an action, or a list of actions when a wild's meaning
    is ambiguous.  Raises ``ValueError`` with the reason a person should read."""
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(EMPTY)
    verb, rest = words[0].lower(), words[1:]
    if state.phase == P_DRAW:
        if verb in ("draw", "stock", "s"):
            return DRAW_ACTION
        if verb in ("take", "t"):
            if not state.discard:
                raise ValueError("the discard pile is empty")
            return (TAKE, state.top)
        if verb in ("pickup", "pick") and len(rest) > 1:  # pickup 10c 10s 10h 10c: a deeper card, melded
            bare = [word.split("=")[0] for word in rest[1:]]
            if rest[0] not in bare:
                raise ValueError("the card picked up is one of the meld's")
            at = bare.index(rest[0]) + 1
            melds = _meld(state, seat, rest[1:at] + rest[at + 1:], text, rest[1:], parse_card(rest[0]))
            return [(PICKUP, parse_card(rest[0]), meld) for meld in melds]
        raise ValueError("draw first: from the stock or the discard pile")
    if verb in ("d", "discard"):
        if len(rest) != 1:
            raise ValueError("say which card to discard, e.g.  d kc")
        return (DISCARD, _cards(state, seat, rest)[0])
    if verb in ("m", "meld"):
        actions = [(MELD, meld) for meld in _meld(state, seat, rest, text, rest)]
        return actions[0] if len(actions) == 1 else actions
    if verb in ("l", "lay", "layoff"):
        if len(rest) != 2 or not rest[1].isdigit():
            raise ValueError("say the card and the meld number, e.g.  l 7c 2")
        if not state.melded[seat]:
            raise ValueError("lay-offs are allowed only after your own first meld")
        word, _, means = rest[0].partition("=")  # l 3s=4d 2: the wild's meaning said
        card = _cards(state, seat, [word])[0]
        index = int(rest[1]) - 1
        if not 0 <= index < len(state.melds):
            raise ValueError(f"there is no meld {index + 1} on the table")
        meanings = layoff_meanings(state.melds[index], card, state.mrules)
        if not meanings:
            reason = layoff_problem(state.melds[index], card, state.mrules)
            raise ValueError(f"{NAME[card]} cannot be laid off on meld {index + 1}: {reason}")
        layoffs = [(LAYOFF, index, card, r) for r in meanings
                   if not means or stands_for(state.melds[index], r).lower() == means]
        return layoffs[0] if len(layoffs) == 1 else layoffs
    raise ValueError(f"{text.strip()!r} {NO_COMMAND}")


def _command(state: EndOfPageState, text: str) -> Action | str:
    """The move a command types, or why it is none ("" for a word that is no command)."""
    try:
        action = parse_command(state, state.turn, text)
    except ValueError as error:
        return "" if str(error).endswith(NO_COMMAND) else str(error)
    if isinstance(action, list) and len(action) > 1:
        example = _meaning_example(state, action[0])
        return f"more than one meaning fits the wild: write it as a record does, e.g.  {example}"
    return (action or [None])[0] if isinstance(action, list) else action


def _meaning_example(state: EndOfPageState, action: Action) -> str:
    """One way to write the wild of an ambiguous meld, as a record writes it
    (``kc=6s``): the first of the meanings that fit."""
    if action[0] == MELD:
        words = meld_text(action[1], state.mrules).split()
    elif action[0] == PICKUP:
        words = meld_text(action[2], state.mrules).split()
    else:
        return "3d=4h"
    return next((word.lower() for word in words if "=" in word), "3d=4h")


class EndOfPagePrompts(Prompts):
    """Typed moves (``draw``, ``take``, ``m 4s 4h 3d``, ``l 3s 1``, ``d kc``) and the dialogue."""

    def parse_move(self, state: EndOfPageState, text: str, legal: list[Action]) -> Action | None:
        """A typed command as one of ``legal`` (wild meanings worked out when only one fits)."""
        action = _command(state, text)
        return None if isinstance(action, str) or action not in legal else action

    def why_not_move(self, state: EndOfPageState, text: str) -> str | None:
        """Why a command is no move: ``parse_command``'s reason, or a wild with more than one meaning."""
        reason = _command(state, text)
        return reason if isinstance(reason, str) and reason else None

    def human_turn(self, state: EndOfPageState, seat: int, legal: list[Action], ui: UI) -> Action:
        return human_dialogue(state, seat, legal, ui)


def human_dialogue(state: EndOfPageState, seat: int, legal: list[Action], ui: UI) -> Action:
    """One decision of a person's turn: the draw, or a meld, lay-off or discard."""
    if state.phase == P_DRAW:
        return _draw(state, legal, ui)
    if len(state.hands[seat]) == 1 and all(a[0] == LAYOFF for a in legal):
        ui.show(f"Your last card {NAME[state.hands[seat][0]]} plays, so you must play it.")
    kinds = {action[0] for action in legal}
    offered = [(MELD, "meld (m)"), (LAYOFF, "lay off (l)"), (DISCARD, "discard (d)")]
    words = [text for kind, text in offered if kind in kinds]
    prompt = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]

    def listing() -> Say:
        return Say("\n".join(move_list(state, seat, legal)))

    def typed(answer: str) -> Any:
        refusal = _not_now(state, seat, answer.split()[0].lower(), kinds)
        if refusal:
            return Say(refusal)
        if answer.lower() in ("?", "hint"):  # reaching here only when the prompt offers no hint
            return Say(HELP)
        try:
            action = parse_command(state, seat, answer)
        except ValueError as error:  # a typo, or a meld that is none: said as it is
            return Say(sentence(str(error)))
        if isinstance(action, list):
            labels = [move_view(state, seat, a).label for a in action]
            action = action[ui.choose("What does the wild stand for?", labels)]
        try:
            state.check(action)
        except IllegalMove as error:
            return Say(f"Not allowed: {error.rule}.")
        if action[0] == DISCARD and RANK[action[1]] == state.wild and len(state.hands[seat]) > 1:
            ui.show(f"(Discarding a wild: the next player may take {NAME[action[1]]}.)")
        return action

    return ask(ui, Turn(prompt[0].upper() + prompt[1:] + "? (help, ? for a hint)", typed=typed, help=HELP,
                        words=dict.fromkeys(("list", "ls"), listing), empty=sentence(EMPTY),
                        lines=lambda: [your_hand(state, seat)], hand_in_table=True))


def your_hand(state: EndOfPageState, seat: int) -> str:
    """The hand, numbered for picking cards, as the table shows it at the turn."""
    return f"Your hand: {hand_text(state.hands[seat], state.wild, numbered=True)}"


def sentence(text: str) -> str:
    """``text`` said as a sentence: a capital first, a full stop last."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def move_list(state: EndOfPageState, seat: int, legal: list[Action]) -> list[str]:
    """Every meld and lay-off of ``legal`` (``list``), one line each: moves
    that differ only in which of the hand's wilds plays a part are one line,
    naming the other wilds ("meld 4S 4H QC=4  (or with QH)")."""
    shown: dict[str, tuple[str, list[str]]] = {}
    for action in legal:
        if action[0] not in (MELD, LAYOFF):
            continue
        label = move_view(state, seat, action).label
        wilds = [NAME[card] for card in _cards_of(action) if state.is_wild(card) and NAME[card] in label]
        key = label
        for wild in wilds:  # the part a wild plays, whichever wild plays it
            key = key.replace(f"{wild}=", "*=").replace(f"off {wild} as ", "off * as ")
        if key not in shown:
            shown[key] = (label, [])
        else:
            first, others = shown[key]
            others.extend(wild for wild in wilds if wild not in first and wild not in others)
    if not shown:
        return ["No meld or lay-off now: discard a card."]
    return [f"  {label}" + (f"  (or with {', '.join(others)})" if others else "")
            for label, others in shown.values()]


def _cards_of(action: Action) -> tuple[int, ...]:
    """The hand's cards a meld or a lay-off puts on the table."""
    return tuple(action[1][3]) if action[0] == MELD else (action[2],)


def _draw(state: EndOfPageState, legal: list[Action], ui: UI) -> Action:
    """The draw that starts a turn: a numbered menu (``draw`` and ``take``
    typed work too); a command of the rest of the turn is answered with why
    it waits."""
    labels = []
    for action in legal:
        if action == DRAW_ACTION:
            labels.append(f"draw from the stock ({len(state.stock)} cards)")
        elif action[0] == TAKE:
            labels.append(f"take {NAME[action[1]]} (top of the discard pile)")
        else:
            labels.append(f"pick up {NAME[action[1]]} from deeper in the pile and meld "
                          f"{meld_text(action[2], state.mrules)}")
    take = next((a for a in legal if a[0] == TAKE), None)

    def typed(answer: str) -> Any:
        return Say(_draw_first(state, legal, answer.split()[0].lower()) or type_a_number(len(legal)))

    return ask(ui, Turn("Draw from", list(zip(labels, legal)), typed=typed, words={
        **dict.fromkeys(("draw", "stock", "s"), lambda: DRAW_ACTION),
        **dict.fromkeys(("take", "t"), lambda: take or Say("You can't take: the discard pile is empty. "
                                                           "Draw from the stock."))},
        empty=type_a_number(len(legal))))


def _draw_first(state: EndOfPageState, legal: list[Action], verb: str) -> str:
    """Why a command of the rest of the turn does nothing before the draw, or ``""``."""
    key = {action: number for number, action in enumerate(legal, start=1)}
    take = next((a for a in legal if a[0] == TAKE), None)
    draw = f"the stock ({key[DRAW_ACTION]})" + (f" or the top discard, {NAME[take[1]]} ({key[take]})"
                                               if take else "")
    pickups = [number for number, a in enumerate(legal, start=1) if a[0] == PICKUP]
    if verb in ("m", "meld"):
        if pickups:
            listed = ", ".join(str(n) for n in pickups)
            return (f"Draw first: {draw}; melds come after the draw. A deeper discard can be "
                    f"picked up to meld it at once: {listed} above.")
        return f"Draw first: {draw}; melds come after the draw."
    if verb in ("l", "lay", "layoff"):
        return f"Draw first: {draw}; lay-offs come after the draw."
    if verb in ("d", "discard"):
        return f"Draw first: {draw}; a discard ends your turn, after the draw."
    if verb in ("list", "ls"):
        return f"Draw first: {draw}; then list shows the melds and lay-offs you can make."
    if verb in ("help", "?", "hint"):
        return (f"Draw first: {draw}, by its number (or type draw or take).\n"
                "A deeper discard may be taken only to meld it at once with two natural cards from "
                "your hand.\nThen meld, lay off and discard (help then lists the commands).")
    return ""


def _not_now(state: EndOfPageState, seat: int, verb: str, kinds: set[int]) -> str:
    """Why a command the prompt does not offer does nothing now, or ``""``."""
    if verb in ("m", "meld") and MELD not in kinds:
        return "You can't meld: no three cards of your hand make a set or a run."
    if verb in ("l", "lay", "layoff") and LAYOFF not in kinds:
        if not state.melded[seat]:
            return "You can't lay off yet: lay-offs come after your own first meld."
        return "You can't lay off: no card of your hand fits a meld on the table."
    if verb in ("d", "discard") and DISCARD not in kinds:
        card = NAME[state.hands[seat][0]]
        return f"You can't discard: your last card {card} plays, so you must lay it off (l {card.lower()} N)."
    if verb in ("draw", "stock", "s", "take", "t"):
        return "You have drawn already this turn: meld, lay off or discard."
    return ""
