"""``cardcli serve``: host a table that friends join from a phone's browser or ``cardcli join``."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..cpu.players import PlayersError, check_count, check_level, default_count, parse_players
from ..engine.game import Game, choose_dealer
from ..engine.rulesets import rules_from_record
from ..kit.errors import CardcliError, system_words
from ..kit.fit import command_text, path_text, tell, terminal_width, visible_width
from ..kit.grammar import listed, spoken_name
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.record_format import SeatInfo
from ..kit.safe_text import printable
from ..records.saved import find_record, now_stamp, record_argument, shown_path
from ..terminal.style import Style
from .common import (
    colour_option,
    complete_record,
    complete_variant,
    handle_errors,
    registry,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)
from .record_files import load_record, new_record, resume_record

if TYPE_CHECKING:
    from ..serve.evening import Evening
    from ..serve.links import TableFile
    from ..serve.table import Seat, TableOptions

DEFAULT_PORT = 8765
#: How each seat is shown in the first line: its name and its kind.
_KINDS = {"host": N_("{name} (host)"), "friend": N_("{name} (friend)"), "cpu": N_("{name} (cpu)")}


def _check_host_input(kinds: list[str]) -> None:
    """The host's seat is played at this terminal: refuse it with standard input closed."""
    if "host" in kinds and sys.stdin is None:
        raise CardcliError(_("standard input is closed, but you have a seat at this table and type "
                             "your moves here: serve from a terminal, or give --no-seat"))


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
        raise PlayersError(_("--players: one person plays at the serving terminal; the others join by "
                             "link (write friend for each of their seats)"))
    if no_seat and "host" in kinds:
        raise PlayersError(_("--no-seat: the host does not play, so --players names no person "
                             "(friend for each friend's seat, cpu:LEVEL for CPUs)"))
    if "friend" not in kinds:
        raise PlayersError(_("--players names no friend's seat: write friend for each seat a friend "
                             "takes by link (or use cardcli play)"))
    from ..serve.protocol import BadMessage
    from ..serve.table import Seat, check_name

    for index, (info, kind) in enumerate(zip(seats, kinds)):
        if kind == "friend":  # as at the door: never "host", never a card, one of a kind
            others = [Seat(i, other.name, "cpu") for i, other in enumerate(seats) if i != index]
            try:
                check_name(info.name, others, index)
            except BadMessage as problem:
                raise PlayersError(_("--players: friend:{name}: {problem}").format(
                    name=info.name, problem=problem.message)) from None
    return seats, kinds


@click.command(help=_("""Host a table of VARIANT that friends join from a phone's browser or cardcli join.

    \b
    cardcli serve matching --players you,friend,cpu:normal
    cardcli serve matching --players you,friend:ann,friend:bob --lan
    cardcli serve trick --no-seat --players friend,friend,cpu:hard
    cardcli serve --resume ~/.local/share/cardcli/games/....jsonl

    Each friend's seat gets an invite link (and a QR code to scan); a watch link
    lets others follow the public table. By default only this machine can
    connect (127.0.0.1): --lan shares the table with your local network, and
    anyone on it who has a link can take that seat. A friend who closes the
    page or loses Wi-Fi gets the seat back with the same link.

    When a game ends the table stays open: play again with the same links (the
    dealer moves on, a tally keeps the evening's wins), and between games
    change the seats, the CPUs or the house rules (type help). Every move is
    written to the record as it happens, each game to its own: stop the server
    at any time and continue the evening with --resume (the same links work
    again).
    """))
@click.argument("variant", required=False, shell_complete=complete_variant)
@click.option("--players", "-p", "players_spec", metavar="SPEC",
              help=_("Who plays: friend for a seat a friend takes by link (friend:NAME names it), "
                   "your name for yourself at this terminal, cpu:LEVEL for CPUs. "
                   "Default: you, one friend, and CPUs."))
@ruleset_option()
@click.option("--seed", type=int, help=_("Seed the shuffles and CPUs."))
@click.option("--lan", is_flag=True,
              help=_("Share the table with your local network (listen on every interface, links use "
                   "this machine's LAN address). Without it only this machine can connect."))
@click.option("--host", "host", metavar="ADDRESS",
              help=_("Listen on ADDRESS and use it in the links (default 127.0.0.1; with --lan, "
                   "this machine's LAN address)."))
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help=_("Port to listen on (default {port}; 0 picks a free one).").format(port=DEFAULT_PORT))
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help=_("Write the first game's record here (default: a new file under the cardcli games "
                   "folder); the next games' go beside it (NAME.game2.jsonl, ...)."))
