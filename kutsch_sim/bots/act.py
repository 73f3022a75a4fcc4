"""The turn's action (R3) for the heuristic bots: declare, trade, attack or pass.

Every legal option gets a score in "points" from the seat's view (values.py), the best
wins (ties and the ``noise`` parameter broken with the game's stream). A declaration is
taken whenever its estimated chance of success clears the seat's threshold; the plan of
whom to name is kept in the seat's memory for the DECL_NAME decisions that follow.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit

from ..cards_nb import (
    C_COAT,
    C_MIRROR,
    C_MONOCLE,
    C_PEARL,
    C_PRIVILEGE,
    C_SEXTANT,
    C_TOME,
    future_team_nb,
    has_effect_nb,
    is_bag_nb,
    now_team_nb,
)
from ..enums import ACT_ATTACK, ACT_DECLARE, ACT_MUL, ACT_TRADE, DCTX_B, DK, OC
from ..rng import uniform_nb
from .attack import attack_base_nb, attack_score_nb, best_giveback_nb, support_lean_nb
from .posterior import joint_nb
from .calibration import M_WAIT, cal_plan_nb, logit_nb, map_nb, minority_nb, state_named_nb
from .intrinsics import ctz_nb
from .params import (
    M_CLAIMS,
    M_CLAIR_DN,
    M_CLAIR_TOP,
    M_DECL_NAMED,
    M_LAST_CARD,
    M_LAST_TARGET,
    M_PRESET,
    M_PRESET_ODDS,
    M_REJECTED,
    P_CALIBRATED,
    P_DECLARE_THRESHOLD,
    P_DRAW_VALUE,
    P_INFO_VALUE,
    P_LOGE_WATCH,
    P_NOISE,
    P_PASS_BIAS,
    P_URGENCY,
    P_WAIT_VALUE,
)
from .reasons import (
    R_ATTACK_TAKE,
    R_DECLARE_DRINK,
    R_DECLARE_DRINK_ODDS,
    R_DECLARE_FORTUNE,
    R_DECLARE_LOGE,
    R_DECLARE_LOGE_ALONE,
    R_DECLARE_ODDS,
    R_DECLARE_SURE,
    R_DECLARE_TEAM,
    R_DECLARE_WITH_TEAM,
    R_NAME,
    R_NAME_DONE,
    R_NAME_FORTUNE,
    R_PASS,
    R_SEARCH_PICK,
    R_TRADE_ALLY,
    R_TRADE_BAG,
    R_TRADE_DENY,
    R_TRADE_EFFECT,
    R_TRADE_INFO,
    R_TRADE_PEARL,
    R_TRADE_PEARL_PARK,
    R_TRADE_PRIVILEGE,
    R_TRADE_SPARE,
)
from .values import (
    CAND_CNT,
    CAND_P,
    CL_J_DRINK,
    CL_J_TEAM,
    CL_M_DRINK,
    CL_M_FORT,
    CL_M_TEAM,
    CL_MINOR,
    CL_P1_DRINK,
    CL_P1_TEAM,
    CL_P_DRINK,
    CL_P_FORT,
    CL_P_TEAM,
    CL_WAIT,
    CLAIM,
    N_CL,
    EVM,
    EVT,
    MY_FUT,
    MY_NOW,
    MY_THEIRS,
    SLOT,
    TM,
    TR_EFF,
    TR_KEEP,
    TR_REASON,
    cards_at_nb,
    draw_value_nb,
    give_value_nb,
    keep_value_nb,
    pick_best_nb,
    prep_nb,
)

REASON_AT = 512  # v.score[REASON_AT + i]: reason code of option i (options never exceed 512)
BOT_SMART_MODE = 3  # dispatch.BOT_SMART (joint team beliefs); other modes multiply marginals


# ------------------------------------------------------------------ declarations (R6, R7)
@njit(cache=True)
def plan_names_nb(v, item_team, opponents, need, own):
    """Best set of other seats to name so that the victory items of ``item_team`` reach
    ``need`` (``own`` of them already counted): returns (P(success), bitmask). Only items
    last seen at a seat count; P is P(all named are my teammates, or with ``opponents`` all
    are of the other team) x P(every counted item is still there). ``v``: the seat's View."""
    me, n, bags_open, k_card, conf, k_assoc = v.me, v.n, v.bags_open, v.k_card, v.conf, v.k_assoc
    tm, w, asg, na, mode, scr = v.tm, v.w, v.asg, v.na, v.mode, v.scr
    for p in range(n):
        scr[CAND_CNT + p] = 0.0
        scr[CAND_P + p] = 1.0
    cmask = 0
    for c in range(8):
        h = k_card[c]
        if h >= 0 and h < n and h != me and now_team_nb(c, bags_open) == item_team and conf[c] > 0.05:
            scr[CAND_CNT + h] += 1.0
            scr[CAND_P + h] *= conf[c]
            cmask |= 1 << int(h)
    if own >= need:
        return 1.0, 0
    best = 0.0
    best_mask = 0
    sub = cmask
    while sub:
        cnt = own
        pi = 1.0
        for p in range(n):
            if (sub >> p) & 1:
                cnt += scr[CAND_CNT + p]
                pi *= scr[CAND_P + p]
        if cnt >= need:
            if mode == BOT_SMART_MODE:
                pj = joint_nb(n, me, na, asg, w, k_assoc, sub, 0 if opponents else sub)
            else:
                pj = 1.0
                for p in range(n):
                    if (sub >> p) & 1:
                        pj *= 1.0 - tm[p] if opponents else tm[p]
            pr = pj * pi
            if pr > best:
                best = pr
                best_mask = sub
        sub = (sub - 1) & cmask
    return best, best_mask


