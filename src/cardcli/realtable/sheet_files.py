"""The sheet's file: a header, then every accepted entry in the sheet's words, written as it goes.

JSON Lines like a record, so one torn line never spoils the rest::

    {"format": "cardcli-scoresheet", "version": 1, "variant": "endofpage", "rules": {...},
     "players": ["mom", "me"], "dealer": 1, "created": "2025-01-05T20:14:03+01:00"}
    {"entry": "wild 3H"}
    {"entry": "mom meld 4S 4H 3D=4, hand 7D"}
    {"entry": "undo"}

The file is created new (never over another, owner-only, as records are)
and each entry is flushed the moment it is accepted.  ``--resume`` reads the
header, then applies the entries again through the same rules, so a file
whose entries the rules refuse (edited by hand, or rules changed since) says
which line and why.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.plugins import Registry
from ..engine.rulesets import rules_from_record
from ..kit.errors import CardcliError, RecordError, system_words
from ..kit.language import core as _
from ..kit.record_format import RecordExistsError, RecordWriter, open_record
from ..records.saved import now_stamp, sheets_dir
from .sheet import Sheet, SheetError

FORMAT = "cardcli-scoresheet"
VERSION = 1
#: The longest line a sheet's file may hold (an entry is a line typed at a prompt).
MAX_LINE = 64 * 1024


@dataclass
class SheetFile:
    """Where a sheet is kept, and the writer its entries go to."""

    path: Path
    writer: RecordWriter

    @classmethod
    def create(cls, sheet: Sheet, path: Path | None, ruleset: str | None) -> SheetFile:
        """A new file for ``sheet``, its header written: ``path``, else a new
        name in the sheets folder."""
        if path is not None:
            candidates = iter([path])
        else:
            stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{sheet.variant.name}-sheet"
            candidates = (sheets_dir() / (stem + (f"-{n}" if n > 1 else "") + ".jsonl")
                          for n in itertools.count(1))
        for candidate in candidates:
            try:
                candidate.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                writer = RecordWriter.create(candidate)
            except RecordExistsError:
                if path is not None:
                    raise CardcliError(_("{path} already exists; to go on with the sheet it keeps: cardcli "
                                         "scoresheet --resume {path} (or choose another --save file)").format(
                        path=path)) from None
                continue
            except OSError as error:
                raise CardcliError(_cannot_write(candidate, error)) from None
            header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "variant": sheet.variant.name}
            if ruleset:
                header["ruleset"] = ruleset
            header.update(rules=sheet.rules, players=sheet.names, dealer=sheet.dealer, created=now_stamp(),
                          cardcli=__version__)
            made = cls(candidate, writer)
            made.write(header)
            return made
        raise AssertionError("unreachable")  # pragma: no cover - the default names never run out

    def write(self, data: dict[str, Any]) -> None:
        try:
            self.writer.write(data)
        except OSError as error:
            raise CardcliError(_cannot_write(self.path, error)) from None

    def entry(self, text: str) -> None:
        """Keep an accepted entry (flushed at once)."""
        self.write({"entry": text})

    def close(self) -> None:
        self.writer.close()


def load(path: Path, registry: Registry) -> tuple[Sheet, str | None, list[str]]:
    """The sheet kept in ``path``, its entries applied; its ruleset's name;
    and notes for the person (a torn last line dropped).  :class:`CardcliError`
    says which line is wrong and why."""
    source = str(path)
    notes: list[str] = []
    try:
        with open_record(source) as stream:
            raw = stream.read()
    except RecordError as error:
        raise CardcliError(str(error)) from None
    lines = raw.split(b"\n")
    torn = bool(lines) and bool(lines[-1])  # a last line with no end: an interrupted write
    if lines:
        lines.pop()
    if not lines:
        raise CardcliError(_("{path}: empty: not a cardcli score sheet").format(path=path))
    header = _json(lines[0], source, 1)
    if header.get("format") != FORMAT:
        said = _("{path}: not a cardcli score sheet (a record is continued with cardcli play --resume)") \
            if header.get("format") == "cardcli-record" else _("{path}: not a cardcli score sheet")
        raise CardcliError(said.format(path=path))
    if header.get("version") != VERSION:
        raise CardcliError(_("{path}: a score sheet of version {version}, written by a newer cardcli").format(
            path=path, version=repr(header.get("version"))))
    try:
        variant = registry.get(str(header["variant"]))
        names = [str(name) for name in header["players"]]
        rules = rules_from_record(variant, header["rules"], f"{path}:1", num_players=len(names))
        sheet = Sheet(variant, rules, names, int(header["dealer"]))
    except (KeyError, TypeError, ValueError) as error:
        said = _("{path}:1: not a header cardcli can read ({error})")
        raise CardcliError(said.format(path=path, error=error)) from None
    for number, line in enumerate(lines[1:], start=2):
        data = _json(line, source, number)
        text = data.get("entry")
        if not isinstance(text, str) or set(data) != {"entry"}:
            # Translators: {example} is a line of the file, in JSON: {"entry": "wild 3H"}.
            raise CardcliError(_("{path}:{number}: a line holds one entry: {example}").format(
                path=path, number=number, example='{"entry": "wild 3H"}'))
        try:
            entry = sheet.parse(text)
            if entry is not None:
                sheet.apply(entry)
        except SheetError as error:
            raise CardcliError(_("{path}:{number}: cannot resume: {error}").format(path=path, number=number,
                                                                                  error=error)) from None
    if torn:  # only a file read as a sheet to its end is changed: the next entry on a line of its own
        notes.append(_("{path}: its last line was cut short by an interrupted write: dropped").format(
            path=path))
        with open(path, "rb+") as stream:
            stream.truncate(len(raw) - len(raw.rsplit(b"\n", 1)[-1]))
    return sheet, header.get("ruleset") if isinstance(header.get("ruleset"), str) else None, notes


def _json(line: bytes, source: str, number: int) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise CardcliError(_("{source}:{number}: the line is too long").format(source=source, number=number))
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        said = _("{source}:{number}: not valid JSON")
        raise CardcliError(said.format(source=source, number=number)) from None
    if not isinstance(data, dict):
        raise CardcliError(_("{source}:{number}: each line must be a JSON object").format(source=source,
                                                                                         number=number))
    return data


def reopen(path: Path) -> SheetFile:
    """``path``, kept by :func:`load`, open to take more entries."""
    try:
        return SheetFile(path, RecordWriter.open(str(path), append=True))
    except OSError as error:
        raise CardcliError(_cannot_write(path, error)) from None


def _cannot_write(path: Path, error: OSError) -> str:
    return _("cannot write the sheet {path}: {reason}").format(path=path, reason=system_words(error))