@click.option("--resume", "resume_spec", metavar="GAME", shell_complete=complete_record,
              help=_("Serve again the evening of GAME (a record file, or a saved game's name as cardcli "
                     "games lists it; in a game or between two), with the same links."))
@click.option("--no-seat", is_flag=True, help=_("Only host: the person at this terminal does not play."))
@click.option("--again", type=click.Choice(["host", "all"]), default=None,
              help=_("Who starts each next game: the host (Enter at this terminal; the default) or all "
                   "(when every person at the table has said play again; the default when this "
                   "terminal cannot be typed at)."))
@click.option("--away", type=click.Choice(["ask", "wait", "cpu"]), default="ask", show_default=True,
              help=_("When a friend whose turn it is stays away past --away-timeout: ask the host, "
                   "keep waiting, or let a CPU play for them until they come back."))
@click.option("--away-timeout", type=click.FloatRange(0), default=60.0, show_default=True,
              metavar="SECONDS", help=_("How long the table waits for an absent friend before "
                                        "--away applies."))
@click.option("--stand-in", default="normal", show_default=True, metavar="LEVEL",
              help=_("The strength of the CPU that plays for an absent friend (or in a seat a friend left)."))
@click.option("--open-hands", is_flag=True, help=_("Spectators (the watch link) see every hand."))
@click.option("--no-qr", is_flag=True,
              help=_("Print the links without QR codes. (The codes are black on white in colour; "
                   "without colour they suit a dark terminal: on a light one, use --color.)"))
@click.option("--page-language", type=click.Choice(["host", "phone"]), default="host", show_default=True,
              help=_("The language of the page a phone opens: host (this terminal's) or phone (the one "
                     "its browser asks for first among those cardcli speaks, else this terminal's; what "
                     "the table tells that phone is in it too)."))
@colour_option
@handle_errors
def serve(variant: str | None, players_spec: str | None, ruleset: str | None, seed: int | None, lan: bool,
          host: str | None, port: int | None, record_path: Path | None, resume_spec: str | None,
          no_seat: bool, again: str | None, away: str, away_timeout: float, stand_in: str, open_hands: bool,
          no_qr: bool, page_language: str, colour: bool | None) -> None:
    """``cardcli serve``: its help is the command's ``help``."""
    from ..serve.evening import Evening, first_record
    from ..serve.links import TableFile, lan_address, table_file
    from ..serve.table import TableOptions, seats_for

    interactive = bool(sys.stdin and sys.stdin.isatty())
    if resume_spec is not None:
        if variant or ruleset or players_spec or record_path or seed is not None or no_seat:
            raise click.UsageError(_("--resume takes the evening as recorded: give no game options "
                                     "(--host, --port, --again, --page-language and the --away options "
                                     "may be given)"))
        first = first_record(Path(find_record(resume_spec)))
        saved = TableFile.load(table_file(first))
        evening, seats, game = _open_evening(saved, first)
        _check_host_input([seat.kind for seat in seats])
        tokens = saved.tokens
        lan = lan or saved.lan
        host = host or saved.host
        port = saved.port if port is None else port
        open_hands = open_hands or bool(saved.options.get("open_hands"))
        if again is not None:
            evening.again = evening.chosen = again
    else:
        if variant is None:
            raise click.UsageError(_("name a VARIANT (see: cardcli variants), or give --resume FILE"))
        target = variant_named(variant)
        infos, kinds = parse_seats(players_spec, variant, no_seat)
        chosen = resolve_ruleset(target, ruleset, len(infos))
        check_count(infos, chosen.options, target, None if ruleset is None else chosen.source,
                    chosen.stated)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        _check_host_input(kinds)
        # Owner-only, never over another file: the table file beside it holds the links.
        first, writer = new_record(record_path, target.name, seed, command="serve")
        name = None if ruleset is None else chosen.name
        game = Game(target, chosen.options, infos, choose_dealer(seed, len(infos)), seed=seed,
                    ruleset=name, writer=writer, created=now_stamp())
        evening = Evening(first, target, chosen.options, name, seed, again=again or "host")
        seats = seats_for(game, kinds)
        tokens = {}
        port = DEFAULT_PORT if port is None else port
    check_level(evening.variant, stand_in)
    if not interactive and evening.again == "host":
        evening.again = "all"  # nobody can press Enter here: the friends start each next game
    listen = host or ("0.0.0.0" if lan else "127.0.0.1")
    shown = host or (lan_address() if lan else "127.0.0.1")
    options = TableOptions(away_timeout=away_timeout, away=away if (away != "ask" or interactive) else "wait",
                           stand_in_level=stand_in, open_hands=open_hands)
    try:
        asyncio.run(_serve(evening, seats, game, tokens, options, listen, shown, port, lan, no_qr,
                           Style.for_stream(colour), interactive, page_language))
    except (KeyboardInterrupt, click.Abort):  # Ctrl-C, or the end of the host's input
        command = ["cardcli", "serve", "--resume", record_argument(first)]
        click.echo("\n" + command_text(_("Table saved. Serve it again with the same links:"), command,
                                        terminal_width(sys.stderr)), err=True)
        raise SystemExit(130) from None
    finally:
        if game is not None and game.writer is not None:
            game.writer.close()


