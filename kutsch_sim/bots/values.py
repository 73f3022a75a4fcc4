"""Value estimates for the heuristic bots, from one seat's view only (card facts: ``cards_nb``).

Everything here is phrased relative to the deciding seat's team ("our victory item" vs
"theirs"), never by card or seat index, so the two teams are treated alike (mirror
symmetry). Functions take the seat's View record (``bots.view``: one pointer) and the
option's scalars.

Scratch layout ``scr`` (float64[N_SCR]) filled by :func:`prep_nb` at the start of a
decision: ``scr[TM + p]`` P(p is my teammate), ``scr[EVM + p]`` expected number of our
victory items (Bags count as ours-to-be) at seat p, ``scr[EVT + p]`` the same for theirs,
``scr[SLOT + p]`` seat p's cards this seat cannot place, and single values at MY_*; from
TR_KEEP on, the turn's action keeps each card's part of its trade scores (written there
before it is read, so prep_nb leaves it alone).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import (
    C_BAG_GOBLET,
    C_BAG_KEY,
    C_COAT,
    C_DAGGER,
    C_GLOVES,
    C_KNIVES,
    C_LOGE,
    C_MONOCLE,
    C_PEARL,
    C_PRIVILEGE,
    C_RING,
    C_SEXTANT,
    C_TOME,
    C_WHIP,
    FUT_BROTHERHOOD,
    FUT_ORDER,
    KG_BROTHERHOOD,
    KG_ORDER,
    future_team_nb,
    is_bag_nb,
)
from ..enums import LOC_DECK, N_CARDS, ORDER
from ..rng import below_nb
from .intrinsics import ctz_nb, popcount_nb
from .params import P_CONSOLIDATE, P_LOGE_HIDE, P_LOGE_PLAY, P_LOGE_WATCH

# scratch offsets
TM = 0
EVM = 10
EVT = 20
SLOT = 30
MY_NOW = 40  # our victory items in my hand that count now
MY_FUT = 41  # ... counting my Bag of our colour as ours-to-be
MY_THEIRS = 42  # their victory items (now or to be) in my hand
MY_ANY = 43  # victory items of either team that count now (Loge solo)
MY_N = 44  # cards in my hand
DECK_SLOTS = 45  # deck cards I cannot place
DECK_M = 46  # expected number of our victory items in the item deck
CAND_CNT = 50  # declaration planning: our victory items last seen at each seat
CAND_P = 60  # ... and the probability they are all still there
TR_KEEP = 96  # the turn's action: per card c of my hand, its keep value (act.trade_card_nb)
TR_EFF = 117  # ... the value of its trade effect whoever takes it
TR_REASON = 138  # ... and its reason code
LOGE = 160  # P(seat p holds the Coat of Armor of the Loge), filled when loge_watch > 0 (R6.5)
# what the turn's action states, at scr[CLAIM + CL_*] (-1: not weighed at this decision), read by
# the calibration recorder (kutsch_sim.calib) from the View after the decision; no policy reads it
CLAIM = 170
CL_P_TEAM = 0  # the team declaration's P(success) as stated (R6.3) ...
CL_M_TEAM = 1  # ... and its plan of whom to name (a bit mask)
CL_P_DRINK = 2  # the same with the Drink of Power (R7)
CL_M_DRINK = 3
CL_P_FORT = 4  # fortune-telling (R10)
CL_M_FORT = 5
CL_WAIT = 6  # P(my team wins by playing on) as stated (act.wait_odds_nb, declarations by value)
CL_MINOR = 7  # P(my team is the smaller) as stated
CL_P1_TEAM = 8  # a calibrated seat: the team declaration's P(success) before the declarations' map
CL_P1_DRINK = 9
CL_J_TEAM = 10  # a calibrated seat: its stated P(every seat named is a teammate)
CL_J_DRINK = 11
CL_TM = 12  # a calibrated seat: + p, its stated P(teammate) of each seat holding our items
CL_CONF = 22  # a calibrated seat: + c (c < 8), its stated P(card c is still where it last saw it)
N_CL = 30
N_SCR = CLAIM + N_CL

# how much each occupation is worth holding (Coat pick, Tome swap); team-neutral
OCC_VALUE = (0.9, 0.6, 0.7, 0.8, 0.6, 0.5, 0.5, 0.4, 0.7, 0.7)

# values (in "points"; a victory item of ours in the wrong hands is the unit of disaster)
V_OURS = 10.0  # our victory item given to an opponent
V_THEIRS = 6.0  # their victory item given to an opponent
V_PEARL = 3.0  # the Black Pearl with an opponent (they cannot declare)
V_LOGE = 4.0  # base value of keeping the Loge
V_SOLO = 10.0  # a solo win by another seat (R6.5): everybody else loses, like our item lost


@njit(cache=True, inline="always")
def victory_weight_nb(c, bags_open):
    """How much card c counts as a victory item: 1 for Keys/Goblets and opened Bags,
    0.6 for a closed Bag (it becomes one only when the deck empties), 0 otherwise."""
    if c < 6:
        return 1.0
    if is_bag_nb(c):
        return 1.0 if bags_open == 1 else 0.6
    return 0.0


@njit(cache=True, inline="always")
def cards_at_nb(row, p):
    """The cards c with row[c] == p as a bit mask (card c: bit c), from one branch-free pass;
    ``row`` a seat's k_card row (where it last saw each card)."""
    m = 0
    for c in range(N_CARDS):
        m |= np.int64(row[c] == p) << c
    return m




