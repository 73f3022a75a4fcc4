"""Games replayed with a hidden change, played without the JIT: the replay machinery of
tests/test_bots_honesty.py (what is compared, and when: tests/_helpers_honesty_check.py, which
that test runs in a subprocess with ``NUMBA_DISABLE_JIT=1``).

Without the JIT every kernel is a plain Python function that finds the kernels it calls in
its module's namespace at the call, so :class:`Hooks` can wrap the engine's decision entry
points for one game (``engine.decide.decide_body_nb``, the ``ask_nb`` it calls, and
``engine.trade.forced_nb``) and give them back after it. Games played so are the compiled
games (tests/test_jit_off.py).

:func:`trace` plays a game as its bots play it and records every decision (seat, kind,
value) and the random stream after it. :func:`replay` plays it again for one watched seat X:
every other seat's decision scripted to its traced value (the engine's own script,
``engine.decide.take_script_row_nb``, fed one row at a time, as a game has more decisions
than a state's script holds) and the stream set after it as that seat's bot left it, so that
X's bot, which decides by itself, draws what it drew in the trace. The replay is either the
game as dealt or the game with a hidden change made right after set-up (:data:`CHANGE_FNS`:
two seats' associations, two cards, the deck's order), the card ids in the script following
a change of cards. At each decision X's bot takes, :class:`Hooks` keeps X's memory and
beliefs (before and after), its View as the policy left it (inputs, scratch and reason), the
option chosen and its value.
"""

from __future__ import annotations

import numpy as np

from kutsch_sim.api import GameConfig
from kutsch_sim.cards_nb import C_LOGE, has_effect_nb
from kutsch_sim.engine import decide, trade
from kutsch_sim.engine.state import new_state_nb
from kutsch_sim.enums import (
    ACT_MUL,
    MAX_PLAYERS,
    N_CARDS,
    ACT_TRADE,
    CARD_KIND_LIST,
    DEC,
    LOC_DECK,
    N_DCTX,
    REC,
    SC,
)
from kutsch_sim.jit import DISABLE_JIT, record_nb
from kutsch_sim.play import init_game_nb
from kutsch_sim.engine.game import play_turns_nb

assert DISABLE_JIT, "the honesty harness wraps kernels: run it with NUMBA_DISABLE_JIT=1"

SENTINEL = -(2**30) + 7  # a dctx value no rule writes
LOG_CAP = 16384
CHANGES = ("teams", "cards", "deck")
CARD_KINDS = (DEC.CLAIR_PICK, DEC.DIPLO_OFFER, DEC.RETURN, DEC.GIVE_NAMED, DEC.SEXTANT_PASS, DEC.PRIEST_GIVE,
              DEC.TAKE, DEC.GIVE_BACK)  # decisions whose value is a card id (-1: none)


