"""A person's decision at a prompt: the one prompt loop every dialogue runs.

Every variant is playable by a person with no code of its own: the core
offers the legal moves as a numbered menu (each labelled as ``move_view``
says) and accepts a typed move where the variant parses one.  A variant
parses typed moves (``Variant.parse_move``: ``8s h``, ``draw``) and may
write its own dialogue (``Variant.human_turn``, talking to a ``UI``), usually a
:class:`Turn` handed to :func:`ask`: the numbered choices, the words it
understands and what it says when a move is refused.  The loop itself
(showing the choices, numbers, ``help``, an empty answer, a word it does not
know) is written once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..contract.variant import Variant
from ..kit.cards import NAME, parse_card
from ..kit.errors import CardError, IllegalMove
from ..kit.fit import visible_width
from ..kit.grammar import listed, seat_names, type_a_number
from ..kit.language import N_
from ..kit.language import core as _

if TYPE_CHECKING:
    from ..contract.variant import UI, Action


class Say(str):
    """What a dialogue's word or parser says instead of a move ("Not allowed:
    may not draw while holding a playable card (could play 2C).", "now choose
    your card"): shown, and the prompt asks again."""


def refusal(state: Any, action: Action) -> str:
    """Why the rules refuse ``action`` now, in the state's own words (its
    ``why_illegal``, or what its ``check`` raises) with what could be done
    instead ("may not draw while holding a playable card (could play 2C)");
    ``""`` where it is allowed.  The rules are worded once, in the state: a
    dialogue and a variant's narration say them through this."""
    try:
        state.check(action)
    except IllegalMove as error:
        return str(error)
    return ""


def not_allowed(state: Any, action: Action) -> Say:
    """A move the rules refuse, answered at the prompt with :func:`refusal`."""
    # Translators: a move refused at the prompt; {rule} is the rules' reason, with what could be done
    # instead ("may not draw while holding a playable card (could play 2C)").
    return Say(_("Not allowed: {rule}.").format(rule=refusal(state, action)))


#: How a sentence may end: English's marks, and Japanese's full-width ones.
_ENDS = (".", "!", "?", "\u3002", "\uff01", "\uff1f")


def sentence(text: str) -> str:
    """``text`` said as a sentence: a capital first, a full stop last (a
    reason given in a clause's words, shown alone at the prompt)."""
    text = text[:1].upper() + text[1:]
    # Translators: a message said as a sentence, given its full stop.
    return text if text.endswith(_ENDS) else _("{sentence}.").format(sentence=text)


#: What a dialogue's handler gives back: the move, a refusal to show, or
#: ``None`` for "not understood".
Outcome = Any


@dataclass
class Turn:
    """One decision as a person makes it at a prompt.

    ``choices`` are the numbered menu, ``(label, action)`` in order.
    ``words`` are the short answers the dialogue understands (``"d"``,
    ``"keep"``), each a handler; ``typed`` reads anything else (a card name).
    A handler returns the move, a :class:`Say` to show instead (why not, or
    what happens next), or ``None``: not understood.  ``finish`` completes a
    chosen move (an 8 asks for its suit).  Each time the menu is shown,
    ``lines`` come above it (the hand) and ``below`` under it (a call to
    make); ``empty`` is what an empty answer is told, and ``keys`` are the
    keys the hint names, by action (by default, each choice's number).
    ``help`` answers ``help`` (with the menu again), and ``?`` or ``hint``
    where the terminal has no hint to give.
    """

    prompt: str
    choices: list[tuple[str, Action]] = field(default_factory=list)
    words: Mapping[str, Callable[[], Outcome]] = field(default_factory=dict)
    typed: Callable[[str], Outcome] | None = None
    help: str = ""
    lines: Callable[[], list[str]] = list
    below: Callable[[], list[str]] = list
    finish: Callable[[Action], Outcome] | None = None
    empty: str = ""
    keys: Mapping[Any, str] = field(default_factory=dict)
    #: ``lines`` are the hand, which the table shows too: left out of the
    #: menu drawn just under the table (never twice on one screen).
    hand_in_table: bool = False


