"""Tests of the balance report (kutsch_sim.report): the synthetic generator, the intervals
and the tables, recomputed with plain pandas (sections, findings and rendering:
tests/test_report_sections.py).

The games come from ``make_games`` (tests/_helpers_report.py): a synthetic per-game frame
that follows ``docs/results_schema.md`` column by column, with win rates we choose, so every
table can be checked against a few lines of plain pandas and against the truth.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kutsch_sim.enums import CARD_KIND_LIST, IK, MAX_PLAYERS
from kutsch_sim.report import data as rdata
from kutsch_sim.report import stats, tables

from _helpers_report import concat, make_games, make_study

pytestmark = pytest.mark.apart  # tables and plots of made-up records: no kernel runs


# ---------------------------------------------------------------- the generator follows the schema
def _schema_columns() -> list[str]:
    """Column names of docs/results_schema.md (its first table, before the manifest's
    section), ``{p}`` expanded to 0..9."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "results_schema.md").read_text()
    text = text.split("\n## ", 1)[0]
    names = []
    for line in text.splitlines():
        parts = [x.strip() for x in line.split("|")]
        if len(parts) > 2 and parts[1] not in ("column", "---", "") and not parts[1].startswith("-"):
            names.append(parts[1])
    out = []
    for name in names:
        out += [name.replace("{p}", str(p)) for p in range(MAX_PLAYERS)] if "{p}" in name else [name]
    return out


def test_generator_follows_schema():
    df = make_games(50, 5, "basic+Loge")
    assert sorted(df.columns) == sorted(_schema_columns())
    assert df["players"].dtype == np.int8 and df["turns"].dtype == np.int16 and df["loge_ever"].dtype == np.int16
    assert df["seed"].dtype == np.uint64 and df["items_0"].dtype == np.int32
    # every seat in play holds one card (two at 3 players), no card twice
    hands = np.column_stack([df[f"items_{p}"] for p in range(MAX_PLAYERS)])
    counts = np.vectorize(lambda x: int(x).bit_count())(hands)
    assert (counts[:, :5] == 1).all() and (counts[:, 5:] == 0).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == hands.sum(axis=1)).all()
    # teams: 3 + 2 at 5 players; the minority is the team with 2
    teams = df[[f"team_{p}" for p in range(5)]].astype(str)
    n_minority = (teams.to_numpy() == df["minority"].astype(str).to_numpy()[:, None]).sum(axis=1)
    assert (n_minority == 2).all()


def test_generator_matches_records_to_frame():
    """Same columns and dtypes as the real labelling code, when it can be imported."""
    results = pytest.importorskip("kutsch_sim.sim.results")
    from kutsch_sim.enums import N_REC

    real = results.records_to_frame(np.zeros((3, N_REC), np.int32), players=4, item_set="basic",
                                    bots=("smart",) * 4, variant="base", drink=True, seed=1, game_start=0)
    ours = make_games(3, 4)
    assert list(real.columns) == list(ours.columns)
    assert [str(t) for t in real.dtypes] == [str(t) for t in ours.dtypes]


# ---------------------------------------------------------------- intervals
@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998a), Wilson score without continuity correction
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_published_values(k, n, lo, hi):
    got = stats.wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5) and got[1] == pytest.approx(hi, abs=5e-5)


@pytest.mark.parametrize(("a", "m", "b", "n", "d", "lo", "hi"), [
    (56, 70, 48, 80, 0.2, 0.0524, 0.3339),  # Newcombe (1998b) Table II, method 10
    (9, 10, 3, 10, 0.6, 0.1705, 0.8090),
    (6, 7, 2, 7, 4 / 7, 0.0582, 0.8062),
    (5, 56, 0, 29, 5 / 56, -0.0381, 0.1926),
])
def test_newcombe_published_values(a, m, b, n, d, lo, hi):
    got = stats.newcombe_diff(a, m, b, n)
    assert got[0] == pytest.approx(d, abs=1e-12)
    assert got[1] == pytest.approx(lo, abs=5e-5) and got[2] == pytest.approx(hi, abs=5e-5)


