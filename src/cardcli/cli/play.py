"""``cardcli play``: an interactive game at the terminal, recorded move by move."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import click

from ..errors import CardcliError, RecordError
from ..game import Game, choose_dealer, load_game
from ..players import check_count, default_seats, parse_players
from ..records import RecordWriter
from ..session import Session, ranking_text
from ..ui import TerminalUI
from .common import handle_errors, registry, resolve_ruleset, variant_named


def games_dir() -> Path:
    """Where records go by default: ``$CARDCLI_GAMES``, else the XDG data folder."""
    if os.environ.get("CARDCLI_GAMES"):
        return Path(os.environ["CARDCLI_GAMES"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardcli" / "games"


@click.command()
@click.argument("variant", required=False)
@click.option("--ruleset", "-r", metavar="FILE_OR_NAME", help="House rules: a shipped name or a TOML file.")
@click.option("--players", "-p", "players_spec", metavar="SPEC",
              help="Who plays, e.g. you,cpu:normal,cpu:easy (humans by name, CPUs by strength). "
                   "Default: you against CPUs.")
@click.option("--seed", type=int, help="Seed the shuffles and CPUs, to replay the same game.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record here (default: a new file under the cardcli games folder).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Continue the game recorded in this file.")
@handle_errors
def play(variant: str | None, ruleset: str | None, players_spec: str | None, seed: int | None,
         record_path: Path | None, resume_path: Path | None) -> None:
    """Play VARIANT at the terminal against CPUs or friends (hot seat).

    \b
    cardcli play matching
    cardcli play matching --players you,cpu:normal,cpu:easy --seed 7
    cardcli play matching --players ann,bob          (two people, one terminal)
    cardcli play --resume ~/.local/share/cardcli/games/....jsonl

    Every move is written to the record as it happens: close the terminal or
    press Ctrl-C at any time and continue later with --resume.
    """
    ui = TerminalUI()
    if resume_path is not None:
        if variant or ruleset or players_spec or record_path or seed is not None:
            raise click.UsageError("--resume takes the game as recorded: give no other options")
        game = _resume(resume_path)
        path = resume_path
    else:
        if variant is None:
            raise click.UsageError("name a VARIANT (see: cardcli variants), or give --resume FILE")
        target = variant_named(variant)
        seats = (parse_players(players_spec, target) if players_spec
                 else default_seats(target))
        chosen = resolve_ruleset(target, ruleset, len(seats))
        check_count(seats, chosen.options, target)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        path = record_path or games_dir() / f"{time.strftime('%Y%m%d-%H%M%S')}-{target.name}-{seed}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            writer = RecordWriter.open(str(path))
        except OSError as error:
            raise click.ClickException(f"cannot write the record {path}: {error.strerror}") from None
        game = Game(target, chosen.options, seats, choose_dealer(seed, len(seats)), seed=seed,
                    ruleset=None if ruleset is None else chosen.name, writer=writer)
        who = ", ".join(s.name if s.is_human else f"{s.name} ({s.kind})" for s in seats)
        ui.show(f"{target.title} - {who}")
        ui.show(f"Seed {seed}. Recording to {path}")
    session = Session(game, ui)
    try:
        result = session.run()
    except (click.Abort, KeyboardInterrupt, EOFError):
        click.echo(f"\nGame saved. Continue it with: cardcli play --resume {path}", err=True)
        raise SystemExit(130) from None
    finally:
        if game.writer is not None:
            game.writer.close()
    if result is not None:
        session.show_end(result)
        ui.show(f"\nRecord: {path}")


def _resume(path: Path) -> Game:
    try:
        with open(path, "rb") as stream:
            game, over = load_game(stream, str(path), registry())
    except OSError as error:
        raise CardcliError(f"{path}: cannot read: {error.strerror}") from None
    except RecordError as error:
        raise CardcliError(f"cannot resume: {error}") from None
    if over:
        result = game.state.result()
        assert result is not None
        ranking = ranking_text(result.as_dict(), game.names, game.variant.score_label)
        raise click.ClickException(f"this game is already over.\n{ranking}")
    _drop_partial_line(path)
    game.writer = RecordWriter.open(str(path), append=True)
    game.reseed()
    click.echo(f"Resuming {game.variant.title} after move {game.moves}. Recording to {path}")
    return game


def _drop_partial_line(path: Path) -> None:
    """Make sure the record ends with a newline before appending to it."""
    with open(path, "rb+") as stream:
        stream.seek(0, os.SEEK_END)
        if stream.tell() == 0:
            return
        stream.seek(-1, os.SEEK_END)
        if stream.read(1) != b"\n":
            stream.write(b"\n")
