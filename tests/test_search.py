"""The search bot (``kutsch_sim.search``): worlds sampled from a seat's view only, valid
worlds, the seat's posterior honoured, its choice unchanged by anything it cannot see, and its
games reproducible on any number of threads."""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig, play_game, run_batch
from kutsch_sim.bots.dispatch import refresh_seat_nb
from kutsch_sim.bots.params import M_PRESET, M_PRESET_ODDS
from kutsch_sim.bots.reasons import R_SEARCH_PICK
from kutsch_sim.engine.game import play_turns_nb
from kutsch_sim.engine.invariants import check_nb
from kutsch_sim.engine.state import as_record, copy_state, new_state
from kutsch_sim.enums import EV, LOC_DECK, LOC_OUT, LOC_PILE, MAX_PLAYERS, N_CARDS, N_OCCS, SC
from kutsch_sim.play import init_game_nb
from kutsch_sim.search.games import work_states_nb
from kutsch_sim.search.lookahead import MAX_WIDTH, WINS_LEN, search_turn_nb
from kutsch_sim.search.sample import sample_world_nb

SEED = 5
CASES = [(6, "full", ()), (5, "basic", ()), (9, "basic+Loge", ()), (4, "full", ()), (7, "full", ("smuggling",)),
         (10, "full", ())]
SCRATCH = {"vw", "bel_bins"}  # filled by every decision (or refresh) before it is read


def position(n: int, items: str, variants: tuple, game: int, turns: int, bots=("smart",)):
    """A smart game played ``turns`` turns, the active seat's beliefs brought up to date."""
    cfg = GameConfig(n, items, bots, variants=variants)
    st = new_state(0)
    init_game_nb(st, as_record(cfg.spec(SEED)), game)
    play_turns_nb(st, turns)
    me = int(st.sc[SC.ACTIVE])
    refresh_seat_nb(st, me)
    return st, me


def positions():
    for n, items, variants in CASES:
        for game in range(4):
            for turns in (0, 3, 9, 20):
                st, me = position(n, items, variants, game, turns)
                if st.sc[SC.OVER] == 0:
                    yield st, me


def sample(st, me, k: int):
    dst = new_state(0)
    rs = np.array([0x1234 + 7919 * k, 0], np.uint64)
    sample_world_nb(dst, st, me, rs)
    return dst


