"""The observer and the beliefs it builds, checked against what each seat can see.

The soft evidence kept as factors per assignment equals the pairwise log-weights; the
supporter beliefs match a full refresh; the vector pair sums follow the written order; half
the assignments give the whole posterior; the team beliefs sum over the assignments; a
partial refresh reads only the seats a decision reads and leaves the wide decisions to a
full refresh. (Truth apart from view, the observer's private fields and mirror symmetry:
tests/test_bots_view.py.)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.beliefs import A_MAX, SMALL_N
from kutsch_sim.bots.dispatch import bot_choose_nb, read_seats_nb, refresh_seat_nb, seat_beliefs_nb
from kutsch_sim.bots.profiles import bot_arrays
from kutsch_sim.engine.state import as_record, copy_state
from kutsch_sim.enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
    DCTX_U,
    DCTX_X,
    DEC,
    MAX_PLAYERS,
    N_CARDS,
    SC,
)

from _helpers_bots_view import position, prefix_nb


# ------------------------------------------------------------------ soft evidence as factors
def log_weights(st, p, na):
    """Seat p's soft evidence as log-weights per assignment, from the pairwise sums: public
    (bel_psat, before its trust) and private (bel_gpair)."""
    n = int(st.sc[SC.N])
    pub, priv = np.zeros(A_MAX), np.zeros(A_MAX)
    for i in range(na):
        a = int(st.mem.bel_asg[i])
        together = [((a >> x) ^ (a >> y)) & 1 == 0 for x in range(n) for y in range(n)]
        pub[i] = sum(st.mem.bel_psat[x, y] for x in range(n) for y in range(x + 1, n) if together[x * n + y])
        priv[i] = sum(st.mem.bel_gpair[p, g] for g in range(n) if g != p and together[p * n + g])
    return pub, priv


def random_knowledge(rng, n):
    """A seat and its knowledge of associations: its own and up to n // 2 - 1 others."""
    kas = np.full(10, -1, np.int8)
    me = int(rng.integers(n))
    kas[me] = int(rng.integers(2))
    for q in rng.choice(n, size=int(rng.integers(0, n // 2)), replace=False):
        if q != me:
            kas[q] = int(rng.integers(2))
    return me, kas


def pairwise_evidence(rng, n, me, asg, na):
    """Log-weights per assignment made, as the observer makes them, of pairs of seats: a
    public weight for each pair together, a private one for me with each giver."""
    wpub = np.triu(rng.normal(size=(n, n)), 1)
    wpriv = rng.normal(size=n)
    pub, priv = np.zeros(A_MAX), np.zeros(A_MAX)
    for i in range(na):
        a = int(asg[i])
        for x in range(n):
            for y in range(x + 1, n):
                if ((a >> x) ^ (a >> y)) & 1 == 0:
                    pub[i] += wpub[x, y]
            if x != me and ((a >> x) ^ (a >> me)) & 1 == 0:
                priv[i] += wpriv[x]
    return pub, priv


@njit(cache=True)
def refresh_and_choose_nb(st, seat, kind, k):
    """The seat's full posterior brought up to date, then its decision (no partial refresh)."""
    refresh_seat_nb(st, seat)
    return bot_choose_nb(st, seat, kind, k)


@njit(cache=True)
def partial_then_full_nb(st, seat, kind):
    """(whether the partial refresh served, its two seats) and the seat's P(teammate) row as
    the partial refresh leaves it, then as a full refresh does."""
    x, y = read_seats_nb(st, seat, kind)
    ok = seat_beliefs_nb(st, seat, kind)
    part = st.mem.bel_team[seat].copy()
    refresh_seat_nb(st, seat)
    return ok, x, y, part, st.mem.bel_team[seat].copy()


def partial_cases(st, seat, other, third, rng):
    """(kind, options, ctx A, ctx B, card, X, U) for each decision kind that reads P(teammate)
    of one or two seats only (bots.dispatch.read_seats_nb)."""
    n = int(st.sc[SC.N])
    mine = [c for c in range(N_CARDS) if st.loc[c] == seat]
    theirs = [c for c in range(N_CARDS) if st.loc[c] == other]
    effect = [c for c in mine if c in (13, 14, 15, 16, 17, 6, 7)]  # cards with a trade effect (R9)
    cases = [
        (DEC.PRIEST_USE, [0, 1], third, other, -1, 0, 0),
        (DEC.PRIEST_USE, [0, 1], other, seat, -1, 0, 0),
        (DEC.MIXER, [-1, 1, 2], third, other, -1, int(rng.integers(0, 4)), int(rng.integers(0, 3))),
        (DEC.DOCTOR_USE, [0, 1], third, other, -1, int(rng.integers(1, 3)), 0),
        (DEC.WIN_CHOICE, [0, 1], seat, other, -1, 0, 0),
        (DEC.TAKE, [-1] + theirs, seat, other, -1, 0, 0),
        (DEC.RETURN, mine, other, seat, int(rng.integers(0, N_CARDS)), 0, 0),
        (DEC.GIVE_NAMED, mine, other, seat, -1, 0, 0),
        (DEC.PRIEST_GIVE, mine, seat, other, -1, 0, 0),
        (DEC.GIVE_BACK, mine, seat, other, -1, 0, 0),
        (DEC.SEXTANT_PASS, mine, seat, other, -1, 0, 0),
        (DEC.SEXTANT_DIR, [0, 1], seat, -1, -1, 0, 0),
        (DEC.CLAIR_USE, [0, 1], seat, other, -1, CLAIR_DRAW, 0),
        (DEC.SUPPORT, [0, 1, 2], third, other, -1, 0, 0),
    ]
    if theirs:
        cases.append((DEC.ACCEPT, [0, 1], other, seat, theirs[0], 0, 0))
    if effect:
        cases.append((DEC.SMUGGLE, [0, 1], seat, other, effect[0], 0, 0))
    return [c for c in cases if len(c[1]) >= 2 and n >= 3]


def set_decision(s, opts, a, b, c, x, u):
    s.opts[: len(opts)] = opts
    s.dctx[:] = 0
    s.dctx[DCTX_A] = a
    s.dctx[DCTX_B] = b
    s.dctx[DCTX_CARD] = c
    s.dctx[DCTX_X] = x
    s.dctx[DCTX_U] = u


@pytest.mark.parametrize("n", [5, 6, 9, 10])
def test_soft_evidence_factors_match_the_log_weights(n):
    """The observer keeps the hand-set model's soft evidence per pair of seats (bel_psat, bel_gpair)
    and, for
    the refresh, as factors per assignment (bel_epub per trust in play, bel_epriv), updated
    by multiplication at each event. After real games with four different trusts at one
    table, the factors are the exponentials of the pairwise sums, and every seat's posterior
    equals the one computed from the log-weights (beliefs.refresh_nb)."""
    from kutsch_sim.bots.beliefs import refresh_nb
    from kutsch_sim.bots.dispatch import refresh_seat_nb
    from kutsch_sim.bots.params import P_SOFT_TRUST

    cfg = GameConfig(n, "full", ("smart-v2",) * n)  # the hand-set model (bots.evidence: model 0)
    params = bot_arrays(cfg.bots)[1]
    # trusts 0.5 (the profile's), 0.25 (two seats), 1.0 and 0 at one table
    params[1, P_SOFT_TRUST] = 0.25
    params[2, P_SOFT_TRUST] = 1.0
    params[3, P_SOFT_TRUST] = 0.0
    params[4, P_SOFT_TRUST] = 0.25
    priv_seen = False
    for game in range(4):
        st = as_record(prefix_nb(cfg.spec(3, params=params), game, 8 * n))
        na = int(st.sc[SC.N_ASG])
        trusts = sorted({float(params[p, P_SOFT_TRUST]) for p in range(n)} - {0.0})
        assert int(st.mem.bel_nts) == len(trusts)
        for p in range(n):
            t = float(params[p, P_SOFT_TRUST])
            pub, priv = log_weights(st, p, na)
            row = st.mem.bel_epub[int(st.mem.bel_tslot[p])]
            nk = na if n <= SMALL_N else na // 2  # kept: above SMALL_N the first half (beliefs.kept_nb)
            np.testing.assert_allclose(row[:nk], np.exp(t * pub[:nk]), rtol=1e-11)
            np.testing.assert_allclose(st.mem.bel_epriv[p, :nk], np.exp(priv[:nk]), rtol=1e-11)
            refresh_seat_nb(st, p)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, p, na, st.mem.bel_asg, pub, priv, st.k_assoc[p], t, w, team, minor)
            np.testing.assert_allclose(st.mem.bel_team[p, :n], team[:n], rtol=1e-11, atol=1e-14)
            assert st.mem.bel_team[p, :n].min() >= 0.0 and st.mem.bel_team[p, :n].max() <= 1.0
            np.testing.assert_allclose(st.mem.bel_w[p, :na], w[:na], rtol=1e-11, atol=1e-14)
            assert st.mem.bel_minor[p] == pytest.approx(minor[p], rel=1e-11, abs=1e-14)
            priv_seen |= bool(np.abs(priv[:na]).max() > 0.1)
        assert np.abs(st.mem.bel_psat).max() > 0.1  # evidence was seen (the test tests something)
    assert priv_seen


def test_supporter_beliefs_match_a_full_refresh():
    """A supporter's P(teammate) of the two fighters (pair_beliefs_nb) equals the full
    refresh's to the bit, at every player count (R5.3). Up to 7 players it sums over the
    seat's list of allowed assignments: with no list, or the list out of date (a new
    association seen), it declines and writes nothing. From 8 it tests the hard evidence
    itself, eight assignments at a time, and needs no list."""
    from kutsch_sim.bots.beliefs import A_PAD, N_BINS, make_assignments_nb, pair_beliefs_nb, refresh_cards_nb

    rng = np.random.default_rng(8)
    kac = np.full((1, 3), -1, np.int8)
    checked = 0
    for n in range(3, 11):
        asg = np.zeros(A_PAD, np.int32)
        na = make_assignments_nb(n, asg)
        for _ in range(8):
            me, kas = random_knowledge(rng, n)
            epub, epriv = np.exp(0.5 * rng.normal(size=A_PAD)), np.exp(rng.normal(size=A_PAD))
            idx, key = np.zeros(A_MAX, np.int16), np.full(2, -1, np.int64)
            w, team, minor, bins = np.zeros(A_PAD), np.zeros(10), np.zeros(10), np.zeros(N_BINS)
            x, y = (int(s) for s in rng.choice([p for p in range(n) if p != me], size=2, replace=False))
            partial = np.full(10, -7.0)
            out = np.zeros(3)
            if n <= SMALL_N:
                assert not pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)  # no list
                assert (partial == -7.0).all()
            for _seen in range(2):
                refresh_cards_nb(n, me, na, asg, epub, epriv, kas, w, team, minor, kac, False, True, bins, idx, key)
                if w[:na].sum() == 0:  # the random knowledge fits no assignment
                    break
                partial[:] = -7.0
                assert pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)
                assert partial[x] == team[x] and partial[y] == team[y]
                assert 0.0 <= partial[x] <= 1.0 and 0.0 <= partial[y] <= 1.0
                others = [p for p in range(10) if p not in (x, y)]
                assert (partial[others] == -7.0).all()
                checked += 1
                unknown = [p for p in range(n) if kas[p] < 0]
                if not unknown:
                    break
                kas[unknown[0]] = 0  # the seat sees one more association
                if n <= SMALL_N:  # its list is out of date
                    assert not pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)
    assert checked >= 70


