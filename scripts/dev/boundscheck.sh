#!/usr/bin/env bash
# Bounds-checked games: every array access of the jitted engine and bots checked.
#
#   bash scripts/dev/boundscheck.sh            # from the repo root (or anywhere: it finds it)
#
# Compiled code reads and writes past an array's end without a word; NUMBA_BOUNDSCHECK=1
# makes every such access raise IndexError instead. This plays a few games of every bot
# profile at 3-10 players with `basic` and `full` items, and of every R10 variant (alone and
# combined) with every profile, in debug mode (the invariants checked after every event), one
# game at a time with its event log; then the rules tests (`pytest -m rules`). It fails (exit 1)
# on an IndexError, a broken invariant or a failing test.
#
# The games are played by the one-game kernel, where an IndexError reaches Python at once; the
# batch (its kernel on threads) plays the same games and must give the same records, which
# catches a game it cut short.
#
# numba's cache does not key on the flag, so a kernel compiled without the checks could be
# loaded from the usual cache: this run compiles everything again in a fresh, temporary cache
# folder (KUTSCH_SIM_CACHE_DIR), which it deletes at the end. That takes several minutes on
# one core. GAMES=N changes the games a configuration (default 6).
set -euo pipefail
cd "$(dirname "$0")/../.."

export NUMBA_BOUNDSCHECK=1
KUTSCH_SIM_CACHE_DIR=$(mktemp -d -t kutsch-boundscheck.XXXXXX)
export KUTSCH_SIM_CACHE_DIR
trap 'rm -rf "$KUTSCH_SIM_CACHE_DIR"' EXIT
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export GAMES=${GAMES:-6}
PY=${PY:-python}

echo "boundscheck: NUMBA_BOUNDSCHECK=1, fresh numba cache in $KUTSCH_SIM_CACHE_DIR, $GAMES games a configuration"
"$PY" - <<'EOF'
import os
import sys
import time

import numpy as np

import kutsch_sim
from kutsch_sim.api import VARIANTS, GameConfig, play_game, run_batch
from kutsch_sim.bots.profiles import PROFILES
from kutsch_sim.enums import REC, WIN

assert str(kutsch_sim.JIT_CACHE_DIR).startswith(os.environ["KUTSCH_SIM_CACHE_DIR"]), kutsch_sim.JIT_CACHE_DIR
games = int(os.environ["GAMES"])
configs = [GameConfig(n, items, (bot,)) for bot in PROFILES for n in range(3, 11) for items in ("basic", "full")]
for bot in PROFILES:
    for v in VARIANTS:
        counts = (3,) if v == "advanced-3p" else range(3, 11)
        configs += [GameConfig(n, "full", (bot,), variants=(v,)) for n in counts]
    configs += [GameConfig(n, "full", (bot,), variants=("smuggling", "fortune-telling")) for n in (4, 7, 10)]
configs.append(GameConfig(len(PROFILES), "full", tuple(PROFILES)))  # every profile at one table
t0 = time.perf_counter()
bad, logged = 0, []
for k, cfg in enumerate(configs):
    label = f"{cfg.players}p {cfg.item_set} {','.join(sorted(set(cfg.bots)))} {'+'.join(cfg.variants) or 'base'}"
    for g in range(games):
        try:
            record = play_game(cfg, 11, g, debug=True).record
        except IndexError as e:
            print(f"boundscheck: IndexError in {label}, seed 11, game {g}: {e}", file=sys.stderr)
            sys.exit(1)
        if record[REC.WINNER] == WIN.ERROR:
            bad += 1
            print(f"boundscheck: {label}, seed 11, game {g} broke an invariant", file=sys.stderr)
        logged.append(record)
    if not np.array_equal(run_batch(cfg, 11, 0, games, debug=True), np.stack(logged[-games:])):
        bad += 1
        print(f"boundscheck: the batch kernel's games of {label} differ from the one-game kernel's", file=sys.stderr)
    if k == 0:
        print(f"boundscheck: compiled and played the first configuration in {time.perf_counter() - t0:.0f} s")
print(f"boundscheck: {len(configs)} configurations x {games} games ({len(logged)} games), "
      f"{time.perf_counter() - t0:.0f} s: no IndexError, {bad} problems")
sys.exit(1 if bad else 0)
EOF
echo "boundscheck: the rules tests"
"$PY" -m pytest -q -p no:cacheprovider -m rules
