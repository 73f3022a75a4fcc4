"""What the commands share: the one-line error, progress bars, the summary table, and the
options spelled alike in several commands."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..rules_table import variant_option_help

MAX_BARS = 12  # with more configurations, a finished configuration's bar is removed


def fail(msg: object) -> None:
    """One line on stderr and exit status 2 (bad input)."""
    typer.echo(f"kutsch-sim: error: {msg}", err=True)
    raise typer.Exit(2)


class RateColumn(ProgressColumn):
    """Games per second of a task (rich's own speed estimate)."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:>9,.0f} games/s" if speed else "        - games/s", style="cyan")


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def summary_table(summary) -> Table:
    """Winner shares per configuration (percent of the games stored), with a ladder's rung first."""
    rungs = any("rung" in r for r in summary.rows)
    # one space between columns leaves room for the rung in 80 columns
    table = Table(title="Winner shares per configuration", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=rungs)
    for name in ("rung",) * rungs + ("N", "items", "games", "order", "broth.", "solo", "timeout", "errors", "turns"):
        table.add_column(name, justify="left" if name in ("rung", "items") else "right", no_wrap=True)
    for r in summary.rows:
        g = r["games"]
        w = r["winners"]

        def pct(k: str, w=w, g=g) -> str:
            return f"{100 * w[k] / g:.1f}%" if g else "-"

        table.add_row(
            *([r.get("rung", "")] if rungs else []),
            str(r["players"]),
            r["item_set"],
            f"{g:,}",
            pct("order"),
            pct("brotherhood"),
            pct("solo"),
            pct("timeout"),
            f"{w['error'] + w['none']:,}",
            f"{r['mean_turns']:.1f}",
        )
    return table


# Options shared by simulate, bench and study (same spelling and parsing in each).
Players = Annotated[
    str, typer.Option("--players", "-n", metavar="N[-M],...", help="Player counts: 6, 3-10, 4,6,8 or 3-5,9.")
]
Items = Annotated[
    str,
    typer.Option(
        "--items", "-i", metavar="SET,...", help="Item sets, comma-separated: basic,full,basic+Loge."
    ),
]
Bots = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        metavar="BOT[,...]",
        help="One bot profile for every seat, or one per seat (one player count).",
    ),
]
Seed = Annotated[str, typer.Option("--seed", "-s", metavar="S", help="Master seed (0 or more).")]
Variant = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        metavar="NAME[,...]",
        help=variant_option_help("Rule variant for every game"),
    ),
]
Threads = Annotated[
    str | None,
    typer.Option(
        "--threads", "-t", metavar="T", help="numba threads (default: all cores); with --scheduler, per worker."
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS", help="Run chunks on this Dask scheduler, e.g. tcp://host:8786."),
]


COMPILING = ("kutsch-sim: compiling the engine (first run of these sources: one to two minutes on 2 cores; "
             "cached afterwards)")


def kernel_cached(kernel: str = "play_games_nb", source: str = "play.py") -> bool:
    """Whether numba's cache holds ``kernel`` compiled from these sources (kutsch_sim._jitcache)."""
    from .._jitcache import kernel_cached as cached

    return cached(kernel, source)
