"""Bot dispatch: the seat's bot id picks the policy (STYLE 7: ids, not function objects).

The heuristic bots (greedy, smart) see only a View record (``bots.view``) filled here for
the deciding seat; the State never reaches a policy. Each of their decisions
writes a REASON event when the game keeps a log (play_game), never in batches, so a
traced game and the same game in a batch are identical.
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..enums import DCTX_A, DCTX_B, DEC, EV, MAX_PLAYERS, SC, VAR
from ..rng import below_nb
from .beliefs import hard_beliefs_nb, pair_beliefs_nb, refresh_cards_nb, reset_beliefs_nb, trust_slots_nb
from .params import BOT_FIRST, BOT_GREEDY, BOT_RANDOM, BOT_SEARCH, BOT_SMART, N_BPARAM, N_ROLES
from .policy import choose_nb
from .view import fill_light_nb, fill_view_nb, is_light_nb, reads_beliefs_nb, start_view_nb, take_back_nb

__all__ = ["BOT_FIRST", "BOT_GREEDY", "BOT_RANDOM", "BOT_SMART", "bot_choose_nb", "final_beliefs_nb",
           "start_bots_nb"]


@njit(cache=True)
def refresh_seat_nb(st, seat):
    """Bring ``seat``'s team beliefs up to date (bots.beliefs.refresh_cards_nb on its rows)."""
    adv = st.sc[SC.N] == 3 and (st.sc[SC.VARIANTS] & VAR.ADV3P) != 0
    refresh_cards_nb(st.sc[SC.N], seat, st.sc[SC.N_ASG], st.mem.bel_asg, st.mem.bel_epub[st.mem.bel_tslot[seat]],
                     st.mem.bel_epriv[seat], st.k_assoc[seat], st.mem.bel_w[seat], st.mem.bel_team[seat], st.mem.bel_minor,
                     st.k_acard[seat], adv, True, st.mem.bel_bins,
                     st.mem.bel_idx[seat], st.mem.bel_key[seat])
    told_minor_nb(st, seat)
    st.mem.bel_fresh[seat] = True


@njit(cache=True, inline="always")
def told_minor_nb(st, seat):
    """A told seat (bots.beliefs.tell_size_nb) knows whether its team is the minority: its
    P(minority) is that fact, not the estimate a refresh makes without it."""
    t = st.mem.bel_told[seat]
    if t >= 0:
        st.mem.bel_minor[seat] = t


@njit(cache=True)
def read_seats_nb(st, seat, kind):
    """The seats whose P(teammate) the smart policy of decision ``kind`` reads, when they are
    at most two: (x, y), -1 for none; (-2, -2) when it reads more (the turn's action, the
    hand-limit gift, the Diplomat) or its minority or weights. Each of these policies
    (``bots.policy``) reads ``tm`` (or ``scr[TM + p]``, prep_nb's copy) of these seats only:
    a fight's two sides (supporters, the Priest, the Poison Mixer, the Doctor), the trading
    partner (acceptance, return, the Diplomat's named item), the fight's loser (the winner's
    look or take, a give-back), the Priest's attacker to be paid, the Sextant's receiver and
    neighbours, a smuggled card's receiver, the seat about to draw (the Clairvoyant)."""
    a = np.int64(st.dctx[DCTX_A])
    b = np.int64(st.dctx[DCTX_B])
    if kind == DEC.SUPPORT or kind == DEC.PRIEST_USE or kind == DEC.MIXER or kind == DEC.DOCTOR_USE:
        return a, b
    if kind == DEC.ACCEPT or kind == DEC.RETURN or kind == DEC.GIVE_NAMED:
        return a, np.int64(-1)
    if (kind == DEC.WIN_CHOICE or kind == DEC.TAKE or kind == DEC.PRIEST_GIVE or kind == DEC.GIVE_BACK
            or kind == DEC.SEXTANT_PASS or kind == DEC.SMUGGLE or kind == DEC.CLAIR_USE):
        return b, np.int64(-1)
    if kind == DEC.SEXTANT_DIR:
        n = st.sc[SC.N]
        return np.int64((seat + 1) % n), np.int64((seat - 1 + n) % n)
    return np.int64(-2), np.int64(-2)