# ------------------------------------------------------------------ hooks
class Hooks:
    """The engine's decision entry points wrapped for one game (see the module doc).

    ``watch``: the seat X; ``script``: int32[S, 3] rows for the other seats, or None (the
    trace: every bot decides, the others' bots on a copy of the stream); ``ctx_probe``: fill
    ``st.dctx`` with :data:`SENTINEL` after every decision and record which slots the engine
    wrote before the next one (``self.written``: (kind, bit mask) per decision)."""

    def __init__(self, watch: int = -1, script: np.ndarray | None = None, ctx_probe: bool = False):
        self.watch, self.script, self.ctx_probe = watch, script, ctx_probe
        self.script_rs: np.ndarray | None = None  # the stream after each script row's decision
        self.ptr = 0  # next script row
        self.rows: list[tuple[int, int, int]] = []  # every decision: seat, kind, value
        self.rs: list[np.ndarray] = []  # the random stream after each decision
        self.written: list[tuple[int, int]] = []
        self.snaps: list[dict] = []
        self.asked: list[tuple[int, int]] = []  # every decision a bot took: seat, kind
        self.tick = 0  # hook calls so far
        self.stop_tick = None  # the first decision of another seat that its bot took (replays)
        self._saved: dict = {}

    def __enter__(self):
        self._saved = {"body": decide.decide_body_nb, "ask": decide.ask_nb, "forced": trade.forced_nb}
        body, ask, forced = self._saved["body"], self._saved["ask"], self._saved["forced"]

        def decide_body(st, seat, kind, n):
            self._before(st, kind)
            v = self._scripted(st, lambda: body(st, seat, kind, n))
            return self._after(st, seat, kind, v)

        def forced_nb(st, seat, kind, value, why):
            self._before(st, kind)
            v = self._scripted(st, lambda: forced(st, seat, kind, value, why))
            return self._after(st, seat, kind, v)

        def ask_nb(st, seat, kind, n):
            self.asked.append((int(seat), int(kind)))
            if seat != self.watch:
                if self.script is not None and self.stop_tick is None:
                    self.stop_tick = self.tick
                return ask(st, seat, kind, n)
            before = x_memory(st, seat)
            i = ask(st, seat, kind, n)
            self.snaps.append({"tick": self.tick, "ev": int(st.sc[SC.N_EVENTS]), "kind": int(kind),
                               "opts": st.opts[:n].copy(), "i": int(i), "value": int(st.opts[i]),
                               "before": before, "after": x_memory(st, seat),
                               "view": st.mem.vw.tobytes()})
            return i

        decide.decide_body_nb, decide.ask_nb, trade.forced_nb = decide_body, ask_nb, forced_nb
        return self

    def __exit__(self, *exc):
        decide.decide_body_nb = self._saved["body"]
        decide.ask_nb = self._saved["ask"]
        trade.forced_nb = self._saved["forced"]

    def _before(self, st, kind):
        self.tick += 1
        if self.ctx_probe:
            m = 0
            for i in range(N_DCTX):
                if st.dctx[i] != SENTINEL:
                    m |= 1 << i
            self.written.append((int(kind), m))

    def _scripted(self, st, call):
        """The engine's script, one row at a time: the next row of ``self.script`` is put in
        the state's script (position 0), and taken if the engine took it."""
        if self.script is None or self.ptr >= len(self.script):
            st.sc[SC.N_SCRIPT] = 0
            return call()
        st.script[0, :] = self.script[self.ptr]
        st.sc[SC.SCRIPT_POS] = 0
        st.sc[SC.N_SCRIPT] = 1
        v = call()
        if st.sc[SC.SCRIPT_POS] == 1:
            if self.script_rs is not None:  # the stream as the seat's bot left it in the trace
                st.rs[:] = self.script_rs[self.ptr]
            self.ptr += 1
        st.sc[SC.N_SCRIPT] = 0
        st.sc[SC.SCRIPT_POS] = 0
        return v

    def _after(self, st, seat, kind, v):
        self.rows.append((int(seat), int(kind), int(v)))
        self.rs.append(st.rs.copy())
        if self.ctx_probe:
            st.dctx[:] = SENTINEL
        return v


def x_memory(st, x) -> dict:
    """What seat x's bot keeps: its plans, its beliefs and the evidence they come from (its
    own rows, and the public rows it reads)."""
    m = st.mem
    return {"bmem": m.bmem[x].copy(), "bel_team": m.bel_team[x].copy(), "bel_minor": float(m.bel_minor[x]),
            "bel_w": m.bel_w[x].copy(), "bel_conf": m.bel_conf[x].copy(), "bel_epriv": m.bel_epriv[x].copy(),
            "bel_gpair": m.bel_gpair[x].copy(), "bel_fresh": int(m.bel_fresh[x]),
            "bel_epub": m.bel_epub[m.bel_tslot[x]].copy(), "bel_psat": m.bel_psat.copy(),
            "bel_psat1": m.bel_psat1.copy(), "bel_inf1": m.bel_inf1.copy(), "bel_corr1": m.bel_corr1[x].copy(),
            "k_assoc": st.k_assoc[x].copy(), "k_occ": st.k_occ[x].copy(), "k_card": st.k_card[x].copy(),
            "k_acard": st.k_acard[x].copy()}


