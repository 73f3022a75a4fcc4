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
_JIT_SOURCES = ("enums.py", "rng.py", "jit.py", "cards_nb.py", "play.py", "engine", "bots", "search", "calib")


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
    """Choose the cache folder and the optimisation levels. Sets NUMBA_CACHE_DIR and, unless the
    user set it, NUMBA_OPT (both read when numba is imported), so importing kutsch_sim does not
    import numba; if numba is already loaded, also sets its cache folder directly (its code
    generator keeps the level it was made with)."""
    import sys

    base = os.environ.get("KUTSCH_SIM_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    root = Path(base) if base else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kutsch_sim"
    if root.name.startswith("numba-"):  # already configured by a parent process (Dask, subprocess)
        root = root.parent
    path = root / f"numba-{source_hash()}"
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "NUMBA_OPT" not in os.environ:
        # numba's machine-code generator at level 1 (it is made once, when numba first
        # compiles), while the LLVM passes of the kernels called from Python still run at
        # numba's default 3: see kutsch_sim.jit. A user's NUMBA_OPT is left as it is.
        os.environ["NUMBA_OPT"] = "1"
        os.environ["KUTSCH_SIM_OUTER_OPT"] = "3"
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = str(path)
    return path


def kernel_cached(kernel: str = "play_games_nb", source: str = "play.py") -> bool:
    """Whether numba's cache holds ``kernel`` of ``kutsch_sim/<source>`` (the batch kernel, or
    ``play_one_nb`` for one traced game; ``search/games.py``'s for searching seats) compiled
    from *these* files. numba keeps each source
    folder's entries in a subfolder named after the folder and the sha1 of its absolute path
    (``numba.core.caching._CacheLocator.get_suitable_cache_subpath``), so another checkout
    of the same sources, sharing the cache folder, does not count."""
    import kutsch_sim

    cache = getattr(kutsch_sim, "JIT_CACHE_DIR", None)
    if cache is None:
        return True
    folder = os.path.dirname(os.path.abspath(str(_PKG / source)))
    sub = os.path.basename(folder) + "_" + hashlib.sha1(folder.encode()).hexdigest()
    return any((Path(cache) / sub).glob(f"*.{kernel}-*.nbi"))
