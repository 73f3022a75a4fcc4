"""The calibration recorder: what the bots state at their decisions, beside what was true.

A bot's probabilities are claims: P(success) of a declaration, P(teammate) of each seat it
would name, P(the card is still where it last saw it), P(my team is the smaller), P(win by
playing on), and the search's share of the worlds its pick won. This module plays games
exactly as a batch does (the same records, ``tests/test_calib.py``) and, at the start of
every turn of a ``smart`` or ``search`` seat, asks that seat's bot for its action on a copy
of the position, reads what it stated from its View (``bots.act``: ``scr[CLAIM + CL_*]``)
and sets each statement beside the truth of the copy, which is the truth of the game at that
moment. The copy's stream is the game's, so the copy decides as the game will (a Diplomat
used before the action, R8, can change the position first; such turns are rare and are
stated on the position before it). The real game never sees the copy.

It sits above the play layer and the search (it joins the truth and the bots' statements,
which neither the rules nor the bots may do), and the bots never import it.

A claim row is float64[N_COL]; its columns are ``COL_*``, its type ``T_*``. ``won`` (the
claiming seat won the game: its team's win, or its own solo win, R6.5) is filled when the
game ends, and is the label of the claims about the game's end (``T_WAIT``, ``T_SEARCH``).
"""

from __future__ import annotations

import numpy as np

from ..bots.posterior import joint_nb, shares_nb
from ..bots.dispatch import bot_choose_nb, refresh_seat_nb
from ..bots.params import BOT_SEARCH, BOT_SMART, M_CLAIMS, M_PRESET, M_PRESET_ODDS, ODDS_SHARE, ODDS_STATED
from ..bots.act import wait_odds_nb
from ..bots.values import (
    CL_CONF,
    CL_J_DRINK,
    CL_J_TEAM,
    CL_M_DRINK,
    CL_M_FORT,
    CL_M_TEAM,
    CL_MINOR,
    CL_P1_DRINK,
    CL_P1_TEAM,
    CL_P_DRINK,
    CL_P_FORT,
    CL_P_TEAM,
    CL_TM,
    CL_WAIT,
    CLAIM,
)
from ..cards_nb import now_team_nb
from ..engine.game import action_options_nb, play_turns_nb
from ..engine.state import new_state_nb
from ..enums import ACT_DECLARE, ACT_MUL, DEC, DK, N_REC, SC
from ..jit import njit, record_nb
from ..play import copy_state_nb, init_game_nb, keep_alive_nb
from ..search.lookahead import MAX_WIDTH, WINS_LEN, search_turn_nb
from ..search.value import won_nb

# claim types
T_DECL_TEAM = 0  # P(success) of the team declaration it would make now (R6.3); about: the seats named
T_DECL_DRINK = 1  # the same with its Drink of Power (R7)
T_DECL_FORTUNE = 2  # fortune-telling (R10): P(all named are of the other team and hold 3 of theirs)
T_NAMED = 3  # P(teammate) of a seat that declaration would name; about: the seat; kind: the declaration
T_JOINT = 4  # P(every seat it would name is a teammate), from its posterior; about: the seats
T_ITEM = 5  # P(a card it counts is still where it last saw it); about: the card
T_MINORITY = 6  # P(my team is the smaller), odd N, when a Drink declaration is open to it
T_WAIT = 7  # P(my team wins by playing on) (declarations by value, R6.4); label: won
T_SEARCH = 8  # the search's P(win) of its pick (its share of sampled worlds won, mapped); label: won
CLAIM_LABELS = ("decl_team", "decl_drink", "decl_fortune", "named", "joint", "item", "minority", "wait", "search")

