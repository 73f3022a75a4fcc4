"""Truth apart from view (STYLE 5, issue 3 item 1), and mirror symmetry of the bots.

1. Changing what a seat cannot know (other seats' hidden associations and occupations,
   hidden hands, the deck order, other seats' knowledge and beliefs, the minority) never
   changes its decision, its reason, or the random stream it leaves behind.
2. The observer gives private event fields only to the seats that see them.
3. Swapping the teams (Order <-> Brotherhood, Keys <-> Goblets, Bag(Key) <-> Bag(Goblet))
   leaves every action score unchanged: no tie is broken by card or seat index.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.act import REASON_AT
from kutsch_sim.bots.beliefs import A_MAX, SMALL_N
from kutsch_sim.bots.dispatch import bot_choose_nb, read_seats_nb, refresh_seat_nb, seat_beliefs_nb
from kutsch_sim.bots.observer import observe_nb
from kutsch_sim.bots.params import P_NOISE
from kutsch_sim.engine.game import action_options_nb, play_turn_nb
from kutsch_sim.engine.state import as_record, copy_state, new_state_nb
from kutsch_sim.enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
    DCTX_U,
    DCTX_X,
    DEC,
    EV,
    LOC_DECK,
    MAX_PLAYERS,
    N_CARDS,
    OFFER_CARD,
    OFFER_DIPLOMAT,
    OFFER_FREE,
    SC,
)
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import play_turns
from kutsch_sim.notation.script import compile_script_lines
from kutsch_sim.play import init_game_nb


@njit(cache=True)
def prefix_nb(n, in_game, stamped, bots, bparams, seed, config_id, game, turns):
    """A game played for ``turns`` turns (or to its end): the position a bot decides in."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = buf[0]
    init_game_nb(st, n, in_game, stamped, bots, bparams, seed, config_id, game, 400, True, 0)
    t = 0
    while st.sc[SC.OVER] == 0 and t < turns:
        play_turn_nb(st)
        st.sc[SC.TURN] += 1
        if st.sc[SC.OVER] == 0:
            st.sc[SC.ACTIVE] = (st.sc[SC.ACTIVE] + 1) % n
        t += 1
    return buf


@njit(cache=True)
def action_nb(st, seat):
    k = action_options_nb(st, seat)
    st.dctx[0] = seat
    return bot_choose_nb(st, seat, DEC.ACTION, k)


@njit(cache=True)
def choose_nb(st, seat, kind, k):
    return bot_choose_nb(st, seat, kind, k)


def position(n, bots, game, turns, item_set="full"):
    cfg = GameConfig(n, item_set=item_set, bots=bots)
    nn, in_game, stamped, b, par = cfg.arrays()
    return as_record(prefix_nb(nn, in_game, stamped, b, par, np.uint64(7), cfg.config_id, game, turns))


def hide_from(st, seat, rng) -> object:
    """A copy of st changed in everything ``seat`` cannot know."""
    st2 = copy_state(st)
    n = int(st2.sc[SC.N])
    others = [p for p in range(n) if p != seat]
    # other seats' associations and occupations, where the seat has not seen them
    for p in others:
        if st2.k_assoc[seat, p] < 0:
            st2.assoc[p] = rng.integers(0, 2)
        if st2.k_occ[seat, p] < 0:
            st2.occ[p] = rng.integers(0, 10)
    st2.sc[SC.MINORITY] = rng.integers(-1, 2)
    st2.sc[SC.LEFTOVER] = rng.integers(-1, 2)
    # hidden hands and the deck: permute the places of every card not in the seat's hand
    hidden = [c for c in range(N_CARDS) if st2.loc[c] != seat]
    places = st2.loc[hidden].copy()
    rng.shuffle(places)
    st2.loc[hidden] = places
    dn = int(st2.sc[SC.DECK_N])
    deck_cards = [c for c in hidden if st2.loc[c] == LOC_DECK]
    st2.deck[:dn] = rng.permutation(deck_cards)[:dn] if len(deck_cards) == dn else st2.deck[:dn]
    # other seats' knowledge, beliefs and plans
    for arr in (st2.k_assoc, st2.k_occ, st2.k_card):
        for p in others:
            arr[p, :] = rng.integers(-1, 2, size=arr.shape[1])
    for arr in (st2.mem.bel_gpair, st2.mem.bel_epriv, st2.mem.bel_w, st2.mem.bel_team, st2.mem.bel_conf):
        for p in others:
            arr[p, :] = rng.random(arr.shape[1])
    for p in others:
        st2.mem.bel_idx[p, :] = rng.integers(0, 512, size=st2.mem.bel_idx.shape[1])
        st2.mem.bel_key[p, :] = rng.integers(-1, 300, size=2)
        st2.mem.bmem[p, :] = rng.integers(-1, 5, size=st2.mem.bmem.shape[1])
        st2.mem.bel_minor[p] = rng.random()
    # the View record still holds the last decision's copy (often another seat's): scramble it
    vw = st2.mem.vw
    for name in vw.dtype.names:
        if name == "asg":  # the team assignments: public, the same for every seat, set once per game
            continue
        field = vw[name]
        if isinstance(field, np.ndarray):
            field[...] = rng.integers(-1, 3, size=field.shape).astype(field.dtype)
        else:
            vw[name] = rng.integers(-1, 3)
    return st2


