"""Benchmarks of the heuristic bots: skill, symmetry, timeouts, length, speed.

    python scripts/analyse/bots_eval.py [--quick] [--sym-games 1000000] [--json out.json]

Prints a Markdown report. Figures come from ``api.run_batch`` with two numba threads.
Intervals: a profile's win rate is the share of its seats on the winning team; seats of one
game are not independent, so the 95% interval is over games (each game contributes the
fraction of that profile's seats that won).
"""

from __future__ import annotations

import argparse
import json
import time

import numba
import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.enums import REC, WIN

Z95 = 1.959964
Z99 = 2.575829


def mean_ci(x: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    m = float(np.mean(x))
    h = z * float(np.std(x, ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - h, m + h


def batch(cfg: GameConfig, n_games: int, seed: int = 1, chunk: int = 200_000) -> np.ndarray:
    out = []
    for g0 in range(0, n_games, chunk):
        out.append(run_batch(cfg, seed, g0, min(chunk, n_games - g0)))
    return np.concatenate(out)


def profile_win_rates(rec: np.ndarray, bots: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per game, the fraction of each profile's seats that are on the winning team."""
    n = len(bots)
    team = rec[:, REC.TEAM0:REC.TEAM0 + n]
    win = rec[:, REC.WINNER]
    solo = rec[:, REC.SOLO_SEAT]
    won = (team == win[:, None]) & ((win == WIN.ORDER) | (win == WIN.BROTHERHOOD))[:, None]
    won |= (win == WIN.SOLO)[:, None] & (np.arange(n)[None, :] == solo[:, None])
    out = {}
    for name in sorted(set(bots)):
        cols = [p for p in range(n) if bots[p] == name]
        out[name] = won[:, cols].mean(axis=1)
    return out


def head_to_head(a: str, b: str, n_games: int, lines: list[str], res: dict) -> None:
    """Profiles a and b on alternating seats (both seatings), 6 players."""
    fr = {a: [], b: []}
    pure_a = []
    for bots in ((a, b) * 3, (b, a) * 3):
        cfg = GameConfig(6, bots=bots)
        rec = batch(cfg, n_games // 2, seed=11)
        r = profile_win_rates(rec, bots)
        fr[a].append(r[a])
        fr[b].append(r[b])
        # games where the teams are exactly the profiles: a's seats all on one team
        team = rec[:, REC.TEAM0:REC.TEAM0 + 6]
        ca = [p for p in range(6) if bots[p] == a]
        pure = np.all(team[:, ca] == team[:, [ca[0]]], axis=1)
        pure_a.append(r[a][pure])
    ra = np.concatenate(fr[a])
    rb = np.concatenate(fr[b])
    pa = np.concatenate(pure_a)
    m, lo, hi = mean_ci(ra)
    mb, lob, hib = mean_ci(rb)
    mp, lop, hip = mean_ci(pa)
    lines.append(f"| {a} vs {b} | {len(ra):,} | {100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
                 f"{100 * mb:.1f}% [{100 * lob:.1f}, {100 * hib:.1f}] | {len(pa):,} | "
                 f"{100 * mp:.1f}% [{100 * lop:.1f}, {100 * hip:.1f}] |")
    res[f"{a}_vs_{b}"] = {"games": len(ra), a: [m, lo, hi], b: [mb, lob, hib],
                          "pure_team_games": len(pa), f"{a}_team": [mp, lop, hip]}


def symmetry(n: int, n_games: int, lines: list[str], res: dict, seed: int = 21) -> np.ndarray:
    cfg = GameConfig(n, bots=("smart",))
    t0 = time.perf_counter()
    rec = batch(cfg, n_games, seed=seed)
    dt = time.perf_counter() - t0
    win = rec[:, REC.WINNER]
    o = float(np.mean(win == WIN.ORDER))
    b = float(np.mean(win == WIN.BROTHERHOOD))
    d = (win == WIN.ORDER).astype(float) - (win == WIN.BROTHERHOOD).astype(float)
    md, lo, hi = mean_ci(d, Z99)
    ok = "yes" if lo <= 0 <= hi else "**no**"
    lines.append(f"| {n} | {n_games:,} | {100 * o:.2f}% | {100 * b:.2f}% | {100 * md:+.2f} "
                 f"[{100 * lo:+.2f}, {100 * hi:+.2f}] | {ok} | {n_games / dt:,.0f} |")
    res[f"symmetry_{n}"] = {"games": n_games, "order": o, "brotherhood": b, "diff99": [md, lo, hi],
                            "games_per_s": n_games / dt}
    return rec


def game_stats(n: int, rec: np.ndarray, lines: list[str], res: dict) -> None:
    win = rec[:, REC.WINNER]
    tout = float(np.mean(win == WIN.TIMEOUT))
    decl = rec[:, REC.DECLARER] >= 0
    wrong = decl & (rec[:, REC.DECL_OK] == 0)
    solo = float(np.mean(win == WIN.SOLO))
    drink = float(np.mean(rec[:, REC.DRINK_USED] == 1))
    turns = rec[:, REC.TURNS]
    wrong_share = float(wrong.sum() / max(1, decl.sum()))
    lines.append(f"| {n} | {len(rec):,} | {100 * tout:.2f}% | {100 * wrong_share:.1f}% | {100 * solo:.1f}% | "
                 f"{100 * drink:.1f}% | {turns.mean():.1f} | {np.median(turns):.0f} | "
                 f"{rec[:, REC.DECISIONS].mean():.0f} |")
    res[f"stats_{n}"] = {"games": len(rec), "timeout": tout, "wrong_decl_share": wrong_share, "solo": solo,
                         "drink_used": drink, "turns_mean": float(turns.mean()),
                         "decisions_mean": float(rec[:, REC.DECISIONS].mean())}


def speed(lines: list[str], res: dict, n_games: int) -> None:
    for name in ("random", "greedy", "smart"):
        cfg = GameConfig(6, bots=(name,))
        run_batch(cfg, 1, 0, 64)  # compiled and warm
        best = 0.0
        for _ in range(3):
            t0 = time.perf_counter()
            rec = run_batch(cfg, 3, 0, n_games)
            best = max(best, n_games / (time.perf_counter() - t0))
        turns = rec[:, REC.TURNS].mean()
        dec = rec[:, REC.DECISIONS].mean()
        us = 2e6 / best  # per game per core (2 threads)
        lines.append(f"| {name} | {best:,.0f} | {us:.0f} | {turns:.1f} | {dec:.0f} | {us / turns:.2f} | "
                     f"{1e3 * us / dec:.0f} |")
        res[f"speed_{name}"] = {"games_per_s": best, "us_per_game_core": us, "turns": float(turns),
                                "decisions": float(dec)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument("--h2h-games", type=int, default=200_000)
    ap.add_argument("--sym-games", type=int, default=1_000_000, help="all-smart games at 6 players")
    ap.add_argument("--other-games", type=int, default=100_000, help="all-smart games at 4, 8, 10 and odd N")
    ap.add_argument("--speed-games", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.quick:
        args.h2h_games, args.sym_games, args.other_games, args.speed_games = 4000, 20_000, 4000, 2000
    numba.set_num_threads(args.threads)
    res: dict = {"threads": args.threads}
    lines = ["## Bots", ""]

    lines += ["### Speed at 6 players (`run_batch`, "
              f"{args.threads} threads)", "",
              "| bots | games/s | µs per game per core | turns | decisions | µs per turn | ns per decision |",
              "|---|---|---|---|---|---|---|"]
    speed(lines, res, args.speed_games)

    lines += ["", "### Skill at 6 players (profiles on alternating seats, both seatings)", "",
              "| match | games | first profile wins | second profile wins | pure-team games | "
              "first profile's team wins |", "|---|---|---|---|---|---|"]
    head_to_head("smart", "random", args.h2h_games, lines, res)
    head_to_head("smart", "greedy", args.h2h_games, lines, res)
    head_to_head("greedy", "random", args.h2h_games, lines, res)

    lines += ["", "### Mirror symmetry, all `smart` (Order − Brotherhood, 99% interval)", "",
              "| players | games | Order | Brotherhood | difference | contains 0 | games/s |",
              "|---|---|---|---|---|---|---|"]
    stats_lines = ["", "### Game length, timeouts, declarations, all `smart`", "",
                   "| players | games | timeouts | wrong declarations (of declarations) | solo wins | "
                   "Drink used | mean turns | median turns | decisions |", "|---|---|---|---|---|---|---|---|---|"]
    for n in range(3, 11):
        if n % 2 == 0:
            rec = symmetry(n, args.sym_games if n == 6 else args.other_games, lines, res)
        else:
            rec = batch(GameConfig(n, bots=("smart",)), args.other_games, seed=31)
        game_stats(n, rec, stats_lines, res)
    lines += stats_lines
    lines += ["", "### `full` item set (Coat of Armor of the Loge in play), all `smart`", "",
              stats_lines[3], stats_lines[4]]
    for n in (4, 6, 9):
        rec = batch(GameConfig(n, item_set="full", bots=("smart",)), args.other_games, seed=41)
        game_stats(n, rec, lines, res.setdefault("full", {}))
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