COL_GAME = 0  # game index
COL_TURN = 1
COL_SEAT = 2
COL_TYPE = 3
COL_ABOUT = 4  # a seat, a card or a bit mask of seats (per type), -1
COL_STATED = 5  # the stated probability
COL_LABEL = 6  # 1 if it held at the decision (for T_WAIT, T_SEARCH: won), 0 if not
COL_CHOSEN = 7  # 1 if the bot took the declaration this claim belongs to (the turn's action), 0 if not
COL_KIND = 8  # the declaration (DK.*) a claim belongs to, -1
COL_WON = 9  # 1 if the claiming seat won the game (filled at its end)
COL_X1 = 10  # T_NAMED, T_JOINT, T_MINORITY: the same from hard evidence alone; T_DECL_*: before the
#              declarations' map (a calibrated seat, else -1); T_WAIT: act.wait_odds_nb, uncalibrated;
#              T_SEARCH: smart's own choice's share of the worlds
COL_X2 = 11  # the same from the seat's posterior, uncalibrated (T_WAIT: turn / 100; T_SEARCH: the
#              pick's share of the worlds, before the map)
N_COL = 12
COLUMNS = ("game", "turn", "seat", "type", "about", "stated", "label", "chosen", "kind", "won", "x1", "x2")
ROWS_PER_GAME = 160  # room a chunk gives each game; a fuller game's further claims are dropped (counted)


@njit(cache=True, inline="always")
def vcount_nb(st, p, team):
    """Victory items of ``team`` in seat p's hand now (R9: the Bags count once the deck is empty)."""
    k = 0
    for c in range(8):
        if st.loc[c] == p and now_team_nb(c, st.sc[SC.BAGS_OPEN]) == team:
            k += 1
    return k


@njit(cache=True)
def would_succeed_nb(st, p, kind, named):
    """Would seat p's declaration of ``kind`` naming the seats of bit mask ``named`` succeed in
    the position ``st`` (R6.3, R7, R10)? The rules' check (``engine.declare.declare_nb``) without
    its events."""
    n = st.sc[SC.N]
    team = np.int64(st.assoc[p])
    if kind == DK.FORTUNE:
        other = 1 - team
        total = 0
        for q in range(n):
            if (named >> q) & 1:
                k = vcount_nb(st, q, other)
                if st.assoc[q] != other or k < 1:
                    return False
                total += k
        return total >= 3
    total = vcount_nb(st, p, team)
    for q in range(n):
        if (named >> q) & 1:
            k = vcount_nb(st, q, team)
            if st.assoc[q] != team or k < 1:
                return False
            total += k
    if kind == DK.DRINK:
        return st.sc[SC.MINORITY] == team and total >= 2
    return total >= 3


@njit(cache=True, inline="always")
def put_nb(out, k, game, turn, seat, typ, about, stated, label, chosen, kind, x1, x2):
    """Write one claim row at out[k] if there is room; returns the next row."""
    if k < out.shape[0]:
        r = out[k]
        r[COL_GAME] = game
        r[COL_TURN] = turn
        r[COL_SEAT] = seat
        r[COL_TYPE] = typ
        r[COL_ABOUT] = about
        r[COL_STATED] = stated
        r[COL_LABEL] = label
        r[COL_CHOSEN] = chosen
        r[COL_KIND] = kind
        r[COL_WON] = -1.0
        r[COL_X1] = x1
        r[COL_X2] = x2
    return k + 1


@njit(cache=True, inline="always")
def said_nb(scr, slot, raw):
    """What the seat stated at ``scr[CLAIM + slot]`` (a calibrated seat, ``bots.calibration``),
    else ``raw``, the value of its beliefs that it declares on uncalibrated."""
    x = scr[CLAIM + slot]
    return x if x >= 0.0 else raw


