"""A person's turn at End of the Page: draw, then meld /
lay off / discard, one decision per call, refusing illegal plays with the reason."""

from __future__ import annotations

from typing import Any

from cardcli.contract.variant import UI, Action, Variant
from cardcli.kit.cards import NAME, RANK, parse_card
from cardcli.kit.grammar import listed, type_a_number
from cardcli.kit.melds import (
    interpretations,
    layoff_meanings,
    layoff_problem,
    meld_text,
    stands_for,
    why_not_meld,
)
from cardcli.words.prompts import Say, Turn, ask, not_allowed, refusal, sentence
from cardcli.words.table_text import hand_text, picked_cards

from .language import N_, _
from .state import DISCARD, DRAW_ACTION, LAYOFF, MELD, P_DRAW, PICKUP, TAKE, EndOfPageState
from .table import move_view

#: What an empty answer is told, shown as ``_(EMPTY)``.
EMPTY = N_("type a command (help for the list)")
#: The turn's commands, shown as ``_(HELP)``.
# Translators: the commands (m, l, d, list, ?, hint, help) and their examples are typed: keep them.
HELP = N_("""Commands:
  m CARDS      meld, e.g.  m 4s 4h 7d  (cards by name or by number in hand)
  l CARD MELD  lay off a card on a meld on the table, e.g.  l 7c 2
  d CARD       discard and end your turn, e.g.  d kc  (a last card that plays
               cannot be discarded)
  list         the melds and lay-offs you could make now
  ? or hint    a hint: how the hard CPU rates your choices from your seat
  help         this help
Wilds (marked *) stand for the card you choose; two wilds need two natural
cards between them.""")

#: The prompt after the draw, by the kinds of move it offers (in this order), shown as ``_(...)``.
PROMPTS = {
    (MELD, LAYOFF, DISCARD): N_("Meld (m), lay off (l) or discard (d)? (help, ? for a hint)"),
    (MELD, LAYOFF): N_("Meld (m) or lay off (l)? (help, ? for a hint)"),
    (MELD, DISCARD): N_("Meld (m) or discard (d)? (help, ? for a hint)"),
    (LAYOFF, DISCARD): N_("Lay off (l) or discard (d)? (help, ? for a hint)"),
    (MELD,): N_("Meld (m)? (help, ? for a hint)"),
    (LAYOFF,): N_("Lay off (l)? (help, ? for a hint)"),
    (DISCARD,): N_("Discard (d)? (help, ? for a hint)"),
}


class NotACommand(ValueError):
    """How :func:`parse_command` refuses a word that is no command."""


def _cards(state: EndOfPageState, seat: int, words: list[str]) -> list[int]:
    for word in words:  # "10s=5c": what a wild stands for is asked once the move is clear
        if "=" in word:
            raise ValueError(_("name the card alone ({card}); what a wild stands for is asked next").format(
                card=word.split("=")[0]))
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
        raise ValueError(_("not a legal meld: {why}").format(why=why_not_meld(cards, state.mrules)))
    return found


