"""Fight decisions of the heuristic bots (greedy and smart): supports, the fighters' own
cards and occupations, the Poison Mixer, the Doctor, the Priest, the Hypnotist, and what the
winner takes (R5, R8). Each takes the seat's View record (``bots.view``), returns the index
of the chosen option and writes its reason to ``v.out`` (``values.out_nb``).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import (
    C_LOGE,
    C_PEARL,
    C_WHIP,
    future_team_nb,
)
from ..enums import (
    DCTX_A,
    DCTX_B,
    DCTX_SRC,
    DCTX_U,
    DCTX_W,
    DCTX_X,
    DCTX_Y,
    N_CARDS,
    OC,
    SIDE_ATT,
    SIDE_DEF,
    SRC,
)
from .params import (
    P_CONSOLIDATE,
    P_INFO_VALUE,
    P_LOGE_WATCH,
    P_OCC_MARGIN,
    P_SUPPORT_MARGIN,
    P_SUPPORT_PRICE,
)
from .reasons import (
    R_DOCTOR,
    R_DOCTOR_NONE,
    R_HYPNO,
    R_HYPNO_NONE,
    R_ITEMS,
    R_KEEP_BONUS,
    R_LOOK,
    R_LOOK_OCC,
    R_MIXER,
    R_MIXER_NONE,
    R_PLAY_BONUS,
    R_PRIEST,
    R_PRIEST_NONE,
    R_SUPPORT_ATT,
    R_SUPPORT_DEF,
    R_SUPPORT_NONE,
    R_SUPPORT_PRICE,
    R_TAKE,
    R_TAKE_LOGE,
    R_TAKE_NONE,
)
from .trading import return_score_nb
from .values import (
    EVM,
    EVT,
    LOGE,
    MY_ANY,
    MY_FUT,
    MY_NOW,
    MY_THEIRS,
    TM,
    V_SOLO,
    keep_value_nb,
    loge_hold_nb,
    loge_threat_nb,
    out_nb,
    pick_best_nb,
    prep_nb,
    solo_threat_nb,
)


@njit(cache=True, inline="always")
def choose_support_nb(v):
    """SUPPORT (R5.3): options [neutral, attacker, defender]."""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    diff = v.tm[a] - v.tm[d]
    m = v.par[P_SUPPORT_MARGIN]
    price = v.par[P_SUPPORT_PRICE]
    if price > 0.0:
        # a support shows my team to the table (R5.3): worth it only when my +1 moves enough,
        # the difference in P(teammate) times what the fight puts at stake (R5.8: the loser's
        # items, seen by the winner or taken; their number is public)
        stake = 0.5 + 0.25 * (v.ctx[DCTX_X] + v.ctx[DCTX_Y])
        if abs(diff) * stake <= price:
            out_nb(v, R_SUPPORT_PRICE, -1, -1)
            return 0
    if diff > m:
        out_nb(v, R_SUPPORT_ATT, a, -1)
        return 1
    if diff < -m:
        out_nb(v, R_SUPPORT_DEF, d, -1)
        return 2
    out_nb(v, R_SUPPORT_NONE, -1, -1)
    return 0


@njit(cache=True)
def outcome_nb(mine, other):
    if mine > other:
        return 1
    if mine < other:
        return -1
    return 0


@njit(cache=True, inline="always")
def choose_fight_play_nb(v):
    """FIGHT_PLAY (R5.5): options [no, yes] for bonus ctx[SRC] in a fight ctx[A] vs ctx[B]."""
    a = v.ctx[DCTX_A]
    src = v.ctx[DCTX_SRC]
    me = v.me
    if src == SRC.DUELIST:
        # once per game (R8): only if cancelling the supports (with the supporters' cards and
        # Bodyguards) and +1 changes the result for me; ctx X, Y are the sides' strengths so
        # far, U, W the principals' own parts
        x = v.ctx[DCTX_X]
        y = v.ctx[DCTX_Y]
        pa = v.ctx[DCTX_U]
        pd = v.ctx[DCTX_W]
        if me == a:
            now = outcome_nb(np.int64(x), np.int64(y))
            then = outcome_nb(np.int64(pa + 1), np.int64(pd))
        else:
            now = outcome_nb(np.int64(y), np.int64(x))
            then = outcome_nb(np.int64(pd + 1), np.int64(pa))
        if then > now:
            out_nb(v, R_PLAY_BONUS, -1, src)
            return 1
        out_nb(v, R_KEEP_BONUS, -1, src)
        return 0
    # fixed bonuses cost nothing but showing the card: play them for the side I am on
    out_nb(v, R_PLAY_BONUS, -1, src)
    return 1


@njit(cache=True, inline="always")
def choose_hypno_nb(v):
    """HYPNO (R8): options [-1, seats]; void the support of the defender's best supporter."""
    sc = v.score
    any_def = False
    for i in range(v.n_opts):
        s = v.opts[i]
        if s < 0:
            sc[i] = 0.0
        elif v.sup[s] == SIDE_DEF:
            sc[i] = 1.0
            if v.k_card[C_WHIP] == s:
                sc[i] += v.conf[C_WHIP]
            if v.k_occ[s] == OC.BODYGUARD:
                sc[i] += 1.0
            any_def = True
        else:
            sc[i] = -1.0
    if not any_def:
        out_nb(v, R_HYPNO_NONE, -1, -1)
        for i in range(v.n_opts):
            if v.opts[i] < 0:
                return i
        return 0
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_HYPNO, v.opts[i], -1)
    return i


