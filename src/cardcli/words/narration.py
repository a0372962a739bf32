"""A variant's own words beyond ``describe``, and the core's where it has none.

Every variant says what one event does (``Variant.describe``), and from that
alone the core tells a game to people: the log before a turn, the refusal of
a move, ``replay --explain``'s "why:" lines, the header's house rules.  A
variant overrides the optional methods of :class:`~cardcli.contract.variant.Variant`
(``describe_events``, ``rule_behind``, ...) to say them in its own words
instead; each returns ``None`` for the core's default, so a variant overrides
only what it words better.

The core always asks through the functions of this module
(:func:`describe_events`, :func:`describe_attempt`, ...), which use the
variant's words where it declares them and the defaults elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..contract.match import Match
from ..contract.options import changed_options, show_value
from ..contract.variant import Events, RuleWords, Variant
from ..kit.cards import NAME
from ..kit.errors import IllegalMove
from ..kit.fit import visible_width
from ..kit.grammar import cards_told, is_you, name_seats, seat_name, seat_names, second_person
from ..kit.language import core as _
from ..kit.language import current as language_in_use
from .view import move_words

if TYPE_CHECKING:
    from ..contract.variant import Action, Rules, State

S = TypeVar("S", bound="State")


def either(on: str, off: str) -> RuleWords:
    """Words for a true/false option: ``either("8s are wild", "8s are not wild")``."""
    return lambda value, changed: on if value else off


# ------------------------------------- house rules the Page One games share
def hand_size_words(value: int, changed: Mapping[str, Any]) -> str:
    """``hand_size`` in the header's words: "5 cards each"."""
    # The English says "1 cards each": both forms are the same so that it stays as it was.
    return _.ngettext("{count} cards each", "{count} cards each", value).format(count=value)


def page_one_penalty_words(value: int, changed: Mapping[str, Any]) -> str:
    """``page_one_penalty`` in the header's words: "a 5-card Page One penalty"."""
    return _("a {count}-card Page One penalty").format(count=value) if value else _("no Page One penalty")


def rounds_words(value: int, changed: Mapping[str, Any]) -> str:
    """A game's number of rounds in the header's words: "5 rounds"."""
    return _.ngettext("{count:,} round", "{count:,} rounds", value).format(count=value)


def decks_words(value: int, changed: Mapping[str, Any]) -> str:
    """A game's number of decks in the header's words: "2 decks"."""
    return _.ngettext("{count:,} deck", "{count:,} decks", value).format(count=value)


def dealt_words(state: Any, names: Sequence[str] | None) -> str:
    """A :class:`~cardcli.contract.dealing.DealtMatch`'s deal told: "dealt 5 cards each (dealer: ann)"."""
    count = state.cfg.hand_size
    # The English says "1 cards each": both forms are the same so that it stays as it was.
    return _.ngettext("dealt {count} cards each (dealer: {name})",
                      "dealt {count} cards each (dealer: {name})", count).format(
        count=count, name=seat_name(state.dealer, names))


def called(play: str, stop: bool = False) -> str:
    """``play`` (the play as told: "played 7H on 9H") made with its call: Page
    One's, or with ``stop`` Stop's (matching's, with the last card)."""
    if stop:
        return _("called \"Stop!\" and {play}").format(play=play)
    # Translators: {play} is the play as told ("played 8H", "led 9H").
    return _("called \"Page One!\" and {play}").format(play=play)


def forgot_call(line: str, drew: str, stop: bool = False) -> str:
    """A play whose call was forgotten, told with the penalty it drew: "ann
    played 5H on 5S - forgot to call Page One, so drew 2 cards" (``stop``:
    Stop, forgotten with the last card)."""
    if stop:
        return _("{line} - forgot to call Stop, so {drew}").format(line=line, drew=drew)
    # Translators: {line}: a player and their play ("ann led 3C"); {drew}: the penalty
    # drawn ("drew 5 cards", "drew 5D 9S JK 4C KH").
    return _("{line} - forgot to call Page One, so {drew}").format(line=line, drew=drew)


def must_draw(why: str) -> str:
    """The rule behind a forced draw, given why nothing plays: "must draw: no spade in hand"."""
    return _("must draw: {why}").format(why=why)


# ------------------------------------------------------- what the core asks
def describe_events(variant: Variant[Any], events: Events, viewer: int | None = None,
                    names: Sequence[str] | None = None) -> list[str]:
    """``events`` told to ``viewer``, in the variant's words where it has them."""
    lines = variant.describe_events(events, viewer, names)
    if lines is None:
        lines = [event_line(variant, state, action, viewer, names) for state, action in events]
    return [addressed(line, names) for line in lines]


