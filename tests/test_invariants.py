"""Property tests: random-policy games in debug mode keep every invariant.

Two oracles: the engine's own ``check_nb`` after every event (debug = 1, any breach sets
``sc[ERROR]``), and an independent replay in Python of every card and occupation move in
the event log, checked at each turn boundary and against the final state.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kutsch_sim.api import GameConfig
from kutsch_sim.cards import card_player_range
from kutsch_sim.engine.game import play_nb
from kutsch_sim.engine.state import as_record, new_state
from kutsch_sim.enums import (
    BROTHERHOOD,
    EV,
    LOC_DECK,
    LOC_OUT,
    LOC_PILE,
    N_CARDS,
    N_OCCS,
    ORDER,
    REC,
    SC,
    WIN,
)
from kutsch_sim.notation.names import hand_limit
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import play_turns
from kutsch_sim.play import init_game_nb

ITEM_SETS = ["basic", "full", "basic+Loge", "full-Loge", "basic+Tome+Sextant", "basic+Mirror+Coat", "full-Pearl"]
TURN_CAP = 250
LOG_CAP = 60_000
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(n: int, items: str, seed: int, game: int, drink: bool):
    cfg = GameConfig(n, items, drink=drink, turn_cap=TURN_CAP)
    spec = cfg.spec(seed, debug=True)
    s = new_state(LOG_CAP, np.zeros((0, 3), np.int32))
    init_game_nb(s, as_record(spec), game)
    play_nb(s)
    return s, spec[0]["in_game"] == 1


class Replay:
    """Card and occupation locations rebuilt from the event log alone."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.loc = np.full(N_CARDS, LOC_OUT, np.int16)
        self.occ = np.full(n, -1, np.int16)

    def move(self, c: int, a: int, b: int) -> None:
        assert self.loc[c] == a, f"card {c} moved from {a} but it is at {self.loc[c]}"
        self.loc[c] = b

    def event(self, row) -> None:  # noqa: C901 - one branch per event type
        t, a, b, c, d = int(row[0]), int(row[2]), int(row[3]), int(row[4]), int(row[5])
        if t == EV.DEAL:
            self.loc[b] = a
        elif t == EV.DECK:
            self.loc[a] = LOC_DECK
        elif t == EV.OCC:
            self.occ[a] = b
        elif t == EV.ACCEPT:
            self.move(c, a, b)
            self.move(d, b, a)
        elif t == EV.DRAW:
            self.move(b, LOC_DECK, a)
        elif t in (EV.GIVE, EV.PASS_ON):
            self.loc[c] = b  # Sextant passes are simultaneous; GIVE moves are checked by the final state
        elif t == EV.TAKE and c >= 0:
            self.move(c, b, a)
        elif t == EV.GIVE_BACK:
            self.move(c, a, b)
        elif t == EV.PRIEST and c >= 0:
            self.move(c, b, a)
        elif t == EV.TOME:
            self.occ[a], self.occ[b] = c, d
        elif t == EV.COAT:
            assert self.occ[a] == b
            self.occ[a] = c

    def check_between_turns(self, limit: int) -> None:
        sizes = [(self.loc == p).sum() for p in range(self.n)]
        assert min(sizes) >= 1, f"empty hand: {sizes}"
        assert max(sizes) <= limit, f"hand over the limit {limit}: {sizes}"
        assert sorted(self.occ.tolist()) == sorted(set(self.occ.tolist())), "an occupation held twice"


