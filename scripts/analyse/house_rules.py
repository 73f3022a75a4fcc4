"""What each house rule does to the game: smart games under each non-default value, beside the base rules.

Usage::

    python scripts/analyse/house_rules.py                     # 20,000 games a row, seed 2026 (docs/balance.md)
    python scripts/analyse/house_rules.py --games 2000 --json out.json

For every house rule (the knobs of ``kutsch_sim.rules_table``) and every value but its default, at
every player count it applies to, plays ``--games`` games with the ``smart`` profile on every seat
and the ``full`` item set; and the base rules once per count. Every row plays the same deals as
the base row of its count (the configuration's stream leaves the variants out,
``api.GameConfig.config_id``), up to where the rule changes the deal. A value the count cannot
play (a hand limit the hands cannot keep to) is left out. Prints one Markdown row each, every
figure with its 95% normal interval over the games:

- smaller team: at odd counts, the smaller team's share of the games a team won;
- Loge solo: the share of games the Loge's holder won alone (R6.5);
- start-seat edge: seat 0's win rate minus the mean win rate of all seats, in points;
- Order: the Order's share of all games;
- turns: the mean game length in turns.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.enums import MAX_PLAYERS, REC, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.rules_table import SWITCHES

from _paired import mean_ci as ci, write_json


def seat_wins(rec: np.ndarray, n: int) -> np.ndarray:
    """bool [games, n]: seat p won game g (its team's win, or its own solo win)."""
    w = rec[:, REC.WINNER][:, None]
    team = rec[:, REC.TEAM0:REC.TEAM0 + n]
    solo = (w == WIN.SOLO) & (rec[:, REC.SOLO_SEAT][:, None] == np.arange(n)[None, :])
    return ((team == w) & (w <= WIN.BROTHERHOOD)) | solo


def measures(rec: np.ndarray, n: int) -> dict[str, tuple[float, float, float] | None]:
    """The figures of one row (mean, low, high), in percent but turns."""
    assert (rec[:, REC.ERROR] == 0).all()
    w = rec[:, REC.WINNER]
    team_won = (w == WIN.ORDER) | (w == WIN.BROTHERHOOD)
    wins = seat_wins(rec, n)
    out: dict[str, tuple[float, float, float] | None] = {
        "smaller": None,
        "solo": ci(100.0 * (w == WIN.SOLO)),
        "edge": ci(100.0 * (wins[:, 0] - wins.mean(axis=1))),
        "order": ci(100.0 * (w == WIN.ORDER)),
        "turns": ci(rec[:, REC.TURNS].astype(float)),
    }
    if n % 2 == 1 and team_won.sum() > 1:
        out["smaller"] = ci(100.0 * (w[team_won] == rec[team_won, REC.MINORITY]))
    return out


def fmt(c: tuple[float, float, float] | None, digits: int = 1) -> str:
    if c is None:
        return "-"
    return f"{c[0]:.{digits}f} ({c[1]:.{digits}f} to {c[2]:.{digits}f})"


def rows() -> list[tuple[str, int]]:
    """(rule, player count): the base rules at every count, then each knob's other values."""
    out = [("base", n) for n in range(3, MAX_PLAYERS + 1)]
    for s in SWITCHES:
        if s.knob:
            out += [(f"{s.name}={v}", n) for v in s.values if v != s.default for n in s.players]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bots", default="smart")
    ap.add_argument("--items", default="full")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    a = ap.parse_args(argv)
    print(f"{a.games:,} games a row, items {a.items}, bots {a.bots}, seed {a.seed}; 95% intervals\n")
    print("| rule | N | smaller team, % of team wins | Loge solo, % | start-seat edge, points | Order, % | turns |")
    print("|---|---|---|---|---|---|---|")
    found = []
    t0 = time.perf_counter()
    for rule, n in rows():
        try:
            cfg = GameConfig(n, a.items, (a.bots,), variants=() if rule == "base" else (rule,))
        except KutschError:
            continue  # a value this count cannot play (a hand limit the hands cannot keep to)
        if rule != "base" and not cfg.variants:
            continue  # the rule's own value at this count (hand-limit): the base row
        m = measures(run_batch(cfg, a.seed, 0, a.games), n)
        found.append({"rule": rule, "players": n, **m})
        print(f"| {rule} | {n} | {fmt(m['smaller'])} | {fmt(m['solo'])} | {fmt(m['edge'])} | {fmt(m['order'])} "
              f"| {fmt(m['turns'])} |", flush=True)
    print(f"\n{len(found)} rows, {len(found) * a.games:,} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    write_json(a.json, {"games": a.games, "seed": a.seed, "bots": a.bots, "items": a.items, "rows": found})
    return 0


if __name__ == "__main__":
    sys.exit(main())
