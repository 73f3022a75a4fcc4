"""What one seat may see when it decides (STYLE 5: truth apart from view).

:func:`make_view_nb` builds a :data:`View` for the deciding seat from the State: row
slices of the seat's own knowledge and beliefs, public arrays, the options and context of
the decision, and plain ints. The slices are views (no copy). The policies in
``bots/policy.py`` and ``bots/act.py`` receive only a View, never the State, so they
cannot read other seats' associations, hidden hands, the deck order, other seats'
beliefs, or the minority. ``sc`` is not in the view because it holds the minority and
the box card; the public scalars are copied out as ints.

=============  ================================================================
field          meaning
=============  ================================================================
me, team       deciding seat and its team (its own association card)
mode           bot id (dispatch.BOT_GREEDY / BOT_SMART)
n, turn        players; turns played so far
deck_n         cards left in the item deck (public)
bags_open      1 once the deck has emptied and the Bags are Key/Goblet (public)
hand_limit     R2.4
kind, n_opts   the decision (enums.Decision) and its option count
opts, ctx      st.opts[0:n_opts] and st.dctx (public context of the decision)
k_assoc        (10,) i8: team this seat has seen each seat hold, -1
k_occ          (10,) i8: occupation this seat knows each seat holds, -1
k_card         (21,) i8: where this seat last saw each card (seat, LOC_DECK) or -1;
               k_card[c] == me exactly when c is in its own hand
k_acard        (10, 3) i8: advanced 3-player (R10): team of each seat's association card
               j as this seat has seen it, -1 (its own three always known)
conf           (21,) f64: P(card still where last seen) (all 1.0 for the greedy bot)
tm             (10,) f64: P(seat is my teammate)
w, asg, na     weights over team assignments (smart bot), the assignments, their count
minor          P(my team is the minority) (odd N)
occ_up         (10,) int8: occupation face up (public), 0/1
hand_n         (10,) i8: cards in each hand (public)
drink          (10,) bool: holds a Drink of Power (public)
sup            (10,) i8: support sides declared in the current fight (public)
par            (N_BPARAM,) f64: this seat's bot parameters
mem            (N_BMEM,) i32: this seat's bot memory (plans)
score, scr     scratch (float64) for this decision only
out            (3,) i32 written by the policy: reason code, target, card/value
rs             the game's random stream
=============  ================================================================
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..enums import SC

View = namedtuple(
    "View",
    [
        "me", "team", "mode", "n", "turn", "deck_n", "bags_open", "hand_limit", "kind", "n_opts",
        "opts", "ctx", "k_assoc", "k_occ", "k_card", "k_acard", "conf", "tm", "w", "asg", "na", "minor",
        "occ_up", "hand_n", "drink", "sup", "par", "mem", "score", "scr", "out", "rs",
    ],
)


@njit(cache=True)
def make_view_nb(st, seat, kind, n_opts, mode, conf):
    """The View of ``seat`` for decision ``kind`` with options st.opts[0:n_opts].
    ``conf`` is the card-confidence row to show (the seat's own, or all ones)."""
    sc = st.sc
    return View(
        np.int64(seat),
        np.int64(st.k_assoc[seat, seat]),
        np.int64(mode),
        sc[SC.N],
        sc[SC.TURN],
        sc[SC.DECK_N],
        sc[SC.BAGS_OPEN],
        sc[SC.HAND_LIMIT],
        kind,
        n_opts,
        st.opts[:n_opts],
        st.dctx,
        st.k_assoc[seat],
        st.k_occ[seat],
        st.k_card[seat],
        st.k_acard[seat],
        conf,
        st.bel_team[seat],
        st.bel_w[seat],
        st.bel_asg,
        sc[SC.N_ASG],
        st.bel_minor[seat],
        st.occ_up,
        st.hand_n,
        st.drink,
        st.sup,
        st.bparam[seat],
        st.bmem[seat],
        st.bscore,
        st.bscr,
        st.bout,
        st.rs,
    )
