"""``kutsch-sim calibration``: what the bots state at their decisions against what then happened.

The run is :mod:`kutsch_sim.sim.calibration`; the tables, the figure and the page are
:mod:`kutsch_sim.report.calibration`.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from . import common
from .common import Items, Players, Seed, Threads, fail, progress_bar


def calibration_cmd(
    players: Players = "3-10",
    items: Items = "basic,full",
    bots: Annotated[
        str, typer.Option("--bots", "-b", metavar="BOT,...", help="Profiles to measure, each on every seat.")
    ] = "smart",
    games: Annotated[
        str, typer.Option("--games", "-g", metavar="N", help="Games per profile, player count and item set.")
    ] = "2000",
    seed: Seed = "2026",
    threads: Threads = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help="Folder of the run and its report.")]
    = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the run in --out.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the run in --out.")] = False,
) -> None:
    """Record each stated probability behind the bots' declarations (P(success), P(teammate) of the
    seats named, P(the card is still there), P(my team is the smaller), P(win by playing on), the
    search's share of worlds won) with what was true at that moment, and write reliability tables,
    Brier scores and calibration errors per count and profile (OUT/report/calibration.md)."""
    from ..report.calibration import write_report
    from ..sim import calibration as cal

    try:
        plan = cal.calibration_plan(players, items, bots, games, seed, threads, out, resume=resume, force=force)
    except KutschError as e:
        fail(e)
    err = Console(stderr=True)
    if not common.kernel_cached("claims_games_nb", "calib/record.py"):
        err.print(common.COMPILING)
    total = len(plan.parts()) * plan.games
    with progress_bar(err) as bar:
        task = bar.add_task("claims", total=total)
        cal.run(plan, lambda k: bar.advance(task, k), clear=force)
    _, claims, records = cal.load(plan.out)
    path = write_report(plan.out / "report", plan.describe(), claims, records)
    typer.echo(f"wrote {path}")
