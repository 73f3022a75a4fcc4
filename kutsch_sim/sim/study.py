"""The standard study: every configuration the balance report needs, as parts.

A *part* is one ``simulate`` run (one results store; the runner takes one ``drink`` value
per run). Layout (``DIR`` is ``--out``)::

    DIR/results/_manifest.json            the study: command, options, parts, status
    DIR/results/basic/...                 a results store (``_manifest.json``, players-NN/...)
    DIR/results/basic+Tome/...            one part per item set of the Drink-on study
    DIR/results/no-drink/...              the Drink of Power counterfactual (odd counts, drink off)
    DIR/results/variant-smuggling/...     with ``--variants``: one part per R10 variant (see
                                          :func:`variant_parts`), compared with the base game
    DIR/report/report.md, report.html     the report of all parts together

``pandas.read_parquet(DIR/results)`` reads every part as one table (pyarrow skips the
``_``-prefixed manifests and the directory names hold no ``=``, so no partition columns
are added). Every game depends only on (seed, configuration, game index), so a part's
records are those of ``kutsch-sim simulate`` with the part's options.

Typical use::

    study = Study(study_options(games="2000", seed="1", out="runs/study"))  # every check
    study.open()                  # scheduler, writable --out, --force clean-up, study manifest
    summary = study.execute()     # every part in turn (a finished chunk is never replayed)
    # then the report: kutsch_sim.cli.report.make_report(DIR/results, DIR/report, ...)
"""

from __future__ import annotations

import functools
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from .. import __version__
from .._jitcache import source_hash
from ..api import MAX_SEED, RULES_VERSION
from ..bots.profiles import PROFILES, check_bots
from ..cards import ITEM_KEYS, TABLES, canonical_item_set
from ..enums import MAX_PLAYERS, MIN_PLAYERS
from ..errors import KutschError
from ..rules_table import SWITCHES, VARIANTS, parse_variants, row_of
from . import store
from .options import SimOptions, check_out, parse_count, parse_threads, sim_options
from .paths import WriteFault, probe_writable_dir
from .runner import Run, Summary

FORMAT = "kutsch-sim-study"
FORMAT_VERSION = 1
# Games per configuration by default: 71 configurations x 1,000 = 71,000 games. Measured on
# the 2-core development machine, JIT warm, while other jobs ran (load 4-6): with `smart`
# bots 3 min 28 s and 4 min 25 s wall (2 min 20 s of CPU: 1-2 min on an idle 2-core
# laptop), with `random` 1 min 2 s. Start-up and the report take ~15 s of it.
DEFAULT_GAMES = 1_000
DEFAULT_GAMES_NOTE = "about 1 min on 2 cores with smart bots, once compiled"
CORE_SETS = ("basic", "full", "basic+Loge", "full-Loge")
DRINK_OFF_SETS = ("basic", "full")
NO_DRINK_PART = "no-drink"
RESULTS, REPORT = "results", "report"


def default_bots() -> str:
    """``smart`` if that profile exists, else ``random``."""
    return "smart" if "smart" in PROFILES else "random"


@dataclass(frozen=True)
class StudyPart:
    """One results store of the study: player counts x item sets, one Drink setting."""

    name: str  # directory under DIR/results
    players: tuple[int, ...]
    items: tuple[str, ...]
    drink: bool = True
    variants: tuple[str, ...] = ()  # R10 rule variants of every game of the part
    rung: str = ""  # a ladder's parts (kutsch_sim.sim.ladder): the rung's bot profile and level
    rung_level: int = 0

    @property
    def configurations(self) -> int:
        return len(self.players) * len(self.items)


def unstamped_kinds() -> tuple[int, ...]:
    """Item kinds not in ``basic`` (unstamped, from ``data/items.csv``), in kind order."""
    return tuple(k for k, row in enumerate(TABLES.items) if not row.stamped)


