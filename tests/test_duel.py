"""scripts/analyse/duel.py keeps each pure-team deal and compares two A's deal by deal."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq

from _helpers_scripts import load_script

duel = load_script("analyse/duel.py", "duel_script")
ARGS = ["--b", "greedy", "--players", "5", "--items", "basic", "--games", "40", "--seed", "3"]


def test_kept_deals_give_the_tables_share_and_a_paired_comparison(tmp_path, capsys):
    first, second = tmp_path / "smart.parquet", tmp_path / "v2.json"
    assert duel.main(["--a", "smart", *ARGS, "--deals", str(first), "--json", str(tmp_path / "smart.json")]) == 0
    table = pq.read_table(first)
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    assert meta == {"a": "smart", "b": "greedy", "seed": "3", "games": "40"}
    df = table.to_pandas()
    assert list(df["deal"]) == list(range(40)) and set(df["players"]) == {5}
    wa, wb = df["a_wins"].to_numpy(), df["b_wins"].to_numpy()
    decided = (wa + wb) > 0
    summary = json.loads((tmp_path / "smart.json").read_text())["5 basic pure"]
    assert np.isclose(summary["a_share"][0], np.mean(wa[decided] / (wa + wb)[decided]))

    # the same A against itself: zero, deal by deal
    assert duel.main(["--a", "smart", *ARGS, "--against", str(first), "--json", str(second)]) == 0
    same = json.loads(second.read_text())["5 basic against"]
    assert same["other"] == "smart" and same["share_diff"][0] == 0.0 and same["share_diff"][2] == 0.0
    # another A: the paired difference is the difference of the two shares over the deals both decided
    assert duel.main(["--a", "smart-v2", *ARGS, "--against", str(first), "--json", str(second)]) == 0
    other = json.loads(second.read_text())
    assert other["5 basic against"]["other"] == "smart"
    assert "smart-v2 minus smart, paired over the same deals" in capsys.readouterr().out


def test_other_deals_are_refused_before_any_game(tmp_path, capsys):
    kept = tmp_path / "k.parquet"
    assert duel.main(["--a", "smart", *ARGS, "--deals", str(kept)]) == 0
    capsys.readouterr()
    args = ["--a", "smart-v2", "--b", "greedy", "--players", "5", "--items", "basic", "--games", "40"]
    assert duel.main([*args, "--seed", "4", "--against", str(kept)]) == 2
    assert "not the same deals" in capsys.readouterr().err
    assert duel.main([*args, "--seed", "3", "--players", "6", "--against", str(kept)]) == 2
    assert "no 40 deals of 6 players" in capsys.readouterr().err
    assert duel.main([*args, "--seed", "3", "--against", str(tmp_path / "missing.parquet")]) == 2
