"""Interval arithmetic for win rates: Wilson score intervals and Newcombe differences.

Every function is vectorised: counts may be scalars or numpy arrays of equal shape.
A proportion with ``n == 0`` has rate and interval ``NaN`` (there is nothing to say).

References: E. B. Wilson (1927), "Probable inference, the law of succession, and
statistical inference"; R. G. Newcombe (1998), "Interval estimation for the difference
between independent proportions: comparison of eleven methods", Statistics in Medicine
17, 873-890 (method 10, the hybrid score interval built from two Wilson intervals).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.special import ndtri

LEVEL = 0.95

ArrayLike = float | int | np.ndarray | pd.Series | Sequence[float]


def z_value(level: float = LEVEL) -> float:
    """Two-sided standard-normal quantile for a confidence ``level`` in (0, 1)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return float(ndtri(0.5 + level / 2.0))


def wilson(wins: ArrayLike, n: ArrayLike, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval ``(lo, hi)`` for ``wins`` successes out of ``n``.

    Returns float arrays broadcast from the inputs; ``NaN`` where ``n == 0``.
    ``lo`` is exactly 0 when ``wins == 0`` and ``hi`` exactly 1 when ``wins == n``.
    """
    k = np.asarray(wins, dtype=float)
    m = np.asarray(n, dtype=float)
    z = z_value(level)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        centre = (k + z2 / 2.0) / (m + z2)
        half = z * np.sqrt(m) / (m + z2) * np.sqrt(p * (1.0 - p) + z2 / (4.0 * m))
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k >= m, 1.0, np.clip(centre + half, 0.0, 1.0))
    bad = ~(m > 0)
    lo = np.where(bad, np.nan, lo)
    hi = np.where(bad, np.nan, hi)
    return lo, hi


def newcombe_diff(wins1: ArrayLike, n1: ArrayLike, wins2: ArrayLike, n2: ArrayLike,
                  level: float = LEVEL) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference ``p1 - p2`` of two independent proportions with Newcombe's hybrid interval.

    Returns ``(diff, lo, hi)`` as float arrays; ``NaN`` where either ``n`` is 0.
    """
    k1, m1 = np.asarray(wins1, float), np.asarray(n1, float)
    k2, m2 = np.asarray(wins2, float), np.asarray(n2, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = np.where(m1 > 0, k1 / m1, np.nan)
        p2 = np.where(m2 > 0, k2 / m2, np.nan)
    l1, u1 = wilson(k1, m1, level)
    l2, u2 = wilson(k2, m2, level)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def rate_frame(wins: ArrayLike, n: ArrayLike, level: float = LEVEL,
               index: pd.Index | None = None) -> pd.DataFrame:
    """DataFrame with columns ``n, wins, rate, lo, hi`` (rate ``NaN`` when ``n == 0``)."""
    k = np.asarray(wins, dtype=np.int64)
    m = np.asarray(n, dtype=np.int64)
    lo, hi = wilson(k, m, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(m > 0, k / np.maximum(m, 1), np.nan)
    return pd.DataFrame({"n": m, "wins": k, "rate": rate, "lo": lo, "hi": hi}, index=index)


def _key_codes(col: pd.Series) -> tuple[np.ndarray, pd.Index | pd.Categorical]:
    """(int64 codes, labels): categories for a categorical column, sorted values otherwise."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col.cat.codes.to_numpy().astype(np.int64), col.cat.categories
    c, uniques = pd.factorize(col, sort=True)
    return c.astype(np.int64), pd.Index(uniques)


def group_counts(frame: pd.DataFrame, keys: list[str],
                 success: np.ndarray) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    """(n, wins, labels) per observed group of ``keys``, in sorted key order, in one pass.

    A group-by for millions of rows: the keys are combined into one integer code and
    counted with ``np.bincount`` (rows with a missing key are left out). ``labels`` has the
    key columns (categorical keys stay categorical).
    """
    code = np.zeros(len(frame), dtype=np.int64)
    valid = np.ones(len(frame), dtype=bool)
    parts = []
    for k in keys:
        c, labs = _key_codes(frame[k])
        valid &= c >= 0
        code = code * max(len(labs), 1) + np.maximum(c, 0)
        parts.append((k, frame[k].dtype, labs))
    size = int(np.prod([max(len(labs), 1) for _, _, labs in parts]))
    counts = np.bincount(code[valid] * 2 + success[valid], minlength=2 * size).reshape(size, 2)
    n = counts.sum(axis=1)
    seen = np.nonzero(n)[0]
    where = np.unravel_index(seen, [max(len(labs), 1) for _, _, labs in parts])
    cols = {}
    for (k, dtype, labs), idx in zip(parts, where, strict=True):
        if isinstance(dtype, pd.CategoricalDtype):
            cols[k] = pd.Categorical.from_codes(idx, dtype=dtype)
        else:
            cols[k] = np.asarray(labs)[idx]
    return n[seen], counts[seen, 1], pd.DataFrame(cols)


def grouped_rates(frame: pd.DataFrame, by: str | list[str], success: np.ndarray | pd.Series,
                  level: float = LEVEL, pool: str | None = None) -> pd.DataFrame:
    """Rates of a boolean ``success`` (one value per row of ``frame``) per group of ``by``.

    Returns the ``by`` columns followed by ``n, wins, rate, lo, hi``; empty groups are left
    out. With ``pool`` (one of ``by``), rows pooled over that column are appended with the
    label ``"all"`` in it (the column is then of strings).
    """
    keys = [by] if isinstance(by, str) else list(by)
    n, wins, labels = group_counts(frame, keys, np.asarray(success, dtype=bool))
    out = pd.concat([labels, rate_frame(wins, n, level)], axis=1)
    if pool is None:
        return out
    rest = [c for c in keys if c != pool]
    if not rest or len(rest) == len(keys):
        raise ValueError(f"pool must be one of several grouping columns {keys}, got {pool!r}")
    pooled = grouped_rates(frame, rest, success, level)
    pooled.insert(keys.index(pool), pool, "all")
    out[pool] = out[pool].astype(str)
    return pd.concat([out, pooled], ignore_index=True)


def diff_frame(a: pd.DataFrame, b: pd.DataFrame, level: float = LEVEL,
               suffixes: tuple[str, str] = ("_a", "_b")) -> pd.DataFrame:
    """Compare two aligned rate frames (columns ``n, wins``): ``a - b`` with its interval.

    ``a`` and ``b`` must have the same length and row order. Returns the rate columns of
    both (suffixed) and ``diff, diff_lo, diff_hi``.
    """
    d, lo, hi = newcombe_diff(a["wins"].to_numpy(), a["n"].to_numpy(),
                              b["wins"].to_numpy(), b["n"].to_numpy(), level)
    cols = ["n", "wins", "rate", "lo", "hi"]
    left = rate_frame(a["wins"], a["n"], level)[cols].add_suffix(suffixes[0])
    right = rate_frame(b["wins"], b["n"], level)[cols].add_suffix(suffixes[1])
    out = pd.concat([left.reset_index(drop=True), right.reset_index(drop=True)], axis=1)
    out["diff"], out["diff_lo"], out["diff_hi"] = d, lo, hi
    return out


def covers(lo: ArrayLike, hi: ArrayLike, value: float) -> np.ndarray:
    """True where the interval ``[lo, hi]`` contains ``value`` (or is undefined)."""
    lo_a, hi_a = np.asarray(lo, float), np.asarray(hi, float)
    return ~((lo_a > value) | (hi_a < value))


def newcombe_paired(a: int, b: int, c: int, d: int, level: float = LEVEL) -> tuple[float, float, float]:
    """Difference ``p1 - p2`` of paired proportions with Newcombe's square-and-add interval
    (Newcombe 1998, method 10, as in Altman et al., *Statistics with Confidence*, 2000): ``a`` pairs
    with a success both ways, ``b`` only the first way, ``c`` only the second, ``d`` neither. It
    stays inside [-1, 1] and behaves with few discordant pairs, where a normal interval does not."""
    n = a + b + c + d
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = (float(x) for x in wilson(a + b, n, level))
    l2, u2 = (float(x) for x in wilson(a + c, n, level))
    phi = 0.0
    den = float(a + b) * float(c + d) * float(a + c) * float(b + d)
    if den > 0:
        num = float(a) * d - float(b) * c
        num = num - n / 2 if num > n / 2 else (num if num < 0 else 0.0)
        phi = num / np.sqrt(den)
    dd = p1 - p2
    lo = dd - np.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    hi = dd + np.sqrt(max((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
    return float(dd), float(lo), float(hi)


def paired_counts(x: ArrayLike, y: ArrayLike) -> tuple[int, int, int, int]:
    """The 2 x 2 table of paired 0/1 outcomes: pairs with a success both ways, only in ``x``,
    only in ``y``, neither (the middle two are the discordant pairs, the only ones that carry
    the difference)."""
    xa, ya = np.asarray(x, bool), np.asarray(y, bool)
    return int((xa & ya).sum()), int((xa & ~ya).sum()), int((~xa & ya).sum()), int((~xa & ~ya).sum())


def paired_diff(x: ArrayLike, y: ArrayLike, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of ``x - y`` over paired 0/1 outcomes (the same game played two ways) with
    :func:`newcombe_paired`'s interval: ``(diff, lo, hi)``; NaN without pairs. Pairing removes
    the deal's share of the variance, so the interval is narrower than Newcombe's for
    independent samples."""
    return newcombe_paired(*paired_counts(x, y), level)


def normal_interval(est: ArrayLike, se: ArrayLike, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """``est -/+ z * se``: the interval of an estimate with a known standard error."""
    h = z_value(level) * np.asarray(se, float)
    e = np.asarray(est, float)
    return e - h, e + h


def range_under_null(cov: np.ndarray, draws: int = 20_000, seed: int = 0) -> float:
    """Expected best-minus-worst of k rates that differ by chance alone: the mean range of
    ``draws`` vectors drawn from a normal with mean 0 and covariance ``cov`` (k x k, the rates'
    covariance). Picking the extremes makes the observed gap positive even with no effect; this
    is how large it is then. A fixed ``seed``: the same tables give the same figure."""
    c = np.asarray(cov, float)
    if c.ndim != 2 or c.shape[0] < 2 or not np.isfinite(c).all():
        return float("nan")
    w, v = np.linalg.eigh((c + c.T) / 2)
    root = v * np.sqrt(np.clip(w, 0.0, None))  # cov = root @ root.T, also when it is singular
    z = np.random.default_rng(seed).standard_normal((draws, c.shape[0])) @ root.T
    return float((z.max(axis=1) - z.min(axis=1)).mean())


def influence_cov(game: np.ndarray, code: np.ndarray, win: np.ndarray, k: int) -> np.ndarray:
    """Covariance (k x k) of k group win rates measured on the same games, clustered by game.

    ``game`` (0..G-1), ``code`` (group 0..k-1, -1 for none) and ``win`` are per seat-game. With
    u_gi = (w_gi - p_i n_gi) / N_i the influence of game g on the rate of group i, the
    covariance is G/(G-1) * U'U (the sandwich estimator of :func:`clustered_vars`, for all
    pairs of groups at once)."""
    ok = np.asarray(code) >= 0
    g, c, w = np.asarray(game)[ok], np.asarray(code)[ok].astype(np.int64), np.asarray(win, bool)[ok]
    games = np.unique(g)
    gi = np.searchsorted(games, g)
    n = np.bincount(gi * k + c, minlength=len(games) * k).reshape(len(games), k)
    wn = np.bincount(gi * k + c, weights=w, minlength=len(games) * k).reshape(len(games), k)
    big_n = n.sum(axis=0).astype(float)
    p = np.divide(wn.sum(axis=0), big_n, out=np.zeros(k), where=big_n > 0)
    u = (wn - p * n) / np.where(big_n > 0, big_n, 1.0)
    m = len(games)
    return (m / max(m - 1, 1)) * (u.T @ u)


# ------------------------------------------------------------------ seat-games clustered by game
def cluster_sums(game: np.ndarray, n_games: int, hit: np.ndarray, win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game (``game``: each seat-game's game index, 0..n_games-1): the seat-games of a
    group (``hit``) and their wins, as float arrays of length ``n_games``."""
    h = np.asarray(hit, bool)
    n = np.bincount(game, weights=h, minlength=n_games)
    w = np.bincount(game, weights=h & np.asarray(win, bool), minlength=n_games)
    return n, w


def clustered_vars(stratum: np.ndarray, n_strata: int, n1: np.ndarray, w1: np.ndarray,
                   n2: np.ndarray | None = None, w2: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Variances of win rates over seat-games that respect the games they come from.

    The seats of one game win and lose together (teammates) or against each other, so
    their seat-games are not independent draws; the games are. ``n1, w1`` (and ``n2, w2``)
    are per-game seat-games and wins of one group (and of a second one), ``stratum`` each
    game's stratum (the player count), 0..n_strata-1. Per stratum: ``N1, W1, p1, var1`` =
    the group's seat-games, wins, rate and the variance of the rate, and with a second group
    ``N2, W2, p2, var2, var_d`` (``var_d`` that of ``p1 - p2``, both measured on the same
    games). The variance is the linearised (sandwich, "cluster-robust") one: with
    u_g = (w_g - p n_g) / N the rate's influence of game g, var = G/(G-1) * sum u_g^2 over the
    G games of the stratum (for ratio estimators, e.g. W. G. Cochran, *Sampling Techniques*,
    3rd ed., 1977, sec. 6.4 and 11.7, cluster sampling with clusters of unequal size).
    It is exact for any correlation inside a game; with one seat-game a game it is the
    binomial variance up to the factor G/(G-1)."""
    s = np.asarray(stratum)
    games = np.bincount(s, minlength=n_strata).astype(float)
    corr = np.divide(games, games - 1, out=np.ones(n_strata), where=games > 1)

    def side(n: np.ndarray, w: np.ndarray):
        nn = np.bincount(s, weights=n, minlength=n_strata)
        ww = np.bincount(s, weights=w, minlength=n_strata)
        p = np.divide(ww, nn, out=np.full(n_strata, np.nan), where=nn > 0)
        safe_n = np.where(nn > 0, nn, 1.0)
        u = (w - np.nan_to_num(p)[s] * n) / safe_n[s]
        var = corr * np.bincount(s, weights=u * u, minlength=n_strata)
        return nn, ww, p, np.where(nn > 0, var, np.nan), u

    out: dict[str, np.ndarray] = {}
    out["N1"], out["W1"], out["p1"], out["var1"], u1 = side(n1, w1)
    if n2 is not None and w2 is not None:
        out["N2"], out["W2"], out["p2"], out["var2"], u2 = side(n2, w2)
        d = u1 - u2
        vd = corr * np.bincount(s, weights=d * d, minlength=n_strata)
        out["var_d"] = np.where((out["N1"] > 0) & (out["N2"] > 0), vd, np.nan)
    return out


def widen(est: ArrayLike, lo: ArrayLike, hi: ArrayLike, var: ArrayLike, var_indep: ArrayLike,
          bounds: tuple[float, float] = (0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """An interval made for independent draws, rescaled about ``est`` by the square root of
    the design effect ``var / var_indep`` (wider when the draws are positively correlated,
    narrower when negatively), clipped to ``bounds``; unchanged where either variance is
    not positive. For the large counts of a study this is close to the same interval made
    with the effective sample size n / deff, as for survey data (E. L. Korn and
    B. I. Graubard, *Survey Methodology* 24, 1998, 193-201)."""
    e, lo_a, hi_a = np.asarray(est, float), np.asarray(lo, float), np.asarray(hi, float)
    v, vi = np.asarray(var, float), np.asarray(var_indep, float)
    ok = (v > 0) & (vi > 0)
    f = np.sqrt(np.divide(v, vi, out=np.ones_like(e * v), where=ok))
    return (np.clip(e - (e - lo_a) * f, bounds[0], bounds[1]),
            np.clip(e + (hi_a - e) * f, bounds[0], bounds[1]))
