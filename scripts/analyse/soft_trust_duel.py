#!/usr/bin/env python
"""Does a smart bot with another ``soft_trust`` play better? ``python scripts/analyse/soft_trust_duel.py --trust 0.25``.

Seats a `smart` bot whose ``soft_trust`` (weight of behaviour evidence, data/bots.csv) is
``--trust`` against plain `smart` on alternating seats, both seatings (half the games
each), `full` items, and prints the difference of their seats' win rates per game (a seat
wins with its team, or alone with the Loge) with a 95% normal interval over the games.
The variant lives only in this script: the parameters are changed in the arrays handed to
the batch kernel, so ``data/bots.csv`` stays as it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's kutsch_sim
from kutsch_sim.api import GameConfig  # noqa: E402
from kutsch_sim.bots.params import P_SOFT_TRUST  # noqa: E402
from kutsch_sim.bots.profiles import bot_arrays  # noqa: E402
from kutsch_sim.enums import REC, WIN  # noqa: E402
from kutsch_sim.play import play_batch  # noqa: E402
from kutsch_sim.sim.options import parse_players  # noqa: E402


def duel(n: int, trust: float, games: int, seed: int) -> np.ndarray:
    """Per game: mean win of the variant's seats minus that of the plain smart seats."""
    out = []
    for first in (0, 1):  # the variant on the even seats, then on the odd ones
        cfg = GameConfig(n, "full", ("smart",) * n)
        mine = np.array([(p % 2) == first for p in range(n)])
        params = bot_arrays(cfg.bots)[1]
        params[:n][mine, P_SOFT_TRUST] = trust
        rec = play_batch(cfg.spec(seed, params=params), 0, games // 2)
        team = rec[:, REC.TEAM0:REC.TEAM0 + n]
        win = rec[:, REC.WINNER]
        won = (team == win[:, None]) & ((win == WIN.ORDER) | (win == WIN.BROTHERHOOD))[:, None]
        won |= (win == WIN.SOLO)[:, None] & (np.arange(n)[None, :] == rec[:, REC.SOLO_SEAT][:, None])
        out.append(won[:, mine].mean(axis=1) - won[:, ~mine].mean(axis=1))
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trust", type=float, required=True)
    ap.add_argument("--players", default="6,10")
    ap.add_argument("--games", type=int, default=60_000)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args(argv)
    for n in parse_players(a.players):
        d = duel(n, a.trust, a.games, a.seed)
        m, h = d.mean(), 1.96 * d.std(ddof=1) / np.sqrt(len(d))
        print(f"{n} players: soft_trust {a.trust} minus smart (0.5), seat win rate {100 * m:+.2f} points "
              f"({100 * (m - h):+.2f} to {100 * (m + h):+.2f}; {len(d):,} games)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
