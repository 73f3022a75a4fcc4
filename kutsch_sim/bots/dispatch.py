"""Bot dispatch: the seat's bot id picks the policy (STYLE 7: ids, not function objects)."""

from __future__ import annotations

from numba import njit

from ..rng import below_nb

BOT_RANDOM = 0  # uniform over the legal options
BOT_FIRST = 1  # always the first option: "no", pass, reject, neutral ... (tests, scripts)


@njit(cache=True)
def bot_choose_nb(st, seat, kind, n):
    """Index in st.opts[0:n] chosen by ``seat``'s bot."""
    b = st.bot[seat]
    if b == BOT_FIRST:
        return 0
    return below_nb(st.rs, n)
