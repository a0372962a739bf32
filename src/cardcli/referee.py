"""Following a game played with a real deck, entry by entry (``cardcli referee``).

One person types what the table does (``ann 7h``, ``bob draws``, ``up 5h``);
the :class:`Referee` turns each entry into lines of a record written from the
public view (every card nobody saw is ``"??"``), or from one seat's (that
player's own cards and draws entered too: ``ann gets 7h 8s ...``), and keeps
it only if the record still reads: the same reader, rules code and exact check of the unseen
cards as ``cardcli validate`` (:mod:`cardcli.partial`).  It knows no game:
moves are the variant's own typed moves (its ``parse_move``), and what a
chance event shows is whatever the record's reader says the table sees.

Each entry is checked by reading the whole record again, with the kind of
line that comes next (``then``) settling what the rules turned on at the
last one (did the player who drew go on drawing?).  A game's record is a
few hundred lines, read in milliseconds.
"""

from __future__ import annotations

import difflib
import io
import json
import random
from dataclasses import dataclass
from typing import Any

from .abilities import checkpoint
from .cards import NAME, UNSEEN, parse_card
from .errors import CardcliError, CardError, Kind, RecordError
from .game import Game
from .grammar import join_and, name_seats, plural
from .partial import replace_unseen
from .prompts import Prompts
from .reader import RecordVisitor, read_record
from .records import Header, RecordWriter, dumps, view_seat
from .unseen import UnseenCards
from .variant import CHANCE, TERMINAL
from .view import SPECTATOR

__all__ = ["HELP", "Referee", "Refused"]

HELP = """\
Type what the table does, one entry a line (names as given with --players):
  ann 7h            ann plays 7h (the game's own moves: 8s hearts, qh!, m 4s 4h 3d, l 3s 1, d kc)
  bob draws         bob draws from the stock; bob draws 2: two cards (a penalty)
  cat draws 3 then 9s   several entries of one player in one line
  ann page one      ann called "Page One!" with the card she just played
  up 5h             the card(s) turned up for everyone (after a deal, a reshuffle)
  ann gets 7h 8s .. with --seat ann: the cards dealt to ann (any turned up first)
  ann draws 7h      with --seat ann: the card(s) ann draws
  mom shows 7h 8s   at a round's end, the cards mom has left (mom shows nothing)
  called off        nobody can move: the player who drew could not follow and nothing is
                    left to draw (trick), so the rules end the deal
  undo              take back the last entry
  help              this list"""

#: English verbs a person types before a move, and the variant's word for them.
_VERBS = {"plays": "", "play": "", "played": "", "leads": "", "led": "", "draws": "draw",
          "drew": "draw", "takes": "take", "took": "take", "keeps": "keep", "kept": "keep",
          "melds": "meld", "discards": "discard", "discarded": "discard"}
_SHOWS = ("shows", "show", "has", "holds")
_UP = ("up", "turn", "turns", "turned")
_GETS = ("gets", "get", "got", "dealt", "is")
_CALLED_OFF = ("called off", "call off", "no move")


class Refused(CardcliError):
    """An entry the rules (or the words) do not allow: nothing was written."""


class _Everything:
    """Every move is "legal" to the variant's parser: the record's reader decides."""

    def __contains__(self, item: object) -> bool:
        return True


ANY: Any = _Everything()


