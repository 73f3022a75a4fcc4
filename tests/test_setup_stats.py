"""Set-up distribution tests (R2): chi-square / binomial tests over a few thousand deals.

Each deal comes from ``run_batch`` with a one-turn cap; the records keep the starting
position (Rec.TEAM0/OCC0/ITEMS0 per seat, Rec.MINORITY). Seeds are fixed, so the tests
are deterministic; the threshold ALPHA = 1e-3 is for a correct engine to pass by a wide margin.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from scipy import stats

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.cards import stamped_cards
from kutsch_sim.cards_nb import C_BAG_GOBLET, C_BAG_KEY
from kutsch_sim.enums import IK, N_CARDS, N_OCCS, ORDER, REC
from kutsch_sim.notation.names import KIND_CARDS

GAMES = 4000
ALPHA = 1e-3
PEARL = KIND_CARDS[IK.PEARL][0]


@cache
def deals(n: int, items: str = "basic") -> np.ndarray:
    return run_batch(GameConfig(n, items, turn_cap=1), 777, 0, GAMES)


def starting_cards(rec: np.ndarray, n: int) -> np.ndarray:
    """bool[games, seats, 21]: seat p started with card c."""
    masks = rec[:, REC.ITEMS0:REC.ITEMS0 + n].astype(np.int64)
    return ((masks[:, :, None] >> np.arange(N_CARDS)) & 1).astype(bool)


@pytest.mark.parametrize("n", range(3, 11))
def test_R2_3_each_starting_item_equally_likely(n: int) -> None:
    held = starting_cards(deals(n), n).any(axis=1)  # [games, 21]
    pool = [c for c in range(N_CARDS) if stamped_cards()[c] and c not in (C_BAG_KEY, C_BAG_GOBLET)
            and not (n == 3 and c == PEARL)]
    dealt = 4 if n == 3 else n - 2
    counts = held[:, pool].sum(axis=0)
    assert counts.sum() == GAMES * dealt
    p = stats.chisquare(counts, np.full(len(pool), GAMES * dealt / len(pool))).pvalue
    assert p > ALPHA, (counts, p)
    assert not held[:, [c for c in range(N_CARDS) if c not in pool + [C_BAG_KEY, C_BAG_GOBLET]]].any()


@pytest.mark.parametrize("n", range(3, 11))
def test_R2_3_both_bags_always_dealt_to_uniform_seats(n: int) -> None:
    cards = starting_cards(deals(n), n)
    for bag in (C_BAG_KEY, C_BAG_GOBLET):
        assert cards[:, :, bag].sum(axis=1).tolist() == [1] * GAMES
        seats = cards[:, :, bag].argmax(axis=1)
        p = stats.chisquare(np.bincount(seats, minlength=n)).pvalue
        assert p > ALPHA, (bag, np.bincount(seats, minlength=n))


def test_R2_3_full_set_deals_the_same_way() -> None:
    """Unstamped items never start in a hand, so full and basic deals share the statistics."""
    held = starting_cards(deals(6, "full"), 6).any(axis=1)
    assert not held[:, ~stamped_cards()].any()


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_R2_2_minority_team_is_50_50_at_odd_counts(n: int) -> None:
    rec = deals(n)
    minority = rec[:, REC.MINORITY]
    assert set(minority.tolist()) <= {0, 1}
    orders = (rec[:, REC.TEAM0:REC.TEAM0 + n] == ORDER).sum(axis=1)
    assert ((orders == n // 2) == (minority == ORDER)).all()  # the minority really has fewer members
    p = stats.binomtest(int((minority == ORDER).sum()), GAMES, 0.5).pvalue
    assert p > ALPHA, p


@pytest.mark.parametrize("n", range(3, 11))
def test_R2_2_seat_teams_uniform(n: int) -> None:
    teams = deals(n)[:, REC.TEAM0:REC.TEAM0 + n]
    order = (teams == ORDER).sum(axis=0)
    table = np.stack([order, GAMES - order])
    p = stats.chisquare(table.ravel(), np.full(2 * n, GAMES / 2)).pvalue
    assert p > ALPHA, order


@pytest.mark.parametrize("n", [3, 6, 10])
def test_R2_1_seat_occupations_uniform(n: int) -> None:
    occs = deals(n)[:, REC.OCC0:REC.OCC0 + n]
    table = np.stack([np.bincount(occs[:, p], minlength=N_OCCS) for p in range(n)])
    p = stats.chisquare(table.ravel(), np.full(table.size, GAMES / N_OCCS)).pvalue
    assert p > ALPHA, table


def test_deals_replay_by_game_index() -> None:
    """Game g's deal does not depend on the batch it is played in (STYLE 6)."""
    cfg = GameConfig(5, "basic", turn_cap=1)
    whole = run_batch(cfg, 777, 0, 300)
    part = run_batch(cfg, 777, 100, 50)
    assert np.array_equal(whole[100:150], part)
