"""What one seat may see when it decides (STYLE 5: truth apart from view).

A View is one numpy record (``VIEW_DT``), the nested field ``st.mem.vw`` of the game state.
:func:`fill_view_nb` *copies* into it, for the deciding seat, its own knowledge and
beliefs, the public arrays, the options and context of the decision and plain ints;
after the decision :func:`take_back_nb` copies back what a policy may change (the seat's
memory and the game's random stream). The policies in ``bots/policy.py`` and
``bots/act.py`` receive only the View record, never the State, so they cannot read other
seats' associations, hidden hands, the deck order, other seats' beliefs, or the minority.
``sc`` is not in the view because it holds the minority and the box card; the public
scalars are copied out as ints.

Why a record: a record is passed to a jitted function as one pointer. The View was a
NamedTuple of ~20 array views, passed as ~150 machine words and ~20 reference counts on
every policy call; the copies here cost less (about 600 bytes a decision, plus the seat's
``na`` weights), each field one ``memcpy`` (``bots.intrinsics``).

=============  ================================================================
field          meaning
=============  ================================================================
me, team       deciding seat and its team (its own association card)
mode           bot id (dispatch.BOT_GREEDY / BOT_SMART)
n, turn        players; turns played so far
deck_n         cards left in the item deck (public)
bags_open      1 once the deck has emptied and the Bags are Key/Goblet (public)
hand_limit     R2.4
team_need      victory items a team declaration needs (R6.3: 3; the house rules, docs/rules.md)
drink_items    victory items the declarer's own Drink of Power stands for (R7: 1)
loge_need      victory items the Loge's solo win needs (R6.5: 3)
victory_cards  Keys and Goblets in the game, each (R9: 3; with 2 the third of each is out)
loge_in        1 if the Coat of Armor of the Loge is in the game (the item set is public)
kind, n_opts   the decision (enums.Decision) and its option count
opts, ctx      options opts[0:n_opts] and the context of the decision: only the slots
               the engine writes for its kind (``enums.DCTX_MASK``), the others 0
k_assoc        (10,) i8: team this seat has seen each seat hold, -1
k_occ          (10,) i8: occupation this seat knows each seat holds, -1
k_card         (21,) i8: where this seat last saw each card (seat, LOC_DECK) or -1;
               k_card[c] == me exactly when c is in its own hand
k_acard        (10, 3) i8: advanced 3-player (R10): team of each seat's association card
               j as this seat has seen it, -1 (its own three always known)
conf           (21,) f64: P(card still where last seen) (all 1.0 for the greedy bot)
tm             (10,) f64: P(seat is my teammate)
w, asg, na     weights over team assignments w[0:na] (smart bot), the assignments (public,
               the same for every seat, copied once per game by start_view_nb), their
               count; na = 0 except for the ACTION decision (from 8 players the first
               half, the splits of the table the beliefs keep: beliefs.kept_nb)
minor          P(my team is the minority) (odd N)
occ_up         (10,) i8: occupation face up (public), 0/1
hand_n         (10,) i8: cards in each hand (public)
drink          (10,) i8: holds a Drink of Power (public)
sup            (10,) i8: support sides declared in the current fight (public)
par            (N_BPARAM,) f64: this seat's bot parameters, the row of its role at this
               decision (:func:`role_nb`)
mem            (N_BMEM,) i32: this seat's bot memory (plans), copied back after
score, scr     scratch (float64) for this decision only
out            (3,) i32 written by the policy: reason code, target, card/value
rs             the game's random stream, copied back after
=============  ================================================================

``tm``, ``w`` and ``minor`` are brought up to date only for the decisions that read them
(:func:`reads_beliefs_nb`); the other decisions see the seat's last refreshed beliefs. Most
decisions read P(teammate) of one or two seats only (a supporter, SUPPORT R5.3: the two
fighters; an acceptance: the giver; the winner's look: the loser; ...,
``bots.dispatch.read_seats_nb``), and only those entries of ``tm`` are brought up to date
for them (``bots.beliefs.pair_beliefs_nb``; the seat's beliefs stay marked stale for its
next decision); the turn's action, the hand-limit gift and the Diplomat get a full refresh.
The two decisions of every fight's supporters and fighters (SUPPORT, FIGHT_PLAY: about
110 of a 6-player game's 270 decisions) read only the context, the beliefs ``tm`` and the
parameters, and change neither memory nor stream: :func:`fill_light_nb` copies just those
(:func:`is_light_nb`), and nothing is taken back.
Fields a decision does not fill (``w`` beyond ``na``, ``opts`` beyond ``n_opts``,
``k_acard`` beyond 3 players, the scratch, and for a light decision everything but its own
fields) may hold an earlier decision's values, often another seat's, and are never read:
the property test in ``tests/test_bots_view.py`` scrambles the whole record before each
decision it checks, SUPPORT and FIGHT_PLAY among them. The context is different: the
engine's ``st.dctx`` keeps every slot until something overwrites it, so a slot the decision's
kind does not use may hold a card offered in a trade between two other seats; ``ctx`` gets
the slots of ``enums.DCTX_MASK[kind]`` and 0 in the rest. ``tests/test_bots_honesty.py``
replays whole games with a hidden change and checks that a seat's views stay the same.
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import C_LOGE
from ..enums import DCTX_MASK, DEC, LOC_OUT, MAX_PLAYERS, N_CARDS, N_DCTX, N_OPTS, SC
from .beliefs import A_MAX, kept_nb
from .intrinsics import copy_nb
from .params import N_BMEM, N_BPARAM, ROLE_BASE, ROLE_LOGE, ROLE_MAJORITY, ROLE_MINORITY
from .values import N_SCR


def _view_dtype() -> np.dtype:
    i8, i32, i64, f64 = np.int8, np.int32, np.int64, np.float64
    P, C = MAX_PLAYERS, N_CARDS
    fields = [
        ("me", i64), ("team", i64), ("mode", i64), ("n", i64), ("turn", i64), ("deck_n", i64),
        ("bags_open", i64), ("hand_limit", i64), ("team_need", i64), ("drink_items", i64), ("loge_need", i64), ("victory_cards", i64), ("loge_in", i64), ("kind", i64), ("n_opts", i64), ("na", i64),
        ("minor", f64), ("opts", i32, (N_OPTS,)), ("ctx", i32, (N_DCTX,)), ("k_assoc", i8, (P,)),
        ("k_occ", i8, (P,)), ("k_card", i8, (C,)), ("k_acard", i8, (P, 3)), ("conf", f64, (C,)),
        ("tm", f64, (P,)), ("w", f64, (A_MAX,)), ("asg", i32, (A_MAX,)), ("occ_up", i8, (P,)),
        ("hand_n", i8, (P,)), ("drink", i8, (P,)), ("sup", i8, (P,)), ("par", f64, (N_BPARAM,)),
        ("mem", i32, (N_BMEM,)), ("score", f64, (2 * N_OPTS,)), ("scr", f64, (N_SCR,)), ("out", i32, (3,)),
        ("rs", np.uint64, (2,)),
    ]
    return np.dtype(fields, align=True)


VIEW_DT = _view_dtype()


@njit(cache=True, inline="always")
def reads_beliefs_nb(kind):
    """Does a heuristic bot read its team beliefs (tm, w, minor) for decision ``kind``?
    Those that do not follow a plan made earlier or look only at cards and occupations."""
    return not (kind == DEC.DECL_NAME or kind == DEC.EFFECT_USE or kind == DEC.ACARD_PICK
                or kind == DEC.FIGHT_PLAY or kind == DEC.RING_USE or kind == DEC.HYPNO
                or kind == DEC.COAT_PICK or kind == DEC.CLAIR_PICK
                or kind == DEC.DIPLO_TARGET or kind == DEC.DIPLO_NAME or kind == DEC.DIPLO_OFFER)


@njit(cache=True, inline="always")
def is_light_nb(kind):
    """Is ``kind`` a decision whose policy reads only me, team, n, turn, the options, ctx,
    tm and par of the View, and writes only ``out`` (see :func:`fill_light_nb`)?"""
    return kind == DEC.SUPPORT or kind == DEC.FIGHT_PLAY


@njit(cache=True, inline="always")
def role_nb(st, seat):
    """Which of ``seat``'s parameter rows applies now (``params.ROLE_*``), from what the seat
    knows: the Loge row while the Coat of Armor of the Loge is in its own hand, else at odd N
    the minority row while its own P(my team is the minority) is at least 0.5 (exactly 0 or 1
    for a told seat, beliefs.tell_size_nb) and the majority row below; a role whose row equals
    the base row (``brole`` bit clear, every profile without role rows) reads the base row."""
    on = st.mem.brole[seat]
    if on == 0:
        return ROLE_BASE
    if (on >> ROLE_LOGE) & 1 and st.k_card[seat, C_LOGE] == seat:
        return ROLE_LOGE
    if st.sc[SC.N] % 2 == 1:
        r = ROLE_MINORITY if st.mem.bel_minor[seat] >= 0.5 else ROLE_MAJORITY
        if (on >> r) & 1:
            return r
    return ROLE_BASE


@njit(cache=True)
def fill_light_nb(st, seat, kind, n_opts, mode):
    """The View fields a light decision's policy reads (:func:`is_light_nb`): me, team, mode,
    n, turn, kind, the options, ctx (the slots of ``enums.DCTX_MASK[kind]``), tm and par (the
    row of the seat's role, :func:`role_nb`; ``na = 0``); :func:`fill_view_nb` starts
    here and fills the rest. For a light decision the other fields keep an earlier
    decision's values, which it never reads; memory and stream are not copied, so nothing
    is taken back."""
    sc = st.sc
    v = st.mem.vw
    v.me = seat
    v.team = st.k_assoc[seat, seat]
    v.mode = mode
    v.n = sc[SC.N]
    v.turn = sc[SC.TURN]
    v.kind = kind
    v.n_opts = n_opts
    v.na = 0
    copy_nb(v.opts, st.opts, n_opts)
    m = DCTX_MASK[kind]  # the slots written for this decision; the others are an earlier one's
    for i in range(N_DCTX):
        v.ctx[i] = st.dctx[i] if (m >> i) & 1 else 0
    copy_nb(v.tm, st.mem.bel_team[seat], MAX_PLAYERS)
    r = role_nb(st, seat)
    if r == ROLE_BASE:
        copy_nb(v.par, st.mem.bparam[seat], N_BPARAM)
    else:
        copy_nb(v.par, st.mem.brow[seat, r - 1], N_BPARAM)
    return v


@njit(cache=True, inline="always")
def start_view_nb(st):
    """Per game: the team assignments (public, the same for every seat) and a clean view."""
    v = st.mem.vw
    na = st.sc[SC.N_ASG]
    for i in range(A_MAX):
        v.asg[i] = st.mem.bel_asg[i] if i < na else 0
        v.w[i] = 0.0
    v.na = na


@njit(cache=True)
def fill_view_nb(st, seat, kind, n_opts, mode, conf):
    """Make ``st.mem.vw`` the View of ``seat`` for decision ``kind`` with options
    st.opts[0:n_opts]; ``conf`` is the card-confidence row to show (the seat's own, or all
    ones). Returns the view record. The assignment weights are copied for the turn's action
    only (the one decision that reads them, to plan a declaration); the other decisions see
    ``na = 0``. (What a light decision reads is filled by :func:`fill_light_nb` first.)"""
    v = fill_light_nb(st, seat, kind, n_opts, mode)
    sc = st.sc
    n = sc[SC.N]
    v.deck_n = sc[SC.DECK_N]
    v.bags_open = sc[SC.BAGS_OPEN]
    v.hand_limit = sc[SC.HAND_LIMIT]
    v.team_need = sc[SC.TEAM_NEED]  # the rules in play are public
    v.drink_items = sc[SC.DRINK_ITEMS]
    v.loge_need = sc[SC.LOGE_NEED]
    v.victory_cards = sc[SC.VICTORY_CARDS]
    v.loge_in = np.int64(st.loc[C_LOGE] != LOC_OUT)  # the item set in play is public (R2)
    v.minor = st.mem.bel_minor[seat]
    copy_nb(v.k_assoc, st.k_assoc[seat], MAX_PLAYERS)
    copy_nb(v.k_occ, st.k_occ[seat], MAX_PLAYERS)
    copy_nb(v.occ_up, st.occ_up, MAX_PLAYERS)
    copy_nb(v.hand_n, st.hand_n, MAX_PLAYERS)
    copy_nb(v.drink, st.drink, MAX_PLAYERS)
    copy_nb(v.sup, st.sup, MAX_PLAYERS)
    if n == 3:  # association cards exist only in the advanced 3-player game (R10)
        vac, kac = v.k_acard, st.k_acard[seat]
        for p in range(3):
            for j in range(3):
                vac[p, j] = kac[p, j]
    copy_nb(v.k_card, st.k_card[seat], N_CARDS)
    copy_nb(v.conf, conf, N_CARDS)
    if kind == DEC.ACTION:
        na = kept_nb(n, sc[SC.N_ASG])  # from 8 players the weights of the first half only (beliefs)
        v.na = na
        copy_nb(v.w, st.mem.bel_w[seat], na)
    copy_nb(v.mem, st.mem.bmem[seat], N_BMEM)
    v.rs[0] = st.rs[0]
    v.rs[1] = st.rs[1]
    return v


@njit(cache=True, inline="always")
def take_back_nb(st, seat):
    """After the decision: the seat's memory and the random stream, as the policy left them."""
    v = st.mem.vw
    copy_nb(st.mem.bmem[seat], v.mem, N_BMEM)
    st.rs[0] = v.rs[0]
    st.rs[1] = v.rs[1]
