#!/usr/bin/env python
"""Reproduce the README performance table: ``python scripts/bench_table.py [options]``.

Runs the measurements of ``kutsch-sim bench --json`` through :mod:`kutsch_sim.sim.bench`
(games/s with the JIT warm, median of repeats, for each players x items x threads; then a
warm start-up and, unless ``--no-cold``, a cold compile in a subprocess) and prints a
Markdown table. ``--json FILE`` also saves the raw measurements, one JSON object a line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Measure this checkout's kutsch_sim, not whichever one is installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kutsch_sim.errors import KutschError
from kutsch_sim.sim.bench import bench_plan, markdown_table, run_bench


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="4,6,8,10")
    ap.add_argument("--items", default="basic,full")
    ap.add_argument("--bots", default="random", help="e.g. smart (the README target) once it exists")
    ap.add_argument("--games", default="20000")
    ap.add_argument("--threads", default=None, help="default: 1 and every core")
    ap.add_argument("--repeats", default="3")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold compile (minutes)")
    ap.add_argument("--json", metavar="FILE", help="also write the measurements here (JSON lines)")
    a = ap.parse_args(argv)
    try:
        plan = bench_plan(
            players=a.players,
            items=a.items,
            bots=a.bots,
            games=a.games,
            threads=a.threads,
            repeats=a.repeats,
            cold=not a.no_cold,
        )
    except KutschError as e:
        print(f"bench_table: error: {e}", file=sys.stderr)
        return 2

    def progress(m) -> None:
        print(f"  {m.kind} {m.players}p {m.item_set} threads={m.threads}: {m.seconds:.2f} s", file=sys.stderr)

    results = run_bench(plan, progress)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            for m in results:
                f.write(json.dumps(m.to_dict()) + "\n")
    print(markdown_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
