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
from .engine.state import STATE_DT, new_state_nb, setup_nb
from .enums import N_REC, SC
from .jit import DISABLE_JIT, njit, record_nb
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
        store_record_nb(out, i, st)
    keep_alive_nb(buf)


@njit(cache=True, inline="always")
def store_record_nb(out, i, st):
    """``out[i] = st.rec``, element by element: numba's slice assignment of one array into
    another brings 38 more compilations (string code for its errors among them) into a batch
    kernel's cold compile, 1.4 s."""
    for j in range(N_REC):
        out[i, j] = st.rec[j]


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
# What a copy of a position takes of its source: every byte of the State record
# (engine.state.STATE_DT) but the script and the event log, which lie side by side in it.
_SKIP_LO = STATE_DT.fields["script"][1]
_SKIP_HI = STATE_DT.fields["log"][1] + STATE_DT.fields["log"][0].itemsize
assert STATE_DT.fields["log"][1] == _SKIP_LO + STATE_DT.fields["script"][0].itemsize  # the log follows the script

if DISABLE_JIT:

    def copy_bytes_nb(dst, src):
        """Every field of ``src`` but the script and the log into ``dst`` (plain Python)."""
        for name in STATE_DT.names:
            if name not in ("script", "log"):
                dst[name] = src[name]

else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def copy_bytes_nb(typingctx, dst, src):
        """Every byte of the State record ``src`` but the script and the log into ``dst``: two
        ``memcpy`` of sizes known when compiling. Field by field, numba compiled a slice
        assignment for each field's array type, 47 compilations and 6 s of the search kernels'
        cold compile; the bytes copied are the same (alignment padding aside, which no field
        holds). The typing refuses anything but two State records."""
        if not (isinstance(dst, types.Record) and dst == src and dst.size == STATE_DT.itemsize):
            return None

        def codegen(context, builder, signature, args):
            i8p = ir.IntType(8).as_pointer()
            d, s = builder.bitcast(args[0], i8p), builder.bitcast(args[1], i8p)
            for lo, hi in ((0, _SKIP_LO), (_SKIP_HI, STATE_DT.itemsize)):
                at = ir.Constant(ir.IntType(64), lo)
                cgutils.raw_memcpy(builder, builder.gep(d, [at]), builder.gep(s, [at]),
                                   ir.Constant(ir.IntType(64), hi - lo), 1)
            return context.get_dummy_value()

        return types.void(dst, src), codegen


@njit(cache=True)
def copy_state_nb(dst, src):
    """Make ``dst`` the position of ``src``: the truth and every seat's memory (``mem``), the
    random stream included, so that played forward both are the same game. Not copied: the
    event log and the script; ``dst`` keeps its own log capacity (a copy made for look-ahead
    usually logs nothing, which changes no decision) and plays without a script (every seat's
    bot decides) and without a pause (``engine.decide``). Mutates ``dst`` only."""
    log_cap = dst.sc[SC.LOG_CAP]
    copy_bytes_nb(dst, src)
    dst.sc[SC.LOG_CAP] = log_cap
    dst.sc[SC.N_SCRIPT] = 0
    dst.sc[SC.SCRIPT_POS] = 0
    dst.sc[SC.PAUSE] = 0
    dst.sc[SC.N_EVENTS] = 0


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
