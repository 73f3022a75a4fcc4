"""Point numba's on-disk cache at a folder keyed by a hash of the jitted sources.

numba's cache checks only the source file of each cached function, not the files of the
functions it calls, so an edit to ``engine/items.py`` would leave ``engine/game.py``'s
cached kernels silently stale. Keying the cache folder by a hash of every module numba
compiles makes any edit start a fresh cache. Must run before any ``@njit(cache=True)``
is applied, i.e. from ``kutsch_sim/__init__.py``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent
_JIT_SOURCES = ("enums.py", "rng.py", "engine", "bots")


def source_hash() -> str:
    h = hashlib.sha256()
    for name in _JIT_SOURCES:
        path = _PKG / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            h.update(f.relative_to(_PKG).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def configure() -> Path:
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("KUTSCH_SIM_CACHE_DIR")
    root = Path(base) if base else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kutsch_sim"
    path = root / f"numba-{source_hash()}"
    numba.config.CACHE_DIR = str(path)
    return path
