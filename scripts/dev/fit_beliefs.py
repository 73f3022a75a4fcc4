"""Fit the fitted parts of the bots' beliefs and write them into the package (docs/calibration.md).

    python scripts/dev/fit_beliefs.py evidence --profile smart --games 800 --seed 101
    python scripts/dev/fit_beliefs.py maps runs/cal-a,runs/cal-b --profile smart --search runs/cal-search
    python scripts/dev/fit_beliefs.py maps runs/cal-a,runs/cal-b --only named
    python scripts/dev/fit_beliefs.py search runs/cal-search --profile search-m
    python scripts/dev/fit_beliefs.py temper --profile smart --games 1000 --seed 909

``evidence``: one round of the soft-evidence fit (``kutsch_sim.calib.evidence``): plays traced
games of the profile at 3-10 players, basic and full, and writes
``kutsch_sim/bots/evidence_table.py``. The fit is a fixed point (the weights change the play
that measures them): run it again, with another seed, until the weights settle.

``maps``: the calibration maps and surfaces (``kutsch_sim.calib.fit``) from the claims of one or more
calibration runs (``kutsch-sim calibration --out DIR``), pooled; writes
``kutsch_sim/bots/calibration_table.py``, keeping its TEMPER_FIT; with ``--search``, the
search's map (M_SEARCH) from a search profile's claims in other runs. With ``--only named,...``
it refits those alone and keeps the others; ``named``, ``joint`` and ``minority`` are surfaces
(``kutsch_sim.calib.surface``), each drawn towards the table's where claims are thin, and
``--only named`` changes no game: a seat states P(teammate) of a seat after choosing its action
and declares on the joint surface (``bots.calibration``).

``search``: M_SEARCH alone, from a search profile's claims, at the counts they hold; every other
map of ``calibration_table.py`` and its TEMPER_FIT are kept as they are.

``temper``: the power TEMPER_FIT[n] to which the search's worlds raise the posterior weights
(``search.sample``): at every third turn, the active seat's tempered P(teammate) of each seat
whose association it has not seen, set beside the truth, for a grid of powers; the power of the
least log loss per count is written into ``calibration_table.py``.

Every write names the commit it was fitted on; a fitted table changes every game of the profiles
that read it, so regenerate the golden records after (``python scripts/golden.py``).
"""

from __future__ import annotations

import argparse
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from kutsch_sim.calib import evidence as E
from kutsch_sim.calib import fit as F

TABLE = Path(F.__file__).resolve().parents[1] / "bots" / "calibration_table.py"
TAUS = (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)


def _count(args):
    n, items, prof, seed, games = args
    return n, E.count(n, items, (prof,), seed, games)


def evidence(prof: str, games: int, seed: int, sat: float) -> None:
    jobs = [(n, it, prof, seed, games) for n in range(3, 11) for it in ("basic", "full")]
    acc: dict[int, list] = {}
    with ProcessPoolExecutor(2) as ex:
        for n, (same, tot) in ex.map(_count, jobs):
            a = acc.setdefault(n, [0, 0])
            a[0] = a[0] + same
            a[1] = a[1] + tot
    w = {n: E.weights(s, t, n) for n, (s, t) in acc.items()}
    note = (f"Fitted from {games} traced games a count and item set (basic, full), profile {prof}, seed {seed}, "
            f"{E.provenance()}.")
    E.TABLE.write_text(E.table_source(w, {n: sat for n in range(11)}, note))
    print(f"wrote {E.TABLE}")


def _temper_of_table() -> dict[int, float]:
    m = re.search(r"TEMPER_FIT = \(([^)]*)\)", TABLE.read_text())
    vals = [float(x) for x in m.group(1).split(",")] if m else [1.0] * 11
    return dict(enumerate(vals))


