"""The report's robustness section: each headline number at every rung of a skill ladder, in the
ladder's order, with a verdict from the top two rungs that follows the rule it states; the
answers and the findings carry those verdicts; one rung changes nothing.

The games come from ``make_games`` (tests/_helpers_report.py).
"""

from __future__ import annotations

import pandas as pd
import pytest

from kutsch_sim.report import robustness as rob
from kutsch_sim.report import tables
from kutsch_sim.report.answers import rungs
from kutsch_sim.report.render import write_report

from _helpers_report import concat, make_games

pytestmark = pytest.mark.apart  # tables and plots of made-up records: no kernel runs

# weakest first; deliberately not alphabetical, so an alphabetical sort would crown another rung
LADDER = (("strong", 3), ("medium", 2), ("weak", 1))


def _rung(seed: int, p_order: float, p_minority: float, seat0_bonus: float = 0.0) -> pd.DataFrame:
    """One rung's games: 4 and 5 players, with and without the Loge, the Drink off at 5 (the same deals)."""
    parts = [make_games(2000, 4, s, p_order=p_order, seat0_bonus=seat0_bonus, seed=seed + i)
             for i, s in enumerate(("basic", "basic+Loge"))]
    parts += [make_games(2000, 5, s, p_minority=p_minority, seed=seed + 2 + i) for i, s in enumerate(("basic",
                                                                                                       "basic+Loge"))]
    parts.append(make_games(2000, 5, "basic", drink=False, p_minority=p_minority - 0.1, seed=seed + 2))
    return concat(parts)


@pytest.fixture(scope="module")
def ladder() -> pd.DataFrame:
    spec = {"weak": (10, 0.50, 0.30), "medium": (20, 0.56, 0.40, 0.05), "strong": (30, 0.565, 0.47, 0.05)}
    return concat([_rung(*spec[name]).assign(rung=name, rung_level=level) for name, level in LADDER])


@pytest.fixture(scope="module")
def report(ladder, tmp_path_factory):
    out = tmp_path_factory.mktemp("rob")
    write_report(ladder, out, title="t")
    return out, (out / "report.md").read_text()


def _values(rows: list[tuple]) -> pd.DataFrame:
    """Values of one headline at rungs a (level 1) and b (level 2): (headline, est_a, lo_a, hi_a, est_b, lo_b, hi_b[, subjects])."""
    out = []
    for i, (key, *nums) in enumerate(rows):
        subjects = nums[6] if len(nums) > 6 else ("", "")
        for level, (est, lo, hi), subject in zip((1, 2), (nums[:3], nums[3:6]), subjects, strict=True):
            out.append({"headline": key, "players": i + 3, "rung": "ab"[level - 1], "rung_level": level,
                        "subject": subject, "estimate": est, "lo": lo, "hi": hi,
                        "reference": 0.5 if key == "order" else 0.0})
    return pd.DataFrame(out, columns=rob.VALUE_COLUMNS)


def test_the_verdict_rule():
    """robust: the difference within its 95% interval and under 2 points; direction only: the sign
    holds at both; bot-dependent otherwise; the best occupation must also be the same one."""
    v = rob.verdicts(_values([
        ("order", 0.52, 0.50, 0.54, 0.535, 0.515, 0.555),  # +1.5 points, well inside: robust
        ("drink", 0.010, 0.000, 0.020, 0.035, 0.025, 0.045),  # +2.5 points, the interval excludes 0: same sign
        ("loge", -0.20, -0.30, -0.10, -0.23, -0.33, -0.13),  # -3 points, inside its wide interval: not within 2
        ("seat", -0.02, -0.03, -0.01, 0.02, 0.01, 0.03),  # the sign flips
        ("occupation", 0.03, 0.01, 0.05, 0.031, 0.011, 0.051, ("Thug", "Priest")),  # another occupation
        ("occupation", 0.03, 0.01, 0.05, 0.031, 0.011, 0.051, ("Thug", "Thug")),
        ("solo", 0.0, 0.0, 0.02, 0.25, 0.2, 0.3),  # nothing at the rung below: no sign to keep
    ]))
    assert v["verdict"].tolist() == ["robust", "direction only", "direction only", "bot-dependent",
                                     "bot-dependent", "robust", "bot-dependent"]
    r = v.iloc[0]
    assert (r["below"], r["top"]) == ("a", "b") and r["diff"] == pytest.approx(0.015)
    assert r["diff_lo"] < 0 < r["diff_hi"]
    se = ((0.54 - 0.50) ** 2 + (0.555 - 0.515) ** 2) ** 0.5 / 2
    assert r["diff_hi"] - r["diff"] == pytest.approx(se, rel=1e-9)  # from the two 95% intervals


