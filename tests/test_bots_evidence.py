"""The fitted soft-evidence model (``bots.evidence``, model 1) and the calibration maps
(``bots.calibration``): its factors are its pairwise totals, a seat's own acts are no evidence
to it, what an actor does knowing the other's team is kept apart, a table can mix the two
models, and the maps the kernels read are the maps the fit wrote."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots import calibration as C
from kutsch_sim.bots.beliefs import SMALL_N
from kutsch_sim.bots.dispatch import refresh_seat_nb
from kutsch_sim.bots.evidence import MODEL_FIT, MODEL_HAND, S1, S_SURE
from kutsch_sim.bots.observer import observe_nb
from kutsch_sim.bots.params import P_EVIDENCE, P_SOFT_TRUST
from kutsch_sim.bots.profiles import bot_arrays
from kutsch_sim.calib import fit as F
from kutsch_sim.engine.state import as_record, copy_state
from kutsch_sim.enums import EV, SC, SIDE_ATT

from _helpers_bots_view import prefix_nb


def sat(x, s):
    return s * math.tanh(x / s)


def game_state(n, bots, game, turns, params_edit=None):
    cfg = GameConfig(n, "full", bots)
    par = bot_arrays(cfg.bots)[1]
    if params_edit:
        params_edit(par)
    return as_record(prefix_nb(cfg.spec(11, params=par), game, turns)), par


def together(a, x, y):
    return ((a >> x) ^ (a >> y)) & 1 == 0


@pytest.mark.parametrize("n", [5, 6, 9])
def test_fitted_factors_are_the_pairwise_totals(n):
    """A model-1 seat's public factors are exp(trust x the saturated opinions + the saturated
    informed acts) of the pairs together in each assignment, and its private factors
    exp(its gifts + trust x its own acts taken back out)."""
    checked = 0
    for game in range(3):
        st, par = game_state(n, ("smart",), game, 6 * n)
        m = st.mem
        nk = int(st.sc[SC.N_ASG]) if n <= SMALL_N else int(st.sc[SC.N_ASG]) // 2
        for p in range(n):
            assert m.bel_model[p] == MODEL_FIT
            t = float(par[p, P_SOFT_TRUST])
            for i in range(nk):
                a = int(m.bel_asg[i])
                pub = sum(t * m.bel_psat1[x, y] + sat(m.bel_inf1[x, y], S_SURE)
                          for x in range(n) for y in range(x + 1, n) if together(a, x, y))
                priv = sum(m.bel_gpair[p, g] + t * m.bel_corr1[p, g] for g in range(n) if g != p and together(a, p, g))
                assert m.bel_epub[m.bel_tslot[p], i] == pytest.approx(math.exp(pub), rel=1e-9)
                assert m.bel_epriv[p, i] == pytest.approx(math.exp(priv), rel=1e-9)
                checked += 1
        assert np.abs(m.bel_psat1).max() > 0.05 and np.abs(m.bel_corr1).max() > 0.0  # there was evidence
    assert checked > 100


def test_a_seats_own_acts_are_no_evidence_to_it():
    """Seat a supports seat x in a fight it has not seen x's card for: every other seat's
    P(x is a's teammate) moves, a's own P(x is my teammate) does not (it knows why it acted);
    under the hand-set model (smart-v2) a's own support counts for it too."""
    for profile, moves in (("smart", False), ("smart-v2", True)):
        for game in range(6):
            st, _ = game_state(6, (profile,), game, 4)
            if st.sc[SC.OVER]:
                continue
            a = next((q for q in range(6) if q not in (0, 1) and st.k_assoc[q, 0] < 0), None)
            if a is None:
                continue
            observe_nb(st, EV.ATTACK, 0, 1, 0, 0)
            before = copy_state(st)
            observe_nb(st, EV.SUPPORT, a, SIDE_ATT, 0, 0)  # a backs the attacker, seat 0
            for s, state in ((a, before), (a, st)):
                refresh_seat_nb(state, s)
            own = abs(st.mem.bel_team[a, 0] - before.mem.bel_team[a, 0])
            if moves:
                assert own > 1e-6
            else:
                assert own < 1e-12
            other = next(q for q in range(6) if q not in (0, a))
            refresh_seat_nb(before, other)
            refresh_seat_nb(st, other)
            assert not np.allclose(st.mem.bel_w[other], before.mem.bel_w[other])
            break
        else:
            pytest.fail("no position with an unseen fighter")


def test_an_act_knowing_the_other_s_team_is_kept_apart_and_unsaturated_by_opinions():
    """Seat a has seen seat x's card: its support of x goes to bel_inf1 (as good as a look),
    not into the saturated opinions of bel_pair1."""
    st, _ = game_state(6, ("smart",), 0, 0)
    a, x = 2, 0
    st.k_assoc[a, x] = st.assoc[x]
    observe_nb(st, EV.ATTACK, x, 1, 0, 0)
    p1, i1 = st.mem.bel_pair1[a, x], st.mem.bel_inf1[a, x]
    observe_nb(st, EV.SUPPORT, a, SIDE_ATT, 0, 0)
    assert st.mem.bel_pair1[a, x] == p1
    assert st.mem.bel_inf1[a, x] > i1 + 1.0  # the fitted weight of a support that knows is large
    assert st.mem.bel_inf1[x, a] == st.mem.bel_inf1[a, x]


def test_a_table_may_mix_the_models():
    """Seats of both models at one table: each seat's public factors are those of its own model's
    totals, and the hand-set seats' are what they would be at a table of that model alone."""
    def mix(par):
        par[0::2, P_EVIDENCE] = MODEL_HAND
        par[0::2, P_SOFT_TRUST] = 0.5

    n = 6
    st, par = game_state(n, ("smart",), 1, 30, mix)
    m = st.mem
    assert m.bel_models == 3
    na = int(st.sc[SC.N_ASG])
    for p in range(n):
        t = float(par[p, P_SOFT_TRUST])
        for i in range(na):
            a = int(m.bel_asg[i])
            if m.bel_model[p] == MODEL_HAND:
                pub = sum(t * m.bel_psat[x, y] for x in range(n) for y in range(x + 1, n) if together(a, x, y))
            else:
                pub = sum(t * m.bel_psat1[x, y] + sat(m.bel_inf1[x, y], S_SURE)
                          for x in range(n) for y in range(x + 1, n) if together(a, x, y))
            assert m.bel_epub[m.bel_tslot[p], i] == pytest.approx(math.exp(pub), rel=1e-9)
    assert S1[n] > 0


@njit(cache=True)
def _map_nb(n, k, f1, f2, f3):
    return C.map_nb(n, k, f1, f2, f3)


def test_the_kernel_reads_the_maps_the_fit_wrote():
    """``calibration.map_nb`` (what a calibrated seat states) equals ``calib.fit.apply`` on the
    table's own maps, and the identity map gives back its probability."""
    rng = np.random.default_rng(3)
    for n in (3, 6, 9):
        for k in range(C.N_MAPS):
            mp = F.Map(tuple(C.CALT[n, k]), tuple(C.KNOTT[n, k]))
            for _ in range(20):
                f = rng.normal(scale=3.0, size=3)
                assert _map_nb(n, k, *f) == pytest.approx(float(F.apply(mp, *f)), abs=1e-12)
    ident = F.IDENTITY
    for p in (0.01, 0.3, 0.5, 0.9, 0.999):
        assert float(F.apply(ident, F.logit(p))) == pytest.approx(p, abs=2e-3)


@njit(cache=True)
def _surf_nb(n, k, tm, h):
    return C.surf_nb(n, k, tm, h)


def test_the_kernel_reads_the_surfaces_the_fit_wrote():
    """``calibration.surf_nb`` equals ``calib.surface.apply_surface`` on the table's own surfaces,
    inside and beyond the knots, and what hard evidence settles stays settled."""
    from kutsch_sim.calib import surface as S

    rng = np.random.default_rng(4)
    for n in (3, 6, 9):
        for k in range(C.N_SURF):
            sf = C.SURFT[n, k]
            for _ in range(30):
                tm, h = rng.uniform(1e-5, 1 - 1e-5, 2)
                want = float(S.apply_surface(sf, F.logit([tm]), F.logit([h]))[0])
                assert _surf_nb(n, k, tm, h) == pytest.approx(want, abs=1e-12)
            assert _surf_nb(n, k, 0.7, 0.0) == 0.0 and _surf_nb(n, k, 0.2, 1.0) == 1.0


def test_a_map_needs_rows_of_both_labels_and_its_curve_rises():
    rng = np.random.default_rng(5)
    assert F.regress([rng.normal(size=50)], np.ones(50)) == F.IDENTITY
    x = rng.normal(size=5000)
    y = (rng.random(5000) < 1 / (1 + np.exp(-(0.5 + 2.0 * x)))).astype(float)
    mp = F.regress([x], y)
    assert mp.coef[1] == pytest.approx(2.0, rel=0.15) and mp.coef[0] == pytest.approx(0.5, abs=0.15)
    assert np.all(np.diff(mp.knots) >= 0)
    lo = F.apply(mp, -20.0)  # beyond every row: the logistic, not the lowest isotonic step
    assert float(lo) < 1e-3


def test_the_fit_reads_a_surface_as_the_kernel_does_settled_ends_included():
    """``calib.fit.read_surface``, which builds the declaration maps' features, states what
    ``calibration.surf_nb`` states, where hard evidence settles the question too."""
    rng = np.random.default_rng(6)
    for n in (3, 6, 9):
        for k in range(C.N_SURF):
            p = rng.uniform(1e-5, 1 - 1e-5, 40)
            h = np.r_[rng.uniform(1e-5, 1 - 1e-5, 36), 0.0, 0.0, 1.0, 1.0]
            got = F.read_surface(C.SURFT[n, k], p, h)
            want = [_surf_nb(n, k, a, b) for a, b in zip(p, h, strict=True)]
            assert np.allclose(got, want, rtol=0, atol=1e-12)
