"""``kutsch-sim simulate``: every configuration, in chunks, into a Parquet results store.

Thin: options are checked by :mod:`kutsch_sim.sim.options`, the run is
:class:`kutsch_sim.sim.runner.Run`; this module draws the progress bars and the summary.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from . import common
from .common import (
    MAX_BARS,
    Bots,
    Items,
    Players,
    Scheduler,
    Seed,
    Threads,
    Variant,
    fail,
    progress_bar,
    summary_table,
)


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
    if run.pending() and not opts.scheduler and not common.kernel_cached():
        err.print(common.COMPILING)
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
    console.print(f"{summary.timing_text()}; results in {opts.out}", soft_wrap=True)
