"""numba glue that works compiled and in plain Python (``NUMBA_DISABLE_JIT=1``).

A kernel takes the game state as one record, ``buf[0]`` of a one-element structured array.
Compiled, ``buf[0]`` is that record; in plain Python it is a ``numpy.void``, which has no
attribute access (``st.loc``), so there the buffer is viewed as a record array first. Every
kernel that makes a state takes its record through :func:`record_nb`, so the rules and the
bots can be stepped through in a debugger and measured for line coverage.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

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
