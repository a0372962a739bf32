"""``cardcli export``: a record as one seat saw it, or a spectator."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..kit.errors import Kind, RecordError, system_words
from ..kit.language import core as _
from ..kit.record_format import RecordWriter, open_record
from ..records.export import Exporter
from ..records.reader import read_record
from ..records.saved import find_record
from .common import complete_record, handle_errors, registry


@click.command(help=_("""Write RECORD as one seat saw it (--seat N) or a spectator (--public).

    Every card the viewer did not see becomes "??" (a hand nobody saw, its
    number of cards); the seed is left out, and where a round's score
    counts the cards left in hand, a "shown" line gives the hands the table
    counted.  The export is safe to share and checks with `cardcli validate`
    ("consistent with what the table saw").  RECORD must have every card
    (a record cardcli wrote, a file or a saved game by the name cardcli games
    shows); - reads stdin.  See docs/unseen.md.
    """))
@click.argument("record", metavar="RECORD", shell_complete=complete_record)
@click.option("--seat", type=click.IntRange(min=0), help=_("Write it as this seat saw it: its own "
                                                           "cards known."))
@click.option("--public", "public", is_flag=True, help=_("Write it as a spectator saw it: no hidden card."))
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help=_("Write to this new file (default: stdout)."))
@handle_errors
def export(record: str, seat: int | None, public: bool, output: str | None) -> None:
    """``cardcli export``: its help is the command's ``help``."""
    if (seat is None) == (not public):
        raise click.UsageError(_("say whose view: --seat N or --public (one of them)"))
    lines = _export(record, seat)  # read whole first: a broken record writes nothing
    writer = RecordWriter.create(output) if output else RecordWriter(sys.stdout)
    try:
        for line in lines:
            writer.write(line)
    finally:
        if output:
            writer.close()


def _export(record: str, seat: int | None) -> list[dict[str, Any]]:
    source = "<stdin>" if record == "-" else find_record(record)
    lines: list[dict[str, Any]] = []
    exporter = Exporter(seat, lines.append)
    try:
        if record == "-":
            read_record(sys.stdin.buffer, source, registry(), exporter)
        else:
            with open_record(source) as stream:
                read_record(stream, source, registry(), exporter)
    except OSError as error:
        said = _("cannot read: {error}").format(error=system_words(error))
        raise RecordError(said, source=source, kind=Kind.IO) from None
    return lines
