#!/usr/bin/env python
"""Are the smart bots' team beliefs calibrated? ``python scripts/analyse/belief_calibration.py [--players 4,5,6,8]``.

Plays ``--games`` traced games per player count (smart bots, ``--items``, ``--seed``) and
takes, at the end of each game, every seat's P(other seat is my teammate) next to the truth
(the beliefs that ``kutsch-sim play`` prints under the trace). Groups the (seat, other seat)
pairs by the stated probability and prints, per group, how many pairs, their mean stated
P and how often the other seat truly was a teammate. Calibrated beliefs have the two
columns agree. A Markdown table; ``--json FILE`` saves the rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's kutsch_sim
from kutsch_sim.api import GameConfig, play_game  # noqa: E402
from kutsch_sim.enums import REC  # noqa: E402
from kutsch_sim.sim.options import parse_players  # noqa: E402

EDGES = (0.0, 0.01, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 0.99, 1.0)


def pairs(n: int, items: str, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(stated P, truly teammates) for every (seat, other seat) at the end of each game."""
    cfg = GameConfig(n, items, ("smart",) * n)
    ps, ys = [], []
    off = ~np.eye(n, dtype=bool)
    for g in range(games):
        r = play_game(cfg, seed, g)
        team = np.array([int(r.record[REC.TEAM0 + p]) for p in range(n)])
        ps.append(r.beliefs[:n, :n][off])
        ys.append((team[:, None] == team[None, :])[off])
    return np.concatenate(ps), np.concatenate(ys)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="4,5,6,8")
    ap.add_argument("--items", default="full")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    rows = []
    for n in parse_players(a.players):
        p, y = pairs(n, a.items, a.games, a.seed)
        if p.min() < 0.0 or p.max() > 1.0:  # every pair must fall into a bin
            raise SystemExit(f"{n} players: a stated P(teammate) outside [0, 1]: {p.min()!r} .. {p.max()!r}")
        for lo, hi in zip(EDGES[:-1], EDGES[1:], strict=True):
            m = (p >= lo) & ((p < hi) if hi < 1.0 else (p <= hi))
            if m.any():
                rows.append({"players": n, "lo": lo, "hi": hi, "pairs": int(m.sum()),
                             "stated": float(p[m].mean()), "true": float(y[m].mean())})
    print(f"smart bots, `{a.items}`, {a.games:,} games per count, seed {a.seed}: every seat's "
          "P(teammate) for every other seat at the end of the game\n")
    print("| players | stated P | pairs | mean stated | truly teammates |")
    print("|---:|---|---:|---:|---:|")
    for r in rows:
        hi = "1" if r["hi"] >= 1.0 else f"{r['hi']:.2f}"
        print(f"| {r['players']} | {r['lo']:.2f}–{hi} | {r['pairs']:,} | {r['stated']:.3f} | {r['true']:.3f} |")
    if a.json:
        Path(a.json).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
