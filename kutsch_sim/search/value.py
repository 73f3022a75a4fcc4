"""A value estimate for the look-ahead's cut rollouts: P(seat ``me`` wins) from a position.

A ``search`` profile with ``search_depth`` D > 0 plays each rollout for its action and D more
rounds (D x N turns), not to the end, and scores a rollout that has not ended by this estimate
(``lookahead.play_worlds_nb``). The rollout's position is a sampled world, whose truth the
rollout sees whole, so the estimate reads the truth: the cell of the position from ``me``'s
side, and that cell's share of wins for ``me`` in games of ``smart`` at every seat (the bots of
the rollouts), measured per player count (``scripts/dev/fit_value.py``, the table in
``value_table.py``). A cell is

- how many of our victory items that count now (R6.3, R9) our team holds, 0 to 3 or more;
- the same of theirs for their team;
- the Drink of Power (R7): none (even N), ours as the smaller team or theirs, each with the Drink
  in play or switched off;
- the Coat of Armor of the Loge (R6.5): in no hand, in mine, a teammate's or an opponent's.

The estimate is coarse on purpose: every action of one world is cut at the same depth and
scored by the same table, so what it gets wrong about a position is largely common to the
actions it compares, and what it saves is most of each rollout.
"""

from __future__ import annotations

import numpy as np

from ..cards_nb import now_team_nb
from ..engine.game import play_turns_nb
from ..engine.state import new_state_nb
from ..enums import MAX_PLAYERS, N_CARDS, SC, WIN
from ..jit import njit, record_nb
from ..play import init_game_nb, keep_alive_nb
from .value_table import VALUE

C_LOGE = N_CARDS - 1
N_A = 4  # our counted victory items in our team's hands: 0, 1, 2, 3 or more
N_B = 4  # theirs in theirs
N_M = 5  # the Drink of Power: even N; ours (smaller) in play; theirs in play; ours off; theirs off
N_L = 4  # the Loge: in no hand; mine; a teammate's; an opponent's
N_CELLS = N_A * N_B * N_M * N_L
assert VALUE.shape == (MAX_PLAYERS + 1, N_CELLS)


@njit(cache=True, inline="always")
def cell_nb(st, me):
    """The cell of position ``st`` from seat ``me``'s side (the module's docstring)."""
    n = st.sc[SC.N]
    team = st.assoc[me]
    bags = st.sc[SC.BAGS_OPEN]
    a = 0
    b = 0
    for c in range(N_CARDS):
        p = st.loc[c]
        if p < 0 or p >= n:
            continue
        t = now_team_nb(c, bags)
        if t < 0 or st.assoc[p] != t:
            continue
        if t == team:
            a += 1
        else:
            b += 1
    m = 0
    mino = st.sc[SC.MINORITY]
    if mino >= 0:
        m = (1 if mino == team else 2) + (0 if st.sc[SC.DRINK] == 1 else 2)
    h = st.loc[C_LOGE]
    lo = 0
    if h >= 0 and h < n:
        lo = 1 if h == me else (2 if st.assoc[h] == team else 3)
    return ((min(a, N_A - 1) * N_B + min(b, N_B - 1)) * N_M + m) * N_L + lo


@njit(cache=True, inline="always")
def won_nb(st, me):
    """1.0 if seat ``me`` won the finished game ``st`` (its team's win, or its own solo win)."""
    w = st.sc[SC.WINNER]
    if w == st.assoc[me] or (w == WIN.SOLO and st.sc[SC.SOLO_SEAT] == me):  # WIN.ORDER/BROTHERHOOD are the teams
        return 1.0
    return 0.0


@njit(cache=True, inline="always")
def value_nb(st, me):
    """Seat ``me``'s win (0 or 1) if the game is over, else the table's estimate of its cell."""
    if st.sc[SC.OVER] != 0:
        return won_nb(st, me)
    return VALUE[st.sc[SC.N], cell_nb(st, me)]


@njit(cache=True)
def value_counts_nb(spec, game0, n_games, counts, wins):
    """Play games game0 .. game0+n_games-1 of ``spec`` to the end and add, for every seat at
    every turn boundary, one to ``counts[cell]`` and the seat's win to ``wins[cell]``
    (float64[N_CELLS] each): the measurements ``value_table.py`` is made from."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    sp = record_nb(spec)
    cap = 40_000
    seen = np.empty(cap, np.int64)
    for g in range(n_games):
        init_game_nb(st, sp, game0 + g)
        n = st.sc[SC.N]
        k = 0
        while st.sc[SC.OVER] == 0:
            for p in range(n):
                if k < cap:
                    seen[k] = p * N_CELLS + cell_nb(st, p)
                    k += 1
            play_turns_nb(st, 1)
        for i in range(min(k, cap)):
            p = seen[i] // N_CELLS
            c = seen[i] % N_CELLS
            counts[c] += 1.0
            wins[c] += won_nb(st, p)
    keep_alive_nb(buf)