@njit(cache=True)
def prep_nb(v):
    """Fill ``v.scr`` (see module doc) from the seat's View ``v``: ``v.tm[p]`` is its
    P(p is a teammate), ``v.k_card``/``v.conf`` where it last saw each card. Unplaced victory
    cards are spread over the unplaced card slots (hands and deck) in proportion to their
    number. A card seen in the deck (the Clairvoyant, R8) fills ``v.conf`` of a deck slot,
    the chance it is still there; the rest of it is not placed (a draw
    made it stale, ``bots.beliefs.clair_draw_nb``).

    The cards are sorted once, without a branch per card, into three bit masks (in my hand,
    last seen at another seat, in the deck); my own counts are bit counts of the first, and
    only the cards seen elsewhere and the victory cards are visited, in card order, so every
    sum is taken in the same order as by a loop over all 21 cards (the numbers are the same
    to the bit). About 1.5x faster than that loop on random positions."""
    me, team, n, deck_n, bags_open = v.me, v.team, v.n, v.deck_n, v.bags_open
    k_card, conf, hand_n, tm_src, scr = v.k_card, v.conf, v.hand_n, v.tm, v.scr
    for i in range(TR_KEEP):  # (the action's per-card slots from TR_KEEP on are written before read)
        scr[i] = 0.0
    for p in range(n):
        scr[TM + p] = tm_src[p]
        scr[SLOT + p] = hand_n[p]
    scr[TM + me] = 1.0
    mine = 0
    seen = 0  # last seen at another seat
    deck = 0
    for c in range(N_CARDS):
        h = np.int64(k_card[c])
        mine |= np.int64(h == me) << c
        seen |= np.int64((h >= 0) & (h < n) & (h != me)) << c
        deck |= np.int64(h == LOC_DECK) << c
    ours = FUT_ORDER if team == ORDER else FUT_BROTHERHOOD
    their_kg = KG_BROTHERHOOD if team == ORDER else KG_ORDER
    their_bag = 1 << C_BAG_GOBLET if team == ORDER else 1 << C_BAG_KEY
    ours_now = ours if bags_open == 1 else (KG_ORDER if team == ORDER else KG_BROTHERHOOD)
    any_now = 0xFF if bags_open == 1 else 0x3F
    my_n = float(popcount_nb(mine))
    scr[MY_N] = my_n
    scr[MY_FUT] = float(popcount_nb(mine & ours))  # Bags of our colour as ours-to-be
    scr[MY_NOW] = float(popcount_nb(mine & ours_now))
    theirs = float(popcount_nb(mine & their_kg))
    if mine & their_bag:  # after the Keys and Goblets in card order, as a loop would add it
        theirs += victory_weight_nb(C_BAG_GOBLET if team == ORDER else C_BAG_KEY, bags_open)
    scr[MY_THEIRS] = theirs
    scr[MY_ANY] = float(popcount_nb(mine & any_now))
    scr[SLOT + me] = hand_n[me] - my_n
    deck_slots = float(deck_n)
    m = deck
    while m:  # the cards seen in the deck (the Clairvoyant, R8): each likely still there
        c = ctz_nb(m)
        m &= m - 1
        deck_slots -= conf[c]
    scr[DECK_SLOTS] = deck_slots
    m = seen
    while m:  # the cards at other seats: each takes its share of a slot there
        c = ctz_nb(m)
        m &= m - 1
        scr[SLOT + k_card[c]] -= conf[c]
    total = deck_slots if deck_slots > 0 else 0.0
    for p in range(n):
        scr[SLOT + p] = max(scr[SLOT + p], 0.0)
        total += scr[SLOT + p]
    # victory cards: known share at the last-seen holder; what is not placed (a card never
    # seen, or the chance it left its holder) is spread over the free slots in proportion to
    # their number -- summed per team first, so the spread is one pass over the seats
    spread_m = 0.0  # our victory items not placed (in units of victory weight)
    spread_t = 0.0  # theirs
    m = 0xFF & ~mine
    for k in range(v.victory_cards, 3):  # the Keys and Goblets left out of the game (victory-cards, R9)
        m &= ~((1 << k) | (1 << (3 + k)))
    while m:
        c = ctz_nb(m)
        m &= m - 1
        w = victory_weight_nb(c, bags_open)
        is_ours = (ours >> c) & 1 == 1
        rest = 1.0
        if (seen >> c) & 1:
            q = conf[c]
            rest = 1.0 - q
            scr[(EVM if is_ours else EVT) + k_card[c]] += q * w
        elif (deck >> c) & 1:  # seen in the deck: the part that may have been drawn since
            rest = 1.0 - conf[c]
        if is_ours:
            spread_m += rest * w
        else:
            spread_t += rest * w
    spread_nb(v, spread_m, spread_t, deck_slots, total)
    if v.par[P_LOGE_WATCH] > 0.0 or v.par[P_LOGE_PLAY] > 0.0 or v.par[P_LOGE_HIDE] > 0.0:
        loge_prep_nb(v, deck_slots, total)


