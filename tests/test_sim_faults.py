"""Write faults: a full disk or a folder made unwritable mid-run ends with one line (the path,
what is kept, the way on) and exit code 2; no half-written file; ``--resume`` then finishes
with the records of an uninterrupted run. The writers are patched: the tests run as root,
for whom chmod does not make a folder unwritable."""

from __future__ import annotations

import errno
import pathlib
import shlex

import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from kutsch_sim.cli.report import report_cmd
from kutsch_sim.cli.simulate import simulate_cmd
from kutsch_sim.sim import paths, runner, store
from kutsch_sim.sim.options import sim_options
from kutsch_sim.sim.runner import simulate

app = typer.Typer()
app.command("simulate")(simulate_cmd)
app.command("report")(report_cmd)

ARGS = "simulate -n 4,5 -i basic,full -g 90 -s 7 --chunk-size 40 --bots random -o"  # 4 x 3 = 12 chunks


def _simulate(out, *extra: str):
    return CliRunner().invoke(app, [*shlex.split(ARGS), str(out), *extra])


def _chunks(out) -> dict:
    return {p.relative_to(out).as_posix(): p for p in sorted(out.rglob("chunk-*.parquet"))}


def _one_line(res) -> str:
    """The one error line (the progress bars above it are stderr's too); no traceback."""
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert "Traceback" not in res.output and [x for x in lines if "error" in x] == lines[-1:], res.output
    assert lines[-1].startswith("kutsch-sim: error: cannot write ")
    return lines[-1]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "out"
    simulate(sim_options(out=out, players="4,5", items="basic,full", games=90, seed=7, chunk_size=40,
                         bots="random"))
    return out


def _fail_after(monkeypatch, module, name: str, calls: int, error: OSError, match: str = "") -> None:
    """Patch ``module.name`` (a writer taking the path first) to raise ``error`` from its
    ``calls``-th call on a path containing ``match``, after writing a few bytes there (half a file)."""
    real = getattr(module, name)
    seen = []

    def writer(*args):
        path = args[0] if name == "_write_text" else args[1]
        if match in str(path):
            seen.append(path)
            if len(seen) >= calls:
                pathlib.Path(path).write_bytes(b"half")
                raise OSError(error.errno, error.strerror, str(path))
        return real(*args)

    monkeypatch.setattr(module, name, writer)


def _resumes_to_reference(out, reference) -> None:
    res = _simulate(out, "--resume")
    assert res.exit_code == 0, res.output
    got, want = _chunks(out), _chunks(reference)
    assert got.keys() == want.keys()
    for k in got:
        assert pq.read_table(got[k]).equals(pq.read_table(want[k])), k
    assert store.read_manifest(out)["status"] == "complete"
    assert not list(out.rglob(".*.tmp"))


def test_disk_full_while_writing_a_chunk(tmp_path, monkeypatch, reference):
    out = tmp_path / "out"
    _fail_after(monkeypatch, store, "_write_table", 5, OSError(errno.ENOSPC, "No space left on device"))
    err = _one_line(_simulate(out))
    assert f"cannot write {out}/players-04/item_set-full/chunk-000001.parquet: No space left on device" in err
    assert f"4 of 12 chunks are finished and kept in {out}; free some space" in err
    assert "run the same command with --resume to finish" in err
    assert len(_chunks(out)) == 4 and not list(out.rglob(".*.tmp"))  # no half-written file
    assert store.read_manifest(out)["status"] == "failed"
    monkeypatch.undo()
    _resumes_to_reference(out, reference)


