"""Each R10 variant against the base game: win shares and declarations of smart-bot games.

Usage::

    python scripts/analyse/variants_sanity.py                 # 2,000 games a configuration, seed 1
    python scripts/analyse/variants_sanity.py --games 500 --items basic

Prints one Markdown row per configuration: Order / Brotherhood / solo / timeout shares, at
odd counts the share the minority team won, the share of games ended by a fortune-telling
(and how often it was right), wrong declarations, and mean turns; then, from traced games,
how often the smuggling bots kept an effect item silent.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kutsch_sim.api import GameConfig, play_game, run_batch
from kutsch_sim.enums import DK, EV, REC, WIN

CASES = [
    (6, ()), (6, ("smuggling",)), (6, ("fortune-telling",)), (6, ("smuggling", "fortune-telling")),
    (5, ()), (5, ("fortune-telling",)),
    (3, ()), (3, ("advanced-3p",)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--items", default="full")
    ap.add_argument("--bots", default="smart")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--traced", type=int, default=200, help="traced games for the smuggling count")
    a = ap.parse_args()
    print(f"{a.games:,} games each, items {a.items}, bots {a.bots}, seed {a.seed}\n")
    print("| N | variant | order | brotherhood | solo | timeout | minority won | fortune (right) | wrong decl. "
          "| turns | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, v in CASES:
        cfg = GameConfig(n, a.items, (a.bots,), variants=v)
        t = time.perf_counter()
        rec = run_batch(cfg, a.seed, 0, a.games)
        dt = time.perf_counter() - t
        w = rec[:, REC.WINNER]
        assert (rec[:, REC.ERROR] == 0).all()

        def pct(x: np.ndarray) -> str:
            return f"{100 * x.mean():.1f}%"

        fort = rec[:, REC.DECL_KIND] == DK.FORTUNE
        right = fort & (rec[:, REC.DECL_OK] == 1)
        wrong = (rec[:, REC.DECLARER] >= 0) & (rec[:, REC.DECL_OK] == 0)
        minor = pct(w == rec[:, REC.MINORITY]) if n % 2 else "-"
        print(f"| {n} | {cfg.variant_label} | {pct(w == WIN.ORDER)} | {pct(w == WIN.BROTHERHOOD)} | "
              f"{pct(w == WIN.SOLO)} | {pct(w == WIN.TIMEOUT)} | {minor} | {pct(fort)} ({right.sum()}/{fort.sum()}) | "
              f"{pct(wrong)} | {rec[:, REC.TURNS].mean():.1f} | {dt:.0f} |", flush=True)
    for n in (6, 3):
        cfg = GameConfig(n, a.items, (a.bots,), variants=("smuggling",))
        smuggled = announced = 0
        for g in range(a.traced):
            kinds = play_game(cfg, a.seed, g).events[:, 0]
            smuggled += int((kinds == EV.SMUGGLE).sum())
            announced += int((kinds == EV.ANNOUNCE).sum())
        share = smuggled / max(1, smuggled + announced)
        print(f"\nsmuggling, {n} players, {a.traced} traced games: {smuggled} effect items smuggled, {announced} "
              f"announced ({100 * share:.0f}% kept silent)")


if __name__ == "__main__":
    main()