@njit(cache=True, inline="always")
def choose_mixer_nb(v):
    """MIXER (R8): options [-1, attacker wins, defender wins]; ctx[U] is the side winning so
    far (a tie broken by a Poison Ring, R5.6), so the once-only Mixer is kept when that side
    is already the one it would name. It is also kept when nothing of ours
    is at stake: our victory items at the side it would make the winner (which the other
    would take) and at the other side (which the winner takes back) expected under 0.3
    (the Mixer's seat then wins +0.4 and +0.3 points at 6 and 8 players, no change at 4)."""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    x = v.ctx[DCTX_X]
    y = v.ctx[DCTX_Y]
    won = v.ctx[DCTX_U]
    diff = v.tm[a] - v.tm[d]
    m = v.par[P_OCC_MARGIN]
    side = 0
    if diff > m and x <= y and won != SIDE_ATT:
        side = 1
    elif diff < -m and y <= x and won != SIDE_DEF:
        side = 2
    if side != 0:
        # only with something at stake: our victory items at the seat I would make the
        # winner (which the other would take) or at the one I would make the loser (taken back)
        prep_nb(v)
        scr = v.scr
        s = a if side == 1 else d
        o = d if side == 1 else a
        stake = (scr[MY_FUT] if s == v.me else scr[EVM + s]) + scr[EVM + o]
        if stake > 0.3:
            out_nb(v, R_MIXER, s, -1)
            return side
    out_nb(v, R_MIXER_NONE, -1, -1)
    return 0


@njit(cache=True, inline="always")
def choose_doctor_nb(v):
    """DOCTOR_USE (R5.7): options [no, yes]; ctx[X] is the side that won (0 tie). Used when the
    loser is likelier my teammate than the winner (by ``occ_margin``) and has something of
    ours to lose: our victory items there (prep_nb's expectation; mine counted exactly when I
    lost) past 0.3. (Formerly it was used on the first such fight, whatever was at
    stake: the Doctor was the weakest occupation, 37.4% at 6 players, 4.3 points under the
    average seat; kept for a fight that matters it wins 39.7%, +2.3 points, and +1.6 and +1.5
    at 4 and 8 players: the same 150,000-200,000 deals, seed 2026.)"""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    won = v.ctx[DCTX_X]
    if won == SIDE_ATT or won == SIDE_DEF:
        w = a if won == SIDE_ATT else d
        lo = d if won == SIDE_ATT else a
        if v.tm[lo] - v.tm[w] > v.par[P_OCC_MARGIN]:
            prep_nb(v)
            scr = v.scr
            stake = scr[MY_FUT] if lo == v.me else scr[EVM + lo]
            if stake > 0.3:
                out_nb(v, R_DOCTOR, lo, -1)
                return 1
    out_nb(v, R_DOCTOR_NONE, -1, -1)
    return 0


@njit(cache=True, inline="always")
def choose_priest_nb(v):
    """PRIEST_USE (R8): options [no, yes]; stop attacker ctx[A] before supports. For its own
    defence: when what the attacker may take or learn, weighed by P(the attacker is an
    opponent), passes 1.6 (rather than 1.2, at which a Priest holder with one victory item
    stopped the first attack of an unknown seat; at 1.6 the Priest's seat wins +1.0, +0.9 and
    +0.4 points at 6, 8 and 4 players); for another defender, a likelier teammate than the
    attacker (by ``occ_margin``) who holds our victory items."""
    prep_nb(v)
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    scr = v.scr
    if d == v.me:
        stake = (1.0 - scr[TM + a]) * (0.5 + 2.0 * min(1.0, scr[MY_FUT]) + min(1.0, scr[MY_THEIRS]))
        use = stake > 1.6
    else:
        use = scr[TM + d] - scr[TM + a] > v.par[P_OCC_MARGIN] and scr[EVM + d] > 0.3
    if use:
        out_nb(v, R_PRIEST, d, -1)
        return 1
    out_nb(v, R_PRIEST_NONE, -1, -1)
    return 0


