"""R10 variants as rule switches: names, the engine's bit mask, and the commands that take them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kutsch_sim.api import GameConfig, parse_variants, variant_mask
from kutsch_sim.cli import app
from kutsch_sim.enums import VAR
from kutsch_sim.errors import KutschError


# ---------------------------------------------------------------------------- the switches
def test_R10_variant_names_and_the_engine_mask() -> None:
    assert parse_variants("fortune-telling, smuggling") == ("smuggling", "fortune-telling")
    assert parse_variants(["smuggling", "smuggling,base"]) == ("smuggling",)
    assert variant_mask(("smuggling", "advanced-3p")) == VAR.SMUGGLING | VAR.ADV3P
    assert variant_mask(("fortune-telling",)) == VAR.FORTUNE and variant_mask(()) == 0
    with pytest.raises(KutschError, match="unknown variant 'chess'") as err:
        GameConfig(3, variants=("chess",))
    assert "\n" not in str(err.value)
    assert GameConfig(6).variant_bits == 0 and GameConfig(6).variant_label == "base"


@pytest.mark.parametrize(
    "args",
    [
        ["play", "-n", "3", "--variant", "smuggling"],
        ["simulate", "-n", "3", "-g", "5", "--variant", "fortune-telling"],
        ["study", "--games", "5", "--variants", "advanced-3p"],
    ],
)
def test_R10_variants_are_rejected_until_implemented(tmp_path, args) -> None:
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "x")] if args[0] != "play" else args)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "not implemented yet" in res.stderr
    assert not (tmp_path / "x").exists()
