"""Role rows and told seats (bots.params ROLE_*, P_TOLD) and the profile tables that hold them.

1. The View's parameters are the row of the seat's role as it sees it: the Loge row while the
   Loge is in its hand, else at odd N the minority or majority row by its own P(minority).
2. A table whose role rows equal the base rows plays the very games of the base rows.
3. A told seat's P(minority) is exactly the truth, at every count and for both heuristic bots.
4. Profile tables: ``when`` and ``told`` columns, empty cells, one-line errors naming the line.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.bots import profiles
from kutsch_sim.bots.dispatch import seat_bots_nb
from kutsch_sim.bots.params import (
    N_BPARAM,
    N_ROLES,
    P_DECLARE_THRESHOLD,
    P_TOLD,
    PARAM_NAMES,
    OPTIONAL_NAMES,
    ROLE_LOGE,
    ROLE_MAJORITY,
    ROLE_MINORITY,
)
from kutsch_sim.bots.view import fill_light_nb
from kutsch_sim.cards_nb import C_LOGE
from kutsch_sim.engine.state import new_state
from kutsch_sim.enums import DEC, REC
from kutsch_sim.errors import KutschError
from kutsch_sim.play import play_batch, play_one_nb

from _helpers_bots_view import position
from _helpers_profiles import use_profile_tables


@njit(cache=True)
def view_par_nb(st, seat):
    return fill_light_nb(st, seat, DEC.SUPPORT, 0, 3).par.copy()


def rows_table(n: int) -> np.ndarray:
    """float64[10, N_ROLES * N_BPARAM]: seat p's row r holds 100 * r + p in every slot."""
    t = np.zeros((10, N_ROLES * N_BPARAM))
    for r in range(N_ROLES):
        for p in range(n):
            t[p, r * N_BPARAM:(r + 1) * N_BPARAM] = 100 * r + p
    return t


@pytest.mark.parametrize("n", [5, 6])
def test_the_view_reads_the_row_of_the_seats_role(n):
    st = position(n, ("smart",) * n, 4, 3)
    seat = 1
    bots = st.mem.bot.copy()
    seat_bots_nb(st, n, bots, rows_table(n))
    assert st.mem.brole[seat] == 0b1110
    lo = st.k_card[seat, C_LOGE]
    st.k_card[seat, C_LOGE] = -1
    for minor, want in ((0.7, ROLE_MINORITY), (0.5, ROLE_MINORITY), (0.3, ROLE_MAJORITY)):
        st.mem.bel_minor[seat] = minor
        got = view_par_nb(st, seat)
        assert np.all(got == 100 * (want if n % 2 else 0) + seat), (minor, got[:3])
    st.k_card[seat, C_LOGE] = seat  # the Loge in its own hand: the Loge row comes first
    assert np.all(view_par_nb(st, seat) == 100 * ROLE_LOGE + seat)
    st.k_card[seat, C_LOGE] = (seat + 1) % n  # seen in another hand: not its role
    assert np.all(view_par_nb(st, seat) == 100 * (ROLE_MAJORITY if n % 2 else 0) + seat)
    # a role row equal to the base row is never read: only the minority row differs here
    t = rows_table(n)
    for r in (ROLE_MAJORITY, ROLE_LOGE):
        t[:, r * N_BPARAM:(r + 1) * N_BPARAM] = t[:, :N_BPARAM]
    seat_bots_nb(st, n, bots, t)
    assert st.mem.brole[seat] == 1 << ROLE_MINORITY
    st.k_card[seat, C_LOGE] = seat
    st.mem.bel_minor[seat] = 0.9
    assert np.all(view_par_nb(st, seat) == 100 * (ROLE_MINORITY if n % 2 else 0) + seat)
    st.k_card[seat, C_LOGE] = lo


