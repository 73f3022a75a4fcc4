"""Per-seat report tables, from the long (game, seat) table of :func:`.data.seat_frame`.

A seat wins when its team wins, or when it is the Loge solo winner. Every function takes
the per-game frame ``df`` and, optionally, its ``seats`` long table already built from
``standard_runs(df)`` (pass it to avoid rebuilding it for every table).

Seat-games of one game are not independent (teammates win together); the Wilson
intervals treat them as independent, which is exact for groups that hold at most one seat
a game (a seat index, an occupation, the Loge's first holder) and approximate otherwise.
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
from .stats import LEVEL, diff_frame, grouped_rates, rate_frame, z_value


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


def start_item_rates(df: pd.DataFrame, seats: pd.DataFrame | None = None, level: float = LEVEL,
                     by_players: bool = True) -> pd.DataFrame:
    """Win rate of seats that started with a card of each item kind, against those that did not.

    ``items_{p}`` is a bitmask over the 21 cards; a kind counts if any of its cards is in
    the starting hand. Columns: [players], item (display name), n/wins/rate/lo/hi ``_with``
    and ``_without``, diff (with - without), diff_lo, diff_hi. Kinds no seat started with
    (the unstamped items, R2.3) are left out.

    Pooled over player counts (``by_players=False``) the raw rates are shown as they are, but
    ``diff`` is stratified: the per-count differences averaged with the weights of the seats
    that started with the item (its effect on the seats that hold it), with a normal interval
    from the per-count variances. A naive pooled difference would mix in the player count:
    who holds a kind depends on the count (no Black Pearl at 3 players, where a seat wins
    most; one Secret Bag a game, so a larger share of the seats at small counts), which once
    turned the Casting Knives' -0.2 points into +0.4.
    """
    s = _long(df, seats)
    items = s["items"].to_numpy(np.int64)
    win = s["win"].to_numpy(bool)
    counts = np.unique(s["players"].to_numpy())
    group = np.searchsorted(counts, s["players"].to_numpy())
    masks = kind_card_masks()
    base = group * 4 + win
    z = z_value(level)
    parts = []
    for k in range(N_KINDS):
        c = _split_counts(group, len(counts), (items & masks[k]) != 0, base=base)
        if by_players:
            with_k = pd.DataFrame({"n": c[:, 1].sum(axis=1), "wins": c[:, 1, 1]})
            without = pd.DataFrame({"n": c[:, 0].sum(axis=1), "wins": c[:, 0, 1]})
            r = diff_frame(with_k, without, level, ("_with", "_without"))
            r.insert(0, "item", ITEM_NAMES[k])
            r.insert(0, "players", counts)
            parts.append(r[r["n_with"] > 0])
            continue
        n1, w1 = c[:, 1].sum(axis=1).astype(float), c[:, 1, 1].astype(float)
        n0, w0 = c[:, 0].sum(axis=1).astype(float), c[:, 0, 1].astype(float)
        ok = (n1 > 0) & (n0 > 0)
        if not ok.any():
            continue
        p1, p0 = w1[ok] / n1[ok], w0[ok] / n0[ok]
        wt = n1[ok] / n1[ok].sum()
        d = float((wt * (p1 - p0)).sum())
        h = z * float(np.sqrt((wt**2 * (p1 * (1 - p1) / n1[ok] + p0 * (1 - p0) / n0[ok])).sum()))
        with_k = pd.DataFrame({"n": [int(n1.sum())], "wins": [int(w1.sum())]})
        without = pd.DataFrame({"n": [int(n0.sum())], "wins": [int(w0.sum())]})
        r = diff_frame(with_k, without, level, ("_with", "_without"))
        r["diff"], r["diff_lo"], r["diff_hi"] = d, d - h, d + h
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
    wins, rate, lo, hi, solo_wins (wins that were the holder's own solo victory).
    Groups with no seat-games are left out (the Loge is unstamped, so under R2.3 no seat
    starts with it).
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
    parts = []
    for label, mask in (("started with it", start), ("held it at some point", ever),
                        ("never held it", ~ever), ("every seat", np.ones(len(s), bool))):
        c = _split_counts(group, len(counts), mask, win)
        n, w = c[:, 1].sum(axis=1), c[:, 1, 1]
        so = _split_counts(group, len(counts), mask, solo)[:, 1, 1]
        r = rate_frame(w, n, level)
        r.insert(0, "holder", label)
        r.insert(0, "players", counts)
        r["solo_wins"] = so
        parts.append(r[r["n"] > 0])
    cols = ["players", "holder", "n", "wins", "rate", "lo", "hi", "solo_wins"]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True)[cols].sort_values("players", kind="stable", ignore_index=True)
