"""The report's robustness section: each headline number at every rung of a skill ladder, in the
ladder's order, with a verdict over the three strongest rungs that follows the rule it states
(every difference inside ±3 points, or one shown beyond them, or too few games to tell), paired
on the same deals and independent otherwise; the answers and the findings carry those verdicts;
one rung changes nothing.

The games come from ``make_games`` and ``replay`` (tests/_helpers_report.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.report import robustness as rob
from kutsch_sim.report import tables
from kutsch_sim.report.answers import rungs
from kutsch_sim.report.render import write_report
from kutsch_sim.report.stats import z_value

from _helpers_report import concat, make_games, replay

pytestmark = pytest.mark.apart  # tables and plots of made-up records: no kernel runs

# weakest first; deliberately not alphabetical, so an alphabetical sort would crown another rung
LADDER = (("strong", 3), ("medium", 2), ("weak", 1))
Z = z_value()


def _rung(seed: int, p_order: float, p_minority: float, seat0_bonus: float = 0.0) -> pd.DataFrame:
    """One rung's games: 4 and 5 players, with and without the Loge, the Drink off at 5."""
    parts = [make_games(2000, 4, s, p_order=p_order, seat0_bonus=seat0_bonus, seed=seed + i)
             for i, s in enumerate(("basic", "basic+Loge"))]
    parts += [make_games(2000, 5, s, p_minority=p_minority, seed=seed + 2 + i) for i, s in enumerate(("basic",
                                                                                                       "basic+Loge"))]
    parts.append(make_games(2000, 5, "basic", drink=False, p_minority=p_minority - 0.1, seed=seed + 2))
    return concat(parts)


@pytest.fixture(scope="module")
def ladder() -> pd.DataFrame:
    """Three rungs that each deal their own games (other seeds): no pairing."""
    spec = {"weak": (10, 0.50, 0.30), "medium": (20, 0.56, 0.40, 0.05), "strong": (30, 0.565, 0.47, 0.05)}
    return concat([_rung(*spec[name]).assign(rung=name, rung_level=level) for name, level in LADDER])


@pytest.fixture(scope="module")
def report(ladder, tmp_path_factory):
    out = tmp_path_factory.mktemp("rob")
    write_report(ladder, out, title="t")
    return out, (out / "report.md").read_text()


@pytest.fixture(scope="module")
def same_deals(tmp_path_factory):
    """Three rungs on the same deals, each keeping part of one first play: (records, report dir, report.md)."""
    base = _rung(40, 0.6, 0.35)
    base = concat([base[base["drink"]], replay(base[~base["drink"]], 0.3, 0.0, seed=5)])
    # the Order's share at 4 players goes from about 39% to 57% (it changes side), the smaller team's
    # share of team wins at 5 from about 32% to 40% (below the larger team's throughout)
    spec = {"weak": (0.3, 0.3), "medium": (0.45, 0.7), "strong": (0.5, 0.7)}
    d = concat([replay(base, *spec[name], seed=level).assign(rung=name, rung_level=level) for name, level in LADDER])
    out = tmp_path_factory.mktemp("same")
    write_report(d, out, title="t")
    return d, out, (out / "report.md").read_text()


def _values(rows: list[tuple], names: str = "abc") -> pd.DataFrame:
    """Values of one number per row at the rungs ``names`` (levels 1, 2, ...): (headline, estimates,
    half-widths of their 95% intervals[, references[, subjects]]), at 3, 4, ... players."""
    out = []
    for i, (key, ests, halves, *rest) in enumerate(rows):
        refs = rest[0] if rest else [0.5 if key == "order" else 0.0] * len(ests)
        subjects = rest[1] if len(rest) > 1 else [""] * len(ests)
        for level, (rung, est, h, ref, subject) in enumerate(zip(names, ests, halves, refs, subjects, strict=True), 1):
            out.append({"headline": key, "players": i + 3, "rung": rung, "rung_level": level, "subject": subject,
                        "estimate": est, "lo": est - h, "hi": est + h, "reference": ref})
    return pd.DataFrame(out, columns=rob.VALUE_COLUMNS)


