"""``kutsch-sim ladder``: every rung on the same deals, one table with the rung order in it,
resume and bad input; the same records on 1 or 2 threads and on Dask."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.cli.app import app
from kutsch_sim.errors import KutschError
from kutsch_sim.report import load_results
from kutsch_sim.report.answers import rungs as report_rungs
from kutsch_sim.sim import store
from kutsch_sim.sim.ladder import DEFAULT_RUNGS, STREAM, default_rungs, ladder_options, ladder_parts
from kutsch_sim.sim.runner import Run
from kutsch_sim.sim.study import Study

RUNGS = "random,greedy,smart"
GAMES = 40
SEED = 3
ARGS = ["--rungs", RUNGS, "--players", "3,4", "--items", "basic,basic+Loge", "--games", str(GAMES),
        "--seed", str(SEED)]
PARTS = ["1-random", "1-random-no-drink", "2-greedy", "2-greedy-no-drink", "3-smart", "3-smart-no-drink"]
KEY = ["players", "item_set", "drink", "game"]


def _ladder(out, *extra: str):
    return CliRunner().invoke(app, ["ladder", *ARGS, "--out", str(out), *extra])


def _chunks(results) -> dict:
    return {p.relative_to(results).as_posix(): p for p in sorted(results.rglob("chunk-*.parquet"))}


def _same_chunks(a, b) -> None:
    got, want = _chunks(a), _chunks(b)
    assert got.keys() == want.keys() and len(got) == 15  # 3 rungs x (4 configurations + 1 with the Drink off)
    for k in got:
        assert pq.read_table(got[k]).equals(pq.read_table(want[k])), k


def _deal_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c.split("_")[0] in ("team", "occ", "items") and c.split("_")[-1].isdigit()]


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "l"
    res = _ladder(out)
    assert res.exit_code == 0, res.output
    return out, res


def test_the_stream_label_keys_the_deal_in_place_of_the_bots():
    """Without a label the bots are part of the key (every earlier run keeps its games); with
    one, configurations that differ only in their bots share their streams."""
    a, b = (GameConfig(5, "basic", (bot,), stream=STREAM) for bot in ("random", "smart"))
    assert a.config_id == b.config_id
    assert GameConfig(5, "basic", ("random",)).config_id != GameConfig(5, "basic", ("smart",)).config_id
    assert a.config_id != GameConfig(5, "basic", ("random",)).config_id
    assert a.config_id == GameConfig(5, "basic", ("random",), drink=False, stream=STREAM).config_id
    assert a.describe()["stream"] == STREAM and "stream" not in GameConfig(5).describe()
    with pytest.raises(KutschError, match="no comma"):
        GameConfig(5, stream="random,random")


def test_parts_are_the_rungs_weakest_first():
    parts = ladder_parts(("random", "smart"), (3, 5, 6), ("basic", "basic+Loge"), ("basic",))
    assert [(p.name, p.rung, p.rung_level, p.drink, p.players, p.items) for p in parts] == [
        ("1-random", "random", 1, True, (3, 5, 6), ("basic", "basic+Loge")),
        ("1-random-no-drink", "random", 1, False, (3, 5), ("basic",)),
        ("2-smart", "smart", 2, True, (3, 5, 6), ("basic", "basic+Loge")),
        ("2-smart-no-drink", "smart", 2, False, (3, 5), ("basic",))]
    assert [p.name for p in ladder_parts(("random", "smart"), (4, 6), ("basic",), ("basic",))] == ["1-random", "2-smart"]


def test_default_ladder(tmp_path):
    """Eleven configurations a rung; the default rungs are those of DEFAULT_RUNGS that exist."""
    present, missing = default_rungs()
    assert present + missing != () and set(present) | set(missing) == set(DEFAULT_RUNGS)
    assert list(present) == [r for r in DEFAULT_RUNGS if r in present]  # in the ladder's order
    opts = ladder_options(out=tmp_path / "new")
    assert opts.rungs == present and opts.games == 2000
    assert opts.configurations == 11 * len(present)
    configs = {(c.players, c.item_set, c.drink) for _, o in opts.runs if o.rung == present[0] for c in o.configs()}
    assert configs == {(n, s, True) for n in (3, 5, 6, 9) for s in ("basic", "basic+Loge")} | {
        (n, "basic", False) for n in (3, 5, 9)}
    assert all(c.stream == STREAM for _, o in opts.runs for c in o.configs())
    assert opts.command_line().startswith(f"kutsch-sim ladder --rungs {','.join(present)} --players 3,5,6,9 "
                                          "--items basic,basic+Loge --drink-off basic --games 2000 --seed 1")
    assert not (tmp_path / "new").exists()  # checking writes nothing


def test_every_rung_plays_the_same_deals(ladder):
    """Associations, occupations and starting items of game g are the same at every rung; the
    play is not."""
    df = load_results(ladder[0] / "results")
    deal = _deal_columns(df)
    assert any(c.startswith("team_") for c in deal) and any(c.startswith("occ_") for c in deal)
    assert any(c.startswith("items_") for c in deal)
    by_rung = {r: g.sort_values(KEY).reset_index(drop=True) for r, g in df.groupby("rung", observed=True)}
    assert sorted(by_rung) == sorted(RUNGS.split(","))
    first = by_rung["random"]
    assert len(first) == 5 * GAMES
    for rung, g in by_rung.items():
        pd.testing.assert_frame_equal(g[KEY + deal].astype(str), first[KEY + deal].astype(str), obj=rung)
    assert not by_rung["smart"]["turns"].equals(first["turns"])


def test_a_rung_is_its_profile_on_the_ladder_stream(ladder):
    df = load_results(ladder[0] / "results")
    got = df[(df["rung"] == "greedy") & (df["players"] == 3) & (df["item_set"] == "basic") & ~df["drink"]]
    cfg = GameConfig(3, "basic", ("greedy",), drink=False, stream=STREAM)
    want = store.records_frame(cfg, SEED, 0, run_batch(cfg, SEED, 0, GAMES), ("greedy", 2))
    got = got.sort_values("game").reset_index(drop=True)
    pd.testing.assert_frame_equal(got[want.columns].astype(str), want.astype(str))


def test_play_replays_a_ladder_game(ladder):
    df = load_results(ladder[0] / "results")
    for rung in ("greedy", "smart"):
        row = df[(df["rung"] == rung) & (df["players"] == 4) & (df["item_set"] == "basic+Loge") & (df["game"] == 7)]
        res = CliRunner().invoke(app, ["play", "-n", "4", "-s", str(SEED), "-g", "7", "-i", "basic+Loge", "-b", rung,
                                       "--ladder"])
        assert res.exit_code == 0, res.output
        assert f"Result after {row['turns'].item()} turns" in res.stdout


def test_one_table_with_the_rung_order_in_it(ladder):
    out, res = ladder
    results = out / "results"
    df = load_results(results)
    assert len(df) == 3 * 5 * GAMES and len(pd.read_parquet(results)) == len(df)
    levels = df.groupby("rung", observed=True)["rung_level"].unique()
    assert {r: list(v) for r, v in levels.items()} == {"random": [1], "greedy": [2], "smart": [3]}
    assert df["rung_level"].dtype == np.int8
    assert report_rungs(df) == ["random", "greedy", "smart"]  # the ladder's order, not the alphabet's
    m = store.read_manifest(results)
    assert m["format"] == "kutsch-sim-ladder" and m["status"] == "complete"
    assert m["plan"]["rungs"] == ["random", "greedy", "smart"] and [p["name"] for p in m["parts"]] == PARTS
    command = m["command"]
    assert command == (f"kutsch-sim ladder --rungs {RUNGS} --players 3,4 --items basic,basic+Loge --drink-off basic "
                       f"--games {GAMES} --seed {SEED} --out {out}")
    for name in PARTS:  # each part repeats with the ladder's command (no simulate option sets a stream)
        pm = store.read_manifest(results / name)
        assert pm["status"] == "complete" and pm["command"] == command and pm["options"]["stream"] == STREAM
    assert "rung" in res.stdout and "Winner shares" in res.stdout
    for level, rung in enumerate(RUNGS.split(","), 1):
        assert f"{level} {rung}" in res.stderr  # a progress bar a rung


def test_the_report_reads_the_ladder(ladder, tmp_path):
    out, res = ladder
    md = (out / "report" / "report.md").read_text()
    assert "## Robustness across the skill ladder" in md
    assert "Every rung played the same deals" in md and "`random` (200 games), `greedy` (200 games)" in md
    assert (out / "report" / "figures" / "robustness.png").is_file()
    assert f"{out / 'report' / 'report.md'}" in res.stdout.replace("\n", "")
    res = CliRunner().invoke(app, ["report", str(out / "results"), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    for name in ("robustness.csv", "robustness_verdicts.csv", "answers.csv", "findings.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "rep" / "tables" / name),
                                      pd.read_csv(out / "report" / "tables" / name))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rungs", "random,nobody"], "--rungs: unknown bot profile 'nobody'"),
        (["--rungs", ""], "--rungs: no profile named"),
        (["--rungs", " , "], "--rungs: empty profile name"),
        (["--rungs", "random,greedy,random"], "--rungs: random is named twice"),
        (["--rungs", "smart"], "--rungs: a ladder compares rungs"),
        (["--players", "11"], "--players: 11 is outside 3-10"),
        (["--players", "5-3"], "runs backwards"),
        (["--items", "basic,Foo"], "Foo"),
        (["--drink-off", "full"], "--drink-off: full is not in --items"),
        (["--games", "0"], "--games must be between"),
        (["--seed", "-1"], "--seed"),
        (["--threads", "0"], "--threads must be between"),
        (["--scheduler", " "], "--scheduler: empty address"),
        (["--resume", "--force"], "exclude each other: finish the ladder"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "new"
    res = CliRunner().invoke(app, ["ladder", "--rungs", "random,greedy", "--games", "10", *args, "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("kutsch-sim: error: "), res.stderr
    assert message in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []


def test_bad_out_exits_2_and_changes_nothing(ladder, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(ladder[0], copy)
    study = tmp_path / "study"
    (study / "results").mkdir(parents=True)
    store.write_manifest(study / "results", {"format": "kutsch-sim-study"})
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    for out, extra, message in [
        (copy, [], "already holds a ladder; pass --resume"),
        (copy, ["--resume", "--seed", "4"], "seed 4 differs from the ladder"),
        (copy, ["--resume", "--rungs", "random,smart"], "rungs random,smart differs from the ladder"),
        (study, ["--resume"], "holds no kutsch-sim ladder"),
    ]:
        res = CliRunner().invoke(app, ["ladder", *ARGS, "--out", str(out), *extra])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and message in res.stderr, res.stderr
    res = CliRunner().invoke(app, ["ladder", "--rungs", "random,greedy"])
    assert res.exit_code == 2 and "--out DIR is required" in res.stderr
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == before


def test_interrupt_then_resume_is_identical(ladder, tmp_path, monkeypatch):
    """Ctrl-C inside the second rung keeps every finished chunk; --resume plays only the rest and
    ends with the records of the uninterrupted ladder."""
    out = tmp_path / "l"
    real, calls = Run.finish_chunk, []

    def flaky(self, ch, records, seconds):
        if len(calls) == 7:  # 5 chunks of rung 1, 2 of rung 2
            raise KeyboardInterrupt
        calls.append(ch)
        real(self, ch, records, seconds)

    monkeypatch.setattr(Run, "finish_chunk", flaky)
    res = _ladder(out)
    monkeypatch.setattr(Run, "finish_chunk", real)
    assert res.exit_code == 130, res.output
    assert "2 of 6 parts finished; 7 of 15 chunks are kept" in res.stderr
    assert f"`kutsch-sim ladder --rungs {RUNGS} " in res.stderr and f"--out {out} --resume`" in res.stderr
    assert store.read_manifest(out / "results")["status"] == "interrupted"
    assert len(load_results(out / "results")) == 7 * GAMES
    res = _ladder(out, "--resume")
    assert res.exit_code == 0, res.output
    _same_chunks(out / "results", ladder[0] / "results")
    played = sum(s["games"] for p in PARTS for s in store.read_manifest(out / "results" / p)["sessions"])
    assert played == 15 * GAMES  # no finished chunk was played twice
    tables = sorted(p.name for p in (ladder[0] / "report" / "tables").glob("*.csv"))
    assert tables == sorted(p.name for p in (out / "report" / "tables").glob("*.csv"))
    for name in tables:
        pd.testing.assert_frame_equal(pd.read_csv(out / "report" / "tables" / name),
                                      pd.read_csv(ladder[0] / "report" / "tables" / name))


def _play(out, **kw) -> None:
    opts = ladder_options(rungs=RUNGS, players="3,4", items="basic,basic+Loge", games=GAMES, seed=SEED, out=out, **kw)
    study = Study(opts)
    study.open()
    assert study.execute().complete


def test_threads_and_dask_give_the_same_records(ladder, tmp_path):
    distributed = pytest.importorskip("distributed")
    for threads in (1, 2):
        _play(tmp_path / f"t{threads}", threads=threads)
        _same_chunks(tmp_path / f"t{threads}" / "results", ladder[0] / "results")
    # in-process workers: the test's own numba cache and kernels serve them
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as c:
        _play(tmp_path / "dask", scheduler=c.scheduler_address, threads=1)
    _same_chunks(tmp_path / "dask" / "results", ladder[0] / "results")
    assert store.read_manifest(tmp_path / "dask" / "results" / "2-greedy")["sessions"][-1]["scheduler"]


def test_a_search_rung_gives_the_same_records_on_threads_and_dask(tmp_path):
    """The search bot's games too depend on (seed, configuration, game) only."""
    distributed = pytest.importorskip("distributed")

    def play(out, **kw):
        opts = ladder_options(rungs="smart,search-s", players="5", items="basic", games=12, seed=SEED, out=out, **kw)
        study = Study(opts)
        study.open()
        assert study.execute().complete
        return _chunks(out / "results")

    want = play(tmp_path / "t1", threads=1)
    assert len(want) == 4 and any(k.startswith("2-search-s/") for k in want)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as c:
        runs = {"t2": play(tmp_path / "t2", threads=2), "dask": play(tmp_path / "dask", scheduler=c.scheduler_address,
                                                                      threads=2)}
    for got in runs.values():
        assert got.keys() == want.keys()
        for k in want:
            assert pq.read_table(got[k]).equals(pq.read_table(want[k])), k