@njit(cache=True, inline="always")
def loge_prep_nb(v, deck_slots, total):
    """``scr[LOGE + p]``: P(seat p holds the Coat of Armor of the Loge), from where this seat
    last saw it and how sure it is that it is still there; the rest of it is spread over the
    other seats' free slots and the deck, like an unplaced victory item. All zero when the
    Loge is not in the game (the item set is public)."""
    scr, n, me, k_card, conf = v.scr, v.n, v.me, v.k_card, v.conf
    for p in range(n):
        scr[LOGE + p] = 0.0
    if v.loge_in == 0:
        return
    h = np.int64(k_card[C_LOGE])
    if h == me:  # my own hand: known
        scr[LOGE + me] = 1.0
        return
    rest = 1.0
    if h >= 0 and h < n:
        scr[LOGE + h] = conf[C_LOGE]
        rest = 1.0 - conf[C_LOGE]
    elif h == LOC_DECK:
        rest = 1.0 - conf[C_LOGE]
    if total > 0.0 and rest > 0.0:
        f = rest / total
        for p in range(n):
            if p != me:
                scr[LOGE + p] += f * scr[SLOT + p]


@njit(cache=True, inline="always")
def solo_threat_nb(k, need):
    """How close a Loge holder with ``k`` victory items (expected, any team) is to a solo win
    (R6.5): 0 up to half an item, 1 at ``need`` (3, or the loge-items house rule), growing
    with the square in between."""
    x = min(1.0, max(0.0, (k - 0.5) / (need - 0.5)))
    return x * x


