"""Command-line options of ``simulate`` and ``bench``: parse and check, before any work.

Every function raises :class:`KutschError` with a one-line message naming the option.
Nothing here writes to disk: :func:`check_out` only inspects the file system.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ..api import DEFAULT_TURN_CAP, GameConfig, check_seed, parse_variants
from ..bots.profiles import check_bots
from ..cards import canonical_item_set
from ..enums import MAX_PLAYERS, MIN_PLAYERS
from ..errors import KutschError
from .store import MANIFEST

DEFAULT_CHUNK = 100_000  # games per Parquet file: ~17 MB of records, ~100 MB peak while written
MAX_CHUNK = 1_000_000  # bounds memory: one chunk is all a run ever holds
MAX_GAMES = 10**12
MAX_CHUNKS = 100_000  # chunk files per run: keeps the manifest small (~30 MB at most)

_COUNT_RE = re.compile(r"(\d[\d_]*)(?:\.(\d+))?\s*([kKmMgG]|[eE]\d+)?")
_SUFFIX = {"k": 10**3, "m": 10**6, "g": 10**9}


def parse_count(text: str | int, option: str, lo: int = 1, hi: int = MAX_GAMES) -> int:
    """A whole number such as ``2000000``, ``2_000_000``, ``2e6``, ``2M`` or ``500k``, in lo..hi."""
    s = str(text).strip()
    m = _COUNT_RE.fullmatch(s)
    if m is None:
        raise KutschError(f"{option}: expected a whole number such as 100000, 1e6 or 2M, got {s!r}")
    whole, frac, suf = m.group(1).replace("_", ""), m.group(2) or "", (m.group(3) or "").lower()
    mult = 10 ** int(suf[1:]) if suf.startswith("e") else _SUFFIX.get(suf, 1)
    num = int(whole + frac) * mult
    if num % 10 ** len(frac):
        raise KutschError(f"{option}: expected a whole number, got {s!r}")
    value = num // 10 ** len(frac)
    if not lo <= value <= hi:
        raise KutschError(f"{option} must be between {lo:,} and {hi:,}, got {value:,}")
    return value


def parse_players(text: str) -> tuple[int, ...]:
    """``"3-10"``, ``"4,6,8"``, ``"3-5,9"`` -> player counts in the order given, without repeats."""
    out: list[int] = []
    tokens = [t.strip() for t in str(text).split(",")]
    for tok in tokens:
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", tok)
        if m is None:
            raise KutschError(
                f"--players: expected a count, a range like 3-10 or a list like 4,6,8, got {text!r}"
            )
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a > b:
            raise KutschError(f"--players: range {tok!r} runs backwards; write {b}-{a}")
        for n in (a, b):
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise KutschError(f"--players: {n} is outside {MIN_PLAYERS}-{MAX_PLAYERS} in {text!r}")
        out.extend(n for n in range(a, b + 1) if n not in out)
    return tuple(out)


def parse_items(text: str) -> tuple[str, ...]:
    """``"basic,full,basic+Loge"`` -> canonical item-set expressions, without repeats."""
    out: list[str] = []
    for tok in str(text).split(","):
        if not tok.strip():
            raise KutschError(f"--items: empty item set in {text!r}; separate item sets with commas")
        name = canonical_item_set(tok.strip())
        if name not in out:
            out.append(name)
    return tuple(out)


def parse_bots(text: str, players: tuple[int, ...]) -> tuple[str, ...]:
    """One profile for every seat (``"random"``) or one per seat (``"smart,random,..."``).

    A per-seat list fits one player count only, so it needs a single ``--players`` value."""
    names = tuple(s.strip() for s in str(text).split(","))
    if any(not s for s in names):
        raise KutschError(f"--bots: empty profile name in {text!r}")
    names = check_bots(names)
    if len(names) > 1:
        if len(players) != 1:
            shown = ",".join(map(str, players))
            raise KutschError(
                f"--bots lists {len(names)} seats, which fits one player count only, but --players "
                f"gives {shown}; name one profile for every seat or give one player count"
            )
        if len(names) != players[0]:
            raise KutschError(f"--bots lists {len(names)} seats but --players is {players[0]}")
    return names


def max_threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def parse_threads(text: str | int | None, *, local: bool = True) -> int | None:
    """Thread count: ``None`` (default: every core numba may use) or 1..NUMBA_NUM_THREADS.

    With a cluster (``local=False``) the count applies on the workers, so only ``>= 1`` is checked."""
    if text is None or str(text).strip() == "":
        return None
    hi = max_threads() if local else 4096
    extra = f" (numba allows {hi} here; set NUMBA_NUM_THREADS to change)" if local else ""
    try:
        return parse_count(text, "--threads", 1, hi)
    except KutschError as e:
        raise KutschError(f"{e}{extra}") from None


def parse_thread_list(text: str) -> tuple[int, ...]:
    """``"1,2"`` -> thread counts for the benchmark."""
    out = []
    for tok in str(text).split(","):
        n = parse_threads(tok.strip())
        if n is None:
            raise KutschError(f"--threads: empty entry in {text!r}")
        if n not in out:
            out.append(n)
    return tuple(out)


def _nearest_existing(p: Path) -> Path:
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def check_out(out: str | os.PathLike | None, *, resume: bool = False, force: bool = False) -> Path:
    """Check ``--out`` is (or can become) a writable results directory; returns the absolute path.

    A non-empty directory must be a results store (it holds ``_manifest.json``) and needs
    ``--resume`` or ``--force``. Writes nothing."""
    if out is None or str(out).strip() == "":
        raise KutschError("--out DIR is required: the directory the results are written to")
    if resume and force:
        raise KutschError("--resume and --force exclude each other: finish the run in --out, or replace it")
    p = Path(out).expanduser().absolute()
    if p.exists():
        if not p.is_dir():
            raise KutschError(f"--out {p} exists and is not a directory")
        if not os.access(p, os.W_OK | os.X_OK):
            raise KutschError(f"--out {p} is not writable")
        if any(p.iterdir()):
            if not (p / MANIFEST).is_file():
                raise KutschError(
                    f"--out {p} is not empty and holds no kutsch-sim results ({MANIFEST} missing); "
                    "choose a new or empty directory"
                )
            if not (resume or force):
                raise KutschError(
                    f"--out {p} already holds results; pass --resume to finish that run "
                    "or --force to replace it"
                )
    else:
        base = _nearest_existing(p.parent)
        if not base.is_dir():
            raise KutschError(f"--out {p}: cannot create it, {base} is not a directory")
        if not os.access(base, os.W_OK | os.X_OK):
            raise KutschError(f"--out {p}: cannot create it, {base} is not writable")
    return p


@dataclass(frozen=True)
class SimOptions:
    """Checked options of one ``simulate`` run. ``configs()`` gives players-major configurations."""

    players: tuple[int, ...]
    items: tuple[str, ...]
    games: int
    out: Path
    seed: int = 1
    bots: tuple[str, ...] = ("smart",)
    threads: int | None = None
    drink: bool = True
    resume: bool = False
    force: bool = False
    scheduler: str | None = None
    chunk_size: int = DEFAULT_CHUNK
    turn_cap: int = DEFAULT_TURN_CAP
    variants: tuple[str, ...] = ()  # R10 rule variants, the same for every configuration of the run
    # A ladder rung (kutsch_sim.sim.ladder): the stream label its games share with the other
    # rungs (api.GameConfig.stream), the rung's name and level (the records' rung columns), and
    # the ladder's command, which repeats the run where no simulate command can.
    stream: str = ""
    rung: str = ""
    rung_level: int = 0
    origin: str = ""
    _configs: tuple[GameConfig, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        cfgs = tuple(
            GameConfig(n, item, self.bots, self.drink, self.turn_cap, self.variants, self.stream)
            for n in self.players
            for item in self.items
        )
        object.__setattr__(self, "_configs", cfgs)

    def configs(self) -> tuple[GameConfig, ...]:
        return self._configs

    @property
    def rung_label(self) -> tuple[str, int] | None:
        """(name, level) of the ladder rung this run plays, ``None`` outside a ladder."""
        return (self.rung, self.rung_level) if self.rung else None

    def plan_dict(self) -> dict:
        """The options that decide the records: a resumed run must repeat them exactly."""
        return {
            "players": list(self.players),
            "items": list(self.items),
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "drink": self.drink,
            "turn_cap": self.turn_cap,
            "chunk_size": self.chunk_size,
            "variants": list(self.variants),
        } | ({"stream": self.stream} if self.stream else {}) | (
            {"rung": self.rung, "rung_level": self.rung_level} if self.rung else {})

    def command_line(self) -> str:
        """A command that repeats this run (recorded in the manifest): ``kutsch-sim simulate``,
        or for a ladder rung the ladder's."""
        if self.origin:
            return self.origin
        words = [
            "kutsch-sim",
            "simulate",
            "--players",
            ",".join(map(str, self.players)),
            "--items",
            ",".join(self.items),
            "--games",
            str(self.games),
            "--seed",
            str(self.seed),
            "--bots",
            ",".join(self.bots),
            "--chunk-size",
            str(self.chunk_size),
            "--turn-cap",
            str(self.turn_cap),
        ]
        if not self.drink:
            words.append("--no-drink")
        if self.variants:
            words += ["--variant", ",".join(self.variants)]
        if self.threads:
            words += ["--threads", str(self.threads)]
        if self.scheduler:
            words += ["--scheduler", self.scheduler]
        words += ["--out", str(self.out)]
        return " ".join(shlex.quote(w) for w in words)

    def to_dict(self) -> dict:
        """Every option, JSON-ready (for the manifest)."""
        return self.plan_dict() | {
            "threads": self.threads,
            "out": str(self.out),
            "resume": self.resume,
            "force": self.force,
            "scheduler": self.scheduler,
        }


