"""Trading decisions of the heuristic bots (greedy and smart): accepting an offer, the card
given in return or named, trade effects (R4, R9), smuggling (R10) and the advanced 3-player
association card (R10). Each takes the seat's View record (``bots.view``), returns the index
of the chosen option and writes its reason to ``v.out`` (``values.out_nb``).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import (
    C_BAG_GOBLET,
    C_BAG_KEY,
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
)
from ..enums import (
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
)
from .intrinsics import ctz_nb
from .params import (
    P_DRAW_VALUE,
    P_INFO_VALUE,
)
from .reasons import (
    R_ACARD_PICK,
    R_ACCEPT,
    R_ACCEPT_ALLY,
    R_ACCEPT_LOGE,
    R_ANNOUNCE,
    R_EFFECT_SKIP,
    R_EFFECT_USE,
    R_REJECT,
    R_RETURN_ALLY,
    R_RETURN_EFFECT,
    R_RETURN_PEARL,
    R_RETURN_PEARL_PARK,
    R_RETURN_SPARE,
    R_SMUGGLE,
)
from .values import (
    EVM,
    EVT,
    MY_FUT,
    MY_NOW,
    MY_THEIRS,
    OCC_VALUE,
    TM,
    cards_at_nb,
    draw_value_nb,
    give_value_nb,
    keep_value_nb,
    loge_hold_nb,
    loge_seen_nb,
    out_nb,
    pick_best_nb,
    prep_nb,
)


@njit(cache=True, inline="always")
def transfer_nb(v, c, t, occ_used):
    """Value for my team of card c leaving my hand for seat t (no trade effects). The card and
    the seat are made int64 so that the body compiles once."""
    return transfer_body_nb(v, np.int64(c), np.int64(t), occ_used)


@njit(cache=True)
def transfer_body_nb(v, c, t, occ_used):
    """:func:`transfer_nb`'s body (int64 card and seat)."""
    s = give_value_nb(v, c, t)
    if future_team_nb(c) < 0:
        scr = v.scr
        s -= keep_value_nb(c, v.team, v.bags_open, v.deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)
    return s


@njit(cache=True)
def gain_nb(v, c, occ_used):
    """Value for my team of card c arriving in my hand."""
    f = future_team_nb(c)
    if f >= 0:
        w = 1.0 if c < 6 or v.bags_open == 1 else 0.6
        return (8.0 if f == v.team else 2.0) * w + loge_hold_nb(v, w)  # R6.5: any mix counts
    scr = v.scr
    return keep_value_nb(c, v.team, v.bags_open, v.deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)


@njit(cache=True, inline="always")
def return_score_nb(v, y, a, use_effect, occ_used, a_known):
    """Score of handing card y to seat a (trade return, Priest, give-back, Sextant, limit);
    a_known: a's team is known. (The View is a record, so passing it costs one pointer.) The
    card and the seat are made int64 so that the body compiles once."""
    return return_score_body_nb(v, np.int64(y), np.int64(a), use_effect, occ_used, a_known)


@njit(cache=True)
def return_score_body_nb(v, y, a, use_effect, occ_used, a_known):
    """:func:`return_score_nb`'s body (int64 card and seat)."""
    bags_open, deck_n, scr, par = v.bags_open, v.deck_n, v.scr, v.par
    s = transfer_nb(v, y, a, occ_used)
    if use_effect and has_effect_nb(y, bags_open):
        tm = scr[TM + a]
        if y == C_MONOCLE and not a_known:
            s += par[P_INFO_VALUE] * 4.0 * tm * (1.0 - tm)
        elif y == C_PRIVILEGE:
            s += 0.3 + 0.5 * (scr[EVM + a] + scr[EVT + a])
        elif is_bag_nb(y) and deck_n > 0:
            s += 1.5
    return s


@njit(cache=True, inline="always")
def mirror_cancel_nb(x, tm, bags_open, deck_n):
    """What the giver's effect of card x is worth to me (giver a teammate with probability
    tm): handing back the Broken Mirror cancels it (R9). Without this, two teammates passed a
    Secret Bag back and forth, each answering with the Mirror, and never drew (3-player
    games ran into the turn cap)."""
    if not has_effect_nb(x, bags_open):
        return 0.0
    side = 2.0 * tm - 1.0  # +1 teammate, -1 opponent
    if is_bag_nb(x):
        return 3.0 * side if deck_n > 0 else 0.0  # the giver draws a card
    if x == C_MONOCLE:
        return 1.0 * side  # the giver sees my association
    if x == C_PRIVILEGE:
        return 0.5 * side  # the giver sees my items
    return 0.0


@njit(cache=True)
def choose_return_nb(v, a, use_effect, code_spare):
    """Index of the best card to hand to seat a among v.opts (cards); reason set."""
    sc = v.score
    bags, dn, used, known, scr = v.bags_open, v.deck_n, v.occ_up[v.me], v.k_assoc[a] >= 0, v.scr
    for i in range(v.n_opts):
        sc[i] = return_score_nb(v, v.opts[i], a, use_effect, used, known)
        if use_effect and v.opts[i] == C_MIRROR:  # R9: the Mirror silences the giver's item
            sc[i] -= mirror_cancel_nb(v.ctx[DCTX_CARD], scr[TM + a], bags, dn)
    i = pick_best_nb(v, v.n_opts)
    y = v.opts[i]
    code = code_spare
    if code_spare == R_RETURN_SPARE:
        if y == C_PEARL:
            code = R_RETURN_PEARL if v.scr[TM + a] < 0.5 else R_RETURN_PEARL_PARK
        elif use_effect and has_effect_nb(y, v.bags_open) and not is_bag_nb(y):
            code = R_RETURN_EFFECT
        elif future_team_nb(y) == v.team and v.scr[TM + a] > 0.5:
            code = R_RETURN_ALLY
    out_nb(v, code, a, y)
    return i


