"""A skill ladder: the same configurations played by bots of rising skill, on the same deals.

A ladder is a study (:mod:`.study`) whose parts are its rungs: each rung is one bot profile on
every seat, and plays every configuration. Layout (``DIR`` is ``--out``)::

    DIR/results/_manifest.json              the ladder: command, plan (the rungs in order), parts, status
    DIR/results/1-random/...                rung 1's results store (Drink of Power on)
    DIR/results/1-random-no-drink/...       its Drink-off configurations (odd counts), when asked for
    DIR/results/2-greedy/...                rung 2, and so on, weakest first
    DIR/report/report.md, report.html       the report of all rungs, with its robustness section

Every rung plays with the stream label :data:`STREAM` in place of its bots in the games' random
streams (:attr:`kutsch_sim.api.GameConfig.stream`), so game g of a configuration is dealt the
same at every rung -- associations, occupations, starting items -- and only the play differs.
The records carry the columns ``rung`` (the profile) and ``rung_level`` (1 = the weakest), so
``pandas.read_parquet(DIR/results)`` reads the whole ladder as one table whose rung order is in
the data. The report (:mod:`kutsch_sim.report.robustness`) reads that order from ``rung_level``.

Typical use::

    ladder = Study(ladder_options(rungs="random,greedy,smart", games="500", out="runs/ladder"))
    ladder.open()
    summary = ladder.execute()    # rung by rung, weakest first; a finished chunk is never replayed
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..api import LADDER_STREAM, MAX_SEED, GameConfig
from ..bots.profiles import PROFILES, check_bots
from ..errors import KutschError
from .options import parse_count, parse_items, parse_players, parse_threads, sim_options
from .study import RESULTS, StudyOptions, StudyPart, check_resumable, check_study_out

FORMAT = "kutsch-sim-ladder"
STREAM = LADDER_STREAM
CHUNK = 250  # games a chunk file: a search rung plays about 0.5 s a game at 9 players, so an
# interrupted ladder loses about a minute of it on two threads (a finished chunk is kept)
DEFAULT_RUNGS = ("random", "greedy", "smart-v2", "smart", "search-s", "search-m")
DEFAULT_PLAYERS = "3,5,6,9"
DEFAULT_ITEMS = "basic,basic+Loge"
DEFAULT_DRINK_OFF = "basic"
DEFAULT_GAMES = 2_000
NO_DRINK = "no-drink"
_FOLDER_NAME = re.compile(r"[a-z0-9][a-z0-9_.+-]*")  # a rung's profile names its folders


def default_rungs() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the rungs of :data:`DEFAULT_RUNGS` whose profile exists, those that do not yet)."""
    return (tuple(r for r in DEFAULT_RUNGS if r in PROFILES), tuple(r for r in DEFAULT_RUNGS if r not in PROFILES))


def parse_rungs(text: str | None) -> tuple[str, ...]:
    """``"random,greedy,smart"`` -> profile names, weakest first: at least two, each known and once."""
    example = "give two or more bot profiles, weakest first, e.g. random,greedy,smart"
    if text is None or not str(text).strip():
        raise KutschError(f"--rungs: no profile named; {example}")
    names = tuple(t.strip().lower() for t in str(text).split(","))
    if any(not n for n in names):
        raise KutschError(f"--rungs: empty profile name in {text!r}; {example}")
    try:
        check_bots(names)
    except KutschError as e:
        raise KutschError(f"--rungs: {e}") from None
    for i, n in enumerate(names):
        if n in names[:i]:
            raise KutschError(f"--rungs: {n} is named twice in {text!r}; each rung is another profile")
        if not _FOLDER_NAME.fullmatch(n):
            raise KutschError(f"--rungs: profile {n!r} cannot name a results folder; rename it in the profile table")
    if len(names) < 2:
        raise KutschError(f"--rungs: a ladder compares rungs, {names[0]} is one; {example}")
    return names


def parse_drink_off(text: str | None, items: tuple[str, ...]) -> tuple[str, ...]:
    """``--drink-off basic`` (or ``none``): item sets of ``items`` played again with the Drink off."""
    if text is None or str(text).strip().lower() in ("", "none"):
        return ()
    try:
        sets = parse_items(text)
    except KutschError as e:
        raise KutschError(f"--drink-off: {str(e).removeprefix('--items: ')}") from None
    for s in sets:
        if s not in items:
            raise KutschError(
                f"--drink-off: {s} is not in --items ({','.join(items)}); the Drink's effect compares "
                "the same deals played with it and without it"
            )
    return sets


