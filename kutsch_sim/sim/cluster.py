"""``--scheduler ADDRESS``: run chunks on an existing Dask distributed cluster.

Workers need the same ``kutsch_sim`` sources as the client: :func:`connect` compares the
package version, ``RULES_VERSION`` and a hash of the jitted sources on every worker (a
worker may well import another checkout of the same version) and refuses a mismatch.
They should have a warm numba cache (the first chunk on a cold worker compiles for
minutes). :class:`DaskExecutor` is the Dask side of :mod:`kutsch_sim.sim.executor`'s interface:
a worker plays a task with :func:`kutsch_sim.api.run_batch` and sends back its int32 records;
the client hands them to ``on_done``, which writes the chunk file exactly as a local run
would, so the store is identical to a local run's.
At most ``2 x (worker threads)`` tasks are in flight, which bounds the memory of both sides.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterable
from itertools import islice

import numpy as np

from .. import __version__
from .._jitcache import source_hash
from ..api import RULES_VERSION, GameConfig, run_batch
from ..errors import KutschError
from .executor import OnDone, OnGames, Task

CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler and to see a first worker
# One numba parallel kernel per worker process at a time: run_batch already uses every
# core numba is allowed, and numba's workqueue layer must not be entered concurrently.
_KERNEL_LOCK = threading.Lock()


def connect(address: str, timeout: float | None = None):
    """A ``distributed.Client`` on ``address`` with at least one worker, else :class:`KutschError`."""
    from distributed import Client

    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise KutschError(f"--scheduler: cannot reach a Dask scheduler at {address!r}: {reason}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
        check_workers(client)
    except (OSError, TimeoutError):
        client.close()
        raise KutschError(f"--scheduler: the Dask scheduler at {address!r} has no workers") from None
    except KutschError:
        client.close()
        raise
    return client


@functools.cache
def identity() -> tuple[str, int, str]:
    """(package version, RULES_VERSION, hash of the jitted sources): equal on client and workers,
    or the records could differ (a worker may import another checkout of the same version)."""
    return __version__, RULES_VERSION, source_hash()


def _identity_on_worker() -> tuple[tuple[str, int, str], str]:
    import kutsch_sim

    from . import cluster

    return cluster.identity(), kutsch_sim.__file__


def check_workers(client) -> None:
    """Every worker must run the very sources this client runs; else :class:`KutschError`."""
    for address, (ident, where) in client.run(_identity_on_worker).items():
        if tuple(ident) != identity():
            raise KutschError(_mismatch(tuple(ident), f"{address} ({where})"))


def _mismatch(ident: tuple, who: str) -> str:
    mine = identity()
    return (
        f"Dask worker {who} runs kutsch-sim {ident[0]} (rules {ident[1]}, engine sources {ident[2]}), "
        f"this client {mine[0]} (rules {mine[1]}, engine sources {mine[2]}); "
        "install the same checkout on every worker"
    )


def play_chunk(
    cfg: GameConfig, seed: int, game0: int, games: int, threads: int | None
) -> tuple[np.ndarray, tuple[str, int, str], float]:
    """Worker task: (int32[games, N_REC] records, the worker's :func:`identity`, seconds)."""
    import numba

    with _KERNEL_LOCK:
        before = numba.get_num_threads()  # numba's thread count is per calling thread
        if threads:
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            t0 = time.perf_counter()
            rec = run_batch(cfg, seed, game0, games)
            seconds = time.perf_counter() - t0
        finally:
            numba.set_num_threads(before)
    return rec, identity(), seconds


def worker_threads(client) -> int:
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


class DaskExecutor:
    """Tasks played on the workers of ``client`` (from :func:`connect`), ``threads`` numba threads
    each (default: the worker's); records are handed to ``on_done`` in the order they arrive."""

    load_seconds = 0.0  # the engine is loaded on the workers, not here
    compiled = False

    def __init__(self, client, threads: int | None = None):
        self.client = client
        self.threads = threads

    def execute(self, tasks: Iterable[Task], on_done: OnDone, on_games: OnGames | None = None) -> None:
        from distributed import as_completed

        client = self.client
        todo = iter(tasks)
        owner = {}

        def submit(task: Task):
            fut = client.submit(play_chunk, task.cfg, task.seed, task.game0, task.games, self.threads, pure=False)
            owner[fut] = task
            return fut

        queue = as_completed([submit(t) for t in islice(todo, 2 * worker_threads(client))], loop=client.loop)
        try:
            for fut in queue:
                task = owner.pop(fut)
                rec, ident, seconds = fut.result()
                fut.release()
                if tuple(ident) != identity():  # a worker that joined after check_workers
                    raise KutschError(_mismatch(tuple(ident), "(one of them)"))
                on_done(task, rec, seconds)
                del rec
                if on_games is not None:
                    on_games(task, task.games)
                nxt = next(todo, None)
                if nxt is not None:
                    queue.add(submit(nxt))
        finally:
            if owner:
                client.cancel(list(owner))

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
