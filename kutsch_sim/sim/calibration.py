"""Calibration runs: the recorder's games (``calib.record``) in chunks, one folder a run.

A run plays every (profile, player count, item set) of its plan, each profile on every seat,
in chunks of :data:`CHUNK` games, and writes each chunk's claims and records as Parquet:

    OUT/_manifest.json                                the plan and the package that ran it
    OUT/claims/<profile>/<N>p-<items>/<k>.parquet      claims of chunk k (calib.record.COLUMNS)
    OUT/records/<profile>/<N>p-<items>/<k>.parquet     the same games' records (enums.REC)

A chunk is written whole or not at all (a temporary file renamed), so an interrupted run
loses at most the chunks under way, and ``--resume`` plays only the missing ones; the same
seed gives the same games, so a resumed run ends with the files an uninterrupted one has.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..api import RULES_VERSION, GameConfig, check_seed
from ..calib.record import CLAIM_LABELS, COLUMNS, record_claims
from ..enums import REC
from ..errors import KutschError
from .options import check_out, parse_count, parse_items, parse_players, parse_threads
from .store import MANIFEST

CHUNK = 1000  # games a chunk
# the claims' columns as stored (calib.record writes float64 rows): the counts and codes small
CLAIM_DTYPES = {"game": np.int32, "turn": np.int16, "seat": np.int8, "type": np.int8, "about": np.int32,
                "label": np.int8, "chosen": np.int8, "kind": np.int8, "won": np.int8}


@dataclass(frozen=True)
class CalibrationPlan:
    players: tuple[int, ...]
    items: tuple[str, ...]
    profiles: tuple[str, ...]
    games: int  # per (profile, count, item set)
    seed: int
    threads: int | None
    out: Path
    resume: bool

    def parts(self) -> list[tuple[str, int, str]]:
        return [(p, n, i) for p in self.profiles for n in self.players for i in self.items]

    def chunks(self) -> int:
        return -(-self.games // CHUNK)

    def describe(self) -> dict:
        return {"kind": "calibration", "players": list(self.players), "items": list(self.items),
                "profiles": list(self.profiles), "games": self.games, "seed": self.seed, "chunk": CHUNK,
                "package_version": __version__, "rules_version": RULES_VERSION}


def calibration_plan(players: str, items: str, bots: str, games: str | int, seed: str | int, threads: str | None,
                     out: str | None, resume: bool = False, force: bool = False) -> CalibrationPlan:
    """Check every option (a one-line :class:`KutschError` for the first wrong one); writes nothing."""
    from ..bots.profiles import check_bots

    n = parse_players(players)
    it = parse_items(items)
    names = tuple(s.strip() for s in str(bots).split(","))
    if any(not s for s in names):
        raise KutschError(f"--bots: empty profile name in {bots!r}")
    profiles = check_bots(names)
    if len(set(profiles)) != len(profiles):
        raise KutschError(f"--bots names a profile twice in {bots!r}")
    for name in profiles:
        if name in ("random", "first", "greedy"):
            raise KutschError(f"--bots: {name!r} states no probabilities; measure smart, search or your own profiles")
    for p in n:
        for i in it:
            GameConfig(p, i, (profiles[0],))  # an impossible deal is refused here
    g = parse_count(games, "--games", 1, 10**8)
    s = check_seed(int(parse_count(seed, "--seed", 0, 2**63 - 1)))
    path = check_out(out, resume=resume, force=force)
    if resume and (path / MANIFEST).is_file():
        old = json.loads((path / MANIFEST).read_text())
        want = CalibrationPlan(n, it, profiles, g, s, None, path, resume).describe()
        keep = ("kind", "players", "items", "profiles", "games", "seed", "chunk")
        if any(old.get(k) != want[k] for k in keep):
            raise KutschError(f"--resume: {path} holds another calibration run ({MANIFEST} differs); "
                              "give the same options or a new --out")
    return CalibrationPlan(n, it, profiles, g, s, parse_threads(threads), path, resume)


def _part_dir(root: Path, what: str, part: tuple[str, int, str]) -> Path:
    prof, n, items = part
    return root / what / prof / f"{n}p-{items.replace('+', '_')}"


def _write(frame: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def run(plan: CalibrationPlan, progress: Callable[[int], None] | None = None,
        clear: bool = False) -> None:
    """Play every missing chunk of the plan; ``progress(games)`` after each."""
    import shutil

    root = plan.out
    if clear:
        for sub in ("claims", "records"):
            shutil.rmtree(root / sub, ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    (root / MANIFEST).write_text(json.dumps(plan.describe(), indent=1))
    for part in plan.parts():
        prof, n, items = part
        cfg = GameConfig(n, items, (prof,))
        spec = cfg.spec(plan.seed)
        for k in range(plan.chunks()):
            g0 = k * CHUNK
            m = min(CHUNK, plan.games - g0)
            cpath = _part_dir(root, "claims", part) / f"{k:05d}.parquet"
            rpath = _part_dir(root, "records", part) / f"{k:05d}.parquet"
            if cpath.is_file() and rpath.is_file():
                if progress:
                    progress(m)
                continue
            rec, cl, _ = record_claims(spec, g0, m, threads=plan.threads)
            claims = pd.DataFrame(cl, columns=list(COLUMNS)).astype(CLAIM_DTYPES)
            claims["game"] += g0
            _write(pd.DataFrame(rec, columns=[f.lower() for f in REC._fields] + [f"x{j}" for j in range(
                rec.shape[1] - len(REC._fields))]).assign(game=np.arange(g0, g0 + m)), rpath)
            _write(claims, cpath)
            if progress:
                progress(m)


def _read(root: Path, what: str, plan: dict) -> pd.DataFrame:
    """Every chunk of ``what`` of a run, with the columns ``profile``, ``n``, ``items`` and
    ``config`` (categories: a run's claims are tens of millions of rows)."""
    parts = [(p, n, i) for p in plan["profiles"] for n in plan["players"] for i in plan["items"]]
    frames = []
    for k, part in enumerate(parts):
        for f in sorted(_part_dir(root, what, part).glob("*.parquet")):
            frames.append(pd.read_parquet(f).assign(part=np.int16(k)))
    if not frames:
        return pd.DataFrame()
    d = pd.concat(frames, ignore_index=True)
    code = d.pop("part").to_numpy()
    labels = [f"{p} {n} {i}" for p, n, i in parts]
    d["profile"] = pd.Categorical([p for p, _, _ in parts])[code]
    d["n"] = np.array([n for _, n, _ in parts], np.int16)[code]
    d["items"] = pd.Categorical([i for _, _, i in parts])[code]
    d["config"] = pd.Categorical(labels)[code]
    return d


def load(out: Path | str) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """(the plan, the claims with ``type`` as its label, the records) of a calibration run."""
    root = Path(out)
    if not (root / MANIFEST).is_file():
        raise KutschError(f"{root}: no calibration run here ({MANIFEST} missing)")
    plan = json.loads((root / MANIFEST).read_text())
    if plan.get("kind") != "calibration":
        raise KutschError(f"{root}: not a calibration run")
    claims = _read(root, "claims", plan)
    if len(claims):
        claims["type"] = pd.Categorical(np.array(CLAIM_LABELS)[claims["type"].astype(int).to_numpy()],
                                        categories=list(CLAIM_LABELS))
    return plan, claims, _read(root, "records", plan)
