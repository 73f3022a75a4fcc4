"""Tests of the report's sections, plots and findings, the written report and the
clustered variances (the generator, intervals and tables: tests/test_report.py).

The games come from ``make_games`` and ``make_study`` (tests/_helpers_report.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.enums import IK
from kutsch_sim.report import data as rdata
from kutsch_sim.report import findings as rfind
from kutsch_sim.report import sections as rsec
from kutsch_sim.report import stats, tables
from kutsch_sim.report.render import write_report

from _helpers_report import concat, make_games, make_study

pytestmark = pytest.mark.apart  # tables and plots of made-up records: no kernel runs


@pytest.fixture(scope="module")
def study() -> pd.DataFrame:
    return make_study(games=400, seed=3, counts=range(3, 8))


@pytest.fixture(scope="module")
def built(study) -> dict[str, pd.DataFrame]:
    return tables.build_tables(study)


def test_partitioned_store_round_trip(tmp_path, study):
    """A Parquet store partitioned by configuration loads back to the same tables."""
    small = study[study.players.isin([4, 5])]
    small.to_parquet(tmp_path / "store", partition_cols=["players", "item_set", "drink"])
    loaded = rdata.load_results(tmp_path / "store")
    assert loaded["players"].dtype == np.int8 and loaded["drink"].dtype == bool
    a = tables.outcome_rates(small).sort_values(["players", "item_set", "outcome"], ignore_index=True)
    b = tables.outcome_rates(loaded).sort_values(["players", "item_set", "outcome"], ignore_index=True)
    pd.testing.assert_frame_equal(a, b, check_dtype=False)
    assert rdata.load_manifest(tmp_path / "store") is None
    (tmp_path / "store" / "manifest.json").write_text('{"seed": 5, "command": "kutsch-sim simulate"}')
    assert rdata.load_manifest(tmp_path / "store")["seed"] == 5


def test_item_set_parsing():
    assert IK.LOGE in rdata.item_set_kinds("basic+Loge")
    assert IK.LOGE not in rdata.item_set_kinds("full-Loge")
    assert rdata.item_set_kinds("basic") == rdata.basic_kinds()
    assert rdata.item_set_kinds("nonsense") is None


# ---------------------------------------------------------------- findings
def test_findings_rank_real_effects_first():
    df = concat([make_games(4000, 4, p_order=0.5, seed=21), make_games(4000, 6, p_order=0.62, seed=22),
                 make_games(4000, 8, p_order=0.5, seed=23)])
    f = rfind.rank_findings(tables.build_tables(df))
    assert list(f.columns) == rfind.COLUMNS
    assert (f["rank"] == np.arange(1, len(f) + 1)).all()
    order = f["verdict"].map(rfind.VERDICT_ORDER).to_numpy()
    assert (np.diff(order) >= 0).all()  # clear, then likely, then noise
    for verdict, group in f.groupby("verdict"):  # within a verdict: strongest evidence first
        dist = ((group["estimate"] - group["null"]).abs() / ((group["hi"] - group["lo"]) / 2)).to_numpy()
        assert (np.diff(dist) <= 1e-9).all(), verdict
    top = f.iloc[0]
    assert (top["topic"], top["players"], top["verdict"]) in {("team balance", 6, "clear"),
                                                              ("team balance by item set", 6, "clear")}
    assert top["lo"] < 0.62 < top["hi"] and top["lo_corrected"] < top["lo"]
    fair = f[(f["topic"] == "team balance") & (f["players"] == 4)].iloc[0]
    assert fair["verdict"] == "noise" and fair["lo"] < 0.5 < fair["hi"]
    assert fair["sentence"].endswith(": noise.")
    seats = f[f["topic"] == "seat"]
    assert len(seats) == 3 and (seats["verdict"] == "noise").all()  # no seat effect in the generator
    intro, real, noise_intro, noise = rfind.summary(f)
    tested = int((f["verdict"] != "descriptive").sum())
    assert f"{tested} checks form one family" in intro and real[0].startswith("**team balance")
    assert "**Noise**" in noise_intro and noise


def test_spread_interval_is_widened_for_picking_extremes():
    sp = pd.DataFrame({"what": "seat", "players": 4, "best": 3, "worst": 2, "k": 4, "best_rate": 0.54,
                       "worst_rate": 0.48, "diff": 0.06, "se": 0.02, "expected_gap": 0.03}, index=[0])
    (c,) = rfind._spreads(sp, None)
    assert (c.est, c.se, c.pairs, c.descriptive) == (0.06, 0.02, 6, False)
    row = rfind.evaluate(c, 10)
    lo95, hi95 = stats.normal_interval(0.06, 0.02)
    assert row["lo"] < lo95 and row["hi"] > hi95  # widened for the 6 pairs
    assert row["lo_corrected"] < row["lo"]  # and again for the family of 10
    assert row["level_corrected"] == pytest.approx(1 - 0.05 / 60)


# ---------------------------------------------------------------- the written report
def test_write_report_files(tmp_path, study):
    manifest = {"seed": 3, "rules_version": "1", "nested": {"skipped": True}}
    small = study[study.players.isin([4, 5])]  # every section has data; fewer panels to draw
    out = write_report(small, tmp_path / "rep", title="Synthetic study", command="kutsch-sim study --games 600",
                       manifest=manifest)
    rep = tmp_path / "rep"
    assert out == rep / "report.html"
    pngs = sorted(p.name for p in (rep / "figures").glob("*.png"))
    assert len(pngs) == 7
    assert {p.stem for p in (rep / "tables").glob("*.csv")} == set(tables.TABLE_NAMES) | {"findings", "answers"}
    page = out.read_text()
    md = (rep / "report.md").read_text()
    assert page.count('src="data:image/png;base64,') == len(pngs) and "<img src=\"figures" not in page
    assert "kutsch-sim study --games 600" in md.split("\n## ")[-1] and "kutsch-sim study --games 600" in page
    assert "rules_version" in md and "skipped" not in md
    for title in ("Answers", "Findings", "How the verdicts are made", "Who wins", "Drink of Power", "Coat of Armor of the Loge", "Seat advantage",
                  "Occupation strength", "Starting-item strength", "Unstamped items added to basic"):
        assert f"## {title}" in md and f"<h2>{title}</h2>" in page
    assert "<th></th>" not in page  # no stray index columns
    for png in pngs:
        assert f"figures/{png}" in md
    csv = pd.read_csv(rep / "tables" / "outcomes.csv")
    assert list(csv.columns) == ["players", "item_set", "outcome", "n", "wins", "rate", "lo", "hi"]


def test_write_report_says_what_is_missing(tmp_path):
    even = concat([make_games(300, 4), make_games(300, 6, seed=1)])
    t = tables.build_tables(even)
    text = " ".join(str(v) for s in (rsec.drink_section(t, None), rsec.loge_section(t, None),
                                     rsec.added_item_section(t)) for _, v in s.blocks)
    assert "No games at odd player counts" in text and "has the Coat of Armor of the Loge: nothing" in text
    assert "No runs with a single unstamped item" in text
    drink = rsec.drink_section(tables.build_tables(make_games(300, 5)), None)
    assert any("no runs with the Drink of Power switched off" in str(v) for _, v in drink.blocks)
    empty = write_report(even.iloc[:0], tmp_path / "empty", title="t", command=None, manifest=None)
    text = empty.with_suffix(".md").read_text()
    assert "no games" in text and "`not recorded`" in text


def test_plain_string_columns_give_the_same_tables(study):
    """Labels stored as plain strings (not categories) are read the same way."""
    small = study[study.players.isin([3, 6])]
    cats = [c for c in small.columns if isinstance(small[c].dtype, pd.CategoricalDtype)]
    plain = small.astype({c: str for c in cats})
    for fn in (tables.outcome_rates, tables.minority_rates, lambda d: tables.st.seat_rates(d),
               lambda d: tables.st.occupation_rates(d)):
        pd.testing.assert_frame_equal(fn(small), fn(plain))


def test_report_never_imports_numba_or_typer():
    """Dependencies point one way: the report reads DataFrames and never needs the engine or the CLI."""
    import ast
    from pathlib import Path

    import kutsch_sim.report

    pkg = Path(kutsch_sim.report.__file__).parent
    files = [*pkg.glob("*.py"), pkg.parent / "enums.py", pkg.parent / "cards.py"]
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.level and f.parent == pkg and node.level == 2:  # from ..x import: only data modules
                    assert node.module in ("enums", "cards"), (f.name, node.module)
            else:
                continue
            assert not any(n.split(".")[0] in ("numba", "typer") for n in names), (f.name, names)


def test_drink_effect_is_paired_when_every_game_has_its_twin():
    """Study runs with and without the Drink share their deals (api.GameConfig.config_id), so
    the report pairs game g on with game g off: the difference is the mean over pairs and its
    interval (stats.paired_diff) is narrower than Newcombe's for independent samples when the
    deal decides much of the result. One game with another deal: back to Newcombe."""
    from kutsch_sim.report.stats import newcombe_diff
    from kutsch_sim.report.tables import drink_effect

    on = make_games(4000, 5, "basic", drink=True, p_minority=0.45, seed=3)
    off = on.copy()
    off["drink"] = False
    rng = np.random.default_rng(9)
    # the same deal mostly gives the same winner: flip 10% of the team games
    flip = (rng.random(len(off)) < 0.1) & off["winner"].astype(str).isin(["order", "brotherhood"]).to_numpy()
    w = off["winner"].astype(str).to_numpy().copy()
    w[flip] = np.where(w[flip] == "order", "brotherhood", "order")
    off["winner"] = pd.Categorical(w, categories=on["winner"].cat.categories)
    e = drink_effect(concat([on, off]))
    row = e[(e.item_set == "all") & (e.team == "minority")].iloc[0]
    won_on = (on.winner.astype(str) == on.minority.astype(str)).to_numpy()
    won_off = (off.winner.astype(str) == off.minority.astype(str)).to_numpy()
    assert bool(row["paired"]) and row["diff"] == pytest.approx(won_on.mean() - won_off.mean())
    _, lo, hi = newcombe_diff(won_on.sum(), len(on), won_off.sum(), len(off))
    assert row["diff_hi"] - row["diff_lo"] < 0.6 * (hi - lo)
    assert row["diff_lo"] < row["diff"] < row["diff_hi"]
    other = off.copy()
    other.loc[0, "items_0"] = other.loc[0, "items_0"] + 1  # one deal differs
    e2 = drink_effect(concat([on, other]))
    row2 = e2[(e2.item_set == "all") & (e2.team == "minority")].iloc[0]
    assert not bool(row2["paired"]) and row2["diff_hi"] - row2["diff_lo"] == pytest.approx(hi - lo, rel=0.05)


def test_pooled_start_item_difference_is_stratified_by_player_count():
    """A starting item that changes nothing at any count, held only at a count where seats win
    less: the pooled difference must be ~0 (stratified by count), not the naive gap."""
    from kutsch_sim.enums import IK
    from kutsch_sim.report.data import kind_card_masks
    from kutsch_sim.report.seats import start_item_rates

    rng = np.random.default_rng(1)
    pearl = int(kind_card_masks()[IK.PEARL])
    n = 40_000
    players = np.where(np.arange(n) < n // 2, 3, 6)
    win = rng.random(n) < np.where(players == 3, 0.62, 0.48)
    holds = (players == 6) & (rng.random(n) < 0.5)
    seats = pd.DataFrame({"players": players, "items": np.where(holds, pearl, 1), "win": win})
    row = start_item_rates(pd.DataFrame(), seats, by_players=False).set_index("item").loc["Black Pearl"]
    naive = win[holds].mean() - win[~holds].mean()
    assert naive < -0.05  # the count's own win rate, not the item
    assert row["diff_lo"] < 0 < row["diff_hi"] and abs(row["diff"]) < 0.02
    assert row["rate_with"] == pytest.approx(win[holds].mean())  # the raw rates stay as they are


def test_variant_effect_is_paired_when_the_variant_keeps_the_deals():
    """Smuggling and fortune-telling games share their deals with the base games (config_id
    leaves the variant out): compared game by game, with the paired interval. A variant run on
    other deals (as the advanced 3-player game deals its own way) falls back to Newcombe."""
    from kutsch_sim.report.tables import variant_effect

    base = make_games(4000, 6, "full", seed=5)
    var = base.copy()
    var["variant"] = pd.Categorical(["smuggling"] * len(var))
    rng = np.random.default_rng(2)
    w = var["winner"].astype(str).to_numpy().copy()
    flip = (rng.random(len(w)) < 0.08) & np.isin(w, ["order", "brotherhood"])
    w[flip] = np.where(w[flip] == "order", "brotherhood", "order")
    var["winner"] = pd.Categorical(w, categories=base["winner"].cat.categories)
    v = variant_effect(concat([base, var]))
    row = v[v.outcome == "order"].iloc[0]
    want = (w == "order").mean() - (base["winner"].astype(str) == "order").mean()
    assert bool(row["paired"]) and row["diff"] == pytest.approx(want)
    assert row["diff_hi"] - row["diff_lo"] < 0.6 * (row["hi_variant"] - row["lo_variant"])
    other = make_games(4000, 6, "full", seed=6, variant="advanced-3p")
    v2 = variant_effect(concat([base, other]))
    assert not v2["paired"].any()


def test_findings_check_the_rule_variants():
    """Each variant's change in the Order's, the Brotherhood's, the Loge's and (odd N) the smaller
    team's win rate is a finding; a paired comparison says it compared the same deals."""
    base = make_games(3000, 5, "full", seed=7)
    var = base.copy()
    var["variant"] = pd.Categorical(["fortune-telling"] * len(var))
    f = rfind.rank_findings(tables.build_tables(concat([base, var])))
    v = f[f["topic"] == "rule variant"]
    assert set(v["subject"]) == {f"fortune-telling full {o}" for o in ("order", "brotherhood", "solo", "minority")}
    assert (v["verdict"] == "noise").all()  # identical games: no difference
    assert v["sentence"].str.contains("the same 3,000 deals played both ways").all()