def parse_command(state: EndOfPageState, seat: int, text: str) -> Any:
    """A typed command as an action, or a list of actions when a wild's meaning
    is ambiguous.  Raises ``ValueError`` with the reason a person should read."""
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(_(EMPTY))
    verb, rest = words[0].lower(), words[1:]
    if state.phase == P_DRAW:
        if verb in ("draw", "stock", "s"):
            return DRAW_ACTION
        if verb in ("take", "t"):
            if not state.discard:
                raise ValueError(_("the discard pile is empty"))
            return (TAKE, state.top)
        if verb in ("pickup", "pick") and len(rest) > 1:  # pickup 10c 10s 10h 10c: a deeper card, melded
            bare = [word.split("=")[0] for word in rest[1:]]
            if rest[0] not in bare:
                raise ValueError(_("the card picked up is one of the meld's"))
            at = bare.index(rest[0]) + 1
            melds = _meld(state, seat, rest[1:at] + rest[at + 1:], text, rest[1:], parse_card(rest[0]))
            return [(PICKUP, parse_card(rest[0]), meld) for meld in melds]
        raise ValueError(_("draw first: from the stock or the discard pile"))
    if verb in ("draw", "stock", "s", "take", "t", "pickup", "pick"):
        raise ValueError(refusal(state, DRAW_ACTION))  # drawn already: the rules say so
    if verb in ("d", "discard"):
        if len(rest) != 1:
            raise ValueError(_("say which card to discard, e.g.  {example}").format(example="d kc"))
        return (DISCARD, _cards(state, seat, rest)[0])
    if verb in ("m", "meld"):
        actions = [(MELD, meld) for meld in _meld(state, seat, rest, text, rest)]
        return actions[0] if len(actions) == 1 else actions
    if verb in ("l", "lay", "layoff"):
        if len(rest) != 2 or not rest[1].isdigit():
            raise ValueError(_("say the card and the meld number, e.g.  {example}").format(example="l 7c 2"))
        if not state.melded[seat]:
            raise ValueError(_("lay-offs are allowed only after your own first meld"))
        word, _equals, means = rest[0].partition("=")  # l 3s=4d 2: the wild's meaning said
        card = _cards(state, seat, [word])[0]
        index = int(rest[1]) - 1
        if not 0 <= index < len(state.melds):
            raise ValueError(_("there is no meld {number} on the table").format(number=index + 1))
        meanings = layoff_meanings(state.melds[index], card, state.mrules)
        if not meanings:
            reason = layoff_problem(state.melds[index], card, state.mrules)
            raise ValueError(_("{card} cannot be laid off on meld {number}: {reason}").format(
                card=NAME[card], number=index + 1, reason=reason))
        layoffs = [(LAYOFF, index, card, r) for r in meanings
                   if not means or stands_for(state.melds[index], r).lower() == means]
        return layoffs[0] if len(layoffs) == 1 else layoffs
    raise NotACommand(_("{text} is not a command (help for the list)").format(text=repr(text.strip())))


def _command(state: EndOfPageState, text: str) -> Action | str:
    """The move a command types, or why it is none ("" for a word that is no command)."""
    try:
        action = parse_command(state, state.turn, text)
    except ValueError as error:
        return "" if isinstance(error, NotACommand) else str(error)
    if isinstance(action, list) and len(action) > 1:
        return _("more than one meaning fits the wild: write it as a record does, e.g.  {example}").format(
            example=_meaning_example(state, action[0]))
    return (action or [None])[0] if isinstance(action, list) else action


def _meaning_example(state: EndOfPageState, action: Action) -> str:
    """One way to write the wild of an ambiguous meld, as a record writes it
    (``kc=6s``): the first of the meanings that fit."""
    meld = action[1] if action[0] == MELD else action[2] if action[0] == PICKUP else None
    words = meld_text(meld, state.mrules).split() if meld else []
    return next((word.lower() for word in words if "=" in word), "3d=4h")


