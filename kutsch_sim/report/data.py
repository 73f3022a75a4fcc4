"""Loading a results store and shaping it for the report tables.

Everything here works on the per-game table of ``docs/results_schema.md`` (one row per
game) and is vectorised over rows: frames can hold millions of games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ..enums import CARD_KIND_LIST, IK, KIND_KEYS, MAX_PLAYERS, N_KINDS, WINNER_LABELS, Occupation

try:  # written concurrently; the fallbacks below follow the same data (data/items.csv)
    from ..cards import ITEM_KEYS, ITEM_NAMES, OCC_KEYS, OCC_NAMES, parse_item_set
except ImportError:  # pragma: no cover - only while kutsch_sim.cards is missing
    parse_item_set = None
    ITEM_KEYS = tuple("".join(w.capitalize() for w in f.split("_")) for f in KIND_KEYS)
    _NAMES = {"BAG_KEY": "Secret Bag (Key)", "BAG_GOBLET": "Secret Bag (Goblet)", "KNIVES": "Casting Knives",
              "RING": "Poison Ring", "PEARL": "Black Pearl", "MIRROR": "Broken Mirror",
              "LOGE": "Coat of Armor of the Loge"}
    ITEM_NAMES = tuple(_NAMES.get(f, f.capitalize()) for f in KIND_KEYS)
    OCC_KEYS = tuple("".join(w.capitalize() for w in f.split("_")) for f in Occupation._fields)
    OCC_NAMES = tuple(" ".join(w.capitalize() for w in f.split("_")) for f in Occupation._fields)

TEAMS = ("order", "brotherhood")  # team codes 0, 1 == the winner codes of the teams
OUTCOMES = tuple(WINNER_LABELS)  # order, brotherhood, solo, timeout, error
assert OUTCOMES[:2] == TEAMS
# RULES "Stamped items": the 5 unstamped kinds (used only if kutsch_sim.cards is missing)
_UNSTAMPED = frozenset({IK.TOME, IK.COAT, IK.SEXTANT, IK.MIRROR, IK.LOGE})
_CATEGORY_COLS = ("item_set", "variant", "bots", "winner", "decl_kind", "minority")


def load_results(path: str | Path) -> pd.DataFrame:
    """Read a results store (a directory of Parquet files, or one file) as one normalised table."""
    return normalize(pd.read_parquet(Path(path)))


def load_manifest(path: str | Path) -> dict | None:
    """The run manifest (``_manifest.json``, written by the runner, or ``manifest.json``) in the
    results directory, or ``None`` if absent."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    f = next((folder / name for name in ("_manifest.json", "manifest.json") if (folder / name).is_file()), None)
    if f is None:
        return None
    try:
        return json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _as_str_category(s: pd.Series) -> pd.Series:
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = s.cat.categories
        if all(isinstance(c, str) for c in cats):
            return s
        return s.cat.rename_categories([str(c) for c in cats])
    return s.astype(str).astype("category")


def normalize(df: pd.DataFrame) -> pd.DataFrame:
    """Coerce the columns the report reads to the schema's types (cheap if they already are).

    A partitioned Parquet store can hand back partition columns as categories of strings
    (``players='6'``, ``drink='True'``); this turns them back into int8 / bool.
    """
    out = df.copy(deep=False)
    if not pd.api.types.is_integer_dtype(out["players"].dtype):
        out["players"] = pd.to_numeric(out["players"].astype(str)).astype(np.int8)
    if out["drink"].dtype != bool:
        out["drink"] = out["drink"].astype(str).str.lower().isin(["true", "1", "yes"])
    for c in _CATEGORY_COLS:
        if c in out.columns:
            out[c] = _as_str_category(out[c])
    return out


def codes(s: pd.Series, categories: Sequence[str]) -> np.ndarray:
    """int16 (n,): position of each label of ``s`` in ``categories``, -1 for any other label.

    Fast on categorical columns (recodes the categories, not the rows).
    """
    if isinstance(s.dtype, pd.CategoricalDtype):
        return _as_str_category(s).cat.set_categories(list(categories)).cat.codes.to_numpy().astype(np.int16)
    rows, uniques = pd.factorize(s, use_na_sentinel=True)  # hash once, then map the few distinct labels
    lut = np.append(pd.Index(list(categories)).get_indexer([str(u) for u in uniques]), -1).astype(np.int16)
    return lut[rows]


def labels(s: pd.Series) -> list[str]:
    """The distinct labels occurring in ``s``, as strings, in order of appearance."""
    return [str(v) for v in pd.unique(s)]


def standard_variant(df: pd.DataFrame) -> str:
    """``base`` if any game used the base rules, else the most common variant."""
    if len(df) == 0 or (df["variant"] == "base").any():
        return "base"
    return str(df["variant"].value_counts().index[0])


def standard_runs(df: pd.DataFrame) -> pd.DataFrame:
    """The games played under the standard rules: the report's main subset.

    Keeps the ``base`` variant (or the most common variant if no game used ``base``) and,
    at odd player counts that have Drink-of-Power-on games, drops the ``drink == False``
    counterfactual runs (the drink switch does nothing at even counts).
    """
    if len(df) == 0:
        return df
    keep = (df["variant"] == standard_variant(df)).to_numpy().copy()
    players = df["players"].to_numpy()
    odd_n = players % 2 == 1
    drink = df["drink"].to_numpy(bool)
    with_on = np.unique(players[odd_n & drink])
    keep &= ~(odd_n & ~drink & np.isin(players, with_on))
    return df if keep.all() else df[keep]


