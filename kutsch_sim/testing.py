"""Fuzz bot profiles against the rules: every invariant checked after every event.

A bot is a profile (``data/bots.csv``: a bot id and its parameters). :func:`fuzz` plays games
of a configuration in debug mode, where the engine checks its invariants after every event
(each card in exactly one place, hand counts and the deck agree, occupations conserved, no
empty hand; hand limits between turns) and ends a game that breaks one with ``error``;
:func:`check` runs the same checks on any state, e.g. one built from a position::

    from kutsch_sim.api import GameConfig
    from kutsch_sim.testing import fuzz
    assert fuzz(GameConfig(6, "full", ("my-profile",)), seed=1, games=2000)["broken"] == 0
"""

from __future__ import annotations

import numpy as np

from .api import GameConfig, run_batch
from .enums import ERR_LABELS, REC, WIN


def check(st, full: bool = True) -> str | None:
    """The first broken invariant of state ``st`` (``enums.Err`` label), or None. ``full``
    adds the hand-limit check, which holds only between turns (R2.4)."""
    from .engine.invariants import check_nb

    err = int(check_nb(st, full))
    return None if err == 0 else ERR_LABELS[err]


def fuzz(cfg: GameConfig, seed: int, games: int) -> dict:
    """Play ``games`` games of ``cfg`` in debug mode: ``{"games", "broken", "first_broken", "errors"}``
    (``errors``: count per broken invariant; ``first_broken``: the game index to replay, or -1)."""
    rec = run_batch(cfg, seed, 0, games, debug=True)
    bad = np.flatnonzero((rec[:, REC.WINNER] == WIN.ERROR) | (rec[:, REC.ERROR] != 0))
    errors = {ERR_LABELS[e]: int(c) for e, c in zip(*np.unique(rec[bad, REC.ERROR], return_counts=True), strict=True)}
    return {"games": games, "broken": int(len(bad)), "first_broken": int(bad[0]) if len(bad) else -1,
            "errors": errors}
