"""Probabilities that hold: the maps a calibrated seat reads its beliefs through when it
declares (``params.P_CALIBRATED``; the tables in ``calibration_table``).

A seat's posterior (``bots.beliefs``) ranks well but says more than it knows: its soft
evidence is correlated, and the seats that hold our victory items are not a random sample of
those it believes teammates (opponents keep our items from us). So a calibrated seat states,
and declares on, numbers read through maps fitted to what then happened in simulated games
at its player count (``kutsch_sim.calib``, ``docs/calibration.md``). Each map is a logistic
score of up to three features, ``z = c0 + c1 f1 + c2 f2 + c3 f3``, read through a monotone curve
(``KNOTS``: its values at z = Z0, Z0 + DZ, ..., linear between them, the ends held), which an
isotonic fit makes where the logistic alone misses the shape:

=========  =======================================  =============================================
map        what it states                            features
=========  =======================================  =============================================
M_NAMED    P(a seat it would name is a teammate)     logit P(teammate), logit of the same from hard
                                                     evidence alone
M_JOINT    P(every seat it would name is one)        logit of the joint posterior, and hard alone
M_ITEM     P(a card is still where it last saw it)   logit of its confidence (``bel_conf``)
M_MINOR    P(my team is the smaller), odd N (R2.2)   logit posterior share, logit hard-alone share
M_WAIT     P(my team wins by playing on)             logit of ``act.wait_odds_nb``, turn / 100
M_TEAM     P(the team declaration succeeds), R6.3    logit of M_JOINT x the M_ITEM of each counted
                                                     card
M_DRINK    the same with the Drink of Power, R7      logit of M_JOINT x M_ITEMs x M_MINOR
M_SEARCH   P(I win), the search's picked action      logit of the share of its sampled worlds that
           (``search.lookahead``)                    the action won; 1 if that share is a pick's
                                                     that replaced smart's choice; their product
=========  =======================================  =============================================

The last two are fitted on the declarations taken only: a seat declares the first time its
estimate passes its threshold, so the declarations made are those whose estimate was lucky
(the optimizer's curse in time); a map fitted on them states what such declarations are
worth. M_SEARCH is fitted on the look-ahead's picks, the label whether the seat then won (the
share of its worlds won overstates that above one half, docs/calibration.md); it leaves the
pick alone, since the look-ahead compares the raw shares, and states what such a share is
worth. Beyond the scores of the declarations it was fitted on, such a map is the logistic
alone (``calib.fit.regress``). The
identity map has the coefficients (0, 1, 0, 0), f1 = logit p, and the knots sigma(z).
"""

from __future__ import annotations

import math

import numpy as np

from ..cards_nb import now_team_nb
from ..enums import MAX_PLAYERS
from ..jit import njit
from .posterior import joint_nb, shares_nb
from .calibration_table import CAL, DZ, KNOTS, N_KNOTS, TEMPER_FIT, Z0
from .intrinsics import ctz_nb
from .values import CL_CONF, CL_TM, CLAIM

M_NAMED = 0
M_JOINT = 1
M_ITEM = 2
M_MINOR = 3
M_WAIT = 4
M_TEAM = 5
M_DRINK = 6
M_SEARCH = 7
N_MAPS = 8
MAP_LABELS = ("named", "joint", "item", "minority", "wait", "team", "drink", "search")
CALT = np.array(CAL, np.float64)  # [players, map, coefficient c0..c3]
KNOTT = np.array(KNOTS, np.float64)  # [players, map, knot]: the curve at z = Z0 + j DZ
TEMPER = np.array(TEMPER_FIT, np.float64)  # [players]: the search's worlds are drawn from w ** TEMPER
P_EDGE = 1e-4  # probabilities are kept within [P_EDGE, 1 - P_EDGE] before their logit


@njit(cache=True, inline="always")
def logit_nb(p):
    q = min(max(p, P_EDGE), 1.0 - P_EDGE)
    return math.log(q / (1.0 - q))


