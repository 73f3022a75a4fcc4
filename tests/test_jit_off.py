"""The rules and the bots run without the JIT (``NUMBA_DISABLE_JIT=1``: a debugger, line
coverage) and play the very same games there as compiled: records and event logs alike."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

from kutsch_sim.api import GameConfig, play_game

GAMES = [(4, "basic", "random", ()), (6, "full", "smart", ()), (9, "full", "smart", ()), (5, "basic", "greedy", ()),
         (3, "full", "smart", ("advanced-3p",)), (8, "full", "smart", ("smuggling", "fortune-telling")),
         (7, "basic+Loge", "smart", ())]

PLAY = """
import hashlib
from kutsch_sim.api import GameConfig, play_game
for n, items, bot, variants in {games!r}:
    r = play_game(GameConfig(n, items, (bot,), variants=variants), 5, 1, debug=True)
    print(hashlib.sha256(r.record.tobytes() + r.events.tobytes()).hexdigest())
"""


def digest(n, items, bot, variants) -> str:
    r = play_game(GameConfig(n, items, (bot,), variants=variants), 5, 1, debug=True)
    return hashlib.sha256(r.record.tobytes() + r.events.tobytes()).hexdigest()


def test_games_without_the_jit_are_the_compiled_games():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    # numpy's int8/uint64 scalars warn where they wrap; compiled code never wraps an int8
    # (it widens to int64), so a warning here is a difference: make it an error
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", PLAY.format(games=GAMES)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == [digest(*g) for g in GAMES]