# ---------------------------------------------------------------- seat-games clustered by game
def test_clustered_variance_of_seats_that_win_together_or_against_each_other():
    """Two seats a game. Opposite outcomes (opponents): var(p0 - p1) is twice what
    independent seat-games would give; equal outcomes (teammates): zero. One seat a game:
    the binomial variance, times G/(G-1)."""
    rng = np.random.default_rng(5)
    g = 2000
    w0 = rng.random(g) < 0.4
    one = np.zeros(g, np.int64)
    ones = np.ones(g)
    p = w0.mean()
    opp = stats.clustered_vars(one, 1, ones, w0.astype(float), ones, (~w0).astype(float))
    same = stats.clustered_vars(one, 1, ones, w0.astype(float), ones, w0.astype(float))
    indep = 2 * p * (1 - p) / g
    assert opp["var_d"][0] == pytest.approx(2 * indep * g / (g - 1))
    assert same["var_d"][0] == pytest.approx(0.0, abs=1e-18)
    assert opp["var1"][0] == pytest.approx(p * (1 - p) / g * g / (g - 1))
    lo, hi = stats.widen(0.0, -0.01, 0.01, opp["var_d"][0], indep, (-1, 1))
    assert (lo, hi) == pytest.approx((-0.01 * np.sqrt(2 * g / (g - 1)), 0.01 * np.sqrt(2 * g / (g - 1))))