def same_decision(st, st2, call):
    a = call(st)
    b = call(st2)
    assert a == b
    assert np.array_equal(st.rs, st2.rs)
    assert np.array_equal(st.mem.vw.out, st2.mem.vw.out)


@settings(max_examples=40, deadline=None)
@given(n=hs.integers(3, 10), game=hs.integers(0, 1000), turns=hs.integers(0, 40),
       mix=hs.integers(0, 2), salt=hs.integers(0, 2**31))
def test_decisions_ignore_what_the_seat_cannot_know(n, game, turns, mix, salt):
    bots = tuple(("smart", "greedy", "smart")[(p + mix) % 3] for p in range(n))
    st = position(n, bots, game, turns)
    if st.sc[SC.OVER]:
        return
    rng = np.random.default_rng(salt)
    seat = int(st.sc[SC.ACTIVE])
    same_decision(st, hide_from(st, seat, rng), lambda s: action_nb(s, seat))
    # a few other decision kinds in the same position, for a random seat
    seat = int(rng.integers(0, n))
    other = (seat + 1 + int(rng.integers(0, n - 1))) % n
    third = [p for p in range(n) if p not in (seat, other)]
    mine = [c for c in range(N_CARDS) if st.loc[c] == seat]
    cases = []
    if third:  # support in a fight between two others
        cases.append((DEC.SUPPORT, [0, 1, 2], (third[0], other, -1)))
    theirs = [c for c in range(N_CARDS) if st.loc[c] == other]
    if theirs:  # accept an offer from `other`
        cases.append((DEC.ACCEPT, [0, 1], (other, seat, theirs[0])))
    cases.append((DEC.RETURN, mine, (other, seat, -1)))
    cases.append((DEC.LIMIT_GIVE, [t * 32 + c for t in range(n) if t != seat for c in mine], (seat, 1, -1)))
    cases.append((DEC.WIN_CHOICE, [0, 1], (seat, other, -1)))
    # a light decision (bots.view.fill_light_nb): the rest of the scrambled View must go unread
    cases.append((DEC.FIGHT_PLAY, [0, 1], (seat, other, -1)))
    for kind, opts, (a, b, c) in cases:
        if len(opts) < 2:
            continue
        rng2 = np.random.default_rng(salt + kind)
        st2 = hide_from(st, seat, rng2)
        for s in (st, st2):
            s.opts[: len(opts)] = opts
            s.dctx[DCTX_A] = a
            s.dctx[DCTX_B] = b
            s.dctx[DCTX_CARD] = c
        same_decision(st, st2, lambda s, k=kind, m=len(opts): choose_nb(s, seat, k, m))


def test_observer_keeps_private_fields_private():
    """An accepted trade's cards reach the two traders' beliefs only."""
    st = position(6, ("smart",) * 6, 3, 6)
    results = []
    for x, y in ((13, 8), (0, 3)):
        s = copy_state(st)
        assert s.sc[SC.BAGS_OPEN] == 0
        observe_nb(s, EV.ACCEPT, 1, 2, x, y)
        results.append(s)
    a, b = results
    for p in (0, 3, 4, 5):
        assert np.array_equal(a.mem.bel_gpair[p], b.mem.bel_gpair[p])
        assert np.array_equal(a.mem.bel_epriv[p], b.mem.bel_epriv[p])
        # what others believe about cards depends on where they placed them, not on x and y
        assert np.array_equal(a.mem.bel_conf[p], b.mem.bel_conf[p])
    assert np.array_equal(a.mem.bel_psat, b.mem.bel_psat)
    assert np.array_equal(a.mem.bel_epub, b.mem.bel_epub)


