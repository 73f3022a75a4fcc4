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


# (wrapper, body): the body is compiled once, for int64 arguments; only its inlined wrapper calls it
ONE_COMPILE = {"log_nb": "log_row_nb", "decide_nb": "decide_body_nb", "trade_nb": "trade_body_nb",
               "diplomat_nb": "diplomat_body_nb"}


def test_literal_heavy_calls_go_through_their_int64_wrappers():
    """numba compiles a function once per combination of argument types, and each literal
    constant is a type of its own: ``log_nb(st, EV.DRAW, p, 0, 0, 0)`` at some sixty call
    sites compiled the event observer twenty times (a third of the cold compile). The
    wrappers cast to int64 and are inlined; a direct call of a body from anywhere else, or
    a wrapper that is no longer inlined, brings the repeated compiles back
    (scripts/compile_profile.py lists them)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "kutsch_sim"
    callers: dict[str, set[str]] = {b: set() for b in ONE_COMPILE.values()}
    inline: dict[str, bool] = {}
    for path in list((root / "engine").glob("*.py")) + list((root / "bots").glob("*.py")):
        tree = ast.parse(path.read_text())
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            if fn.name in ONE_COMPILE:
                inline[fn.name] = any(kw.arg == "inline" and getattr(kw.value, "value", None) == "always"
                                      for d in fn.decorator_list if isinstance(d, ast.Call) for kw in d.keywords)
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)):
                if call.func.id in callers:
                    callers[call.func.id].add(fn.name)
    assert inline == {w: True for w in ONE_COMPILE}
    assert callers == {b: {w} for w, b in ONE_COMPILE.items()}
