"""The bit-level shortcuts against the plain loops they replace.

- ``bots.intrinsics``: copy_nb copies exactly k elements; popcount_nb and ctz_nb agree with
  Python's integers.
- ``values.prep_nb`` (card sets as bit masks) writes the same 96 scratch numbers, to the
  bit, as the 21-card loop it replaced (kept here as the reference), on random Views at
  3-10 players.
- The engine's ``holds_kind_nb`` (a kind's one card) and ``declarable_nb`` (all legal
  declarations from one pass, R6.1, R6.5, R7, R9 Pearl, R10) agree with a loop over all
  cards and with the rules as written, on random positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kutsch_sim.bots.intrinsics import copy_nb, ctz_nb, popcount_nb
from kutsch_sim.bots.values import (
    DECK_SLOTS,
    EVM,
    EVT,
    MY_ANY,
    MY_FUT,
    MY_N,
    MY_NOW,
    MY_THEIRS,
    SLOT,
    TM,
    TR_KEEP,
    prep_nb,
    spread_nb,
    victory_weight_nb,
)
from kutsch_sim.bots.view import VIEW_DT
from kutsch_sim.cards_nb import future_team_nb, kind_nb, now_team_nb
from kutsch_sim.engine.declare import declarable_nb
from kutsch_sim.engine.items import holds_kind_nb, victory_team_nb
from kutsch_sim.engine.state import new_state
from kutsch_sim.enums import DK, IK, LOC_DECK, N_CARDS, N_KINDS, SC, VAR


@njit(cache=True)
def bits_nb(xs, out):
    for i in range(len(xs)):
        out[i, 0] = popcount_nb(xs[i])
        out[i, 1] = ctz_nb(xs[i])


@njit(cache=True)
def copy_some_nb(dst, src, k):
    copy_nb(dst, src, k)


def test_popcount_and_ctz_agree_with_python_integers():
    rng = np.random.default_rng(3)
    xs = np.concatenate([np.array([0, 1, 2, 3, 1 << 20, (1 << 21) - 1, 1 << 62], np.int64),
                         rng.integers(0, 1 << 62, 500, dtype=np.int64)])
    out = np.zeros((len(xs), 2), np.int64)
    bits_nb(xs, out)
    for x, (pc, tz) in zip(xs.tolist(), out.tolist(), strict=True):
        assert pc == bin(x).count("1")
        assert tz == (64 if x == 0 else (x & -x).bit_length() - 1)


def test_copy_nb_copies_exactly_k_elements():
    src = np.arange(1.0, 22.0)
    for k in (0, 1, 10, 21):
        dst = np.full(21, -1.0)
        copy_some_nb(dst, src, k)
        assert (dst[:k] == src[:k]).all()
        assert (dst[k:] == -1.0).all()
    a = np.arange(10, dtype=np.int8)
    b = np.zeros(10, np.int8)
    copy_some_nb(b, a, 7)
    assert b.tolist() == [0, 1, 2, 3, 4, 5, 6, 0, 0, 0]


@njit(cache=True)
def prep_reference_nb(v):
    """values.prep_nb as a plain loop: one loop over the 21 cards (its last step,
    the spread of what is not placed, is shared: values.spread_nb); and a card
    seen in the deck fills conf[c] of a deck slot and the rest of it is not placed."""
    me, team, n, deck_n, bags_open = v.me, v.team, v.n, v.deck_n, v.bags_open
    k_card, conf, hand_n, tm_src, scr = v.k_card, v.conf, v.hand_n, v.tm, v.scr
    for i in range(TR_KEEP):
        scr[i] = 0.0
    for p in range(n):
        scr[TM + p] = tm_src[p]
        scr[SLOT + p] = hand_n[p]
    scr[TM + me] = 1.0
    my_n = my_fut = my_now = my_theirs = my_any = 0.0
    deck_slots = float(deck_n)
    for c in range(N_CARDS):
        h = k_card[c]
        if h == me:
            my_n += 1.0
            f = future_team_nb(c)
            if f >= 0:
                w = victory_weight_nb(c, bags_open)
                if f == team:
                    my_fut += 1.0
                    if now_team_nb(c, bags_open) == team:
                        my_now += 1.0
                else:
                    my_theirs += w
                if now_team_nb(c, bags_open) >= 0:
                    my_any += 1.0
            scr[SLOT + me] -= 1.0
        elif h >= 0 and h < n:
            scr[SLOT + h] -= conf[c]
        elif h == LOC_DECK:
            deck_slots -= conf[c]
    scr[MY_N] = my_n
    scr[MY_FUT] = my_fut
    scr[MY_NOW] = my_now
    scr[MY_THEIRS] = my_theirs
    scr[MY_ANY] = my_any
    scr[DECK_SLOTS] = deck_slots
    total = scr[DECK_SLOTS] if scr[DECK_SLOTS] > 0 else 0.0
    for p in range(n):
        scr[SLOT + p] = max(scr[SLOT + p], 0.0)
        total += scr[SLOT + p]
    spread_m = 0.0
    spread_t = 0.0
    for c in range(8):
        h = k_card[c]
        if h == me or (c < 6 and c % 3 >= v.victory_cards):  # mine, or out of the game (victory-cards)
            continue
        w = victory_weight_nb(c, bags_open)
        ours = future_team_nb(c) == team
        rest = 1.0
        if h >= 0 and h < n:
            q = conf[c]
            rest = 1.0 - q
            scr[(EVM if ours else EVT) + h] += q * w
        elif h == LOC_DECK:
            rest = 1.0 - conf[c]
        if ours:
            spread_m += rest * w
        else:
            spread_t += rest * w
    spread_nb(v, spread_m, spread_t, deck_slots, total)


@njit(cache=True)
def prep_both_nb(views, out):
    """Scratch of prep_nb and of the reference for each View (two copies of each)."""
    for i in range(len(views) // 2):
        prep_nb(views[2 * i])
        prep_reference_nb(views[2 * i + 1])
        for j in range(TR_KEEP):
            out[i, 0, j] = views[2 * i].scr[j]
            out[i, 1, j] = views[2 * i + 1].scr[j]


def test_prep_is_the_card_loop_to_the_bit():
    rng = np.random.default_rng(11)
    k = 3000
    views = np.zeros(2 * k, VIEW_DT)
    for i in range(k):
        n = int(rng.integers(3, 11))
        v = views[2 * i]
        v["n"] = n
        v["me"] = rng.integers(0, n)
        v["team"] = rng.integers(0, 2)
        v["bags_open"] = rng.integers(0, 2)
        v["deck_n"] = rng.integers(0, 12)
        places = np.array(list(range(n)) + [-1, LOC_DECK] * (1 + i % 3))
        v["k_card"] = rng.choice(places, N_CARDS)
        conf = rng.random(N_CARDS)
        conf[rng.random(N_CARDS) < 0.5] = 1.0
        v["conf"] = conf
        v["tm"] = rng.random(10)
        v["hand_n"] = rng.integers(0, 5, 10)
        v["victory_cards"] = 2 if i % 4 == 0 else 3  # R9, or the victory-cards house rule
        v["scr"] = rng.normal(size=v["scr"].shape)  # stale scratch: both must overwrite it
        views[2 * i + 1] = v
    out = np.zeros((k, 2, TR_KEEP))
    prep_both_nb(views, out)
    assert np.array_equal(out[:, 0], out[:, 1])
    assert (out[:, 0, MY_N] > 0).any() and (out[:, 0, EVM:EVM + 10] > 0).any()  # the samples reach both parts


def _holds_kind_loop(st, p, k):
    for c in range(N_CARDS):
        if st.loc[c] == p and kind_nb(c) == k:
            return c
    return -1


def _declarable_rules(st, p):
    """The legal declarations by the rules' words (R6.1, R6.5, R7, R9 Pearl, R10)."""
    hand = [c for c in range(N_CARDS) if st.loc[c] == p]
    if any(kind_nb(c) == IK.PEARL for c in hand):
        return 0
    own = sum(1 for c in hand if victory_team_nb(st, c) == st.assoc[p])
    both = sum(1 for c in hand if victory_team_nb(st, c) >= 0)
    m = 0
    if st.sc[SC.VARIANTS] & VAR.FORTUNE:
        m |= 1 << DK.FORTUNE
    if any(kind_nb(c) == IK.LOGE for c in hand) and both >= st.sc[SC.LOGE_NEED]:  # R6.5: 3, or loge-items
        m |= 1 << DK.LOGE
    if own >= 1:
        m |= 1 << DK.TEAM
        if st.drink[p]:
            m |= 1 << DK.DRINK
    return m


def test_holds_kind_and_declarable_agree_with_the_card_loop():
    rng = np.random.default_rng(5)
    st = new_state(log_cap=0)
    for trial in range(400):
        n = int(rng.integers(3, 11))
        st.sc[SC.N] = n
        st.sc[SC.BAGS_OPEN] = trial % 2
        st.sc[SC.VARIANTS] = VAR.FORTUNE if trial % 5 == 0 else 0
        st.sc[SC.LOGE_NEED] = 3 if trial % 3 else 4
        # few seats so that hands of 3+ victory items (Loge claims) come up
        st.loc[:] = rng.integers(0, min(n, 3), N_CARDS)
        st.assoc[:n] = rng.integers(0, 2, n)
        st.drink[:n] = rng.integers(0, 2, n)
        for p in range(n):
            for k in range(-1, N_KINDS + 1):
                assert holds_kind_nb(st, p, k) == _holds_kind_loop(st, p, k)
            assert declarable_nb(st, p) == _declarable_rules(st, p), (trial, p)
