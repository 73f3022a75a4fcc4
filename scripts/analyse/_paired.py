"""What the comparison scripts of this folder share: a mean with its 95% normal interval (over
games, or over the paired differences of the same deals), and writing their figures as JSON."""

from __future__ import annotations

import json

import numpy as np

Z95 = 1.959964


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high) of ``x`` with its 95% normal interval."""
    m = float(np.mean(x))
    h = Z95 * float(np.std(x, ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - h, m + h


def write_json(path: str | None, obj) -> None:
    """``obj`` to ``path`` (nothing without a path)."""
    if path:
        with open(path, "w") as f:
            json.dump(obj, f, indent=1)
