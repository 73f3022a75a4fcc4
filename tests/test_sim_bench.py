"""``bench``: measurements carry the fields the README table and CI need; --smoke never fails on speed."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from kutsch_sim.api import GameConfig
from kutsch_sim.cli.bench import bench_cmd
from kutsch_sim.sim.bench import BenchPlan, markdown_table, measure_throughput, run_bench

app = typer.Typer()
app.command("bench")(bench_cmd)
app.command("other")(lambda: None)

FIELDS = {
    "kind",
    "players",
    "item_set",
    "bots",
    "games",
    "seconds",
    "games_per_s",
    "us_per_game",
    "us_per_turn",
    "threads",
    "engine",  # the build measured (fingerprint of the jitted sources)
    "cpu",  # and the machine
}


def test_measure_throughput():
    m = measure_throughput(GameConfig(4, "basic"), 200, 1, repeats=2)
    d = m.to_dict()
    assert d.keys() >= FIELDS
    assert (d["kind"], d["players"], d["item_set"], d["bots"], d["games"], d["threads"]) == (
        "throughput",
        4,
        "basic",
        "random",
        200,
        1,
    )
    assert d["games_per_s"] > 0 and len(d["runs"]) == 2 and d["mean_turns"] > 0
    assert abs(d["us_per_game"] * d["games_per_s"] - 1e6) < 1e-3 * 1e6


def test_markdown_table():
    ms = run_bench(
        BenchPlan(
            players=(4,),
            items=("basic", "full"),
            games=100,
            threads=(1,),
            repeats=1,
            startup=False,
            cold=False,
        )
    )
    table = markdown_table(ms)
    assert table.splitlines()[0].startswith("| players | items |")
    assert len(table.splitlines()) == 6 and "| 4 | full | smart | 1 | 100 |" in table
    assert table.splitlines()[-1].startswith("- measured on: ") and ms[0].engine in table  # the machine and the build


def test_cli_markdown_table():
    res = CliRunner().invoke(app, ["bench", "--smoke", "--markdown", "--threads", "1"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.strip().splitlines()
    assert lines[0].startswith("| players | items | bots | threads |") and lines[2].startswith("| 6 | basic | smart | 1 |")
    assert lines[-1].startswith("- warm start-up (new process, cached JIT, one game): ")
    res = CliRunner().invoke(app, ["bench", "--smoke", "--markdown", "--json"])
    assert res.exit_code == 2 and "exclude each other" in res.stderr


def test_cli_smoke_json():
    res = CliRunner().invoke(app, ["bench", "--smoke", "--json", "--threads", "1"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["kind"] for r in rows] == ["throughput", "warm_startup"]
    assert all(r.keys() >= FIELDS for r in rows)
    assert rows[1]["seconds"] > 0


def test_cli_table():
    res = CliRunner().invoke(
        app,
        ["bench", "-n", "4", "-i", "basic", "-g", "100", "-t", "1", "-r", "1", "--no-cold", "--no-startup"],
    )
    assert res.exit_code == 0, res.output
    assert "games/s" in res.stdout and "basic" in res.stdout and "start-up" not in res.stdout
    assert "one thread" not in res.stdout  # one thread count: no speed-up line


def test_cli_table_says_the_thread_speedup():
    res = CliRunner().invoke(
        app,
        ["bench", "-n", "4", "-i", "basic", "-g", "200", "-t", "1,2", "-r", "1", "--no-startup"],
    )
    assert res.exit_code == 0, res.output
    line = next(x for x in res.stdout.splitlines() if "one thread" in x)
    assert line.startswith("4 players, basic,") and " 2 threads " in line
    assert float(line.split(" threads ")[1].split("x")[0]) > 0


def _bot_cost():
    from _helpers_scripts import load_script

    return load_script("reproduce/bot_cost.py", "bot_cost")


def test_bot_cost_table_has_every_profile_and_its_ratios(capsys, tmp_path):
    """scripts/reproduce/bot_cost.py (the bots' cost figures): one row per count, random, greedy and smart
    measured, the ratios computed from the medians it prints."""
    out = tmp_path / "m.jsonl"
    rc = _bot_cost().main(["--players", "3,4", "--games", "40", "--repeats", "1", "--json", str(out)])
    assert rc == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| 3 ") or r.startswith("| 4 ")]
    assert len(rows) == 2
    raw = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((m["players"], m["bots"]) for m in raw) == sorted(
        (n, b) for n in (3, 4) for b in ("random", "greedy", "smart"))
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        n = int(cells[0])
        us = {m["bots"]: m["us_per_game"] for m in raw if m["players"] == n}
        turn = {m["bots"]: m["us_per_turn"] for m in raw if m["players"] == n}
        assert cells[2] == f"{us['random']:.1f}" and cells[4] == f"{us['greedy']:.1f}" and cells[6] == f"{us['smart']:.1f}"
        assert cells[8] == f"{turn['greedy'] / turn['random']:.1f}×"
        assert cells[9] == f"{us['smart'] / us['random']:.1f}×"
        assert cells[11] == f"{turn['smart'] / turn['greedy']:.1f}×"


def test_bot_cost_bad_input_is_one_line_and_exit_2(capsys):
    mod = _bot_cost()
    assert mod.main(["--rounds", "0"]) == 2
    assert mod.main(["--players", "11"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(e.startswith("bot_cost: error:") for e in err)
