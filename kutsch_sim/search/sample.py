"""Worlds sampled from one seat's view: the hidden state a searching seat plays forward.

A position copied as it is (``play.copy_state_nb``) holds the truth: every association, the
hands, the deck order, and every other seat's private memory. A seat that searched on it
would cheat. :func:`sample_world_nb` makes a copy of the position and replaces all of that by
a draw from what the seat ``me`` knows:

- the teams: an assignment drawn from its own posterior (``bots.beliefs``: its weights over
  the team assignments, which give weight only to assignments its hard evidence allows, and
  which a told seat has narrowed to its team's size), for a calibrated seat tempered to its
  player count (``bots.calibration.TEMPER``: the worlds' teams then hold as often as it says);
  at odd N the box card and the minority follow from it (R2.2);
- the occupations it has not seen (face down, not its own) dealt at random from those it has
  not seen anywhere, the rest to the pile (R2.1);
- the items it cannot see: every card in another hand or the deck, dealt at random into
  the same hand sizes and deck size (public), a card it last saw in a hand put back there
  with its own belief that it is still there (``bel_conf``), the deck's top cards it knows
  (the Clairvoyant, R8) kept on top, and the Secret Bags and every card it has seen in a hand
  only into hands (a card leaves the deck only into a hand and never goes back, R2.3, R4);
- every other seat's knowledge and private memory reset to what it surely has: its own
  association, occupation and hand, the public evidence shared by all (``bel_epub``,
  ``bel_pair``; under the fitted model its own actions taken back out of it, as it does
  itself, ``bots.evidence``), face-up occupations, and the association and occupation cards it has looked
  at (who looked at whose card is public, R5.7, R9; what it saw is this world's card). Its
  beliefs are then remade from that on its next decision; the soft evidence only it has, its
  memory of the cards it saw pass and its plans are forgotten.

What it reads of the position is ``me``'s view only: the public scalars and arrays (hand
sizes, the deck size, face-up occupations, the Drinks), ``me``'s own cards, knowledge rows
and bot memory, the shared public evidence, and which seats have looked at whose cards. The
property test ``tests/test_search.py`` scrambles everything else and checks that the worlds
drawn are the same. The random draws come from ``rs``, a stream of the caller's own.

Not sampled: the advanced 3-player game's association cards (R10); the search does not
run there (``search.lookahead``).
"""

from __future__ import annotations

import math

import numpy as np

from ..bots.beliefs import kept_nb, tell_size_nb
from ..bots.calibration import TEMPER
from ..bots.evidence import rebuild_private_nb
from ..bots.params import M_CLAIR_2ND, M_CLAIR_DN, M_CLAIR_TOP, M_PASSED, N_BMEM, P_CALIBRATED
from ..cards_nb import C_BAG_GOBLET, C_BAG_KEY
from ..enums import BROTHERHOOD, LOC_DECK, LOC_OUT, LOC_PILE, MAX_PLAYERS, N_CARDS, N_OCCS, ORDER, SC
from ..jit import njit
from ..play import copy_state_nb
from ..rng import below_nb, shuffle_nb, uniform_nb


@njit(cache=True)
def sample_world_nb(dst, src, me, rs):
    """Make ``dst`` a world drawn from seat ``me``'s view of the position ``src`` (at a turn
    boundary, ``me``'s posterior up to date: ``st.mem.bel_fresh[me]``); draws from ``rs``.
    Mutates ``dst`` and ``rs`` only. Copied as they are: the game's stream (``rs``, from
    which a rollout forks its own), the public scratch of fights and declarations (``sup``,
    ``mark``, the observer's ``bel_ctx``) and the View, which every decision fills before a
    policy reads it."""
    copy_state_nb(dst, src)
    n = src.sc[SC.N]
    sample_teams_nb(dst, src, me, n, rs)
    sample_occupations_nb(dst, src, me, n, rs)
    sample_items_nb(dst, src, me, n, rs)
    forget_others_nb(dst, src, me, n)
    dst.rec[:] = 0  # the starting position it records is the truth's
    dst.opts[:] = 0  # the last decision's options and context: another seat's, maybe
    dst.dctx[:] = 0


@njit(cache=True)
def truth_world_nb(dst, src, me, forget):
    """A measuring instrument, not a view (``params.P_SEARCH_WORLDS`` 1 and 2): ``dst`` is the
    true position ``src`` itself, with every other seat's private memory forgotten as in a drawn
    world (``forget``) or kept. The two differ only by what the forgetting of
    :func:`forget_others_nb` costs the look-ahead (docs/search.md)."""
    copy_state_nb(dst, src)
    if forget:
        forget_others_nb(dst, src, me, src.sc[SC.N])
    dst.rec[:] = 0
    dst.opts[:] = 0
    dst.dctx[:] = 0


