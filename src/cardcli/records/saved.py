"""Saved games: the records ``cardcli play`` leaves in the games folder.

``cardcli games`` lists them, newest first; ``cardcli play --resume`` with no
file (or ``--resume last``) continues the newest that is not finished.  Every
command that reads a record (``play --resume``, ``replay``, ``validate``,
``export``) takes a saved game by the name ``cardcli games`` shows
(:func:`find_record`), as well as a file.  The
list reads each record's header and counts its lines without replaying it,
so a folder of long games lists at once; ``play --resume`` checks the game
in full as always.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..kit.errors import RecordError
from ..kit.record_format import MAX_LINE_BYTES, open_record, parse_header

#: The default record name starts with the time the game started.
_STAMP = re.compile(r"^(\d{8}-\d{6})-")


def games_dir() -> Path:
    """Where records go by default: ``$CARDCLI_GAMES``, else the XDG data folder."""
    if os.environ.get("CARDCLI_GAMES"):
        return Path(os.environ["CARDCLI_GAMES"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardcli" / "games"


def sheets_dir() -> Path:
    """Where ``cardcli scoresheet`` keeps its sheets by default: ``$CARDCLI_SHEETS``,
    else beside the games folder (never in it: ``cardcli games`` lists records)."""
    if os.environ.get("CARDCLI_SHEETS"):
        return Path(os.environ["CARDCLI_SHEETS"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardcli" / "sheets"


def shown_path(path: Path | str) -> str:
    """``path`` as a person reads it: under the home folder, ``~/...`` (a
    shell still takes it as typed)."""
    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/") and text.startswith(home + os.sep):
        return "~" + text[len(home):]
    return text


def now_stamp() -> str:
    """The time now, as a record header's ``created`` (ISO 8601, local time with its offset)."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass
class SavedGame:
    """One record in the games folder, as its lines say (not replayed)."""

    path: Path
    started: float  # seconds since the epoch
    variant: str = "?"
    players: list[str] | None = None
    moves: int = 0
    finished: bool = False
    problem: str = ""  # why the record could not be read, if it could not

    @property
    def state(self) -> str:
        if self.problem:
            return "unreadable"
        return "finished" if self.finished else "unfinished"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"file": str(self.path), "started": _iso(self.started),
                                "variant": self.variant, "players": self.players or [],
                                "moves": self.moves, "finished": self.finished}
        if self.problem:
            data["problem"] = self.problem
        return data


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="seconds")


def read_saved(path: Path) -> SavedGame:
    """What a record in the games folder holds: its header, its moves, whether
    it ends with a result line.  Never raises for a bad record."""
    game = SavedGame(path, _started_from_name(path))
    try:
        with open_record(str(path)) as stream:
            last: dict[str, Any] | None = None
            for number, raw in enumerate(stream, start=1):
                if len(raw) > MAX_LINE_BYTES:
                    raise RecordError("a line is too long", source=str(path), line=number)
                if not raw.strip():
                    continue
                try:
                    data = json.loads(raw)
                except ValueError:
                    if number == 1:
                        raise RecordError("not a cardcli record (its first line is not JSON)",
                                          source=str(path), line=1) from None
                    last = None  # a torn last line: not a result
                    continue
                if number == 1:
                    header = parse_header(data, str(path))
                    game.variant = header.variant
                    game.players = [seat.name if seat.is_human else f"{seat.name} ({seat.kind})"
                                    for seat in header.players]
                    created = header.extra.get("created")
                    if isinstance(created, str):
                        game.started = _parse_time(created, game.started)
                elif isinstance(data, dict) and "move" in data:
                    game.moves += 1
                last = data if isinstance(data, dict) else None
            game.finished = last is not None and "result" in last
    except (RecordError, RecursionError) as error:
        game.problem = str(error)
    except OSError as error:
        game.problem = error.strerror or str(error)
    return game


def _started_from_name(path: Path) -> float:
    """The start time in a default record name, else the file's modification time."""
    found = _STAMP.match(path.name)
    if found:
        try:
            return time.mktime(time.strptime(found.group(1), "%Y%m%d-%H%M%S"))
        except ValueError:
            pass
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _parse_time(text: str, fallback: float) -> float:
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        return fallback


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """Every record in the games folder (``*.jsonl``), newest first."""
    folder = games_dir() if folder is None else folder
    try:
        paths = [p for p in folder.glob("*.jsonl") if p.is_file()]
    except OSError:
        return []
    games = [read_saved(path) for path in paths]
    games.sort(key=lambda g: (g.started, g.path.name), reverse=True)
    return games


def find_record(spec: str) -> str:
    """The record ``spec`` names: a file that exists (or ``-``, standard
    input) as it is; else a saved game's file name as ``cardcli games`` lists
    it (``.jsonl`` optional), in the games folder.  A name that is neither
    is given back unchanged, so that reading it says the file is missing."""
    if spec == "-" or os.path.lexists(spec) or os.sep in spec or (os.altsep and os.altsep in spec):
        return spec
    folder = games_dir()
    for name in (spec, spec + ".jsonl"):
        if (folder / name).is_file():
            return str(folder / name)
    return spec


def record_argument(path: Path | str) -> str:
    """How to name the record ``path`` on a command line, as short as it
    stays exact: a saved game by its name (``20261129-141046-matching-5``),
    else the path (``~/...`` for the home folder), quoted for the shell."""
    path = Path(path)
    try:
        in_folder = path.parent.resolve() == games_dir().resolve() and path.suffix == ".jsonl"
    except OSError:
        in_folder = False
    if in_folder and find_record(path.stem) == str(games_dir() / path.name):
        return shlex.quote(path.stem)
    shown = shown_path(path)
    if shown.startswith("~/"):
        return "~/" + shlex.quote(shown[2:])
    return shlex.quote(shown)


def newest_unfinished(folder: Path | None = None) -> Path | None:
    """The record of the newest game not yet finished, or ``None``."""
    for game in saved_games(folder):
        if game.state == "unfinished":
            return game.path
    return None