@njit(cache=True, inline="always")
def map_nb(n, k, f1, f2, f3):
    """Map k at n players of the features f1, f2, f3: the curve at c0 + c1 f1 + c2 f2 + c3 f3."""
    c = CALT[n, k]
    z = c[0] + c[1] * f1 + c[2] * f2 + c[3] * f3
    t = (z - Z0) / DZ
    if t <= 0.0:
        return KNOTT[n, k, 0]
    if t >= N_KNOTS - 1:
        return KNOTT[n, k, N_KNOTS - 1]
    j = int(t)
    u = t - j
    return KNOTT[n, k, j] * (1.0 - u) + KNOTT[n, k, j + 1] * u


@njit(cache=True)
def minority_nb(v):
    """P(my team is the smaller) as a calibrated seat states it (M_MINOR), from its View."""
    h, ps = shares_nb(v.n, v.me, v.na, v.asg, v.w, np.int64(0), True)
    if h < 0.0:
        return v.minor
    return map_nb(v.n, M_MINOR, logit_nb(ps), logit_nb(h), 0.0)


@njit(cache=True)
def cal_plan_nb(v, need, own, m_cal, drink):
    """A calibrated seat's declaration of its own team (R6.3; with ``drink`` its Drink of Power,
    R7, ``m_cal`` its stated P(minority)): whom to name so that our victory items reach
    ``need`` (``own`` of them in its hand), chosen for the highest stated P(success). Returns (stated P(success), bit mask, P(success) made of
    the parts, stated joint). Also writes what it states of each seat that holds our items
    (M_NAMED, at ``scr[CLAIM + CL_TM + p]``) and of each such card (M_ITEM, ``scr[CLAIM +
    CL_CONF + c]``)."""
    me, n, bags_open, k_card, conf = v.me, v.n, v.bags_open, v.k_card, v.conf
    scr = v.scr
    kind = M_DRINK if drink else M_TEAM
    cnt = np.zeros(MAX_PLAYERS)
    pi = np.ones(MAX_PLAYERS)
    cmask = 0
    for c in range(8):
        h = k_card[c]
        if h >= 0 and h < n and h != me and now_team_nb(c, bags_open) == v.team and conf[c] > 0.05:
            q = map_nb(n, M_ITEM, logit_nb(conf[c]), 0.0, 0.0)
            scr[CLAIM + CL_CONF + c] = q
            cnt[h] += 1.0
            pi[h] *= q
            cmask |= 1 << int(h)
    m = cmask
    while m:
        p = ctz_nb(m)
        m &= m - 1
        hp, _ = shares_nb(n, me, v.na, v.asg, v.w, np.int64(1) << p, False)
        scr[CLAIM + CL_TM + p] = map_nb(n, M_NAMED, logit_nb(v.tm[p]), logit_nb(hp), 0.0)
    if own >= need:
        if not drink:
            return 1.0, 0, 1.0, 1.0
        return map_nb(n, kind, logit_nb(m_cal), 0.0, 0.0), 0, m_cal, 1.0
    best = 0.0
    best_mask = 0
    best_p1 = 0.0
    best_j = 0.0
    sub = cmask
    while sub:
        k = own
        items = 1.0
        for p in range(n):
            if (sub >> p) & 1:
                k += cnt[p]
                items *= pi[p]
        if k >= need:
            pj = joint_nb(n, me, v.na, v.asg, v.w, v.k_assoc, sub, sub)
            hj, _ = shares_nb(n, me, v.na, v.asg, v.w, np.int64(sub), False)
            j = map_nb(n, M_JOINT, logit_nb(pj), logit_nb(hj), 0.0)
            p1 = j * items * (m_cal if drink else 1.0)
            pr = map_nb(n, kind, logit_nb(p1), 0.0, 0.0)
            if pr > best:
                best = pr
                best_mask = sub
                best_p1 = p1
                best_j = j
        sub = (sub - 1) & cmask
    return best, best_mask, best_p1, best_j
