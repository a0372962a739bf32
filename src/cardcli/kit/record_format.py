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

from .errors import Kind, RecordError, system_words
from .language import N_
from .language import core as _

#: Python's json module's messages for a line that is no JSON, as it words them (English, and the
#: record's report in English keeps them so), marked to be said in the chosen language.
JSON_PROBLEMS = (N_("Expecting value"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
                 N_("Expecting property name enclosed in double quotes"), N_("Extra data"),
                 N_("Unterminated string starting"), N_("Invalid \\uXXXX escape"),
                 N_("Invalid control character"))

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
        return RecordError(_("bad header: {problem}").format(problem=message), source=source, line=line,
                           kind=Kind.HEADER)

    if not isinstance(data, dict):
        raise fail(_("the first line must be a JSON object"))
    if data.get("format") != FORMAT:
        raise fail(_("'format' must be {format!r} (is this a cardcli record?)").format(format=FORMAT))
    if not isinstance(data.get("version"), int) or isinstance(data.get("version"), bool) or (
            data.get("version") != VERSION):
        raise fail(_("unsupported 'version' {version!r} (this cardcli reads version {supported})").format(
            version=data.get("version"), supported=VERSION))
    unknown = sorted(set(data) - _HEADER_KEYS)
    if unknown:
        raise fail(_("unknown key {key!r}").format(key=unknown[0]))
    if not isinstance(data.get("variant"), str):
        raise fail(_("'variant' must name the variant, e.g. \"matching\""))
    if not isinstance(data.get("rules", {}), dict):
        raise fail(_("'rules' must be an object of option values"))
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise fail(_("'players' must be a list of players"))
    seats = []
    for index, player in enumerate(players):
        if isinstance(player, str):
            seats.append(SeatInfo(player))
        elif isinstance(player, dict) and isinstance(player.get("name"), str) and isinstance(
                player.get("kind", "human"), str) and set(player) <= {"name", "kind"}:
            seats.append(SeatInfo(player["name"], player.get("kind", "human")))
        else:
            raise fail(_("player {index} must be a name or {shape}").format(
                index=index, shape='{"name": ..., "kind": ...}'))
        kind = seats[-1].kind
        if kind != "human" and not (kind.startswith("cpu:") and len(kind) > 4):
            raise fail(_("player {index}'s kind must be \"human\" or \"cpu:LEVEL\", not {kind!r}").format(
                index=index, kind=kind))
    dealer = data.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(seats):
        raise fail(_("'dealer' must be a seat number from 0 to {last}").format(last=len(seats) - 1))
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise fail(_("'seed' must be a whole number"))
    ruleset = data.get("ruleset")
    for key in ("ruleset", "created", "cardcli"):
        if key in data and not isinstance(data[key], str):
            raise fail(_("{key!r} must be a string").format(key=key))
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
    raise ValueError(_("'view' must be \"public\" or \"seat N\" (N from 0 to {last}), not {view!r}").format(
        last=seats - 1, view=view))


#: The longest line a record may have, in bytes.  The longest line cardcli
#: writes (a header stating every option, a deal of several decks) is a few
#: kilobytes; the cap keeps a file with no line ends (``/dev/zero``) from
#: filling the memory.
MAX_LINE_BYTES = 1 << 20


def _reject_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a JSON number").format(name=name))


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
        return RecordError(_("{problem}; it is the header, with no line end, as when a write is cut short: "
                             "nothing of the game was recorded, so there is nothing to resume").format(
                                 problem=message), source=source, line=number, kind=Kind.SYNTAX)
    if last:
        return RecordError(_("{problem}; it is the last line and has no line end, as when a write is cut "
                             "short (`cardcli play --resume` drops such a line)").format(problem=message),
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
            raise RecordError(_("cannot read {file}: {error}").format(file=source,
                                                                        error=system_words(error)),
                              source=source, line=number + 1, kind=Kind.IO) from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(_("line too long (more than {limit:,} bytes with no line end); is this a "
                                "cardcli record?").format(limit=MAX_LINE_BYTES), source=source, line=number,
                              kind=Kind.SYNTAX)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _line_error(_("not text (the line is not UTF-8); is this a cardcli record?"), source,
                              number, not raw.endswith(b"\n"), header) from None
        try:
            data = _parse(text)
        except json.JSONDecodeError as error:
            if not text.strip():
                continue
            # json's message may end where its position would go ("Unterminated string starting at").
            problem = error.msg.removesuffix(" at")
            # Translators: {problem} is Python's json module's own message (one of JSON_PROBLEMS, said in
            # the chosen language; another, rare, in English).
            raise _line_error(_("not valid JSON: {problem} at column {column}").format(
                problem=_(problem) if problem in JSON_PROBLEMS else problem, column=error.colno),
                source, number, not raw.endswith(b"\n"), header) from None
        except RecursionError:
            raise _line_error(_("not valid JSON: nested too deeply"), source, number,
                              not raw.endswith(b"\n"), header) from None
        except ValueError as error:  # a number of more than 4,300 digits, NaN, Infinity
            if "digits" in str(error):
                said = _("not valid JSON: a number with too many digits")
            else:
                said = _("not valid JSON: {problem}").format(problem=error)
            raise _line_error(said, source, number, not raw.endswith(b"\n"), header) from None
        if not isinstance(data, dict):
            raise RecordError(_("each line must be a JSON object"), source=source, line=number,
                              kind=Kind.SYNTAX)
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
        raise fail(_("is a folder, not a record")) from None
    except OSError as error:
        raise fail(_("cannot read: {error}").format(error=system_words(error))) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise fail(_("is a folder, not a record"))
        if stat.S_ISFIFO(mode):
            raise fail(_("is {kind}, not a record file (to read from a pipe, give - and send it to standard "
                         "input)").format(kind=file_kind(mode)))
        raise fail(_("is {kind}, not a record file").format(kind=file_kind(mode)))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words: ``a folder``,
    ``a FIFO (named pipe)``, ``a socket`` or ``a device``."""
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a FIFO (named pipe)")
    return _("a socket") if stat.S_ISSOCK(mode) else _("a device")


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
            raise RecordExistsError(_("a file of that name already exists"), source=str(path),
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