def describe_attempt(variant: Variant[Any], state: Any, action: Action,
                     names: Sequence[str] | None = None) -> str:
    """``action`` as attempted, for the message refusing it."""
    text = variant.describe_attempt(state, action, names)
    return attempt_from_fields(variant, state, action) if text is None else addressed(text, names)


def rule_behind(variant: Variant[Any], state: Any, action: Action, names: Sequence[str] | None = None) -> str:
    """The rule behind ``action``, for ``replay --explain`` ("" for none)."""
    text = variant.rule_behind(state, action, names)
    return choice_count(state) if text is None else addressed(text, names)


def round_summary(variant: Variant[Any], state: Any, action: Action,
                  names: Sequence[str] | None = None) -> str | None:
    """What everyone sees when ``action`` ends a round (``None``: it does not)."""
    summary = variant.round_summary(state, action, names)
    return None if summary is None else addressed(summary, names)


def last_round_summary(variant: Variant[Any], state: Any, action: Action,
                       names: Sequence[str] | None = None) -> str | None:
    """What everyone sees when ``action`` ends the last round, and the game
    (``None``: it does not, or the variant's final table says it)."""
    summary = variant.last_round_summary(state, action, names)
    return None if summary is None else addressed(summary, names)


def rules_summary(variant: Variant[Any], rules: Rules) -> list[str]:
    """The house rules of ``rules`` that differ from the variant's defaults, in words."""
    said = variant.rules_summary(rules)
    if said is not None:
        return said
    if not variant.rule_words:
        return option_words(variant, rules)
    changed = changed_options(rules, variant.options)
    told = (words(changed[name], changed) for name, words in variant.rule_words.items() if name in changed)
    # Words declared with N_() (``either(N_("8s are wild"), ...)``) are said in the chosen language
    # here, from the variant's catalog; words already said in it come back unchanged.
    return [variant.words(text) for text in told if text]


def reason_said(variant: Variant[Any] | None, written: str, names: Sequence[str] | None) -> str:
    """A result's or a round's reason as the record writes it (English with seat numbers: ``seat 1
    went out``) said to people: in the chosen language where ``variant``'s catalog has it
    (:func:`reason_words`), else the written words with each seat named."""
    said = reason_words(variant, written, names) if variant is not None and written else None
    return said or name_seats(written, names)


def reason_words(variant: Variant[Any], written: str, names: Sequence[str] | None) -> str | None:
    """A reason (``seat 1 went out``) in the chosen language, from the variant's catalog: ``{name}
    went out`` with the player's name, and the other numbers as ``{count}``, ``{count2}``, ... in
    order (``{count} rounds played; lowest total wins``); None where the catalog does not have it."""
    seats = re.findall(r"\bseat (\d+)\b", written)
    pattern = re.sub(r"\bseat \d+\b", "{name}", written, count=1) if len(set(seats)) == 1 else written
    said = variant.words(pattern)
    fields: dict[str, object] = {}
    if said == pattern:
        numbers = re.findall(r"\b\d+\b", pattern)
        if not numbers:
            return None
        keys = ["count", *(f"count{place}" for place in range(2, len(numbers) + 1))]
        fields.update(zip(keys, (int(number) for number in numbers)))
        pieces = iter(keys)
        pattern = re.sub(r"\b\d+\b", lambda _number: "{" + next(pieces) + "}", pattern)
        said = variant.words(pattern)
        if said == pattern:
            return None
    if "{name}" in pattern:
        seat = int(seats[0])
        fields["name"] = seat_name(seat, names) if not names or seat < len(names) else seat
    return said.format(**fields)


def addressed(text: str, names: Sequence[str] | None) -> str:
    """``text`` in the second person where a player is called "you" ("you
    take it", not "you takes it"): every variant's words, put right once here."""
    if names and any(is_you(name) for name in names):
        return second_person(text, names)
    return text


def turn_lines(variant: Variant[Any], events: Events, viewer: int | None = None,
               names: Sequence[str] | None = None) -> list[str]:
    """``events`` told as :func:`describe_events` tells them, with the lines
    of one player's turn joined into one: "cpu1 drew a card from the stock;
    melded 5C 5H 5D; discarded JH" (a line that ends a sentence, as the end
    of a round does, is never joined on to)."""
    lines: list[str] = []
    group: list[tuple[Any, Action]] = []
    seat = None
    for state, action in events:
        player = state.current_player()
        if player >= 0 and player != seat:
            lines.extend(_joined(describe_events(variant, group, viewer, names), seat, names))
            group, seat = [], player
        group.append((state, action))
    lines.extend(_joined(describe_events(variant, group, viewer, names), seat, names))
    return lines


