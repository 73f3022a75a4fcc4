"""Hands, the item deck, victory items, hand limits and what seats learn (R2.4, R4, R9)."""

from __future__ import annotations

import numpy as np

from ..jit import njit

from ..cards_nb import now_team_nb
from ..enums import (
    BROTHERHOOD,
    DCTX_A,
    DCTX_B,
    DEC,
    EV,
    N_CARDS,
    N_KINDS,
    ORDER,
    SC,
)
from .decide import decide_nb
from .log import log_nb
from .state import give_card_nb


@njit(cache=True)
def victory_team_nb(st, c):
    """Team whose victory item card c is now (R9: Bags count once the deck is empty), or -1."""
    return now_team_nb(c, st.sc[SC.BAGS_OPEN])


@njit(cache=True)
def victory_count_nb(st, p, team):
    """Victory items of ``team`` in seat p's hand; team -1 counts both (Loge, R6.5)."""
    n = 0
    for c in range(N_CARDS):
        if st.loc[c] == p:
            v = victory_team_nb(st, c)
            if v >= 0 and (team < 0 or v == team):
                n += 1
    return n


@njit(cache=True)
def holds_kind_nb(st, p, k):
    """A card of kind k in seat p's hand (the lowest), or -1. Kinds from 2 on have one
    card each (card k + 4, see kind_nb), Keys and Goblets three (cards 0-2, 3-5)."""
    if k < 0 or k >= N_KINDS:
        return -1
    if k >= 2:
        c = k + 4
        return c if st.loc[c] == p else -1
    for c in range(3 * k, 3 * k + 3):
        if st.loc[c] == p:
            return c
    return -1


@njit(cache=True)
def hand_options_nb(st, p, skip, start):
    """Write seat p's cards (except ``skip``) into st.opts from ``start``; return the new end."""
    n = start
    for c in range(N_CARDS):
        if st.loc[c] == p and c != skip:
            st.opts[n] = c
            n += 1
    return n


@njit(cache=True)
def hand_mask_nb(st, p):
    m = 0
    for c in range(N_CARDS):
        if st.loc[c] == p:
            m |= 1 << c
    return m


# ------------------------------------------------------------------ knowledge
@njit(cache=True, inline="always")
def see_assoc_nb(st, s, p):
    st.k_assoc[s, p] = st.assoc[p]
    log_nb(st, EV.SEE_ASSOC, s, p, st.assoc[p], 0)


@njit(cache=True)
def look_assoc_nb(st, s, p):
    """Seat s looks at p's association (a fight win's look, R5.8; a Monocle, R9). In the
    advanced 3-player game (R10) s sees only one of p's three cards, at the position s picks
    (ruling); s knows p's team once two of the cards it has seen agree."""
    if st.acard[p, 0] < 0:
        see_assoc_nb(st, s, p)
        return
    st.dctx[DCTX_A] = s
    st.dctx[DCTX_B] = p
    for j in range(3):
        st.opts[j] = j
    j = decide_nb(st, s, DEC.ACARD_PICK, 3)
    st.k_acard[s, p, j] = st.acard[p, j]
    n_order = 0
    n_broth = 0
    for i in range(3):
        if st.k_acard[s, p, i] == ORDER:
            n_order += 1
        elif st.k_acard[s, p, i] == BROTHERHOOD:
            n_broth += 1
    if n_order >= 2 or n_broth >= 2:
        st.k_assoc[s, p] = st.assoc[p]
    log_nb(st, EV.SEE_ACARD, s, p, j, st.acard[p, j])


@njit(cache=True)
def see_occ_nb(st, s, p):
    st.k_occ[s, p] = st.occ[p]
    log_nb(st, EV.SEE_OCC, s, p, st.occ[p], 0)


@njit(cache=True)
def see_items_nb(st, s, p):
    """Seat s looks at all of p's items: it now knows them, and that its older beliefs
    about cards at p that are not there are stale."""
    for c in range(N_CARDS):
        if st.loc[c] == p:
            st.k_card[s, c] = p
        elif st.k_card[s, c] == p:
            st.k_card[s, c] = -1
    log_nb(st, EV.SEE_ITEMS, s, p, hand_mask_nb(st, p), 0)


@njit(cache=True)
def show_card_nb(st, p, c):
    """Card c is shown or announced: every seat knows p holds it."""
    n = st.sc[SC.N]
    for s in range(n):
        st.k_card[s, c] = p


@njit(cache=True)
def move_known_nb(st, c, a, b):
    """Card c goes from a to b privately: both know where it went."""
    give_card_nb(st, c, b)
    st.k_card[a, c] = b


# ------------------------------------------------------------------ deck and limits
@njit(cache=True)
def draw_nb(st, p, reason):
    """Seat p draws the top card of the item deck, if any (Bag effect, tie R5.8).
    Drawing the last card transforms the Bags at once (R9), silently."""
    dn = st.sc[SC.DECK_N]
    if dn == 0:
        return -1
    c = np.int64(st.deck[dn - 1])  # int64, so give_card_nb compiles once for all callers
    st.deck[dn - 1] = -1
    st.sc[SC.DECK_N] = dn - 1
    give_card_nb(st, c, p)
    if dn == 1:
        st.sc[SC.BAGS_OPEN] = 1
    # the Clairvoyant's seat put the top cards there in an order it chose (R8): it knows
    # which card this is, so it knows where the card went (the others only see a draw)
    knew = st.sc[SC.TOP_SEAT]
    if knew >= 0:
        st.k_card[knew, c] = p
        st.sc[SC.TOP_KNOWN] -= 1
        if st.sc[SC.TOP_KNOWN] <= 0:
            st.sc[SC.TOP_SEAT] = -1
    log_nb(st, EV.DRAW, p, c, reason, knew + 1)
    if dn == 1:
        log_nb(st, EV.BAGS_OPEN, 0, 0, 0, 0)
    settle_limits_nb(st, p)
    return c


@njit(cache=True)
def settle_limits_nb(st, first):
    """R2.4: a seat over the hand limit gives items of its choice to seats of its choice
    until at the limit; a recipient pushed over gives in turn (003). The give-away is a
    gift, not a trade (ruling). After 64 gifts only seats with room may receive, so a
    policy cannot loop for ever."""
    n = st.sc[SC.N]
    lim = st.sc[SC.HAND_LIMIT]
    p = first
    gifts = 0
    while True:
        if st.hand_n[p] <= lim:
            p = -1
            for q in range(n):
                if st.hand_n[q] > lim:
                    p = q
                    break
            if p < 0:
                return
        k = 0
        for t in range(n):
            if t == p or (gifts >= 64 and st.hand_n[t] >= lim):
                continue
            for c in range(N_CARDS):
                if st.loc[c] == p:
                    st.opts[k] = t * 32 + c
                    k += 1
        st.dctx[0] = p
        st.dctx[1] = st.hand_n[p] - lim
        v = decide_nb(st, p, DEC.LIMIT_GIVE, k)
        t = v // 32
        c = v % 32
        move_known_nb(st, c, p, t)
        log_nb(st, EV.GIVE, p, t, c, 0)
        gifts += 1
        p = t


@njit(cache=True)
def deck_cards_nb(st, start):
    """Write the cards in the deck into st.opts from ``start`` (Clairvoyant)."""
    n = start
    for i in range(st.sc[SC.DECK_N]):
        st.opts[n] = st.deck[i]
        n += 1
    return n
