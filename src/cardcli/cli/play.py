"""``cardcli play``: an interactive game at the terminal, recorded move by move."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from ..cpu.players import check_count, default_seats, parse_players
from ..engine.game import Game, choose_dealer
from ..kit.errors import CardcliError
from ..kit.fit import command_text, path_text, terminal_width
from ..kit.language import core as _
from ..kit.record_format import SeatInfo
from ..kit.safe_text import printable
from ..records.saved import find_record, games_dir, newest_unfinished, now_stamp, record_argument, shown_path
from ..terminal.session import Session
from ..terminal.style import Style
from ..terminal.ui import TerminalUI
from .common import (
    colour_option,
    complete_saved,
    complete_variant,
    handle_errors,
    resolve_ruleset,
    ruleset_option,
    variant_named,
)
from .record_files import new_record, resume_record


@click.command(help=_("""Play VARIANT at the terminal against CPUs or friends (hot seat).

    \b
    cardcli play matching
    cardcli play matching --players you,cpu:normal,cpu:easy --seed 7
    cardcli play matching --players ann,bob          (two people, one terminal)
    cardcli play --resume ~/.local/share/cardcli/games/....jsonl
    cardcli play --resume                            (the newest unfinished game)

    Every move is written to the record as it happens: close the terminal or
    press Ctrl-C at any time and continue later with --resume.
    """))
@click.argument("variant", required=False, shell_complete=complete_variant)
@ruleset_option()
@click.option("--players", "-p", "players_spec", metavar="SPEC",
              help=_("Who plays, e.g. you,cpu:normal,cpu:easy (people by name, CPUs by strength; cpu1, "
                   "cpu2, ... are CPUs too), or a number: you and CPUs. Default: you against CPUs."))
@click.option("--seed", type=int, help=_("Seed the shuffles and CPUs, to replay the same game."))
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help=_("Write the record here (default: a new file under the cardcli games folder)."))
@click.option("--resume", "resume_spec", metavar="GAME", is_flag=False, flag_value="last",
              shell_complete=complete_saved,
              help=_("Continue the game recorded in GAME (a record file, or a saved game's name as cardcli "
                   "games lists it); alone (or 'last'), the newest unfinished game."))
@click.option("--confirm-forced", is_flag=True,
              help=_("Ask before a move the rules force (a drawn card that must be played): by default "
                   "it is made for you and shown."))
@colour_option
@handle_errors
def play(variant: str | None, ruleset: str | None, players_spec: str | None, seed: int | None,
         record_path: Path | None, resume_spec: str | None, confirm_forced: bool,
         colour: bool | None) -> None:
    """``cardcli play``: its help is the command's ``help``."""
    if resume_spec is not None:
        if variant or ruleset or players_spec or record_path or seed is not None:
            raise click.UsageError(_("--resume takes the game as recorded: give no other options"))
        resume_path = _resume_target(resume_spec)
        game = resume_record(resume_path)
        if game is None:
            return
        _check_input(game.seats)
        path = resume_path
        banner = _served(path)
    else:
        if variant is None:
            raise click.UsageError(_("name a VARIANT (see: cardcli variants), or give --resume FILE"))
        target = variant_named(variant)
        if players_spec and players_spec.strip().isdigit():
            # A table of that many, refused by the rules before a seat is made.
            resolve_ruleset(target, ruleset, int(players_spec))
        seats = (parse_players(players_spec, target, human="you", cpu_names=True) if players_spec
                 else default_seats(target))
        chosen = resolve_ruleset(target, ruleset, len(seats))
        check_count(seats, chosen.options, target, None if ruleset is None else chosen.source,
                chosen.stated)
        _check_input(seats)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        path, writer = new_record(record_path, target.name, seed)
        game = Game(target, chosen.options, seats, choose_dealer(seed, len(seats)), seed=seed,
                    ruleset=None if ruleset is None else chosen.name, writer=writer, created=now_stamp())
        who = ", ".join(s.name if s.is_human else f"{s.name} ({s.kind})" for s in seats)
        recording = _("Seed {seed}. Recording to").format(seed=seed)
        banner = [printable(f"{target.words(target.title)} - {who}"),
                  path_text(recording, shown_path(path), terminal_width())]
    ui = TerminalUI(style=Style.for_stream(colour))
    for line in banner:
        ui.show(line)
    session = Session(game, ui, confirm_forced=confirm_forced)
    if resume_spec is not None:
        session.recap()
    try:
        with session.screen():
            result = session.run()
    except (click.Abort, KeyboardInterrupt, EOFError):
        command = ["cardcli", "play", "--resume", record_argument(path)]
        # Broken into lines only for a terminal: in a log, one line to find.
        width = terminal_width(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else 10**6
        click.echo("\n" + command_text(_("Game saved. Continue it with:"), command, width), err=True)
        raise SystemExit(130) from None
    finally:
        if game.writer is not None:
            game.writer.close()
    if result is not None:
        session.show_end(result, path_text(_("Record:"), shown_path(path), ui.width))


def _served(path: Path) -> list[str]:
    """A game friends joined by link goes on here at one terminal (hot seat); said first, with the
    command that serves it again, so the host can still choose the links."""
    from ..serve.evening import first_record
    from ..serve.links import table_file

    first = first_record(path)
    if not table_file(first).exists():
        return []
    command = ["cardcli", "serve", "--resume", record_argument(first)]
    return [command_text(_("This game was served: here it goes on at this one terminal. To play it with "
                           "the same links again, press Ctrl-C and type:"), command, terminal_width())]


def _resume_target(spec: str) -> Path:
    """The record ``--resume`` means: a file, a saved game's name (the file
    in the games folder, ``.jsonl`` optional), or ``last`` (``--resume``
    alone), the newest unfinished game in the games folder."""
    if spec != "last":
        return Path(find_record(spec))
    found = newest_unfinished()
    if found is None:
        raise CardcliError(_("no unfinished game in {folder} to resume (cardcli games lists the saved "
                             "games; a file named 'last' is resumed with --resume ./last)")
                           .format(folder=games_dir()))
    return found


def _check_input(seats: list[SeatInfo]) -> None:
    """A human seat types its moves: refuse to start with standard input closed."""
    humans = [seat.name for seat in seats if seat.is_human]
    if humans and sys.stdin is None:
        said = _("standard input is closed, and {name} is a human player who types moves: run cardcli play "
                 "from a terminal, or seat only CPUs").format(name=repr(humans[0]))
        raise CardcliError(printable(said))
