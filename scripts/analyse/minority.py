"""The smaller team at odd counts: its win rate and what the Drink of Power does for it, for
seats that decide from their own view (honest) and for seats told that their team is the
smaller one (told: an upper bound, ``params.P_TOLD``).

    python scripts/analyse/minority.py --players 3,5,7,9 --games 40000 [--bots smart]

Every configuration is played with the Drink of Power on and off on the same deals (seed,
configuration, game index); the Drink's effect is the difference, with a 95% interval of the
paired differences. Rows print as they finish.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.bots import profiles
from kutsch_sim.bots.params import TOLD_SMALLER
from kutsch_sim.enums import REC, WIN
from kutsch_sim.errors import KutschError

from _paired import mean_ci as ci, write_json

def fmt(c: tuple[float, float, float], sign: bool = False) -> str:
    s = "+" if sign else ""
    return f"{100 * c[0]:{s}.1f} ({100 * c[1]:{s}.1f} to {100 * c[2]:{s}.1f})"


def smaller_wins(rec: np.ndarray) -> np.ndarray:
    win, small = rec[:, REC.WINNER], rec[:, REC.MINORITY]
    return (((win == WIN.ORDER) & (small == 0)) | ((win == WIN.BROTHERHOOD) & (small == 1))).astype(float)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="3,5,7,9")
    ap.add_argument("--items", default="basic")
    ap.add_argument("--bots", default="smart", help="the profile of every seat")
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        counts = [int(x) for x in args.players.split(",")]
        if any(n not in (3, 5, 7, 9) for n in counts):
            raise KutschError("odd player counts only: 3, 5, 7, 9")
        base = profiles.PROFILES.get(args.bots)
        if base is None or not base.params:
            raise KutschError(f"{args.bots!r} is not a heuristic profile")
    except (KutschError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    told = f"{args.bots}+told"
    profiles.PROFILES[told] = base._replace(told=TOLD_SMALLER)
    print(f"{args.bots}, {args.items}, {args.games:,} deals a row (Drink on and off), seed {args.seed}\n")
    print("| players | bracket | smaller team wins, Drink on | Drink off | Drink's effect, points | "
          "games won with the Drink |")
    print("|---:|---|---|---|---|---|")
    res = []
    for n in counts:
        for bracket, name in (("honest", args.bots), ("told", told)):
            on = run_batch(GameConfig(n, args.items, (name,), True), args.seed, 0, args.games)
            off = run_batch(GameConfig(n, args.items, (name,), False), args.seed, 0, args.games)
            w_on, w_off = smaller_wins(on), smaller_wins(off)
            drink = (on[:, REC.DRINK_USED] == 1) & (w_on == 1)
            row = {"players": n, "bracket": bracket, "on": ci(w_on), "off": ci(w_off), "effect": ci(w_on - w_off),
                   "won_with_drink": float(drink.mean())}
            res.append(row)
            print(f"| {n} | {bracket} | {fmt(row['on'])} | {fmt(row['off'])} | {fmt(row['effect'], True)} | "
                  f"{100 * row['won_with_drink']:.1f}% |", flush=True)
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
