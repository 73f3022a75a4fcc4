"""Loading the tools under ``scripts/`` in tests: they are files, not a package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_module(path: Path, name: str):
    """The Python file ``path`` imported as a module named ``name``, its folder on ``sys.path``
    while it loads (a script imports its siblings: ``duel``, ``_paired``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    folder = str(Path(path).parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(folder)
    return mod


def load_script(rel: str, name: str):
    """``scripts/<rel>`` (e.g. ``"dev/fit_value.py"``) as a module named ``name``."""
    return load_module(SCRIPTS / rel, name)