@njit(cache=True, inline="always")
def plan_declaration_nb(v, need, own):
    """R6: the teammates to name so that our victory items reach ``need`` (own items ``own``)."""
    return plan_names_nb(v, v.team, np.bool_(False), np.int64(need), own)


@njit(cache=True, inline="always")
def plan_fortune_nb(v):
    """R10 fortune-telling: the other seats to name as the *other* team's holders of their winning
    combination (R6.3: 3 victory items, ``v.team_need``). No Drink of Power counts (only a
    declarer's own ever does, for its own team)."""
    return plan_names_nb(v, 1 - v.team, np.bool_(True), np.int64(v.team_need), 0.0)


@njit(cache=True, inline="always")
def wait_odds_nb(v):
    """My team's chance of winning by playing on, as the seat sees it: a logistic of how many
    of our victory items our team holds (mine, and each seat's expected share weighted by
    P(teammate)) against how many of theirs their team holds (R6.3)."""
    scr = v.scr
    ours = scr[MY_FUT]
    theirs = 0.0
    for p in range(v.n):
        if p != v.me:
            tm = scr[TM + p]
            ours += tm * scr[EVM + p]
            theirs += (1.0 - tm) * scr[EVT + p]
    return 1.0 / (1.0 + math.exp(-1.2 * (ours - theirs)))


# ------------------------------------------------------------------ trades (R4)
@njit(cache=True, inline="always")
def trade_card_nb(v, c, occ_used, clair_top_ok):
    """What offering card c is worth whoever takes it: (keep value, effect value, reason).
    The Monocle's and the Privilege's effects and the Pearl's reason depend on the target
    and are left to :func:`trade_score_nb`. Computed once per card of my hand for the turn's
    action, not once per (card, target) option."""
    team, deck_n, bags_open, scr, par = v.team, v.deck_n, v.bags_open, v.scr, v.par
    kv = 0.0
    if future_team_nb(c) < 0:
        kv = keep_value_nb(c, team, bags_open, deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)
    eff = 0.0
    reason = R_TRADE_SPARE
    if has_effect_nb(c, bags_open):
        if c == C_MONOCLE:
            reason = R_TRADE_INFO
        elif c == C_PRIVILEGE:
            reason = R_TRADE_PRIVILEGE
        elif is_bag_nb(c):
            if deck_n > 0:
                eff = draw_value_nb(par[P_DRAW_VALUE], deck_n, scr) + (3.0 if clair_top_ok else 0.0)
                if scr[MY_NOW] >= 2.0 and scr[MY_FUT] > scr[MY_NOW] and future_team_nb(c) != team:
                    eff += 4.0 / deck_n  # each draw brings the Bag I hold closer to counting
            reason = R_TRADE_BAG
        elif c == C_TOME:
            eff = 1.0 if occ_used else -0.1
            reason = R_TRADE_EFFECT
        elif c == C_COAT:
            eff = 0.8 if occ_used else 0.1
            reason = R_TRADE_EFFECT
        elif c == C_SEXTANT:
            eff = 0.1
            reason = R_TRADE_EFFECT
    if reason == R_TRADE_EFFECT and eff <= 0.0:
        reason = R_TRADE_SPARE  # e.g. a Tome while my occupation is unused: its effect would be declined
    f = future_team_nb(c)
    if f >= 0 and not (is_bag_nb(c) and reason == R_TRADE_BAG and eff > 0.0):
        reason = R_TRADE_ALLY if f == team else R_TRADE_DENY
    return kv, eff, reason


