"""The calibration recorder (``kutsch_sim.calib.record``): its games are the batch's games, and
each claim's label is the truth of the game at the moment it was made."""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.calib import record as R
from kutsch_sim.enums import DK, REC, WIN

SEED = 31


def claims(n: int, items: str, bots: tuple[str, ...], games: int, threads: int = 1):
    cfg = GameConfig(n, items, bots)
    nn, in_game, stamped, b, params = cfg.arrays()
    rec, cl, dropped = R.record_claims(nn, in_game, stamped, b, params, np.uint64(SEED), cfg.config_id, 0, games,
                                       cfg.turn_cap, cfg.drink, cfg.variant_bits, threads=threads)
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
