"""R10 variants, continued (tests/test_rules_variants.py)."""

from __future__ import annotations


import numpy as np
import pytest

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.engine.state import as_record, copy_state
from kutsch_sim.enums import BROTHERHOOD, ORDER, SC
from kutsch_sim.sim import store


from test_rules_variants import adv_action_nb, adv_prefix_nb


def test_R10_advanced_3p_decisions_ignore_the_unseen_association_cards() -> None:
    cfg = GameConfig(3, "full", ("smart", "greedy", "smart"), variants=("advanced-3p",))
    _, in_game, stamped, bots, params = cfg.arrays()
    rng = np.random.default_rng(4)
    checked = 0
    for game in range(25):
        st = as_record(adv_prefix_nb(in_game, stamped, bots, params, cfg.config_id, game, int(rng.integers(0, 30))))
        if st.sc[SC.OVER]:
            continue
        seat = int(st.sc[SC.ACTIVE])
        st2 = copy_state(st)
        for p in range(3):
            if p == seat:
                continue
            for j in range(3):
                if st.k_acard[seat, p, j] < 0:
                    st2.acard[p, j] = rng.integers(0, 2)
            st2.assoc[p] = BROTHERHOOD if st2.acard[p].sum() >= 2 else ORDER
        assert adv_action_nb(st, seat) == adv_action_nb(st2, seat)
        assert np.array_equal(st.rs, st2.rs) and np.array_equal(st.mem.vw.out, st2.mem.vw.out)
        checked += 1
    assert checked >= 10


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