@njit(cache=True, inline="always")
def trade_score_nb(v, t, c, rejected, kv, eff, reason):
    """(score, reason) of offering card c to seat t; ``kv``, ``eff``, ``reason`` from
    :func:`trade_card_nb`."""
    scr, par = v.scr, v.par
    tm = scr[TM + t]
    gv = give_value_nb(v, c, t)
    if c == C_MONOCLE:
        eff = 0.0
        if v.k_assoc[t] < 0:
            eff = par[P_INFO_VALUE] * 4.0 * tm * (1.0 - tm)
    elif c == C_PRIVILEGE:
        eff = 0.25 * par[P_INFO_VALUE] * (0.3 + scr[SLOT + t] / max(1.0, v.hand_n[t]))
        eff += 0.5 * (scr[EVM + t] + scr[EVT + t])
    if c == C_PEARL:
        # to an opponent it stops them declaring; to a teammate it is parked while I gather
        # (give_value_nb: 6 tm - 1 once I hold 2 of ours)
        reason = R_TRADE_PEARL if tm < 0.5 else R_TRADE_PEARL_PARK
    forced = c == C_PEARL or c == C_MIRROR
    if forced:
        pacc = 1.0
    else:
        pacc = 0.45 + 0.4 * tm
        if (rejected >> t) & 1:
            pacc *= 0.3
    ret = 0.6 * (2.0 * tm - 1.0)  # what comes back: a teammate helps, an opponent dumps
    return pacc * (gv + eff + ret - kv), reason