def scrambled(st, me, rng: np.random.Generator):
    """A copy of ``st`` that seat ``me`` cannot tell from it: every hidden fact redrawn at
    random, whether consistent with the game or not (the associations it has not seen, the
    face-down occupations it has not seen, the cards in other hands and the deck, the box
    card, the record), and every other seat's private knowledge and bot memory made noise.
    Kept: its own cards, rows and memory; the public arrays and evidence; which seats have
    looked at whose cards (public, R5.7); the deck's top cards it knows (TOP_SEAT)."""
    s2 = copy_state(st)
    n = int(st.sc[SC.N])
    others = [q for q in range(n) if q != me]
    for q in others:
        if st.k_assoc[me, q] < 0:
            s2.assoc[q] = rng.integers(0, 2)
    known = {int(st.occ[p]) for p in range(n) if p == me or st.occ_up[p] or st.k_occ[me, p] >= 0}
    known |= {int(st.k_occ[me, p]) for p in range(n) if st.k_occ[me, p] >= 0}
    hidden = [q for q in others if not st.occ_up[q] and st.k_occ[me, q] < 0]
    pool = rng.permutation([o for o in range(N_OCCS) if o not in known])
    s2.occ_loc[:] = np.where(np.isin(np.arange(N_OCCS), list(known)), st.occ_loc, LOC_PILE)
    for q, o in zip(hidden, pool, strict=False):
        s2.occ[q] = o
        s2.occ_loc[o] = q
    dn = int(st.sc[SC.DECK_N])
    keep_top = int(st.sc[SC.TOP_KNOWN]) if st.sc[SC.TOP_SEAT] == me else 0
    cards = [c for c in range(N_CARDS) if st.loc[c] not in (me, LOC_OUT)
             and not (st.loc[c] == LOC_DECK and list(st.deck[:dn]).index(c) >= dn - keep_top)]
    slots = [int(st.loc[c]) if st.loc[c] != LOC_DECK else -1 for c in cards]
    deck_pos = iter(range(dn - keep_top))
    for c, x in zip(rng.permutation(cards), slots, strict=True):
        if x == -1:
            s2.loc[c] = LOC_DECK
            s2.deck[next(deck_pos)] = c
        else:
            s2.loc[c] = x
    s2.sc[SC.MINORITY] = rng.integers(0, 2) if n % 2 else -1
    s2.sc[SC.LEFTOVER] = s2.sc[SC.MINORITY]
    s2.rec[:] = rng.integers(-5, 50, size=s2.rec.shape)
    s2.opts[:] = rng.integers(0, 999, size=s2.opts.shape)
    s2.dctx[:] = rng.integers(-1, 9, size=s2.dctx.shape)
    m = s2.mem
    for q in [q for q in range(MAX_PLAYERS) if q != me]:
        s2.k_card[q] = rng.integers(-1, n, size=N_CARDS)
        s2.k_assoc[q] = np.where(st.k_assoc[q] >= 0, rng.integers(0, 2, size=MAX_PLAYERS), -1)
        s2.k_occ[q] = np.where(st.k_occ[q] >= 0, rng.integers(0, N_OCCS, size=MAX_PLAYERS), -1)
        for name in ("bel_epriv", "bel_w", "bel_team", "bel_conf", "bel_gpair"):
            getattr(m, name)[q] = rng.random(getattr(m, name)[q].shape)
        m.bel_minor[q] = rng.random()
        m.bel_fresh[q] = rng.integers(0, 2)
        m.bel_told[q] = rng.integers(-1, 2)
        m.bel_key[q] = rng.integers(0, 99, size=2)
        m.bel_idx[q] = rng.integers(0, 99, size=m.bel_idx.shape[1])
        m.bmem[q] = rng.integers(-1, 9, size=m.bmem.shape[1])
    return s2


def differing_fields(a, b, prefix="") -> list[str]:
    out = []
    for name in a.dtype.names:
        if name in SCRATCH:
            continue
        x, y = a[name], b[name]
        if x.dtype.names:
            out += differing_fields(x, y, prefix + name + ".")
        elif not np.array_equal(np.asarray(x), np.asarray(y)):
            out.append(prefix + name)
    return out


def test_worlds_are_drawn_from_the_seats_view_only():
    """The honest-view property for the search bot: whatever the seat cannot see is redrawn at
    random, and the worlds it samples stay the same to the byte."""
    rng = np.random.default_rng(3)
    count = 0
    for st, me in positions():
        for trial in range(2):
            s2 = scrambled(st, me, rng)
            for k in range(3):
                a, b = sample(st, me, k), sample(s2, me, k)
                assert differing_fields(a, b) == [], (int(st.sc[SC.N]), me, trial, k)
        count += 1
    assert count >= 60


def test_the_search_choice_depends_on_the_seats_view_only():
    rng = np.random.default_rng(4)
    work = [as_record(b) for b in work_states_nb()]
    cand = np.zeros(MAX_WIDTH, np.int64)
    wins = np.zeros(WINS_LEN, np.float64)
    chosen = 0
    for n, items, variants in CASES[:3]:
        for game in range(3):
            st, me = position(n, items, variants, game, 6)
            if st.sc[SC.OVER]:
                continue
            st.mem.bparam[me, 17], st.mem.bparam[me, 18] = 4, 6
            s2 = scrambled(st, me, rng)
            for s in (st, s2):
                search_turn_nb(s, me, *work, cand, wins)
            assert st.mem.bmem[me, M_PRESET] == s2.mem.bmem[me, M_PRESET]
            assert st.mem.bmem[me, M_PRESET_ODDS] == s2.mem.bmem[me, M_PRESET_ODDS]
            chosen += st.mem.bmem[me, M_PRESET] > 0
    assert chosen >= 5


