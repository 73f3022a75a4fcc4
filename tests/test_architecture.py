"""The architecture rule (README "Layout"): the rules and the bots (numba) never import
pandas, matplotlib or typer, so the kernels stay importable and testable without them."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import importlib, pkgutil, sys
import kutsch_sim.engine, kutsch_sim.bots
for pkg in (kutsch_sim.engine, kutsch_sim.bots):
    for m in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(pkg.__name__ + "." + m.name)
import kutsch_sim.enums, kutsch_sim.rng
print(",".join(sorted(m for m in ("pandas", "matplotlib", "typer", "rich") if m in sys.modules)))
"""


def test_engine_and_bots_import_no_presentation_libraries():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine/bots pulled in: {out.stdout.strip()}"