# ------------------------------------------------------------------ the action
@njit(cache=True)
def choose_action_nb(v):
    """Index of the chosen ACTION option (R3), with the reason in v.out."""
    n = v.n
    me = v.me
    team = v.team
    par = v.par
    scr = v.scr
    score = v.score
    mem = v.mem
    prep_nb(v)
    occ_used = v.occ_up[me]
    thr = par[P_DECLARE_THRESHOLD] - par[P_URGENCY] * v.turn / 100.0
    thr = max(thr, 0.5)
    thr_fixed = thr
    for j in range(N_CL):
        scr[CLAIM + j] = -1.0
    cal = par[P_CALIBRATED] > 0.0  # declare on the calibrated statements (bots.calibration)
    m_cal = -1.0
    wf = 0.0  # logit of the stated odds of playing on, for the declaration maps (0: none stated)
    if par[P_WAIT_VALUE] < 1.0:
        # declarations by value (R6.4): a failed declaration loses, so declare once the
        # chance of success beats the team's chance of winning by playing on, plus what
        # waiting for more certainty is worth (wait_value)
        wait = wait_odds_nb(v)
        if cal:
            wait = map_nb(n, M_WAIT, logit_nb(wait), v.turn / 100.0, 0.0)
            # the team declaration's map reads these odds too (bots.calibration): at one
            # estimate, the declarations taken when they are poor are the marginal ones
            wf = logit_nb(wait)
        scr[CLAIM + CL_WAIT] = wait
        thr = min(thr, wait + par[P_WAIT_VALUE])
    noise = par[P_NOISE]
    # impatience: once a game runs past 10 turns a player, attacking a likely opponent to
    # take an item gains value (a stalled game -- each team's last victory item held by the
    # other -- is only broken by fights; without this, 1.3% of smart 4-player games ran
    # into the turn cap)
    stall = par[P_URGENCY] * max(0, v.turn - 10 * n) / 5.0
    # the next card drawn is a good one: I put it on top with the Clairvoyant, or I hold the
    # Clairvoyant face down and will use it right before a draw of this turn (R3, R8; the
    # engine asks then, policy.choose_clair_use_nb)
    clair_ok = v.k_occ[me] == OC.CLAIRVOYANT and not v.occ_up[me] and v.deck_n > 0
    top = mem[M_CLAIR_TOP]
    if top >= 0 and mem[M_CLAIR_DN] == v.deck_n and v.deck_n > 0:
        clair_ok = clair_ok or future_team_nb(top) == team or top == 20
    own = scr[MY_NOW]
    lean = support_lean_nb(v)
    mine = cards_at_nb(v.k_card, me)
    sa, tie, loss = attack_base_nb(v, clair_ok)
    m = mine  # each card's part of its trade scores, once (the options offer my cards only, R4)
    while m:
        c = ctz_nb(m)
        m &= m - 1
        kv, ef, rc = trade_card_nb(v, c, occ_used, clair_ok)
        scr[TR_KEEP + c] = kv
        scr[TR_EFF + c] = ef
        scr[TR_REASON + c] = rc
    p_team = -1.0
    m_team = 0
    p_drink = -1.0
    m_drink = 0
    p_fort = -1.0
    m_fort = 0
    i_loge = -1
    for i in range(v.n_opts):
        o = v.opts[i]
        act = o // ACT_MUL
        t = (o % ACT_MUL) // 32
        c = o % 32
        s = -1e9
        r = R_PASS
        if act == ACT_TRADE:
            s, r = trade_score_nb(v, t, c, mem[M_REJECTED], scr[TR_KEEP + c], scr[TR_EFF + c],
                                  int(scr[TR_REASON + c]))
        elif act == ACT_ATTACK:
            gb = 0.0  # only read when t holds a single item (attack_score_nb)
            if v.hand_n[t] == 1:
                gb = best_giveback_nb(v, t, occ_used, np.int64(mine))
            s, r = attack_score_nb(v, t, gb, lean, sa, tie, loss)
            if stall > 0.0 and r == R_ATTACK_TAKE and v.tm[t] < 0.5:  # impatience (above)
                s = s * (1.0 + stall) if s > 0.0 else s + stall
        elif act == ACT_DECLARE:
            dk = o % ACT_MUL
            if dk == DK.LOGE:
                s = 1e6  # legal only when it holds (the engine checks the hand): a sure win
                r = R_DECLARE_LOGE
                i_loge = i
            elif dk == DK.FORTUNE:
                p_fort, m_fort = plan_fortune_nb(v)
                scr[CLAIM + CL_P_FORT] = p_fort
                scr[CLAIM + CL_M_FORT] = m_fort
                if p_fort >= thr:
                    s = 1e3 * p_fort
                    r = R_DECLARE_FORTUNE
            else:
                need = v.team_need if dk == DK.TEAM else v.team_need - v.drink_items  # R6.3; R7
                if cal:
                    if dk == DK.DRINK:
                        m_cal = minority_nb(v)
                        scr[CLAIM + CL_MINOR] = m_cal
                    pr, mask, p1, pj = cal_plan_nb(v, need, own, m_cal, dk == DK.DRINK, wf)
                    scr[CLAIM + (CL_P1_DRINK if dk == DK.DRINK else CL_P1_TEAM)] = p1
                    scr[CLAIM + (CL_J_DRINK if dk == DK.DRINK else CL_J_TEAM)] = pj
                else:
                    pr, mask = plan_declaration_nb(v, need, own)
                    if dk == DK.DRINK:
                        pr *= v.minor
                        scr[CLAIM + CL_MINOR] = v.minor
                if dk == DK.DRINK:
                    p_drink = pr
                    m_drink = mask
                    scr[CLAIM + CL_P_DRINK] = pr
                    scr[CLAIM + CL_M_DRINK] = mask
                else:
                    p_team = pr
                    m_team = mask
                    scr[CLAIM + CL_P_TEAM] = pr
                    scr[CLAIM + CL_M_TEAM] = mask
                if pr >= thr:
                    s = 1e3 * pr
                    if dk == DK.DRINK:
                        # on a tie with the team declaration (3 items in hand or planned) the plain
                        # one is taken: the Drink adds nothing then (R6.3, R7)
                        s -= 0.5
                        r = R_DECLARE_DRINK if pr >= thr_fixed else R_DECLARE_DRINK_ODDS
                    elif mask == 0:
                        r = R_DECLARE_SURE
                    elif pr < thr_fixed:
                        r = R_DECLARE_ODDS
                    else:
                        r = R_DECLARE_TEAM
        else:
            s = par[P_PASS_BIAS]
        if noise > 0.0 and s > -1e8 and s < 1e2:
            s += noise * uniform_nb(v.rs)
        score[i] = s
        score[REASON_AT + i] = r  # the reason of each option, beside its score
    if i_loge >= 0 and p_team >= 1.0 - 1e-9 and par[P_LOGE_WATCH] > 0.0:
        # a certain team win and a certain solo win (R6.4, R6.5) are the same win for me:
        # the team's, so that teammates may gather our items with a Loge holder
        score[i_loge] = -1e9
    i = pick_best_nb(v, v.n_opts)
    pre = mem[M_PRESET] - 1  # the search bot's action chosen by look-ahead (kutsch_sim.search), once
    if pre >= 0:
        mem[M_PRESET] = 0
        found = -1
        for j in range(v.n_opts):
            if v.opts[j] == pre:
                found = j
                break
        if found >= 0 and found != i:
            i = found
        else:  # my own choice (the preset is illegal after a Diplomat's exchange, R8), and my reason
            pre = -1
    o = v.opts[i]
    act = o // ACT_MUL
    r = int(score[REASON_AT + i])
    v.out[0] = r
    v.out[1] = -1
    v.out[2] = -1
    if act == ACT_TRADE:
        v.out[1] = (o % ACT_MUL) // 32
        v.out[2] = o % 32
        mem[M_LAST_TARGET] = v.out[1]
        mem[M_LAST_CARD] = v.out[2]
    elif act == ACT_ATTACK:
        v.out[1] = (o % ACT_MUL) // 32
    elif act == ACT_DECLARE:
        dk = o % ACT_MUL
        if dk == DK.DRINK:
            mem[M_DECL_NAMED] = m_drink
            v.out[2] = int(100 * p_drink)
        elif dk == DK.TEAM:
            mem[M_DECL_NAMED] = m_team
            v.out[2] = int(own) if m_team == 0 else int(100 * p_team)
            if i_loge >= 0:
                v.out[0] = R_DECLARE_WITH_TEAM
        elif dk == DK.FORTUNE:
            mem[M_DECL_NAMED] = m_fort
            v.out[2] = int(100 * p_fort)
        else:
            mem[M_DECL_NAMED] = 0
            if p_team >= thr and par[P_LOGE_WATCH] > 0.0:
                # both sure enough: the solo win is mine alone and certain (R6.5), a choice
                # made on purpose and said in the trace
                v.out[0] = R_DECLARE_LOGE_ALONE
                v.out[2] = int(100 * p_team)
    if pre >= 0:  # the plans above are those of the action taken; the trace says why it was taken instead
        v.out[0] = R_SEARCH_PICK
        v.out[2] = mem[M_PRESET_ODDS]
    if cal and mem[M_CLAIMS] != 0 and (p_team >= 0.0 or p_drink >= 0.0):
        # what it states of the seats holding our items, knowing what it does: it decides
        # nothing, so only the calibration recorder's copy of the seat pays for it (calib.record)
        named = 0
        if act == ACT_DECLARE and o % ACT_MUL == DK.TEAM:
            named = m_team
        elif act == ACT_DECLARE and o % ACT_MUL == DK.DRINK:
            named = m_drink
        state_named_nb(v, np.int64(named))  # int64: one compile (named may be the literal 0)
    return i


@njit(cache=True, inline="always")
def choose_decl_name_nb(v):
    """DECL_NAME (R6.2): name the next planned teammate (R10 fortune-telling: opponent), then -1."""
    plan = v.mem[M_DECL_NAMED]
    for i in range(v.n_opts):
        q = v.opts[i]
        if q >= 0 and (plan >> q) & 1:
            v.out[0] = R_NAME_FORTUNE if v.ctx[DCTX_B] == DK.FORTUNE else R_NAME
            v.out[1] = q
            v.out[2] = -1
            return i
    for i in range(v.n_opts):
        if v.opts[i] < 0:
            v.out[0] = R_NAME_DONE
            v.out[1] = -1
            v.out[2] = -1
            return i
    v.out[0] = R_NAME_DONE
    return 0
