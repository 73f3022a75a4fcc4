"""Honesty over the whole path (STYLE 5; docs/bots.md, "The view, never the state").

tests/test_bots_view.py changes the truth at one decision, after the seat's beliefs were
built from the real history. Here whole games are replayed with a change made at the deal that
one seat X cannot observe, the other seats' decisions scripted as in the game as dealt, and
X's memory, beliefs, Views, choices and reasons must stay the same at each of its decisions
until X could observe the change (the machinery: tests/_helpers_honesty.py and
tests/_helpers_honesty_check.py, run without the JIT in a subprocess, where the engine's
decision entry points can be wrapped for a test). The changes:

- teams: two other seats of different teams swap associations (advanced 3-player game: their
  three association cards);
- cards: a card in another seat's hand and a card in a third seat's hand or in the deck
  (below its two top cards) change places;
- deck: the deck but its two top cards is put in another order.

1. Each decision's View shows only the context slots the engine writes for its kind
   (``enums.DCTX_MASK``): checked against the slots the engine writes, decision by decision.
2. X decides alike, for every decision kind a bot is asked (all 29: the decisions the rules
   take, R4.5-R4.7 and R8, and those with a single option ask no bot, and are not compared).
3. The comparison fails when a leak is put into the views.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kutsch_sim.enums import DECISION_LABELS

pytestmark = pytest.mark.apart  # every test here plays in a subprocess without the JIT

HELPER = Path(__file__).with_name("_helpers_honesty_check.py")
S = ["smart"]
# 3-10 players, the item sets, every variant (R10), greedy seats among smart ones
CONFIGS = [
    [3, "basic", S, []], [3, "full", S, ["advanced-3p"]], [3, "full", ["greedy", "smart", "smart"], []],
    [4, "basic+Loge", S, []], [4, "full", S, ["smuggling"]], [5, "full", ["greedy", "smart"] * 2 + S, []],
    [5, "basic", S, ["fortune-telling"]], [6, "full", S, []], [6, "basic+Loge", S, []],
    [7, "full", S, ["smuggling", "fortune-telling"]], [7, "basic", S, []], [8, "full", S, []],
    [8, "basic+Loge", ["greedy"] + S * 7, []], [9, "full", S, []], [9, "basic", S, ["fortune-telling"]],
    [10, "full", S, ["smuggling"]], [10, "basic+Loge", S, []], [3, "basic+Loge", S, ["advanced-3p"]],
]
EXTRA = 80  # more games to look through for a seat asked a decision kind not compared yet


def run_job(**job) -> dict:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, str(HELPER), json.dumps(job)], capture_output=True, text=True, env=env,
                         timeout=1200, cwd=HELPER.parent)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_each_decision_shows_the_context_slots_the_engine_writes_for_its_kind():
    r = run_job(mode="ctx", configs=CONFIGS, seed=2026, extra=EXTRA)
    print(f"{sum(r['kinds'].values())} decisions in {r['games']} games: {r['kinds']}")
    assert r["wrong"] == {}, "enums.DCTX_MASK is not what the engine writes"
    assert r["changed"] == [], "a rule or a bot reads a context slot written before an earlier decision"
    assert sorted(r["kinds"]) == sorted(DECISION_LABELS)


def check_suite(seed: int) -> dict:
    r = run_job(mode="diff", configs=CONFIGS, seed=seed, extra=EXTRA)
    print(f"seed {seed}: {r['compared']} decisions compared in {r['games']} games {r['changes']}, ended {r['why']}")
    assert r["diffs"] == []
    assert sorted(r["kinds"]) == sorted(DECISION_LABELS), "some decision kinds were never compared"
    return r


def test_a_seat_decides_alike_until_it_can_observe_a_hidden_change():
    r = check_suite(2026)
    assert all(r["changes"][c] >= 100 for c in ("teams", "cards", "deck"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_decides_alike_until_it_can_observe_a_hidden_change_more_games(seed):
    check_suite(seed)


@pytest.mark.parametrize("leak, field", [("team", "view.k_assoc"), ("ctx", "view.ctx")])
def test_the_differential_test_catches_a_leak(leak, field):
    """A View given every seat's true association, or every context slot (stale ones too):
    X's decisions then depend on what it cannot see, and the comparison says where."""
    r = run_job(mode="diff", configs=CONFIGS[5:], seed=4, extra=EXTRA, leak=leak, first_diff=True)
    assert r["diffs"], f"the {leak} leak went unnoticed"
    assert field in r["diffs"][0]
