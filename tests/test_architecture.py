"""The architecture, pinned: the rules reach the bots through one door, the bots never reach
back and read only the state fields the engine lists for them, nothing in the package imports
in a circle, the kernels import no presentation library, and every file stays readable (under
500 lines)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "kutsch_sim"

PROBE = """
import importlib, pkgutil, sys
import kutsch_sim.engine, kutsch_sim.bots
for pkg in (kutsch_sim.engine, kutsch_sim.bots):
    for m in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(pkg.__name__ + "." + m.name)
import kutsch_sim.enums, kutsch_sim.rng, kutsch_sim.cards_nb, kutsch_sim.play
print(",".join(sorted(m for m in ("pandas", "matplotlib", "typer", "rich") if m in sys.modules)))
"""


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The kutsch_sim modules ``path`` imports, as dotted names: every import statement in the
    file, at module level, inside a function (a lazy import) or under ``if TYPE_CHECKING:`` (a
    type-only import is still a dependency, one edit away from a run-time one)."""
    tree = ast.parse(path.read_text())
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("kutsch_sim"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("kutsch_sim"):
                continue
            for a in node.names:  # ``from . import store`` names a module
                sub = f"{mod}.{a.name}"
                out.add(sub if (PKG.parent / (sub.replace(".", "/") + ".py")).exists()
                        or (PKG.parent / sub.replace(".", "/")).is_dir() else mod)
    out.discard(me)
    return out


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in PKG.rglob("*.py")}


def test_engine_and_bots_import_no_presentation_libraries():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine/bots pulled in: {out.stdout.strip()}"


# What engine/seats.py takes from the bots: their four kernels, the layout of their own record
# (st.mem) and the event types they want to hear. A constant both sides share, such as the
# number of options a decision can have (enums.N_OPTS), lives below both, in enums.
DOOR = {"bot_choose_nb", "clear_memory_nb", "start_bots_nb", "observe_nb", "MEMORY_DT", "OBSERVED_MASK"}


def test_the_engine_reaches_the_bots_only_through_its_one_door():
    g = graph()
    through = {m for m, deps in g.items() if m.startswith("kutsch_sim.engine.")
               and any(d.startswith("kutsch_sim.bots") for d in deps)}
    assert through == {"kutsch_sim.engine.seats"}
    tree = ast.parse((PKG / "engine" / "seats.py").read_text())
    taken = {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             and "bots" in (node.module or "").split(".") for a in node.names}
    assert taken == DOOR, f"engine/seats.py takes from the bots: {sorted(taken - DOOR)} beyond its door"


BOTS_STATE_NAME = "st"  # what every kernel in bots/ calls the state record (engine.state.STATE_DT)


