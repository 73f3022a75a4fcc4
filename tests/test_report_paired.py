"""The paired differences of the robustness verdicts (kutsch_sim.report.paired): each headline
number rebuilt from per-game terms is the number the tables give; on the same deals the
difference of two rungs has the paired standard error of a direct computation (a plain rate:
the paired t standard error; a ratio and the Drink's on − off: a paired bootstrap over deals),
narrower than the independent one when the rungs are positively correlated, and no narrower
when they are not.

The games come from ``make_games`` and ``replay`` (tests/_helpers_report.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.report import paired as pr
from kutsch_sim.report import robustness as rob
from kutsch_sim.report import tables
from kutsch_sim.report.stats import z_value

from _helpers_report import concat, make_games, replay

pytestmark = pytest.mark.apart  # tables of made-up records: no kernel runs


def _deals(games: int = 2000) -> pd.DataFrame:
    """4 and 5 players with and without the Loge, and the Drink off at 5 on the same deals as on."""
    parts = [make_games(games, p, s, seed=7 + 3 * p + i, p_minority=0.4)
             for p in (4, 5) for i, s in enumerate(("basic", "basic+Loge"))]
    # 5 players, basic: the same deals with the Drink off, played apart (the smaller team wins less)
    parts.append(replay(parts[2], 0.3, 0.0, seed=9).assign(drink=False))
    return concat(parts)


def _ladder(keep: float, games: int = 2000) -> dict[str, pd.DataFrame]:
    """Two rungs on the same deals; ``keep``: how much of the first play each keeps."""
    base = _deals(games)
    return {"low": replay(base, 0.45, keep, seed=1), "high": replay(base, 0.55, keep, seed=2)}


def _values(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return rob.ladder_values({r: rob.rung_tables(f) for r, f in frames.items()})


def _diffs(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return pr.rung_differences(frames, _values(frames)).set_index(["headline", "players"])


def test_the_terms_give_the_tables_numbers():
    """Every headline number rebuilt from its per-game terms is the one the rung's tables give,
    the Loge, the Drink of Power on − off and the best occupation's edge included."""
    d = _ladder(0.5)["high"]
    v = rob.headline_values(tables.build_tables(d))
    occ = v.loc[v["headline"] == "occupation", "subject"].item()
    terms = pr.number_terms(d, occ)
    assert set(zip(v["headline"], v["players"], strict=True)) <= set(terms)
    for r in v.itertuples():
        est = sum(s * a.sum() / b.sum() for s, a, b in terms[(r.headline, r.players)])
        assert est == pytest.approx(r.estimate, abs=1e-12), (r.headline, r.players)
    diffs = _diffs(_ladder(0.5))
    values = _values(_ladder(0.5)).set_index(["headline", "players", "rung"])["estimate"]
    for (key, players), r in diffs.iterrows():
        assert r["diff"] == pytest.approx(values[(key, players, "high")] - values[(key, players, "low")], abs=1e-12)


def test_the_drink_on_and_off_games_of_a_deal_are_one_deal():
    frames = _ladder(0.5, games=50)
    deals, stratum = pr.deal_codes(frames)
    f = frames["low"]
    code = pd.Series(deals["low"])
    key = f["players"].astype(str) + f["item_set"].astype(str) + f["game"].astype(str)
    assert code.groupby(key.to_numpy()).nunique().max() == 1  # Drink on and off: one code
    assert code.nunique() == 4 * 50 and (deals["low"] == deals["high"]).all()
    assert len(np.unique(stratum)) == 4  # players x item set


def _won(frame: pd.DataFrame, players: int, item_set: str) -> np.ndarray:
    """The smaller team won, per game of one configuration with the Drink on, in game order."""
    g = frame[(frame["players"] == players) & (frame["item_set"] == item_set) & frame["drink"]].sort_values("game")
    return (g["winner"].astype(str).to_numpy() == g["minority"].astype(str).to_numpy()).astype(float)


