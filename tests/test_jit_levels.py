"""The optimisation levels of ``kutsch_sim.jit``: a kernel called from Python is optimised at
``OUTER_OPT``, a function compiled only inside another's compile at ``NESTED_OPT``, and numba's
level is given back afterwards. (The golden records check that the levels change no game.)"""

from __future__ import annotations

import contextlib

import pytest
from numba import njit
from numba.core import config, event

from kutsch_sim import jit


@contextlib.contextmanager
def levels_seen():
    """(function name, numba's level) of every compile inside the block."""
    seen: list[tuple[str, int]] = []

    class Spy(event.Listener):  # registered after kutsch_sim.jit's, so it sees the level set
        def on_start(self, ev):
            seen.append((ev.data["dispatcher"].py_func.__name__, int(config.OPT)))

        def on_end(self, ev):
            pass

    spy = Spy()
    event.register("numba:compile", spy)
    try:
        yield seen
    finally:
        event.unregister("numba:compile", spy)


@pytest.fixture(autouse=True)
def no_light_modules():
    """These tests' kernels are the conftest's light modules: switched off here, then back."""
    was = jit._LEVELS.light, tuple(jit._LEVELS.keep)
    jit.light_modules(())
    yield
    jit.light_modules(*was)


def test_a_light_modules_kernel_compiles_at_the_nested_level():
    @njit(cache=False)
    def helper(x):
        return x + 2

    @njit(cache=False)
    def kernel(x):
        return x * 2

    jit.light_modules((__name__,), keep=(f"{__name__}.kernel",))
    with levels_seen() as seen:
        assert helper(1) == 3 and kernel(2) == 4
    assert seen == [("helper", min(jit.NESTED_OPT, jit.OUTER_OPT)), ("kernel", jit.OUTER_OPT)]


def test_nested_compiles_run_at_the_nested_level_and_the_outermost_at_its_own():
    @njit(cache=False)
    def inner(x):
        return x + 1

    @njit(cache=False)
    def outer(x):
        return inner(x) * 2

    before = config.OPT
    with levels_seen() as seen:
        assert outer(3) == 8
    assert seen == [("outer", jit.OUTER_OPT), ("inner", min(jit.NESTED_OPT, jit.OUTER_OPT))]
    assert before == config.OPT


def test_parts_compiled_ahead_of_their_kernel_run_at_the_nested_level():
    """``jit.compiling_parts`` (kutsch_sim.parallel_compile): a function called from Python
    inside it compiles as if another's compile called it, and the outermost level is back
    after it."""

    @njit(cache=False)
    def part(x):
        return x - 1

    @njit(cache=False)
    def kernel(x):
        return part(x) * 3

    with levels_seen() as seen:
        with jit.compiling_parts():
            assert part(5) == 4
        assert kernel(5) == 12
    assert seen == [("part", min(jit.NESTED_OPT, jit.OUTER_OPT)), ("kernel", jit.OUTER_OPT)]
