"""Bot beliefs: who is on my team (exact over team assignments) and where items are.

Team beliefs. A *team assignment* is a bitmask over seats, bit p set when
seat p is in the Order. At even N every assignment with N/2 Order seats is possible; at odd
N the card in the box is either team, so assignments with (N-1)/2 or (N+1)/2 Order seats
are possible, all equally likely a priori (R2.2). There are at most C(10,5) = 252
(``A_MAX``), listed once per game in ``bel_asg``.

Evidence is a log-likelihood per assignment, kept as pairwise terms ``w * [p and q on the
same team]`` and, for the refresh, as the factor exp(log-likelihood) per assignment:

* public soft evidence (supports, attacks, offers, accepted and rejected trades, Priest,
  Doctor, Poison Mixer) is the same for every seat, so it is kept once per evidence model
  (``bots.evidence``): each pair's saturated total in ``bel_psat`` (``bel_psat1`` for the
  fitted model), and per assignment a the factor ``bel_epub[k, a]`` = exp(trust * sum of the
  saturated totals over the pairs together in a), one row for each distinct (model,
  ``soft_trust``) in play (:func:`trust_slots_nb`).
* private soft evidence (a victory item of my colour handed to me, a Black Pearl pushed on
  me) goes to the receiving seat: per giver in ``bel_gpair[s, g]``, and as the factor
  ``bel_epriv[s, a]`` (``evidence.gift_nb``); under the fitted model ``bel_epriv[s]`` also
  takes the seat's own actions back out of the public totals (``evidence.fit_pair_nb``).
* hard evidence is the seat's own knowledge row ``k_assoc[s]`` (its own card, Monocle,
  fight looks), kept by the engine: assignments that contradict it get weight 0.

:func:`refresh_cards_nb` turns this into ``bel_team[s, p]`` = P(p is on s's team) and
``bel_minor[s]`` = P(s's team is the minority) (odd N: the Drink of Power, R7; as a wrong
Drink declaration loses the game, the lower of the estimates from hard evidence alone and
from all of it), and keeps the normalised weights in ``bel_w[s]`` for joint questions
("are all of these my teammates?"). It runs lazily: only for a seat that is about to decide
and whose evidence changed (``bel_fresh``). Cost per refresh: up to 7 players (SMALL_N) one
pass over the seat's list of the assignments its hard evidence allows (10 at 6 players, 35
at 7; the list is made again when it sees a new association), from 8 one pass over the
splits of the table kept (below: 35 at 8, 126 at 9 and 10) in vectors of eight
(``intrinsics.team_sums_nb``, the hard evidence tested on the way, in an order written
down so that every machine gets the same bits); two multiplications and a few additions
each, no exp: the factors are brought up to date once per event, for every trust in play,
by one exp and one multiplication per assignment touched. Arrays the vector sums read
(``bel_asg``, ``bel_epub``, ``bel_epriv``, ``bel_w``) are A_PAD = 256 long.

Halving from 8 players. Every piece of evidence is about a pair of seats, together or
apart, so an assignment and its complement (the same split of the table with the teams'
names swapped) always carry the same factors; and a seat that knows its own team allows
exactly one of the two. So above SMALL_N the assignments are listed with those that put
seat 0 in the Order first and their complements after them (:func:`make_assignments_nb`),
the factors are kept for the first half only (:func:`kept_nb`), and a seat reads each of
those as the split it stands for: its teammates are the seats on its side of it, whichever
name that side has. The same posterior as over all the assignments, from half the work.
(Up to 7 players, where the seat's list is short, the vector sums gained nothing: 6 and 5
players timed alike, 7 players 3% faster, 8 players 12%.)

Item beliefs. The engine keeps ``k_card[s, c]``, the seat where s last saw card c.
``bel_conf[s, c]`` is s's probability that c is still there: each time the holder passes
an unseen card on (trade, gift, Sextant, fight take, Priest), it drops by the chance that
this was the card, (h-1)/h for a hand of h.

The evidence itself is gathered event by event by ``bots.observer``.
"""