def _joined(lines: list[str], seat: int | None, names: Sequence[str] | None) -> list[str]:
    if seat is None:
        return lines
    frame = _actor_frame()
    who = frame.format(name=seat_name(seat, names), did="")  # "cpu1 ": how each line of the turn begins
    if not who or not frame.endswith("{did}"):
        return lines  # a language that puts the name after the deed: each line stands alone
    out: list[str] = []
    for line in lines:
        last = out[-1] if out else ""
        if last.startswith(who) and line.startswith(who) and not _ends_sentence(last):
            # Translators: one more thing a player did in the same turn, joined to the line of the
            # turn so far without their name again ("cpu1 drew a card from the stock; discarded JH").
            out[-1] = _("{line}; {more}").format(line=last, more=line[len(who):])
        else:
            out.append(line)
    return out


def _ends_sentence(line: str) -> bool:
    if line.endswith((".", "!", "?")) or ". " in line:
        return True
    return language_in_use() != "en" and (line.endswith(_FULL_STOPS) or "\u3002" in line)


#: How a sentence ends in Japanese (the full-width full stop, exclamation and question marks).
_FULL_STOPS = ("\u3002", "\uff01", "\uff1f")


def _actor_frame() -> str:
    # Translators: a player's name, then what they did as the game says it ("cpu2" and "played 7H on
    # 9S": "cpu2 played 7H on 9S").  Where {did} ends the message, the lines of one turn are joined
    # into one ("{line}; {more}") with the name said once.
    return _("{name} {did}")


# ------------------------------------------------------------ the defaults
def event_line(variant: Variant[Any], state: State, action: Action, viewer: int | None = None,
               names: Sequence[str] | None = None) -> str:
    """One event as ``viewer`` is told it, before it is applied, with the
    actor's name in front of a decision: "cpu2 played 7H on 9S"."""
    player = state.current_player()
    text = variant.describe(state, action, viewer=viewer, names=names)
    if player < 0:
        return text
    return _actor_frame().format(name=seat_name(player, names), did=text)


def attempt_from_fields(variant: Variant[Any], state: Any, action: Action) -> str:
    """A move as attempted, said from its record fields in the past tense:
    "played 9D", "passed", "discarded 9D", "played 8C (suit H, call)"."""
    try:
        fields = dict(variant.encode_action(state, action))
    except (LookupError, TypeError, ValueError):
        return repr(action)
    command = move_words(fields)
    if language_in_use() != "en":  # the past tense below is English's
        # Translators: a move the rules refuse, of a variant with no words for it: {command} is the
        # move as typed ("play 9D"); it follows "move 9, seat 0".
        return _("tried {command}").format(command=command)
    verb, _space, rest = command.partition(" ")
    return f"{past_tense(verb)} {rest}".rstrip()


#: Verbs of card games whose past tense does not end in -ed.
_IRREGULAR = {"draw": "drew", "take": "took", "keep": "kept", "lead": "led", "deal": "dealt", "lay": "laid",
              "layoff": "laid off", "win": "won", "throw": "threw", "give": "gave", "hold": "held",
              "sell": "sold", "buy": "bought", "put": "put", "set": "set", "bid": "bid"}


