"""Does a cheap deviation pay for one role? Every single parameter of the role's row moved to
either end of a sensible range, played by the role's seats against the other seats' profile
on the same deals.

    python scripts/analyse/role_deviations.py --players 5 --items basic --role minority --bracket told \
        [--row runs/tune/minority-told-5p.csv] --games 8000

The role's row is the tuned one of ``--row`` (a profile table written by ``kutsch-sim tune``;
its role row) or, without it, the opponents' own row. The role's seats are those of
``kutsch_sim.sim.tune.play``: the seats of the role's team (team roles; with ``--bracket
told`` they are told their team's size), or whoever holds the Loge. The gain is the role's
win rate with the deviation minus with the row, paired by game, with its 95% interval.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from kutsch_sim.bots import profiles
from kutsch_sim.bots.params import PARAM_NAMES, ROLE_NAMES
from kutsch_sim.errors import KutschError
from kutsch_sim.sim.tune import ROLES, play, tune_plan

from _paired import mean_ci
from deviations import RANGES

def role_row(path: Path, role: str) -> dict[str, float]:
    """The values of the role row in the profile table ``path`` (its only profile)."""
    table = {k: v for k, v in profiles.load_profiles(path, known={}).items() if k not in profiles.BUILTIN}
    if len(table) != 1:
        raise KutschError(f"{path}: expected one profile, found {len(table)}")
    prof = next(iter(table.values()))
    for r, row in prof.roles:
        if r == ROLES[role]:
            return dict(zip(PARAM_NAMES, row, strict=False))
    raise KutschError(f"{path}: no {ROLE_NAMES[ROLES[role]]} row")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--items", default="basic")
    ap.add_argument("--role", default="minority", choices=sorted(ROLES))
    ap.add_argument("--bracket", default="honest", choices=("honest", "told"))
    ap.add_argument("--against", default="smart")
    ap.add_argument("--row", type=Path, help="profile table with the role's tuned row")
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args(argv)
    try:
        plan = tune_plan(players=args.players, items=args.items, role=args.role, bracket=args.bracket,
                         against=args.against, params=None, games=args.games, trials=1, seed=args.seed,
                         out=Path(tempfile.gettempdir()) / "role_deviations.csv")
        base = dict(zip(PARAM_NAMES, profiles.PROFILES[args.against].params, strict=False))
        if args.row is not None:
            base.update(role_row(args.row, args.role))
    except (KutschError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    ref = play(plan, base, args.seed, args.games)
    ok = ~np.isnan(ref)
    print(f"{args.role} ({args.bracket}), {args.players} players, {args.items}, against {args.against}; "
          f"row: {args.row or 'the opponents'}; {args.games:,} paired deals, seed {args.seed}")
    print(f"role's win rate with its row: {100 * np.nanmean(ref):.2f}%\n")
    print("| parameter | row's value | deviation | gain, points (95% interval) |")
    print("|---|---:|---:|---|")
    worst = -1.0
    for name, ends in RANGES.items():
        for end in ends:
            if abs(end - base[name]) < 1e-9:
                continue
            dev = play(plan, {**base, name: end}, args.seed, args.games)
            m, lo, hi = mean_ci((dev - ref)[ok & ~np.isnan(dev)])
            worst = max(worst, m)
            flag = " **pays**" if m > 0.01 else ""
            print(f"| {name} | {base[name]:g} | {end:g} | {100 * m:+.1f} ({100 * lo:+.1f} to "
                  f"{100 * hi:+.1f}){flag} |", flush=True)
    print(f"\nlargest gain: {100 * worst:+.1f} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