def item_set_kinds(expr: str) -> frozenset[int] | None:
    """Item kinds in the item-set expression ``expr`` (``basic+Loge`` ...), ``None`` if unreadable."""
    if parse_item_set is not None:
        try:
            return parse_item_set(str(expr))
        except Exception:  # noqa: BLE001 - an unreadable label just isn't paired
            return None
    m = re.fullmatch(r"\s*(basic|full)((?:\s*[+-]\s*\w+)*)\s*", str(expr), flags=re.IGNORECASE)
    if m is None:
        return None
    kinds = set(range(N_KINDS)) if m.group(1).lower() == "full" else set(range(N_KINDS)) - _UNSTAMPED
    lookup = {k.lower(): i for i, k in enumerate(ITEM_KEYS)}
    for sign, name in re.findall(r"([+-])\s*(\w+)", m.group(2)):
        if name.lower() not in lookup:
            return None
        (kinds.add if sign == "+" else kinds.discard)(lookup[name.lower()])
    return frozenset(kinds)


def item_set_index(names: list[str] | pd.Index) -> dict[str, frozenset[int]]:
    """Map each readable item-set label to its set of kinds."""
    out = {}
    for name in names:
        kinds = item_set_kinds(name)
        if kinds is not None:
            out[str(name)] = kinds
    return out


def basic_kinds() -> frozenset[int]:
    """The kinds of the ``basic`` item set."""
    kinds = item_set_kinds("basic")
    assert kinds is not None
    return kinds


def kind_card_masks() -> np.ndarray:
    """int64 (N_KINDS,): bitmask over the 21 cards of each item kind (``items_{p}`` bits)."""
    masks = np.zeros(N_KINDS, dtype=np.int64)
    for c, k in enumerate(CARD_KIND_LIST):
        masks[k] |= 1 << c
    return masks


def occupation_name(key: str) -> str:
    """Display name of an occupation key (``PoisonMixer`` -> ``Poison Mixer``)."""
    return dict(zip(OCC_KEYS, OCC_NAMES, strict=True)).get(key, key)


def _seat_codes(df: pd.DataFrame, prefix: str, categories: list[str]) -> np.ndarray:
    """int16 (n_games, MAX_PLAYERS): codes of ``{prefix}_{p}`` in ``categories`` (-1 elsewhere)."""
    return np.column_stack([codes(df[f"{prefix}_{p}"], categories) for p in range(MAX_PLAYERS)])


def _seat_categories(df: pd.DataFrame, prefix: str, order: tuple[str, ...]) -> list[str]:
    """Labels seen in the ``{prefix}_{p}`` columns, known ones in ``order`` first, ``none`` dropped."""
    seen: set[str] = set()
    for p in range(MAX_PLAYERS):
        s = df[f"{prefix}_{p}"]
        vals = s.cat.categories if isinstance(s.dtype, pd.CategoricalDtype) else pd.unique(s)
        seen.update(str(v) for v in vals)
    seen.discard("none")
    return [k for k in order if k in seen] + sorted(seen - set(order))


def seat_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Long table: one row per (game, seat) for the seats in play, built without row loops.

    Columns: ``game_row`` (int32 position in ``df``), ``players`` (int8), ``item_set``
    (category), ``seat`` (int8, 0 = start player), ``team`` / ``occ`` / ``bot`` (category),
    ``items`` (int32 card bitmask), ``win`` (the seat won: its team won, or it is the solo
    winner), ``solo_win``, ``minority`` (its team is the minority at odd N),
    ``loge_start`` (it started with the Loge), ``loge_ever`` (it held the Loge at some point).
    Memory is about 20 bytes per seat-game.
    """
    players = df["players"].to_numpy(np.int8)
    n = len(df)
    present = np.arange(MAX_PLAYERS, dtype=np.int8)[None, :] < players[:, None]  # (n, P)

    def per_seat(a: np.ndarray) -> np.ndarray:  # (n, P) -> seat rows, game-major order
        return a[present]

    def per_game(a: np.ndarray) -> np.ndarray:  # (n,) -> seat rows: the game's value for each seat
        return np.repeat(a, players)

    seat = per_seat(np.broadcast_to(np.arange(MAX_PLAYERS, dtype=np.int8), (n, MAX_PLAYERS)))
    team = per_seat(_seat_codes(df, "team", list(TEAMS)))
    winner = per_game(codes(df["winner"], OUTCOMES))
    solo_win = (winner == OUTCOMES.index("solo")) & (per_game(df["solo_seat"].to_numpy(np.int8)) == seat)
    item_set = _as_str_category(df["item_set"])
    out = {
        "game_row": per_game(np.arange(n, dtype=np.int32)),
        "players": per_game(players),
        "item_set": pd.Categorical.from_codes(per_game(item_set.cat.codes.to_numpy()),
                                              categories=item_set.cat.categories),
        "seat": seat,
        "team": pd.Categorical.from_codes(team, categories=list(TEAMS)),
    }
    for prefix, order in (("occ", OCC_KEYS), ("bot", ())):
        cats = _seat_categories(df, prefix, order)
        out[prefix] = pd.Categorical.from_codes(per_seat(_seat_codes(df, prefix, cats)), categories=cats)
    out["items"] = per_seat(np.column_stack([df[f"items_{p}"].to_numpy(np.int32) for p in range(MAX_PLAYERS)]))
    out["win"] = ((team >= 0) & (team == winner)) | solo_win
    out["solo_win"] = solo_win
    out["minority"] = (team >= 0) & (team == per_game(codes(df["minority"], TEAMS)))
    out["loge_start"] = per_game(df["loge_start"].to_numpy(np.int8)) == seat
    out["loge_ever"] = (per_game(df["loge_ever"].to_numpy(np.int32)) >> seat) & 1 == 1
    return pd.DataFrame(out)


def odd(players: pd.Series | np.ndarray) -> np.ndarray:
    """bool array: the player count is odd (Drink of Power games)."""
    return np.asarray(players) % 2 == 1
