"""The play layer: whole games between seated bots, batches of games, and positions copied
and played forward. It joins the rules (``engine``) and the players (``bots``); neither of
them imports it.

Every game draws only from its own random stream (seed, config_id, game), so a game's
record does not depend on the thread count, the chunking or whether it is traced.
"""

from __future__ import annotations

import numpy as np

from .bots.dispatch import final_beliefs_nb, seat_bots_nb, seat_one_nb
from .engine.game import play_turns_nb
from .engine.state import new_state_nb, setup_nb
from .enums import N_REC, SC
from .jit import njit, record_nb
from .rng import mix64_nb, stream_key_nb


@njit(cache=True)
def keep_alive_nb(buf):
    """A use of the state's buffer after the last use of its record ``buf[0]``. A record
    holds no reference to its array, and numba frees an array after the variable's last use,
    so without this the buffer would be freed while the record is still being played on."""
    return buf.shape[0]


@njit(cache=True)
def init_game_nb(st, sp, game):
    """Bots, their parameters and the R2 set-up of game ``game`` of the spec record ``sp``
    (``kutsch_sim.spec``: players, cards, bots, seed, variants and house rules, R10).

    Profiles by side (``sp.by_side``: pure-team games, for measuring one profile against
    another, and the role rows ``kutsch-sim tune`` plays): row 0 of ``sp.side_bots`` /
    ``sp.side_params`` is the profile of the Order's seats at even N and of the smaller team's
    at odd N (R2.2), row 1 the other side's. The deal is made once to learn the teams and again,
    identically (the same stream), once every seat has its side's profile, so the bots start
    from their own parameters; no seat learns anything from it."""
    seat_bots_nb(st, sp.n, sp.bots, sp.bparams)
    setup_nb(st, sp, game)
    if sp.by_side:
        small = st.sc[SC.MINORITY]  # -1 at even N
        for p in range(sp.n):
            side = st.assoc[p] if small < 0 else (0 if st.assoc[p] == small else 1)
            seat_one_nb(st, p, sp.side_bots, sp.side_params, side)
        setup_nb(st, sp, game)