@njit(cache=True)
def seat_beliefs_nb(st, seat, kind):
    """Bring up to date only the P(teammate) that decision ``kind`` reads (:func:`read_seats_nb`),
    in one pass over the seat's allowed assignments (bots.beliefs.pair_beliefs_nb: its list
    up to 7 players, half the assignments in vectors from 8), its other beliefs left stale;
    False if only a full refresh will do (the decision reads more, the list is out of date,
    or the advanced 3-player game). The values are those of a full refresh to the bit (the
    same sums in the same order)."""
    n = st.sc[SC.N]
    if n == 3 and (st.sc[SC.VARIANTS] & VAR.ADV3P) != 0:
        return False
    x, y = read_seats_nb(st, seat, kind)
    if x == -2:
        return False
    if x < 0 or x >= n:
        x = y
    if y < 0 or y >= n:
        y = x
    if x < 0 or x >= n:
        return True  # it reads none (the Clairvoyant's seat about to draw is nobody's)
    return pair_beliefs_nb(n, seat, st.sc[SC.N_ASG], st.mem.bel_asg, st.mem.bel_epub[st.mem.bel_tslot[seat]],
                           st.mem.bel_epriv[seat], st.k_assoc[seat], st.mem.bel_team[seat], st.mem.bel_idx[seat],
                           st.mem.bel_key[seat], x, y, st.mem.bel_bins)


@njit(cache=True)
def hard_seat_nb(st, seat):
    """The greedy bot's team beliefs, from hard evidence only: the associations it has seen
    (bots.beliefs.hard_beliefs_nb); in the advanced 3-player game (R10) also the single
    association cards it has seen, weighed exactly (bots.beliefs.refresh_cards_nb, no soft
    evidence)."""
    n = st.sc[SC.N]
    if n == 3 and (st.sc[SC.VARIANTS] & VAR.ADV3P) != 0:
        refresh_cards_nb(n, seat, st.sc[SC.N_ASG], st.mem.bel_asg, st.mem.bel_epub[MAX_PLAYERS], st.mem.bel_epriv[seat],
                         st.k_assoc[seat], st.mem.bel_w[seat], st.mem.bel_team[seat], st.mem.bel_minor, st.k_acard[seat], True,
                         False, st.mem.bel_bins, st.mem.bel_idx[seat], st.mem.bel_key[seat])
    else:
        hard_beliefs_nb(n, seat, st.k_assoc[seat], st.mem.bel_team[seat], st.mem.bel_minor)
    told_minor_nb(st, seat)


@njit(cache=True)
def bot_choose_nb(st, seat, kind, n):
    """Index in st.opts[0:n] chosen by ``seat``'s bot."""
    b = st.mem.bot[seat]
    if b == BOT_FIRST:
        return 0
    if b == BOT_RANDOM:
        return below_nb(st.rs, n)
    if b == BOT_SEARCH:
        # smart, whose turn action the play layer may have chosen by look-ahead before the
        # turn (kutsch_sim.search; the policy takes it, params.M_PRESET)
        b = BOT_SMART
    light = is_light_nb(kind)  # a fight's supports and bonuses: a smaller View, nothing taken back
    if b == BOT_SMART:
        # beliefs are a pure function of the evidence, so putting a refresh off until a
        # decision reads them changes no game; most decisions read P(teammate) of one or two
        # seats only (a supporter: the two fighters), and only those are brought up to date
        if not st.mem.bel_fresh[seat] and reads_beliefs_nb(kind) and not seat_beliefs_nb(st, seat, kind):
            refresh_seat_nb(st, seat)
        if light:
            v = fill_light_nb(st, seat, kind, n, np.int64(b))
        else:
            v = fill_view_nb(st, seat, kind, n, np.int64(b), st.mem.bel_conf[seat])
    else:
        hard_seat_nb(st, seat)
        if light:
            v = fill_light_nb(st, seat, kind, n, np.int64(BOT_GREEDY))
        else:
            v = fill_view_nb(st, seat, kind, n, np.int64(BOT_GREEDY), st.mem.bel_one[0])
    i = choose_nb(v)
    if not light:
        take_back_nb(st, seat)
    if st.sc[SC.LOG_CAP] > 0:
        log_reason_nb(st, seat)
    return i