def human_dialogue(state: EndOfPageState, seat: int, legal: list[Action], ui: UI) -> Action:
    """One decision of a person's turn: the draw, or a meld, lay-off or discard."""
    if state.phase == P_DRAW:
        return _draw(state, legal, ui)
    if len(state.hands[seat]) == 1 and all(a[0] == LAYOFF for a in legal):
        last = NAME[state.hands[seat][0]]
        ui.show(_("Your last card {card} plays, so you must play it.").format(card=last))
    kinds = {action[0] for action in legal}
    prompt = _(PROMPTS[tuple(kind for kind in (MELD, LAYOFF, DISCARD) if kind in kinds)])
    listing = dict.fromkeys(("list", "ls"), lambda: Say("\n".join(move_list(state, seat, legal))))

    def typed(answer: str) -> Any:
        not_now = _not_now(state, seat, answer.split()[0].lower(), kinds)
        if not_now:
            return Say(not_now)
        try:
            action = parse_command(state, seat, answer)
        except ValueError as error:  # a typo, or a meld that is none: said as it is
            return Say(sentence(str(error)))
        if isinstance(action, list):
            labels = [move_view(state, seat, a).label for a in action]
            action = action[ui.choose(_("What does the wild stand for?"), labels)]
        if refusal(state, action):
            return not_allowed(state, action)
        if action[0] == DISCARD and RANK[action[1]] == state.wild and len(state.hands[seat]) > 1:
            ui.show(_("(Discarding a wild: the next player may take {card}.)").format(card=NAME[action[1]]))
        return action

    return ask(ui, Turn(prompt, typed=typed, help=_(HELP), words=listing,
                        empty=sentence(_(EMPTY)), lines=lambda: [your_hand(state, seat)], hand_in_table=True))


class EndOfPagePrompts(Variant[EndOfPageState]):
    """Typed moves (``draw``, ``take``, ``m 4s 4h 3d``, ``l 3s 1``, ``d kc``) and the dialogue."""

    def parse_move(self, state: EndOfPageState, text: str, legal: list[Action]) -> Action | None:
        """A typed command as one of ``legal`` (wild meanings worked out when only one fits)."""
        action = _command(state, text)
        return None if isinstance(action, str) or action not in legal else action

    def why_not_move(self, state: EndOfPageState, text: str) -> str | None:
        """Why a command is no move: ``parse_command``'s reason, or a wild with more than one meaning."""
        reason = _command(state, text)
        return reason if isinstance(reason, str) and reason else None

    human_turn = staticmethod(human_dialogue)


def your_hand(state: EndOfPageState, seat: int) -> str:
    """The hand, numbered for picking cards, as the table shows it at the turn."""
    return _("Your hand: {hand}").format(hand=hand_text(state.hands[seat], state.wild, numbered=True))


def move_list(state: EndOfPageState, seat: int, legal: list[Action]) -> list[str]:
    """Every meld and lay-off of ``legal`` (``list``), one line each: moves
    that differ only in which of the hand's wilds plays a part are one line,
    naming the other wilds ("meld 4S 4H QC=4  (or with QH)")."""
    shown: dict[tuple[Any, ...], tuple[str, list[str]]] = {}
    for action in legal:
        if action[0] not in (MELD, LAYOFF):
            continue
        label = move_view(state, seat, action).label
        cards = action[1][3] if action[0] == MELD else (action[2],)  # the hand's cards it puts down
        wilds = [NAME[card] for card in cards if state.is_wild(card) and NAME[card] in label]
        key = _wilds_unnamed(state, action)
        if key not in shown:
            shown[key] = (label, [])
        else:
            first, others = shown[key]
            others.extend(wild for wild in wilds if wild not in first and wild not in others)
    if not shown:
        return [_("No meld or lay-off now: discard a card.")]
    return ["  " + (_("{move}  (or with {wilds})").format(move=label, wilds=listed(others)) if others
                    else label) for label, others in shown.values()]


def _wilds_unnamed(state: EndOfPageState, action: Action) -> tuple[Any, ...]:
    """A meld or a lay-off with each wild unnamed (``None``), keeping the part it
    plays (its place in the meld, what it stands for): the same for moves that
    differ only in which of the hand's wilds plays that part."""
    if action[0] == MELD:
        kind, key, low, cards = action[1]
        return (MELD, kind, key, low, tuple(None if state.is_wild(card) else card for card in cards))
    _layoff, index, card, as_rank = action
    return (LAYOFF, index, None if state.is_wild(card) else card, as_rank)