def _diffs(values: pd.DataFrame, se: float) -> pd.DataFrame:
    """Paired differences of every two rungs of ``values``, each with the standard error ``se``."""
    rows = []
    for (key, players), g in values.groupby(["headline", "players"]):
        g = g.sort_values("rung_level")
        for i in range(len(g)):
            for j in range(i + 1, len(g)):
                lo, hi = g.iloc[i], g.iloc[j]
                rows.append({"headline": key, "players": players, "high": hi["rung"], "low": lo["rung"],
                             "estimate_high": hi["estimate"], "estimate_low": lo["estimate"],
                             "diff": hi["estimate"] - lo["estimate"], "se": se})
    return pd.DataFrame(rows)


def test_the_verdict_rule():
    """Over three rungs: robust when every difference's interval is inside ±3 points; shown to move
    more than 3: direction only if on one side of the reference at all three (and, for the best
    occupation, the same one), else bot-dependent; undetermined when an interval reaches across."""
    values = _values([
        ("order", [0.50, 0.51, 0.52], [0.02] * 3),  # c − a +2.0 ± 1.0: inside
        ("drink", [0.05, 0.10, 0.14], [0.02] * 3),  # c − a +9 ± 1: beyond, positive throughout
        ("seat", [-0.03, 0.01, 0.04], [0.02] * 3),  # beyond, and the sign flips
        ("loge", [-0.10, -0.11, -0.12], [0.02] * 3),  # c − a −2.0 ± 1.0 ... with se 0.005: inside
        ("occupation", [0.03, 0.03, 0.08], [0.02] * 3, [0.0] * 3, ["Thug", "Thug", "Priest"]),  # moves, another one
        ("occupation", [0.030, 0.031, 0.032], [0.02] * 3, [0.0] * 3, ["Thug", "Priest", "Thug"]),  # the edge holds
        ("smaller", [0.30, 0.35, 0.45], [0.02] * 3, [0.40, 0.40, 0.40]),  # moves, and passes the larger team
        ("smaller", [0.30, 0.35, 0.45], [0.02] * 3, [0.50, 0.50, 0.50]),  # moves, always below it
        ("solo", [0.0, 0.10, 0.25], [0.02] * 3),  # nothing at the third rung: no side to keep
    ])
    v = rob.verdicts(values, _diffs(values, 0.005), games=2000)
    assert v["verdict"].tolist() == ["robust", "direction only", "bot-dependent", "robust", "bot-dependent",
                                     "robust", "bot-dependent", "direction only", "bot-dependent"]
    assert v["paired"].all() and (v["games"] == 2000).all() and v["games_needed"].isna().all()
    r = v.iloc[0]
    assert (r["rung_a"], r["rung_b"], r["rung_c"]) == ("a", "b", "c") and r["spread"] == pytest.approx(0.02)
    assert (r["diff_ca"], r["diff_ca_hi"] - r["diff_ca"]) == pytest.approx((0.02, Z * 0.005))
    assert r["diff_cb"] == pytest.approx(0.01) and r["diff_ba"] == pytest.approx(0.01)
    # the same numbers with wider paired intervals: an interval that reaches across 3 points decides nothing
    v = rob.verdicts(values, _diffs(values, 0.01), games=2000).set_index(["headline", "players"])
    assert v.loc[("loge", 6), "verdict"] == rob.UNDETERMINED  # c − a −2.0 ± 1.96 reaches −3.96
    assert v.loc[("order", 3), "verdict"] == rob.UNDETERMINED
    assert v.loc[("drink", 4), "verdict"] == "direction only"  # +9 ± 2: still beyond