@njit(cache=True)
def plan_claims_nb(cp, me, game, turn, kind, p, mask, chosen, out, k):
    """The rows of one declaration plan of seat ``me``'s View (the copy ``cp`` holds the truth):
    its P(success), its joint P(all named are teammates), each named seat's P(teammate) and
    each counted card's P(still there), as ``bots.act.plan_names_nb`` counted them; each as
    stated, with the posterior's value (and the same from hard evidence alone) beside it."""
    v = cp.mem.vw
    scr = v.scr
    n = cp.sc[SC.N]
    m = np.int64(mask)
    ok = 1.0 if would_succeed_nb(cp, me, kind, m) else 0.0
    typ = T_DECL_TEAM if kind == DK.TEAM else (T_DECL_DRINK if kind == DK.DRINK else T_DECL_FORTUNE)
    p1 = -1.0
    if kind == DK.TEAM:
        p1 = scr[CLAIM + CL_P1_TEAM]
    elif kind == DK.DRINK:
        p1 = scr[CLAIM + CL_P1_DRINK]
    k0 = put_nb(out, k, game, turn, me, typ, m, p, ok, chosen, kind, p1, -1.0)
    if kind == DK.FORTUNE or m == 0:
        return k0
    k = k0
    team = np.int64(cp.assoc[me])
    pj = joint_nb(n, me, v.na, v.asg, v.w, v.k_assoc, m, m)
    raw = pj
    allin = 1.0
    for q in range(n):
        if (m >> q) & 1:
            same = 1.0 if cp.assoc[q] == team else 0.0
            allin *= same
            h, ps = shares_nb(n, me, v.na, v.asg, v.w, np.int64(1) << q, np.bool_(False))
            k = put_nb(out, k, game, turn, me, T_NAMED, q, said_nb(scr, CL_TM + q, v.tm[q]), same, chosen, kind, h,
                       v.tm[q])
    h, ps = shares_nb(n, me, v.na, v.asg, v.w, m, np.bool_(False))
    k = put_nb(out, k, game, turn, me, T_JOINT, m, said_nb(scr, CL_J_TEAM if kind == DK.TEAM else CL_J_DRINK, pj),
               allin, chosen, kind, h, pj)
    for c in range(8):
        h = v.k_card[c]
        if h >= 0 and h < n and (m >> h) & 1 and now_team_nb(c, v.bags_open) == v.team and v.conf[c] > 0.05:
            there = 1.0 if cp.loc[c] == h else 0.0
            raw *= v.conf[c]
            k = put_nb(out, k, game, turn, me, T_ITEM, c, said_nb(scr, CL_CONF + c, v.conf[c]), there, chosen, kind,
                       -1.0, v.conf[c])
    if kind == DK.DRINK:
        raw *= v.minor
    if k0 - 1 < out.shape[0]:
        out[k0 - 1, COL_X2] = raw  # the declaration's P(success) from the posterior, uncalibrated
    return k


