"""A person's turn at matching Page One: numbered choices or typed cards, then the suit for an 8."""

from __future__ import annotations

from typing import Any

from cardcli.contract.variant import UI, Action, Variant
from cardcli.kit.cards import SUITS, parse_card, parse_suit, sorted_hand, suit_words
from cardcli.kit.errors import CardError
from cardcli.words.prompts import (
    PAGE_ONE,
    STOP,
    Call,
    Other,
    Say,
    card_turn,
    not_allowed,
    packed,
    split_calls,
    typed_move,
)

from .config import EIGHT
from .language import N_, _
from .narrate import play_refused
from .state import DRAW_ACTION, KEEP_ACTION, P_AFTER_DRAW, P_PLAY, PLAY, MatchingState

#: The turn's help, shown as ``_(HELP)``.
HELP = N_("Play a card that matches the top card's rank or suit (an 8 goes on anything). "
          "Type its number or its name (7h, 10s, qd).")
#: The words that draw (or take the penalty).
DRAW_WORDS = ("d", "draw", "take")
#: The typed moves that name no card.
PLAIN_WORDS = {**dict.fromkeys(DRAW_WORDS, DRAW_ACTION),
               **dict.fromkeys(("k", "keep"), KEEP_ACTION)}


class MatchingPrompts(Variant[MatchingState]):
    def parse_move(self, state: MatchingState, text: str, legal: list[Action]) -> Action | None:
        """Typed moves: ``7h``, ``8s h`` (an 8 naming hearts), ``7h!``, ``p 7h``
        or ``7h page one`` (with the Page One call), ``7h stop`` or ``s 7h``
        (with the Stop call, where it is on), ``draw``/``d``, ``keep``/``k``.
        A call named where the play carries the other call is no move."""
        said, words = split_calls(text, _calls(state))
        if _miscalled(state, said):
            return None  # why_not_move says which call goes with which card
        call = said is not None
        action = typed_move(words, legal, PLAIN_WORDS, lambda words: (
            PLAY, parse_card(words[0]), parse_suit(words[1]) if len(words) > 1 else -1, call))
        if action is not None and action[0] == PLAY and action[2] < 0 \
                and state.cfg.card_special[action[1]] == EIGHT:
            return None  # an 8 names its suit (why_not_move says how)
        return action

    def why_not_move(self, state: MatchingState, text: str) -> str | None:
        """A call named with a play it does not go with; an 8 typed without
        the suit it names."""
        said, words = split_calls(text, _calls(state))
        due = _due(state)
        if _miscalled(state, said) and isinstance(said, Call) and due is not None:
            return _(_CALL_WITH[due.name]).format(due=due.name, said=said.name)
        if not state.cfg.stop_call and "stop" in words:
            return _("there is no Stop call at this table (stop_call is off)")
        try:
            card = parse_card(words[0]) if len(words) == 1 else -1
        except CardError:
            return None
        if card >= 0 and state.cfg.card_special[card] == EIGHT:
            return _("an 8 names the suit to follow: say it after the card, e.g. {example}").format(
                example=f"{words[0]} hearts")  # what to type: the words the parser reads
        return None

    def human_turn(self, state: MatchingState, seat: int, legal: list[Action], ui: UI) -> Action:
        """Only legal moves are offered (a word typed anyway is answered with the rules' reason); an 8
        then asks for its suit."""
        cards = sorted({a[1] for a in legal if a[0] == PLAY}, key=lambda c: (c // 13, c))
        draw = Other(_("take the penalty"), DRAW_ACTION, DRAW_WORDS, _("{key} to take the penalty").format(
            key="d")) if state.penalty else Other(_("draw a card"), DRAW_ACTION, DRAW_WORDS,
                                                  _("{key} to draw").format(key="d"))
        keep = Other(_("keep the drawn card"), KEEP_ACTION, ("k", "keep"), _("{key} to keep").format(key="k"))

        def play(card: int, called: bool, rest: list[str]) -> Any:
            try:
                suit = parse_suit(rest[0]) if rest else -1
            except CardError as error:
                return Say(str(error))
            if state.cfg.card_special[card] == EIGHT and suit < 0:
                suit = _ask_suit(state, seat, card, ui)
            action = (PLAY, card, suit, called)
            return action if action in legal else not_allowed(state, action)  # the rules' reason

        can_call = any(a[0] == PLAY and a[3] for a in legal)
        return card_turn(ui, state, legal, hand=sorted_hand(state.hands[seat]), cards=cards, play=play,
                         why_not=lambda card: play_refused(state, card), others=(draw, keep),
                         can_call=can_call, help=_(HELP), call=_due(state) or PAGE_ONE, calls=_calls(state),
                         parse=lambda text: self.parse_move(state, text, legal),
                         keys={a: str(cards.index(a[1]) + 1) for a in legal if a[0] == PLAY})


def _calls(state: MatchingState) -> tuple[Call, ...]:
    """The calls of the game: Page One, and Stop where ``stop_call`` is on."""
    return (PAGE_ONE, STOP) if state.cfg.stop_call else (PAGE_ONE,)


#: A call named with the wrong card, refused: by the call that goes with it (``due``), said as ``said``.
_CALL_WITH = {PAGE_ONE.name: N_("the call with the second-to-last card is {due}, not {said}"),
              STOP.name: N_("the call with the last card is {due}, not {said}")}


def _miscalled(state: MatchingState, said: Call | str | None) -> bool:
    """Whether a call was named where the play carries the other one (a call where none goes is the
    rules' to refuse, as a record's would be)."""
    due = _due(state)
    return isinstance(said, Call) and due is not None and said != due


def _due(state: MatchingState) -> Call | None:
    """The call that goes with the play of the player to move, if any."""
    if state.phase not in (P_PLAY, P_AFTER_DRAW):
        return None
    size = len(state.hands[state.turn])
    if size == 2:
        return PAGE_ONE
    return STOP if size == 1 and state.cfg.stop_call else None


def _ask_suit(state: MatchingState, seat: int, card: int, ui: UI) -> int:
    counts = [0, 0, 0, 0]
    for c in state.hands[seat]:
        if c != card and c < 52:
            counts[c // 13] += 1
    # Each suit after the keys that choose it ("[2/h]"): what to type, not words.
    labels = [_("{suits} ({count} in hand)").format(suits=suit_words(s), count=counts[s]) for s in range(4)]
    menu = packed([f"[{s + 1}/{SUITS[s].lower()}] {labels[s]}" for s in range(4)])
    while True:
        ui.show("\n".join(menu))
        answer = ui.ask(_("Name the next suit"), again=menu).strip()
        if answer in ("1", "2", "3", "4"):
            return int(answer) - 1
        try:
            return parse_suit(answer)
        except CardError as error:
            ui.show(str(error))
