"""Plan a run (configurations x chunks), run the chunks, keep the store and manifest current.

A chunk is games ``[k * chunk_size, min((k + 1) * chunk_size, games))`` of one
configuration. Its records depend only on (seed, configuration, game index) (see
:func:`kutsch_sim.api.run_batch`), so a chunk's file is the same whether it ran on 1 or
2 threads, in one go or after a resume, here or on a Dask worker: the run hands its pending
chunks to an executor (:mod:`kutsch_sim.sim.executor`: local threads, or
:class:`kutsch_sim.sim.cluster.DaskExecutor`) and writes each chunk as its records arrive. A
run holds at most one chunk of records in memory (two with Dask: one arriving while one is
written). A file that cannot be written (disk full, folder made read-only) ends the run with
a :class:`~kutsch_sim.sim.paths.WriteFault` that says what is kept and to ``--resume``.

Typical use::

    run = Run(sim_options(players="4,6", items="basic,full", games=10_000, out="res"))
    run.open()                  # --force / --resume handling, scheduler connection; checks only
    summary = run.execute()     # writes DIR/players-04/item_set-basic/chunk-000000.parquet, ...
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from .. import __version__
from .._jitcache import source_hash
from ..api import RULES_VERSION, GameConfig
from ..errors import KutschError
from . import store
from .executor import Executor, LocalExecutor, Task
from .options import SimOptions, check_out
from .paths import WriteFault, probe_writable_dir

ProgressFn = Callable[[int, int], None]  # (configuration index, games just finished)
MANIFEST_EVERY = 2.0  # seconds between manifest rewrites while chunks finish


@dataclass(frozen=True)
class Chunk:
    config: int  # index into Run.configs
    index: int  # chunk number within its configuration
    game0: int
    games: int
    path: str  # relative to the store root


def plan_chunks(configs: tuple[GameConfig, ...], games: int, chunk_size: int) -> list[Chunk]:
    """Every chunk of every configuration, configuration-major."""
    return [
        Chunk(c, k, g0, min(chunk_size, games - g0), store.chunk_relpath(cfg, k))
        for c, cfg in enumerate(configs)
        for k, g0 in enumerate(range(0, games, chunk_size))
    ]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _host() -> dict:
    import numba

    return {
        "python": platform.python_version(),
        "numba": numba.__version__,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
    }


def cpu_model() -> str:
    """The processor's name (``/proc/cpuinfo`` on Linux), for telling timings of different
    machines apart; ``platform.processor()`` elsewhere."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@dataclass
class Summary:
    """Per-configuration tallies (from the manifest) and this session's throughput."""

    rows: list[dict]  # players, item_set, games, winners {outcome: count}, mean_turns
    games_run: int  # games played in this session (skipped chunks excluded)
    seconds: float  # wall time of this session
    complete: bool
    play_seconds: float = 0.0  # of which computing the finished chunks (sum over chunks)
    load_seconds: float = 0.0  # of which loading (or compiling) the engine before the first chunk (local runs)
    compiled: bool = False  # the engine was compiled (not in numba's cache) before the first chunk

    @property
    def games_per_s(self) -> float:
        """Games per second of wall time, everything included."""
        return self.games_run / self.seconds if self.seconds > 0 else 0.0

    @property
    def play_games_per_s(self) -> float:
        """Games per second while chunks were being computed (start-up and writing excluded)."""
        return self.games_run / self.play_seconds if self.play_seconds > 0 else 0.0

    def timing_text(self) -> str:
        """One line for the commands: wall time, play time and speed, and the engine's load time."""
        what = "compiling the engine (first run of these sources)" if self.compiled else "loading the compiled engine"
        load = f", {self.load_seconds:.1f} s {what}" if self.load_seconds >= 0.05 else ""
        return (f"{self.games_run:,} games played in {self.seconds:.1f} s: {self.play_seconds:.1f} s of play "
                f"({self.play_games_per_s:,.0f} games/s){load}")


