"""Declaring victory (R6), the Drink of Power (R7), the Loge solo victory (R6.5) and
fortune-telling (R10 variant: naming the other team's holders of their combination)."""

from __future__ import annotations

from numba import njit

from ..enums import DEC, DK, EV, IK, REC, SC, VAR, WIN
from .decide import decide_nb
from .items import hand_mask_nb, holds_kind_nb, victory_count_nb
from .log import log_nb


@njit(cache=True)
def can_declare_nb(st, p, kind):
    """Is declaration ``kind`` (DeclKind) legal for seat p now? (R6.1, R6.5, R7)"""
    if holds_kind_nb(st, p, IK.PEARL) >= 0:
        return False  # R9 Black Pearl: its holder cannot declare any victory (nor fortune-tell, R10)
    if kind == DK.FORTUNE:
        # R10 fortune-telling: the fortune-teller need not hold a victory item
        return (st.sc[SC.VARIANTS] & VAR.FORTUNE) != 0
    if kind == DK.LOGE:
        # R6.5: the holder sees their own hand, so only a valid solo claim is legal
        return holds_kind_nb(st, p, IK.LOGE) >= 0 and victory_count_nb(st, p, -1) >= 3
    if victory_count_nb(st, p, st.assoc[p]) < 1:
        return False  # R6.1 at least one victory item of your own team (a Drink does not count)
    if kind == DK.DRINK:
        return st.drink[p] != 0
    return True


@njit(cache=True)
def declare_nb(st, p, kind):
    """Seat p declares victory; ends the game (R6.2-R6.4). Sets winner and record fields.
    A fortune-telling (R10) is checked like a team declaration of the *other* team, made by
    nobody: every named seat must be of that team and hold one of its victory items, and
    together they must hold 3 (no Drink of Power counts: only a declarer's own ever does);
    right, the fortune-teller's team wins, wrong, the other team wins."""
    n = st.sc[SC.N]
    team = st.assoc[p]
    named = 0
    if kind != DK.LOGE:
        # R6.2 name the teammates (R10 fortune-telling: the other team's players) whose
        # victory items are needed, one at a time
        while True:
            k = 1
            st.opts[0] = -1
            for q in range(n):
                if q != p and (named >> q) & 1 == 0:
                    st.opts[k] = q
                    k += 1
            st.dctx[0] = p
            st.dctx[1] = kind
            q = decide_nb(st, p, DEC.DECL_NAME, k)
            if q < 0:
                break
            named |= 1 << q
    log_nb(st, EV.DECLARE, p, kind, named, hand_mask_nb(st, p))
    st.sc[SC.DECLARER] = p
    st.sc[SC.DECL_KIND] = kind
    total = 0
    ok = True
    if kind == DK.LOGE:
        total = victory_count_nb(st, p, -1)
        ok = total >= 3
    elif kind == DK.FORTUNE:
        other = 1 - team
        for q in range(n):
            if (named >> q) & 1:
                vq = victory_count_nb(st, q, other)
                log_nb(st, EV.SEE_ITEMS, -1, q, hand_mask_nb(st, q), 0)
                if st.assoc[q] != other or vq < 1:
                    ok = False
                total += vq
        ok = ok and total >= 3
    else:
        total = victory_count_nb(st, p, team)
        for q in range(n):
            if (named >> q) & 1:
                vq = victory_count_nb(st, q, team)
                log_nb(st, EV.SEE_ITEMS, -1, q, hand_mask_nb(st, q), 0)
                if st.assoc[q] != team or vq < 1:
                    ok = False  # R6.3 every named player must be a teammate holding one
                total += vq
        if kind == DK.DRINK:
            # R7: the declarer's own Drink replaces one item, for the minority only
            ok = ok and st.sc[SC.MINORITY] == team and total >= 2
            st.rec[REC.DRINK_USED] = 1
        else:
            ok = ok and total >= 3
    if kind == DK.LOGE:
        win = WIN.SOLO if ok else 1 - team
        st.sc[SC.SOLO_SEAT] = p if ok else -1
    else:
        win = team if ok else 1 - team  # R6.4 any failure: the other team wins
    st.sc[SC.WINNER] = win
    st.sc[SC.DECL_OK] = 1 if ok else 0
    st.sc[SC.OVER] = 1
    log_nb(st, EV.DECL_RESULT, 1 if ok else 0, win, total, named)