@pytest.mark.parametrize(("a", "b", "c", "d", "lo", "hi"), [
    # Cavo et al. 2012, the worked example of Fagerland, Lydersen & Laake, "Statistical Analysis of
    # Contingency Tables", ch. 8 (Newcombe square-and-add): -0.0621 (-0.1186 to -0.0046)
    (59, 6, 16, 80, -0.1186, -0.0046),
])
def test_newcombe_paired_published_values(a, b, c, d, lo, hi):
    from kutsch_sim.report.stats import newcombe_paired

    est, got_lo, got_hi = newcombe_paired(a, b, c, d)
    assert est == pytest.approx((b - c) / (a + b + c + d))
    assert (got_lo, got_hi) == pytest.approx((lo, hi), abs=5e-4)


def test_newcombe_paired_matches_the_normal_interval_with_many_pairs_and_is_honest_with_few():
    from kutsch_sim.report.stats import newcombe_paired, paired_diff

    n, b, c = 10_000, 300, 200
    est, lo, hi = newcombe_paired(5000, b, c, n - 5000 - b - c)
    half = 1.959964 * np.sqrt(((b + c) / n - est**2) / n)
    assert (lo, hi) == pytest.approx((est - half, est + half), abs=2e-4)
    # 4 games changed, all one way, of 2,000: a normal interval would exclude 0, this one does not
    x = np.zeros(2000, bool)
    x[:4] = True
    est, lo, hi = paired_diff(x, np.zeros(2000, bool))
    assert est == pytest.approx(0.002) and lo < 0 < hi < 0.01
    assert paired_diff(x, x)[1] < 0 < paired_diff(x, x)[2]  # no discordant pair: an interval around 0


def test_interval_edges_and_vectorisation():
    lo, hi = stats.wilson([0, 10, 5, 0], [10, 10, 10, 0])
    assert lo[0] == 0 and 0 < hi[0] < 1 and hi[1] == 1 and 0 < lo[1] < 1
    assert np.isnan(lo[3]) and np.isnan(hi[3])
    assert lo[2] == pytest.approx(1 - hi[2])  # symmetric at p = 1/2
    lo99, hi99 = stats.wilson(5, 10, level=0.99)
    assert lo99 < lo[2] and hi99 > hi[2]
    d, dlo, dhi = stats.newcombe_diff([1, 3], [0, 10], [2, 3], [5, 10])
    assert np.isnan(d[0]) and np.isnan(dlo[0]) and d[1] == 0 and dlo[1] < 0 < dhi[1]
    with pytest.raises(ValueError):
        stats.wilson(1, 2, level=1.0)
    f = stats.rate_frame([0, 3], [0, 4])
    assert list(f.columns) == ["n", "wins", "rate", "lo", "hi"] and np.isnan(f["rate"][0]) and f["rate"][1] == 0.75


@given(st.integers(0, 10_000), st.integers(0, 10_000), st.floats(0.5, 0.999))
@settings(max_examples=200, deadline=None)
def test_wilson_contains_estimate(k, extra, level):
    n = k + extra
    lo, hi = stats.wilson(k, n, level)
    if n == 0:
        assert np.isnan(lo) and np.isnan(hi)
    else:
        assert 0 <= lo <= k / n <= hi <= 1


# ---------------------------------------------------------------- tables, recomputed with plain pandas
@pytest.fixture(scope="module")
def study() -> pd.DataFrame:
    return make_study(games=400, seed=3, counts=range(3, 8))


@pytest.fixture(scope="module")
def built(study) -> dict[str, pd.DataFrame]:
    return tables.build_tables(study)


def _std(df: pd.DataFrame) -> pd.DataFrame:
    """The standard runs, as the report's recompute snippet selects them."""
    return df[(df.variant == "base") & (df.drink | (df.players % 2 == 0))]


