"""Item and occupation tables (``data/*.csv``), checked against :mod:`kutsch_sim.enums`, and item sets.

Pure Python + numpy (no numba): the engine gets plain arrays from here (the card mask of
:func:`cards_in_game`), never this module.

The tables are data so that a user with the printed cards can correct them (RULES
"Stamped items"), but the engine hard-codes the card numbering and the trade effects, so
:func:`load_tables` refuses a table that disagrees with ``enums.py``.

Item-set expressions (R2.3 item-set variant)::

    expr := base { ("+" | "-") name }      base := "basic" | "full"

``basic`` is the stamped items, ``full`` every kind; names are the ``key`` column of
``items.csv`` (case-insensitive) or an alias (``Armor`` = Loge, ``BlackPearl`` = Pearl, ...).
Keys, Goblets and both Secret Bags are always dealt (R2.3) and cannot be removed.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .enums import CARD_KIND_LIST, IK, KIND_KEYS, MAX_PLAYERS, MIN_PLAYERS, N_CARDS, N_KINDS, Occupation
from .errors import KutschError

_PKG = Path(__file__).resolve().parent
# Searched in order: inside the package (a wheel ships the CSVs there; in the repo it is a
# symlink to ../data), then the repository's top-level data/ (editable install).
DATA_DIRS: tuple[Path, ...] = (_PKG / "_data", _PKG.parent / "data")

ITEM_COLUMNS = ("key", "name", "count", "stamped", "trade_effect", "min_players", "max_players")
OCC_COLUMNS = ("key", "name", "once")

# The trade effects the engine implements (R9); items.csv must flag exactly these.
TRADE_EFFECT_KINDS = frozenset(
    {IK.BAG_KEY, IK.BAG_GOBLET, IK.MONOCLE, IK.PRIVILEGE, IK.TOME, IK.COAT, IK.SEXTANT}
)
# Victory items and both Secret Bags are always dealt (R2.3): stamped, never removable.
STRUCTURAL_KINDS = frozenset({IK.KEY, IK.GOBLET, IK.BAG_KEY, IK.BAG_GOBLET})
_BAG_KINDS = frozenset({IK.BAG_KEY, IK.BAG_GOBLET})
BASES = ("basic", "full")
ALIASES = {
    "CoatOfArmor": IK.LOGE,
    "Armor": IK.LOGE,
    "BlackPearl": IK.PEARL,
    "BrokenMirror": IK.MIRROR,
    "CastingKnives": IK.KNIVES,
    "PoisonRing": IK.RING,
}


class ItemRow(NamedTuple):
    key: str
    name: str
    count: int
    stamped: bool
    trade_effect: bool
    min_players: int
    max_players: int


class OccRow(NamedTuple):
    key: str
    name: str
    once: bool


class Tables(NamedTuple):
    items: tuple[ItemRow, ...]  # one row per ItemKind, in id order
    occs: tuple[OccRow, ...]  # one row per Occupation, in id order
    source: Path  # directory the CSVs came from


def _camel(field: str) -> str:
    """``BAG_KEY`` -> ``BagKey``: the CSV key expected for an enum field."""
    return "".join(w.capitalize() for w in field.split("_"))


def stamped_needed(n_players: int) -> int:
    """Stamped non-Bag items dealt into starting hands at ``n_players`` (R2.3)."""
    return 4 if n_players == 3 else n_players - 2


def read_table(path: Path, columns: tuple[str, ...]) -> list[tuple[int, list[str]]]:
    """(line number, fields) of each data row; ``#`` lines and blank lines are skipped."""
    if not path.is_file():
        raise KutschError(f"data table not found: {path}")
    rows: list[tuple[int, list[str]]] = []
    header = None
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in next(csv.reader([line]))]
        if header is None:
            header = fields
            if tuple(fields) != columns:
                raise KutschError(
                    f"{path}: line {lineno}: columns must be {','.join(columns)}, got {line.strip()}"
                )
            continue
        if len(fields) != len(columns):
            raise KutschError(f"{path}: line {lineno}: expected {len(columns)} fields, got {len(fields)}")
        rows.append((lineno, fields))
    if header is None:
        raise KutschError(f"{path}: no header line")
    return rows


