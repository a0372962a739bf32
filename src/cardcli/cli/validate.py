"""``cardcli validate``: check records move by move against their rules."""

from __future__ import annotations

import json
import sys

import click

from ..errors import RecordError
from ..validate import Report, validate_stream
from .common import handle_errors, registry


@click.command()
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems.")
@handle_errors
def validate(records: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Check each RECORD against the rules its header names (- reads stdin).

    Every decision must be legal, every chance outcome possible (a drawn card
    really was in the stock), every penalty applied and the stated result the
    one the rules give.  Exit 0 when all are valid, 1 otherwise, with one
    message per bad record naming the file, line, move and seat.
    """
    reg = registry()
    reports: list[Report] = []
    for name in records:
        if name == "-":
            reports.append(validate_stream(sys.stdin.buffer, "<stdin>", reg))
            continue
        try:
            with open(name, "rb") as stream:
                reports.append(validate_stream(stream, name, reg))
        except IsADirectoryError:
            report = Report(name)
            report.error = RecordError("is a folder, not a record", source=name, kind="io")
            reports.append(report)
        except OSError as error:
            report = Report(name)
            report.error = RecordError(f"cannot read: {error.strerror}", source=name, kind="io")
            reports.append(report)
    bad = [r for r in reports if not r.valid]
    if as_json:
        click.echo(json.dumps({"valid": not bad, "records": [r.as_dict() for r in reports]}, indent=2))
    else:
        for report in reports:
            if report.valid:
                if not quiet:
                    winner = (report.result or {}).get("winner")
                    outcome = "no single winner" if winner is None else f"seat {winner} won"
                    click.echo(f"{report.source}: valid {report.variant} game, {report.moves} moves, "
                               f"{outcome}")
            else:
                click.echo(str(report.error), err=True)
    if bad:
        raise SystemExit(1)
