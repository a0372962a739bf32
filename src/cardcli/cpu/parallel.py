"""Spreading numbered games over processes, with the same results for any count.

Simulation, the arena and ``compare`` all play game ``i`` from a seed derived
from the run's seed and ``i``; this module only decides which process plays
which games and hands the results back in game order.

A *backend* runs chunks of games: :class:`LocalBackend` in a process pool on
this machine, or (``--backend ray``, :mod:`cardcli.cpu.ray`, which the
command line chooses) as Ray tasks, locally or on a cluster.  Both run the same chunk functions on
the same chunks, so the results do not depend on the backend.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

from ..kit.errors import CardcliError

T = TypeVar("T")
Progress = Callable[[int], None]

class BackendError(CardcliError):
    """A backend that cannot run: Ray not installed, a cluster not reachable."""


#: How often a worker checks that the process that started it is alive.
WATCH_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _start_watchdog() -> None:
    """Run in each worker: exit when the parent process is gone.

    A parent killed outright (``kill -9``) cannot tell its workers to stop, and
    a worker waiting for its next task would wait forever; when the parent
    dies, the worker is handed to another parent, which this notices.
    """
    thread = threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True,
                              name="cardcli-parent-watch")
    thread.start()


def chunks(count: int, workers: int, largest: int) -> list[range]:
    """Game numbers in chunks: several per worker (for an even finish), at most ``largest``."""
    size = max(1, min(largest, count // (workers * 8) or 1))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


class Backend(Protocol):
    """Runs ``play(task)`` for every task and returns the results in task order."""

    name: str
    workers: int

    def run(self, play: Callable[[Any], list[T]], tasks: Sequence[Any],
            progress: Progress | None = None) -> list[T]: ...


class LocalBackend:
    """A process pool on this machine (no pool at all for one worker)."""

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)

    def run(self, play: Callable[[Any], list[T]], tasks: Sequence[Any],
            progress: Progress | None = None) -> list[T]:
        return run_chunks(play, tasks, self.workers, progress)


def run_chunks(play: Callable[[Any], list[T]], tasks: Sequence[Any], workers: int,
               progress: Progress | None = None) -> list[T]:
    """``play(task)`` for every task, in ``workers`` processes (here if one),
    reporting each chunk's size to ``progress`` as it finishes; the results
    come back in task order all the same."""
    results: list[T] = []
    if workers == 1 or len(tasks) == 1:
        for done in map(play, tasks):
            results.extend(done)
            if progress:
                progress(len(done))
        return results
    in_order: list[list[T]] = [[] for _ in tasks]
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_watchdog) as pool:
        numbers = {pool.submit(play, task): number for number, task in enumerate(tasks)}
        for future in as_completed(numbers):
            done = in_order[numbers[future]] = future.result()
            if progress:
                progress(len(done))
    return [item for done in in_order for item in done]
