"""scripts/dev/fit_beliefs.py writes fitted maps into the package: its ``search`` step and its
``maps --only`` must replace the maps named alone, at the counts their claims hold, and keep
everything else."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.bots import calibration_table
from kutsch_sim.bots.calibration import M_SEARCH, N_MAPS, S_MINOR, S_NAMED, S_NAMED_DECL
from kutsch_sim.calib import fit as F
from kutsch_sim.calib import surface as S
from kutsch_sim.calib.record import T_MINORITY, T_NAMED, T_SEARCH

from _helpers_scripts import load_module

pytestmark = pytest.mark.apart  # compiles nothing

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts" / "dev"


def test_the_search_step_refits_the_search_map_alone(tmp_path, monkeypatch):
    fb = load_module(SCRIPTS / "fit_beliefs.py", "fit_beliefs_under_test")
    table = tmp_path / "calibration_table.py"
    table.write_text(Path(calibration_table.__file__).read_text())
    monkeypatch.setattr(fb, "TABLE", table)
    # claims of a search whose shares overstate: it wins (share + 0.2) / 2 of the time
    rng = np.random.default_rng(3)
    rows = []
    for n in (5, 9):
        share = rng.choice(np.arange(9) / 8, 6000)
        won = (rng.random(6000) < (share + 0.2) / 2).astype(float)
        rows.append(pd.DataFrame({"n": n, "type": T_SEARCH, "x1": share, "x2": share, "stated": share,
                                  "label": won}))
    monkeypatch.setattr(fb, "_claims", lambda runs, prof: pd.concat(rows, ignore_index=True))
    fb.search_map("runs/x", "search-m")

    new = load_module(table, "table_under_test")
    old = calibration_table
    assert new.TEMPER_FIT == old.TEMPER_FIT and new.SURF == old.SURF
    for n in range(11):
        for k in range(N_MAPS):
            if k != M_SEARCH:
                assert new.CAL[n][k] == old.CAL[n][k] and new.KNOTS[n][k] == old.KNOTS[n][k], (n, k)
            elif n not in (5, 9):
                assert new.CAL[n][k] == F.IDENTITY.coef
    for n in (5, 9):
        mp = F.Map(new.CAL[n][M_SEARCH], new.KNOTS[n][M_SEARCH])
        got = F.apply(mp, F.logit([0.125, 0.5, 1.0]))
        assert np.all(np.diff(got) > 0)
        assert abs(got[1] - 0.35) < 0.05 and abs(got[2] - 0.6) < 0.05  # the truth: (0.5 + 0.2) / 2, (1 + 0.2) / 2
    text = table.read_text()
    assert "fitted on the claims of the profile smart" in text  # the other maps' provenance is kept
    assert "M_SEARCH (5, 9 players" in text and "on the picks of search-m in runs/x (12,000 claims)" in text


def test_maps_only_refits_what_it_names(tmp_path, monkeypatch):
    """``maps --only named,minority``: the surfaces of P(teammate) and of P(smaller) at the counts
    the claims hold, fitted to them; every other map and surface as the table had it."""
    fb = load_module(SCRIPTS / "fit_beliefs.py", "fit_beliefs_only_under_test")
    table = tmp_path / "calibration_table.py"
    table.write_text(Path(calibration_table.__file__).read_text())
    monkeypatch.setattr(fb, "TABLE", table)
    rng = np.random.default_rng(5)
    m = 40000
    x = rng.uniform(0.05, 0.95, m)
    hard = rng.choice([0.4, 0.5], m)
    named = rng.random(m) < 0.3  # the seats a declaration taken names: teammates more often
    truth = np.where(named, 0.8, 0.3 + 0.2 * (hard == 0.5) + 0.2 * ((x > 0.3) & (x < 0.6)))  # not monotone in x
    base = {"config": 0, "turn": 0, "seat": 0, "kind": 0}
    d = pd.DataFrame({**base, "n": 6, "type": T_NAMED, "game": np.arange(m), "about": 1, "x1": hard, "x2": x,
                      "stated": x, "chosen": named.astype(int), "label": (rng.random(m) < truth).astype(float)})
    k = 30000  # P(smaller) claims at 5 players whose posterior overstates: the truth is 0.1 + 0.5 x
    y = rng.uniform(0.05, 0.95, k)
    mi = pd.DataFrame({**base, "n": 5, "type": T_MINORITY, "game": np.arange(k), "about": -1, "x1": 0.5, "x2": y,
                       "stated": y, "chosen": 0, "label": (rng.random(k) < 0.1 + 0.5 * y).astype(float)})
    monkeypatch.setattr(fb, "_claims", lambda runs, prof: pd.concat([d, mi], ignore_index=True))
    fb.maps("runs/y", "smart", None, "search-m", ["named", "minority"])

    new = load_module(table, "table_only_under_test")
    old = calibration_table
    assert new.TEMPER_FIT == old.TEMPER_FIT and new.CAL == old.CAL and new.KNOTS == old.KNOTS
    for n in range(11):
        for j in range(len(old.SURF[n])):
            if (n, j) not in ((6, S_NAMED), (6, S_NAMED_DECL), (5, S_MINOR)):
                assert new.SURF[n][j] == old.SURF[n][j], (n, j)
    sm = np.asarray(new.SURF[5][S_MINOR])
    got = S.apply_surface(sm, F.logit([0.2, 0.8]), F.logit([0.5, 0.5]))
    assert np.abs(got - np.array([0.2, 0.5])).max() < 0.05
    s0, s1 = np.asarray(new.SURF[6][S_NAMED]), np.asarray(new.SURF[6][S_NAMED_DECL])
    for xx, hh, want in ((0.2, 0.4, 0.3), (0.45, 0.4, 0.5), (0.8, 0.4, 0.3), (0.45, 0.5, 0.7), (0.8, 0.5, 0.5)):
        assert abs(S.apply_surface(s0, F.logit([xx]), F.logit([hh]))[0] - want) < 0.06, (xx, hh)
    assert abs(S.apply_surface(s1, F.logit([0.5]), F.logit([0.4]))[0] - 0.8) < 0.05
    text = table.read_text()
    assert "S_NAMED, S_MINORITY (5, 6 players) refitted on the claims of the profile smart in runs/y" in text
    assert text.index("S_NAMED, S_MINORITY") < text.index("M_SEARCH (")  # a later search refit keeps it


def test_maps_refuses_an_unknown_map_before_reading_claims(monkeypatch, capsys):
    fb = load_module(SCRIPTS / "fit_beliefs.py", "fit_beliefs_bad_under_test")
    monkeypatch.setattr(fb, "_claims", lambda runs, prof: pytest.fail("read claims"))
    with pytest.raises(SystemExit) as e:
        fb.maps("runs/y", "smart", None, "search-m", ["nameless"])
    assert e.value.code == 2 and "no map 'nameless'" in capsys.readouterr().err


def test_the_team_map_reads_the_odds_of_playing_on(tmp_path, monkeypatch):
    """``maps --only team``: M_TEAM is fitted on the declarations taken, on their parts and on the
    stated P(win by playing on) that the table's own M_WAIT gives (kept, as M_ITEM is): at the same
    parts, a declaration taken with poor odds of playing on states less."""
    from kutsch_sim.bots.calibration import M_ITEM, M_TEAM, M_WAIT, S_JOINT
    from kutsch_sim.calib.record import T_DECL_TEAM, T_JOINT, T_WAIT

    fb = load_module(SCRIPTS / "fit_beliefs.py", "fit_beliefs_team_under_test")
    table = tmp_path / "calibration_table.py"
    table.write_text(Path(calibration_table.__file__).read_text())
    monkeypatch.setattr(fb, "TABLE", table)
    rng = np.random.default_rng(9)
    m, n = 40000, 6
    key = {"config": 0, "game": np.arange(m), "turn": 10, "seat": 1, "n": n}
    post = rng.uniform(0.3, 0.97, m)  # the joint's posterior, its hard share 1/2
    raw = rng.uniform(0.1, 0.9, m)  # act.wait_odds_nb
    joint = F.read_surface(np.asarray(calibration_table.SURF[n][S_JOINT]), post, np.full(m, 0.5))
    wait = F.apply(F.in_table(n, M_WAIT), F.logit(raw), np.full(m, 0.1))
    truth = np.clip(joint - 0.25 * (wait < 0.45), 0.0, 1.0)  # the marginal gambles succeed less
    ok = (rng.random(m) < truth).astype(float)
    dec = pd.DataFrame({**key, "type": T_DECL_TEAM, "kind": 0, "about": 2, "stated": joint, "label": ok,
                        "chosen": 1, "x1": joint, "x2": post})
    jn = pd.DataFrame({**key, "type": T_JOINT, "kind": 0, "about": 2, "stated": joint, "label": ok, "chosen": 1,
                       "x1": 0.5, "x2": post})
    wt = pd.DataFrame({**key, "type": T_WAIT, "kind": 0, "about": -1, "stated": wait, "label": 0.0, "chosen": 1,
                       "x1": raw, "x2": 0.1})
    monkeypatch.setattr(fb, "_claims", lambda runs, prof: pd.concat([dec, jn, wt], ignore_index=True))
    fb.maps("runs/z", "smart", None, "search-m", ["team"])

    new = load_module(table, "table_team_under_test")
    old = calibration_table
    assert new.SURF == old.SURF
    for k in (M_ITEM, M_WAIT):
        assert new.CAL[n][k] == old.CAL[n][k] and new.KNOTS[n][k] == old.KNOTS[n][k]
    mp = F.Map(new.CAL[n][M_TEAM], new.KNOTS[n][M_TEAM])
    lo, hi = F.apply(mp, F.logit([0.8, 0.8]), F.logit([0.3, 0.7]))
    assert new.CAL[n][M_TEAM][2] > 0.0 and hi - lo > 0.1, (lo, hi)
