"""Following a game played with a real deck, entry by entry (``cardcli referee``).

One person types what the table does (``ann 7h``, ``bob draws``, ``up 5h``);
the :class:`Referee` follows it as a live game of the one engine: the
variant's rules in a :class:`~cardcli.engine.game.Game` that keeps undo, and beside
them the :class:`~cardcli.unseen.reading.TableSight` that checks the cards nobody
saw exactly (what ``cardcli validate`` does for a record of a real table).
An entry becomes actions pushed one by one through the sight; if any is
refused, the whole entry is taken back (the driver's :meth:`rollback`) and
nothing is written.  An accepted entry appends its lines to the record
(flushed at once), which is, line for line, what ``cardcli export`` writes
of the same game: from the public view (every card nobody saw is ``"??"``),
or from one seat's (``--seat``: that player's own cards entered too).

It knows no game: moves are the variant's own typed moves (its
``parse_move``), and what a chance event shows is what the variant's
``seen_by`` says the viewer sees.  Where the rules turn on a card nobody
saw (did the player who drew go on drawing?), the last event stays open and
the next entry settles it.
"""

from __future__ import annotations

import difflib
import io
import json
import random
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..contract.unseen import UnseenCards, reading_unseen
from ..contract.variant import CHANCE, TERMINAL, Action, Variant
from ..contract.views import SPECTATOR
from ..engine.game import Game, header_to_game
from ..kit.cards import NAME, UNSEEN, CardError, parse_card
from ..kit.errors import CardcliError, Kind, RecordError, system_words
from ..kit.grammar import join_and, name_seats
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.record_format import Header, RecordWriter, parse_header, read_lines, view_seat
from ..records.reader import GameLoader, check_shown, read_record
from ..terminal.session import over_text, ranking_text
from ..unseen.reading import TableSight, replace_unseen
from ..words.narration import describe_events, round_summary
from .entry_words import referee_entry

__all__ = ["HELP", "Referee", "Refused"]

# Translators: the referee's help: the left column is what a person types (keep those words, or
# give the Japanese entry words the referee reads as them); translate the explanations.
HELP = N_("""\
Type what the table does, one entry a line (names as given with --players):
  ann 7h            ann plays 7h (the game's own moves: 8s hearts, qh!, m 4s 4h 3d, l 3s 1, d kc)
  bob draws         bob draws from the stock; bob draws 2: two cards (a penalty)
  cat draws 3 then 9s   several entries of one player in one line
  ann page one      ann called "Page One!" with the card she just played (or: ann 7h page one)
  ann stop          ann called "Stop!" with her last card, where the rules have it (or: ann 7h stop)
  up 5h             the card(s) turned up for everyone (after a deal, a reshuffle)
  ann gets 7h 8s .. with --seat ann: the cards dealt to ann (any turned up first)
  ann draws 7h      with --seat ann: the card(s) ann draws
  mom shows 7h 8s   at a round's end, the cards mom has left (mom shows nothing)
  called off        nobody can move: the player who drew could not follow and nothing is
                    left to draw (trick), so the rules end the deal
  undo              take back the last entry
  help              this list""")

#: English verbs a person types before a move, and the variant's word for them.
_VERBS = {"plays": "", "play": "", "played": "", "leads": "", "led": "", "draws": "draw",
          "drew": "draw", "takes": "take", "took": "take", "keeps": "keep", "kept": "keep",
          "melds": "meld", "discards": "discard", "discarded": "discard"}
_DRAWS = ("draws", "draw", "drew")
_SHOWS = ("shows", "show", "has", "holds")
_UP = ("up", "turn", "turns", "turned")
_GETS = ("gets", "get", "got", "dealt", "is")
_CALLED_OFF = ("called off", "call off", "no move")
#: A hypothesis about the next line, for a question the rules asked about a card nobody saw.
_CHANCE_NEXT = {"chance": "?"}


class Refused(CardcliError):
    """An entry the rules (or the words) do not allow: nothing was written."""


class _Everything:
    """Every move is "legal" to the variant's parser: the rules decide when it is pushed."""

    def __contains__(self, item: object) -> bool:
        return True


ANY: Any = _Everything()


@dataclass
class _Shows:
    """A round has ended: waiting for the hands nobody saw."""

    need: list[int]  # the seats whose cards left nobody saw
    known: list[list[str]]  # each hand as the table knows it
    shown: dict[int, list[str]] = field(default_factory=dict)

    def copy(self) -> _Shows:
        return _Shows(list(self.need), [list(hand) for hand in self.known], dict(self.shown))


@dataclass
class _Entry:
    """An accepted entry: what to come back to for ``undo``, and its words."""

    mark: int  # the driver's mark before it
    offset: int  # the record's length before it
    text: str
    parts: list[list[str]]
    waiting: _Shows | None
    pending_up: list[str]
    lines: int = 0  # how many lines it wrote
    replaced: _Entry | None = None  # the entry it took the place of (a call made as the next entry)
    typed: str = ""  # the words as typed, where they were not ``text`` (Japanese entry words)

    @property
    def said(self) -> str:
        """The entry as the person typed it, to say back."""
        return self.typed or self.text