def ask(ui: UI, turn: Turn) -> Action:
    """Ask ``turn`` at ``ui`` until the person makes a move; return it.

    The menu comes once: a refused answer is told under the prompt and asked
    again, the menu is not repeated (it is still on the screen).  A terminal
    that keeps the table in view (``keep_in_view``) draws it again, with the
    menu, before an answer would push its top off the screen."""
    ui.offer(dict(turn.keys) if turn.keys else
             {action: str(number) for number, (_label, action) in enumerate(turn.choices, start=1)})
    count = len(turn.choices)
    keep_in_view = getattr(ui, "keep_in_view", None)
    rows_for = getattr(ui, "rows_for", None)
    # A terminal that keeps the table in view has the hand on the screen:
    # the menu repeated under a hint leaves it out.
    kept = getattr(ui, "rows_left", lambda: None)() is not None and turn.hand_in_table
    menu_shown = False
    said = ""
    labels = [label for label, _action in turn.choices]
    offered = _offered(ui, turn, labels)
    while True:
        menu = [*menu_lines(labels[:offered]), *_more_line(count - offered), *turn.below()]
        block = [*turn.lines(), *menu]
        shown = [] if menu_shown else _under_table(ui, turn, block, menu)
        if keep_in_view is not None and rows_for is not None and \
                keep_in_view(rows_for([*shown, *([said] if said else []), turn.prompt])):
            shown = _under_table(ui, turn, block, menu)  # under the table drawn again
        for line in shown:
            ui.show(line)
        menu_shown = True
        if said:
            page_long = getattr(ui, "page_long", None)  # (a long answer, such as a list, is paged)
            if page_long is None or rows_for is None or not page_long(said, rows_for([turn.prompt])):
                ui.show(said)
            said = ""
        answer = ui.ask(turn.prompt, again=menu if kept else block).strip()
        lowered = answer.lower()
        outcome: Outcome
        if lowered == "help" and turn.help:
            ui.show(turn.help)
            # Translators: "quit" is typed as it is (終了 works too).
            ui.show(_("To stop, type quit (or press Ctrl-C): the game is saved, to be continued later."))
            menu_shown = False  # the help is long: the menu comes again under it
            continue
        if lowered in ("?", "hint") and turn.help:  # reaching here only where the terminal has no hint
            said = turn.help
            continue
        if lowered == MORE and offered < count:  # every choice (paged where taller than the room)
            said = "\n".join(menu_lines(labels))
            continue
        if not lowered:
            said = turn.empty or _what_to_type(count, turn)
            continue
        if lowered.isdigit() and count:
            if not 1 <= int(lowered) <= count:
                said = type_a_number(count)
                continue
            outcome = turn.choices[int(lowered) - 1][1]
        elif lowered in turn.words:
            outcome = turn.words[lowered]()
        else:
            outcome = turn.typed(answer) if turn.typed is not None else None
        if outcome is not None and not isinstance(outcome, Say) and turn.finish is not None:
            outcome = turn.finish(outcome)
        if outcome is None:
            # Translators: an answer the prompt does not understand, quoted ('xyz').
            said = _("{answer} is not one of your choices.").format(answer=repr(answer))
        elif isinstance(outcome, Say):
            said = str(outcome)
        else:
            return outcome


def _under_table(ui: UI, turn: Turn, block: list[str], menu: list[str]) -> list[str]:
    """The menu as it is drawn now: without the hand where the table just
    drawn above it shows the hand (``hand_on_screen``, once)."""
    if turn.hand_in_table and getattr(ui, "hand_on_screen", False):
        ui.hand_on_screen = False  # type: ignore[attr-defined]
        return menu
    return block


#: Typed where the menu lists only the choices that fit: every choice.
MORE = "more"


def _offered(ui: UI, turn: Turn, labels: Sequence[str]) -> int:
    """How many choices the menu lists: all, unless they would push the top of
    the table kept in view (the round, the piles) off the screen; then as many
    as fit with a line saying how to list them all (the others still count)."""
    left = getattr(ui, "rows_left", lambda: None)()
    rows_for = getattr(ui, "rows_for", None)
    if left is None or rows_for is None:
        return len(labels)
    hand = [] if turn.hand_in_table and getattr(ui, "hand_on_screen", False) else turn.lines()
    rest = [*hand, *turn.below(), turn.prompt]

    def fits(count: int) -> bool:
        return rows_for([*rest, *menu_lines(labels[:count]), *_more_line(len(labels) - count)]) <= left

    if len(labels) < 3 or fits(len(labels)):
        return len(labels)
    count = len(labels) - 2  # (one choice left out would take the row of the line saying so)
    while count > 1 and not fits(count):
        count -= 1
    return max(count, 1)