@njit(cache=True)
def play_one_nb(spec, game, log_cap):
    """Play game ``game`` of ``spec`` (``kutsch_sim.spec``, a one-element array) with an event
    log; returns (record, log rows, scalars, team beliefs float64[10, 10], minority beliefs
    float64[10]) -- the beliefs each seat's bot holds at the end
    (``bots.dispatch.final_beliefs_nb``)."""
    buf = new_state_nb(log_cap, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    init_game_nb(st, record_nb(spec), game)
    play_turns_nb(st, -1)
    final_beliefs_nb(st)
    m = min(st.sc[SC.N_EVENTS], st.sc[SC.LOG_CAP])
    res = (st.rec.copy(), st.log[:m].copy(), st.sc.copy(), st.mem.bel_team.copy(), st.mem.bel_minor.copy())
    keep_alive_nb(buf)
    return res


@njit(cache=True, nogil=True)
def play_games_nb(spec, game0, out):
    """Play games game0 .. game0+len(out)-1 of ``spec`` (``kutsch_sim.spec``), one after
    another, into the int32[n_games, N_REC] ``out`` (mutated). Releases the GIL, so
    :func:`play_batch` runs it on several threads at once."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    sp = record_nb(spec)
    for i in range(out.shape[0]):
        init_game_nb(st, sp, game0 + i)
        play_turns_nb(st, -1)
        # element by element: numba's slice assignment of one array into another brings 38 more
        # compilations (string code for its errors among them), 1.4 s of a cold compile
        for j in range(N_REC):
            out[i, j] = st.rec[j]
    keep_alive_nb(buf)


def play_batch(spec, game0, n_games, threads=None, kernel=None):
    """Play games game0 .. game0+n_games-1 of ``spec`` (``kutsch_sim.spec``) on ``threads``
    threads (default: numba's current thread count, ``numba.set_num_threads``). Returns
    int32[n_games, N_REC].

    Threads, not a ``prange`` loop: numba compiles a parallel loop's body into three more
    libraries, each holding the whole engine and the bots again, which made a third of the cold
    compile. Each thread plays whole slices of games with :func:`play_games_nb`, which releases
    the GIL; a game's record depends only on its own stream, so not on the slicing.
    ``kernel``: another kernel of :func:`play_games_nb`'s signature (the games with searching
    seats, ``kutsch_sim.search.games.batch_kernel``)."""
    import numba

    from .parallel_compile import parts_first

    kernel = play_games_nb if kernel is None else kernel
    out = np.zeros((n_games, N_REC), np.int32)
    threads = max(1, min(numba.get_num_threads() if threads is None else int(threads), n_games))
    with parts_first(kernel):  # a cold compile: its independent parts on two processes first
        if threads == 1:
            kernel(spec, game0, out)
            return out
        from concurrent.futures import ThreadPoolExecutor

        n_slices = min(n_games, 8 * threads)  # a few slices a thread even out their lengths
        bounds = [k * n_games // n_slices for k in range(n_slices + 1)]
        with ThreadPoolExecutor(max_workers=threads) as ex:
            jobs = [ex.submit(kernel, spec, game0 + lo, out[lo:hi])
                    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]
            for j in jobs:
                j.result()
    return out


# ------------------------------------------------------------------ positions played forward
@njit(cache=True)
def copy_state_nb(dst, src):
    """Make ``dst`` the position of ``src``: the truth and every seat's memory (``mem``), the
    random stream included, so that played forward both are the same game. Not copied: the
    event log and the script; ``dst`` keeps its own log capacity (a copy made for look-ahead
    usually logs nothing, which changes no decision) and plays without a script (every seat's
    bot decides) and without a pause (``engine.decide``). Mutates ``dst`` only."""
    log_cap = dst.sc[SC.LOG_CAP]
    dst.sc[:] = src.sc
    dst.sc[SC.LOG_CAP] = log_cap
    dst.sc[SC.N_SCRIPT] = 0
    dst.sc[SC.SCRIPT_POS] = 0
    dst.sc[SC.PAUSE] = 0
    dst.sc[SC.N_EVENTS] = 0
    dst.rs[:] = src.rs
    dst.loc[:] = src.loc
    dst.deck[:] = src.deck
    dst.hand_n[:] = src.hand_n
    dst.assoc[:] = src.assoc
    dst.occ[:] = src.occ
    dst.occ_up[:] = src.occ_up
    dst.occ_loc[:] = src.occ_loc
    dst.drink[:] = src.drink
    dst.opts[:] = src.opts
    dst.dctx[:] = src.dctx
    dst.k_assoc[:, :] = src.k_assoc
    dst.k_occ[:, :] = src.k_occ
    dst.k_card[:, :] = src.k_card
    dst.acard[:, :] = src.acard
    dst.k_acard[:, :, :] = src.k_acard
    dst.sup[:] = src.sup
    dst.mark[:] = src.mark
    dst.rec[:] = src.rec
    copy_memory_nb(dst.mem, src.mem)


@njit(cache=True)
def copy_memory_nb(d, s):
    """Every field of the bots' memory (``bots.memory.MEMORY_DT``), the View included."""
    d.bot[:] = s.bot
    d.bparam[:, :] = s.bparam
    d.brow[:, :, :] = s.brow
    d.brole[:] = s.brole
    d.bel_asg[:] = s.bel_asg
    d.bel_pair[:, :] = s.bel_pair
    d.bel_psat[:, :] = s.bel_psat
    d.bel_gpair[:, :] = s.bel_gpair
    d.bel_pair1[:, :] = s.bel_pair1
    d.bel_psat1[:, :] = s.bel_psat1
    d.bel_inf1[:, :] = s.bel_inf1
    d.bel_graw1[:, :] = s.bel_graw1
    d.bel_own1[:, :] = s.bel_own1
    d.bel_corr1[:, :] = s.bel_corr1
    d.bel_model[:] = s.bel_model
    d.bel_models = s.bel_models
    d.bel_tmodel[:] = s.bel_tmodel
    d.bel_epub[:, :] = s.bel_epub
    d.bel_epriv[:, :] = s.bel_epriv
    d.bel_bins[:] = s.bel_bins
    d.bel_idx[:, :] = s.bel_idx
    d.bel_key[:, :] = s.bel_key
    d.bel_tval[:] = s.bel_tval
    d.bel_tslot[:] = s.bel_tslot
    d.bel_nts = s.bel_nts
    d.bel_w[:, :] = s.bel_w
    d.bel_team[:, :] = s.bel_team
    d.bel_minor[:] = s.bel_minor
    d.bel_fresh[:] = s.bel_fresh
    d.bel_told[:] = s.bel_told
    d.bel_conf[:, :] = s.bel_conf
    d.bel_one[:, :] = s.bel_one
    d.bel_ctx[:] = s.bel_ctx
    d.bmem[:, :] = s.bmem
    copy_view_nb(d.vw, s.vw)


@njit(cache=True, inline="always")
def copy_view_nb(d, s):
    """The View record (``bots.view.VIEW_DT``): scratch of the last decision, copied so that a
    copy is the same bytes as its source (the policies never read a stale View field)."""
    d.me = s.me
    d.team = s.team
    d.mode = s.mode
    d.n = s.n
    d.turn = s.turn
    d.deck_n = s.deck_n
    d.bags_open = s.bags_open
    d.hand_limit = s.hand_limit
    d.team_need = s.team_need
    d.drink_items = s.drink_items
    d.loge_need = s.loge_need
    d.victory_cards = s.victory_cards
    d.loge_in = s.loge_in
    d.kind = s.kind
    d.n_opts = s.n_opts
    d.na = s.na
    d.minor = s.minor
    d.opts[:] = s.opts
    d.ctx[:] = s.ctx
    d.k_assoc[:] = s.k_assoc
    d.k_occ[:] = s.k_occ
    d.k_card[:] = s.k_card
    d.k_acard[:, :] = s.k_acard
    d.conf[:] = s.conf
    d.tm[:] = s.tm
    d.w[:] = s.w
    d.asg[:] = s.asg
    d.occ_up[:] = s.occ_up
    d.hand_n[:] = s.hand_n
    d.drink[:] = s.drink
    d.sup[:] = s.sup
    d.par[:] = s.par
    d.mem[:] = s.mem
    d.score[:] = s.score
    d.scr[:] = s.scr
    d.out[:] = s.out
    d.rs[:] = s.rs


@njit(cache=True, inline="always")
def fork_stream_nb(st, k):
    """Give the position its own random stream number ``k`` from here on (a look-ahead's k-th
    continuation), derived from the stream it has; ``k`` < 0 keeps the stream (the same game)."""
    if k >= 0:
        st.rs[0] = stream_key_nb(mix64_nb(st.rs[0] ^ st.rs[1]), 0x5EA4C4, k)
        st.rs[1] = np.uint64(0)


@njit(cache=True)
def play_forward_nb(st, turns, k):
    """Play the position ``st`` (at a turn boundary) on its stream ``k`` (:func:`fork_stream_nb`)
    for at most ``turns`` turns, or to the end if ``turns < 0``; returns the turns played."""
    fork_stream_nb(st, k)
    return play_turns_nb(st, turns)


@njit(cache=True)
def rollouts_nb(spec, game, at_turn, n_rollouts, turns):
    """Play game ``game`` of ``spec`` to turn ``at_turn`` (or its end), then play ``n_rollouts`` copies of
    that position forward for ``turns`` turns (to the end if < 0), copy k on stream k, and the
    original on its own stream. Returns (int32[n_rollouts + 1, N_REC] records, the original's
    first; int64[n_rollouts + 1] the turn each stopped at)."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    init_game_nb(st, record_nb(spec), game)
    play_turns_nb(st, at_turn)
    cbuf = new_state_nb(0, np.zeros((0, 3), np.int32))
    cp = record_nb(cbuf)
    recs = np.zeros((n_rollouts + 1, N_REC), np.int32)
    stop = np.zeros(n_rollouts + 1, np.int64)
    for k in range(n_rollouts):
        copy_state_nb(cp, st)
        play_forward_nb(cp, turns, k)
        recs[k + 1, :] = cp.rec
        stop[k + 1] = cp.sc[SC.TURN]
    play_forward_nb(st, turns, -1)
    recs[0, :] = st.rec
    stop[0] = st.sc[SC.TURN]
    keep_alive_nb(buf)
    keep_alive_nb(cbuf)
    return recs, stop