def test_observer_public_evidence_ignores_what_only_the_traders_know():
    """R4's ruling (information): which Secret Bag was traded stays hidden (it is announced as
    "Secret Bag"), and so does whether an offer could not be refused because of its card
    (Black Pearl R4.6, Broken Mirror R4.5: offered face down); the Diplomat's demand (R8) is
    public. The seats' beliefs must not depend on the first two. (Session 10's audit: the
    observer reset every seat's confidence in the very Bag announced, and weighed no offer
    of a Pearl or a Mirror as evidence, so every seat could tell them apart.)"""
    st = position(6, ("smart",) * 6, 3, 6)
    st.mem.bel_conf[:, 6:8] = 0.5  # (card 6 is the Bag (Key), 7 the Bag (Goblet))
    runs = []
    for bag in (6, 7):
        s = copy_state(st)
        observe_nb(s, EV.ANNOUNCE, 2, bag, 0, 0)
        runs.append(s)
    for s in runs:
        assert np.array_equal(s.mem.bel_conf, st.mem.bel_conf)
    runs = []
    for card, how in ((8, OFFER_FREE), (18, OFFER_CARD), (19, OFFER_CARD)):  # Dagger, Pearl, Mirror
        s = copy_state(st)
        observe_nb(s, EV.OFFER, 1, 2, card, how)
        observe_nb(s, EV.ACCEPT, 1, 2, card, 9)
        runs.append(s)
    a = runs[0]
    assert not np.array_equal(a.mem.bel_psat, st.mem.bel_psat)  # an offer and its acceptance are evidence
    for b in runs[1:]:
        assert np.array_equal(a.mem.bel_pair, b.mem.bel_pair) and np.array_equal(a.mem.bel_psat, b.mem.bel_psat)
        assert np.array_equal(a.mem.bel_epub, b.mem.bel_epub)
        for p in (0, 3, 4, 5):
            assert np.array_equal(a.mem.bel_epriv[p], b.mem.bel_epriv[p])
    s = copy_state(st)  # the Diplomat's demand: nobody chose to offer or to accept it
    observe_nb(s, EV.OFFER, 1, 2, 8, OFFER_DIPLOMAT)
    observe_nb(s, EV.ACCEPT, 1, 2, 8, 9)
    assert np.array_equal(s.mem.bel_pair, st.mem.bel_pair) and np.array_equal(s.mem.bel_epub, st.mem.bel_epub)


ANNOUNCED = """
seat 0: Order Thug | Key, Dagger, Monocle
seat 1: Brotherhood Bodyguard | Goblet, Whip
seat 2: Order Hypnotist | Key, Gloves
seat 3: Brotherhood GrandMaster | Goblet, Knives
deck: Tome
"""


def _observed(text: str, script: list[str]) -> object:
    """Play one scripted turn from a position with the bots' observer on; seat 2 has seen
    seat 0's hand (Key#1, Dagger, Monocle: cards 0, 8, 13)."""
    pos = Position.parse(text)
    rows, _ = compile_script_lines(script, pos)
    st = pos.to_state(rows, bots="first", log_cap=4096)  # (the observer runs: a log is kept)
    st.k_card[2, [0, 8, 13]] = 0
    play_turns(st, 1)
    return st


def test_observer_an_announced_card_leaves_the_givers_other_cards_in_place():
    """R4's ruling (information): a completed trade's announced item is public, so the
    others know which of the giver's cards left; what they had seen at the giver stays
    there. (Session 10's audit: the acceptance had already lowered it, and nothing raised it
    again.) After a silent trade any of the giver's three cards may have gone."""
    st = _observed(ANNOUNCED, ["0 trade 1 Monocle", "1 accept", "1 return Whip"])
    assert st.mem.bel_conf[2, 0] == 1.0 and st.mem.bel_conf[2, 8] == 1.0 and st.k_card[2, 13] == 1
    st = _observed(ANNOUNCED, ["0 trade 1 Dagger", "1 accept", "1 return Whip"])
    assert st.mem.bel_conf[2, 0] == pytest.approx(2 / 3) and st.mem.bel_conf[2, 13] == pytest.approx(2 / 3)


# ------------------------------------------------------------------ mirror symmetry
SIGMA = np.arange(N_CARDS)
SIGMA[[0, 1, 2, 3, 4, 5, 6, 7]] = [3, 4, 5, 0, 1, 2, 7, 6]