def sim_options(
    *,
    players: str = "6",
    items: str = "basic",
    games: str | int = 10_000,
    seed: str | int = 1,
    bots: str = "smart",
    threads: str | int | None = None,
    no_drink: bool = False,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    force: bool = False,
    scheduler: str | None = None,
    chunk_size: str | int = DEFAULT_CHUNK,
    turn_cap: str | int = DEFAULT_TURN_CAP,
    variants: str | tuple[str, ...] | list[str] | None = None,
) -> SimOptions:
    """Check raw option values (strings as typed) and build :class:`SimOptions`.

    Checks everything, ``--out`` last, and raises :class:`KutschError` on the first problem."""
    n_players = parse_players(players)
    item_sets = parse_items(items)
    n_games = parse_count(games, "--games", 1, MAX_GAMES)
    seed_value = check_seed(parse_count(seed, "--seed", 0, 2**63 - 1))
    bot_names = parse_bots(bots, n_players)
    if scheduler is not None and not str(scheduler).strip():
        raise KutschError("--scheduler: empty address; give host:port, e.g. tcp://10.0.0.5:8786")
    n_threads = parse_threads(threads, local=scheduler is None)
    chunk = parse_count(chunk_size, "--chunk-size", 1, MAX_CHUNK)
    cap = parse_count(turn_cap, "--turn-cap", 1, 10**9)
    try:
        variant_names = parse_variants(variants)
    except KutschError as e:
        raise KutschError(f"--variant: {e}") from None
    n_chunks = len(n_players) * len(item_sets) * -(-n_games // chunk)
    if n_chunks > MAX_CHUNKS:
        raise KutschError(
            f"--chunk-size {chunk:,} makes {n_chunks:,} chunk files; at most {MAX_CHUNKS:,} per run, "
            "raise --chunk-size"
        )
    for n in n_players:  # every configuration must be playable (deal, turn cap) before --out is looked at
        for item_set in item_sets:
            try:
                GameConfig(n, item_set, bot_names, not no_drink, cap, variant_names)
            except KutschError as e:
                raise KutschError(f"--variant: {e}" if "variant" in str(e) else str(e)) from None
    path = check_out(out, resume=resume, force=force)
    return SimOptions(
        players=n_players,
        items=item_sets,
        games=n_games,
        out=path,
        seed=seed_value,
        bots=bot_names,
        threads=n_threads,
        drink=not no_drink,
        resume=resume,
        force=force,
        scheduler=str(scheduler).strip() if scheduler is not None else None,
        chunk_size=chunk,
        turn_cap=cap,
        variants=variant_names,
    )
