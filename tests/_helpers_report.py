"""A synthetic per-game frame for the report's tests (tests/test_report*.py).

``make_games`` builds a frame that follows ``docs/results_schema.md`` column by column,
with win rates we choose, so every table can be checked against a few lines of plain
pandas and against the truth; ``make_study`` is a small study of such frames and
``concat`` joins them keeping the categorical columns categorical.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from kutsch_sim.enums import CARD_KIND_LIST, IK, MAX_PLAYERS, WINNER_LABELS
from kutsch_sim.report import data as rdata

TEAMS = ["order", "brotherhood", "none"]
OCCS = list(rdata.OCC_KEYS) + ["none"]
UNSTAMPED = {IK.TOME, IK.COAT, IK.SEXTANT, IK.MIRROR, IK.LOGE}
BAGS = {IK.BAG_KEY, IK.BAG_GOBLET}


def _cat(codes: np.ndarray, cats: list[str]) -> pd.Categorical:
    """Categorical from codes into ``cats``; code -1 means the last category (``none``)."""
    codes = np.asarray(codes)
    return pd.Categorical.from_codes(np.where(codes < 0, len(cats) - 1, codes), categories=cats)


def _const(label: str, n: int) -> pd.Categorical:
    return pd.Categorical.from_codes(np.zeros(n, np.int8), categories=[label])


def _perm_rank(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """(n, k) int: an independent random permutation of 0..k-1 in each row."""
    return np.argsort(rng.random((n, k)), axis=1)


def _starting_items(rng: np.random.Generator, n: int, players: int) -> np.ndarray:
    """(n, MAX_PLAYERS) int32 bitmasks: R2.3 deal of stamped items plus both Secret Bags."""
    cards = [c for c, k in enumerate(CARD_KIND_LIST)
             if k not in UNSTAMPED and k not in BAGS and not (players == 3 and k == IK.PEARL)]
    bags = [c for c, k in enumerate(CARD_KIND_LIST) if k in BAGS]
    dealt = 4 if players == 3 else players - 2
    pick = np.asarray(cards)[_perm_rank(rng, n, len(cards))[:, :dealt]]
    hand_cards = np.concatenate([pick, np.tile(bags, (n, 1))], axis=1)  # (n, players * per)
    hand_cards = np.take_along_axis(hand_cards, _perm_rank(rng, n, hand_cards.shape[1]), axis=1)
    per = 2 if players == 3 else 1
    out = np.zeros((n, MAX_PLAYERS), np.int32)
    for j in range(hand_cards.shape[1]):
        out[np.arange(n), j // per] |= (1 << hand_cards[:, j]).astype(np.int32)
    return out


def make_games(n: int, players: int, item_set: str = "basic", *, drink: bool = True, variant: str = "base",
               p_order: float = 0.5, p_minority: float = 0.5, p_solo: float | None = None,
               p_timeout: float = 0.05, p_wrong: float = 0.2, seat0_bonus: float = 0.0,
               seed: int = 0, game_start: int = 0) -> pd.DataFrame:
    """``n`` games of one configuration with chosen win rates, in the results schema.

    Among games a team wins: the Order wins with ``p_order`` at even N, the minority with
    ``p_minority`` at odd N. ``p_solo`` defaults to 0.1 when the Loge is in the item set.
    ``seat0_bonus`` moves that much probability of the team outcome towards seat 0's team.
    """
    rng = np.random.default_rng([seed, players, game_start, len(item_set), int(drink)])
    has_loge = "loge" in item_set.lower() and "-loge" not in item_set.lower() or item_set == "full"
    p_solo = (0.1 if has_loge else 0.0) if p_solo is None else p_solo
    is_odd = players % 2 == 1
    minority = rng.integers(0, 2, n) if is_odd else np.full(n, -1)
    n_order = np.where(minority == 0, (players - 1) // 2, (players + 1) // 2) if is_odd else np.full(n, players // 2)
    rank = _perm_rank(rng, n, players)
    team = np.full((n, MAX_PLAYERS), -1)
    team[:, :players] = np.where(rank < n_order[:, None], 0, 1)
    occ = np.full((n, MAX_PLAYERS), -1)
    occ[:, :players] = _perm_rank(rng, n, 10)[:, :players]

    u = rng.random(n)
    solo = u < p_solo
    timeout = ~solo & (u < p_solo + p_timeout)
    team_game = ~solo & ~timeout
    v = rng.random(n)
    if is_odd:
        win_team = np.where(v < p_minority, minority, 1 - minority)
    else:
        win_team = np.where(v < p_order, 0, 1)
    if seat0_bonus:
        flip = rng.random(n) < seat0_bonus
        win_team = np.where(flip, team[:, 0], win_team)
    winner = np.where(solo, 2, np.where(timeout, 3, win_team))

    solo_seat = np.where(solo, rng.integers(0, players, n), -1)
    wrong = team_game & (rng.random(n) < p_wrong)
    decl_team = np.where(wrong, 1 - win_team, win_team)
    # declarer: a random member of decl_team (first in a random order)
    member = np.where(team[:, :players] == decl_team[:, None], rng.random((n, players)), 2.0)
    declarer = np.where(team_game, np.argmin(member, axis=1), np.where(solo, solo_seat, -1))
    decl_ok = team_game & ~wrong | solo
    minority_decl = is_odd & (decl_team == minority)
    drink_used = team_game & drink & minority_decl & (rng.random(n) < 0.3)
    decl_kind = np.where(solo, 2, np.where(timeout, -1, np.where(drink_used, 1, 0)))
    turns = np.where(timeout, 300, np.clip(rng.gamma(4.0, 10.0 + 3 * players, n), 1, 299)).astype(np.int16)

    loge_ever = np.zeros(n, np.int16)
    if has_loge:
        held = rng.random((n, players)) < 0.3
        loge_ever = (held * (1 << np.arange(players))).sum(axis=1).astype(np.int16)
        loge_ever |= np.where(solo, 1 << np.maximum(solo_seat, 0), 0).astype(np.int16)
    items = _starting_items(rng, n, players)
    bots = ("smart",) * players
    cols: dict[str, object] = {
        "players": np.full(n, players, np.int8),
        "item_set": _const(item_set, n),
        "variant": _const(variant, n),
        "drink": np.full(n, drink, bool),
        "bots": _const(",".join(bots), n),
        "seed": np.full(n, seed, np.uint64),
        "game": np.arange(game_start, game_start + n, dtype=np.int64),
        "winner": _cat(winner, list(WINNER_LABELS) + ["none"]),
        "solo_seat": solo_seat.astype(np.int8),
        "declarer": declarer.astype(np.int8),
        "decl_kind": _cat(decl_kind, ["team", "drink", "loge", "none"]),
        "decl_ok": decl_ok.astype(bool),
        "wrong_decl": (declarer >= 0) & ~decl_ok,
        "turns": turns,
        "minority": _cat(minority, TEAMS),
        "drink_used": drink_used.astype(bool),
        "loge_start": np.full(n, -1, np.int8),
        "loge_ever": loge_ever,
        "decisions": (turns.astype(np.int32) * 5),
        "error": np.zeros(n, np.int8),
    }
    for p in range(MAX_PLAYERS):
        cols[f"team_{p}"] = _cat(team[:, p], TEAMS)
        cols[f"occ_{p}"] = _cat(occ[:, p], OCCS)
        cols[f"items_{p}"] = items[:, p]
        cols[f"bot_{p}"] = _const(bots[p] if p < players else "none", n)
    return pd.DataFrame(cols)


def make_study(games: int = 2000, seed: int = 0, counts: range = range(3, 11)) -> pd.DataFrame:
    """A small synthetic study: standard item sets, each unstamped item, Drink on/off at odd N."""
    parts = []
    sets = ["basic", "full", "basic+Loge", "full-Loge", "basic+Tome", "basic+Coat", "basic+Sextant",
            "basic+Mirror"]
    for players in counts:
        for i, s in enumerate(sets):
            if players == 10 and s == "basic+Coat":
                continue
            parts.append(make_games(games, players, s, p_order=0.55 if s == "full" else 0.5,
                                    p_minority=0.45, seed=seed + i))
        if players % 2:
            for i, s in enumerate(["basic", "full"]):
                parts.append(make_games(games, players, s, drink=False, p_minority=0.35, seed=seed + 50 + i))
    return concat(parts)


def concat(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """``pd.concat`` keeping categorical columns categorical (union of the categories)."""
    cols = {}
    for c in parts[0].columns:
        if isinstance(parts[0][c].dtype, pd.CategoricalDtype):
            cols[c] = union_categoricals([f[c] for f in parts])
        else:
            cols[c] = np.concatenate([f[c].to_numpy() for f in parts])
    return pd.DataFrame(cols)


def replay(games: pd.DataFrame, p_team: float, keep: float, seed: int) -> pd.DataFrame:
    """The same deals played again (a rung of a ladder): every game a team won keeps its winner
    with probability ``keep``, else its winner is drawn afresh, the Order with ``p_team`` at even
    counts and the smaller team with ``p_team`` at odd ones; solo wins and timeouts stay. Only
    ``winner`` changes (the declarer columns keep the first play's), which is all the headline
    numbers read, so two replays of one frame are positively correlated rungs on the same deals."""
    rng = np.random.default_rng(seed)
    cats = list(games["winner"].cat.categories)
    w = games["winner"].cat.codes.to_numpy().copy()
    team = (w == cats.index("order")) | (w == cats.index("brotherhood"))
    minority = games["minority"].astype(str).to_numpy()
    smaller = np.where(minority == "order", cats.index("order"), cats.index("brotherhood"))
    larger = np.where(minority == "order", cats.index("brotherhood"), cats.index("order"))
    odd_n = games["players"].to_numpy() % 2 == 1
    hit = rng.random(len(w)) < p_team
    fresh = np.where(odd_n, np.where(hit, smaller, larger),
                     np.where(hit, cats.index("order"), cats.index("brotherhood")))
    redraw = team & (rng.random(len(w)) >= keep)
    w[redraw] = fresh[redraw]
    return games.assign(winner=pd.Categorical.from_codes(w, categories=cats))
