"""Trades (R4), trade effects (R9) and the Diplomat's special trade (R8)."""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import C_BAG_GOBLET, C_BAG_KEY, is_bag_nb, kind_nb
from ..enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
    DCTX_X,
    DEC,
    EV,
    FORCED,
    IK,
    LOC_DECK,
    LOC_PILE,
    N_CARDS,
    N_KINDS,
    N_OCCS,
    OC,
    OFFER_CARD,
    OFFER_DIPLOMAT,
    OFFER_FREE,
    SC,
    VAR,
)
from ..rng import shuffle_nb
from .decide import decide_nb, forced_nb, yes_no_nb
from .items import draw_nb, hand_options_nb, look_assoc_nb, move_known_nb, see_items_nb, show_card_nb
from .log import log_nb

TRADE_FREE = 0
TRADE_FORCED = 1  # Diplomat: cannot be refused, the named item comes back

DIPLO_END_TURN = 0
DIPLO_CONTINUE = 1


@njit(cache=True)
def has_trade_effect_nb(st, c):
    """R9: Bags (only while the deck has cards), Monocle, Privilege, Tome, Coat, Sextant."""
    k = kind_nb(c)
    if k == IK.BAG_KEY or k == IK.BAG_GOBLET:
        return st.sc[SC.BAGS_OPEN] == 0
    return k == IK.MONOCLE or k == IK.PRIVILEGE or k == IK.TOME or k == IK.COAT or k == IK.SEXTANT


@njit(cache=True)
def other_bag_nb(c):
    return C_BAG_GOBLET if c == C_BAG_KEY else C_BAG_KEY


@njit(cache=True)
def matches_name_nb(st, c, name):
    """Does card c answer to the item name ``name`` (a kind)? While the deck has cards both
    Bags are just "Secret Bag" (named by BAG_KEY); afterwards they are a Key / a Goblet (R8)."""
    k = kind_nb(c)
    if st.sc[SC.BAGS_OPEN] == 0:
        if name == IK.BAG_KEY:
            return k == IK.BAG_KEY or k == IK.BAG_GOBLET
        return k == name
    if name == IK.KEY:
        return k == IK.KEY or k == IK.BAG_KEY
    if name == IK.GOBLET:
        return k == IK.GOBLET or k == IK.BAG_GOBLET
    return k == name


@njit(cache=True)
def return_options_nb(st, b, x, forced, name):
    """Cards receiver b may hand back for x: any other card of theirs, but never the other
    Bag for a Bag while the deck has cards (R4.7); for the Diplomat, a card of the named item."""
    ban = -1
    if is_bag_nb(x) and st.sc[SC.BAGS_OPEN] == 0:
        ban = other_bag_nb(x)
    k = 0
    for c in range(N_CARDS):
        if st.loc[c] == b and c != x and c != ban and (forced == TRADE_FREE or matches_name_nb(st, c, name)):
            st.opts[k] = c
            k += 1
    return k


@njit(cache=True, inline="always")
def trade_nb(st, a, b, x, forced, name):
    """Active seat a offers card x to seat b (R4). Returns True if the trade completed.
    (The arguments are made int64 so that the body compiles once: see engine.log.log_nb.)"""
    return trade_body_nb(st, np.int64(a), np.int64(b), np.int64(x), np.int64(forced), np.int64(name))


