"""A position to decide in, shared by the bots' view and observer tests
(tests/test_bots_view.py, tests/test_bots_observer.py): a game of given seats played for a
number of turns, as a State record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.params import P_TOLD
from kutsch_sim.bots.profiles import bot_arrays
from kutsch_sim.engine.game import play_turn_nb
from kutsch_sim.engine.state import as_record, new_state_nb
from kutsch_sim.enums import SC
from kutsch_sim.play import init_game_nb


@njit(cache=True)
def prefix_nb(spec, game, turns):
    """Game ``game`` of ``spec`` played for ``turns`` turns (or to its end): the position a bot
    decides in."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = buf[0]
    n = spec[0].n
    init_game_nb(st, spec[0], game)
    t = 0
    while st.sc[SC.OVER] == 0 and t < turns:
        play_turn_nb(st)
        st.sc[SC.TURN] += 1
        if st.sc[SC.OVER] == 0:
            st.sc[SC.ACTIVE] = (st.sc[SC.ACTIVE] + 1) % n
        t += 1
    return buf


def position(n, bots, game, turns, item_set="full", told=()):
    """``told``: seats told their team's size (P_TOLD bits 3: whichever it is)."""
    cfg = GameConfig(n, item_set=item_set, bots=bots)
    par = bot_arrays(cfg.bots)[1]
    par[list(told), P_TOLD] = 3
    return as_record(prefix_nb(cfg.spec(7, params=par), game, turns))
