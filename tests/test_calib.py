"""The calibration recorder (``kutsch_sim.calib.record``): its games are the batch's games, and
each claim's label is the truth of the game at the moment it was made."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.calib import record as R
from kutsch_sim.enums import DK, REC, WIN
from kutsch_sim.errors import KutschError

SEED = 31


def claims(n: int, items: str, bots: tuple[str, ...], games: int, threads: int = 1):
    cfg = GameConfig(n, items, bots)
    rec, cl, dropped = R.record_claims(cfg.spec(SEED), 0, games, threads=threads)
    return cfg, rec, cl, dropped


@pytest.mark.parametrize("n,items", [(6, "basic"), (5, "full"), (9, "basic")])
def test_the_recorder_plays_the_batch_games(n, items):
    cfg, rec, cl, dropped = claims(n, items, ("smart",), 120)
    assert np.array_equal(rec, run_batch(cfg, SEED, 0, 120))
    assert dropped == 0 and len(cl) > 0


def test_a_declaration_taken_is_labelled_as_the_game_ended():
    """A declaration the bot took at a game's last turn is the game's declaration: its label is
    the record's DECL_OK, and the claim's seat the declarer (a Diplomat acting first, R8, could
    change the position after the claim; it must stay rare)."""
    cfg, rec, cl, _ = claims(7, "basic", ("smart",), 300)
    taken = cl[(cl[:, R.COL_CHOSEN] == 1) & (cl[:, R.COL_TYPE] <= R.T_DECL_FORTUNE)]
    assert len(taken) > 100
    agree = 0
    for row in taken:
        r = rec[int(row[R.COL_GAME])]
        if r[REC.DECLARER] == row[R.COL_SEAT] and r[REC.TURNS] == row[R.COL_TURN] + 1:
            agree += 1
            assert r[REC.DECL_OK] == row[R.COL_LABEL]
            assert r[REC.DECL_KIND] == row[R.COL_KIND]
    assert agree >= 0.97 * len(taken)


def test_labels_of_names_and_the_minority_are_the_deal():
    cfg, rec, cl, _ = claims(9, "basic", ("smart",), 150)
    for row in cl[cl[:, R.COL_TYPE] == R.T_NAMED]:
        r = rec[int(row[R.COL_GAME])]
        same = r[REC.TEAM0 + int(row[R.COL_SEAT])] == r[REC.TEAM0 + int(row[R.COL_ABOUT])]
        assert row[R.COL_LABEL] == float(same)
    mins = cl[cl[:, R.COL_TYPE] == R.T_MINORITY]
    assert len(mins) > 0
    for row in mins:
        r = rec[int(row[R.COL_GAME])]
        assert row[R.COL_LABEL] == float(r[REC.TEAM0 + int(row[R.COL_SEAT])] == r[REC.MINORITY])
        assert row[R.COL_KIND] == DK.DRINK


def test_a_calibrated_seat_states_p_teammate_from_the_surface_of_what_it_does():
    """P(teammate) of a seat holding our items is the table's surface at the posterior and the
    hard-evidence share, the declaring surface exactly for the seats the declaration taken names."""
    from kutsch_sim.bots import calibration_table as T
    from kutsch_sim.bots.calibration import S_NAMED, S_NAMED_DECL
    from kutsch_sim.calib import surface as S
    from kutsch_sim.calib.fit import logit

    cfg, rec, cl, _ = claims(9, "basic", ("smart",), 150)
    d = pd.DataFrame(cl[cl[:, R.COL_TYPE] == R.T_NAMED], columns=list(R.COLUMNS)).assign(config=0)
    dec = S.declared(d)
    assert (dec == 1).sum() > 20 and (dec == 0).sum() > 200
    assert (dec[d["chosen"].to_numpy() == 1] == 1).all()
    u, w, h = logit(d["x2"]), logit(d["x1"]), d["x1"].to_numpy()
    want = np.where(dec == 1, S.apply_surface(np.asarray(T.SURF[9][S_NAMED_DECL]), u, w),
                    S.apply_surface(np.asarray(T.SURF[9][S_NAMED]), u, w))
    want = np.where(h <= 0.0, 0.0, np.where(h >= 1.0, 1.0, want))  # what hard evidence settles
    assert np.abs(d["stated"].to_numpy() - want).max() < 1e-9


@pytest.mark.parametrize("n", [3, 5])
def test_a_drink_declaration_names_no_more_seats_than_the_smaller_team_has(n):
    """R2.2, R7: the Drink counts only if the declarer's team is the smaller, of (N - 1) / 2 seats,
    so a calibrated seat's Drink plan names at most (N - 1) / 2 - 1 seats: none at 3 players."""
    cfg, rec, cl, _ = claims(n, "basic", ("smart",), 400)
    d = cl[(cl[:, R.COL_TYPE] == R.T_DECL_DRINK) & (cl[:, R.COL_STATED] > 0)]
    named = np.array([bin(int(a)).count("1") if a > 0 else 0 for a in d[:, R.COL_ABOUT]])
    assert len(d) > 500 and named.max() <= (n - 1) // 2 - 1
    if n == 5:
        assert (named == 1).sum() > 20  # the cap leaves the plans the rules allow


