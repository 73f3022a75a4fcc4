"""Per-seat report tables, from the long (game, seat) table of :func:`.data.seat_frame`.

A seat wins when its team wins, or when it is the Loge solo winner. Every function takes
the per-game frame ``df`` and, optionally, its ``seats`` long table already built from
``standard_runs(df)`` (pass it to avoid rebuilding it for every table).

Seat-games of one game are not independent (teammates win together, opponents against
each other). A Wilson interval treats them as independent, which is right for a group that
holds at most one seat a game (a seat index, an occupation, the Loge's first holder). For
groups that can hold several seats of a game (seats that started with a Key; seats
without some item; seats that held the Loge) and for differences between groups measured
on the same games (with vs without an item), the intervals are rescaled by the design
effect of the games' clustering (:func:`.stats.clustered_vars`, :func:`.stats.widen`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..enums import IK, N_KINDS
from .data import (
    ITEM_NAMES,
    item_set_index,
    kind_card_masks,
    labels,
    normalize,
    occupation_name,
    seat_frame,
    standard_runs,
)
from .stats import (
    LEVEL,
    cluster_sums,
    clustered_vars,
    diff_frame,
    grouped_rates,
    influence_cov,
    range_under_null,
    rate_frame,
    widen,
    z_value,
)


def _long(df: pd.DataFrame, seats: pd.DataFrame | None) -> pd.DataFrame:
    return seats if seats is not None else seat_frame(standard_runs(normalize(df)))


def _with_base(out: pd.DataFrame, seats: pd.DataFrame, by_players: bool) -> pd.DataFrame:
    """Add ``base`` (win rate of every seat at that player count) and ``excess = rate - base``."""
    if by_players:
        base = seats.groupby("players", observed=True)["win"].mean()
        out["base"] = out["players"].map(base).to_numpy(float)
    else:
        out["base"] = float(seats["win"].mean()) if len(seats) else np.nan
    out["excess"] = out["rate"] - out["base"]
    return out


def seat_rates(df: pd.DataFrame, seats: pd.DataFrame | None = None, level: float = LEVEL) -> pd.DataFrame:
    """Win rate by seat (0 = start player, then clockwise) per player count.

    Columns: players, seat, n, wins, rate, lo, hi, base (every seat's win rate at that
    count), excess (rate - base).
    """
    s = _long(df, seats)
    out = grouped_rates(s, ["players", "seat"], s["win"].to_numpy(), level)
    return _with_base(out, s, True)


def occupation_rates(df: pd.DataFrame, seats: pd.DataFrame | None = None, level: float = LEVEL,
                     by_players: bool = True) -> pd.DataFrame:
    """Win rate of the seats by starting occupation (per player count, or pooled).

    Columns: [players], occupation (display name), n, wins, rate, lo, hi, base, excess.
    Pooling over counts is fair: every occupation is dealt with the same chance at each count.
    """
    s = _long(df, seats)
    by = ["players", "occ"] if by_players else ["occ"]
    out = grouped_rates(s, by, s["win"].to_numpy(), level)
    out["occ"] = out["occ"].astype(str).map(occupation_name)
    out = out.rename(columns={"occ": "occupation"})
    return _with_base(out, s, by_players)


def _split_counts(group: np.ndarray, size: int, hit: np.ndarray, win: np.ndarray | None = None,
                  base: np.ndarray | None = None) -> np.ndarray:
    """int64 (size, 2, 2): rows per group code 0..size-1 x hit (0/1) x win (0/1), in one bincount.

    ``base = group * 4 + win`` may be passed precomputed when many ``hit`` masks share it.
    """
    if base is None:
        base = group * 4 + win
    return np.bincount(base + hit.view(np.int8) * 2, minlength=4 * size).reshape(size, 2, 2)


def _game_index(s: pd.DataFrame) -> tuple[np.ndarray, int]:
    """Each seat-game's game as 0..G-1 (``game_row`` of the long table) and G; a table
    without ``game_row`` counts each row as a game of its own."""
    game = s["game_row"].to_numpy(np.int64) if "game_row" in s else np.arange(len(s), dtype=np.int64)
    return game, (int(game.max()) + 1 if len(game) else 0)


def _cluster_widen(r: pd.DataFrame, cv: dict[str, np.ndarray], diff: bool = True) -> None:
    """Rescale the with/without rate intervals of a :func:`.stats.diff_frame` result ``r``
    (and, with ``diff``, its difference's) for the games' clustering (``cv``: its rows'
    :func:`.stats.clustered_vars`)."""
    for sfx, p, var in (("_with", cv["p1"], cv["var1"]), ("_without", cv["p2"], cv["var2"])):
        n = r[f"n{sfx}"].to_numpy(float)
        indep = np.divide(p * (1 - p), n, out=np.zeros_like(p), where=n > 0)
        r[f"lo{sfx}"], r[f"hi{sfx}"] = widen(r[f"rate{sfx}"], r[f"lo{sfx}"], r[f"hi{sfx}"], var, indep)
    if diff:
        n1, n0 = r["n_with"].to_numpy(float), r["n_without"].to_numpy(float)
        p1, p0 = cv["p1"], cv["p2"]
        with np.errstate(divide="ignore", invalid="ignore"):
            indep = p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0
        r["diff_lo"], r["diff_hi"] = widen(r["diff"], r["diff_lo"], r["diff_hi"], cv["var_d"], indep, (-1.0, 1.0))


def start_item_rates(df: pd.DataFrame, seats: pd.DataFrame | None = None, level: float = LEVEL,
                     by_players: bool = True) -> pd.DataFrame:
    """Win rate of seats that started with a card of each item kind, against those that did not.

    ``items_{p}`` is a bitmask over the 21 cards; a kind counts if any of its cards is in
    the starting hand. Columns: [players], item (display name), n/wins/rate/lo/hi ``_with``
    and ``_without``, diff (with - without), diff_lo, diff_hi, diff_se (its standard error,
    clustered by game). Kinds no seat started with
    (the unstamped items, R2.3) are left out.

    Pooled over player counts (``by_players=False``) the raw rates are shown as they are, but
    ``diff`` is stratified: the per-count differences averaged with the weights of the seats
    that started with the item (its effect on the seats that hold it), with a normal interval
    from the per-count variances. Every variance allows for the seats of one game (several
    can start with a Key; the seats without an item always share games with those with it):
    :func:`.stats.clustered_vars`. A naive pooled difference would mix in the player count:
    who holds a kind depends on the count (no Black Pearl at 3 players, where a seat wins
    most; one Secret Bag a game, so a larger share of the seats at small counts), which once
    turned the Casting Knives' -0.2 points into +0.4.
    """
    s = _long(df, seats)
    items = s["items"].to_numpy(np.int64)
    win = s["win"].to_numpy(bool)
    counts = np.unique(s["players"].to_numpy())
    group = np.searchsorted(counts, s["players"].to_numpy())
    game, n_games = _game_index(s)
    game_group = np.zeros(n_games, np.int64)
    game_group[game] = group
    all_n, all_w = cluster_sums(game, n_games, np.ones(len(s), bool), win)
    pooled = np.zeros(n_games, np.int64)
    masks = kind_card_masks()
    z = z_value(level)
    parts = []
    for k in range(N_KINDS):
        hit = (items & masks[k]) != 0
        n1, w1 = cluster_sums(game, n_games, hit, win)
        n0, w0 = all_n - n1, all_w - w1
        cv = clustered_vars(game_group, len(counts), n1, w1, n0, w0)
        N1, W1, N0, W0 = cv["N1"], cv["W1"], cv["N2"], cv["W2"]
        if by_players:
            with_k = pd.DataFrame({"n": N1.astype(np.int64), "wins": W1.astype(np.int64)})
            without = pd.DataFrame({"n": N0.astype(np.int64), "wins": W0.astype(np.int64)})
            r = diff_frame(with_k, without, level, ("_with", "_without"))
            _cluster_widen(r, cv)
            r["diff_se"] = np.sqrt(cv["var_d"])
            r.insert(0, "item", ITEM_NAMES[k])
            r.insert(0, "players", counts)
            parts.append(r[r["n_with"] > 0])
            continue
        ok = (N1 > 0) & (N0 > 0)
        if not ok.any():
            continue
        p1, p0 = cv["p1"][ok], cv["p2"][ok]
        wt = N1[ok] / N1[ok].sum()
        d = float((wt * (p1 - p0)).sum())
        h = z * float(np.sqrt((wt**2 * cv["var_d"][ok]).sum()))
        with_k = pd.DataFrame({"n": [int(N1.sum())], "wins": [int(W1.sum())]})
        without = pd.DataFrame({"n": [int(N0.sum())], "wins": [int(W0.sum())]})
        r = diff_frame(with_k, without, level, ("_with", "_without"))
        _cluster_widen(r, clustered_vars(pooled, 1, n1, w1, n0, w0), diff=False)
        r["diff"], r["diff_lo"], r["diff_hi"], r["diff_se"] = d, d - h, d + h, h / z
        r.insert(0, "item", ITEM_NAMES[k])
        parts.append(r)
    out = pd.concat(parts, ignore_index=True)
    if by_players:
        return out.sort_values(["players", "diff"], ascending=[True, False], ignore_index=True)
    return out.sort_values("diff", ascending=False, ignore_index=True)


def loge_holder_rates(df: pd.DataFrame, seats: pd.DataFrame | None = None,
                      level: float = LEVEL) -> pd.DataFrame:
    """Win rate of the seat that started with / ever held the Coat of Armor of the Loge.

    Only games whose item set has the Loge. Columns: players, holder (``started with
    it``, ``held it at some point``, ``never held it``, ``every seat``), n (seat-games),
    wins, rate, lo, hi, solo_wins (wins that were the holder's own solo victory), and on
    the ``held it at some point`` rows diff, diff_lo, diff_hi: its rate minus that of the
    seats that never held it, in the same games. Intervals allow for the seats of one game
    (several can have held the Loge; see the module doc). Groups with no seat-games are
    left out (the Loge is unstamped, so under R2.3 no seat starts with it).
    """
    s = _long(df, seats)
    index = item_set_index(labels(s["item_set"]))
    loge_sets = [x for x, kinds in index.items() if IK.LOGE in kinds]
    s = s[s["item_set"].isin(loge_sets).to_numpy()]
    win, solo = s["win"].to_numpy(bool), s["solo_win"].to_numpy(bool)
    start, ever = s["loge_start"].to_numpy(bool), s["loge_ever"].to_numpy(bool)
    players = s["players"].to_numpy()
    counts = np.unique(players)
    group = np.searchsorted(counts, players)
    game, n_games = _game_index(s)
    game_group = np.zeros(n_games, np.int64)
    game_group[game] = group
    parts = []
    for label, mask in (("started with it", start), ("held it at some point", ever),
                        ("never held it", ~ever), ("every seat", np.ones(len(s), bool))):
        n1, w1 = cluster_sums(game, n_games, mask, win)
        cv = clustered_vars(game_group, len(counts), n1, w1)
        n, w = cv["N1"].astype(np.int64), cv["W1"].astype(np.int64)
        so = _split_counts(group, len(counts), mask, solo)[:, 1, 1]
        r = rate_frame(w, n, level)
        p = cv["p1"]
        indep = np.divide(p * (1 - p), n, out=np.zeros_like(p), where=n > 0)
        r["lo"], r["hi"] = widen(r["rate"], r["lo"], r["hi"], cv["var1"], indep)
        r.insert(0, "holder", label)
        r.insert(0, "players", counts)
        r["solo_wins"] = so
        if label == "held it at some point":
            n0, w0 = cluster_sums(game, n_games, ~mask, win)
            dv = clustered_vars(game_group, len(counts), n1, w1, n0, w0)
            dd = diff_frame(pd.DataFrame({"n": n, "wins": w}),
                            pd.DataFrame({"n": dv["N2"].astype(np.int64), "wins": dv["W2"].astype(np.int64)}), level)
            p0, n0s = dv["p2"], dv["N2"]
            with np.errstate(divide="ignore", invalid="ignore"):
                indep = p * (1 - p) / n + p0 * (1 - p0) / n0s
            r["diff"] = dd["diff"].to_numpy()
            r["diff_lo"], r["diff_hi"] = widen(dd["diff"], dd["diff_lo"], dd["diff_hi"], dv["var_d"], indep,
                                               (-1.0, 1.0))
        parts.append(r[r["n"] > 0])
    cols = ["players", "holder", "n", "wins", "rate", "lo", "hi", "solo_wins", "diff", "diff_lo", "diff_hi"]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True).reindex(columns=cols).sort_values(
        "players", kind="stable", ignore_index=True)


def spreads(df: pd.DataFrame, seats: pd.DataFrame | None = None, level: float = LEVEL,
            rates: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Best minus worst seat (per player count) and occupation (pooled, and per count), with a
    standard error that allows for both being measured in the same games (seat 0 and seat 3
    of a game are teammates or opponents; :func:`.stats.clustered_vars`).

    Columns: what (``seat``/``occupation``), players (0 = pooled), best, worst (the seat
    index or occupation name), k (how many were compared), best_rate, worst_rate,
    diff, se, expected_gap (the mean best-minus-worst of the same k rates if they differed by
    chance alone, :func:`.stats.range_under_null` on their clustered covariance: the part of
    ``diff`` that picking the extremes makes with no real effect). The rates are those of :func:`seat_rates` / :func:`occupation_rates`; pass
    them as ``rates`` (seats, occupations pooled, occupations per count) if already built.
    """
    s = _long(df, seats)
    win = s["win"].to_numpy(bool)
    game, n_games = _game_index(s)
    one = np.zeros(n_games, np.int64)
    seat = s["seat"].to_numpy()
    occ = s["occ"].cat.codes.to_numpy()
    occ_names = [occupation_name(str(c)) for c in s["occ"].cat.categories]
    rows = []

    def add(what: str, players: int, sub: np.ndarray, rates: pd.DataFrame) -> None:
        f = rates[rates["n"] > 0]
        if len(f) < 2:
            return
        best, worst = f.loc[f["rate"].idxmax()], f.loc[f["rate"].idxmin()]
        if what == "seat":
            b_val, w_val = int(best["seat"]), int(worst["seat"])
            hb, hw = sub & (seat == b_val), sub & (seat == w_val)
            group, k, keep = np.where(sub, seat, -1), int(seat[sub].max()) + 1, f["seat"].astype(int).to_numpy()
        else:
            b_val, w_val = best["occupation"], worst["occupation"]
            hb, hw = sub & (occ == occ_names.index(b_val)), sub & (occ == occ_names.index(w_val))
            group, k = np.where(sub, occ, -1), len(occ_names)
            keep = np.array([occ_names.index(x) for x in f["occupation"]])
        cov = influence_cov(game, group, win, k)[np.ix_(keep, keep)]
        nb, wb = cluster_sums(game, n_games, hb, win)
        nw, ww = cluster_sums(game, n_games, hw, win)
        played = np.bincount(game, weights=sub, minlength=n_games) > 0
        cv = clustered_vars(one[played], 1, nb[played], wb[played], nw[played], ww[played])
        rows.append({"what": what, "players": players, "best": b_val, "worst": w_val, "k": len(f),
                     "best_rate": float(best["rate"]), "worst_rate": float(worst["rate"]),
                     "diff": float(cv["p1"][0] - cv["p2"][0]), "se": float(np.sqrt(cv["var_d"][0])),
                     "expected_gap": range_under_null(cov)})

    players = s["players"].to_numpy()
    sr, op, ob = rates if rates is not None else (seat_rates(df, s, level),
                                                  occupation_rates(df, s, level, by_players=False),
                                                  occupation_rates(df, s, level))
    for n in np.unique(players):
        add("seat", int(n), players == n, sr[sr["players"] == n])
    add("occupation", 0, np.ones(len(s), bool), op)
    if ob["players"].nunique() > 1:
        for n in np.unique(players):
            add("occupation", int(n), players == n, ob[ob["players"] == n])
    cols = ["what", "players", "best", "worst", "k", "best_rate", "worst_rate", "diff", "se", "expected_gap"]
    return pd.DataFrame(rows, columns=cols)