@njit(cache=True, inline="always")
def log_reason_nb(st, seat):
    """Append the REASON row of the decision just taken. Not through ``log_nb``: a decision
    can fall mid-event (a loser's hand is empty until the winner gives one back, R5.8), where
    the debug invariants do not hold yet, and the bots observe nothing from their reasons."""
    i = st.sc[SC.N_EVENTS]
    if i < st.sc[SC.LOG_CAP]:
        row = st.log[i]
        row[0] = EV.REASON
        row[1] = st.sc[SC.TURN]
        row[2] = seat
        row[3] = st.mem.vw.out[0]
        row[4] = st.mem.vw.out[1]
        row[5] = st.mem.vw.out[2]
    st.sc[SC.N_EVENTS] = i + 1


@njit(cache=True, inline="always")
def final_beliefs_nb(st):
    """Every seat's team beliefs as its bot holds them at the end (smart: full posterior;
    others: the posterior from hard evidence only, as their soft_trust is 0)."""
    n = st.sc[SC.N]
    for s in range(n):
        if st.mem.bot[s] == BOT_GREEDY:
            hard_seat_nb(st, s)
        else:
            refresh_seat_nb(st, s)


@njit(cache=True)
def start_bots_nb(st, n):
    """Fresh bot beliefs and memory for a game of n players whose seats' bots are set
    (``st.mem.bot``): called by set-up, and by anything that builds a position without it."""
    st.sc[SC.N_ASG] = reset_beliefs_nb(n, st.mem.bel_asg, st.mem.bel_pair, st.mem.bel_psat, st.mem.bel_gpair, st.mem.bel_w,
                                       st.mem.bel_team, st.mem.bel_minor, st.mem.bel_fresh, st.mem.bel_conf, st.mem.bel_ctx, st.mem.bmem,
                                       st.mem.bel_key)
    trust_slots_nb(st, n, st.sc[SC.N_ASG])
    st.mem.bel_told[:] = -1  # nothing told until the teams are dealt (beliefs.tell_size_nb)
    start_view_nb(st)
    # the observer runs when a bot reads what it keeps, or when the log is kept (traces)
    st.sc[SC.BELIEFS] = 1 if (st.sc[SC.LOG_CAP] > 0 or wants_beliefs_nb(st.mem.bot, n)) else 0


@njit(cache=True, inline="always")
def wants_beliefs_nb(bots, n):
    """Do any of these seats' bots read what the event observer keeps (beliefs, and the
    seat memory both heuristic bots use: who rejected them, the Clairvoyant's top card)?"""
    for p in range(n):  # noqa: SIM110 (numba compiles no generator expressions)
        if bots[p] == BOT_SMART or bots[p] == BOT_GREEDY or bots[p] == BOT_SEARCH:
            return True
    return False


@njit(cache=True)
def clear_memory_nb(st):
    """A new state's bot memory before any game: no beliefs yet (P(teammate) 0.5, every card
    where last seen), no event under way."""
    m = st.mem
    m.bel_team[:, :] = 0.5
    m.bel_conf[:, :] = 1.0
    m.bel_one[:, :] = 1.0
    m.bel_ctx[:] = -1


@njit(cache=True, inline="always")
def seat_bots_nb(st, n, bots, bparams):
    """Put bot ``bots[p]`` with parameters ``bparams[p]`` on each seat p < n. ``bparams`` is
    float64[10, N_BPARAM] (one row a seat) or float64[10, N_ROLES * N_BPARAM] (a seat's rows
    side by side: base, minority, majority, Loge; ``params.ROLE_*``). Without role rows every
    role row is the base row, and ``brole`` marks the role rows that differ (view.role_nb)."""
    for p in range(n):
        seat_one_nb(st, p, bots, bparams, p)


@njit(cache=True, inline="always")
def seat_one_nb(st, p, bots, bparams, r):
    """Seat p gets the bot and the rows of line r of ``bots`` / ``bparams`` (seat_bots_nb)."""
    k = min(bparams.shape[1], N_BPARAM)
    rows = bparams.shape[1] >= N_ROLES * N_BPARAM
    st.mem.bot[p] = bots[r]
    for j in range(k):
        st.mem.bparam[p, j] = bparams[r, j]
    on = 0
    for q in range(1, N_ROLES):
        for j in range(N_BPARAM):
            x = bparams[r, q * N_BPARAM + j] if rows else st.mem.bparam[p, j]
            st.mem.brow[p, q - 1, j] = x
            if x != st.mem.bparam[p, j]:
                on |= 1 << q
    st.mem.brole[p] = on