def _int(path: Path, lineno: int, col: str, text: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise KutschError(f"{path}: line {lineno}: {col} must be an integer, got {text!r}") from None
    if not lo <= value <= hi:
        raise KutschError(f"{path}: line {lineno}: {col} must be in {lo}..{hi}, got {value}")
    return value


def _check_order(path: Path, rows: list[tuple[int, list[str]]], fields: tuple[str, ...], what: str) -> None:
    for i, field in enumerate(fields):
        want = _camel(field)
        if i >= len(rows):
            raise KutschError(f"{path}: missing {what} row {i} '{want}' (expected {len(fields)} rows)")
        lineno, f = rows[i]
        if f[0] != want:
            raise KutschError(f"{path}: line {lineno}: expected {what} '{want}' in row {i}, got '{f[0]}'")
        if not f[1]:
            raise KutschError(f"{path}: line {lineno}: empty name")
    if len(rows) > len(fields):
        raise KutschError(f"{path}: line {rows[len(fields)][0]}: extra {what} row (expected {len(fields)})")


def _load_items(path: Path) -> tuple[ItemRow, ...]:
    rows = read_table(path, ITEM_COLUMNS)
    _check_order(path, rows, KIND_KEYS, "item")
    items = []
    for k, (ln, f) in enumerate(rows):
        count = _int(path, ln, "count", f[2], 1, N_CARDS)
        stamped = _int(path, ln, "stamped", f[3], 0, 1)
        effect = _int(path, ln, "trade_effect", f[4], 0, 1)
        lo = _int(path, ln, "min_players", f[5], MIN_PLAYERS, MAX_PLAYERS)
        hi = _int(path, ln, "max_players", f[6], lo, MAX_PLAYERS)
        if count != CARD_KIND_LIST.count(k):  # card numbering is fixed (enums.CARD_KIND_LIST)
            raise KutschError(
                f"{path}: line {ln}: {f[0]} count must be {CARD_KIND_LIST.count(k)}, got {count}"
            )
        if effect != (k in TRADE_EFFECT_KINDS):
            raise KutschError(
                f"{path}: line {ln}: {f[0]} trade_effect must be {int(not effect)} "
                "(the engine implements the R9 trade effects)"
            )
        if k in STRUCTURAL_KINDS and not (stamped and lo == MIN_PLAYERS and hi == MAX_PLAYERS):
            raise KutschError(
                f"{path}: line {ln}: {f[0]} must be stamped and used at "
                f"{MIN_PLAYERS}..{MAX_PLAYERS} players (R2.3)"
            )
        items.append(ItemRow(f[0], f[1], count, bool(stamped), bool(effect), lo, hi))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        have = sum(
            r.count
            for k, r in enumerate(items)
            if r.stamped and k not in _BAG_KINDS and r.min_players <= n <= r.max_players
        )
        if have < stamped_needed(n):
            raise KutschError(
                f"{path}: only {have} stamped non-Bag items at {n} players; "
                f"the deal needs {stamped_needed(n)} (R2.3)"
            )
    return tuple(items)


def _load_occs(path: Path) -> tuple[OccRow, ...]:
    rows = read_table(path, OCC_COLUMNS)
    _check_order(path, rows, Occupation._fields, "occupation")
    return tuple(OccRow(f[0], f[1], bool(_int(path, ln, "once", f[2], 0, 1))) for ln, f in rows)


def load_tables(data_dir: Path | str | None = None) -> Tables:
    """Read and check ``items.csv`` and ``occupations.csv`` from ``data_dir`` (default: :data:`DATA_DIRS`).

    Raises :class:`KutschError` (one line naming the file and line) on any disagreement.
    """
    if data_dir is None:
        found = [d for d in DATA_DIRS if (d / "items.csv").is_file()]
        if not found:
            raise KutschError(f"data tables not found in {' or '.join(str(d) for d in DATA_DIRS)}")
        data_dir = found[0]
    d = Path(data_dir)
    return Tables(_load_items(d / "items.csv"), _load_occs(d / "occupations.csv"), d)


TABLES = load_tables()
ITEM_KEYS: tuple[str, ...] = tuple(r.key for r in TABLES.items)
ITEM_NAMES: tuple[str, ...] = tuple(r.name for r in TABLES.items)
OCC_KEYS: tuple[str, ...] = tuple(r.key for r in TABLES.occs)
OCC_NAMES: tuple[str, ...] = tuple(r.name for r in TABLES.occs)
OCC_ONCE: tuple[bool, ...] = tuple(r.once for r in TABLES.occs)
CARD_KIND: np.ndarray = np.array(CARD_KIND_LIST, dtype=np.int8)  # (21,) kind of each card; read-only
CARD_KIND.setflags(write=False)
CARD_NAMES: tuple[str, ...] = tuple(ITEM_NAMES[k] for k in CARD_KIND_LIST)


def stamped_cards(tables: Tables | None = None) -> np.ndarray:
    """bool (21,): the card is stamped, i.e. in the basic set (RULES "Stamped items")."""
    items = (tables or TABLES).items
    return np.array([items[k].stamped for k in CARD_KIND_LIST], dtype=bool)


def card_player_range(tables: Tables | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(min_players, max_players), each int8 (21,): the player counts a card is used at (R2.3)."""
    items = (tables or TABLES).items
    lo = np.array([items[k].min_players for k in CARD_KIND_LIST], dtype=np.int8)
    hi = np.array([items[k].max_players for k in CARD_KIND_LIST], dtype=np.int8)
    return lo, hi


def _valid_names() -> str:
    aliases = ", ".join(f"{a}={ITEM_KEYS[k]}" for a, k in ALIASES.items())
    return f"{', '.join(ITEM_KEYS)} (aliases: {aliases})"


_NAME_TO_KIND = {k.lower(): i for i, k in enumerate(ITEM_KEYS)} | {a.lower(): k for a, k in ALIASES.items()}
_EXPR_RE = re.compile(r"\s*(\w+)((?:\s*[+-]\s*\w+)*)\s*")
_TERM_RE = re.compile(r"\s*([+-])\s*(\w+)")


def parse_item_set(expr: str, tables: Tables | None = None) -> frozenset[int]:
    """Item kinds (ItemKind ids) in the item set ``expr``, e.g. ``"basic+Loge"`` (R2.3)."""
    items = (tables or TABLES).items
    m = _EXPR_RE.fullmatch(expr)
    if m is None or m.group(1).lower() not in BASES:
        raise KutschError(
            f"malformed item set {expr!r}: expected a base ({' or '.join(BASES)}) "
            "followed by +Name/-Name terms, e.g. 'basic+Loge' or 'full-Loge'"
        )
    kinds = (
        set(range(N_KINDS)) if m.group(1).lower() == "full" else {k for k, r in enumerate(items) if r.stamped}
    )
    for sign, name in _TERM_RE.findall(m.group(2)):
        k = _NAME_TO_KIND.get(name.lower())
        if k is None:
            raise KutschError(f"unknown item {name!r} in item set {expr!r}; valid names: {_valid_names()}")
        if sign == "-" and k in STRUCTURAL_KINDS:
            raise KutschError(
                f"victory items and Secret Bags cannot be removed (R2.3): '-{name}' in {expr!r}"
            )
        if (sign == "+") == (k in kinds):
            where = "already in" if sign == "+" else "not in"
            raise KutschError(
                f"item {ITEM_KEYS[k]} is {where} the set at '{sign}{name}' in item set {expr!r}"
            )
        kinds.symmetric_difference_update({k})
    return frozenset(kinds)


def format_item_set(kinds: Iterable[int], tables: Tables | None = None) -> str:
    """Shortest spelling of a set of kinds: base plus additions then removals, in kind order (ties: basic)."""
    items = (tables or TABLES).items
    s = frozenset(kinds)
    basic = {k for k, r in enumerate(items) if r.stamped}
    from_basic = [f"+{ITEM_KEYS[k]}" for k in sorted(s - basic)] + [
        f"-{ITEM_KEYS[k]}" for k in sorted(basic - s)
    ]
    from_full = [f"-{ITEM_KEYS[k]}" for k in range(N_KINDS) if k not in s]
    if len(from_full) < len(from_basic):
        return "full" + "".join(from_full)
    return "basic" + "".join(from_basic)


def canonical_item_set(expr: str, tables: Tables | None = None) -> str:
    """Normalised spelling of ``expr`` for labels: ``" Basic + armor"`` -> ``"basic+Loge"``."""
    return format_item_set(parse_item_set(expr, tables), tables)


def cards_in_game(kinds: frozenset[int], n_players: int, tables: Tables | None = None, *,
                  each: int | None = None, last: int = 0, victory_cards: int = 3) -> np.ndarray:
    """bool (21,): the cards in play at ``n_players`` for the item set ``kinds`` (R2.3).

    Drops cards outside their player range (Black Pearl at 3, Coat at 10). Raises
    :class:`KutschError` if too few stamped items remain to deal the starting hands. The house
    rules that change the deal (``api.GameConfig.deal``): ``each`` items to every seat (R2.3's
    count when None), ``last`` more to the last seat, ``victory_cards`` Keys and Goblets each
    (the engine leaves the others out of the deal, R9).
    """
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise KutschError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players}")
    kinds = frozenset(kinds)
    if not kinds >= STRUCTURAL_KINDS or not kinds <= set(range(N_KINDS)):
        raise KutschError(f"invalid item kinds {sorted(kinds)}: need Keys, Goblets and both Bags, ids 0..16")
    lo, hi = card_player_range(tables)
    mask = np.isin(CARD_KIND, sorted(kinds)) & (lo <= n_players) & (n_players <= hi)
    dealable = mask & stamped_cards(tables) & ~np.isin(CARD_KIND, sorted(_BAG_KINDS))
    have = int(dealable.sum()) - 2 * (3 - victory_cards)
    need = stamped_needed(n_players) if each is None else n_players * each - 2 + last
    if have < need:
        raise KutschError(
            f"item set {format_item_set(kinds, tables)} has {have} stamped non-Bag items "
            f"at {n_players} players; the deal needs {need} (R2.3)"
        )
    return mask