def standard_parts() -> tuple[StudyPart, ...]:
    """The standard study, Drink of Power on: 3-10 players x ``basic``, ``full``, ``basic+Loge``,
    ``full-Loge`` and each unstamped item added to ``basic`` alone (at the player counts the
    card is used at, R2.3: an added card that is never dealt would only measure noise); then
    the counterfactual: 3, 5, 7, 9 players x ``basic``, ``full`` with the Drink switched off."""
    every = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    parts = [StudyPart(s, every, (s,)) for s in CORE_SETS]
    for k in unstamped_kinds():
        name = canonical_item_set(f"basic+{ITEM_KEYS[k]}")
        if any(p.name == name for p in parts):  # basic+Loge is a core set
            continue
        row = TABLES.items[k]
        parts.append(
            StudyPart(name, tuple(n for n in every if row.min_players <= n <= row.max_players), (name,))
        )
    odd = tuple(n for n in every if n % 2 == 1)
    parts.append(StudyPart(NO_DRINK_PART, odd, DRINK_OFF_SETS, drink=False))
    return tuple(parts)


def variant_parts(variants: tuple[str, ...]) -> tuple[StudyPart, ...]:
    """The parts ``--variants`` adds, one per variant (R10), each to be compared with the same
    configurations of the base game: the variant's player counts and its study item sets, as
    its row of :mod:`kutsch_sim.rules_table` gives them (Smuggling and fortune-telling with the
    ``full`` item set, where every trade-effect item is in play)."""
    return tuple(StudyPart(f"variant-{v}", row_of(v).players, row_of(v).study_items, variants=(v,))
                 for v in variants)


@dataclass(frozen=True)
class StudyOptions:
    """Checked options of a study; ``runs`` pairs each part with its ``simulate`` options.

    ``format`` and ``what`` name the kind of study in its manifest and messages (a ladder is a
    study too: :class:`kutsch_sim.sim.ladder.LadderOptions`)."""

    format: ClassVar[str] = FORMAT
    what: ClassVar[str] = "study"
    games: int
    seed: int
    bots: str
    out: Path
    threads: int | None = None
    scheduler: str | None = None
    resume: bool = False
    force: bool = False
    variants: tuple[str, ...] = ()
    runs: tuple[tuple[StudyPart, SimOptions], ...] = field(default=(), repr=False)

    @property
    def results_dir(self) -> Path:
        return self.out / RESULTS

    @property
    def report_dir(self) -> Path:
        return self.out / REPORT

    @property
    def configurations(self) -> int:
        return sum(p.configurations for p, _ in self.runs)

    def plan_dict(self) -> dict:
        """What decides the records: a resumed study must repeat it exactly."""
        return {
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "variants": list(self.variants),
            "parts": [
                {"name": p.name, "players": list(p.players), "items": list(p.items), "drink": p.drink}
                | ({"variants": list(p.variants)} if p.variants else {})
                | ({"rung": p.rung, "rung_level": p.rung_level} if p.rung else {})
                for p, _ in self.runs
            ],
        }

    def command_line(self, *extra: str) -> str:
        """The ``kutsch-sim study`` command that reproduces this study (every record-deciding option)."""
        words = [
            "kutsch-sim",
            "study",
            "--games",
            str(self.games),
            "--seed",
            str(self.seed),
            "--bots",
            self.bots,
        ]
        if self.variants:
            words += ["--variants", ",".join(self.variants)]
        return self.quoted(words, *extra)

    def quoted(self, words: list[str], *extra: str) -> str:
        """``words`` with the run's threads, scheduler and ``--out`` (then ``extra``), as one shell line."""
        run = (["--threads", str(self.threads)] if self.threads else []) + (
            ["--scheduler", self.scheduler] if self.scheduler else [])
        return " ".join(shlex.quote(w) for w in [*words, *run, "--out", str(self.out), *extra])