from __future__ import annotations

import math

import numpy as np
from ..jit import njit

from ..enums import MAX_PLAYERS, N_CARDS, ORDER, SC
from .intrinsics import T_HARD, T_HARD_MIN, T_MIN, T_Z, pair_sums_nb, team_sums_nb
from .params import (
    M_CLAIR_2ND,
    M_CLAIR_DN,
    M_CLAIR_TOP,
    M_PASSED,
    N_BMEM,
    P_EVIDENCE,
    P_SOFT_TRUST,
    P_TOLD,
    TOLD_LARGER,
    TOLD_SMALLER,
)

A_MAX = 252  # C(10, 5): the most team assignments at any player count
A_PAD = 256  # length of the arrays the vector sums read whole (intrinsics.pair_sums_nb: 8 at a time)
SMALL_N = 7  # the beliefs sum over the seat's list up to here, over half the assignments in vectors above
N_BINS = 16  # a refresh's scratch: the vector sums (intrinsics.team_sums_nb writes 14)
N_CTX = 8  # the observer's memory of the event under way (observer.X_*)

@njit(cache=True)
def popcount_nb(x):
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@njit(cache=True)
def make_assignments_nb(n, asg):
    """Write every possible team assignment at n players into asg (bit p = seat p is in
    the Order); return how many (R2.2: equal teams at even n, either team one short at odd n).
    Above SMALL_N, those with seat 0 in the Order come first and their complements (the same
    split of the table, the teams' names swapped) follow in the same order: all evidence is
    about pairs of seats (same team or not), so an assignment and its complement always
    weigh the same, and from 8 players the beliefs keep and read the first half only (see
    the module doc)."""
    k = 0
    full = (1 << n) - 1
    for m in range(1 << n):
        c = popcount_nb(m)
        fits = (n % 2 == 0 and 2 * c == n) or (n % 2 == 1 and (2 * c == n - 1 or 2 * c == n + 1))
        if fits and (n <= SMALL_N or (m & 1) == 1):
            asg[k] = m
            k += 1
    if n > SMALL_N:
        for j in range(k):
            asg[k + j] = (~asg[j]) & full
        k *= 2
    return k


@njit(cache=True, inline="always")
def kept_nb(n, na):
    """How many assignments the beliefs keep up to date and read: all up to SMALL_N, the
    first half (seat 0 in the Order) above (:func:`make_assignments_nb`)."""
    return na if n <= SMALL_N else na // 2


@njit(cache=True)
def reset_beliefs_nb(n, asg, pair, psat, gpair, w, team, minor, fresh, conf, ctx, bmem, key):
    """Fresh beliefs for a new game of n players (called from set-up). Returns the number
    of assignments."""
    na = make_assignments_nb(n, asg)
    for s in range(MAX_PLAYERS):
        for i in range(na):
            w[s, i] = 0.0
        for p in range(MAX_PLAYERS):
            team[s, p] = 0.5
            pair[s, p] = 0.0
            psat[s, p] = 0.0
            gpair[s, p] = 0.0
        team[s, s] = 1.0
        minor[s] = 0.0
        key[s, 0] = -1  # no list of allowed assignments yet (refresh_cards_nb)
        fresh[s] = False
        for c in range(N_CARDS):
            conf[s, c] = 1.0
        for j in range(N_BMEM):
            bmem[s, j] = 0
        bmem[s, M_CLAIR_TOP] = -1
        bmem[s, M_CLAIR_DN] = -1
        bmem[s, M_CLAIR_2ND] = -1
        bmem[s, M_PASSED] = -1
    for j in range(N_CTX):
        ctx[j] = -1
    return na


