"""``kutsch-sim report DIR --out REPORTDIR``: the balance report of a results store."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import KutschError
from ..sim.paths import WriteFault, probe_writable_dir, write_staged
from .common import fail


def check_results_dir(path: Path) -> None:
    if not path.is_dir():
        raise KutschError(f"results directory {str(path)!r} does not exist")
    if not any(path.rglob("*.parquet")):
        raise KutschError(f"no Parquet results under {str(path)!r} (run `kutsch-sim simulate --out DIR` first)")


def read_results(path: Path):
    from ..report import load_results

    try:
        return load_results(path)
    except (OSError, ValueError) as e:  # pyarrow errors are ValueErrors; the user needs one line
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise KutschError(f"cannot read the results in {str(path)!r}: {first}") from None


def make_report(results: Path, out: Path, command: str | None = None, df=None) -> Path:
    """Write the report of ``results`` into ``out``; returns ``out/report.html``. The files are
    written into a temporary folder inside ``out`` and moved in when all are written, so a write
    that fails (:class:`WriteFault`) changes no file in ``out``."""
    from ..report import load_manifest, write_report

    manifest = load_manifest(results)
    if df is None:
        df = read_results(results)
    if command is None and manifest:
        command = manifest.get("command")
    html = write_staged(out, lambda folder: write_report(
        df, folder, title="Die Kutschfahrt zur Teufelsburg: balance report", command=command, manifest=manifest))
    return Path(out) / html.name


def report_cmd(
    results: Path = typer.Argument(..., help="A results store written by `kutsch-sim simulate` or `study`."),
    out: Path = typer.Option(None, "--out", "-o", help="Report folder (default: RESULTS-report beside it)."),
) -> None:
    """Write report.md, report.html (plots embedded), the PNG plots and every table as CSV."""
    out = out or results.with_name(results.name + "-report")  # not inside: the store stays Parquet only
    try:
        check_results_dir(results)
        df = read_results(results)
        probe_writable_dir(out, "report")
        html = make_report(results, out, df=df)
    except WriteFault as e:
        e.kept = (f"no report file was changed and the results in {results} are untouched; {e.remedy} "
                  "(or name another folder with --out), then run the command again")
        fail(e)
    except KutschError as e:
        fail(e)
    typer.echo(f"report written: {html.parent / 'report.md'} and {html}")
