"""``cardcli serve``: host a table that friends join from a phone's browser or ``cardcli join``."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import CardcliError
from ..game import Game, choose_dealer
from ..players import PlayersError, check_count, check_level, default_count, parse_players
from ..records import SeatInfo
from ..style import Style
from .common import (
    colour_option,
    complete_variant,
    handle_errors,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)
from .play import _new_record, _resume

if TYPE_CHECKING:
    from ..serve.table import TableOptions

DEFAULT_PORT = 8765


def _check_host_input(kinds: list[str]) -> None:
    """The host's seat is played at this terminal: refuse it with standard input closed."""
    if "host" in kinds and sys.stdin is None:
        raise CardcliError("standard input is closed, but you have a seat at this table and type "
                           "your moves here: serve from a terminal, or give --no-seat")


def parse_seats(spec: str | None, variant_name: str, no_seat: bool) -> tuple[list[SeatInfo], list[str]]:
    """``you,friend,friend:ann,cpu:normal`` -> seats and their kinds (host, friend, cpu).

    ``friend`` is a seat a friend takes by link (``friend:NAME`` names it); a
    plain name is the host at this terminal; CPUs as in ``cardcli play``.
    """
    variant = variant_named(variant_name)
    if spec is None:
        count = default_count(variant)
        spec = ",".join((["friend"] if no_seat else ["you", "friend"]) +
                        ["cpu"] * max(0, count - (1 if no_seat else 2)))
    items = [item.strip() for item in spec.split(",")]
    kinds: list[str] = []
    rewritten: list[str] = []
    friends = 0
    for item in items:
        lower = item.lower()
        if lower == "friend" or lower.startswith("friend:"):
            friends += 1
            name = item[len("friend:"):].strip() if ":" in item else ""
            rewritten.append(name or f"friend{friends}")
            kinds.append("friend")
        else:
            rewritten.append(item)
            kinds.append("cpu" if lower == "cpu" or lower.startswith("cpu:") else "host")
    if spec.strip().isdigit():
        seats = parse_players(spec, variant)
        kinds = ["cpu"] * len(seats)
    else:
        seats = parse_players(",".join(rewritten), variant)
    if kinds.count("host") > 1:
        raise PlayersError("--players: one person plays at the serving terminal; the others join by "
                           "link (write friend for each of their seats)")
    if no_seat and "host" in kinds:
        raise PlayersError("--no-seat: the host does not play, so --players names no person "
                           "(friend for each friend's seat, cpu:LEVEL for CPUs)")
    if "friend" not in kinds:
        raise PlayersError("--players names no friend's seat: write friend for each seat a friend "
                           "takes by link (or use cardcli play)")
    return seats, kinds


@click.command()
@click.argument("variant", required=False, shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", metavar="SPEC",
              help="Who plays: friend for a seat a friend takes by link (friend:NAME names it), "
                   "your name for yourself at this terminal, cpu:LEVEL for CPUs. "
                   "Default: you, one friend, and CPUs.")
@ruleset_option()
@click.option("--seed", type=int, help="Seed the shuffles and CPUs.")
@click.option("--lan", is_flag=True,
              help="Share the table with your local network (listen on every interface, links use "
                   "this machine's LAN address). Without it only this machine can connect.")
@click.option("--host", "host", metavar="ADDRESS",
              help="Listen on ADDRESS and use it in the links (default 127.0.0.1; with --lan, "
                   "this machine's LAN address).")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help=f"Port to listen on (default {DEFAULT_PORT}; 0 picks a free one).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record here (default: a new file under the cardcli games folder).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Serve again the game recorded in this file, with the same links.")
@click.option("--no-seat", is_flag=True, help="Only host: the person at this terminal does not play.")
@click.option("--away", type=click.Choice(["ask", "wait", "cpu"]), default="ask", show_default=True,
              help="When a friend whose turn it is stays away past --away-timeout: ask the host, "
                   "keep waiting, or let a CPU play for them until they come back.")
@click.option("--away-timeout", type=click.FloatRange(0), default=60.0, show_default=True,
              metavar="SECONDS", help="How long the table waits for an absent friend before --away applies.")
@click.option("--stand-in", default="normal", show_default=True, metavar="LEVEL",
              help="The strength of the CPU that plays for an absent friend.")
@click.option("--open-hands", is_flag=True, help="Spectators (the watch link) see every hand.")
@click.option("--no-qr", is_flag=True,
              help="Print the links without QR codes. (The codes are black on white in colour; "
                   "without colour they suit a dark terminal: on a light one, use --color.)")