class Run:
    """One ``simulate`` run into ``opts.out``; see the module docstring."""

    def __init__(self, opts: SimOptions):
        self.opts = opts
        self.root: Path = opts.out
        self.configs = opts.configs()
        self.chunks = plan_chunks(self.configs, opts.games, opts.chunk_size)
        self.manifest: dict = {}
        self.executor: Executor | None = None  # chosen by open(): local threads or a Dask cluster
        self._t0 = 0.0
        self._saved = 0.0
        self._games_run = 0
        self._play_seconds = 0.0

    # ------------------------------------------------------------------ set-up
    def open(self) -> None:
        """Connect to the scheduler, then prepare ``--out`` (replace, resume or create).

        Raises :class:`KutschError` (nothing written) if ``--resume`` meets a different run."""
        check_out(self.root, resume=self.opts.resume, force=self.opts.force)
        if self.executor is not None:
            self.executor.close()
        if self.opts.scheduler:
            from .cluster import DaskExecutor, connect

            self.executor = DaskExecutor(connect(self.opts.scheduler), self.opts.threads)
        else:
            self.executor = LocalExecutor(self.opts.threads)
        try:
            old = store.read_manifest(self.root) if self.root.is_dir() else None
        except ValueError as e:
            raise KutschError(
                f"--out: {self.root / store.MANIFEST} is unreadable ({e}); use --force"
            ) from None
        if self.opts.resume and old is not None:
            self.check_resumable(old)
        probe_writable_dir(self.root, "results")  # os.access says yes to root on /proc and the like
        try:
            if self.opts.force:
                store.clear_store(self.root)
                old = None
            store.remove_temporaries(self.root)
        except OSError as e:
            raise KutschError(f"--out {self.root}: {e.strerror or e}") from None
        self.manifest = self._new_manifest(old)
        try:
            store.write_manifest(self.root, self.manifest)
        except WriteFault as e:
            self.executor.close()
            e.kept = self.kept_text(e)
            raise

    def check_resumable(self, old: dict) -> None:
        if old.get("format") != store.FORMAT:
            raise KutschError(f"--resume: {self.root / store.MANIFEST} is not a kutsch-sim manifest")
        if old.get("rules_version") != RULES_VERSION or old.get("package_version") != __version__:
            raise KutschError(
                f"--resume: the run in {self.root} was made by kutsch-sim {old.get('package_version')} "
                f"(rules {old.get('rules_version')}), this is {__version__} (rules {RULES_VERSION}); "
                "use --force to start over"
            )
        if old.get("engine") != source_hash():  # any edit of the engine or the bots changes games
            raise KutschError(
                f"--resume: the run in {self.root} was played by other engine and bot sources "
                f"(fingerprint {old.get('engine') or 'not recorded'}, these are {source_hash()}); "
                "its games would not match: use --force to start over"
            )
        before, now = old.get("options", {}), self.opts.plan_dict()
        for key, value in now.items():
            if before.get(key) != value:
                raise KutschError(
                    f"--resume: {key} {_show(value)} differs from the run in {self.root} "
                    f"({_show(before.get(key))}); repeat its options or use --force to start over"
                )

    def _new_manifest(self, old: dict | None) -> dict:
        old_entries = {}
        if old is not None:
            for c in old.get("configurations", []):
                for e in c.get("chunks", []):
                    old_entries[e["file"]] = e
        configs = []
        for c, cfg in enumerate(self.configs):
            entries = []
            for ch in (ch for ch in self.chunks if ch.config == c):
                entry = {
                    "index": ch.index,
                    "game0": ch.game0,
                    "games": ch.games,
                    "file": ch.path,
                    "status": "pending",
                }
                if store.chunk_rows(self.root, ch.path) == ch.games:  # finished: written atomically
                    prev = old_entries.get(ch.path, {})
                    if prev.get("status") == "done" and prev.get("games") == ch.games:
                        entry = prev
                    else:  # killed between the chunk's rename and the manifest's
                        entry |= {"status": "done", "rows": ch.games} | store.chunk_counts(self.root, ch.path)
                entries.append(entry)
            configs.append(
                cfg.describe() | {"dir": store.config_dir(cfg), "games": self.opts.games, "chunks": entries}
            )
        return {
            "format": store.FORMAT,
            "format_version": store.FORMAT_VERSION,
            "package_version": __version__,
            "rules_version": RULES_VERSION,
            "engine": source_hash(),  # sha256 of the jitted sources (kutsch_sim._jitcache): resume checks it
            "rules": {
                "variant": self.configs[0].variant_label,
                "drink": self.opts.drink,
                "turn_cap": self.opts.turn_cap,
                "rules_version": RULES_VERSION,
            },
            "seed": self.opts.seed,
            "options": self.opts.to_dict(),
            "command": self.opts.command_line(),
            "status": "running",
            "created_at": (old or {}).get("created_at", _now()),
            "updated_at": _now(),
            "counts": {},
            "timings": {},
            "sessions": list((old or {}).get("sessions", [])),
            "configurations": configs,
        }

    # ------------------------------------------------------------------ state
    def entry(self, ch: Chunk) -> dict:
        return self.manifest["configurations"][ch.config]["chunks"][ch.index]

    def pending(self) -> list[Chunk]:
        return [ch for ch in self.chunks if self.entry(ch)["status"] != "done"]

    def games_done(self, config: int) -> int:
        return sum(
            e["games"] for e in self.manifest["configurations"][config]["chunks"] if e["status"] == "done"
        )

    def _refresh_counts(self) -> None:
        chunks = [e for c in self.manifest["configurations"] for e in c["chunks"]]
        done = [e for e in chunks if e["status"] == "done"]
        self.manifest["counts"] = {
            "configurations": len(self.configs),
            "chunks": len(chunks),
            "chunks_done": len(done),
            "games": self.opts.games * len(self.configs),
            "games_done": sum(e["games"] for e in done),
        }
        compute = sum(e.get("seconds", 0.0) for e in done)
        walls = [s.get("seconds", 0.0) for s in self.manifest["sessions"]]
        self.manifest["timings"] = {
            "compute_seconds": round(compute, 3),
            "wall_seconds": round(sum(walls), 3),
        }
        self.manifest["updated_at"] = _now()

    # ------------------------------------------------------------------ running
    def finish_chunk(self, ch: Chunk, records: np.ndarray, seconds: float) -> None:
        """Write a computed chunk (int32[games, N_REC]) and mark it done in the manifest."""
        cfg = self.configs[ch.config]
        frame = store.records_frame(cfg, self.opts.seed, ch.game0, records, self.opts.rung_label)
        size = store.write_chunk(self.root, ch.path, frame)
        del frame
        self.entry(ch).update(
            {
                "status": "done",
                "rows": int(records.shape[0]),
                "bytes": size,
                "seconds": round(seconds, 4),
                "finished_at": _now(),
            }
            | store.outcome_counts(records)
        )
        self._games_run += ch.games
        self._play_seconds += seconds
        self._save(force=False)

    def _save(self, *, force: bool = True) -> None:
        """Write the manifest; between chunks at most every MANIFEST_EVERY seconds.

        The chunk files are the truth (a resume checks them), so a manifest a few chunks
        behind after a kill costs nothing; rewriting it after every chunk would cost
        O(chunks) each time."""
        now = time.perf_counter()
        if not force and now - self._saved < MANIFEST_EVERY:
            return
        self._refresh_counts()
        self._session().update({"games": self._games_run, "seconds": round(now - self._t0, 3)})
        store.write_manifest(self.root, self.manifest)
        self._saved = now

    def _session(self) -> dict:
        return self.manifest["sessions"][-1]

    def execute(self, on_progress: ProgressFn | None = None) -> Summary:
        """Run every pending chunk. On Ctrl-C (or any error) the manifest says so, finished chunks
        stay; a chunk or the manifest that cannot be written raises :class:`WriteFault` whose
        message says what is kept and to run again with ``--resume``."""
        if not self.manifest:
            self.open()
        self._t0 = time.perf_counter()
        self._games_run = 0
        self.manifest["sessions"].append(
            {
                "started_at": _now(),
                "status": "running",
                "threads": self.opts.threads,
                "scheduler": self.opts.scheduler,
                "games": 0,
                "seconds": 0.0,
                "host": _host(),
            }
        )
        status = "failed"
        try:
            self._save()
            tasks = [Task(ch, self.configs[ch.config], self.opts.seed, ch.game0, ch.games) for ch in self.pending()]
            on_games = None if on_progress is None else (lambda task, n: on_progress(task.key.config, n))
            self.executor.execute(tasks, lambda task, rec, sec: self.finish_chunk(task.key, rec, sec), on_games)
            status = "complete"
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        except WriteFault as e:
            e.kept = self.kept_text(e)
            raise
        finally:
            self._session().update({"status": status, "ended_at": _now()})
            self.manifest["status"] = status
            try:
                self._save()
            except WriteFault as e:
                if status == "complete":  # every chunk is written: only the manifest is missing
                    e.kept = self.kept_text(e)
                    raise
                # else an error is already on its way; the chunk files are the truth a resume reads
            finally:
                self.executor.close()
        return self.summary()

    def kept_text(self, fault: WriteFault) -> str:
        """What a run stopped by ``fault`` leaves on disk, and the way on."""
        done = sum(e["status"] == "done" for c in self.manifest.get("configurations", []) for e in c["chunks"])
        return (f"{done} of {len(self.chunks)} chunks are finished and kept in {self.root}; "
                f"{fault.remedy}, then run the same command with --resume to finish")

    # ------------------------------------------------------------------ results
    def summary(self) -> Summary:
        rows = []
        for cfg, c in zip(self.configs, self.manifest["configurations"], strict=True):
            done = [e for e in c["chunks"] if e["status"] == "done"]
            games = sum(e["games"] for e in done)
            winners = {k: sum(e["winners"].get(k, 0) for e in done) for k in store.OUTCOMES}
            turns = sum(e["turns"] for e in done)
            rows.append(
                {
                    "players": cfg.players,
                    "item_set": cfg.item_set,
                    "games": games,
                    "winners": winners,
                    "mean_turns": turns / games if games else float("nan"),
                }
            )
        complete = all(e["status"] == "done" for c in self.manifest["configurations"] for e in c["chunks"])
        ex = self.executor
        return Summary(rows, self._games_run, time.perf_counter() - self._t0, complete, self._play_seconds,
                       ex.load_seconds if ex else 0.0, ex.compiled if ex else False)


def _show(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def simulate(opts: SimOptions, on_progress: ProgressFn | None = None) -> Summary:
    """Open the run in ``opts.out`` and execute it (see :class:`Run`)."""
    run = Run(opts)
    run.open()
    return run.execute(on_progress)