def test_outcome_rates_recompute(study, built):
    std = _std(study)
    want = std.groupby(["players", "item_set"], observed=True).winner.value_counts(normalize=True)
    got = built["outcomes"].set_index(["players", "item_set", "outcome"])["rate"]
    for (players, item_set, outcome), rate in got.items():
        assert rate == pytest.approx(want.get((players, item_set, outcome), 0.0))
    row = built["outcomes"].iloc[0]
    assert (row["lo"], row["hi"]) == pytest.approx(tuple(float(x) for x in stats.wilson(row["wins"], row["n"])))
    assert set(built["outcomes"]["outcome"]) == {"order", "brotherhood", "solo", "timeout"}


def test_order_share_and_minority_recompute(study, built):
    std = _std(study)
    team = std[std.winner.isin(["order", "brotherhood"])]
    share = team.assign(o=team.winner == "order").groupby(["players", "item_set"], observed=True).o.mean()
    got = built["order_share"].set_index(["players", "item_set"])["rate"]
    assert got.to_numpy() == pytest.approx(share.reindex(got.index).to_numpy())
    odd = std[std.players % 2 == 1]
    minority = (odd.winner.astype(str) == odd.minority.astype(str)).groupby(odd.players).mean()
    m = built["minority"]
    got = m[(m.item_set == "all") & (m.team == "minority")].set_index("players")["rate"]
    assert got.to_numpy() == pytest.approx(minority.reindex(got.index).to_numpy())


def test_drink_effect_recompute(study, built):
    odd = study[study.players % 2 == 1]
    won = odd.winner.astype(str) == odd.minority.astype(str)
    both = odd.item_set.isin(["basic", "full"])
    rate = won[both].groupby([odd.players[both], odd.drink[both]]).mean().unstack()
    e = built["drink_effect"]
    got = e[(e.item_set == "all") & (e.team == "minority")].set_index("players")
    assert got["diff"].to_numpy() == pytest.approx((rate[True] - rate[False]).reindex(got.index).to_numpy())
    assert (got["diff_lo"] < got["diff"]).all() and (got["diff"] < got["diff_hi"]).all()
    assert (got["diff_lo"] > 0).all()  # the generator gives the minority 45% vs 35% of team games
    assert set(e.item_set) == {"basic", "full", "all"}


def test_loge_and_added_item_recompute(study, built):
    std = _std(study)
    solo = std[std.item_set.isin(["basic+Loge", "full"])]
    want = (solo.winner == "solo").groupby([solo.players, solo.item_set.astype(str)]).mean()
    got = built["solo"].set_index(["players", "item_set"])["rate"]
    assert got.to_numpy() == pytest.approx(want.reindex(got.index).to_numpy())
    lt = built["loge_team"]
    assert set(zip(lt.set_without, lt.set_with, strict=True)) == {("basic", "basic+Loge"), ("full-Loge", "full")}
    r = lt[(lt.players == 4) & (lt.set_with == "full") & (lt.outcome == "team")].iloc[0]
    team = std.winner.isin(["order", "brotherhood"])
    want = team[(std.players == 4) & (std.item_set == "full")].mean() - \
        team[(std.players == 4) & (std.item_set == "full-Loge")].mean()
    assert r["diff"] == pytest.approx(want)
    a = built["added_items"]
    assert set(a["item"]) == {"Tome", "Coat", "Sextant", "Broken Mirror", "Coat of Armor of the Loge"}
    r = a[(a.players == 5) & (a.item == "Tome") & (a.outcome == "timeout")].iloc[0]
    t = std.winner == "timeout"
    want = t[(std.players == 5) & (std.item_set == "basic+Tome")].mean() - \
        t[(std.players == 5) & (std.item_set == "basic")].mean()
    assert r["diff"] == pytest.approx(want)


