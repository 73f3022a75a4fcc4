"""Does a cheap deviation pay? Each single parameter of a profile moved to either end of a
sensible range, played on alternate seats against the profile itself.

    python scripts/analyse/deviations.py --base smart --players 4,6,8,10 --games 60000

For every parameter and end, seats 0, 2, 4, ... play the deviation and the others the base
profile, then the other way round (both seatings, the same deals: half of ``--games`` each).
The gain is the deviating seats' win rate minus the base seats' at the same tables, with its
95% interval over games (a solo win counts for its seat alone, R6.5). A profile is at a
local best when no gain is above +1 point. ``--json`` keeps the figures; rows print as they
finish.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.bots import profiles
from kutsch_sim.bots.params import PARAM_NAMES
from kutsch_sim.enums import MAX_PLAYERS, REC, WIN
from kutsch_sim.errors import KutschError

from _paired import mean_ci, write_json

# (low end, high end) of each parameter's sensible range
RANGES = {
    "declare_threshold": (0.6, 0.99),
    "aggression": (0.5, 2.0),
    "soft_trust": (0.05, 0.5),
    "support_margin": (0.0, 0.5),
    "info_value": (0.5, 10.0),
    "draw_value": (1.0, 6.0),
    "pass_bias": (0.0, 1.0),
    "occ_margin": (0.0, 0.4),
    "urgency": (0.0, 0.5),
    "noise": (0.0, 1.5),
    "consolidate": (0.5, 3.0),
    "loge_watch": (0.0, 3.0),
    "wait_value": (0.0, 1.0),
    "fight_read": (0.0, 1.0),
    "loge_play": (0.0, 1.0),
    "support_price": (0.0, 1.0),
    "loge_hide": (0.0, 1.0),
    "evidence": (0.0, 1.0),
    "calibrated": (0.0, 1.0),
}


def seat_wins(rec: np.ndarray, n: int) -> np.ndarray:
    """float[games, n]: 1 where the seat won (its team's declaration, or its solo win)."""
    team = rec[:, REC.TEAM0:REC.TEAM0 + n]
    win = rec[:, REC.WINNER]
    won = (team == win[:, None]) & ((win == WIN.ORDER) | (win == WIN.BROTHERHOOD))[:, None]
    won |= (win == WIN.SOLO)[:, None] & (np.arange(n)[None, :] == rec[:, REC.SOLO_SEAT][:, None])
    return won.astype(float)


def gain(n: int, items: str, dev: str, base: str, games: int, seed: int) -> tuple[float, float, float]:
    diffs = []
    for first in (dev, base):
        other = base if first == dev else dev
        bots = tuple(first if p % 2 == 0 else other for p in range(n))
        rec = run_batch(GameConfig(n, items, bots), seed, 0, games // 2)
        w = seat_wins(rec, n)
        is_dev = np.array([b == dev for b in bots])
        diffs.append(w[:, is_dev].mean(axis=1) - w[:, ~is_dev].mean(axis=1))
    return mean_ci(np.concatenate(diffs))


def register(base: str, name: str, value: float) -> str:
    prof = profiles.PROFILES[base]
    par = list(prof.params)
    par[PARAM_NAMES.index(name)] = value
    key = f"{base}:{name}={value:g}"
    profiles.PROFILES[key] = prof._replace(params=tuple(par))
    return key


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="smart")
    ap.add_argument("--players", default="4,6,8,10")
    ap.add_argument("--items", default="full")
    ap.add_argument("--games", type=int, default=60_000, help="games per deviation and count (both seatings)")
    ap.add_argument("--params", default=",".join(RANGES), help="comma-separated parameter names")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        if args.base not in profiles.PROFILES:
            raise KutschError(f"unknown profile {args.base!r}")
        names = [x.strip() for x in args.params.split(",")]
        for x in names:
            if x not in RANGES:
                raise KutschError(f"unknown parameter {x!r}; valid: {', '.join(RANGES)}")
        counts = [int(x) for x in args.players.split(",")]
        if any(not 3 <= c <= MAX_PLAYERS for c in counts):
            raise KutschError("player counts must be 3-10")
    except (KutschError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    base_par = profiles.PROFILES[args.base].params
    res = []
    print(f"base {args.base}, items {args.items}, {args.games:,} games a row (both seatings), seed {args.seed}\n")
    print("| players | parameter | base value | deviation | gain of the deviating seats, points (95% interval) |")
    print("|---:|---|---:|---:|---|")
    for n in counts:
        for name in names:
            cur = base_par[PARAM_NAMES.index(name)]
            for end in RANGES[name]:
                if abs(end - cur) < 1e-12:
                    continue
                key = register(args.base, name, end)
                m, lo, hi = gain(n, args.items, key, args.base, args.games, args.seed)
                flag = " **pays**" if m > 0.01 else ""
                print(f"| {n} | {name} | {cur:g} | {end:g} | {100 * m:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f}){flag} |",
                      flush=True)
                res.append({"players": n, "param": name, "base": cur, "value": end, "gain": [m, lo, hi]})
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
