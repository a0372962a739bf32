"""``--backend ray``: the same chunks of games as Ray tasks.

Imported only when that backend is chosen, so Ray stays an optional extra
(``cardcli[ray]``).  Each chunk is one task (one CPU); the results are put
back in task order, so a run gives the same summary and records as the local
process pool for the same seed.  The address of an existing cluster comes
from ``--ray-address`` or ``RAY_ADDRESS``; with neither, a Ray instance is
started on this machine for the run and stopped after it.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..kit.errors import system_words
from ..kit.language import N_
from ..kit.language import core as _
from .parallel import BackendError, Progress

T = TypeVar("T")

INSTALL_HINT = N_("--backend ray needs Ray, which is not installed: "
                  "python -m pip install 'cardcli[ray]' "
                  "(from a checkout: python -m pip install -e '.[ray]')")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(_(INSTALL_HINT)) from None
    return ray


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` nothing answers on (Ray itself would retry for minutes)."""
    host, _colon, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto" and other forms Ray resolves itself
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        raise BackendError(_("cannot reach the Ray cluster at {address}: {reason}").format(
            address=address, reason=system_words(error))) from None


class RayBackend:
    """Chunks as Ray tasks, at most ``2 * workers`` in flight.

    A Ray already initialised in this process (a test's, say) is used as it
    is and left running."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None):
        ray = self.ray = _import_ray()
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address == "local":
            address = None
        self.address = address
        self.started = not ray.is_initialized()
        quiet = {"logging_level": logging.ERROR, "log_to_driver": False, "include_dashboard": False}
        if self.started:
            if address is not None:
                _check_reachable(address)
            try:
                if address is None:
                    ray.init(num_cpus=max(1, workers or os.cpu_count() or 1), **quiet)
                else:
                    ray.init(address=address, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as error:
                said = (_("cannot start or reach the Ray cluster at {address}: {error}") if address
                        else _("cannot start or reach a local Ray instance: {error}"))
                raise BackendError(said.format(address=address, error=error)) from None
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        #: Chunks are planned for this many workers; on a cluster ``workers``
        #: (``--workers``) caps how many of its CPUs the run uses.
        self.workers = min(workers, cpus) if workers else cpus
        self._remote: dict[Callable[..., Any], Any] = {}

    def run(self, play: Callable[[Any], list[T]], tasks: Sequence[Any],
            progress: Progress | None = None) -> list[T]:
        """Every task's results, in task order, reporting chunks as they finish."""
        ray = self.ray
        remote = self._remote.get(play)
        if remote is None:
            remote = self._remote[play] = ray.remote(play)
        done_chunks: list[list[T] | None] = [None] * len(tasks)
        waiting = list(enumerate(tasks))[::-1]
        running: dict[Any, int] = {}
        limit = 2 * self.workers
        while waiting or running:
            while waiting and len(running) < limit:
                number, task = waiting.pop()
                running[remote.remote(task)] = number
            finished, _waiting = ray.wait(list(running), num_returns=1)
            for ref in finished:
                done = ray.get(ref)
                done_chunks[running.pop(ref)] = done
                if progress:
                    progress(len(done))
        return [item for chunk in done_chunks if chunk is not None for item in chunk]

    def close(self) -> None:
        """Stop the Ray instance this backend started (a cluster is left running)."""
        if self.started:
            self.ray.shutdown()
