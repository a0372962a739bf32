"""Stepping through a record: the table after each move, rebuilt by the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from .game import Game, describe_event, walk_record
from .plugins import Registry
from .variant import TERMINAL, State


@dataclass
class Frame:
    """The table after move ``move`` (0: before the first move), and the events
    that led there from the previous frame (the move and the chance it caused)."""

    move: int
    state: State
    events: list[str]


def load_frames(stream: IO[bytes], source: str, registry: Registry,
                viewer: int | None = None) -> tuple[Game, list[Frame]]:
    """Every frame of a record, as seen by ``viewer`` (``None``: everything)."""
    holder: list[Game] = []
    frames: list[Frame] = []
    events: list[str] = []
    for _step in walk_record(stream, source, registry, on_header=holder.append,
                             describe=lambda game, action: describe_event(game, action, viewer)):
        game = holder[0]
        events.append(_step.text)
        player = game.state.current_player()
        if player >= 0 or player == TERMINAL:
            frames.append(Frame(game.moves, game.state.clone(), events))
            events = []
    if not holder:  # pragma: no cover - walk_record raises for an empty record
        raise ValueError("empty record")
    game = holder[0]
    if events or not frames:
        frames.append(Frame(game.moves, game.state.clone(), events))
    return game, frames
