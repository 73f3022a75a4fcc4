#!/usr/bin/env python
"""How well this machine runs two things at once: ``python scripts/reproduce/host_scaling.py [--pairs 3]``.

The target is 2 threads >= 1.8x one thread. This separates what the code can change
from what the host decides, with three measurements (alternated, ``--pairs`` times each):

* ``alu``: a numba ``prange`` loop of pure register arithmetic (xorshift), 1 vs 2 threads.
  Nothing shared, no memory: the ceiling of the cores themselves.
* ``games``: smart games (6 players, ``full``) in one process, 1 vs 2 numba threads
  (``run_batch``, the batch kernel ``kutsch-sim bench`` times).
* ``processes``: the same games in two separate one-thread processes at once, against one
  such process alone. No numba threading at all, so a slow-down here is the two cores
  competing for something they share (caches, memory, the host), not the parallel kernel.

Prints one line per pair and the medians. Needs the JIT cache warm (run any command once).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ONE = """
import sys, time
sys.path.insert(0, {root!r})
import numba
from kutsch_sim.api import GameConfig, run_batch
numba.set_num_threads({threads})
cfg = GameConfig(6, "full", ("smart",) * 6)
run_batch(cfg, 1, 0, 64)
t0 = time.perf_counter(); run_batch(cfg, 1, 0, {games}); print(time.perf_counter() - t0)
"""


def _child(threads: int, games: int) -> subprocess.Popen:
    code = ONE.format(root=str(ROOT), threads=threads, games=games)
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def _seconds(p: subprocess.Popen) -> float:
    out, _ = p.communicate()
    if p.returncode != 0:
        raise SystemExit(f"child failed with code {p.returncode}")
    return float(out.strip().splitlines()[-1])


def alu_pair(iters: int) -> float:
    import numba
    import numpy as np
    from numba import njit, prange

    @njit(parallel=True, cache=False)
    def spin(chunks, n):
        out = np.zeros(chunks, np.uint64)
        for c in prange(chunks):
            x = np.uint64(c + 1)
            for _ in range(n):
                x ^= x << np.uint64(13)
                x ^= x >> np.uint64(7)
                x ^= x << np.uint64(17)
            out[c] = x
        return out

    spin(2, 10)
    t = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        t0 = time.perf_counter()
        spin(64, iters)
        t.append(time.perf_counter() - t0)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return t[0] / t[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--games", type=int, default=15000, help="smart games per timed run")
    ap.add_argument("--alu-iters", type=int, default=20_000_000)
    a = ap.parse_args(argv)
    res: dict[str, list[float]] = {"alu": [], "games": [], "processes": []}
    for i in range(a.pairs):
        res["alu"].append(alu_pair(a.alu_iters))
        one, two = _seconds(_child(1, a.games)), _seconds(_child(2, a.games))
        res["games"].append(one / two)
        alone = _seconds(_child(1, a.games))
        both = [_child(1, a.games), _child(1, a.games)]
        together = statistics.mean(_seconds(p) for p in both)
        res["processes"].append(2 * alone / together)  # throughput of two processes over one
        print(f"pair {i + 1}: alu {res['alu'][-1]:.2f}x, games 2 threads {res['games'][-1]:.2f}x "
              f"({1e6 * one / a.games:.0f}/{1e6 * two / a.games:.0f} us a game), two processes "
              f"{res['processes'][-1]:.2f}x (alone {1e6 * alone / a.games:.0f}, together "
              f"{1e6 * together / a.games:.0f} us a game each)", flush=True)
    print("medians: " + ", ".join(f"{k} {statistics.median(v):.2f}x" for k, v in res.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
