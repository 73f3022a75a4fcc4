"""R10 variants in whole runs: every invariant in whole games of each variant, the variants'
moments in the trace, every command with --variant, the report's comparison with the base
game, and the bench.
"""

from __future__ import annotations

import numpy as np
import pytest

from kutsch_sim.api import GameConfig, play_game, run_batch
from kutsch_sim.bots.reasons import reason_row_text
from kutsch_sim.enums import DK, EV, REC, WIN
from kutsch_sim.review.trace import format_game
from kutsch_sim.sim import store


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize(
    ("players", "variants"),
    [(6, ("smuggling",)), (5, ("fortune-telling",)), (3, ("advanced-3p",)),
     (3, ("smuggling", "fortune-telling", "advanced-3p")), (7, ("smuggling", "fortune-telling"))],
)
@pytest.mark.parametrize("bots", ["random", "smart", "greedy"])
def test_R10_variant_games_keep_every_invariant(players, variants, bots) -> None:
    cfg = GameConfig(players, "full", (bots,), variants=variants)
    rec = run_batch(cfg, 3, 0, 60, debug=True)
    assert (rec[:, REC.ERROR] == 0).all() and (rec[:, REC.WINNER] != WIN.ERROR).all()
    again = run_batch(cfg, 3, 0, 60)
    np.testing.assert_array_equal(rec, again)  # the switches keep games replayable


def test_R10_variant_moments_in_the_trace() -> None:
    """``kutsch-sim play`` shows each variant's moments (found in the first games that have them)."""
    found = {}
    for players, v, key, needle in [
        (6, "smuggling", EV.SMUGGLE, "smuggles the"),
        (6, "fortune-telling", EV.DECLARE, "tells the fortune"),
        (3, "advanced-3p", EV.SEE_ACARD, "association card at position"),
    ]:
        cfg = GameConfig(players, "full", ("smart",), variants=(v,))
        for game in range(1000):  # fortune-telling ends ~1% of smart games: searched, not assumed
            r = play_game(cfg, 1, game, debug=True)
            kinds = r.events[:, 0]
            if key == EV.DECLARE and r.record[REC.DECL_KIND] != DK.FORTUNE:
                continue
            if (kinds == key).any():
                text = format_game(r, reason_row_text)
                assert needle in text and f"variants {v}" in text
                found[v] = game
                break
    assert set(found) == {"smuggling", "fortune-telling", "advanced-3p"}, found


# ---------------------------------------------------------------------------- commands
def test_R10_variants_on_every_command(tmp_path) -> None:
    import pandas as pd
    from typer.testing import CliRunner

    from kutsch_sim.cli.app import app
    from kutsch_sim.sim.study import standard_parts, study_options, variant_parts

    runner = CliRunner()
    res = runner.invoke(app, ["play", "-n", "3", "--variant", "advanced-3p", "--variant", "smuggling", "--bots",
                              "smart", "--debug"])
    assert res.exit_code == 0, res.output
    assert "variants smuggling, advanced-3p" in res.stdout and "association cards (" in res.stdout
    for args, message in [
        (["play", "-n", "4", "--variant", "advanced-3p"], "3-player game only"),
        (["play", "--variant", "chess"], "unknown variant 'chess'"),
        (["simulate", "-n", "3-4", "-g", "5", "--variant", "advanced-3p", "--out", str(tmp_path / "x")],
         "3-player game only"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and message in res.stderr, res.output
    assert not (tmp_path / "x").exists()
    out = tmp_path / "sim"
    res = runner.invoke(app, ["simulate", "-n", "3", "-i", "full", "-g", "30", "--bots", "greedy",
                              "--variant", "fortune-telling,advanced-3p", "--out", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert len(df) == 30 and set(df["variant"]) == {"fortune-telling+advanced-3p"} and (df["error"] == 0).all()
    manifest = store.read_manifest(out)
    assert manifest["rules"]["variant"] == "fortune-telling+advanced-3p"
    assert manifest["options"]["variants"] == ["fortune-telling", "advanced-3p"]
    assert "--variant fortune-telling,advanced-3p" in manifest["command"]
    # the study adds one part per variant, beside the standard parts
    opts = study_options(games="5", out=tmp_path / "study", variants="all")
    names = [p.name for p, _ in opts.runs]
    assert names == [p.name for p in standard_parts()] + [p.name for p in variant_parts(VARIANTS_ALL)]
    extra = {p.name: (p, o) for p, o in opts.runs if p.variants}
    assert extra["variant-smuggling"][0].players == tuple(range(3, 11))
    assert extra["variant-advanced-3p"][0].players == (3,)
    assert all(o.variants == p.variants and all(c.variants == p.variants for c in o.configs())
               for p, o in extra.values())
    assert opts.configurations == sum(p.configurations for p in standard_parts()) + 8 + 8 + 2


VARIANTS_ALL = ("smuggling", "fortune-telling", "advanced-3p")


# ---------------------------------------------------------------------------- the report
def test_R10_report_compares_each_variant_with_the_base_game(tmp_path) -> None:
    import pandas as pd

    from kutsch_sim.report.render import write_report
    from kutsch_sim.report.tables import variant_effect

    frames = []
    for n, v in [(3, ()), (3, ("advanced-3p",)), (6, ()), (6, ("smuggling",))]:
        cfg = GameConfig(n, "full", ("random",), variants=v)
        frames.append(store.records_frame(cfg, 1, 0, run_batch(cfg, 1, 0, 300)))
    df = pd.concat(frames, ignore_index=True)
    t = variant_effect(df)
    assert set(t["variant"]) == {"advanced-3p", "smuggling"} and set(t["item_set"]) == {"full"}
    assert set(t.loc[t["variant"] == "smuggling", "outcome"]) == {"team", "order", "brotherhood", "solo", "timeout"}
    minority = t[(t["variant"] == "advanced-3p") & (t["outcome"] == "minority")]
    assert len(minority) == 1 and minority["players"].item() == 3 and minority["n_base"].item() == 300
    sub = df[(df["players"] == 3) & (df["variant"] == "advanced-3p")]
    assert minority["wins_variant"].item() == (sub["winner"].astype(str) == sub["minority"].astype(str)).sum()
    for r in t.itertuples():
        assert r.diff == pytest.approx(r.rate_variant - r.rate_base)
    write_report(df, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Rule variants against the base game" in md and "| advanced-3p | 3 | full |" in md
    assert (tmp_path / "rep" / "tables" / "variants.csv").is_file()


def test_R10_variant_on_bench(capsys) -> None:
    """``kutsch-sim bench --variant`` measures the variant (recorded in every JSON object)."""
    import json

    from kutsch_sim.sim.bench import bench_plan, run_bench

    plan = bench_plan(players="3", items="basic", bots="smart", games=50, threads="1", repeats=1,
                      startup=False, cold=False, variants=["advanced-3p"])
    (m,) = run_bench(plan)
    d = json.loads(json.dumps(m.to_dict()))
    assert d["variant"] == "advanced-3p" and d["players"] == 3 and d["games"] == 50
    base = run_bench(bench_plan(players="3", items="basic", bots="smart", games=50, threads="1", repeats=1,
                                startup=False, cold=False))[0]
    assert base.variant == "base" and base.mean_turns != m.mean_turns