@njit(cache=True)
def trust_slots_nb(st, n, na):
    """Per game: the soft-evidence factors start at 1. Each distinct pair (evidence model,
    nonzero ``soft_trust``) among the seats (``params.P_EVIDENCE``, ``P_SOFT_TRUST``;
    ``bots.evidence``) gets a row of ``bel_epub`` (``bel_tval[k]``, ``bel_tmodel[k]``,
    ``bel_nts`` rows in use; a table of one profile has one); ``bel_tslot[s]`` is seat s's row,
    and seats of trust 0 read the last row, all ones. So the public evidence is turned into
    factors once per event for every trust in play, not once per refresh for every seat.
    ``bel_models`` has bit m set when a seat of model m weighs soft evidence."""
    nts = 0
    models = 0
    m = st.mem
    for s in range(MAX_PLAYERS):
        slot = MAX_PLAYERS
        t = m.bparam[s, P_SOFT_TRUST] if s < n else 0.0
        model = np.int64(m.bparam[s, P_EVIDENCE]) if s < n else 0
        m.bel_model[s] = model
        if t != 0.0:
            models |= 1 << model
            for k in range(nts):
                if m.bel_tval[k] == t and m.bel_tmodel[k] == model:
                    slot = k
                    break
            if slot == MAX_PLAYERS:
                m.bel_tval[nts] = t
                m.bel_tmodel[nts] = model
                slot = nts
                nts += 1
        m.bel_tslot[s] = slot
    m.bel_nts = nts
    m.bel_models = models
    for k in range(MAX_PLAYERS + 1):
        for i in range(na):
            m.bel_epub[k, i] = 1.0
    for s in range(MAX_PLAYERS):
        for i in range(na):
            m.bel_epriv[s, i] = 1.0
        for p in range(MAX_PLAYERS):
            m.bel_pair1[s, p] = 0.0
            m.bel_psat1[s, p] = 0.0
            m.bel_inf1[s, p] = 0.0
            m.bel_graw1[s, p] = 0.0
            m.bel_own1[s, p] = 0.0
            m.bel_corr1[s, p] = 0.0


@njit(cache=True)
def tell_size_nb(st, n):
    """At the end of set-up (the observer, SETUP_DONE): every seat whose ``told`` bits
    (``params.P_TOLD``, base row) cover its team's true size at odd N is told it. The one
    fact a seat gets from outside its view (the told bracket of ``kutsch-sim tune``, an upper
    bound): it is hard evidence, so the seat's private factors ``bel_epriv[s]`` drop to 0 for
    every assignment in which its own side has the other size (its side: the seats on the
    side of the split that holds it, which at every allowed assignment is its team; from 8
    players the kept half, read from its side as everywhere), and ``bel_told[s]`` keeps the
    fact, which a refresh makes its P(minority) (dispatch). Factors only ever multiply, so
    the zeros stay for the game. Seats not covered, and every seat at even N, learn nothing.
    Under the smaller-told house rule (``sc[SMALLER_TOLD]``, R2.2) every seat is told: the
    smaller team's seats were shown the box card of their own team, and a seat not shown it
    knows by that that its team is the larger."""
    for s in range(MAX_PLAYERS):
        st.mem.bel_told[s] = -1
    if n % 2 == 0:
        return
    na = kept_nb(n, st.sc[SC.N_ASG])
    small = (n - 1) // 2
    full = (1 << n) - 1
    rule = st.sc[SC.SMALLER_TOLD] == 1
    for s in range(n):
        bits = np.int64(st.mem.bparam[s, P_TOLD])
        minor = 1 if st.assoc[s] == st.sc[SC.MINORITY] else 0
        if not rule and (bits & (TOLD_SMALLER if minor == 1 else TOLD_LARGER)) == 0:
            continue
        asg, epriv = st.mem.bel_asg, st.mem.bel_epriv[s]
        for i in range(na):
            a = asg[i]
            side = a if (a >> s) & 1 else (~a) & full
            if (1 if popcount_nb(side) == small else 0) != minor:
                epriv[i] = 0.0
        st.mem.bel_told[s] = minor
        st.mem.bel_minor[s] = minor
        st.mem.bel_fresh[s] = False