def test_clustered_variance_matches_the_spread_of_repeated_studies():
    """Many synthetic studies of 4-seat games in two teams of 2 (a team wins together); group A
    = seats holding a 'Key' (0 to 3 a game, correlated through their teams). The clustered
    variance of rate(A) - rate(not A) agrees with the variance over the studies; the
    independent-draws formula does not."""
    rng = np.random.default_rng(7)
    reps, g = 1500, 400
    diffs, vc, vi = [], [], []
    game = np.repeat(np.arange(g), 4)
    strat = np.zeros(g, np.int64)
    for _ in range(reps):
        team = np.tile([0, 0, 1, 1], g)
        order_wins = np.repeat(rng.random(g) < 0.5, 4)
        win = (team == 0) == order_wins
        # Keys go to one team's seats more often (and holders then win more, together)
        key = rng.random(4 * g) < np.where(team == 0, 0.6, 0.2)
        n1, w1 = stats.cluster_sums(game, g, key, win)
        n0, w0 = stats.cluster_sums(game, g, ~key, win)
        cv = stats.clustered_vars(strat, 1, n1, w1, n0, w0)
        p1, p0 = cv["p1"][0], cv["p2"][0]
        diffs.append(p1 - p0)
        vc.append(cv["var_d"][0])
        vi.append(p1 * (1 - p1) / cv["N1"][0] + p0 * (1 - p0) / cv["N2"][0])
    emp = np.var(diffs, ddof=1)
    assert np.mean(vc) == pytest.approx(emp, rel=0.12)
    assert abs(np.mean(vi) / emp - 1) > 0.3  # treating seat-games as independent is off here


