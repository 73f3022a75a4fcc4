"""Declaring victory (R6), the Drink of Power (R7), the Loge solo victory (R6.5) and
fortune-telling (R10 variant: naming the other team's holders of their combination)."""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import kind_nb
from ..enums import DEC, DK, EV, IK, N_CARDS, REC, SC, VAR, WIN
from .decide import decide_nb
from .items import hand_mask_nb, victory_count_nb, victory_team_nb
from .log import log_nb


@njit(cache=True)
def declarable_nb(st, p):
    """The declarations legal for seat p now, as a bit mask over DeclKind (bit k: kind k),
    from one pass over the cards (R6.1, R6.5, R7, R10):
    - none while p holds the Black Pearl (R9: its holder cannot declare any victory, nor
      fortune-tell, R10);
    - fortune-telling when the variant is on (the fortune-teller need not hold a victory item);
    - the Loge solo claim when p holds the Loge and 3 victory items of either team (R6.5, or
      the loge-items house rule: the holder sees their own hand, so only a valid claim is legal);
    - a team declaration, and with the Drink of Power if p holds one, when p holds at least
      one victory item of its own team (R6.1; a Drink does not count)."""
    pearl = False
    loge = False
    own = 0
    both = 0
    team = st.assoc[p]
    for c in range(N_CARDS):
        if st.loc[c] == p:
            k = kind_nb(c)
            pearl |= k == IK.PEARL
            loge |= k == IK.LOGE
            v = victory_team_nb(st, c)
            if v >= 0:
                both += 1
                if v == team:
                    own += 1
    if pearl:
        return 0
    m = 0
    if (st.sc[SC.VARIANTS] & VAR.FORTUNE) != 0:
        m |= 1 << DK.FORTUNE
    if loge and both >= st.sc[SC.LOGE_NEED]:
        m |= 1 << DK.LOGE
    if own >= 1:
        m |= 1 << DK.TEAM
        if st.drink[p] != 0:
            m |= 1 << DK.DRINK
    return m


@njit(cache=True, inline="always")
def declare_nb(st, p, kind):
    """Seat p declares victory; ends the game (R6.2-R6.4). Sets winner and record fields.
    A fortune-telling (R10) is checked like a team declaration of the *other* team, made by
    nobody: every named seat must be of that team and hold one of its victory items, and
    together they must hold what a team declaration needs (``sc[TEAM_NEED]``, R6.3: 3; no
    Drink of Power counts: only a declarer's own ever does);
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
        total = victory_count_nb(st, p, np.int64(-1))
        ok = total >= st.sc[SC.LOGE_NEED]
    elif kind == DK.FORTUNE:
        other = 1 - team
        for q in range(n):
            if (named >> q) & 1:
                vq = victory_count_nb(st, q, np.int64(other))
                log_nb(st, EV.SEE_ITEMS, -1, q, hand_mask_nb(st, q), 0)
                if st.assoc[q] != other or vq < 1:
                    ok = False
                total += vq
        ok = ok and total >= st.sc[SC.TEAM_NEED]  # their winning combination (R6.3, team-items)
    else:
        total = victory_count_nb(st, p, np.int64(team))
        for q in range(n):
            if (named >> q) & 1:
                vq = victory_count_nb(st, q, np.int64(team))
                log_nb(st, EV.SEE_ITEMS, -1, q, hand_mask_nb(st, q), 0)
                if st.assoc[q] != team or vq < 1:
                    ok = False  # R6.3 every named player must be a teammate holding one
                total += vq
        if kind == DK.DRINK:
            # R7: the declarer's own Drink replaces one item (drink-items), for the minority only
            ok = ok and st.sc[SC.MINORITY] == team and total >= st.sc[SC.TEAM_NEED] - st.sc[SC.DRINK_ITEMS]
            st.rec[REC.DRINK_USED] = 1
        else:
            ok = ok and total >= st.sc[SC.TEAM_NEED]  # R6.3: 3, or the team-items house rule
    if kind == DK.LOGE:
        win = WIN.SOLO if ok else 1 - team
        st.sc[SC.SOLO_SEAT] = p if ok else -1
    else:
        win = team if ok else 1 - team  # R6.4 any failure: the other team wins
    st.sc[SC.WINNER] = win
    st.sc[SC.DECL_OK] = 1 if ok else 0
    st.sc[SC.OVER] = 1
    log_nb(st, EV.DECL_RESULT, 1 if ok else 0, win, total, named)