def mirror(st) -> object:
    """The same position with the teams' names swapped (Order <-> Brotherhood) and their
    victory items with them."""
    m = copy_state(st)
    n = int(st.sc[SC.N])
    m.assoc[:n] = 1 - st.assoc[:n]
    m.k_assoc[:] = np.where(st.k_assoc >= 0, 1 - st.k_assoc, -1)
    m.loc[SIGMA] = st.loc
    m.k_card[:, SIGMA] = st.k_card
    m.mem.bel_conf[:, SIGMA] = st.mem.bel_conf
    dn = int(st.sc[SC.DECK_N])
    m.deck[:dn] = SIGMA[st.deck[:dn]]
    if st.sc[SC.MINORITY] >= 0:
        m.sc[SC.MINORITY] = 1 - st.sc[SC.MINORITY]
        m.sc[SC.LEFTOVER] = 1 - st.sc[SC.LEFTOVER]
    na = int(st.sc[SC.N_ASG])
    full = (1 << n) - 1
    index = {int(a): i for i, a in enumerate(st.mem.bel_asg[:na])}
    perm = np.array([index[(~int(a)) & full] for a in st.mem.bel_asg[:na]])
    if n <= SMALL_N:  # above, the factors are kept per split of the table, the same split
        m.mem.bel_epub[:, perm] = st.mem.bel_epub[:, :na]  # with the names swapped (beliefs.make_assignments_nb)
        m.mem.bel_epriv[:, perm] = st.mem.bel_epriv[:, :na]
    for p in range(MAX_PLAYERS):
        top = st.mem.bmem[p, 4]
        if top >= 0:
            m.mem.bmem[p, 4] = SIGMA[top]
    m.mem.bel_fresh[:] = False
    m.mem.bel_key[:, 0] = -1  # the lists of allowed assignments hold indices: made again
    return m


def mirror_option(o):
    act, rest = divmod(int(o), 1024)
    t, c = divmod(rest, 32)
    if act == 1:
        c = int(SIGMA[c])
    return act * 1024 + t * 32 + c


@njit(cache=True)
def action_scores_nb(st, seat):
    k = action_options_nb(st, seat)
    st.dctx[0] = seat
    bot_choose_nb(st, seat, DEC.ACTION, k)
    return st.opts[:k].copy(), st.mem.vw.score[:k].copy(), st.mem.vw.score[REASON_AT:REASON_AT + k].copy()


@pytest.mark.parametrize("n", [4, 5, 6, 9, 10])
def test_action_scores_are_mirror_symmetric(n):
    for game in range(12):
        bots = tuple(("smart", "greedy")[p % 2] for p in range(n)) if n % 2 == 0 else ("smart",) * n
        st = position(n, bots, game, 3 * game % 37)
        if st.sc[SC.OVER]:
            continue
        st.mem.bparam[:, P_NOISE] = 0.0
        st.mem.bel_fresh[:] = False
        seat = int(st.sc[SC.ACTIVE])
        m = mirror(st)
        o1, s1, r1 = action_scores_nb(copy_state(st), seat)
        o2, s2, r2 = action_scores_nb(m, seat)
        got = {int(o): (s, r) for o, s, r in zip(o2, s2, r2, strict=True)}
        for o, s, r in zip(o1, s1, r1, strict=True):
            s_m, r_m = got[mirror_option(o)]
            assert s_m == pytest.approx(s, abs=1e-9)
            assert r_m == r


# ------------------------------------------------------------------ soft evidence as factors
def log_weights(st, p, na):
    """Seat p's soft evidence as log-weights per assignment, from the pairwise sums: public
    (bel_psat, before its trust) and private (bel_gpair)."""
    n = int(st.sc[SC.N])
    pub, priv = np.zeros(A_MAX), np.zeros(A_MAX)
    for i in range(na):
        a = int(st.mem.bel_asg[i])
        together = [((a >> x) ^ (a >> y)) & 1 == 0 for x in range(n) for y in range(n)]
        pub[i] = sum(st.mem.bel_psat[x, y] for x in range(n) for y in range(x + 1, n) if together[x * n + y])
        priv[i] = sum(st.mem.bel_gpair[p, g] for g in range(n) if g != p and together[p * n + g])
    return pub, priv


