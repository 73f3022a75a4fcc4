"""Per-game engine records (int32 arrays) -> one labelled pandas DataFrame.

The schema is documented in ``docs/results_schema.md``; keep both in step.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import OCC_KEYS
from ..enums import DECL_LABELS, MAX_PLAYERS, REC, TEAM_NAMES, WINNER_LABELS

_TEAM_LABELS = tuple(t.lower() for t in TEAM_NAMES)


def _labels(codes: np.ndarray, labels: tuple[str, ...], none: str = "none") -> pd.Categorical:
    cats = list(labels) + [none]
    idx = np.where(codes < 0, len(labels), codes)
    return pd.Categorical.from_codes(idx, categories=cats)


def _const(value: str, n: int) -> pd.Categorical:
    """A constant category column without building a Python list of n strings."""
    return pd.Categorical.from_codes(np.zeros(n, np.int8), categories=[value])


def records_to_frame(rec: np.ndarray, *, players: int, item_set: str, bots: tuple[str, ...],
                     variant: str, drink: bool, seed: int, game_start: int,
                     rung: tuple[str, int] | None = None) -> pd.DataFrame:
    """Label ``rec`` (int32[n_games, N_REC]) from one configuration as a DataFrame.

    ``rung`` (name, level) adds the columns ``rung`` and ``rung_level`` of a skill ladder's games."""
    n = rec.shape[0]
    cols: dict[str, object] = {
        "players": np.full(n, players, np.int8),
        "item_set": _const(item_set, n),
        "variant": _const(variant, n),
        "drink": np.full(n, drink, bool),
        "bots": _const(",".join(bots), n),
        "seed": np.full(n, seed, np.uint64),
        "game": np.arange(game_start, game_start + n, dtype=np.int64),
        "winner": _labels(rec[:, REC.WINNER], WINNER_LABELS),
        "solo_seat": rec[:, REC.SOLO_SEAT].astype(np.int8),
        "declarer": rec[:, REC.DECLARER].astype(np.int8),
        "decl_kind": _labels(rec[:, REC.DECL_KIND], DECL_LABELS),
        "decl_ok": rec[:, REC.DECL_OK].astype(bool),
        "wrong_decl": (rec[:, REC.DECLARER] >= 0) & (rec[:, REC.DECL_OK] == 0),
        "turns": rec[:, REC.TURNS].astype(np.int16),
        "minority": _labels(rec[:, REC.MINORITY], _TEAM_LABELS),
        "drink_used": rec[:, REC.DRINK_USED].astype(bool),
        "loge_start": rec[:, REC.LOGE_START].astype(np.int8),
        "loge_ever": rec[:, REC.LOGE_EVER].astype(np.int16),
        "decisions": rec[:, REC.DECISIONS].astype(np.int32),
        "error": rec[:, REC.ERROR].astype(np.int8),
    }
    for p in range(MAX_PLAYERS):
        cols[f"team_{p}"] = _labels(rec[:, REC.TEAM0 + p], _TEAM_LABELS)
        cols[f"occ_{p}"] = _labels(rec[:, REC.OCC0 + p], OCC_KEYS)
        cols[f"items_{p}"] = rec[:, REC.ITEMS0 + p].astype(np.int32)
        cols[f"bot_{p}"] = _const(bots[p] if p < players else "none", n)
    if rung is not None:
        cols["rung"] = _const(rung[0], n)
        cols["rung_level"] = np.full(n, rung[1], np.int8)
    return pd.DataFrame(cols)
