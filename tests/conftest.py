"""The suite on several cores (pytest-xdist, ``-n 2``) with a numba cache no two workers write.

numba keeps one index file per function; two processes saving different compilations of one
function at the same moment can leave an index that points one signature at another's code
(kutsch_sim.parallel_compile). So, with workers:

- the controller compiles the batch kernel and the one-game kernel first, into the cache
  every run of these sources shares (its independent parts on two processes at once), before
  any worker starts; if that compile was cold, the workers get its plan's record (``PLAN_RUN``);
- each worker then plays from a cache folder of its own, ``<cache>/xdist-gwN/numba-<hash>``,
  seeded with hard links to every file of the shared one it lacks. numba writes a cache file
  to a temporary name and renames it over the old one, so a worker's write replaces its own
  link and never changes the shared file.

With ``-n`` and no ``--dist``, the workers take tests by work stealing (``--dist worksteal``):
a worker that runs out steals the other's queued tests, so the suite's long tests (the honesty
replays without the JIT take 30–60 s each) do not leave one worker running alone at the end,
as xdist's default ``load`` did (the README's test command 14–25 s quicker so,
docs/performance.md). A ``--dist`` given on the command line is kept.

Without ``-n`` (or with ``-n 0``) none of that runs. In every process the tests' own small
kernels, and the package's functions they call directly, compile at numba's light level
(``LIGHT``, ``KEEP``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

_SHARED = "KUTSCH_SIM_TEST_SHARED_CACHE"
# The controller's cold compile of the batch kernel, as kutsch_sim.parallel_compile ran it, for
# tests/test_parallel_compile.py to check without compiling everything again from nothing.
PLAN_RUN = "KUTSCH_SIM_TEST_PLAN_RUN"
# The tests' own kernels (a position played a few turns, one decision) and the package's
# functions they call directly compile without LLVM's full pipeline over the engine and bots
# they call (kutsch_sim.jit.light_modules): same results, a fraction of the compile. The
# kernels a user's runs load keep it (KEEP), so the cache those runs share never holds a
# lightly optimised copy of one. A worker's own cache folder is the suite's alone: there only
# the batch and the one-game kernel, compiled by the controller, keep it (KEEP_WORKER).
LIGHT = ("test_", "_helpers", "kutsch_sim.")
KEEP_WORKER = ("kutsch_sim.play.play_games_nb", "kutsch_sim.play.play_one_nb")
KEEP = (*KEEP_WORKER, "kutsch_sim.search.games.play_search_games_nb", "kutsch_sim.search.games.play_search_one_nb",
        "kutsch_sim.calib.record.claims_games_nb")


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


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config) -> None:
    """Work stealing for ``-n`` without ``--dist`` (above); runs before xdist's own hook, which
    turns an unset ``--dist`` into ``load``."""
    if getattr(config.option, "numprocesses", None) and getattr(config.option, "dist", None) == "no":
        config.option.dist = "worksteal"


def pytest_configure(config) -> None:
    from kutsch_sim.jit import light_modules

    light_modules(LIGHT, KEEP)
    worker = getattr(config, "workerinput", None)
    if worker is None:
        if _workers(config) > 0 and os.environ.get("NUMBA_DISABLE_JIT") != "1":
            import kutsch_sim
            from kutsch_sim import parallel_compile
            from kutsch_sim.api import GameConfig, play_game, run_batch

            run_batch(GameConfig(6, "full", ("smart",)), 1, 0, 1)
            play_game(GameConfig(6, "full", ("smart",)), 1, 0)
            os.environ[_SHARED] = str(kutsch_sim.JIT_CACHE_DIR)
            if parallel_compile.LAST_RUN is not None:  # a cold compile went through the plan here
                plan = Path(kutsch_sim.JIT_CACHE_DIR).parent / f"plan-run-{os.getpid()}.json"
                plan.write_text(json.dumps(parallel_compile.LAST_RUN))
                os.environ[PLAN_RUN] = str(plan)
        return
    shared = os.environ.get(_SHARED)
    if not shared:
        return
    shared_dir = Path(shared)
    light_modules(LIGHT, KEEP_WORKER)
    os.environ["KUTSCH_SIM_CACHE_DIR"] = str(shared_dir.parent / f"xdist-{worker['workerid']}")
    os.environ.pop("NUMBA_CACHE_DIR", None)
    import kutsch_sim
    from kutsch_sim._jitcache import configure

    private = configure()  # numba may already be loaded: point it at the worker's folder too
    kutsch_sim.JIT_CACHE_DIR = private
    private.mkdir(parents=True, exist_ok=True)
    _seed(private, shared_dir)


def pytest_unconfigure(config) -> None:
    if getattr(config, "workerinput", None) is None and os.environ.get(PLAN_RUN):
        Path(os.environ.pop(PLAN_RUN)).unlink(missing_ok=True)