@pytest.mark.parametrize("n", [5, 6, 9, 10])
def test_soft_evidence_factors_match_the_log_weights(n):
    """The observer keeps the soft evidence per pair of seats (bel_psat, bel_gpair) and, for
    the refresh, as factors per assignment (bel_epub per trust in play, bel_epriv), updated
    by multiplication at each event. After real games with four different trusts at one
    table, the factors are the exponentials of the pairwise sums, and every seat's posterior
    equals the one computed from the log-weights (beliefs.refresh_nb)."""
    from kutsch_sim.bots.beliefs import refresh_nb
    from kutsch_sim.bots.dispatch import refresh_seat_nb
    from kutsch_sim.bots.params import P_SOFT_TRUST

    cfg = GameConfig(n, "full", ("smart",) * n)
    nn, in_game, stamped, bots, params = cfg.arrays()
    # trusts 0.5 (the profile's), 0.25 (two seats), 1.0 and 0 at one table
    params[1, P_SOFT_TRUST] = 0.25
    params[2, P_SOFT_TRUST] = 1.0
    params[3, P_SOFT_TRUST] = 0.0
    params[4, P_SOFT_TRUST] = 0.25
    priv_seen = False
    for game in range(4):
        st = as_record(prefix_nb(nn, in_game, stamped, bots, params, np.uint64(3), cfg.config_id, game, 8 * n))
        na = int(st.sc[SC.N_ASG])
        trusts = sorted({float(params[p, P_SOFT_TRUST]) for p in range(n)} - {0.0})
        assert int(st.mem.bel_nts) == len(trusts)
        for p in range(n):
            t = float(params[p, P_SOFT_TRUST])
            pub, priv = log_weights(st, p, na)
            row = st.mem.bel_epub[int(st.mem.bel_tslot[p])]
            nk = na if n <= SMALL_N else na // 2  # kept: above SMALL_N the first half (beliefs.kept_nb)
            np.testing.assert_allclose(row[:nk], np.exp(t * pub[:nk]), rtol=1e-11)
            np.testing.assert_allclose(st.mem.bel_epriv[p, :nk], np.exp(priv[:nk]), rtol=1e-11)
            refresh_seat_nb(st, p)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, p, na, st.mem.bel_asg, pub, priv, st.k_assoc[p], t, w, team, minor)
            np.testing.assert_allclose(st.mem.bel_team[p, :n], team[:n], rtol=1e-11, atol=1e-14)
            assert st.mem.bel_team[p, :n].min() >= 0.0 and st.mem.bel_team[p, :n].max() <= 1.0
            np.testing.assert_allclose(st.mem.bel_w[p, :na], w[:na], rtol=1e-11, atol=1e-14)
            assert st.mem.bel_minor[p] == pytest.approx(minor[p], rel=1e-11, abs=1e-14)
            priv_seen |= bool(np.abs(priv[:na]).max() > 0.1)
        assert np.abs(st.mem.bel_psat).max() > 0.1  # evidence was seen (the test tests something)
    assert priv_seen