def _check_variants(text: str | None) -> tuple[str, ...]:
    """``--variants a,b`` (or ``all``): the R10 variants and house rules (``team-items=2``)
    whose parts the study adds, in the table's order."""
    if text is None or not str(text).strip():
        return ()
    names = tuple(v.strip() for v in str(text).split(","))
    if any(not v for v in names):
        raise KutschError(f"--variants: empty variant name in {text!r}")
    if names == ("all",):
        names = VARIANTS
    try:  # each part plays at its variant's own player counts, so any known name is playable
        # one part per name, in the table's order; two values of one house rule are two parts
        parts = {v: i for i, name in enumerate(names) for v in parse_variants(name)}
        order = {s.name: i for i, s in enumerate(SWITCHES)}
        return tuple(sorted(parts, key=lambda v: (order[row_of(v).name], parts[v])))
    except KutschError as e:
        raise KutschError(f"--variants: {e}") from None


def read_study_manifest(out: Path, fmt: str = FORMAT) -> dict | None:
    """The manifest of a study of format ``fmt`` under ``out``, ``None`` if absent or of
    another kind; :class:`KutschError` if unreadable."""
    try:
        m = store.read_manifest(out / RESULTS)
    except ValueError as e:
        raise KutschError(
            f"--out: {out / RESULTS / store.MANIFEST} is unreadable ({e}); use --force"
        ) from None
    if m is not None and m.get("format") != fmt:
        return None
    return m


def check_study_out(out: str | Path | None, *, resume: bool, force: bool, fmt: str = FORMAT,
                    what: str = "study") -> Path:
    """``--out DIR``: new, empty, or a study of format ``fmt`` (which needs ``--resume`` or
    ``--force``); ``what`` names it in the messages. Writes nothing."""
    if out is None or str(out).strip() == "":
        raise KutschError("--out DIR is required: the directory the results and the report are written to")
    if resume and force:
        raise KutschError(f"--resume and --force exclude each other: finish the {what} in --out, or replace it")
    p = Path(out).expanduser().absolute()
    if p.exists() and not p.is_dir():
        raise KutschError(f"--out {p} exists and is not a directory")
    if not (p.is_dir() and any(f.is_file() for f in p.rglob("*"))):
        check_out(p / RESULTS)  # new, or only empty folders (a study stopped before its first manifest)
        return p
    if read_study_manifest(p, fmt) is None:
        raise KutschError(
            f"--out {p} is not empty and holds no kutsch-sim {what} ({RESULTS}/{store.MANIFEST} missing); "
            "choose a new or empty directory"
        )
    if not (resume or force):
        raise KutschError(
            f"--out {p} already holds a {what}; pass --resume to finish it or --force to replace it"
        )
    check_out(p / RESULTS, resume=True)  # writable (it holds the study manifest)
    return p


def study_options(
    *,
    games: str | int = DEFAULT_GAMES,
    seed: str | int = 1,
    bots: str | None = None,
    threads: str | int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
    scheduler: str | None = None,
    variants: str | None = None,
) -> StudyOptions:
    """Check every option and build every part's :class:`SimOptions` (nothing is written).

    ``--out`` is checked last, as in ``simulate``. Raises :class:`KutschError` with a
    one-line message on the first problem."""
    n_games = parse_count(games, "--games", 1)
    parse_count(seed, "--seed", 0, MAX_SEED)
    bot = default_bots() if bots is None or not str(bots).strip() else str(bots).strip()
    if "," in bot:
        raise KutschError(
            f"--bots {bot!r}: the study plays {MIN_PLAYERS}-{MAX_PLAYERS} players, so name one profile "
            "for every seat"
        )
    check_bots((bot,))
    names = _check_variants(variants)
    if scheduler is not None and not str(scheduler).strip():
        raise KutschError("--scheduler: empty address; give host:port, e.g. tcp://10.0.0.5:8786")
    parse_threads(threads, local=scheduler is None)
    root = check_study_out(out, resume=resume, force=force)
    runs = []
    for part in standard_parts() + variant_parts(names):
        opts = sim_options(
            players=",".join(map(str, part.players)),
            items=",".join(part.items),
            games=n_games,
            seed=seed,
            bots=bot,
            threads=threads,
            no_drink=not part.drink,
            out=root / RESULTS / part.name,
            resume=resume,
            force=force,
            scheduler=scheduler,
            variants=part.variants,
        )
        runs.append((part, opts))
    first = runs[0][1]
    study = StudyOptions(
        games=n_games,
        seed=first.seed,
        bots=first.bots[0],
        out=root,
        threads=first.threads,
        scheduler=first.scheduler,
        resume=resume,
        force=force,
        variants=names,
        runs=tuple(runs),
    )
    if resume:
        check_resumable(study)
    return study


