"""Compile the batch kernel's parts on two processes at once, the first time it is needed.

numba compiles one function at a time in a process, under one lock, and a cold compile of
the batch kernel (``play.play_games_nb``) is a minute of one core's work. Most of that work
is a chain (a function's callees are compiled before it is typed, and nearly every rule calls
``engine.decide``, above the bots), but it has independent parts: the bots' policies
(``bots.policy.choose_nb``) need nothing of the engine, and the event log with the seats'
observers and the game's set-up need nothing of the policies. So a helper process compiles
some parts into numba's on-disk cache while this process compiles others; once both are
done, the kernel's own compile loads the parts from the cache instead of compiling them.

**The plan** (:data:`STAGES`) is a list of stages; in each, this process and the helper each
compile their list of parts, and both finish a stage before either starts the next. Each part
is compiled for the argument types the kernel calls it with (:data:`PARTS`); a part with other
types would be compiled for nothing, and ``tests/test_parallel_compile.py`` checks that every
part is one the kernel uses.

**Why stages, and never the same function on both sides of one.** numba keeps one index file
per function, and two processes saving different compilations of one function at the same
time can leave an index that points one signature at another's code. Within a stage, the two
lists reach disjoint sets of functions not compiled before the stage; the test checks it on
the code as it is, for every stage.

**The same code.** A part compiles at the level numba uses for a function compiled inside
another's compile (``kutsch_sim.jit.compiling_parts``), and the kernel links the same LLVM
modules whether they were compiled in this process or loaded from the cache, so the games are
the same (``scripts/golden.py --check`` passes either way).

Skipped, leaving numba's serial compile, when: the kernel is already compiled or cached, the
machine has one core, the JIT is off, or ``KUTSCH_SIM_PARALLEL_COMPILE=0``. If the helper fails,
this process compiles whatever is missing itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

__all__ = ["PARTS", "STAGES", "compile_batch_parts", "parts_first", "parts_wanted"]

# part name -> (module under kutsch_sim, function, argument types). "st" is the game state's
# record, "vw" the View record inside it (st.mem.vw), "rs" a random stream in either, "sp" the
# game spec's record (kutsch_sim.spec), "0" the literal 0, "script" a new state's script of
# decisions (int32[S, 3]); the rest are numba type names.
PARTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "below": ("rng", "below_nb", ("rs", "i8")),
    "below_0": ("rng", "below_nb", ("rs", "0")),
    "hand_options": ("engine.items", "hand_options_nb", ("st", "i8", "i8", "i8")),
    "popcount": ("bots.beliefs", "popcount_nb", ("i8",)),
    "choose": ("bots.policy", "choose_nb", ("vw",)),
    "log_row": ("engine.log", "log_row_nb", ("st", "i8", "i8", "i8", "i8", "i8")),
    "init_game": ("play", "init_game_nb", ("st", "sp", "i8")),
    "seat_beliefs": ("bots.dispatch", "seat_beliefs_nb", ("st", "i8", "i8")),
    "refresh_seat": ("bots.dispatch", "refresh_seat_nb", ("st", "i8")),
    "hard_seat": ("bots.dispatch", "hard_seat_nb", ("st", "i8")),
    "see_items": ("engine.items", "see_items_nb", ("st", "i8", "i8")),
    "announce": ("engine.trade", "announce_nb", ("st", "i8", "i8")),
    "see_occ": ("engine.items", "see_occ_nb", ("st", "i8", "i8")),
    "reveal_occ": ("engine.trade", "reveal_occ_nb", ("st", "i8")),
    "bot_choose": ("bots.dispatch", "bot_choose_nb", ("st", "i8", "i8", "i8")),
    "decide": ("engine.decide", "decide_body_nb", ("st", "i8", "i8", "i8")),
    "clair_window": ("engine.trade", "clair_window_body_nb", ("st", "i8", "i8")),
    "diplomat": ("engine.trade", "diplomat_body_nb", ("st", "i8", "i8")),
    "settle_limits": ("engine.items", "settle_limits_nb", ("st", "i8")),
    "draw": ("engine.items", "draw_nb", ("st", "i8", "i8")),
    "look_assoc": ("engine.items", "look_assoc_nb", ("st", "i8", "i8")),
    "fight": ("engine.fight", "fight_body_nb", ("st", "i8", "i8")),
    "trade": ("engine.trade", "trade_body_nb", ("st", "i8", "i8", "i8", "i8", "i8")),
    "action_options": ("engine.game", "action_options_nb", ("st", "i8")),
    "fill_record": ("engine.game", "fill_record_nb", ("st",)),
    "new_state": ("engine.state", "new_state_nb", ("0", "script")),
}

# (this process's parts, the helper's parts), stage by stage, with each side's seconds of one
# core from an empty cache on host F. First the small functions both sides' later parts call
# (while the helper starts: the random draw, a hand's options, and the bit count that the
# beliefs here and the policies' posterior there both call); then the event log with the
# observers, the bots' beliefs and the set-up here (15 s), the bots' policies there (14 s);
# then the looks and announcements here (2 s) beside the bots' entry and the decision, which
# every rule below the turn calls (3 s); then the draw with the hand limit here (3.5 s) beside
# the Clairvoyant's window and a look at an association card, which neither reaches (3.5 s);
# then a trade with its effects here (5 s) beside the fight and the turn's small functions
# (the action options, the record, a new state: 5 s); then the Diplomat here, its trades
# compiled already (2 s). What is left (the turn loop and the kernel's own loop, 7 s) is
# compiled by the kernel.
STAGES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("below", "below_0", "hand_options", "popcount"), ()),
    (("log_row", "seat_beliefs", "refresh_seat", "hard_seat", "init_game"), ("choose",)),
    (("see_items", "announce", "see_occ", "reveal_occ"), ("bot_choose", "decide")),
    (("settle_limits", "draw"), ("clair_window", "look_assoc")),
    (("trade",), ("fight", "action_options", "fill_record", "new_state")),
    (("diplomat",), ()),
)

_HELPER = [sys.executable, "-m", "kutsch_sim.parallel_compile"]


def _types(spec: tuple[str, ...]) -> tuple:
    import numba
    from numba import types

    from .engine.state import STATE_DT
    from .spec import SPEC_DT

    st = numba.from_dtype(STATE_DT)
    named = {"st": st, "vw": st.typeof("mem").typeof("vw"), "rs": st.typeof("rs"), "sp": numba.from_dtype(SPEC_DT),
             "0": types.literal(0), "i8": types.int64, "script": types.Array(types.int32, 2, "C")}
    return tuple(named[s] for s in spec)


def _dispatcher(name: str):
    import importlib

    module, func, _ = PARTS[name]
    return getattr(importlib.import_module(f"kutsch_sim.{module}"), func)


def _overload_keys() -> set[tuple[str, str]]:
    """(function, signature) of every overload of kutsch_sim's jitted functions in this process."""
    from numba.core.registry import CPUDispatcher

    keys = set()
    for name, mod in list(sys.modules.items()):
        if not name.startswith("kutsch_sim."):
            continue
        for attr, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == name:
                keys.update((f"{name}.{attr}", str(sig)) for sig in obj.overloads)
    return keys