def random_knowledge(rng, n):
    """A seat and its knowledge of associations: its own and up to n // 2 - 1 others."""
    kas = np.full(10, -1, np.int8)
    me = int(rng.integers(n))
    kas[me] = int(rng.integers(2))
    for q in rng.choice(n, size=int(rng.integers(0, n // 2)), replace=False):
        if q != me:
            kas[q] = int(rng.integers(2))
    return me, kas


def test_supporter_beliefs_match_a_full_refresh():
    """A supporter's P(teammate) of the two fighters (pair_beliefs_nb) equals the full
    refresh's to the bit, at every player count (R5.3). Up to 7 players it sums over the
    seat's list of allowed assignments: with no list, or the list out of date (a new
    association seen), it declines and writes nothing. From 8 it tests the hard evidence
    itself, eight assignments at a time, and needs no list."""
    from kutsch_sim.bots.beliefs import A_PAD, N_BINS, make_assignments_nb, pair_beliefs_nb, refresh_cards_nb

    rng = np.random.default_rng(8)
    kac = np.full((1, 3), -1, np.int8)
    checked = 0
    for n in range(3, 11):
        asg = np.zeros(A_PAD, np.int32)
        na = make_assignments_nb(n, asg)
        for _ in range(8):
            me, kas = random_knowledge(rng, n)
            epub, epriv = np.exp(0.5 * rng.normal(size=A_PAD)), np.exp(rng.normal(size=A_PAD))
            idx, key = np.zeros(A_MAX, np.int16), np.full(2, -1, np.int64)
            w, team, minor, bins = np.zeros(A_PAD), np.zeros(10), np.zeros(10), np.zeros(N_BINS)
            x, y = (int(s) for s in rng.choice([p for p in range(n) if p != me], size=2, replace=False))
            partial = np.full(10, -7.0)
            out = np.zeros(3)
            if n <= SMALL_N:
                assert not pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)  # no list
                assert (partial == -7.0).all()
            for _seen in range(2):
                refresh_cards_nb(n, me, na, asg, epub, epriv, kas, w, team, minor, kac, False, True, bins, idx, key)
                if w[:na].sum() == 0:  # the random knowledge fits no assignment
                    break
                partial[:] = -7.0
                assert pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)
                assert partial[x] == team[x] and partial[y] == team[y]
                assert 0.0 <= partial[x] <= 1.0 and 0.0 <= partial[y] <= 1.0
                others = [p for p in range(10) if p not in (x, y)]
                assert (partial[others] == -7.0).all()
                checked += 1
                unknown = [p for p in range(n) if kas[p] < 0]
                if not unknown:
                    break
                kas[unknown[0]] = 0  # the seat sees one more association
                if n <= SMALL_N:  # its list is out of date
                    assert not pair_beliefs_nb(n, me, na, asg, epub, epriv, kas, partial, idx, key, x, y, out)
    assert checked >= 70


def test_vector_pair_sums_follow_the_written_order():
    """intrinsics.pair_sums_nb: lane j sums the allowed assignments i = j mod 8 in turn,
    the lanes are added pairwise -- the same bits as that order written out in Python, so
    the sums cannot depend on the machine's vector width; my teammates in each assignment
    are the seats on my side of it; entries past ``nc`` (here NaN) are read but not
    counted; and an assignment the hard evidence rules out adds nothing."""
    from kutsch_sim.bots.beliefs import A_PAD, make_assignments_nb
    from kutsch_sim.bots.intrinsics import pair_sums_nb

    @njit
    def sums(epub, epriv, asg, out, nc, kmask, want, me, full, x, y):
        pair_sums_nb(epub, epriv, asg, out, nc, kmask, want, me, full, x, y)

    rng = np.random.default_rng(13)
    for n in (3, 6, 9, 10):
        asg = np.zeros(A_PAD, np.int32)
        na = make_assignments_nb(n, asg)
        full = (1 << n) - 1
        for _ in range(20):
            nc = int(rng.integers(1, na + 1))
            epub, epriv = np.exp(rng.normal(size=A_PAD)), np.exp(rng.normal(size=A_PAD))
            epub[nc:] = np.nan
            me = int(rng.integers(0, n))
            kmask = int(rng.integers(0, 1 << n)) | (1 << me)
            want = (int(rng.integers(0, 1 << n)) & kmask) | (1 << me)
            x, y = (int(v) for v in rng.integers(0, n, size=2))
            out = np.zeros(3)
            sums(epub, epriv, asg, out, nc, kmask, want, me, full, x, y)
            lanes = np.zeros((3, 8))
            for i in range(nc):
                a = int(asg[i])
                s = a if (a >> me) & 1 else ~a & full
                if (s ^ want) & kmask:
                    continue
                e = epub[i] * epriv[i]
                lanes[0, i % 8] += e
                lanes[1, i % 8] += e if (s >> x) & 1 else 0.0
                lanes[2, i % 8] += e if (s >> y) & 1 else 0.0
            for k in range(3):
                v = lanes[k]
                want_k = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
                assert out[k] == want_k, (n, k)


def pairwise_evidence(rng, n, me, asg, na):
    """Log-weights per assignment made, as the observer makes them, of pairs of seats: a
    public weight for each pair together, a private one for me with each giver."""
    wpub = np.triu(rng.normal(size=(n, n)), 1)
    wpriv = rng.normal(size=n)
    pub, priv = np.zeros(A_MAX), np.zeros(A_MAX)
    for i in range(na):
        a = int(asg[i])
        for x in range(n):
            for y in range(x + 1, n):
                if ((a >> x) ^ (a >> y)) & 1 == 0:
                    pub[i] += wpub[x, y]
            if x != me and ((a >> x) ^ (a >> me)) & 1 == 0:
                priv[i] += wpriv[x]
    return pub, priv


def test_half_the_assignments_give_the_whole_posterior():
    """From 8 players the beliefs keep the splits of the table with seat 0 in the Order
    and read each as the split it stands for (beliefs.make_assignments_nb). With evidence
    about pairs of seats, as all of it is, that is the posterior over every assignment the
    seat's hard evidence allows, written out by brute force: P(teammate) of every seat and
    P(my team is the minority) at 9 (R7), for a seat of either team."""
    from kutsch_sim.bots.beliefs import make_assignments_nb, refresh_nb
    from kutsch_sim.enums import ORDER

    rng = np.random.default_rng(21)
    checked = 0
    for n in (8, 9, 10):
        asg = np.zeros(256, np.int32)
        na = make_assignments_nb(n, asg)
        h = na // 2
        full = (1 << n) - 1
        assert all(int(asg[h + i]) == ~int(asg[i]) & full for i in range(h))
        assert len(set(asg[:na].tolist())) == na
        for _ in range(12):
            me, kas = random_knowledge(rng, n)
            pub, priv = pairwise_evidence(rng, n, me, asg, na)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, me, na, asg, pub, priv, kas, 0.7, w, team, minor)
            mine = 1 if kas[me] == ORDER else 0
            tot, tp, hard, hard_min, soft_min = 0.0, np.zeros(n), 0, 0, 0.0
            for i in range(na):
                a = int(asg[i])
                if any(kas[p] >= 0 and ((a >> p) & 1) != (1 if kas[p] == ORDER else 0) for p in range(n)):
                    continue
                wt = np.exp(0.7 * pub[i] + priv[i])
                mates = [((a >> p) & 1) == mine for p in range(n)]
                small = sum(mates) == (n - 1) // 2
                tot += wt
                tp += wt * np.array(mates)
                hard += 1
                hard_min += small
                soft_min += wt * small
            if hard == 0:
                continue
            np.testing.assert_allclose(team[:n], tp / tot, rtol=1e-12, atol=1e-13)
            expect = min(hard_min / hard, soft_min / tot) if n % 2 == 1 else 0.0
            assert minor[me] == pytest.approx(expect, rel=1e-12, abs=1e-13)
            assert w[:na].sum() == pytest.approx(1.0, rel=1e-12)
            checked += 1
    assert checked >= 24


