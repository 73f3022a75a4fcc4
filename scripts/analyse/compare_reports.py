#!/usr/bin/env python
"""Which figures moved? Compare a saved copy of reports/ with the regenerated one.

    python scripts/analyse/compare_reports.py [--old runs/remeasure/old_reports] [--new reports] [--all] [--top N]

For every CSV table under */tables/ (sample-study, variants-study): rows are matched by their
key columns (players, item set, outcome, seat, occupation, ...; see KEYS), and for each numeric
column the largest absolute change is printed with the row where it happened (old -> new).
Text columns that are results (a finding's verdict, the best/worst seat or occupation) are
counted where they changed, and the changed verdicts are listed. Rows only in one copy are
counted. Then reports/bots/bots_eval.json (every number, flattened) and the Markdown tables of
reports/bots/*.md (belief_calibration.md, bots_eval.md; cells read as their first number).

Reads files only (pandas); no simulation. Exit code 0 whatever changed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

import pandas as pd

# Columns that say which row it is (never results). A table's key is those of them it has.
KEYS = ("what", "topic", "players", "item_set", "set_basic", "set_without", "set_with", "variant",
        "item", "occupation", "seat", "team", "holder", "outcome", "measure", "how", "per", "subject")
# Text columns not worth listing value by value.
QUIET = ("sentence",)
# Columns whose change says a verdict flipped (listed row by row).
LIST_TEXT = ("verdict", "best", "worst", "paired")

NUM = re.compile(r"[-+−]?\d[\d,]*\.?\d*(?:e[-+]?\d+)?", re.I)


def fmt(x: object) -> str:
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        return f"{x:.6g}"
    return str(x)


def keyed(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    keys = [c for c in KEYS if c in df.columns]
    if not keys:  # no known key: match rows by position
        df = df.copy()
        df["_row"] = range(len(df))
        keys = ["_row"]
    df = df.copy()
    for k in keys:
        df[k] = df[k].astype(object).where(df[k].notna(), "").astype(str)
    df["_dup"] = df.groupby(keys, sort=False).cumcount()  # repeated keys: the k-th with the k-th
    return df.set_index(keys + ["_dup"]), keys


def label(idx: tuple, keys: list[str]) -> str:
    parts = [f"{k}={v}" for k, v in zip(keys, idx, strict=False) if v != ""]
    if idx[-1]:
        parts.append(f"#{idx[-1]}")
    return ", ".join(parts)


def compare_csv(old_f: Path, new_f: Path, top: int, show_all: bool) -> bool:
    """Print the changes of one table; True if anything changed."""
    try:
        o, keys = keyed(pd.read_csv(old_f))
        n, _ = keyed(pd.read_csv(new_f))
    except pd.errors.EmptyDataError:
        return False
    common = o.index.intersection(n.index)
    only_old = len(o.index.difference(n.index))
    only_new = len(n.index.difference(o.index))
    lines = []
    if only_old or only_new:
        lines.append(f"  rows: {len(o)} old, {len(n)} new; {only_old} only in old, {only_new} only in new")
    oc, nc = o.loc[common], n.loc[common]
    for col in [c for c in n.columns if c in o.columns]:
        a, b = oc[col], nc[col]
        numeric = (pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b)
                   and not pd.api.types.is_bool_dtype(a) and not pd.api.types.is_bool_dtype(b))
        if numeric:
            a, b = a.astype(float), b.astype(float)
            d = (b - a).abs()
            flipped_nan = a.isna() != b.isna()
            if flipped_nan.any():
                lines.append(f"  {col}: {int(flipped_nan.sum())} cells became / stopped being empty")
            d = d.dropna()
            if d.empty or d.max() == 0:
                if show_all:
                    lines.append(f"  {col}: unchanged")
                continue
            worst = d[d > 0].sort_values(ascending=False).head(top)
            changed = int((d > 0).sum())
            for i, (idx, v) in enumerate(worst.items()):
                what = f"  {col}: max |change| {v:.6g}" if i == 0 else f"  {col}: next {v:.6g}"
                tail = f"  ({changed} of {len(d)} rows changed)" if i == 0 else ""
                lines.append(f"{what} at {label(idx, keys)}: {fmt(a[idx])} -> {fmt(b[idx])}{tail}")
        else:
            ch = a.astype(str) != b.astype(str)
            if not ch.any():
                continue
            lines.append(f"  {col}: {int(ch.sum())} of {len(ch)} rows changed")
            if col in LIST_TEXT and col not in QUIET:
                for idx in ch[ch].index:
                    lines.append(f"      {label(idx, keys)}: {a[idx]} -> {b[idx]}")
    if lines:
        print(f"\n{new_f}  (key: {', '.join(keys)})")
        print("\n".join(lines))
        return True
    return False


def flatten(x: object, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    if isinstance(x, dict):
        for k, v in x.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(x, list):
        names = ("mean", "lo", "hi") if len(x) == 3 else tuple(str(i) for i in range(len(x)))
        for k, v in zip(names, x, strict=False):
            out.update(flatten(v, f"{prefix}[{k}]"))
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        out[prefix] = float(x)
    return out


def compare_json(old_f: Path, new_f: Path) -> None:
    o = flatten(json.loads(old_f.read_text()))
    n = flatten(json.loads(new_f.read_text()))
    print(f"\n{new_f}  (every number; speed and games_per_s entries are timings)")
    for k in sorted(set(o) | set(n)):
        if k not in o or k not in n:
            print(f"  {k}: only in {'new' if k in n else 'old'}")
        elif o[k] != n[k]:
            timing = "  [timing]" if ("speed_" in k or "games_per_s" in k) else ""
            print(f"  {k}: {fmt(o[k])} -> {fmt(n[k])}  (change {n[k] - o[k]:+.6g}){timing}")


def md_tables(path: Path) -> dict[str, dict[tuple, list[str]]]:
    """Markdown tables of a file: {header line: {row key: cells}}; the key is the cells that are
    not results (first column, and a second one that holds a bin or a match's name)."""
    tables: dict[str, dict[tuple, list[str]]] = {}
    cur = None
    heading = ""
    header: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if not line.startswith("|"):
            cur = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cur is None:
            header = cells
            cur = f"{heading} :: " + " | ".join(cells) if heading else " | ".join(cells)
            while cur in tables:  # the same table twice under one heading
                cur += " (again)"
            tables[cur] = {}
            continue
        if all(set(c) <= set("-:") for c in cells):
            continue
        nkey = 2 if len(header) > 1 and header[1] in ("stated P", "items", "variant") else 1
        key = tuple(cells[:nkey])
        while key in tables[cur]:
            key = key + ("#",)
        tables[cur][key] = cells
    return tables


def first_number(cell: str) -> float | None:
    m = NUM.search(cell.replace("−", "-"))
    if not m:
        return None
    try:
        return float(m.group(0).replace(",", ""))
    except ValueError:
        return None


def compare_md(old_f: Path, new_f: Path) -> None:
    o, n = md_tables(old_f), md_tables(new_f)
    print(f"\n{new_f}  (Markdown tables; a cell's first number)")
    for head, rows in n.items():
        if head not in o:
            print(f"  table only in new: {head}")
            continue
        cols = head.split(" :: ")[-1].removesuffix(" (again)").split(" | ")
        title = head.split(" :: ")[0] if " :: " in head else cols[0]
        orow = o[head]
        best: dict[str, tuple[float, tuple, str, str]] = {}
        for key, cells in rows.items():
            if key not in orow:
                print(f"  [{title}] row only in new: {' '.join(key)}")
                continue
            for j, (a, b) in enumerate(zip(orow[key], cells, strict=False)):
                if a == b:
                    continue
                fa, fb = first_number(a), first_number(b)
                d = abs(fb - fa) if fa is not None and fb is not None else math.inf
                if cols[j] not in best or d > best[cols[j]][0]:
                    best[cols[j]] = (d, key, a, b)
        for key in orow:
            if key not in rows:
                print(f"  [{title}] row only in old: {' '.join(key)}")
        for col, (d, key, a, b) in best.items():
            timing = "  [timing]" if ("games/s" in col or "µs" in col or "ns per" in col) else ""
            print(f"  [{title}] {col}: max change {d:.4g} at {' / '.join(key)}: {a} -> {b}{timing}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="runs/remeasure/old_reports", help="the saved copy of reports/")
    ap.add_argument("--new", default="reports", help="the regenerated reports/ (run from the repo root)")
    ap.add_argument("--top", type=int, default=1, help="rows to show per numeric column (largest changes)")
    ap.add_argument("--all", action="store_true", help="also name the unchanged columns")
    a = ap.parse_args(argv)
    old, new = Path(a.old), Path(a.new)
    if not old.is_dir() or not new.is_dir():
        print(f"cmp.py: need two folders, got --old {old} and --new {new}", file=sys.stderr)
        return 2

    old_csv = {p.relative_to(old) for p in old.glob("*/tables/*.csv")}
    new_csv = {p.relative_to(new) for p in new.glob("*/tables/*.csv")}
    unchanged = []
    for rel in sorted(old_csv | new_csv):
        if rel not in old_csv or rel not in new_csv:
            print(f"\n{rel}: only in {'new' if rel in new_csv else 'old'}")
            continue
        if (old / rel).read_bytes() == (new / rel).read_bytes():
            unchanged.append(str(rel))
            continue
        if not compare_csv(old / rel, new / rel, a.top, a.all):
            unchanged.append(str(rel))
    if unchanged:
        print(f"\nunchanged tables ({len(unchanged)}): {', '.join(unchanged)}")

    j = Path("bots") / "bots_eval.json"
    if (old / j).is_file() and (new / j).is_file():
        compare_json(old / j, new / j)
    for rel in sorted(p.relative_to(new) for p in new.glob("bots/*.md")):
        if (old / rel).is_file():
            if (old / rel).read_bytes() == (new / rel).read_bytes():
                print(f"\n{new / rel}: unchanged")
            else:
                compare_md(old / rel, new / rel)
    same = [str(new / s / "study_manifest.json") for s in ("sample-study", "variants-study")
            if (old / s / "study_manifest.json").is_file() and (new / s / "study_manifest.json").is_file()
            and (old / s / "study_manifest.json").read_bytes() == (new / s / "study_manifest.json").read_bytes()]
    if same:
        print(f"\nnote: byte-identical to the old copy (its timestamps too: was the study not rerun?): {', '.join(same)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