def test_role_rows_equal_to_the_base_row_seat_the_same_bots():
    """The game spec widens every parameter table to role rows (``kutsch_sim.spec``): a seat
    whose role rows equal its base row gets the same memory as from a base row alone."""
    cfg = GameConfig(5, "full", ("smart", "greedy", "smart", "smart", "greedy"))
    bots, par = profiles.bot_arrays(cfg.bots)
    narrow, wide = new_state(0), new_state(0)
    seat_bots_nb(narrow, 5, bots, par)
    seat_bots_nb(wide, 5, bots, profiles.with_roles(par))
    for f in ("bot", "bparam", "brow", "brole"):
        assert np.array_equal(getattr(narrow.mem, f), getattr(wide.mem, f)), f
    base = play_batch(cfg.spec(5), 0, 200)
    wider = profiles.with_roles(par)
    wider[:5, ROLE_MINORITY * N_BPARAM + P_DECLARE_THRESHOLD] = 0.55  # a bolder smaller team plays other games
    assert (play_batch(cfg.spec(5, params=wider), 0, 200) != base).any()


@pytest.mark.parametrize("n,items", [(3, "basic"), (5, "full"), (7, "basic"), (9, "full")])
def test_told_seats_hold_the_truth_about_their_teams_size(n, items):
    cfg = GameConfig(n, items, tuple(("smart", "greedy")[p % 3 == 2] for p in range(n)))
    par = profiles.bot_arrays(cfg.bots)[1]
    par[:n, P_TOLD] = 3
    par[0, P_TOLD] = 0  # seat 0 is not told
    spec = cfg.spec(2, params=par)
    free = []
    for g in range(12):
        rec, _, _, _, minor = play_one_nb(spec, g, 20000)
        truth = (rec[REC.TEAM0:REC.TEAM0 + n] == rec[REC.MINORITY]).astype(float)
        assert np.array_equal(minor[1:n], truth[1:])
        free.append(minor[0])
    assert any(0.0 < m < 1.0 for m in free)  # the seat not told keeps an estimate


def test_told_bits_tell_only_the_team_they_name():
    cfg = GameConfig(5, "basic", ("smart",) * 5)
    par = profiles.bot_arrays(cfg.bots)[1]
    for bits, told_minority in ((1, True), (2, False)):
        par[:5, P_TOLD] = bits
        spec = cfg.spec(1, params=par)
        for g in range(6):
            r = play_game(cfg, 1, g)  # (for the truth of game g)
            rec, _, _, _, minor = play_one_nb(spec, g, 20000)
            assert np.array_equal(rec[REC.TEAM0:REC.TEAM0 + 5], r.record[REC.TEAM0:REC.TEAM0 + 5])
            for p in range(5):
                in_minority = rec[REC.TEAM0 + p] == rec[REC.MINORITY]
                if in_minority == told_minority:
                    assert minor[p] == (1.0 if in_minority else 0.0)


# ------------------------------------------------------------------ profile tables
CORE = PARAM_NAMES[: len(PARAM_NAMES) - len(OPTIONAL_NAMES)]  # a table may leave out the optional columns
HEAD = "profile,bot,when,told," + ",".join(CORE)
ONES = ",".join(["1"] * len(CORE))
WANT = (1.0,) * len(CORE) + (0.0,) * len(OPTIONAL_NAMES)


def _cells(**kw) -> str:
    return ",".join(str(kw.get(c, "")) for c in CORE)


def test_profile_tables_with_role_rows(tmp_path):
    f = tmp_path / "mine.csv"
    f.write_text(f"# a comment\n{HEAD}\nbold,smart,any,1,{ONES}\nbold,smart,minority,,{_cells(aggression=2.5)}\n"
                 f"bold,smart,loge,1,{_cells(pass_bias=0.5, soft_trust=1)}\n")
    prof = profiles.load_profiles(f)["bold"]
    assert prof.told == 1 and prof.params == WANT
    (r1, row1), (r3, row3) = prof.roles
    assert (r1, r3) == (ROLE_MINORITY, ROLE_LOGE)
    assert row1[PARAM_NAMES.index("aggression")] == 2.5 and row1[0] == 1.0
    assert row3[PARAM_NAMES.index("pass_bias")] == 0.5
    # written back and read again: the same profile
    g = tmp_path / "again.csv"
    g.write_text(profiles.profile_table("bold", prof, "written"))
    assert profiles.load_profiles(g)["bold"] == prof
    # the plain form (no when, no told) still reads
    f.write_text(f"profile,bot,{','.join(CORE)}\nplain,greedy,{ONES}\n")
    assert profiles.load_profiles(f)["plain"] == profiles.Profile(2, WANT)


