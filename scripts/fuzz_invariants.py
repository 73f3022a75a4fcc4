"""Play many random-policy games per player count in debug mode and count broken invariants.

Debug mode checks the engine's invariants after every event (cards each in one place,
no empty hand, occupations conserved; hand limits between turns); a game with a broken
invariant ends with ``Rec.ERROR`` set and the winner ``error``. Usage::

    python scripts/fuzz_invariants.py                      # 100,000 games x 3..10 x basic/full
    python scripts/fuzz_invariants.py --games 2000 --players 5 --items full

Prints one Markdown table row per configuration; exits 1 if any game broke an invariant.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.enums import ERR_LABELS, REC, WIN, WINNER_LABELS
from kutsch_sim.errors import KutschError


def players_arg(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    try:
        return list(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or N-M, got {text!r}") from None


def fuzz(n: int, items: str, games: int, seed: int, chunk: int) -> dict:
    cfg = GameConfig(n, items)
    t0 = time.perf_counter()
    winners = np.zeros(len(WINNER_LABELS), np.int64)
    errors = np.zeros(len(ERR_LABELS), np.int64)
    turns = 0
    first_bad = -1
    for g0 in range(0, games, chunk):
        k = min(chunk, games - g0)
        rec = run_batch(cfg, seed, g0, k, debug=True)
        winners += np.bincount(rec[:, REC.WINNER], minlength=len(WINNER_LABELS))[: len(WINNER_LABELS)]
        errors += np.bincount(rec[:, REC.ERROR], minlength=len(ERR_LABELS))[: len(ERR_LABELS)]
        turns += int(rec[:, REC.TURNS].sum())
        bad = np.flatnonzero(rec[:, REC.ERROR] != 0)
        if first_bad < 0 and bad.size:
            first_bad = g0 + int(bad[0])
    return {
        "players": n, "items": items, "games": games, "errors": int(errors[1:].sum()),
        "error_kinds": ", ".join(f"{ERR_LABELS[i]} {int(c)}" for i, c in enumerate(errors) if i and c) or "-",
        "first_bad_game": first_bad,
        **{w: int(winners[i]) for i, w in enumerate(WINNER_LABELS)},
        "mean_turns": turns / games, "seconds": time.perf_counter() - t0,
    }


COLUMNS = ("players", "items", "games", "errors", "error_kinds", "order", "brotherhood", "solo", "timeout",
           "mean_turns", "seconds")


def row(r: dict) -> str:
    cells = [f"{r[c]:.1f}" if isinstance(r[c], float) else str(r[c]) for c in COLUMNS]
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games per configuration")
    ap.add_argument("--players", type=players_arg, default=list(range(3, 11)), help="N or N-M (default 3-10)")
    ap.add_argument("--items", default="basic,full", help="comma-separated item sets")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--chunk", type=int, default=20_000, help="games per run_batch call")
    args = ap.parse_args(argv)
    if args.games < 1 or args.chunk < 1:
        print("error: --games and --chunk must be positive", file=sys.stderr)
        return 2
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    total_err = 0
    try:
        for n in args.players:
            for items in args.items.split(","):
                r = fuzz(n, items.strip(), args.games, args.seed, args.chunk)
                total_err += r["errors"]
                print(row(r), flush=True)
                if r["first_bad_game"] >= 0:
                    print(f"  first bad game: players {n} items {items} seed {args.seed} game {r['first_bad_game']}",
                          flush=True)
    except KutschError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"\ntotal games with a broken invariant: {total_err} (winner label '{WINNER_LABELS[WIN.ERROR]}')")
    return 1 if total_err else 0


if __name__ == "__main__":
    sys.exit(main())
