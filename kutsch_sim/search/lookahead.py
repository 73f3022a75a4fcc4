"""The search bot's look-ahead: its turn's action chosen by playing sampled worlds forward.

At the start of its turn (R3) a ``search`` seat asks the ``smart`` policy to score its legal
actions, keeps smart's own choice, every declaration it may make (team, Drink of Power,
Loge, fortune-telling: R6, R7, R10) and smart's best-scored others up to ``search_width``
actions, and compares them on ``search_samples`` worlds drawn from its own view
(``search.sample``): in each world it plays each action and then the whole game to its end
with ``smart`` at every seat (itself included), on the same random stream for every action
(common random numbers: the actions are compared on the same futures). It takes the action
that won most often, if it won more often than smart's own choice by more than
``search_margin`` standard errors of their paired difference; smart's own choice otherwise. The
best of several noisy shares is biased upward (the winner's curse), so a calibrated seat
(``params.P_CALIBRATED``; its worlds' teams are drawn from its tempered posterior,
``search.sample``) plays that pick and smart's choice again on as many fresh worlds, keeps the
pick only if it wins there by the margin too, and states the fresh share. This is one step of
policy improvement over ``smart`` by Monte Carlo rollouts (Tesauro and Galperin 1996; with sampled hidden states, the
determinised rollouts of Long et al. 2010 and Cowling et al. 2012, docs/search.md).

Everything after the action (supports, fight choices, names, gifts) is smart's. A turn it
need not think about is left to smart at once: a single candidate, or a declaration smart
is sure of (the Loge's solo win, R6.5, or a team win it holds itself).

Deterministic: the worlds and rollouts draw from streams derived from the game's own stream,
which the look-ahead does not advance; so a game's record depends only on (seed,
configuration, game), as every game's does.
"""

from __future__ import annotations

import numpy as np

from ..bots.calibration import M_SEARCH, logit_nb, map_nb
from ..bots.dispatch import bot_choose_nb, refresh_seat_nb
from ..bots.params import (
    BOT_SEARCH,
    M_PRESET,
    M_PRESET_ODDS,
    ODDS_SHARE,
    ODDS_STATED,
    P_CALIBRATED,
    P_SEARCH_DEPTH,
    P_SEARCH_MARGIN,
    P_SEARCH_SAMPLES,
    P_SEARCH_WIDTH,
    P_SEARCH_WORLDS,
    SEARCH_MAX_WIDTH,
)
from ..engine.game import action_options_nb, play_turns_nb
from ..enums import ACT_DECLARE, ACT_MUL, DEC, SC, VAR
from ..jit import njit
from ..play import copy_state_nb, fork_stream_nb
from ..rng import mix64_nb, stream_key_nb
from .sample import sample_world_nb, truth_world_nb
from .value import value_nb

SURE = 999.0  # smart scores a declaration 1000 x P(success) (bots.act); from here it is sure
MAX_WIDTH = SEARCH_MAX_WIDTH
# The scratch ``wins`` (float64[WINS_LEN]): an action j's wins at [j], the sum of its squared
# paired difference from action 0's at [MAX_WIDTH + j], and from STATS the look-ahead's
# counters over the game (S_*), read by scripts/analyse/search_cost.py and changing no choice.
STATS = 2 * MAX_WIDTH
S_DECISIONS = 0  # turns it compared actions on
S_ROLLOUTS = 1  # rollouts played, the second look at a pick included
S_FULL = 2  # rollouts of the first look (candidates x search_samples)
S_AGAIN = 3  # picks judged again on fresh worlds
S_TAKEN = 4  # picks taken instead of smart's choice
WINS_LEN = STATS + 5