def test_the_games_it_would_take():
    """An undetermined number's games: a configuration's games times (half-width / distance of the
    difference from the nearest 3-point edge)^2, rounded up to two digits, the one difference that
    would first show a move when one lies beyond 3 points, else every open one closing."""
    values = _values([("loge", [-0.10, -0.11, -0.12], [0.02] * 3),  # only c − a open, at 1 point from −3
                      ("order", [0.50, 0.50, 0.545], [0.02] * 3),  # c − a, c − b: +4.5 at 1.5 from +3
                      ("seat", [0.0, 0.0, 0.03], [0.02] * 3)])  # exactly on the edge: no number of games
    v = rob.verdicts(values, _diffs(values, 0.01), games=2000).set_index("headline")
    assert (v["verdict"] == rob.UNDETERMINED).all()
    h = Z * 0.01
    assert v.loc["loge", "games_needed"] == rob.nice_games(2000 * (h / 0.01) ** 2) == 7700
    assert v.loc["order", "games_needed"] == rob.nice_games(2000 * (h / 0.015) ** 2) == 3500
    assert v.loc["seat", "games_needed"] == np.inf
    assert rob.nice_games(38_123) == 39_000 and rob.nice_games(99) == 99 and rob.nice_games(2e7) == np.inf
    assert rob.games_text(np.inf) == "more than 10,000,000" and rob.games_text(7700.0) == "about 7,700"
    text = rob.answer_robustness(v.reset_index()).set_index("topic")["robustness"]
    assert text["Loge"] == "undetermined (too few games: about 7,700 a configuration; a: -10.0, b: -11.0, c: -12.0)"
    assert text["team balance"].startswith("undetermined (too few games: about 3,500 a configuration; a: 50.0%")
    assert rob.verdict_text(next(v.reset_index().itertuples())) == "undetermined (too few games: about 7,700 a configuration)"


def test_two_rungs_and_independent_rungs():
    """With two rungs the one difference decides; without paired differences the interval is the
    square root of the sum of the two variances read off the 95% intervals."""
    values = _values([("order", [0.50, 0.52], [0.02, 0.02]), ("drink", [0.05, 0.10], [0.01, 0.01])], names="xy")
    v = rob.verdicts(values)
    assert v["verdict"].tolist() == [rob.UNDETERMINED, "direction only"]
    assert (v["rung_a"] == "").all() and v["diff_ca"].isna().all() and v["diff_ba"].isna().all()
    r = v.iloc[0]
    assert (r["rung_b"], r["rung_c"], r["diff_cb"]) == ("x", "y", pytest.approx(0.02))
    assert r["diff_cb_hi"] - r["diff_cb"] == pytest.approx(np.hypot(0.02, 0.02), rel=1e-9)
    assert not v["paired"].any() and v["games_needed"].isna().all()  # no games known: no figure
    assert rob.answer_robustness(v).iloc[0]["robustness"] == "undetermined (too few games; x: 50.0%, y: 52.0%)"


def test_a_number_only_the_top_rung_has_gets_no_verdict():
    values = _values([("order", [0.5, 0.5], [0.01, 0.01])], names="ab")
    values = pd.concat([values, values.iloc[[1]].assign(headline="drink", players=5, reference=0.0)])
    v = rob.verdicts(values).set_index("headline")
    assert v.loc["order", "verdict"] == "robust" and v.loc["drink", "verdict"] == "–"


