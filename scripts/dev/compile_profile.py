#!/usr/bin/env python
"""Where the cold compile goes: ``python scripts/dev/compile_profile.py [--players 6 --items full --bots smart]``.

Compiles the batch kernel from an empty numba cache (a fresh temporary folder, so your own
cache is neither used nor touched) and listens to numba's ``numba:compile`` events. Prints
the compile time of each jitted function, exclusive of the functions it compiles on the way
(its own typing and lowering, and the optimisation and machine code of its library, which
holds everything it calls), how many times it was compiled, and, for every function compiled
more than once, the argument types of each compilation. Also the CPU time of the whole
compile, less sensitive than the wall time to other work on the machine, and, where the
parts were compiled on two processes first (``kutsch_sim.parallel_compile``), each stage's
seconds here and the wait for the helper: the functions the helper compiled are not in the
table, so on two cores the table holds this process's share only.

numba builds every jitted function as a library holding the code of all it calls, so a
function that reaches a decision carries the bots with it: the fewer such libraries, the
shorter the compile (why the rules inline their one-caller functions, ``engine.game``).

numba compiles a function once per combination of argument types, and a literal constant
passed as an argument (``log_nb(st, EV.DRAW, p, 0, 0, 0)``) is a type of its own, so a
large function called with many different constants is compiled many times. The engine's
remedy (``engine.log.log_nb``): a small inlined wrapper casts the arguments to int64 and
calls the body, which then compiles once. A function listed here many times with a large
time is a candidate for the same. ``--json FILE`` saves the table.
Takes minutes (a whole cold compile).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path


def _short(sig: str) -> str:
    """Argument types without the State and View record layouts."""
    sig = re.sub(r"Array\(Record\(\[.*?\], \d+, True\), 1, 'C', False, aligned=True\)", "State[]", sig)
    return re.sub(r"Record\(\[.*?\], \d+, True\)", "Record", sig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--items", default="full")
    ap.add_argument("--bots", default="smart")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--json", default=None, help="save one object per function to this file")
    a = ap.parse_args(argv)
    os.environ["KUTSCH_SIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="kutsch_cold_")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's kutsch_sim
    from numba.core import event

    import kutsch_sim  # noqa: F401  (points numba's cache at the empty folder before numba loads)
    from kutsch_sim import parallel_compile
    from kutsch_sim.api import GameConfig, run_batch

    total: dict[str, float] = collections.defaultdict(float)
    sigs: dict[str, list[str]] = collections.defaultdict(list)
    stack: list[list[float]] = []  # [start, time of the compiles nested in it]

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            t0, nested = stack.pop()
            dt = time.perf_counter() - t0
            if stack:
                stack[-1][1] += dt
            f = ev.data["dispatcher"].py_func
            name = f"{f.__module__}.{f.__qualname__}"
            total[name] += dt - nested
            sigs[name].append(_short(str(ev.data["args"])))

    event.register("numba:compile", Listener())
    cfg = GameConfig(a.players, a.items, (a.bots,) * a.players)
    t0, c0 = time.perf_counter(), time.process_time()
    run_batch(cfg, 1, 0, 8)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ours = {k: v for k, v in total.items() if k.startswith("kutsch_sim.")}
    print(f"cold compile of the batch kernel ({a.players} players, {a.items}, {a.bots}): {wall:.1f} s "
          f"({cpu:.1f} s of CPU); {len(ours)} functions of kutsch_sim compiled "
          f"{sum(len(sigs[k]) for k in ours)} times")
    plan = parallel_compile.LAST_RUN
    if plan is not None:  # the parts compiled on two processes first (kutsch_sim.parallel_compile)
        parts = sum(m + w for _, m, w in plan["seconds"])
        print(f"\nthe parts on two processes, stage by stage (the helper {'did' if plan['ok'] else 'did NOT do'} "
              f"its share); the times below are this process's only")
        print(f"{'stage':>5} {'here':>6} {'wait':>6}  this process's parts | the helper's")
        for k, m, w in plan["seconds"]:
            mine, theirs = parallel_compile.STAGES[k]
            print(f"{k:5d} {m:6.1f} {w:6.1f}  {', '.join(mine)} | {', '.join(theirs) or '-'}")
        print(f"{'':5} {parts:6.1f} s in all, then the kernel's own compile and a few games: {wall - parts:.1f} s")
    print(f"\n{'seconds':>8} {'times':>5}  function (exclusive time)")
    for k, v in sorted(ours.items(), key=lambda kv: -kv[1])[: a.top]:
        print(f"{v:8.1f} {len(sigs[k]):5d}  {k}")
    many = sorted((k for k in ours if len(sigs[k]) > 1), key=lambda k: -len(sigs[k]))
    if many:
        print("\ncompiled more than once:")
        for k in many:
            print(f"{len(sigs[k]):3d}  {k}")
            for s in sigs[k][:8]:
                print(f"       {s[:160]}")
    if a.json:
        with open(a.json, "w") as fh:
            for k, v in sorted(ours.items(), key=lambda kv: -kv[1]):
                fh.write(json.dumps({"function": k, "seconds": round(v, 2), "compiles": len(sigs[k]),
                                     "signatures": sigs[k]}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
