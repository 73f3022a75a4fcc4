"""R2 set-up, checked on the engine's own deal (``setup_nb``) for every player count."""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig
from kutsch_sim.cards import CARD_NAMES, stamped_cards
from kutsch_sim.cards_nb import C_BAG_GOBLET, C_BAG_KEY
from kutsch_sim.engine.state import as_record, new_state
from kutsch_sim.enums import BROTHERHOOD, IK, LOC_DECK, LOC_OUT, LOC_PILE, N_CARDS, N_OCCS, ORDER, SC
from kutsch_sim.notation.names import KIND_CARDS
from kutsch_sim.play import init_game_nb

pytestmark = pytest.mark.rules  # the rules scenarios: also run without the JIT (.ci/run)

PEARL = KIND_CARDS[IK.PEARL][0]
COAT = KIND_CARDS[IK.COAT][0]
STAMPED = stamped_cards()
GAMES = 25


def deal(n: int, items: str = "basic", game: int = 0, drink: bool = True):
    """The state right after R2 set-up of game ``game`` (debug on)."""
    cfg = GameConfig(n, items, drink=drink)
    st = new_state(4096, np.zeros((0, 3), np.int32))
    init_game_nb(st, as_record(cfg.spec(11, debug=True)), game)
    assert st.sc[SC.ERROR] == 0
    return st


def hands(st) -> list[list[int]]:
    return [np.flatnonzero(st.loc == p).tolist() for p in range(int(st.sc[SC.N]))]


@pytest.mark.parametrize("n", range(3, 11))
def test_R2_1_one_occupation_each_rest_in_pile(n: int) -> None:
    for g in range(GAMES):
        st = deal(n, game=g)
        assert sorted(st.occ[:n].tolist()) == sorted(set(st.occ[:n].tolist()))
        assert (st.occ_loc[st.occ[:n]] == np.arange(n)).all()
        assert (st.occ_loc == LOC_PILE).sum() == N_OCCS - n and not st.occ_up.any()
        assert all(st.k_occ[p, p] == st.occ[p] for p in range(n))


@pytest.mark.parametrize("n", range(3, 11))
def test_R2_2_associations_and_drink(n: int) -> None:
    big = (n + 1) // 2
    for g in range(GAMES):
        st = deal(n, game=g)
        order = int((st.assoc[:n] == ORDER).sum())
        if n % 2 == 0:
            assert order == n // 2 and st.sc[SC.MINORITY] == -1 and st.sc[SC.LEFTOVER] == -1
            assert st.sc[SC.DRINK] == 0 and not st.drink.any()
        else:
            minority = ORDER if order == n - big else BROTHERHOOD
            assert order in (big, n - big)
            assert st.sc[SC.MINORITY] == minority and st.sc[SC.LEFTOVER] == minority  # the box card
            assert st.sc[SC.DRINK] == 1 and st.drink[:n].all() and not st.drink[n:].any()
        assert all(st.k_assoc[p, p] == st.assoc[p] for p in range(n))
        assert (st.k_assoc[~np.eye(10, dtype=bool)] == -1).all()  # nobody knows anyone else


def test_R2_2_drink_can_be_switched_off() -> None:
    st = deal(5, drink=False)
    assert st.sc[SC.DRINK] == 0 and not st.drink.any() and st.sc[SC.MINORITY] >= 0


