"""Spreading numbered games over processes, with the same results for any count.

Simulation and the arena both play game ``i`` from a seed derived from the
run's seed and ``i``; this module only decides which process plays which
games and hands the results back in game order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def chunks(count: int, workers: int, largest: int) -> list[range]:
    """Game numbers in chunks: several per worker (for an even finish), at most ``largest``."""
    size = max(1, min(largest, count // (workers * 8) or 1))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


def run_chunks(play: Callable[[Any], list[T]], tasks: Sequence[Any], workers: int,
               progress: Callable[[int], None] | None = None) -> list[T]:
    """``play(task)`` for every task, in ``workers`` processes (here if one),
    reporting each finished chunk's size to ``progress``."""
    results: list[T] = []
    if workers == 1 or len(tasks) == 1:
        done_chunks = map(play, tasks)
        for done in done_chunks:
            results.extend(done)
            if progress:
                progress(len(done))
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(play, tasks):
            results.extend(done)
            if progress:
                progress(len(done))
    return results