def test_vector_pair_sums_follow_the_written_order():
    """intrinsics.pair_sums_nb: lane j sums the allowed assignments i = j mod 8 in turn,
    the lanes are added pairwise -- the same bits as that order written out in Python, so
    the sums cannot depend on the machine's vector width; my teammates in each assignment
    are the seats on my side of it; entries past ``nc`` (here NaN) are read but not
    counted; and an assignment the hard evidence rules out adds nothing."""
    from kutsch_sim.bots.beliefs import A_PAD, make_assignments_nb
    from kutsch_sim.bots.intrinsics import pair_sums_nb

    @njit
    def sums(epub, epriv, asg, out, nc, kmask, want, me, full, x, y):
        pair_sums_nb(epub, epriv, asg, out, nc, kmask, want, me, full, x, y)

    rng = np.random.default_rng(13)
    for n in (3, 6, 9, 10):
        asg = np.zeros(A_PAD, np.int32)
        na = make_assignments_nb(n, asg)
        full = (1 << n) - 1
        for _ in range(20):
            nc = int(rng.integers(1, na + 1))
            epub, epriv = np.exp(rng.normal(size=A_PAD)), np.exp(rng.normal(size=A_PAD))
            epub[nc:] = np.nan
            me = int(rng.integers(0, n))
            kmask = int(rng.integers(0, 1 << n)) | (1 << me)
            want = (int(rng.integers(0, 1 << n)) & kmask) | (1 << me)
            x, y = (int(v) for v in rng.integers(0, n, size=2))
            out = np.zeros(3)
            sums(epub, epriv, asg, out, nc, kmask, want, me, full, x, y)
            lanes = np.zeros((3, 8))
            for i in range(nc):
                a = int(asg[i])
                s = a if (a >> me) & 1 else ~a & full
                if (s ^ want) & kmask:
                    continue
                e = epub[i] * epriv[i]
                lanes[0, i % 8] += e
                lanes[1, i % 8] += e if (s >> x) & 1 else 0.0
                lanes[2, i % 8] += e if (s >> y) & 1 else 0.0
            for k in range(3):
                v = lanes[k]
                want_k = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
                assert out[k] == want_k, (n, k)