def _open_evening(saved: TableFile, first: Path) -> tuple[Evening, list[Seat], Game | None]:
    """The evening a table file keeps (a version 1 file: the one game of its
    record), its seats with their links, and the game to go on with, if one
    was under way (``None``: between games)."""
    from ..serve.evening import Evening, Played
    from ..serve.links import table_file
    from ..serve.table import Seat

    where = table_file(first)
    if saved.evening is None:
        loaded, _over = load_record(first)
        evening = Evening(first, loaded.variant, loaded.rules, loaded.ruleset,
                          loaded.seed if loaded.seed is not None else 0)
        if len(saved.seats) != len(loaded.seats):
            raise CardcliError(_("{file} is for {count} seats, the record has {recorded}").format(
                file=where, count=len(saved.seats), recorded=len(loaded.seats)))
        seats = [Seat(index, printable(info.name), kind, level=info.cpu_level or "normal", player=index,
                      named=kind == "host")
                 for index, (info, kind) in enumerate(zip(loaded.seats, saved.seats))]
        evening.games.append(Played(first.name, list(range(len(seats))), loaded.dealer))
    else:
        data = saved.evening
        try:
            target = variant_named(str(data["variant"]))
            rules = rules_from_record(target, data["rules"], str(where))
            evening, seats = Evening.from_dict(data, first, target, rules)
        except CardcliError as problem:
            said = _("{file}: the evening's rules: {problem}")
            raise CardcliError(said.format(file=where, problem=problem)) from None
        except (KeyError, TypeError, ValueError) as problem:
            raise CardcliError(_("{file}: not an evening cardcli can read ({problem})").format(
                file=where, problem=problem)) from None
    for seat in seats:
        if seat.kind == "friend" and not seat.left:
            seat.token = saved.tokens.get(f"seat {seat.index}") or ""
            if not seat.token:
                raise CardcliError(_("{file}: seat {seat} ({name}) has no link").format(
                    file=where, seat=seat.index, name=seat.name))
    evening.remember_seats(seats)
    game = None
    if evening.playing:
        path = evening.record_path(evening.games[-1])
        game, result = _go_on(path)
        if game is None:
            assert result is not None
            evening.games[-1].result = result
        elif len(game.seats) != len(seats):
            raise CardcliError(_("{file} is for {count} seats, the record {path} has {recorded}").format(
                file=where, count=len(seats), path=path, recorded=len(game.seats)))
    if game is None:
        click.echo(_("Resuming the evening between games (game {number} is over).").format(
            number=evening.number))
    return evening, seats, game


def _go_on(path: Path) -> tuple[Game | None, dict | None]:
    """The game of ``path`` ready to go on, or (once over) its result."""
    loaded, over = load_record(path)
    if not over:
        return resume_record(path), None
    result = loaded.state.result()
    assert result is not None
    if not loaded.result_line_seen:
        resume_record(path)  # writes the missing result line
    return None, result.as_dict()


