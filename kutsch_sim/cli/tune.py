"""``kutsch-sim tune``: one role's parameters tuned against fixed opponents on the same deals.

The tuning is :mod:`kutsch_sim.sim.tune`; this module checks the options, draws the progress
and prints the best trial measured again on fresh deals.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ..errors import KutschError
from . import common
from .common import Items, Seed, Threads, fail, progress_bar


def tune_cmd(
    players: Annotated[str, typer.Option("--players", "-n", metavar="N", help="Player count (odd for team roles).")]
    = "5",
    items: Items = "basic",
    role: Annotated[
        str, typer.Option("--role", metavar="ROLE", help="minority, majority (the smaller / larger team) or loge.")
    ] = "minority",
    bracket: Annotated[
        str,
        typer.Option("--bracket", metavar="B", help="honest (the seats decide from their views) or told (the "
                     "role's seats are told their team's size: an upper bound; team roles)."),
    ] = "honest",
    against: Annotated[str, typer.Option("--against", metavar="BOT", help="The opponents' profile.")] = "smart",
    params: Annotated[
        str | None,
        typer.Option("--params", metavar="A,B,...", help="Parameters to tune (default: a set per role)."),
    ] = None,
    games: Annotated[str, typer.Option("--games", "-g", metavar="N", help="Games per trial.")] = "2000",
    trials: Annotated[str, typer.Option("--trials", metavar="T", help="Trials in all (with --resume: "
                                                                       "the finished ones count).")] = "30",
    check_games: Annotated[
        str, typer.Option("--check-games", metavar="N", help="Fresh games for the best trial and the baseline.")
    ] = "8000",
    seed: Seed = "1",
    threads: Threads = None,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", metavar="FILE.csv", help="The tuned profile (a profile table); the optuna "
                     "study goes next to it (FILE.csv.optuna.db)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", metavar="NAME", help="The tuned profile's name "
                                                                "(default AGAINST-ROLE-BRACKET-Np).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the study next to --out.")] = False,
) -> None:
    """Tune one role's parameter row (the smaller team, the larger team or the Loge holder) against
    fixed opponents on paired deals, and write it as a profile a user can select."""
    from ..sim.tune import check_best, check_lines, finished, open_study, run_trials, tune_plan, write_profile

    try:
        plan = tune_plan(players=players, items=items, role=role, bracket=bracket, against=against,
                         params=params, games=games, trials=trials, seed=seed, check_games=check_games,
                         threads=threads, out=out, name=name, resume=resume)
        study = open_study(plan)
    except KutschError as e:
        fail(e)
    err = Console(stderr=True)
    if not common.kernel_cached():
        err.print(common.COMPILING)
    done = len(finished(study))
    todo = max(0, plan.trials - done)
    n_check = 3 if plan.told else 2
    with progress_bar(err) as bar:
        tr = bar.add_task("trials", total=plan.trials * plan.games, completed=done * plan.games)
        ck = bar.add_task("fresh deals", total=n_check * plan.check_games)

        def on_trial(k: int, value: float, best: float) -> None:
            bar.update(tr, description=f"trial {k}/{plan.trials}: {100 * value:.2f}% (best {100 * best:.2f}%)")

        try:
            run_trials(plan, study, lambda k: bar.advance(tr, k), on_trial)
            result = check_best(plan, study, lambda k: bar.advance(ck, k))
        except KeyboardInterrupt:
            bar.stop()
            typer.echo(f"kutsch-sim: interrupted: {len(finished(study))} of {plan.trials} trials finished and kept "
                       f"in {plan.study_path}; run the same command with --resume to finish", err=True)
            raise typer.Exit(130) from None
    path = write_profile(plan, result, len(finished(study)))
    console = Console()
    console.print(f"{todo} trials played, {len(finished(study))} in the study; best: "
                  + ", ".join(f"{k} {v:.4g}" for k, v in result.values.items()))
    for line in check_lines(plan, result):
        console.print(line)
    console.print(f"profile {plan.name!r} written to {path}; select it with "
                  f"KUTSCH_SIM_PROFILES={path} kutsch-sim play --bots {plan.name}", soft_wrap=True)