def past_tense(verb: str) -> str:
    """``play`` -> ``played``, ``pass`` -> ``passed``, ``draw`` -> ``drew``,
    ``discard`` -> ``discarded`` (a record's move names, said as done)."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def choice_count(state: State) -> str:
    """"forced: the only legal move" or "a choice: one of 5 legal moves"
    ("" for a chance event): the rule behind a move, for a variant that names none."""
    if state.current_player() < 0:
        return ""
    legal = state.legal_actions()
    if len(legal) <= 1:
        return _("forced: the only legal move")
    return _("a choice: one of {count} legal moves").format(count=len(legal))


def option_words(variant: Variant[Any], rules: Mapping[str, Any]) -> list[str]:
    """Each option that differs from its default, as ``name value``."""
    return [f"{name} {show_value(value)}" for name, value in changed_options(rules, variant.options).items()]


def told_with_draws(variant: Variant[Any], events: Events, viewer: int | None,
                    names: Sequence[str] | None, *, drawn: Callable[[int, Any, Action], Sequence[int] | None],
                    told: Callable[[Any, Action, str, str, Any], str],
                    rebuilt: Callable[[int, Any, Action, list[int]], bool] | None = None,
                    on_the_way: str = "",
                    then: Callable[[int, Any, Action, str], str | None] | None = None) -> list[str]:
    """Each event as :func:`event_line` tells it, except that a decision
    followed by draws for its seat is one line with them ("cpu2 could not
    play: drew 2 cards and played 4C"), for a variant's ``describe_events``.

    ``drawn(seat, state, action)`` gives the cards an event draws for
    ``seat`` (``None``: not such an event); ``rebuilt(seat, state, action,
    cards so far)``, where given, says it rebuilds the stock on the way,
    which the line tells as ``on_the_way``.  ``told(state, action, line, cards, last)``
    words the decision's line, given its plain ``line``, ``cards`` ("drew 7H
    9C", or "drew 2 cards" where ``viewer`` may not see them) and the state
    before the last draw; ``then(seat, state, action, line)``, where given, is the
    line with the drawer's next event told in it, as one sentence, when it belongs
    there (the drawn card played at once), else ``None``.
    """
    lines: list[str] = []
    index = 0
    while index < len(events):
        state, action = events[index]
        seat = state.current_player()
        index += 1
        line = event_line(variant, state, action, viewer, names)
        cards: list[int] = []
        last: Any = None
        was_rebuilt = False
        while seat >= 0 and index < len(events):
            after, chance = events[index]
            got = drawn(seat, after, chance)
            if got is not None:
                cards.extend(got)
                last = after
            elif rebuilt is not None and rebuilt(seat, after, chance, cards):
                was_rebuilt = True
            else:
                break
            index += 1
        if last is not None:
            named = cards_told([NAME[card] for card in cards], viewer in (None, seat))
            if was_rebuilt:
                # Translators: the cards a player drew ("7H 9C", or "2 cards" to those who may not see
                # them), and what happened on the way (the variant's words: the stock rebuilt).
                drew = _("drew {cards} ({on_the_way})").format(cards=named, on_the_way=on_the_way)
            else:
                # Translators: the cards a player drew: "7H 9C", or "2 cards" to those who may not see them.
                drew = _("drew {cards}").format(cards=named)
            line = told(state, action, line, drew, last)
            more = then(seat, *events[index], line) if then is not None and index < len(events) else None
            if more is not None:
                line = more
                index += 1
        lines.append(line)
    return lines


def drawn_by(kind: int) -> Callable[[int, Any, Action], Any]:
    """:func:`told_with_draws`'s ``drawn`` for a game whose draws are ``(kind,
    cards)`` chance events for the seat ``state.draw_seat``."""
    return lambda seat, state, action: action[1] if action[0] == kind and state.draw_seat == seat else None


class RoundSummaries(Variant[S]):
    """A variant whose game is played in rounds (or deals), summed up as each
    ends: it writes :meth:`round_table` once, and the round's end and the
    last round's (which ends the game) are both said with it."""

    __slots__ = ()
    #: The state's count of the rounds played (a Match's ``round``): a round ends where it moves on.
    round_counter: ClassVar[str] = "round"

    def in_rounds(self, state: S) -> bool:
        """Whether the game is played in rounds (one round's end is the game's, said by its final table).
        Default: unless the state is a :class:`~cardcli.contract.match.Match` of one deal."""
        return not (isinstance(state, Match) and state.deal_alone())

    def round_table(self, state: S, after: S, names: Sequence[str] | None) -> str | None:
        """What everyone sees as the round ends (``state`` before the event that
        ends it, ``after`` that event applied): the hands, the scores."""
        return None

    def round_summary(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """The round's :meth:`round_table` where ``action`` ends a round but not the game."""
        return self._round_told(state, action, names, last=False)

    def last_round_summary(self, state: S, action: Action, names: Sequence[str] | None = None) -> str | None:
        """The same for the last round, which ends the game."""
        return self._round_told(state, action, names, last=True)

    def _round_told(self, state: S, action: Action, names: Sequence[str] | None, last: bool) -> str | None:
        after = round_end(state, action, self.round_counter, last=last) if self.in_rounds(state) else None
        return None if after is None else self.round_table(state, after, names)


def seat_rows(names: Sequence[str] | None, count: int, row: Callable[[int, str], str]) -> list[str]:
    """A line per seat, two spaces in, ``row(seat, name)`` with each name
    padded to the longest on the screen (a Japanese name's characters take
    two columns each): the table of a round's summary."""
    labels = seat_names(names, count)
    widths = [visible_width(label) for label in labels]
    return ["  " + row(seat, labels[seat] + " " * (max(widths) - widths[seat])) for seat in range(count)]


def round_end(state: S, action: Action, counter: str = "round", *, last: bool = False) -> S | None:
    """A copy of ``state`` with ``action`` applied, where ``action`` ends a
    round (the state's ``counter`` of rounds moves on) but not the game
    (with ``last``: the last round, and the game); else ``None``: when a
    round's summary is due (``Variant.round_summary``, and
    ``last_round_summary``)."""
    after = after_move(state, action)
    if after is None or getattr(after, counter) == getattr(state, counter) or \
            (after.result() is not None) != last:
        return None
    return after


def after_move(state: S, action: Action) -> S | None:
    """A copy of ``state`` with ``action`` applied, or ``None`` where the
    rules refuse it (an illegal move ends nothing): how a variant tells,
    before a move is applied, what it is about to do (end a round, say)."""
    try:
        state.check(action)
    except IllegalMove:
        return None
    after = state.clone()
    after.apply_legal(action)
    return after