def _draw(state: EndOfPageState, legal: list[Action], ui: UI) -> Action:
    """The draw that starts a turn: a numbered menu (``draw`` and ``take``
    typed work too); a command of the rest of the turn is answered with why
    it waits."""
    labels = [_("take {card} (top of the discard pile)").format(card=NAME[a[1]]) if a[0] == TAKE
              else move_view(state, state.turn, a).label for a in legal]
    take = next((a for a in legal if a[0] == TAKE), None)

    def typed(answer: str) -> Any:
        return Say(_draw_first(legal, take, answer.split()[0].lower()) or type_a_number(len(legal)))

    return ask(ui, Turn(_("Draw from"), list(zip(labels, legal)), typed=typed, words={
        **dict.fromkeys(("draw", "stock", "s"), lambda: DRAW_ACTION),
        **dict.fromkeys(("take", "t"), lambda: take or not_allowed(state, (TAKE, -1)))},
        empty=type_a_number(len(legal))))


def _draw_first(legal: list[Action], take: Action | None, verb: str) -> str:
    """Why a command of the rest of the turn does nothing before the draw, or ``""``."""
    key = {action: number for number, action in enumerate(legal, start=1)}
    # Translators: where a turn's draw comes from, with each choice's number in the menu: put in the
    # sentences "Draw first: {draw}; ...".
    draw = (_("the stock ({stock}) or the top discard, {card} ({take})").format(
        stock=key[DRAW_ACTION], card=NAME[take[1]], take=key[take]) if take
        else _("the stock ({stock})").format(stock=key[DRAW_ACTION]))
    pickups = [number for number, a in enumerate(legal, start=1) if a[0] == PICKUP]
    if verb in ("m", "meld"):
        if pickups:
            numbers = listed([str(number) for number in pickups])
            return _("Draw first: {draw}; melds come after the draw. A deeper discard can be picked up to "
                     "meld it at once: {numbers} above.").format(draw=draw, numbers=numbers)
        return _("Draw first: {draw}; melds come after the draw.").format(draw=draw)
    if verb in ("l", "lay", "layoff"):
        return _("Draw first: {draw}; lay-offs come after the draw.").format(draw=draw)
    if verb in ("d", "discard"):
        return _("Draw first: {draw}; a discard ends your turn, after the draw.").format(draw=draw)
    if verb in ("list", "ls"):
        # Translators: {command} is the command typed ("list").
        return _("Draw first: {draw}; then {command} shows the melds and lay-offs you can make.").format(
            draw=draw, command="list")
    if verb in ("help", "?", "hint"):
        # Translators: {draw_command}, {take_command} and {help_command} are commands as typed ("draw",
        # "take", "help").
        return _("Draw first: {draw}, by its number (or type {draw_command} or {take_command}).\n"
                 "A deeper discard may be taken only to meld it at once with two natural cards from "
                 "your hand.\nThen meld, lay off and discard ({help_command} then lists the "
                 "commands).").format(draw=draw, draw_command="draw", take_command="take",
                                      help_command="help")
    return ""


def _not_now(state: EndOfPageState, seat: int, verb: str, kinds: set[int]) -> str:
    """Why a command the prompt does not offer does nothing now, or ``""``."""
    if verb in ("m", "meld") and MELD not in kinds:
        return _("You can't meld: no three cards of your hand make a set or a run.")
    hand = state.hands[seat]
    if verb in ("l", "lay", "layoff") and LAYOFF not in kinds:
        if not state.melded[seat]:  # the rules' reason (a lay-off of any card)
            return not_allowed(state, (LAYOFF, 0, hand[0], 0))
        return _("You can't lay off: no card of your hand fits a meld on the table.")
    if verb in ("d", "discard") and DISCARD not in kinds:  # "your last card 4D plays (on meld 1): ..."
        # Translators: {why} is the rules' reason ("your last card 4D plays (on meld 1): it must be played,
        # not discarded to go out").
        return _("You can't discard: {why}.").format(why=refusal(state, (DISCARD, hand[0])))
    if verb in ("draw", "stock", "s", "take", "t"):
        return not_allowed(state, DRAW_ACTION)
    return ""
