"""``kutsch-sim ladder``: the same configurations at every rung of bot skill, on the same deals,
and the report with its robustness section.

Thin: options and parts are :mod:`kutsch_sim.sim.ladder`; running and reporting are ``study``'s.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from ..sim.ladder import DEFAULT_DRINK_OFF, DEFAULT_GAMES, DEFAULT_ITEMS, DEFAULT_PLAYERS, DEFAULT_RUNGS
from .common import Items, Players, Scheduler, Seed, Threads, fail
from .study import run_and_report


def ladder_cmd(
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", metavar="DIR",
                     help="Ladder folder: DIR/results/<level>-<rung>/ (one results store a part) and DIR/report/. "
                          "Required."),
    ] = None,
    rungs: Annotated[
        str | None,
        typer.Option("--rungs", metavar="BOT,BOT,...",
                     help=f"Bot profiles, weakest first, each on every seat (default: {','.join(DEFAULT_RUNGS)}, "
                          "those of them that exist)."),
    ] = None,
    players: Players = DEFAULT_PLAYERS,
    items: Items = DEFAULT_ITEMS,
    drink_off: Annotated[
        str,
        typer.Option("--drink-off", metavar="SET,...|none",
                     help="Item sets of --items played again with the Drink of Power off at the odd player counts "
                          "(the same deals: the Drink's effect); none for no such games."),
    ] = DEFAULT_DRINK_OFF,
    games: Annotated[
        str, typer.Option("--games", "-g", metavar="N", help="Games per configuration and rung.")
    ] = f"{DEFAULT_GAMES}",
    seed: Seed = "1",
    threads: Threads = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the ladder in --out: skip every finished chunk.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the ladder in --out.")] = False,
    scheduler: Scheduler = None,
) -> None:
    """Play the same configurations at every rung of a skill ladder, on the same deals, and write the report.

    By default 3, 5, 6, 9 players x basic, basic+Loge with the Drink of Power on, and basic with it off at 3, 5, 9 (11 configurations) at each rung. Every rung plays the same deals (seed, configuration and game index; the rung is not part of a game's random stream). The report is the top rung's, with a robustness section: each headline number at every rung, and whether it holds across the three strongest (paired on the same deals, within 3 points).
    """
    from ..sim.ladder import default_rungs, ladder_options
    from ..sim.study import Study

    missing = default_rungs()[1] if rungs is None else ()
    try:
        opts = ladder_options(rungs=rungs, players=players, items=items, drink_off=drink_off, games=games, seed=seed,
                              threads=threads, out=out, resume=resume, force=force, scheduler=scheduler)
        ladder = Study(opts)
        ladder.open()
    except KutschError as e:
        fail(e)
    err = Console(stderr=True)
    if missing:
        err.print(f"ladder: no profile {', '.join(missing)} yet; the default ladder plays the others")
    per_rung = opts.configurations // len(opts.rungs)
    err.print(f"ladder: {len(opts.rungs)} rungs ({', '.join(opts.rungs)}), {per_rung} configurations x "
              f"{opts.games:,} games each, seed {opts.seed}")
    bars = [(f"{level} {rung}", [i for i, p in enumerate(ladder.parts) if p.rung == rung])
            for level, rung in enumerate(opts.rungs, 1)]
    run_and_report(ladder, bars)