@pytest.mark.parametrize("rows, says", [
    (f"bold,smart,minority,,{ONES}", "line 2: a 'minority' row must follow the base row"),
    (f"bold,smart,any,0,{ONES}\nbold,smart,sometimes,,{ONES}", "line 3: when must be one of"),
    (f"bold,smart,any,0,{ONES}\nbold,smart,minority,,{_cells(soft_trust=0.2)}", "line 3: soft_trust is the base"),
    (f"bold,smart,any,0,{ONES}\nbold,smart,minority,2,{ONES}", "line 3: told is the base row's"),
    (f"bold,smart,any,0,{ONES}\nbold,greedy,minority,,{ONES}", "line 3: profile 'bold' has its 'minority' row"),
    (f"bold,smart,any,0,{ONES}\nbold,smart,loge,,{ONES}\nbold,smart,loge,,{ONES}", "line 4: profile 'bold' has"),
    (f"bold,smart,any,5,{ONES}", "line 2: told must be 0, 1, 2 or 3"),
    (f"bold,smart,any,0,{ONES}\nbold,smart,majority,,{_cells(aggression='x')}", "line 3: aggression must be a number"),
    (f"smart,smart,any,0,{ONES}", "line 2: profile name 'smart' is empty or repeated"),
])
def test_bad_profile_tables_say_which_line(tmp_path, rows, says):
    f = tmp_path / "bad.csv"
    f.write_text(f"{HEAD}\n{rows}\n")
    with pytest.raises(KutschError, match=says):
        profiles.load_profiles(f, known=profiles.PROFILES)


def test_bad_header_names_the_columns(tmp_path):
    f = tmp_path / "bad.csv"
    f.write_text(f"profile,bot,told,when,{','.join(CORE)}\n")
    with pytest.raises(KutschError, match=r"line 1: columns must be profile,bot\[,when\]\[,told\]"):
        profiles.load_profiles(f)


def test_bot_arrays_hold_the_role_rows(tmp_path, monkeypatch):
    f = tmp_path / "mine.csv"
    f.write_text(f"{HEAD}\nbold,smart,any,1,{ONES}\nbold,smart,majority,,{_cells(noise=0)}\n")
    use_profile_tables(monkeypatch, f)
    assert profiles.check_bots(("Bold", "smart")) == ("bold", "smart")
    bots, par = profiles.bot_arrays(("bold", "smart"))
    assert par.shape == (10, N_ROLES * N_BPARAM)
    assert par[0, P_TOLD] == 1 and par[0, ROLE_MAJORITY * N_BPARAM + P_TOLD] == 1
    assert par[0, ROLE_MAJORITY * N_BPARAM + PARAM_NAMES.index("noise")] == 0.0
    assert np.array_equal(par[1, N_BPARAM:2 * N_BPARAM], par[1, :N_BPARAM])  # smart: no role rows
    assert profiles.bot_arrays(("smart", "smart"))[1].shape == (10, N_BPARAM)


def test_a_bad_user_table_is_one_error_at_the_first_lookup(tmp_path, monkeypatch):
    f = tmp_path / "mine.csv"
    f.write_text(f"{HEAD}\nbold,smart,any,0,{ONES}\nbold,smart,any,0,{ONES}\n")
    use_profile_tables(monkeypatch, f)
    with pytest.raises(KutschError, match=r"mine.csv: line 3: profile name 'bold'"):
        profiles.check_bots(("smart",))
