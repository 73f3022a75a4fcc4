"""The suite on several cores (pytest-xdist, ``-n 2``) with a numba cache no two workers write.

numba keeps one index file per function; two processes saving different compilations of one
function at the same moment can leave an index that points one signature at another's code
(kutsch_sim.parallel_compile). So, with workers:

- the controller compiles the batch kernel and the one-game kernel first, into the cache
  every run of these sources shares (its independent parts on two processes at once), before
  any worker starts;
- each worker then plays from a cache folder of its own, ``<cache>/xdist-gwN/numba-<hash>``,
  seeded with hard links to every file of the shared one it lacks. numba writes a cache file
  to a temporary name and renames it over the old one, so a worker's write replaces its own
  link and never changes the shared file.

Without ``-n`` (or with ``-n 0``) nothing here runs.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_SHARED = "KUTSCH_SIM_TEST_SHARED_CACHE"


def _workers(config) -> int:
    n = getattr(config.option, "numprocesses", None)
    return n if isinstance(n, int) else 0


def _seed(private: Path, shared: Path) -> None:
    for src in shared.rglob("*"):
        if src.is_dir() or ".tmp." in src.name:
            continue
        dst = private / src.relative_to(shared)
        if dst.exists():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except OSError:  # another file system, or no hard links: a copy does as well
            shutil.copy2(src, dst)


def pytest_configure(config) -> None:
    worker = getattr(config, "workerinput", None)
    if worker is None:
        if _workers(config) > 0 and os.environ.get("NUMBA_DISABLE_JIT") != "1":
            import kutsch_sim
            from kutsch_sim.api import GameConfig, play_game, run_batch

            run_batch(GameConfig(6, "full", ("smart",)), 1, 0, 1)
            play_game(GameConfig(6, "full", ("smart",)), 1, 0)
            os.environ[_SHARED] = str(kutsch_sim.JIT_CACHE_DIR)
        return
    shared = os.environ.get(_SHARED)
    if not shared:
        return
    shared_dir = Path(shared)
    os.environ["KUTSCH_SIM_CACHE_DIR"] = str(shared_dir.parent / f"xdist-{worker['workerid']}")
    os.environ.pop("NUMBA_CACHE_DIR", None)
    import kutsch_sim
    from kutsch_sim._jitcache import configure

    private = configure()  # numba may already be loaded: point it at the worker's folder too
    kutsch_sim.JIT_CACHE_DIR = private
    private.mkdir(parents=True, exist_ok=True)
    _seed(private, shared_dir)