@njit(cache=True, inline="always")
def loge_threat_nb(v, t):
    """The solo-win threat (in points) of seat t's likely Loge as it stands (R6.5): what a fight
    won against t may take away; 0 when I hold the Loge or loge_watch is 0."""
    lw = v.par[P_LOGE_WATCH]
    scr = v.scr
    if lw <= 0.0 or scr[LOGE + v.me] > 0.5:
        return 0.0
    return lw * V_SOLO * scr[LOGE + t] * solo_threat_nb(scr[EVM + t] + scr[EVT + t], v.loge_need)


@njit(cache=True, inline="always")
def loge_risk_nb(v, t, w):
    """The solo-win threat (in points) that seat t's Loge gains when ``w`` more victory items
    reach t (R6.5); 0 when I hold the Loge or loge_watch is 0."""
    lw = v.par[P_LOGE_WATCH]
    scr = v.scr
    if lw <= 0.0 or scr[LOGE + v.me] > 0.5:
        return 0.0
    t = np.int64(t)  # callers pass int8 seats (k_card), and LOGE + t must not wrap (without the JIT)
    k = scr[EVM + t] + scr[EVT + t]
    # a likely teammate's Loge threatens less: with our items it declares with us (act.py)
    return lw * V_SOLO * scr[LOGE + t] * (solo_threat_nb(k + w, v.loge_need) - solo_threat_nb(k, v.loge_need)) * (1.0 - 0.75 * scr[TM + t])


@njit(cache=True, inline="always")
def spread_nb(v, spread_m, spread_t, deck_slots, total):
    """The last step of :func:`prep_nb`: our (``spread_m``) and their (``spread_t``) victory
    items not placed go to the deck and to the other seats' free slots (``scr[SLOT + p]``,
    ``total`` of them with the deck's ``deck_slots``) in proportion to their number."""
    scr, n, me = v.scr, v.n, v.me
    if total > 0.0:
        inv = 1.0 / total
        if deck_slots > 0:
            scr[DECK_M] = spread_m * deck_slots * inv
        fm = spread_m * inv
        ft = spread_t * inv
        for p in range(n):
            if p != me:
                scr[EVM + p] += fm * scr[SLOT + p]
                scr[EVT + p] += ft * scr[SLOT + p]


@njit(cache=True, inline="always")
def keep_value_nb(c, team, bags_open, deck_n, my_any, occ_used):
    """Value to the seat of keeping a non-victory card c in its own hand."""
    if c == C_LOGE:
        return V_LOGE + 2.0 * my_any
    if c == C_PEARL:
        return -2.0  # its holder cannot declare
    if c == C_DAGGER or c == C_GLOVES or c == C_RING:
        return 0.6
    if c == C_KNIVES or c == C_WHIP:
        return 0.4
    if c == C_MONOCLE or c == C_PRIVILEGE:
        return 0.5
    if c == C_TOME or c == C_COAT:
        return 0.3 + (0.5 if occ_used else 0.0)
    if c == C_SEXTANT:
        return 0.2
    return 0.1  # Mirror


@njit(cache=True, inline="always")
def give_value_nb(v, c, t):
    """Change in our team's prospects when card c goes from me to seat t (victory items,
    Pearl, Loge), before trade effects; ``v`` is the seat's View (prep_nb done). The arguments
    are made int64 so that the body compiles once (its callers pass int8, int32 and int64)."""
    return give_value_body_nb(v, np.int64(c), np.int64(t))


