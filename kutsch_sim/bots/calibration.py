"""Probabilities that hold: the maps and surfaces a calibrated seat reads its beliefs through
when it declares (``params.P_CALIBRATED``; the tables in ``calibration_table``).

A seat's posterior (``bots.beliefs``) ranks well but says more than it knows: its soft
evidence is correlated, and the seats that hold our victory items are not a random sample of
those it believes teammates (opponents keep our items from us). So a calibrated seat states,
and declares on, numbers fitted to what then happened in simulated games at its player count
(``kutsch_sim.calib``, ``docs/calibration.md``).

Beliefs about teams are read from **surfaces** over the logit of the posterior's value and the
logit of the same from hard evidence alone (``SURF``: their values at knots, bilinear between
them, the ends held; what hard evidence settles, 0 or 1, stays settled). For the seats our
items are with, the posterior's soft evidence is nearly flat between about 0.2 and 0.95 and not
monotone, so no monotone curve of one score states it:

==============  ==================================================================
surface         what it states
==============  ==================================================================
S_NAMED         P(teammate) of a seat holding our victory items, not named by the
                declaration taken (stated after the action is chosen,
                ``state_named_nb``; it decides nothing)
S_NAMED_DECL    the same, of a seat the declaration taken names
S_JOINT         P(every seat a declaration would name is a teammate)
S_MINOR         P(my team is the smaller), odd N (R2.2)
==============  ==================================================================

The rest are **maps**: a logistic score of up to three features, ``z = c0 + c1 f1 + c2 f2 + c3
f3``, read through a monotone curve (``KNOTS``: its values at z = Z0, Z0 + DZ, ..., linear
between them, the ends held), which an isotonic fit makes where the logistic alone misses the
shape:

=========  =======================================  =============================================
map        what it states                            features
=========  =======================================  =============================================
M_ITEM     P(a card is still where it last saw it)   logit of its confidence (``bel_conf``)
M_WAIT     P(my team wins by playing on)             logit of ``act.wait_odds_nb``, turn / 100
M_TEAM     P(the team declaration succeeds), R6.3    logit of S_JOINT x the M_ITEM of each counted
                                                     card; logit of the stated P(win by playing on)
                                                     (M_WAIT; 1/2 without declarations by value)
M_DRINK    the same with the Drink of Power, R7      logit of S_JOINT x M_ITEMs x S_MINOR
M_SEARCH   P(I win), the search's picked action      logit of the share of its sampled worlds that
           (``search.lookahead``)                    the action won; 1 if that share is a pick's
                                                     that replaced smart's choice; their product
=========  =======================================  =============================================

M_TEAM and M_DRINK are fitted on the declarations taken only: a seat declares the first time
its estimate passes its threshold, so the declarations made are those whose estimate was lucky
(the optimizer's curse in time); a map fitted on them states what such declarations are
worth. Which declarations are taken depends on the seat's odds of playing on too (it declares
once P(success) beats them, R6.4): at one estimate, those it takes when its odds are poor are
the marginal gambles and succeed less, so M_TEAM reads those odds beside the estimate (M_DRINK
does not: its coefficient for them is 0). M_SEARCH is fitted on the look-ahead's picks, the
label whether the seat then won (the share of its worlds won overstates that above one half,
docs/calibration.md); it leaves the pick alone, since the look-ahead compares the raw shares,
and states what such a share is worth. Beyond the scores of the declarations it was fitted on,
such a map is the logistic alone (``calib.fit.regress``). The identity map has the coefficients
(0, 1, 0, 0), f1 = logit p, and the knots sigma(z).
"""

from __future__ import annotations

import math

import numpy as np

from ..cards_nb import now_team_nb
from ..enums import MAX_PLAYERS
from ..jit import njit
from .posterior import joint_nb, shares_nb
from .calibration_table import CAL, DZ, KNOTS, N_KNOTS, S_DU, S_DW, S_NU, S_NW, S_U0, S_W0, SURF, TEMPER_FIT, Z0
from .intrinsics import ctz_nb, popcount_nb
from .values import CL_CONF, CL_TM, CLAIM

M_ITEM = 0
M_WAIT = 1
M_TEAM = 2
M_DRINK = 3
M_SEARCH = 4
N_MAPS = 5
MAP_LABELS = ("item", "wait", "team", "drink", "search")
S_NAMED = 0  # P(teammate) of a seat holding our items, not named by the declaration taken
S_NAMED_DECL = 1  # the same, named by it
S_JOINT = 2  # P(every seat the plan names is a teammate)
S_MINOR = 3  # P(my team is the smaller), odd N (R2.2)
N_SURF = 4
SURF_LABELS = ("named", "named-declared", "joint", "minority")
CALT = np.array(CAL, np.float64)  # [players, map, coefficient c0..c3]
KNOTT = np.array(KNOTS, np.float64)  # [players, map, knot]: the curve at z = Z0 + j DZ
# [players, surface, i, j]: the surface at logit P = S_U0 + i S_DU and logit P(hard alone) = S_W0 + j S_DW
SURFT = np.array(SURF, np.float64)
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


@njit(cache=True, inline="always")
def knot_nb(x, x0, dx, nk):
    """The knot below x on the grid x0 + j dx (j < nk) and x's share of the way to the next; the
    ends held."""
    t = min(max((x - x0) / dx, 0.0), nk - 1 - 1e-9)
    j = int(t)
    return j, t - j