# ------------------------------------------------------------------ games
def play(cfg: GameConfig, seed: int, game: int, hooks: Hooks, change=None, x: int = -1, rng=None, trace_of=None):
    """Play game ``game`` of ``cfg`` with ``hooks`` on; ``change(st, x, rng, trace_of)`` alters
    the deal right after set-up and returns the card permutation it made; the hooks' script is
    then the trace's (:func:`others_script`). Returns (state record, permutation)."""
    spec = cfg.spec(seed)
    buf = new_state_nb(LOG_CAP, np.zeros((0, 3), np.int32))
    st = record_nb(buf)
    with hooks:  # (a NoChange raised by ``change`` leaves the hooks as it found them)
        init_game_nb(st, record_nb(spec), game)
        perm = change(st, x, rng, trace_of) if change is not None else None
        if trace_of is not None:
            hooks.script, hooks.script_rs = others_script(trace_of, x, perm)
        if hooks.ctx_probe:
            st.dctx[:] = SENTINEL
        play_turns_nb(st, -1)
    return st, perm


def trace(cfg, seed, game) -> Hooks:
    """The game as its bots play it: every decision (seat, kind, value) and the random
    stream after it."""
    h = Hooks()
    play(cfg, seed, game, h)
    return h


def others_script(t: Hooks, x, perm=None) -> tuple[np.ndarray, np.ndarray]:
    """The traced decisions of every seat but x as script rows, card ids through ``perm``,
    and the random stream after each."""
    keep = [i for i, r in enumerate(t.rows) if r[0] != x]
    rows = [(s, k, remap(k, v, perm)) for s, k, v in (t.rows[i] for i in keep)]
    rs = np.array([t.rs[i] for i in keep], np.uint64).reshape(-1, 2)
    return np.array(rows, np.int32).reshape(-1, 3), rs


def remap(kind, v, perm):
    """Decision value ``v`` of ``kind`` with its card id c replaced by perm[c]."""
    if perm is None:
        return v
    if kind in CARD_KINDS:
        return int(perm[v]) if v >= 0 else v
    if kind == DEC.ACTION and v // ACT_MUL == ACT_TRADE:
        return v - v % 32 + int(perm[v % 32])
    if kind == DEC.LIMIT_GIVE:
        return v - v % 32 + int(perm[v % 32])
    return v


def replay(cfg, seed, game, x, t: Hooks, change=None, rng=None):
    """Replay the traced game ``t`` with the other seats scripted (card ids following the
    change's permutation; after each of their decisions the stream is set as their bot left it,
    so X's bot draws what it drew in the trace); returns (hooks, events), or None if
    ``change`` finds nothing to change."""
    h = Hooks(watch=x, script=np.zeros((0, 3), np.int32))
    try:
        st, _ = play(cfg, seed, game, h, change, x, rng, t)
    except NoChange:
        return None
    ne = min(int(st.sc[SC.N_EVENTS]), LOG_CAP)
    return h, st.log[:ne].copy()


# ------------------------------------------------------------------ hidden changes
class NoChange(Exception):
    """The deal has nothing of this kind that the watched seat cannot see."""


