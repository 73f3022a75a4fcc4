"""Fights (R5) with the fight occupations (R8) and fight items (R9).

Resolution order (R5 ruling): Priest window -> supports from the attacker's left ->
Hypnotist -> fixed bonuses (Dagger, Gloves, Thug, Grand Master, Casting Knives, Whip,
Bodyguard) -> Duelist -> Poison Ring on a tie -> Poison Mixer -> result -> Doctor ->
effects (tie draw, or the winner's look-or-take).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_SRC,
    DCTX_U,
    DCTX_W,
    DCTX_X,
    DCTX_Y,
    DEC,
    EV,
    IK,
    OC,
    SC,
    SIDE_ATT,
    SIDE_DEF,
    SIDE_NONE,
    SRC,
)
from .decide import decide_nb, yes_no_nb
from .items import (
    draw_nb,
    hand_options_nb,
    holds_kind_nb,
    look_assoc_nb,
    move_known_nb,
    see_items_nb,
    see_occ_nb,
    settle_limits_nb,
    show_card_nb,
)
from .log import log_nb
from .trade import clair_window_nb, reveal_occ_nb

FIGHT_DONE = 0
FIGHT_PRIEST = 1  # stopped by the Priest: the attacker's turn ends
FIGHT_DOCTOR = 2  # effects cancelled by the Doctor: the attacker's turn ends


@njit(cache=True)
def usable_once_nb(st, o):
    """Seat holding occupation o if it can still use it (face down), else -1."""
    p = st.occ_loc[o]
    if p >= st.sc[SC.N] or p < 0:
        return -1
    if st.occ_up[p]:
        return -1
    return p


@njit(cache=True)
def holder_of_occ_nb(st, o):
    p = st.occ_loc[o]
    if p >= st.sc[SC.N] or p < 0:
        return -1
    return p


@njit(cache=True, inline="always")  # inlined: its call sites pass 7 literal combinations (engine.log.log_nb)
def offer_play_nb(st, p, src, a, d, pa, sa, pd, sd):
    """Ask seat p whether to play fight bonus ``src`` (FIGHT_PLAY decision). The context
    holds the strengths so far (public: every bonus is shown as it is played): each side's
    total (X, Y) and the principals' own parts without the supporters' (U, W), which is what
    a Duelist keeps (R8)."""
    st.dctx[DCTX_A] = a
    st.dctx[DCTX_B] = d
    st.dctx[DCTX_SRC] = src
    st.dctx[DCTX_X] = pa + sa
    st.dctx[DCTX_Y] = pd + sd
    st.dctx[DCTX_U] = pa
    st.dctx[DCTX_W] = pd
    return yes_no_nb(st, p, DEC.FIGHT_PLAY)


@njit(cache=True, inline="always")
def fight_nb(st, a, d):
    """Seat a attacks seat d. Returns FIGHT_DONE, FIGHT_PRIEST or FIGHT_DOCTOR. (An inlined
    wrapper: the body compiles once, for int64 arguments, as a library of its own, so that a
    cold compile builds it beside the Diplomat's chain: ``kutsch_sim.parallel_compile``.)"""
    return fight_body_nb(st, np.int64(a), np.int64(d))


@njit(cache=True)
def fight_body_nb(st, a, d):
    """:func:`fight_nb`'s body (int64 arguments)."""
    n = st.sc[SC.N]
    log_nb(st, EV.ATTACK, a, d, 0, 0)
    st.dctx[DCTX_A] = a
    st.dctx[DCTX_B] = d

    # R5.2 / R8 Priest: any holder but the attacker, before supports
    pr = usable_once_nb(st, OC.PRIEST)
    if pr >= 0 and pr != a and yes_no_nb(st, pr, DEC.PRIEST_USE):
        reveal_occ_nb(st, pr)
        c = -1
        if st.hand_n[a] >= 2:
            st.dctx[DCTX_A] = a
            st.dctx[DCTX_B] = pr
            k = hand_options_nb(st, a, np.int64(-1), np.int64(0))
            c = decide_nb(st, a, DEC.PRIEST_GIVE, k)
            move_known_nb(st, c, a, pr)
        log_nb(st, EV.PRIEST, pr, a, c, 0)
        if c >= 0:
            settle_limits_nb(st, pr)
        return FIGHT_PRIEST

    # R5.3 supports, clockwise from the attacker's left
    for i in range(1, n):
        s = (a + i) % n
        st.sup[s] = SIDE_NONE
        if s == d:
            continue
        st.opts[0] = SIDE_NONE
        st.opts[1] = SIDE_ATT
        st.opts[2] = SIDE_DEF
        st.dctx[DCTX_A] = a
        st.dctx[DCTX_B] = d
        st.dctx[DCTX_X] = st.hand_n[a]  # what is at stake (R5.8), public: the fighters' hand sizes
        st.dctx[DCTX_Y] = st.hand_n[d]
        side = decide_nb(st, s, DEC.SUPPORT, 3)
        st.sup[s] = side
        if side != SIDE_NONE:
            log_nb(st, EV.SUPPORT, s, side, 0, 0)
    st.sup[a] = SIDE_NONE
    st.sup[d] = SIDE_NONE

    # R5.4 / R8 Hypnotist (001): one supporter's support is void, no support cards
    hyp = -1
    if st.occ[a] == OC.HYPNOTIST:
        k = 1
        st.opts[0] = -1
        for s in range(n):
            if s != a and s != d:
                st.opts[k] = s
                k += 1
        hyp = decide_nb(st, a, DEC.HYPNO, k)
        if hyp >= 0:
            reveal_occ_nb(st, a)
            log_nb(st, EV.HYPNO, a, hyp, 0, 0)
            if st.sup[hyp] != SIDE_NONE:
                log_nb(st, EV.VOID, hyp, st.sup[hyp], 0, 0)
            st.sup[hyp] = SIDE_NONE

    # strengths: R5.1 one symbol each; principals' bonuses apart from supporters'
    pa = 1
    pd = 1
    sa = 0
    sd = 0
    for s in range(n):
        if st.sup[s] == SIDE_ATT:
            sa += 1
        elif st.sup[s] == SIDE_DEF:
            sd += 1

    # R5.5 fixed bonuses, in the ruling's order
    c = holds_kind_nb(st, a, IK.DAGGER)
    if c >= 0 and offer_play_nb(st, a, SRC.DAGGER, a, d, pa, sa, pd, sd):
        show_card_nb(st, a, c)
        pa += 1
        log_nb(st, EV.BONUS, a, SRC.DAGGER, SIDE_ATT, 1)
    c = holds_kind_nb(st, d, IK.GLOVES)
    if c >= 0 and offer_play_nb(st, d, SRC.GLOVES, a, d, pa, sa, pd, sd):
        show_card_nb(st, d, c)
        pd += 1
        log_nb(st, EV.BONUS, d, SRC.GLOVES, SIDE_DEF, 1)
    if st.occ[a] == OC.THUG and offer_play_nb(st, a, SRC.THUG, a, d, pa, sa, pd, sd):
        reveal_occ_nb(st, a)
        pa += 1
        log_nb(st, EV.BONUS, a, SRC.THUG, SIDE_ATT, 1)
    if st.occ[d] == OC.GRAND_MASTER and offer_play_nb(st, d, SRC.GRAND_MASTER, a, d, pa, sa, pd, sd):
        reveal_occ_nb(st, d)
        pd += 1
        log_nb(st, EV.BONUS, d, SRC.GRAND_MASTER, SIDE_DEF, 1)
    for s in range(n):
        if s == a or s == d or s == hyp or st.sup[s] == SIDE_NONE:
            continue
        side = st.sup[s]
        c = holds_kind_nb(st, s, IK.KNIVES)
        if side == SIDE_ATT and c >= 0 and offer_play_nb(st, s, SRC.KNIVES, a, d, pa, sa, pd, sd):
            show_card_nb(st, s, c)
            sa += 1
            log_nb(st, EV.BONUS, s, SRC.KNIVES, SIDE_ATT, 1)
        c = holds_kind_nb(st, s, IK.WHIP)
        if side == SIDE_DEF and c >= 0 and offer_play_nb(st, s, SRC.WHIP, a, d, pa, sa, pd, sd):
            show_card_nb(st, s, c)
            sd += 1
            log_nb(st, EV.BONUS, s, SRC.WHIP, SIDE_DEF, 1)
        if st.occ[s] == OC.BODYGUARD and offer_play_nb(st, s, SRC.BODYGUARD, a, d, pa, sa, pd, sd):
            reveal_occ_nb(st, s)
            if side == SIDE_ATT:
                sa += 1
            else:
                sd += 1
            log_nb(st, EV.BONUS, s, SRC.BODYGUARD, side, 1)

    # R8 Duelist: all supports (and supporters' bonuses) void, +1 to the Duelist
    du = usable_once_nb(st, OC.DUELIST)
    if (du == a or du == d) and offer_play_nb(st, du, SRC.DUELIST, a, d, pa, sa, pd, sd):
        reveal_occ_nb(st, du)
        for s in range(n):
            if st.sup[s] != SIDE_NONE:
                log_nb(st, EV.VOID, s, st.sup[s], 1, 0)
                st.sup[s] = SIDE_NONE
        sa = 0
        sd = 0
        if du == a:
            pa += 1
        else:
            pd += 1
        log_nb(st, EV.BONUS, du, SRC.DUELIST, SIDE_ATT if du == a else SIDE_DEF, 1)

    att = pa + sa
    de = pd + sd
    won = SIDE_NONE
    if att > de:
        won = SIDE_ATT
    elif de > att:
        won = SIDE_DEF
    else:  # R5.6 a Poison Ring breaks a tie
        for side in range(SIDE_ATT, SIDE_DEF + 1):
            s = a if side == SIDE_ATT else d
            c = holds_kind_nb(st, s, IK.RING)
            if won == SIDE_NONE and c >= 0:
                st.dctx[DCTX_A] = a
                st.dctx[DCTX_B] = d
                if yes_no_nb(st, s, DEC.RING_USE):
                    show_card_nb(st, s, c)
                    won = side
                    log_nb(st, EV.RING, s, side, 0, 0)
    # R8 Poison Mixer: someone outside the fight names the winner
    mx = usable_once_nb(st, OC.POISON_MIXER)
    if mx >= 0 and mx != a and mx != d:
        st.opts[0] = -1
        st.opts[1] = SIDE_ATT
        st.opts[2] = SIDE_DEF
        st.dctx[DCTX_A] = a
        st.dctx[DCTX_B] = d
        st.dctx[DCTX_X] = att
        st.dctx[DCTX_Y] = de
        st.dctx[DCTX_U] = won  # after a Poison Ring (R5.6): the side that wins without the Mixer
        v = decide_nb(st, mx, DEC.MIXER, 3)
        if v >= 0:
            reveal_occ_nb(st, mx)
            won = v
            log_nb(st, EV.MIXER, mx, v, 0, 0)
    log_nb(st, EV.RESULT, att, de, won, 0)

    # R5.7 Doctor: cancel all effects (the tie draw too); the attacker's turn ends
    dr = usable_once_nb(st, OC.DOCTOR)
    if dr >= 0:
        st.dctx[DCTX_A] = a
        st.dctx[DCTX_B] = d
        st.dctx[DCTX_X] = won
        if yes_no_nb(st, dr, DEC.DOCTOR_USE):
            reveal_occ_nb(st, dr)
            log_nb(st, EV.DOCTOR, dr, 0, 0, 0)
            return FIGHT_DOCTOR

    # R5.8 effects
    if won == SIDE_NONE:
        clair_window_nb(st, CLAIR_DRAW, a)  # R3: the attacker's Clairvoyant, before its draw
        draw_nb(st, a, np.int64(1))  # int64, not a literal: one compile of draw_nb
        return FIGHT_DONE
    w = a if won == SIDE_ATT else d
    lo = d if won == SIDE_ATT else a
    winner_effect_nb(st, w, lo)
    return FIGHT_DONE


@njit(cache=True, inline="always")
def winner_effect_nb(st, w, lo):
    """R5.8: the winner looks at occupation + association (R10 advanced 3-player: one association
    card), or at all items and may take one;
    a loser left with nothing gets one of the winner's items back."""
    st.dctx[DCTX_A] = w
    st.dctx[DCTX_B] = lo
    st.opts[0] = 0
    st.opts[1] = 1
    choice = decide_nb(st, w, DEC.WIN_CHOICE, 2)
    log_nb(st, EV.LOOK, w, lo, choice, 0)
    if choice == 0:
        look_assoc_nb(st, w, lo)  # R10 advanced 3-player: one card of three
        see_occ_nb(st, w, lo)
        return
    see_items_nb(st, w, lo)
    st.opts[0] = -1
    k = hand_options_nb(st, lo, np.int64(-1), np.int64(1))
    st.dctx[DCTX_A] = w  # written again after WIN_CHOICE: each decision's own context (enums.DCTX_MASK)
    st.dctx[DCTX_B] = lo
    c = decide_nb(st, w, DEC.TAKE, k)
    log_nb(st, EV.TAKE, w, lo, c, 0)
    if c < 0:
        return
    move_known_nb(st, c, lo, w)
    st.k_card[lo, c] = w
    if st.hand_n[lo] == 0:
        k = hand_options_nb(st, w, np.int64(c), np.int64(0))
        st.dctx[DCTX_A] = w
        st.dctx[DCTX_B] = lo
        g = decide_nb(st, w, DEC.GIVE_BACK, k)
        move_known_nb(st, g, w, lo)
        log_nb(st, EV.GIVE_BACK, w, lo, g, 0)
    settle_limits_nb(st, w)
