"""Paired differences of the headline numbers between skill rungs that played the same deals.

Every headline number of :mod:`.robustness` is, at one rung, a sum of ratios of per-game sums,
``theta = sum_k s_k * A_k / B_k`` with ``A_k = sum_g a_kg`` and ``B_k = sum_g b_kg`` over the games
of some configurations (:func:`number_terms`): the Order's share of team wins is one ratio (Order
wins over team wins), a rate minus the average seat's is two, the Drink of Power's effect is the
rate on minus the rate off over the same deals. A ladder's rungs play the same deals (the same
seed, configuration and game index), so two rungs' values of a number are measured on the same
games and their difference should be judged game by game.

The interval of a difference is the linearised (delta-method) one, clustered by deal and
stratified by configuration: with ``u_g = sum_k s_k (a_kg - R_k b_kg) / B_k`` the influence of
deal g on ``theta`` at a rung (``R_k = A_k / B_k``; a deal's Drink-on and Drink-off games, the
same deal, count together), the difference of rungs i and j has, per deal, ``u_g(i) - u_g(j)``,
and its variance is ``sum_s G_s/(G_s-1) sum_{g in s} (d_g - mean_s d)^2`` over the configurations
s (players x item set) and their ``G_s`` deals. This is the large-sample limit of a paired
bootstrap over deals (the same resample of deal indices at every rung, within each
configuration), deterministic and a few ``bincount`` calls; for a plain rate it is the paired
t standard error, ``sd(x_i - x_j) / sqrt(G)``. tests/test_report_paired.py checks it against
such a bootstrap. Two configurations compared with each other (the Loge in the deck or not) are
different deals, so they are independent strata, each paired across the rungs on its own deals.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from ..enums import IK
from .data import (
    OUTCOMES,
    TEAMS,
    codes,
    item_set_index,
    normalize,
    occupation_name,
    seat_frame,
    standard_runs,
    standard_variant,
)

Term = tuple[float, np.ndarray, np.ndarray]  # sign, a per game, b per game (the rung's rows)
DEAL_KEYS = ["players", "item_set", "seed", "game"]  # a deal: the Drink switch is not part of it
DIFF_COLUMNS = ["headline", "players", "high", "low", "estimate_high", "estimate_low", "diff", "se"]
ORDER, BROTHERHOOD, SOLO = (OUTCOMES.index(o) for o in ("order", "brotherhood", "solo"))


def _loge_pairs(sets: list[str]) -> list[tuple[str, str]]:
    """(set without the Loge, set with it) for each item set with the Loge whose twin without it
    is present: the pairs of :func:`.tables.loge_team_effect`."""
    index = item_set_index(sets)
    by_kinds = {kinds: label for label, kinds in index.items()}
    return sorted((by_kinds[k - {IK.LOGE}], s) for s, k in index.items()
                  if IK.LOGE in k and (k - {IK.LOGE}) in by_kinds)


def number_terms(d: pd.DataFrame, occupation: str = "") -> dict[tuple[str, int], list[Term]]:
    """Each headline number of one rung's games ``d`` as ratio terms over its rows, keyed by
    (headline, players), so that ``sum(s * a.sum() / b.sum())`` is the value
    :func:`.robustness.headline_values` reads off the rung's tables; ``occupation``: the display
    name of the rung's best occupation (its edge is that occupation's)."""
    d = normalize(d)
    n = len(d)
    std = np.zeros(n, bool)
    std[standard_runs(d.assign(_row=np.arange(n)))["_row"].to_numpy()] = True
    players, drink = d["players"].to_numpy(), d["drink"].to_numpy(bool)
    sets = d["item_set"].astype(str).to_numpy()
    w, m = codes(d["winner"], OUTCOMES), codes(d["minority"], TEAMS)
    team = ((w == ORDER) | (w == BROTHERHOOD)).astype(float)
    order, solo = (w == ORDER).astype(float), (w == SOLO).astype(float)
    smaller = ((m >= 0) & (w == m)).astype(float)
    seats = seat_frame(d)
    row, win = seats["game_row"].to_numpy(), seats["win"].to_numpy(bool)
    wins_all = np.bincount(row, weights=win, minlength=n)
    seat0 = np.bincount(row, weights=win & (seats["seat"].to_numpy() == 0), minlength=n)
    keys = [k for k in seats["occ"].cat.categories if occupation_name(k) == occupation]
    has = np.bincount(row, weights=seats["occ"].isin(keys).to_numpy(), minlength=n)
    has_won = np.bincount(row, weights=seats["occ"].isin(keys).to_numpy() & win, minlength=n)
    size = players.astype(float)
    base = (d["variant"] == standard_variant(d)).to_numpy()
    loge_sets = [s for s, k in item_set_index(sorted(set(sets[std]))).items() if IK.LOGE in k]
    pairs = _loge_pairs(sorted(set(sets[std])))
    out: dict[tuple[str, int], list[Term]] = {}
    for p in (int(x) for x in np.unique(players)):
        at = (std & (players == p)).astype(float)
        if p % 2 == 0:
            out[("order", p)] = [(1.0, order * at, team * at)]
        else:
            on = at * drink
            out[("smaller", p)] = [(1.0, smaller * on, on)]
            cell = base & (players == p)
            both = [s for s in set(sets[cell]) if len(set(drink[cell & (sets == s)])) == 2]
            cell = cell & np.isin(sets, both)
            if cell.any():
                out[("drink", p)] = [(1.0, smaller * (cell & drink), (cell & drink).astype(float)),
                                     (-1.0, smaller * (cell & ~drink), (cell & ~drink).astype(float))]
        with_loge = at * np.isin(sets, loge_sets)
        if with_loge.any():
            out[("solo", p)] = [(1.0, solo * with_loge, with_loge)]
        here = set(sets[at > 0])
        now = [(a, b) for a, b in pairs if a in here and b in here]
        if now:
            inn = sum(at * (sets == b) for _, b in now)
            out_ = sum(at * (sets == a) for a, _ in now)
            out[("loge", p)] = [(1.0, team * inn, inn), (-1.0, team * out_, out_)]
        out[("seat", p)] = [(1.0, seat0 * at, at), (-1.0, wins_all * at, size * at)]
    if occupation:
        s = std.astype(float)
        out[("occupation", 0)] = [(1.0, has_won * s, has * s), (-1.0, wins_all * s, size * s)]
    return out


def _influence(terms: list[Term], deal: np.ndarray, n_deals: int) -> tuple[float, np.ndarray | None]:
    """(theta, its influence per deal) of one number at one rung; (NaN, None) if a ratio has no
    denominator."""
    est, u = 0.0, np.zeros(n_deals)
    for s, a, b in terms:
        big_a, big_b = float(a.sum()), float(b.sum())
        if big_b <= 0:
            return float("nan"), None
        r = big_a / big_b
        est += s * r
        u += s * np.bincount(deal, weights=a - r * b, minlength=n_deals) / big_b
    return est, u


def stratified_var(u: np.ndarray, stratum: np.ndarray, n_strata: int) -> float:
    """``sum_s G_s/(G_s-1) sum_{g in s} (u_g - mean_s u)^2``: the variance of a sum of per-deal
    influences ``u`` when each stratum (configuration) holds a fixed number ``G_s`` of deals drawn
    independently (``stratum``: each deal's, 0..n_strata-1)."""
    g = np.bincount(stratum, minlength=n_strata).astype(float)
    mean = np.divide(np.bincount(stratum, weights=u, minlength=n_strata), g, out=np.zeros(n_strata), where=g > 0)
    ss = np.bincount(stratum, weights=(u - mean[stratum]) ** 2, minlength=n_strata)
    return float((ss * np.divide(g, g - 1, out=np.zeros(n_strata), where=g > 1)).sum())


def deal_codes(frames: dict[object, pd.DataFrame]) -> tuple[dict[object, np.ndarray], np.ndarray]:
    """Each rung's rows as deal codes shared by all rungs (a deal: players, item set, seed, game
    index) and each deal's stratum (its players x item set)."""
    keys = pd.concat([pd.DataFrame({"players": f["players"].astype(int).to_numpy(),
                                    "item_set": f["item_set"].astype(str).to_numpy(),
                                    "seed": f["seed"].astype(np.uint64).to_numpy(),
                                    "game": f["game"].astype(np.int64).to_numpy()}) for f in frames.values()],
                     ignore_index=True)
    deal = keys.groupby(DEAL_KEYS, sort=True).ngroup().to_numpy()
    cell = keys.groupby(DEAL_KEYS[:2], sort=True).ngroup().to_numpy()
    stratum = np.zeros(int(deal.max()) + 1 if len(deal) else 0, np.int64)
    stratum[deal] = cell
    bounds = np.cumsum([0] + [len(f) for f in frames.values()])
    return {r: deal[bounds[i]:bounds[i + 1]] for i, r in enumerate(frames)}, stratum


def rung_differences(frames: dict[object, pd.DataFrame], values: pd.DataFrame) -> pd.DataFrame:
    """The paired difference of every headline number between every two of ``frames`` (rung ->
    its games, weakest first; they must have played the same deals, :func:`.robustness.same_deals`),
    for the numbers ``values`` (:func:`.robustness.ladder_values`) has at both: :data:`DIFF_COLUMNS`,
    ``diff`` = the stronger rung's value minus the weaker one's, ``se`` its standard error."""
    deals, stratum = deal_codes(frames)
    n_deals, n_strata = len(stratum), int(stratum.max()) + 1 if len(stratum) else 0
    have = values.set_index(["headline", "players", "rung"])
    infl: dict[object, dict] = {}
    for r, f in frames.items():
        occ = values[(values["rung"] == str(r)) & (values["headline"] == "occupation")]["subject"]
        terms = number_terms(f, str(occ.iloc[0]) if len(occ) else "")
        infl[r] = {k: _influence(t, deals[r], n_deals) for k, t in terms.items()
                   if (k[0], k[1], str(r)) in have.index}
    rows = []
    for lo, hi in combinations(frames, 2):
        for k in infl[hi].keys() & infl[lo].keys():
            (e_hi, u_hi), (e_lo, u_lo) = infl[hi][k], infl[lo][k]
            se = np.sqrt(stratified_var(u_hi - u_lo, stratum, n_strata)) if u_hi is not None and u_lo is not None \
                else float("nan")
            rows.append({"headline": k[0], "players": k[1], "high": str(hi), "low": str(lo), "estimate_high": e_hi,
                         "estimate_low": e_lo, "diff": e_hi - e_lo, "se": float(se)})
    return pd.DataFrame(rows, columns=DIFF_COLUMNS)
