"""How much of the smaller team's share in a balance search comes from the larger team's failed
declarations, per player count, bots and setting.

A failed declaration gives the game to the other team (R6.4), so a larger team that declares
wrongly (a Drink of Power it is not entitled to, R7, or a teammate it misread) hands the
smaller team a win it did not play for. Reads the checked records a ``kutsch-sim balance`` run
keeps in ``records/`` and prints a Markdown table:

    python scripts/analyse/balance_declarations.py runs/balance-smaller [--setting base]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

from kutsch_sim.enums import REC, WIN

NAME = re.compile(r"(\d+)p-(.+?)-(\d+)-(\d+)-(.+)\.npy")


def row(rec: np.ndarray) -> dict:
    w = rec[:, REC.WINNER]
    team_win = (w == WIN.ORDER) | (w == WIN.BROTHERHOOD)
    small = rec[:, REC.MINORITY]
    decl = rec[:, REC.DECLARER]
    seat = np.clip(decl, 0, None)
    decl_team = np.where(decl >= 0, rec[np.arange(len(rec)), REC.TEAM0 + seat], -1)
    gift = team_win & (w == small) & (decl >= 0) & (rec[:, REC.DECL_OK] == 0) & (decl_team != small)
    drink = gift & (rec[:, REC.DRINK_USED] == 1)
    k = max(int(team_win.sum()), 1)
    won = team_win & (w == small)
    return {"games": len(rec), "smaller": 100 * won.sum() / k, "gift": 100 * gift.sum() / k,
            "drink": 100 * drink.sum() / k, "without": 100 * (won & ~gift).sum() / max(k - int(gift.sum()), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a kutsch-sim balance --out directory")
    ap.add_argument("--setting", default=None, help="only this setting (e.g. base)")
    a = ap.parse_args()
    files = sorted((a.run / "records").glob("*.npy"), key=lambda p: (int(NAME.fullmatch(p.name).group(1)), p.name))
    print("| players | bots | setting | games | smaller team, % of team wins | of them: the larger team's failed "
          "declarations, points | of which with a Drink | smaller team without those |")
    print("|---:|---|---|---:|---:|---:|---:|---:|")
    for f in files:
        n, bots, _seed, _games, setting = NAME.fullmatch(f.name).groups()
        if a.setting is not None and setting != a.setting:
            continue
        r = row(np.load(f))
        print(f"| {n} | {bots} | {setting} | {r['games']:,} | {r['smaller']:.1f} | {r['gift']:.1f} | {r['drink']:.1f} | "
              f"{r['without']:.1f} |")


if __name__ == "__main__":
    main()
