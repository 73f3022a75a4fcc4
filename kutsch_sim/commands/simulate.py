"""``kutsch-sim simulate``: every configuration, in chunks, into a Parquet results store.

Thin: options are checked by :mod:`kutsch_sim.sim.options`, the run is
:class:`kutsch_sim.sim.runner.Run`; this module draws the progress bars and the summary.
"""

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

from ..errors import KutschError

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
    """Winner shares per configuration (percent of the games stored)."""
    table = Table(title="Winner shares per configuration", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("N", "items", "games", "order", "broth.", "solo", "timeout", "errors", "turns"):
        table.add_column(name, justify="left" if name == "items" else "right", no_wrap=True)
    for r in summary.rows:
        g = r["games"]
        w = r["winners"]

        def pct(k: str, w=w, g=g) -> str:
            return f"{100 * w[k] / g:.1f}%" if g else "-"

        table.add_row(
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


# Options shared with ``bench`` (same spelling and parsing in both commands).
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
        help="Rule variant for every game (R10): smuggling, fortune-telling, advanced-3p (3 players); "
        "repeat or comma-separate to combine.",
    ),
]
# Options shared with ``study``.
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


COMPILING = ("kutsch-sim: compiling the engine (first run of these sources: about 3 minutes on 2 cores; "
             "cached afterwards)")


def kernel_cached(kernel: str = "play_batch_nb") -> bool:
    """Whether numba's cache holds ``kernel`` compiled from these sources (kutsch_sim._jitcache)."""
    from .._jitcache import kernel_cached as cached

    return cached(kernel)


def simulate_cmd(
    players: Players = "3-10",
    items: Items = "basic",
    games: Annotated[
        str, typer.Option("--games", "-g", metavar="N", help="Games per configuration (1e6, 2M ok).")
    ] = "10000",
    seed: Seed = "1",
    bots: Bots = "smart",
    threads: Threads = None,
    no_drink: Annotated[
        bool,
        typer.Option("--no-drink", help="Switch the Drink of Power off (odd counts; the counterfactual)."),
    ] = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", metavar="DIR", help="Results directory (Parquet + _manifest.json). Required."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the run in --out: skip its finished chunks.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the results in --out.")] = False,
    scheduler: Scheduler = None,
    chunk_size: Annotated[
        str, typer.Option("--chunk-size", metavar="N", help="Games per chunk file (bounds memory).")
    ] = "100000",
    turn_cap: Annotated[
        str, typer.Option("--turn-cap", metavar="N", help="Stop a game after this many turns (a timeout).")
    ] = "400",
    variant: Variant = None,
) -> None:
    """Play GAMES games of every configuration (players x items) into a Parquet results store."""
    from ..sim.options import sim_options
    from ..sim.runner import Run

    try:
        opts = sim_options(
            players=players,
            items=items,
            games=games,
            seed=seed,
            bots=bots,
            threads=threads,
            no_drink=no_drink,
            out=out,
            resume=resume,
            force=force,
            scheduler=scheduler,
            chunk_size=chunk_size,
            turn_cap=turn_cap,
            variants=variant,
        )
        run = Run(opts)
        run.open()
    except KutschError as e:
        fail(e)
    err = Console(stderr=True)
    if run.pending() and not opts.scheduler and not kernel_cached():
        err.print(COMPILING)
    n_cfg = len(run.configs)
    with progress_bar(err) as bar:
        total = bar.add_task(
            "all", total=opts.games * n_cfg, completed=sum(run.games_done(c) for c in range(n_cfg))
        )
        tasks = []
        for c, cfg in enumerate(run.configs):
            done = run.games_done(c)
            visible = n_cfg <= MAX_BARS or 0 < done < opts.games
            tasks.append(
                bar.add_task(
                    f"{cfg.players}p {cfg.item_set}", total=opts.games, completed=done, visible=visible
                )
            )

        def on_progress(c: int, n: int) -> None:
            bar.update(tasks[c], advance=n, visible=True)
            bar.advance(total, n)
            if n_cfg > MAX_BARS and bar.tasks[tasks[c]].finished:
                bar.update(tasks[c], visible=False)

        try:
            summary = run.execute(on_progress)
        except KeyboardInterrupt:
            bar.stop()
            c = run.manifest["counts"]
            typer.echo(
                f"kutsch-sim: interrupted: {c['chunks_done']} of {c['chunks']} chunks finished and kept "
                f"in {opts.out}; run the same command with --resume to finish",
                err=True,
            )
            raise typer.Exit(130) from None
        except KutschError as e:
            bar.stop()
            fail(e)
    console = Console()
    console.print(summary_table(summary))
    console.print(f"{summary.timing_text()}; results in {opts.out}")