def ladder_parts(rungs: tuple[str, ...], players: tuple[int, ...], items: tuple[str, ...],
                 drink_off: tuple[str, ...]) -> tuple[StudyPart, ...]:
    """Per rung (level 1 = the first, the weakest): ``players`` x ``items`` with the Drink on, then
    the odd counts of ``players`` x ``drink_off`` with it off (no part when either is empty)."""
    odd = tuple(n for n in players if n % 2 == 1)
    parts = []
    for level, rung in enumerate(rungs, 1):
        name = f"{level}-{rung}"
        parts.append(StudyPart(name, players, items, rung=rung, rung_level=level))
        if odd and drink_off:
            parts.append(StudyPart(f"{name}-{NO_DRINK}", odd, drink_off, drink=False, rung=rung, rung_level=level))
    return tuple(parts)


@dataclass(frozen=True)
class LadderOptions(StudyOptions):
    """Checked options of a ladder; ``bots`` lists the rungs, ``runs`` pairs each part with its
    ``simulate`` options (their stream label and rung set)."""

    format: ClassVar[str] = FORMAT
    what: ClassVar[str] = "ladder"
    rungs: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    items: tuple[str, ...] = ()
    drink_off: tuple[str, ...] = ()

    def plan_dict(self) -> dict:
        """What decides the records, the rungs first: a resumed ladder must repeat it exactly."""
        plan = super().plan_dict()
        return {"rungs": list(self.rungs), "players": list(self.players), "items": list(self.items),
                "drink_off": list(self.drink_off), "games": self.games, "seed": self.seed, "stream": STREAM,
                "parts": plan["parts"]}

    def command_line(self, *extra: str) -> str:
        """The ``kutsch-sim ladder`` command that reproduces this ladder (every record-deciding option)."""
        words = ["kutsch-sim", "ladder", "--rungs", ",".join(self.rungs), "--players", ",".join(map(str, self.players)),
                 "--items", ",".join(self.items), "--drink-off", ",".join(self.drink_off) or "none",
                 "--games", str(self.games), "--seed", str(self.seed)]
        return self.quoted(words, *extra)


def ladder_options(
    *,
    rungs: str | None = None,
    players: str = DEFAULT_PLAYERS,
    items: str = DEFAULT_ITEMS,
    drink_off: str | None = DEFAULT_DRINK_OFF,
    games: str | int = DEFAULT_GAMES,
    seed: str | int = 1,
    threads: str | int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
    scheduler: str | None = None,
) -> LadderOptions:
    """Check every option and build every part's :class:`~.options.SimOptions` (nothing is written).

    ``rungs=None`` is :data:`DEFAULT_RUNGS` less the profiles not defined yet (:func:`default_rungs`).
    ``--out`` is checked last. Raises :class:`KutschError` with a one-line message on the first problem."""
    names = parse_rungs(",".join(default_rungs()[0]) if rungs is None else rungs)
    counts = parse_players(players)
    sets = parse_items(items)
    off = parse_drink_off(drink_off, sets)
    n_games = parse_count(games, "--games", 1)
    seed_value = parse_count(seed, "--seed", 0, MAX_SEED)
    if scheduler is not None and not str(scheduler).strip():
        raise KutschError("--scheduler: empty address; give host:port, e.g. tcp://10.0.0.5:8786")
    n_threads = parse_threads(threads, local=scheduler is None)
    for n in counts:  # every configuration must be playable before --out is looked at
        for s in sets:
            GameConfig(n, s)
    root = check_study_out(out, resume=resume, force=force, fmt=FORMAT, what="ladder")
    ladder = LadderOptions(games=n_games, seed=seed_value, bots=",".join(names), out=root, threads=n_threads,
                           scheduler=str(scheduler).strip() if scheduler else None, resume=resume, force=force,
                           rungs=names, players=counts, items=sets, drink_off=off)
    command = ladder.command_line()
    runs = []
    for part in ladder_parts(names, counts, sets, off):
        opts = sim_options(players=",".join(map(str, part.players)), items=",".join(part.items), games=n_games,
                           seed=seed_value, bots=part.rung, threads=threads, no_drink=not part.drink,
                           out=root / RESULTS / part.name, resume=resume, force=force, scheduler=scheduler,
                           chunk_size=CHUNK)
        runs.append((part, dataclasses.replace(opts, stream=STREAM, rung=part.rung, rung_level=part.rung_level,
                                               origin=command)))
    ladder = dataclasses.replace(ladder, runs=tuple(runs))
    if resume:
        check_resumable(ladder)
    return ladder
