"""Between games: the host's commands at the serving terminal.

The host may change the table for the next game: add or remove a CPU and
set its strength, give a seat to a CPU or to a friend (with a link of its
own), give a friend's seat a new link (the old one stops at once), change
the house rules (a shipped ruleset, or ``set OPTION=VALUE``), and choose who
starts the next game.  Every change is checked as ``cardcli serve`` checks
its options (the seat count against the rules, the CPU strength, the
rules themselves), applied at once, shown to every client and saved with
the evening.  Seats are numbered from 1, as the host's list shows them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..contract.options import Value, parse_value, resolve
from ..cpu.players import check_count, check_level
from ..engine.rulesets import check, load_ruleset
from ..kit.errors import CardcliError
from ..kit.grammar import listed, spoken_name
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.record_format import SeatInfo
from .evening import STARTS, Evening
from .links import new_token
from .protocol import BadMessage
from .table import TAKEN_AWAY, TO_CPU, Seat, Table, check_name
from .tally import tally_lines

HELP = N_("""Between games, type a command (Enter alone: {enter}):
  start                  start the next game now
  seats                  who sits where
  links                  the friends' invite links again
  add [LEVEL]            add a CPU seat (easy, normal, hard, ...; default normal)
  remove N               take seat N away
  cpu N [LEVEL]          seat N is a CPU's (or: its strength)
  friend N [NAME]        seat N is a friend's, with a new invite link
  link N                 a new invite link for seat N: the old one stops at once
  rules NAME             the house rules of a shipped ruleset (or a TOML file)
  set OPTION=VALUE,...   change house rules (cardcli rules VARIANT lists them)
  again host|all         who starts each next game: you, or everyone saying play again
  tally                  the evening so far
  quit                   end the evening (every game's record is kept)""")

#: The commands of :data:`_ANY_TIME`, during a game: typed at any time, also at your prompt.
GAME_HELP = N_("""During a game, type at any time (also at your prompt):
  links                  the friends' invite links again, with their QR codes
  seats                  who sits where
  tally                  the evening so far
  help                   this list (with nothing asked)
The rest (start, add, link N, set, ...) waits for the end of the game; Ctrl-C stops the table
(cardcli serve --resume serves it again, with the same links).""")


class Lobby:
    """The host's commands between games, for ``table`` and its ``evening``.

    ``say`` prints a line at the host's terminal; ``invite`` shows a seat's
    new link (with its QR code); ``saved`` writes the table file again.
    """

    def __init__(self, table: Table, evening: Evening, *, say: Callable[[str], None],
                 invite: Callable[[Seat], None], saved: Callable[[], None], registry: Any,
                 stand_in: str = "normal"):
        self.table = table
        self.evening = evening
        self.say = say
        self.invite = invite
        self.saved = saved
        self.registry = registry
        self.stand_in = stand_in

    # ---------------------------------------------------------- the prompt
    def prompt(self) -> str:
        number = self.evening.number + 1
        if self.evening.again == "host":
            return _("Game {number}: Enter to start it, or a command (help)").format(number=number) + "> "
        return _("Game {number} starts when everyone has said play again: Enter if you are ready "
                 "(help)").format(number=number) + "> "

    def run(self, line: str) -> str | None:
        """Carry out one line the host typed: ``"start"``, ``"quit"`` or ``None`` (stay between games)."""
        words = line.split()
        if not words:
            return self._enter()
        command, args = words[0].lower(), words[1:]
        handler = _COMMANDS.get(command)
        if handler is None:
            self.say("! " + _("unknown command {command!r}: type help for the list").format(command=command))
            return None
        if self.table.lobby is None and command not in _ANY_TIME:
            self.say("! " + _("{command}: the table changes between games, and a game is on").format(
                command=command))
            return None
        try:
            return handler(self, args)
        except CardcliError as problem:
            self.say(f"! {problem}")
            return None

    def _enter(self) -> str | None:
        if self.evening.again == "host":
            return "start"
        host = next((seat for seat in self.table.seats if seat.kind == "host"), None)
        if host is not None:
            host.ready = True
            self.table.broadcast_lobby()
        if self.evening.all_ready(self.table):
            return "start"
        waiting = [spoken_name(s.name) for s in self.table.seats if s.person and not s.ready and not s.left]
        self.say(_("Waiting for {names} to say play again (start begins now).").format(names=listed(waiting)))
        return None

    # ------------------------------------------------------------ commands
    def _start(self, args: list[str]) -> str:
        return "start"

    def _quit(self, args: list[str]) -> str:
        return "quit"

    def _help(self, args: list[str]) -> None:
        if self.table.lobby is None:
            self.say(_(GAME_HELP))
            return
        enter = _("start the next game") if self.evening.again == "host" else _("you are ready to play again")
        self.say(_(HELP).format(enter=enter))

    def _seats(self, args: list[str]) -> None:
        self.say(_("Next game: {header}").format(header=self.evening.header()))
        for seat in self.table.seats:
            self.say(f"  {seat.index + 1}. {spoken_name(seat.name)} ({self.describe(seat)})")

    def describe(self, seat: Seat) -> str:
        if seat.kind == "cpu":
            return f"cpu:{seat.level}"
        if seat.kind == "host":
            return _("you, at this terminal, ready") if seat.ready else _("you, at this terminal")
        if seat.left:
            return _("friend, left the table: the seat is empty")
        if seat.client is not None:
            return _("friend, here, ready") if seat.ready else _("friend, here")
        if seat.joined:
            return _("friend, away, ready") if seat.ready else _("friend, away")
        return _("friend, not here yet, ready") if seat.ready else _("friend, not here yet")

    def _links(self, args: list[str]) -> None:
        friends = [seat for seat in self.table.seats if seat.kind == "friend" and seat.token]
        if not friends:
            self.say(_("No seat has a link (friend N gives seat N one)."))
        for seat in friends:
            self.invite(seat)

    def _tally(self, args: list[str]) -> None:
        lines = tally_lines(self.evening.tally(self.table, self.evening.host_viewer(self.table)))
        self.say("\n".join(lines) if lines else _("No game has ended yet."))

    def _add(self, args: list[str]) -> None:
        level = self._level(args[0] if args else "normal")
        if len(args) > 1:
            raise CardcliError(_("add takes one strength: add hard"))
        seat = Seat(len(self.table.seats), self._cpu_name(), "cpu", level=level,
                    player=self.evening.new_player())
        self._check_seats([*self.table.seats, seat])
        self.table.seats.append(seat)
        self._changed(_("seat {number}: {name} (cpu:{level}) joins the table").format(
            number=seat.index + 1, name=seat.name, level=level))

    def _remove(self, args: list[str]) -> None:
        seat = self._seat(args, "remove N")
        if seat.kind == "host":
            raise CardcliError(_("seat {number} is yours: the host's seat stays").format(
                number=seat.index + 1))
        self._check_seats([s for s in self.table.seats if s is not seat])
        self.table.seats.remove(seat)
        self.table.retire(seat, TAKEN_AWAY)
        seat.token = ""
        self.table.send_away(seat, TAKEN_AWAY)
        self._changed(_("{name}'s seat is taken away").format(name=seat.name))

    def _cpu(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "cpu N [LEVEL]")
        level = self._level(args[1] if len(args) > 1 else self.stand_in if seat.kind != "cpu" else seat.level)
        if seat.kind == "host":
            raise CardcliError(_("seat {number} is yours: you play it at this terminal").format(
                number=seat.index + 1))
        if seat.kind == "cpu":
            seat.level = level
            self._changed(_("{name} plays at cpu:{level}").format(name=seat.name, level=level))
            return
        name = seat.name
        self.table.retire(seat, TO_CPU)
        seat.kind, seat.level, seat.token, seat.left, seat.ready = "cpu", level, "", False, False
        seat.player, seat.name = self.evening.new_player(), self._cpu_name()
        self.table.send_away(seat, TO_CPU)
        self._changed(_("seat {number}: {old} makes way for {name} (cpu:{level})").format(
            number=seat.index + 1, old=name, name=seat.name, level=level))

    def _friend(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "friend N [NAME]")
        if seat.kind == "host":
            raise CardcliError(_("seat {number} is yours: you play it at this terminal").format(
                number=seat.index + 1))
        if seat.kind == "friend" and not seat.left:
            raise CardcliError(_("seat {number} is already {name}'s (link {number} gives it a new "
                                 "link)").format(number=seat.index + 1, name=seat.name))
        name = " ".join(args[1:]) or self._friend_name()
        try:
            name = check_name(name, self.table.seats, seat.index)
        except BadMessage as problem:
            raise CardcliError(problem.message) from None
        seat.kind, seat.name, seat.token, seat.named = "friend", name, new_token(), False
        seat.left = seat.ready = seat.joined = False
        seat.player, seat.away_since = self.evening.new_player(), time.monotonic()
        self._changed(_("seat {number} is a friend's: {name}").format(number=seat.index + 1, name=name))
        self.invite(seat)

    def _link(self, args: list[str]) -> None:
        seat = self._seat(args, "link N")
        if seat.kind != "friend" or seat.left:
            raise CardcliError(_("seat {number} has no link ({state}); friend {number} makes it a friend's "
                                 "seat").format(number=seat.index + 1, state=self.describe(seat)))
        self.table.reissue(seat.index)
        self._changed(_("seat {number} has a new link: the old one no longer opens it").format(
            number=seat.index + 1))
        self.invite(seat)

    def _rules(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CardcliError(_("rules takes a ruleset's name (cardcli rules lists them) or a TOML file"))
        loaded = load_ruleset(args[0], self.registry, self.evening.variant.name, len(self.table.seats))
        check_count(self._infos(self.table.seats), loaded.options, self.evening.variant, loaded.source,
                    loaded.stated)
        self.evening.rules, self.evening.ruleset = loaded.options, loaded.name
        self._changed(_("next game: {header}").format(header=self.evening.header()))

    def _set(self, args: list[str]) -> None:
        text = " ".join(args)
        changes: dict[str, Value] = {}
        for item in text.split(","):
            key, equals, raw = item.partition("=")
            if not equals or not key.strip() or not raw.strip():
                raise CardcliError(_("{item!r} is not OPTION=VALUE (e.g. set stack_twos=false)").format(
                    item=item.strip()))
            changes[key.strip()] = parse_value(raw.strip())
        variant = self.evening.variant
        source = f"set {text}"
        rules = resolve(variant.options, {**self.evening.rules, **changes}, source=source)
        check(variant, rules, len(self.table.seats), source)
        check_count(self._infos(self.table.seats), rules, variant, source, set(changes))
        self.evening.rules = rules
        self.evening.ruleset = f"{self.evening.ruleset or variant.title} + {text}"
        self._changed(_("next game: {header}").format(header=self.evening.header()))

    def _again(self, args: list[str]) -> None:
        if len(args) != 1 or args[0].lower() not in STARTS:
            raise CardcliError(_("again host (you start each game) or again all (it starts when everyone "
                                 "has said play again)"))
        self.evening.again = self.evening.chosen = args[0].lower()
        self._changed(_("you start each next game") if self.evening.again == "host" else
                      _("each next game starts when everyone has said play again"))

    # ------------------------------------------------------------- helpers
    def _changed(self, what: str) -> None:
        self.table.lobby = self.evening.header()
        self.table.reseat()
        self.evening.remember(self.table)
        self.saved()
        self.say(f"* {what}")

    def _seat(self, args: list[str], usage: str) -> Seat:
        seats = self.table.seats
        if len(args) != 1 or not args[0].isdigit():
            raise CardcliError(_("{usage}: N is a seat's number, 1 to {count} (seats lists them)").format(
                usage=usage, count=len(seats)))
        number = int(args[0])
        if not 1 <= number <= len(seats):
            raise CardcliError(_("there is no seat {number}: the seats are 1 to {count}").format(
                number=number, count=len(seats)))
        return seats[number - 1]

    def _level(self, level: str) -> str:
        level = level.lower()
        check_level(self.evening.variant, level)
        return level

    def _infos(self, seats: list[Seat]) -> list[SeatInfo]:
        return [SeatInfo(s.name, f"cpu:{s.level}" if s.kind == "cpu" else "human") for s in seats]

    def _check_seats(self, seats: list[Seat]) -> None:
        variant = self.evening.variant
        check_count(self._infos(seats), self.evening.rules, variant)

    def _taken(self) -> set[str]:
        names = [s.name for s in self.table.seats] + list(self.evening.people.values())
        return {name.casefold() for name in names}

    def _cpu_name(self) -> str:
        taken = self._taken()
        return next(f"cpu{n}" for n in range(1, 1000) if f"cpu{n}" not in taken)

    def _friend_name(self) -> str:
        taken = self._taken()
        return next(f"friend{n}" for n in range(1, 1000) if f"friend{n}" not in taken)

    def fill_empty(self) -> None:
        """Before a game starts: a seat a friend left is played by a CPU
        (the host may have closed it, or found it a new friend, first)."""
        for seat in self.table.seats:
            if seat.kind == "friend" and seat.left:
                name = seat.name
                seat.kind, seat.level, seat.left = "cpu", self.stand_in, False
                seat.player, seat.name = self.evening.new_player(), self._cpu_name()
                self._changed(_("seat {number}, which {old} left, is played by {name} (cpu:{level})").format(
                    number=seat.index + 1, old=name, name=seat.name, level=seat.level))

    def summary(self) -> str:
        """What the host sees between games: the tally, the next game's rules and seats."""
        lines = tally_lines(self.evening.tally(self.table, self.evening.host_viewer(self.table)))
        lines.append(_("Next: game {number} - {header}").format(number=self.evening.number + 1,
                                                                 header=self.evening.header()))
        lines.extend(f"  {seat.index + 1}. {spoken_name(seat.name)} ({self.describe(seat)})"
                     for seat in self.table.seats)
        if self.evening.again == "all":
            waiting = [spoken_name(seat.name) for seat in self.table.seats
                       if seat.person and not seat.ready and not seat.left]
            if waiting:
                lines.append(_.ngettext("It starts when everyone has said play again (waiting for {count:,} "
                                        "player: {names}).",
                                        "It starts when everyone has said play again (waiting for {count:,} "
                                        "players: {names}).", len(waiting)).format(
                                            count=len(waiting), names=listed(waiting)))
            else:
                lines.append(_("It starts when everyone has said play again (waiting for 0 players)."))
        return "\n".join(lines)

    async def wait_for_start(self, console: HostInput | None, changed: asyncio.Event) -> bool:
        """Between games, until the next game should start (``True``: the host
        said so, or everyone is ready when ``again`` is ``all``) or the host
        ends the evening (``False``).  The host's commands run meanwhile."""
        line: asyncio.Task[str | None] | None = None
        withdrawn = threading.Event()
        try:
            while True:
                if self.evening.again == "all" and self.evening.all_ready(self.table):
                    return True
                if console is not None and line is None:
                    withdrawn = threading.Event()
                    line = asyncio.ensure_future(console.command(self.prompt(), withdrawn))
                waiter = asyncio.ensure_future(changed.wait())
                waits: set[asyncio.Future[Any]] = {waiter} if line is None else {waiter, line}
                done, _pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                changed.clear()
                if line is not None and line in done:
                    typed, line = line.result(), None
                    if typed is not None:
                        outcome = self.run(typed)
                        if outcome is not None:
                            return outcome == "start"
        finally:
            if line is not None:
                withdrawn.set()
                line.cancel()
                if console is not None:
                    console.withdraw()


#: Commands that change nothing, so may be typed while a game is on; those of
#: them that never answer a prompt, so are taken at the host's turn too.
_ANY_TIME = {"help", "?", "seats", "links", "tally"}
AT_A_PROMPT = {"seats", "links", "tally"}
_COMMANDS: dict[str, Callable[[Lobby, list[str]], str | None]] = {
    "start": Lobby._start, "go": Lobby._start, "quit": Lobby._quit, "q": Lobby._quit, "exit": Lobby._quit,
    "help": Lobby._help, "?": Lobby._help, "seats": Lobby._seats, "links": Lobby._links,
    "tally": Lobby._tally, "add": Lobby._add, "remove": Lobby._remove, "cpu": Lobby._cpu,
    "friend": Lobby._friend, "link": Lobby._link, "rules": Lobby._rules, "set": Lobby._set,
    "again": Lobby._again,
}
#: Every command's word.
COMMANDS = set(_COMMANDS)


class HostInput(Protocol):
    """The serving terminal, as the lobby reads it (:class:`cardcli.serve.console.HostConsole`)."""

    async def command(self, prompt: str, withdrawn: threading.Event) -> str | None: ...

    def withdraw(self) -> None: ...


async def play_evening(table: Table, lobby: Lobby, console: HostInput | None, *,
                       show: Callable[[str], None], host: int | None) -> int:
    """Serve games at ``table`` one after another until the host ends the
    evening (``quit``); return how many were played.  Without a ``console``
    (the host's input is not a terminal) each next game starts when every
    friend has said play again."""
    evening = lobby.evening
    changed = asyncio.Event()

    def on_change() -> None:
        lobby.saved()
        changed.set()

    table.on_change = on_change
    while True:
        if table.lobby is None:
            result = await table.play()
            if table.game is not None and table.game.writer is not None:
                table.game.writer.close()  # the record is complete: its result line is written
            evening.finished(result, table)
            lobby.saved()
            show("")
            show(table.end_text(result, host))
            table.between(evening.header())
        show("")
        show(lobby.summary())
        if not await lobby.wait_for_start(console, changed):
            return len([played for played in evening.games if played.result is not None])
        lobby.fill_empty()
        game, path = evening.next_game(table)
        lobby.saved()
        table.start(game, evening.number)
        show("\n" + _("Game {number} - {header}. Recording to {path}").format(
            number=evening.number, header=table.header, path=path))
