"""A served table: its seats and their clients, and the games played at it one after another.

The table is the single authority, and each game is moved by the core's game
driver like every other use of the engine (``docs/driver.md``): the table
seats the quick CPUs in the driver and leaves every other seat *external*.
``Driver.advance`` applies chance and the quick CPUs' moves, on the event
loop (a ``normal`` CPU decides in microseconds), until an external seat must
decide; that decision then comes from outside and goes in through
``Driver.submit``, checked by the rules:

* a friend's device (a ``move`` message, or the answers to a ``cardcli
  join`` dialogue), or the host's terminal;
* a CPU that thinks for a while (``hard``, half a second), or the CPU
  standing in for an absent friend at that level: its ``act`` runs in a
  worker thread on a copy of the state, so the event loop keeps serving every
  other table meanwhile.

Two hooks on the driver do the rest: the record writer (installed first by
:class:`~cardcli.engine.game.Game`: every event is written before anyone is told
of it) and :class:`_Tell`, which words each event for every viewer from its
own seat as the driver applies it.  After each run of events, each client
is sent what its seat may see: those words and the table as data, both
built for that seat (:mod:`cardcli.serve.protocol`).

The seats outlive a game: when one ends the table stays open *between
games* (:meth:`Table.between`), with the same links, until the next game
starts at the same seats (:meth:`Table.start`); :mod:`cardcli.serve.evening`
keeps the evening's games and tally and :mod:`cardcli.serve.lobby` the
host's changes to the seats between games.

A seat's link token is the seat: opening it again (after closing the page or
losing Wi-Fi) takes the seat back and gets the whole table again, until the
host gives the seat a new link (:meth:`Table.reissue`: the old token stops at
once).  While a friend whose turn it is is away, the table waits; after
``away_timeout`` seconds the table either keeps waiting, lets a CPU play for
them until they return, or asks the host (``away``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import inspect
import re
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..contract.variant import TERMINAL, Action, State, Variant
from ..contract.views import SPECTATOR
from ..cpu.players import Player, make_cpu
from ..cpu.players.hard import supports_hard
from ..engine.driver import Driver, Hook, PolicyPlayer
from ..engine.game import Game, derive_seed
from ..kit.errors import IllegalMove
from ..kit.grammar import is_you
from ..kit.language import N_, current
from ..kit.language import core as _
from ..kit.safe_text import printable
from ..terminal.session import end_text, last_moves, over_text, table_header
from ..words.narration import describe_events, round_summary
from ..words.view import played_cards
from .links import new_token
from .page_words import speaking_as
from .protocol import PROTOCOL, BadMessage, error, table_fields, viewer_of

#: Events kept per viewer for a client that (re)connects.
LOG_KEPT = 30
#: Decisions told again to everyone when a resumed game is served (what
#: "what just happened" shows after ``cardcli serve --resume``).
RECAP_MOVES = 8
#: Messages a client may send per second, on average, and in a burst, beside
#: its moves (a move the rules accept is never counted: the game paces them).
#: A client past the limit is disconnected.  The count is the link's, not the
#: connection's: reconnecting does not start it afresh.
RATE, BURST = 10.0, 30
#: How often a seat's link may open the seat again: a burst, then one per
#: ``REJOIN_EVERY`` seconds (a phone that lost Wi-Fi comes back in a few; a
#: loop of reconnections would fill the host's terminal with its comings and goings).
REJOIN_BURST, REJOIN_EVERY = 4, 10.0
#: The longest name a player may choose at the door, in characters.
NAME_MAX = 20

#: Close reasons a client acts on (docs/protocol.md): the seat is gone for this link.
REPLACED = "this link was replaced by a new one from the host"
LEFT = "you left the table"
ELSEWHERE = "this seat was opened on another device"
CLOSED = "the host closed the table"
TAKEN_AWAY = "the host took this seat away"
TO_CPU = "the host gave this seat to a CPU"
#: What someone who opens a link that no longer opens its seat reads, by the reason it stopped
#: (shown with ``_()``, in the reader's language).
GONE_WORDS = {
    REPLACED: N_("The host gave this seat a new link: this one no longer opens it. Ask the host for the new "
                 "one."),
    LEFT: N_("You left this table: this link no longer opens the seat. To sit down again, ask the host for "
             "a new link."),
    TAKEN_AWAY: N_("The host took this seat away: this link no longer opens it."),
    TO_CPU: N_("The host gave this seat to a CPU: this link no longer opens it. Ask the host if you want "
               "to play again."),
}
#: A word that reads as a card (``8S``, ``10h``, ``JK``, ``Q♠``), wherever it stands in a name.
_CARD_WORD = re.compile(r"(?<![^\W_])((10|[2-9TJQKA])[SHDC\u2660\u2665\u2666\u2663]|JK|JOKER)(?![^\W_])",
                        re.IGNORECASE)
#: A run of events told at once (each with the state it applies to), and the
#: event among them that ended a round, if one did.
Run = tuple[list[tuple[State, Action]], tuple[State, Action] | None]
#: What every other seat calls a host named "you" (:meth:`Table._names_for`), in the
#: viewer's language (``_(HOST_NAME)``); a friend may take neither at the door.
HOST_NAME = N_("host")


class Client(Protocol):
    """A connection, as the table sees it: the transport lives in :mod:`cardcli.serve.server`.

    ``prompts``: it wants the variant's text dialogue on its turn (``cardcli
    join``).  ``tables``: it wants the table in each update (the host's own
    terminal draws it itself, and only at its turn).  ``language``, if it has
    one: the language its messages are made in (``None``: the host's).
    """

    prompts: bool

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Seat:
    """A chair at the table, for the whole evening: who sits there and how they are reached."""

    index: int
    name: str
    kind: str  # "host" (the serving terminal), "friend" (a link) or "cpu"
    level: str = "normal"  # a CPU's strength
    token: str = ""
    #: Who sits here in the evening's tally (the same person game after game).
    player: int = 0
    named: bool = False  # the name was chosen at the door (a friend is asked once)
    client: Client | None = None
    away_since: float | None = None  # a friend not connected, since when
    stand_in: Player | None = None  # the CPU playing while a friend is away
    asked_host: bool = False
    joined: bool = False  # a friend who has opened their link at least once
    ready: bool = False  # between games: said "play again"
    left: bool = False  # between games: the friend gave the seat up

    @property
    def person(self) -> bool:
        return self.kind != "cpu"


@dataclass
class Spectator:
    client: Client


@dataclass
class Prompting:
    """A text dialogue in progress for a ``cardcli join`` client (see console.RemoteUI)."""

    seat: int
    client: Client
    answer: Callable[[int, str], None]
    cancel: Callable[[], None]


@dataclass
class TableOptions:
    away_timeout: float = 60.0
    away: str = "ask"  # "ask" the host, "wait", or "cpu" (a CPU plays until they return)
    stand_in_level: str = "normal"
    open_hands: bool = False  # spectators see every hand


class Evening(Protocol):
    """What the table shows of the evening (:class:`cardcli.serve.evening.Evening`)."""

    def message(self, table: Table, viewer: int) -> dict[str, Any]: ...

    def tally(self, table: Table, viewer: int) -> dict[str, Any]: ...


@dataclass
class Limiter:
    """A token bucket per link: a flood of messages gets errors, then a closed connection."""

    burst: float = BURST
    rate: float = RATE
    tokens: float = -1.0
    last: float = field(default_factory=time.monotonic)

    def allow(self) -> bool:
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def digest(token: str) -> str:
    """A token as kept once it no longer opens its seat (what it was is all that is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(given: str, token: str) -> bool:
    """``given`` is ``token``, compared in constant time (any text: a link pasted with a
    trailing quote mark is a wrong token like any other)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8"))


def quick(player: Player) -> bool:
    """A player the driver may run on the event loop: a policy (the variant's
    CPUs decide in microseconds).  Anything else (the hard CPU's search)
    thinks in a worker thread."""
    return isinstance(player, PolicyPlayer)


def seats_for(game: Game, kinds: list[str], tokens: dict[str, str] | None = None) -> list[Seat]:
    """The seats of a first game: each from the record's seat and its kind
    (``host``, ``friend`` or ``cpu``), a friend's with its token (given, or new)."""
    tokens = tokens or {}
    seats = []
    for index, (info, kind) in enumerate(zip(game.seats, kinds)):
        seat = Seat(index, printable(info.name), kind, level=info.cpu_level or "normal", player=index,
                    named=kind == "host")
        if kind == "friend":
            seat.token = tokens.get(f"seat {index}") or new_token()
        seats.append(seat)
    return seats


def check_name(text: str, seats: list[Seat], seat: int) -> str:
    """A name chosen at the door, tidied (spaces collapsed), or :class:`BadMessage` saying why not."""
    name = " ".join(text.split())
    if not name:
        raise BadMessage("bad-name", _("type a name"))
    if len(name) > NAME_MAX:
        raise BadMessage("bad-name", _("a name has at most {count} characters").format(count=NAME_MAX))
    if any(unicodedata.category(char)[0] == "C" for char in name):
        raise BadMessage("bad-name", _("a name has no control characters"))
    if is_you(name):
        raise BadMessage("bad-name", _("'you' is what each player calls themselves: choose a name"))
    host = _(HOST_NAME)
    if name.casefold() in (HOST_NAME, host.casefold()):
        said = _("'{host}' is what the table calls the host: choose another name")
        raise BadMessage("bad-name", said.format(host=HOST_NAME if name.casefold() == HOST_NAME else host))
    card = _CARD_WORD.search(name)
    if card is not None:
        raise BadMessage("bad-name", _("{card!r} reads as a card: choose a name without one").format(
            card=card.group(0)))
    taken = [s.name for s in seats if s.index != seat]
    if name.casefold() in (other.casefold() for other in taken):
        said = _("{name!r} is already at the table: choose another name")
        raise BadMessage("bad-name", said.format(name=name))
    return name


class _Tell(Hook):
    """The table's hook on the driver: each event in words for every viewer,
    as it is applied; and, when the driver stops for a decision from outside,
    which one it is."""

    def __init__(self, table: Table):
        self.table = table

    def deciding(self, driver: Driver[Any], seat: int, legal: list[Action]) -> None:
        if driver.is_external(seat):
            self.table.turn = driver.events
            self.table.legal = legal

    def before(self, driver: Driver[Any], seat: int, action: Action) -> None:
        self.table.tell(action)


class Table:
    """A table served to its clients, one game after another.  All its state
    changes on the event loop's thread."""

    #: The page its links open (a board's is ``board.html``).
    page = "index.html"

    def __init__(self, variant: Variant, seats: list[Seat], *, watch_token: str | None = None,
                 options: TableOptions | None = None,
                 host_turn: Callable[..., Awaitable[Action]] | None = None,
                 ask_host: Callable[[str], Awaitable[bool]] | None = None,
                 notice: Callable[[str], None] | None = None,
                 dialogue: Callable[..., Prompting] | None = None):
        self.variant = variant
        self.options = options or TableOptions()
        self.seats = seats
        #: The host's language (the one in use when the table was made): what the
        #: host is told in, and every client that does not speak another
        #: (a phone served in its own language, ``Client.language``).
        self.language = current()
        for seat in seats:
            if seat.kind == "friend" and seat.client is None:
                seat.away_since = time.monotonic()
        self.watch_token = watch_token or new_token()
        self.spectators: list[Spectator] = []
        self.host_turn = host_turn
        self.ask_host = ask_host
        self.notice = notice or (lambda text: None)
        self.dialogue = dialogue
        #: The evening the games belong to (set by :class:`~cardcli.serve.evening.Evening`).
        self.evening: Evening | None = None
        #: Called when a seat says "play again" or leaves between games.
        self.on_change: Callable[[], None] = lambda: None
        #: Each link's message count (a seat's token, or a spectator's connection) and
        #: each seat's reopenings: they outlast a connection.
        self.limits: dict[str | int, Limiter] = {}
        self.rejoins: dict[str, Limiter] = {}
        #: Links that no longer open their seat (by :func:`digest`), and why: what
        #: someone who opens one again is told (the seat has a new link, they left it ...).
        self.retired: dict[str, str] = {}
        #: One hint search per seat at a time: a second asker waits for the first's hint.
        self._hinting: dict[int, threading.Lock] = {}
        self.closed = False
        self.game: Game | None = None
        #: The game's number in the evening (the first is 1).
        self.number = 0
        #: Between games: the header of the next game's rules (None while a game is on).
        self.lobby: str | None = None
        self.cpus: dict[int, Player] = {}
        self.names: dict[int, list[str]] = {}
        self.logs: dict[int, deque[str]] = {}
        #: Per viewer nobody watches with now (the spectators' eyes with no
        #: spectator, a friend away), the runs of events not told yet: told,
        #: run by run as they would have been, when someone opens that view.
        self.untold: dict[int, deque[list[tuple[State, Action]]]] = {}
        #: The runs of events the logs tell, for a client in another language than
        #: the host's: its "what just happened" is told from them in its own.
        self.runs: deque[list[tuple[State, Action]]] = deque(maxlen=LOG_KEPT)
        self._reset_game_state()

    @classmethod
    def for_game(cls, game: Game, kinds: list[str], *, tokens: dict[str, str] | None = None,
                 **settings: Any) -> Table:
        """A table for ``game``, its seats of the given kinds, ready to :meth:`play`."""
        table = cls(game.variant, seats_for(game, kinds, tokens), watch_token=(tokens or {}).get("watch"),
                    **settings)
        table.start(game)
        return table

    def _reset_game_state(self) -> None:
        #: The events applied since the last update, as (state before, action),
        #: to be told in words when it goes out; those that ended a round.
        self.pending: list[tuple[State, Action]] = []
        self.round_ends: list[tuple[State, Action]] = []
        #: The cards the last decision that put cards on the table put there.
        self.played: list[str] = []
        #: The line above the table: the house rules (as ``cardcli play`` shows it).
        self.header = ""
        #: Whether ``?`` at a prompt gives the hard CPU's hint (as in ``cardcli play``).
        self.hints = False
        #: The decision awaited from outside: the event number it was asked at
        #: (a ``move`` repeats it as its ``turn``) and its legal actions.
        self.turn: int | None = None
        self.legal: list[Action] = []
        self.answering: asyncio.Task[None] | None = None  # what makes the awaited decision, if not a client
        self.prompting: Prompting | None = None
        #: The hint given per seat for its current decision: (turn, text).  One
        #: search per decision: asking again shows the same hint.
        self.hinted: dict[int, tuple[int | None, str]] = {}
        self.result: dict[str, Any] | None = None
        self.done: asyncio.Future[dict[str, Any]] | None = None  # set by play()

    # ------------------------------------------------------------ a game
    def start(self, game: Game, number: int = 1) -> None:
        """Seat ``game`` (the seats as they are now, one per player of the
        game) and tell the connected clients; :meth:`play` plays it."""
        assert len(game.seats) == len(self.seats), "a game for these seats"
        self._stop_game()
        self._reset_game_state()
        self.game, self.number, self.lobby = game, number, None
        self.variant = game.variant
        seed = game.seed if game.seed is not None else 0
        self.cpus = {}
        for index, seat in enumerate(self.seats):
            seat.index = index
            seat.ready = seat.left = False
            seat.stand_in = None
            seat.asked_host = False
            if seat.kind == "cpu":
                self.cpus[index] = make_cpu(game.variant, seat.level, seed, index)
        with self.voice(None):
            self.header = table_header(game.variant, game.rules, game.ruleset)
        self.hints = supports_hard(game.variant, game.state)
        self._rename()
        self._recap()
        self._seat_players()
        game.hooks.append(_Tell(self))
        for seat in self.seats:
            if seat.client is not None:
                with self.voice(seat.client):
                    seat.client.send(self.welcome(seat.index))
        for spectator in self.spectators:
            with self.voice(spectator.client):
                spectator.client.send(self.welcome(None))

    def between(self, header: str, *, number: int | None = None) -> None:
        """The game is over and the table stays open for the next (whose rules
        ``header`` names): every client is told the evening so far.  (A table
        served again between games starts here: ``number`` is the last game's.)"""
        self._stop_game()
        self.lobby = header
        self.turn = None
        if number is not None:
            self.number = number
        self._rename()
        for seat in self.seats:
            seat.ready = False
        self.broadcast_lobby()

    def _stop_game(self) -> None:
        self._stop_answering()
        for seat in self.seats:
            self._cancel_prompt(seat.index)
        if self.game is not None:
            self.game.hooks[:] = [hook for hook in self.game.hooks if not isinstance(hook, _Tell)]

    def reseat(self) -> None:
        """After the host changed the seats between games: number them again,
        with each viewer's names.  The last game's logs go: each was told from
        one seat's eyes, and must never reach another seat renumbered."""
        for index, seat in enumerate(self.seats):
            seat.index = index
        self.logs = {}
        self.untold = {}
        self.runs.clear()
        self._rename()
        self.broadcast_lobby()

    def _rename(self) -> None:
        """The names each viewer reads: a seat named "you" (the host, by
        default) is "you" only to itself."""
        viewers = [s.index for s in self.seats if s.person] + [SPECTATOR]
        with self.voice(None):
            self.names = {viewer: self._names_for(viewer) for viewer in viewers}
        for viewer in viewers:
            self.logs.setdefault(viewer, deque(maxlen=LOG_KEPT))
        for viewer in [v for v in self.logs if v not in self.names]:
            del self.logs[viewer]
            self.untold.pop(viewer, None)

    def _recap(self) -> None:
        """Each viewer's "what just happened" for a game that starts now:
        empty for a new game, its last moves for a resumed one."""
        game = self.game
        assert game is not None
        for log in self.logs.values():
            log.clear()
        self.untold = {}
        self.runs.clear()
        if not game.history:
            return
        events = last_moves(game, RECAP_MOVES)
        self.runs.append(events)
        with self.voice(None):
            for viewer, log in self.logs.items():
                names = self.names[viewer]
                log.extend(describe_events(game.variant, events, viewer=self._eyes(viewer), names=names))
        for before, action in events:
            if before.current_player() >= 0:
                self.played = played_cards(game.variant, before, action) or self.played

    # ------------------------------------------------------------- tokens
    def tokens(self) -> dict[str, str]:
        tokens = {f"seat {s.index}": s.token for s in self.seats if s.kind == "friend" and s.token}
        tokens["watch"] = self.watch_token
        return tokens

    def find(self, token: str) -> tuple[str, int | None] | None:
        """``("seat", N)`` or ``("watch", None)`` for a token of this table."""
        for seat in self.seats:
            if seat.token and same_token(token, seat.token):
                return "seat", seat.index
        if same_token(token, self.watch_token):
            return "watch", None
        return None

    def why_gone(self, token: str) -> str | None:
        """Why a link of this table no longer opens its seat (a close reason:
        :data:`REPLACED`, :data:`LEFT`, ...), or ``None`` if it never did."""
        return self.retired.get(digest(token))

    def retire(self, seat: Seat, reason: str) -> None:
        """``seat``'s link stops opening it, for ``reason``."""
        if seat.token:
            self.retired[digest(seat.token)] = reason
            self.limits.pop(seat.token, None)
            self.rejoins.pop(seat.token, None)

    def seat_of(self, client: Client) -> int | None:
        """The seat ``client`` holds, or ``None`` (a spectator)."""
        for seat in self.seats:
            if seat.client is client:
                return seat.index
        return None

    def reissue(self, index: int) -> str:
        """A new link for a friend's seat: the old token stops opening it at
        once, and a device that holds the seat with it is sent away."""
        seat = self.seats[index]
        assert seat.kind == "friend"
        self.retire(seat, REPLACED)
        seat.token = new_token()
        seat.named = False  # whoever opens the new link is asked their name ...
        seat.ready = seat.joined = False  # ... and says play again for themselves
        self.send_away(seat, REPLACED)
        return seat.token

    def send_away(self, seat: Seat, reason: str) -> None:
        client, seat.client = seat.client, None
        if client is not None:
            self._cancel_prompt(seat.index)
            client.close(reason)
            if seat.away_since is None:
                seat.away_since = time.monotonic()
            self.broadcast_presence()

    # ------------------------------------------------------------ clients
    def join(self, client: Client, seat: int | None) -> None:
        """A client opened a seat's link (taking the seat from any earlier
        connection) or the watch link."""
        if seat is None:
            self.spectators.append(Spectator(client))
            with self.voice(client):
                client.send(self.welcome(None))
                self._catch_up(client)
            return
        place = self.seats[seat]
        if not self.rejoins.setdefault(place.token, Limiter(REJOIN_BURST, 1 / REJOIN_EVERY)).allow():
            with self.voice(client):
                raise BadMessage("too-fast", _("this link opened the seat too often just now: try again in "
                                               "{seconds} seconds").format(seconds=int(REJOIN_EVERY)))
        if self.waiting() == seat:
            self._stop_answering()  # first, withdraw a question to the host about their absence
        old, place.client = place.client, client
        if old is not None:
            self._cancel_prompt(seat)
            old.close(ELSEWHERE)
        else:
            with self.voice(None):
                if place.stand_in is not None:
                    said = _("{name} is back; the CPU standing in for them stops") if place.joined else \
                        _("{name} joined; the CPU standing in for them stops")
                else:
                    said = _("{name} is back") if place.joined else _("{name} joined")
                self.notice(said.format(name=place.name))
        place.away_since = None
        place.asked_host = False
        place.joined = True
        if place.stand_in is not None:
            place.stand_in = None
            self._seat_players()
        with self.voice(client):
            client.send(self.welcome(seat))
            self._catch_up(client)
        self.broadcast_presence()
        if self.waiting() == seat:
            self._ask(seat)  # their decision now comes from them again

    def _catch_up(self, client: Client) -> None:
        """A client that has just joined: the table now, or between games the evening."""
        if self.lobby is not None:
            seat = self.seat_of(client)
            client.send(self.evening_message(seat))
        elif self.game is not None:
            self.broadcast(only=client)

    def leave(self, client: Client) -> None:
        for seat in self.seats:
            if seat.client is client:
                seat.client = None
                seat.away_since = time.monotonic()
                self._cancel_prompt(seat.index)
                if not self.closed:
                    with self.voice(None):
                        said = _("{name} left (the same link gets the seat back)")
                        self.notice(said.format(name=seat.name))
                    self.broadcast_presence()
                    if self.waiting() == seat.index:
                        self._ask(seat.index)  # the away timer starts
        if any(s.client is client for s in self.spectators):
            self.spectators = [s for s in self.spectators if s.client is not client]
            self.limits.pop(id(client), None)

    def receive(self, client: Client, message: dict[str, Any]) -> None:
        """A checked message from a client (:func:`protocol.parse_client` ran)."""
        kind = message["type"]
        seat = self.seat_of(client)
        if kind == "hello":
            raise BadMessage("bad-message", _("already joined: 'hello' comes once"))
        if kind == "ping":
            self.count(client)
            client.send({"type": "pong"})
            return
        if seat is None:
            raise BadMessage("not-a-seat", _("a spectator cannot play"))
        if kind == "name":
            self.count(client)
            self.rename(seat, message["name"])
            return
        if kind in ("again", "leave"):
            self.count(client)
            if self.lobby is None:
                said = _("{kind!r} is for between games; the game is on")
                raise BadMessage("not-between-games", said.format(kind=kind))
            if kind == "again":
                if self.seats[seat].ready:
                    return  # said already: nothing changes, nobody is told again
                self.seats[seat].ready = True
                with self.voice(None):
                    self.notice(_("{name} says: play again").format(name=self.seats[seat].name))
            else:
                self.give_up(seat)
            self.broadcast_lobby()
            self.on_change()
            return
        if self.result is not None or self.lobby is not None:
            raise BadMessage("game-over", _("the game is over"))
        if kind == "answer":
            prompt = self.prompting
            if prompt is None or prompt.seat != seat:
                raise BadMessage("no-prompt", _("there is no question for you to answer"))
            self.count(client)
            prompt.answer(message["prompt"], message["text"])
            return
        # A move: the seat whose turn it is, at this very turn, one of its moves.
        if self.waiting() != seat or self.turn is None:
            raise BadMessage("not-your-turn", _("it is not {name}'s turn").format(name=self.seats[seat].name))
        if message["turn"] != self.turn:
            raise BadMessage("stale", _("that move was for turn {asked}; it is now turn {turn}").format(
                asked=message["turn"], turn=self.turn))
        legal = self.legal
        if message["move"] >= len(legal):
            raise BadMessage("bad-move", _("there are {count} moves (0 to {last})").format(
                count=len(legal), last=len(legal) - 1))
        try:
            self.submit(seat, legal[message["move"]])
        except IllegalMove as problem:
            raise BadMessage("illegal", str(problem)) from None

    def rename(self, seat: int, text: str) -> None:
        """A friend's name, chosen at the door: shown to everyone at once (the
        record of a game already under way keeps the name it started with)."""
        place = self.seats[seat]
        if place.kind != "friend":
            raise BadMessage("bad-name", _("only a friend's seat is named at the door"))
        if place.named:
            raise BadMessage("named", _("you are {name} at this table: a name is chosen once, at the "
                                        "door (the host's new link for the seat asks again)").format(
                                            name=place.name))
        name = check_name(text, self.seats, seat)
        old, place.name, place.named = place.name, name, True
        if name != old:
            with self.voice(None):
                self.notice(_("{old} is now called {name}").format(old=old, name=name))
        self._rename()
        players = {"type": "players"}
        for viewer_seat in self.seats:
            if viewer_seat.client is not None:
                with self.voice(viewer_seat.client):
                    viewer_seat.client.send({**players, "players": self.players(viewer_seat.index)})
        for spectator in self.spectators:
            with self.voice(spectator.client):
                spectator.client.send({**players, "players": self.players(None)})
        if self.lobby is not None:
            self.broadcast_lobby()
        elif self.game is not None:
            self.broadcast()

    def give_up(self, seat: int) -> None:
        """Between games, a friend leaves the table: their link stops opening
        the seat, which stays empty until the host gives it to a CPU, to
        another friend (a new link) or closes it."""
        place = self.seats[seat]
        if place.kind != "friend":
            raise BadMessage("bad-message", _("only a friend's seat can be left"))
        self.retire(place, LEFT)
        place.left, place.ready, place.token = True, False, ""
        with self.voice(None):
            self.notice(_("{name} left the table; seat {number} is empty (cpu {number} gives it to a CPU, "
                          "remove {number} closes it, friend {number} makes a new link)").format(
                              name=place.name, number=seat + 1))
        self.send_away(place, LEFT)

    def refuse(self, client: Client, problem: BadMessage) -> None:
        """Tell a client what was wrong (a refused message counts against its rate)."""
        client.send(error(problem.code, problem.message))
        self.count(client)

    def count(self, client: Client) -> None:
        """Count a message that is not an accepted move against its link (a
        seat's token outlasts the connection); close a client that floods."""
        seat = self.seat_of(client)
        key: str | int = self.seats[seat].token if seat is not None else id(client)
        if not self.limits.setdefault(key, Limiter()).allow():
            with self.voice(client):
                client.send(error("too-fast", _("too many messages: the connection is closed")))
            client.close("too many messages")

    def close_all(self, reason: str) -> None:
        """Send every client away (the host ended the evening)."""
        for client in self.clients():
            client.close(reason)

    # ------------------------------------------------------------ messages
    def _names_for(self, viewer: int) -> list[str]:
        """The names ``viewer`` reads, in the language in use: a seat named "you" is
        "you" only to itself (the host to the others, or "player N")."""
        return [(_(HOST_NAME) if s.kind == "host" else _("player {number}").format(number=s.index + 1))
                if is_you(s.name) and s.index != viewer else s.name for s in self.seats]

    def _names_of(self, viewer: int) -> list[str]:
        """:meth:`_names_for` as kept for ``viewer`` (in the host's language), or
        made again in the language in use."""
        kept = self.names.get(viewer) if current() == self.language else None
        return kept or self._names_for(viewer)

    def _language(self, client: Client | None) -> str:
        """The language ``client``'s messages are made in (``None``: the host's)."""
        return getattr(client, "language", None) or self.language

    def voice(self, client: Client | None) -> AbstractContextManager[object]:
        """Speak ``client``'s language inside the block (``None``: the host's,
        for what the host is told): what it is sent is made in it."""
        return speaking_as(self._language(client))

    def _eyes(self, viewer: int) -> int | None:
        """Whose eyes ``viewer`` sees with: a seat's own; a spectator's are the
        public table's (every card's, if the host opened the hands)."""
        return viewer_of(None if viewer == SPECTATOR else viewer, self.options.open_hands)

    def players(self, seat: int | None) -> list[dict[str, Any]]:
        names = self._names_of(SPECTATOR if seat is None else seat)
        return [{"name": name, "kind": f"cpu:{s.level}" if s.kind == "cpu" else s.kind}
                for name, s in zip(names, self.seats)]

    def welcome(self, seat: int | None) -> dict[str, Any]:
        variant = self.variant
        viewer = SPECTATOR if seat is None else seat
        place = None if seat is None else self.seats[seat]
        message = {"type": "welcome", "protocol": PROTOCOL, "variant": variant.name,
                   "title": variant.words(variant.title), "description": variant.words(variant.description),
                   "seat": seat, "header": self._header(),
                   "hints": self.hints, "players": self.players(seat),
                   "score_label": variant.words(variant.score_label), "open_hands": self.options.open_hands,
                   "log": self._recent(viewer), "game": self.number,
                   "between": self.lobby is not None,
                   "ask_name": place is not None and place.kind == "friend" and not place.named,
                   "name_max": NAME_MAX}
        if self.evening is not None:
            message["tally"] = self.evening.tally(self, viewer)
        return message

    def evening_message(self, seat: int | None) -> dict[str, Any]:
        """Between games, for ``seat``: the evening so far and who is ready for the next game."""
        viewer = SPECTATOR if seat is None else seat
        if self.evening is not None:
            return self.evening.message(self, viewer)
        return {"type": "evening", "game": self.number + 1, "tally": None, "last": None,
                "next": self.lobby_view(viewer, "host")}

    def lobby_view(self, viewer: int, starts: str) -> dict[str, Any]:
        """The next game's seats as ``viewer`` reads them, who has said "play
        again", and who starts it (``host``, or ``all`` when everyone is ready)."""
        names = self._names_of(viewer)
        players = []
        for name, seat in zip(names, self.seats):
            kind = f"cpu:{seat.level}" if seat.kind == "cpu" else seat.kind
            entry: dict[str, Any] = {"name": name, "kind": kind}
            if seat.kind == "friend":
                entry.update(ready=seat.ready, connected=seat.client is not None, left=seat.left)
            elif seat.kind == "host":
                entry.update(ready=seat.ready, connected=True, left=False)
            players.append(entry)
        waiting = [names[s.index] for s in self.seats if s.person and not s.ready and not s.left]
        return {"header": self._header(), "players": players, "starts": starts, "waiting": waiting}

    def _header(self) -> str:
        """The line above the table (between games, the next game's rules), in the language in use."""
        if current() == self.language:
            return self.lobby if self.lobby is not None else self.header
        if self.lobby is not None:
            header = getattr(self.evening, "header", None)
            return header() if header is not None else self.lobby
        game = self.game
        return table_header(game.variant, game.rules, game.ruleset) if game is not None else self.header

    def broadcast_lobby(self) -> None:
        """Every client's view of the evening between games."""
        if self.lobby is None:
            return
        for seat in self.seats:
            if seat.client is not None:
                with self.voice(seat.client):
                    seat.client.send(self.evening_message(seat.index))
        messages: dict[str, dict[str, Any]] = {}
        for spectator in self.spectators:
            language = self._language(spectator.client)
            if language not in messages:
                with self.voice(spectator.client):
                    messages[language] = self.evening_message(None)
            spectator.client.send(messages[language])

    def presence(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        out = []
        names = self._names_of(SPECTATOR)
        for seat in self.seats:
            entry: dict[str, Any] = {"name": names[seat.index], "kind": seat.kind}
            if seat.kind == "friend":
                entry["connected"] = seat.client is not None
                entry["joined"] = seat.joined
                entry["away"] = 0 if seat.away_since is None else int(now - seat.away_since)
                entry["stand_in"] = seat.stand_in is not None
            out.append(entry)
        return out

    def update(self, seat: int | None, events: list[str], round_end: str | None = None,
               presence: list[dict[str, Any]] | None = None, table: bool = True) -> dict[str, Any]:
        """The table as ``seat`` (``None``: a spectator) sees it now, after
        ``events`` (in its words); on its turn, its moves."""
        game = self.game
        assert game is not None
        viewer = SPECTATOR if seat is None else seat
        asked = seat is not None and self.turn is not None and self.waiting() == seat
        names = self._names_of(viewer)
        fields = table_fields(game.variant, game.state, self._eyes(viewer), names, moves=asked) \
            if table else {"moves": []}
        return {"type": "update", "event": game.events, "turn": self.turn if fields["moves"] else None,
                "events": events, "played": self.played, "round_end": round_end,
                "seats": presence if presence is not None else self.presence(), **fields}

    def broadcast(self, only: Client | None = None) -> None:
        """Send each client (or just ``only``, which has just joined) its update:
        the events since the last update, in its words, and the table as it is now."""
        if self.game is None:
            return
        told, run = self._tell_events() if only is None else ({}, None)
        presences: dict[str, list[dict[str, Any]]] = {}

        def presence() -> list[dict[str, Any]]:  # in the language in use, made once for each
            language = current()
            if language not in presences:
                presences[language] = self.presence()
            return presences[language]

        for seat in self.seats:
            client = seat.client
            if client is not None and (only is None or client is only):
                with self.voice(client):
                    lines, summary = self._in_words(seat.index, told, run)
                    client.send(self.update(seat.index, lines, summary, presence(),
                                            table=getattr(client, "tables", True)))
        watching = [s.client for s in self.spectators if only is None or s.client is only]
        messages: dict[tuple[bool, str], dict[str, Any]] = {}
        for client in watching:
            table = getattr(client, "tables", True)
            key = (table, self._language(client))
            if key not in messages:  # one message for every spectator reading the same
                with self.voice(client):
                    lines, summary = self._in_words(SPECTATOR, told, run)
                    messages[key] = self.update(None, lines, summary, presence(), table=table)
            client.send(messages[key])

    def broadcast_presence(self) -> None:
        messages: dict[str, dict[str, Any]] = {}
        for client in self.clients():
            language = self._language(client)
            if language not in messages:
                with self.voice(client):
                    messages[language] = {"type": "seats", "seats": self.presence()}
            client.send(messages[language])

    def clients(self) -> list[Client]:
        return [s.client for s in self.seats if s.client is not None] + [s.client for s in self.spectators]

    def tell(self, action: Action) -> None:
        """An event about to be applied (called by the driver's hook): kept,
        with the state it applies to, to be told with the next update."""
        game = self.game
        assert game is not None
        state, variant = game.state, game.variant
        before = state.clone()
        self.pending.append((before, action))
        if state.current_player() >= 0:
            self.played = played_cards(variant, state, action) or self.played
        if round_summary(variant, state, action, game.names) is not None:
            self.round_ends.append((before, action))
            self.played = []

    def _tell_events(self) -> tuple[dict[int, tuple[list[str], str | None]], Run | None]:
        """The events since the last update for every viewer: in its words, as
        ``cardcli play`` tells them (``Variant.describe_events``), and the end of
        a round they finished (``Variant.round_summary``), if any; in the host's
        language (a client in another is told the run returned in its own, :meth:`_in_words`)."""
        pending, self.pending = self.pending, []
        ended, self.round_ends = self.round_ends, []
        if not pending or self.game is None:
            return {}, None
        self.runs.append(pending)
        variant = self.game.variant
        told = {}
        with self.voice(None):
            for viewer, log in self.logs.items():
                if not self._watched(viewer):  # told if and when someone opens this view
                    self.untold.setdefault(viewer, deque(maxlen=LOG_KEPT)).append(pending)
                    continue
                self._told(viewer)
                names = self.names[viewer]
                lines = describe_events(variant, pending, viewer=self._eyes(viewer), names=names)
                log.extend(lines)
                summary = round_summary(variant, *ended[-1], names) if ended else None
                told[viewer] = (lines, summary)
        return told, (pending, ended[-1] if ended else None)

    def _in_words(self, viewer: int, told: dict[int, tuple[list[str], str | None]],
                  run: Run | None) -> tuple[list[str], str | None]:
        """What ``viewer`` is told of the last run of events (``told``, in the
        host's language), in the language in use."""
        if current() == self.language or run is None or viewer not in told or self.game is None:
            return told.get(viewer, ([], None))
        events, end = run
        names = self._names_of(viewer)
        variant = self.game.variant
        lines = describe_events(variant, events, viewer=self._eyes(viewer), names=names)
        return lines, round_summary(variant, *end, names) if end is not None else None

    def _recent(self, viewer: int) -> list[str]:
        """``viewer``'s "what just happened": its log (in the host's language),
        or told again from the runs in the language in use."""
        log = self._told(viewer)
        if current() == self.language or self.game is None:
            return list(log)
        lines: list[str] = []
        names = self._names_of(viewer)
        for events in self.runs:
            lines.extend(describe_events(self.game.variant, events, viewer=self._eyes(viewer), names=names))
        return lines[-LOG_KEPT:]

    def _watched(self, viewer: int) -> bool:
        """Whether a client sees the table with ``viewer``'s eyes now."""
        if viewer == SPECTATOR:
            return bool(self.spectators)
        return 0 <= viewer < len(self.seats) and self.seats[viewer].client is not None

    def _told(self, viewer: int) -> deque[str]:
        """``viewer``'s log of what just happened, with the events nobody saw
        from there yet told (each run of events as it would have been, live)."""
        log = self.logs.setdefault(viewer, deque(maxlen=LOG_KEPT))
        runs = self.untold.pop(viewer, None)
        if runs and self.game is not None:
            with self.voice(None):
                names = self.names.get(viewer) or self._names_for(viewer)
                eyes = self._eyes(viewer)
                for run in runs:
                    log.extend(describe_events(self.game.variant, run, viewer=eyes, names=names))
        return log

    def over(self, result: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The game's end for ``seat``: the result, how it ended in words, and the ranking screen."""
        names = self._names_of(SPECTATOR if seat is None else seat)
        return {"type": "over", "result": result, "headline": over_text(result, names, self.variant),
                "text": self.end_text(result, seat), "game": self.number}

    def end_text(self, result: dict[str, Any], seat: int | None = None) -> str:
        """The ranking screen, the same as at the end of ``cardcli play``, in ``seat``'s names."""
        game = self.game
        assert game is not None
        return end_text(game.variant, game.state, result, self._names_of(SPECTATOR if seat is None else seat))

    # ------------------------------------------------------------ the game
    async def play(self) -> dict[str, Any]:
        """Serve the game until it is over; return the result."""
        self.done = asyncio.get_running_loop().create_future()
        self._move_on()
        try:
            return await self.done
        finally:
            self._stop_answering()

    def waiting(self) -> int | None:
        """The seat whose decision the table awaits from outside, once play has started."""
        if self.done is None or self.result is not None or self.game is None:
            return None
        return self.game.waiting_for()

    def submit(self, seat: int, action: Action) -> None:
        """A decision from outside for ``seat``: checked by the rules and applied
        (raises :class:`IllegalMove`, changing nothing), then the game moves on."""
        assert self.game is not None
        self.game.submit(seat, action)
        self._cancel_prompt(seat)
        self._stop_answering()
        self.turn = None
        self.legal = []
        self._move_on()

    def _move_on(self) -> None:
        """The driver applies chance and the seated CPUs' moves up to the next
        decision from outside (or the end); everyone is told; that decision
        is set going."""
        done = self.done
        if done is None or done.done() or self.game is None:
            return
        try:
            seat = self.game.advance()
            if seat == TERMINAL:
                self._finish()
                return
            self.broadcast()
            self._ask(seat)
        except Exception as problem:  # a variant's bug: the table stops and says why
            if not done.done():
                done.set_exception(problem)

    def _finish(self) -> None:
        assert self.game is not None and self.done is not None
        result = self.game.finish() or {}
        self.result = result
        self.turn = None
        self.broadcast()
        for seat in self.seats:
            if seat.client is not None:
                with self.voice(seat.client):
                    seat.client.send(self.over(result, seat.index))
        overs: dict[str, dict[str, Any]] = {}
        for spectator in self.spectators:
            language = self._language(spectator.client)
            if language not in overs:
                with self.voice(spectator.client):
                    overs[language] = self.over(result, None)
            spectator.client.send(overs[language])
        self.done.set_result(result)

    def _seat_players(self) -> None:
        """Seat in the driver the players it may run on the loop: quick CPUs
        and quick stand-ins.  Every other seat is external."""
        assert self.game is not None
        players: list[Player | None] = []
        for seat in self.seats:
            player = self.cpus.get(seat.index) or seat.stand_in
            players.append(player if player is not None and quick(player) else None)
        self.game.players = players

    def _ask(self, seat: int) -> None:
        """Set going what makes ``seat``'s decision: a thinking CPU, the host's
        terminal, a remote dialogue, or the away timer.  (A friend's page
        needs nothing more: its update offers the moves.)"""
        self._stop_answering()
        self._cancel_prompt(seat)
        place = self.seats[seat]
        player = self.cpus.get(seat) or place.stand_in
        if player is not None:
            self._answer_with(self._think(seat, player))
        elif place.kind == "host":
            self._answer_with(self._host(seat))
        elif place.client is not None:
            if place.client.prompts and self.dialogue is not None:
                self.prompting = self.dialogue(self, seat, self.legal, place.client)
        elif not place.asked_host:
            with self.voice(None):
                if place.joined:
                    said = _("{name} is away; the table waits for them (their link brings them back)")
                    self.notice(said.format(name=place.name))
                else:
                    self.notice(_("the table waits for {name} to join (with their invite link)").format(
                        name=place.name))
            self._answer_with(self._away(seat))

    def _answer_with(self, work: Awaitable[None]) -> None:
        """Run ``work`` (which makes the awaited decision) as a task; if it
        fails (a CPU's or a dialogue's bug), the table stops and says why."""

        async def guarded() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except BaseException as problem:
                if self.done is not None and not self.done.done():
                    self.done.set_exception(problem)

        task = asyncio.ensure_future(guarded())
        if inspect.iscoroutine(work):  # cancelled before it ran: closed, never left unawaited
            task.add_done_callback(lambda _task: work.close())
        self.answering = task

    def _stop_answering(self) -> None:
        task, self.answering = self.answering, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _think(self, seat: int, player: Player) -> None:
        """A CPU's decision, thought out in a worker thread on a copy of the state."""
        assert self.game is not None
        turn, legal = self.turn, list(self.legal)
        action = await asyncio.to_thread(player.act, self.game.state.clone(), seat, legal)
        if self.turn == turn:
            self.submit(seat, action)

    async def _host(self, seat: int) -> None:
        """The host's decision, from the serving terminal's dialogue."""
        assert self.host_turn is not None
        turn = self.turn
        while self.turn == turn:
            action = await self.host_turn(self, seat, self.legal)
            if self.turn != turn:
                return
            try:
                with self.voice(None):
                    self.submit(seat, action)
            except IllegalMove as problem:
                self.notice(str(problem))

    async def _away(self, seat: int) -> None:
        """A friend whose turn it is is away: after the timeout, --away applies."""
        place = self.seats[seat]
        since = place.away_since if place.away_since is not None else time.monotonic()
        await asyncio.sleep(max(0.0, since + self.options.away_timeout - time.monotonic()))
        place.asked_host = True
        if not await self._stand_in_wanted(place) or place.client is not None:
            return
        game = self.game
        assert game is not None
        place.stand_in = make_cpu(game.variant, self.options.stand_in_level,
                                  derive_seed(game.seed or 0, "stand-in"), seat)
        with self.voice(None):
            self.notice(_("a CPU ({level}) plays for {name} until they come back").format(
                level=self.options.stand_in_level, name=place.name))
        self.broadcast_presence()
        self._seat_players()
        if game.to_move() == seat:
            if quick(place.stand_in):
                self._move_on()  # the driver plays it
            else:
                self._ask(seat)

    async def _stand_in_wanted(self, place: Seat) -> bool:
        away = self.options.away
        if away == "cpu":
            return True
        seconds = int(self.options.away_timeout)
        if away == "ask" and self.ask_host is not None:
            with self.voice(None):
                question = _("{name} has been away for {seconds} s. Let a CPU play for them until they come "
                             "back?").format(name=place.name, seconds=seconds)
            wanted = await self.ask_host(question)
            if not wanted and place.client is None:
                with self.voice(None):
                    self.notice(_("the table waits for {name} (their link brings them back)").format(
                        name=place.name))
            return wanted and place.client is None
        with self.voice(None):
            self.notice(_("{name} has been away for {seconds} s; the table keeps waiting for them "
                          "(--away wait)").format(name=place.name, seconds=seconds))
        return False

    # ------------------------------------------------------------- hints
    def hint(self, seat: int, compute: Callable[[], str]) -> str:
        """The hint for ``seat``'s current decision: searched once (the hard
        CPU's search is the costliest thing a seat can ask for, and it runs
        beside every other table), then the same hint again.  May be called
        from a dialogue's thread."""
        turn = self.turn
        with self._hinting.setdefault(seat, threading.Lock()):  # one search per seat at a time
            given = self.hinted.get(seat)
            if given is not None and given[0] == turn:
                return given[1] + "\n" + _("(One hint per decision: this is the same hint again.)")
            text = compute()
            self.hinted[seat] = (turn, text)
            return text

    # ----------------------------------------------------- remote dialogues
    def _cancel_prompt(self, seat: int) -> None:
        prompt = self.prompting
        if prompt is not None and prompt.seat == seat:
            self.prompting = None
            prompt.cancel()

    def decided_by_dialogue(self, seat: int, action: Action) -> None:
        """A remote terminal's dialogue ended with ``action`` (called on the loop)."""
        prompt = self.prompting
        if prompt is None or prompt.seat != seat:
            return  # cancelled meanwhile
        self.prompting = None
        try:
            if self.waiting() != seat:
                raise IllegalMove(_("it is not {name}'s turn").format(name=self.seats[seat].name))
            self.submit(seat, action)
        except IllegalMove as problem:
            prompt.client.send(error("illegal", str(problem)))
            if self.waiting() == seat:
                self._ask(seat)  # ask again

    def close(self) -> None:
        self.closed = True
        self._stop_game()