def _claims(runs: str, prof: str) -> pd.DataFrame:
    from kutsch_sim.sim.calibration import load

    frames = []
    for k, r in enumerate(runs.split(",")):
        _, claims, _ = load(r)
        claims = claims[claims["profile"] == prof]
        # the fit keys a claim's decision by (config, game, turn, seat, kind): one code a run and part
        claims["config"] = claims["config"].cat.codes.astype(np.int32) + 10_000 * k
        claims["type"] = claims["type"].cat.codes.astype(np.int8)  # the categories are CLAIM_LABELS, in order
        frames.append(claims.drop(columns=["profile", "items"]))
    df = pd.concat(frames, ignore_index=True)
    if df.empty:  # a table fitted on nothing would be written as if it were one
        print(f"fit_beliefs.py maps: no claims of the profile {prof!r} in {runs}", file=sys.stderr)
        raise SystemExit(2)
    return df


def _note_of_table() -> str:
    """The provenance paragraph of ``calibration_table.py``, after its "do not edit" lines."""
    return TABLE.read_text().split('"""')[1].split("\n\n")[1]


def maps(runs: str, prof: str, search: str | None, search_prof: str, only: list[str] | None = None) -> None:
    from kutsch_sim.bots.calibration import MAP_LABELS, N_MAPS, N_SURF, S_JOINT, S_MINOR, S_NAMED, S_NAMED_DECL

    surf_of = {"named": (S_NAMED, S_NAMED_DECL), "joint": (S_JOINT,), "minority": (S_MINOR,)}
    labels = tuple(surf_of) + MAP_LABELS[:-1]  # the surfaces, then the maps (the search's has its step)
    bad = [x for x in only or () if x not in labels]
    if bad:
        print(f"fit_beliefs.py maps: no map {bad[0]!r} to refit (maps: {', '.join(labels)})", file=sys.stderr)
        raise SystemExit(2)
    df = _claims(runs, prof)
    sdf = _claims(search, search_prof) if search else None
    # surfaces not refitted stay the table's, and the declaration maps are fitted on what stays
    ss = [k for x in only or labels for k in surf_of.get(x, ())]
    # M_ITEM and M_WAIT feed the declaration maps' features: those not refitted stay the table's
    km = tuple(MAP_LABELS.index(x) for x in ("item", "wait") if only is not None and x not in only)
    fitted, surfs = F.fit(df, sdf, keep=tuple(k for k in range(N_SURF) if k not in ss), keep_maps=km)
    note = f"Fitted on the claims of the profile {prof} in {runs} ({len(df):,} claims)"
    if sdf is not None:
        note += f", M_SEARCH on those of {search_prof} in {search} ({len(sdf):,} claims)"
    note += f", {E.provenance()}."
    if only:
        # refit these alone; every other map and surface, and their provenance, stay
        ks = [MAP_LABELS.index(x) for x in only if x in MAP_LABELS]
        for n in range(11):
            row = [F.in_table(n, k) for k in range(N_MAPS)]
            for k in ks:
                if n in fitted:
                    row[k] = fitted[n][k]
            fitted[n], surfs[n] = row, surfs.get(n, F.surfs_in_table(n))
        counts = ", ".join(str(n) for n in sorted(df["n"].unique()))
        what = ", ".join("S_" + x.upper() if x in surf_of else "M_" + x.upper() for x in only)
        told = (f"{what} ({counts} players) refitted on the claims of the profile {prof} in {runs} "
                f"({len(df):,} claims), {E.provenance()}.")
        old = _note_of_table()
        at = old.find("M_SEARCH (")
        note = (old[:at] + told + "\n" + old[at:]) if at >= 0 else old.rstrip() + "\n" + told
    TABLE.write_text(F.table_source(fitted, _temper_of_table(), note, surfs))
    print(f"wrote {TABLE}")


