"""Names in the position and script notations: items, cards, occupations and teams, spelled
as ``data/items.csv`` and ``data/occupations.csv`` spell them (case and punctuation ignored)."""

from __future__ import annotations

import re
from typing import Protocol

from ..cards import ALIASES, ITEM_KEYS, ITEM_NAMES, OCC_KEYS, OCC_NAMES
from ..enums import (
    BROTHERHOOD,
    CARD_KIND_LIST,
    N_CARDS,
    ORDER,
)
from ..errors import KutschError


class Hands(Protocol):
    """What a decision script is compiled against (:mod:`kutsch_sim.notation.script`): the seats
    and where each card lies. A :class:`kutsch_sim.notation.position.Position` is one; the script
    reads nothing else of it, so the script module needs no import of the position module."""

    @property
    def n(self) -> int: ...  # seats

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]: ...  # card ids in each seat's hand

    @property
    def deck(self) -> tuple[int, ...]: ...  # card ids of the deck, top first


DEFAULT_TURN_CAP = 400
DEFAULT_LOG_CAP = 4096  # event rows a position run keeps


def norm(name: str) -> str:
    """Lookup form of a name: lower case, letters, digits and ``#`` only."""
    return re.sub(r"[^a-z0-9#]", "", name.lower())


_ITEM_LOOKUP: dict[str, int] = {}
for _k, (_key, _name) in enumerate(zip(ITEM_KEYS, ITEM_NAMES, strict=True)):
    _ITEM_LOOKUP[norm(_key)] = _k
    _ITEM_LOOKUP[norm(_name)] = _k
for _alias, _k in ALIASES.items():
    _ITEM_LOOKUP[norm(_alias)] = _k
_ITEM_LOOKUP.update({"keys": 0, "goblets": 1, "armorloge": 16, "mirror": 15, "pearl": 14})
_OCC_LOOKUP = {norm(s): o for o, s in enumerate(OCC_KEYS)} | {norm(s): o for o, s in enumerate(OCC_NAMES)}
_TEAM_LOOKUP = {"order": ORDER, "brotherhood": BROTHERHOOD}
KIND_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(N_CARDS) if CARD_KIND_LIST[c] == k) for k in range(len(ITEM_KEYS))
)


def item_kind(name: str) -> int:
    """ItemKind id of an item name (key, name or alias, case-insensitive)."""
    k = _ITEM_LOOKUP.get(norm(name).split("#")[0])
    if k is None:
        raise KutschError(f"unknown item {name.strip()!r}; valid: {', '.join(ITEM_KEYS)}")
    return k


def explicit_card(name: str) -> int | None:
    """Card id of ``Key#2``-style names (``#1``..``#count``), None for a plain kind name."""
    k = item_kind(name)
    if "#" not in name:
        return None
    suffix = norm(name).split("#", 1)[1]
    if not suffix.isdigit() or not 1 <= int(suffix) <= len(KIND_CARDS[k]):
        raise KutschError(f"bad card number in {name.strip()!r}: use #1..#{len(KIND_CARDS[k])}")
    return KIND_CARDS[k][int(suffix) - 1]


def occupation(name: str) -> int:
    o = _OCC_LOOKUP.get(norm(name))
    if o is None:
        raise KutschError(f"unknown occupation {name.strip()!r}; valid: {', '.join(OCC_KEYS)}")
    return o


def team(name: str) -> int:
    t = _TEAM_LOOKUP.get(norm(name))
    if t is None:
        raise KutschError(f"unknown team {name.strip()!r}; valid: Order, Brotherhood")
    return t


def card_label(c: int) -> str:
    """``Key#2`` for Keys and Goblets, the card name otherwise (notation spelling)."""
    k = CARD_KIND_LIST[c]
    if len(KIND_CARDS[k]) > 1:
        return f"{ITEM_KEYS[k]}#{KIND_CARDS[k].index(c) + 1}"
    return ITEM_KEYS[k]


def hand_limit(n: int) -> int:
    """R2.4: 3 players 8, 4 players 6, 5+ players 5."""
    return 8 if n == 3 else 6 if n == 4 else 5


def strip_comment(raw: str) -> str:
    """Drop a ``#`` comment but keep ``Key#2`` card numbers (a ``#`` right after a name)."""
    return re.sub(r"(?<![A-Za-z0-9])#.*$", "", raw)


class PositionError(KutschError):
    """A position that breaks a rule. ``where`` names the statement at fault (``"seat 2"``,
    ``"deck"``, ``"turn"``, ``"drink"``, ``"cap"``, ``"seed"``, ``"variant"``, or ``"seats"``
    for the seat lines together), so that the parser can name its line."""

    def __init__(self, message: str, where: str = "seats") -> None:
        super().__init__(message)
        self.where = where


def place_cards(groups: list[list[str]], where: list[str] | None = None) -> list[list[int]]:
    """Card ids for item names: explicit ``Key#2`` first, then plain names take the
    first free card of their kind in reading order (seats, then the deck). ``where``
    names each group for a :class:`PositionError` (default: ``seat 0`` .. and ``deck``)."""
    if where is None:
        where = [f"seat {g}" for g in range(len(groups) - 1)] + ["deck"]
    used: set[int] = set()
    out: list[list[int | None]] = []
    for g, names in enumerate(groups):
        row: list[int | None] = []
        for name in names:
            try:
                c = explicit_card(name)
            except KutschError as e:
                raise PositionError(str(e), where[g]) from None
            if c is not None:
                if c in used:
                    raise PositionError(f"card {card_label(c)} placed twice", where[g])
                used.add(c)
            row.append(c)
        out.append(row)
    for g, (names, row) in enumerate(zip(groups, out, strict=True)):
        for i, name in enumerate(names):
            if row[i] is None:
                k = item_kind(name)
                free = [c for c in KIND_CARDS[k] if c not in used]
                if not free:
                    raise PositionError(f"too many {ITEM_NAMES[k]} cards: the game has {len(KIND_CARDS[k])}", where[g])
                row[i] = free[0]
                used.add(free[0])
    return [[int(c) for c in row] for row in out]