# ------------------------------------------------------------------ trades
@njit(cache=True, inline="always")
def choose_accept_nb(v):
    """ACCEPT (R4.2): options [reject, accept]."""
    prep_nb(v)
    a = v.ctx[DCTX_A]
    x = v.ctx[DCTX_CARD]
    scr = v.scr
    tm = scr[TM + a]
    occ_used = v.occ_up[v.me]
    val = gain_nb(v, x, occ_used)
    if has_effect_nb(x, v.bags_open):  # the giver will use it on me
        if x == C_MONOCLE:
            val -= 1.0 - 2.0 * tm
        elif x == C_PRIVILEGE:  # the giver sees my items (R9): my Loge too
            val -= (1.0 - tm) * (0.5 + 2.0 * min(1.0, scr[MY_FUT]) + loge_seen_nb(v))
        elif is_bag_nb(x):
            val -= 0.8 * (1.0 - 2.0 * tm)
    # the best card I could hand back (never the other Bag for a Bag while the deck has cards)
    ban = -1
    if is_bag_nb(x) and v.bags_open == 0:
        ban = C_BAG_GOBLET if x == C_BAG_KEY else C_BAG_KEY
    best = -1e9
    m = cards_at_nb(v.k_card, v.me) & ~(1 << x)  # my cards other than x and ban
    if ban >= 0:
        m &= ~(1 << ban)
    known = v.k_assoc[a] >= 0
    while m:
        c = ctz_nb(m)
        m &= m - 1
        best = max(best, return_score_nb(v, c, a, np.bool_(True), occ_used, known))
    total = val + best + 0.3 * (2.0 * tm - 1.0)
    if total > -0.2:
        if future_team_nb(x) >= 0 and future_team_nb(x) != v.team and loge_hold_nb(v, 1.0) > 0.0:
            out_nb(v, R_ACCEPT_LOGE, a, x)
        else:
            out_nb(v, R_ACCEPT_ALLY if tm > 0.7 else R_ACCEPT, a, x)
        return 1
    out_nb(v, R_REJECT, a, x)
    return 0


@njit(cache=True)
def effect_wanted_nb(v, c, q):
    """Would I carry out the effect of card c, given to seat q? (Tome and Coat only when my
    occupation is worth less than what I would get, or is used up; the rest always.)"""
    my_occ = v.k_occ[v.me]
    used = v.occ_up[v.me]
    mine_v = OCC_VALUE[my_occ] if my_occ >= 0 else 0.5
    if c == C_TOME:
        o = v.k_occ[q]
        theirs = OCC_VALUE[o] if o >= 0 else 0.6
        return used or theirs > mine_v + 0.05
    if c == C_COAT:
        return used or mine_v < 0.65
    return True


@njit(cache=True, inline="always")
def choose_effect_nb(v):
    """EFFECT_USE (R4.4): options [no, yes]; the giver may carry out card ctx[CARD] on ctx[B]."""
    c = v.ctx[DCTX_CARD]
    q = v.ctx[DCTX_B]
    if effect_wanted_nb(v, c, q):
        out_nb(v, R_EFFECT_USE, q, c)
        return 1
    out_nb(v, R_EFFECT_SKIP, q, c)
    return 0


@njit(cache=True, inline="always")
def choose_smuggle_nb(v):
    """SMUGGLE (R10 Smuggling): options [announce, smuggle] for effect card ctx[CARD] that I
    gave to ctx[B]. Announcing lets me use the effect but tells everyone where the card is
    now; smuggling keeps it silent and forgoes the effect. Announce only when the effect is
    worth more than what the announcement gives away: a Monocle on a seat whose team I know,
    an unwanted Tome or Coat, are smuggled; a Secret Bag (a victory item to be) handed to a
    likely teammate is smuggled unless the draw is worth more than pointing the opponents
    at its holder."""
    prep_nb(v)
    c = v.ctx[DCTX_CARD]
    q = v.ctx[DCTX_B]
    scr = v.scr
    tm = scr[TM + q]
    gain = 0.0
    cost = 0.1  # the card's place becomes public
    if c == C_MONOCLE:
        if v.k_assoc[q] < 0:
            gain = v.par[P_INFO_VALUE] * 4.0 * tm * (1.0 - tm)
    elif c == C_PRIVILEGE:
        gain = 0.3 + 0.5 * (scr[EVM + q] + scr[EVT + q])
    elif is_bag_nb(c):
        if v.deck_n > 0:
            gain = draw_value_nb(v.par[P_DRAW_VALUE], v.deck_n, scr)
        if future_team_nb(c) == v.team:
            cost += 2.0 * tm  # our victory item's path: opponents would go for its holder
    elif effect_wanted_nb(v, c, q):
        gain = 0.5 if c != C_SEXTANT else 0.1
    if gain > cost:
        out_nb(v, R_ANNOUNCE, q, c)
        return 0
    out_nb(v, R_SMUGGLE, q, c)
    return 1


@njit(cache=True, inline="always")
def choose_acard_nb(v):
    """ACARD_PICK (R10 advanced 3-player): options [0, 1, 2], the position of seat ctx[B]'s
    association card to see: one not seen yet (any of them alike)."""
    p = v.ctx[DCTX_B]
    sc = v.score
    for i in range(v.n_opts):
        sc[i] = 1.0 if v.k_acard[p, v.opts[i]] < 0 else 0.0
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_ACARD_PICK, p, v.opts[i])
    return i


# ------------------------------------------------------------------ fights