# ------------------------------------------------------------------ posterior
@njit(cache=True)
def refresh_nb(n, me, na, asg, pub, priv, kas, trust, w, team, minor):
    """Seat ``me``'s posterior (base rules) from log-weights: pub (public soft evidence, weighed
    by ``trust``) and priv (its private evidence). :func:`refresh_cards_nb` keeps them as
    factors (``bel_epub``, ``bel_epriv``); this turns the logs into factors first (tests)."""
    epub = np.ones(A_PAD)
    epriv = np.ones(A_PAD)
    asgp = np.zeros(A_PAD, np.int32)
    wp = np.zeros(A_PAD)
    for i in range(na):
        epub[i] = math.exp(trust * pub[i])  # libm's exp, as compiled (see observer.pair_total_nb)
        epriv[i] = math.exp(priv[i])
        asgp[i] = asg[i]
    refresh_cards_nb(n, me, na, asgp, epub, epriv, kas, wp, team, minor, np.full((1, 3), -1, np.int8), False, True,
                     np.zeros(N_BINS), np.zeros(A_MAX, np.int16), np.full(2, -1, np.int64))
    for i in range(na):
        w[i] = wp[i]


@njit(cache=True)
def deal_counts_nb(na, asg, kac, cnt):
    """Advanced 3-player game (R10): for each team assignment, cnt[i] = how many of the
    C(10, 5) = 252 equally likely deals of the 10 association cards (3 to each seat in
    order, the tenth in the box) give that assignment and agree with every card the seat
    has seen (``kac[p, j]``: team of seat p's card j, -1 unseen; its own three included).
    So cnt is the seat's hard evidence, prior included, exactly."""
    for i in range(na):
        cnt[i] = 0.0
    for m in range(1 << 10):  # bit 3p+j set: seat p's card j is an Order card; bit 9 the box
        if popcount_nb(m) != 5:
            continue
        fits = True
        a = 0
        for p in range(3):
            k = 0
            for j in range(3):
                b = (m >> (3 * p + j)) & 1
                k += b
                v = kac[p, j]
                if v >= 0 and b != (1 if v == ORDER else 0):
                    fits = False
            if k >= 2:
                a |= 1 << p
        if fits:
            for i in range(na):
                if asg[i] == a:
                    cnt[i] += 1.0


@njit(cache=True, inline="always")
def weight_nb(code, w, asg, epub, epriv, adv, soft, mine_order, full):
    """One allowed assignment of a refresh (``code``: its index, + 256 if my team is then the
    minority): its weight from the hard evidence (1, or in the advanced 3-player game the
    deal count in w) and from all of it (times the soft evidence's factors unless ``soft`` is
    False), written to w; and my teammates in it as a bit mask. Returns (hard, weight, mask)."""
    i = code & 255
    hard = w[i] if adv else 1.0
    e = hard * epub[i] * epriv[i] if soft else hard
    w[i] = e
    a = asg[i]
    same = a if mine_order == 1 else (~a) & full
    return hard, e, same


@njit(cache=True, inline="always")
def known_nb(n, kas):
    """The seat's hard knowledge of associations as bit masks: (seats whose team it has seen,
    those of them in the Order); what its list of allowed assignments is made for."""
    kmask = 0
    kval = 0
    for p in range(n):
        if kas[p] >= 0:
            kmask |= 1 << p
            if kas[p] == ORDER:
                kval |= 1 << p
    return kmask, kval