def test_half_the_assignments_give_the_whole_posterior():
    """From 8 players the beliefs keep the splits of the table with seat 0 in the Order
    and read each as the split it stands for (beliefs.make_assignments_nb). With evidence
    about pairs of seats, as all of it is, that is the posterior over every assignment the
    seat's hard evidence allows, written out by brute force: P(teammate) of every seat and
    P(my team is the minority) at 9 (R7), for a seat of either team."""
    from kutsch_sim.bots.beliefs import make_assignments_nb, refresh_nb
    from kutsch_sim.enums import ORDER

    rng = np.random.default_rng(21)
    checked = 0
    for n in (8, 9, 10):
        asg = np.zeros(256, np.int32)
        na = make_assignments_nb(n, asg)
        h = na // 2
        full = (1 << n) - 1
        assert all(int(asg[h + i]) == ~int(asg[i]) & full for i in range(h))
        assert len(set(asg[:na].tolist())) == na
        for _ in range(12):
            me, kas = random_knowledge(rng, n)
            pub, priv = pairwise_evidence(rng, n, me, asg, na)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, me, na, asg, pub, priv, kas, 0.7, w, team, minor)
            mine = 1 if kas[me] == ORDER else 0
            tot, tp, hard, hard_min, soft_min = 0.0, np.zeros(n), 0, 0, 0.0
            for i in range(na):
                a = int(asg[i])
                if any(kas[p] >= 0 and ((a >> p) & 1) != (1 if kas[p] == ORDER else 0) for p in range(n)):
                    continue
                wt = np.exp(0.7 * pub[i] + priv[i])
                mates = [((a >> p) & 1) == mine for p in range(n)]
                small = sum(mates) == (n - 1) // 2
                tot += wt
                tp += wt * np.array(mates)
                hard += 1
                hard_min += small
                soft_min += wt * small
            if hard == 0:
                continue
            np.testing.assert_allclose(team[:n], tp / tot, rtol=1e-12, atol=1e-13)
            expect = min(hard_min / hard, soft_min / tot) if n % 2 == 1 else 0.0
            assert minor[me] == pytest.approx(expect, rel=1e-12, abs=1e-13)
            assert w[:na].sum() == pytest.approx(1.0, rel=1e-12)
            checked += 1
    assert checked >= 24