@njit(cache=True)
def surf_nb(n, k, tm, h):
    """Surface k at n players of a posterior ``tm`` and the same from hard evidence alone ``h``;
    what hard evidence settles stays settled."""
    if h <= 0.0:
        return 0.0
    if h >= 1.0:
        return 1.0
    i, a = knot_nb(logit_nb(tm), S_U0, S_DU, S_NU)
    j, b = knot_nb(logit_nb(h), S_W0, S_DW, S_NW)
    s = SURFT[n, k]
    return ((s[i, j] * (1.0 - b) + s[i, j + 1] * b) * (1.0 - a)
            + (s[i + 1, j] * (1.0 - b) + s[i + 1, j + 1] * b) * a)


@njit(cache=True, inline="always")
def plan_holder_nb(v, c):
    """The seat a declaration of ours could name for card c: another seat that holds one of our
    victory items there as far as the seat knows (confidence over 5%), else -1."""
    h = v.k_card[c]
    if h >= 0 and h < v.n and h != v.me and now_team_nb(c, v.bags_open) == v.team and v.conf[c] > 0.05:
        return h
    return -1


@njit(cache=True)
def named_nb(n, declaring, tm, h):
    """P(teammate) of a seat holding our victory items as a calibrated seat states it,
    from its posterior ``tm`` and the same from hard evidence alone ``h``; ``declaring``: the
    action taken declares naming it."""
    return surf_nb(n, np.int64(S_NAMED_DECL if declaring else S_NAMED), tm, h)  # int64: surf_nb compiles once


@njit(cache=True)
def state_named_nb(v, named):
    """After the turn's action is chosen: state P(teammate) of each seat holding our victory items
    (the holders ``cal_plan_nb`` plans with) at ``scr[CLAIM + CL_TM + p]``; ``named``: the bit mask
    of the seats the declaration taken names (0 if none). Read by the calibration recorder only, and
    run only in its copy of the seat (``M_CLAIMS``)."""
    me, n = v.me, v.n
    m = 0
    for c in range(8):
        h = plan_holder_nb(v, c)
        if h >= 0:
            m |= 1 << int(h)
    while m:
        p = ctz_nb(m)
        m &= m - 1
        hp, _ = shares_nb(n, me, v.na, v.asg, v.w, np.int64(1) << p, np.bool_(False))
        v.scr[CLAIM + CL_TM + p] = named_nb(n, (named >> p) & 1, v.tm[p], hp)


@njit(cache=True)
def minority_nb(v):
    """P(my team is the smaller) as a calibrated seat states it (S_MINOR), from its View."""
    h, ps = shares_nb(v.n, v.me, v.na, v.asg, v.w, np.int64(0), np.bool_(True))
    if h < 0.0:
        return v.minor
    return surf_nb(v.n, np.int64(S_MINOR), ps, h)


@njit(cache=True)
def cal_plan_nb(v, need, own, m_cal, drink, wf):
    """A calibrated seat's declaration of its own team (R6.3; with ``drink`` its Drink of Power,
    R7, ``m_cal`` its stated P(minority)): whom to name so that our victory items reach
    ``need`` (``own`` of them in its hand), chosen for the highest stated P(success); ``wf`` is
    the logit of its stated P(win by playing on), the declaration maps' second feature (0 for a
    seat that does not declare by value). Returns (stated P(success), bit mask, P(success) made
    of the parts, stated joint). Also writes what it states of each card that a seat holding our
    items has (M_ITEM, ``scr[CLAIM + CL_CONF + c]``)."""
    me, n, conf = v.me, v.n, v.conf
    scr = v.scr
    kind = M_DRINK if drink else M_TEAM
    cnt = np.zeros(MAX_PLAYERS)
    pi = np.ones(MAX_PLAYERS)
    cmask = 0
    for c in range(8):
        h = plan_holder_nb(v, c)
        if h >= 0:
            q = map_nb(n, M_ITEM, logit_nb(conf[c]), 0.0, 0.0)
            scr[CLAIM + CL_CONF + c] = q
            cnt[h] += 1.0
            pi[h] *= q
            cmask |= 1 << int(h)
    if own >= need:
        if not drink:
            return 1.0, 0, 1.0, 1.0
        return map_nb(n, kind, logit_nb(m_cal), wf, 0.0), 0, m_cal, 1.0
    best = 0.0
    best_mask = 0
    best_p1 = 0.0
    best_j = 0.0
    # a Drink declaration succeeds only if the declarer's team is the smaller (R7), of (N - 1) / 2
    # seats (R2.2), so it names at most (N - 1) / 2 - 1 of them: none at 3 players. The product
    # of the parts below treats the two as independent and would state odds for more
    cap = (n - 1) // 2 - 1 if drink else n
    sub = cmask
    while sub:
        if popcount_nb(np.int64(sub)) > cap:
            sub = (sub - 1) & cmask
            continue
        k = own
        items = 1.0
        for p in range(n):
            if (sub >> p) & 1:
                k += cnt[p]
                items *= pi[p]
        if k >= need:
            pj = joint_nb(n, me, v.na, v.asg, v.w, v.k_assoc, sub, sub)
            hj, _ = shares_nb(n, me, v.na, v.asg, v.w, np.int64(sub), np.bool_(False))
            j = surf_nb(n, np.int64(S_JOINT), pj, hj)
            p1 = j * items * (m_cal if drink else 1.0)
            pr = map_nb(n, kind, logit_nb(p1), wf, 0.0)
            if pr > best:
                best = pr
                best_mask = sub
                best_p1 = p1
                best_j = j
        sub = (sub - 1) & cmask
    return best, best_mask, best_p1, best_j