@njit(cache=True)
def trade_body_nb(st, a, b, x, forced, name):
    """:func:`trade_nb`'s body (int64 arguments)."""
    kx = kind_nb(x)
    must = forced == TRADE_FORCED or kx == IK.PEARL or kx == IK.MIRROR  # R4.5, R4.6, R8
    # the last field says why the offer cannot be refused, if it cannot: the Diplomat's
    # demand is public (R8), the card (R4.5, R4.6) is known only to the two traders
    how = OFFER_DIPLOMAT if forced == TRADE_FORCED else (OFFER_CARD if must else OFFER_FREE)
    log_nb(st, EV.OFFER, a, b, x, how)
    st.dctx[DCTX_A] = a
    st.dctx[DCTX_B] = b
    st.dctx[DCTX_CARD] = x
    st.k_card[b, x] = a  # the receiver looks at the card (R4.2) before it decides
    n_ret = return_options_nb(st, b, x, forced, name)
    if n_ret == 0:  # R4.7: only the other Bag to give back -> must reject
        accept = forced_nb(st, b, DEC.ACCEPT, 0, FORCED.BAGS) == 1
    elif must:
        why = FORCED.DIPLOMAT if forced == TRADE_FORCED else (FORCED.PEARL if kx == IK.PEARL else FORCED.MIRROR)
        accept = forced_nb(st, b, DEC.ACCEPT, 1, why) == 1
    else:
        accept = yes_no_nb(st, b, DEC.ACCEPT)
    if not accept:
        st.k_card[b, x] = a  # the receiver has seen the card
        log_nb(st, EV.REJECT, a, b, x, 1 if n_ret == 0 else 0)  # d = 1: R4.7 forced the reject
        return False
    move_known_nb(st, x, a, b)
    n_ret = return_options_nb(st, b, x, forced, name)
    st.dctx[DCTX_A] = a  # written again: the ACCEPT came between (a decision's context, enums.DCTX_MASK)
    st.dctx[DCTX_B] = b
    st.dctx[DCTX_CARD] = x
    y = decide_nb(st, b, DEC.GIVE_NAMED if forced == TRADE_FORCED else DEC.RETURN, n_ret)
    move_known_nb(st, y, b, a)
    if forced == TRADE_FORCED and name > IK.BAG_GOBLET:
        show_card_nb(st, a, y)  # R8: the Diplomat named it in public, and there is one of its kind
    log_nb(st, EV.ACCEPT, a, b, x, y)
    trade_effects_nb(st, a, b, x, y)
    return True


@njit(cache=True, inline="always")
def trade_effects_nb(st, a, b, x, y):
    """R4.4-R4.5: the receiver of each effect item announces it (passive first); the giver
    may carry it out, the active player first. A Broken Mirror silences both. With
    Smuggling (R10) each giver may first keep its effect item silent (the active player
    decides first): it is then not announced and has no effect; the other item is unaffected."""
    if kind_nb(x) == IK.MIRROR or kind_nb(y) == IK.MIRROR:
        return
    ex = has_trade_effect_nb(st, x)
    ey = has_trade_effect_nb(st, y)
    if st.sc[SC.VARIANTS] & VAR.SMUGGLING:
        if ex and smuggle_nb(st, a, b, x):
            ex = False
        if ey and smuggle_nb(st, b, a, y):
            ey = False
    if ex:
        announce_nb(st, b, x)
    if ey:
        announce_nb(st, a, y)
    if ex:
        run_effect_nb(st, a, b, x)
    if ey and st.sc[SC.OVER] == 0:
        run_effect_nb(st, b, a, y)


@njit(cache=True, inline="always")
def smuggle_nb(st, g, q, c):
    """R10 Smuggling: does giver g keep effect card c, traded to q, silent? Nothing is
    announced then: only the two traders know the card (as for an item without effect)."""
    st.dctx[DCTX_A] = g
    st.dctx[DCTX_B] = q
    st.dctx[DCTX_CARD] = c
    if not yes_no_nb(st, g, DEC.SMUGGLE):
        return False
    log_nb(st, EV.SMUGGLE, g, q, c, 0)
    return True


@njit(cache=True)
def announce_nb(st, p, c):
    log_nb(st, EV.ANNOUNCE, p, c, 0, 0)
    if not is_bag_nb(c):  # a Bag is announced as "Secret Bag": its content stays hidden
        show_card_nb(st, p, c)


@njit(cache=True)
def run_effect_nb(st, g, q, c):
    """Giver g may carry out the effect of card c traded to partner q (R9)."""
    st.dctx[DCTX_A] = g
    st.dctx[DCTX_B] = q
    st.dctx[DCTX_CARD] = c
    use = yes_no_nb(st, g, DEC.EFFECT_USE)
    log_nb(st, EV.EFFECT, g, c, q, 1 if use else 0)
    if not use:
        return
    k = kind_nb(c)
    if k == IK.MONOCLE:
        look_assoc_nb(st, g, q)  # R10 advanced 3-player: one card of three
    elif k == IK.PRIVILEGE:
        see_items_nb(st, g, q)
    elif k == IK.TOME:
        tome_nb(st, g, q)
    elif k == IK.COAT:
        coat_nb(st, g)
    elif k == IK.SEXTANT:
        sextant_nb(st, g)
    else:  # a Secret Bag: draw one card from the item deck
        clair_window_nb(st, CLAIR_DRAW, g)
        draw_nb(st, g, np.int64(0))  # int64, not a literal: one compile of draw_nb


