"""The event observer: every seat's evidence brought up to date after each event it sees.

:func:`observe_nb` is called by the engine (``engine.seats.tell_nb``, from ``engine.log``) for
every event type in ``OBSERVED_MASK`` and updates every seat from what *that seat* sees:
public events for all, private fields (cards in a trade, a draw, a look) only for the seats
involved. It writes the bots' memory only (``st.mem``: ``bots.memory``), never the rules'
fields. Soft evidence is kept as pairwise terms, weighed by each seat's model
(``bots.evidence``; ``bots.beliefs``, the module doc); item
beliefs as ``bel_conf[s, c]``, s's probability that card c is still where s last saw it
(``st.k_card[s, c]``): each time the holder passes an unseen card on (trade, gift, Sextant,
fight take, Priest), it drops by the chance that this was the card, (h-1)/h for a hand of h.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

from ..cards_nb import C_DAGGER, C_GLOVES, C_KNIVES, C_RING, C_WHIP, is_bag_nb, kind_nb
from ..enums import EV, IK, LOC_DECK, N_CARDS, OFFER_DIPLOMAT, SC, SIDE_ATT, SIDE_DEF, SRC
from .beliefs import kept_nb, tell_size_nb
from .evidence import (
    E_ATTACK,
    E_BONUS_WITH,
    E_DOCTOR_WITH,
    E_MIXER_WITH,
    E_OFFER,
    E_PRIEST_SELF,
    E_PRIEST_WITH,
    E_REJECT,
    E_ACCEPT,
    E_SUPPORT_WITH,
    GIFT_OFFER,
    GIFT_PASS,
    GIFT_RETURN,
    ev_pair_nb,
    ev_side_nb,
    gift_nb,
)
from .intrinsics import ctz_nb
from .params import M_CLAIR_2ND, M_CLAIR_DN, M_CLAIR_TOP, M_PASSED, M_REJECTED, M_SAW_DECK
from .values import cards_at_nb

# fight context kept by the observer (bel_ctx)
X_ATT = 0
X_DEF = 1
X_WON = 2
X_DIPLO_NAME = 3
X_FORCED = 4  # 1 while the trade under way is the Diplomat's demand (public, R8): nobody chose it
X_TRADE_A = 5  # the last completed trade's active seat (giver of the first card) ...
X_TRADE_B = 6  # ... and its partner
X_DECAYED = 7  # bit 0 / bit 1: the others' confidence in A's / B's cards was lowered at the ACCEPT

OBSERVED = (
    EV.ATTACK, EV.SUPPORT, EV.BONUS, EV.MIXER, EV.RESULT, EV.DOCTOR, EV.PRIEST, EV.OFFER,
    EV.ACCEPT, EV.REJECT, EV.ANNOUNCE, EV.SEE_ITEMS, EV.SEE_ASSOC, EV.DRAW, EV.PASS_ON, EV.GIVE,
    EV.TAKE, EV.GIVE_BACK, EV.RING, EV.CLAIR, EV.DIPLO, EV.DIPLO_MISS, EV.DIPLO_BAGS, EV.SEE_ACARD,
    EV.SEXTANT, EV.SETUP_DONE,
)
OBSERVED_MASK = 0
for _t in OBSERVED:
    OBSERVED_MASK |= 1 << _t
del _t


@njit(cache=True)
def stale_all_nb(fresh, n):
    for s in range(n):
        fresh[s] = False


@njit(cache=True, inline="always")
def decay_nb(conf, k_card, n, p, keep, x, y):
    """Seats other than x and y saw p pass on one unseen card: what they placed at p is
    there with probability ``keep`` less. Each seat's cards placed at p are found as a bit
    mask in one branch-free pass over its row (a loop with no stores), and only those are
    multiplied: the same products as multiplying every card by ``keep`` or by 1.0."""
    for s in range(n):
        if s == x or s == y:
            continue
        m = cards_at_nb(k_card[s], p)
        cs = conf[s]
        while m:
            c = ctz_nb(m)
            m &= m - 1
            cs[c] *= keep


@njit(cache=True, inline="always")
def bonus_card_nb(src):
    if src == SRC.DAGGER:
        return C_DAGGER
    if src == SRC.GLOVES:
        return C_GLOVES
    if src == SRC.KNIVES:
        return C_KNIVES
    if src == SRC.WHIP:
        return C_WHIP
    return -1


@njit(cache=True, inline="always")
def name_matches_nb(c, name, bags_open):
    """Does card c answer to the item name ``name`` (as the Diplomat names it, R8)?"""
    k = kind_nb(c)
    if bags_open == 0:
        if name == 2:  # "Secret Bag" (named by BAG_KEY while the deck has cards)
            return k == 2 or k == 3
        return k == name
    if name == 0:
        return k == 0 or k == 2
    if name == 1:
        return k == 1 or k == 3
    return k == name


@njit(cache=True, inline="always")
def clair_draw_nb(st, a, b, knew):
    """Seat ``a`` drew card ``b`` from the item deck (logged after the draw); ``knew`` is the
    seat that knew which card lay on top (the Clairvoyant's, R8; the engine has set its
    ``k_card``), or -1. A seat that saw the deck's cards (``k_card == LOC_DECK``) and did not
    draw or know this one learns only that one of them left: each is still in the deck with
    probability (deck after)/(deck before), the cards lying in shuffled order (R8). The seat
    that knew moves its memory of the top card (``M_CLAIR_TOP``, read by the turn's action)
    on to the second."""
    n, dn = st.sc[SC.N], st.sc[SC.DECK_N]
    conf, k_card, bmem = st.mem.bel_conf, st.k_card, st.mem.bmem
    keep = dn / (dn + 1.0)
    for s in range(n):
        if s == knew:
            conf[s, b] = 1.0
            if bmem[s, M_CLAIR_TOP] == b and bmem[s, M_CLAIR_DN] == dn + 1:
                nxt = bmem[s, M_CLAIR_2ND]
                bmem[s, M_CLAIR_TOP] = nxt
                bmem[s, M_CLAIR_2ND] = -1
                bmem[s, M_CLAIR_DN] = dn if nxt >= 0 else -1
        elif s != a and bmem[s, M_SAW_DECK] != 0:  # (nobody else has cards seen in the deck)
            for x in range(N_CARDS):
                if k_card[s, x] == LOC_DECK:
                    conf[s, x] *= keep


@njit(cache=True)
def observe_nb(st, typ, a, b, c, d):
    """Update every seat's beliefs after event (typ, a, b, c, d) of game state ``st``; see
    the module doc. Mutates the bots' fields only (bel_pair, bel_psat, bel_epub, bel_gpair, bel_epriv, bel_fresh,
    bel_conf, bel_ctx, bmem), never the engine's. Takes the state record (one pointer)
    rather than its fourteen fields, as it runs on every event."""
    n, bags_open = st.sc[SC.N], st.sc[SC.BAGS_OPEN]
    na = kept_nb(n, st.sc[SC.N_ASG])  # the assignments whose factors are kept
    fresh, conf, ctx, bmem, k_card, hand_n = st.mem.bel_fresh, st.mem.bel_conf, st.mem.bel_ctx, st.mem.bmem, st.k_card, st.hand_n
    if typ == EV.ATTACK:
        ctx[X_ATT] = a
        ctx[X_DEF] = b
        ctx[X_WON] = -1
        ev_pair_nb(st, na, a, b, E_ATTACK)
        stale_all_nb(fresh, n)
    elif typ == EV.SUPPORT:
        x = ctx[X_ATT] if b == SIDE_ATT else ctx[X_DEF]
        y = ctx[X_DEF] if b == SIDE_ATT else ctx[X_ATT]
        ev_side_nb(st, na, a, x, y, E_SUPPORT_WITH)
        stale_all_nb(fresh, n)
    elif typ == EV.BONUS:
        cc = bonus_card_nb(b)
        if cc >= 0:
            for s in range(n):
                conf[s, cc] = 1.0
        if a != ctx[X_ATT] and a != ctx[X_DEF]:
            x = ctx[X_ATT] if c == SIDE_ATT else ctx[X_DEF]
            y = ctx[X_DEF] if c == SIDE_ATT else ctx[X_ATT]
            ev_side_nb(st, na, a, x, y, E_BONUS_WITH)
            stale_all_nb(fresh, n)
    elif typ == EV.RING:
        for s in range(n):
            conf[s, C_RING] = 1.0
    elif typ == EV.MIXER:
        x = ctx[X_ATT] if b == SIDE_ATT else ctx[X_DEF]
        y = ctx[X_DEF] if b == SIDE_ATT else ctx[X_ATT]
        ev_side_nb(st, na, a, x, y, E_MIXER_WITH)
        stale_all_nb(fresh, n)
    elif typ == EV.RESULT:
        ctx[X_WON] = c
    elif typ == EV.SETUP_DONE:  # the teams are dealt: told seats learn their team's size
        tell_size_nb(st, n)
    elif typ == EV.DOCTOR:
        won = ctx[X_WON]
        if won == SIDE_ATT or won == SIDE_DEF:
            loser = ctx[X_DEF] if won == SIDE_ATT else ctx[X_ATT]
            winner = ctx[X_ATT] if won == SIDE_ATT else ctx[X_DEF]
            ev_side_nb(st, na, a, loser, winner, E_DOCTOR_WITH)
            stale_all_nb(fresh, n)
    elif typ == EV.PRIEST:
        # priest a stopped attacker b (who gave card c, -1 if none); logged after the move
        if ctx[X_DEF] >= 0:
            if a == ctx[X_DEF]:
                ev_pair_nb(st, na, a, b, E_PRIEST_SELF)
            else:
                ev_side_nb(st, na, a, np.int64(ctx[X_DEF]), b, E_PRIEST_WITH)
            stale_all_nb(fresh, n)
        if c >= 0:
            h = hand_n[b]
            decay_nb(conf, k_card, n, b, h / (h + 1.0), a, b)
            conf[a, c] = 1.0
            conf[b, c] = 1.0
    elif typ == EV.OFFER:
        # an offer looks free to everyone but the two traders unless the Diplomat demanded
        # it (public, R8): a Black Pearl or a Broken Mirror that cannot be refused (R4.5,
        # R4.6) is offered face down, so the others weigh it as any offer
        forced = d == OFFER_DIPLOMAT
        ctx[X_FORCED] = 1 if forced else 0
        if not forced:
            ev_pair_nb(st, na, a, b, E_OFFER)
            stale_all_nb(fresh, n)
        conf[b, c] = 1.0
        gift_nb(st, na, b, a, c, GIFT_OFFER)
    elif typ == EV.ACCEPT:
        forced = ctx[X_FORCED] == 1
        if not forced:  # the Diplomat's target had no choice, and gave the named item
            ev_pair_nb(st, na, b, a, E_ACCEPT)  # b accepted a's offer
            stale_all_nb(fresh, n)
            gift_nb(st, na, a, b, d, GIFT_RETURN)
        ctx[X_FORCED] = 0
        bmem[a, M_REJECTED] &= ~(1 << b)
        ctx[X_TRADE_A] = a
        ctx[X_TRADE_B] = b
        h = hand_n[a]
        decay_nb(conf, k_card, n, a, (h - 1.0) / h, a, b)
        decayed = 1
        if forced and ctx[X_DIPLO_NAME] > IK.BAG_GOBLET:
            # the Diplomat named an item there is one of (R8): all know it left b, for a
            for s in range(n):
                conf[s, d] = 1.0
        else:
            h = hand_n[b]
            decay_nb(conf, k_card, n, b, (h - 1.0) / h, a, b)
            decayed |= 2
        ctx[X_DECAYED] = decayed
        conf[a, c] = 1.0
        conf[b, c] = 1.0
        conf[a, d] = 1.0
        conf[b, d] = 1.0
    elif typ == EV.REJECT:
        ev_pair_nb(st, na, b, a, E_REJECT)  # b rejected a's offer
        stale_all_nb(fresh, n)
        bmem[a, M_REJECTED] |= 1 << b
    elif typ == EV.ANNOUNCE:
        # the announced card is now known to be with a (the engine moves everyone's k_card);
        # a Secret Bag is announced as just "Secret Bag" (R4 ruling): which one stays hidden
        bag = is_bag_nb(b)
        if not bag:
            for s in range(n):
                conf[s, b] = 1.0
        # so the card the giver g passed on is public (or, for a Bag, that it was a Bag): what
        # the others placed at g is still there, as before the trade's ACCEPT lowered it
        ta, tb = ctx[X_TRADE_A], ctx[X_TRADE_B]
        g = ta if a == tb else tb
        bit = 1 if g == ta else 2
        h = hand_n[g] if g >= 0 else 0
        if h > 1 and ctx[X_DECAYED] & bit:  # (a hand of one had only the card passed on)
            ctx[X_DECAYED] &= ~bit
            undo = h / (h - 1.0)
            for s in range(n):
                if s == ta or s == tb:
                    continue
                m = cards_at_nb(k_card[s], g)
                while m:
                    cc = ctz_nb(m)
                    m &= m - 1
                    if cc != b and not (bag and is_bag_nb(cc)):
                        conf[s, cc] = min(1.0, conf[s, cc] * undo)
    elif typ == EV.SEE_ITEMS:
        for cc in range(N_CARDS):
            if (c >> cc) & 1:
                if a >= 0:
                    conf[a, cc] = 1.0
                else:
                    for s in range(n):
                        conf[s, cc] = 1.0
    elif typ == EV.SEE_ASSOC or typ == EV.SEE_ACARD:
        fresh[a] = False  # new hard evidence for the seer only
    elif typ == EV.DRAW:
        conf[a, b] = 1.0
        clair_draw_nb(st, a, b, d - 1)
    elif typ == EV.SEXTANT:  # a round of passing begins (R8 Sextant)
        for s in range(n):
            bmem[s, M_PASSED] = -1
    elif typ == EV.PASS_ON or typ == EV.GIVE:
        h = hand_n[a]
        keep = (h - 1.0) / h if typ == EV.PASS_ON else h / (h + 1.0)
        decay_nb(conf, k_card, n, a, keep, a, b)
        conf[a, c] = 1.0
        conf[b, c] = 1.0
        if typ == EV.PASS_ON:
            # all choose at once, then pass (RULES, Sextant ruling): the card a received in this
            # round is not the one it passed on, so its giver g stays sure of where it is
            bmem[a, M_PASSED] = c
            g = (2 * a - b + n) % n
            cg = bmem[g, M_PASSED]
            if cg >= 0 and k_card[g, cg] == a:
                conf[g, cg] = 1.0
        gift_nb(st, na, b, a, c, GIFT_PASS)
    elif typ == EV.TAKE:
        if c >= 0:  # logged before the move: b still holds h cards
            h = hand_n[b]
            decay_nb(conf, k_card, n, b, (h - 1.0) / h, a, b)
            conf[a, c] = 1.0
            conf[b, c] = 1.0
    elif typ == EV.GIVE_BACK:
        h = hand_n[a]
        decay_nb(conf, k_card, n, a, h / (h + 1.0), a, b)
        conf[a, c] = 1.0
        conf[b, c] = 1.0
    elif typ == EV.CLAIR:
        bmem[a, M_CLAIR_TOP] = b
        bmem[a, M_CLAIR_2ND] = c
        bmem[a, M_CLAIR_DN] = d
        bmem[a, M_SAW_DECK] = 1
        for x in range(N_CARDS):  # it has just seen every card of the deck (R8)
            if k_card[a, x] == LOC_DECK:
                conf[a, x] = 1.0
    elif typ == EV.DIPLO:
        ctx[X_DIPLO_NAME] = c
    elif typ == EV.DIPLO_BAGS:
        conf[a, c] = 1.0  # the Diplomat a learns that target b holds the other Bag c (R8, 003)
    elif typ == EV.DIPLO_MISS:
        # everyone learns the target holds no item of the named kind
        name = ctx[X_DIPLO_NAME]
        for s in range(n):
            for cc in range(N_CARDS):
                if k_card[s, cc] == b and s != b and name_matches_nb(cc, name, bags_open):
                    conf[s, cc] = 0.0
