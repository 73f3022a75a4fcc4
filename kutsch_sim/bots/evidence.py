"""Soft evidence: what a seat's behaviour says about its team, by type, in two models.

Every piece of soft evidence is something a seat (the *actor*) did towards another (the
*other*): attacked it, supported it or the fighter against it, offered it a card, accepted or
rejected its offer, saved it with the Priest or the Doctor, named it the winner with the Poison
Mixer (public, ``E_*``); or, seen by the receiver only, handed it a card of the receiver's
colour or the Black Pearl (private, ``G_*``). Each is a log-likelihood ratio that the two are
on the same team, added to the pair's total (``bots.beliefs``, the module doc).

A seat weighs it by the model of its profile (``params.P_EVIDENCE``):

* **model 0, hand-set** (``W_HAND``, ``W_GIFT``): the weights ``smart-v2`` and ``greedy``'s
  profile rows were built with; every seat counts every event, its own included.
* **model 1, fitted** (``evidence_table``): each type's weight is the log-likelihood ratio
  measured in simulated games at that player count, apart for an actor that has seen the
  other's association card (a fight's look or the Monocle: who looked at whom is public,
  R5.8, R9) and one that has not; and a seat does not count what it did itself as evidence
  about others (it knows why it acted: its support of a seat says what it believed, not
  what it learnt). The public totals are kept once for all seats (``bel_pair1``,
  ``bel_psat1``, ``bel_inf1``); each seat's own part of them (``bel_own1``) is taken out again
  through its private factors (``bel_corr1``, in ``bel_epriv``).

Both models saturate each pair's public total of opinions (S tanh(x / S)): behaviour is
correlated (seats act on beliefs built from each other's behaviour), so no amount of it about
one pair is worth more than a ratio of e^S. Model 1 keeps what an actor did knowing the other's
team apart, unsaturated: that is no echo.
"""

from __future__ import annotations

import math

import numpy as np

from ..cards_nb import C_PEARL, future_team_nb
from ..enums import SC, VAR
from ..jit import njit
from .evidence_table import G_FIT, S_FIT, W_FIT

# public evidence types: about the pair (actor, other)
E_ATTACK = 0  # the actor attacked the other (R5.1)
E_SUPPORT_WITH = 1  # the actor supported the other in a fight (R5.3)
E_SUPPORT_AGAINST = 2  # ... the other is the fighter it supported against
E_BONUS_WITH = 3  # the actor played a support card or the Bodyguard for the other (R5.5)
E_BONUS_AGAINST = 4
E_MIXER_WITH = 5  # the actor's Poison Mixer named the other the winner (R8)
E_MIXER_AGAINST = 6
E_DOCTOR_WITH = 7  # the actor's Doctor saved the other, the loser (R8)
E_DOCTOR_AGAINST = 8  # ... from the other, the winner
E_PRIEST_SELF = 9  # the actor, defending, stopped the other's attack with the Priest (R8)
E_PRIEST_WITH = 10  # the actor's Priest saved the other, the defender
E_PRIEST_AGAINST = 11  # ... from the other, the attacker
E_OFFER = 12  # the actor offered the other a card of its own free will (R4.1)
E_ACCEPT = 13  # the actor accepted the other's free offer (R4.2)
E_REJECT = 14  # the actor rejected the other's offer
N_PUB = 15
PUB_LABELS = ("attack", "support_with", "support_against", "bonus_with", "bonus_against", "mixer_with",
              "mixer_against", "doctor_with", "doctor_against", "priest_self", "priest_with", "priest_against",
              "offer", "accept", "reject")

# private evidence types: the receiver got, from the giver, a card of its own colour or the Pearl
G_OFFER_MINE = 0  # offered in a trade (R4.1)
G_OFFER_PEARL = 1
G_RETURN_MINE = 2  # handed back in the trade the receiver started (R4.3)
G_RETURN_PEARL = 3
G_PASS_MINE = 4  # passed on by the Sextant or given away over the hand limit (R9, R2.4)
G_PASS_PEARL = 5
N_PRIV = 6
PRIV_LABELS = ("offer_mine", "offer_pearl", "return_mine", "return_pearl", "pass_mine", "pass_pearl")
GIFT_OFFER = 0  # how a card reached its receiver (gift kinds the observer passes)
GIFT_RETURN = 1
GIFT_PASS = 2

