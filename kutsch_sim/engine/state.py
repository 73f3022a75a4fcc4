"""Game state as one numpy record of fixed-shape array fields, and set-up (R2).

Layout (all arrays allocated once per game by :func:`new_state_nb`; nothing is
allocated in the per-turn loop). ``-1`` = none / unknown.

=========  ===============  ==========================================================
field      shape, dtype     meaning
=========  ===============  ==========================================================
sc         (N_SCALARS,) i64 scalars, indexed by ``enums.SC`` (turn, active seat, ...)
rs         (2,) u64         the game's random stream (key, counter), see ``rng``
loc        (21,) i8         where each card is: seat 0..9, LOC_DECK or LOC_OUT
deck       (21,) i8         deck order, deck[0:DECK_N]; the top card is deck[DECK_N-1]
hand_n     (10,) i8         cards in each seat's hand (== count of loc == seat)
assoc      (10,) i8         team of each seat (ORDER/BROTHERHOOD), -1 beyond N
occ        (10,) i8         occupation each seat holds, -1 beyond N
occ_up     (10,) i8         the seat's occupation is face up (used, R8)
occ_loc    (10,) i8         where each occupation is: seat or LOC_PILE
drink      (10,) i8         seat has a Drink of Power (odd N, R7)
opts       (512,) i32       options of the decision being taken
dctx       (N_DCTX,) i32    context of that decision (who attacks whom, which card ...)
script     (512, 3) i32     scripted decisions: (seat, decision kind, option value); sc[N_SCRIPT] used
log        (16384, 6) i32   event log rows [type, turn, a, b, c, d]; sc[LOG_CAP] used (0 = off)
k_assoc    (10, 10) i8      k_assoc[s, p]: team seat s has seen p hold, -1
k_occ      (10, 10) i8      k_occ[s, p]: occupation s knows p holds, -1
k_card     (10, 21) i8      k_card[s, c]: seat s last saw card c in seat ...'s hand, -1
acard      (10, 3) i8       advanced 3-player (R10): each seat's 3 association cards in order, -1
k_acard    (10, 10, 3) i8   k_acard[s, p, j]: team of p's card j as seat s has seen it, -1
sup        (10,) i8         scratch for fights: each seat's support side
mark       (21,) i8         scratch (Sextant choices, declaration names, ...)
rec        (N_REC,) i32     the game's record, filled at the end
mem        MEMORY_DT        the bots' memory (``bots.memory``): their beliefs, plans, parameters and
                            the deciding seat's View; the rules never read it
=========  ===============  ==========================================================

``mem`` belongs to the bots: the engine reaches them only through ``engine.seats`` (start
the seats, tell them an event, ask a decision); a policy sees only its own seat's data,
copied into its View record (``bots.view``). The fields the bots' kernels touch by name are
:data:`BOTS_READ` (tests/test_architecture.py holds ``bots/`` to it).
"""

from __future__ import annotations

import numpy as np
from ..jit import njit

from ..cards_nb import C_BAG_GOBLET, C_BAG_KEY
from ..enums import (
    EV,
    KNOB_DEFAULT,
    KNOB_SC,
    KNOB_SHIFT,
    KNOB_WIDTH,
    LOC_DECK,
    LOC_OUT,
    LOC_PILE,
    MAX_PLAYERS,
    N_CARDS,
    N_DCTX,
    N_OCCS,
    N_OPTS,
    N_REC,
    N_SCALARS,
    REC,
    SC,
    VAR,
)
from ..jit import record_nb
from ..rng import seed_stream_nb, shuffle_nb
from .log import log_nb
from .seats import MEMORY_DT, clear_seats_nb, start_seats_nb

LOG_CAP = 16384  # event rows a state can hold; sc[LOG_CAP] says how many are used (0 = off)
SCRIPT_CAP = 512  # scripted decisions a state can hold; sc[N_SCRIPT] says how many


