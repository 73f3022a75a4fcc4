"""Golden records: any change to any game of the golden set fails here.

The digests and traces in ``tests/golden/`` are made by ``python scripts/golden.py``; when a
change is meant to alter games, regenerate them in the same commit and say why (bump
``RULES_VERSION`` when a rule changed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _helpers_scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"


def _golden_module():
    return load_script("golden.py", "golden")


@pytest.fixture(scope="module")
def golden():
    return _golden_module()


def test_every_golden_configuration_plays_the_same_games(golden):
    old = json.loads((GOLDEN / "records.json").read_text())
    assert (old["seed"], old["games"]) == (golden.SEED, golden.GAMES)
    new = golden.digests()
    changed = sorted(k for k in set(old["sha256"]) | set(new) if old["sha256"].get(k) != new.get(k))
    assert not changed, f"games changed in {len(changed)} configurations: {changed[:5]} (scripts/golden.py)"


def test_golden_traces_read_the_same(golden):
    for name, text in golden.traces().items():
        old = (GOLDEN / name).read_text().splitlines()
        new = text.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
        assert old == new, f"{name} differs from line {first + 1}: {new[first] if first < len(new) else '<end>'!r}"
