"""The single decision entry point.

Every choice any player makes goes through :func:`decide_nb`: the engine writes the
legal options into ``st.opts[0:n]`` and the situation into ``st.dctx``, and gets back
the chosen option *value*. A scripted decision (``st.script``) is taken first when its
(seat, kind) matches; otherwise the seat's bot is asked (``engine.seats.ask_nb``).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import ERR, SC
from .seats import ask_nb


@njit(cache=True, inline="always")
def decide_nb(st, seat, kind, n):
    """Return the chosen value among st.opts[0:n] for ``seat``'s decision ``kind``. (An
    inlined wrapper: the body compiles once for int64 arguments, see engine.log.log_nb.)"""
    return decide_body_nb(st, np.int64(seat), np.int64(kind), np.int64(n))


@njit(cache=True)
def decide_body_nb(st, seat, kind, n):
    """:func:`decide_nb`'s body (int64 arguments)."""
    st.sc[SC.N_DECISIONS] += 1
    if n <= 0:
        if st.sc[SC.ERROR] == 0:
            st.sc[SC.ERROR] = ERR.NO_OPTIONS
        return -1
    pos = st.sc[SC.SCRIPT_POS]
    if pos < st.sc[SC.N_SCRIPT] and st.script[pos, 0] == seat and st.script[pos, 1] == kind:
        st.sc[SC.SCRIPT_POS] = pos + 1
        v = st.script[pos, 2]
        for i in range(n):
            if st.opts[i] == v:
                return v
        if st.sc[SC.ERROR] == 0:
            st.sc[SC.ERROR] = ERR.SCRIPT
        return st.opts[0]
    if n == 1:
        return st.opts[0]
    i = ask_nb(st, seat, kind, n)
    return st.opts[i]


@njit(cache=True, inline="always")
def yes_no_nb(st, seat, kind):
    """A 0/1 decision (0 = no is listed first)."""
    st.opts[0] = 0
    st.opts[1] = 1
    return decide_nb(st, seat, kind, 2) == 1
