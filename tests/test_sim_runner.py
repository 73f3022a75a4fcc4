"""Runs into a results store: one table, identical records across threads, chunkings and resumes."""

from __future__ import annotations

import json
import shlex

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from kutsch_sim._jitcache import source_hash
from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.cli.simulate import simulate_cmd
from kutsch_sim.sim import store
from kutsch_sim.sim.options import sim_options
from kutsch_sim.sim.runner import Run, simulate

GAMES = 150
app = typer.Typer()
app.command("simulate")(simulate_cmd)
app.command("other")(lambda: None)  # two commands: "simulate" stays a sub-command, as in the real CLI


def _opts(out, **kw):
    args = {"players": "4,5", "items": "basic,full", "games": GAMES, "seed": 7, "chunk_size": 64} | kw
    return sim_options(out=out, **args)


def _load(out) -> pd.DataFrame:
    df = pd.read_parquet(out)
    return df.sort_values(["players", "item_set", "game"]).reset_index(drop=True)


def _same_tables(a, b) -> None:
    pd.testing.assert_frame_equal(_load(a), _load(b), check_categorical=False)


def _chunk_files(out) -> dict:
    return {p.relative_to(out).as_posix(): p for p in sorted(out.rglob("chunk-*.parquet"))}


def _same_chunks(a, b) -> None:
    fa, fb = _chunk_files(a), _chunk_files(b)
    assert fa.keys() == fb.keys()
    for k in fa:
        assert pq.read_table(fa[k]).equals(pq.read_table(fb[k])), k


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "out"
    summary = simulate(_opts(out))
    assert summary.complete
    # the wall time splits into play (the chunks), loading the engine (one warm-up game) and the rest
    assert summary.play_seconds > 0 and summary.load_seconds >= 0
    assert summary.play_seconds + summary.load_seconds <= summary.seconds
    assert summary.play_games_per_s > summary.games_per_s > 0
    return out


def test_store_loads_as_one_table(reference):
    df = pd.read_parquet(reference)
    assert len(df) == 4 * GAMES
    assert df.columns.is_unique
    assert df["players"].dtype == np.int8 and isinstance(df["item_set"].dtype, pd.CategoricalDtype)
    assert df["seed"].dtype == np.uint64 and df["game"].dtype == np.int64
    for (n, _item), g in df.groupby(["players", "item_set"], observed=True):
        assert sorted(g["game"]) == list(range(GAMES))
        assert set(g["bots"].astype(str)) == {",".join(["smart"] * n)}
    assert set(df["winner"].astype(str)) <= {"order", "brotherhood", "solo", "timeout"}
    assert sorted(_chunk_files(reference))[0] == "players-04/item_set-basic/chunk-000000.parquet"
    assert not list(reference.rglob(".*"))  # no temporaries left


def test_manifest(reference):
    m = json.loads((reference / store.MANIFEST).read_text())
    assert m["status"] == "complete" and m["seed"] == 7
    assert m["counts"] == {
        "configurations": 4,
        "chunks": 12,
        "chunks_done": 12,
        "games": 4 * GAMES,
        "games_done": 4 * GAMES,
    }
    assert m["options"]["players"] == [4, 5] and m["options"]["items"] == ["basic", "full"]
    assert {"package_version", "rules_version", "rules", "timings", "sessions"} <= m.keys()
    cfg = m["configurations"][3]
    assert (cfg["players"], cfg["item_set"], cfg["games"]) == (5, "full", GAMES)
    assert [c["games"] for c in cfg["chunks"]] == [64, 64, 22]
    assert all(c["status"] == "done" and sum(c["winners"].values()) == c["games"] for c in cfg["chunks"])
    assert store.read_manifest(reference) == m


def test_records_are_run_batch(reference):
    cfg = GameConfig(5, "full", ("smart",))  # simulate's default bots
    want = store.records_frame(cfg, 7, 0, run_batch(cfg, 7, 0, GAMES))
    got = _load(reference).query("players == 5 and item_set == 'full'").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want, check_categorical=False)


