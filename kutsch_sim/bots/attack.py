"""Attacks (R5) in the turn's action of the heuristic bots: what a fight against each seat is
worth from the seat's view, before the action compares it with trades, declarations and
passing (``act.choose_action_nb``): the fighters' strengths as the seat knows them (R5.1, R8,
R9), the supporters it expects (R5.3), what winning shows or takes (R5.8) and what losing
costs.
"""

from __future__ import annotations

import math

from ..jit import njit

from ..cards_nb import C_DAGGER, C_GLOVES, C_KNIVES, C_WHIP, future_team_nb
from ..enums import OC
from .intrinsics import ctz_nb
from .params import P_AGGRESSION, P_DRAW_VALUE, P_FIGHT_READ, P_INFO_VALUE
from .reasons import (
    R_ATTACK_ALLY,
    R_ATTACK_DRAW,
    R_ATTACK_LEARN,
    R_ATTACK_LEARN_OCC,
    R_ATTACK_LOGE,
    R_ATTACK_TAKE,
)
from .values import (
    EVM,
    EVT,
    MY_FUT,
    MY_NOW,
    MY_THEIRS,
    TM,
    draw_value_nb,
    give_value_nb,
    keep_value_nb,
    loge_seen_nb,
    loge_threat_nb,
)


@njit(cache=True, inline="always")
def best_giveback_nb(v, t, occ_used, mine):
    """Value (usually <= 0) of the card I would rather hand to seat t among my own (``mine``:
    my cards as a bit mask, values.cards_at_nb)."""
    team, bags_open, deck_n, scr = v.team, v.bags_open, v.deck_n, v.scr
    best = -1e9
    m = mine
    while m:
        c = ctz_nb(m)
        m &= m - 1
        s = give_value_nb(v, c, t)
        if future_team_nb(c) < 0:
            s -= keep_value_nb(c, team, bags_open, deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)
        best = max(best, s)
    return min(best, 0.0)


@njit(cache=True, inline="always")
def attack_base_nb(v, clair_ok):
    """What every attack of this action shares (:func:`attack_score_nb`): my strength as I
    know it (R5.1, R8, R9), the value of a tie (a draw for me, a good one if ``clair_ok``: see
    :func:`choose_action_nb`) and what losing to an opponent costs (they look at me, or take
    the best item I hold), before the odds."""
    me, k_occ, occ_up, scr, par = v.me, v.k_occ, v.occ_up, v.scr, v.par
    sa = 1.0
    if v.k_card[C_DAGGER] == me:
        sa += 1.0
    my_occ = k_occ[me]
    if my_occ == OC.THUG:
        sa += 1.0
    if my_occ == OC.DUELIST and not occ_up[me]:
        sa += 0.5
    tie = 0.8 * (draw_value_nb(par[P_DRAW_VALUE], v.deck_n, scr) + (3.0 if clair_ok and v.deck_n > 0 else 0.0))
    # a winning defender looks at my items (R5.8): a Loge close to a solo win is then seen
    loss = 0.5 + 2.5 * min(1.0, scr[MY_FUT]) + 1.0 * min(1.0, scr[MY_THEIRS]) + loge_seen_nb(v)
    return sa, tie, loss


