"""``--scheduler``: chunks played on a local Dask cluster give the store a local run gives."""

from __future__ import annotations

import pandas as pd
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from kutsch_sim.cli.simulate import simulate_cmd
from kutsch_sim.errors import KutschError
from kutsch_sim.sim import cluster as cluster_mod
from kutsch_sim.sim import store
from kutsch_sim.sim.options import sim_options
from kutsch_sim.sim.runner import simulate

distributed = pytest.importorskip("distributed")

app = typer.Typer()
app.command("simulate")(simulate_cmd)
app.command("other")(lambda: None)


@pytest.fixture(scope="module")
def cluster():
    # In-process workers: the test's own numba cache and kernels serve them. The dashboard on any
    # free port (":0"): the suite's two workers may each run a cluster at once.
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as c:
        yield c


def _opts(out, **kw):
    return sim_options(out=out, players="4,5", items="basic", games=90, seed=11, chunk_size=25, **kw)


def test_dask_equals_local(cluster, tmp_path):
    local, remote = tmp_path / "local", tmp_path / "remote"
    simulate(_opts(local))
    summary = simulate(_opts(remote, scheduler=cluster.scheduler_address, threads=1))
    assert summary.complete and summary.games_run == 180
    files = sorted(p.relative_to(local) for p in local.rglob("chunk-*.parquet"))
    assert files == sorted(p.relative_to(remote) for p in remote.rglob("chunk-*.parquet"))
    assert len(files) == 8
    for f in files:
        assert pq.read_table(local / f).equals(pq.read_table(remote / f))
    pd.testing.assert_frame_equal(pd.read_parquet(local), pd.read_parquet(remote))
    m = store.read_manifest(remote)
    assert m["status"] == "complete" and m["sessions"][-1]["scheduler"] == cluster.scheduler_address


def test_dask_resume_after_local_start(cluster, tmp_path):
    """Half a run locally, the rest on the cluster: still the same store."""
    ref, mixed = tmp_path / "ref", tmp_path / "mixed"
    simulate(_opts(ref))
    simulate(sim_options(out=mixed, players="4,5", items="basic", games=90, seed=11, chunk_size=25))
    for f in list(mixed.rglob("chunk-00000[13].parquet")):
        f.unlink()
    simulate(_opts(mixed, scheduler=cluster.scheduler_address, resume=True))
    pd.testing.assert_frame_equal(pd.read_parquet(ref), pd.read_parquet(mixed))


def test_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT", 1.0)
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app, ["simulate", "-n", "4", "-g", "10", "-o", str(out), "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("kutsch-sim: error: --scheduler: cannot reach")
    assert len(res.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_worker_with_other_sources_is_refused(cluster, monkeypatch):
    def other_checkout():
        return ("0.1.0", 1, "0000000000000000"), "/elsewhere/kutsch_sim/__init__.py"

    monkeypatch.setattr(cluster_mod, "_identity_on_worker", other_checkout)
    with pytest.raises(KutschError, match="engine sources 0000000000000000.*install the same checkout"):
        cluster_mod.connect(cluster.scheduler_address)


def test_one_executor_interface_same_records(cluster):
    """The local and the Dask executor take the same tasks through the same call and hand
    ``on_done`` the same records; the cluster module knows nothing of the runner."""
    import ast
    from pathlib import Path

    import numpy as np

    from kutsch_sim.api import GameConfig
    from kutsch_sim.sim.executor import LocalExecutor, Task

    cfg = GameConfig(5, "basic", ("smart",))
    tasks = [Task(k, cfg, 4, g0, 30) for k, g0 in enumerate((0, 30, 60))]
    got = {}
    for name, ex in (("local", LocalExecutor(1)),
                     ("dask", cluster_mod.DaskExecutor(distributed.Client(cluster, set_as_default=False), 1))):
        seen = {}
        ex.execute(tasks, lambda t, rec, _s, seen=seen: seen.__setitem__(t.key, rec.copy()))
        ex.close()
        got[name] = seen
    assert sorted(got["local"]) == sorted(got["dask"]) == [0, 1, 2]
    for k in range(3):
        np.testing.assert_array_equal(got["local"][k], got["dask"][k])
    source = Path(cluster_mod.__file__).read_text()
    imported = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert "runner" not in imported and "executor" in imported