def test_chunk_size_does_not_matter(reference, tmp_path):
    simulate(_opts(tmp_path / "a", chunk_size=1000))
    simulate(_opts(tmp_path / "b", chunk_size=17))
    _same_tables(reference, tmp_path / "a")
    _same_tables(reference, tmp_path / "b")


def test_threads_do_not_matter(reference, tmp_path):
    before = numba.get_num_threads()
    simulate(_opts(tmp_path / "t1", threads=1))
    assert numba.get_num_threads() == before  # restored
    numba.set_num_threads(1)
    try:
        simulate(_opts(tmp_path / "t2", threads=min(2, numba.config.NUMBA_NUM_THREADS)))
    finally:
        numba.set_num_threads(before)
    _same_chunks(reference, tmp_path / "t1")
    _same_chunks(reference, tmp_path / "t2")


def test_interrupt_then_resume_is_identical(reference, tmp_path, monkeypatch):
    out = tmp_path / "out"
    real = Run.finish_chunk
    calls = []

    def flaky(self, ch, records, seconds):
        if len(calls) == 5:
            raise KeyboardInterrupt  # Ctrl-C after 5 finished chunks
        calls.append(ch)
        real(self, ch, records, seconds)

    monkeypatch.setattr(Run, "finish_chunk", flaky)
    with pytest.raises(KeyboardInterrupt):
        simulate(_opts(out))
    monkeypatch.setattr(Run, "finish_chunk", real)
    m = store.read_manifest(out)
    assert m["status"] == "interrupted" and m["counts"]["chunks_done"] == 5
    done_games = m["counts"]["games_done"]
    assert done_games == 64 + 64 + 22 + 64 + 64
    assert len(_chunk_files(out)) == 5
    # A kill between a chunk's rename and the manifest update, plus a half-written temporary:
    first = m["configurations"][0]["chunks"][0]
    first.update(status="pending")
    store.write_manifest(out, m)
    (out / "players-04/item_set-full/.chunk-000000.parquet.123.tmp").write_bytes(b"half")
    # The unfinished store is still usable as one table
    assert len(pd.read_parquet(out)) == done_games

    def cli(seed: int, *extra: str):
        words = f"simulate -n 4,5 -i basic,full -g {GAMES} -s {seed} --chunk-size 64 -o".split()
        return CliRunner().invoke(app, [*words, str(out), *extra])

    res = cli(7)
    assert res.exit_code == 2 and "--resume" in res.stderr
    res = cli(8, "--resume")
    assert res.exit_code == 2 and "seed 8 differs" in res.stderr
    res = cli(7, "--resume")
    assert res.exit_code == 0, res.output
    assert "Winner shares" in res.stdout
    _same_chunks(reference, out)
    _same_tables(reference, out)
    m2 = store.read_manifest(out)
    assert m2["status"] == "complete" and [s["status"] for s in m2["sessions"]] == ["interrupted", "complete"]
    assert m2["sessions"][1]["games"] == 4 * GAMES - done_games  # chunk 0 was found on disk, not replayed
    keys = ("index", "game0", "games", "file", "status", "rows", "winners", "turns")
    for ca, cb in zip(m2["configurations"], store.read_manifest(reference)["configurations"], strict=True):
        assert [{k: e[k] for k in keys} for e in ca["chunks"]] == [
            {k: e[k] for k in keys} for e in cb["chunks"]
        ]
    assert not list(out.rglob(".*.tmp"))