def test_a_team_declaration_states_its_map_of_the_parts_and_the_odds_of_playing_on():
    """M_TEAM reads P(success) made of the parts and the seat's stated P(win by playing on), as
    ``calib.fit`` fits it."""
    from kutsch_sim.bots.calibration import M_TEAM
    from kutsch_sim.calib.fit import apply, in_table, logit

    cfg, rec, cl, _ = claims(6, "basic", ("smart",), 150)
    d = pd.DataFrame(cl, columns=list(R.COLUMNS))
    key = ["game", "turn", "seat"]
    w = d[d["type"] == R.T_WAIT][key + ["stated"]].rename(columns={"stated": "wait"})
    t = d[(d["type"] == R.T_DECL_TEAM) & (d["about"] > 0) & (d["x1"] > 0)].merge(w, on=key)
    assert len(t) > 200
    want = apply(in_table(6, M_TEAM), logit(t["x1"]), logit(t["wait"]))
    assert np.abs(t["stated"].to_numpy() - want).max() < 1e-9


def test_won_is_the_seats_win_and_the_label_of_claims_about_the_end():
    cfg, rec, cl, _ = claims(6, "basic+Loge", ("smart",), 150)
    for row in cl:
        r = rec[int(row[R.COL_GAME])]
        p = int(row[R.COL_SEAT])
        won = r[REC.WINNER] == r[REC.TEAM0 + p] or (r[REC.WINNER] == WIN.SOLO and r[REC.SOLO_SEAT] == p)
        assert row[R.COL_WON] == float(won)
        if row[R.COL_TYPE] in (R.T_WAIT, R.T_SEARCH):
            assert row[R.COL_LABEL] == row[R.COL_WON]


def test_claims_do_not_depend_on_the_thread_count():
    _, rec1, cl1, _ = claims(6, "full", ("smart",), 80, threads=1)
    _, rec2, cl2, _ = claims(6, "full", ("smart",), 80, threads=2)
    assert np.array_equal(rec1, rec2) and np.array_equal(cl1, cl2)


def test_the_search_states_the_share_of_worlds_its_pick_won():
    cfg, rec, cl, _ = claims(5, "basic", ("search-s", "smart", "smart", "smart", "smart"), 6)
    assert np.array_equal(rec, run_batch(cfg, SEED, 0, 6))
    s = cl[cl[:, R.COL_TYPE] == R.T_SEARCH]
    assert len(s) > 0 and (s[:, R.COL_SEAT] == 0).all()
    assert ((s[:, R.COL_STATED] >= 0) & (s[:, R.COL_STATED] <= 1)).all()


# ------------------------------------------------------------------ kutsch-sim calibration
@pytest.mark.parametrize("args, says", [
    ("--players 11", "--players"),
    ("--bots greedy", "states no probabilities"),
    ("--bots smart,smart", "names a profile twice"),
    ("--bots nobody", "unknown bot profile"),
    ("--items nothing", "item"),
    ("--games 0", "--games must be between"),
    ("--threads 0", "--threads"),
])
def test_calibration_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    import shlex

    from typer.testing import CliRunner

    from kutsch_sim.cli.app import app

    out = tmp_path / "cal"
    res = CliRunner().invoke(app, ["calibration", *shlex.split(args), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert says in res.output and len(res.output.strip().splitlines()) == 1
    assert not out.exists()


def test_a_calibration_run_resumes_to_the_files_of_an_uninterrupted_one(tmp_path, monkeypatch):
    """A run killed after its first chunk and resumed ends with the claims and records of one
    run straight through; its report names every targeted claim type it saw."""
    from kutsch_sim.report.calibration import write_report
    from kutsch_sim.sim import calibration as cal

    monkeypatch.setattr(cal, "CHUNK", 40)
    whole = cal.calibration_plan("5", "basic", "smart", 100, 4, "1", str(tmp_path / "a"))
    cal.run(whole)
    part = cal.calibration_plan("5", "basic", "smart", 100, 4, "1", str(tmp_path / "b"))
    calls = []

    def stop_after_one(k):
        calls.append(k)
        if len(calls) == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cal.run(part, stop_after_one)
    again = cal.calibration_plan("5", "basic", "smart", 100, 4, "1", str(tmp_path / "b"), resume=True)
    cal.run(again)
    for what in ("claims", "records"):
        a = sorted((tmp_path / "a" / what).rglob("*.parquet"))
        b = sorted((tmp_path / "b" / what).rglob("*.parquet"))
        assert [p.name for p in a] == [p.name for p in b] == ["00000.parquet", "00001.parquet", "00002.parquet"]
        for x, y in zip(a, b, strict=True):
            assert pd.read_parquet(x).equals(pd.read_parquet(y))
    plan, claims, records = cal.load(tmp_path / "b")
    assert len(records) == 100 and set(claims["type"]) >= {"decl_team", "minority", "wait"}
    path = write_report(tmp_path / "b" / "report", plan, claims, records)
    text = path.read_text()
    assert "Games ending in a failed declaration" in text and (tmp_path / "b" / "report" / "figures"
                                                                  / "reliability.png").is_file()
    with pytest.raises(KutschError):
        cal.calibration_plan("5", "basic", "smart", 200, 4, "1", str(tmp_path / "b"), resume=True)
