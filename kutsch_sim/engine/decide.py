"""The single decision entry point.

Every choice any player makes goes through :func:`decide_nb`: the engine writes the
legal options into ``st.opts[0:n]`` and the situation into ``st.dctx``, and gets back
the chosen option *value*. A scripted decision (``st.script``) is taken first when its
(seat, kind) matches; otherwise the seat's bot is asked (``engine.seats.ask_nb``).

A decision the rules take for a seat (an offer that cannot be refused, R4.5, R4.6, R8, or
must be refused, R4.7) asks nobody: :func:`forced_nb`. A script may still write it, and the
row is then checked against what the rules force.

Position runs (``kutsch_sim.notation``) may arm a pause (``sc[PAUSE]``): once every script row
is used, the first decision of the armed seat and kind raises :class:`StopAtDecision`, which
leaves the state exactly as it is before that decision (options in ``opts[0:sc[PAUSE_N]]``,
the situation in ``dctx``). A dealt game never arms it: its cost is one scalar test.
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import ERR, FORCED, PAUSE, SC
from .seats import ask_nb


class StopAtDecision(Exception):
    """Raised by the engine at an armed pause (``sc[PAUSE]``); the state is left as it is."""


@njit(cache=True, inline="always")
def decide_nb(st, seat, kind, n):
    """Return the chosen value among st.opts[0:n] for ``seat``'s decision ``kind``. (An
    inlined wrapper: the body compiles once for int64 arguments, see engine.log.log_nb.)"""
    return decide_body_nb(st, np.int64(seat), np.int64(kind), np.int64(n))


@njit(cache=True)
def decide_body_nb(st, seat, kind, n):
    """:func:`decide_nb`'s body (int64 arguments)."""
    if st.sc[SC.PAUSE] != PAUSE.OFF and pause_due_nb(st, seat, kind):
        stop_nb(st, seat, kind, n, np.int64(FORCED.NONE))
    st.sc[SC.N_DECISIONS] += 1
    if n <= 0:
        if st.sc[SC.ERROR] == 0:
            st.sc[SC.ERROR] = ERR.NO_OPTIONS
        return -1
    pos = take_script_row_nb(st, seat, kind)
    if pos >= 0:
        v = st.script[pos, 2]
        for i in range(n):
            if st.opts[i] == v:
                return v
        refuse_script_row_nb(st, pos)
        return st.opts[0]
    if n == 1:
        return st.opts[0]
    i = ask_nb(st, seat, kind, n)
    return st.opts[i]


@njit(cache=True)
def pause_due_nb(st, seat, kind):
    """Is the pause armed for this decision, with the script used up and no script row refused?"""
    sc = st.sc
    if sc[SC.PAUSE] != PAUSE.ARMED or sc[SC.SCRIPT_POS] < sc[SC.N_SCRIPT] or sc[SC.ERROR] != 0:
        return False
    return (sc[SC.PAUSE_SEAT] < 0 or sc[SC.PAUSE_SEAT] == seat) and (sc[SC.PAUSE_KIND] < 0 or sc[SC.PAUSE_KIND] == kind)


@njit(cache=True)
def stop_nb(st, seat, kind, n, why):
    """Stop before this decision: record it in ``sc[PAUSE*]`` and ``sc[FORCED]`` (``why``, for a
    decision the rules take) and raise :class:`StopAtDecision`."""
    st.sc[SC.PAUSE] = PAUSE.STOPPED
    st.sc[SC.PAUSE_SEAT] = seat
    st.sc[SC.PAUSE_KIND] = kind
    st.sc[SC.PAUSE_N] = n
    st.sc[SC.FORCED] = why
    raise StopAtDecision()


@njit(cache=True, inline="always")
def forced_nb(st, seat, kind, value, why):
    """A decision the rules take for ``seat``: returns ``value``, asks nobody and counts no
    decision. ``why`` (``enums.Forced``) names the rule. Only a position run (a script row
    left, or a pause armed) goes further: :func:`forced_body_nb`."""
    if st.sc[SC.PAUSE] != PAUSE.OFF or st.sc[SC.SCRIPT_POS] < st.sc[SC.N_SCRIPT]:
        return forced_body_nb(st, np.int64(seat), np.int64(kind), np.int64(value), np.int64(why))
    return np.int64(value)


@njit(cache=True)
def forced_body_nb(st, seat, kind, value, why):
    """:func:`forced_nb` with a script or a pause: the pause may stop here (one option,
    ``value``); a script row of this seat and kind is taken, and one that gives another
    value is refused (``ERR.SCRIPT``, ``sc[FORCED] = why``)."""
    if st.sc[SC.PAUSE] != PAUSE.OFF and pause_due_nb(st, seat, kind):
        st.opts[0] = value
        stop_nb(st, seat, kind, np.int64(1), why)
    pos = take_script_row_nb(st, seat, kind)
    if pos >= 0 and st.script[pos, 2] != value and refuse_script_row_nb(st, pos):
        st.sc[SC.FORCED] = why
    return value


@njit(cache=True, inline="always")
def take_script_row_nb(st, seat, kind):
    """The position of the next script row if it is ``seat``'s decision ``kind``, taken (the
    script moves on); -1 if it is not."""
    pos = st.sc[SC.SCRIPT_POS]
    if pos < st.sc[SC.N_SCRIPT] and st.script[pos, 0] == seat and st.script[pos, 1] == kind:
        st.sc[SC.SCRIPT_POS] = pos + 1
        return pos
    return -1


@njit(cache=True, inline="always")
def refuse_script_row_nb(st, pos):
    """Script row ``pos`` gives an answer the rules do not allow here: the run ends with
    ``ERR.SCRIPT`` naming the row, unless an error came first. Returns whether it did."""
    if st.sc[SC.ERROR] != 0:
        return False
    st.sc[SC.ERROR] = ERR.SCRIPT
    st.sc[SC.SCRIPT_BAD] = pos + 1
    return True


@njit(cache=True, inline="always")
def yes_no_nb(st, seat, kind):
    """A 0/1 decision (0 = no is listed first)."""
    st.opts[0] = 0
    st.opts[1] = 1
    return decide_nb(st, seat, kind, 2) == 1