@njit(cache=True, inline="always")
def sample_teams_nb(dst, src, me, n, rs):
    """The teams: one assignment from ``me``'s weights (bit p of an assignment: p in the
    Order), turned so that ``me`` is on its own team (from 8 players the weights are those of
    the splits of the table); at odd N the team with fewer members is the minority and its
    card is the one in the box (R2.2)."""
    w = src.mem.bel_w[me]
    asg = src.mem.bel_asg
    nk = kept_nb(n, src.sc[SC.N_ASG])
    # a calibrated seat draws from its posterior tempered to its player count's TEMPER (the soft
    # evidence's log weight times it, bots.calibration), whose worlds are as likely as the truth
    tau = TEMPER[n] if src.mem.bparam[me, P_CALIBRATED] > 0.0 else 1.0
    z = 0.0
    for i in range(nk):
        z += w[i] if tau == 1.0 or w[i] <= 0.0 else math.pow(w[i], tau)
    pick = -1
    if z > 0.0:
        u = uniform_nb(rs) * z
        acc = 0.0
        for i in range(nk):
            acc += w[i] if tau == 1.0 or w[i] <= 0.0 else math.pow(w[i], tau)
            if w[i] > 0.0:
                pick = i
                if u < acc:
                    break
    if pick < 0:  # no weight (a position built without set-up): any assignment
        pick = below_nb(rs, nk)
    a = np.int64(asg[pick])
    full = (1 << n) - 1
    mine = 1 if src.assoc[me] == ORDER else 0
    if ((a >> me) & 1) != mine:
        a = (~a) & full
    n_order = 0
    for p in range(n):
        dst.assoc[p] = ORDER if (a >> p) & 1 else BROTHERHOOD
        n_order += (a >> p) & 1
    if n % 2 == 1:
        small = ORDER if 2 * n_order < n else BROTHERHOOD
        dst.sc[SC.MINORITY] = small
        dst.sc[SC.LEFTOVER] = small


@njit(cache=True, inline="always")
def occ_known_nb(src, me, p):
    """The occupation of seat p as ``me`` knows it (its own, seen, or face up), else -1."""
    if p == me or src.occ_up[p]:
        return np.int64(src.occ[p])
    return np.int64(src.k_occ[me, p])


@njit(cache=True, inline="always")
def sample_occupations_nb(dst, src, me, n, rs):
    """Occupations ``me`` has not seen, dealt at random from those it has not seen anywhere."""
    seen = np.zeros(N_OCCS, np.bool_)
    for p in range(n):
        o = occ_known_nb(src, me, p)
        if o >= 0:
            seen[o] = True
    pool = np.zeros(N_OCCS, np.int8)
    k = 0
    for o in range(N_OCCS):
        dst.occ_loc[o] = LOC_PILE
        if not seen[o]:
            pool[k] = o
            k += 1
    shuffle_nb(rs, pool, k)
    j = 0
    for p in range(n):
        o = occ_known_nb(src, me, p)
        if o < 0:
            o = pool[j]
            j += 1
        dst.occ[p] = o
        dst.occ_loc[o] = p


@njit(cache=True, inline="always")
def sample_items_nb(dst, src, me, n, rs):
    """The cards ``me`` cannot see, dealt into the same hand sizes and deck size."""
    dn = src.sc[SC.DECK_N]
    room = np.zeros(MAX_PLAYERS + 1, np.int64)  # free places per other hand; [MAX_PLAYERS]: the deck
    for p in range(n):
        if p != me:
            room[p] = src.hand_n[p]
    room[MAX_PLAYERS] = dn
    free = np.zeros(N_CARDS, np.bool_)  # cards still to be placed
    for c in range(N_CARDS):
        x = src.loc[c]
        free[c] = x != me and x != LOC_OUT
    top = np.zeros(2, np.int64)  # deck cards it knows on top, top first
    n_top = 0
    if src.sc[SC.TOP_SEAT] == me:  # the Clairvoyant's look (R8): the engine keeps it true
        n_top = min(src.sc[SC.TOP_KNOWN], dn)
        for j in range(n_top):
            top[j] = src.deck[dn - 1 - j]
    elif src.mem.bmem[me, M_CLAIR_DN] == dn and dn > 0:
        c = src.mem.bmem[me, M_CLAIR_TOP]
        if c >= 0 and free[c]:
            top[0] = c
            n_top = 1
            c2 = src.mem.bmem[me, M_CLAIR_2ND]
            if dn > 1 and c2 >= 0 and c2 != c and free[c2]:
                top[1] = c2
                n_top = 2
    for j in range(n_top):
        c = top[j]
        free[c] = False
        dst.deck[dn - 1 - j] = c
        dst.loc[c] = LOC_DECK
    room[MAX_PLAYERS] -= n_top
    # cards it last saw in another hand go back there as likely as it believes they stay
    order = np.arange(N_CARDS).astype(np.int8)
    shuffle_nb(rs, order, N_CARDS)
    for j in range(N_CARDS):
        c = order[j]
        if not free[c]:
            continue
        q = src.k_card[me, c]
        if q >= 0 and q < n and q != me and room[q] > 0 and uniform_nb(rs) < src.mem.bel_conf[me, c]:
            place_nb(dst, c, q, room)
            free[c] = False
    # a card once in a hand never goes back to the deck, and the Secret Bags start in hands
    # (R2.3): those go into the hands, the rest anywhere
    for j in range(N_CARDS):
        c = order[j]
        q = src.k_card[me, c]
        if free[c] and ((q >= 0 and q < n) or c == C_BAG_KEY or c == C_BAG_GOBLET):
            place_nb(dst, c, pick_room_nb(room, n, me, False, rs), room)
            free[c] = False
    for j in range(N_CARDS):
        c = order[j]
        if free[c]:
            place_nb(dst, c, pick_room_nb(room, n, me, True, rs), room)
            free[c] = False
    shuffle_nb(rs, dst.deck, dn - n_top)  # below the known top cards, in random order


