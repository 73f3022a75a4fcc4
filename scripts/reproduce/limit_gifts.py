#!/usr/bin/env python
"""Hand-limit give-aways (R2.4) per game: the count behind the table in docs/bots.md (Decision checks).

    python scripts/reproduce/limit_gifts.py --players 4 --items full --games 300 [--seed 7] [--bots smart]

Plays the games with an event log (``api.play_game``) and counts the ``EV.GIVE`` events,
which only the hand-limit settlement (``engine.items.settle_limits_nb``) writes.
"""

from __future__ import annotations

import argparse

import numpy as np

from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.enums import EV


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--items", default="full")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bots", default="smart")
    a = ap.parse_args()
    cfg = GameConfig(a.players, a.items, (a.bots,))
    gifts = np.array([int((play_game(cfg, a.seed, g).events[:, 0] == EV.GIVE).sum()) for g in range(a.games)])
    print(f"{a.players} players, {a.items}, {a.bots}, seed {a.seed}, {a.games} games: limit gifts a game "
          f"mean {gifts.mean():.1f}, median {np.median(gifts):.0f}, max {gifts.max()}, "
          f"games over 60: {(gifts > 60).mean():.1%}")


if __name__ == "__main__":
    main()