@njit(cache=True)
def candidates_nb(base, me, width, cand):
    """Write the actions to compare into ``cand``; returns their count (0: leave the turn to
    smart). ``base`` is a copy of the position, used up: smart decides its action on it."""
    k = action_options_nb(base, me)
    base.dctx[0] = me
    i0 = bot_choose_nb(base, me, DEC.ACTION, k)
    v = base.mem.vw
    if v.score[i0] >= SURE:
        return 0
    cand[0] = base.opts[i0]
    m = 1
    used = np.zeros(k, np.bool_)
    used[i0] = True
    for i in range(k):  # every declaration: what the look-ahead is most for
        if not used[i] and base.opts[i] // ACT_MUL == ACT_DECLARE and m < MAX_WIDTH:
            cand[m] = base.opts[i]
            used[i] = True
            m += 1
    while m < max(width, 1) and m < MAX_WIDTH:  # then smart's best-scored others
        best = -1
        for i in range(k):
            if not used[i] and v.score[i] > -1e8 and (best < 0 or v.score[i] > v.score[best]):
                best = i
        if best < 0:
            break
        cand[m] = base.opts[best]
        used[best] = True
        m += 1
    return m if m > 1 else 0


@njit(cache=True)
def search_turn_nb(st, me, base, world, cp, cand, wins):
    """Choose seat ``me``'s action for the turn about to start in ``st`` (a turn boundary,
    ``me`` active) and leave it in its memory (``params.M_PRESET``) for its policy to take.
    ``base``, ``world`` and ``cp`` are work states; ``cand`` int64[MAX_WIDTH] and ``wins``
    float64[WINS_LEN] scratch (its counters, from STATS, add up over the calls). Changes
    nothing else of ``st``."""
    width = np.int64(st.mem.bparam[me, P_SEARCH_WIDTH])
    samples = np.int64(st.mem.bparam[me, P_SEARCH_SAMPLES])
    if samples < 1 or (st.sc[SC.N] == 3 and (st.sc[SC.VARIANTS] & VAR.ADV3P) != 0):
        return
    copy_state_nb(base, st)
    if not base.mem.bel_fresh[me]:
        refresh_seat_nb(base, me)
    copy_state_nb(world, base)  # base is used up by smart's decision; world keeps the position
    m = candidates_nb(base, me, width, cand)
    if m == 0:
        return
    key = mix64_nb(st.rs[0] ^ (st.rs[1] * np.uint64(0x9E3779B97F4A7C15)))
    wins[STATS + S_DECISIONS] += 1.0
    wins[STATS + S_FULL] += m * samples
    play_worlds_nb(base, world, cp, me, cand, m, np.int64(0), samples, key, st.sc[SC.TURN], wins)
    # another action than smart's only when it won more often by more than search_margin
    # standard errors of the paired difference (a noisy winner of close actions plays worse)
    z = st.mem.bparam[me, P_SEARCH_MARGIN]
    best = 0
    gain = 0.0
    for j in range(1, m):
        d = (wins[j] - wins[0]) / samples
        var = max(wins[MAX_WIDTH + j] / samples - d * d, 0.0)
        if d > gain and d > z * np.sqrt(var / samples):
            best = j
            gain = d
    share0 = wins[0] / samples
    share = wins[best] / samples
    pick = cand[best]
    if best > 0 and st.mem.bparam[me, P_CALIBRATED] > 0.0:
        # the winner's curse (Smith and Winkler 2006): the best of several noisy shares is
        # biased upward, so the pick is judged again against smart's own choice on as many fresh
        # worlds; it is taken only if it wins there by the margin too, and its fresh share is
        # the one it states (smart's choice, never picked for its share, is stated from both)
        wins[STATS + S_AGAIN] += 1.0
        h = MAX_WIDTH // 2  # the second half of the buffers (the first m entries are read no more)
        cand[h + 1] = pick
        cand[h] = cand[0]
        fresh = mix64_nb(key ^ np.uint64(0xF2E5A1C3D4B69787))
        play_worlds_nb(base, world, cp, me, cand[h:], np.int64(2), h, samples, fresh, st.sc[SC.TURN], wins)
        d = (wins[h + 1] - wins[h]) / samples
        var = max(wins[MAX_WIDTH + h + 1] / samples - d * d, 0.0)
        share0 = (wins[0] + wins[h]) / (2.0 * samples)
        if d > 0.0 and d > z * np.sqrt(var / samples):
            share = wins[h + 1] / samples
        else:
            pick = cand[0]
            share = share0
    if pick != cand[0]:
        wins[STATS + S_TAKEN] += 1.0
    # what it states: P(I win) with this action; a calibrated seat reads its share through the
    # map fitted on what the look-ahead's picks then won (bots.calibration, M_SEARCH), which
    # changes no pick (the shares above are compared raw). A pick's fresh share and smart's
    # choice's share are worth differently (a pick was chosen for a high first share), so the
    # map knows which it reads: whether the share stated differs from smart's choice's, in the
    # whole percents the record keeps (calib.record), and its product with the share's logit
    pw = share
    if st.mem.bparam[me, P_CALIBRATED] > 0.0:
        picked = 1.0 if round(100.0 * share) != round(100.0 * share0) else 0.0
        f = logit_nb(share)
        pw = map_nb(st.sc[SC.N], M_SEARCH, f, picked, picked * f)
    st.mem.bmem[me, M_PRESET] = pick + 1
    st.mem.bmem[me, M_PRESET_ODDS] = np.int32(ODDS_STATED * round(100.0 * pw) + ODDS_SHARE * round(100.0 * share)
                                              + round(100.0 * share0))


