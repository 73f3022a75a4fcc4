"""The table of rule switches (kutsch_sim.rules_table): it agrees with the engine's bits and
with docs/rules.md, and every layer that names a variant reads it (the API, the position
notation, the study, the bench, the command line's help)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from kutsch_sim import rules_table as rt
from kutsch_sim.enums import MAX_PLAYERS, MIN_PLAYERS, SC, VAR
from kutsch_sim.errors import KutschError

ROOT = Path(__file__).resolve().parents[1]


def test_every_engine_switch_has_one_row_and_every_row_is_well_formed() -> None:
    assert sorted(s.bit for s in rt.SWITCHES if s.scalar == "VARIANTS") == sorted(VAR)
    assert tuple(s.name for s in rt.SWITCHES if not s.knob) == rt.VARIANTS
    assert tuple(s.name for s in rt.SWITCHES if s.knob) == rt.KNOBS
    spellings = [a for s in rt.SWITCHES for a in (s.name, *s.aliases)]
    assert len(spellings) == len(set(spellings))
    for s in rt.SWITCHES:
        assert s.scalar in SC._fields, s.name
        assert s.bit == 0 or s.values == (0, 1), s.name  # a bit is an on/off switch
        # a knob's default is one of its values, but hand-limit's (0: R2.4's limit for the count)
        assert s.default in s.values or (s.name, s.default) == ("hand-limit", 0), s.name
        assert s.players and set(s.players) <= set(range(MIN_PLAYERS, MAX_PLAYERS + 1)), s.name
        assert s.study_items and s.text and "\n" not in s.text, s.name


def test_every_row_cites_rules_that_exist() -> None:
    """The rule each row departs from, and where it comes from, are tags of docs/rules.md."""
    text = (ROOT / "docs" / "rules.md").read_text()
    tags = set(re.findall(r"^## (R\d+)\b", text, re.M)) | set(re.findall(r"\*\*(R\d+\.\d+)\*\*", text))
    for s in rt.SWITCHES:
        cited = {*s.departs} | ({s.source} if not s.knob else set())
        assert cited <= tags, (s.name, cited - tags)
        assert s.knob == (s.source == rt.HOUSE), s.name


def test_every_knob_has_its_scalar_field_and_default_in_the_engine() -> None:
    """A knob's field in sc[VARIANTS] is its place in enums.KNOB_SC, whose default
    (enums.KNOB_DEFAULT, read by reset_scalars_nb) is the row's; docs/rules.md's House rules
    section has a paragraph for it, the usage page a table row."""
    from kutsch_sim.enums import KNOB_DEFAULT, KNOB_SC

    assert sorted(getattr(SC, s.scalar) for s in rt.SWITCHES if s.knob) == sorted(KNOB_SC)
    rules = (ROOT / "docs" / "rules.md").read_text().split("## House rules")[1].split("\n## ")[0]
    for s in rt.SWITCHES:
        if s.knob:
            assert KNOB_DEFAULT[KNOB_SC.index(getattr(SC, s.scalar))] == s.default, s.name
            assert f"- **{s.name}** (values {s.values_text.replace('-', '–')}" in rules, s.name


def test_names_masks_and_spellings_round_trip() -> None:
    for k in range(len(rt.VARIANTS) + 1):
        for names in itertools.combinations(rt.VARIANTS, k):
            assert rt.variant_names(rt.variant_mask(names)) == names
            assert rt.parse_variants(",".join(reversed(names))) == names
    assert rt.parse_variants("Fortune, SMUGGLING,base") == ("smuggling", "fortune-telling")
    with pytest.raises(KutschError, match="unknown variant 'chess'; valid: smuggling, fortune-telling"):
        rt.parse_variants("chess")
    assert rt.parse_variants("team-items=2, Smuggling") == ("smuggling", "team-items=2")
    assert rt.parse_variants("team-items=3") == ()  # a house rule at its default is not named


def test_the_player_counts_are_checked_once_with_one_message() -> None:
    """The API, the position notation and the bench's smoke run refuse a variant at a player
    count its row does not list, with the table's one-line message."""
    from kutsch_sim.api import GameConfig
    from kutsch_sim.notation.position import Position
    from kutsch_sim.sim.bench import bench_plan

    want = "variant 'advanced-3p' is the 3-player game only (R10), got 4 players"
    assert rt.variant_players_error(("advanced-3p",), 4) == want
    assert rt.variant_players_error(("smuggling", "advanced-3p"), 3) is None
    with pytest.raises(KutschError) as api:
        GameConfig(4, variants=("advanced-3p",))
    seats = ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
             "seat 3: Brotherhood Duelist | Goblet\n")
    with pytest.raises(KutschError) as pos:
        Position.parse(seats + "variant advanced-3p\n")
    with pytest.raises(KutschError) as bench:
        bench_plan(smoke=True, variants="advanced-3p")
    assert str(api.value) == want and str(pos.value) == f"position line 5: {want}"
    assert str(bench.value) == want.replace("got 4", "got 6")  # the smoke run is 6 players


def test_the_study_and_the_help_texts_are_written_from_the_table() -> None:
    from kutsch_sim.cli.app import app  # noqa: F401  (the commands' options are built at import)
    from kutsch_sim.cli.common import Variant
    from kutsch_sim.sim.study import variant_parts

    spelled = [s.name if not s.knob else f"{s.name}={s.values[-1]}" for s in rt.SWITCHES]
    for part, s, v in zip(variant_parts(tuple(spelled)), rt.SWITCHES, spelled, strict=True):
        assert (part.name, part.players, part.items, part.variants) == (
            f"variant-{v}", s.players, s.study_items, (v,))
    option = Variant.__metadata__[0]
    assert option.help == rt.variant_option_help("Rule variant for every game")
    for s in rt.SWITCHES:
        assert s.name in rt.variant_option_help() and s.name in rt.study_variants_help()
        if s.knob:
            assert f"{s.name}={s.values_text}" in rt.variant_option_help()
    assert "advanced-3p (3 players)" in rt.variant_option_help()
    assert "advanced-3p at 3 players with basic and full items" in rt.study_variants_help()


def test_the_documents_name_every_variant() -> None:
    usage = (ROOT / "docs" / "usage.md").read_text()
    positions = (ROOT / "docs" / "positions.md").read_text()
    for s in rt.SWITCHES:
        assert f"| `{s.name}` |" in usage and f"`{s.name}`" in positions, s.name