@njit(cache=True, inline="always")
def attack_score_nb(v, t, giveback, lean, sa, tie, loss):
    """(score, reason) of attacking seat t; ``giveback`` is the value of the best card I would
    hand back if I took the only item of t; ``lean`` is the sum over the other seats q of
    2 P(q is my teammate) - 1 (:func:`support_lean_nb`); ``sa``, ``tie``, ``loss`` from
    :func:`attack_base_nb`."""
    k_assoc, k_occ, k_card = v.k_assoc, v.k_occ, v.k_card
    conf, occ_up, hand_n, scr, par = v.conf, v.occ_up, v.hand_n, v.scr, v.par
    tm = scr[TM + t]
    opp = 1.0 - tm
    # strengths (R5.1, R8, R9): what I know I can add (sa), what I know they can add
    sd = 1.0
    if k_card[C_GLOVES] == t:
        sd += conf[C_GLOVES]
    o = k_occ[t]
    if o == OC.GRAND_MASTER:
        sd += 1.0
    elif o == OC.DUELIST and not occ_up[t]:
        sd += 0.5
    elif o < 0:
        sd += 0.15
    # a supporter adds +1 to its side (R5.3); the expected side from beliefs: each seat q
    # other than me and t leans (2 tm_q - 1) towards me, and sides with me against an
    # opponent, against me if t is a teammate
    if par[P_FIGHT_READ] > 0.0:
        sup = support_read_nb(v, t)
    else:
        sup = (lean - (2.0 * tm - 1.0)) * (1.0 - 2.0 * tm)
    m = sa - sd + sup
    e = math.exp(-1.5 * abs(m))
    pt = 0.45 * e
    sg = 1.0 / (1.0 + e) if m >= 0.0 else e / (1.0 + e)  # the logistic of 1.5 m, from one exp
    pw = (1.0 - pt) * sg
    pl = (1.0 - pt) * (1.0 - sg)
    info = par[P_INFO_VALUE]
    look = 0.0
    if k_assoc[t] < 0:
        look = info * 4.0 * tm * opp
    if k_occ[t] < 0:
        look += 0.1 * info
    em = min(1.0, scr[EVM + t])
    et = min(1.0, scr[EVT + t])
    items = opp * (6.0 * em + 3.0 * et * (1.0 - em)) + 0.2
    if hand_n[t] == 1:  # taking their only item means giving one of mine back (R5.8)
        items += giveback
    # a likely Loge holder close to a solo win (R6.5): a won fight shows its items and takes
    # the Loge or a victory item from it; a threat to me whatever its team, less from a teammate
    lr = loge_threat_nb(v, t)
    items += lr * (1.0 - 0.5 * tm)
    gain = max(look, items)
    cost = opp * loss  # losing to an opponent
    s = par[P_AGGRESSION] * (pw * gain + pt * tie - pl * cost) - 0.3
    if items >= look:
        reason = R_ATTACK_TAKE if tm < 0.5 else R_ATTACK_ALLY
    else:
        reason = R_ATTACK_LEARN if k_assoc[t] < 0 else R_ATTACK_LEARN_OCC
    if items >= look and lr > 1.0 and lr * (1.0 - 0.5 * tm) > 0.5 * items:
        reason = R_ATTACK_LOGE
    if pt * tie > pw * gain:
        reason = R_ATTACK_DRAW
    return s, reason


@njit(cache=True, inline="always")
def support_read_nb(v, t):
    """The supporters' expected net strength for me against seat t (R5.3), each seat q other
    than us two siding with me with probability (1 + x)/2, x its lean (2 P(q teammate) - 1)
    turned towards me, and adding +1 plus the bonuses it is known or likely to hold for that
    side: a shown Bodyguard either way, the Casting Knives for the attacker, the Whip for the
    defender (R8, R9; the bonus needs its role). With no bonus known this is the plain sum
    of the leans."""
    scr, k_occ, k_card, conf = v.scr, v.k_occ, v.k_card, v.conf
    tm = scr[TM + t]
    sup = 0.0
    for q in range(v.n):
        if q == v.me or q == t:
            continue
        x = (2.0 * scr[TM + q] - 1.0) * (1.0 - 2.0 * tm)
        ba = 1.0
        bd = 1.0
        if k_occ[q] == OC.BODYGUARD:
            ba += 1.0
            bd += 1.0
        if k_card[C_KNIVES] == q:
            ba += conf[C_KNIVES]
        if k_card[C_WHIP] == q:
            bd += conf[C_WHIP]
        sup += 0.5 * ((1.0 + x) * ba - (1.0 - x) * bd)
    return sup


@njit(cache=True, inline="always")
def support_lean_nb(v):
    """Sum over the seats q other than me of 2 P(q is my teammate) - 1: how the table leans
    towards me in a fight (:func:`attack_score_nb`); ``v.scr`` prepared (prep_nb)."""
    lean = 0.0
    for q in range(v.n):
        if q != v.me:
            lean += 2.0 * v.scr[TM + q] - 1.0
    return lean
