"""Tests for kutsch_sim.cards: table checks, item sets (R2.3, R9, RULES "Stamped items")."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kutsch_sim import cards
from kutsch_sim.cards import (
    ALIASES,
    CARD_KIND,
    CARD_NAMES,
    ITEM_KEYS,
    OCC_KEYS,
    STRUCTURAL_KINDS,
    canonical_item_set,
    card_player_range,
    cards_in_game,
    load_tables,
    parse_item_set,
    stamped_cards,
)
from kutsch_sim.enums import CARD_KIND_LIST, IK, KIND_KEYS, N_CARDS, N_KINDS, N_OCCS, OC
from kutsch_sim.errors import KutschError


# ---------------------------------------------------------------- default tables
def test_default_tables_match_enums() -> None:
    assert [k.upper() for k in ITEM_KEYS] == [f.replace("_", "") for f in KIND_KEYS]
    assert list(CARD_KIND) == CARD_KIND_LIST and CARD_KIND.dtype == np.int8
    assert not CARD_KIND.flags.writeable  # numba freezes globals: never mutate
    assert len(CARD_NAMES) == N_CARDS and CARD_NAMES[:7] == ("Key",) * 3 + ("Goblet",) * 3 + (
        "Secret Bag (Key)",
    )
    assert len(OCC_KEYS) == N_OCCS and OCC_KEYS[OC.POISON_MIXER] == "PoisonMixer"
    assert cards.OCC_ONCE[OC.DIPLOMAT] and not cards.OCC_ONCE[OC.THUG]


def test_stamped_set_is_the_ruling() -> None:
    """RULES "Stamped items": 16 stamped cards; 5 unstamped kinds."""
    stamped = stamped_cards()
    assert stamped.shape == (N_CARDS,) and stamped.sum() == 16
    unstamped = {CARD_NAMES[c] for c in np.flatnonzero(~stamped)}
    assert unstamped == {"Broken Mirror", "Sextant", "Coat", "Tome", "Coat of Armor of the Loge"}


def test_player_ranges() -> None:
    lo, hi = card_player_range()
    assert lo[CARD_KIND == IK.PEARL][0] == 4 and hi[CARD_KIND == IK.COAT][0] == 9
    assert (lo[~np.isin(CARD_KIND, [IK.PEARL])] == 3).all() and (
        hi[~np.isin(CARD_KIND, [IK.COAT])] == 10
    ).all()


# ---------------------------------------------------------------- cards in the game (R2.3)
@pytest.mark.parametrize("n", range(3, 11))
def test_basic_cards(n: int) -> None:
    mask = cards_in_game(parse_item_set("basic"), n)
    pearl = mask[CARD_KIND == IK.PEARL][0]
    assert (mask.sum(), pearl) == ((15, False) if n == 3 else (16, True))
    assert not (mask & ~stamped_cards()).any()


@pytest.mark.parametrize("n", range(3, 11))
def test_full_cards(n: int) -> None:
    mask = cards_in_game(parse_item_set("full"), n)
    assert mask.sum() == (21 if 4 <= n <= 9 else 20)
    assert mask[CARD_KIND == IK.PEARL][0] == (n != 3)
    assert mask[CARD_KIND == IK.COAT][0] == (n != 10)


def test_cards_in_game_rejects_bad_input() -> None:
    with pytest.raises(KutschError, match="players must be 3..10"):
        cards_in_game(parse_item_set("basic"), 11)
    with pytest.raises(KutschError, match="Bags"):
        cards_in_game(frozenset({IK.KEY, IK.GOBLET}), 4)
    thin = parse_item_set("basic-Dagger-Gloves-Knives-Whip-Ring-Monocle-Privilege")
    assert cards_in_game(thin, 9).sum() == 3 + 3 + 2 + 1  # Keys, Goblets, Bags, Pearl: 7 to deal, 7 needed
    with pytest.raises(KutschError, match="needs 8"):
        cards_in_game(thin, 10)


# ---------------------------------------------------------------- item-set expressions
@pytest.mark.parametrize(
    ("expr", "canon"),
    [
        ("basic", "basic"),
        ("full", "full"),
        ("basic+Loge", "basic+Loge"),
        ("full-Loge", "full-Loge"),
        ("  BASIC +  armor ", "basic+Loge"),
        ("basic+CoatOfArmor-BlackPearl", "basic+Loge-Pearl"),
        ("basic+Tome+Coat+Sextant+Mirror+Loge", "full"),
        ("full-Tome-Coat-Sextant-BrokenMirror-Loge", "basic"),
        ("basic+Loge-Loge", "basic"),
        ("full-castingknives-PoisonRing", "full-Knives-Ring"),
    ],
)
def test_expressions(expr: str, canon: str) -> None:
    assert canonical_item_set(expr) == canon
    assert parse_item_set(expr) == parse_item_set(canon)


def test_expression_kinds() -> None:
    basic = parse_item_set("basic")
    assert len(basic) == 12 and IK.PEARL in basic and IK.LOGE not in basic
    assert parse_item_set("full") == frozenset(range(N_KINDS))
    assert parse_item_set("basic+Loge") == basic | {IK.LOGE}
    assert parse_item_set("full-Loge") == frozenset(range(N_KINDS)) - {IK.LOGE}


@pytest.mark.parametrize(
    "expr",
    [
        "",
        "  ",
        "basic++",
        "+Tome",
        "medium",
        "basic+",
        "basic Loge",
        "basic+Black Pearl",
        "full--Loge",
        "basic+Loge,Tome",
    ],
)
def test_malformed_expression_lists_bases(expr: str) -> None:
    with pytest.raises(KutschError, match="malformed") as err:
        parse_item_set(expr)
    assert "basic" in str(err.value) and "full" in str(err.value) and "\n" not in str(err.value)


def test_unknown_item_lists_valid_names() -> None:
    with pytest.raises(KutschError, match=r"unknown item 'Foo' in item set 'basic\+Foo'") as err:
        parse_item_set("basic+Foo")
    assert all(k in str(err.value) for k in ITEM_KEYS + tuple(ALIASES))


@pytest.mark.parametrize(
    ("expr", "match"),
    [
        ("full-Key", "cannot be removed"),
        ("basic-goblet", "cannot be removed"),
        ("full-BagKey", "cannot be removed"),
        ("basic-BagGoblet", "cannot be removed"),
        ("basic+Dagger", "already in"),
        ("full+Armor", "already in"),
        ("basic+Loge+Loge", "already in"),
        ("basic-Loge", "not in"),
        ("full-Pearl-BlackPearl", "not in"),
    ],
)
def test_invalid_terms(expr: str, match: str) -> None:
    with pytest.raises(KutschError, match=match):
        parse_item_set(expr)


_REMOVABLE = [k for k in range(N_KINDS) if k not in STRUCTURAL_KINDS]
_SPELLINGS = {k: [ITEM_KEYS[k]] + [a for a, ak in ALIASES.items() if ak == k] for k in _REMOVABLE}


@st.composite
def _valid_expr(draw: st.DrawFn) -> str:
    """A random valid expression: a base, then toggles of removable kinds in odd spellings."""
    base = draw(st.sampled_from(["basic", "full", "Basic", "FULL"]))
    kinds = set(parse_item_set(base))
    parts = [draw(st.sampled_from(["", " "])) + base]
    for k in draw(st.lists(st.sampled_from(_REMOVABLE), max_size=8)):
        name = draw(st.sampled_from(_SPELLINGS[k]))
        name = draw(st.sampled_from([name, name.lower(), name.upper()]))
        ws = draw(st.sampled_from(["", " ", "\t"]))
        parts.append(f"{ws}{'-' if k in kinds else '+'}{ws}{name}")
        kinds ^= {k}
    return "".join(parts)


@given(_valid_expr())
def test_canonical_round_trip(expr: str) -> None:
    canon = canonical_item_set(expr)
    assert parse_item_set(canon) == parse_item_set(expr)
    assert canonical_item_set(canon) == canon
    assert canon.split("+")[0].split("-")[0] in ("basic", "full")


# ---------------------------------------------------------------- table validation
@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    for name in ("items.csv", "occupations.csv"):
        shutil.copy(cards.TABLES.source / name, tmp_path / name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_copy_loads_and_tolerates_comments(data_dir: Path) -> None:
    _edit(data_dir / "items.csv", "Dagger,", "# a comment\n\nDagger,")
    tables = load_tables(data_dir)
    assert (
        tables.source == data_dir and tables.items == cards.TABLES.items and tables.occs == cards.TABLES.occs
    )


def test_corrected_stamps_change_basic(data_dir: Path) -> None:
    """A user with printed cards edits `stamped` (RULES "Stamped items"): basic follows the data."""
    _edit(data_dir / "items.csv", "Tome,Tome,1,0,", "Tome,Tome,1,1,")
    tables = load_tables(data_dir)
    assert IK.TOME in parse_item_set("basic", tables)
    assert canonical_item_set("basic+Loge+Coat+Sextant", tables) == "full-Mirror"
    assert canonical_item_set("full-Coat-Sextant-Mirror-Loge", tables) == "basic"
    assert cards_in_game(parse_item_set("basic", tables), 5, tables).sum() == 17


@pytest.mark.parametrize(
    ("file", "old", "new", "match"),
    [
        ("items.csv", "trade_effect,min", "effect,min", "columns must be"),
        (
            "items.csv",
            "Dagger,Dagger,1,",
            "Dagger,Dagger,one,",
            r"line \d+: count must be an integer, got 'one'",
        ),
        ("items.csv", "Whip,Whip,1,1,0,3,10", "Whip,Whip,1,1,0,3", r"line \d+: expected 7 fields"),
        (
            "items.csv",
            "Dagger,Dagger",
            "Gloves,Dagger",
            r"line \d+: expected item 'Dagger' in row 4, got 'Gloves'",
        ),
        ("items.csv", "Key,Key,3", "Key,Key,2", "Key count must be 3"),
        ("items.csv", "Dagger,Dagger,1,1,0", "Dagger,Dagger,1,1,1", "Dagger trade_effect must be 0"),
        ("items.csv", "Tome,Tome,1,0,1", "Tome,Tome,1,0,0", "Tome trade_effect must be 1"),
        ("items.csv", "Monocle,Monocle,1,1,1", "Monocle,Monocle,1,2,1", "stamped must be in 0..1"),
        ("items.csv", "Goblet,Goblet,3,1", "Goblet,Goblet,3,0", "must be stamped"),
        (
            "items.csv",
            "Pearl,Black Pearl,1,1,0,4,10",
            "Pearl,Black Pearl,1,1,0,4,3",
            "max_players must be in 4..10",
        ),
        ("items.csv", "Loge,Coat of Armor of the Loge,1,0,0,3,10\n", "", "missing item row 16 'Loge'"),
        (
            "items.csv",
            "Loge,Coat of Armor of the Loge,1,0,0,3,10\n",
            "Loge,Coat of Armor of the Loge,1,0,0,3,10\nX,X,1,0,0,3,10\n",
            "extra item row",
        ),
        ("items.csv", "Mirror,Broken Mirror", "Mirror,", "empty name"),
        ("occupations.csv", "Doctor,Doctor", "Duelist,Doctor", "expected occupation 'Doctor' in row 1"),
        ("occupations.csv", "Thug,Thug,0", "Thug,Thug,no", "once must be an integer"),
        ("occupations.csv", "key,name,once", "key,name", "columns must be key,name,once"),
    ],
)
def test_broken_tables(data_dir: Path, file: str, old: str, new: str, match: str) -> None:
    _edit(data_dir / file, old, new)
    with pytest.raises(KutschError, match=match) as err:
        load_tables(data_dir)
    msg = str(err.value)
    assert str(data_dir / file) in msg and "\n" not in msg


def test_too_few_stamped_items(data_dir: Path) -> None:
    for key in ("Dagger", "Gloves", "Knives", "Whip", "Ring", "Monocle", "Privilege"):
        text = (data_dir / "items.csv").read_text().splitlines()
        row = next(i for i, line in enumerate(text) if line.startswith(key + ","))
        f = text[row].split(",")
        f[3] = "0"
        text[row] = ",".join(f)
        (data_dir / "items.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(KutschError, match=r"only 7 stamped non-Bag items at 10 players; the deal needs 8"):
        load_tables(data_dir)


def test_missing_tables(tmp_path: Path) -> None:
    with pytest.raises(KutschError, match="data table not found") as err:
        load_tables(tmp_path / "nowhere")
    assert str(tmp_path / "nowhere" / "items.csv") in str(err.value)