def search_map(runs: str, prof: str) -> None:
    from kutsch_sim.bots.calibration import M_SEARCH, N_MAPS

    sdf = _claims(runs, prof)
    fitted = {n: [F.in_table(n, k) for k in range(N_MAPS)] for n in range(11)}
    counts = sorted(int(n) for n in sdf["n"].unique())
    for n in range(11):  # the identity where the runs hold no claims of the count
        fitted[n][M_SEARCH] = F.IDENTITY
    for n, d in sdf.groupby("n"):
        fitted[int(n)][M_SEARCH] = F.fit_search(d)
    text = TABLE.read_text()
    head = text.split('"""')[1]
    note = head.split("\n\n")[1]  # the provenance paragraph, after the "do not edit" lines
    note = re.sub(r"M_SEARCH \(.*", "", note, flags=re.S).rstrip()
    note += (f"\nM_SEARCH ({', '.join(map(str, counts))} players; the identity elsewhere) on the picks of {prof} in "
             f"{runs} ({len(sdf):,} claims), {E.provenance()}.")
    TABLE.write_text(F.table_source(fitted, _temper_of_table(), note, {n: F.surfs_in_table(n) for n in range(11)}))
    print(f"wrote {TABLE}")


def temper(prof: str, games: int, seed: int) -> None:
    from _temper_kernel import tempered_rows

    from kutsch_sim.api import GameConfig

    best = {}
    for n in range(3, 11):
        loss = np.zeros(len(TAUS))
        rows = 0
        for items in ("basic", "full"):
            cfg = GameConfig(n, items, (prof,))
            out = tempered_rows(cfg, seed, games, np.array(TAUS))
            y = out[:, 0]
            p = np.clip(out[:, 1:], 1e-4, 1 - 1e-4)
            loss += -(y[:, None] * np.log(p) + (1 - y[:, None]) * np.log(1 - p)).sum(axis=0)
            rows += len(out)
        best[n] = TAUS[int(np.argmin(loss))]
        print(f"{n} players: {rows:,} pairs; log loss by power " + ", ".join(
            f"{t}: {x / rows:.4f}" for t, x in zip(TAUS, loss, strict=True)))
    text = TABLE.read_text()
    line = "TEMPER_FIT = (" + ", ".join(f"{best.get(n, 1.0):.2f}" for n in range(11)) + ")"
    TABLE.write_text(re.sub(r"TEMPER_FIT = \([^)]*\)", line, text))
    print(f"wrote {TABLE}: {line}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("evidence")
    e.add_argument("--profile", default="smart")
    e.add_argument("--games", type=int, default=800)
    e.add_argument("--seed", type=int, default=101)
    e.add_argument("--saturation", type=float, default=2.0)
    m = sub.add_parser("maps")
    m.add_argument("runs", help="calibration run folders, comma-separated")
    m.add_argument("--profile", default="smart", help="whose claims (the runs may hold several profiles)")
    m.add_argument("--search", default=None, help="calibration runs of a search profile, comma-separated: M_SEARCH")
    m.add_argument("--search-profile", default="search-m", help="whose claims fit M_SEARCH")
    m.add_argument("--only", default=None,
                   help="refit only these, comma-separated (named, joint, minority: surfaces; item, wait, team, drink: "
                        "maps), keeping the others as the table has them")
    q = sub.add_parser("search")
    q.add_argument("runs", help="calibration run folders of the search profile, comma-separated")
    q.add_argument("--profile", default="search-m", help="whose claims fit M_SEARCH")
    t = sub.add_parser("temper")
    t.add_argument("--profile", default="smart")
    t.add_argument("--games", type=int, default=1000)
    t.add_argument("--seed", type=int, default=909)
    a = ap.parse_args(argv)
    if a.what == "evidence":
        evidence(a.profile, a.games, a.seed, a.saturation)
    elif a.what == "maps":
        maps(a.runs, a.profile, a.search, a.search_profile, a.only.split(",") if a.only else None)
    elif a.what == "search":
        search_map(a.runs, a.profile)
    else:
        temper(a.profile, a.games, a.seed)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
