"""Regenerate (or check) the golden records: sha256 digests that pin every game of a fixed set
of configurations, and a few full traces.

    python scripts/golden.py           # write tests/golden/records.json and tests/golden/*.txt
    python scripts/golden.py --check   # exit 1 and list what changed

Run it whenever a change is meant to alter games, commit the new files in the same commit and
say why (bump RULES_VERSION when a rule changed). ``tests/test_golden.py`` fails on any change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
SEED = 20261202
GAMES = 150  # per configuration: every rule and decision kind shows up many times over

# (players, items, bots, drink, variants): 3-10 players x basic/full x random/greedy/smart, and
# the variants and the Drink switch at the counts where they matter.
CONFIGS = [(n, items, bot, True, ()) for n in range(3, 11) for items in ("basic", "full")
           for bot in ("random", "greedy", "smart")]
CONFIGS += [(n, items, "smart-v2", drink, variants) for n, items, bots, drink, variants in list(CONFIGS)
            if bots == "smart"]
CONFIGS += [
    (5, "full", "smart", False, ()),
    (9, "basic", "smart", False, ()),
    (3, "full", "smart", True, ("advanced-3p",)),
    (6, "full", "smart", True, ("smuggling",)),
    (7, "full", "smart", True, ("fortune-telling",)),
    (8, "full", "smart", True, ("smuggling", "fortune-telling")),
    (6, "basic+Loge", "smart", True, ()),
    (6, "full", "random,greedy,smart,smart,greedy,random", True, ()),
]
# full traces (players, items, bots, game): read as a player would, diffed line by line
TRACES = [(4, "basic", "smart", 0), (6, "full", "smart", 1), (9, "full", "smart", 2)]


def key(n: int, items: str, bots: str, drink: bool, variants: tuple[str, ...]) -> str:
    return f"{n}p {items} {bots}{'' if drink else ' no-drink'}{' ' + '+'.join(variants) if variants else ''}"


# smart-v2 is the smart of RULES_VERSION 3 before the fitted evidence and the calibrated
# declarations: its games are played on the streams of the same configuration with `smart` on
# every seat (a configuration's stream names its bots, api.GameConfig.config_id), so its digests
# are those the previous smart had, game for game
STREAM_OF = {"smart-v2": "smart"}


def games(cfg, cid: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The records of GAMES games of ``cfg`` on the streams of configuration id ``cid``, and the
    event logs of its first three."""
    from kutsch_sim.play import play_batch
    from kutsch_sim.search.games import batch_kernel, traced_kernel

    spec = cfg.spec(SEED, config_id=cid)
    rec = play_batch(spec, 0, GAMES, kernel=batch_kernel(spec))
    logs = [traced_kernel(spec)(spec, g, 50_000)[1] for g in range(3)]
    return rec, logs


def digests() -> dict[str, str]:
    from kutsch_sim.api import GameConfig

    out: dict[str, str] = {}
    for n, items, bots, drink, variants in CONFIGS:
        cfg = GameConfig(n, items, tuple(bots.split(",")), drink, variants=variants)
        stream = GameConfig(n, items, tuple(STREAM_OF.get(b, b) for b in bots.split(",")), drink, variants=variants)
        rec, logs = games(cfg, stream.config_id)
        h = hashlib.sha256(np.ascontiguousarray(rec).tobytes())
        for log in logs:  # the event logs of a few games pin more than their records
            h.update(np.ascontiguousarray(log).tobytes())
        out[key(n, items, bots, drink, variants)] = h.hexdigest()
    return out


def traces() -> dict[str, str]:
    from kutsch_sim.api import GameConfig, play_game
    from kutsch_sim.bots.reasons import reason_row_text
    from kutsch_sim.review.trace import format_game

    out = {}
    for n, items, bots, g in TRACES:
        cfg = GameConfig(n, items, (bots,))
        out[f"trace_{n}p_{items}_{bots}_g{g}.txt"] = format_game(play_game(cfg, SEED, g), reason_row_text) + "\n"
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = ap.parse_args()
    new, texts = digests(), traces()
    if args.check:
        old = json.loads((GOLDEN / "records.json").read_text())["sha256"]
        bad = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        bad += [name for name, t in texts.items() if (GOLDEN / name).read_text() != t]
        print("\n".join(f"changed: {b}" for b in bad) or f"all {len(new)} digests and {len(texts)} traces unchanged")
        return 1 if bad else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    doc = {"seed": SEED, "games": GAMES, "sha256": new}
    (GOLDEN / "records.json").write_text(json.dumps(doc, indent=1) + "\n")
    for name, t in texts.items():
        (GOLDEN / name).write_text(t)
    print(f"wrote {len(new)} digests and {len(texts)} traces to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