def test_disk_full_while_writing_the_manifest(tmp_path, monkeypatch, reference):
    out = tmp_path / "out"
    monkeypatch.setattr(runner, "MANIFEST_EVERY", 0.0)  # the manifest after every chunk
    _fail_after(monkeypatch, store, "_write_text", 6, OSError(errno.ENOSPC, "No space left on device"),
                match=store.MANIFEST)
    err = _one_line(_simulate(out))
    # writes: at open, at the session's start, after chunks 1, 2 and 3; the 6th, after chunk 4,
    # fails, and so does the retry as the run stops: the manifest on disk is the 5th
    assert f"cannot write {out}/{store.MANIFEST}: No space left on device" in err
    assert "4 of 12 chunks are finished and kept" in err and "--resume" in err
    assert len(_chunks(out)) == 4 and not list(out.rglob(".*.tmp"))
    assert store.read_manifest(out)["counts"]["chunks_done"] == 3  # a resume reads the chunk files
    monkeypatch.undo()
    _resumes_to_reference(out, reference)


def test_folder_made_unwritable_mid_run(tmp_path, monkeypatch, reference):
    out = tmp_path / "out"
    _fail_after(monkeypatch, store, "_write_table", 1, PermissionError(errno.EACCES, "Permission denied"),
                match="players-05")
    err = _one_line(_simulate(out))
    assert f"cannot write {out}/players-05/item_set-basic/chunk-000000.parquet: Permission denied" in err
    assert f"6 of 12 chunks are finished and kept in {out}; make {out}/players-05/item_set-basic writable" in err
    assert len(_chunks(out)) == 6 and not list(out.rglob(".*.tmp"))
    monkeypatch.undo()
    _resumes_to_reference(out, reference)


def test_report_beside_a_store_it_cannot_write(tmp_path, monkeypatch, reference):
    """The default report folder is RESULTS-report beside the store: an unwritable parent is
    one line before any work, and nothing is left behind."""
    res_dir = tmp_path / "res"
    res_dir.symlink_to(reference, target_is_directory=True)

    def refuse(*_a, **_k):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(paths.tempfile, "mkstemp", refuse)
    err = _one_line(CliRunner().invoke(app, ["report", str(res_dir)]))
    assert f"cannot write the report to '{tmp_path}/res-report': Permission denied" in err
    assert f"no report file was changed and the results in {res_dir} are untouched" in err
    assert "--out" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]  # the probe's folder is removed again


def test_report_disk_full_keeps_the_old_report(tmp_path, monkeypatch, reference):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.md").write_text("the old report\n")
    real = pathlib.Path.write_text

    def full(self, *args, **kw):
        if self.name == "report.html":
            real(self, "<html>half")
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *args, **kw)

    monkeypatch.setattr(pathlib.Path, "write_text", full)
    err = _one_line(CliRunner().invoke(app, ["report", str(reference), "--out", str(out)]))
    assert f"cannot write {out}/report.html: No space left on device" in err
    assert "free some space" in err and "then run the command again" in err
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]  # nothing new, no staging folder
    assert (out / "report.md").read_text() == "the old report\n"
    monkeypatch.undo()
    res = CliRunner().invoke(app, ["report", str(reference), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert {"report.md", "report.html", "tables", "figures"} <= {p.name for p in out.iterdir()}
    assert "the old report" not in (out / "report.md").read_text()
    assert not list(out.glob(".staging-*"))


def test_a_ctrl_c_that_surfaces_as_another_error_ends_in_one_line(monkeypatch, capsys):
    """A Ctrl-C that lands in a callback numba's compiler makes from C is dropped there, and the
    compile then fails with an error of its own: after a Ctrl-C any error ends in one line and
    exit code 130. Without a Ctrl-C, an error is not hidden."""
    from kutsch_sim.cli import app as cli_app

    def failing_compile():
        raise RuntimeError("no compiled object yet for <Library 'init_game_nb'>")

    monkeypatch.setattr(cli_app, "app", failing_compile)
    monkeypatch.setattr(cli_app.threading, "main_thread", lambda: None)  # keep pytest's own SIGINT handler
    monkeypatch.setattr(cli_app, "_INTERRUPTED", True)
    with pytest.raises(SystemExit) as ex:
        cli_app.main()
    assert ex.value.code == 130
    assert capsys.readouterr().err.strip() == "kutsch-sim: interrupted (Ctrl-C); what was finished is kept"
    monkeypatch.setattr(cli_app, "_INTERRUPTED", False)
    with pytest.raises(RuntimeError):
        cli_app.main()