class Referee:
    """The game at a real table, kept entry by entry.

    ``writer`` gets the record (its header already written); without one the
    record is kept in memory (:attr:`lines`).  ``game`` is a game already
    read from a record to go on with (:meth:`resume`); otherwise a new game
    is set up from ``header``.
    """

    def __init__(self, registry: Any, header: Header, *, writer: RecordWriter | None = None,
                 source: str = "<referee>", game: Game | None = None):
        self.registry = registry
        self.header = header
        self.names = [seat.name for seat in header.players]
        #: The seat whose cards are entered too (``--seat``), or ``None``: the public view.
        self.viewer = view_seat(header.view or "public", len(self.names))
        self.source = source
        if writer is None:
            writer = RecordWriter(io.StringIO())
            writer.write(header.as_dict())
        self.writer = writer
        if game is None:
            game = header_to_game(header, registry, source, undo=True)
            TableSight(game, source, self.viewer)
        self.game: Game = game
        sight = next((hook for hook in game.hooks if isinstance(hook, TableSight)), None)
        if sight is None or not game.keeps_undo:
            raise ValueError("a referee follows a game read from a real table's view, with undo")
        self.sight: TableSight = sight
        #: Cards to stand for those nobody knows yet, for the rules to deal (never written).
        self._pack = sorted(game.variant.deck(game.rules, len(self.names)))
        #: The entries accepted since the table was set up (``undo`` takes them back).
        self.entries: list[_Entry] = []
        self.waiting: _Shows | None = None
        #: Cards turned up of a chance event that shows more (the dealer's aces before the wild).
        self.pending_up: list[str] = []
        self._out: list[dict[str, Any]] = []  # the lines of the entry being taken
        self._said: list[str] = []  # what the rules did, in words, for the entry being taken
        #: The entry being taken as typed, where its words were read as others (Japanese), else ``None``.
        self._typed: str | None = None
        #: The record's next line number (for messages).
        self._line = (game.events + 2) if game is not None else 2
        with self._reading():
            self._follow()
        self._write(self._out)
        self._out = []

    @classmethod
    def resume(cls, registry: Any, path: str) -> Referee:
        """The referee's game recorded in ``path``, read back through the rules
        and the exact check of the unseen cards, ready to go on."""
        try:
            with open(path, "rb") as stream:
                game = read_record(stream, path, registry, GameLoader(), live=True)
            with open(path, "rb") as stream:
                first = next(read_lines(stream, path))
        except OSError as error:
            raise CardcliError(_("cannot resume: cannot read {path}: {reason}").format(
                path=path, reason=system_words(error))) from None
        except RecordError as error:
            raise CardcliError(_("cannot resume: {error}").format(error=error)) from None
        header = parse_header(first[1], path, first[0])
        if header.view is None:
            raise CardcliError(_("cannot resume: {path} is not a referee's record (its header names no view: "
                                 "every card is written)").format(path=path))
        return cls(registry, header, writer=RecordWriter.open(path, append=True), source=path, game=game)

    # ------------------------------------------------------------- the record
    @property
    def lines(self) -> list[dict[str, Any]]:
        """The record's lines after the header, as written (read back from it)."""
        stream = self.writer.stream
        stream.flush()
        if isinstance(stream, io.StringIO):
            text = stream.getvalue()
        else:
            with open(self.source, encoding="utf-8") as file:
                text = file.read()
        return [json.loads(line) for line in text.splitlines()[1:]]

    def _write(self, lines: list[dict[str, Any]]) -> None:
        for line in lines:
            self.writer.write(line)
        self._line += len(lines)

    @property
    def state(self) -> Any:
        return self.game.state

    @contextmanager
    def _reading(self) -> Iterator[None]:
        with reading_unseen(self.sight.oracle):
            yield

    def words(self, text: str) -> str:
        """A record's message said with the players' names."""
        return name_seats(text.replace("move ", "move #"), self.names).replace("move #", "move ")

    # -------------------------------------------------------------- entries
    def enter(self, text: str) -> list[str]:
        """Take one entry (maybe several joined by ``then``); the lines to show:
        what the rules did, the table and what comes next.  Raises
        :class:`Refused` (nothing written) when the rules forbid it.  Japanese
        entry words are read as the English ones (:mod:`.entry_words`)."""
        typed = " ".join(text.split())
        read = referee_entry(text)  # the text itself where nothing in it is Japanese
        japanese = read != text
        text = " ".join(read.replace(",", " ").split())
        low = text.lower()
        if not low or low.startswith("#"):  # a comment, in a file of entries
            return []
        if low in ("help", "?", "h"):
            return _(HELP).splitlines()
        if low == "undo":
            return self.undo()
        parts = self._parts(low)
        self._typed = typed if japanese else None  # said back as typed
        try:
            with self._reading():
                call = _call_said(parts[0])
                if call is not None and len(parts) == 1:
                    said = self._call_next(parts[0], call)
                else:
                    said = self._take(text, parts, self._typed or "")
        finally:
            self._typed = None
        return [*said, *self.situation()]

    def _quoted(self, text: str) -> str:
        """``text`` (words of the entry being taken) quoted for a refusal: as typed;
        words an entry typed in Japanese was read as are said as the whole entry typed."""
        typed = self._typed
        if typed is None or text in unicodedata.normalize("NFKC", typed).lower():
            return repr(text)
        return repr(typed)

    def _take(self, text: str, parts: list[list[str]], typed: str = "") -> list[str]:
        """Push an entry's parts; keep them all and write their lines, or none."""
        entry = _Entry(self.game.mark(), self.writer.stream.tell(), text, parts,
                       self.waiting.copy() if self.waiting else None, list(self.pending_up), typed=typed)
        self._out, self._said = [], []
        try:
            for words in parts:
                self._one(words)
            self._follow()
        except RecordError as error:
            self._back(entry)
            raise Refused(self.words(error.message)) from None
        except Refused:
            self._back(entry)
            raise
        self._write(self._out)
        entry.lines = len(self._out)
        self.entries.append(entry)
        said, self._out, self._said = self._said, [], []
        return said

    def _back(self, entry: _Entry) -> None:
        """Back to before ``entry``: the game, the record and what was waited for."""
        self.game.rollback(entry.mark)
        self.waiting = entry.waiting
        self.pending_up = entry.pending_up
        self._out, self._said = [], []

    def undo(self) -> list[str]:
        """Take back the last entry (and what the rules made follow it)."""
        if not self.entries:
            raise Refused(_("nothing to undo (entries made before --resume stay)") if self.lines
                          else _("nothing to undo"))
        entry = self.entries.pop()
        self._back(entry)
        self._truncate(entry)
        if entry.replaced is not None:  # a call made as the next entry: the play stays, uncalled
            with self._reading():
                self._take(entry.replaced.text, entry.replaced.parts, entry.replaced.typed)
        return [_("Taken back: {entry}.").format(entry=entry.said), *self.situation()]

    def _parts(self, low: str) -> list[list[str]]:
        """An entry's parts (joined by ``then``), each as words: a part that
        names no player is the first part's player's (``cat draws 3 then 9s``)."""
        parts = [part.split() for part in low.split(" then ") if part.split()]
        if not parts:
            return [[""]]
        seat = self._seat_of(parts[0][0], quiet=True)
        if seat is not None:
            parts[1:] = [words if self._seat_of(words[0], quiet=True) is not None or words[0] in _UP
                         else [self.names[seat].lower(), *words] for words in parts[1:]]
        return parts

    def public_words(self, text: str) -> str:
        """An entry as everyone may read it: the viewer's own cards (its deal,
        its draws) left out, as on the page served to the table."""
        low = " ".join(text.replace(",", " ").split()).lower()
        if self.viewer is None or not low:
            return text
        parts, hidden = [], False
        for words in self._parts(low):
            if self._seat_of(words[0], quiet=True) == self.viewer and len(words) > 1:
                verb = words[1]
                cards = [w for w in words[2:] if _cards_named([w])]
                if verb in _GETS:
                    # Translators: the board's line for a seat's own deal, its cards left out.
                    words, hidden = [_.ngettext("{name} gets {count} card", "{name} gets {count} cards",
                                                len(cards)).format(name=words[0], count=len(cards))], True
                elif verb in _DRAWS and cards:
                    count = words[2] if words[2].isdigit() else str(len(cards))
                    words, hidden = [words[0], verb, *([] if count == "1" else [count])], True
            parts.append(" ".join(words))
        return " then ".join(parts) if hidden else text

    def _seat_of(self, word: str, quiet: bool = False) -> int | None:
        lowered = [name.lower() for name in self.names]
        if word in lowered:
            return lowered.index(word)
        if quiet:
            return None
        close = difflib.get_close_matches(word, lowered, n=1, cutoff=0.6)
        players = join_and(self.names)
        if close:
            raise Refused(_("{word} is not a player at this table (did you mean {name}?): the players are "
                            "{players}").format(word=self._quoted(word),
                                                name=self.names[lowered.index(close[0])], players=players))
        raise Refused(_("{word} is not a player at this table: the players are {players}").format(
            word=self._quoted(word), players=players))

    def _one(self, words: list[str]) -> None:
        if " ".join(words) in _CALLED_OFF:
            self._called_off()
            return
        if self.waiting is not None:
            self._shows(words)
            return
        if words[0] in _UP:
            self._up([w for w in words[1:] if w != "up"])
            return
        call = _call_said(words)
        if call is not None:
            # Translators: {call} is the call's name ("Page One"), {typed} the words typed for it ("page
            # one"): the example is an entry, "ann 7h page one".
            raise Refused(_("{call} is called with the card just played: on its line (ann 7h {typed}) or as "
                            "the next entry").format(call=_(_CALLS[call]), typed=call))
        seat = self._seat_of(words[0])
        assert seat is not None
        rest = words[1:]
        if not rest:
            # Translators: "help" is the word typed for the list of entry words.
            raise Refused(_("what did {name} do? (help lists the words)").format(name=self.names[seat]))
        if rest[0] in _SHOWS:
            self._shown_already(seat, rest[1:])
            return
        if self.pending_up:
            raise Refused(_("not yet: {what}").format(what=self._chance_words()))
        if rest[0] in _GETS:
            self._gets(seat, [w for w in rest[1:] if w != "dealt"])
            return
        if rest[0] in _DRAWS and (len(rest) == 1 or rest[1].isdigit() or _cards_named(rest[1:])):
            count = int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else None
            self._draws(seat, count, _cards_named(rest[2 if count is not None else 1:]) or [])
            return
        if rest[0] in _VERBS:
            verb = _VERBS[rest[0]]
            rest = ([verb] if verb else []) + rest[1:]
        if rest[:2] == ["lays", "off"] or rest[:2] == ["lay", "off"]:
            rest = ["l", *[w for w in rest[2:] if w != "on"]]
        self._move(seat, " ".join(rest))

    # --------------------------------------------------------- the one engine
    def _to(self, next_data: dict[str, Any]) -> Any:
        """The state as it stands if the next line is like ``next_data``
        (what the rules did with a card nobody saw, settled by it)."""
        with self._reading():
            return self.sight.state_if(self.game, next_data)

    def _settle(self, next_data: dict[str, Any] | None) -> None:
        """The line after the open event is like ``next_data`` (``None``: its
        questions need no answer): settle it, and write what follows it (a
        shown line, a checkpoint, the result)."""
        sight = self.sight
        open_ = sight.open
        if open_ is None:
            return
        before = open_.before
        sight.settle(self.game, next_data)
        state = self.state
        if next_data is not None and "shown" in next_data:
            self._out.append(next_data)
        stated = self.game.variant.checkpoint(state)
        if stated is not None:
            self._out.append(stated)
        self._tell_round_end(before, open_.action, open_.seat)
        if state.current_player() == TERMINAL:
            result = state.result()
            if result is not None:
                data = result.as_dict()
                self._out.append({"result": data})
                if data.get("scores") is not None:
                    variant = self.game.variant
                    ranking = ranking_text(data, self.names, variant.words(variant.score_label))
                    self._said.extend(ranking.splitlines())

    def _push(self, action: Action, seat: int, typed: bool = True) -> None:
        """Push one event (the open one settled by it first); its line goes to
        the entry's lines.  ``typed``: an entry said it (else the rules made
        it, and it is told)."""
        line = self.game.encode(action)
        self._settle({"move": line.get("move"), "seat": seat} if seat != CHANCE else line)
        line = self.game.encode(action)
        state = self.state
        if not typed:
            told = describe_events(self.game.variant, [(state, action)], self.viewer, self.names)
            self._said.extend(_counted(line) for line in told)
        move = self.game.moves + (1 if seat != CHANCE else 0)
        self.sight.push(self.game, action, seat, self._line + len(self._out), move, None)
        self._out.append(line)

    def _follow(self) -> None:
        """What the rules make certain after an entry, and nobody needs to
        say: the open event settled where its outcome does not hang on a
        card nobody saw (a round's end, the result), chance events nobody
        sees (a deal, a draw, a reshuffle); up to a card the table sees, a
        hand to show, or a player's turn."""
        for _step in range(10_000):
            sight = self.sight
            open_ = sight.open
            state = self.state
            if self.waiting is not None or self.pending_up:
                return
            if open_ is not None and not open_.asked:
                hands = state.round_end_hands() if isinstance(state, UnseenCards) else None
                if hands is not None and state.hands_count():
                    # The table counts the cards left: they are shown (and written), as an export writes them.
                    if any(UNSEEN in hand for hand in hands):
                        self._wait_for_shows(hands)
                        return
                    self._settle({"shown": [[NAME[card] for card in hand] for hand in hands]})
                else:
                    self._settle(None)
                state = self.state
            if state.current_player() != CHANCE:
                return
            later = self._to(_CHANCE_NEXT)
            if later.current_player() != CHANCE:
                return
            action = self._blurred(later)
            if _named(self._encode(later, action)) > 0:
                return  # the table sees a card here: the next entry says which
            self._push(action, CHANCE, typed=False)
        raise RecordError("internal error: chance events without end", kind=Kind.INTERNAL)  # pragma: no cover

    def _encode(self, state: Any, action: Action) -> dict[str, Any]:
        fields = self.game.variant.encode_action(state, action)
        player = state.current_player()
        return {"seat": player, **fields} if player >= 0 else fields

    def _blurred(self, state: Any, public: bool = False) -> Action:
        """The chance event due in ``state`` as the viewer (``public``: a
        spectator) sees it: the cards they do not see unseen, and any they
        see as some card (:func:`_named` finds them; an ``up``, ``gets`` or
        ``draws`` entry names them)."""
        probe = state.clone()  # a stock of cards (any: the table does not know them) to sample from
        probe.stock[:] = (self._pack * 2)[:len(probe.stock)]
        action = replace_unseen(probe.sample_chance(random.Random(0)), self._pack[0])
        return state.seen_by(action, None if public else self.viewer)

    def _due(self) -> tuple[Any, dict[str, Any] | None]:
        """The state if a chance event comes next, and that event's line as the
        viewer sees it (``None`` if no chance event is due)."""
        later = self._to(_CHANCE_NEXT)
        if later.current_player() != CHANCE:
            return later, None
        return later, self._encode(later, self._blurred(later))

    def _own(self, state: Any) -> dict[str, Any] | None:
        """The chance event due in ``state`` if it brings the viewer cards only
        they see (their deal, their draw): entered as ``gets`` or ``draws``."""
        if self.viewer is None or state.current_player() != CHANCE:
            return None
        line = self._encode(state, self._blurred(state))
        return line if _named(line) > _named(self._encode(state, self._blurred(state, public=True))) else None

    def _push_line(self, state: Any, line: dict[str, Any], typed: bool = True) -> None:
        """Push the chance event ``line`` (as the viewer saw it) due in ``state``
        (``typed``: an entry said it; else the rules made it, and it is told)."""
        try:
            action = self.game.variant.decode_action(state, line)
        except ValueError as error:
            raise Refused(str(error)) from None
        self._push(action, CHANCE, typed)

    # ---------------------------------------------------------------- moves
    def _turn(self, seat: int, what: str) -> Any:
        """The state as it stands if ``seat`` moves next (the chance events
        nobody sees before it pushed: a new deal); refused if it cannot."""
        state = self._to({"move": what, "seat": seat})
        if state.current_player() == CHANCE:
            self._settle({"move": what, "seat": seat})
            self._follow()
            state = self._to({"move": what, "seat": seat})
        current = state.current_player()
        if current == seat:
            return state
        name = self.names[seat]
        if current == TERMINAL:
            raise Refused(_("the game is over"))
        if current == CHANCE:
            raise Refused(_("not yet: {what}").format(what=self._chance_words()))
        raise Refused(_("it is {current}'s turn, not {name}'s").format(current=self.names[current],
                                                                       name=name))

    def _move(self, seat: int, text: str) -> None:
        """A typed move.  Where the seat's drawn card (or hand) was asked
        about, the move is first read as playing it (the deal goes on); if
        that is refused, as the first move after the deal was called off."""
        open_ = self.sight.open
        asked = open_ is not None and any(other == seat for _kind, other, _at, _card in open_.asked)
        mark, out, said = self.game.mark(), len(self._out), len(self._said)
        try:
            self._move_now(seat, text)
        except (Refused, RecordError) as first:
            self.game.rollback(mark)
            del self._out[out:], self._said[said:]
            if not asked:
                raise
            try:
                self._settle(_CHANCE_NEXT)  # it could not go on: what the rules do then
                self._follow()
                self._move_now(seat, text)
            except (Refused, RecordError):
                self.game.rollback(mark)
                del self._out[out:], self._said[said:]
                raise first from None

    def _move_now(self, seat: int, text: str) -> None:
        state = self._turn(seat, text)
        variant = self.game.variant
        action = variant.parse_move(state, text, ANY)
        if action is None:
            why = variant.why_not_move(state, text)
            raise Refused(f"{self._quoted(text)}: {self._for(seat, why)}" if why else self._not_a_move(text))
        self._cards_in(seat, state, text, action)
        self._push(action, seat)

    def _for(self, seat: int, why: str) -> str:
        """A variant's reason, said to its player at the terminal, said of ``seat``."""
        name = self.names[seat]
        return (why.replace("your own", f"{name}'s own").replace("in your hand", f"in {name}'s hand")
                .replace("you hold", f"{name} holds"))

    def _cards_in(self, seat: int, state: Any, text: str, action: Action) -> None:
        """Every card the entry names must be in the move it is read as (``bob
        takes 9s`` is refused when the top discard is KS)."""
        encoded = json.dumps(self.game.variant.encode_action(state, action))
        for word in text.replace("!", " ").split():
            card = word.split("=")[0]
            named = _cards_named([card])
            if named and f'"{named[0]}' not in encoded:
                said = self.game.variant.describe(state, action)
                # Translators: {entry} is the entry as typed, quoted; {move} the move the rules read it as,
                # as told after the player's name ("plays 9H", "takes KS").
                raise Refused(_("{entry}: {card} is not in that move: here {name} {move}").format(
                    entry=self._quoted(text), card=named[0], name=self.names[seat], move=said))

    def _not_a_move(self, text: str) -> str:
        for word in text.replace("!", " ").split():
            if any(ch.isdigit() for ch in word) or len(word) == 2:
                try:
                    parse_card(word.split("=")[0])
                except CardError as error:
                    return f"{self._quoted(word)}: {error}"
        return _("{entry} is not a move here (help lists the words)").format(entry=self._quoted(text))

    def _called_off(self) -> None:
        """Nobody moves next: the rules end the deal (trick's last card drawn
        did not follow and nothing is left to draw)."""
        later = self._to({"chance": "end"})
        if self.sight.open is None or not self.sight.open.asked or not _deal_ended(later):
            upcoming = self._next()
            if upcoming is None:
                raise Refused(_("the game is over"))
            what, ends = upcoming
            raise Refused((_("the game goes on here: {what}.") if ends else
                           _("the game goes on here: {what}")).format(what=what))
        self._settle({"chance": "end"})

    def _draws(self, seat: int, count: int | None, seen: list[str]) -> None:
        """``seat`` draws (``count`` cards, where said): its draw, then the
        draws the rules go on with (trick's drawing until one follows, a
        reshuffle on the way)."""
        name = self.names[seat]
        drawn, moved = 0, False
        seen = list(seen)
        while True:
            later, line = self._due()
            if line is not None and line.get("chance") == "draw" and line.get("seat") == seat:
                if seen and not _named(line):
                    break  # cards named that nobody sees: said below
                if _named(line):  # cards the table (or the viewer) sees come to the drawer
                    filled, seen = _fill_seen(line, seen)
                    if filled is None:
                        # Translators: {typed} is the player's name as typed in an entry ("ann draws 7h 9c").
                        said = _("{name}'s own cards are entered: say the cards {name} draws here ({typed} "
                                 "draws 7h 9c)") if self.viewer == seat else \
                            _("the table sees them: say the cards {name} draws here ({typed} draws 7h 9c)")
                        raise Refused(said.format(name=name, typed=name.lower()))
                    line = filled
                self._push_line(later, line)
                drawn += sum(len(v) for v in line.values() if isinstance(v, list))
                if (count is not None and drawn >= count) or (count is None and not seen):
                    break
                continue
            if line is not None and not _named(line) and "seat" not in line:
                self._push_line(later, line, typed=False)  # the stock rebuilt before the draw (goes on)
                continue
            if drawn or moved:
                break
            state = self._turn(seat, "draw")
            variant = self.game.variant
            action = variant.parse_move(state, "draw", ANY)
            if action is None:  # the rules' reason (she has drawn already), else none at all
                why = variant.why_not_move(state, "draw")
                raise Refused(self._for(seat, why) if why else _("{name} cannot draw in this game").format(
                    name=name))
            self._push(action, seat)
            moved = True
            if self.viewer == seat and not seen and count is None and self._own_draw_due(seat):
                return  # as at the table: she draws, then looks (the next entry names the cards)
        if seen:
            if self.viewer == seat:
                raise Refused(_draws_here(name, drawn, drawn + len(seen)))
            raise Refused(_("nobody sees the cards {name} draws here: say only how many ({typed} draws 2)")
                          .format(name=name, typed=name.lower()))
        if count is not None and drawn != count:
            raise Refused(_draws_here(name, drawn, count))

    def _own_draw_due(self, seat: int) -> bool:
        _later, line = self._due()
        return line is not None and line.get("chance") == "draw" and line.get("seat") == seat \
            and _named(line) > 0

    # ------------------------------------------------------ cards turned up
    def _up(self, names: list[str]) -> None:
        """Cards turned up for everyone: each chance event due takes those it
        shows, in order (End of the Page: each player's first card, the
        dealer's aces and wild); a dealer still turning keeps them waiting."""
        if not names:
            raise Refused(_("say the card(s) turned up, e.g. up 5h"))
        cards = _cards_named(names)
        if cards is None:
            bad = next(name for name in names if _cards_named([name]) is None)
            try:
                parse_card(bad)
            except CardError as error:
                raise Refused(str(error)) from None
            raise Refused(_("{word} is not a card").format(word=repr(bad)))  # pragma: no cover - raised above
        cards = [*self.pending_up, *cards]
        self.pending_up = []
        pushed = False
        while cards:
            later, line = self._due()
            if line is None or not _named(line):
                if pushed:
                    raise Refused(_("{cards}: no more cards are turned up now").format(
                        cards=" ".join(cards).upper()))
                raise Refused(_("nothing is turned up now"))
            if self._own(later) is not None:
                raise Refused(_("{name}'s own cards come here: {what}").format(
                    name=self.names[self.viewer or 0], what=self._chance_words(later)))
            used = self._turned(later, line, cards)
            if used == 0:  # a dealer still turning: wait for the rest
                self.pending_up = cards
                return
            cards = cards[used:]
            pushed = True

    def _turned(self, state: Any, line: dict[str, Any], cards: list[str]) -> int:
        """Push the chance event due with the first of ``cards`` as those the
        table sees (as few as make it legal); how many it took (0: it shows
        more than were said, as a dealer turning aces before the wild)."""
        first_why: str | None = None
        tried: list[dict[str, Any]] = []
        for used in range(1, len(cards) + 1):
            for length in _lengths(line):
                candidate = _filled(line, cards[:used], length)
                if candidate is None or candidate in tried:
                    continue
                tried.append(candidate)
                why = self._try_chance(state, candidate)
                if why is None:
                    return used
                first_why = first_why or why
        if self._shows_more(state, line, cards):
            return 0
        raise Refused(first_why or _("those cards cannot be turned up here"))

    def _try_chance(self, state: Any, line: dict[str, Any]) -> str | None:
        """Push the chance event ``line`` due in ``state``; if it is refused,
        take it back and say why."""
        try:
            action = self.game.variant.decode_action(state, line)
        except ValueError as error:
            return str(error)
        mark, out, said = self.game.mark(), len(self._out), len(self._said)
        try:
            self._push(action, CHANCE)
        except RecordError as error:
            self.game.rollback(mark)
            del self._out[out:], self._said[said:]
            return self.words(error.message)
        return None

    def _shows_more(self, state: Any, line: dict[str, Any], cards: list[str]) -> bool:
        """Whether ``cards`` begin the cards the event due shows (a dealer
        turning until the wild): some card more makes it legal."""
        for extra in dict.fromkeys(self._pack):
            more = [*cards, NAME[extra]]
            for length in _lengths(line):
                candidate = _filled(line, more, length)
                if candidate is None:
                    continue
                try:
                    action = self.game.variant.decode_action(state, candidate)
                except ValueError:
                    continue
                if self.sight.allows(state, action, CHANCE):
                    return True
        return False

    def _gets(self, seat: int, words: list[str]) -> None:
        """The viewer's own cards of the deal due now (those turned up for
        everyone first, in the order dealt)."""
        name = self.names[seat]
        cards = _cards_named(words)
        if cards is None:
            raise Refused(self._not_a_move(" ".join(words)))
        if self.viewer is None:
            raise Refused(_("this table is followed from the public view: nobody's hidden cards are "
                            "entered (cardcli referee --seat NAME enters one player's)"))
        if seat != self.viewer:
            raise Refused(_("only {viewer}'s cards are entered here: {name}'s stay unseen").format(
                viewer=self.names[self.viewer], name=name))
        later, _line = self._due()
        own = self._own(later)
        if own is None or own.get("chance") == "draw":
            raise Refused(_("no cards are dealt to {name} now").format(name=name) if own is None else
                          _("{name} draws here: {what}").format(name=name, what=self._chance_words()))
        if not cards:
            raise Refused(_("say the cards dealt to {name}, e.g. {typed} gets 7h 8s 2c").format(
                name=name, typed=name.lower()))
        first_why = None
        for single in (dict.fromkeys(cards) if _single_cards(own) else [None]):
            why = self._try_chance(later, _dealt(own, cards, single))
            if why is None:
                return
            first_why = first_why or why
        raise Refused(first_why or _("those cards cannot be dealt to {name} here").format(name=name))

    # ------------------------------------------------------ page one, stop
    def _call_next(self, words: list[str], call: str) -> list[str]:
        """``page one`` or ``stop`` (or ``ann page one``, ``ann stop``) as the
        entry after the play: the last entry again, its play called (with the
        call's word, which the variant reads: a call said with a card it does
        not go with is refused)."""
        said_alone = words[:len(call.split())] == call.split()
        seat = None if said_alone else self._seat_of(words[0], quiet=True)
        if not said_alone and seat is None:
            self._seat_of(words[0])  # says who is not at the table
        last = self.entries[-1] if self.entries else None
        if last is None:
            raise Refused(_("{call} is called with the card just played, as the next entry").format(
                call=_(_CALLS[call])))
        parts = [list(part) for part in last.parts]
        at = next((i for i in range(len(parts) - 1, -1, -1) if self._is_play(parts[i])), None)
        if at is None:
            raise Refused(_("{call} is called with the card just played, as the next entry").format(
                call=_(_CALLS[call])))
        mover = self._seat_of(parts[at][0], quiet=True)
        if seat is not None and mover is not None and mover != seat:
            raise Refused(_("the last move was {mover}'s, not {name}'s").format(
                mover=self.names[mover], name=self.names[seat]))
        if any("!" in word for word in parts[at]) or any(
                parts[at][-len(word.split()):] == word.split() for word in _CALLS):
            raise Refused(_("{name} called already").format(name=self.names[mover or 0]))
        parts[at] = [*parts[at], *call.split()]
        self.entries.pop()
        self._back(last)
        self._truncate(last)
        text = " then ".join(" ".join(part) for part in parts)
        try:
            said = self._take(text, parts)
        except Refused as error:
            self._take(last.text, last.parts, last.typed)  # as it was
            raise Refused(str(error)) from None
        # Undone, the call goes and the play stays, as typed.
        self.entries[-1].text = " ".join(words)
        self.entries[-1].typed = self._typed or ""
        self.entries[-1].replaced = last
        return said

    def _is_play(self, words: list[str]) -> bool:
        """Whether an entry's part is a move by a player (not a draw, a show, a turn-up)."""
        return self._seat_of(words[0], quiet=True) is not None and len(words) > 1 and \
            words[1] not in (*_DRAWS, *_SHOWS, *_GETS)

    def _truncate(self, entry: _Entry) -> None:
        stream = self.writer.stream
        stream.flush()
        stream.seek(entry.offset)
        stream.truncate()
        self._line -= entry.lines

    # ----------------------------------------------------------- round ends
    def _wait_for_shows(self, hands: Any) -> None:
        need = [seat for seat, hand in enumerate(hands) if UNSEEN in hand]
        self.waiting = _Shows(need, [[NAME[c] for c in hand if c != UNSEEN] for hand in hands])

    def _shown_already(self, seat: int, words: list[str]) -> None:
        """``seat`` shows cards the table knew it had left (its hand at the
        round just ended): nothing to write; anything else is refused."""
        hands = self.state.round_end_hands() if isinstance(self.state, UnseenCards) else None
        cards = _cards_named([w for w in words if w not in ("nothing", "none")])
        if hands is None:
            raise Refused(_("hands are shown at a round's end, and the round goes on"))
        left = sorted(NAME[c] for c in hands[seat])
        if cards is None or sorted(cards) != left:  # the table saw them: say which they are
            name = self.names[seat]
            if not left:
                raise Refused(_("{name} had no cards left at the round's end: nothing to show").format(
                    name=name))
            # Translators: {cards} are the cards a player held as the round ended ("JH QH"), which the
            # referee knows (the table saw them, or they are the player's own, entered).
            raise Refused(_("{name}'s cards at the round's end are known already: {cards}").format(
                name=name, cards=" ".join(NAME[c] for c in hands[seat])))

    def _shows(self, words: list[str]) -> None:
        waiting = self.waiting
        assert waiting is not None
        seat = self._seat_of(words[0])
        assert seat is not None
        rest = words[1:]
        if not rest or rest[0] not in _SHOWS:
            raise Refused(_("the round is over: say the cards each player has left, e.g. {typed} shows 7h 8s")
                          .format(typed=self.names[waiting.need[0]].lower()))
        names = [w for w in rest[1:] if w not in ("nothing", "none")]
        try:
            cards = [NAME[parse_card(name)] for name in names]
        except CardError as error:
            raise Refused(str(error)) from None
        if seat not in waiting.need:
            if sorted(cards) != sorted(waiting.known[seat]):
                known = " ".join(waiting.known[seat])
                said = _("{name}'s cards left are known: {cards}") if known else \
                    _("{name}'s cards left are known: none")
                raise Refused(said.format(name=self.names[seat], cards=known))
            return
        waiting.shown[seat] = cards
        if len(waiting.shown) < len(waiting.need):
            return
        shown = {"shown": [waiting.shown.get(s, waiting.known[s]) for s in range(len(self.names))]}
        self.waiting = None
        self._settle(shown)
        try:
            check_shown(self.game, shown, self.source, self._line, due=True, known=self.sight.known_at_end)
        except RecordError as error:
            raise Refused(self.words(error.message)) from None

    def _tell_round_end(self, before: Any, action: Action, seat: int) -> None:
        """A round just ended (not the game): its summary, in everyone's view."""
        state = self.state
        if before is None or state.current_player() == TERMINAL:
            return
        if not (isinstance(state, UnseenCards) and state.round_end_hands() is not None):
            return
        summary = round_summary(self.game.variant, self.sight.settled_before or before, action, self.names)
        if summary:
            self._said.extend(summary.splitlines())

    # ------------------------------------------------------------ the table
    def situation(self, public: bool = False) -> list[str]:
        """The table as the viewer (``public``: everyone, no hand) sees it,
        and what the rules expect next.  While a round's hands are awaited,
        the table as it was before the move that ended it, and that move."""
        state = self.state
        variant = self.game.variant
        viewer = SPECTATOR if public else self.viewer
        open_ = self.sight.open
        if self.waiting is not None and open_ is not None and open_.before is not None:
            lines = variant.render(open_.before, viewer, self.names).splitlines()
            told = describe_events(variant, [(open_.before, open_.action)], self.viewer, self.names)
            lines += [_counted(line) for line in told]
            lines.append(_("The round is over: its score counts the cards left in hand."))
        else:
            lines = variant.render(state, viewer, self.names).splitlines()
        lines.append(self.expected())
        return lines

    def expected(self) -> str:
        """What must happen next, in words: both ways where the rules turn on
        a card nobody saw (the drawn card plays, or it does not)."""
        upcoming = self._next()
        if upcoming is None:
            result = self.state.result()
            return _game_over(result.as_dict(), self.names, self.game.variant) if result is not None else \
                _("Game over.")
        what, ends = upcoming
        if ends:
            # Translators: what the referee expects next, a sentence ({what}: "ann to play or draw").
            return _("Next: {what}.").format(what=what)
        # Translators: what the referee expects next, ending in an example entry ({what}: "the table
        # turns up a card first: type it, e.g. up 5h").
        return _("Next: {what}").format(what=what)

    def _next(self) -> tuple[str, bool] | None:
        """What must happen next (``None``: the game is over), and whether it
        is said as a sentence's end (a full stop after it)."""
        if self.waiting is not None:
            left = [self.names[s] for s in self.waiting.need if s not in self.waiting.shown]
            said = _("the round is over; the cards left in hand of {players} (e.g. {typed} shows 7h 8s)")
            return said.format(players=join_and(left), typed=left[0].lower()), False
        if self.pending_up:
            return self._chance_words(), False
        state = self.state
        current = state.current_player()
        if current == TERMINAL:
            return None
        open_ = self.sight.open
        if open_ is not None and open_.asked:
            return self._either(open_), True
        if current == CHANCE:
            return self._chance_words(), False
        return self._rules_say(state), True

    def _rules_say(self, state: Any) -> str:
        """What ``state`` expects, as the rules put it, with names (a card
        the table must see: how to type it)."""
        current = state.current_player()
        if current == TERMINAL:
            return _("the game is over")
        if current == CHANCE and _named(self._encode(state, self._blurred(state))):
            return self._chance_words(state)
        said = state.expecting()  # "seat 1 to draw 4 or answer with a 2", as the rules put it
        seat = _("seat {seat}").format(seat=current)
        if current >= 0 and not said.startswith((f"seat {current} to ", seat)):
            said = _("seat {seat} to move").format(seat=current)
        # Translators: a card nobody saw, where the rules name it ("to play or keep the drawn card").
        return self.words(said.replace(f" {NAME[UNSEEN]}", " " + _("card")))

    def _either(self, open_: Any) -> str:
        """The two ways an open event can go: the seat asked about moves next
        (its card plays, its hand can go on), or not."""
        kind, seat = open_.asked[0][0], open_.asked[0][1]
        yes = self._to({"move": "?", "seat": seat})
        no = self._to(_CHANCE_NEXT)
        if _deal_ended(no):
            # Translators: "called off" is the entry typed when nobody can move.
            otherwise = _("nobody can move and the deal ends: type called off")
        else:
            otherwise = self._rules_say(no)
        if yes.current_player() != seat:  # pragma: no cover - a yes is the seat's own move
            return otherwise
        if kind == "card":
            # Translators: the two ways the game can go: {then} if the card just drawn plays, {otherwise}
            # if not.
            said = _("{then}; if not, {otherwise}")
        else:
            # Translators: the two ways the game can go: {then} if the player's hand can go on,
            # {otherwise} if not.
            said = _("{then}; if {name} cannot, {otherwise}")
        return said.format(then=self._rules_say(yes), name=self.names[seat], otherwise=otherwise)

    def _chance_words(self, state: Any | None = None) -> str:
        state = state if state is not None else self._to(_CHANCE_NEXT)
        if self.pending_up:
            turned = " ".join(self.pending_up).upper()
            # Translators: "up 3h" is an entry (the words typed for a card turned up).
            return _("the rest of the cards turned up (so far {cards}: the dealer turns on to the first card "
                     "that is not an ace), e.g. up 3h").format(cards=turned)
        line = self._encode(state, self._blurred(state)) if state.current_player() == CHANCE else {}
        if line.get("chance") == "draw" and isinstance(line.get("seat"), int):
            name = self.names[line["seat"]]
            if line["seat"] == self.viewer:
                # Translators: {typed} is the player's name as typed in an entry ("ann draws 7h").
                return _("the cards {name} draws: type them, e.g. {typed} draws 7h").format(
                    name=name, typed=name.lower())
            return _("{name} draws cards the table sees: type how many and those seen, e.g. {typed} draws "
                     "3 8s").format(name=name, typed=name.lower())
        if self._own(state) is not None:
            name = self.names[self.viewer or 0]
            return _("the cards dealt to {name}: type them, any turned up for all first, e.g. {typed} gets "
                     "7h 8s 2c").format(name=name, typed=name.lower())
        if isinstance(line.get("seat"), int):
            name = self.names[line["seat"]]
            return _("the card turned up in {name}'s deal for all to see: type it, e.g. up 5h (help lists "
                     "the words)").format(name=name)
        return _("the table turns up a card first: type it, e.g. up 5h (help lists the words)")

    @property
    def over(self) -> bool:
        return self.waiting is None and self.state.current_player() == TERMINAL and self.sight.open is None