def test_sampled_worlds_are_games_the_rules_accept_and_the_seat_cannot_tell_apart():
    for st, me in positions():
        n = int(st.sc[SC.N])
        for k in range(3):
            w = sample(st, me, k)
            w.sc[SC.DEBUG] = 1
            check_nb(w, np.bool_(True))
            assert w.sc[SC.ERROR] == 0
            assert np.array_equal(w.hand_n, st.hand_n) and w.sc[SC.DECK_N] == st.sc[SC.DECK_N]
            assert set(np.flatnonzero(w.loc == me)) == set(np.flatnonzero(st.loc == me))
            for p in range(n):
                if st.k_assoc[me, p] >= 0:
                    assert w.assoc[p] == st.k_assoc[me, p]
                if st.k_occ[me, p] >= 0 or st.occ_up[p]:
                    assert w.occ[p] == st.occ[p]
            for c in range(N_CARDS):  # a card once seen in a hand never goes back to the deck
                if 0 <= st.k_card[me, c] < n and st.loc[c] != me:
                    assert w.loc[c] < n
            if n % 2:
                size = [(w.assoc[:n] == t).sum() for t in (0, 1)]
                assert sorted(size) == [n // 2, n // 2 + 1] and size[w.sc[SC.MINORITY]] == n // 2
            # played on to the end, it is a game like any other
            w.sc[SC.DEBUG] = 1
            play_turns_nb(w, -1)
            assert w.sc[SC.ERROR] == 0 and w.sc[SC.OVER] == 1


@pytest.mark.parametrize("bots", [("smart-v2",), ("smart",)])
def test_the_sampled_teams_follow_the_seats_posterior(bots):
    """Worlds' teams are drawn from the seat's posterior: as it is for an uncalibrated seat, its
    weights raised to its count's TEMPER for a calibrated one (bots.calibration)."""
    from kutsch_sim.bots.calibration import TEMPER
    from kutsch_sim.bots.params import P_CALIBRATED

    st, me = position(6, "full", (), 1, 12, bots)
    n = 6
    counts = np.zeros(n)
    k = 3000
    for i in range(k):
        w = sample(st, me, i)
        counts += w.assoc[:n] == w.assoc[me]
    tau = float(TEMPER[n]) if st.mem.bparam[me, P_CALIBRATED] > 0 else 1.0
    na = int(st.sc[SC.N_ASG])
    wt = np.where(st.mem.bel_w[me, :na] > 0, st.mem.bel_w[me, :na], 0.0) ** tau
    wt[st.mem.bel_w[me, :na] <= 0] = 0.0
    asg = st.mem.bel_asg[:na].astype(np.int64)
    mine = (asg >> me) & 1
    want = np.array([(wt * (((asg >> p) & 1) == mine)).sum() / wt.sum() for p in range(n)])
    assert np.all(np.abs(counts / k - want) < 4 * np.sqrt(want * (1 - want) / k) + 1e-9), (counts / k, want)


@pytest.mark.parametrize("n,items", [(6, "full"), (5, "basic+Loge")])
def test_search_games_are_the_same_on_one_or_two_threads(n, items):
    cfg = GameConfig(n, items, ("search-s", "smart") * (n // 2) + ("smart",) * (n % 2))
    import numba

    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_batch(cfg, SEED, 0, 6)
        numba.set_num_threads(2)
        two = run_batch(cfg, SEED, 0, 6)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, two)
    assert np.array_equal(one[2], run_batch(cfg, SEED, 2, 1)[0])  # a game depends on its index only
    assert (one[:, 0] >= 0).all()


def test_a_traced_search_game_is_the_batch_game_and_says_why():
    cfg = GameConfig(6, "full", ("search-s", "smart") * 3)
    g = play_game(cfg, SEED, 3)
    assert np.array_equal(g.record, run_batch(cfg, SEED, 3, 1)[0])
    picks = g.events[(g.events[:, 0] == EV.REASON) & (g.events[:, 3] == R_SEARCH_PICK)]
    assert len(picks) > 0 and set(picks[:, 2]) <= {0, 2, 4}  # the search seats only
    stated, taken, base = picks[:, 5] // 1_000_000, (picks[:, 5] // 1000) % 1000, picks[:, 5] % 1000
    assert ((base >= 0) & (base < taken) & (taken <= 100)).all()  # logged only when it leaves smart's choice
    assert ((stated >= 0) & (stated <= 100)).all()  # its P(win), the share read through M_SEARCH


def test_without_a_search_seat_the_games_are_smarts():
    """A search seat with no look-ahead to make (a budget of 0 samples) plays smart's game."""
    cfg = GameConfig(6, "full", ("smart",))
    want = run_batch(cfg, SEED, 0, 4)
    spec = cfg.spec(SEED)
    from kutsch_sim.bots.params import BOT_SEARCH
    from kutsch_sim.search.games import play_search_games_nb

    out = np.zeros_like(want)
    spec[0]["bots"][:6] = BOT_SEARCH
    play_search_games_nb(spec, 0, out)
    assert np.array_equal(out, want)


def _table(tmp_path, header_extra: str, rows: list[str]):
    from kutsch_sim.bots.params import P_SEARCH_WIDTH, PARAM_NAMES

    core = PARAM_NAMES[:P_SEARCH_WIDTH]
    path = tmp_path / "t.csv"
    path.write_text("profile,bot," + ",".join(core) + header_extra + "\n" + "\n".join(rows) + "\n")
    return path


def test_profile_tables_take_the_search_budget_as_optional_columns(tmp_path):
    from kutsch_sim.bots.params import BOT_SEARCH, P_SEARCH_MARGIN, P_SEARCH_SAMPLES, P_SEARCH_WIDTH
    from kutsch_sim.bots.profiles import load_profiles
    from kutsch_sim.errors import KutschError

    vals = ",".join(["0.5"] * 17)
    old = load_profiles(_table(tmp_path, "", [f"mine,smart,{vals}"]))  # the form without them
    assert old["mine"].params[P_SEARCH_WIDTH:P_SEARCH_MARGIN + 1] == (0.0, 0.0, 0.0)
    new = load_profiles(_table(tmp_path, ",search_width,search_samples,search_margin", [f"s2,search,{vals},4,10,0.5"]))
    assert new["s2"].bot == BOT_SEARCH
    assert (new["s2"].params[P_SEARCH_WIDTH], new["s2"].params[P_SEARCH_SAMPLES],
            new["s2"].params[P_SEARCH_MARGIN]) == (4.0, 10.0, 0.5)
    for row, words in ((f"s3,search,{vals},0,10,0", "whole numbers"), (f"s3,search,{vals},2.5,10,0", "whole numbers"),
                       (f"s3,smart,{vals},4,10,0", "bot search only")):
        with pytest.raises(KutschError, match=words):
            load_profiles(_table(tmp_path, ",search_width,search_samples,search_margin", [row]))
    with pytest.raises(KutschError, match="columns must be"):
        load_profiles(_table(tmp_path, ",search_width", [f"s3,search,{vals},4"]))


def test_the_look_aheads_counters_add_up():
    """Each compared decision plays its first look whole (candidates x search_samples), and a
    second look of two actions on as many fresh worlds for each pick judged again
    (scripts/analyse/search_cost.py reads the counters)."""
    from kutsch_sim.bots.params import P_SEARCH_SAMPLES
    from kutsch_sim.bots.profiles import PROFILES

    from _helpers_scripts import load_script

    mod = load_script("analyse/search_cost.py", "search_cost_under_test")
    for name in ("search-s", "search-m"):
        c = mod.counters(GameConfig(6, "full", (name,)), SEED, 4)
        assert c["decisions"] > 20 and 0 < c["taken"] <= c["judged_again"] <= 1
        samples = PROFILES[name].params[P_SEARCH_SAMPLES]
        assert c["rollouts_per_decision"] == pytest.approx(
            c["full_first_look_per_decision"] + 2 * samples * c["judged_again"])
