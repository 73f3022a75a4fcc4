"""``kutsch-sim balance``: which change of the rules would meet a balance target at each count.

The search is :mod:`kutsch_sim.sim.balance_search`, the report :mod:`kutsch_sim.report.balance`;
this module checks the options, draws the progress and prints where the report went.
"""

from __future__ import annotations

import shlex
import sys
from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from . import common
from .common import Items, Seed, Threads, fail, progress_bar


def balance_cmd(
    players: Annotated[str, typer.Option("--players", "-n", metavar="N", help="Player counts, e.g. 3,5 or 3-10.")]
    = "3,5",
    target: Annotated[
        str | None,
        typer.Option("--target", "-t", metavar="Q=V", help="The balance target: smaller=50 (the smaller team's share "
                     "of team wins, %, odd counts), order=50, loge<=10 (Loge solo wins, %), seat-edge<=1 (points)."),
    ] = None,
    keep: Annotated[
        str | None,
        typer.Option("--keep", metavar="Q<=V,...", help="Side conditions a change must keep, e.g. 'loge<=30' or "
                     "'loge<=30,seat-edge<=2' (one-sided)."),
    ] = None,
    tolerance: Annotated[float, typer.Option("--tolerance", metavar="PTS", help="For Q=V: the target's region is "
                                                                                 "V ± PTS.")] = 3.0,
    items: Items = "full",
    bots: Annotated[str, typer.Option("--bots", "-b", metavar="BOT", help="The profile on every seat.")] = "smart",
    games: Annotated[str, typer.Option("--games", "-g", metavar="N", help="Deals a setting in the search.")] = "5000",
    trials: Annotated[str, typer.Option("--trials", metavar="T", help="Pair trials per count, after the single "
                                                                       "changes.")] = "40",
    check: Annotated[str, typer.Option("--check", metavar="K", help="Best settings per count played again.")] = "3",
    check_games: Annotated[str, typer.Option("--check-games", metavar="N", help="Fresh deals for each checked "
                                                                                  "setting.")] = "20000",
    strong: Annotated[str, typer.Option("--strong", metavar="BOT", help="The stronger rung the checked settings "
                                                                         "are played at (none: skip).")] = "search-s",
    strong_games: Annotated[str, typer.Option("--strong-games", metavar="N", help="Deals at the stronger rung.")]
    = "1000",
    seed: Seed = "1",
    threads: Threads = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help="Where the search, its records and "
                                                                              "its report go.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the search in --out.")] = False,
) -> None:
    """Search the rule table (house rules and variants, singly and in pairs) for changes that meet a balance
    target, each measured on the same deals as the base rules; re-check the best on fresh deals and at a stronger
    rung, and write the report section "What would make it fair"."""
    from ..sim import balance_search as S

    try:
        plan = S.balance_plan(players=players, items=items, bots=bots, target=target, tolerance=tolerance, keep=keep,
                              games=games, trials=trials, seed=seed, check=check, check_games=check_games,
                              strong=strong, strong_games=strong_games, threads=threads, out=out, resume=resume)
    except KutschError as e:
        fail(e)
    import numba

    if plan.threads:
        numba.set_num_threads(plan.threads)
    command = "kutsch-sim " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    S.start(plan, command)
    err = Console(stderr=True)
    if not common.kernel_cached():
        err.print(common.COMPILING)
    with progress_bar(err) as bar:
        task = bar.add_task("search", total=S.total_games(plan))
        try:
            for n in plan.players:
                def on_trial(k: int, total: int, change: str, value: float, n=n) -> None:
                    bar.update(task, description=f"{n}p trial {k}/{total}: {change} ({value:.2f} pts off)")

                S.search_count(plan, n, lambda k: bar.advance(task, k), on_trial)
            rows = []
            for n in plan.players:
                bar.update(task, description=f"{n}p: fresh deals and {plan.strong or 'no stronger rung'}")
                rows += S.check_count(plan, n, lambda k: bar.advance(task, k))
        except KeyboardInterrupt:
            bar.stop()
            typer.echo(f"kutsch-sim: interrupted: every finished trial and checked setting is kept in {plan.out}; "
                       "run the same command with --resume to finish", err=True)
            raise typer.Exit(130) from None
    path = S.write_report(plan, rows)
    console = Console()
    for line in S.summary_lines(plan, rows):
        console.print(line, soft_wrap=True)
    console.print(f"report: {path}", soft_wrap=True)
