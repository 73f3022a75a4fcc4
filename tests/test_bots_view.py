"""Truth apart from view (STYLE 5), and mirror symmetry of the bots.

1. Changing what a seat cannot know (other seats' hidden associations and occupations,
   hidden hands, the deck order, other seats' knowledge and beliefs, the minority) never
   changes its decision, its reason, or the random stream it leaves behind.
2. The observer gives private event fields only to the seats that see them.
3. Swapping the teams (Order <-> Brotherhood, Keys <-> Goblets, Bag(Key) <-> Bag(Goblet))
   leaves every action score unchanged: no tie is broken by card or seat index.

The beliefs the observer builds (soft evidence, full and partial refreshes) are checked in
tests/test_bots_observer.py; the position both decide in comes from tests/_helpers_bots_view.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as hs
from numba import njit

from kutsch_sim.bots.act import REASON_AT
from kutsch_sim.bots.beliefs import SMALL_N, tell_size_nb
from kutsch_sim.bots.dispatch import bot_choose_nb
from kutsch_sim.bots.observer import observe_nb
from kutsch_sim.bots.params import P_NOISE
from kutsch_sim.engine.game import action_options_nb
from kutsch_sim.engine.state import copy_state
from kutsch_sim.enums import (
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
    DEC,
    EV,
    LOC_DECK,
    LOC_OUT,
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

from _helpers_bots_view import position


@njit(cache=True)
def action_nb(st, seat):
    k = action_options_nb(st, seat)
    st.dctx[0] = seat
    return bot_choose_nb(st, seat, DEC.ACTION, k)


@njit(cache=True)
def choose_nb(st, seat, kind, k):
    return bot_choose_nb(st, seat, kind, k)


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
    # hidden hands and the deck: permute the places of every card not in the seat's hand; a card
    # out of the game is not hidden (which cards are in play is the item set's, public: R2)
    hidden = [c for c in range(N_CARDS) if st2.loc[c] != seat and st2.loc[c] != LOC_OUT]
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
        st2.mem.bel_told[p] = rng.integers(-1, 2)
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
@example(n=3, game=65, turns=17, mix=1, salt=1)  # the Loge in play: a scramble must not put it out of the game
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


@settings(max_examples=25, deadline=None)
@given(n=hs.sampled_from((3, 5, 7, 9)), game=hs.integers(0, 1000), turns=hs.integers(0, 30),
       told=hs.integers(1, 2**9 - 1), salt=hs.integers(0, 2**31))
def test_told_seats_know_their_teams_size_and_nothing_more(n, game, turns, told, salt):
    """A told seat (P_TOLD) gets one fact from outside its view, its team's size; with it kept,
    changing everything else it cannot know changes none of its decisions. The fact is told
    again from the changed truth to every seat before the decision: a seat not told must get
    nothing from it (else a flipped minority would reach its beliefs)."""
    seats = tuple(p for p in range(n) if (told >> p) & 1)
    bots = tuple(("smart", "greedy")[p % 4 == 3] for p in range(n))
    st = position(n, bots, game, turns, told=seats)
    if st.sc[SC.OVER]:
        return
    for p in range(n):  # each told seat holds the truth, exactly
        truth = 1 if st.assoc[p] == st.sc[SC.MINORITY] else 0
        assert st.mem.bel_told[p] == (truth if p in seats else -1)
    rng = np.random.default_rng(salt)
    seat = int(st.sc[SC.ACTIVE])
    st2 = hide_from(st, seat, rng)
    st2.mem.bel_told[:] = st.mem.bel_told  # what the others were told: scrambled below by telling again
    if seat in seats:  # the fact the seat was told holds in the changed truth too
        mine = st2.assoc[seat]
        st2.sc[SC.MINORITY] = mine if st.mem.bel_told[seat] == 1 else 1 - mine
    before = st2.mem.bel_epriv[seat].copy()
    tell_size_nb(st2, n)
    if seat not in seats:
        assert st2.mem.bel_told[seat] == -1 and np.array_equal(st2.mem.bel_epriv[seat], before)
    same_decision(st, st2, lambda s: action_nb(s, seat))


def public_evidence(m) -> tuple:
    """The soft evidence every seat shares, of both models (``bots.evidence``)."""
    return (m.bel_pair, m.bel_psat, m.bel_pair1, m.bel_psat1, m.bel_inf1, m.bel_own1, m.bel_epub)


def same_public(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(public_evidence(a.mem), public_evidence(b.mem), strict=True))


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
    assert same_public(a, b)


def test_observer_public_evidence_ignores_what_only_the_traders_know():
    """R4's ruling (information): which Secret Bag was traded stays hidden (it is announced as
    "Secret Bag"), and so does whether an offer could not be refused because of its card
    (Black Pearl R4.6, Broken Mirror R4.5: offered face down); the Diplomat's demand (R8) is
    public. The seats' beliefs must not depend on the first two: an observer that reset every
    seat's confidence in the very Bag announced, or weighed no offer of a Pearl or a Mirror as
    evidence, would let every seat tell them apart."""
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
    assert not same_public(a, st)  # an offer and its acceptance are evidence
    for b in runs[1:]:
        assert same_public(a, b)
        for p in (0, 3, 4, 5):
            assert np.array_equal(a.mem.bel_epriv[p], b.mem.bel_epriv[p])
    s = copy_state(st)  # the Diplomat's demand: nobody chose to offer or to accept it
    observe_nb(s, EV.OFFER, 1, 2, 8, OFFER_DIPLOMAT)
    observe_nb(s, EV.ACCEPT, 1, 2, 8, 9)
    assert same_public(s, st)


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
    there (an acceptance must not lower it for good). After a silent trade any of the giver's
    three cards may have gone."""
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