# model 0: the hand-set weights (log-likelihood ratio per unit of soft_trust)
W_SUPPORT = 0.7  # a supporter is with the side it supports and against the other
W_BONUS = 0.3  # a supporter also plays a support card / the Bodyguard
W_ATTACK = 0.1  # attackers attack opponents, but also unknowns (to look)
W_OFFER = 0.15  # a free offer: items go towards believed teammates
W_ACCEPT = 0.1
W_REJECT = 0.1
W_PRIEST = 0.5  # the Priest protects the defender from the attacker
W_DOCTOR = 0.5  # the Doctor protects the loser from the winner
W_MIXER = 1.0  # the Poison Mixer names its side the winner
S_PAIR = 1.5  # saturation of the soft evidence about one pair of seats
W_GIFT = 0.7  # private: a victory item of my colour handed to me (or a Black Pearl, negative)
W_HAND = np.array([-W_ATTACK, W_SUPPORT, -W_SUPPORT, W_BONUS, -W_BONUS, W_MIXER, -W_MIXER, W_DOCTOR, -W_DOCTOR,
                   -W_PRIEST, W_PRIEST, -W_PRIEST, W_OFFER, W_ACCEPT, -W_REJECT])
GIFT_HAND = np.array([W_GIFT, W_GIFT, W_GIFT * 0.5])  # per gift kind

MODEL_HAND = 0
MODEL_FIT = 1
# model 1: what an actor did knowing the other's team, and what a giver's gifts say, saturate only
# here (a ratio of e^10: as good as certain, and the factors stay far from overflow over any game)
S_SURE = 10.0
# the fitted tables (evidence_table, made by kutsch_sim.calib.evidence): [players, type, knows]
W1 = np.array(W_FIT, np.float64)
G1 = np.array(G_FIT, np.float64)
S1 = np.array(S_FIT, np.float64)


# ------------------------------------------------------------------ model 0 (hand-set)
@njit(cache=True, inline="always")
def pair_total_nb(st, p, q, wt):
    """Add evidence wt to the pair (p, q) and return the change of its saturated total (model 0)."""
    pair, psat = st.mem.bel_pair, st.mem.bel_psat
    old = psat[p, q]
    pair[p, q] += wt
    pair[q, p] = pair[p, q]
    # S tanh(x / S), from one exp: tanh y = (1 - e) / (1 + e) with e = exp(-2|y|) (libm's tanh
    # takes an expm1, about three times the cost of an exp; the two agree to ~1e-16)
    # math.exp throughout the bots: libm's exp, as compiled code calls it; numpy's own exp can
    # differ in the last bit on some hosts, and the games without the JIT must be the compiled games
    y = pair[p, q] / S_PAIR
    e = math.exp(-2.0 * abs(y))
    t = (1.0 - e) / (1.0 + e)
    new = S_PAIR * (t if y >= 0.0 else -t)
    psat[p, q] = new
    psat[q, p] = new
    return new - old


@njit(cache=True, inline="always")
def pair_nb(st, na, p, q, wt):
    """Model 0: evidence wt (log-likelihood ratio) that p and q are on the same team. The change
    of the pair's saturated total is added to every assignment where p and q are together, as
    the factor exp(trust * change) on the row of ``bel_epub`` of each trust of model 0 in play
    (``beliefs.trust_slots_nb``). The loop over the assignments is branch-free (a factor of
    exactly 1.0 where p and q are apart changes nothing): whether they are together follows no
    pattern a branch predictor learns, and at 10 players (252 assignments) the branch-free loop
    took about 60 ns instead of 155. ``na`` is the number of assignments kept
    (``beliefs.kept_nb``: 126 at 9 and 10 players)."""
    if p == q or p < 0 or q < 0:
        return
    epub, asg = st.mem.bel_epub, st.mem.bel_asg
    dw = pair_total_nb(st, p, q, wt)
    for k in range(st.mem.bel_nts):
        if st.mem.bel_tmodel[k] != MODEL_HAND:
            continue
        f = math.exp(st.mem.bel_tval[k] * dw)
        row = epub[k]
        for i in range(na):
            a = asg[i]
            row[i] *= f if ((a >> p) ^ (a >> q)) & 1 == 0 else 1.0


@njit(cache=True)
def side_nb(st, na, s, x, y, wt):
    """Model 0: seat s sides with x against y: evidence wt that s is with x, and against being
    with y (:func:`pair_nb` twice, in one loop over the assignments: each row entry is
    multiplied by the two factors in the same order as by two calls, so the result is the same
    to the bit)."""
    if s == x or s == y or x < 0 or y < 0:
        return
    if x == y:  # the same pair twice: its total saturates after each step
        pair_nb(st, na, s, x, wt)
        pair_nb(st, na, s, y, -wt)
        return
    epub, asg = st.mem.bel_epub, st.mem.bel_asg
    dx = pair_total_nb(st, s, x, wt)
    dy = pair_total_nb(st, s, y, -wt)
    for k in range(st.mem.bel_nts):
        if st.mem.bel_tmodel[k] != MODEL_HAND:
            continue
        t = st.mem.bel_tval[k]
        fx = math.exp(t * dx)
        fy = math.exp(t * dy)
        row = epub[k]
        for i in range(na):
            a = asg[i]
            r = row[i] * (fx if ((a >> s) ^ (a >> x)) & 1 == 0 else 1.0)
            row[i] = r * (fy if ((a >> s) ^ (a >> y)) & 1 == 0 else 1.0)