async def _serve(evening: Evening, seats: list[Seat], game: Game | None, tokens: dict[str, str],
                 options: TableOptions, listen: str, shown: str, port: int, lan: bool, no_qr: bool,
                 style: Style, interactive: bool, page_language: str = "host") -> None:
    from ..serve.console import HostConsole, HostUI, remote_dialogue
    from ..serve.links import TableFile, base_url, seat_link, table_file
    from ..serve.lobby import AT_A_PROMPT, COMMANDS, Lobby, play_evening
    from ..serve.page_words import page_languages
    from ..serve.qr import terminal_lines
    from ..serve.server import TableServer
    from ..serve.table import CLOSED, Table

    console = HostConsole(HostUI(style=style))
    table = Table(evening.variant, seats, watch_token=tokens.get("watch"), options=options,
                  host_turn=console.turn, ask_host=console.question, notice=console.notice,
                  dialogue=remote_dialogue)
    table.evening = evening
    if not evening.games:  # a new evening: its first game
        assert game is not None
        evening.begin(game, table, evening.first)
    if game is not None:
        table.start(game, evening.number)
    else:
        table.between(evening.header(), number=evening.number)
    server = TableServer(page_language)
    server.add(table)
    try:
        actual = await server.start(listen, port)
    except OSError as error:
        raise CardcliError(_("cannot listen on {address}:{port}: {problem} (another program may use the "
                             "port: choose one with --port)").format(
            address=listen, port=port, problem=system_words(error))) from None
    server.serve_as(shown)
    base = base_url(shown, actual)

    def save() -> None:
        TableFile([s.kind for s in table.seats], table.tokens(), shown, actual, lan,
                  {"open_hands": options.open_hands}, evening.as_dict(table)).save(table_file(evening.first))

    def invite(seat: Seat) -> None:
        link = seat_link(base, seat.token)
        line = _("Invite for {name}: {link}").format(name=seat.name, link=link)
        if visible_width(line) <= terminal_width():
            click.echo(f"\n{line}")
        else:  # a long name: the link on a line of its own, never broken by the terminal
            click.echo("\n" + _("Invite for {name}:").format(name=seat.name) + f"\n  {link}")
        if not no_qr:
            for line in terminal_lines(link, colour=style.colour):
                click.echo("  " + line)

    save()
    lobby = Lobby(table, evening, say=console.ui.show, invite=invite, saved=save, registry=registry(),
                  stand_in=options.stand_in_level)
    who = listed([_(_KINDS[s.kind]).format(name=spoken_name(s.name)) for s in table.seats])
    variant = evening.variant
    tell(_("{title} - {players}").format(title=variant.words(variant.title), players=who))
    width = terminal_width() if sys.stdout.isatty() else 10**6  # (in a log: one line to find)
    recording = _("Seed {seed}. Recording to").format(seed=evening.seed)  # (a path is never broken)
    click.echo(path_text(recording, shown_path(evening.record_path(evening.games[-1])), width))
    # If the server is killed (no Ctrl-C to say it), this line says how the evening goes on.
    click.echo(command_text(_("If this server stops, serve the table again, with the same links:"),
                            ["cardcli", "serve", "--resume", record_argument(evening.first)], width))
    if lan:
        tell(_("Shared with your local network on {address} (anyone on it with a link can take that "
               "seat).").format(address=base))
    else:
        tell(_("Only this machine can connect ({address}); to let phones on your Wi-Fi join, serve "
               "with --lan.").format(address=base))
    if page_language == "phone":
        tell(_("Each phone's page is in the language its browser asks for ({languages}), else in this "
               "terminal's.").format(languages=", ".join(sorted(page_languages()))))
    for seat in table.seats:
        if seat.kind == "friend" and seat.token:
            invite(seat)
    tell("\n" + _("Watch link (the public table, no hands): {link}").format(
        link=seat_link(base, table.watch_token)))
    host = next((seat.index for seat in table.seats if seat.kind == "host"), None)
    if host is not None:
        table.seats[host].client = console
    else:
        table.join(console, None)  # only hosting: the host follows the public table
    if not interactive:
        tell("\n" + _("(This terminal cannot be typed at: each next game starts when every friend has "
                      "said play again. Stop with Ctrl-C.)"))
    else:  # links, seats, tally (and help) at any time, also during a game
        console.take_commands(lobby.run, COMMANDS, AT_A_PROMPT, lambda: table.lobby is None)
    if game is not None:
        waiting = listed([s.name for s in table.seats if s.kind == "friend"])
        if game.history:  # served again (--resume): the game goes on where it stopped
            tell("\n" + _.ngettext("Game {number} goes on from where it stopped (after {count:,} move); it "
                                   "waits for {names} when it is their turn.",
                                   "Game {number} goes on from where it stopped (after {count:,} moves); it "
                                   "waits for {names} when it is their turn.", game.moves).format(
                number=evening.number, count=game.moves, names=waiting))
        else:
            tell("\n" + _("The game starts now; it waits for {names} when it is their turn.").format(
                names=waiting))
        if interactive:
            tell(_("(Type links at any time to show the invite links again; help lists the rest.)"))
    try:
        played = await play_evening(table, lobby, console if interactive else None, show=console.ui.show,
                                    host=host)
        table.close_all(CLOSED)
    finally:
        table.close()
        if table.game is not None and table.game.writer is not None:
            table.game.writer.close()
        await asyncio.sleep(0.2)  # let the last messages go out
        await server.stop()
    records = [str(evening.record_path(g)) for g in evening.games if g.result is not None]
    if records:
        over = _.ngettext("The evening is over: {count:,} game. Records:",
                          "The evening is over: {count:,} games. Records:", played)
    else:
        over = _.ngettext("The evening is over: {count:,} game.", "The evening is over: {count:,} games.",
                          played)
    click.echo("\n" + over.format(count=played))
    for record in records:
        click.echo(f"  {record}")