@njit(cache=True, inline="always")
def tome_nb(st, g, q):
    """Tome: swap occupations with the partner; both face down, so usable again (R9)."""
    og = st.occ[g]
    oq = st.occ[q]
    st.occ[g] = oq
    st.occ[q] = og
    st.occ_loc[oq] = g
    st.occ_loc[og] = q
    st.occ_up[g] = False
    st.occ_up[q] = False
    n = st.sc[SC.N]
    for s in range(n):  # everyone saw the swap: what they knew moves with the cards
        t = st.k_occ[s, g]
        st.k_occ[s, g] = st.k_occ[s, q]
        st.k_occ[s, q] = t
    st.k_occ[g, g] = oq
    st.k_occ[g, q] = og
    st.k_occ[q, q] = og
    st.k_occ[q, g] = oq
    log_nb(st, EV.TOME, g, q, oq, og)


@njit(cache=True, inline="always")
def coat_nb(st, g):
    """Coat: look through the occupation pile, take one face down, put yours there (R9)."""
    k = 0
    for o in range(N_OCCS):
        if st.occ_loc[o] == LOC_PILE:
            st.opts[k] = o
            k += 1
    if k == 0:
        return
    new = decide_nb(st, g, DEC.COAT_PICK, k)
    old = st.occ[g]
    st.occ[g] = new
    st.occ_loc[new] = g
    st.occ_loc[old] = LOC_PILE
    st.occ_up[g] = False
    n = st.sc[SC.N]
    for s in range(n):
        st.k_occ[s, g] = -1
    st.k_occ[g, g] = new
    log_nb(st, EV.COAT, g, old, new, 0)


@njit(cache=True, inline="always")
def sextant_nb(st, g):
    """Sextant: g picks a direction; every seat chooses one item, then all pass at once
    (ruling), each to its neighbour on that side. Not a trade: no effects."""
    st.opts[0] = 0
    st.opts[1] = 1
    d = decide_nb(st, g, DEC.SEXTANT_DIR, 2)
    log_nb(st, EV.SEXTANT, g, d, 0, 0)
    n = st.sc[SC.N]
    step = 1 if d == 0 else n - 1
    for p in range(n):
        st.dctx[DCTX_A] = g
        st.dctx[DCTX_B] = (p + step) % n
        st.dctx[DCTX_X] = d
        k = hand_options_nb(st, p, np.int64(-1), np.int64(0))
        st.mark[p] = decide_nb(st, p, DEC.SEXTANT_PASS, k)
    for p in range(n):
        move_known_nb(st, np.int64(st.mark[p]), p, (p + step) % n)  # int64, as its other callers: one compile
    for p in range(n):  # logged once all have passed: the hands are whole again
        log_nb(st, EV.PASS_ON, p, (p + step) % n, st.mark[p], 0)


@njit(cache=True, inline="always")
def diplomat_nb(st, p, when):
    """R8 Diplomat (p's turn, ``when`` 0 = before the action, 1 = after). Returns
    DIPLO_CONTINUE if the turn goes on, DIPLO_END_TURN if it ends at once. (int64
    arguments for the body, which then compiles once: see engine.log.log_nb.)"""
    return diplomat_body_nb(st, np.int64(p), np.int64(when))


@njit(cache=True)
def diplomat_body_nb(st, p, when):
    """:func:`diplomat_nb`'s body (int64 arguments)."""
    n = st.sc[SC.N]
    st.dctx[DCTX_A] = p
    st.dctx[DCTX_X] = when
    k = 0
    for t in range(n):
        if t != p:
            st.opts[k] = t
            k += 1
    t = decide_nb(st, p, DEC.DIPLO_TARGET, k)
    st.dctx[DCTX_B] = t
    k = 0
    bags_open = st.sc[SC.BAGS_OPEN] == 1
    for name in range(N_KINDS):
        if name == IK.BAG_GOBLET or (name == IK.BAG_KEY and bags_open):
            continue  # one name "Secret Bag" while the deck has cards, none afterwards
        st.opts[k] = name
        k += 1
    name = decide_nb(st, p, DEC.DIPLO_NAME, k)
    st.dctx[DCTX_X] = name
    k = hand_options_nb(st, p, np.int64(-1), np.int64(0))
    x = decide_nb(st, p, DEC.DIPLO_OFFER, k)
    reveal_occ_nb(st, p)
    log_nb(st, EV.DIPLO, p, t, name, x)
    holds = False
    for c in range(N_CARDS):
        if st.loc[c] == t and matches_name_nb(st, c, name):
            holds = True
    if is_bag_nb(x) and not bags_open and name == IK.BAG_KEY and st.loc[other_bag_nb(x)] == t:
        st.k_card[t, x] = p  # R8 (003): the target looks, hands it back; nothing exchanged
        st.k_card[p, other_bag_nb(x)] = t  # ... which it may only do holding the other Bag
        log_nb(st, EV.DIPLO_BAGS, p, t, other_bag_nb(x), 0)
        return DIPLO_END_TURN
    if not holds:
        log_nb(st, EV.DIPLO_MISS, p, t, 0, 0)
        see_items_nb(st, p, t)
        return DIPLO_END_TURN
    trade_nb(st, p, t, x, TRADE_FORCED, name)
    return DIPLO_CONTINUE