@colour_option
@handle_errors
def serve(variant: str | None, players_spec: str | None, ruleset: str | None, seed: int | None, lan: bool,
          host: str | None, port: int | None, record_path: Path | None, resume_path: Path | None,
          no_seat: bool, away: str, away_timeout: float, stand_in: str, open_hands: bool,
          no_qr: bool, colour: bool | None) -> None:
    """Host a table of VARIANT that friends join from a phone's browser or cardcli join.

    \b
    cardcli serve matching --players you,friend,cpu:normal
    cardcli serve matching --players you,friend:ann,friend:bob --lan
    cardcli serve trick --no-seat --players friend,friend,cpu:hard
    cardcli serve --resume ~/.local/share/cardcli/games/....jsonl

    Each friend's seat gets an invite link (and a QR code to scan); a watch link
    lets others follow the public table. By default only this machine can
    connect (127.0.0.1): --lan shares the table with your local network, and
    anyone on it who has a link can take that seat. A friend who closes the
    page or loses Wi-Fi gets the seat back with the same link. Every move is
    written to the record as it happens: stop the server at any time and
    continue with --resume (the same links work again).
    """
    from ..serve.links import TableFile, lan_address, table_file
    from ..serve.table import TableOptions

    if resume_path is not None:
        if variant or ruleset or players_spec or record_path or seed is not None or no_seat:
            raise click.UsageError("--resume takes the game as recorded: give no game options "
                                   "(--host, --port and the --away options may be given)")
        saved = TableFile.load(table_file(resume_path))
        resumed = _resume(resume_path)
        if resumed is None:  # the game was over; its missing result line is now written
            return
        game = resumed
        kinds = saved.seats
        _check_host_input(kinds)
        tokens = saved.tokens
        if len(kinds) != len(game.seats):
            raise CardcliError(f"{table_file(resume_path)} is for {len(kinds)} seats, the record has "
                               f"{len(game.seats)}")
        lan = lan or saved.lan
        host = host or saved.host
        port = saved.port if port is None else port
        open_hands = open_hands or bool(saved.options.get("open_hands"))
        path = resume_path
    else:
        if variant is None:
            raise click.UsageError("name a VARIANT (see: cardcli variants), or give --resume FILE")
        target = variant_named(variant)
        seats, kinds = parse_seats(players_spec, variant, no_seat)
        chosen = resolve_ruleset(target, ruleset, len(seats))
        check_count(seats, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        _check_host_input(kinds)
        # Owner-only, never over another file: the table file beside it holds the links.
        path, writer = _new_record(record_path, target.name, seed, command="serve")
        game = Game(target, chosen.options, seats, choose_dealer(seed, len(seats)), seed=seed,
                    ruleset=None if ruleset is None else chosen.name, writer=writer)
        tokens = {}
        port = DEFAULT_PORT if port is None else port
    check_level(game.variant, stand_in)
    listen = host or ("0.0.0.0" if lan else "127.0.0.1")
    shown = host or (lan_address() if lan else "127.0.0.1")
    interactive = bool(sys.stdin and sys.stdin.isatty())
    options = TableOptions(away_timeout=away_timeout, away=away if (away != "ask" or interactive) else "wait",
                           stand_in_level=stand_in, open_hands=open_hands)
    try:
        asyncio.run(_serve(game, kinds, tokens, options, listen, shown, port, lan, path, no_qr,
                           Style.for_stream(colour)))
    except (KeyboardInterrupt, click.Abort):  # Ctrl-C, or the end of the host's input
        click.echo(f"\nTable saved. Serve it again with the same links: cardcli serve --resume {path}",
                   err=True)
        raise SystemExit(130) from None
    finally:
        if game.writer is not None:
            game.writer.close()


async def _serve(game: Game, kinds: list[str], tokens: dict[str, str], options: TableOptions, listen: str,
                 shown: str, port: int, lan: bool, path: Path, no_qr: bool, style: Style) -> None:
    from ..serve.console import HostConsole, HostUI, remote_dialogue
    from ..serve.links import TableFile, base_url, seat_link, table_file
    from ..serve.qr import terminal_lines
    from ..serve.server import TableServer
    from ..serve.table import Table

    console = HostConsole(HostUI(style=style))
    table = Table(game, kinds, tokens=tokens, options=options, host_turn=console.turn,
                  ask_host=console.question, notice=console.notice,
                  dialogue=remote_dialogue)
    server = TableServer()
    server.add(table)
    try:
        actual = await server.start(listen, port)
    except OSError as error:
        raise CardcliError(f"cannot listen on {listen}:{port}: {error.strerror or error} "
                           "(another program may use the port: choose one with --port)") from None
    TableFile(kinds, table.tokens(), shown, actual, lan, {"open_hands": options.open_hands}).save(
        table_file(path))
    base = base_url(shown, actual)
    who = ", ".join(f"{s.name} ({s.kind})" for s in table.seats)
    click.echo(f"{game.variant.title} - {who}")
    click.echo(f"Seed {game.seed}. Recording to {path}")
    if lan:
        click.echo(f"Shared with your local network on {base} (anyone on it with a link can take that seat).")
    else:
        click.echo(f"Only this machine can connect ({base}); to let phones on your Wi-Fi join, serve "
                   "with --lan.")
    for seat in table.seats:
        if seat.kind == "friend":
            link = seat_link(base, seat.token)
            click.echo(f"\nInvite for {seat.name}: {link}")
            if not no_qr:
                for line in terminal_lines(link, colour=style.colour):
                    click.echo("  " + line)
    click.echo(f"\nWatch link (the public table, no hands): {seat_link(base, table.watch_token)}")
    host = next((seat.index for seat in table.seats if seat.kind == "host"), None)
    if host is not None:
        table.seats[host].client = console
    else:
        table.join(console, None)  # only hosting: the host follows the public table
    waiting = [s.name for s in table.seats if s.kind == "friend"]
    click.echo(f"\nThe game starts now; it waits for {', '.join(waiting)} when it is their turn.")
    try:
        result = await table.play()
    finally:
        table.close()
        await asyncio.sleep(0.2)  # let the last messages go out
        await server.stop()
    console.ui.show("")
    console.ui.show(table.end_text(result, host))
    click.echo(f"\nRecord: {path}")