class _Keep(RecordVisitor[None]):
    """The game a record leaves, and the error that stopped it (if one did)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.error: RecordError | None = None

    def visit_header(self, game: Game, header: Header, line: int) -> object:
        self.game = game
        return None

    def handle_error(self, error: RecordError) -> None:
        self.error = error

    def result(self) -> None:
        return None


@dataclass
class _Shows:
    """A round has ended: the move that ended it, waiting for the hands shown."""

    move: dict[str, Any]
    need: list[int]  # the seats whose cards left nobody saw
    shown: dict[int, list[str]]
    known: list[list[str]]  # each hand as the table knows it


class Referee:
    """The record of a game at a real table, kept entry by entry.

    ``lines`` are the record's lines after the header (a resumed record's);
    ``writer`` (if given) gets each accepted line as it is accepted, and is
    cut back on :meth:`undo`.
    """

    def __init__(self, registry: Any, header: Header, *, lines: list[dict[str, Any]] | None = None,
                 writer: RecordWriter | None = None, source: str = "<referee>"):
        self.registry = registry
        self.header = header
        self.names = [seat.name for seat in header.players]
        #: The seat whose cards are entered too (``--seat``), or ``None``: the public view.
        self.viewer = view_seat(header.view or "public", len(self.names))
        self.source = source
        self.writer = writer
        self.lines: list[dict[str, Any]] = list(lines or [])
        #: Per entry, how many lines it wrote and where the file stood before (for undo).
        self.entries: list[tuple[int, int]] = []
        self.waiting: _Shows | None = None
        self._header_bytes = (dumps(header.as_dict()) + "\n").encode()
        game, error = self._read([])
        #: Cards to stand for those nobody knows yet, for the rules to deal (never written).
        self._pack = sorted(game.variant.deck(game.rules, len(self.names)))
        game, error = self._read(self.lines)
        if error is not None:
            raise error
        self.game = game
        #: The move lines typed here, by index: who and the words (for the Page One call).
        self.typed: dict[int, tuple[int, str]] = {}
        before = len(self.lines)
        self._settle()
        if len(self.lines) > before:
            self._commit(before)

    # ------------------------------------------------------------- reading
    def _read(self, lines: list[dict[str, Any]], then: dict[str, Any] | None = None
              ) -> tuple[Game, RecordError | None]:
        data = self._header_bytes + b"".join((dumps(line) + "\n").encode() for line in lines)
        keep = _Keep()
        read_record(io.BytesIO(data), self.source, self.registry, keep, then=then)
        if keep.game is None:
            assert keep.error is not None
            raise keep.error
        return keep.game, keep.error

    def _try(self, lines: list[dict[str, Any]],
             then: dict[str, Any] | None = None) -> tuple[Game, str | None]:
        """Read ``lines``; the reason in a person's words if a line past the
        accepted ones breaks a rule."""
        game, error = self._read(lines, then)
        if error is None:
            return game, None
        return game, self.words(error.message)

    def words(self, text: str) -> str:
        """A record's message said with the players' names."""
        return name_seats(text.replace("move ", "move #"), self.names).replace("move #", "move ")

    @property
    def state(self) -> Any:
        return self.game.state

    # -------------------------------------------------------------- entries
    def enter(self, text: str) -> list[str]:
        """Take one entry (maybe several joined by ``then``); the lines to show.
        Raises :class:`Refused` (nothing written) when the rules forbid it."""
        text = " ".join(text.replace(",", " ").split())
        low = text.lower()
        if not low or low.startswith("#"):  # a comment, in a file of entries
            return []
        if low in ("help", "?", "h"):
            return HELP.splitlines()
        if low == "undo":
            return self.undo()
        before = len(self.lines)
        waiting = self.waiting
        try:
            for words in self._parts(low):
                self._one(words)
        except Refused:
            del self.lines[before:]
            self.waiting = waiting
            self.game, _ = self._read(self.lines)
            raise
        self._commit(before)
        return self.situation()

    def _parts(self, low: str) -> list[list[str]]:
        """An entry's parts (joined by ``then``), each as words: a part that
        names no player is the first part's player's (``cat draws 3 then 9s``)."""
        parts = [part.split() for part in low.split(" then ")]
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
                    words, hidden = [words[0], "gets", plural(len(cards), "card")], True
                elif verb in ("draws", "draw", "drew") and cards:
                    count = words[2] if words[2].isdigit() else str(len(cards))
                    words, hidden = [words[0], verb, *([] if count == "1" else [count])], True
            parts.append(" ".join(words))
        return " then ".join(parts) if hidden else text

    def _commit(self, before: int) -> None:
        """The lines from ``before`` on are accepted: write them (an entry)."""
        offset = -1
        if self.writer is not None:
            offset = self.writer.stream.tell()
            for line in self.lines[before:]:
                self.writer.write(line)
        if len(self.lines) > before or self.waiting is not None:
            self.entries.append((len(self.lines) - before, offset))

    def undo(self) -> list[str]:
        """Take back the last entry (and what the rules made follow it)."""
        if self.waiting is not None and self.waiting.shown:
            self.waiting.shown.popitem()
            return ["Taken back: the last hand shown.", *self.situation()]
        if not self.entries:
            raise Refused("nothing to undo (entries made before --resume stay)" if self.lines
                          else "nothing to undo")
        count, offset = self.entries.pop()
        if self.waiting is not None:
            self.waiting = None
            if count == 0:
                return ["Taken back: the move that ended the round.", *self.situation()]
        del self.lines[len(self.lines) - count:]
        if self.writer is not None:
            stream = self.writer.stream
            stream.flush()
            stream.seek(offset)
            stream.truncate()
        self.game, _ = self._read(self.lines)
        return ["Taken back.", *self.situation()]

    def _seat_of(self, word: str, quiet: bool = False) -> int | None:
        lowered = [name.lower() for name in self.names]
        if word in lowered:
            return lowered.index(word)
        if quiet:
            return None
        close = difflib.get_close_matches(word, lowered, n=1, cutoff=0.6)
        hint = f" (did you mean {self.names[lowered.index(close[0])]}?)" if close else ""
        raise Refused(f"{word!r} is not a player at this table{hint}: the players are "
                      f"{join_and(self.names)}")

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
        if words[:2] == ["page", "one"]:
            self._page_one(None)
            return
        seat = self._seat_of(words[0])
        assert seat is not None
        rest = words[1:]
        if not rest:
            raise Refused(f"what did {self.names[seat]} do? (help lists the words)")
        if rest[:2] == ["page", "one"] or (rest[0] in ("calls", "called") and rest[1:3] == ["page", "one"]):
            self._page_one(seat)
            return
        if len(rest) > 2 and rest[-2:] == ["page", "one"]:  # ann 7h page one: the play, called
            rest = [*rest[:-2], "!"]
        if rest[0] in _SHOWS:
            self._shown_already(seat, rest[1:])
            return
        if rest[0] in _GETS:
            self._gets(seat, [w for w in rest[1:] if w != "dealt"])
            return
        if rest[0] in ("draws", "draw", "drew") and (
                len(rest) == 1 or rest[1].isdigit() or _cards_named(rest[1:])):
            count = int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else None
            self._draws(seat, count, _cards_named(rest[2 if count is not None else 1:]) or [])
            return
        if rest[0] in _VERBS:
            verb = _VERBS[rest[0]]
            rest = ([verb] if verb else []) + rest[1:]
        if rest[:2] == ["lays", "off"] or rest[:2] == ["lay", "off"]:
            rest = ["l", *[w for w in rest[2:] if w != "on"]]
        self._move(seat, " ".join(rest))

    # ---------------------------------------------------------------- moves
    def _next(self, then: dict[str, Any]) -> Game:
        """The game as it stands if the next line is like ``then``: what that
        settles (the last card drawn did not follow, so the deal is called
        off) is written, up to a card the viewer sees or a player's turn."""
        for _ in range(10_000):
            game, _ = self._read(self.lines, then)
            if game.state.current_player() != CHANCE:
                return game
            line = self._blurred(game)
            if _seen(line) or self._try([*self.lines, line], then)[1] is not None:
                return game
            self.lines.append(line)
        raise RecordError("internal error: chance events without end", kind=Kind.INTERNAL)  # pragma: no cover

    def _called_off(self) -> None:
        """Nobody moves next: the rules end the deal (trick's last card drawn
        did not follow and nothing is left to draw)."""
        before = len(self.lines)
        game = self._next({"chance": "end"})
        if game.state.current_player() == TERMINAL:
            result = game.state.result()
            if result is not None:
                self.lines.append({"result": result.as_dict()})
        elif len(self.lines) == before:
            raise Refused(f"the game goes on here: {self.expected()[len('Next: '):]}")
        self._settle()

    def _turn(self, seat: int, what: str) -> Game:
        """The game as it stands if ``seat`` moves next; refused if it cannot."""
        game = self._next({"move": what, "seat": seat})
        current = game.state.current_player()
        if current == seat:
            return game
        name = self.names[seat]
        if current == TERMINAL:
            raise Refused("the game is over")
        if current == CHANCE:
            raise Refused(f"not yet: {self._chance_words()}")
        raise Refused(f"it is {self.names[current]}'s turn, not {name}'s")

    def _move(self, seat: int, text: str) -> None:
        game = self._turn(seat, text)
        variant = game.variant
        action = variant.parse_move(game.state, text, ANY) if isinstance(variant, Prompts) else None
        if action is None:
            why = variant.why_not_move(game.state, text) if isinstance(variant, Prompts) else None
            raise Refused(f"{text!r}: {why}" if why else self._not_a_move(text))
        at = len(self.lines)
        self._accept([game.encode(action)])
        self.typed[at] = (seat, text)

    def _not_a_move(self, text: str) -> str:
        for word in text.replace("!", " ").split():
            if any(ch.isdigit() for ch in word) or len(word) == 2:
                try:
                    parse_card(word)
                except CardError as error:
                    return f"{word!r}: {error}"
        return f"{text!r} is not a move here (help lists the words)"

    def _accept(self, lines: list[dict[str, Any]]) -> None:
        """Add ``lines`` if the record still reads, then what the rules make follow."""
        candidate = self.lines + lines
        game, why = self._try(candidate)
        state = game.state
        ends = isinstance(state, UnseenCards) and len(lines) == 1 and "move" in lines[0] \
            and state.round_end_hands() is not None and state.hands_count()
        if ends and (why is None or '"shown"' in why):
            # The table counts the cards left: they are shown (and written), as an export writes them.
            hands = state.round_end_hands()
            if any(UNSEEN in hand for hand in hands):
                self._wait_for_shows(lines[0], game)
                return
            candidate.append({"shown": [[NAME[card] for card in hand] for hand in hands]})
            game, why = self._try(candidate)
        if why is not None:
            raise Refused(why)
        self.lines[:] = candidate
        self.game = game
        self._settle(game)

    def _settle(self, read: Game | None = None) -> None:
        """Write the chance events the rules make certain and nobody sees
        (a deal, a draw): stop where the table sees a card (``up``).
        ``read``: the game of the lines as they stand, if just read."""
        for _ in range(10_000):
            game, read = read or self._read(self.lines)[0], None
            self.game = game
            stated = checkpoint(game.variant, game.state)
            if stated is not None and self.lines and not {"checkpoint", "result"} & set(self.lines[-1]):
                self.lines.append(stated)  # what the table counts at a round's end (scores)
            player = game.state.current_player()
            if player == TERMINAL and not (self.lines and "result" in self.lines[-1]):
                result = game.state.result()
                if result is not None:
                    self.lines.append({"result": result.as_dict()})
            if player != CHANCE:
                return
            line = self._blurred(game)
            if _seen(line):
                return  # the table sees a card here: the next entry says which
            _, why = self._try([*self.lines, line])
            if why is not None:  # pragma: no cover - an unseen chance event cannot break a rule
                raise RecordError(f"internal error: {why}", kind=Kind.INTERNAL)
            self.lines.append(line)
        raise RecordError("internal error: chance events without end", kind=Kind.INTERNAL)  # pragma: no cover

    def _blurred(self, game: Game, public: bool = False) -> dict[str, Any]:
        """The chance event due now as the record's viewer (``public``: a
        spectator) sees it: the cards they do not see unseen, and any they
        see written as some card (:func:`_seen` finds them; an ``up``,
        ``gets`` or ``draws`` entry names them)."""
        state = game.state
        probe = state.clone()  # a stock of cards (any: the table does not know them) to sample from
        probe.stock[:] = (self._pack * 2)[:len(probe.stock)]
        action = replace_unseen(probe.sample_chance(random.Random(0)), self._pack[0])
        return game.encode(state.seen_by(action, None if public else self.viewer))

    def _own(self, game: Game) -> dict[str, Any] | None:
        """The chance event due now if it brings the viewer cards only they
        see (their deal, their draw): it is entered as ``gets`` or ``draws``."""
        if self.viewer is None or game.state.current_player() != CHANCE:
            return None
        line = self._blurred(game)
        return line if _named(line) > _named(self._blurred(game, public=True)) else None

    def _chance_words(self, game: Game | None = None) -> str:
        game = game or self.game
        line = self._blurred(game) if game.state.current_player() == CHANCE else {}
        if line.get("chance") == "draw" and isinstance(line.get("seat"), int):
            name = self.names[line["seat"]]
            if line["seat"] == self.viewer:
                return f"the cards {name} draws: type them, e.g. {name.lower()} draws 7h"
            return (f"{name} draws cards the table sees: type how many and those seen, e.g. "
                    f"{name.lower()} draws 3 8s")
        if self._own(game) is not None:
            name = self.names[self.viewer or 0]
            return (f"the cards dealt to {name}: type them, any turned up for all first, e.g. "
                    f"{name.lower()} gets 7h 8s 2c")
        return "the table turns up a card first: type it, e.g. up 5h (help lists the words)"

    def _up(self, names: list[str]) -> None:
        game = self._next({"chance": "up"})
        if game.state.current_player() != CHANCE:
            raise Refused("nothing is turned up now")
        if not names:
            raise Refused("say the card(s) turned up, e.g. up 5h")
        try:
            cards = [NAME[parse_card(name)] for name in names]
        except CardError as error:
            raise Refused(str(error)) from None
        if self._own(game) is not None:
            raise Refused(f"{self.names[self.viewer or 0]}'s own cards come here: {self._chance_words(game)}")
        base = self._blurred(game)
        tried: list[dict[str, Any]] = []
        first_why = None
        for length in _lengths(base):
            line = _filled(base, cards, length)
            if line is None or line in tried:
                continue
            tried.append(line)
            _, why = self._try([*self.lines, line])
            if why is None:
                self._accept([line])
                return
            first_why = first_why or why
        raise Refused(first_why or "those cards cannot be turned up here")

    def _gets(self, seat: int, words: list[str]) -> None:
        """The viewer's own cards of the deal due now (those turned up for
        everyone first, in the order dealt)."""
        name = self.names[seat]
        cards = _cards_named(words)
        if cards is None:
            raise Refused(self._not_a_move(" ".join(words)))
        if self.viewer is None:
            raise Refused("this table is followed from the public view: nobody's hidden cards are "
                          "entered (cardcli referee --seat NAME enters one player's)")
        if seat != self.viewer:
            raise Refused(f"only {self.names[self.viewer]}'s cards are entered here: "
                          f"{name}'s stay unseen")
        own = self._own(self._next({"chance": "deal"}))
        if own is None or own.get("chance") == "draw":
            raise Refused(f"no cards are dealt to {name} now" if own is None else
                          f"{name} draws here: {self._chance_words()}")
        if not cards:
            raise Refused(f"say the cards dealt to {name}, e.g. {name.lower()} gets 7h 8s 2c")
        first_why = None
        for single in (dict.fromkeys(cards) if _single_cards(own) else [None]):
            line = _dealt(own, cards, single)
            _, why = self._try([*self.lines, line])
            if why is None:
                self._accept([line])
                return
            first_why = first_why or why
        raise Refused(first_why or f"those cards cannot be dealt to {name} here")

    def _draws(self, seat: int, count: int | None, seen: list[str]) -> None:
        """``seat`` draws (``count`` cards, where said): its draw, then the
        draws the rules go on with (trick's drawing until one follows)."""
        name = self.names[seat]
        start = len(self.lines)
        drawn = 0
        while True:
            game, _ = self._read(self.lines, {"chance": "draw"})
            line = self._blurred(game) if game.state.current_player() == CHANCE else None
            if line is not None and _seen(line):  # cards the table (or the viewer) sees come to the drawer
                filled, rest = _fill_seen(line, seen)
                if line.get("seat") != seat:
                    self._back_to(start)
                    raise Refused(f"not yet: {self._chance_words(game)}")
                if filled is None:
                    self._back_to(start)
                    who = f"{name}'s own cards are entered" if self.viewer == seat else "the table sees them"
                    raise Refused(f"{who}: say the cards {name} draws here ({name.lower()} draws 7h 9c)")
                line, seen = filled, rest
            if line is not None and (line.get("seat") == seat or (drawn and "seat" not in line)):
                # its draw, or the stock rebuilt before it draws again
                _, why = self._try([*self.lines, line], {"chance": "draw"})
                if why is not None:
                    self._back_to(start)
                    raise Refused(why)
                self.lines.append(line)
                self._settle()  # what must follow (a reshuffle, the rest of a penalty)
            elif not drawn:
                game = self._turn(seat, "draw")
                variant = game.variant
                action = variant.parse_move(game.state, "draw", ANY) if isinstance(variant, Prompts) else None
                if action is None:  # pragma: no cover - every shipped game has a draw
                    raise Refused(f"{name} cannot draw in this game")
                move = game.encode(action)
                _, why = self._try([*self.lines, move])
                if why is not None:
                    self._back_to(start)
                    raise Refused(why)
                self.lines.append(move)
                self._settle()
            else:
                break
            drawn = sum(len(value) for line in self.lines[start:] if line.get("chance") == "draw"
                        and line.get("seat") == seat for value in line.values() if isinstance(value, list))
            if (count is not None and drawn >= count) or (count is None and (
                    not seen or ("chance" in self.lines[-1] and not _seen(self.lines[-1])))):
                break  # as many as said; or, none said, the cards named (or one nobody saw)
        if seen:
            self._back_to(start)
            if self.viewer == seat:
                raise Refused(f"{name} draws {plural(drawn, 'card')} here, not {drawn + len(seen)}")
            raise Refused(f"nobody sees the cards {name} draws here: say only how many "
                          f"({name.lower()} draws 2)")
        if count is not None and drawn != count:
            self._back_to(start)
            raise Refused(f"{name} draws {plural(drawn, 'card')} here, not {count}")
        self.game, _ = self._read(self.lines)

    def _back_to(self, count: int) -> None:
        del self.lines[count:]
        self.game, _ = self._read(self.lines)

    def _page_one(self, seat: int | None) -> None:
        """The call, with the card just played: the last entry again, called."""
        last = max((at for at in self.typed if at < len(self.lines)), default=None)
        if last is None or not self.entries or self.entries[-1][0] != len(self.lines) - last:
            raise Refused("Page One is called with the card just played, as the next entry")
        mover, text = self.typed[last]
        if seat is not None and mover != seat:
            raise Refused(f"the last move was {self.names[mover]}'s, not {self.names[seat]}'s")
        if "!" in text:
            raise Refused(f"{self.names[mover]} called already")
        game = self._turn_at(last, mover)
        action = game.variant.parse_move(game.state, text + " !", ANY)  # type: ignore[attr-defined]
        if action is None:  # pragma: no cover - the same move, called
            raise Refused("that move cannot be called")
        line = game.encode(action)
        _, why = self._try([*self.lines[:last], line])
        if why is not None:
            raise Refused(why)
        self.undo()
        del self.typed[last]
        self._accept([line])
        self.typed[last] = (mover, text + " !")

    def _turn_at(self, count: int, seat: int) -> Game:
        """The game after the first ``count`` lines, ``seat`` to move next."""
        game, _ = self._read(self.lines[:count], {"move": "?", "seat": seat})
        return game

    # ----------------------------------------------------------- round ends
    def _wait_for_shows(self, move: dict[str, Any], game: Game) -> None:
        hands = game.state.round_end_hands() or game.state.hands
        need = [seat for seat, hand in enumerate(hands) if UNSEEN in hand]
        self.waiting = _Shows(move, need, {}, [[NAME[c] for c in hand if c != UNSEEN] for hand in hands])
        self.game = game

    def _shown_already(self, seat: int, words: list[str]) -> None:
        """``seat`` shows cards the table knew it had left (its hand at the
        round just ended): nothing to write; anything else is refused."""
        last = next((line for line in reversed(self.lines) if "move" in line or "shown" in line), None)
        cards = _cards_named([w for w in words if w not in ("nothing", "none")])
        if last is None or "shown" not in last or cards is None \
                or sorted(cards) != sorted(last["shown"][seat]):
            raise Refused("hands are shown at a round's end, and the round goes on")

    def _shows(self, words: list[str]) -> None:
        waiting = self.waiting
        assert waiting is not None
        seat = self._seat_of(words[0])
        assert seat is not None
        rest = words[1:]
        if not rest or rest[0] not in _SHOWS:
            raise Refused(f"the round is over: say the cards each player has left, e.g. "
                          f"{self.names[waiting.need[0]].lower()} shows 7h 8s")
        names = [w for w in rest[1:] if w not in ("nothing", "none")]
        try:
            cards = [NAME[parse_card(name)] for name in names]
        except CardError as error:
            raise Refused(str(error)) from None
        if seat not in waiting.need:
            if sorted(cards) != sorted(waiting.known[seat]):
                raise Refused(f"{self.names[seat]}'s cards left are known: "
                              f"{' '.join(waiting.known[seat]) or 'none'}")
            return
        waiting.shown[seat] = cards
        if len(waiting.shown) < len(waiting.need):
            return
        shown = [waiting.shown.get(s, waiting.known[s]) for s in range(len(self.names))]
        candidate = [*self.lines, waiting.move, {"shown": shown}]
        game, why = self._try(candidate)
        if why is not None:
            del waiting.shown[seat]
            raise Refused(why)
        self.waiting = None
        if self.entries and self.entries[-1][0] == 0:
            self.entries.pop()  # the move that ended the round is now part of this entry
        self.lines[:] = candidate
        self.game = game
        self._settle(game)

    # ------------------------------------------------------------ the table
    def situation(self, public: bool = False) -> list[str]:
        """The table as the viewer (``public``: everyone, no hand) sees it,
        and what the rules expect next."""
        state = self.state
        variant = self.game.variant
        lines = variant.render(state, SPECTATOR if public else self.viewer, self.names).splitlines()
        lines.append(self.expected())
        return lines

    def expected(self) -> str:
        """What must happen next, in words."""
        if self.waiting is not None:
            left = [self.names[s] for s in self.waiting.need if s not in self.waiting.shown]
            return (f"Next: the round is over; the cards left in hand of {join_and(left)} "
                    f"(e.g. {left[0].lower()} shows 7h 8s)")
        state = self.state
        current = state.current_player()
        if current == TERMINAL:
            return "The game is over."
        if current == CHANCE:
            return "Next: " + self._chance_words()
        said = state.expecting()  # "seat 1 to draw 4 or answer with a 2", as the rules put it
        if not said.startswith(f"seat {current} to "):
            said = f"seat {current} to move"
        return "Next: " + self.words(said.replace(f" {NAME[UNSEEN]}", " card")) + "."

    @property
    def over(self) -> bool:
        return self.waiting is None and self.state.current_player() == TERMINAL


def _is_card(value: Any) -> bool:
    if not isinstance(value, str) or value == "??":
        return False
    try:
        parse_card(value)
    except CardError:
        return False
    return True


def _seen(line: dict[str, Any]) -> bool:
    """Whether a chance line as its viewer sees it names a card."""
    return _named(line) > 0


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
def _with_call(action: Any) -> Any:
    """The same play with the Page One call (the last field of a play, a bool)."""
    if type(action) is tuple and action and isinstance(action[-1], bool) and not action[-1]:
        return (*action[:-1], True)
    return None
