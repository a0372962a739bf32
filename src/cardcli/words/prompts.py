"""A person's decision at a prompt: the ``UI`` a dialogue talks to, the
:class:`Prompts` ability, and the one prompt loop every dialogue runs.

Every variant is playable by a person with no code of its own: the core
offers the legal moves as a numbered menu (each labelled as ``move_view``
says) and accepts a typed move where the variant parses one.  A variant
that declares :class:`Prompts` parses typed moves (``parse_move``: ``8s h``,
``draw``) and may write its own dialogue (``human_turn``), usually a
:class:`Turn` handed to :func:`ask`: the numbered choices, the words it
understands and what it says when a move is refused.  The loop itself
(showing the choices, numbers, ``help``, an empty answer, a word it does not
know) is written once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..contract.abilities import UI, Prompts
from ..kit.cards import NAME, parse_card
from ..kit.errors import CardError
from ..kit.grammar import type_a_number

if TYPE_CHECKING:
    from ..contract.variant import Action, Variant


class Say(str):
    """What a dialogue's word or parser says instead of a move ("You can't
    draw: you can play 2C.", "now choose your card"): shown, and the prompt
    asks again."""


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
    while True:
        menu = [*menu_lines([label for label, _action in turn.choices]), *turn.below()]
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
            menu_shown = False  # the help is long: the menu comes again under it
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
            said = f"{answer!r} is not one of your choices."
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
        if line and len(line) + 2 + len(item) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {item}"
    if line:
        lines.append(line)
    return lines


def _what_to_type(count: int, turn: Turn) -> str:
    if not count:
        return "Type a move (help for the list)." if turn.help else "Type a move."
    if turn.typed is None:
        return type_a_number(count)
    return type_a_number(count)[:-1] + ", or type the move."


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


PAGE_ONE = Call("Page One", "p", CALL_WORDS, "the play that leaves you one card")
STOP = Call("Stop", "s", STOP_WORDS, "the play of your last card")


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


def card_turn(ui: UI, *, hand: Sequence[int], cards: Sequence[int],
              play: Callable[[int, bool, list[str]], Outcome], why_not: Callable[[int], str],
              others: Sequence[Other] = (), unavailable: Mapping[str, str] | None = None,
              can_call: bool = False, help: str = "", parse: Callable[[str], Outcome] | None = None,
              keys: Mapping[Any, str] | None = None, above: Sequence[str] = (),
              example: str = "8s", call: Call = PAGE_ONE, calls: Sequence[Call] = (PAGE_ONE,)) -> Action:
    """A turn of the Page One family: play one of ``cards`` (the playable
    cards of ``hand``, in the menu's order) by number or by name, or take one
    of the ``others`` (draw, keep).

    ``play(card, called, rest)`` makes the move for a card chosen (``called``:
    the Page One call was made; ``rest``: words typed after the card, such
    as the suit an 8 names).  ``why_not(card)`` says why a card of the hand
    does not play now; ``unavailable`` answers a word of a choice not on offer
    ("You can't draw: ...").  With ``can_call`` the ``call`` (Page One by
    default) is offered on its key (``p``, or ``!`` after the card) and never
    made for the player: forgetting it is part of the game.  ``calls`` are
    all the game's calls: the words of one not due now say when it is.
    ``parse`` reads any other typed move; ``above`` is shown once, before
    the menu.
    """
    called = [False]
    due = call if can_call else None
    spoken = (*calls, *(() if call in calls else (call,)))

    def say(which: Call) -> Say:
        if which != due:
            now = f"with this card the call is {due.name} ({due.key})" if due is not None else "not now"
            return Say(f"{which.name} is called with {which.goes_with}; {now}.")
        called[0] = True
        return Say(f"\"{which.name}!\" - now choose your card.")

    def choose(card: int, rest: list[str]) -> Outcome:
        if card not in cards:
            if card in hand:
                return Say(f"You can't play {NAME[card]} now: {why_not(card)}.")
            return Say(f"{NAME[card]} is not in your hand.")
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
    for word, text in (unavailable or {}).items():
        handlers[word] = lambda text=text: Say(text)  # type: ignore[misc]
    for other in others:
        for word in other.words:
            handlers[word] = lambda action=other.action: action  # type: ignore[misc]
    choices = [(f"play {NAME[card]}", card) for card in cards] + [(o.label, o) for o in others]
    hints = ["number", f"a card like {example}" if cards else "", *(o.hint for o in others)]
    if can_call:
        hints.append(f"{call.key} to call {call.name}")
    numbers = dict(keys or {})
    numbers.update({other.action: str(len(cards) + i) for i, other in enumerate(others, start=1)})
    for line in above:
        ui.show(line)

    def finish(choice: Any) -> Outcome:  # a number: a card, or another choice
        if isinstance(choice, Other):
            return choice.action
        return choose(choice, []) if isinstance(choice, int) and choice in cards else choice

    return ask(ui, Turn(
        prompt="Your move (" + ", ".join(hint for hint in hints if hint) + ")", choices=choices,
        words=handlers, typed=typed, help=help, keys=numbers,
        lines=lambda: ["Your hand: " + " ".join(NAME[card] for card in hand)], hand_in_table=True,
        below=lambda: [f"  [{call.key}] call \"{call.name}!\"{'  (called)' if called[0] else ''}"] * can_call,
        empty=type_a_number(len(choices))[:-1] + (f", or a card like {example}." if cards else "."),
        finish=finish))


def human_turn(variant: Variant[Any], state: Any, seat: int, legal: list[Action], ui: UI) -> Action:
    """A person's decision at ``seat``: the variant's dialogue where it has one."""
    action = variant.human_turn(state, seat, legal, ui) if isinstance(variant, Prompts) else None
    return action if action is not None else menu_turn(variant, state, seat, legal, ui)


def menu_turn(variant: Variant[Any], state: Any, seat: int, legal: list[Action], ui: UI) -> Action:
    """The numbered menu of ``legal`` (each move as ``move_view`` labels it:
    "play 7H"), where a typed move the variant parses is taken too."""
    from .view import move_view

    names = [f"seat {i}" for i in range(state.num_players)]
    labels = [move_view(variant, state, seat, action, names).label for action in legal]
    parse = variant.parse_move if isinstance(variant, Prompts) else None

    def typed(text: str) -> Outcome:
        return parse(state, text, legal) if parse is not None else None

    return ask(ui, Turn("Your move (number, or type the move)" if parse is not None else "Your move",
                        [(label, action) for label, action in zip(labels, legal)],
                        typed=typed if parse is not None else None))
