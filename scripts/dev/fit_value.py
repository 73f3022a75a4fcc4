"""Measure the look-ahead's value table (``kutsch_sim.search.value``) and write it into the package.

    python scripts/dev/fit_value.py --games 20000 --seed 4041

Plays ``--games`` games of ``smart`` at every seat (the bots of the look-ahead's rollouts) for
each player count 3-10 and item set basic and full, at odd counts with the Drink of Power in play
and switched off, and counts, for every seat at every turn boundary, the position's cell from
that seat's side and whether the seat then won (its team's win or its own solo win; a timeout
is nobody's). A cell's value is its share of wins, shrunk towards its coarser cells (the Loge
pooled, then the Drink too, then all) by ``PRIOR`` positions' worth, so that a rare cell leans on
the cells it belongs to. Writes ``kutsch_sim/search/value_table.py`` with its provenance; the
table changes the games of every profile with ``search_depth`` > 0, so regenerate the golden
records after (``python scripts/golden.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from kutsch_sim.api import GameConfig
from kutsch_sim.enums import MAX_PLAYERS
from kutsch_sim.search import value as V

OUT = Path(V.__file__).with_name("value_table.py")
PRIOR = 20.0


def _count(args):
    n, items, drink, seed, games = args
    spec = GameConfig(n, items, ("smart",), drink=drink).spec(seed)
    counts = np.zeros(V.N_CELLS)
    wins = np.zeros(V.N_CELLS)
    V.value_counts_nb(spec, 0, games, counts, wins)
    return n, counts, wins


def shrink(counts: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """Each cell's share of wins, shrunk towards its coarser cells (the module's docstring)."""
    c = counts.reshape(V.N_A, V.N_B, V.N_M, V.N_L)
    w = wins.reshape(V.N_A, V.N_B, V.N_M, V.N_L)
    top = (w.sum() + 0.5 * PRIOR) / (c.sum() + PRIOR)
    ab = (w.sum(axis=(2, 3)) + PRIOR * top) / (c.sum(axis=(2, 3)) + PRIOR)
    abm = (w.sum(axis=3) + PRIOR * ab[:, :, None]) / (c.sum(axis=3) + PRIOR)
    return ((w + PRIOR * abm[:, :, :, None]) / (c + PRIOR)).reshape(-1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per count, item set and Drink setting")
    ap.add_argument("--seed", type=int, default=4041)
    a = ap.parse_args()
    if a.games < 1:
        sys.exit("fit_value.py: --games must be at least 1")
    jobs = [(n, it, d, a.seed, a.games) for n in range(3, 11) for it in ("basic", "full")
            for d in ((True, False) if n % 2 else (True,))]
    counts = np.zeros((MAX_PLAYERS + 1, V.N_CELLS))
    wins = np.zeros((MAX_PLAYERS + 1, V.N_CELLS))
    with ProcessPoolExecutor(2) as ex:
        for k, (n, c, w) in enumerate(ex.map(_count, jobs), 1):
            counts[n] += c
            wins[n] += w
            print(f"  {k}/{len(jobs)}: {n} players, {int(c.sum()):,} positions", flush=True)
    table = np.full((MAX_PLAYERS + 1, V.N_CELLS), 0.5)
    for n in range(3, MAX_PLAYERS + 1):
        table[n] = shrink(counts[n], wins[n])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = ",\n".join("    (" + ", ".join(f"{x:.4f}" for x in table[n]) + f"),  # {n} players" for n in range(MAX_PLAYERS + 1))
    OUT.write_text(f'''"""The look-ahead's value table (``search.value``), made by ``scripts/dev/fit_value.py``; do not edit
by hand.

Measured on `smart` at every seat, 3-10 players, basic and full, at odd counts with the Drink of
Power in play and switched off, {a.games:,} games each (seed {a.seed}; {int(counts.sum()):,} positions: every
seat at every turn boundary), on the code of {commit}, {dt.date.today().isoformat()}. VALUE[n][cell]: the
share of those positions in the cell (``value.cell_nb``) from whose seat's side the seat then won,
shrunk towards the coarser cells by {PRIOR:g} positions' worth; 0.5 at the counts no game has.
"""

import numpy as np

VALUE = np.array((
{rows},
))
''')
    print(f"wrote {OUT} ({int(counts.sum()):,} positions)")


if __name__ == "__main__":
    main()