def check_resumable(study: StudyOptions) -> None:
    """``--resume``: the study in ``--out`` and every part on disk must match these options. Writes nothing."""
    old = read_study_manifest(study.out, study.format)
    if old is None:
        return
    before = old.get("plan", {})
    for key, value in study.plan_dict().items():
        if before.get(key) != value:
            what = "the list of parts" if key == "parts" else f"{key} {_show(value)}"
            was = "" if key == "parts" else f" ({_show(before.get(key))})"
            raise KutschError(
                f"--resume: {what} differs from the {study.what} in {study.out}{was}; "
                "repeat its options or use --force to start over"
            )
    for _, opts in study.runs:
        part = store.read_manifest(opts.out) if opts.out.is_dir() else None
        if part is not None:
            Run(opts).check_resumable(part)  # package / rules version and options of that store


def _show(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


StudyProgressFn = Callable[[int, int, int], None]  # (part index, configuration index, games just finished)


class Study:
    """A study (the standard one, or a ladder's rungs) into ``opts.out``; see the module docstring."""

    def __init__(self, opts: StudyOptions):
        self.opts = opts
        self.runs = [Run(o) for _, o in opts.runs]
        self.parts = [p for p, _ in opts.runs]
        self.summaries: list[Summary | None] = [None] * len(self.runs)
        self.manifest: dict = {}

    def games_total(self, i: int) -> int:
        return self.opts.games * self.parts[i].configurations

    def games_done(self, i: int) -> int:
        """Games of part ``i`` already in finished chunk files (0 with ``--force``)."""
        run = self.runs[i]
        if self.opts.force or not run.root.is_dir():
            return 0
        return sum(ch.games for ch in run.chunks if store.chunk_rows(run.root, ch.path) == ch.games)

    def open(self) -> None:
        """Check the scheduler, prove ``--out`` writable, clear it with ``--force``; write the study manifest."""
        if self.opts.scheduler:
            from .cluster import connect

            connect(self.opts.scheduler).close()
        probe_writable_dir(self.opts.out, self.opts.what)
        if self.opts.force:
            self._clear()
        probe_writable_dir(self.opts.results_dir, "results")
        old = read_study_manifest(self.opts.out, self.opts.format) or {}
        self.manifest = {
            "format": self.opts.format,
            "format_version": FORMAT_VERSION,
            "package_version": __version__,
            "rules_version": RULES_VERSION,
            "engine": source_hash(),
            "command": self.opts.command_line(),
            "seed": self.opts.seed,
            "games_per_configuration": self.opts.games,
            "bots": self.opts.bots,
            "n_configurations": self.opts.configurations,
            "plan": self.opts.plan_dict(),
            "options": {"threads": self.opts.threads, "scheduler": self.opts.scheduler},
            "status": "running",
            "created_at": old.get("created_at", _now()),
            "updated_at": _now(),
            "parts": [{"name": p.name, "dir": p.name, "status": "pending"} for p in self.parts],
            "report": f"../{REPORT}/report.html",
        }
        try:
            self._save()
        except WriteFault as e:
            e.kept = f"nothing was played in this session; {e.remedy}, then run the same command again"
            raise

    def _clear(self) -> None:
        """``--force``: remove the stores and the report of the study in ``--out`` (nothing else)."""
        res = self.opts.results_dir
        if res.is_dir():
            for d in res.iterdir():
                if d.is_dir() and (d / store.MANIFEST).is_file():
                    store.clear_store(d)
                    if not any(d.iterdir()):
                        d.rmdir()
            (res / store.MANIFEST).unlink(missing_ok=True)
        if self.opts.report_dir.is_dir():
            shutil.rmtree(self.opts.report_dir)

    def _save(self) -> None:
        self.manifest["updated_at"] = _now()
        store.write_manifest(self.opts.results_dir, self.manifest)

    def execute(self, on_progress: StudyProgressFn | None = None) -> Summary:
        """Run every part in turn; each run skips its finished chunks. Ctrl-C keeps what is finished.

        Returns every configuration's tallies (Drink-off item sets labelled ``basic no Drink``) and
        this session's games and wall time."""
        if not self.manifest:
            self.open()
        t0 = time.perf_counter()
        status = "failed"
        try:
            for i, run in enumerate(self.runs):
                self._set_part(i, "running")
                run.open()
                run.manifest["study"] = {"command": self.opts.command_line(), "part": self.parts[i].name}
                progress = None if on_progress is None else functools.partial(on_progress, i)
                self.summaries[i] = run.execute(progress)
                self._set_part(i, run.manifest["status"])
            status = "complete"
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        except WriteFault as e:
            e.kept = self.kept_text(e)
            raise
        finally:
            for i, run in enumerate(self.runs):
                if self.manifest["parts"][i]["status"] == "running":  # the part this session stopped in
                    self._set_part(i, run.manifest.get("status", status), save=False)
            self.manifest["status"] = status
            try:
                self._save()
            except WriteFault as e:
                if status == "complete":  # every part is written: only the study manifest is missing
                    e.kept = self.kept_text(e)
                    raise
                # else an error is already on its way; a resume reads each part's chunk files
        return self.summary(time.perf_counter() - t0)

    def _set_part(self, i: int, status: str, *, save: bool = True) -> None:
        entry = self.manifest["parts"][i]
        entry["status"] = status
        if self.runs[i].manifest:
            entry["counts"] = self.runs[i].manifest.get("counts", {})
        if save:
            self._save()

    def summary(self, seconds: float = 0.0) -> Summary:
        rows, games = [], 0
        for part, s in zip(self.parts, self.summaries, strict=True):
            if s is None:
                continue
            games += s.games_run
            label = "" if part.drink else " no Drink"  # short: the table fits 80 columns
            label += "".join(f" {v}" for v in part.variants)
            rung = {"rung": part.rung} if part.rung else {}
            rows += [r | {"item_set": r["item_set"] + label} | rung for r in s.rows]
        complete = all(s is not None and s.complete for s in self.summaries)
        done = [s for s in self.summaries if s is not None]
        return Summary(rows, games, seconds, complete, sum(s.play_seconds for s in done),
                       sum(s.load_seconds for s in done), any(s.compiled for s in done))

    def interrupted_message(self) -> str:
        """What is kept after Ctrl-C, and the command that finishes the study."""
        return f"{self._kept()}; run `{self.opts.command_line('--resume')}` to finish"

    def kept_text(self, fault: WriteFault) -> str:
        """What a study stopped by ``fault`` leaves on disk, and the way on."""
        return f"{self._kept()}; {fault.remedy}, then run `{self.opts.command_line('--resume')}` to finish"

    def _kept(self) -> str:
        done = sum(s is not None and s.complete for s in self.summaries)
        chunks = sum(e["status"] == "done" for r in self.runs if r.manifest
                     for c in r.manifest["configurations"] for e in c["chunks"])
        total = sum(len(r.chunks) for r in self.runs)
        return f"{done} of {len(self.parts)} parts finished; {chunks} of {total} chunks are kept in {self.opts.results_dir}"
