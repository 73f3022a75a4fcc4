"""``kutsch-sim tune``: bad input is one line and exit 2 before any work; a small tuning writes
a profile table that loads, and ``--resume`` continues its study without playing a trial again."""

from __future__ import annotations

import shlex

import numpy as np
import optuna
import pytest
from typer.testing import CliRunner

from kutsch_sim.bots import profiles
from kutsch_sim.bots.params import N_BPARAM, P_TOLD, PARAM_NAMES, ROLE_MAJORITY, ROLE_MINORITY, TOLD_SMALLER
from kutsch_sim.cli.app import app
from kutsch_sim.enums import REC, WIN
from kutsch_sim.sim.tune import role_wins
from _helpers_profiles import use_profile_tables


@pytest.mark.parametrize("args, says", [
    ("--players 6", "odd player counts only"),
    ("--players 11", "players must be between"),
    ("--role loge", "no Coat of Armor of the Loge"),
    ("--role minority --bracket told --items nothing", "item"),
    ("--role loge --items full --bracket told", "--bracket told is for the team roles"),
    ("--role leader", "--role must be one of"),
    ("--bracket maybe", "--bracket must be one of"),
    ("--against random", "heuristic profile"),
    ("--against nobody", "unknown bot profile"),
    ("--params aggression,bravery", "unknown parameter 'bravery'"),
    ("--params soft_trust", "soft_trust weighs the beliefs"),
    ("--params noise,noise", "names a parameter twice"),
    ("--games 5", "--games must be between"),
    ("--trials 0", "--trials must be between"),
    ("--threads 0", "--threads"),
    ("--name smart", "is a profile already"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    out = tmp_path / "t.csv"
    res = CliRunner().invoke(app, ["tune", *shlex.split(args), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert says in res.stderr and res.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())  # no work, nothing written


def test_out_must_be_a_csv_file_in_a_directory(tmp_path):
    for out, says in ((None, "--out FILE.csv is required"), (tmp_path / "t.txt", "expected a .csv file"),
                      (tmp_path / "no" / "t.csv", "does not exist")):
        res = CliRunner().invoke(app, ["tune", *(["--out", str(out)] if out else [])])
        assert res.exit_code == 2 and says in res.stderr and res.stderr.count("\n") == 1


def test_role_wins_count_the_role():
    rec = np.zeros((4, 42), np.int32)
    rec[:, REC.MINORITY] = [0, 0, 1, 1]
    rec[:, REC.WINNER] = [WIN.ORDER, WIN.BROTHERHOOD, WIN.SOLO, WIN.TIMEOUT]
    assert list(role_wins(rec, 5, "minority")) == [1, 0, 0, 0]
    assert list(role_wins(rec, 5, "majority")) == [0, 1, 0, 0]
    rec[:, REC.TEAM0:REC.TEAM0 + 3] = [0, 1, 1]
    rec[:, REC.LOGE_EVER] = [0b011, 0, 0b110, 0b100]
    rec[:, REC.SOLO_SEAT] = [-1, -1, 1, -1]
    got = role_wins(rec, 3, "loge")
    assert got[0] == 0.5 and np.isnan(got[1]) and got[2] == 0.5 and got[3] == 0.0


def test_a_small_tuning_writes_a_profile_and_resumes_without_replaying(tmp_path, monkeypatch):
    out = tmp_path / "told.csv"
    base = (f"tune --players 5 --items basic --role minority --bracket told --params declare_threshold,aggression "
            f"--games 40 --check-games 40 --seed 3 --threads 1 --out {out}")
    res = CliRunner().invoke(app, shlex.split(base + " --trials 2"))
    assert res.exit_code == 0, res.output
    assert "upper bound" in res.stdout
    db = f"sqlite:///{out}.optuna.db"
    first = [(t.number, t.params, t.value) for t in optuna.load_study(study_name="tune", storage=db).trials]
    assert len(first) == 2
    res = CliRunner().invoke(app, shlex.split(base + " --trials 2"))
    assert res.exit_code == 2 and "--resume" in res.stderr  # a study is there: not started again silently
    res = CliRunner().invoke(app, shlex.split(base.replace("--seed 3", "--seed 4") + " --trials 3 --resume"))
    assert res.exit_code == 2 and "holds another tuning" in res.stderr
    res = CliRunner().invoke(app, shlex.split(base + " --trials 3 --resume"))
    assert res.exit_code == 0, res.output
    assert "1 trials played, 3 in the study" in " ".join(res.stdout.split())
    study = optuna.load_study(study_name="tune", storage=db)
    assert [(t.number, t.params, t.value) for t in study.trials][:2] == first
    assert len(study.trials) == 3
    # the profile table loads, and selects the told smaller team's row
    prof = profiles.load_profiles(out, known=profiles.PROFILES)["smart-minority-told-5p"]
    assert prof.told == TOLD_SMALLER and prof.params == profiles.PROFILES["smart"].params
    (role, row), = prof.roles
    assert role == ROLE_MINORITY
    best = study.best_params
    assert row[PARAM_NAMES.index("aggression")] == pytest.approx(best["aggression"], abs=1e-4)
    use_profile_tables(monkeypatch, out)
    _, par = profiles.bot_arrays(profiles.check_bots(("smart-minority-told-5p",) * 5))
    assert par[0, P_TOLD] == TOLD_SMALLER
    assert par[0, ROLE_MINORITY * N_BPARAM + PARAM_NAMES.index("aggression")] == row[PARAM_NAMES.index("aggression")]


def test_the_baseline_is_the_plain_games_and_the_row_goes_to_the_roles_team_only(tmp_path):
    from kutsch_sim.api import GameConfig, run_batch
    from kutsch_sim.engine.state import as_record, new_state
    from kutsch_sim.play import init_game_nb
    from kutsch_sim.sim.tune import play, spec, tune_plan

    plan = tune_plan(players=5, items="basic", role="majority", bracket="honest", against="smart", params=None,
                     games=100, trials=1, seed=9, threads=2, out=tmp_path / "m.csv")
    rec = run_batch(GameConfig(5, "basic", ("smart",) * 5), 9, 0, 300)
    assert np.array_equal(play(plan, None, 9, 300), role_wins(rec, 5, "majority"))
    larger = rec[:, REC.TEAM0:REC.TEAM0 + 5] != rec[:, REC.MINORITY][:, None]
    # the row goes to the larger team's seats, game by game: the seats that read it are those
    sp = as_record(spec(plan, {"aggression": 2.75}, 9))
    st = new_state(0)
    for g in range(40):
        init_game_nb(st, sp, g)
        got = st.mem.brow[:5, ROLE_MAJORITY - 1, PARAM_NAMES.index("aggression")] == 2.75
        assert np.array_equal(got, larger[g]), g
    # a reckless larger team (declaring at lower confidence, attacking more) plays other games
    reckless = play(plan, {"declare_threshold": 0.5, "aggression": 3.0}, 9, 300)
    assert not np.array_equal(reckless, role_wins(rec, 5, "majority"))
