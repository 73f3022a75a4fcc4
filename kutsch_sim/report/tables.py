"""Game-level report tables: DataFrame (one row per game) -> DataFrame.

Rates come with ``n, wins, rate, lo, hi`` (``wins`` = games where the event happened,
``lo``/``hi`` the 95% Wilson interval); comparisons add ``diff, diff_lo, diff_hi``
(Newcombe). Unless a docstring says otherwise a table uses :func:`standard_runs`: the
base rules with the Drink of Power on. Per-seat tables live in :mod:`.seats`.
Rows labelled ``item_set == "all"`` pool every item set of that player count.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..enums import DECL_LABELS, IK
from . import seats as st
from .data import (
    ITEM_NAMES,
    OUTCOMES,
    TEAMS,
    basic_kinds,
    codes,
    item_set_index,
    labels,
    normalize,
    odd,
    seat_frame,
    standard_runs,
    standard_variant,
)
from .stats import LEVEL, diff_frame, grouped_rates, newcombe_paired, paired_counts

KEYS = ["players", "item_set"]
RATE_COLS = ["n", "wins", "rate", "lo", "hi"]
COMPARE_OUTCOMES = ("team", "order", "brotherhood", "solo", "timeout")
ORDER, BROTHERHOOD, SOLO, TIMEOUT, ERROR = range(5)  # codes of OUTCOMES
DECL_KINDS = tuple(DECL_LABELS)  # team, drink, loge, fortune
# the twins' 2 x 2 counts of a paired comparison: success both ways, only the first, only the second, neither
PAIR_COLS = {"drink": ("both_ways", "only_on", "only_off", "neither_way"),
             "variant": ("both_ways", "only_variant", "only_base", "neither_way")}


def _rates(frame: pd.DataFrame, by: list[str], success: np.ndarray, pool: str | None = "item_set",
           level: float = LEVEL) -> pd.DataFrame:
    """:func:`grouped_rates` with item-set labels as plain strings."""
    out = grouped_rates(frame, by, success, level, pool=pool)
    if "item_set" in out:
        out["item_set"] = out["item_set"].astype(str)
    return out


def _winner(frame: pd.DataFrame) -> np.ndarray:
    """int16 winner codes: index in OUTCOMES (order 0, brotherhood 1, solo 2, timeout 3, error 4)."""
    return codes(frame["winner"], OUTCOMES)


def _minority(frame: pd.DataFrame) -> np.ndarray:
    """int16 minority team codes (same numbering as the winner's teams), -1 at even N."""
    return codes(frame["minority"], TEAMS)


def _is_team(w: np.ndarray) -> np.ndarray:
    return (w == ORDER) | (w == BROTHERHOOD)


def outcome_rates(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Share of games won by each side per player count x item set.

    Columns: players, item_set, outcome (``order``, ``brotherhood``, ``solo`` = Loge,
    ``timeout``; ``error`` only if some game broke an invariant), n, wins, rate, lo, hi.
    """
    std = standard_runs(normalize(df))
    w = _winner(std)
    outcomes = ["order", "brotherhood", "solo", "timeout"] + (["error"] if (w == ERROR).any() else [])
    parts = []
    for o in outcomes:
        r = _rates(std, KEYS, w == OUTCOMES.index(o), pool=None, level=level)
        r.insert(2, "outcome", o)
        parts.append(r)
    return pd.concat(parts, ignore_index=True).sort_values(KEYS + ["outcome"], kind="stable",
                                                             ignore_index=True)


def order_share(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """The Order's share of the games won by a team (the balance between the teams; 50% = even).

    Columns: players, item_set, n (games won by either team), wins (by the Order), rate, lo, hi.
    """
    std = standard_runs(normalize(df))
    w = _winner(std)
    team = _is_team(w)
    return _rates(std.loc[team, KEYS], KEYS, w[team] == ORDER, pool=None, level=level)


def minority_rates(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Win rates of the minority ((N-1)/2 members) and majority team at odd counts, Drink on.

    Columns: players, item_set (``all`` = pooled), team (``minority``/``majority``), n, wins,
    rate, lo, hi. Each rate is over all games (solo wins and timeouts count for neither).
    """
    std = standard_runs(normalize(df))
    std = std.loc[odd(std["players"]) & std["drink"].to_numpy(bool), KEYS + ["winner", "minority"]]
    w, m = _winner(std), _minority(std)
    parts = []
    for team, won in (("minority", (m >= 0) & (w == m)), ("majority", _is_team(w) & (m >= 0) & (w != m))):
        r = _rates(std, KEYS, won, level=level)
        r.insert(2, "team", team)
        parts.append(r)
    return pd.concat(parts, ignore_index=True).sort_values(KEYS + ["team"], ignore_index=True)


def _deal_cols(frame: pd.DataFrame) -> list[str]:
    """The per-seat columns that make a game's deal: ``team_p``, ``occ_p``, ``items_p``."""
    return [c for c in frame.columns if c.split("_")[0] in ("team", "occ", "items") and c.split("_")[-1].isdigit()]


def deal_key(frame: pd.DataFrame) -> np.ndarray:
    """uint64 hash of each game's deal (:func:`_deal_cols`)."""
    return pd.util.hash_pandas_object(frame[_deal_cols(frame)].astype(str), index=False).to_numpy()


def drink_effect(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Drink of Power on minus off (``--no-drink`` runs) at odd counts, per team.

    Only player count x item set cells that have games both ways; ``all`` pools those.
    Columns: players, item_set, team, n_on, wins_on, rate_on, lo_on, hi_on, n_off, ...,
    diff (on - off), diff_lo, diff_hi, paired, both_ways, only_on, only_off, neither_way.
    ``paired``: every game on has its twin off (same seed, game index and deal:
    api.GameConfig.config_id leaves the switch out), and the difference is the mean over those
    pairs with Newcombe's paired interval (:func:`.stats.newcombe_paired`) from the twins'
    2 x 2 counts (won both ways, only with the Drink, only without, neither; NaN when not
    paired); otherwise Newcombe's interval for independent samples. Empty (with these
    columns) if there are no off runs.
    """
    d = normalize(df)
    d = d.loc[(d["variant"] == standard_variant(d)).to_numpy() & odd(d["players"]),
              KEYS + ["seed", "game", "drink", "winner", "minority"] + _deal_cols(d)]
    g = d.groupby(KEYS, observed=True, sort=True)
    both_ways = g["drink"].nunique().to_numpy() == 2  # per cell, in ngroup order
    d = d[both_ways[g.ngroup().to_numpy()]] if len(d) else d
    cols = KEYS + ["team"] + [f"{c}_{s}" for s in ("on", "off") for c in RATE_COLS] + [
        "diff", "diff_lo", "diff_hi", "paired"] + list(PAIR_COLS["drink"])
    if len(d) == 0:
        return pd.DataFrame(columns=cols)
    w, m = _winner(d), _minority(d)
    on = d["drink"].to_numpy(bool)
    # twins: the same (players, item set, seed, game) and deal both ways
    key = pd.DataFrame({"players": d["players"].to_numpy(), "item_set": d["item_set"].astype(str).to_numpy(),
                        "seed": d["seed"].to_numpy(), "game": d["game"].to_numpy(), "deal": deal_key(d),
                        "row": np.arange(len(d))})
    twins = key[on].merge(key[~on], on=["players", "item_set", "seed", "game", "deal"], suffixes=("_on", "_off"))
    parts = []
    for team, won in (("minority", (m >= 0) & (w == m)), ("majority", _is_team(w) & (m >= 0) & (w != m))):
        a = _rates(d.loc[on, KEYS], KEYS, won[on], level=level)
        b = _rates(d.loc[~on, KEYS], KEYS, won[~on], level=level)
        b = a[KEYS].merge(b, on=KEYS, how="left").fillna({"n": 0, "wins": 0})
        r = pd.concat([a[KEYS], diff_frame(a, b, level, ("_on", "_off"))], axis=1)
        r["paired"] = False
        for c in PAIR_COLS["drink"]:
            r[c] = np.nan
        for i, row in r.iterrows():
            sel = twins["players"] == row["players"]
            if row["item_set"] != "all":
                sel &= twins["item_set"] == row["item_set"]
            pairs = twins[sel]
            if len(pairs) and len(pairs) == row["n_on"] == row["n_off"]:
                counts = paired_counts(won[pairs["row_on"].to_numpy()], won[pairs["row_off"].to_numpy()])
                r.loc[i, list(PAIR_COLS["drink"])] = counts
                r.loc[i, ["diff", "diff_lo", "diff_hi"]] = newcombe_paired(*counts, level)
                r.loc[i, "paired"] = True
        r.insert(2, "team", team)
        parts.append(r)
    return pd.concat(parts, ignore_index=True)[cols].sort_values(KEYS + ["team"], ignore_index=True)


def drink_usage(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """How often the Drink of Power was part of a declaration, at odd counts with the Drink on.

    Columns: players, item_set, measure, n, wins, rate, lo, hi, where measure is
    ``team wins with the Drink`` (n: games won by a successful team declaration),
    ``minority wins with the Drink`` (n: games the minority won) or
    ``Drink declarations that failed`` (n: declarations that used the Drink).
    """
    std = standard_runs(normalize(df))
    std = std.loc[odd(std["players"]) & std["drink"].to_numpy(bool),
                  KEYS + ["winner", "minority", "decl_ok", "drink_used", "decl_kind"]]
    w, m = _winner(std), _minority(std)
    ok, used = std["decl_ok"].to_numpy(bool), std["drink_used"].to_numpy(bool)
    kind = codes(std["decl_kind"], DECL_KINDS)
    team_win = ok & _is_team(w) & (kind >= 0) & (kind <= 1)
    parts = []
    for label, base, hit in (("team wins with the Drink", team_win, used),
                             ("minority wins with the Drink", (m >= 0) & (w == m), used & ok),
                             ("Drink declarations that failed", used, ~ok)):
        r = _rates(std.loc[base, KEYS], KEYS, hit[base], level=level)
        r.insert(2, "measure", label)
        parts.append(r)
    return pd.concat(parts, ignore_index=True)


def _loge_sets(labels: list[str]) -> list[str]:
    index = item_set_index(labels)
    return [s for s in labels if s in index and IK.LOGE in index[s]]


def solo_rates(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Loge solo-win rate per player count for the item sets with the Loge in the deck.

    Columns: players, item_set, n, wins (solo wins), rate, lo, hi.
    """
    std = standard_runs(normalize(df))
    std = std.loc[std["item_set"].isin(_loge_sets(labels(std["item_set"]))).to_numpy(), KEYS + ["winner"]]
    return _rates(std, KEYS, _winner(std) == SOLO, pool=None, level=level)


def _cell_counts(std: pd.DataFrame) -> pd.DataFrame:
    """Per (players, item_set): n and the count of every outcome in COMPARE_OUTCOMES."""
    w = _winner(std)
    tmp = std[KEYS].copy()
    for o in COMPARE_OUTCOMES:
        tmp[o] = _is_team(w) if o == "team" else w == OUTCOMES.index(o)
    g = tmp.groupby(KEYS, observed=True)
    out = g[list(COMPARE_OUTCOMES)].sum()
    out["n"] = g.size()
    out = out.reset_index()
    out["item_set"] = out["item_set"].astype(str)
    return out


def _compare(std: pd.DataFrame, pairs: list[tuple[str, str]], names: tuple[str, str],
             level: float) -> pd.DataFrame:
    """Outcome rates of item set ``b`` minus ``a`` for each pair, per player count."""
    cells = _cell_counts(std)
    parts = []
    for a, b in pairs:
        ca = cells[cells["item_set"] == a].drop(columns="item_set")
        cb = cells[cells["item_set"] == b].drop(columns="item_set")
        both = ca.merge(cb, on="players", suffixes=("_a", "_b"))
        for o in COMPARE_OUTCOMES:
            ra = pd.DataFrame({"n": both["n_a"], "wins": both[f"{o}_a"]})
            rb = pd.DataFrame({"n": both["n_b"], "wins": both[f"{o}_b"]})
            r = diff_frame(rb, ra, level, (f"_{names[1]}", f"_{names[0]}"))
            r.insert(0, "players", both["players"].to_numpy())
            r.insert(1, f"set_{names[0]}", a)
            r.insert(2, f"set_{names[1]}", b)
            r.insert(3, "outcome", o)
            parts.append(r)
    if not parts:
        return pd.DataFrame(columns=["players", f"set_{names[0]}", f"set_{names[1]}", "outcome", "diff",
                                     "diff_lo", "diff_hi"])
    return pd.concat(parts, ignore_index=True).sort_values(
        ["players", f"set_{names[1]}", "outcome"], ignore_index=True)


def loge_team_effect(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Outcome rates with the Loge in the deck minus without (``basic`` vs ``basic+Loge``, ...).

    Pairs every item set holding the Loge with the same set minus the Loge, if present.
    Columns: players, set_without, set_with (item-set labels), outcome (``team`` = either team won, ``order``,
    ``brotherhood``, ``solo``, ``timeout``), n/wins/rate/lo/hi ``_with`` and ``_without``,
    diff (with - without), diff_lo, diff_hi.
    """
    std = standard_runs(normalize(df))
    index = item_set_index(labels(std["item_set"]))
    by_kinds = {kinds: label for label, kinds in index.items()}
    pairs = [(by_kinds[k - {IK.LOGE}], s) for s, k in index.items()
             if IK.LOGE in k and (k - {IK.LOGE}) in by_kinds]
    return _compare(std, sorted(pairs), ("without", "with"), level)


def added_item_effect(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Each unstamped item added to ``basic`` alone: outcome rates with it minus ``basic``.

    Columns: players, item (display name), set_basic, set_with (item-set labels), outcome,
    n/wins/rate/lo/hi ``_with`` and ``_basic``, diff (with - basic), diff_lo, diff_hi.
    """
    std = standard_runs(normalize(df))
    index = item_set_index(labels(std["item_set"]))
    base = basic_kinds()
    basic = [s for s, k in index.items() if k == base]
    pairs = [(basic[0], s) for s, k in index.items() if basic and len(k - base) == 1 and base < k]
    out = _compare(std, sorted(pairs), ("basic", "with"), level)
    added = {s: ITEM_NAMES[next(iter(index[s] - base))] for _, s in pairs}
    out.insert(1, "item", out["set_with"].map(added) if len(out) else pd.Series(dtype=str))
    return out


def game_lengths(df: pd.DataFrame, by: tuple[str, ...] = ("players",)) -> pd.DataFrame:
    """Distribution of game length (turns; one player's turn = 1) per group.

    Columns: players, n, mean, std, min, q05, q25, median, q75, q95, max, timeout_share.
    Timed-out games count with the turn cap as their length.
    """
    std = standard_runs(normalize(df))
    keys = list(by)
    tmp = std[keys + ["turns"]].copy()
    tmp["timeout"] = _winner(std) == TIMEOUT
    g = tmp.groupby(keys, observed=True)
    out = g["turns"].agg(n="size", mean="mean", std="std", min="min")
    q = g["turns"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
    q.columns = ["q05", "q25", "median", "q75", "q95"]
    out = out.join(q)
    out["max"] = g["turns"].max()
    out["timeout_share"] = g["timeout"].mean()
    return out.reset_index()


def wrong_decl_rates(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Failed declarations (the other team wins) per player count.

    Columns: players, per (``game``: n = all games; ``declaration``: n = games with a
    declaration), n, wins (failed declarations), rate, lo, hi.
    """
    std = standard_runs(normalize(df))
    wrong = std["wrong_decl"].to_numpy(bool)
    declared = std["declarer"].to_numpy() >= 0
    a = _rates(std, ["players"], wrong, pool=None, level=level)
    b = _rates(std.loc[declared, ["players"]], ["players"], wrong[declared], pool=None, level=level)
    a.insert(1, "per", "game")
    b.insert(1, "per", "declaration")
    return pd.concat([a, b], ignore_index=True).sort_values(["players", "per"], ignore_index=True)


DECLARATION_LABELS = {"team": "team, 3 victory items", "drink": "team, with the Drink of Power",
                      "loge": "Loge solo", "fortune": "fortune-telling (R10 variant)",
                      "failed": "failed (other team wins)",
                      "none": "no declaration (turn cap)", "error": "engine error"}


def declaration_kinds(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """How games ended, per player count: by which kind of successful declaration, a failed one, or none.

    Columns: players, how (a value of DECLARATION_LABELS), n (games), wins (games ending so),
    rate, lo, hi.
    """
    std = standard_runs(normalize(df))
    kind = np.asarray(DECL_KINDS + ("none",), dtype=object)[codes(std["decl_kind"], DECL_KINDS)]
    ok = std["decl_ok"].to_numpy(bool)
    declared = std["declarer"].to_numpy() >= 0
    w = _winner(std)
    how = np.where(w == ERROR, "error", np.where(~declared, "none", np.where(ok, kind, "failed")))
    parts = []
    odd_n = odd(std["players"])
    for key, label in DECLARATION_LABELS.items():
        hit = how == key
        if key in ("error", "drink", "fortune") and not hit.any():
            continue
        rows = odd_n if key == "drink" else np.ones(len(std), bool)  # no Drink of Power at even N (R7)
        r = _rates(std.loc[rows, ["players"]], ["players"], hit[rows], pool=None, level=level)
        r.insert(1, "how", label)
        parts.append(r)
    return pd.concat(parts, ignore_index=True).sort_values(["players"], kind="stable", ignore_index=True)


VARIANT_COLUMNS = ["players", "item_set", "variant", "outcome", "diff", "diff_lo", "diff_hi"]


def variant_effect(df: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Each rule variant (R10) against the base game at the same player count and item set.

    Not the standard runs: every variant's games, and the base games, with the Drink of
    Power on (or at even N). Columns: players, item_set, variant, outcome (``team`` = either
    team won, ``order``, ``brotherhood``, ``solo``, ``timeout``, and at odd N ``minority`` =
    the smaller team won), n/wins/rate/lo/hi ``_variant`` and ``_base``, diff (variant - base),
    diff_lo, diff_hi, paired (True: every variant game has its base twin, the same deal, and the
    difference and interval are those of the pairs, :func:`.stats.newcombe_paired`; else
    Newcombe's), both_ways, only_variant, only_base, neither_way (the twins' 2 x 2 counts; NaN
    when not paired).
    """
    d = normalize(df)
    on = d.loc[d["drink"].to_numpy(bool) | ~odd(d["players"])]
    tag = on["item_set"].astype(str) + "|" + on["variant"].astype(str)
    frame = on.assign(item_set=tag.to_numpy())
    present = set(labels(frame["item_set"]))
    pairs = sorted((f"{t.split('|')[0]}|base", t) for t in present
                   if not t.endswith("|base") and f"{t.split('|')[0]}|base" in present)
    if not pairs:
        return pd.DataFrame(columns=VARIANT_COLUMNS)
    out = _compare(frame, pairs, ("base", "variant"), level)
    odd_rows = frame.loc[odd(frame["players"])]
    if len(odd_rows):  # the smaller team's wins, counted as "order" wins of a relabelled frame
        m = _minority(odd_rows)
        won = (m >= 0) & (_winner(odd_rows) == m)
        fake = odd_rows.assign(winner=pd.Categorical(np.where(won, "order", "brotherhood"), categories=OUTCOMES))
        mo = _compare(fake, pairs, ("base", "variant"), level)
        out = pd.concat([out, mo[mo["outcome"] == "order"].assign(outcome="minority")], ignore_index=True)
    out.insert(1, "item_set", out["set_base"].str.split("|").str[0])
    out.insert(2, "variant", out["set_variant"].str.split("|").str[1])
    out = out.drop(columns=["set_base", "set_variant"])
    out["paired"] = False
    for c in PAIR_COLS["variant"]:
        out[c] = np.nan
    # game by game where every variant game has its base twin (same seed, game and deal;
    # api.GameConfig.config_id leaves the variant out): Newcombe's paired interval
    w, m = _winner(frame), _minority(frame)
    hits = {"team": _is_team(w), "order": w == ORDER, "brotherhood": w == BROTHERHOOD, "solo": w == SOLO,
            "timeout": w == TIMEOUT, "minority": (m >= 0) & (w == m)}
    key = pd.DataFrame({"players": frame["players"].to_numpy(), "tag": frame["item_set"].astype(str).to_numpy(),
                        "seed": frame["seed"].to_numpy(), "game": frame["game"].to_numpy(),
                        "deal": deal_key(frame), "row": np.arange(len(frame))})
    for (players, item_set, variant), idx in out.groupby(["players", "item_set", "variant"]).groups.items():
        a = key[(key["players"] == players) & (key["tag"] == f"{item_set}|{variant}")]
        b = key[(key["players"] == players) & (key["tag"] == f"{item_set}|base")]
        twins = a.merge(b, on=["players", "seed", "game", "deal"], suffixes=("_v", "_b"))
        if len(twins) == 0 or not len(twins) == len(a) == len(b):
            continue
        for i in idx:
            hit = hits[out.at[i, "outcome"]]
            counts = paired_counts(hit[twins["row_v"].to_numpy()], hit[twins["row_b"].to_numpy()])
            out.loc[i, list(PAIR_COLS["variant"])] = counts
            out.loc[i, ["diff", "diff_lo", "diff_hi"]] = newcombe_paired(*counts, level)
            out.at[i, "paired"] = True
    return out.sort_values(["variant", "players", "item_set", "outcome"], ignore_index=True)


TABLE_NAMES = ("outcomes", "order_share", "minority", "drink_effect", "drink_usage", "solo", "loge_team",
               "loge_holder", "seats", "occupations", "occupations_by_players", "start_items",
               "start_items_by_players", "spreads", "added_items", "lengths", "wrong_decl", "declarations", "variants")


def build_tables(df: pd.DataFrame, level: float = LEVEL) -> dict[str, pd.DataFrame]:
    """Every report table, keyed by its CSV name (TABLE_NAMES; the seat-level table is built once).

    With no games every table is an empty DataFrame without columns.
    """
    d = normalize(df)
    std = standard_runs(d)  # the functions below find nothing more to drop: no copies
    if len(std) == 0:
        return {name: pd.DataFrame() for name in TABLE_NAMES}
    long = seat_frame(std)
    seats = st.seat_rates(std, long, level)
    occs = st.occupation_rates(std, long, level, by_players=False)
    occs_n = st.occupation_rates(std, long, level)
    return {
        "outcomes": outcome_rates(std, level),
        "order_share": order_share(std, level),
        "minority": minority_rates(std, level),
        "drink_effect": drink_effect(d, level),
        "drink_usage": drink_usage(std, level),
        "solo": solo_rates(std, level),
        "loge_team": loge_team_effect(std, level),
        "loge_holder": st.loge_holder_rates(std, long, level),
        "seats": seats,
        "occupations": occs,
        "occupations_by_players": occs_n,
        "start_items": st.start_item_rates(std, long, level, by_players=False),
        "start_items_by_players": st.start_item_rates(std, long, level),
        "spreads": st.spreads(std, long, level, rates=(seats, occs, occs_n)),
        "added_items": added_item_effect(std, level),
        "lengths": game_lengths(std),
        "wrong_decl": wrong_decl_rates(std, level),
        "declarations": declaration_kinds(std, level),
        "variants": variant_effect(d, level),
    }