def bots_state_reads() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(field -> places) of ``st.FIELD`` in bots/, and (field -> places) of ``X.FIELD`` for any
    name X and any state field: an attribute named like a state field on another name is the
    state under another name, or a record (the View, the memory) that must not shadow one."""
    from kutsch_sim.engine.state import STATE_FIELDS

    on_st: dict[str, set[str]] = {}
    anywhere: dict[str, set[str]] = {}
    for path in sorted((PKG / "bots").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                where = f"{path.name}:{node.lineno}"
                if node.value.id == BOTS_STATE_NAME:
                    on_st.setdefault(node.attr, set()).add(where)
                if node.attr in STATE_FIELDS and node.value.id not in ("np", "math"):
                    anywhere.setdefault(node.attr, set()).add(where)
    return on_st, anywhere


def test_the_bots_read_only_the_state_fields_the_engine_lists():
    """bots/ reach into the state record by field name, which no import shows: every field they
    name is in ``engine.state.BOTS_READ`` (why each, beside it), and every field listed is read
    (the list says what they read, not what they might). search/ and calib/ are not held to it:
    both sit above the play layer and handle whole states on purpose (the search samples worlds
    and plays them forward, writing every field of its copies; the recorder scores what a bot
    stated against the truth)."""
    from kutsch_sim.engine.state import BOTS_READ, STATE_FIELDS

    on_st, anywhere = bots_state_reads()
    assert set(BOTS_READ) <= set(STATE_FIELDS) and len(set(BOTS_READ)) == len(BOTS_READ)
    extra = {f: sorted(w) for f, w in (on_st | anywhere).items() if f not in BOTS_READ}
    assert not extra, f"bots/ read state fields not in engine.state.BOTS_READ: {extra}"
    unused = set(BOTS_READ) - set(on_st)
    assert not unused, f"engine.state.BOTS_READ lists fields bots/ never read: {sorted(unused)}"


def test_the_bots_and_the_rules_know_nothing_above_them():
    """bots/ see the enums, the random streams and the card facts, never the engine; neither
    layer imports the play layer, the notation, the runs, the report or the command line."""
    above = ("kutsch_sim.play", "kutsch_sim.notation", "kutsch_sim.sim", "kutsch_sim.report", "kutsch_sim.cli",
             "kutsch_sim.review", "kutsch_sim.api", "kutsch_sim.search", "kutsch_sim.calib")
    for m, deps in graph().items():
        if m.startswith(("kutsch_sim.engine", "kutsch_sim.bots")):
            bad = {d for d in deps if d.startswith(above)}
            if m.startswith("kutsch_sim.bots"):
                bad |= {d for d in deps if d.startswith("kutsch_sim.engine")}
            assert not bad, f"{m} imports {sorted(bad)}"


def test_the_search_sits_above_the_play_layer_and_only_runs_import_it():
    """The search bot plays positions forward (``play``); the play layer, the rules and the
    bots never import it, so a run without a search seat never compiles it (``play.play_batch``
    and ``api`` import it lazily, inside the function that needs it)."""
    g = graph()
    for m, deps in g.items():
        if m.startswith(("kutsch_sim.engine", "kutsch_sim.bots", "kutsch_sim.play")):
            assert not {d for d in deps if d.startswith("kutsch_sim.search")}, m
    assert any(d.startswith("kutsch_sim.play") for d in g["kutsch_sim.search.lookahead"])


def test_the_calibration_recorder_sits_above_the_play_layer_and_the_search():
    """The recorder sets what the bots state beside the truth (``kutsch_sim.calib``): nothing
    that plays games imports it, so no game depends on whether its claims are recorded."""
    g = graph()
    for m, deps in g.items():
        if m.startswith(("kutsch_sim.engine", "kutsch_sim.bots", "kutsch_sim.play", "kutsch_sim.search")):
            assert not {d for d in deps if d.startswith("kutsch_sim.calib")}, m


def import_cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules of ``g`` (Tarjan), each sorted. A
    package's ``__init__`` counts as the package: edges to a module's parents are not cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for d in sorted(g[m]):
            if d not in g or m.startswith(d + "."):
                continue
            if d not in index:
                visit(d)
                low[m] = min(low[m], low[d])
            elif d in stack:
                low[m] = min(low[m], index[d])
        if low[m] == index[m]:
            part = stack[stack.index(m):]
            del stack[stack.index(m):]
            if len(part) > 1:
                cycles.append(sorted(part))

    for m in sorted(g):
        if m not in index:
            visit(m)
    return cycles


def test_no_import_cycle_inside_the_package():
    g = graph()
    cycles = import_cycles(g)
    text = "; ".join(" <-> ".join(c) + " (" + ", ".join(f"{m} -> {sorted(set(g[m]) & set(c))}" for m in c) + ")"
                     for c in cycles)
    assert not cycles, f"import cycles: {text}"


def test_the_cycle_finder_finds_cycles():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"p.m": {"p"}, "p": {"p.m"}}) == []  # a package and its own module


def test_no_file_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for folder in ("kutsch_sim", "tests") for p in (ROOT / folder).rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 500}
    assert not long, long


# (wrapper, body): the body is compiled once, for int64 arguments; only its inlined wrapper calls it
ONE_COMPILE = {"log_nb": "log_row_nb", "decide_nb": "decide_body_nb", "trade_nb": "trade_body_nb",
               "diplomat_nb": "diplomat_body_nb", "ev_pair_nb": "ev_pair_body_nb", "ev_side_nb": "ev_side_body_nb",
               "gift_nb": "gift_body_nb", "play_turns_nb": "play_turns_body_nb",
               "give_value_nb": "give_value_body_nb", "transfer_nb": "transfer_body_nb",
               "return_score_nb": "return_score_body_nb", "shuffle_nb": "shuffle_body_nb"}


def test_literal_heavy_calls_go_through_their_int64_wrappers():
    """numba compiles a function once per combination of argument types, and each literal
    constant is a type of its own: ``log_nb(st, EV.DRAW, p, 0, 0, 0)`` at some sixty call
    sites compiled the event observer twenty times (a third of the cold compile). The
    wrappers cast to int64 and are inlined; a direct call of a body from anywhere else, or
    a wrapper that is no longer inlined, brings the repeated compiles back
    (scripts/dev/compile_profile.py lists them)."""
    callers: dict[str, set[str]] = {b: set() for b in ONE_COMPILE.values()}
    inline: dict[str, bool] = {}
    for path in [*(PKG / "engine").glob("*.py"), *(PKG / "bots").glob("*.py"), *(PKG / "search").glob("*.py"),
                 PKG / "rng.py"]:
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
