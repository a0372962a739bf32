"""Game records: JSON Lines, one header then one line per event.

This module knows the file format only (reading, writing, the header's
shape); what an event means is the variant's business, and reading a record
through the rules is :mod:`cardcli.records.reader`'s (validate, replay and resume are
its visitors).  Lines are read one at a time, so a record's length never
decides how much of the file is held.

See ``docs/records.md`` for the format and ``records/schema/record.schema.json``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .errors import Kind, RecordError

FORMAT = "cardcli-record"
VERSION = 1


@dataclass
class SeatInfo:
    """Who sits in a seat: a name and ``human`` or ``cpu:LEVEL``."""

    name: str
    kind: str = "human"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def cpu_level(self) -> str | None:
        return self.kind.split(":", 1)[1] if self.kind.startswith("cpu:") else None

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}


@dataclass
class Header:
    variant: str
    rules: dict[str, Any]
    players: list[SeatInfo]
    dealer: int
    seed: int | None = None
    ruleset: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Whose view a record of a real table is written from: ``"public"`` or
    #: ``"seat N"`` (such a record may write the cards its writer did not see
    #: as ``"??"``); ``None`` when every card is written.
    view: str | None = None

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "variant": self.variant}
        if self.ruleset:
            data["ruleset"] = self.ruleset
        data["rules"] = self.rules
        data["players"] = [p.as_dict() for p in self.players]
        data["dealer"] = self.dealer
        if self.seed is not None:
            data["seed"] = self.seed
        if self.view is not None:
            data["view"] = self.view
        data.update(self.extra)
        return data


_HEADER_KEYS = {"format", "version", "variant", "ruleset", "rules", "players", "dealer", "seed",
                "created", "cardcli", "view"}


def parse_header(data: Any, source: str, line: int = 1) -> Header:
    """Check a header line's shape (the rules themselves are checked by the caller)."""

    def fail(message: str) -> RecordError:
        return RecordError(f"bad header: {message}", source=source, line=line, kind=Kind.HEADER)

    if not isinstance(data, dict):
        raise fail("the first line must be a JSON object")
    if data.get("format") != FORMAT:
        raise fail(f"'format' must be {FORMAT!r} (is this a cardcli record?)")
    if not isinstance(data.get("version"), int) or isinstance(data.get("version"), bool) or (
            data.get("version") != VERSION):
        raise fail(f"unsupported 'version' {data.get('version')!r} (this cardcli reads version {VERSION})")
    unknown = sorted(set(data) - _HEADER_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}")
    if not isinstance(data.get("variant"), str):
        raise fail("'variant' must name the variant, e.g. \"matching\"")
    if not isinstance(data.get("rules", {}), dict):
        raise fail("'rules' must be an object of option values")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise fail("'players' must be a list of players")
    seats = []
    for index, player in enumerate(players):
        if isinstance(player, str):
            seats.append(SeatInfo(player))
        elif isinstance(player, dict) and isinstance(player.get("name"), str) and isinstance(
                player.get("kind", "human"), str) and set(player) <= {"name", "kind"}:
            seats.append(SeatInfo(player["name"], player.get("kind", "human")))
        else:
            raise fail(f"player {index} must be a name or {{\"name\": ..., \"kind\": ...}}")
        kind = seats[-1].kind
        if kind != "human" and not (kind.startswith("cpu:") and len(kind) > 4):
            raise fail(f"player {index}'s kind must be \"human\" or \"cpu:LEVEL\", not {kind!r}")
    dealer = data.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(seats):
        raise fail(f"'dealer' must be a seat number from 0 to {len(seats) - 1}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise fail("'seed' must be a whole number")
    ruleset = data.get("ruleset")
    for key in ("ruleset", "created", "cardcli"):
        if key in data and not isinstance(data[key], str):
            raise fail(f"{key!r} must be a string")
    view = data.get("view")
    if view is not None:
        try:
            view_seat(view, len(seats))
        except ValueError as error:
            raise fail(str(error)) from None
    extra = {k: data[k] for k in ("created", "cardcli") if k in data}
    return Header(variant=data["variant"], rules=data.get("rules", {}), players=seats, dealer=dealer,
                  seed=seed, ruleset=ruleset if isinstance(ruleset, str) else None, extra=extra, view=view)


def view_seat(view: Any, seats: int) -> int | None:
    """A header's ``view``: ``"public"`` (``None``: no seat's) or ``"seat N"`` (``N``)."""
    if view == "public":
        return None
    number = view[5:] if isinstance(view, str) and view.startswith("seat ") else ""
    if number.isascii() and number.isdigit() and number == str(int(number)) and int(number) < seats:
        return int(number)
    raise ValueError(f"'view' must be \"public\" or \"seat N\" (N from 0 to {seats - 1}), not {view!r}")


#: The longest line a record may have, in bytes.  The longest line cardcli
#: writes (a header stating every option, a deal of several decks) is a few
#: kilobytes; the cap keeps a file with no line ends (``/dev/zero``) from
#: filling the memory.
MAX_LINE_BYTES = 1 << 20


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: One decoder for every line: ``json.loads`` with an option builds a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_scan_once = _DECODER.scan_once  # type: ignore[attr-defined]


def _parse(text: str) -> Any:
    """A line's JSON value.  A line as cardcli writes it (an object, then the
    line end) goes straight to the scanner; anything else, and any error,
    through ``json.loads``'s own path, which gives the messages."""
    if text[:1] == "{":
        try:
            data, end = _scan_once(text, 0)
        except (StopIteration, ValueError, RecursionError):
            pass
        else:
            if end == len(text) or (end == len(text) - 1 and text[end] == "\n"):
                return data
    if text.startswith("\ufeff"):  # json.loads refuses a byte order mark with its own message
        return json.loads(text, parse_constant=_reject_constant)
    return _DECODER.decode(text)


def _line_error(message: str, source: str, number: int, last: bool, header: bool = False) -> RecordError:
    if last and header:  # a torn header: nothing to drop and go on from
        return RecordError(f"{message}; it is the header, with no line end, as when a write is cut "
                           "short: nothing of the game was recorded, so there is nothing to resume",
                           source=source, line=number, kind=Kind.SYNTAX)
    if last:
        return RecordError(f"{message}; it is the last line and has no line end, as when a "
                           "write is cut short (`cardcli play --resume` drops such a line)",
                           source=source, line=number, kind=Kind.TORN_LINE)
    return RecordError(message, source=source, line=number, kind=Kind.SYNTAX)


def read_lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-blank line, streaming.

    Raises :class:`RecordError` at the first line that is not UTF-8 text, not
    a JSON object, or longer than :data:`MAX_LINE_BYTES`.  A last line with no
    line end that does not parse is reported with ``kind=Kind.TORN_LINE``: it is
    what a write cut short leaves behind (``play --resume`` drops it), unless
    it is the header, which leaves nothing to resume.
    """
    number = 0
    header = True  # until the first object: a torn line there is the header
    readline = stream.readline
    while True:
        try:
            raw = readline(MAX_LINE_BYTES + 1)
        except OSError as error:  # a device that fails (an unreadable file, /proc/self/mem)
            raise RecordError(f"cannot read {source}: {error.strerror or error}", source=source,
                              line=number + 1, kind=Kind.IO) from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(f"line too long (more than {MAX_LINE_BYTES:,} bytes with no line end); "
                              "is this a cardcli record?", source=source, line=number, kind=Kind.SYNTAX)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _line_error("not text (the line is not UTF-8); is this a cardcli record?", source, number,
                              not raw.endswith(b"\n"), header) from None
        try:
            data = _parse(text)
        except json.JSONDecodeError as error:
            if not text.strip():
                continue
            # json's message may end where its position would go ("Unterminated string starting at").
            raise _line_error(f"not valid JSON: {error.msg.removesuffix(' at')} at column {error.colno}",
                              source, number, not raw.endswith(b"\n"), header) from None
        except RecursionError:
            raise _line_error("not valid JSON: nested too deeply", source, number,
                              not raw.endswith(b"\n"), header) from None
        except ValueError as error:  # a number of more than 4,300 digits, NaN, Infinity
            what = ("a number with too many digits" if "digits" in str(error) else str(error))
            raise _line_error(f"not valid JSON: {what}", source, number, not raw.endswith(b"\n"),
                              header) from None
        if not isinstance(data, dict):
            raise RecordError("each line must be a JSON object", source=source, line=number, kind=Kind.SYNTAX)
        header = False
        yield number, data


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(", ", ": "), ensure_ascii=False)


def open_record(path: str) -> IO[bytes]:
    """Open the record file ``path`` for reading, refusing anything but a file.

    A FIFO would block until someone writes to it and a device may never end,
    so both are refused with a message (a pipe is read as ``-``, standard
    input).  Raises :class:`RecordError` (``kind=Kind.IO``).
    """
    def fail(message: str) -> RecordError:
        return RecordError(message, source=path, kind=Kind.IO)

    try:
        # Non-blocking, so that opening a FIFO with no writer returns at once.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise fail("is a folder, not a record") from None
    except OSError as error:
        raise fail(f"cannot read: {error.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise fail("is a folder, not a record")
        if stat.S_ISFIFO(mode):
            raise fail(f"is {file_kind(mode)}, not a record file (to read from a pipe, give - "
                       "and send it to standard input)")
        raise fail(f"is {file_kind(mode)}, not a record file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words: ``a folder``,
    ``a FIFO (named pipe)``, ``a socket`` or ``a device``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    return "a socket" if stat.S_ISSOCK(mode) else "a device"


class RecordExistsError(RecordError):
    """A new record would overwrite an existing file."""


class RecordWriter:
    """Writes a record line by line, flushing each, so a closed terminal loses nothing."""

    def __init__(self, stream: IO[str]):
        self.stream = stream

    @classmethod
    def create(cls, path: str | os.PathLike[str]) -> RecordWriter:
        """A new record file, readable by its owner only (it holds every hand
        and the seed).  Never overwrites a file and never follows a symbolic
        link: raises :class:`RecordExistsError` if anything is at ``path``."""
        flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0))
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:
            raise RecordExistsError("a file of that name already exists", source=str(path),
                                    kind=Kind.IO) from None
        return cls(os.fdopen(fd, "w", encoding="utf-8"))

    @classmethod
    def open(cls, path: str, *, append: bool = False) -> RecordWriter:
        return cls(open(path, "a" if append else "w", encoding="utf-8"))

    def write(self, data: dict[str, Any]) -> None:
        self.stream.write(dumps(data) + "\n")
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()
