"""The turn (R3), and play from any position to the end of the game or for a number of turns.

Whole games with their seats, and batches of games, are played by ``kutsch_sim.play``.

Why so much is ``inline="always"`` here and in the rules' modules: numba compiles every
jitted function as a library of its own, with the code of everything it calls linked in and
optimised again. A function that reaches a decision (``decide_nb``) therefore recompiles the
whole of the bots. So the rules that can lead to a decision are inlined into their callers
(numba's IR inliner) and cost no library of their own where that is cheaper: the turn, the
fight, the declaration and the trade effects, each called from one place, and the
smuggling (called twice, in the trade effects). What is called from several places stays a
function (``play_turns_body_nb``, which every kernel that plays calls; ``decide_body_nb``,
``trade_body_nb``, ``run_effect_nb``, ``draw_nb``, ``settle_limits_nb``, ...): inlined, it
would be copied, typed and lowered once per place, and again inside every function it is
inlined into, which costs more than its library.
``docs/performance.md`` has the measured compile times."""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import (
    ACT_ATTACK,
    ACT_DECLARE,
    ACT_MUL,
    ACT_PASS,
    ACT_TRADE,
    CLAIR_END,
    CLAIR_START,
    DEC,
    DK,
    ERR,
    EV,
    N_CARDS,
    OC,
    REC,
    SC,
    WIN,
)
from .decide import decide_nb, yes_no_nb
from .declare import declarable_nb, declare_nb
from .fight import FIGHT_DONE, fight_nb
from .invariants import check_nb
from .log import log_nb
from .trade import DIPLO_END_TURN, TRADE_FREE, clair_window_nb, diplomat_nb, trade_nb


@njit(cache=True)
def action_options_nb(st, p):
    """Write the legal actions of seat p into st.opts (R3): pass, trade (target, card),
    attack (target), declare (team / with Drink / Loge / fortune-telling, R10). Returns the count."""
    n = st.sc[SC.N]
    st.opts[0] = ACT_PASS * ACT_MUL
    k = 1
    first = -1  # the first target's trades from a pass over the cards, the others' copied
    k1 = 1
    for t in range(n):
        if t == p:
            continue
        if first < 0:
            first = t
            for c in range(N_CARDS):
                if st.loc[c] == p:
                    st.opts[k] = ACT_TRADE * ACT_MUL + t * 32 + c
                    k += 1
            k1 = k
        else:
            d = (t - first) * 32
            for j in range(1, k1):
                st.opts[k] = st.opts[j] + d
                k += 1
    for t in range(n):
        if t != p:
            st.opts[k] = ACT_ATTACK * ACT_MUL + t * 32
            k += 1
    legal = declarable_nb(st, p)
    for kind in range(DK.TEAM, DK.FORTUNE + 1):
        if (legal >> kind) & 1:
            st.opts[k] = ACT_DECLARE * ACT_MUL + kind
            k += 1
    return k


@njit(cache=True)
def diplomat_ready_nb(st, p):
    return st.occ[p] == OC.DIPLOMAT and not st.occ_up[p]