def _game_over(result: dict[str, Any], names: list[str], variant: Variant | None = None) -> str:
    """``Game over: ann went out. ann wins.``: how it ended, and who won."""
    winner = result.get("winner")
    over = over_text(result, names, variant)
    if isinstance(winner, int) and 0 <= winner < len(names):
        # Translators: {over} is "Game over: ann went out." (its own sentence), then who won.
        return _("{over} {name} wins.").format(over=over, name=names[winner])
    return _("{over} No single winner.").format(over=over)


def _draws_here(name: str, drawn: int, said: int) -> str:
    """A refusal: ``name`` draws ``drawn`` cards here, not the ``said`` the entry said."""
    return _.ngettext("{name} draws {count} card here, not {said}",
                      "{name} draws {count} cards here, not {said}", drawn).format(name=name, count=drawn,
                                                                                    said=said)


def _counted(line: str) -> str:
    """A line told of cards nobody saw, with how many in place of each ``??``:
    "ann drew 2 cards (forgot Page One)", not "ann drew ?? ??"."""
    return _UNSEEN_RUN.sub(lambda found: _.ngettext("a card", "{count} cards", found.group(0).count("??"))
                           .format(count=found.group(0).count("??")), line)


_UNSEEN_RUN = re.compile(r"\?\?(?: \?\?)*")


