"""The batch kernel's cold compile on two processes (kutsch_sim.parallel_compile).

What must hold: in every stage the two processes compile disjoint sets of functions (numba's
cache index is one file per function, and two processes saving into one at once can lose or
misdirect an entry); every part is compiled for the argument types the kernel calls it with
(else the kernel compiles it again and the helper worked for nothing); a failing helper costs
time, never a game. That the kernel's games are the same is the golden records' test: in a
fresh checkout the suite's first compile goes through the plan.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kutsch_sim import parallel_compile as pc
from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.play import play_games_nb

ROOT = Path(__file__).resolve().parents[1]

_FRESH = """
import json
from kutsch_sim import parallel_compile as pc
from kutsch_sim.api import GameConfig, run_batch
run_batch(GameConfig(6, "full", ("smart",)), 1, 0, 2)
print(json.dumps(pc.LAST_RUN))
"""


@pytest.fixture(scope="module")
def plan_run(tmp_path_factory) -> dict:
    """The plan as it ran before the kernel's compile: in this process if its first compile was
    cold (a fresh checkout, CI), or in the test controller's (``tests/conftest.py``, with
    workers), else in a new process from an empty cache (minutes)."""
    plan = os.environ.get("KUTSCH_SIM_TEST_PLAN_RUN")
    if pc.LAST_RUN is None and plan and Path(plan).is_file():
        return json.loads(Path(plan).read_text())
    if pc.LAST_RUN is None and pc.parts_wanted(play_games_nb):
        run_batch(GameConfig(6, "full", ("smart",)), 1, 0, 2)
    if pc.LAST_RUN is not None:
        return pc.LAST_RUN
    env = dict(os.environ, KUTSCH_SIM_CACHE_DIR=str(tmp_path_factory.mktemp("numba")), NUMBA_CACHE_DIR="")
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_helper_does_its_share(plan_run):
    assert plan_run["ok"]
    helper = [added for _, side, added in plan_run["record"] if side == "helper"]
    assert len(helper) == len(pc.STAGES)
    for (_, theirs), added in zip(pc.STAGES, helper, strict=True):
        for name in theirs:
            module, func, _ = pc.PARTS[name]
            assert f"kutsch_sim.{module}.{func}" in added, (name, added)


def test_no_stage_compiles_one_function_on_both_sides(plan_run):
    sides: dict[int, dict[str, set]] = {}
    for stage, side, added in plan_run["record"]:
        sides.setdefault(stage, {})[side] = set(added)
    assert sorted(sides) == list(range(len(pc.STAGES)))
    for stage, by_side in sides.items():
        both = by_side["main"] & by_side.get("helper", set())
        assert not both, f"stage {stage}: compiled on both sides: {sorted(both)}"


def test_every_part_has_the_argument_types_the_kernel_calls_it_with(plan_run):
    """The kernel's own compile compiled no function of a part again: it called each with the
    part's types (other types would be another compilation) and found it compiled."""
    parts = {f"kutsch_sim.{m}.{f}" for m, f, _ in pc.PARTS.values()}
    assert plan_run["by_kernel"], "the kernel's compile was not seen"
    assert not parts & set(plan_run["by_kernel"]), sorted(parts & set(plan_run["by_kernel"]))


def test_a_failing_helper_leaves_the_compile_to_this_process(monkeypatch):
    """The helper dies at once: this process still compiles its own parts (loaded, here) and
    says the helper did not do its share; what the helper left is compiled by the kernel."""
    monkeypatch.setattr(pc, "_HELPER", [sys.executable, "-c", "raise SystemExit(3)"])
    ok, rec = pc.compile_batch_parts()
    assert ok is False
    assert [side for _, side, _ in rec] == ["main"] * len(pc.STAGES)


def test_the_plan_is_skipped_when_it_has_nothing_to_do(monkeypatch):
    monkeypatch.setenv("KUTSCH_SIM_PARALLEL_COMPILE", "0")
    assert pc.parts_wanted(play_games_nb) is False
    monkeypatch.delenv("KUTSCH_SIM_PARALLEL_COMPILE")
    monkeypatch.setattr(pc.os, "cpu_count", lambda: 1)
    assert pc.parts_wanted(play_games_nb) is False