def _state_dtype() -> np.dtype:
    """One numpy record per game. Passing a record to a jitted function passes one pointer;
    a NamedTuple of ~40 arrays was passed as ~40 reference-counted array structs on every
    call: a small non-inlined call on the engine state measured 150-1000 ns
    with the NamedTuple against ~20 ns with a record (numba 0.68, 2-core machine)."""
    i8, i32, i64 = np.int8, np.int32, np.int64
    b = np.int8  # numba has no bool arrays inside records: 0/1
    P, C = MAX_PLAYERS, N_CARDS
    fields = [
        ("sc", i64, (N_SCALARS,)), ("rs", np.uint64, (2,)), ("loc", i8, (C,)), ("deck", i8, (C,)),
        ("hand_n", i8, (P,)), ("assoc", i8, (P,)), ("occ", i8, (P,)), ("occ_up", b, (P,)),
        ("occ_loc", i8, (N_OCCS,)), ("drink", b, (P,)),
        ("opts", i32, (N_OPTS,)), ("dctx", i32, (N_DCTX,)), ("script", i32, (SCRIPT_CAP, 3)),
        ("log", i32, (LOG_CAP, 6)), ("k_assoc", i8, (P, P)), ("k_occ", i8, (P, P)), ("k_card", i8, (P, C)),
        ("acard", i8, (P, 3)), ("k_acard", i8, (P, P, 3)), ("sup", i8, (P,)), ("mark", i8, (C,)), ("rec", i32, (N_REC,)),
        ("mem", MEMORY_DT),
    ]
    return np.dtype(fields, align=True)


STATE_DT = _state_dtype()
STATE_FIELDS = STATE_DT.names

# The fields of the state the bots (bots/) read by name: the seam between the rules and the
# players, which the import graph cannot see. A field here is one whose every use in bots/ is
# public, the seat's own, or the bots' own; which row or slot they read of it is the View's
# business (tests/test_bots_view.py changes what a seat cannot know and sees no decision change).
BOTS_READ = (
    "sc",  # scalars: player count, turn, active seat, variants (R10), the beliefs switch, the log's length
    "rs",  # the game's one random stream: random bots and ties draw from it and hand it back
    "mem",  # the bots' own record (bots.memory): beliefs, plans, parameters, the View
    "opts",  # the options of the decision asked (engine.decide)
    "dctx",  # that decision's context, the slots enums.DCTX_MASK says were written for it
    "k_assoc",  # k_*: what each seat has seen; a View copies the deciding seat's row only
    "k_occ",
    "k_card",
    "k_acard",  # advanced 3-player game (R10): the association cards each seat has seen
    "hand_n",  # how many items each seat holds: the cards lie on the table, face down
    "occ_up",  # face-up occupations are public (R8)
    "drink",  # the Drinks of Power lie face up (R7)
    "sup",  # the supports declared in a fight, in turn and aloud (R5.3)
    "loc",  # only loc[Loge]: whether the Loge's Coat is in the game; the item set is public (R2.3)
    "assoc",  # only at set-up, for the seats told their team's size (beliefs.tell_size_nb, params.P_TOLD)
    "log",  # written, not read: the REASON row of a decision (dispatch.log_reason_nb)
)


@njit(cache=True)
def new_state_nb(log_cap, script):
    """Allocate an empty state: a 1-element structured array (keep it alive; ``buf[0]`` is
    the state record the kernels take). ``script`` is int32[S, 3], S <= SCRIPT_CAP."""
    buf = np.zeros(1, STATE_DT)
    st = record_nb(buf)
    st.loc[:] = LOC_OUT
    st.deck[:] = -1
    st.assoc[:] = -1
    st.occ[:] = -1
    st.occ_loc[:] = LOC_PILE
    st.k_assoc[:, :] = -1
    st.k_occ[:, :] = -1
    st.k_card[:, :] = -1
    st.acard[:, :] = -1
    st.k_acard[:, :, :] = -1
    clear_seats_nb(st)
    load_script_nb(st, script)
    st.sc[SC.LOG_CAP] = min(log_cap, LOG_CAP)
    return buf


