"""The heuristic bots' decisions by kind (:func:`choose_nb`), and those that are neither the turn's
action (``act``), a trade (``trading``) nor a fight (``fighting``): the Clairvoyant, the Coat,
the Diplomat, the hand-limit gift and the Sextant.

Each ``*_nb`` function takes the seat's View record (``bots.view``, never the State),
returns the index of the chosen option in ``v.opts[0:v.n_opts]`` and writes the reason to
``v.out`` (code, target, card/value). Values are from the deciding seat's side ("ours"
vs "theirs"); equal scores are broken with the game's random stream.

Every ``choose_*_nb`` that :func:`choose_nb` is the only caller of is ``inline="always"``
(the turn's action excepted, which is long): numba would otherwise build each as a library
of its own (``kutsch_sim.jit``), a cost paid at every cold compile for nothing at run time.
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import (
    C_LOGE,
    C_MONOCLE,
    C_PEARL,
    C_PRIVILEGE,
    future_team_nb,
    is_bag_nb,
    kind_nb,
)
from ..enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_X,
    DEC,
    IK,
    N_CARDS,
)
from ..rng import below_nb
from .act import choose_action_nb, choose_decl_name_nb
from .fighting import (
    choose_doctor_nb,
    choose_fight_play_nb,
    choose_hypno_nb,
    choose_mixer_nb,
    choose_priest_nb,
    choose_support_nb,
    choose_take_nb,
    choose_win_nb,
)
from .intrinsics import ctz_nb
from .params import (
    M_DIPLO_NAME,
    M_DIPLO_OFFER,
    M_DIPLO_T,
    P_CONSOLIDATE,
    P_OCC_MARGIN,
)
from .reasons import (
    R_CHOOSE,
    R_CLAIR_PICK,
    R_CLAIR_PICK2,
    R_CLAIR_SKIP,
    R_CLAIR_USE,
    R_COAT,
    R_DIPLO_NAME,
    R_DIPLO_OFFER,
    R_DIPLO_SKIP,
    R_DIPLO_TARGET,
    R_DIPLO_USE,
    R_GIVE_BACK,
    R_GIVE_NAMED,
    R_LIMIT_ALLY,
    R_LIMIT_DENY,
    R_LIMIT_GIVE,
    R_LIMIT_PEARL,
    R_LIMIT_SPARE,
    R_PRIEST_GIVE,
    R_RETURN_SPARE,
    R_RING,
    R_SEXTANT_DIR,
    R_SEXTANT_PASS,
)
from .trading import (
    choose_acard_nb,
    choose_accept_nb,
    choose_effect_nb,
    choose_return_nb,
    choose_smuggle_nb,
    return_score_nb,
    transfer_nb,
)
from .values import (
    EVM,
    MY_ANY,
    MY_FUT,
    OCC_VALUE,
    TM,
    cards_at_nb,
    out_nb,
    pick_best_nb,
    prep_nb,
)

# LIMIT_GIVE: the cost of handing an item to a seat already at the hand limit, who must then
# give one on (R2.4): well above what shedding a harmless item to an opponent with room
# costs, and above the Black Pearl's pull towards a teammate or an opponent, so the item
# leaves the full hands instead of going round them
V_FULL = 3.0



@njit(cache=True, inline="always")
def choose_clair_use_nb(v):
    """CLAIR_USE (R3, R8; the engine asks at the turn's start, before each draw of the turn
    and at its end, ``ctx[X]``): used right before a card is drawn, by me or by a likely
    teammate (``ctx[B]``, P(teammate) past 0.5 + ``occ_margin``), so that the best card of
    the deck is the one drawn; kept otherwise. (The turn's action counts on this: a Secret
    Bag's draw or a tie's is worth more while the Clairvoyant is ready, ``act.choose_action_nb``.)"""
    d = v.ctx[DCTX_B]
    if v.ctx[DCTX_X] == CLAIR_DRAW and d >= 0 and (d == v.me or v.tm[d] > 0.5 + v.par[P_OCC_MARGIN]):
        out_nb(v, R_CLAIR_USE, d, -1)
        return 1
    out_nb(v, R_CLAIR_SKIP, -1, -1)
    return 0


@njit(cache=True)
def clair_value_nb(c, team):
    f = future_team_nb(c)
    if f == team:
        return 10.0
    if f >= 0:
        return 2.0  # I draw it: it is out of their hands
    if c == C_LOGE:
        return 4.0
    if c == C_PEARL:
        return -5.0
    if c == C_MONOCLE or c == C_PRIVILEGE:
        return 1.0
    return 0.5


@njit(cache=True)
def clair_second_value_nb(c, team):
    """The Clairvoyant's second card (under the top) goes to whoever draws next, as likely an
    opponent as not: best nothing either team wants, least our own victory items or the
    Loge (a solo win for someone else)."""
    f = future_team_nb(c)
    if f == team:
        return -3.0
    if f >= 0:
        return -1.0
    if c == C_LOGE:
        return -4.0
    return 0.0


@njit(cache=True, inline="always")
def choose_clair_pick_nb(v):
    """CLAIR_PICK (R8): the first pick (ctx[X] = 0) goes on top, drawn at once by me or a
    likely teammate (``choose_clair_use_nb``); the second under it, for the next drawer,
    whoever that is (otherwise it would be valued as if the Clairvoyant drew it too)."""
    sc = v.score
    second = v.ctx[DCTX_X] != 0
    for i in range(v.n_opts):
        sc[i] = clair_second_value_nb(v.opts[i], v.team) if second else clair_value_nb(v.opts[i], v.team)
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_CLAIR_PICK if v.ctx[DCTX_X] == 0 else R_CLAIR_PICK2, -1, v.opts[i])
    return i


@njit(cache=True, inline="always")
def choose_coat_nb(v):
    """COAT_PICK (R9 Coat): the most useful occupation in the pile."""
    sc = v.score
    for i in range(v.n_opts):
        sc[i] = OCC_VALUE[v.opts[i]]
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_COAT, -1, v.opts[i])
    return i


@njit(cache=True)
def name_for_card_nb(c, bags_open):
    """The item name (kind) that a Diplomat says to demand card c (R8)."""
    k = kind_nb(c)
    if k == IK.BAG_KEY or k == IK.BAG_GOBLET:
        if bags_open == 1:
            return IK.KEY if k == IK.BAG_KEY else IK.GOBLET
        return IK.BAG_KEY
    return k


@njit(cache=True, inline="always")
def choose_diplo_use_nb(v):
    """DIPLO_USE (R8): plan target, name and offer; use it when the item demanded is worth
    more than the item offered for it costs (the best card of my hand to hand that target,
    ``transfer_nb``), by a margin, and the seat is sure enough the target holds it (surer
    before the action, since a miss ends the turn at once). (Without this the offer's cost would be
    not counted, and a Diplomat gave the Loge, or its own team's item, for a lesser one.)"""
    prep_nb(v)
    scr = v.scr
    me = v.me
    occ_used = v.occ_up[me]
    mine = cards_at_nb(v.k_card, me)
    need = 0.85 if v.ctx[DCTX_X] == 0 else 0.55
    best = 1.5
    bt = -1
    bc = -1
    bo = -1
    for c in range(N_CARDS):
        t = v.k_card[c]
        if t < 0 or t >= v.n or t == me:
            continue
        if is_bag_nb(c) and v.bags_open == 0:
            continue  # "Secret Bag" names both Bags: too easy to get the wrong one
        p = v.conf[c]
        if p < need:
            continue
        tm = scr[TM + t]
        f = future_team_nb(c)
        if f == v.team:
            val = (1.0 - tm) * 10.0 + tm * v.par[P_CONSOLIDATE] * (scr[MY_FUT] + 1.0 - scr[EVM + t])
        elif f >= 0:
            val = (1.0 - tm) * 4.0
        elif c == C_LOGE:
            val = 2.0 + 2.0 * scr[MY_ANY]
        else:
            val = 0.0
        val *= p
        if val <= best:
            continue
        # the card offered: the one I would most like the target to have (Pearl to an opponent)
        off = -1e9
        o = -1
        m = mine
        while m:
            x = ctz_nb(m)
            m &= m - 1
            if kind_nb(x) == kind_nb(c) or (f >= 0 and future_team_nb(x) == v.team):
                continue  # the same kind back, or one of our victory items for another: no gain
            sx = transfer_nb(v, x, t, occ_used)
            if sx > off:
                off = sx
                o = x
        if o >= 0 and val + off > best:
            best = val + off
            bt = t
            bc = c
            bo = o
    if bt < 0:
        out_nb(v, R_DIPLO_SKIP, -1, -1)
        return 0
    v.mem[M_DIPLO_T] = bt
    v.mem[M_DIPLO_NAME] = name_for_card_nb(np.int64(bc), v.bags_open)
    v.mem[M_DIPLO_OFFER] = bo
    out_nb(v, R_DIPLO_USE, bt, v.mem[M_DIPLO_NAME])
    return 1


@njit(cache=True)
def follow_plan_nb(v, value, code):
    """Pick option ``value`` if offered (a plan made at DIPLO_USE), else a random one."""
    for i in range(v.n_opts):
        if v.opts[i] == value:
            out_nb(v, code, value if code == R_DIPLO_TARGET else -1, value)
            return i
    i = below_nb(v.rs, v.n_opts)
    out_nb(v, R_CHOOSE, -1, v.opts[i])
    return i


@njit(cache=True, inline="always")
def choose_limit_nb(v):
    """LIMIT_GIVE (R2.4): options target*32 + card. A seat already at the hand limit that
    receives must give an item on in turn, so handing it one only moves the problem
    (``V_FULL``), and a gain from it mostly goes on with the item. Without this, full hands
    passed items round (the other team's victory items among teammates, the Black Pearl
    between two full opponents) until the engine's 64-gift stop (R2.4): with all 21 items,
    34% of 4-player and 14% of 6-player smart games had over 60 gifts (46 and 17 a game on
    average; with the cost alone, 3.1 and 2.0 a game, 1% and 0.3% over 60)."""
    prep_nb(v)
    sc = v.score
    used = v.occ_up[v.me]
    lim = v.hand_limit
    for i in range(v.n_opts):
        o = v.opts[i]
        a = o // 32
        s = return_score_nb(v, o % 32, a, np.bool_(False), used, v.k_assoc[a] >= 0)
        if v.hand_n[a] >= lim:
            # what they are glad to have or to be rid of (the Black Pearl) they pass straight
            # on, often back: a gain counts a quarter; a loss stays with them, so it counts
            s = (0.25 * s if s > 0.0 else s) - V_FULL
        sc[i] = s
    i = pick_best_nb(v, v.n_opts)
    o = v.opts[i]
    a, c = o // 32, o % 32
    tm = v.scr[TM + a]
    f = future_team_nb(c)
    code = R_LIMIT_GIVE
    if f == v.team and tm >= 0.5:
        code = R_LIMIT_ALLY
    elif f >= 0 and tm >= 0.5:
        code = R_LIMIT_DENY
    elif c == C_PEARL and tm < 0.5:
        code = R_LIMIT_PEARL
    elif f < 0 and c != C_PEARL and c != C_LOGE and v.hand_n[a] < lim:
        code = R_LIMIT_SPARE
    out_nb(v, code, a, c)
    return i


@njit(cache=True, inline="always")
def choose_sextant_dir_nb(v):
    """SEXTANT_DIR (R9): options [left (seat+1), right (seat-1)]: pass towards the likelier
    teammate."""
    n = v.n
    left = (v.me + 1) % n
    right = (v.me - 1 + n) % n
    sc = v.score
    sc[0] = v.tm[left]
    sc[1] = v.tm[right]
    i = pick_best_nb(v, np.int64(2))
    out_nb(v, R_SEXTANT_DIR, left if i == 0 else right, -1)
    return i


# ------------------------------------------------------------------ dispatch by kind
@njit(cache=True)
def choose_nb(v):
    """Index of the heuristic bot's choice for decision v.kind, reason in v.out."""
    k = v.kind
    if k == DEC.ACTION:
        return choose_action_nb(v)
    if k == DEC.DECL_NAME:
        return choose_decl_name_nb(v)
    if k == DEC.ACCEPT:
        return choose_accept_nb(v)
    if k == DEC.RETURN or k == DEC.GIVE_NAMED or k == DEC.PRIEST_GIVE or k == DEC.GIVE_BACK:
        prep_nb(v)
        a = v.ctx[DCTX_A] if k == DEC.RETURN or k == DEC.GIVE_NAMED else v.ctx[DCTX_B]
        code = R_RETURN_SPARE
        if k == DEC.GIVE_NAMED:
            code = R_GIVE_NAMED
        elif k == DEC.PRIEST_GIVE:
            code = R_PRIEST_GIVE
        elif k == DEC.GIVE_BACK:
            code = R_GIVE_BACK
        return choose_return_nb(v, a, k == DEC.RETURN, code)
    if k == DEC.EFFECT_USE:
        return choose_effect_nb(v)
    if k == DEC.SMUGGLE:
        return choose_smuggle_nb(v)
    if k == DEC.ACARD_PICK:
        return choose_acard_nb(v)
    if k == DEC.SUPPORT:
        return choose_support_nb(v)
    if k == DEC.FIGHT_PLAY:
        return choose_fight_play_nb(v)
    if k == DEC.RING_USE:
        out_nb(v, R_RING, -1, -1)
        return 1
    if k == DEC.HYPNO:
        return choose_hypno_nb(v)
    if k == DEC.MIXER:
        return choose_mixer_nb(v)
    if k == DEC.DOCTOR_USE:
        return choose_doctor_nb(v)
    if k == DEC.PRIEST_USE:
        return choose_priest_nb(v)
    if k == DEC.WIN_CHOICE:
        return choose_win_nb(v)
    if k == DEC.TAKE:
        return choose_take_nb(v)
    if k == DEC.LIMIT_GIVE:
        return choose_limit_nb(v)
    if k == DEC.SEXTANT_DIR:
        return choose_sextant_dir_nb(v)
    if k == DEC.SEXTANT_PASS:
        prep_nb(v)
        return choose_return_nb(v, v.ctx[DCTX_B], np.bool_(False), np.int64(R_SEXTANT_PASS))
    if k == DEC.COAT_PICK:
        return choose_coat_nb(v)
    if k == DEC.CLAIR_USE:
        return choose_clair_use_nb(v)
    if k == DEC.CLAIR_PICK:
        return choose_clair_pick_nb(v)
    if k == DEC.DIPLO_USE:
        return choose_diplo_use_nb(v)
    if k == DEC.DIPLO_TARGET:
        return follow_plan_nb(v, v.mem[M_DIPLO_T], np.int64(R_DIPLO_TARGET))
    if k == DEC.DIPLO_NAME:
        return follow_plan_nb(v, v.mem[M_DIPLO_NAME], np.int64(R_DIPLO_NAME))
    if k == DEC.DIPLO_OFFER:
        return follow_plan_nb(v, v.mem[M_DIPLO_OFFER], np.int64(R_DIPLO_OFFER))
    out_nb(v, R_CHOOSE, -1, -1)
    return 0