def check_game(s, in_game: np.ndarray) -> None:
    sc = s.sc
    n = int(sc[SC.N])
    assert sc[SC.ERROR] == 0 and s.rec[REC.ERROR] == 0, f"engine invariant broken: {sc[SC.ERROR]}"
    assert sc[SC.N_EVENTS] <= s.log.shape[0]
    # the game ends by a declaration or the turn cap, never otherwise
    assert sc[SC.OVER] == 1
    events = s.log[: sc[SC.N_EVENTS]]
    if sc[SC.WINNER] == WIN.TIMEOUT:
        assert sc[SC.TURN] == sc[SC.TURN_CAP] and events[-1, 0] == EV.TIMEOUT and sc[SC.DECLARER] == -1
    else:
        assert sc[SC.WINNER] in (WIN.ORDER, WIN.BROTHERHOOD, WIN.SOLO)
        assert events[-1, 0] == EV.DECL_RESULT and (events[:, 0] == EV.DECLARE).sum() == 1
        assert sc[SC.DECLARER] == events[events[:, 0] == EV.DECLARE][0, 2]
        team = s.assoc[sc[SC.DECLARER]]
        if sc[SC.WINNER] != WIN.SOLO:
            assert sc[SC.WINNER] == (team if sc[SC.DECL_OK] else 1 - team)
    # cards: each in exactly one place; the set in play never changes
    assert ((s.loc < n) | (s.loc == LOC_DECK) | (s.loc == LOC_OUT)).all()
    assert ((s.loc != LOC_OUT) == in_game).all()
    assert (np.bincount(s.loc[s.loc < n], minlength=n)[:n] == s.hand_n[:n]).all()
    assert sorted(s.deck[: sc[SC.DECK_N]].tolist()) == np.flatnonzero(s.loc == LOC_DECK).tolist()
    assert (sc[SC.DECK_N] == 0) == (sc[SC.BAGS_OPEN] == 1)
    # occupations: each at one seat or in the pile
    assert sorted(s.occ[:n].tolist() + np.flatnonzero(s.occ_loc == LOC_PILE).tolist()) == list(range(N_OCCS))
    # teams as dealt (R2.2)
    assert sorted(((s.assoc[:n] == ORDER).sum(), (s.assoc[:n] == BROTHERHOOD).sum())) == sorted(
        ((n + 1) // 2, n // 2))
    # independent replay of the log
    rep = Replay(n)
    limit = hand_limit(n)
    for row in events:
        if row[0] == EV.TURN:
            rep.check_between_turns(limit)
        rep.event(row)
    assert (rep.loc == s.loc).all() and (rep.occ == s.occ[:n]).all()
    if sc[SC.WINNER] == WIN.TIMEOUT:
        rep.check_between_turns(limit)


@SETTINGS
@given(n=st.integers(3, 10), items=st.sampled_from(ITEM_SETS), seed=st.integers(0, 2**63 - 1),
       game=st.integers(0, 10**6), drink=st.booleans())
def test_random_games_keep_every_invariant(n: int, items: str, seed: int, game: int, drink: bool) -> None:
    s, in_game = play_random(n, items, seed, game, drink)
    check_game(s, in_game)


def test_many_random_games_per_player_count() -> None:
    """A fixed sweep on top of hypothesis: 40 games at each count, basic and full."""
    for n in range(3, 11):
        for items in ("basic", "full"):
            for g in range(20):
                s, in_game = play_random(n, items, 12345, g, True)
                check_game(s, in_game)


@st.composite
def positions(draw) -> Position:
    """Any legal position: random teams, occupations (some face up), hands, deck and turn."""
    n = draw(st.integers(3, 10))
    big = (n + 1) // 2
    teams = [ORDER] * big + [BROTHERHOOD] * (n - big)
    if draw(st.booleans()):
        teams = [1 - t for t in teams]
    teams = draw(st.permutations(teams))
    occs = draw(st.permutations(range(N_OCCS)))[:n]
    up = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    lo, hi = card_player_range()
    cards = [c for c in range(N_CARDS) if lo[c] <= n <= hi[c]]
    cards = draw(st.permutations(cards))
    limit = hand_limit(n)
    sizes = draw(st.lists(st.integers(1, min(limit, 3, len(cards) // n)), min_size=n, max_size=n))
    hands, i = [], 0
    for k in sizes:
        hands.append(tuple(sorted(cards[i:i + k])))
        i += k
    deck_n = draw(st.integers(0, len(cards) - i))
    return Position(teams=tuple(teams), occs=tuple(occs), up=tuple(up), hands=tuple(hands),
                    deck=tuple(cards[i:i + deck_n]), turn=draw(st.integers(0, n - 1)),
                    drink=n % 2 == 1 and draw(st.booleans()), turn_cap=TURN_CAP, seed=draw(st.integers(0, 2**32)))


@SETTINGS
@given(pos=positions())
def test_random_play_from_any_legal_position_keeps_every_invariant(pos: Position) -> None:
    s = pos.to_state((), bots="random", log_cap=LOG_CAP)
    play_turns(s, None)
    in_game = np.zeros(N_CARDS, bool)
    in_game[[c for h in pos.hands for c in h] + list(pos.deck)] = True
    check_game(s, in_game)
    assert Position.parse(pos.to_text()) == pos


def test_the_fuzzer_users_get_finds_nothing_in_the_shipped_bots():
    """``kutsch_sim.testing``: the invariant fuzzer a user's own profile can be run through."""
    from kutsch_sim.testing import check, fuzz

    for cfg in (GameConfig(5, "full", ("smart",)), GameConfig(8, "basic", ("greedy", "random") * 4)):
        res = fuzz(cfg, 3, 60)
        assert res == {"games": 60, "broken": 0, "first_broken": -1, "errors": {}}
    st = Position.parse(POSITION_FOR_CHECK).to_state()
    assert check(st) is None
    st.loc[0] = st.loc[1] = 9  # two cards in a seat the game does not have
    assert check(st) is not None


POSITION_FOR_CHECK = """
seat 0: Order Diplomat | Key, Dagger
seat 1: Brotherhood Doctor | Goblet
seat 2: Order Priest | Secret Bag (Key)
seat 3: Brotherhood Thug | Goblet, Gloves
"""
