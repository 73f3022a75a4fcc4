"""``kutsch-sim study``: the parts, their stores, the report of all of them, resume and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.bots.profiles import PROFILES
from kutsch_sim.cards import ITEM_KEYS, TABLES
from kutsch_sim.cli.app import app
from kutsch_sim.report import load_results
from kutsch_sim.sim import store
from kutsch_sim.sim.runner import Run
from kutsch_sim.sim.study import NO_DRINK_PART, default_bots, standard_parts, study_options

GAMES = 20
SEED = 5
ARGS = ["--games", str(GAMES), "--seed", str(SEED), "--bots", "random"]


def _study(out, *extra: str):
    return CliRunner().invoke(app, ["study", *ARGS, "--out", str(out), *extra])


def _snapshot(root) -> dict:
    return {p.relative_to(root).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def _chunks(results) -> dict:
    return {p.relative_to(results).as_posix(): p for p in sorted(results.rglob("chunk-*.parquet"))}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "s"
    res = _study(out)
    assert res.exit_code == 0, res.output
    return out, res


def test_parts_come_from_the_card_table():
    parts = {p.name: p for p in standard_parts()}
    unstamped = [k for k, row in enumerate(TABLES.items) if not row.stamped]
    added = {f"basic+{ITEM_KEYS[k]}" for k in unstamped}
    assert "basic+Loge" in added and len(added) == len(unstamped) >= 5
    assert set(parts) == {"basic", "full", "full-Loge", NO_DRINK_PART} | added
    for k in unstamped:  # each added card at the player counts it is dealt at (R2.3)
        row = TABLES.items[k]
        assert parts[f"basic+{ITEM_KEYS[k]}"].players == tuple(range(row.min_players, row.max_players + 1))
    for name in ("basic", "full", "basic+Loge", "full-Loge"):
        assert (
            parts[name].players == tuple(range(3, 11)) and parts[name].items == (name,) and parts[name].drink
        )
    off = parts[NO_DRINK_PART]
    assert off.players == (3, 5, 7, 9) and off.items == ("basic", "full") and not off.drink
    assert all(p.drink for p in parts.values() if p is not off)


def test_default_bots_and_command_line(tmp_path):
    assert default_bots() == ("smart" if "smart" in PROFILES else "random")
    opts = study_options(games="2k", seed="9", out=tmp_path / "new")
    assert opts.bots == default_bots() and opts.games == 2000
    assert (
        opts.command_line()
        == f"kutsch-sim study --games 2000 --seed 9 --bots {opts.bots} --out {tmp_path / 'new'}"
    )
    assert all(o.bots[0] == opts.bots and o.games == 2000 and o.seed == 9 for _, o in opts.runs)
    assert not (tmp_path / "new").exists()  # checking writes nothing


def test_study_writes_every_part_and_the_report(study):
    out, res = study
    results, report = out / "results", out / "report"
    command = f"kutsch-sim study --games {GAMES} --seed {SEED} --bots random --out {out}"
    m = store.read_manifest(results)
    assert m["format"] == "kutsch-sim-study" and m["status"] == "complete" and m["command"] == command
    assert [p["name"] for p in m["parts"]] == [p.name for p in standard_parts()]
    for part in standard_parts():
        pm = store.read_manifest(results / part.name)
        assert pm["status"] == "complete" and pm["study"] == {"command": command, "part": part.name}
        assert (
            pm["options"]["drink"] == part.drink and pm["counts"]["games_done"] == GAMES * part.configurations
        )
        assert pm["command"].startswith("kutsch-sim simulate")  # repeats this part alone
    md = (report / "report.md").read_text()
    assert md.splitlines()[2] == "## Answers"  # answers first, provenance last
    assert f"**Produced by:** `{command}`" in md.split("\n## ")[-1]
    assert command in (report / "report.html").read_text()
    for name in ("outcomes", "drink_effect", "loge_team", "added_items", "seats", "findings"):
        assert (report / "tables" / f"{name}.csv").is_file(), name
    assert len(list((report / "figures").glob("*.png"))) >= 5
    assert f"{report / 'report.md'} and {report / 'report.html'}" in res.stdout.replace("\n", "")
    assert "Winner shares" in res.stdout and "basic no Drink" in res.stdout  # the Drink-off rows
    assert not list(out.rglob(".*.tmp"))


def test_all_parts_read_as_one_table(study):
    out, _ = study
    df = load_results(out / "results")
    n_cfg = sum(p.configurations for p in standard_parts())
    assert len(df) == n_cfg * GAMES and df["players"].dtype == "int8" and df["drink"].dtype == bool
    sizes = df.groupby(["players", "item_set", "drink"], observed=True).size()
    assert len(sizes) == n_cfg and (sizes == GAMES).all()
    assert set(df.loc[~df["drink"], "players"]) == {3, 5, 7, 9}
    assert 10 not in set(df.loc[df["item_set"] == "basic+Coat", "players"])  # never dealt at 10 (R2.3)
    parts = pd.concat([pd.read_parquet(out / "results" / p.name) for p in standard_parts()])
    assert len(parts) == len(df) == len(pd.read_parquet(out / "results"))
    # A part's records are those of `simulate` (seed, configuration, game index decide a game)
    cfg = GameConfig(5, "full", ("random",), False)
    want = store.records_frame(cfg, SEED, 0, run_batch(cfg, SEED, 0, GAMES))
    got = df[(df["players"] == 5) & (df["item_set"] == "full") & ~df["drink"]].sort_values("game")
    assert got["winner"].astype(str).tolist() == want["winner"].astype(str).tolist()
    assert got["turns"].tolist() == want["turns"].tolist()


def test_report_numbers_recompute_from_parquet(study):
    out, _ = study
    df = pd.read_parquet(out / "results")
    tables = out / "report" / "tables"
    # Order win rate at 4 players, basic
    g = df[(df.players == 4) & (df.item_set == "basic")]
    row = pd.read_csv(tables / "outcomes.csv").query(
        "players == 4 and item_set == 'basic' and outcome == 'order'"
    )
    assert row["n"].item() == len(g) == GAMES
    assert row["rate"].item() == pytest.approx((g.winner == "order").mean())
    assert (
        f"| 4 | basic | {GAMES} | {100 * (g.winner == 'order').mean():.1f}% ("
        in (out / "report/report.md").read_text()
    )
    # Drink of Power effect at 3 players: minority team's win rate with the Drink on minus off (basic + full)
    d3 = df[(df.players == 3) & df.item_set.isin(["basic", "full"])]
    rate = {on: (s.winner.astype(str) == s.minority.astype(str)).mean() for on, s in d3.groupby("drink")}
    eff = pd.read_csv(tables / "drink_effect.csv").query(
        "players == 3 and item_set == 'all' and team == 'minority'"
    )
    assert eff["diff"].item() == pytest.approx(rate[True] - rate[False])
    # Adding the Tome to basic at 6 players: the Order's win rate with it minus without
    b6 = df[df.players == 6]
    diff = (b6[b6.item_set == "basic+Tome"].winner == "order").mean() - (
        b6[b6.item_set == "basic"].winner == "order"
    ).mean()
    add = pd.read_csv(tables / "added_items.csv").query(
        "players == 6 and set_with == 'basic+Tome' and outcome == 'order'"
    )
    assert add["diff"].item() == pytest.approx(diff)


def test_report_command_reads_the_study(study, tmp_path):
    out, _ = study
    res = CliRunner().invoke(app, ["report", str(out / "results"), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "rep" / "report.md").read_text()
    n = sum(p.configurations for p in standard_parts()) * GAMES
    assert f"**Data:** {n:,} games" in text
    a = pd.read_csv(tmp_path / "rep" / "tables" / "outcomes.csv")
    pd.testing.assert_frame_equal(a, pd.read_csv(out / "report" / "tables" / "outcomes.csv"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be between"),
        (["--games", "lots"], "--games: expected a whole number"),
        (["--seed", "-1"], "--seed"),
        (["--bots", "nobody"], "unknown bot profile 'nobody'"),
        (["--bots", "random,random,random"], "name one profile for every seat"),
        (["--threads", "0"], "--threads must be between"),
        (["--threads", "9999"], "--threads must be between"),
        (["--variants", "smuggling,"], "--variants: empty variant name"),
        (["--variants", "nonsense"], "unknown variant 'nonsense'"),
        (["--scheduler", " "], "--scheduler: empty address"),
        (["--resume", "--force"], "exclude each other"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "new"
    res = CliRunner().invoke(app, ["study", "--games", "10", *args, "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert (
        res.stderr.count("\n") == 1 and res.stderr.startswith("kutsch-sim: error: ") and message in res.stderr
    )
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_bad_out_exits_2_and_writes_nothing(study, tmp_path):
    cases = []
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("mine")
    cases.append((junk, [], "holds no kutsch-sim study"))
    a_file = tmp_path / "file"
    a_file.write_text("x")
    cases.append((a_file, [], "not a directory"))
    copy = tmp_path / "copy"
    shutil.copytree(study[0], copy)
    cases.append((copy, [], "already holds a study; pass --resume"))
    cases.append((copy, ["--resume", "--seed", "6"], "seed 6 differs"))
    cases.append((copy, ["--force", "--bots", "nobody"], "unknown bot profile"))
    cases.append((tmp_path / "missing" / "deeper", ["--threads", "x"], "--threads"))
    before = _snapshot(tmp_path)
    for out, extra, message in cases:
        res = _study(out, *extra)
        assert res.exit_code == 2, (out, res.output)
        assert res.stderr.count("\n") == 1 and message in res.stderr, res.stderr
    res = CliRunner().invoke(app, ["study", "--games", "10"])
    assert res.exit_code == 2 and "--out DIR is required" in res.stderr
    assert _snapshot(tmp_path) == before


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_unwritable_out_exits_2(tmp_path):
    """os.access says yes to root under /proc; the probe file says no, before any game is played."""
    res = _study(Path("/proc/kutsch-sim-study"))
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "cannot write" in res.stderr, res.output


@pytest.mark.slow
def test_interrupt_then_resume_is_identical(study, tmp_path, monkeypatch):
    ref = study[0] / "results"
    out = tmp_path / "s"
    real = Run.finish_chunk
    calls = []

    def flaky(self, ch, records, seconds):
        if len(calls) == 11:  # Ctrl-C inside the second part (8 chunks of `basic`, 3 of `full`)
            raise KeyboardInterrupt
        calls.append(ch)
        real(self, ch, records, seconds)

    monkeypatch.setattr(Run, "finish_chunk", flaky)
    res = _study(out)
    monkeypatch.setattr(Run, "finish_chunk", real)
    assert res.exit_code == 130, res.output
    assert "1 of 9 parts finished; 11 of 71 chunks are kept" in res.stderr
    assert (
        f"`kutsch-sim study --games {GAMES} --seed {SEED} --bots random --out {out} --resume`" in res.stderr
    )
    m = store.read_manifest(out / "results")
    assert m["status"] == "interrupted"
    assert [p["status"] for p in m["parts"][:3]] == ["complete", "interrupted", "pending"]
    assert len(load_results(out / "results")) == 11 * GAMES  # what is kept reads as one table
    assert not (out / "report" / "report.md").exists()

    res = _study(out, "--resume")
    assert res.exit_code == 0, res.output
    assert store.read_manifest(out / "results")["status"] == "complete"
    got, want = _chunks(out / "results"), _chunks(ref)
    assert got.keys() == want.keys()
    for k in got:
        assert pq.read_table(got[k]).equals(pq.read_table(want[k])), k
    played = sum(
        s["games"]
        for p in standard_parts()
        for s in store.read_manifest(out / "results" / p.name)["sessions"]
    )
    assert played == len(got) * GAMES  # no finished chunk was played twice
    for name in ("outcomes.csv", "drink_effect.csv", "added_items.csv"):
        pd.testing.assert_frame_equal(
            pd.read_csv(out / "report" / "tables" / name), pd.read_csv(study[0] / "report" / "tables" / name)
        )


@pytest.mark.slow
def test_force_replaces_the_study(study, tmp_path):
    out = tmp_path / "s"
    shutil.copytree(study[0], out)
    (out / "report" / "figures" / "old.png").write_bytes(b"stale")
    res = CliRunner().invoke(
        app, ["study", "--games", "7", "--seed", "2", "--bots", "random", "--out", str(out), "--force"]
    )
    assert res.exit_code == 0, res.output
    df = load_results(out / "results")
    assert len(df) == 7 * sum(p.configurations for p in standard_parts()) and set(df["seed"]) == {2}
    assert not (out / "report" / "figures" / "old.png").exists()
    assert json.loads((out / "results" / "_manifest.json").read_text())["plan"]["games"] == 7


@pytest.mark.slow
def test_disk_full_mid_study_then_resume_is_identical(study, tmp_path, monkeypatch):
    """A chunk that cannot be written ends the study with one line: the file, what is kept and
    the study's own --resume command; the resumed study has the records of an uninterrupted one."""
    import errno

    out = tmp_path / "s"
    real, calls = store._write_table, []

    def full(table, path):
        calls.append(path)
        if len(calls) == 10:  # the second chunk of the second part (8 chunks of `basic`)
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(table, path)

    monkeypatch.setattr(store, "_write_table", full)
    res = _study(out)
    monkeypatch.undo()
    assert res.exit_code == 2, res.output
    line = res.stderr.strip().splitlines()[-1]
    assert "Traceback" not in res.output and line.startswith("kutsch-sim: error: cannot write ")
    assert "results/full/players-04/item_set-full/chunk-000000.parquet: No space left on device" in line
    assert "1 of 9 parts finished; 9 of 71 chunks are kept" in line and "free some space" in line
    assert f"`kutsch-sim study --games {GAMES} --seed {SEED} --bots random --out {out} --resume`" in line
    assert store.read_manifest(out / "results")["status"] == "failed"
    assert not list(out.rglob(".*.tmp")) and not (out / "report").exists()
    res = _study(out, "--resume")
    assert res.exit_code == 0, res.output
    got, want = _chunks(out / "results"), _chunks(study[0] / "results")
    assert got.keys() == want.keys()
    for k in got:
        assert pq.read_table(got[k]).equals(pq.read_table(want[k])), k
