"""The look-ahead's value table (``kutsch_sim.search.value``): a position's cell read from the
truth as the rules define it (R6.3, R6.5, R7, R9), a finished game scored by who won, the table
made from measured shares, and cut rollouts that leave the games of every full-rollout profile
as they were."""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.cards_nb import now_team_nb
from kutsch_sim.engine.game import play_turns_nb
from kutsch_sim.engine.state import as_record, new_state
from kutsch_sim.enums import N_CARDS, REC, SC, WIN
from kutsch_sim.play import init_game_nb
from kutsch_sim.search import value as V
from kutsch_sim.search.value_table import VALUE

from _helpers_scripts import load_script

SEED = 11


def cell_by_hand(st, me: int) -> tuple[int, int, int, int]:
    """(ours, theirs, drink, loge) of ``value.cell_nb``, spelled out from the rules."""
    n = int(st.sc[SC.N])
    team = int(st.assoc[me])
    ours = theirs = 0
    for c in range(N_CARDS):
        p = int(st.loc[c])
        if not 0 <= p < n:
            continue
        t = now_team_nb(c, int(st.sc[SC.BAGS_OPEN]))  # R9: a Bag counts once the deck is empty
        if t >= 0 and int(st.assoc[p]) == t:
            ours += t == team
            theirs += t != team
    mino = int(st.sc[SC.MINORITY])
    drink = 0 if mino < 0 else (1 if mino == team else 2) + (0 if st.sc[SC.DRINK] == 1 else 2)
    h = int(st.loc[N_CARDS - 1])
    loge = 0 if not 0 <= h < n else 1 if h == me else 2 if st.assoc[h] == team else 3
    return min(ours, 3), min(theirs, 3), drink, loge


@pytest.mark.parametrize("n,items,drink", [(6, "full", True), (5, "basic+Loge", True), (9, "full", False),
                                            (3, "full", True)])
def test_a_positions_cell_is_read_from_the_truth_from_each_seats_side(n, items, drink):
    cfg = GameConfig(n, items, ("smart",), drink=drink)
    seen = set()
    for game in range(6):
        st = new_state(0)
        init_game_nb(st, as_record(cfg.spec(SEED)), game)
        while st.sc[SC.OVER] == 0:
            for me in range(n):
                a, b, m, lo = cell_by_hand(st, me)
                assert V.cell_nb(st, np.int64(me)) == ((a * V.N_B + b) * V.N_M + m) * V.N_L + lo
                seen.add((a, b, m, lo))
            play_turns_nb(st, 1)
        for me in range(n):  # a finished game is scored by who won, not by the table
            w = int(st.sc[SC.WINNER])
            won = w == st.assoc[me] or (w == WIN.SOLO and st.sc[SC.SOLO_SEAT] == me)
            assert V.value_nb(st, np.int64(me)) == float(won)
    assert len({s[0] for s in seen}) >= 3  # the games moved through several cells
    if n % 2:
        assert {s[2] for s in seen} <= ({1, 2} if drink else {3, 4})
    else:
        assert {s[2] for s in seen} == {0}


def test_the_table_is_the_measured_share_leaning_on_coarser_cells_where_positions_are_few():
    fit = load_script("dev/fit_value.py", "fit_value_under_test")
    counts = np.zeros(V.N_CELLS)
    wins = np.zeros(V.N_CELLS)
    rich = ((3 * V.N_B + 0) * V.N_M + 0) * V.N_L + 0  # ours 3, theirs 0
    counts[rich], wins[rich] = 100_000, 90_000
    poor = ((0 * V.N_B + 3) * V.N_M + 0) * V.N_L + 0  # ours 0, theirs 3
    counts[poor], wins[poor] = 100_000, 5_000
    t = fit.shrink(counts, wins)
    assert t[rich] == pytest.approx(0.9, abs=1e-3) and t[poor] == pytest.approx(0.05, abs=1e-3)
    lonely = rich + 1  # the same ours and theirs, the Loge in my hand: no positions, the cell above it
    assert t[lonely] == pytest.approx(0.9, abs=1e-3)
    empty = ((1 * V.N_B + 1) * V.N_M + 0) * V.N_L + 0  # nothing measured: the share of all positions
    assert t[empty] == pytest.approx(wins.sum() / counts.sum(), abs=1e-3)


def test_the_committed_table_rises_with_our_items_and_falls_with_theirs():
    """A plain reading of R6.3 that the measured table must bear out at every count: holding more
    of our victory items is better, the other team's holding more of theirs is worse (the Loge
    in no hand, the Drink as dealt)."""
    for n in range(3, 11):
        m = 1 if n % 2 else 0
        v = VALUE[n].reshape(V.N_A, V.N_B, V.N_M, V.N_L)[:, :, m, 0]
        assert v[3, 0] > v[1, 0] > v[0, 1] > v[0, 3]
        assert v.min() > 0.0 and v.max() < 1.0


def _depth(monkeypatch, depth: int) -> str:
    """search-m-full (rollouts to the end) with its rollouts cut after ``depth`` rounds, as a
    profile of its own."""
    from kutsch_sim.bots import profiles
    from kutsch_sim.bots.params import P_SEARCH_DEPTH

    prof = profiles.PROFILES["search-m-full"]
    par = list(prof.params)
    par[P_SEARCH_DEPTH] = float(depth)
    name = f"search-m-depth-{depth}"
    monkeypatch.setitem(profiles.PROFILES, name, prof._replace(params=tuple(par)))
    return name


def test_cut_rollouts_play_valid_reproducible_games_and_depth_0_plays_to_the_end(monkeypatch):
    def seats(name):
        return GameConfig(6, "full", (name,) * 3 + ("smart",) * 3, stream="value")

    cut = run_batch(seats(_depth(monkeypatch, 1)), SEED, 0, 6, debug=True)  # the rules' invariants checked
    assert (cut[:, REC.WINNER] != WIN.ERROR).all()
    assert np.array_equal(cut, run_batch(seats("search-m"), SEED, 0, 6))  # search-m cuts after one round
    whole = run_batch(seats(_depth(monkeypatch, 0)), SEED, 0, 6)
    assert np.array_equal(whole, run_batch(seats("search-m-full"), SEED, 0, 6))
    assert not np.array_equal(cut, whole)  # the cut changes what the look-ahead picks


def test_profile_tables_check_the_search_depth(tmp_path):
    from kutsch_sim.bots.params import P_SEARCH_DEPTH, PARAM_NAMES, P_SEARCH_WIDTH
    from kutsch_sim.bots.profiles import load_profiles
    from kutsch_sim.errors import KutschError

    head = "profile,bot," + ",".join(PARAM_NAMES)
    vals = ",".join(["0.5"] * P_SEARCH_WIDTH)
    path = tmp_path / "t.csv"
    path.write_text(f"{head}\nd,search,{vals},5,8,0.5,1,1,0,12\n")
    assert load_profiles(path)["d"].params[P_SEARCH_DEPTH] == 12.0
    for row, words in ((f"d,search,{vals},5,8,0.5,1,1,0,2.5", "whole number"),
                       (f"d,smart,{vals},0,0,0,1,1,0,12", "bot search only")):
        path.write_text(f"{head}\n{row}\n")
        with pytest.raises(KutschError, match=words):
            load_profiles(path)
