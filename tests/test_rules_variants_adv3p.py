"""R10 variants: the advanced 3-player game (three association cards each, the team is
their majority): the deal, positions, what a look or the Monocle shows, declarations, the
beliefs over seen cards, and bots that decide on their view only.

Card ids (enums): Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Dagger 8, Gloves 9, Knives 10,
Whip 11, Ring 12, Monocle 13, Privilege 14, Tome 15, Coat 16, Sextant 17, Pearl 18, Mirror 19,
Loge 20. Unscripted decisions go to the "first" bot (no / pass / reject / neutral / position 0).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from numba import njit

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.beliefs import A_MAX, N_BINS, deal_counts_nb, make_assignments_nb, refresh_cards_nb
from kutsch_sim.bots.dispatch import bot_choose_nb
from kutsch_sim.engine.game import action_options_nb, play_turn_nb
from kutsch_sim.engine.state import as_record, copy_state, new_state, new_state_nb
from kutsch_sim.enums import BROTHERHOOD, DEC, EV, ORDER, SC, VAR
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import run
from kutsch_sim.play import init_game_nb

from _helpers_variants import rows


# ---------------------------------------------------------------------------- advanced 3-player (R10)
ADV = """
variant advanced-3p
seat 0: OOB Thug | Key, Dagger, Monocle
seat 1: BOB Doctor | Goblet, Gloves
seat 2: BOO Priest | Key, Whip
deck: Knives
"""


def test_R10_advanced_3p_deal_three_cards_each_team_is_the_majority() -> None:
    cfg = GameConfig(3, "basic", ("first",), variants=("advanced-3p",))
    assert cfg.variant_bits == VAR.ADV3P
    sp = as_record(cfg.spec(5, debug=True))
    seen_minority = set()
    for game in range(40):
        st = new_state(4096)
        init_game_nb(st, sp, game)
        cards = st.acard[:3]
        assert ((cards == ORDER) | (cards == BROTHERHOOD)).all() and (st.acard[3:] == -1).all()
        dealt = cards.ravel().tolist() + [int(st.sc[SC.LEFTOVER])]
        assert dealt.count(ORDER) == 5 and dealt.count(BROTHERHOOD) == 5  # all 10 cards, one in the box
        for p in range(3):
            assert st.assoc[p] == (BROTHERHOOD if cards[p].sum() >= 2 else ORDER)
            assert (st.k_acard[p, p] == cards[p]).all() and st.k_assoc[p, p] == st.assoc[p]
            for s in range(3):
                if s != p:
                    assert (st.k_acard[s, p] == -1).all() and st.k_assoc[s, p] == -1
        teams = st.assoc[:3].tolist()
        small = ORDER if teams.count(ORDER) == 1 else BROTHERHOOD
        assert sorted((teams.count(ORDER), teams.count(BROTHERHOOD))) == [1, 2]  # always 2 against 1
        assert st.sc[SC.MINORITY] == small and st.drink[:3].all()  # odd N: Drinks of Power (R7)
        seen_minority.add(small)
        ev = [r for r in st.log[: int(st.sc[SC.N_EVENTS])] if r[0] == EV.ACARDS]
        assert [tuple(r[2:6]) for r in ev] == [(p, *cards[p]) for p in range(3)]
    assert seen_minority == {ORDER, BROTHERHOOD}


def test_R10_advanced_3p_is_three_players_only() -> None:
    with pytest.raises(KutschError, match="3-player game only") as err:
        GameConfig(4, variants=("advanced-3p",))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (ADV.replace("variant advanced-3p\n", ""), "need 'variant advanced-3p'"),
        (ADV.replace("BOO Priest", "OOO Priest"), "only 5 association cards"),
        (ADV.replace("BOO Priest", "Order Priest"), "as its 3 association cards"),
        ("variant advanced-3p\nseat 0: OOB Thug | Key\nseat 1: BOB Doctor | Goblet\nseat 2: BOO Priest | Key\n"
         "seat 3: BOB Duelist | Goblet", "3-player game only"),
    ],
)
def test_R10_advanced_3p_bad_positions(text: str, message: str) -> None:
    with pytest.raises(KutschError, match=message):
        Position.parse(text)


def test_R10_advanced_3p_position_round_trip() -> None:
    pos = Position.parse(ADV)
    assert pos.teams == (ORDER, BROTHERHOOD, ORDER) and pos.acards[1] == (BROTHERHOOD, ORDER, BROTHERHOOD)
    assert Position.parse(pos.to_text()) == pos
    assert Position.from_state(pos.to_state()) == pos


def test_R10_advanced_3p_a_fight_win_shows_one_card_at_the_lookers_choice() -> None:
    out = run(ADV, ["0 attack 1", "0 play dagger yes", "0 win look", "0 see-card 1"], turns=1)
    assert ("see_acard", 0, 1, 1, ORDER) in rows(out)  # seat 1's card 1 is an Order card
    assert ("see_occ", 0, 1, 1, 0) in rows(out)  # and the occupation (the Doctor)
    assert out.knows_team(0, 1) is None  # one card of three: the team is not known
    assert out.state.k_acard[0, 1].tolist() == [-1, ORDER, -1] and out.state.k_acard[2, 1].tolist() == [-1] * 3


def test_R10_advanced_3p_the_monocle_shows_one_card_two_agreeing_cards_tell_the_team() -> None:
    script = ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 effect yes", "0 see-card 0"]
    out = run(ADV, script, turns=1)
    assert ("see_acard", 0, 1, 0, BROTHERHOOD) in rows(out) and out.knows_team(0, 1) is None
    # a second look at another position: two Brotherhood cards, so seat 1 is of the Brotherhood
    out = run(ADV, [*script, "1 pass", "2 pass", "0 attack 1", "0 play dagger yes", "0 win look", "0 see-card 2"],
              turns=4)
    assert out.state.k_acard[0, 1].tolist() == [BROTHERHOOD, -1, BROTHERHOOD]
    assert out.knows_team(0, 1) == "Brotherhood"


def test_R10_advanced_3p_declarations_follow_the_majority() -> None:
    pos = ADV.replace("Key, Whip", "Key, Key, Whip")
    out = run(pos, ["0 declare team with 2"])  # seat 2 (B, O, O) is of the Order
    assert out.winner == "order"


def _brute_counts(kac: np.ndarray, asg: list[int]) -> list[float]:
    """Deals of 5 Order + 5 Brotherhood cards (3 per seat in order, one in the box) agreeing
    with the seen cards, per team assignment (bit p = seat p is of the Order)."""
    cnt = dict.fromkeys(asg, 0)
    for order_pos in itertools.combinations(range(10), 5):
        cards = [ORDER if i in order_pos else BROTHERHOOD for i in range(10)]
        if any(kac[p, j] >= 0 and kac[p, j] != cards[3 * p + j] for p in range(3) for j in range(3)):
            continue
        a = sum(1 << p for p in range(3) if cards[3 * p:3 * p + 3].count(ORDER) >= 2)
        cnt[a] += 1
    return [float(cnt[a]) for a in asg]


def test_R10_advanced_3p_beliefs_weigh_seen_cards_exactly() -> None:
    asg = np.zeros(A_MAX, np.int32)
    na = make_assignments_nb(3, asg)
    kac = np.full((10, 3), -1, np.int8)
    kac[0] = (ORDER, ORDER, BROTHERHOOD)  # my own cards: I am of the Order
    cnt = np.zeros(A_MAX)
    deal_counts_nb(na, asg, kac, cnt)
    assert cnt[:na].tolist() == _brute_counts(kac, asg[:na].tolist())
    kas = np.full(10, -1, np.int8)
    kas[0] = ORDER
    w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
    ones = np.ones(A_MAX)  # no soft evidence: every factor 1

    def scratch():
        return np.zeros(N_BINS), np.zeros(A_MAX, np.int16), np.full(2, -1, np.int64)

    refresh_cards_nb(3, 0, na, asg, ones, ones, kas, w, team, minor, kac, True, True, *scratch())
    p1_before = team[1]
    kac[1, 0] = ORDER  # I saw one Order card of seat 1
    refresh_cards_nb(3, 0, na, asg, ones, ones, kas, w, team, minor, kac, True, True, *scratch())
    brute = _brute_counts(kac, asg[:na].tolist())
    p1 = sum(c for c, a in zip(brute, asg[:na].tolist(), strict=True) if a & 2) / sum(brute)
    assert team[1] == pytest.approx(p1) and p1_before < team[1] < 1.0  # likelier, not certain
    p_alone = sum(c for c, a in zip(brute, asg[:na].tolist(), strict=True) if a & 1 and a.bit_count() == 1)
    assert minor[0] == pytest.approx(p_alone / sum(brute))
    assert math.isclose(w[:na].sum(), 1.0)
    # the greedy bot (hard evidence only): soft evidence is not read, the cards are
    soft = np.exp(np.random.default_rng(1).normal(size=A_MAX))
    team2, minor2 = np.zeros(10), np.zeros(10)
    refresh_cards_nb(3, 0, na, asg, soft, soft, kas, w, team2, minor2, kac, True, False, *scratch())
    assert team2[1] == pytest.approx(p1) and minor2[0] == pytest.approx(minor[0])
    refresh_cards_nb(3, 0, na, asg, soft, soft, kas, w, team2, minor2, kac, True, True, *scratch())
    assert team2[1] != pytest.approx(p1)  # the smart bot adds it



# ---------------------------------------------------------------------------- bots see only their view
@njit(cache=True)
def adv_prefix_nb(spec, game, turns):
    """Game ``game`` of an advanced 3-player ``spec`` played for ``turns`` turns (or to its end)."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = buf[0]
    init_game_nb(st, spec[0], game)
    t = 0
    while st.sc[SC.OVER] == 0 and t < turns:
        play_turn_nb(st)
        st.sc[SC.TURN] += 1
        if st.sc[SC.OVER] == 0:
            st.sc[SC.ACTIVE] = (st.sc[SC.ACTIVE] + 1) % 3
        t += 1
    return buf


