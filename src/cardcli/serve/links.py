"""Invite links: the tokens that are the seats, where they are kept, and the address they name.

A token is 128 random bits (:mod:`secrets`); whoever holds a seat's link plays
that seat, so links are shown only to the host.  Tokens are kept out of the
record (records are shared, validated and attached to bug reports) in a
*table file* beside it, ``GAME.table.json``, readable by its owner only
(0600), written before the first client can connect and again whenever a
link or a seat changes.  It also keeps the evening (the games played at the
table one after another: :mod:`cardcli.serve.evening`).  ``cardcli serve
--resume GAME.jsonl`` reads both, so a server killed mid-game, or between
two games, comes back with the same links.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..kit.errors import CardcliError
from ..kit.language import core as _

#: Bits of randomness in a token.
TOKEN_BYTES = 16
_LATER_GAME = re.compile(r"\.game\d+(-\d+)?$")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def table_file(record: Path) -> Path:
    """``games/x.jsonl`` -> ``games/x.table.json``; an evening's later games
    (``x.game2.jsonl``) share their first game's."""
    name = record.name[:-len(".jsonl")] if record.name.endswith(".jsonl") else record.name
    return record.with_name(_LATER_GAME.sub("", name) + ".table.json")


@dataclass
class TableFile:
    """What a resumed server needs that the record does not hold: who sits
    where (the host's terminal or a friend's device), the tokens, the address."""

    seats: list[str]  # per seat: "host", "friend" or "cpu"
    tokens: dict[str, str]  # "seat N" or "watch" -> token
    host: str
    port: int
    lan: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    #: The evening (version 2): its games, seats and next rules; ``None`` in a
    #: version 1 file, written by a cardcli that served one game.
    evening: dict[str, Any] | None = None

    def save(self, path: Path) -> None:
        """Write atomically, owner-only: a half-written file never replaces a good one."""
        data = {"format": "cardcli-table", "version": 1 if self.evening is None else 2, "seats": self.seats,
                "tokens": self.tokens, "host": self.host, "port": self.port, "lan": self.lan,
                "options": self.options}
        if self.evening is not None:
            data["evening"] = self.evening
        temporary = path.with_name(path.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=1)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: Path) -> TableFile:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CardcliError(_("{path}: not found; it holds the table's links, written beside the "
                                 "record when the table was served (without it, continue the game "
                                 "with cardcli play --resume)").format(path=path)) from None
        except (OSError, ValueError) as error:
            raise CardcliError(_("{path}: cannot read the table's links: {problem}").format(
                path=path, problem=error)) from None
        try:
            if data.get("format") != "cardcli-table":
                raise ValueError(_("not a cardcli table file"))
            if data.get("version", 1) not in (1, 2):
                raise ValueError(_("version {version!r}: written by a newer cardcli").format(
                    version=data.get("version")))
            evening = data.get("evening")
            if evening is not None and not isinstance(evening, dict):
                raise ValueError(_("'evening' is not an object"))
            table = cls(list(data["seats"]), dict(data["tokens"]), str(data["host"]), int(data["port"]),
                        bool(data.get("lan", False)), dict(data.get("options", {})), evening)
            if not all(kind in ("host", "friend", "cpu") for kind in table.seats):
                raise ValueError(_("unknown seat kind"))
            if not all(isinstance(t, str) and t for t in table.tokens.values()):
                raise ValueError(_("bad token"))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise CardcliError(_("{path}: not a table file cardcli can read ({problem})").format(
                path=path, problem=error)) from None
        return table


def lan_address() -> str:
    """This machine's address on the local network, for links a phone can open.

    Asks the system which local address it would use to reach a private
    network address: a UDP socket's ``connect`` sends nothing.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        address = ""
    finally:
        probe.close()
    if address and not address.startswith("127."):
        return address
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidate = str(info[4][0])
            if not candidate.startswith("127."):
                return candidate
    except OSError:
        pass
    raise CardcliError(_("cannot find this machine's address on the local network; "
                         "give it with --host ADDRESS"))


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def seat_link(base: str, token: str) -> str:
    return f"{base}/t/{token}"
