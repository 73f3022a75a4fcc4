"""The results store: one Parquet file per configuration and chunk, and a JSON manifest.

Layout (``DIR`` is ``--out``)::

    DIR/_manifest.json                                   every option, seed, versions, chunk status
    DIR/players-06/item_set-basic+Loge/chunk-000012.parquet

Each chunk file holds the full per-game schema of ``docs/results_schema.md``, including
``players`` and ``item_set``, so a single file is self-describing. The directories are
deliberately *not* hive-style (``players=6``): pandas/pyarrow would then add a second,
dictionary-typed ``players`` column from the path that clashes with the int8 column in the
files ("Unable to merge: Field players has incompatible types"). Without ``=`` the path is
only for people, and ``pandas.read_parquet(DIR)`` loads every chunk as one table with the
schema's types. The manifest's name starts with ``_`` (and temporary files with ``.``),
which pyarrow's dataset discovery skips; a ``manifest.json`` would be read as Parquet and fail.

Every file is written under a temporary name and renamed with :func:`os.replace`, so a
crash, Ctrl-C or a full disk leaves either the old file or the new one, never half a file;
a write that fails raises :class:`~kutsch_sim.sim.paths.WriteFault` naming the file.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..api import GameConfig
from ..enums import REC, WINNER_LABELS
from .paths import WriteFault
from .results import records_to_frame

MANIFEST = "_manifest.json"
FORMAT = "kutsch-sim-results"
FORMAT_VERSION = 1
COMPRESSION = "zstd"
OUTCOMES = (*WINNER_LABELS, "none")  # winner counts in the manifest, in this order


def config_dir(cfg: GameConfig) -> str:
    """Relative directory of a configuration's chunks, e.g. ``players-06/item_set-basic+Loge``."""
    return f"players-{cfg.players:02d}/item_set-{cfg.item_set}"


def chunk_relpath(cfg: GameConfig, index: int) -> str:
    return f"{config_dir(cfg)}/chunk-{index:06d}.parquet"


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _fsync_replace(tmp: Path, path: Path) -> None:
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def records_frame(cfg: GameConfig, seed: int, game0: int, records: np.ndarray,
                  rung: tuple[str, int] | None = None) -> pd.DataFrame:
    """Label int32[n, N_REC] records of games game0.. of ``cfg`` (the results schema; ``rung``:
    a ladder rung's name and level)."""
    return records_to_frame(
        records,
        players=cfg.players,
        item_set=cfg.item_set,
        bots=cfg.bots,
        variant=cfg.variant_label,
        drink=cfg.drink,
        seed=seed,
        game_start=game0,
        rung=rung,
    )


def write_chunk(root: Path, relpath: str, frame: pd.DataFrame) -> int:
    """Write ``frame`` to ``root/relpath`` atomically; returns the file size in bytes.

    Raises :class:`WriteFault` (the temporary file removed, an older file untouched) if it
    cannot be written."""
    path = root / relpath
    tmp = _tmp_name(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
        _fsync_replace(tmp, path)
        return path.stat().st_size
    except OSError as e:  # pyarrow raises OSError for ENOSPC and EACCES too
        raise WriteFault(path, e) from None
    finally:
        _discard(tmp)


def _write_table(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path, compression=COMPRESSION)


def _discard(tmp: Path) -> None:
    """Remove a temporary file; quietly, as it is called while another error is on its way."""
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)


def chunk_rows(root: Path, relpath: str) -> int | None:
    """Rows in a finished chunk file, or ``None`` if it is missing or unreadable."""
    try:
        return pq.ParquetFile(root / relpath).metadata.num_rows
    except (OSError, pa.ArrowException):
        return None


def outcome_counts(records: np.ndarray) -> dict:
    """Winner counts (by :data:`OUTCOMES`) and the sum of turns of int32[n, N_REC] records."""
    codes = records[:, REC.WINNER].astype(np.int64)
    codes = np.where((codes >= 0) & (codes < len(WINNER_LABELS)), codes, len(WINNER_LABELS))
    counts = np.bincount(codes, minlength=len(OUTCOMES))
    return {
        "winners": dict(zip(OUTCOMES, map(int, counts), strict=True)),
        "turns": int(records[:, REC.TURNS].sum()),
    }


def chunk_counts(root: Path, relpath: str) -> dict:
    """:func:`outcome_counts` read back from a chunk file (for chunks the manifest missed)."""
    t = pq.read_table(root / relpath, columns=["winner", "turns"]).to_pandas()
    winners = t["winner"].astype(str).value_counts()
    return {
        "winners": {k: int(winners.get(k, 0)) for k in OUTCOMES},
        "turns": int(t["turns"].astype(np.int64).sum()),
    }


def write_manifest(root: Path, manifest: dict) -> None:
    """Write ``root/_manifest.json`` atomically; :class:`WriteFault` if it cannot be written
    (the previous manifest stays)."""
    path = root / MANIFEST
    tmp = _tmp_name(path)
    try:
        _write_text(tmp, json.dumps(manifest, indent=1, sort_keys=False) + "\n")
        _fsync_replace(tmp, path)
    except OSError as e:
        raise WriteFault(path, e) from None
    finally:
        _discard(tmp)


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def read_manifest(root: Path | str) -> dict | None:
    """The manifest of the store at ``root``, or ``None`` if there is none."""
    path = Path(root) / MANIFEST
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def remove_temporaries(root: Path) -> int:
    """Delete temporary files a killed run left behind (``.*.tmp``); returns how many."""
    n = 0
    for tmp in root.rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)
        n += 1
    return n


def clear_store(root: Path) -> None:
    """Delete what a run writes (manifest, ``players-*`` directories, temporaries) for ``--force``."""
    for d in root.glob("players-*"):
        if d.is_dir():
            shutil.rmtree(d)
    remove_temporaries(root)
    (root / MANIFEST).unlink(missing_ok=True)


def load(root: Path | str) -> pd.DataFrame:
    """Every game in the store as one DataFrame (the same as ``pandas.read_parquet(root)``)."""
    return pd.read_parquet(Path(root))
