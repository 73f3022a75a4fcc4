"""Whole games and batches in which some seats search (``search.lookahead``).

The same entry points as ``kutsch_sim.play``'s, with each search seat's look-ahead run at the
start of its turns. :func:`batch_kernel` and :func:`traced_kernel` choose them only when a
seat's profile is a search profile, so that a run without one never compiles them.
"""

from __future__ import annotations

import numpy as np

from ..bots.dispatch import final_beliefs_nb
from ..bots.params import BOT_SEARCH
from ..engine.state import new_state_nb
from ..enums import SC
from ..jit import njit, record_nb
from ..play import init_game_nb, keep_alive_nb, play_games_nb, play_one_nb, store_record_nb
from .lookahead import MAX_WIDTH, WINS_LEN, play_searching_nb


@njit(cache=True)
def work_states_nb():
    """The look-ahead's three work states, logging nothing (their buffers: keep them alive)."""
    no_script = np.zeros((0, 3), np.int32)
    return new_state_nb(0, no_script), new_state_nb(0, no_script), new_state_nb(0, no_script)


@njit(cache=True)
def play_to_end_nb(st):
    """Play ``st`` from a turn boundary to its end, the searching seats looking ahead
    (``lookahead.play_searching_nb``) on work states of this call's own."""
    b0, b1, b2 = work_states_nb()
    cand = np.zeros(MAX_WIDTH, np.int64)
    wins = np.zeros(WINS_LEN, np.float64)
    play_searching_nb(st, record_nb(b0), record_nb(b1), record_nb(b2), cand, wins)
    keep_alive_nb(b0)
    keep_alive_nb(b1)
    keep_alive_nb(b2)


@njit(cache=True, nogil=True)
def play_search_games_nb(spec, game0, out):
    """``play.play_games_nb`` with searching seats: games game0 .. game0+len(out)-1 into ``out``."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    sp = record_nb(spec)
    for i in range(out.shape[0]):
        init_game_nb(st, sp, game0 + i)
        play_to_end_nb(st)
        store_record_nb(out, i, st)
    keep_alive_nb(buf)


@njit(cache=True)
def play_search_one_nb(spec, game, log_cap):
    """``play.play_one_nb`` with searching seats: one game with its event log."""
    buf = new_state_nb(log_cap, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    init_game_nb(st, record_nb(spec), game)
    play_to_end_nb(st)
    final_beliefs_nb(st)
    m = min(st.sc[SC.N_EVENTS], st.sc[SC.LOG_CAP])
    res = (st.rec.copy(), st.log[:m].copy(), st.sc.copy(), st.mem.bel_team.copy(), st.mem.bel_minor.copy())
    keep_alive_nb(buf)
    return res


def searching(spec) -> bool:
    """Does any seat of ``spec`` (``kutsch_sim.spec``), or a side's profile when it seats them by
    side, play the search bot?"""
    sp = spec[0]
    ids = sp["bots"][: sp["n"]]
    if sp["by_side"]:
        ids = np.concatenate([ids, sp["side_bots"]])
    return bool(np.any(ids == BOT_SEARCH))


def batch_kernel(spec):
    """The batch kernel for ``spec``: :func:`play_search_games_nb` if a seat searches, else
    ``play.play_games_nb`` (for ``play.play_batch``'s ``kernel``)."""
    return play_search_games_nb if searching(spec) else play_games_nb


def traced_kernel(spec):
    """The traced-game kernel for ``spec`` (``play.play_one_nb``'s signature)."""
    return play_search_one_nb if searching(spec) else play_one_nb
