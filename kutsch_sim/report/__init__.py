"""Balance reports from simulation results: tables with intervals, findings, plots, Markdown/HTML.

Depends on pandas, matplotlib and scipy only (never numba or typer). Typical use::

    from kutsch_sim.report import load_results, load_manifest, write_report
    df = load_results("runs/study")
    write_report(df, Path("runs/study/report"), title="...", command="kutsch-sim study ...",
                 manifest=load_manifest("runs/study"))
"""

from __future__ import annotations

from .data import load_manifest, load_results, normalize, seat_frame, standard_runs
from .findings import rank_findings, summary
from .render import write_report
from .stats import diff_frame, grouped_rates, newcombe_diff, rate_frame, wilson
from .tables import build_tables

__all__ = [
    "build_tables",
    "diff_frame",
    "grouped_rates",
    "load_manifest",
    "load_results",
    "newcombe_diff",
    "normalize",
    "rank_findings",
    "rate_frame",
    "seat_frame",
    "standard_runs",
    "summary",
    "wilson",
    "write_report",
]