@njit(cache=True, inline="always")
def play_turn_nb(st):
    """One turn of the active seat (R3): Diplomat before, the action, Diplomat after. The
    Clairvoyant, usable "at any point of your own turn" (R3), is offered at the turn's start,
    right before each card drawn during the turn (engine.trade.clair_window_nb: a Secret
    Bag's effect, a tie) and at its end. Ruling: the Diplomat may act after the action unless
    a Priest or a Doctor ended the turn; nothing follows a turn ended at once (R8)."""
    p = st.sc[SC.ACTIVE]
    log_nb(st, EV.TURN, p, 0, 0, 0)
    clair_window_nb(st, CLAIR_START, -1)
    diplo_done = False
    if diplomat_ready_nb(st, p):
        st.dctx[0] = p
        st.dctx[4] = 0
        if yes_no_nb(st, p, DEC.DIPLO_USE):
            diplo_done = True
            if diplomat_nb(st, p, 0) == DIPLO_END_TURN:
                return
    k = action_options_nb(st, p)
    st.dctx[0] = p
    v = decide_nb(st, p, DEC.ACTION, k)
    act = v // ACT_MUL
    t = (v % ACT_MUL) // 32
    c = v % 32
    ended = False
    if act == ACT_PASS:
        log_nb(st, EV.PASS, p, 0, 0, 0)
    elif act == ACT_TRADE:
        trade_nb(st, p, t, c, TRADE_FREE, -1)
    elif act == ACT_ATTACK:
        ended = fight_nb(st, p, t) != FIGHT_DONE
    else:
        declare_nb(st, p, v % ACT_MUL)
        return
    if not diplo_done and not ended and diplomat_ready_nb(st, p) and st.sc[SC.OVER] == 0:
        st.dctx[0] = p
        st.dctx[4] = 1
        if yes_no_nb(st, p, DEC.DIPLO_USE):
            ended = diplomat_nb(st, p, 1) == DIPLO_END_TURN
    if not ended:
        clair_window_nb(st, CLAIR_END, -1)  # (it checks that the game goes on)


@njit(cache=True, inline="always")
def play_turns_nb(st, turns):
    """Play at most ``turns`` whole turns from the current position (a turn boundary), or
    until a declaration, the turn cap or an error ends the game (then the record is filled);
    ``turns < 0`` plays to the end. Returns the turns played. The kernels pass -1, 1 or a
    count, and numba compiles a function once per combination of argument types (a literal is
    a type of its own), so this inlined wrapper makes ``turns`` int64 and the turn loop, the
    largest function every kernel links, compiles once for all of them (``engine.log.log_nb``)."""
    return play_turns_body_nb(st, np.int64(turns))


@njit(cache=True)
def play_turns_body_nb(st, turns):
    """:func:`play_turns_nb`'s body (``turns`` int64)."""
    k = 0
    while st.sc[SC.OVER] == 0 and k != turns:
        if st.sc[SC.TURN] >= st.sc[SC.TURN_CAP]:
            st.sc[SC.WINNER] = WIN.TIMEOUT  # R3 ruling: a timeout is nobody's win
            st.sc[SC.OVER] = 1
            log_nb(st, EV.TIMEOUT, st.sc[SC.TURN], 0, 0, 0)
            break
        play_turn_nb(st)
        k += 1
        st.sc[SC.TURN] += 1
        if st.sc[SC.DEBUG] == 1:
            check_nb(st, np.bool_(True))
        if st.sc[SC.ERROR] != ERR.OK:
            st.sc[SC.WINNER] = WIN.ERROR
            st.sc[SC.OVER] = 1
            break
        if st.sc[SC.OVER] == 0:
            st.sc[SC.ACTIVE] = (st.sc[SC.ACTIVE] + 1) % st.sc[SC.N]
    if st.sc[SC.OVER] != 0:
        fill_record_nb(st)
    return k


@njit(cache=True, inline="always")
def play_nb(st):
    """Play from the current position until a declaration, the turn cap or an error."""
    play_turns_nb(st, -1)


@njit(cache=True)
def fill_record_nb(st):
    r = st.rec
    r[REC.WINNER] = st.sc[SC.WINNER]
    r[REC.SOLO_SEAT] = st.sc[SC.SOLO_SEAT]
    r[REC.DECLARER] = st.sc[SC.DECLARER]
    r[REC.DECL_KIND] = st.sc[SC.DECL_KIND]
    r[REC.DECL_OK] = st.sc[SC.DECL_OK]
    r[REC.TURNS] = st.sc[SC.TURN]
    r[REC.MINORITY] = st.sc[SC.MINORITY]
    r[REC.ERROR] = st.sc[SC.ERROR]
    r[REC.DECISIONS] = st.sc[SC.N_DECISIONS]