@njit(cache=True, inline="always")
def private_nb(st, na, r, g, v):
    """Log-likelihood ratio v, for receiver r only, that giver g is on its team: kept per giver
    (``bel_gpair[r, g]``) and as r's factors ``bel_epriv[r]``."""
    st.mem.bel_gpair[r, g] += v
    epriv, asg = st.mem.bel_epriv[r], st.mem.bel_asg
    ev = math.exp(v)
    for i in range(na):  # branch-free, as in pair_nb
        a = asg[i]
        epriv[i] *= ev if ((a >> r) ^ (a >> g)) & 1 == 0 else 1.0
    st.mem.bel_fresh[r] = False


# ------------------------------------------------------------------ model 1 (fitted)
@njit(cache=True, inline="always")
def knows_nb(st, a, b):
    """1 if seat a has seen seat b's association card (public: who looked at whom, R5.8, R9).
    Not in the advanced 3-player game, where a look shows one of three cards and whether two
    seen cards agree is the looker's secret (R10): 0 there."""
    if (st.sc[SC.VARIANTS] & VAR.ADV3P) != 0:
        return 0
    return 1 if st.k_assoc[a, b] >= 0 else 0


@njit(cache=True, inline="always")
def sat_nb(x, s):
    """s tanh(x / s), from one exp (as :func:`pair_total_nb`)."""
    y = x / s
    e = math.exp(-2.0 * abs(y))
    t = (1.0 - e) / (1.0 + e)
    return s * (t if y >= 0.0 else -t)


@njit(cache=True, inline="always")
def together_nb(row, asg, na, p, q, f):
    """row[i] *= f for every assignment i that has p and q on one team (branch-free)."""
    for i in range(na):
        a = asg[i]
        row[i] *= f if ((a >> p) ^ (a >> q)) & 1 == 0 else 1.0


@njit(cache=True)
def fit_pair_nb(st, na, actor, other, typ):
    """Model 1: the actor did ``typ`` towards the other, with the fitted weight for an actor
    that has or has not seen the other's association card. What an actor does knowing the
    other's team is as good as a look (a support of a seat it has seen is a support of its
    teammate): it adds to the pair unsaturated (``bel_inf1``), and the actor's own such acts
    say nothing to it (it knows the other's team). What an actor does not knowing it is an
    opinion, echoed between seats: it goes into the pair's saturated total (``bel_pair1``), the
    change into the rows of ``bel_epub`` of model 1, and each of the two that weighs by model 1
    takes its own part back out through its private factors (``bel_own1``, ``bel_corr1``)."""
    if actor == other or actor < 0 or other < 0:
        return
    m = st.mem
    n = st.sc[SC.N]
    knows = knows_nb(st, actor, other)
    wt = W1[n, typ, knows]
    if wt == 0.0:
        return
    s = S1[n]
    p, q = actor, other
    asg = m.bel_asg
    if knows == 1:
        old = sat_nb(m.bel_inf1[p, q], S_SURE)
        m.bel_inf1[p, q] += wt
        m.bel_inf1[q, p] = m.bel_inf1[p, q]
        f = math.exp(sat_nb(m.bel_inf1[p, q], S_SURE) - old)  # as good as a look: soft_trust weighs opinions only
        for k in range(m.bel_nts):
            if m.bel_tmodel[k] == MODEL_FIT:
                together_nb(m.bel_epub[k], asg, na, p, q, f)
        return
    old = m.bel_psat1[p, q]
    m.bel_pair1[p, q] += wt
    m.bel_pair1[q, p] = m.bel_pair1[p, q]
    new = sat_nb(m.bel_pair1[p, q], s)
    m.bel_psat1[p, q] = new
    m.bel_psat1[q, p] = new
    m.bel_own1[actor, other] += wt
    dw = new - old
    for k in range(m.bel_nts):
        if m.bel_tmodel[k] == MODEL_FIT:
            together_nb(m.bel_epub[k], asg, na, p, q, math.exp(m.bel_tval[k] * dw))
    for j in range(2):
        me = p if j == 0 else q
        o = q if j == 0 else p
        if m.bel_model[me] != MODEL_FIT:
            continue
        c = sat_nb(m.bel_pair1[p, q] - m.bel_own1[me, o], s) - new  # the total without my own part
        d = c - m.bel_corr1[me, o]
        m.bel_corr1[me, o] = c
        if d != 0.0:
            t = m.bel_tval[m.bel_tslot[me]] if m.bel_tslot[me] < m.bel_nts else 0.0
            together_nb(m.bel_epriv[me], asg, na, me, o, math.exp(t * d))
            m.bel_fresh[me] = False


