"""The kernel of ``fit_beliefs.py temper``: tempered P(teammate) beside the truth.

At every third turn of a game the active seat's posterior weights w over the team assignments
(``bots.beliefs``) are raised to each power of a grid and renormalised, and its P(q is a
teammate) read off them for every seat q whose association it has not seen. A row is
[1 if q is its teammate, then one P per power]. The game itself is played as a batch plays it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kutsch_sim.bots.beliefs import kept_nb
from kutsch_sim.bots.dispatch import refresh_seat_nb
from kutsch_sim.engine.game import play_turns_nb
from kutsch_sim.engine.state import new_state_nb
from kutsch_sim.enums import SC
from kutsch_sim.jit import record_nb
from kutsch_sim.play import copy_state_nb, init_game_nb, keep_alive_nb


@njit(cache=True)
def _games(spec, ng, taus, out):
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    cbuf = new_state_nb(0, np.zeros((0, 3), np.int32))
    cp = record_nb(cbuf)
    sp = record_nb(spec)
    n = sp.n
    k = 0
    full = (1 << n) - 1
    nt = len(taus)
    for g in range(ng):
        init_game_nb(st, sp, g)
        while st.sc[SC.OVER] == 0:
            p = st.sc[SC.ACTIVE]
            if st.sc[SC.TURN] % 3 == 0:
                copy_state_nb(cp, st)
                refresh_seat_nb(cp, p)
                na = kept_nb(n, cp.sc[SC.N_ASG])
                w = cp.mem.bel_w[p]
                for q in range(n):
                    if q == p or cp.k_assoc[p, q] >= 0 or k >= out.shape[0]:
                        continue
                    r = out[k]
                    r[0] = 1.0 if cp.assoc[q] == cp.assoc[p] else 0.0
                    for t in range(nt):
                        z = 0.0
                        s = 0.0
                        for i in range(na):
                            if w[i] <= 0.0:
                                continue
                            x = w[i] ** taus[t]
                            a = cp.mem.bel_asg[i]
                            same = a if (a >> p) & 1 else (~a) & full
                            z += x
                            if (same >> q) & 1:
                                s += x
                        r[1 + t] = s / z if z > 0 else 0.5
                    k += 1
            play_turns_nb(st, 1)
    keep_alive_nb(buf)
    keep_alive_nb(cbuf)
    return k


def tempered_rows(cfg, seed: int, games: int, taus: np.ndarray) -> np.ndarray:
    out = np.zeros((games * 120, 1 + len(taus)))
    k = _games(cfg.spec(seed), games, taus, out)
    return out[: min(k, len(out))]
