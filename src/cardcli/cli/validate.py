"""``cardcli validate``: check records move by move against their rules.

Each record is reported the moment it is checked, and nothing that happens
inside one record (a broken file, a pipe that closes, even a bug) keeps the
others from being checked and reported.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import nullcontext
from typing import Any

import click

from ..kit.errors import Kind, RecordError, system_words
from ..kit.fit import tell
from ..kit.language import core as _
from ..kit.language import speaking
from ..kit.record_format import open_record
from ..kit.safe_text import printable
from ..records.reader import internal_error
from ..records.saved import find_record
from ..records.validate import Report, validate_stream
from .common import complete_record, handle_errors, registry

STDIN = "<stdin>"


def check_one(name: str, reg: Any) -> Report:
    """Validate the record ``name`` (``-``: standard input); never raises."""
    source = STDIN if name == "-" else find_record(name)
    try:
        if name == "-":
            if sys.stdin is None:
                raise RecordError(_("cannot read standard input: it is closed"), source=source, kind=Kind.IO)
            return validate_stream(sys.stdin.buffer, source, reg)
        with open_record(source) as stream:
            return validate_stream(stream, source, reg)
    except RecordError as error:
        report = Report(source)
        report.error = error
        return report
    except OSError as error:
        report = Report(source)
        said = _("cannot read: {error}").format(error=system_words(error))
        report.error = RecordError(said, source=source, kind=Kind.IO)
        return report
    except Exception as error:
        if os.environ.get("CARDCLI_DEBUG"):
            raise
        report = Report(source)
        report.error = internal_error(error, source)
        return report


def winner_name(report: Report, seat: int) -> str:
    """The winner as the table called them ("ann", "cpu2"), else by seat."""
    return report.names[seat] if 0 <= seat < len(report.names) else _("seat {seat}").format(seat=seat)


def verdict(report: Report) -> str:
    """``"valid"``, ``"unfinished"`` (legal so far, the game goes on) or ``"invalid"``."""
    if report.valid:
        return "valid"
    return "unfinished" if report.error is not None and report.error.kind == Kind.UNFINISHED else "invalid"


def verdict_words(report: Report) -> str:
    """Which check a valid record passed: every card known, or what the table saw."""
    if report.view is None:
        return _("valid (every card known)")
    if report.view == "public":
        return _("consistent with what the table saw (public view)")
    # A seat's view is written "seat N" in the record.
    return _("consistent with what the table saw (seat {seat}'s view)").format(
        seat=report.view.removeprefix("seat "))


def valid_line(report: Report) -> str:
    """A valid record's report: "g.jsonl: valid (every card known): matching game, 32 moves, cpu2 won"."""
    winner = (report.result or {}).get("winner")
    if winner is None:
        outcome = _("no single winner")
    else:
        # Translators: the end of a valid record's report: "cpu2 won".
        outcome = _("{name} won").format(name=winner_name(report, winner))
    # Translators: a valid record's report: {verdict} is "valid (every card known)" or "consistent
    # with what the table saw (...)", {variant} the variant's name as typed (matching), {outcome} "cpu2 won".
    return _.ngettext("{file}: {verdict}: {variant} game, {count} move, {outcome}",
                      "{file}: {verdict}: {variant} game, {count} moves, {outcome}", report.moves).format(
        file=report.source, verdict=verdict_words(report), variant=report.variant, count=report.moves,
        outcome=outcome)


@click.command(help=_("""Check each RECORD against the rules its header names (- reads stdin).

    A RECORD is a file, or a saved game by the name cardcli games shows.

    Every decision must be legal, every chance outcome possible (a drawn card
    really was in the stock), every penalty applied and the stated result the
    one the rules give.  Each record is reported as soon as it is checked, one
    message per record naming the file, line, move and seat; a bad record never
    stops the others.  Exit 0 when all are valid, 1 otherwise (a game still in
    progress is reported as unfinished, not as valid).

    \b
    --json prints JSON Lines, one object per line: one per RECORD, in order,
      {"file": "a.jsonl", "valid": true, "variant": "matching", "moves": 36,
       "events": 52, "result": {...}}
    with "error": {"kind", "message", "file", "line", "move", "seat"} when it
    is not valid (kind "unfinished" for a game in progress), then a summary:
      {"summary": {"records": 3, "valid": 2, "unfinished": 0, "invalid": 1,
                   "all_valid": false}}
    The full description is in docs/records.md.
    """))
@click.argument("records", nargs=-1, required=True, metavar="RECORD...", shell_complete=complete_record)
@click.option("--json", "as_json", is_flag=True,
              help=_("Print JSON Lines: one object per record as it is checked, then a summary."))
@click.option("--quiet", "-q", is_flag=True, help=_("Print only the problems."))
@handle_errors
def validate(records: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """``cardcli validate``: its help is the command's ``help``.  ``--json`` is an
    interface: its messages stay English whatever the language."""
    with speaking("en") if as_json else nullcontext():
        _validate(records, as_json, quiet)


def _validate(records: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    reg = registry()
    tally = {"records": 0, "valid": 0, "unfinished": 0, "invalid": 0}
    for name in records:
        report = check_one(name, reg)
        tally["records"] += 1
        tally[verdict(report)] += 1
        if as_json:
            click.echo(json.dumps(report.as_dict()))
        elif report.valid:
            if not quiet:
                tell(printable(valid_line(report)))
        else:
            tell(printable(str(report.error), newlines=True), err=True)
    all_valid = tally["valid"] == tally["records"]
    if as_json:
        click.echo(json.dumps({"summary": {**tally, "all_valid": all_valid}}))
    if not all_valid:
        raise SystemExit(1)
