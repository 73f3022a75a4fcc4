"""The bots' memory: one record of their own, the nested field ``st.mem`` of the game state.

The engine allocates it with the state and never reads or writes a field of it: it starts
the seats (``bots.dispatch.start_bots_nb``), tells them events (``bots.observer.observe_nb``)
and asks them for decisions (``bots.dispatch.bot_choose_nb``), all through its one door,
``engine/seats.py``. Copying a state copies the memory with it, so a position played forward
from a copy (``kutsch_sim.play``) is the same game for every seat's bot.

=========  ===============  ==========================================================
field      shape, dtype     meaning
=========  ===============  ==========================================================
bot        (10,) i8         bot id of each seat (``bots.params``: BOT_RANDOM ...)
bparam     (10, 16) f64     bot parameters per seat, the base row (``bots.params``: P_*)
brow       (10, 3, 16) f64  each seat's role rows (``bots.params``: ROLE_MINORITY - 1 ...)
brole      (10,) i8         bit r set: seat's role row r differs from its base row (view.role_nb)
bel_asg    (256,) i32       team assignments possible at this N (bit p = Order)
bel_pair   (10, 10) f64     public soft evidence per pair of seats (before saturation)
bel_psat   (10, 10) f64     the same after saturation (``evidence.pair_nb``); both model 0 (``bots.evidence``)
bel_pair1  (10, 10) f64     model 1 (fitted): public soft evidence per pair (before saturation)
bel_psat1  (10, 10) f64     ... after saturation
bel_inf1   (10, 10) f64     model 1: the public evidence of acts that knew the other's team (raw sum)
bel_graw1  (10, 10) f64     model 1: bel_graw1[s, g], the raw sum of s's private evidence from giver g
bel_own1   (10, 10) f64     bel_own1[s, q]: s's own part of the pair (s, q)'s model-1 total
bel_corr1  (10, 10) f64     bel_corr1[s, q]: what taking its own part out changes in s's saturated
                            total of the pair (s, q), in s's private factors (model-1 seats)
bel_model  (10,) i8         each seat's evidence model (params.P_EVIDENCE)
bel_models i64              bit m set: a seat of model m is in the game
bel_gpair  (10, 10) f64     bel_gpair[s, g]: private soft evidence s has from giver g
bel_epub   (11, 256) f64    per assignment, exp(trust * public soft evidence), one row per
                            trust in play (row 10: all ones; ``beliefs.trust_slots_nb``)
bel_epriv  (10, 256) f64    per assignment, exp(seat's private soft evidence)
bel_bins   (16,) f64        scratch of a refresh (``beliefs.refresh_cards_nb``)
bel_idx    (10, 252) i16    each seat's list of the assignments its hard evidence allows
bel_key    (10, 2) i64      what that list was made for, and its length
bel_tval   (10,) f64        the distinct nonzero soft_trust values, bel_nts of them
bel_tslot  (10,) i8         each seat's row of bel_epub
bel_tmodel (10,) i8         the evidence model of each row of bel_epub
bel_nts    i64              rows of bel_epub in use
bel_w      (10, 256) f64    each seat's posterior weight per assignment
bel_team   (10, 10) f64     bel_team[s, p] = P(p is on s's team) as s believes
bel_minor  (10,) f64        P(s's team is the minority) as s believes (odd N)
bel_fresh  (10,) i8         s's beliefs are up to date with the evidence
bel_told   (10,) i8         what s was told at set-up (``beliefs.tell_size_nb``): 1 its team is
                            the smaller, 0 the larger, -1 nothing
bel_conf   (10, 21) f64     P(card c is still where s last saw it, ``st.k_card[s, c]``)
bel_one    (1, 21) f64      all 1.0 (the greedy bot takes last-seen as certain)
bel_ctx    (8,) i32         the observer's memory of the event under way (``observer.X_*``)
bmem       (10, 16) i32     each seat's plans (declaration names, Diplomat, ...: ``params.M_*``)
vw         VIEW_DT record   the deciding seat's View (``bots.view``), filled per decision
=========  ===============  ==========================================================

What a seat has *seen* (``st.k_assoc``, ``st.k_occ``, ``st.k_card``, ``st.k_acard``) is a fact
of the game, kept by the rules (R6, R9 looks and trades), not memory of a bot's.
"""

from __future__ import annotations

import numpy as np

from ..enums import MAX_PLAYERS, N_CARDS
from .beliefs import A_MAX, A_PAD, N_BINS, N_CTX
from .params import N_BMEM, N_BPARAM, N_ROLES
from .view import VIEW_DT


def _memory_dtype() -> np.dtype:
    i8, i32, i64, f64 = np.int8, np.int32, np.int64, np.float64
    P, C = MAX_PLAYERS, N_CARDS
    fields = [
        ("bot", i8, (P,)), ("bparam", f64, (P, N_BPARAM)), ("brow", f64, (P, N_ROLES - 1, N_BPARAM)),
        ("brole", i8, (P,)),
        ("bel_asg", i32, (A_PAD,)), ("bel_pair", f64, (P, P)), ("bel_psat", f64, (P, P)), ("bel_gpair", f64, (P, P)),
        ("bel_pair1", f64, (P, P)), ("bel_psat1", f64, (P, P)), ("bel_inf1", f64, (P, P)), ("bel_graw1", f64, (P, P)), ("bel_own1", f64, (P, P)), ("bel_corr1", f64, (P, P)),
        ("bel_model", i8, (P,)), ("bel_models", i64), ("bel_tmodel", i8, (P,)),
        ("bel_epub", f64, (P + 1, A_PAD)), ("bel_epriv", f64, (P, A_PAD)), ("bel_bins", f64, (N_BINS,)),
        ("bel_idx", np.int16, (P, A_MAX)), ("bel_key", i64, (P, 2)),
        ("bel_tval", f64, (P,)), ("bel_tslot", i8, (P,)), ("bel_nts", i64), ("bel_w", f64, (P, A_PAD)),
        ("bel_team", f64, (P, P)), ("bel_minor", f64, (P,)), ("bel_fresh", i8, (P,)), ("bel_told", i8, (P,)), ("bel_conf", f64, (P, C)),
        ("bel_one", f64, (1, C)), ("bel_ctx", i32, (N_CTX,)), ("bmem", i32, (P, N_BMEM)), ("vw", VIEW_DT),
    ]
    return np.dtype(fields, align=True)


MEMORY_DT = _memory_dtype()