def test_a_number_only_the_top_rung_has_gets_no_verdict():
    values = _values([("order", 0.5, 0.45, 0.55, 0.5, 0.45, 0.55)])
    values = pd.concat([values, values.iloc[[1]].assign(headline="drink", players=5, reference=0.0)])
    v = rob.verdicts(values).set_index("headline")
    assert v.loc["order", "verdict"] == "robust" and v.loc["drink", "verdict"] == "–"


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
    assert "judged on the two strongest rungs, `medium` and `strong`" in sec
    assert "| number | players | weak | medium | strong | strong − medium (95%) | verdict |" in sec
    assert "![" in sec and (out / "figures" / "robustness.png").is_file()
    values = pd.read_csv(out / "tables" / "robustness.csv")
    verdicts = pd.read_csv(out / "tables" / "robustness_verdicts.csv")
    assert list(values.columns) == rob.VALUE_COLUMNS and list(verdicts.columns) == rob.VERDICT_COLUMNS
    assert values.groupby("rung")["rung_level"].first().to_dict() == {"weak": 1, "medium": 2, "strong": 3}
    assert set(verdicts["verdict"]) <= set(rob.VERDICTS) and len(verdicts) == 10
    for r in verdicts.itertuples():  # each verdict is in the table, on its number's row
        assert f"| {r.verdict} |" in sec
    counts = verdicts["verdict"].value_counts()
    assert f"Of 10 numbers: {counts.get('robust', 0)} robust, {counts.get('direction only', 0)} direction" in sec
    assert "did not play the same deals" in sec  # each synthetic rung deals its own games
    assert 'df = df[df.rung == "strong"]' in md.split("## Recompute any number")[1]
    assert "**Data:** 10,000 games of the top rung, `strong` (the results hold 30,000 games over 3 rungs)" in md
    # the top rung's numbers are the report's: its answers are the strong rung's games
    strong = pd.read_csv(out / "tables" / "order_share.csv").query("players == 4")
    assert values.query("rung == 'strong' and headline == 'order'")["estimate"].item() == pytest.approx(
        strong["wins"].sum() / strong["n"].sum())


def test_answers_and_findings_carry_the_verdicts(report):
    out, md = report
    verdicts = pd.read_csv(out / "tables" / "robustness_verdicts.csv").set_index(["headline", "players"])
    answers = pd.read_csv(out / "tables" / "answers.csv").set_index(["topic", "players"])
    for (topic, players), key in [(("team balance", 4), "order"), (("Drink of Power", 5), "drink"),
                                  (("Loge", 4), "loge"), (("Loge", 5), "loge")]:
        assert answers.loc[(topic, players), "robustness"].startswith(verdicts.loc[(key, players), "verdict"] + " (")
    assert pd.isna(answers.loc[("team balance", 5), "robustness"])  # the Order's share is judged at even counts
    findings = pd.read_csv(out / "tables" / "findings.csv", keep_default_na=False)
    f = findings.set_index(["topic", "players"])
    assert f.loc[("Drink of Power", 5), "robustness"] == verdicts.loc[("drink", 5), "verdict"]
    assert (findings.loc[~findings["topic"].isin(["team balance", "Drink of Power", "Loge"]), "robustness"] == "").all()
    para = md.split("## Findings")[1].split("\n## ")[0]
    assert "Across the skill ladder" in para and f"*{verdicts.loc[('drink', 5), 'verdict']}*: " in para


def test_one_rung_changes_nothing(ladder, tmp_path):
    """One rung in a ``rung`` column, or no such column: the same report, without the section."""
    weak = ladder[ladder["rung"] == "weak"]
    write_report(weak, tmp_path / "a", title="t")
    write_report(weak.drop(columns=["rung", "rung_level"]), tmp_path / "b", title="t")
    a, b = ((tmp_path / x / "report.md").read_text() for x in "ab")
    assert a == b and "Robustness" not in a and "robustness" not in a
    assert not (tmp_path / "a" / "tables" / "robustness.csv").exists()
    assert "robustness" not in pd.read_csv(tmp_path / "a" / "tables" / "findings.csv").columns
