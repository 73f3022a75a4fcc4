"""Bot profiles by name -> (bot id, parameter vector) for the kernels.

``random`` and ``first`` are built in; the heuristic profiles and their named numeric
parameters are rows of ``data/bots.csv`` (columns: profile, bot, then the names in
:data:`kutsch_sim.bots.params.PARAM_NAMES`). A user may add rows (e.g. a bolder ``smart``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cards import DATA_DIRS, read_table
from ..enums import MAX_PLAYERS
from ..errors import KutschError
from .params import BOT_FIRST, BOT_NAMES, BOT_RANDOM, N_BPARAM, PARAM_NAMES

BUILTIN: dict[str, tuple[int, tuple[float, ...]]] = {
    "random": (BOT_RANDOM, ()),
    "first": (BOT_FIRST, ()),
}
COLUMNS = ("profile", "bot", *PARAM_NAMES)
HEURISTIC_BOTS = ("greedy", "smart")


def load_profiles(path: Path | str | None = None) -> dict[str, tuple[int, tuple[float, ...]]]:
    """Read and check ``bots.csv`` (default: the first of :data:`kutsch_sim.cards.DATA_DIRS`
    that has it). Returns name -> (bot id, parameters in PARAM_NAMES order), built-ins first."""
    if path is None:
        found = [d / "bots.csv" for d in DATA_DIRS if (d / "bots.csv").is_file()]
        if not found:
            raise KutschError(f"bots.csv not found in {' or '.join(str(d) for d in DATA_DIRS)}")
        path = found[0]
    path = Path(path)
    out = dict(BUILTIN)
    for lineno, fields in read_table(path, COLUMNS):
        name, bot = fields[0].lower(), fields[1].lower()
        if not name or name in out:
            raise KutschError(f"{path}: line {lineno}: profile name {fields[0]!r} is empty or repeated")
        if bot not in HEURISTIC_BOTS:
            raise KutschError(f"{path}: line {lineno}: bot must be one of {', '.join(HEURISTIC_BOTS)}, got {bot!r}")
        values = []
        for col, text in zip(PARAM_NAMES, fields[2:], strict=True):
            try:
                x = float(text)
            except ValueError:
                raise KutschError(f"{path}: line {lineno}: {col} must be a number, got {text!r}") from None
            if not np.isfinite(x) or x < 0:
                raise KutschError(f"{path}: line {lineno}: {col} must be a finite number >= 0, got {text!r}")
            values.append(x)
        out[name] = (BOT_NAMES.index(bot), tuple(values))
    return out


PROFILES = load_profiles()


def check_bots(names: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for name in names:
        key = name.strip().lower()
        if key not in PROFILES:
            raise KutschError(f"unknown bot profile {name!r}; valid: {', '.join(PROFILES)}")
        out.append(key)
    return tuple(out)


def bot_arrays(names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(bot ids int8[10], parameters float64[10, N_BPARAM]) for the seats named."""
    bots = np.zeros(MAX_PLAYERS, np.int8)
    params = np.zeros((MAX_PLAYERS, N_BPARAM), np.float64)
    for p, name in enumerate(names):
        bid, par = PROFILES[name]
        bots[p] = bid
        params[p, : len(par)] = par
    return bots, params
