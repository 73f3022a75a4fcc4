#!/usr/bin/env python
"""What the bots add to a game's cost, per player count: ``python scripts/reproduce/bot_cost.py``.

The bots should add at most a modest factor to the engine's per-game cost, measured as
random against smart games per second. This measures random, greedy and smart games, one
thread, JIT warm, at every player count asked for (default 3-10, ``full`` items), through
:mod:`kutsch_sim.sim.bench` (``kutsch-sim bench``'s own measurement: the median of
``--repeats`` runs of ``--games`` games). The profiles are measured one after the other at
each player count and ``--rounds`` times over, and the table takes the median of the
rounds, so a drift of the machine's speed does not land on one profile only. Per game and
per turn: smart games are shorter than random ones, so the per-turn factor is the larger.
``greedy`` makes the same kinds of purposeful decisions as ``smart`` (values.py, act.py,
policy.py) from hard knowledge only, with no team beliefs: its cost against random's is
what deciding on purpose costs, and smart's against greedy's is roughly what the beliefs
add (smart games also run differently: fewer turns at most counts).

    python scripts/reproduce/bot_cost.py [--players 3-10] [--items full] [--games 20000] [--repeats 3]
                               [--rounds 1] [--json FILE]

Prints a Markdown table; ``--json`` also writes every measurement, one JSON object a line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

# Measure this checkout's kutsch_sim, not whichever one is installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from kutsch_sim.errors import KutschError
from kutsch_sim.sim.bench import bench_plan, run_bench

PROFILES = ("random", "greedy", "smart")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3-10")
    ap.add_argument("--items", default="full")
    ap.add_argument("--games", default="20000")
    ap.add_argument("--repeats", default="3")
    ap.add_argument("--rounds", type=int, default=1, help="times over both profiles (median taken)")
    ap.add_argument("--json", metavar="FILE", help="also write the measurements here (JSON lines)")
    a = ap.parse_args(argv)
    if a.rounds < 1:
        print("bot_cost: error: --rounds must be 1 or more", file=sys.stderr)
        return 2
    try:
        plans = {b: bench_plan(players=a.players, items=a.items, bots=b, games=a.games, threads="1",
                               repeats=a.repeats, startup=False) for b in PROFILES}
    except KutschError as e:
        print(f"bot_cost: error: {e}", file=sys.stderr)
        return 2
    rows: dict[tuple[str, int, str], list] = {}
    raw = []
    for r in range(a.rounds):
        for n in plans["random"].players:
            for b in PROFILES:
                for m in run_bench(dataclasses.replace(plans[b], players=(n,))):
                    rows.setdefault((m.item_set, n, b), []).append(m)
                    raw.append(m.to_dict())
                    print(f"  round {r + 1} {n}p {m.item_set} {b}: {m.us_per_game:.1f} us a game", file=sys.stderr)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            for d in raw:
                f.write(json.dumps(d) + "\n")
    first = raw[0] if raw else {}
    print(f"One thread, JIT warm; median of {a.repeats} runs of {int(a.games):,} games"
          f"{f', then of {a.rounds} rounds' if a.rounds > 1 else ''}; engine {first.get('engine', '?')}, "
          f"cpu {first.get('cpu', '?')}.\n")
    print("| players | items | random µs a game | random turns | greedy µs a game | greedy turns "
          "| smart µs a game | smart turns | greedy / random a turn | smart / random a game | a turn "
          "| smart / greedy a turn |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for item_set in plans["random"].items:
        for n in plans["random"].players:
            g = {b: statistics.median(m.us_per_game for m in rows[(item_set, n, b)]) for b in PROFILES}
            t = {b: statistics.median(m.us_per_turn for m in rows[(item_set, n, b)]) for b in PROFILES}
            turns = {b: rows[(item_set, n, b)][0].mean_turns for b in PROFILES}
            print(f"| {n} | {item_set} | {g['random']:.1f} | {turns['random']:.1f} | {g['greedy']:.1f} "
                  f"| {turns['greedy']:.1f} | {g['smart']:.1f} | {turns['smart']:.1f} "
                  f"| {t['greedy'] / t['random']:.1f}× | {g['smart'] / g['random']:.1f}× "
                  f"| {t['smart'] / t['random']:.1f}× | {t['smart'] / t['greedy']:.1f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
