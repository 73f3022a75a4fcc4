"""Fit the surfaces a calibrated seat reads its team beliefs from (``bots.calibration.SURF``,
``surf_nb``): P(teammate) of a seat holding our items, P(every seat a plan names is a teammate)
and P(my team is the smaller).

The seat's posterior P(teammate) of the seats holding our items carries little beyond the hard
evidence between about 0.2 and 0.95, and not monotonically (docs/calibration.md), so no
monotone curve of one score states it. The surface is a table over u = logit P(teammate) and w = logit of the same
from hard evidence alone, bilinear between knots: the least-squares fit of the labels, with a
penalty on its second differences along u and w (a smooth table where the claims are many),
each knot drawn towards a prior, the table's own surface, where they are few (a plane
extrapolated to positions no claim reached, such as a plan naming a known opponent, can state
anything). For P(teammate), one surface is fitted on the seats the decision's declaration
named (the seat declared naming them), one on the rest: the seats a declaration names are
teammates more often than others at the same belief, and the seat knows which it names when it
states (``bots.calibration.state_named_nb``). Each claim counts once; the claims of one seat turn
after turn are correlated, which the measurement (``report.calibration``) allows for, not the fit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

# the knots: u = U0 + i DU (i < NU), w = W0 + j DW (j < NW); beyond them the ends are held. Hard
# evidence beyond logit +-4 (P below 0.018 or above 0.982) is certainty in practice: the table
# holds it at its last knots.
U0, DU, NU = -8.0, 0.5, 33
W0, DW, NW = -4.0, 0.25, 33
LAM_U, LAM_W = 10.0, 1.0  # the penalties on the second differences, in claims
LAM0 = 20.0  # each knot is drawn towards the prior (the table's surface) by this many claims' worth
MIN_ROWS = 200  # fewer named seats at a count (or of one label): the identity surface
KEY = ["config", "game", "turn", "seat", "about"]  # one seat named at one decision


def identity() -> np.ndarray:
    """The surface that states the posterior as it is: sigma(u) at every w."""
    u = U0 + DU * np.arange(NU)
    return np.repeat((1.0 / (1.0 + np.exp(-u)))[:, None], NW, axis=1)


def _corners(u: np.ndarray, w: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The four knots around each (u, w), flattened, and their bilinear weights (as ``surf_nb``)."""
    tu = np.clip((u - U0) / DU, 0.0, NU - 1 - 1e-9)
    tw = np.clip((w - W0) / DW, 0.0, NW - 1 - 1e-9)
    i, j = tu.astype(np.int64), tw.astype(np.int64)
    a, b = tu - i, tw - j
    idx = [i * NW + j, i * NW + j + 1, (i + 1) * NW + j, (i + 1) * NW + j + 1]
    wts = [(1 - a) * (1 - b), (1 - a) * b, a * (1 - b), a * b]
    return idx, wts


def _second_differences(n_outer: int, n_inner: int, along_inner: bool) -> np.ndarray:
    """The rows (x[k] - 2 x[k+1] + x[k+2]) of a table of n_outer x n_inner knots, along one axis."""
    k = n_outer * n_inner
    grid = np.arange(k).reshape(n_outer, n_inner)
    if along_inner:
        a, b, c = grid[:, :-2].ravel(), grid[:, 1:-1].ravel(), grid[:, 2:].ravel()
    else:
        a, b, c = grid[:-2, :].ravel(), grid[1:-1, :].ravel(), grid[2:, :].ravel()
    d = np.zeros((len(a), k))
    r = np.arange(len(a))
    d[r, a], d[r, b], d[r, c] = 1.0, -2.0, 1.0
    return d


def fit_surface(u, w, y, prior: np.ndarray, lam0: float = LAM0) -> np.ndarray:
    """The penalised least-squares surface [NU, NW] of labels y at (u, w), each knot also drawn
    towards the surface ``prior`` by lam0 claims' worth, so that knots no claim reaches take the
    prior rather than a plane extrapolated from far away; the prior itself when the rows are too
    few or of one label."""
    u, w, y = (np.asarray(x, np.float64) for x in (u, w, y))
    if len(y) < MIN_ROWS or y.min() == y.max():
        return prior
    k = NU * NW
    idx, wts = _corners(u, w)
    gram = np.zeros(k * k)
    rhs = np.zeros(k)
    for a in range(4):
        rhs += np.bincount(idx[a], wts[a] * y, minlength=k)
        for b in range(4):
            gram += np.bincount(idx[a] * k + idx[b], wts[a] * wts[b], minlength=k * k)
    du = _second_differences(NU, NW, along_inner=False)
    dw = _second_differences(NU, NW, along_inner=True)
    lhs = gram.reshape(k, k) + LAM_U * du.T @ du + LAM_W * dw.T @ dw + (1e-9 + lam0) * np.eye(k)
    rhs = rhs + lam0 * np.asarray(prior, np.float64).ravel()
    theta = np.linalg.solve(lhs, rhs)
    return np.clip(theta, 0.0005, 0.9995).reshape(NU, NW)


def apply_surface(s: np.ndarray, u, w) -> np.ndarray:
    """The surface s at the logits (u, w), bilinear between its knots."""
    idx, wts = _corners(np.asarray(u, np.float64), np.asarray(w, np.float64))
    flat = s.ravel()
    return sum(flat[i] * x for i, x in zip(idx, wts, strict=True))


def declared(named: pd.DataFrame) -> np.ndarray:
    """For each named-seat claim (``T_NAMED``): 1 if the seat's declaration taken at that decision
    named that seat (a row of it with ``chosen`` 1, of either kind), else 0."""
    return named.groupby(KEY, sort=False)["chosen"].transform("max").to_numpy(np.int64)
