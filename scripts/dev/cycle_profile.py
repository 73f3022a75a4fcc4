#!/usr/bin/env python
"""Where a smart game's time goes, by decision kind and observed event: CPU cycle counters.

    python scripts/dev/cycle_profile.py [--players 6] [--items full] [--bots smart] [--games 4000]

``profile_jit.py`` says which jitted *function* the time is spent in; this says which
*decision* (ACTION, SUPPORT, RETURN, ...) and which *event* the bots' beliefs observe
(ACCEPT, SUPPORT, ...) it is spent on, and splits the turn's action into its parts (the
View's expectations ``prep_nb``, the trade and attack scores, the declaration plans, the
pick). It copies the package to a temporary folder, adds timers there (LLVM's
``readcyclecounter``, the CPU's time-stamp counter) around ``bot_choose_nb`` in the decision
entry point, around ``observe_nb`` in the event logger, around the posterior refresh and the
policy in the dispatch, and inside ``choose_action_nb``; plays ``--games`` games one by one on
one thread (``api.play_game`` without an event log) and sums the counters kept in extra
slots of ``st.sc``. The copy compiles from scratch (about 3 minutes; its own cache folder).

The timers cost a few dozen cycles each (two per decision, one per event, two per action
option), which inflates the smallest items; read the shares, not the absolute cycles. The
time-stamp counter runs at a fixed rate whatever the core's clock, and counts time the VM
was not scheduled as well: repeat a run before trusting a difference of a few per cent.

A development tool: if the package's source changes where the timers go, it stops with the
line it did not find.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TSC = '''from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def rdtsc(typingctx):
    """The CPU's time-stamp counter (LLVM readcyclecounter)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])
    return sig, codegen
