#!/usr/bin/env python
"""Three bot decisions checked against the public events of whole games.

    python scripts/reproduce/decision_checks.py [--games 2000] [--seed 11]

For smart bots with all 21 items at 3 to 8 players, counts (``kutsch_sim.review.audit.check_game``)
* declarations with the Drink of Power, and those whose team already counted 3 victory items
  (R6.3, R7: the Drink was not needed);
* Poison Mixer uses, and those naming the side a Poison Ring had already made the winner (R5.6);
* Duelist decisions, and those where playing it would (not) have improved the fight, with each
  side's strength recomputed from the events before the decision (R8).
The figures behind the decision-checks table of docs/bots.md.
"""

from __future__ import annotations

import argparse

from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.review.audit import KEYS, check_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    print("| players | games | Drink declarations | of them with 3 items already | Mixer uses | of them after "
          "a Ring for the same side | Duelist decisions | of them wrong |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in range(3, 9):
        c = dict.fromkeys(KEYS, 0)
        cfg = GameConfig(n, "full", ("smart",))
        for g in range(a.games):
            check_game(play_game(cfg, a.seed, g).events, c)
        print(f"| {n} | {a.games:,} | " + " | ".join(f"{c[k]:,}" for k in KEYS) + " |", flush=True)


if __name__ == "__main__":
    main()
