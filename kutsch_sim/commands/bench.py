"""``kutsch-sim bench``: games per second (JIT warm), warm start-up and cold compile time.

The measuring is :mod:`kutsch_sim.sim.bench`; this module parses options and prints a
table, or one JSON object per measurement with ``--json``.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..errors import KutschError
from .simulate import fail


def _fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def bench_cmd(
    players: Annotated[
        str, typer.Option("--players", "-n", metavar="N[-M],...", help="Player counts: 6, 3-10, 4,6,8.")
    ] = "6",
    items: Annotated[
        str, typer.Option("--items", "-i", metavar="SET,...", help="Item sets, comma-separated.")
    ] = "full",
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", metavar="BOT[,...]", help="One bot profile for all seats, or one per seat."
        ),
    ] = "random",
    games: Annotated[
        str, typer.Option("--games", "-g", metavar="N", help="Games per measurement run.")
    ] = "20000",
    threads: Annotated[
        str | None,
        typer.Option(
            "--threads", "-t", metavar="T[,T]", help="Thread counts to measure (default: 1 and all cores)."
        ),
    ] = None,
    repeats: Annotated[
        str,
        typer.Option("--repeats", "-r", metavar="R", help="Runs per measurement; the median is reported."),
    ] = "3",
    seed: Annotated[str, typer.Option("--seed", "-s", metavar="S", help="Master seed.")] = "1",
    cold: Annotated[
        bool, typer.Option("--cold/--no-cold", help="Measure the cold compile (empty cache; minutes).")
    ] = True,
    startup: Annotated[
        bool, typer.Option("--startup/--no-startup", help="Measure start-up with a warm cache (new process).")
    ] = True,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per measurement.")] = False,
    smoke: Annotated[
        bool, typer.Option("--smoke", help="Short run for CI: prints figures, never fails on speed.")
    ] = False,
) -> None:
    """Measure games/s per player count and item set, start-up with a warm cache, and compile time."""
    from ..api import GameConfig, check_seed
    from ..sim.bench import BenchPlan, run_bench, smoke_plan
    from ..sim.options import (
        max_threads,
        parse_bots,
        parse_count,
        parse_items,
        parse_players,
        parse_thread_list,
    )

    try:
        if threads is None:
            thread_list = tuple(sorted({1, max_threads()}))
        else:
            thread_list = parse_thread_list(threads)
        if smoke:
            plan = smoke_plan(thread_list if threads is not None else (max_threads(),))
        else:
            n_players = parse_players(players)
            item_sets = parse_items(items)
            bot_names = parse_bots(bots, n_players)
            for n in n_players:
                for item_set in item_sets:
                    GameConfig(n, item_set, bot_names)
            plan = BenchPlan(
                players=n_players,
                items=item_sets,
                bots=bot_names,
                games=parse_count(games, "--games", 1, 10**9),
                threads=thread_list,
                repeats=parse_count(repeats, "--repeats", 1, 100),
                seed=check_seed(parse_count(seed, "--seed", 0, 2**63 - 1)),
                startup=startup,
                cold=cold,
            )
    except KutschError as e:
        fail(e)

    console = Console()
    table = Table(title="games per second, JIT warm (median of repeats)")
    for name in ("N", "items", "bots", "thr", "games", "s", "games/s", "µs/game", "µs/turn"):
        table.add_column(name, justify="left" if name in ("items", "bots") else "right")
    notes: list[str] = []

    def on_result(m) -> None:
        if json_out:
            typer.echo(json.dumps(m.to_dict()))
        elif m.kind == "throughput":
            table.add_row(
                str(m.players),
                m.item_set,
                m.bots,
                str(m.threads),
                f"{m.games:,}",
                f"{m.seconds:.3f}",
                f"{m.games_per_s:,.0f}",
                f"{m.us_per_game:.1f}",
                _fmt(m.us_per_turn, ".2f"),
            )
        elif m.kind == "warm_startup":
            notes.append(
                f"warm start-up (new process, cached JIT, 1 game): {m.seconds:.2f} s (median of {m.repeats})"
            )
        else:
            extra = f", compiling ≈ {m.compile_seconds:.0f} s" if m.compile_seconds is not None else ""
            notes.append(f"cold start (empty numba cache): {m.seconds:.1f} s{extra}")

    with Console(stderr=True).status("benchmarking ...") if not json_out else nullcontext():
        run_bench(plan, on_result)
    if not json_out:
        console.print(table)
        for line in notes:
            console.print(line)