@njit(cache=True, inline="always")
def refresh_cards_nb(n, me, na, asg, epub, epriv, kas, w, team, minor, kac, adv, soft, bins, idx, key):
    """Seat ``me``'s posterior: writes w[0:na] (normalised weights), team[0:n] (P same team
    as me) and minor[me] (P my team is the minority, odd n). The soft evidence comes as
    factors per assignment: ``epub[i]`` = exp(trust * public log-weight) (the seat's row of
    ``bel_epub``, all ones for trust 0) and ``epriv[i]`` = exp(private log-weight) (its row
    of ``bel_epriv``), kept up to date by ``bots.evidence``, so a refresh
    needs no exp. ``kas`` is the seat's knowledge of associations (hard evidence).
    ``adv``: the advanced 3-player game (R10), where the hard evidence is the association
    cards the seat has seen (``kac``, its k_acard row), weighed exactly by
    :func:`deal_counts_nb` (a seen card makes its seat's team likelier, not certain).
    ``soft`` False: hard evidence only (the greedy bot), epub and epriv are not read.
    ``bins`` is float64[N_BINS] scratch.
    Up to SMALL_N players the sums run over the seat's list of the assignments its hard
    evidence allows, each assignment's weight added to the sum of each seat on my team in
    it. ``idx`` (int16[A_MAX]) and ``key`` (int64[2]) are that list (index + 256 if my
    team is then the minority) and what it was made for (the seen associations; -1: none
    yet) with its length: the list is made again only when the seat has seen a new
    association (always in the advanced 3-player game), and w stays 0 off it. From 8
    players one pass over the splits of the table kept (see the module doc), eight at a
    time in vectors, tests the hard evidence and sums everything at once
    (``intrinsics.team_sums_nb``; asg, epub, epriv and w must be A_PAD long; not for a
    hard-evidence-only refresh); w is then the weight of each split, 0 past the first half."""
    kmask, kval = known_nb(n, kas)
    full = (1 << n) - 1
    mine_order = (kval >> int(me)) & 1
    small = (n - 1) // 2
    odd = n % 2 == 1
    dense = n > SMALL_N
    if dense:
        if adv or not soft:
            raise ValueError("refresh_cards_nb: above SMALL_N players the refresh weighs all the evidence")
        if len(asg) < A_PAD or len(epub) < A_PAD or len(epriv) < A_PAD or len(w) < A_PAD or len(bins) < 14:
            raise ValueError("refresh_cards_nb: arrays shorter than A_PAD")
        want = kval if mine_order == 1 else (~kval) & full
        nk = kept_nb(n, na)
        team_sums_nb(epub, epriv, asg, bins, nk, kmask, want, me, full, small, w)
        z = bins[T_Z]  # all the evidence
        zh = bins[T_HARD]  # hard evidence alone (see below)
        zs = bins[T_MIN]  # where my team is the minority, all the evidence
        zm = bins[T_HARD_MIN]  # the same, hard evidence alone
        for p in range(n):
            team[p] = bins[p]
        m = 0
    else:
        nk = 0
        if adv:
            deal_counts_nb(na, asg, kac, w)  # w holds the counts until overwritten below
        k = kmask * 1024 + kval
        if adv or key[0] != k:
            m = 0
            for i in range(na):
                a = asg[i]
                if ((a ^ kval) & kmask) != 0 or (adv and w[i] <= 0.0):
                    w[i] = 0.0
                    continue
                same = a if mine_order == 1 else (~a) & full
                idx[m] = i + (256 if odd and popcount_nb(same) == small else 0)
                m += 1
            key[0] = k
            key[1] = m
        m = key[1]
        # each assignment's weight straight into each seat's sum (at 6 players about 90 ns a
        # refresh, against 130 through half-seat bins)
        z = zh = zs = zm = 0.0
        for p in range(n):
            team[p] = 0.0
        for j in range(m):
            code = idx[j]
            hard, e, same = weight_nb(code, w, asg, epub, epriv, adv, soft, mine_order, full)
            z += e
            zh += hard
            minority = code >= 256  # branch-free: adding 0.0 changes nothing
            zs += e if minority else 0.0
            zm += hard if minority else 0.0
            for p in range(n):
                team[p] += e if (same >> p) & 1 else 0.0
    if z <= 0.0:  # no assignment left (a position built without set-up): stay at the prior
        for p in range(n):
            team[p] = 0.5
        team[me] = 1.0
        minor[me] = 0.0
        return
    inv = 1.0 / z
    if dense:
        for i in range(nk):
            w[i] *= inv
    else:
        for j in range(m):
            w[idx[j] & 255] *= inv
    for p in range(n):  # a sum in another order than z's may exceed it by a rounding error
        team[p] = min(team[p] * inv, 1.0)
    # P(minority) decides a Drink of Power declaration, which loses the game when wrong. From
    # hard evidence alone it is exact only if whom I looked at told nothing, but a bot looks
    # at likely opponents first, so the seats it has not seen are likelier teammates -- and
    # with more teammates my team is likelier the majority: at 9 players, declarations at a
    # stated 80% held 3 times in 11. Soft evidence (correlated, herd-prone) is no
    # sure basis either, so the bot takes the lower of the two.
    minor[me] = 0.0
    if odd and zh > 0.0:
        minor[me] = zm / zh
        if soft:
            minor[me] = min(minor[me], zs * inv)