@njit(cache=True, inline="always")
def load_script_nb(st, script):
    n = min(script.shape[0], SCRIPT_CAP)
    for i in range(n):
        for j in range(3):
            st.script[i, j] = script[i, j]
    st.sc[SC.N_SCRIPT] = n


def new_state(log_cap: int = LOG_CAP, script: np.ndarray | None = None):
    """Python side: a state record whose fields are writable array views (``st.loc[3] = 0``)
    and which the kernels accept as it is."""
    if script is None:
        script = np.zeros((0, 3), np.int32)
    if len(script) > SCRIPT_CAP:
        raise ValueError(f"a script holds at most {SCRIPT_CAP} decisions")
    return as_record(new_state_nb(int(log_cap), np.ascontiguousarray(script, dtype=np.int32)))


def as_record(buf: np.ndarray):
    return np.rec.array(buf, copy=False)[0]


def copy_state(st):
    """An independent copy of a Python-side state record."""
    return as_record(np.array([st], dtype=STATE_DT))


@njit(cache=True, inline="always")
def hand_limit_for_nb(n):
    """R2.4: 3 players 8, 4 players 6, 5+ players 5."""
    if n == 3:
        return 8
    if n == 4:
        return 6
    return 5


@njit(cache=True)
def reset_scalars_nb(st, n, turn_cap, drink_on, debug, variants):
    sc = st.sc
    log_cap = sc[SC.LOG_CAP]
    n_script = sc[SC.N_SCRIPT]
    sc[:] = 0
    sc[SC.LOG_CAP] = log_cap
    sc[SC.N_SCRIPT] = n_script
    sc[SC.N] = n
    sc[SC.WINNER] = -1
    sc[SC.SOLO_SEAT] = -1
    sc[SC.DECLARER] = -1
    sc[SC.DECL_KIND] = -1
    sc[SC.MINORITY] = -1
    sc[SC.LEFTOVER] = -1
    sc[SC.TURN_CAP] = turn_cap
    sc[SC.DEBUG] = 0  # switched on by setup_nb once the position is complete
    sc[SC.DRINK] = 1 if (drink_on and n % 2 == 1) else 0
    sc[SC.VARIANTS] = variants
    sc[SC.TOP_SEAT] = -1
    # the house rules' values (enums.KNOB_SC): each a field of (value - default) above the
    # on/off bits, so every scalar reads the rule's own value when no house rule is named
    for i in range(len(KNOB_SC)):
        f = (variants >> (KNOB_SHIFT + KNOB_WIDTH * i)) & ((1 << KNOB_WIDTH) - 1)
        if f >= 1 << (KNOB_WIDTH - 1):
            f -= 1 << KNOB_WIDTH
        sc[KNOB_SC[i]] = KNOB_DEFAULT[i] + f
    if sc[SC.HAND_LIMIT] == 0:  # no hand-limit house rule: R2.4's limit for the count
        sc[SC.HAND_LIMIT] = hand_limit_for_nb(n)


@njit(cache=True)
def give_card_nb(st, c, p):
    """Put card c into seat p's hand (from wherever it was); the seat knows it."""
    old = st.loc[c]
    if old >= 0 and old < MAX_PLAYERS:
        st.hand_n[old] -= 1
    st.loc[c] = p
    st.hand_n[p] += 1
    st.k_card[p, c] = p
    if c == N_CARDS - 1:  # the Loge: remember every seat that ever held it (Rec.LOGE_EVER)
        st.rec[REC.LOGE_EVER] |= 1 << p


@njit(cache=True, inline="always")
def majority_nb(c0, c1, c2):
    """Team of the 2 or 3 matching cards among three association cards (R10 advanced 3-player)."""
    return 1 if c0 + c1 + c2 >= 2 else 0