@njit(cache=True)
def give_value_body_nb(v, c, t):
    """:func:`give_value_nb`'s body (int64 arguments)."""
    team, bags_open, scr, cons = v.team, v.bags_open, v.scr, v.par[P_CONSOLIDATE]
    tm = scr[TM + t]
    f = future_team_nb(c)
    if f >= 0:
        w = victory_weight_nb(c, bags_open)
        # any victory item brings a likely Loge holder closer to a solo win (R6.5); my own
        # Loge's progress goes with the item too
        risk = loge_risk_nb(v, t, w) + loge_hold_nb(v, w)
        if f == team:
            # towards a teammate who then holds more of ours than I keep: gathering
            gather = cons * min(1.0, max(-1.0, (scr[EVM + t] + 1.0) - scr[MY_FUT]))
            return tm * gather - (1.0 - tm) * V_OURS * w - risk
        return -(1.0 - tm) * V_THEIRS * w - risk
    if c == C_PEARL:
        if scr[MY_NOW] >= 2.0:
            # I am close to declaring and the Pearl forbids it: a teammate keeps it, an
            # opponent would push it straight back (it cannot be refused)
            return 6.0 * tm - 1.0
        return (1.0 - 2.0 * tm) * V_PEARL * (0.5 + 0.5 * (scr[EVT + t] + scr[EVM + t]))
    if c == C_LOGE:
        return -V_LOGE - 2.0 * scr[MY_ANY]  # the Loge elsewhere threatens a solo win against us
    return 0.2 * tm  # a fight item or the like: slightly better with a teammate


@njit(cache=True, inline="always")
def loge_hold_nb(v, w):
    """What ``w`` victory items of either team are worth to me while I hold the Loge: steps
    towards a solo win (R6.5), the more the closer I am (0 when loge_play is 0)."""
    lw = v.par[P_LOGE_PLAY]
    if lw <= 0.0 or v.scr[LOGE + v.me] < 0.5:
        return 0.0
    k = v.scr[MY_ANY]
    return lw * V_SOLO * 0.5 * (solo_threat_nb(k + w, v.loge_need) - solo_threat_nb(k, v.loge_need))


@njit(cache=True, inline="always")
def loge_seen_nb(v):
    """What it costs me (in points) that a seat that is likely an opponent sees my hand while I
    hold the Loge close to a solo win: it will come for the Loge (R6.5). 0 when loge_hide is 0
    or I do not hold it."""
    lh = v.par[P_LOGE_HIDE]
    if lh <= 0.0 or v.scr[LOGE + v.me] < 0.5:
        return 0.0
    return lh * V_SOLO * solo_threat_nb(v.scr[MY_ANY] + 1.0, v.loge_need)


@njit(cache=True, inline="always")
def draw_value_nb(base, deck_n, scr):
    """Value of drawing the top card of the deck: a base value plus the chance it is one of
    our victory items (the unplaced ones are spread over the deck and the hands)."""
    if deck_n <= 0:
        return 0.0
    return base + 8.0 * scr[DECK_M] / deck_n


@njit(cache=True)
def pick_best_nb(v, n):
    """Index of the highest score among v.score[0:n]; ties broken uniformly with the View's
    stream. (The View record, one pointer, rather than its two arrays: about 160 calls a
    game.)"""
    score, rs = v.score, v.rs
    best = score[0]
    for i in range(1, n):
        best = max(best, score[i])
    k = 0
    first = 0
    for i in range(n - 1, -1, -1):  # backwards, so ``first`` ends at the first best
        if score[i] >= best - 1e-9:
            k += 1
            first = i
    if k == 1:  # no tie (the usual case): no draw, no third pass
        return first
    j = below_nb(rs, k)
    for i in range(n):
        if score[i] >= best - 1e-9:
            if j == 0:
                return i
            j -= 1
    return 0


@njit(cache=True, inline="always")  # some forty literal reason codes: inlined, not compiled forty times
def out_nb(v, code, target, d):
    v.out[0] = code
    v.out[1] = target
    v.out[2] = d
