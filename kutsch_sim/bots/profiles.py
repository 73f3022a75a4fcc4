"""Bot profiles by name -> (bot id, parameter vector) for the kernels.

Profiles and their parameters live in ``data/bots.csv`` (issue 3); ``random`` and
``first`` are built in.
"""

from __future__ import annotations

import numpy as np

from ..enums import MAX_PLAYERS
from ..errors import KutschError
from .dispatch import BOT_FIRST, BOT_RANDOM

N_BPARAM = 8
PROFILES: dict[str, tuple[int, tuple[float, ...]]] = {
    "random": (BOT_RANDOM, ()),
    "first": (BOT_FIRST, ()),
}


def check_bots(names: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for name in names:
        key = name.strip().lower()
        if key not in PROFILES:
            raise KutschError(f"unknown bot profile {name!r}; valid: {', '.join(PROFILES)}")
        out.append(key)
    return tuple(out)


def bot_arrays(names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    bots = np.zeros(MAX_PLAYERS, np.int8)
    params = np.zeros((MAX_PLAYERS, N_BPARAM), np.float64)
    for p, name in enumerate(names):
        bid, par = PROFILES[name]
        bots[p] = bid
        params[p, : len(par)] = par
    return bots, params
