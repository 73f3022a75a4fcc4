"""A position to decide in, shared by the bots' view and observer tests
(tests/test_bots_view.py, tests/test_bots_observer.py): a game of given seats played for a
number of turns, as a State record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.params import P_TOLD
from kutsch_sim.engine.game import play_turn_nb
from kutsch_sim.engine.state import as_record, new_state_nb
from kutsch_sim.enums import SC
from kutsch_sim.play import init_game_nb


@njit(cache=True)
def prefix_nb(n, in_game, stamped, bots, bparams, seed, config_id, game, turns):
    """A game played for ``turns`` turns (or to its end): the position a bot decides in."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = buf[0]
    init_game_nb(st, n, in_game, stamped, bots, bparams, seed, config_id, game, 400, True, 0)
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
    nn, in_game, stamped, b, par = cfg.arrays()
    par[list(told), P_TOLD] = 3
    return as_record(prefix_nb(nn, in_game, stamped, b, par, np.uint64(7), cfg.config_id, game, turns))