@njit(cache=True)
def turn_claims_nb(st, me, cp, game, out, k):
    """The claims of seat ``me``'s action at the turn about to start in ``st``, decided on the
    copy ``cp``; returns the next row of ``out``."""
    copy_state_nb(cp, st)
    cp.mem.bmem[me, M_CLAIMS] = 1  # the copy states P(teammate) of our items' holders too
    if not cp.mem.bel_fresh[me]:
        refresh_seat_nb(cp, me)
    n_opts = action_options_nb(cp, me)
    cp.dctx[0] = me
    i = bot_choose_nb(cp, me, DEC.ACTION, n_opts)
    o = cp.opts[i]
    took = o % ACT_MUL if o // ACT_MUL == ACT_DECLARE else -1
    v = cp.mem.vw
    turn = cp.sc[SC.TURN]
    scr = v.scr
    for kind, cp_, cm in ((DK.TEAM, CL_P_TEAM, CL_M_TEAM), (DK.DRINK, CL_P_DRINK, CL_M_DRINK),
                          (DK.FORTUNE, CL_P_FORT, CL_M_FORT)):
        p = scr[CLAIM + cp_]
        if p >= 0.0:
            k = plan_claims_nb(cp, me, game, turn, kind, p, scr[CLAIM + cm], 1.0 if took == kind else 0.0, out, k)
    if scr[CLAIM + CL_P_DRINK] >= 0.0:
        small = 1.0 if cp.sc[SC.MINORITY] == cp.assoc[me] else 0.0
        h, ps = shares_nb(cp.sc[SC.N], me, v.na, v.asg, v.w, np.int64(0), np.bool_(True))
        k = put_nb(out, k, game, turn, me, T_MINORITY, -1, said_nb(scr, CL_MINOR, v.minor), small,
                   1.0 if took == DK.DRINK else 0.0, DK.DRINK, h, ps)
    w = scr[CLAIM + CL_WAIT]
    if w >= 0.0 and (scr[CLAIM + CL_P_TEAM] >= 0.0 or scr[CLAIM + CL_P_DRINK] >= 0.0):
        k = put_nb(out, k, game, turn, me, T_WAIT, -1, w, -1.0, 1.0 if took >= 0 else 0.0, took, wait_odds_nb(v),
                   turn / 100.0)
    if cp.mem.bot[me] == BOT_SEARCH and st.mem.bmem[me, M_PRESET] > 0:
        odds = st.mem.bmem[me, M_PRESET_ODDS]
        k = put_nb(out, k, game, turn, me, T_SEARCH, st.mem.bmem[me, M_PRESET] - 1, (odds // ODDS_STATED) / 100.0,
                   -1.0, 1.0, took, (odds % ODDS_SHARE) / 100.0, ((odds // ODDS_SHARE) % ODDS_SHARE) / 100.0)
    return k


@njit(cache=True, nogil=True)
def claims_games_nb(spec, game0, out, claims):
    """Play games game0 .. game0+len(out)-1 of ``spec`` (``kutsch_sim.spec``) as ``play.play_games_nb`` (searching seats as
    ``search.games.play_search_games_nb``) into ``out``, and write the claims of every
    ``smart`` and ``search`` seat's turns into ``claims`` (float64[R, N_COL]). Returns the number
    of claims made (rows past R are dropped)."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    cbuf = new_state_nb(0, np.zeros((0, 3), np.int32))
    cp = record_nb(cbuf)
    b0 = new_state_nb(0, np.zeros((0, 3), np.int32))
    b1 = new_state_nb(0, np.zeros((0, 3), np.int32))
    b2 = new_state_nb(0, np.zeros((0, 3), np.int32))
    base, world, work = record_nb(b0), record_nb(b1), record_nb(b2)
    cand = np.zeros(MAX_WIDTH, np.int64)
    wins = np.zeros(WINS_LEN, np.float64)
    sp = record_nb(spec)
    k = np.int64(0)  # not the literal 0: the claim writers would compile twice (cold compile)
    for i in range(out.shape[0]):
        g = game0 + i
        init_game_nb(st, sp, g)
        k0 = k
        while st.sc[SC.OVER] == 0:
            p = st.sc[SC.ACTIVE]
            b = st.mem.bot[p]
            if st.sc[SC.TURN] < st.sc[SC.TURN_CAP] and (b == BOT_SMART or b == BOT_SEARCH):
                if b == BOT_SEARCH:
                    search_turn_nb(st, p, base, world, work, cand, wins)
                k = turn_claims_nb(st, p, cp, g, claims, k)
            play_turns_nb(st, 1)
            st.mem.bmem[p, M_PRESET] = 0
        for j in range(k0, min(k, claims.shape[0])):
            claims[j, COL_WON] = won_nb(st, np.int64(claims[j, COL_SEAT]))
            t = claims[j, COL_TYPE]
            if t == T_WAIT or t == T_SEARCH:
                claims[j, COL_LABEL] = claims[j, COL_WON]
        out[i, :] = st.rec
    keep_alive_nb(buf)
    keep_alive_nb(cbuf)
    keep_alive_nb(b0)
    keep_alive_nb(b1)
    keep_alive_nb(b2)
    return k


def record_claims(spec, game0, n_games, threads=None):
    """Play games game0 .. game0+n_games-1 of ``spec`` (``kutsch_sim.spec``) with their claims, on
    ``threads`` threads (numba's count by default). Returns (int32[n_games, N_REC] records,
    float64[k, N_COL] claims in game order, claims dropped for want of room)."""
    import numba
    from concurrent.futures import ThreadPoolExecutor

    out = np.zeros((n_games, N_REC), np.int32)
    threads = max(1, min(numba.get_num_threads() if threads is None else int(threads), n_games))
    n_slices = min(n_games, 8 * threads)
    bounds = [s * n_games // n_slices for s in range(n_slices + 1)]
    bufs = [np.zeros(((hi - lo) * ROWS_PER_GAME, N_COL)) for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]

    def run(j):
        lo, hi = bounds[j], bounds[j + 1]
        return claims_games_nb(spec, game0 + lo, out[lo:hi], bufs[j])

    if threads == 1:
        made = [run(j) for j in range(n_slices)]
    else:
        with ThreadPoolExecutor(max_workers=threads) as ex:
            made = list(ex.map(run, range(n_slices)))
    kept = [b[: min(m, len(b))] for b, m in zip(bufs, made, strict=True)]
    dropped = sum(max(0, m - len(b)) for b, m in zip(bufs, made, strict=True))
    return out, np.concatenate(kept) if kept else np.zeros((0, N_COL)), dropped
