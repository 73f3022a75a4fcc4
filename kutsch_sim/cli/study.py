"""``kutsch-sim study``: the standard study (every part) and its balance report, in one command.

Thin: options and parts are :mod:`kutsch_sim.sim.study`; the progress bars and the summary
table are ``simulate``'s; the report is ``report``'s.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from ..rules_table import study_variants_help
from ..sim.paths import WriteFault
from ..sim.study import DEFAULT_GAMES, DEFAULT_GAMES_NOTE, standard_parts
from . import common
from .common import Scheduler, Seed, Threads, fail, progress_bar, summary_table

N_CONFIGS = sum(p.configurations for p in standard_parts())


def study_cmd(
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Study folder: DIR/results/<part>/ (one results store a part) and DIR/report/. Required.",
        ),
    ] = None,
    games: Annotated[
        str,
        typer.Option(
            "--games",
            "-g",
            metavar="N",
            help=f"Games per configuration ({N_CONFIGS} configurations; the default takes {DEFAULT_GAMES_NOTE}).",
        ),
    ] = f"{DEFAULT_GAMES}",
    seed: Seed = "1",
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOT",
            help="Bot profile for every seat (default: smart if present, else random).",
        ),
    ] = None,
    threads: Threads = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the study in --out: skip every finished chunk.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the study in --out.")] = False,
    scheduler: Scheduler = None,
    variants: Annotated[
        str | None,
        typer.Option(
            "--variants",
            metavar="NAME,...|all",
            help=study_variants_help(),
        ),
    ] = None,
) -> None:
    """Run the standard study and write its report.

    3-10 players x basic, full, basic+Loge, full-Loge and each unstamped item added to basic, Drink of Power on; then 3, 5, 7, 9 players x basic, full with the Drink off; with --variants, the variants' parts. Each part is a results store under DIR/results/<part>/; the report of all parts is written to DIR/report/.
    """
    from ..sim.study import Study, study_options

    try:
        opts = study_options(
            games=games,
            seed=seed,
            bots=bots,
            threads=threads,
            out=out,
            resume=resume,
            force=force,
            scheduler=scheduler,
            variants=variants,
        )
        study = Study(opts)
        study.open()
    except KutschError as e:
        fail(e)
    Console(stderr=True).print(
        f"study: {len(study.parts)} parts, {opts.configurations} configurations x {opts.games:,} games, "
        f"bots {opts.bots}, seed {opts.seed}"
    )
    run_and_report(study, [(p.name, [i]) for i, p in enumerate(study.parts)])


def run_and_report(study, bars: list[tuple[str, list[int]]]) -> None:
    """Play every part of ``study`` (opened) under progress bars, print the summary, write the report.

    ``bars``: one progress bar per (label, the indices of the parts it counts), beside the total.
    Every failure is one line (exit 2; Ctrl-C: 130) that says what is kept and the way on."""
    from .report import make_report, read_results

    opts = study.opts
    err = Console(stderr=True)
    if not opts.scheduler and not common.kernel_cached():
        err.print(common.COMPILING)
    with progress_bar(err) as bar:
        done = [study.games_done(i) for i in range(len(study.parts))]
        total = bar.add_task(
            "all", total=sum(study.games_total(i) for i in range(len(study.parts))), completed=sum(done)
        )
        task_of = {}
        for label, parts in bars:
            task = bar.add_task(label, total=sum(study.games_total(i) for i in parts),
                                completed=sum(done[i] for i in parts))
            task_of.update(dict.fromkeys(parts, task))

        def on_progress(i: int, _config: int, n: int) -> None:
            bar.advance(task_of[i], n)
            bar.advance(total, n)

        try:
            summary = study.execute(on_progress=on_progress)
        except KeyboardInterrupt:
            bar.stop()
            typer.echo(f"kutsch-sim: interrupted: {study.interrupted_message()}", err=True)
            raise typer.Exit(130) from None
        except KutschError as e:
            bar.stop()
            fail(e)
    console = Console()
    console.print(summary_table(summary))
    console.print(f"{summary.timing_text()}; results in {opts.results_dir}", soft_wrap=True)
    err.print("writing the report ...")
    try:
        df = read_results(opts.results_dir)
        html = make_report(opts.results_dir, opts.report_dir, command=opts.command_line(), df=df)
    except WriteFault as e:
        e.kept = (f"the results in {opts.results_dir} are complete and no report file was changed; {e.remedy}, "
                  f"then run `{opts.command_line('--resume')}` to write it")
        fail(e)
    except KutschError as e:
        fail(e)
    except KeyboardInterrupt:
        typer.echo(
            f"kutsch-sim: interrupted while writing the report; the results are complete: run "
            f"`{opts.command_line('--resume')}` to write it",
            err=True,
        )
        raise typer.Exit(130) from None
    console.print(f"report written: {html.parent / 'report.md'} and {html}", soft_wrap=True)