@njit(cache=True, inline="always")
def choose_win_nb(v):
    """WIN_CHOICE (R5.8): options [look at association+occupation, look at items]."""
    prep_nb(v)
    lo = v.ctx[DCTX_B]
    scr = v.scr
    tm = scr[TM + lo]
    info = v.par[P_INFO_VALUE]
    look = 0.0
    if v.k_assoc[lo] < 0:
        look = info * 4.0 * tm * (1.0 - tm)
    if v.k_occ[lo] < 0:
        look += 0.1 * info
    em = min(1.0, scr[EVM + lo])
    et = min(1.0, scr[EVT + lo])
    items = (1.0 - tm) * (6.0 * em + 3.0 * et) + tm * 0.5 * em + 0.3
    items += loge_threat_nb(v, lo) * (1.0 - 0.5 * tm)  # the loser may hold the Loge near a solo win (R6.5)
    if look > items:
        out_nb(v, R_LOOK if v.k_assoc[lo] < 0 else R_LOOK_OCC, lo, -1)
        return 0
    out_nb(v, R_ITEMS, lo, -1)
    return 1


@njit(cache=True)
def take_value_nb(v, c, lo, occ_used):
    """Value of taking card c from the loser lo (R5.8)."""
    team, bags_open, deck_n, scr, par = v.team, v.bags_open, v.deck_n, v.scr, v.par
    tm = scr[TM + lo]
    f = future_team_nb(c)
    w = 1.0 if c < 6 or bags_open == 1 else 0.6
    # what the loser's Loge loses if this leaves its hand (R6.5; seen, as the winner looked)
    lw = par[P_LOGE_WATCH]
    k = scr[EVM + lo] + scr[EVT + lo]
    cut = 0.0
    if f >= 0:
        cut = loge_hold_nb(v, w)
        if lw > 0.0:
            cut += lw * V_SOLO * scr[LOGE + lo] * (solo_threat_nb(k, v.loge_need) - solo_threat_nb(k - w, v.loge_need))
    if f == team:
        gather = par[P_CONSOLIDATE] * (scr[MY_FUT] + 1.0 - scr[EVM + lo])
        return w * ((1.0 - tm) * 10.0 + tm * gather) + cut
    if f >= 0:
        return w * ((1.0 - tm) * 4.0 - tm * 1.0) + cut
    if c == C_PEARL:
        return -3.0
    if c == C_LOGE:
        if lw > 0.0:
            return 4.0 + 2.0 * scr[MY_ANY] + lw * V_SOLO * solo_threat_nb(k, v.loge_need)
        return 4.0 + 2.0 * scr[MY_ANY]
    return keep_value_nb(c, team, bags_open, deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used) - 0.3 * tm - 0.2


@njit(cache=True, inline="always")
def choose_take_nb(v):
    """TAKE (R5.8): options [-1, the loser's cards]."""
    prep_nb(v)
    lo = v.ctx[DCTX_B]
    sc = v.score
    used = v.occ_up[v.me]
    back = 0.0
    if v.hand_n[lo] == 1:  # taking their only item: one of mine goes back to them (R5.8)
        back = -1e9
        known = v.k_assoc[lo] >= 0
        for y in range(N_CARDS):
            if v.k_card[y] == v.me:
                back = max(back, return_score_nb(v, y, lo, np.bool_(False), used, known))
    for i in range(v.n_opts):
        c = v.opts[i]
        sc[i] = 0.0 if c < 0 else take_value_nb(v, c, lo, used) + back
    i = pick_best_nb(v, v.n_opts)
    c = v.opts[i]
    if c < 0:
        out_nb(v, R_TAKE_NONE, lo, -1)
    elif c == C_LOGE and v.par[P_LOGE_WATCH] > 0.0 and v.scr[EVM + lo] + v.scr[EVT + lo] >= 1.5:
        out_nb(v, R_TAKE_LOGE, lo, c)
    else:
        out_nb(v, R_TAKE, lo, c)
    return i


# ------------------------------------------------------------------ occupations
