"""Benchmarks: games per second with the JIT warm, warm start-up, cold compile.

Three kinds of :class:`Measurement`:

* ``throughput``: :func:`kutsch_sim.api.run_batch` on ``games`` games of one configuration
  at a given numba thread count, after a warm-up call; the median of ``repeats`` runs.
* ``warm_startup``: wall time of a fresh ``python`` process that imports the package and
  plays one game with numba's on-disk cache as it is (warm after the in-process warm-up).
* ``cold_compile``: the same process with ``NUMBA_CACHE_DIR`` pointing at an empty
  temporary directory, so every kernel compiles; ``compile_seconds`` = cold - warm.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .. import __version__
from .._jitcache import source_hash
from ..api import RULES_VERSION, GameConfig, check_seed, run_batch
from ..enums import REC
from .runner import cpu_model

_STARTUP_SCRIPT = """\
import sys
from kutsch_sim.api import GameConfig, run_batch
cfg = GameConfig(int(sys.argv[1]), sys.argv[2], tuple(sys.argv[3].split(",")))
run_batch(cfg, 1, 0, 1)
"""
STARTUP_TIMEOUT = 1800.0  # a cold compile takes minutes on a busy 2-core machine


@dataclass
class Measurement:
    kind: str  # "throughput", "warm_startup" or "cold_compile"
    players: int
    item_set: str
    bots: str  # comma-joined profile per seat (one name if all seats agree)
    games: int
    seconds: float  # median over runs (wall)
    threads: int
    cpu_seconds: float | None = None  # median process CPU time (all threads): robust on a busy machine
    games_per_s: float | None = None
    us_per_game: float | None = None
    us_per_turn: float | None = None
    us_per_decision: float | None = None
    mean_turns: float | None = None
    compile_seconds: float | None = None  # cold_compile only: cold - warm start-up
    variant: str = "base"  # rule variants (R10), "+"-joined
    repeats: int = 1
    runs: list[float] = field(default_factory=list)
    package_version: str = __version__
    rules_version: int = RULES_VERSION
    engine: str = field(default_factory=source_hash)  # fingerprint of the jitted sources
    cpu: str = field(default_factory=lambda: cpu_model())  # the processor measured on

    def to_dict(self) -> dict:
        return asdict(self)


def _bots_label(cfg: GameConfig) -> str:
    return cfg.bots[0] if len(set(cfg.bots)) == 1 else ",".join(cfg.bots)


def measure_throughput(
    cfg: GameConfig, games: int, threads: int, *, repeats: int = 3, seed: int = 1
) -> Measurement:
    """Median wall time of ``run_batch(cfg, seed, 0, games)`` on ``threads`` numba threads."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        run_batch(cfg, seed, 0, min(games, 64))  # load or compile the kernel: not timed
        runs, cpu = [], []
        for _ in range(repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            rec = run_batch(cfg, seed, 0, games)
            runs.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    finally:
        numba.set_num_threads(before)
    sec = statistics.median(runs)
    turns = int(rec[:, REC.TURNS].astype(np.int64).sum())
    decisions = int(rec[:, REC.DECISIONS].astype(np.int64).sum())
    return Measurement(
        "throughput",
        cfg.players,
        cfg.item_set,
        _bots_label(cfg),
        games,
        sec,
        threads,
        cpu_seconds=statistics.median(cpu),
        games_per_s=games / sec,
        us_per_game=1e6 * sec / games,
        us_per_turn=1e6 * sec / turns if turns else None,
        us_per_decision=1e6 * sec / decisions if decisions else None,
        mean_turns=turns / games,
        variant=cfg.variant_label,
        repeats=repeats,
        runs=[round(r, 4) for r in runs],
    )


def _startup_run(cfg: GameConfig, cache_dir: str | None) -> float:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # so the child imports this very package
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if cache_dir is not None:  # kutsch_sim._jitcache reads KUTSCH_SIM_CACHE_DIR first
        env["KUTSCH_SIM_CACHE_DIR"] = env["NUMBA_CACHE_DIR"] = cache_dir
    args = [sys.executable, "-c", _STARTUP_SCRIPT, str(cfg.players), cfg.item_set, ",".join(cfg.bots)]
    t0 = time.perf_counter()
    subprocess.run(args, env=env, check=True, timeout=STARTUP_TIMEOUT, capture_output=True)
    return time.perf_counter() - t0


def measure_startup(cfg: GameConfig, *, repeats: int = 3) -> Measurement:
    """Wall time of a new process: import, load the cached kernels, play one game (median)."""
    import numba

    run_batch(cfg, 1, 0, 1)  # make sure the cache holds the kernel the child will load
    runs = [_startup_run(cfg, None) for _ in range(repeats)]
    return Measurement(
        "warm_startup",
        cfg.players,
        cfg.item_set,
        _bots_label(cfg),
        1,
        statistics.median(runs),
        numba.get_num_threads(),
        repeats=repeats,
        runs=[round(r, 3) for r in runs],
    )


def measure_cold_compile(cfg: GameConfig, warm_seconds: float | None = None) -> Measurement:
    """Wall time of a new process that compiles everything (empty temporary NUMBA_CACHE_DIR)."""
    import numba

    with tempfile.TemporaryDirectory(prefix="kutsch-numba-") as tmp:
        sec = _startup_run(cfg, tmp)
    return Measurement(
        "cold_compile",
        cfg.players,
        cfg.item_set,
        _bots_label(cfg),
        1,
        sec,
        numba.get_num_threads(),
        runs=[round(sec, 3)],
        compile_seconds=sec - warm_seconds if warm_seconds is not None else None,
    )


@dataclass(frozen=True)
class BenchPlan:
    players: tuple[int, ...] = (6,)
    items: tuple[str, ...] = ("full",)
    bots: tuple[str, ...] = ("smart",)
    games: int = 20_000
    threads: tuple[int, ...] = (1, 2)
    repeats: int = 3
    seed: int = 1
    startup: bool = True  # warm start-up in a subprocess
    cold: bool = False  # cold compile in a subprocess (minutes)
    startup_repeats: int = 3
    variants: tuple[str, ...] = ()  # rule variants (R10) of every measured configuration


def bench_plan(
    *,
    players: str = "6",
    items: str = "full",
    bots: str = "smart",
    games: str | int = 20_000,
    threads: str | None = None,
    repeats: str | int = 3,
    seed: str | int = 1,
    startup: bool = True,
    cold: bool = False,
    smoke: bool = False,
    variants: str | list[str] | None = None,
) -> BenchPlan:
    """Check option values (strings as typed) and build a :class:`BenchPlan`; raises KutschError.

    ``smoke``: 6 players, basic items, 2,000 games once (``bots`` and ``variants`` as given),
    warm start-up once, no cold compile, on ``threads`` (default: all cores) -- seconds, for
    CI; it never fails on speed."""
    from ..rules_table import check_variant_players, parse_variants
    from .options import max_threads, parse_bots, parse_count, parse_items, parse_players, parse_thread_list

    variant_names = parse_variants(variants)
    thread_list = parse_thread_list(threads) if threads is not None else None
    if smoke:
        check_variant_players(variant_names, 6)  # the smoke run is 6 players: refuse a 3-player-only variant here
        return BenchPlan(
            players=(6,),
            items=("basic",),
            bots=parse_bots(bots, (6,)),
            variants=variant_names,
            games=2_000,
            threads=thread_list or (max_threads(),),
            repeats=1,
            cold=False,
            startup_repeats=1,
        )
    n_players = parse_players(players)
    item_sets = parse_items(items)
    bot_names = parse_bots(bots, n_players)
    for n in n_players:
        for item_set in item_sets:
            GameConfig(n, item_set, bot_names, variants=variant_names)
    return BenchPlan(
        players=n_players,
        items=item_sets,
        bots=bot_names,
        games=parse_count(games, "--games", 1, 10**9),
        threads=thread_list or tuple(sorted({1, max_threads()})),
        repeats=parse_count(repeats, "--repeats", 1, 100),
        seed=check_seed(parse_count(seed, "--seed", 0, 2**63 - 1)),
        startup=startup,
        cold=cold,
        variants=variant_names,
    )


def run_bench(plan: BenchPlan, on_result: Callable[[Measurement], None] | None = None) -> list[Measurement]:
    """Throughput for every players x items x threads, then start-up times; in that order."""
    out: list[Measurement] = []

    def emit(m: Measurement) -> None:
        out.append(m)
        if on_result is not None:
            on_result(m)

    cfgs = [GameConfig(n, item, plan.bots, variants=plan.variants) for n in plan.players for item in plan.items]
    for cfg in cfgs:
        for t in plan.threads:
            emit(measure_throughput(cfg, plan.games, t, repeats=plan.repeats, seed=plan.seed))
    if plan.startup or plan.cold:
        warm = measure_startup(cfgs[0], repeats=plan.startup_repeats)
        if plan.startup:
            emit(warm)
        if plan.cold:
            emit(measure_cold_compile(cfgs[0], warm.seconds))
    return out


def markdown_table(results: Iterable[Measurement]) -> str:
    """``kutsch-sim bench --markdown``: one row per throughput measurement, the machine and start-up below."""
    results = list(results)
    lines = [
        "| players | items | bots | threads | games | s (median) | games/s | µs/game | µs/turn | CPU µs/game |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for m in results:
        if m.kind == "throughput":
            lines.append(
                f"| {m.players} | {m.item_set} | {m.bots} | {m.threads} | {m.games:,} | "
                f"{m.seconds:.2f} | {m.games_per_s:,.0f} | {m.us_per_game:.1f} | "
                f"{m.us_per_turn:.2f} | {1e6 * m.cpu_seconds / m.games:.1f} |"
            )
    notes = []
    if results:
        notes.append(f"- measured on: {results[0].cpu}, {os.cpu_count()} cores; engine {results[0].engine}")
    for m in results:
        if m.kind == "warm_startup":
            notes.append(
                f"- warm start-up (new process, cached JIT, one game): {m.seconds:.2f} s "
                f"(median of {m.repeats})"
            )
        elif m.kind == "cold_compile":
            extra = f", of which compiling ≈ {m.compile_seconds:.0f} s" if m.compile_seconds else ""
            notes.append(f"- cold start (empty numba cache): {m.seconds:.0f} s{extra}")
    return "\n".join(lines + ([""] + notes if notes else []))