def test_seat_spread_keeps_the_clustered_standard_error(study, built):
    """Findings on seat and occupation spreads use the spreads table's clustered standard error;
    the Loge holders' win rates are part of the Loge's finding."""
    sp = built["spreads"]
    assert set(sp["what"]) == {"seat", "occupation"}
    s = built["seats"]
    for r in sp[sp["what"] == "seat"].itertuples():
        f = s[s.players == r.players]
        assert r.best_rate == pytest.approx(f.rate.max()) and r.worst_rate == pytest.approx(f.rate.min())
        assert r.diff == pytest.approx(r.best_rate - r.worst_rate) and r.se > 0
    cands = {(c.topic, c.players): c for c in rfind.candidates(built)}
    r = sp[sp["what"] == "seat"].iloc[0]
    c = cands[("seat", int(r.players))]
    assert (c.est, c.se) == (pytest.approx(r["diff"]), pytest.approx(r["se"]))
    held = built["loge_holder"].set_index(["players", "holder"])
    c = cands[("Loge", 3)]  # the holders' win rates are words of the Loge's one finding, not a check
    assert c.words["held"] == pytest.approx(held.loc[(3, "held it at some point"), "rate"])
    assert c.words["never"] == pytest.approx(held.loc[(3, "never held it"), "rate"])