def _deal_ended(state: Any) -> bool:
    """Whether the game or a round of it has ended in ``state``."""
    return state.current_player() == TERMINAL or (
        isinstance(state, UnseenCards) and state.round_end_hands() is not None)


#: The calls a player says with a play, as an entry says them, and their names.
_CALLS = {"page one": N_("Page One"), "stop": N_("Stop")}


def _call_said(words: list[str]) -> str | None:
    """The call an entry says alone: ``page one``, ``ann page one``, ``ann
    calls page one``; ``stop``, ``ann stop``, ``ann calls stop``."""
    if words[:2] == ["page", "one"] or words[1:3] == ["page", "one"] or (
            len(words) > 2 and words[1] in ("calls", "called") and words[2:4] == ["page", "one"]):
        return "page one"
    if words == ["stop"] or (len(words) == 2 and words[1] == "stop") or (
            len(words) == 3 and words[1] in ("calls", "called") and words[2] == "stop"):
        return "stop"
    return None


def _is_card(value: Any) -> bool:
    if not isinstance(value, str) or value == "??":
        return False
    try:
        parse_card(value)
    except CardError:
        return False
    return True


def _cards_named(words: list[str]) -> list[str] | None:
    """The words as card names, or ``None`` if one is not a card."""
    try:
        return [NAME[parse_card(word)] for word in words]
    except CardError:
        return None