def _order_wins(games: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    """The same deals with exactly ``share`` of the team wins at 6 players the Order's, picked at random."""
    rng = np.random.default_rng(seed)
    cats = list(games["winner"].cat.categories)
    w = games["winner"].cat.codes.to_numpy().copy()
    team = np.flatnonzero((games["players"].to_numpy() == 6) & np.isin(w, [cats.index("order"),
                                                                           cats.index("brotherhood")]))
    w[team] = cats.index("brotherhood")
    w[rng.choice(team, round(share * len(team)), replace=False)] = cats.index("order")
    return games.assign(winner=pd.Categorical.from_codes(w, categories=cats))


def test_the_noise_of_a_100_game_ladder_is_undetermined(tmp_path):
    """100 games a configuration at 5 and 6 players, rungs random, greedy, smart on the same deals,
    the Order's share at 6 players noise around 50% (49.7% and 54.0% at the top two): the old rule
    called it bot-dependent (it changes side of 50%); it is undetermined, with the games it would take."""
    base = concat([make_games(100, p, s, seed=60 + p + i) for p in (5, 6) for i, s in enumerate(("basic",
                                                                                                 "basic+Loge"))])
    d = concat([_order_wins(base, share, seed).assign(rung=name, rung_level=seed)
                for seed, (name, share) in enumerate((("random", 0.505), ("greedy", 0.497), ("smart", 0.54)), 1)])
    write_report(d, tmp_path, title="t")
    v = pd.read_csv(tmp_path / "tables" / "robustness_verdicts.csv").set_index(["headline", "players"])
    r = v.loc[("order", 6)]
    assert (r["rung_b"], r["rung_c"]) == ("greedy", "smart")
    assert abs(r["estimate_b"] - 0.497) < 0.003 and abs(r["estimate_c"] - 0.54) < 0.003
    assert np.sign(r["estimate_b"] - 0.5) != np.sign(r["estimate_c"] - 0.5)  # the case the old rule got wrong
    assert r["verdict"] == rob.UNDETERMINED and bool(r["paired"]) and r["games"] == 100
    assert r["diff_cb_lo"] < 0 < 0.03 < r["diff_cb"] < r["diff_cb_hi"]  # +4.3 points, the interval reaching below +3
    assert 100 < r["games_needed"] < 1e6
    md = (tmp_path / "report.md").read_text()
    need = f"about {int(r['games_needed']):,}"
    sec = md.split("## Robustness across the skill ladder")[1].split("\n## ")[0]
    assert ("The Order's share of team wins at 6 players: the games are too few to tell whether it moves more "
            "than 3 points (`random` ") in sec and f"{need} games a configuration would tell" in sec
    answers = pd.read_csv(tmp_path / "tables" / "answers.csv").set_index(["topic", "players"])
    assert answers.loc[("team balance", 6), "robustness"].startswith(
        f"undetermined (too few games: {need} a configuration; random: ")


def test_rungs_follow_rung_level_not_the_alphabet(ladder):
    assert rungs(ladder) == ["weak", "medium", "strong"]
    assert rungs(ladder[ladder["rung"] == "weak"]) == []


def test_headline_values_are_the_tables_numbers(ladder):
    """Each value is read off the rung's own tables (the answers', the minority, the seats, the
    occupations), with their 95% intervals."""
    d = ladder[ladder["rung"] == "medium"]
    t = tables.build_tables(d)
    v = rob.headline_values(t).set_index(["headline", "players"])
    assert set(v.index) == {("order", 4), ("smaller", 5), ("drink", 5), ("solo", 4), ("solo", 5), ("loge", 4),
                            ("loge", 5), ("occupation", 0), ("seat", 4), ("seat", 5)}
    share = t["order_share"][t["order_share"]["players"] == 4]
    assert v.loc[("order", 4), "estimate"] == pytest.approx(share["wins"].sum() / share["n"].sum())
    m = t["minority"].query("players == 5 and item_set == 'all'").set_index("team")
    assert v.loc[("smaller", 5), ["estimate", "lo", "hi"]].tolist() == pytest.approx(
        m.loc["minority", ["rate", "lo", "hi"]].tolist())
    assert v.loc[("smaller", 5), "reference"] == pytest.approx(m.loc["majority", "rate"])
    drink = t["drink_effect"].query("players == 5 and item_set == 'all' and team == 'minority'").iloc[0]
    assert v.loc[("drink", 5), "estimate"] == pytest.approx(drink["diff"])
    seat0 = t["seats"].query("players == 4 and seat == 0").iloc[0]
    assert v.loc[("seat", 4), ["estimate", "lo", "hi"]].tolist() == pytest.approx(
        [seat0["excess"], seat0["lo"] - seat0["base"], seat0["hi"] - seat0["base"]])
    best = t["occupations"].loc[t["occupations"]["rate"].idxmax()]
    assert v.loc[("occupation", 0), "subject"] == best["occupation"]
    # the lighter tables of a lower rung give the same numbers as the full ones
    pd.testing.assert_frame_equal(rob.headline_values(rob.rung_tables(d)), rob.headline_values(t))


def test_the_section_table_plot_and_csv(report):
    out, md = report
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    assert heads[:4] == ["## Answers", "## Findings", "## Robustness across the skill ladder",
                         "## How the verdicts are made"]
    sec = md.split("## Robustness across the skill ladder")[1].split("\n## ")[0]
    assert "weakest first: `weak` (10,000 games), `medium` (10,000 games), `strong` (10,000 games)" in sec
    assert "moves more than 3 points across the three strongest rungs, `weak`, `medium` and `strong`" in sec
    assert ("| number | players | weak | medium | strong | strong − medium (95%) | strong − weak (95%) | "
            "medium − weak (95%) | spread | verdict |") in sec
    assert "![" in sec and (out / "figures" / "robustness.png").is_file()
    values = pd.read_csv(out / "tables" / "robustness.csv")
    verdicts = pd.read_csv(out / "tables" / "robustness_verdicts.csv", keep_default_na=False, na_values=[""])
    assert list(values.columns) == rob.VALUE_COLUMNS and list(verdicts.columns) == rob.VERDICT_COLUMNS
    assert values.groupby("rung")["rung_level"].first().to_dict() == {"weak": 1, "medium": 2, "strong": 3}
    assert set(verdicts["verdict"]) <= set(rob.VERDICTS) and len(verdicts) == 10
    for r in verdicts.itertuples():  # each verdict is in the table, on its number's row
        assert f"| {rob.verdict_text(r)} |" in sec
    counts = verdicts["verdict"].value_counts()
    assert (f"Of 10 numbers: {counts.get('robust', 0)} robust, {counts.get('direction only', 0)} direction only, "
            f"{counts.get('bot-dependent', 0)} bot-dependent, {counts.get(rob.UNDETERMINED, 0)} {rob.UNDETERMINED}.") in sec
    # each synthetic rung deals its own games: the differences are independent, and the text says so
    assert "did not play the same deals" in sec and "takes them as independent samples" in sec
    assert not verdicts["paired"].any() and "paired" not in sec.split("**Headline numbers")[1].split("**")[0]
    v = verdicts.set_index(["headline", "players"])
    r = values.set_index(["headline", "players", "rung"])
    a, b = r.loc[("seat", 4, "strong")], r.loc[("seat", 4, "medium")]
    assert v.loc[("seat", 4), "diff_cb_hi"] - v.loc[("seat", 4), "diff_cb"] == pytest.approx(
        np.hypot((a["hi"] - a["lo"]) / 2, (b["hi"] - b["lo"]) / 2), rel=1e-9)
    assert 'df = df[df.rung == "strong"]' in md.split("## Recompute any number")[1]
    assert "**Data:** 10,000 games of the top rung, `strong` (the results hold 30,000 games over 3 rungs)" in md
    # the top rung's numbers are the report's: its answers are the strong rung's games
    strong = pd.read_csv(out / "tables" / "order_share.csv").query("players == 4")
    assert values.query("rung == 'strong' and headline == 'order'")["estimate"].item() == pytest.approx(
        strong["wins"].sum() / strong["n"].sum())


def _verdict_of(r, refs: pd.Series) -> str:
    """The verdict rule, re-derived from a row of robustness_verdicts.csv and robustness.csv's references."""
    pairs = [(getattr(r, f"diff_{x}{y}_lo"), getattr(r, f"diff_{x}{y}_hi")) for x, y in rob.PAIRS
             if np.isfinite(getattr(r, f"diff_{x}{y}"))]
    if any(lo > 0.03 or hi < -0.03 for lo, hi in pairs):
        slots = [x for x in "abc" if isinstance(getattr(r, f"rung_{x}"), str)]
        sides = {np.sign(getattr(r, f"estimate_{x}") - refs[getattr(r, f"rung_{x}")]) for x in slots}
        subjects = {getattr(r, f"subject_{x}") for x in slots}
        return "direction only" if len(sides) == 1 and 0 not in sides and len(subjects) == 1 else "bot-dependent"
    return "robust" if all(lo > -0.03 and hi < 0.03 for lo, hi in pairs) else rob.UNDETERMINED


def test_on_the_same_deals_the_differences_are_paired(same_deals):
    """Rungs on the same deals: every difference is paired, narrower than the independent one, each
    verdict follows from the printed intervals, and every number that is not robust has its sentence."""
    d, out, md = same_deals
    sec = md.split("## Robustness across the skill ladder")[1].split("\n## ")[0]
    assert "Every rung played the same deals" in sec and "The differences are paired" in sec
    assert "independent samples" not in sec
    values = pd.read_csv(out / "tables" / "robustness.csv", keep_default_na=False, na_values=[""])
    v = pd.read_csv(out / "tables" / "robustness_verdicts.csv", keep_default_na=False, na_values=[""])
    assert v["paired"].all() and len(v) == 10
    refs = values.set_index(["headline", "players", "rung"])["reference"].sort_index()
    for r in v.itertuples():
        assert r.verdict == _verdict_of(r, refs.xs((r.headline, r.players))), (r.headline, r.players)
        name = rob.HEADLINES[r.headline].name
        where = f"at {r.players} players" if r.players else "over all counts"
        said = f"{name[0].upper()}{name[1:]} {where}"
        assert (said in sec) == (r.verdict != "robust"), said
    assert {"robust", "direction only", "bot-dependent"} <= set(v["verdict"])
    x = values.set_index(["headline", "players", "rung"])
    a, b = x.loc[("order", 4, "strong")], x.loc[("order", 4, "medium")]  # both keep 70% of one play
    paired = v.set_index(["headline", "players"]).loc[("order", 4)]
    assert paired["diff_cb_hi"] - paired["diff_cb"] < 0.8 * np.hypot((a["hi"] - a["lo"]) / 2, (b["hi"] - b["lo"]) / 2)
    answers = pd.read_csv(out / "tables" / "answers.csv").set_index(["topic", "players"])
    r = v.set_index(["headline", "players"]).loc[("order", 4)]
    assert answers.loc[("team balance", 4), "robustness"] == (
        f"{r['verdict']} (weak: {100 * r['estimate_a']:.1f}%, medium: {100 * r['estimate_b']:.1f}%, "
        f"strong: {100 * r['estimate_c']:.1f}%)")


def test_answers_and_findings_carry_the_verdicts(report):
    out, md = report
    verdicts = pd.read_csv(out / "tables" / "robustness_verdicts.csv").set_index(["headline", "players"])
    answers = pd.read_csv(out / "tables" / "answers.csv").set_index(["topic", "players"])
    for (topic, players), key in [(("team balance", 4), "order"), (("Drink of Power", 5), "drink"),
                                  (("Loge", 4), "loge"), (("Loge", 5), "loge")]:
        text = answers.loc[(topic, players), "robustness"]
        verdict = verdicts.loc[(key, players), "verdict"]
        assert text.startswith(verdict + " (" if verdict != rob.UNDETERMINED else "undetermined (too few games: about")
        assert text.endswith(f"strong: {rob._value(verdicts.loc[(key, players), 'estimate_c'], key == 'order')})")
    assert pd.isna(answers.loc[("team balance", 5), "robustness"])  # the Order's share is judged at even counts
    findings = pd.read_csv(out / "tables" / "findings.csv", keep_default_na=False)
    f = findings.set_index(["topic", "players"])
    assert f.loc[("Drink of Power", 5), "robustness"] == verdicts.loc[("drink", 5), "verdict"]
    assert (findings.loc[~findings["topic"].isin(["team balance", "Drink of Power", "Loge"]), "robustness"] == "").all()
    para = md.split("## Findings")[1].split("\n## ")[0]
    assert "Across the skill ladder" in para and f"*{verdicts.loc[('drink', 5), 'verdict']}*: " in para


def test_the_wide_html_tables_wrap_to_the_page(report):
    """The CSS the HTML report relies on to fit the answers and robustness tables into a 1280-px
    window without a horizontal scrollbar (checked with headless Chromium): cells wrap, and a table
    of 8 or more columns takes a little more than the text's width, in smaller type."""
    out, _ = report
    html = (out / "report.html").read_text()
    style = html.split("<style>")[1].split("</style>")[0]
    assert "white-space:normal" in style and "nowrap" not in style
    assert ".scroll:has(th:nth-child(8)){margin:0 max(calc(50% - 50vw + 1.5em),-12rem)}" in style
    assert ".scroll:has(th:nth-child(8)) table{font-size:.78em" in style
    for caption in ("Answers (the interval", "Headline numbers at each rung"):
        after = html.split(caption)[1]
        assert after.split("<table")[0].rstrip().endswith('<div class="scroll">')
        assert after.split("<thead>")[1].split("</thead>")[0].count("<th>") >= 8  # so the wide rules apply


def test_one_rung_changes_nothing(ladder, tmp_path):
    """One rung in a ``rung`` column, or no such column: the same report, without the section."""
    weak = ladder[ladder["rung"] == "weak"]
    write_report(weak, tmp_path / "a", title="t")
    write_report(weak.drop(columns=["rung", "rung_level"]), tmp_path / "b", title="t")
    a, b = ((tmp_path / x / "report.md").read_text() for x in "ab")
    assert a == b and "Robustness" not in a and "robustness" not in a
    assert not (tmp_path / "a" / "tables" / "robustness.csv").exists()
    assert "robustness" not in pd.read_csv(tmp_path / "a" / "tables" / "findings.csv").columns
