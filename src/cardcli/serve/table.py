"""A served table: one game, its seats and their clients, on an asyncio event loop.

The table is the single authority, and the game is moved by the core's game
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
:class:`~cardcli.game.Game`: every event is written before anyone is told
of it) and :class:`_Tell`, which words each event for every viewer from its
own seat as the driver applies it.  After each run of events, each client
is sent what its seat may see: those words and the table as data, both
built for that seat (:mod:`cardcli.serve.protocol`).

A seat's link token is the seat: opening it again (after closing the page or
losing Wi-Fi) takes the seat back and gets the whole table again.  While a
friend whose turn it is is away, the table waits; after ``away_timeout``
seconds the table either keeps waiting, lets a CPU play for them until they
return, or asks the host (``away``).
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..driver import Driver, Hook, PolicyPlayer
from ..errors import IllegalMove
from ..game import Game, derive_seed
from ..grammar import is_you
from ..narration import describe_events, round_summary
from ..players import Player, make_cpu
from ..players.hard import supports_hard
from ..safe_text import printable
from ..session import end_text, over_text, table_header
from ..variant import TERMINAL, Action, State
from ..view import SPECTATOR, played_cards
from .links import new_token
from .protocol import PROTOCOL, BadMessage, error, table_fields, viewer_of

#: Events kept per viewer for a client that (re)connects.
LOG_KEPT = 30
#: Messages a client may send per second, on average, and in a burst, beside
#: its moves (a move the rules accept is never counted: the game paces them).
#: A client past the limit is disconnected.
RATE, BURST = 10.0, 30


class Client(Protocol):
    """A connection, as the table sees it: the transport lives in :mod:`cardcli.serve.server`.

    ``prompts``: it wants the variant's text dialogue on its turn (``cardcli
    join``).  ``tables``: it wants the table in each update (the host's own
    terminal draws it itself, and only at its turn).
    """

    prompts: bool

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Seat:
    """A chair at the table: who sits there and how they are reached."""

    index: int
    name: str
    kind: str  # "host" (the serving terminal), "friend" (a link) or "cpu"
    token: str = ""
    client: Client | None = None
    away_since: float | None = None  # a friend not connected, since when
    stand_in: Player | None = None  # the CPU playing while a friend is away
    asked_host: bool = False
    joined: bool = False  # a friend who has opened their link at least once


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


@dataclass
class _Limiter:
    """A token bucket per client: a flood of messages gets errors, then a closed connection."""

    tokens: float = BURST
    last: float = field(default_factory=time.monotonic)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def quick(player: Player) -> bool:
    """A player the driver may run on the event loop: a policy (the variant's
    CPUs decide in microseconds).  Anything else (the hard CPU's search)
    thinks in a worker thread."""
    return isinstance(player, PolicyPlayer)


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
    """One game served to its clients.  All its state changes on the event loop's thread."""

    def __init__(self, game: Game, kinds: list[str], *, tokens: dict[str, str] | None = None,
                 options: TableOptions | None = None,
                 host_turn: Callable[..., Awaitable[Action]] | None = None,
                 ask_host: Callable[[str], Awaitable[bool]] | None = None,
                 notice: Callable[[str], None] | None = None,
                 dialogue: Callable[..., Prompting] | None = None):
        self.game = game
        self.options = options or TableOptions()
        tokens = dict(tokens or {})
        self.seats: list[Seat] = []
        seed = game.seed if game.seed is not None else 0
        self.cpus: dict[int, Player] = {}
        for index, (info, kind) in enumerate(zip(game.seats, kinds)):
            seat = Seat(index, printable(info.name), kind)  # shown to people, escaped
            if kind == "friend":
                seat.token = tokens.get(f"seat {index}") or new_token()
                seat.away_since = time.monotonic()
            elif kind == "cpu":
                self.cpus[index] = make_cpu(game.variant, info.cpu_level or "normal", seed, index)
            self.seats.append(seat)
        self.watch_token = tokens.get("watch") or new_token()
        self.spectators: list[Spectator] = []
        self.host_turn = host_turn
        self.ask_host = ask_host
        self.notice = notice or (lambda text: None)
        self.dialogue = dialogue
        # The viewers: the seats a person may look from (a CPU's seat never
        # has a client) and the spectators (SPECTATOR), each with the names it
        # reads: a seat named "you" (the host, by default) is "you" only to itself.
        viewers = [s.index for s in self.seats if s.kind != "cpu"] + [SPECTATOR]
        self.names: dict[int, list[str]] = {viewer: self._names_for(viewer) for viewer in viewers}
        self.logs: dict[int, deque[str]] = {viewer: deque(maxlen=LOG_KEPT) for viewer in viewers}
        #: The events applied since the last update, as (state before, action),
        #: to be told in words when it goes out; those that ended a round.
        self.pending: list[tuple[State, Action]] = []
        self.round_ends: list[tuple[State, Action]] = []
        #: The cards the last decision that put cards on the table put there.
        self.played: list[str] = []
        #: The line above the table: the house rules (as ``cardcli play`` shows it).
        self.header = table_header(game.variant, game.rules, game.ruleset)
        #: Whether ``?`` at a prompt gives the hard CPU's hint (as in ``cardcli play``).
        self.hints = supports_hard(game.variant, game.state)
        #: The decision awaited from outside: the event number it was asked at
        #: (a ``move`` repeats it as its ``turn``) and its legal actions.
        self.turn: int | None = None
        self.legal: list[Action] = []
        self.answering: asyncio.Task[None] | None = None  # what makes the awaited decision, if not a client
        self.prompting: Prompting | None = None
        self.limits: dict[int, _Limiter] = {}
        self.result: dict[str, Any] | None = None
        self.done: asyncio.Future[dict[str, Any]] | None = None  # set by play()
        self.closed = False
        self._seat_players()
        game.hooks.append(_Tell(self))

    # ------------------------------------------------------------- tokens
    def tokens(self) -> dict[str, str]:
        tokens = {f"seat {s.index}": s.token for s in self.seats if s.kind == "friend"}
        tokens["watch"] = self.watch_token
        return tokens

    def find(self, token: str) -> tuple[str, int | None] | None:
        """``("seat", N)`` or ``("watch", None)`` for a token of this table."""
        for seat in self.seats:
            if seat.token and hmac.compare_digest(seat.token, token):
                return "seat", seat.index
        if hmac.compare_digest(self.watch_token, token):
            return "watch", None
        return None

    # ------------------------------------------------------------ clients
    def join(self, client: Client, seat: int | None) -> None:
        """A client opened a seat's link (taking the seat from any earlier
        connection) or the watch link."""
        if seat is None:
            self.spectators.append(Spectator(client))
            client.send(self.welcome(None))
            self.broadcast(only=client)
            return
        place = self.seats[seat]
        if self.waiting() == seat:
            self._stop_answering()  # first, withdraw a question to the host about their absence
        old, place.client = place.client, client
        if old is not None:
            self._cancel_prompt(seat)
            old.close("this seat was opened on another device")
        else:
            said = f"{place.name} is back" if place.joined else f"{place.name} joined"
            self.notice(said + ("; the CPU standing in for them stops" if place.stand_in is not None else ""))
        place.away_since = None
        place.asked_host = False
        place.joined = True
        if place.stand_in is not None:
            place.stand_in = None
            self._seat_players()
        client.send(self.welcome(seat))
        self.broadcast(only=client)
        self.broadcast_presence()
        if self.waiting() == seat:
            self._ask(seat)  # their decision now comes from them again

    def leave(self, client: Client) -> None:
        for seat in self.seats:
            if seat.client is client:
                seat.client = None
                seat.away_since = time.monotonic()
                self._cancel_prompt(seat.index)
                if not self.closed:
                    self.notice(f"{seat.name} left (the same link gets the seat back)")
                    self.broadcast_presence()
                    if self.waiting() == seat.index:
                        self._ask(seat.index)  # the away timer starts
        self.spectators = [s for s in self.spectators if s.client is not client]
        self.limits.pop(id(client), None)

    def receive(self, client: Client, seat: int | None, message: dict[str, Any]) -> None:
        """A checked message from a client (:func:`protocol.parse_client` ran)."""
        kind = message["type"]
        if kind == "hello":
            raise BadMessage("bad-message", "already joined: 'hello' comes once")
        if kind == "ping":
            self.count(client)
            client.send({"type": "pong"})
            return
        if seat is None:
            raise BadMessage("not-a-seat", "a spectator cannot play")
        if self.result is not None:
            raise BadMessage("game-over", "the game is over")
        if kind == "answer":
            prompt = self.prompting
            if prompt is None or prompt.seat != seat:
                raise BadMessage("no-prompt", "there is no question for you to answer")
            self.count(client)
            prompt.answer(message["prompt"], message["text"])
            return
        # A move: the seat whose turn it is, at this very turn, one of its moves.
        if self.waiting() != seat or self.turn is None:
            raise BadMessage("not-your-turn", f"it is not {self.seats[seat].name}'s turn")
        if message["turn"] != self.turn:
            raise BadMessage("stale", f"that move was for turn {message['turn']}; it is now turn {self.turn}")
        legal = self.legal
        if message["move"] >= len(legal):
            raise BadMessage("bad-move", f"there are {len(legal)} moves (0 to {len(legal) - 1})")
        try:
            self.submit(seat, legal[message["move"]])
        except IllegalMove as problem:
            raise BadMessage("illegal", str(problem)) from None

    def refuse(self, client: Client, problem: BadMessage) -> None:
        """Tell a client what was wrong (a refused message counts against its rate)."""
        client.send(error(problem.code, problem.message))
        self.count(client)

    def count(self, client: Client) -> None:
        """Count a message that is not an accepted move; close a client that floods."""
        if not self.limits.setdefault(id(client), _Limiter()).allow():
            client.send(error("too-fast", "too many messages: the connection is closed"))
            client.close("too many messages")

    # ------------------------------------------------------------ messages
    def _names_for(self, viewer: int) -> list[str]:
        return [("host" if s.kind == "host" else f"player {s.index + 1}")
                if is_you(s.name) and s.index != viewer else s.name for s in self.seats]

    def _eyes(self, viewer: int) -> int | None:
        """Whose eyes ``viewer`` sees with: a seat's own; a spectator's are the
        public table's (every card's, if the host opened the hands)."""
        return viewer_of(None if viewer == SPECTATOR else viewer, self.options.open_hands)

    def welcome(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        viewer = SPECTATOR if seat is None else seat
        names = self.names[viewer]
        kinds = [game.seats[s.index].kind if s.kind == "cpu" else s.kind for s in self.seats]
        return {"type": "welcome", "protocol": PROTOCOL, "variant": game.variant.name,
                "title": game.variant.title, "description": game.variant.description,
                "seat": seat, "header": self.header, "hints": self.hints,
                "players": [{"name": name, "kind": kind} for name, kind in zip(names, kinds)],
                "score_label": game.variant.score_label, "open_hands": self.options.open_hands,
                "log": list(self.logs[viewer])}

    def presence(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        out = []
        names = self.names[SPECTATOR]
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
        viewer = SPECTATOR if seat is None else seat
        asked = seat is not None and self.turn is not None and self.waiting() == seat
        fields = table_fields(game.variant, game.state, self._eyes(viewer), self.names[viewer], moves=asked) \
            if table else {"moves": []}
        return {"type": "update", "event": game.events, "turn": self.turn if fields["moves"] else None,
                "events": events, "played": self.played, "round_end": round_end,
                "seats": presence if presence is not None else self.presence(), **fields}

    def broadcast(self, only: Client | None = None) -> None:
        """Send each client (or just ``only``, which has just joined) its update:
        the events since the last update, in its words, and the table as it is now."""
        told = self._tell_events() if only is None else {}
        presence = self.presence()
        for seat in self.seats:
            client = seat.client
            if client is not None and (only is None or client is only):
                lines, summary = told.get(seat.index, ([], None))
                client.send(self.update(seat.index, lines, summary, presence,
                                        table=getattr(client, "tables", True)))
        watching = [s.client for s in self.spectators if only is None or s.client is only]
        if watching:
            lines, summary = told.get(SPECTATOR, ([], None))
            messages: dict[bool, dict[str, Any]] = {}
            for client in watching:
                table = getattr(client, "tables", True)
                if table not in messages:
                    messages[table] = self.update(None, lines, summary, presence, table=table)
                client.send(messages[table])

    def broadcast_presence(self) -> None:
        message = {"type": "seats", "seats": self.presence()}
        for client in self.clients():
            client.send(message)

    def clients(self) -> list[Client]:
        return [s.client for s in self.seats if s.client is not None] + [s.client for s in self.spectators]

    def tell(self, action: Action) -> None:
        """An event about to be applied (called by the driver's hook): kept,
        with the state it applies to, to be told with the next update."""
        game = self.game
        state, variant = game.state, game.variant
        before = state.clone()
        self.pending.append((before, action))
        if state.current_player() >= 0:
            self.played = played_cards(variant, state, action) or self.played
        if round_summary(variant, state, action, game.names) is not None:
            self.round_ends.append((before, action))
            self.played = []

    def _tell_events(self) -> dict[int, tuple[list[str], str | None]]:
        """The events since the last update for every viewer: in its words, as
        ``cardcli play`` tells them (``Variant.describe_events``), and the end of
        a round they finished (``Variant.round_summary``), if any."""
        pending, self.pending = self.pending, []
        ended, self.round_ends = self.round_ends, []
        if not pending:
            return {}
        variant = self.game.variant
        told = {}
        for viewer, log in self.logs.items():
            names = self.names[viewer]
            lines = describe_events(variant, pending, viewer=self._eyes(viewer), names=names)
            log.extend(lines)
            summary = round_summary(variant, *ended[-1], names) if ended else None
            told[viewer] = (lines, summary)
        return told

    def over(self, result: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The game's end for ``seat``: the result, how it ended in words, and the ranking screen."""
        names = self.names[SPECTATOR if seat is None else seat]
        return {"type": "over", "result": result, "headline": over_text(result, names),
                "text": self.end_text(result, seat)}

    def end_text(self, result: dict[str, Any], seat: int | None = None) -> str:
        """The ranking screen, the same as at the end of ``cardcli play``, in ``seat``'s names."""
        game = self.game
        return end_text(game.variant, game.state, result, self.names[SPECTATOR if seat is None else seat])

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
        if self.done is None or self.result is not None:
            return None
        return self.game.waiting_for()

    def submit(self, seat: int, action: Action) -> None:
        """A decision from outside for ``seat``: checked by the rules and applied
        (raises :class:`IllegalMove`, changing nothing), then the game moves on."""
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
        if done is None or done.done():
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
        result = self.game.finish() or {}
        self.result = result
        self.turn = None
        self.broadcast()
        for seat in self.seats:
            if seat.client is not None:
                seat.client.send(self.over(result, seat.index))
        over = self.over(result, None)
        for spectator in self.spectators:
            spectator.client.send(over)
        assert self.done is not None
        self.done.set_result(result)

    def _seat_players(self) -> None:
        """Seat in the driver the players it may run on the loop: quick CPUs
        and quick stand-ins.  Every other seat is external."""
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
            if place.joined:
                self.notice(f"{place.name} is away; the table waits for them (their link brings them back)")
            else:
                self.notice(f"the table waits for {place.name} to join (with their invite link)")
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

        self.answering = asyncio.ensure_future(guarded())

    def _stop_answering(self) -> None:
        task, self.answering = self.answering, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _think(self, seat: int, player: Player) -> None:
        """A CPU's decision, thought out in a worker thread on a copy of the state."""
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
        place.stand_in = make_cpu(game.variant, self.options.stand_in_level,
                                  derive_seed(game.seed or 0, "stand-in"), seat)
        self.notice(f"a CPU ({self.options.stand_in_level}) plays for {place.name} until they come back")
        self.broadcast_presence()
        self._seat_players()
        if self.game.to_move() == seat:
            if quick(place.stand_in):
                self._move_on()  # the driver plays it
            else:
                self._ask(seat)

    async def _stand_in_wanted(self, place: Seat) -> bool:
        away = self.options.away
        if away == "cpu":
            return True
        if away == "ask" and self.ask_host is not None:
            wanted = await self.ask_host(
                f"{place.name} has been away for {int(self.options.away_timeout)} s. "
                "Let a CPU play for them until they come back?")
            if not wanted and place.client is None:
                self.notice(f"the table waits for {place.name} (their link brings them back)")
            return wanted and place.client is None
        self.notice(f"{place.name} has been away for {int(self.options.away_timeout)} s; the table "
                    "keeps waiting for them (--away wait)")
        return False

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
                raise IllegalMove(f"it is not {self.seats[seat].name}'s turn")
            self.submit(seat, action)
        except IllegalMove as problem:
            prompt.client.send(error("illegal", str(problem)))
            if self.waiting() == seat:
                self._ask(seat)  # ask again

    def close(self) -> None:
        self.closed = True
        self._stop_answering()
        for seat in self.seats:
            self._cancel_prompt(seat.index)
        self.game.hooks[:] = [hook for hook in self.game.hooks if not isinstance(hook, _Tell)]