@njit(cache=True, inline="always")
def set_acards_nb(st, p, c0, c1, c2):
    """Give seat p the association cards c0, c1, c2 (in this order, R10); its team is their
    majority; the seat knows its own cards."""
    st.acard[p, 0] = c0
    st.acard[p, 1] = c1
    st.acard[p, 2] = c2
    for j in range(3):
        st.k_acard[p, p, j] = st.acard[p, j]
    st.assoc[p] = majority_nb(c0, c1, c2)
    st.k_assoc[p, p] = st.assoc[p]


@njit(cache=True, inline="always")
def deal_advanced_3p_nb(st, rs):
    """R10 advanced 3-player: all 10 association cards shuffled, 3 to each seat (they keep
    their order), the tenth back in the box unseen; team = the majority of a seat's cards, so
    the teams are always 2 against 1 (6 matching cards would be needed for 3 against 0)."""
    cards = np.zeros(MAX_PLAYERS, np.int8)
    for i in range(MAX_PLAYERS):
        cards[i] = 0 if i < 5 else 1
    shuffle_nb(rs, cards, MAX_PLAYERS)
    n_order = 0
    for p in range(3):
        set_acards_nb(st, p, cards[3 * p], cards[3 * p + 1], cards[3 * p + 2])
        if st.assoc[p] == 0:
            n_order += 1
        log_nb(st, EV.ASSOC, p, st.assoc[p], 0, 0)
        log_nb(st, EV.ACARDS, p, cards[3 * p], cards[3 * p + 1], cards[3 * p + 2])
    st.sc[SC.LEFTOVER] = cards[9]
    st.sc[SC.MINORITY] = 0 if n_order == 1 else 1  # the team with one member


