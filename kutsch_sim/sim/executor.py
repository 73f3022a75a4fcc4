"""How a run's chunks are played: one interface for this process and for a Dask cluster.

An executor takes :class:`Task` s (a configuration, a seed and a range of game indices) and
calls ``on_done(task, records, seconds)`` once for every task, in the order the records
arrive, with the task's int32[games, N_REC] records; ``on_games(task, n)`` reports progress
(a local run in steps of about ``STEP_SECONDS``, a Dask run once a task). The caller writes
what arrives, so an exception from ``on_done`` (a full disk) stops the executor: the tasks
already done stay done, the rest are dropped. Records depend only on (seed, configuration,
game index) (:func:`kutsch_sim.api.run_batch`), so every executor gives the same records.

:class:`LocalExecutor` plays here on numba's threads; :class:`kutsch_sim.sim.cluster.DaskExecutor`
sends the tasks to Dask workers. The runner picks one; neither knows the runner.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .._jitcache import kernel_cached
from ..api import GameConfig, run_batch
from ..enums import N_REC

STEP_SECONDS = 0.5  # a local task runs in calls of about this long: progress and Ctrl-C stay prompt
MIN_STEP = 256


@dataclass(frozen=True)
class Task:
    """Games ``game0 .. game0 + games - 1`` of ``cfg`` under ``seed``; ``key`` is the caller's name for it."""

    key: Hashable
    cfg: GameConfig
    seed: int
    game0: int
    games: int


OnDone = Callable[[Task, np.ndarray, float], None]  # (task, int32[games, N_REC] records, seconds of play)
OnGames = Callable[[Task, int], None]  # (task, games just finished)


class Executor(Protocol):
    """Plays tasks; ``load_seconds`` and ``compiled`` describe this process's engine start-up
    (0 and False where the games are played elsewhere)."""

    load_seconds: float
    compiled: bool

    def execute(self, tasks: Iterable[Task], on_done: OnDone, on_games: OnGames | None = None) -> None:
        """Play every task; call ``on_done`` for each as its records arrive."""
        ...

    def close(self) -> None:
        """Release what the executor holds (a scheduler connection); idempotent."""
        ...


class LocalExecutor:
    """Tasks one after another in this process, each on ``threads`` numba threads (default: numba's)."""

    def __init__(self, threads: int | None = None):
        self.threads = threads
        self.load_seconds = 0.0
        self.compiled = False

    def execute(self, tasks: Iterable[Task], on_done: OnDone, on_games: OnGames | None = None) -> None:
        import numba

        tasks = list(tasks)
        before = numba.get_num_threads()
        if self.threads:
            numba.set_num_threads(self.threads)
        try:
            if tasks:  # load (or compile) the kernel outside the tasks' timings: one game, discarded
                self.compiled = not kernel_cached()
                t0 = time.perf_counter()
                run_batch(tasks[0].cfg, tasks[0].seed, 0, 1)
                self.load_seconds = time.perf_counter() - t0
            step, most = MIN_STEP, max((t.games for t in tasks), default=MIN_STEP)
            for task in tasks:
                t0 = time.perf_counter()
                records, step = self._play(task, step, most, on_games)
                on_done(task, records, time.perf_counter() - t0)
                del records
        finally:
            numba.set_num_threads(before)

    @staticmethod
    def _play(task: Task, step: int, most: int, on_games: OnGames | None) -> tuple[np.ndarray, int]:
        """Records of one task, played in calls of about STEP_SECONDS; returns (records, next step)."""
        out = np.empty((task.games, N_REC), np.int32)
        pos = 0
        while pos < task.games:
            n = min(step, task.games - pos)
            t0 = time.perf_counter()
            out[pos : pos + n] = run_batch(task.cfg, task.seed, task.game0 + pos, n)
            dt = time.perf_counter() - t0
            pos += n
            if on_games is not None:
                on_games(task, n)
            if n == step:  # a full step: adapt to the speed seen
                step = max(MIN_STEP, min(most, int(n * STEP_SECONDS / max(dt, 1e-6))))
        return out, step

    def close(self) -> None:
        pass
