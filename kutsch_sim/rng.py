"""Counter-based random streams for numba kernels (STYLE 6).

Each game owns one stream: ``rs = uint64[2]`` holding (key, counter). The key mixes the
master seed, the configuration id and the game index with SplitMix64, so game g of a
run is the same on any thread, in any batch, on any machine. Output i of a stream is
``mix64(key + i * GOLDEN)``: SplitMix64 evaluated at a counter, i.e. counter-based.
Never use ``np.random`` inside the engine.
"""

from __future__ import annotations

import numpy as np
from numba import config

from .jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix64_nb(z):
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key_nb(seed, config_id, game):
    """Key of the stream of game ``game`` of configuration ``config_id`` under ``seed``."""
    k = mix64_nb(np.uint64(seed) ^ GOLDEN)
    k = mix64_nb(k ^ (np.uint64(config_id) * _M1))
    return mix64_nb(k ^ (np.uint64(game) * _M2 + GOLDEN))


@njit(cache=True)
def seed_stream_nb(rs, seed, config_id, game):
    rs[0] = stream_key_nb(seed, config_id, game)
    rs[1] = np.uint64(0)


@njit(cache=True, inline="always")
def next_u64_nb(rs):
    rs[1] += np.uint64(1)
    return mix64_nb(rs[0] + rs[1] * GOLDEN)


@njit(cache=True)
def below_nb(rs, n):
    """Uniform integer in [0, n) (n >= 1), unbiased (Lemire's multiply-shift with rejection)."""
    if n <= 1:
        return 0
    nn = np.uint64(n)
    threshold = (np.uint64(0) - nn) % nn
    while True:
        x = next_u64_nb(rs)
        lo = x * nn  # low 64 bits of the 128-bit product (wraps)
        # high 64 bits of x * n, n < 2**32
        hi = (x >> np.uint64(32)) * nn + (((x & np.uint64(0xFFFFFFFF)) * nn) >> np.uint64(32))
        if lo >= threshold:
            return np.int64(hi >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform_nb(rs):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64_nb(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def shuffle_nb(rs, a, n):
    """Fisher–Yates shuffle of a[0:n] in place. ``n`` is made int64 so that the body compiles
    once per array type (callers pass literal counts)."""
    shuffle_body_nb(rs, a, np.int64(n))


@njit(cache=True)
def shuffle_body_nb(rs, a, n):
    """:func:`shuffle_nb`'s body (int64 ``n``)."""
    for i in range(n - 1, 0, -1):
        j = below_nb(rs, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


if config.DISABLE_JIT:  # plain Python: numpy wraps uint64 as the compiled code does, but warns

    def _wrapping(f):
        def g(*args):
            with np.errstate(over="ignore"):
                return f(*args)

        g.__doc__, g.__name__ = f.__doc__, f.__name__
        return g

    mix64_nb, stream_key_nb, next_u64_nb = _wrapping(mix64_nb), _wrapping(stream_key_nb), _wrapping(next_u64_nb)
    below_nb, uniform_nb = _wrapping(below_nb), _wrapping(uniform_nb)
