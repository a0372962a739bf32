"""A served table: one game, its seats and their clients, on an asyncio event loop.

The table is the single authority.  It moves the game on through the core
driver's step API: chance at once, a CPU's decision in a worker thread (a
``hard`` CPU thinks for half a second; other tables keep playing meanwhile),
and a decision that comes from outside (a friend's device, the host's
terminal) checked by the rules when it arrives.  Every event is written to
the record before anyone is told of it, then each client is sent what its
seat may see: the event in words and the table as data, both built for that
seat (:mod:`cardcli.serve.protocol`).

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

from ..errors import IllegalMove
from ..game import Game, derive_seed
from ..players import Player, make_cpu
from ..session import end_text
from ..text import printable
from ..variant import CHANCE, TERMINAL, Action
from ..view import SPECTATOR
from .links import new_token
from .protocol import PROTOCOL, BadMessage, error, event_text, table_fields

#: Events kept per viewer for a client that (re)connects.
LOG_KEPT = 30
#: Messages a client may send per second, on average, and in a burst, beside
#: its moves (a move the rules accept is never counted: the game paces them).
#: A client past the limit is disconnected.
RATE, BURST = 10.0, 30


class Client(Protocol):
    """A connection, as the table sees it: the transport lives in :mod:`cardcli.serve.server`."""

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
        self.logs: dict[int, deque[str]] = {viewer: deque(maxlen=LOG_KEPT)
                                            for viewer in [*range(len(self.seats)), SPECTATOR]}
        self.unsent: dict[int, list[str]] = {viewer: [] for viewer in self.logs}
        self.turn: int | None = None  # the event number the current outside decision was asked at
        self.decision: asyncio.Future[Action] | None = None
        self.prompting: Prompting | None = None
        self.limits: dict[int, _Limiter] = {}
        self.result: dict[str, Any] | None = None
        self.closed = False
        self.changed = asyncio.Event()

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
        else:
            place = self.seats[seat]
            old, place.client = place.client, client
            if old is not None:
                self._cancel_prompt(seat)
                old.close("this seat was opened on another device")
            else:
                self.notice(f"{place.name} joined")
            place.away_since = None
            if place.stand_in is not None:
                place.stand_in = None
                self.notice(f"{place.name} is back; the CPU standing in for them stops")
            place.asked_host = False
        client.send(self.welcome(seat))
        self.broadcast(only=client)
        if seat is not None:
            self.broadcast_presence()
            self.changed.set()

    def leave(self, client: Client) -> None:
        for seat in self.seats:
            if seat.client is client:
                seat.client = None
                seat.away_since = time.monotonic()
                self._cancel_prompt(seat.index)
                if not self.closed:
                    self.notice(f"{seat.name} left (the same link gets the seat back)")
                    self.broadcast_presence()
                self.changed.set()
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
        state = self.game.state
        if self.decision is None or state.current_player() != seat:
            raise BadMessage("not-your-turn", f"it is not {self.seats[seat].name}'s turn")
        if message["turn"] != self.turn:
            raise BadMessage("stale", f"that move was for turn {message['turn']}; it is now turn {self.turn}")
        legal = state.legal_actions()
        if message["move"] >= len(legal):
            raise BadMessage("bad-move", f"there are {len(legal)} moves (0 to {len(legal) - 1})")
        self._decide(legal[message["move"]])

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
    def welcome(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        return {"type": "welcome", "protocol": PROTOCOL, "variant": game.variant.name,
                "title": game.variant.title, "seat": seat,
                "players": [{"name": s.name, "kind": s.kind if s.kind != "cpu" else game.seats[s.index].kind}
                            for s in self.seats],
                "score_label": game.variant.score_label, "open_hands": self.options.open_hands,
                "log": self.told(SPECTATOR if seat is None else seat)}

    def told(self, viewer: int) -> list[str]:
        """The recent events ``viewer`` has been sent (those not yet sent come with the next update)."""
        log = list(self.logs[viewer])
        pending = len(self.unsent[viewer])
        return log[:len(log) - pending] if pending else log

    def presence(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        out = []
        for seat in self.seats:
            entry: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
            if seat.kind == "friend":
                entry["connected"] = seat.client is not None
                entry["away"] = 0 if seat.away_since is None else int(now - seat.away_since)
                entry["stand_in"] = seat.stand_in is not None
            out.append(entry)
        return out

    def update(self, viewer: int | None, events: list[str]) -> dict[str, Any]:
        """The table as ``viewer`` (a seat, or ``None`` for a spectator) sees it
        now, after ``events``; on its turn, its moves."""
        game = self.game
        if viewer is None:
            seen = None if self.options.open_hands else SPECTATOR
        else:
            seen = viewer
        fields = table_fields(game.variant, game.state, seen, game.names)
        if viewer is None or self.decision is None:
            fields["moves"] = []
        return {"type": "update", "event": game.events, "turn": self.turn if fields["moves"] else None,
                "events": events, "seats": self.presence(), **fields}

    def broadcast(self, only: Client | None = None) -> None:
        """Send each client (or just ``only``) its update: the events it has not
        been told yet and the table as it is now."""
        for seat in self.seats:
            if seat.client is not None and (only is None or seat.client is only):
                seat.client.send(self.update(seat.index, self.unsent[seat.index] if only is None else []))
        if any(only is None or s.client is only for s in self.spectators):
            message = self.update(None, self.unsent[SPECTATOR] if only is None else [])
            for spectator in self.spectators:
                if only is None or spectator.client is only:
                    spectator.client.send(message)
        if only is None:
            for lines in self.unsent.values():
                lines.clear()

    def broadcast_presence(self) -> None:
        message = {"type": "seats", "seats": self.presence()}
        for client in self.clients():
            client.send(message)

    def clients(self) -> list[Client]:
        return [s.client for s in self.seats if s.client is not None] + [s.client for s in self.spectators]

    # --------------------------------------------------------------- events
    def record(self, action: Action) -> None:
        """Tell every viewer of an event (in its own words), then apply it and
        write it to the record."""
        game = self.game
        state, names = game.state, game.names
        for viewer in self.logs:
            text = event_text(game.variant, state, action, None if (
                viewer == SPECTATOR and self.options.open_hands) else viewer, names)
            self.logs[viewer].append(text)
            self.unsent[viewer].append(text)
        game.apply(action)

    # ------------------------------------------------------------ the game
    async def play(self) -> dict[str, Any]:
        """Move the game on until it is over; return the result."""
        game = self.game
        loop = asyncio.get_running_loop()
        while True:
            state = game.state
            seat = state.current_player()
            if seat == TERMINAL:
                break
            if seat == CHANCE:
                self.record(game.chance())
                continue
            legal = state.legal_actions()
            if seat in self.cpus:
                self.broadcast()
                player = self.cpus[seat]
                action = await loop.run_in_executor(None, player.act, state, seat, legal)
            else:
                action = await self._outside(seat, legal)
            self.record(action)
        result = game.finish() or {}
        self.result = result
        self.decision = None
        self.broadcast()
        over = {"type": "over", "result": result, "text": self.end_text(result)}
        for client in self.clients():
            client.send(over)
        return result

    def end_text(self, result: dict[str, Any]) -> str:
        """The ranking screen, the same as at the end of ``cardcli play``."""
        game = self.game
        return end_text(game.variant, game.state, result, game.names)

    async def _outside(self, seat: int, legal: list[Action]) -> Action:
        """A decision from the host's terminal or a friend (or their stand-in)."""
        game = self.game
        place = self.seats[seat]
        loop = asyncio.get_running_loop()
        self.turn = game.events
        self.decision = loop.create_future()
        try:
            if place.kind == "host":
                self.broadcast()
                assert self.host_turn is not None
                action = await self.host_turn(self, seat, legal)
                self._check(seat, action)
                return action
            self.broadcast()
            while True:
                if place.stand_in is not None:
                    return await loop.run_in_executor(None, place.stand_in.act, game.state, seat, legal)
                client = place.client
                if client is not None and client.prompts and self.dialogue is not None and (
                        self.prompting is None or self.prompting.client is not client):
                    self._cancel_prompt(seat)
                    self.prompting = self.dialogue(self, seat, legal, client)
                self.changed.clear()
                waiter = asyncio.ensure_future(self.changed.wait())
                timeout = None
                if place.client is None and place.away_since is not None and not place.asked_host:
                    timeout = max(0.0, place.away_since + self.options.away_timeout - time.monotonic())
                done, _ = await asyncio.wait({self.decision, waiter}, timeout=timeout,
                                             return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if self.decision.done():
                    return self.decision.result()
                if not done:  # away for too long
                    place.asked_host = True
                    if await self._stand_in_wanted(place):
                        place.stand_in = make_cpu(game.variant, self.options.stand_in_level,
                                                  derive_seed(game.seed or 0, "stand-in"), seat)
                        self.notice(f"a CPU ({self.options.stand_in_level}) plays for {place.name} "
                                    "until they come back")
                        self.broadcast_presence()
        finally:
            self._cancel_prompt(seat)
            self.decision = None
            self.turn = None

    async def _stand_in_wanted(self, place: Seat) -> bool:
        away = self.options.away
        if away == "cpu":
            return True
        if away == "ask" and self.ask_host is not None:
            wanted = await self.ask_host(
                f"{place.name} has been away for {int(self.options.away_timeout)} s. "
                "Let a CPU play for them until they come back?")
            return wanted and place.client is None
        self.notice(f"{place.name} is away; the table waits for them (their link gets the seat back)")
        return False

    def _check(self, seat: int, action: Action) -> None:
        """The rules check of a decision from outside the server (raises IllegalMove)."""
        if self.game.state.current_player() != seat:
            raise IllegalMove(f"it is not seat {seat}'s turn")
        self.game.state.check(action)

    def _decide(self, action: Action) -> None:
        """An outside decision for the current turn (a move message or a finished dialogue)."""
        if self.decision is None or self.decision.done():
            raise BadMessage("not-your-turn", "no decision is awaited")
        seat = self.game.state.current_player()
        try:
            self._check(seat, action)
        except IllegalMove as problem:
            raise BadMessage("illegal", str(problem)) from None
        self.decision.set_result(action)

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
            self._decide(action)
        except BadMessage as problem:
            prompt.client.send(error(problem.code, problem.message))
            self.changed.set()  # ask again

    def close(self) -> None:
        self.closed = True
        for seat in self.seats:
            self._cancel_prompt(seat.index)
