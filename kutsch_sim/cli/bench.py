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
from .common import Bots, Items, Players, Seed, Variant, fail


def _fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def bench_cmd(
    players: Players = "6",
    items: Items = "full",
    bots: Bots = "smart",
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
    seed: Seed = "1",
    cold: Annotated[
        bool,
        typer.Option("--cold/--no-cold", help="Also measure the cold compile (empty cache; takes minutes)."),
    ] = False,
    startup: Annotated[
        bool, typer.Option("--startup/--no-startup", help="Measure start-up with a warm cache (new process).")
    ] = True,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per measurement.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print a Markdown table (as docs/performance.md shows it).")
    ] = False,
    smoke: Annotated[
        bool, typer.Option("--smoke", help="Short run for CI: prints figures, never fails on speed.")
    ] = False,
    variant: Variant = None,
) -> None:
    """Measure games/s per player count and item set, start-up with a warm cache, and compile time."""
    import os

    from .._jitcache import source_hash
    from ..sim.bench import bench_plan, markdown_table, run_bench
    from ..sim.runner import cpu_model

    try:
        if json_out and markdown:
            raise KutschError("--json and --markdown exclude each other: choose one output")
        plan = bench_plan(
            players=players,
            items=items,
            bots=bots,
            games=games,
            threads=threads,
            repeats=repeats,
            seed=seed,
            startup=startup,
            cold=cold,
            smoke=smoke,
            variants=variant,
        )
    except KutschError as e:
        fail(e)

    console = Console()
    rules = "+".join(plan.variants) if plan.variants else "base rules"
    table = Table(
        title=f"games per second, JIT warm (median of repeats), {rules}",
        caption=f"{cpu_model()}, {os.cpu_count()} cores; engine {source_hash()}",
    )
    for name in ("N", "items", "bots", "thr", "games", "s", "games/s", "µs/game", "µs/turn"):
        table.add_column(name, justify="left" if name in ("items", "bots") else "right")
    notes: list[str] = []
    speeds: dict[tuple, dict[int, float]] = {}  # games/s by thread count, per configuration

    def on_result(m) -> None:
        if markdown:
            return
        if json_out:
            typer.echo(json.dumps(m.to_dict()))
        elif m.kind == "throughput":
            speeds.setdefault((m.players, m.item_set, m.bots), {})[m.threads] = m.games_per_s
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
        results = run_bench(plan, on_result)
    if markdown:
        typer.echo(markdown_table(results))
    elif not json_out:
        console.print(table)
        for (players, item_set, bots), by_threads in speeds.items():
            if 1 in by_threads:
                for t in sorted(by_threads):
                    if t > 1:
                        console.print(f"{players} players, {item_set}, {bots}: {t} threads "
                                      f"{by_threads[t] / by_threads[1]:.2f}x one thread (games/s)")
        if not plan.cold:
            notes.append("cold compile: not measured (add --cold; it compiles everything again, minutes)")
        for line in notes:
            console.print(line)
