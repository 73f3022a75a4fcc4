"""Positions copied and played forward (``kutsch_sim.play``): a copy is the same game as its
source, its own streams give other continuations, reproducibly, and the copy misses no field."""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.engine.game import play_turns_nb
from kutsch_sim.engine.state import STATE_DT, as_record, new_state
from kutsch_sim.enums import REC, SC
from kutsch_sim.play import copy_state_nb, init_game_nb, play_forward_nb, rollouts_nb

SEED = 11
CASES = [(6, "full", ("smart",), ()), (9, "basic+Loge", ("smart",), ()), (4, "full", ("greedy", "smart"), ()),
         (3, "full", ("smart",), ("advanced-3p",)), (7, "full", ("random",), ("smuggling", "fortune-telling"))]


def started(cfg: GameConfig, game: int, turns: int):
    st = new_state(0)
    init_game_nb(st, as_record(cfg.spec(SEED)), game)
    play_turns_nb(st, turns)
    return st


@pytest.mark.parametrize("n,items,bots,variants", CASES)
def test_a_copy_played_on_its_own_stream_is_the_same_game(n, items, bots, variants):
    cfg = GameConfig(n, items, bots * (n // len(bots)) + bots[: n % len(bots)], variants=variants)
    want = run_batch(cfg, SEED, 0, 6)
    for game in range(6):
        for at in (0, 1, 4, 15):
            st = started(cfg, game, at)
            cp = new_state(0)
            copy_state_nb(cp, st)
            play_forward_nb(cp, -1, -1)
            play_forward_nb(st, -1, -1)
            assert np.array_equal(cp.rec, want[game]), (game, at)
            assert np.array_equal(st.rec, want[game]), (game, at)


def test_play_forward_stops_after_the_turns_asked():
    cfg = GameConfig(6, "full", ("smart",))
    st = started(cfg, 2, 0)
    assert play_forward_nb(st, 3, -1) == 3 and st.sc[SC.TURN] == 3 and st.sc[SC.OVER] == 0
    played = play_forward_nb(st, -1, -1)
    assert st.sc[SC.OVER] == 1 and st.sc[SC.TURN] == 3 + played == st.rec[REC.TURNS]


def test_rollouts_branch_on_their_own_streams_reproducibly():
    cfg = GameConfig(6, "full", ("smart",))
    args = (cfg.spec(SEED), 3)
    recs, stop = rollouts_nb(*args, 2, 12, -1)
    again, _ = rollouts_nb(*args, 2, 12, -1)
    assert np.array_equal(recs, again)
    assert np.array_equal(recs[0], run_batch(cfg, SEED, 3, 1)[0])  # the original plays on unchanged
    assert len({r.tobytes() for r in recs[1:]}) > 6  # other continuations, not copies of one
    assert (stop >= 2).all() and (recs[:, REC.ERROR] == 0).all()
    short, stop = rollouts_nb(*args, 2, 4, 5)
    assert ((stop == 7) | (short[:, REC.TURNS] > 0)).all()  # five more turns, or the game ended first


def test_copy_state_misses_no_field():
    """Every byte of the truth and of the bots' memory is copied; only the log, the script and
    the copy's own log capacity, script counters and event count are its own."""
    rng = np.random.default_rng(5)
    buf = np.zeros(1, STATE_DT)
    buf.view(np.uint8)[:] = rng.integers(0, 256, size=STATE_DT.itemsize, dtype=np.uint8)
    src = as_record(buf)
    dst = new_state(0)
    copy_state_nb(dst, src)
    own = {SC.LOG_CAP, SC.N_SCRIPT, SC.SCRIPT_POS, SC.N_EVENTS, SC.PAUSE}

    def leaves(rec, prefix=""):  # every field of nested records (alignment padding is no field)
        for name in rec.dtype.names:
            if rec.dtype[name].names:
                yield from leaves(rec[name], prefix + name + ".")
            else:
                yield prefix + name, np.asarray(rec[name])

    got = dict(leaves(dst))
    for name, b in leaves(src):
        if name in ("log", "script"):
            continue
        a = got[name]
        if name == "sc":
            keep = [i for i in range(len(a)) if i not in own]
            a, b = a[keep], b[keep]
        assert a.tobytes() == b.tobytes(), name
    assert dst.sc[SC.LOG_CAP] == 0 and dst.sc[SC.N_SCRIPT] == 0 and dst.sc[SC.PAUSE] == 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_batch_is_the_same_games_on_any_number_of_threads(threads):
    """``play.play_batch`` cuts a batch into slices played on threads; each game draws only from
    its own stream, so the records are those of the games played one by one."""
    from kutsch_sim.play import play_batch

    cfg = GameConfig(6, "full", ("smart",))
    rec = play_batch(cfg.spec(SEED), 5, 37, threads=threads)
    one_by_one = np.vstack([run_batch(cfg, SEED, 5 + g, 1) for g in range(37)])
    assert rec.shape == (37, one_by_one.shape[1]) and np.array_equal(rec, one_by_one)