'''

# counters in st.sc[BASE + k]: k < 50 decision kinds, 50..55 parts of the action, 56 the action's
# policy, 57 its sums before the options (scr[89] of the View; 90..95 the parts), 60 refresh
# cycles, 61 refresh count, 62 policy cycles, 64 + t event type t, 128 the whole game;
# BASE is the package's N_SCALARS, read from its source so that the copy needs no import
BASE = int(re.search(r"^N_SCALARS = (\d+)$", (ROOT / "kutsch_sim" / "enums.py").read_text(), re.M).group(1))
N_EXTRA = 129

PATCHES = [
    ("enums.py", f"N_SCALARS = {BASE}\n", f"N_SCALARS = {BASE} + {N_EXTRA}\n"),
    ("engine/log.py", "from .seats import", "from ..tsc import rdtsc\nfrom .seats import"),
    ("engine/log.py", "        tell_nb(st, typ, a, b, c, d)\n",
     "        t0 = rdtsc()\n        tell_nb(st, typ, a, b, c, d)\n        st.sc[{B} + 64 + typ] += rdtsc() - t0\n"),
    ("engine/decide.py", "from .seats import ask_nb", "from .seats import ask_nb\nfrom ..tsc import rdtsc"),
    ("engine/decide.py", "    i = ask_nb(st, seat, kind, n)\n",
     "    t0 = rdtsc()\n    i = ask_nb(st, seat, kind, n)\n    st.sc[{B} + kind] += rdtsc() - t0\n"),
    ("play.py", "from .enums import", "from .tsc import rdtsc\nfrom .enums import"),
    ("bots/dispatch.py", "from ..rng import below_nb", "from ..rng import below_nb\nfrom ..tsc import rdtsc"),
    ("bots/dispatch.py", "            refresh_seat_nb(st, seat)\n",
     "            t0 = rdtsc()\n            refresh_seat_nb(st, seat)\n"
     "            st.sc[{B} + 60] += rdtsc() - t0\n            st.sc[{B} + 61] += 1\n"),
    ("bots/dispatch.py", "    i = choose_nb(v)\n",
     "    t1 = rdtsc()\n    i = choose_nb(v)\n    t2 = rdtsc() - t1\n    st.sc[{B} + 62] += t2\n"
     "    if kind == 0:\n        st.sc[{B} + 56] += t2\n        st.sc[{B} + 57] += int(v.scr[89])\n"
     "        for j in range(6):\n            st.sc[{B} + 50 + j] += int(v.scr[90 + j])\n"),
    ("bots/act.py", "from ..rng import uniform_nb", "from ..rng import uniform_nb\nfrom ..tsc import rdtsc"),
    ("bots/act.py", "    mem = v.mem\n    prep_nb(v)\n",
     "    mem = v.mem\n    t0 = rdtsc()\n    prep_nb(v)\n    tp = rdtsc() - t0\n    ct = 0\n    ca = 0\n    cd = 0\n"),
    ("bots/act.py", "    p_team = -1.0\n    m_team = 0\n",
     "    scr[89] = rdtsc() - t0 - tp\n    p_team = -1.0\n    m_team = 0\n"),
    ("bots/act.py", "        if act == ACT_TRADE:\n            s, r = trade_score_nb(",
     "        t1 = rdtsc()\n        if act == ACT_TRADE:\n            s, r = trade_score_nb("),
    ("bots/act.py", "                                  int(scr[TR_REASON + c]))\n",
     "                                  int(scr[TR_REASON + c]))\n            ct += rdtsc() - t1\n"),
    ("bots/act.py", "            s, r = attack_score_nb(v, t, gb, lean, sa, tie, loss)\n",
     "            s, r = attack_score_nb(v, t, gb, lean, sa, tie, loss)\n            ca += rdtsc() - t1\n"),
    ("bots/act.py", "        else:\n            s = par[P_PASS_BIAS]\n",
     "            cd += rdtsc() - t1\n        else:\n            s = par[P_PASS_BIAS]\n"),
    ("bots/act.py", "    i = pick_best_nb(v, v.n_opts)\n",
     "    t2 = rdtsc()\n    i = pick_best_nb(v, v.n_opts)\n    scr[94] = rdtsc() - t2\n"
     "    scr[90] = tp\n    scr[91] = ct\n    scr[92] = ca\n    scr[93] = cd\n    scr[95] = v.n_opts\n"),
]
GAME_PATCH = ("play.py", "def play_one_nb", "    play_turns_nb(st, -1)\n",
              "    t0 = rdtsc()\n    play_turns_nb(st, -1)\n    st.sc[{B} + 128] = rdtsc() - t0\n")


def instrument(pkg: Path) -> None:
    """Add the timers to the copy of the package at ``pkg``."""
    (pkg / "tsc.py").write_text(TSC)
    for rel, old, new in PATCHES:
        f = pkg / rel
        s = f.read_text()
        if old not in s:
            sys.exit(f"cycle_profile: {rel} no longer contains {old.strip()!r}; update PATCHES")
        f.write_text(s.replace(old, new.replace("{B}", str(BASE)), 1))
    rel, after, old, new = GAME_PATCH
    new = new.replace("{B}", str(BASE))
    f = pkg / rel
    s = f.read_text()
    i = s.find(after)
    j = s.find(old, i) if i >= 0 else -1
    if j < 0:
        sys.exit(f"cycle_profile: {rel} has no {old.strip()!r} after {after!r}; update GAME_PATCH")
    f.write_text(s[:j] + new + s[j + len(old):])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--items", default="full")
    ap.add_argument("--bots", default="smart")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--top", type=int, default=25, help="rows of the table")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kutsch-cycles-") as tmp:
        shutil.copytree(ROOT / "kutsch_sim", Path(tmp) / "kutsch_sim",
                        ignore=shutil.ignore_patterns("__pycache__"))
        instrument(Path(tmp) / "kutsch_sim")
        sys.path.insert(0, tmp)
        import numpy as np

        from kutsch_sim.api import GameConfig, play_game
        from kutsch_sim.enums import DEC, EV

        assert Path(sys.modules["kutsch_sim"].__file__).is_relative_to(tmp)
        dec = {int(getattr(DEC, k)): k for k in DEC._fields}
        ev = {int(getattr(EV, k)): k for k in EV._fields}
        cfg = GameConfig(a.players, a.items, tuple(a.bots.split(",")))
        print("compiling an instrumented copy (about 3 minutes) ...", file=sys.stderr, flush=True)
        play_game(cfg, a.seed, 0, log_cap=0)
        acc = np.zeros(N_EXTRA, np.int64)
        for g in range(a.games):
            acc += play_game(cfg, a.seed, g, log_cap=0).scalars[BASE:BASE + N_EXTRA]
    tot = acc[128]
    G = a.games
    print(f"{a.players} players, {a.items}, {a.bots}, {G:,} games, seed {a.seed}: "
          f"{tot / G:,.0f} cycles a game (time-stamp counter), {acc[61] / G:.1f} full refreshes a game\n")
    rows = [(acc[k], f"decision {dec[k]}") for k in dec if acc[k]]
    rows += [(acc[64 + k], f"observe {ev[k]}") for k in ev if acc[64 + k]]
    print("| share of the game | cycles a game | what |\n|---:|---:|---|")
    for c, name in sorted(rows, reverse=True)[:a.top]:
        print(f"| {100 * c / tot:.1f}% | {c / G:,.0f} | {name} |")
    decisions = sum(acc[k] for k in dec)
    observed = acc[64:128].sum()
    print(f"\nall decisions {100 * decisions / tot:.1f}% (of which the full posterior refresh "
          f"{100 * acc[60] / tot:.1f}%, the policies {100 * acc[62] / tot:.1f}%), "
          f"the observer {100 * observed / tot:.1f}%, the rest (rules engine, timers) "
          f"{100 * (tot - decisions - observed) / tot:.1f}%")
    print(f"\nthe ACTION decision ({acc[55] / G:.0f} options a game):")
    for j, name in enumerate(["prep_nb (expectations)", "trade scores", "attack scores", "declaration plans",
                              "pick_best"]):
        print(f"  {name:24s} {100 * acc[50 + j] / tot:5.1f}%")
    print(f"  {'sums before the options':24s} {100 * acc[57] / tot:5.1f}%  (what playing on is worth, the "
          "support lean, the attack base, each card's trade parts)")
    print(f"  {'the policy in all':24s} {100 * acc[56] / tot:5.1f}%  (the parts above, the option loop and "
          "the timers in it; the rest of the decision is its View and the seat's beliefs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