@njit(cache=True)
def setup_nb(st, sp, game):
    """R2 set-up of game ``game`` of the spec record ``sp`` (``kutsch_sim.spec``).

    The set-up reads of ``sp``: the players ``n``, the masks ``in_game`` and ``stamped``
    (int8[21], 0/1: the item set at this player count, and the stamped cards), the stream keys
    ``seed`` and ``config_id``, ``turn_cap``, ``drink_on``, ``debug`` and ``variants`` (the
    bits of ``enums.Variant`` and the house rules' fields, R10). Mutates ``st``. Random draws
    come from the game's own stream.
    """
    n = sp.n
    in_game = sp.in_game
    stamped = sp.stamped
    seed_stream_nb(st.rs, sp.seed, sp.config_id, game)
    reset_scalars_nb(st, n, sp.turn_cap, sp.drink_on, sp.debug, sp.variants)
    start_seats_nb(st, n)
    rs = st.rs
    st.hand_n[:] = 0
    st.occ_up[:] = False
    st.drink[:] = False
    st.k_assoc[:, :] = -1
    st.k_occ[:, :] = -1
    st.k_card[:, :] = -1
    st.acard[:, :] = -1
    st.k_acard[:, :, :] = -1
    st.assoc[:] = -1
    st.occ[:] = -1
    st.rec[:] = 0
    for c in range(N_CARDS):
        st.loc[c] = LOC_OUT
        st.deck[c] = -1

    # R2.1 occupations: shuffle all 10, one face down to each seat, the rest form the pile
    occs = np.arange(N_OCCS).astype(np.int8)
    shuffle_nb(rs, occs, N_OCCS)
    for o in range(N_OCCS):
        st.occ_loc[o] = LOC_PILE
    for p in range(n):
        st.occ[p] = occs[p]
        st.occ_loc[occs[p]] = p
        st.k_occ[p, p] = occs[p]
        log_nb(st, EV.OCC, p, occs[p], 0, 0)

    # R2.2 associations: N even -> N/2 + N/2; N odd -> (N+1)/2 of each, one left in the box
    if n == 3 and st.sc[SC.VARIANTS] & VAR.ADV3P:
        deal_advanced_3p_nb(st, rs)
    else:
        half = (n + 1) // 2
        cards = np.zeros(MAX_PLAYERS, np.int8)
        for i in range(2 * half):
            cards[i] = 0 if i < half else 1
        shuffle_nb(rs, cards, 2 * half)
        for p in range(n):
            st.assoc[p] = cards[p]
            st.k_assoc[p, p] = cards[p]
            log_nb(st, EV.ASSOC, p, cards[p], 0, 0)
        if n % 2 == 1:
            st.sc[SC.LEFTOVER] = cards[n]
            st.sc[SC.MINORITY] = cards[n]  # the team whose card is in the box has fewer members
    if n % 2 == 1:
        told = 0  # the seats shown the box card: the smaller team's, under the smaller-told house rule (R2.2)
        if st.sc[SC.SMALLER_TOLD] == 1:
            for p in range(n):
                if st.assoc[p] == st.sc[SC.MINORITY]:
                    told |= 1 << p
        log_nb(st, EV.LEFTOVER, st.sc[SC.LEFTOVER], told, 0, 0)
        if st.sc[SC.DRINK] == 1:
            for p in range(n):
                st.drink[p] = True

    # R2.3 items: N-2 stamped non-Bag cards (4 at 3 players) + both Bags, one each (two at 3;
    # start-items at 3 players)
    pool = np.zeros(N_CARDS, np.int8)
    n_pool = 0
    vc = st.sc[SC.VICTORY_CARDS]  # R9: 3 Keys (cards 0-2) and 3 Goblets (3-5), or the victory-cards house rule
    for c in range(N_CARDS):
        if c < 6 and c % 3 >= vc:
            continue  # left out of the deal, like a card outside its player range
        if in_game[c] and stamped[c] and c != C_BAG_KEY and c != C_BAG_GOBLET:
            pool[n_pool] = c
            n_pool += 1
    shuffle_nb(rs, pool, n_pool)
    per = st.sc[SC.START_ITEMS] if n == 3 else 1  # R2.3: two at 3 players, or the start-items house rule
    last = st.sc[SC.LAST_ITEMS]  # the last seat's extra items (last-seat-items house rule; R2.3: 0)
    n_deal = n * per - 2 + last
    start = np.zeros(2 * MAX_PLAYERS, np.int8)
    for i in range(n_deal):
        start[i] = pool[i]
    start[n_deal] = C_BAG_KEY
    start[n_deal + 1] = C_BAG_GOBLET
    shuffle_nb(rs, start, n_deal + 2)
    for i in range(n_deal + 2):
        p = i % n if i < n * per else n - 1
        give_card_nb(st, np.int64(start[i]), p)  # int64, as every other caller: one compile
        log_nb(st, EV.DEAL, p, start[i], 0, 0)
    # the rest of the stamped cards plus the chosen unstamped ones form the deck
    n_deck = 0
    for i in range(n_deal, n_pool):
        st.deck[n_deck] = pool[i]
        n_deck += 1
    for c in range(N_CARDS):
        if in_game[c] and not stamped[c] and c != C_BAG_KEY and c != C_BAG_GOBLET:
            st.deck[n_deck] = c
            n_deck += 1
    shuffle_nb(rs, st.deck, n_deck)
    for i in range(n_deck):
        st.loc[st.deck[i]] = LOC_DECK
        log_nb(st, EV.DECK, st.deck[i], i, 0, 0)
    st.sc[SC.DECK_N] = n_deck
    if n_deck == 0:
        st.sc[SC.BAGS_OPEN] = 1
    st.sc[SC.DEBUG] = sp.debug
    log_nb(st, EV.SETUP_DONE, n_deck, 0, 0, 0)

    # record the starting position (Rec)
    for p in range(MAX_PLAYERS):
        st.rec[REC.TEAM0 + p] = st.assoc[p]
        st.rec[REC.OCC0 + p] = st.occ[p]
        st.rec[REC.ITEMS0 + p] = 0
    st.rec[REC.LOGE_START] = -1
    for c in range(N_CARDS):
        p = st.loc[c]
        if p >= 0 and p < MAX_PLAYERS:
            st.rec[REC.ITEMS0 + p] |= 1 << c
    st.rec[REC.LOGE_START] = st.loc[N_CARDS - 1] if st.loc[N_CARDS - 1] < MAX_PLAYERS else -1
