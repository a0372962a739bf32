"""The messages between a table's server and its clients: JSON objects, one per WebSocket text frame.

Documented for client authors in ``docs/protocol.md``; this module is the one
place they are built and read.  Everything a seat is sent comes from
:func:`cardcli.words.view.table_view`, :func:`cardcli.words.view.move_view` and
:meth:`Variant.describe` for that seat, never from the state itself, which is
what ``VariantConformance.test_seat_messages_are_private`` checks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..contract.variant import Action, State, Variant
from ..contract.views import SPECTATOR
from ..kit.language import core as _
from ..words.narration import event_line
from ..words.view import moves_for, table_view

#: Bumped when a message changes in a way an existing client would misread.
#: 2: the table stays open after a game (``evening``, ``again``, ``leave``),
#: names are chosen at the door (``name``, ``players``).
PROTOCOL = 2
#: The largest frame a client may send; larger ones close the connection.
MAX_FRAME = 4096
#: The longest answer to a prompt, in characters.
MAX_ANSWER = 200


class BadMessage(Exception):
    """A client message that breaks the protocol: ``code`` and a sentence for the client."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: dict[str, Any]) -> str:
    return _ENCODER.encode(message)


def event_text(variant: Variant, state: State, action: Action, viewer: int | None,
               names: Sequence[str]) -> str:
    """An event as ``viewer`` is told it, before it is applied: "cpu2 played 7H on 9S"."""
    return event_line(variant, state, action, viewer, names)


def table_fields(variant: Variant, state: State, viewer: int | None, names: Sequence[str],
                 moves: bool | None = None) -> dict[str, Any]:
    """The ``table`` and ``moves`` of an update for ``viewer``: its view of the
    table and, on its turn (or when ``moves`` says so), its legal moves in the
    order a ``move`` names them."""
    view = table_view(variant, state, viewer, names)
    if moves is None:
        moves = viewer is not None and viewer >= 0 and state.current_player() == viewer
    offered: list[dict[str, Any]] = []
    if moves and viewer is not None:
        offered = [move.as_dict() for move in moves_for(variant, state, viewer, state.legal_actions(), names)]
    return {"table": view.as_dict(), "moves": offered}


def viewer_of(seat: int | None, open_hands: bool = False) -> int | None:
    """The viewer a client's messages are built for: its seat, or the public
    table for a spectator (everything when the host opens the hands)."""
    if seat is not None:
        return seat
    return None if open_hands else SPECTATOR


# ------------------------------------------------------------ client messages
_FIELDS = {
    "hello": {"type", "protocol", "token", "prompts"},
    "move": {"type", "turn", "move"},
    "answer": {"type", "prompt", "text"},
    "ping": {"type"},
    "name": {"type", "name"},
    "again": {"type"},
    "leave": {"type"},
}


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadMessage("bad-message", _("{kind!r} needs {key!r}: a whole number, 0 or more").format(
            kind=data["type"], key=key))
    return value


def parse_client(text: str | bytes) -> dict[str, Any]:
    """A client's frame as a checked message.  Raises :class:`BadMessage` saying why not."""
    if isinstance(text, bytes):
        raise BadMessage("bad-message", _("send JSON text frames, not binary ones"))
    if len(text) > MAX_FRAME:
        raise BadMessage("too-big", _("a message may be at most {count} characters").format(count=MAX_FRAME))
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad-json", _("not valid JSON")) from None
    if not isinstance(data, dict):
        raise BadMessage("bad-message", _("a message must be a JSON object with a \"type\""))
    kind = data.get("type")
    if kind not in _FIELDS:
        raise BadMessage("unknown-type", _("unknown message type {kind!r} (known: {known})").format(
            kind=kind, known=", ".join(sorted(_FIELDS))))
    extra = sorted(set(data) - _FIELDS[kind])
    if extra:
        raise BadMessage("bad-message", _("unknown field {field!r} in a {kind!r} message").format(
            field=extra[0], kind=kind))
    if kind == "hello":
        if data.get("protocol") != PROTOCOL:
            said = _("this table speaks protocol {protocol}, the client {theirs!r}")
            raise BadMessage("protocol", said.format(protocol=PROTOCOL, theirs=data.get("protocol")))
        if not isinstance(data.get("token"), str) or not 0 < len(data["token"]) <= 100:
            raise BadMessage("bad-message", _("'hello' needs the 'token' from the invite link"))
        if not isinstance(data.get("prompts", False), bool):
            raise BadMessage("bad-message", _("'prompts' must be true or false"))
    elif kind == "move":
        _int(data, "turn")
        _int(data, "move")
    elif kind == "answer":
        _int(data, "prompt")
        if not isinstance(data.get("text"), str) or len(data["text"]) > MAX_ANSWER:
            raise BadMessage("bad-message", _("'answer' needs 'text': at most {count} characters").format(
                count=MAX_ANSWER))
    elif kind == "name" and (not isinstance(data.get("name"), str) or len(data["name"]) > MAX_ANSWER):
        raise BadMessage("bad-message", _("'name' needs 'name': at most {count} characters").format(
            count=MAX_ANSWER))
    return data


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