@njit(cache=True, inline="always")
def pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, team, idx, key, x, y, out):
    """P(x is my teammate) and P(y is), written to team[x] and team[y] -- all that most
    decisions read (a fight's supporter, R5.3: the two fighters; see
    ``bots.dispatch.read_seats_nb``) -- from the same evidence as :func:`refresh_cards_nb`,
    and the same sums in the same order, so the values are the full refresh's to the bit.
    Up to SMALL_N players in one pass over the seat's list of allowed assignments; it
    returns False, writing nothing, if the list is out of date (the seat has seen a new
    association since it was made): then only a full refresh will do. From 8 players over
    the splits of the table kept (see the module doc), eight at a time in vectors
    (``intrinsics.pair_sums_nb``, which tests the hard evidence in the same pass, so no list
    is needed; asg, epub and epriv must be A_PAD long; ``out`` is float64 scratch of 3).
    Not for the advanced 3-player game (its hard evidence is weighed, not listed). Leaves
    the seat's other beliefs as they were (stale: the caller keeps them marked so)."""
    kmask, kval = known_nb(n, kas)
    full = (1 << n) - 1
    mine_order = (kval >> int(me)) & 1
    if n > SMALL_N:
        if len(asg) < A_PAD or len(epub) < A_PAD or len(epriv) < A_PAD or len(out) < 3:
            raise ValueError("pair_beliefs_nb: arrays shorter than A_PAD")
        want = kval if mine_order == 1 else (~kval) & full
        pair_sums_nb(epub, epriv, asg, out, kept_nb(n, na), kmask, want, me, full, x, y)
        z = out[0]
        tx = out[1]
        ty = out[2]
    else:
        if key[0] != kmask * 1024 + kval:
            return False
        z = 0.0
        tx = 0.0
        ty = 0.0
        for j in range(key[1]):
            i = idx[j] & 255
            e = epub[i] * epriv[i]
            a = asg[i]
            same = a if mine_order == 1 else (~a) & full
            z += e
            tx += e if (same >> x) & 1 else 0.0
            ty += e if (same >> y) & 1 else 0.0
    if z <= 0.0:  # as refresh_cards_nb: no assignment left, the prior
        team[x] = 0.5 if x != me else 1.0
        team[y] = 0.5 if y != me else 1.0
        return True
    inv = 1.0 / z
    team[x] = min(tx * inv, 1.0)
    team[y] = min(ty * inv, 1.0)
    return True


@njit(cache=True, inline="always")
def hard_beliefs_nb(n, me, kas, team, minor):
    """Beliefs from hard knowledge only (the greedy bot): 1 known teammate, 0 known
    opponent, 0.5 unknown; the minority at its prior ((N-1)/2 of the other N cards)."""
    mine = kas[me]
    for p in range(n):
        if kas[p] < 0:
            team[p] = 0.5
        else:
            team[p] = 1.0 if kas[p] == mine else 0.0
    minor[me] = ((n - 1) // 2) / n if n % 2 == 1 else 0.0


# ------------------------------------------------------------------ evidence
