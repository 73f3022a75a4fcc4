"""numba glue that works compiled and in plain Python (``NUMBA_DISABLE_JIT=1``), and the
``njit`` every kernel module takes from here.

A kernel takes the game state as one record, ``buf[0]`` of a one-element structured array.
Compiled, ``buf[0]`` is that record; in plain Python it is a ``numpy.void``, which has no
attribute access (``st.loc``), so there the buffer is viewed as a record array first. Every
kernel that makes a state takes its record through :func:`record_nb`, so the rules and the
bots can be stepped through in a debugger and measured for line coverage.

**Optimised where it runs.** numba compiles each jitted function as a library of its own and
links into every caller the code of everything it calls, then runs LLVM's full pipeline
(``NUMBA_OPT``, 3 by default) over the whole again. The code that runs is the outermost
kernel's (the one called from Python), whose own pass covers all it calls; a function
compiled only because another calls it gets its pipeline run again inside each caller. So
while numba compiles such a nested function, :class:`_OptimiseOutermost` lowers the level to
``NESTED_OPT`` (1: constants folded, registers promoted, so the code stays small and
cacheable), and the outermost compile runs at ``OUTER_OPT``. Unless the user sets
``NUMBA_OPT``, ``kutsch_sim._jitcache`` also starts numba's machine-code generator at level
1 and keeps the outermost LLVM passes at 3. Same results (no fast-math, so no reordered
arithmetic: the golden records check it), the same speed of the kernels that run, and about
a third less cold compile (``docs/performance.md``). A nested function called later from
Python runs its level-1 code, which only the tests do. Parts of a kernel compiled ahead of it
on two processes (``kutsch_sim.parallel_compile``) are compiled at the nested level too
(:func:`compiling_parts`), so the kernel links the same code either way.
"""

from __future__ import annotations

import contextlib
import os

import numpy as np
from numba import config, njit
from numba.core import event

__all__ = ["NESTED_OPT", "OUTER_OPT", "compiling_parts", "light_modules", "njit", "record_nb"]

NESTED_OPT = 1
OUTER_OPT = int(os.environ.get("KUTSCH_SIM_OUTER_OPT") or int(config.OPT))


class _OptimiseOutermost(event.Listener):
    """``numba.config.OPT`` is ``OUTER_OPT`` while numba compiles a function called from Python
    and ``NESTED_OPT`` while it compiles one inside the compile of another (numba compiles
    under one global lock, so the stack is the nesting)."""

    def __init__(self) -> None:
        self._levels: list = []
        self.parts = False  # compiling_parts: nothing compiled now is an outermost kernel
        self.light: tuple[str, ...] = ()  # light_modules: modules whose kernels are not optimised
        self.keep: frozenset[str] = frozenset()  # light_modules: kernels that keep OUTER_OPT

    def on_start(self, event_) -> None:
        self._levels.append(config.OPT)
        outermost = len(self._levels) == 1 and not self.parts
        if outermost and self.light:
            fn = getattr(event_.data.get("dispatcher"), "py_func", None)
            module = getattr(fn, "__module__", "")
            outermost = (not module.startswith(self.light)
                         or f"{module}.{getattr(fn, '__name__', '')}" in self.keep)
        config.OPT = OUTER_OPT if outermost else min(NESTED_OPT, OUTER_OPT)

    def on_end(self, event_) -> None:
        config.OPT = self._levels.pop()


_LEVELS = _OptimiseOutermost()
event.register("numba:compile", _LEVELS)


@contextlib.contextmanager
def compiling_parts():
    """Compile functions called from Python as if another's compile called them (at
    ``NESTED_OPT``): parts of a kernel compiled ahead of it (``kutsch_sim.parallel_compile``),
    whose code only ever runs linked into the kernel."""
    was, _LEVELS.parts = _LEVELS.parts, True
    try:
        yield
    finally:
        _LEVELS.parts = was

def light_modules(prefixes: tuple[str, ...], keep: tuple[str, ...] = ()) -> None:
    """Compile the functions of modules whose names start with one of ``prefixes`` at
    ``NESTED_OPT`` even when called from Python, except the kernels named in ``keep``
    (``module.function``). For the tests: their own small kernels, and the engine's and the
    bots' functions they call directly (a position played a few turns, one decision), would
    otherwise each run LLVM's full pipeline over the whole engine and the bots they call, for
    code that runs for milliseconds; the kernels that play whole batches keep theirs, so the
    cache never holds a lightly optimised batch kernel. Same results (no fast-math); ``()``
    switches it off."""
    _LEVELS.light = tuple(prefixes)
    _LEVELS.keep = frozenset(keep)


DISABLE_JIT = bool(config.DISABLE_JIT)

if DISABLE_JIT:

    def record_nb(buf):
        """The record ``buf[0]``, with attribute access to its fields."""
        return buf.view(np.recarray)[0]

else:

    @njit(cache=True, inline="always")
    def record_nb(buf):
        """The record ``buf[0]``, with attribute access to its fields."""
        return buf[0]