def test_team_beliefs_sum_over_assignments():
    """refresh_nb's P(teammate) is the plain sum over the assignments of the normalised
    weights, and at odd counts P(my team is the minority) the lower of its share among the
    assignments the hard evidence allows and its posterior weight (R7) -- from 8 players
    summed eight assignments at a time in vectors (random evidence, every player count)."""
    from kutsch_sim.bots.beliefs import make_assignments_nb, refresh_nb

    rng = np.random.default_rng(5)
    for n in range(3, 11):
        asg = np.zeros(A_MAX, np.int32)
        na = make_assignments_nb(n, asg)
        for _ in range(5):
            me, kas = random_knowledge(rng, n)
            pub, priv = rng.normal(size=A_MAX), rng.normal(size=A_MAX)
            w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
            refresh_nb(n, me, na, asg, pub, priv, kas, 0.7, w, team, minor)
            if w[:na].sum() == 0:  # the random knowledge fits no assignment
                continue
            full = (1 << n) - 1
            side = [int(a) if (int(a) >> me) & 1 else ~int(a) & full for a in asg[:na]]  # my side of each split
            for p in range(n):
                same = [(s >> p) & 1 == 1 for s in side]
                assert team[p] == pytest.approx(float(np.dot(w[:na], same)), abs=1e-12)
                assert 0.0 <= team[p] <= 1.0
            allowed = [all(kas[p] < 0 or ((s >> p) & 1) == (1 if kas[p] == kas[me] else 0) for p in range(n))
                       for s in side]
            if n > SMALL_N:
                allowed[na // 2:] = [False] * (na - na // 2)  # only the first half is kept
            small = [bin(s).count("1") == (n - 1) // 2 for s in side]
            assert np.all(w[:na][np.logical_not(allowed)] == 0.0)
            if n % 2 == 1:
                hard = sum(a and m for a, m in zip(allowed, small, strict=True)) / sum(allowed)
                assert minor[me] == pytest.approx(min(hard, float(np.dot(w[:na], small))), abs=1e-12)
            else:
                assert minor[me] == 0.0


@njit(cache=True)
def refresh_and_choose_nb(st, seat, kind, k):
    """The seat's full posterior brought up to date, then its decision (no partial refresh)."""
    refresh_seat_nb(st, seat)
    return bot_choose_nb(st, seat, kind, k)


@njit(cache=True)
def partial_then_full_nb(st, seat, kind):
    """(whether the partial refresh served, its two seats) and the seat's P(teammate) row as
    the partial refresh leaves it, then as a full refresh does."""
    x, y = read_seats_nb(st, seat, kind)
    ok = seat_beliefs_nb(st, seat, kind)
    part = st.mem.bel_team[seat].copy()
    refresh_seat_nb(st, seat)
    return ok, x, y, part, st.mem.bel_team[seat].copy()


def partial_cases(st, seat, other, third, rng):
    """(kind, options, ctx A, ctx B, card, X, U) for each decision kind that reads P(teammate)
    of one or two seats only (bots.dispatch.read_seats_nb)."""
    n = int(st.sc[SC.N])
    mine = [c for c in range(N_CARDS) if st.loc[c] == seat]
    theirs = [c for c in range(N_CARDS) if st.loc[c] == other]
    effect = [c for c in mine if c in (13, 14, 15, 16, 17, 6, 7)]  # cards with a trade effect (R9)
    cases = [
        (DEC.PRIEST_USE, [0, 1], third, other, -1, 0, 0),
        (DEC.PRIEST_USE, [0, 1], other, seat, -1, 0, 0),
        (DEC.MIXER, [-1, 1, 2], third, other, -1, int(rng.integers(0, 4)), int(rng.integers(0, 3))),
        (DEC.DOCTOR_USE, [0, 1], third, other, -1, int(rng.integers(1, 3)), 0),
        (DEC.WIN_CHOICE, [0, 1], seat, other, -1, 0, 0),
        (DEC.TAKE, [-1] + theirs, seat, other, -1, 0, 0),
        (DEC.RETURN, mine, other, seat, int(rng.integers(0, N_CARDS)), 0, 0),
        (DEC.GIVE_NAMED, mine, other, seat, -1, 0, 0),
        (DEC.PRIEST_GIVE, mine, seat, other, -1, 0, 0),
        (DEC.GIVE_BACK, mine, seat, other, -1, 0, 0),
        (DEC.SEXTANT_PASS, mine, seat, other, -1, 0, 0),
        (DEC.SEXTANT_DIR, [0, 1], seat, -1, -1, 0, 0),
        (DEC.CLAIR_USE, [0, 1], seat, other, -1, CLAIR_DRAW, 0),
        (DEC.SUPPORT, [0, 1, 2], third, other, -1, 0, 0),
    ]
    if theirs:
        cases.append((DEC.ACCEPT, [0, 1], other, seat, theirs[0], 0, 0))
    if effect:
        cases.append((DEC.SMUGGLE, [0, 1], seat, other, effect[0], 0, 0))
    return [c for c in cases if len(c[1]) >= 2 and n >= 3]


def set_decision(s, opts, a, b, c, x, u):
    s.opts[: len(opts)] = opts
    s.dctx[:] = 0
    s.dctx[DCTX_A] = a
    s.dctx[DCTX_B] = b
    s.dctx[DCTX_CARD] = c
    s.dctx[DCTX_X] = x
    s.dctx[DCTX_U] = u


@settings(max_examples=30, deadline=None)
@given(n=hs.integers(3, 10), game=hs.integers(0, 1000), turns=hs.integers(0, 40), salt=hs.integers(0, 2**31))
def test_partial_refresh_reads_only_the_seats_a_decision_reads(n, game, turns, salt):
    """The decisions that bring only one or two seats' P(teammate) up to date
    (``dispatch.read_seats_nb``: supports, the Priest, the Mixer, the Doctor, acceptances,
    returns, the winner's look and take, give-backs, the Sextant, smuggling, the
    Clairvoyant) read no other seat's: with every other entry of the seat's P(teammate) row
    scrambled, each decides, reasons and draws alike. And the entries they do read are the
    full refresh's, to the bit (the same sums in the same order)."""
    st = position(n, ("smart",) * n, game, turns)
    if st.sc[SC.OVER]:
        return
    rng = np.random.default_rng(salt)
    seat = int(rng.integers(0, n))
    others = [p for p in range(n) if p != seat]
    other = others[int(rng.integers(0, len(others)))]
    rest = [p for p in others if p != other]
    third = rest[0] if rest else seat
    for kind, opts, a, b, c, x, u in partial_cases(st, seat, other, third, rng):
        # (1) the policy reads tm of the seats named by read_seats_nb only
        s1, s2 = copy_state(st), copy_state(st)
        for s in (s1, s2):
            set_decision(s, opts, a, b, c, x, u)
        x1, y1 = read_seats_nb(s1, seat, kind)
        assert x1 >= -1 and y1 >= -1, kind  # a kind with a partial refresh
        i1 = refresh_and_choose_nb(s1, seat, kind, len(opts))
        keep = {seat, int(x1), int(y1)}
        refresh_seat_nb(s2, seat)
        for p in range(MAX_PLAYERS):
            if p not in keep:
                s2.mem.bel_team[seat, p] = rng.random()
        s2.mem.bel_fresh[seat] = True  # decide from the scrambled row, as it stands
        i2 = bot_choose_nb(s2, seat, kind, len(opts))
        assert i1 == i2, kind
        assert np.array_equal(s1.mem.vw.out, s2.mem.vw.out), kind
        assert np.array_equal(s1.rs, s2.rs), kind
        # (2) what the partial refresh writes is the full refresh's
        s3 = copy_state(st)
        set_decision(s3, opts, a, b, c, x, u)
        refresh_seat_nb(s3, seat)  # a current list of allowed assignments
        s3.mem.bel_fresh[seat] = False
        ok, px, py, part, full = partial_then_full_nb(s3, seat, kind)
        assert ok, kind
        for p in (px, py):
            if 0 <= p < n:
                assert part[p] == full[p], (kind, p)


def test_read_seats_leaves_the_wide_decisions_to_a_full_refresh():
    """The turn's action, the hand-limit gift and the Diplomat read every seat's P(teammate)
    (and the action the minority and the weights): no partial refresh for them."""
    st = position(6, ("smart",) * 6, 3, 5)
    for kind in (DEC.ACTION, DEC.LIMIT_GIVE, DEC.DIPLO_USE):
        assert tuple(read_seats_nb(st, 0, kind)) == (-2, -2)