def test_a_rate_has_the_paired_t_standard_error():
    """The smaller team's win rate of one configuration: the standard error of its difference is
    sd(x_high - x_low) / sqrt(n) over the deals; pooled over two configurations, the stratified one."""
    frames = {"low": replay(make_games(3000, 5, seed=3), 0.45, 0.6, seed=1),
              "high": replay(make_games(3000, 5, seed=3), 0.55, 0.6, seed=2)}
    se = _diffs(frames).loc[("smaller", 5), "se"]
    delta = _won(frames["high"], 5, "basic") - _won(frames["low"], 5, "basic")
    assert se == pytest.approx(delta.std(ddof=1) / np.sqrt(len(delta)), rel=1e-9)
    frames = _ladder(0.6)
    se = _diffs(frames).loc[("smaller", 5), "se"]
    parts = [_won(frames["high"], 5, s) - _won(frames["low"], 5, s) for s in ("basic", "basic+Loge")]
    n = sum(len(p) for p in parts)
    assert se == pytest.approx(np.sqrt(sum((len(p) / n) ** 2 * p.var(ddof=1) / len(p) for p in parts)), rel=1e-9)


def test_correlated_rungs_get_a_narrower_interval_than_independent_ones():
    """Rungs that keep 80% of their play (a correlation of about 0.64): the paired interval is about
    0.6 times the independent one (read off the two rungs' 95% intervals); rungs that share nothing
    but the deals: about as wide."""
    z = z_value()
    for keep, lo_ratio, hi_ratio in ((0.8, 0.0, 0.7), (0.0, 0.85, 1.15)):
        frames = _ladder(keep)
        values = _values(frames).set_index(["headline", "players", "rung"])
        diffs = _diffs(frames)
        for key in [("order", 4), ("smaller", 5), ("drink", 5), ("seat", 4)]:
            a, b = values.loc[(*key, "high")], values.loc[(*key, "low")]
            indep = np.hypot((a["hi"] - a["lo"]) / 2, (b["hi"] - b["lo"]) / 2)
            ratio = z * diffs.loc[key, "se"] / indep
            assert lo_ratio < ratio < hi_ratio, (keep, key, ratio)


def test_a_ratio_and_the_drink_match_a_paired_bootstrap_over_deals():
    """The Order's share of team wins pooled over two item sets (a ratio of sums) and the Drink of
    Power on − off (two ratios on the same deals): the linearised standard error is that of a
    paired bootstrap, which resamples each configuration's deals, the same deals at both rungs and
    for the Drink on and off."""
    frames = _ladder(0.5)
    diffs = _diffs(frames)
    rng = np.random.default_rng(0)
    draws = 2000

    def per_deal(f, players, item_set, drink=True):
        g = f[(f["players"] == players) & (f["item_set"] == item_set) & (f["drink"] == drink)].sort_values("game")
        w, m = g["winner"].astype(str).to_numpy(), g["minority"].astype(str).to_numpy()
        return {"order": (w == "order").astype(float), "team": np.isin(w, ["order", "brotherhood"]).astype(float),
                "smaller": (w == m).astype(float)}

    def boot(stat, cells):
        """``stat`` of each rung's resampled sums, high - low, over ``draws`` stratified resamples."""
        out = np.zeros(draws)
        idx = {c: rng.integers(0, 2000, (draws, 2000)) for c in cells}
        for sign, r in ((1, "high"), (-1, "low")):
            out += sign * stat(r, idx)
        return out.std(ddof=1)

    cols = {(r, p, s, on): per_deal(frames[r], p, s, on) for r in frames for p in (4, 5)
            for s in ("basic", "basic+Loge") for on in (True, False) if on or (p, s) == (5, "basic")}

    def order(r, idx):
        num = sum(cols[(r, 4, s, True)]["order"][idx[s]].sum(axis=1) for s in ("basic", "basic+Loge"))
        den = sum(cols[(r, 4, s, True)]["team"][idx[s]].sum(axis=1) for s in ("basic", "basic+Loge"))
        return num / den

    def drink(r, idx):
        i = idx["basic"]
        return cols[(r, 5, "basic", True)]["smaller"][i].mean(axis=1) - cols[(r, 5, "basic", False)]["smaller"][i].mean(axis=1)

    assert boot(order, ("basic", "basic+Loge")) == pytest.approx(diffs.loc[("order", 4), "se"], rel=0.06)
    assert boot(drink, ("basic",)) == pytest.approx(diffs.loc[("drink", 5), "se"], rel=0.06)