@njit(cache=True, inline="always")
def pick_room_nb(room, n, me, deck_too, rs):
    """A place with room, chosen in proportion to its free places (a seat, or MAX_PLAYERS for
    the deck when ``deck_too``)."""
    tot = 0
    for p in range(n):
        if p != me:
            tot += room[p]
    if deck_too:
        tot += room[MAX_PLAYERS]
    if tot <= 0:
        return np.int64(-1)
    r = below_nb(rs, tot)
    for p in range(n):
        if p != me:
            if r < room[p]:
                return np.int64(p)
            r -= room[p]
    return np.int64(MAX_PLAYERS)


@njit(cache=True, inline="always")
def place_nb(dst, c, q, room):
    """Put card c into hand q, or into the deck's next free place (q = MAX_PLAYERS)."""
    if q < 0:
        return
    if q == MAX_PLAYERS:
        dst.deck[room[MAX_PLAYERS] - 1] = c
        dst.loc[c] = LOC_DECK
    else:
        dst.loc[c] = q
    room[q] -= 1


@njit(cache=True, inline="always")
def forget_others_nb(dst, src, me, n):
    """Every other seat keeps what it surely knows in this world and the public evidence;
    its private evidence, plans and memory start afresh (``bots.beliefs.reset_beliefs_nb``)."""
    m = dst.mem
    for q in range(MAX_PLAYERS):
        if q == me:
            continue
        for p in range(MAX_PLAYERS):
            dst.k_assoc[q, p] = -1
            dst.k_occ[q, p] = -1
            m.bel_gpair[q, p] = 0.0
            m.bel_graw1[q, p] = 0.0
            m.bel_team[q, p] = 0.5
        for c in range(N_CARDS):
            dst.k_card[q, c] = dst.loc[c] if dst.loc[c] == q else -1
            m.bel_conf[q, c] = 1.0
        for i in range(m.bel_w.shape[1]):
            m.bel_w[q, i] = 0.0
        # its private factors: under the fitted model, its own actions taken back out of the
        # public totals (public: who did what), and nothing else (bots.evidence)
        rebuild_private_nb(dst, kept_nb(n, src.sc[SC.N_ASG]), q)
        for i in range(m.bel_idx.shape[1]):
            m.bel_idx[q, i] = 0
        m.bel_fresh[q] = False
        m.bel_key[q, 0] = -1
        m.bel_key[q, 1] = 0
        m.bel_minor[q] = 0.0
        for j in range(N_BMEM):
            m.bmem[q, j] = 0
        m.bmem[q, M_CLAIR_TOP] = -1
        m.bmem[q, M_CLAIR_DN] = -1
        m.bmem[q, M_CLAIR_2ND] = -1
        m.bmem[q, M_PASSED] = -1
        if q >= n:
            continue
        m.bel_team[q, q] = 1.0
        for p in range(n):
            # whose cards a seat has looked at is public (a fight's look, the Monocle, R5.7,
            # R9), what it saw is not: here it saw this world's cards
            if p == q or src.k_assoc[q, p] >= 0:
                dst.k_assoc[q, p] = dst.assoc[p]
            if p == q or src.k_occ[q, p] >= 0 or dst.occ_up[p]:
                dst.k_occ[q, p] = dst.occ[p]
    if src.sc[SC.TOP_SEAT] >= 0 and src.sc[SC.TOP_SEAT] != me:
        dst.sc[SC.TOP_SEAT] = -1  # what it saw on top is not known to me: its look is forgotten
        dst.sc[SC.TOP_KNOWN] = 0
    tell_size_nb(dst, n)  # told seats (params.P_TOLD) know their team's size in this world too