def test_resume_refuses_a_run_of_other_engine_sources(tmp_path):
    """Any edit of the engine or the bots can change games without a new package or rules
    version: the manifest keeps a fingerprint of the jitted sources, and --resume compares it."""
    out = tmp_path / "o"
    args = [*shlex.split("simulate -n 4 -g 40 --chunk-size 16 --bots random -o"), str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0
    m = store.read_manifest(out)
    assert m["engine"] == source_hash() and m["sessions"][0]["host"]["cpu"]
    m["engine"] = "0123456789abcdef"
    m["configurations"][0]["chunks"][-1]["status"] = "pending"
    store.write_manifest(out, m)
    res = CliRunner().invoke(app, [*args, "--resume"])
    assert res.exit_code == 2 and "other engine and bot sources" in res.stderr
    assert res.stderr.count("\n") == 1  # one line, no traceback


def test_force_replaces(tmp_path):
    out = tmp_path / "out"
    simulate(_opts(out, players="4", items="basic", games=20, seed=1))
    args = shlex.split("simulate --players 5 --items full --games 30 --chunk-size 64 --force --out")
    res = CliRunner().invoke(app, [*args, str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert len(df) == 30 and set(df["players"]) == {5}
    assert list(_chunk_files(out)) == ["players-05/item_set-full/chunk-000000.parquet"]


def test_cli_run_prints_summary(tmp_path):
    out = tmp_path / "o"
    args = [*shlex.split("simulate -n 4 -g 40 --no-drink --bots random,first,random,first -o"), str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Winner shares" in res.stdout and "40 games" in res.stdout
    df = pd.read_parquet(out)
    assert len(df) == 40 and not df["drink"].any() and set(df["bot_1"].astype(str)) == {"first"}
    again = CliRunner().invoke(app, [*args, "--resume"])
    assert "games/s" in res.stdout and "s of play" in res.stdout
    assert again.exit_code == 0 and "0 games played" in again.stdout  # nothing left to do


@pytest.mark.slow
def test_real_ctrl_c_and_kill_then_resume(tmp_path):
    """SIGINT, then SIGKILL of the resumed run, then a final --resume: the store of an uninterrupted run.
    The child restores Python's Ctrl-C handler first: started from a non-interactive shell's
    background job (as CI may run), it inherits SIGINT ignored, and Python keeps it ignored."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "out"
    # 60 chunks: the run must last long enough (seconds) to be interrupted after its second chunk
    args = [*shlex.split("-n 4 -i basic -g 6000 -s 3 --chunk-size 100 -t 1"), "-o", str(out)]
    code = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "import sys, typer; from kutsch_sim.cli.simulate import simulate_cmd; typer.run(simulate_cmd)")
    env = dict(os.environ, PYTHONPATH=str(root))

    def start_and_stop(sig: int, extra: list[str]) -> subprocess.CompletedProcess | int:
        before = len(_chunk_files(out)) if out.exists() else 0
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *args, *extra],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 300
        while len(_chunk_files(out)) < before + 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be interrupted"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        return proc.returncode, err

    rc, err = start_and_stop(signal.SIGINT, [])
    assert rc == 130 and "--resume to finish" in err, err
    assert store.read_manifest(out)["status"] == "interrupted"
    n_int = len(_chunk_files(out))
    assert 0 < n_int < 60 and len(pd.read_parquet(out)) == 100 * n_int
    rc, _ = start_and_stop(signal.SIGKILL, ["--resume"])
    assert rc == -signal.SIGKILL
    assert len(_chunk_files(out)) > n_int and store.read_manifest(out)["status"] == "running"
    len(pd.read_parquet(out))  # every finished chunk is readable after a kill
    res = CliRunner().invoke(app, ["simulate", *args, "--resume"])
    assert res.exit_code == 0, res.output
    ref = tmp_path / "ref"
    simulate(sim_options(out=ref, players="4", items="basic", games=6000, seed=3, chunk_size=100))
    _same_chunks(ref, out)
    assert store.read_manifest(out)["counts"]["chunks_done"] == 60


def test_summary_says_whether_it_loaded_or_compiled_the_engine():
    """The summary line names the warm-up for what it was: a first run of these sources
    compiles for minutes, a later one loads the cached engine in about a second."""
    from kutsch_sim.sim.runner import Summary

    loaded = Summary([], 1000, 3.0, True, 1.5, 1.2, False).timing_text()
    compiled = Summary([], 1000, 170.0, True, 1.5, 160.0, True).timing_text()
    assert "1.2 s loading the compiled engine" in loaded and "compiling" not in loaded
    assert "160.0 s compiling the engine (first run of these sources)" in compiled
