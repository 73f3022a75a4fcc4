#!/usr/bin/env python
"""Where a batch's time goes, by jitted function: ``perf`` with a symbol map read from numba's cache.

Linux only; needs ``perf`` and ``readelf`` (binutils). Two steps::

    perf record -F 2000 -o perf.data python scripts/dev/profile_jit.py play --players 6 --items full --bots smart
    python scripts/dev/profile_jit.py report perf.data

``play`` warms the kernel up (cache load or compile), writes ``/tmp/perf-<pid>.map`` -- the
address of every function in the kernel's object code, found by reading the ELF objects inside
numba's cache files (``.nbc``) and asking the JIT for the address of their symbols -- and then
plays ``--games`` games on one thread. ``report`` sums ``perf report`` by function and by part
(beliefs, View and dispatch, option scoring, engine), as a share of the jitted time.

This reaches into numba internals (``_cache._cache_path``, the JIT's ``get_function_address``);
it is a development tool, tested by hand with numba 0.6x.
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

# the parts of a smart game, by the jitted function's module (first match wins)
PARTS = {
    "beliefs": ("bots.beliefs", "bots.observer", "bots.dispatch.refresh_seat_nb", "bots.dispatch.seat_beliefs_nb",
                "bots.dispatch.hard_seat_nb",
                "__ieee754_exp", "exp@", "__expm1", "__tanh"),
    "view and dispatch": ("bots.view", "bots.dispatch", "bots.policy.choose_nb"),
    "option scoring": ("bots.values", "bots.act", "bots.policy", "bots.trading", "bots.fighting"),
    "engine": ("engine.",),
}


def _elf_objects(data: bytes):
    """The ELF64 objects stored inside a numba cache file."""
    i = 0
    while (i := data.find(b"\x7fELF\x02\x01", i)) >= 0:
        shoff, = struct.unpack_from("<Q", data, i + 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, i + 0x3A)
        end = i + shoff + shentsize * shnum
        yield data[i:end]
        i = end


def write_symbol_map(tmp: Path) -> int:
    """Write /tmp/perf-<pid>.map for every kutsch_sim kernel loaded in this process."""
    from numba.core.registry import CPUDispatcher

    entries: dict[int, tuple[int, str]] = {}
    for mname, mod in list(sys.modules.items()):
        if not mname.startswith("kutsch_sim"):
            continue
        for name, obj in vars(mod).items():
            if not (isinstance(obj, CPUDispatcher) and obj.overloads):
                continue
            for nbc in glob.glob(os.path.join(obj._cache._cache_path, f"*.{name}-*.nbc")):
                data = Path(nbc).read_bytes()
                for k, cres in enumerate(obj.overloads.values()):
                    engine = cres.library._codegen._engine._ee
                    for j, elf in enumerate(_elf_objects(data)):
                        f = tmp / f"{name}-{k}-{j}.o"
                        f.write_bytes(elf)
                        out = subprocess.run(["readelf", "-sW", str(f)], capture_output=True, text=True).stdout
                        syms = []
                        for line in out.splitlines():
                            p = line.split()
                            if len(p) >= 8 and p[3] == "FUNC" and p[6] != "UND":
                                syms.append((int(p[1], 16), int(p[2]), p[6], p[7]))
                        bases: dict[str, list[int]] = {}
                        for val, _size, sec, sym in syms:
                            try:
                                addr = engine.get_function_address(sym)
                            except Exception:  # noqa: BLE001 (a symbol the JIT does not export)
                                addr = 0
                            if addr:
                                bases.setdefault(sec, []).append(addr - val)
                        for val, size, sec, sym in syms:
                            if sec in bases:  # the section's load address: the most common offset
                                base = max(set(bases[sec]), key=bases[sec].count)
                                entries[base + val] = (size, sym)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for addr, (size, sym) in sorted(entries.items()):
            fh.write(f"{addr:x} {size:x} {sym}\n")
    return len(entries)


def play(a: argparse.Namespace) -> int:
    import tempfile

    import numba

    from kutsch_sim.api import GameConfig, run_batch

    numba.set_num_threads(1)
    bots = tuple(a.bots.split(",")) if "," in a.bots else (a.bots,) * a.players
    cfg = GameConfig(a.players, a.items, bots)
    run_batch(cfg, a.seed, 0, 64)  # load or compile
    with tempfile.TemporaryDirectory() as tmp:
        n = write_symbol_map(Path(tmp))
    print(f"symbol map: {n} functions", file=sys.stderr)
    t = time.perf_counter()
    run_batch(cfg, a.seed, 0, a.games)
    dt = time.perf_counter() - t
    print(f"{a.games} games in {dt:.2f} s: {dt / a.games * 1e6:.1f} us a game (one thread)")
    return 0


def _short(sym: str) -> str:
    """kutsch_sim.bots.observer.observe_nb from the mangled name."""
    if not sym.startswith("_ZN10kutsch_sim"):
        return sym
    s, parts = sym[len("_ZN10kutsch_sim"):], []
    while s and s[0].isdigit():
        k = re.match(r"\d+", s).group(0)
        parts.append(s[len(k):len(k) + int(k)])
        s = s[len(k) + int(k):]
    return ".".join(parts)


def report(a: argparse.Namespace) -> int:
    out = subprocess.run(["perf", "report", "-i", a.data, "--sort", "sym", "--stdio"],
                         capture_output=True, text=True, check=True).stdout
    funcs: collections.Counter[str] = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[.\]\s+(\S+)", line)
        if m:
            funcs[_short(m.group(2))] += float(m.group(1))
    parts: collections.Counter[str] = collections.Counter()
    for name, pct in funcs.items():
        for part, prefixes in PARTS.items():
            if name.startswith(prefixes):
                parts[part] += pct
                break
    jitted = sum(parts.values())
    print(f"{'part':20s} share of jitted time ({jitted:.1f}% of all samples; the rest is start-up)")
    for part, pct in parts.most_common():
        print(f"{part:20s} {100 * pct / jitted:5.1f}%")
    print("\nfunctions (share of jitted time):")
    for name, pct in funcs.most_common(a.top):
        if any(name.startswith(p) for ps in PARTS.values() for p in ps):
            print(f"{100 * pct / jitted:5.1f}%  {name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="warm up, write the symbol map, play games (run under perf record)")
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--items", default="full")
    p.add_argument("--bots", default="smart")
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=play)
    r = sub.add_parser("report", help="sum a perf.data by function and part")
    r.add_argument("data")
    r.add_argument("--top", type=int, default=25)
    r.set_defaults(func=report)
    a = ap.parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    raise SystemExit(main())