@njit(cache=True)
def adv_action_nb(st, seat):
    k = action_options_nb(st, seat)
    st.dctx[0] = seat
    return bot_choose_nb(st, seat, DEC.ACTION, k)


def test_R10_advanced_3p_decisions_ignore_the_unseen_association_cards() -> None:
    cfg = GameConfig(3, "full", ("smart", "greedy", "smart"), variants=("advanced-3p",))
    spec = cfg.spec(7)
    rng = np.random.default_rng(4)
    checked = 0
    for game in range(25):
        st = as_record(adv_prefix_nb(spec, game, int(rng.integers(0, 30))))
        if st.sc[SC.OVER]:
            continue
        seat = int(st.sc[SC.ACTIVE])
        st2 = copy_state(st)
        for p in range(3):
            if p == seat:
                continue
            for j in range(3):
                if st.k_acard[seat, p, j] < 0:
                    st2.acard[p, j] = rng.integers(0, 2)
            st2.assoc[p] = BROTHERHOOD if st2.acard[p].sum() >= 2 else ORDER
        assert adv_action_nb(st, seat) == adv_action_nb(st2, seat)
        assert np.array_equal(st.rs, st2.rs) and np.array_equal(st.mem.vw.out, st2.mem.vw.out)
        checked += 1
    assert checked >= 10
