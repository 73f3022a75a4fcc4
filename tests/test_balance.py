"""``kutsch-sim balance``: bad input is one line and exit 2 before anything is written; the
quantities and their paired intervals; a small search writes its report and tables, and an
interrupted search resumes without playing a finished trial again."""

from __future__ import annotations

import math
import shlex

import numpy as np
import optuna
import pandas as pd
import pytest
from typer.testing import CliRunner

from kutsch_sim.cli.app import app
from kutsch_sim.enums import N_REC, REC, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.sim import balance as B
from kutsch_sim.sim import balance_search as S


@pytest.mark.parametrize("args, says", [
    ("", "--target is empty"),
    ("--target ''", "--target is empty"),
    ("--target fairness=50", "expected QUANTITY=VALUE"),
    ("--target smaller=150", "between 0 and 100"),
    ("--target smaller=50 --players 4", "odd player counts only"),
    ("--target loge<=10 --players 3 --items basic", "no Coat of Armor of the Loge"),
    ("--target order=50 --players 11", "is outside 3-10"),
    ("--target order=50 --tolerance 0", "--tolerance"),
    ("--target order=50 --games 5", "--games must be between"),
    ("--target order=50 --strong nobody", "unknown bot profile"),
    ("--target order=50 --bots nobody", "unknown bot profile"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    out = tmp_path / "b"
    res = CliRunner().invoke(app, ["balance", *shlex.split(args), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert says in res.stderr and res.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())  # no work, nothing written


def test_out_is_required_and_never_overwritten(tmp_path):
    res = CliRunner().invoke(app, ["balance", "--target", "order=50"])
    assert res.exit_code == 2 and "--out DIR is required" in res.stderr
    (tmp_path / "other.txt").write_text("x")
    res = CliRunner().invoke(app, ["balance", "--target", "order=50", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "holds no balance search" in res.stderr


def _rec(winner, minority, teams, solo=-1):
    rec = np.zeros((len(winner), N_REC), np.int32)
    rec[:, REC.WINNER] = winner
    rec[:, REC.MINORITY] = minority
    rec[:, REC.SOLO_SEAT] = solo
    rec[:, REC.TEAM0:REC.TEAM0 + len(teams)] = teams
    return rec


def test_quantities_count_what_they_say():
    teams = [0, 0, 1]  # 3 players: seat 2 alone is the smaller team
    rec = _rec([WIN.BROTHERHOOD, WIN.ORDER, WIN.SOLO, WIN.BROTHERHOOD], 1, teams)
    rec[2, REC.SOLO_SEAT] = 0
    assert B.estimate(rec, 3, "smaller")[0] == pytest.approx(100 * 2 / 3)  # of the 3 team wins
    assert B.estimate(rec, 3, "order")[0] == pytest.approx(100 / 3)
    assert B.estimate(rec, 3, "loge")[0] == pytest.approx(25.0)
    # seat 0 won games 1 and 2 (1 of 3 seats a time, or 2 of 3), lost 0 and 3
    won = B.seat_wins(rec, 3)
    assert won.tolist() == [[False, False, True], [True, True, False], [True, False, False], [False, False, True]]
    edge = np.mean(100 * (won[:, 0] - won.mean(axis=1)))
    assert B.estimate(rec, 3, "seat-edge")[0] == pytest.approx(edge)


def test_paired_interval_is_zero_for_the_same_games_and_covers_a_change():
    rng = np.random.default_rng(5)
    w = rng.integers(0, 2, 4000)
    a = _rec(w, 0, [0, 1, 1])
    d, lo, hi = B.paired(a, a, 3, "smaller")
    assert d == 0 and lo == 0 and hi == 0
    flip = w.copy()
    flip[:400] = 1 - flip[:400]  # a tenth of the games change hands
    b = _rec(flip, 0, [0, 1, 1])
    d, lo, hi = B.paired(b, a, 3, "smaller")
    assert lo < d < hi and hi - lo < 2 * 1.96 * 100 * math.sqrt(0.1 / 4000) * 1.2


def test_target_regions_and_verdicts():
    t = B.parse_target("smaller=50", 3)
    assert t.region() == (47, 53) and t.distance(45) == 5
    assert B.meets(t, (50.0, 48.0, 52.0)) and not B.meets(t, (50.0, 40.0, 60.0))
    assert B.verdict(t, (50.0, 49.0, 51.0), 1000) == "holds"
    assert B.verdict(t, (30.0, 25.0, 35.0), 1000) == "fails"
    assert B.verdict(t, (45.0, 35.0, 55.0), 300).startswith("undetermined (too few games")
    one = B.parse_target("loge<=10")
    assert one.distance(8) == 0 and one.distance(12) == 2 and B.meets(one, (8.0, 6.0, 11.0))
    with pytest.raises(KutschError):
        B.parse_target("loge<10")


def test_settings_spell_as_the_variants_of_a_config():
    s = B.canonical([("fortune-telling", 1), ("smuggling", 1)])
    assert s == (("smuggling", 1), ("fortune-telling", 1))
    assert B.label(s) == "smuggling+fortune-telling" and B.label(()) == "base"
    assert S.parse_label(B.label(s)) == s
    assert "advanced-3p" in B.choices(3) and "advanced-3p" not in B.choices(4)
    # a hand limit that cannot hold the items is no choice; R2.4's own limit is the base rules
    assert 3 not in B.choices(3).get("hand-limit", ()) and 8 not in B.choices(3).get("hand-limit", ())
    assert 5 not in B.choices(6).get("hand-limit", ())


def _plan(out, **kw):
    args = dict(players="4", items="full", bots="smart", target="order=50", games=200, trials=3, seed=11, check=1,
                check_games=200, strong="none", out=out)
    return S.balance_plan(**(args | kw))


def test_a_small_search_writes_its_report_and_resumes_without_replaying(tmp_path):
    out = tmp_path / "runs" / "fair"  # its parent is made too
    plan = _plan(out)
    S.start(plan, "kutsch-sim balance (test)")
    played = []

    def stop_after_two(k: int, total: int, change: str, value: float) -> None:
        if k == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        S.search_count(plan, 4, played.append, stop_after_two)
    first = sum(played)
    assert first == 3 * 200  # the base rules and two trials
    with pytest.raises(KutschError, match="--resume"):
        _plan(out)
    plan = _plan(out, resume=True)
    played.clear()
    S.search_count(plan, 4, played.append)
    n_single = len(plan.singles(4))
    assert sum(played) <= (1 + n_single + 3 - 2) * 200  # the base again, then only the missing trials
    study = S.open_study(plan, 4)
    assert len(S.done_trials(study)) == n_single + 3
    rows = S.check_count(plan, 4)
    html = S.write_report(plan, rows)
    assert html.is_file() and "What would make it fair" in html.read_text()
    fair = pd.read_csv(out / "tables" / "fair.csv")
    trials = pd.read_csv(out / "tables" / "trials.csv")
    assert fair["change"].iloc[0] == "base" and len(fair) == 2
    assert (trials["change"] == "base").sum() == 1 and trials["value"].notna().all()
    assert set(trials.loc[trials["knobs"] == 1, "change"]) == {B.label(s) for s in plan.singles(4)}
    # checked records are kept: a second check plays nothing
    played.clear()
    S.check_count(plan, 4, played.append)
    assert len(list((out / "records").glob("*.npy"))) == 2


def test_another_search_in_the_same_directory_is_refused(tmp_path):
    out = tmp_path / "fair"
    S.start(_plan(out), "x")
    with pytest.raises(KutschError, match="another balance search"):
        _plan(out, seed=12, resume=True)


def test_a_trial_left_running_by_a_killed_run_is_queued_again(tmp_path):
    out = tmp_path / "fair"
    plan = _plan(out)
    S.start(plan, "x")
    study = S.open_study(plan, 4)
    study.ask()  # takes the first queued single change and leaves it running
    (running,) = [t for t in study.trials if t.state == optuna.trial.TrialState.RUNNING]
    fixed = running.system_attrs["fixed_params"]
    again = S.open_study(plan, 4)
    states = [t.state for t in again.trials]
    assert optuna.trial.TrialState.RUNNING not in states
    waiting = [t.system_attrs.get("fixed_params") for t in again.trials if t.state == optuna.trial.TrialState.WAITING]
    assert fixed in waiting


def test_the_answer_prefers_what_holds_at_the_stronger_rung_then_fewer_changes():
    t = B.parse_target("smaller=50", 3)
    rows = [{"change": "base", "meets": False, "knobs": 0, "after": 30.0},
            {"change": "a=1+b=1", "meets": True, "knobs": 2, "after": 50.0, "strong_verdict": "undetermined (x)"},
            {"change": "a=1", "meets": True, "knobs": 1, "after": 52.0, "strong_verdict": "undetermined (y)"},
            {"change": "c=1", "meets": True, "knobs": 1, "after": 50.5, "strong_verdict": "fails"},
            {"change": "d=1", "meets": False, "knobs": 1, "after": 49.9, "strong_verdict": "holds"}]
    assert B.pick(rows, t)["change"] == "a=1"
    rows[3]["strong_verdict"] = "holds"
    assert B.pick(rows, t)["change"] == "c=1"
    none_meet = [dict(r, meets=False) for r in rows]
    assert B.pick(none_meet, t)["change"] == "a=1+b=1"  # the nearest
    assert B.pick(rows[:1], t) is None


def test_side_conditions_are_one_sided_other_quantities():
    t = B.parse_target("smaller=50")
    keep = B.parse_keep("loge<=30, seat-edge<=2", t)
    assert [k.quantity for k in keep] == ["loge", "seat-edge"]
    assert B.kept(keep, {"loge": 29.0, "seat-edge": 1.0}) and not B.kept(keep, {"loge": 31.0, "seat-edge": 1.0})
    for bad in ("loge=30", "smaller<=40", "loge<=30,loge<=20", "luck<=3"):
        with pytest.raises(KutschError, match="--keep"):
            B.parse_keep(bad, t)
    res = CliRunner().invoke(app, ["balance", "--target", "smaller=50", "--keep", "loge=30", "--out", "/nonexistent/x"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1


def test_a_side_condition_counts_in_the_objective_and_the_answer(tmp_path):
    plan = _plan(tmp_path / "k", target="order=50", keep="loge<=0.01", trials=0, check=1)
    S.start(plan, "x")
    S.search_count(plan, 4)
    rows = S.trials_table(plan, 4)
    measured = [r for r in rows if r["change"] != "base" and "invalid" not in r]
    assert all(r["objective"] >= r["keep_loge"] - 0.01 - 1e-9 for r in measured)
    checked = S.check_count(plan, 4)
    assert not any(r["meets"] for r in checked)  # the Loge wins some games under every change