@njit(cache=True)
def reveal_occ_nb(st, p):
    """Using an occupation turns it face up: everyone sees it (R8)."""
    if not st.occ_up[p]:
        st.occ_up[p] = True
        log_nb(st, EV.OCC_UP, p, st.occ[p], 0, 0)
    n = st.sc[SC.N]
    for s in range(n):
        st.k_occ[s, p] = st.occ[p]


@njit(cache=True, inline="always")
def clair_window_nb(st, window, drawer):
    """R3, R8 Clairvoyant: "may be used at any point of your own turn". The item deck changes
    only when a card is drawn, so the moments where using it can matter are the turn's start
    (``CLAIR_START``: before the action, which may then count on the deck's top), right before
    each card drawn during the turn (``CLAIR_DRAW``: by a Secret Bag's giver, or by the
    attacker on a tie; ``drawer`` is the seat about to draw) and the turn's end
    (``CLAIR_END``). At each, the active seat is asked while it holds the Clairvoyant face
    down (once per game, R8) and the deck has a card. (An inlined wrapper: the body compiles
    once for int64 arguments, see engine.log.log_nb.)"""
    clair_window_body_nb(st, np.int64(window), np.int64(drawer))


@njit(cache=True)
def clair_window_body_nb(st, window, drawer):
    """:func:`clair_window_nb`'s body (int64 arguments)."""
    p = st.sc[SC.ACTIVE]
    if st.occ[p] != OC.CLAIRVOYANT or st.occ_up[p] or st.sc[SC.DECK_N] <= 0 or st.sc[SC.OVER] != 0:
        return
    st.dctx[DCTX_A] = p
    st.dctx[DCTX_B] = drawer
    st.dctx[DCTX_X] = window
    if yes_no_nb(st, p, DEC.CLAIR_USE):
        clairvoyant_nb(st, p)


@njit(cache=True, inline="always")
def clairvoyant_nb(st, p):
    """R8 Clairvoyant: look through the deck, put two chosen cards on top (the first chosen
    on top), shuffle the rest beneath. Fewer than two cards: take what there is."""
    reveal_occ_nb(st, p)
    dn = st.sc[SC.DECK_N]
    for i in range(dn):
        st.k_card[p, st.deck[i]] = LOC_DECK  # seen in the deck
    first = -1
    second = -1
    for j in range(min(2, dn)):
        k = 0
        for i in range(dn):
            c = st.deck[i]
            if c != first:
                st.opts[k] = c
                k += 1
        st.dctx[DCTX_A] = p
        st.dctx[DCTX_X] = j
        if j == 0:
            first = decide_nb(st, p, DEC.CLAIR_PICK, k)
        else:
            second = decide_nb(st, p, DEC.CLAIR_PICK, k)
    k = 0
    for i in range(dn):
        c = st.deck[i]
        if c != first and c != second:
            st.deck[k] = c
            k += 1
    shuffle_nb(st.rs, st.deck, k)
    if second >= 0:
        st.deck[k] = second
        k += 1
    if first >= 0:
        st.deck[k] = first
    # p knows the order of the cards it put on top (the rest is shuffled): engine.items.draw_nb
    st.sc[SC.TOP_SEAT] = p if first >= 0 else -1
    st.sc[SC.TOP_KNOWN] = (1 if first >= 0 else 0) + (1 if second >= 0 else 0)
    log_nb(st, EV.CLAIR, p, first, second, dn)