def _more_line(hidden: int) -> list[str]:
    """Under a menu cut short, how to list the ``hidden`` choices left out."""
    if not hidden:
        return []
    # Translators: under a menu cut short to fit the screen (two choices left out or more); {word} is
    # typed as it is ("more").
    return ["  " + _("(and {count} more choices: type {word} to list them all)").format(count=hidden,
                                                                                      word=MORE)]


def menu_lines(labels: Sequence[str], width: int = 78) -> list[str]:
    """A numbered menu, ``  [1] play 7H  [2] draw``, packed into lines of at
    most ``width`` columns (a choice is never split)."""
    return packed([f"[{number}] {label}" for number, label in enumerate(labels, start=1)], width)


def packed(items: Sequence[str], width: int = 78) -> list[str]:
    """``items`` two spaces apart and two in, as few lines of at most
    ``width`` columns as hold them whole (a menu's choices)."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and _width(line) + 2 + _width(item) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {item}"
    if line:
        lines.append(line)
    return lines


def _width(text: str) -> int:
    """The columns ``text`` takes on a terminal (a wide character, Japanese, two)."""
    return len(text) if text.isascii() else visible_width(text)


def _what_to_type(count: int, turn: Turn) -> str:
    if not count:
        # Translators: "help" is the word the player types, not translated.
        return _("Type a move (help for the list).") if turn.help else _("Type a move.")
    if turn.typed is None:
        return type_a_number(count)
    if count == 1:
        return _("There is one choice: type 1, or type the move.")
    return _("Type a number from 1 to {count}, or type the move.").format(count=count)


#: The words that make (or, typed before a card, go with) the Page One call.
CALL_WORDS = ("p", "page", "pageone", "page-one", "page one")
#: The words of the Stop call, said with the play of the last card (where a game has it).
STOP_WORDS = ("s", "stop")


@dataclass(frozen=True)
class Call:
    """A call said with a play: its name, the key the menu offers it on, the
    words that make it (typed alone, before the card or, but for the key,
    after it) and the play it goes with, in words."""

    name: str
    key: str
    words: tuple[str, ...]
    goes_with: str


#: (``name`` and ``goes_with`` are marked for the core's catalog: a dialogue says them with
#: ``cardcli.kit.language.core``; ``name`` is the same in every language, for code to compare.)
PAGE_ONE = Call(N_("Page One"), "p", CALL_WORDS, N_("the play that leaves you one card"))
STOP = Call(N_("Stop"), "s", STOP_WORDS, N_("the play of your last card"))


def typed_move(words: Sequence[str], legal: Collection[Any], plain: Mapping[str, Any],
               play: Callable[[Sequence[str]], Any]) -> Any:
    """The move typed as ``words`` (:func:`split_call`'s), or ``None`` unless
    it is legal: one of the ``plain`` words (``{"d": DRAW}``), else what
    ``play(words)`` makes of card words (a bad card name makes nothing)."""
    if len(words) == 1 and words[0] in plain:
        action = plain[words[0]]
    else:
        try:
            action = play(words)
        except (CardError, IndexError):
            return None
    return action if action in legal else None


def split_call(text: str) -> tuple[bool, list[str]]:
    """A typed move's words, and whether they make the Page One call: a ``!``
    anywhere (``7h!``), or a call word first (``p 7h``, ``page one 7h``) or
    last (``7h page one``)."""
    said, words = split_calls(text, (PAGE_ONE,))
    return said is not None, words


def split_calls(text: str, calls: Sequence[Call]) -> tuple[Call | str | None, list[str]]:
    """A typed move's words, and the call they make, one of ``calls``: the
    :class:`Call` named (its word first, ``s 7h``, or a whole word last,
    ``7h stop``), ``"!"`` for a call made without its name (``7h!``: the call
    that goes with the play), or ``None``.  Where a call is both named and
    marked ``!``, its name counts."""
    words = text.strip().lower().replace("!", " ! ").split()
    said: Call | str | None = "!" if "!" in words else None
    words = [word for word in words if word != "!"]
    for call in calls:
        if len(words) > 1 and words[0] in call.words:
            return call, words[2:] if words[:2] == ["page", "one"] else words[1:]
        if len(words) > 2 and words[-2:] == ["page", "one"] and "page one" in call.words:
            return call, words[:-2]
        if len(words) > 1 and words[-1] in call.words and words[-1] != call.key:
            return call, words[:-1]
    return said, words


@dataclass
class Other:
    """A choice of a card turn that is not a card: ``Other("draw a card",
    DRAW, ("d", "draw"), "d to draw")`` (the menu's label, the move, the
    words that make it, and how the prompt names those words)."""

    label: str
    action: Action
    words: Sequence[str]
    hint: str


def card_turn(ui: UI, state: Any, legal: Collection[Action], *, hand: Sequence[int], cards: Sequence[int],
              play: Callable[[int, bool, list[str]], Outcome], why_not: Callable[[int], str],
              others: Sequence[Other] = (), can_call: bool = False, help: str = "",
              parse: Callable[[str], Outcome] | None = None, keys: Mapping[Any, str] | None = None,
              above: Sequence[str] = (), example: str = "8s", call: Call = PAGE_ONE,
              calls: Sequence[Call] = (PAGE_ONE,)) -> Action:
    """A turn of the Page One family at ``state``: play one of ``cards`` (the
    playable cards of ``hand``, in the menu's order) by number or by name, or
    take one of the ``others`` (draw, keep) that are ``legal`` now.

    ``play(card, called, rest)`` makes the move for a card chosen (``called``:
    the Page One call was made; ``rest``: words typed after the card, such
    as the suit an 8 names).  ``why_not(card)`` says why a card of the hand
    does not play now; a word of one of the ``others`` not on offer is
    answered with the state's reason (:func:`not_allowed`: "Not allowed: may
    not draw while holding a playable card (could play 2C).").  With
    ``can_call`` the ``call`` (Page One by default) is offered on its key
    (``p``, or ``!`` after the card) and never made for the player:
    forgetting it is part of the game.  ``calls`` are
    all the game's calls: the words of one not due now say when it is.
    ``parse`` reads any other typed move; ``above`` is shown once, before
    the menu.
    """
    called = [False]
    due = call if can_call else None
    spoken = (*calls, *(() if call in calls else (call,)))

    def say(which: Call) -> Say:
        if which != due:
            if due is not None:
                # Translators: a call made with the wrong card; {goes_with}: "the play that leaves you
                # one card"; {key}: the key that makes the call due now ("p").
                text = _("{call} is called with {goes_with}; with this card the call is {due} ({key}).")
                return Say(text.format(call=_(which.name), goes_with=_(which.goes_with), due=_(due.name),
                                       key=due.key))
            # Translators: a call made when no call is due; {goes_with}: "the play that leaves you one card".
            text = _("{call} is called with {goes_with}; not now.")
            return Say(text.format(call=_(which.name), goes_with=_(which.goes_with)))
        called[0] = True
        # Translators: the call made ("Page One!"); the card to play with it comes next.
        return Say(_("\"{call}!\" - now choose your card.").format(call=_(which.name)))

    def choose(card: int, rest: list[str]) -> Outcome:
        if card not in cards:
            if card in hand:
                # Translators: {why} is the game's reason ("it matches neither rank nor suit").
                return Say(_("You can't play {card} now: {why}.").format(card=NAME[card], why=why_not(card)))
            return Say(_("{card} is not in your hand.").format(card=NAME[card]))
        return play(card, called[0] and can_call, rest)

    def typed(answer: str) -> Outcome:
        wants_call, words = split_calls(answer, spoken)
        number = int(words[0]) if len(words) == 1 and words[0].isdigit() else 0  # "1!": a choice, called
        try:
            card = parse_card(words[0]) if words and not number else None
        except CardError:
            card = None
        if card is None and not 1 <= number <= len(choices):
            return parse(answer) if parse is not None else None
        if wants_call is not None:
            which = wants_call if isinstance(wants_call, Call) else due or call
            if which != due:
                return say(which)
            called[0] = True
        if card is None:
            return finish(choices[number - 1][1])
        return choose(card, words[1:])

    handlers: dict[str, Callable[[], Outcome]] = {}
    for which in reversed(spoken):  # a word two calls share is the first's
        handlers.update(dict.fromkeys(which.words, lambda which=which: say(which)))
    offered = [other for other in others if other.action in legal]

    def taken(other: Other) -> Callable[[], Outcome]:  # the move, or the rules' reason it is not one now
        return (lambda: other.action) if other in offered else (lambda: not_allowed(state, other.action))

    for other in others:
        handlers.update(dict.fromkeys(other.words, taken(other)))
    # Translators: a choice of the numbered menu, "[1] play 7H".
    choices: list[tuple[str, Any]] = [(_("play {card}").format(card=NAME[card]), card) for card in cards]
    choices += [(o.label, o) for o in offered]
    # Translators: the hints of the prompt "Your move (number, a card like 8s, d to draw, p to call Page
    # One)": what the player may type ("8s" and "p" are typed as they are).
    hints = [_("number"), _("a card like {example}").format(example=example) if cards else "",
             *(o.hint for o in offered)]
    if can_call:
        hints.append(_("{key} to call {call}").format(key=call.key, call=_(call.name)))
    numbers = dict(keys or {})
    numbers.update({other.action: str(len(cards) + i) for i, other in enumerate(offered, start=1)})
    for line in above:
        ui.show(line)

    def finish(choice: Any) -> Outcome:  # a number: a card, or another choice
        if isinstance(choice, Other):
            return choice.action
        return choose(choice, []) if isinstance(choice, int) and choice in cards else choice

    def call_line() -> list[str]:  # under the menu, where the call can be made
        if not can_call:
            return []
        # Translators: the key that makes the call, under the menu: '[p] call "Page One!"'.
        text = _("[{key}] call \"{call}!\"  (called)") if called[0] else _("[{key}] call \"{call}!\"")
        return ["  " + text.format(key=call.key, call=_(call.name))]

    count = len(choices)
    if not cards:
        empty = type_a_number(count)
    elif count == 1:
        empty = _("There is one choice: type 1, or a card like {example}.").format(example=example)
    else:
        empty = _("Type a number from 1 to {count}, or a card like {example}.").format(count=count,
                                                                                     example=example)
    return ask(ui, Turn(
        prompt=_("Your move ({hints})").format(hints=listed([hint for hint in hints if hint])),
        choices=choices, words=handlers, typed=typed, help=help, keys=numbers,
        lines=lambda: [_("Your hand: {cards}").format(cards=" ".join(NAME[card] for card in hand))],
        hand_in_table=True, below=call_line, empty=empty, finish=finish))


def human_turn(variant: Variant[Any], state: Any, seat: int, legal: list[Action], ui: UI) -> Action:
    """A person's decision at ``seat``: the variant's dialogue where it has one."""
    action = variant.human_turn(state, seat, legal, ui)
    return action if action is not None else menu_turn(variant, state, seat, legal, ui)


def menu_turn(variant: Variant[Any], state: Any, seat: int, legal: list[Action], ui: UI) -> Action:
    """The numbered menu of ``legal`` (each move as ``move_view`` labels it:
    "play 7H"), where a typed move the variant parses is taken too."""
    from .view import move_view

    names = seat_names(None, state.num_players)
    labels = [move_view(variant, state, seat, action, names).label for action in legal]
    # Typed moves are offered only where the variant reads them.
    parse = variant.parse_move if type(variant).parse_move is not Variant.parse_move else None

    def typed(text: str) -> Outcome:
        return parse(state, text, legal) if parse is not None else None

    return ask(ui, Turn(_("Your move (number, or type the move)") if parse is not None else _("Your move"),
                        [(label, action) for label, action in zip(labels, legal)],
                        typed=typed if parse is not None else None))