def _compile(names: tuple[str, ...]) -> list[str]:
    """Compile these parts at the nested level; the functions this added to the process."""
    from .jit import compiling_parts

    before = _overload_keys()
    with compiling_parts():
        for name in names:
            _dispatcher(name).compile(_types(PARTS[name][2]))
    return sorted({f for f, _ in _overload_keys() - before})


def parts_wanted(kernel) -> bool:
    """Whether compiling ``kernel`` should start with :func:`compile_batch_parts`."""
    from numba import config

    from ._jitcache import kernel_cached

    if config.DISABLE_JIT or kernel.overloads:  # (without the JIT a kernel is a plain function)
        return False
    if os.environ.get("KUTSCH_SIM_PARALLEL_COMPILE", "1") == "0" or (os.cpu_count() or 1) < 2:
        return False
    last = [*STAGES[-1][0], *STAGES[-1][1]][-1]  # the plan's last part: compiled or cached once these sources compiled
    module, func, _ = PARTS[last]
    if _dispatcher(last).overloads:
        return False
    return not kernel_cached(func, module.replace(".", "/") + ".py")


_ONE_AT_A_TIME = threading.Lock()

# The plan as this process ran it, if it did: {"ok": the helper did its share, "record": what
# each side added stage by stage (compile_batch_parts), "seconds": per stage, this process's
# compile and then its wait for the helper, "by_kernel": the functions the kernel's own compile
# then compiled, none of them a part's}. Read by the tests and scripts/dev/compile_profile.py.
LAST_RUN: dict | None = None


@contextlib.contextmanager
def parts_first(kernel):
    """Around ``kernel``'s first call: compile its parts on two processes first if that is
    wanted, then note the functions the kernel's own compile adds (:data:`LAST_RUN`)."""
    global LAST_RUN
    with _ONE_AT_A_TIME:
        ran = parts_wanted(kernel)
        if ran:
            seconds: list = []
            ok, record = compile_batch_parts(seconds)
            LAST_RUN = {"ok": ok, "record": record, "seconds": seconds, "by_kernel": []}
    if not ran:
        yield
        return
    from numba.core import event

    class Compiled(event.Listener):
        def on_start(self, ev) -> None:
            f = ev.data["dispatcher"].py_func
            LAST_RUN["by_kernel"].append(f"{f.__module__}.{f.__name__}")

        def on_end(self, ev) -> None:
            pass

    with event.install_listener("numba:compile", Compiled()):
        yield


def compile_batch_parts(seconds: list | None = None) -> tuple[bool, list]:
    """Run :data:`STAGES` with a helper process. Returns whether the helper did its share, and
    per stage the functions each side added to its process: ``(stage, "main" or "helper",
    [function, ...])``. Appends ``(stage, this process's compile, its wait for the helper)``
    in seconds to ``seconds`` if given."""
    pkg_root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    helper = subprocess.Popen(_HELPER, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    ok, record = True, []
    try:
        for k, (mine, _) in enumerate(STAGES):
            if ok:
                try:
                    helper.stdin.write(f"{k}\n")
                    helper.stdin.flush()
                except OSError:
                    ok = False
            t0 = time.perf_counter()
            added = _compile(mine)
            record.append((k, "main", added))
            t1 = time.perf_counter()
            if ok:
                reply = helper.stdout.readline()
                ok = reply.startswith("done ")
                if ok:
                    record.append((k, "helper", json.loads(reply[5:])))
            if seconds is not None:
                seconds.append((k, round(t1 - t0, 2), round(time.perf_counter() - t1, 2)))
        if ok:
            helper.stdin.close()
            ok = helper.wait() == 0
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
    return ok, record


def _serve() -> int:
    """The helper: for each stage number read from stdin, compile the helper's parts of it and
    answer ``done`` with the functions it added (JSON)."""
    for line in sys.stdin:
        added = _compile(STAGES[int(line)][1])
        sys.stdout.write("done " + json.dumps(added) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(_serve())
