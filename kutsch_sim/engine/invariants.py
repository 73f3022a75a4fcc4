"""Invariant checks (debug mode runs them after every event; tests and fuzzing use them).

``check_nb(st, full)`` returns an ``Err`` code (0 = fine) and also stores the first error
in ``sc[ERROR]``. ``full`` adds the hand-limit check, which only holds once give-aways
have settled (R2.4), i.e. between turns and after each settle.
"""

from __future__ import annotations

from ..jit import njit

from ..enums import ERR, LOC_DECK, LOC_OUT, LOC_PILE, MAX_PLAYERS, N_CARDS, N_OCCS, SC


@njit(cache=True)
def check_nb(st, full):
    n = st.sc[SC.N]
    err = ERR.OK
    # cards: each in exactly one place; hand counts and deck agree with loc
    counts = 0
    for p in range(MAX_PLAYERS):
        h = 0
        for c in range(N_CARDS):
            if st.loc[c] == p:
                h += 1
        if h != st.hand_n[p] or (p >= n and h != 0):
            err = ERR.CARDS
        if p < n and h == 0 and err == ERR.OK:
            err = ERR.EMPTY_HAND
        if full and p < n and h > st.sc[SC.HAND_LIMIT] and err == ERR.OK:
            err = ERR.HAND_LIMIT
        counts += h
    dn = st.sc[SC.DECK_N]
    for i in range(dn):
        c = st.deck[i]
        if c < 0 or c >= N_CARDS or st.loc[c] != LOC_DECK:
            err = ERR.CARDS
    in_deck = 0
    for c in range(N_CARDS):
        if st.loc[c] == LOC_DECK:
            in_deck += 1
        elif st.loc[c] != LOC_OUT and (st.loc[c] < 0 or st.loc[c] >= n):
            err = ERR.CARDS
    if in_deck != dn:
        err = ERR.CARDS
    if (dn == 0) != (st.sc[SC.BAGS_OPEN] == 1):
        err = ERR.CARDS
    # occupations: each at exactly one seat or in the pile; seats agree with occ_loc
    for p in range(n):
        o = st.occ[p]
        if o < 0 or o >= N_OCCS or st.occ_loc[o] != p:
            err = ERR.OCCS
    n_pile = 0
    for o in range(N_OCCS):
        q = st.occ_loc[o]
        if q == LOC_PILE:
            n_pile += 1
        elif q < 0 or q >= n or st.occ[q] != o:
            err = ERR.OCCS
    if n_pile != N_OCCS - n:
        err = ERR.OCCS
    # R10 advanced 3-player: a seat's team is the majority of its three association cards
    for p in range(n):
        if st.acard[p, 0] >= 0:
            k = st.acard[p, 0] + st.acard[p, 1] + st.acard[p, 2]
            if st.assoc[p] != (1 if k >= 2 else 0) and err == ERR.OK:
                err = ERR.CARDS
    if err != ERR.OK and st.sc[SC.ERROR] == 0:
        st.sc[SC.ERROR] = err
    return err