@njit(cache=True)
def play_worlds_nb(base, world, cp, me, cand, m, at, samples, key, turn, wins):
    """Play the ``m`` actions of ``cand`` in ``samples`` worlds drawn from seat ``me``'s view of
    the position ``world`` (``base`` takes each world; the true position itself under the
    measuring setting ``params.P_SEARCH_WORLDS``), each action on the same stream in a
    world (common random numbers), to the end with smart at every seat, or, under
    ``params.P_SEARCH_DEPTH`` D > 0, for D more rounds (D x N turns), a game not over then scored by the value
    table (``search.value``): action j's wins go to
    ``wins[at + j]``, the sum of its squared paired difference from action 0's to
    ``wins[MAX_WIDTH + at + j]``. ``key`` and ``turn`` key the worlds' streams."""
    for j in range(m):
        wins[at + j] = 0.0
        wins[MAX_WIDTH + at + j] = 0.0
    rs = np.zeros(2, np.uint64)
    truth = np.int64(world.mem.bparam[me, P_SEARCH_WORLDS])  # 1, 2: measuring the forgetting only
    depth = np.int64(world.mem.bparam[me, P_SEARCH_DEPTH]) * world.sc[SC.N]  # rounds, in turns
    depth = depth if depth > 0 else np.int64(-1)
    for s in range(samples):
        rs[0] = stream_key_nb(key, turn, s)
        rs[1] = np.uint64(0)
        if truth == 0:
            sample_world_nb(base, world, me, rs)
        else:
            truth_world_nb(base, world, me, truth == 1)
        w0 = 0.0
        for j in range(m):
            copy_state_nb(cp, base)
            fork_stream_nb(cp, s)
            cp.mem.bmem[me, M_PRESET] = cand[j] + 1
            play_turns_nb(cp, 1)
            cp.mem.bmem[me, M_PRESET] = 0  # unused if a Diplomat ended the turn first (R8)
            play_turns_nb(cp, depth)
            x = value_nb(cp, me)
            wins[STATS + S_ROLLOUTS] += 1.0
            if j == 0:
                w0 = x
            wins[at + j] += x
            wins[MAX_WIDTH + at + j] += (x - w0) * (x - w0)  # the paired difference's square


@njit(cache=True)
def play_searching_nb(st, base, world, cp, cand, wins):
    """Play ``st`` from a turn boundary to its end, each ``search`` seat choosing its turn's
    action by :func:`search_turn_nb` first; the same game as ``engine.game.play_turns_nb``
    when no seat searches."""
    while st.sc[SC.OVER] == 0:
        p = st.sc[SC.ACTIVE]
        if st.mem.bot[p] == BOT_SEARCH and st.sc[SC.TURN] < st.sc[SC.TURN_CAP]:
            search_turn_nb(st, p, base, world, cp, cand, wins)
        play_turns_nb(st, 1)
        st.mem.bmem[p, M_PRESET] = 0
