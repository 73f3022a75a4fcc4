"""scripts/dev/fit_beliefs.py writes fitted maps into the package: its ``search`` step must
replace the search's map alone, at the counts its claims hold, and keep everything else."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kutsch_sim.bots import calibration_table
from kutsch_sim.bots.calibration import M_SEARCH, N_MAPS
from kutsch_sim.calib import fit as F
from kutsch_sim.calib.record import T_SEARCH

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
    assert new.TEMPER_FIT == old.TEMPER_FIT
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
    assert "Fitted on the claims of the profile smart" in text  # the other maps' provenance is kept
    assert "M_SEARCH (5, 9 players" in text and "on the picks of search-m in runs/x (12,000 claims)" in text