def change_teams(st, x, rng, t):
    """Swap the associations of two other seats of different teams (R2.2; in the advanced
    3-player game their three association cards, R10), which x has not seen. Each knows its own."""
    n = int(st.sc[SC.N])
    pairs = [(p, q) for p in range(n) for q in range(p + 1, n)
             if x not in (p, q) and st.assoc[p] != st.assoc[q] and st.k_assoc[x, p] < 0 and st.k_assoc[x, q] < 0]
    if not pairs:
        raise NoChange()
    p, q = pairs[rng.integers(len(pairs))]
    st.assoc[p], st.assoc[q] = st.assoc[q], st.assoc[p]
    if st.acard[p, 0] >= 0:
        st.acard[[p, q]] = st.acard[[q, p]]
        st.k_acard[p, p] = st.acard[p]
        st.k_acard[q, q] = st.acard[q]
    for s in (p, q):
        st.k_assoc[s, s] = st.assoc[s]
        st.rec[REC.TEAM0 + s] = st.assoc[s]
    return np.arange(N_CARDS)


def hidden_cards(st, x):
    """The cards in other seats' hands and in the deck below its two top cards, unseen by x."""
    n, dn = int(st.sc[SC.N]), int(st.sc[SC.DECK_N])
    deep = set(st.deck[:max(0, dn - 2)].tolist())
    return [c for c in range(N_CARDS) if st.k_card[x, c] < 0 and (c in deep or 0 <= st.loc[c] < n)]


def change_cards(st, x, rng, t):
    """Exchange a card in another seat's hand with one in a third seat's hand or deep in the
    deck, both unseen by x: the first card that one other seat offers another in the trace
    (traded cards make the context of decisions) if there is one, for a card of another kind
    with or without a trade effect alike (R9: an effect is announced in public)."""
    hid = hidden_cards(st, x)
    pairs = [(a, b) for a in hid for b in hid if a != b and st.loc[a] != st.loc[b] and st.loc[a] != LOC_DECK]
    offered = [v % 32 for s, k, v in t.rows if k == DEC.ACTION and v // ACT_MUL == ACT_TRADE and s != x
               and (v % ACT_MUL) // 32 != x]
    for c in offered[:1]:
        pairs = [(a, b) for a, b in pairs if a == c and has_effect_nb(a, 0) == has_effect_nb(b, 0)] or pairs
    pairs = [(a, b) for a, b in pairs if CARD_KIND_LIST[a] != CARD_KIND_LIST[b]] or pairs
    if not pairs:
        raise NoChange()
    a, b = pairs[rng.integers(len(pairs))]
    perm = np.arange(N_CARDS)
    perm[a], perm[b] = b, a
    relabel(st, perm)
    return perm


def change_deck(st, x, rng, t):
    """Put the item deck but its two top cards (drawn first, maybe by x) in another order."""
    dn = int(st.sc[SC.DECK_N]) - 2
    deck = st.deck[:dn].copy()
    if dn < 2 or any(st.k_card[x, c] >= 0 for c in deck):
        raise NoChange()
    new = deck.copy()
    while np.array_equal(new, deck):
        rng.shuffle(new)
    perm = np.arange(N_CARDS)
    perm[deck] = new
    relabel(st, perm)
    return perm


CHANGE_FNS = {"teams": change_teams, "cards": change_cards, "deck": change_deck}


def relabel(st, perm):
    """The deal with card perm[c] wherever card c was (hands, deck, what each seat has seen)."""
    loc, kc, conf = st.loc.copy(), st.k_card.copy(), st.mem.bel_conf.copy()
    for c in range(N_CARDS):
        st.loc[perm[c]] = loc[c]
        st.k_card[:, perm[c]] = kc[:, c]
        st.mem.bel_conf[:, perm[c]] = conf[:, c]
    dn = int(st.sc[SC.DECK_N])
    st.deck[:dn] = perm[st.deck[:dn]]
    for p in range(int(st.sc[SC.N])):  # the record's starting hands (Rec), and the Loge's holder
        st.rec[REC.ITEMS0 + p] = sum(1 << c for c in range(N_CARDS) if st.loc[c] == p)
    holder = int(st.loc[C_LOGE])
    st.rec[REC.LOGE_START] = holder if holder < MAX_PLAYERS else -1
    st.rec[REC.LOGE_EVER] = 1 << holder if holder < MAX_PLAYERS else 0