def _seat_long_pandas(df: pd.DataFrame) -> pd.DataFrame:
    """The seat-level view, the slow obvious way (one frame per seat, then concatenated)."""
    parts = []
    for p in range(MAX_PLAYERS):
        f = df[df.players > p]
        win = (f[f"team_{p}"].astype(str) == f.winner.astype(str)) | ((f.winner == "solo") & (f.solo_seat == p))
        parts.append(pd.DataFrame({"players": f.players, "seat": p, "occ": f[f"occ_{p}"].astype(str),
                                   "items": f[f"items_{p}"], "win": win,
                                   "ever": (f.loge_ever.to_numpy().astype(int) >> p) & 1 == 1,
                                   "loge": f.item_set.isin(["basic+Loge", "full"])}))
    return pd.concat(parts, ignore_index=True)


def test_seat_tables_recompute(study, built):
    std = _std(study)
    long = _seat_long_pandas(std)
    assert len(rdata.seat_frame(std)) == len(long) == int(std.players.astype(int).sum())
    want = long.groupby(["players", "seat"]).win.mean()
    got = built["seats"].set_index(["players", "seat"])["rate"]
    assert got.to_numpy() == pytest.approx(want.reindex(got.index).to_numpy())
    want = long.groupby("occ").win.mean().rename(index=rdata.occupation_name)
    got = built["occupations"].set_index("occupation")["rate"]
    assert got.to_numpy() == pytest.approx(want.reindex(got.index).to_numpy())
    key_mask = sum(1 << c for c, k in enumerate(CARD_KIND_LIST) if k == IK.KEY)
    has_key = (long["items"] & key_mask) != 0
    r = built["start_items"].set_index("item").loc["Key"]
    assert r["rate_with"] == pytest.approx(long.win[has_key].mean())
    assert r["rate_without"] == pytest.approx(long.win[~has_key].mean())
    assert "Tome" not in set(built["start_items"]["item"])  # unstamped: never in a starting hand
    h = built["loge_holder"].set_index(["players", "holder"])
    lg = long[long.loge & (long.players == 6)]
    assert h.loc[(6, "held it at some point"), "rate"] == pytest.approx(lg.win[lg.ever].mean())
    assert h.loc[(6, "never held it"), "rate"] == pytest.approx(lg.win[~lg.ever].mean())


def test_length_and_declaration_tables(study, built):
    std = _std(study)
    g = built["lengths"].set_index("players")
    assert g["median"].to_numpy() == pytest.approx(std.groupby("players").turns.median().to_numpy())
    w = built["wrong_decl"]
    got = w[w.per == "game"].set_index("players")["rate"]
    assert got.to_numpy() == pytest.approx(std.groupby("players").wrong_decl.mean().to_numpy())
    d = built["declarations"]
    total = d[d.how != DRINK_LABEL].groupby("players").wins.sum() + \
        d[d.how == DRINK_LABEL].groupby("players").wins.sum().reindex([3, 4, 5, 6, 7], fill_value=0)
    assert (total == std.groupby("players").size()).all()  # every game ended one way
    assert set(d[d.how == DRINK_LABEL].players) == {3, 5, 7}  # no Drink of Power at even counts


DRINK_LABEL = tables.DECLARATION_LABELS["drink"]


def test_estimates_cover_the_truth():
    """Large synthetic runs with known rates: the 95% intervals cover them."""
    df = concat([make_games(20_000, 4, p_order=0.6, p_timeout=0.1, seed=11),
                 make_games(20_000, 7, p_minority=0.3, seed=12)])
    share = tables.order_share(df).set_index("players").loc[4]
    assert share["lo"] < 0.6 < share["hi"]
    out = tables.outcome_rates(df).set_index(["players", "outcome"])
    assert out.loc[(4, "timeout"), "lo"] < 0.1 < out.loc[(4, "timeout"), "hi"]
    m = tables.minority_rates(df)
    r = m[(m.item_set == "all") & (m.team == "minority")].iloc[0]
    assert r["lo"] < 0.3 * 0.95 < r["hi"]  # minority wins 30% of the 95% non-timeout games