def test_team_beliefs_sum_over_assignments():
    """refresh_nb's P(teammate) is the plain sum over the assignments of the normalised
    weights, and at odd counts P(my team is the minority) the lower of its share among the
    assignments the hard evidence allows and its posterior weight (R7) -- from 8 players
    summed eight assignments at a time in vectors (random evidence, every player count)."""
    from kutsch_sim.bots.beliefs import make_assignments_nb, refresh_nb

    rng = np.random.default_rng(5)
    for n in range(3, 11):
        asg = np.zeros(A_MAX, np.int32)
        na = make_assignments_nb(n, asg)
        for _ in range(5):
            me, kas = random_knowledge(rng, n)
            pub, priv = rng.normal(size=A_MAX), rng.normal(size=A_MAX)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, me, na, asg, pub, priv, kas, 0.7, w, team, minor)
            if w[:na].sum() == 0:  # the random knowledge fits no assignment
                continue
            full = (1 << n) - 1
            side = [int(a) if (int(a) >> me) & 1 else ~int(a) & full for a in asg[:na]]  # my side of each split
            for p in range(n):
                same = [(s >> p) & 1 == 1 for s in side]
                assert team[p] == pytest.approx(float(np.dot(w[:na], same)), abs=1e-12)
                assert 0.0 <= team[p] <= 1.0
            allowed = [all(kas[p] < 0 or ((s >> p) & 1) == (1 if kas[p] == kas[me] else 0) for p in range(n))
                       for s in side]
            if n > SMALL_N:
                allowed[na // 2:] = [False] * (na - na // 2)  # only the first half is kept
            small = [bin(s).count("1") == (n - 1) // 2 for s in side]
            assert np.all(w[:na][np.logical_not(allowed)] == 0.0)
            if n % 2 == 1:
                hard = sum(a and m for a, m in zip(allowed, small, strict=True)) / sum(allowed)
                assert minor[me] == pytest.approx(min(hard, float(np.dot(w[:na], small))), abs=1e-12)
            else:
                assert minor[me] == 0.0


@settings(max_examples=30, deadline=None)
@given(n=hs.integers(3, 10), game=hs.integers(0, 1000), turns=hs.integers(0, 40), salt=hs.integers(0, 2**31))
def test_partial_refresh_reads_only_the_seats_a_decision_reads(n, game, turns, salt):
    """The decisions that bring only one or two seats' P(teammate) up to date
    (``dispatch.read_seats_nb``: supports, the Priest, the Mixer, the Doctor, acceptances,
    returns, the winner's look and take, give-backs, the Sextant, smuggling, the
    Clairvoyant) read no other seat's: with every other entry of the seat's P(teammate) row
    scrambled, each decides, reasons and draws alike. And the entries they do read are the
    full refresh's, to the bit (the same sums in the same order)."""
    st = position(n, ("smart",) * n, game, turns)
    if st.sc[SC.OVER]:
        return
    rng = np.random.default_rng(salt)
    seat = int(rng.integers(0, n))
    others = [p for p in range(n) if p != seat]
    other = others[int(rng.integers(0, len(others)))]
    rest = [p for p in others if p != other]
    third = rest[0] if rest else seat
    for kind, opts, a, b, c, x, u in partial_cases(st, seat, other, third, rng):
        # (1) the policy reads tm of the seats named by read_seats_nb only
        s1, s2 = copy_state(st), copy_state(st)
        for s in (s1, s2):
            set_decision(s, opts, a, b, c, x, u)
        x1, y1 = read_seats_nb(s1, seat, kind)
        assert x1 >= -1 and y1 >= -1, kind  # a kind with a partial refresh
        i1 = refresh_and_choose_nb(s1, seat, kind, len(opts))
        keep = {seat, int(x1), int(y1)}
        refresh_seat_nb(s2, seat)
        for p in range(MAX_PLAYERS):
            if p not in keep:
                s2.mem.bel_team[seat, p] = rng.random()
        s2.mem.bel_fresh[seat] = True  # decide from the scrambled row, as it stands
        i2 = bot_choose_nb(s2, seat, kind, len(opts))
        assert i1 == i2, kind
        assert np.array_equal(s1.mem.vw.out, s2.mem.vw.out), kind
        assert np.array_equal(s1.rs, s2.rs), kind
        # (2) what the partial refresh writes is the full refresh's
        s3 = copy_state(st)
        set_decision(s3, opts, a, b, c, x, u)
        refresh_seat_nb(s3, seat)  # a current list of allowed assignments
        s3.mem.bel_fresh[seat] = False
        ok, px, py, part, full = partial_then_full_nb(s3, seat, kind)
        assert ok, kind
        for p in (px, py):
            if 0 <= p < n:
                assert part[p] == full[p], (kind, p)


def test_read_seats_leaves_the_wide_decisions_to_a_full_refresh():
    """The turn's action, the hand-limit gift and the Diplomat read every seat's P(teammate)
    (and the action the minority and the weights): no partial refresh for them."""
    st = position(6, ("smart",) * 6, 3, 5)
    for kind in (DEC.ACTION, DEC.LIMIT_GIVE, DEC.DIPLO_USE):
        assert tuple(read_seats_nb(st, 0, kind)) == (-2, -2)