def _fill_seen(line: dict[str, Any], cards: list[str]) -> tuple[dict[str, Any] | None, list[str]]:
    """``line`` with each card the table sees, in order, the next of
    ``cards``, and the cards left over (``None`` if there are too few)."""
    left = list(cards)
    out: dict[str, Any] = {}
    for key, value in line.items():
        if isinstance(value, list):
            value = [left.pop(0) if _is_card(v) and left else ("?!" if _is_card(v) else v) for v in value]
        elif _is_card(value):
            value = left.pop(0) if left else "?!"
        out[key] = value
    return (None if "?!" in json.dumps(out) else out), left


def _named(value: Any) -> int:
    """How many cards a chance line (or part of one) names."""
    if isinstance(value, dict):
        return sum(_named(v) for v in value.values())
    if isinstance(value, list):
        return sum(_named(v) for v in value)
    return 1 if _is_card(value) else 0


def _single_cards(line: dict[str, Any]) -> bool:
    """Whether a chance line names a card outside a list (End of the Page's wild)."""
    return any(_is_card(value) for value in line.values())


def _dealt(line: dict[str, Any], cards: list[str], single: str | None) -> dict[str, Any]:
    """``line`` (a deal as the viewer sees it) with the viewer's list of
    cards replaced by ``cards`` and a card outside a list by ``single``."""
    done = False

    def fill(value: Any) -> Any:
        nonlocal done
        if isinstance(value, list):
            if not done and value and all(isinstance(v, str) for v in value) and any(map(_is_card, value)):
                done = True
                return list(cards)
            return [fill(v) for v in value]
        return single if _is_card(value) else value

    return {key: fill(value) for key, value in line.items()}


def _lengths(line: dict[str, Any]) -> list[int]:
    """Lengths to try for a chance line's list of cards: as sampled, then the
    others (where the number dealt depends on the card turned up)."""
    length = next((len(v) for v in line.values() if isinstance(v, list)), 0)
    return [length, *sorted(range(1, 27), key=lambda n: abs(n - length))]


def _filled(line: dict[str, Any], cards: list[str], length: int) -> dict[str, Any] | None:
    """``line`` with the cards the table sees replaced by those turned up:
    a list of cards begins with them (``length`` cards in all, the rest
    unseen); a single card is the last one named."""
    out: dict[str, Any] = {}
    listed = False
    for key, value in line.items():
        if isinstance(value, list) and not listed and any(_is_card(v) or v == "??" for v in value):
            listed = True
            if length < len(cards):
                return None
            value = [*cards, *["??"] * (length - len(cards))]
        elif _is_card(value):
            value = cards[-1]
        out[key] = value
    return out