@pytest.mark.parametrize("items", ["basic", "full"])
@pytest.mark.parametrize("n", range(3, 11))
def test_R2_3_starting_items_and_deck(n: int, items: str) -> None:
    per = 2 if n == 3 else 1
    if items == "basic":
        deck_n = 9 if n == 3 else 16 - n  # RULES "Stamped items": consequences worth testing
    else:  # 21 cards, minus the dealt ones, minus the Pearl at 3 / the Coat at 10
        deck_n = {3: 14, 10: 10}.get(n, 21 - n)
    for g in range(GAMES):
        st = deal(n, items, game=g)
        hs = hands(st)
        assert [len(h) for h in hs] == [per] * n
        dealt = [c for h in hs for c in h]
        assert C_BAG_KEY in dealt and C_BAG_GOBLET in dealt  # both Bags always dealt
        assert all(STAMPED[c] for c in dealt)  # unstamped items never start in a hand
        assert st.sc[SC.DECK_N] == deck_n and (st.loc == LOC_DECK).sum() == deck_n
        assert sorted(st.deck[:deck_n].tolist()) == np.flatnonzero(st.loc == LOC_DECK).tolist()
        out = set(np.flatnonzero(st.loc == LOC_OUT).tolist())
        assert (PEARL in out) == (n == 3)  # R2.3: no Black Pearl at 3 players
        if items == "full":
            assert (COAT in out) == (n == 10)  # R2.3: no Coat at 10 players
            assert out == ({PEARL} if n == 3 else {COAT} if n == 10 else set())
        else:
            assert out == {c for c in range(N_CARDS) if not STAMPED[c]} | ({PEARL} if n == 3 else set())
        assert st.sc[SC.BAGS_OPEN] == 0


@pytest.mark.parametrize(("n", "limit"), [(3, 8), (4, 6), (5, 5), (6, 5), (7, 5), (8, 5), (9, 5), (10, 5)])
def test_R2_4_hand_limits(n: int, limit: int) -> None:
    assert deal(n).sc[SC.HAND_LIMIT] == limit


def test_R2_start_player_is_seat_0() -> None:
    st = deal(6)
    assert st.sc[SC.ACTIVE] == 0 and st.sc[SC.TURN] == 0 and st.sc[SC.OVER] == 0


def test_R2_3_deal_names_are_the_stamped_table() -> None:
    """The 14 stamped non-Bag cards are the ones dealt (RULES "Stamped items")."""
    seen = set()
    for g in range(200):
        st = deal(10, game=g)
        seen |= {c for h in hands(st) for c in h}
    names = sorted({CARD_NAMES[c] for c in seen})
    assert names == sorted({"Key", "Goblet", "Secret Bag (Key)", "Secret Bag (Goblet)", "Black Pearl", "Dagger",
                            "Gloves", "Poison Ring", "Casting Knives", "Whip", "Privilege", "Monocle"})


@pytest.mark.parametrize("n", [3, 5, 9])
def test_R7_the_drink_switch_keeps_the_deal(n: int) -> None:
    """R2 set-up does not depend on the Drink of Power switch: game g with the Drink on and with
    it off (--no-drink) is the same deal (api.GameConfig.config_id), so the report compares the
    two paired by game. Every event up to SETUP_DONE and the minority are equal."""
    from kutsch_sim.api import play_game
    from kutsch_sim.enums import EV, REC

    on, off = GameConfig(n, "full", ("smart",)), GameConfig(n, "full", ("smart",), drink=False)
    assert on.config_id == off.config_id
    for game in range(10):
        a, b = play_game(on, 4, game), play_game(off, 4, game)
        ka = int(np.flatnonzero(a.events[:, 0] == EV.SETUP_DONE)[0])
        kb = int(np.flatnonzero(b.events[:, 0] == EV.SETUP_DONE)[0])
        assert ka == kb and (a.events[: ka + 1] == b.events[: kb + 1]).all()
        assert a.record[REC.MINORITY] == b.record[REC.MINORITY]


@pytest.mark.parametrize("variant", ["smuggling", "fortune-telling"])
def test_R10_a_variant_keeps_the_base_deal(variant: str) -> None:
    """A rule variant that does not change the deal (R10: smuggling, fortune-telling) starts
    game g from the base game's stream (api.GameConfig.config_id), so the report pairs them."""
    from kutsch_sim.api import play_game
    from kutsch_sim.enums import EV

    base, var = GameConfig(6, "full", ("smart",)), GameConfig(6, "full", ("smart",), variants=(variant,))
    for game in range(10):
        a, b = play_game(base, 4, game), play_game(var, 4, game)
        ka = int(np.flatnonzero(a.events[:, 0] == EV.SETUP_DONE)[0])
        kb = int(np.flatnonzero(b.events[:, 0] == EV.SETUP_DONE)[0])
        assert ka == kb and (a.events[: ka + 1] == b.events[: kb + 1]).all()