@njit(cache=True)
def rebuild_private_nb(st, na, s):
    """Model 1: seat s's private factors from its corrections alone (``bel_corr1``, which come
    from the public totals): what a sampled world leaves a seat whose private evidence it does
    not know (``search.sample``)."""
    m = st.mem
    row = m.bel_epriv[s]
    for i in range(row.shape[0]):
        row[i] = 1.0
    if m.bel_model[s] != MODEL_FIT:
        return
    t = m.bel_tval[m.bel_tslot[s]] if m.bel_tslot[s] < m.bel_nts else 0.0
    for o in range(st.sc[SC.N]):
        c = m.bel_corr1[s, o]
        if o != s and c != 0.0:
            together_nb(row, m.bel_asg, na, s, o, math.exp(t * c))


# ------------------------------------------------------------------ by type, for both models
@njit(cache=True, inline="always")
def ev_pair_nb(st, na, actor, other, typ):
    """The actor did ``typ`` (``E_*``) towards the other: the evidence of every model in play.
    The observer passes literal kinds and int32 seats; numba compiles a function once per
    combination of argument types (a literal is a type of its own), so this inlined wrapper
    makes them int64 and the body, with the model-1 update it calls, compiles once
    (``engine.log.log_nb``, cold compile time)."""
    ev_pair_body_nb(st, na, np.int64(actor), np.int64(other), np.int64(typ))


@njit(cache=True)
def ev_pair_body_nb(st, na, actor, other, typ):
    """:func:`ev_pair_nb`'s body (int64 arguments)."""
    if st.mem.bel_models & 1:
        pair_nb(st, na, actor, other, W_HAND[typ])
    if st.mem.bel_models & 2:
        fit_pair_nb(st, na, actor, other, typ)


@njit(cache=True, inline="always")
def ev_side_nb(st, na, actor, x, y, with_typ):
    """The actor sided with x against y (``with_typ``, and ``with_typ + 1`` for the pair against).
    An inlined wrapper that makes the arguments int64, as :func:`ev_pair_nb`."""
    ev_side_body_nb(st, na, np.int64(actor), np.int64(x), np.int64(y), np.int64(with_typ))


@njit(cache=True)
def ev_side_body_nb(st, na, actor, x, y, with_typ):
    """:func:`ev_side_nb`'s body (int64 arguments)."""
    if actor == x or actor == y or x < 0 or y < 0:
        return
    if st.mem.bel_models & 1:
        side_nb(st, na, actor, x, y, W_HAND[with_typ])
    if st.mem.bel_models & 2:
        fit_pair_nb(st, na, actor, x, with_typ)
        fit_pair_nb(st, na, actor, y, with_typ + 1)


@njit(cache=True, inline="always")
def gift_nb(st, na, r, g, c, how):
    """:func:`gift_body_nb` with int64 arguments (the observer passes literal kinds), so that it
    compiles once, as :func:`ev_pair_nb`."""
    gift_body_nb(st, na, np.int64(r), np.int64(g), np.int64(c), np.int64(how))


@njit(cache=True)
def gift_body_nb(st, na, r, g, c, how):
    """Private evidence for receiver r of card c from giver g (``how``: GIFT_OFFER, GIFT_RETURN,
    GIFT_PASS): a victory item of r's colour says g thinks r is a teammate (so g likely is one);
    a Black Pearl says the opposite (model 0). Model 1 weighs each kind by its fitted ratio."""
    if r < 0 or g < 0 or r == g:
        return
    f = future_team_nb(c)
    mine = f >= 0 and f == st.k_assoc[r, r]
    if not mine and c != C_PEARL:
        return
    if st.mem.bel_model[r] == MODEL_FIT:
        v = G1[st.sc[SC.N], 2 * how + (0 if mine else 1), knows_nb(st, g, r)]
        if v != 0.0:  # each giver's total saturated at S_SURE (bel_graw1 the raw sum, bel_gpair what counts)
            old = st.mem.bel_graw1[r, g]
            st.mem.bel_graw1[r, g] = old + v
            private_nb(st, na, r, g, sat_nb(old + v, S_SURE) - sat_nb(old, S_SURE))
    else:
        v = GIFT_HAND[how] if mine else -GIFT_HAND[how]
        if v != 0.0:
            private_nb(st, na, r, g, v)
