"""Tests of the report's answers and verdicts: the answers come first and provenance last, every
verdict follows from the interval printed beside it, one fact is one finding, spreads carry the
gap chance alone would give, and a skill ladder adds a robustness column.

The games come from ``make_games`` and ``make_study`` (tests/_helpers_report.py).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.report import answers as rans
from kutsch_sim.report import checks, plots, stats, tables
from kutsch_sim.report import findings as rfind
from kutsch_sim.report import robustness as rob
from kutsch_sim.report.render import write_report

from _helpers_report import concat, make_games, make_study

pytestmark = pytest.mark.apart  # tables and plots of made-up records: no kernel runs

BRACKET = re.compile(r"\(95% interval(?: over \d+ pairs)? (\S+) to (\S+?)(?: points)?; corrected ([\d.]+)% interval "
                     r"(\S+) to (\S+?)(?: points)?\): (clear|likely|noise)")


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[str, pd.DataFrame, pd.DataFrame]:
    """A written report of a small study with a seat effect and an uneven item set: (report.md,
    findings.csv, answers.csv)."""
    parts = [make_study(games=500, seed=5, counts=range(3, 7)),
             make_games(3000, 4, "basic+Tome", p_order=0.56, seed=40, game_start=10_000),
             make_games(3000, 6, "basic", seat0_bonus=0.08, seed=41, game_start=10_000)]
    out = tmp_path_factory.mktemp("rep")
    write_report(concat(parts), out, title="t", command="kutsch-sim study --games 500", manifest={"seed": 5})
    return ((out / "report.md").read_text(), pd.read_csv(out / "tables" / "findings.csv"),
            pd.read_csv(out / "tables" / "answers.csv"))


def test_the_first_section_is_the_answers_and_provenance_is_last(report):
    md, _, answers = report
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    assert heads[0] == "## Answers" and heads[-1] == "## Appendix: provenance"
    assert "**Produced by:** `kutsch-sim study --games 500`" in md.split("\n## ")[-1]
    assert "Produced by" not in md.split("\n## ", 2)[1]  # not in the answers
    table = md.split("\n## ")[1]
    for question in rans.QUESTIONS.values():
        assert f"| {question} |" in table
    assert set(answers["topic"]) == set(rfind.ANSWER_TOPICS)
    assert sorted(answers.loc[answers["topic"] == "team balance", "players"]) == [3, 4, 5, 6]  # odd counts too
    assert sorted(answers.loc[answers["topic"] == "Drink of Power", "players"]) == [3, 5]
    assert "robustness" not in answers.columns and "robustness" not in table  # one rung: no column


def test_every_verdict_follows_from_the_interval_printed_beside_it(report):
    """Parse each printed bracket (report.md and findings.csv): the corrected interval excludes the
    null exactly when the verdict is clear; the 95% one when it is clear or likely."""
    md, findings, _ = report
    seen = 0
    for text, null in [(s, n) for s, n in zip(findings["sentence"], findings["null"], strict=True)] + [
            (line, None) for line in md.splitlines() if line.startswith("- ") and "corrected" in line]:
        for m in BRACKET.finditer(text):
            lo, hi, level, lo_c, hi_c = (checks.parse_number(x) for x in m.groups()[:5])
            zero = 50.0 if m.group(1).endswith("%") else 0.0
            assert null is None or zero == 100 * null
            assert m.group(6) == checks.verdict_of(zero, lo, hi, lo_c, hi_c), text
            assert level > 95
            seen += 1
    assert seen >= len(findings[findings["verdict"] != "descriptive"])
    tested = findings[findings["verdict"] != "descriptive"]
    m = len(tested)
    one = tested[tested["topic"] != "seat"]
    one = one[one["topic"] != "occupation"]
    assert np.allclose(one["level_corrected"], 1 - 0.05 / m)  # one family, stated
    assert f"{m} checks form one family" in md and f"1 − 0.05/{m}" in md


def test_the_answers_table_has_the_verdicts_of_the_findings(report):
    md, findings, answers = report
    f = findings[findings["topic"].isin(rfind.ANSWER_TOPICS)].set_index(["topic", "players"])
    a = answers.set_index(["topic", "players"])
    assert (a["verdict"] == f.loc[a.index, "verdict"]).all()
    rows = [line for line in md.split("\n## ")[1].splitlines() if line.startswith("| Are the teams")]
    for line, (_, r) in zip(rows, a.loc["team balance"].sort_index().iterrows(), strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        lo, hi = (checks.parse_number(x) for x in cells[6].split(" to "))
        lo95, hi95 = (checks.parse_number(x) for x in cells[5].split(" to "))
        assert cells[-1] == r["verdict"] == checks.verdict_of(50.0, lo95, hi95, lo, hi)


def test_a_bound_near_the_null_prints_on_its_side():
    one = checks.Check("team balance", 4, "x", "one", (1, 2))
    diff = checks.Check("x", 4, "x", "two", (1, 2, 1, 2))
    assert checks.fmt_value(0.50004, one) == "50.004%" and checks.fmt_value(0.4996, one) == "49.96%"
    assert checks.fmt_value(0.463, one) == "46.3%" and checks.fmt_value(0.5, one) == "50.0%"
    assert checks.fmt_value(-0.00004, diff) == "-0.004" and checks.fmt_value(0.012, diff) == "+1.2"
    assert checks.fmt_level(1 - 0.05 / 229) == "99.978%"


def test_one_fact_is_one_finding(report):
    """The Loge's solo rate, its effect on team wins and its holders make one check per count;
    pooled headlines are descriptive and outside the family and its counts."""
    md, findings, _ = report
    loge = findings[findings["topic"].str.contains("Loge")]
    assert set(loge["topic"]) == {"Loge"} and loge["players"].is_unique
    assert loge["sentence"].str.contains("wins alone").all() and loge["sentence"].str.contains("held it").all()
    described = findings[findings["verdict"] == "descriptive"]
    assert set(described["topic"]) == {"occupation", "starting item"} and (described["players"] == 0).all()
    assert described["lo_corrected"].isna().all()
    tested = findings[findings["verdict"] != "descriptive"]
    assert (tested["players"] > 0).all()  # every test is per player count
    clear = int((tested["verdict"] == "clear").sum())
    assert f": {clear} are clear" in md and f"{len(described)} descriptive rows" in md


def test_added_items_are_judged_against_50_percent_too(report):
    _, findings, _ = report
    tome = findings[(findings["topic"] == "item added to basic") & (findings["players"] == 4)
                    & (findings["subject"] == "Tome")].iloc[0]
    assert "Each against 50%: `basic+Tome`" in tome["sentence"] and "`basic`" in tome["sentence"]
    cell = findings[(findings["topic"] == "team balance by item set") & (findings["players"] == 4)
                    & (findings["subject"] == "basic+Tome")].iloc[0]
    assert cell["verdict"] in ("clear", "likely") and f"({cell['verdict']})" in tome["sentence"]


def test_spreads_carry_the_gap_chance_alone_gives(report):
    _, findings, _ = report
    seats = findings[findings["topic"] == "seat"].set_index("players")
    assert (seats["expected_gap"] > 0).all() and seats["sentence"].str.contains("chance alone would give").all()
    assert seats.loc[6, "verdict"] != "noise"  # the seat-0 bonus at 6 players
    assert seats.loc[6, "estimate"] > 2 * seats.loc[6, "expected_gap"]


def test_expected_range_of_independent_rates():
    """E[max - min] of k independent normals with sd 1 is 1.128 (k = 2), 2.059 (k = 4), 3.078 (k = 10)."""
    for k, expected in ((2, 1.128), (4, 2.059), (10, 3.078)):
        assert stats.range_under_null(np.eye(k) * 4e-4, draws=200_000) == pytest.approx(0.02 * expected, rel=0.01)
    assert np.isnan(stats.range_under_null(np.eye(1)))


def test_influence_covariance_of_one_seat_a_game_is_the_plain_covariance():
    rng = np.random.default_rng(3)
    g, k = 5000, 3
    win = rng.random((g, k)) < [0.3, 0.5, 0.6]
    win[:, 2] |= win[:, 0]  # correlated groups
    game = np.repeat(np.arange(g), k)
    code = np.tile(np.arange(k), g)
    cov = stats.influence_cov(game, code, win.ravel(), k)
    assert cov == pytest.approx(np.cov(win.T.astype(float)) / g, rel=1e-9)


def test_heatmap_frames_the_cells_the_findings_find_off_50_percent():
    share = pd.DataFrame({"players": [4, 4, 6], "item_set": ["basic", "full", "basic"]})
    verdicts = pd.DataFrame({"players": [4, 4, 6], "subject": ["basic", "full", "basic"],
                             "verdict": ["clear", "noise", "likely"]})
    marks = plots.balance_marks(share, verdicts, ["basic", "full"], [4, 6])
    assert marks.tolist() == [["clear", "likely"], ["", ""]]
    assert plots.SHARE_LIMITS == (0.40, 0.60) and np.mean(plots.SHARE_LIMITS) == 0.5


def test_a_skill_ladder_adds_a_robustness_column(tmp_path):
    """With a ``rung`` column the report is the top rung's, and each answer carries the verdict of
    its number from the strongest rungs: here the Order gains 10 points at 4 players on rung 2
    (ahead of 50% at both: direction only) and stays even at 6, where 3,000 games a rung cannot
    tell whether it moves by 3 points (-1.2, -3.8 to +1.4): undetermined."""
    low = concat([make_games(3000, 4, p_order=0.56, seed=1), make_games(3000, 6, seed=2)])
    high = concat([make_games(3000, 4, p_order=0.66, seed=3), make_games(3000, 6, seed=4)])
    both = concat([low.assign(rung=1), high.assign(rung=2)])
    assert rans.rungs(both) == [1, 2] and rans.rungs(low) == [] and rans.rungs(low.assign(rung=1)) == []
    verdicts = rob.verdicts(rob.ladder_values({1: tables.build_tables(low), 2: tables.build_tables(high)}))
    robust = rob.answer_robustness(verdicts).set_index(["topic", "players"])["robustness"]
    assert robust[("team balance", 4)].startswith("direction only (1: 5")
    assert robust[("team balance", 6)].startswith("undetermined (too few games")
    write_report(both, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    table = md.split("\n## ")[1]
    assert "| robustness |" in table and "| direction only (1: " in table
    answers = pd.read_csv(tmp_path / "rep" / "tables" / "answers.csv")
    assert answers.loc[answers["players"] == 4, "estimate"].item() > 0.63  # the top rung's games
