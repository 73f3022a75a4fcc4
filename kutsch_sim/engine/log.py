"""Event log (integer coded; decoded to English by ``kutsch_sim.review.trace``).

Rows are int32 [type, turn, a, b, c, d] (meanings in ``enums.Event``). A log of
capacity 0 turns logging off; events past the capacity are counted, not written.
When the seats keep what they observe (sc[BELIEFS] == 1) every event type they watch is
told to them (``engine.seats.tell_nb``), which updates each seat from what that seat can see.
In debug mode (sc[DEBUG] == 1) the invariants are checked after every event.
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import SC
from .invariants import check_nb
from .seats import TOLD_MASK, tell_nb


@njit(cache=True, inline="always")
def log_nb(st, typ, a, b, c, d):
    """Log event (typ, a, b, c, d). Call sites pass literal constants, int8 and int32 values;
    numba compiles a function once per combination of argument types, and a literal constant
    is a type of its own, so the arguments are made int64 here and the body (with the
    observer it calls) compiles once instead of some twenty times; this wrapper is inlined
    (numba IR), so it is not compiled on its own either (cold compile time)."""
    log_row_nb(st, np.int64(typ), np.int64(a), np.int64(b), np.int64(c), np.int64(d))


@njit(cache=True)
def log_row_nb(st, typ, a, b, c, d):
    """:func:`log_nb`'s body (int64 arguments)."""
    i = st.sc[SC.N_EVENTS]
    if i < st.sc[SC.LOG_CAP]:
        row = st.log[i]
        row[0] = typ
        row[1] = st.sc[SC.TURN]
        row[2] = a
        row[3] = b
        row[4] = c
        row[5] = d
    st.sc[SC.N_EVENTS] = i + 1
    if st.sc[SC.BELIEFS] == 1 and (TOLD_MASK >> typ) & 1:
        tell_nb(st, typ, a, b, c, d)
    if st.sc[SC.DEBUG] == 1:
        check_nb(st, np.bool_(False))
