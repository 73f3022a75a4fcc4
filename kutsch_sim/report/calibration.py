"""Reliability tables, Brier scores and expected calibration errors of the bots' claims.

Takes the claims as a DataFrame (``calib.record``'s columns, with ``type`` as its label,
``n`` the player count and ``profile``); returns DataFrames and draws a figure. A claim is a
probability a bot stated at a decision, its label what was then true (``docs/calibration.md``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..enums import DK
from .stats import wilson, z_value

# the stated-probability bins of a reliability table
EDGES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)
# what each claim type is, and which rows of it are judged
CLAIMS = {
    "decl_team": "a team declaration's P(success), naming at least one seat (R6.3)",
    "decl_drink": "a Drink of Power declaration's P(success) (R7)",
    "named": "P(teammate) of a seat the declaration names",
    "joint": "P(every seat named is a teammate)",
    "item": "P(a counted card is still where it was last seen)",
    "minority": "P(my team is the smaller), odd counts (R2.2)",
    "wait": "P(my team wins by playing on), at a decision with a declaration open",
    "search": "the search's share of worlds won for the action it picked; label: the seat won",
}
# (claim type, rows) -> the criterion of the calibration target: the most a bin's realised
# success may differ from its mean stated probability (points), and the fewest rows a bin needs
TARGETS = {
    ("decl_team", "taken"): (5.0, 100),
    ("decl_drink", "taken"): (5.0, 100),
    ("named", "taken"): (3.0, 1000),
    ("minority", "taken"): (3.0, 1000),
    ("minority", "weighed"): (3.0, 1000),
    ("search", "taken"): (5.0, 100),
}


def judged(claims: pd.DataFrame, typ: str, rows: str) -> pd.DataFrame:
    """The claims of type ``typ``: ``taken`` those of the declarations made (the search: its
    picks), ``weighed`` every decision at which the seat weighed it. A team declaration that
    names nobody holds three of the declarer's own items and is sure: it is left out."""
    d = claims[claims["type"] == typ]
    if typ == "decl_team":
        d = d[d["about"] > 0]
    if rows == "taken":
        d = d[d["chosen"] == 1]
    return d


def reliability(d: pd.DataFrame, edges=EDGES) -> pd.DataFrame:
    """One row per bin of stated probability: claims, the games they come from, mean stated,
    realised share with its 95% Wilson interval, the gap (realised minus stated, points) and
    the gap's 95% interval with the games as clusters (``gap_lo``, ``gap_hi``): a seat states
    the same belief turn after turn, so the claims of one game are not independent, and the
    Wilson interval of a bin of many claims from few games is too narrow."""
    cols = ["bin", "claims", "games", "stated", "realised", "lo", "hi", "gap", "gap_lo", "gap_hi"]
    if d.empty:
        return pd.DataFrame(columns=cols)
    cut = pd.cut(d["stated"], list(edges), include_lowest=True)
    keys = [k for k in ("profile", "config", "game") if k in d.columns]
    game = d.groupby(keys, observed=True, sort=False).ngroup().to_numpy() if "game" in d.columns \
        else np.arange(len(d))
    x = pd.DataFrame({"bin": cut, "game": game, "y": d["label"].to_numpy(np.float64),
                      "s": d["stated"].to_numpy(np.float64)})
    x["e"] = x["y"] - x["s"]
    g = x.groupby("bin", observed=True).agg(claims=("y", "size"), hits=("y", "sum"), err=("e", "mean"),
                                            games=("game", "nunique"), stated=("s", "mean"))
    # the cluster-robust variance of the bin's mean gap: sum over games of (the game's summed
    # deviation from the bin's mean)^2, over claims^2
    x["dev"] = x["e"] - x["bin"].map(g["err"]).astype(np.float64)
    ss = x.groupby(["bin", "game"], observed=True)["dev"].sum().pow(2).groupby(level=0, observed=True).sum()
    se = np.sqrt(ss.reindex(g.index).to_numpy()) / g["claims"].to_numpy()
    z = z_value()
    lo, hi = wilson(g["hits"].to_numpy(), g["claims"].to_numpy())
    g["realised"] = g["hits"] / g["claims"]
    g["lo"], g["hi"] = lo, hi
    g["gap"] = 100.0 * (g["realised"] - g["stated"])
    g["gap_lo"] = g["gap"] - 100.0 * z * se
    g["gap_hi"] = g["gap"] + 100.0 * z * se
    g["bin"] = [f"{iv.left:.2f}-{iv.right:.2f}" for iv in g.index]
    g = g.reset_index(drop=True)
    return g[cols]


def scores(d: pd.DataFrame, edges=EDGES) -> dict[str, float]:
    """Claims, mean stated, realised, Brier score and expected calibration error (the
    claim-weighted mean of |realised - stated| over the bins, points)."""
    if d.empty:
        return {"claims": 0, "stated": np.nan, "realised": np.nan, "brier": np.nan, "ece": np.nan}
    p, y = d["stated"].to_numpy(), d["label"].to_numpy()
    r = reliability(d, edges)
    ece = float((r["claims"] * (r["realised"] - r["stated"]).abs()).sum() / r["claims"].sum())
    return {"claims": int(len(d)), "stated": float(p.mean()), "realised": float(y.mean()),
            "brier": float(np.mean((p - y) ** 2)), "ece": 100.0 * ece}


def summary(claims: pd.DataFrame) -> pd.DataFrame:
    """Per profile, player count, claim type and rows judged (``taken``, ``weighed``): the
    :func:`scores`, and for the targeted ones whether every bin big enough meets the target."""
    out = []
    for (prof, n), d in claims.groupby(["profile", "n"]):
        for typ in CLAIMS:
            for rows in ("taken", "weighed"):
                x = judged(d, typ, rows)
                if x.empty:
                    continue
                s = scores(x)
                row = {"profile": prof, "players": int(n), "claim": typ, "rows": rows, **s}
                tgt = TARGETS.get((typ, rows))
                if tgt is not None:
                    r = reliability(x)
                    big = r[r["claims"] >= tgt[1]]
                    row["bins_judged"] = int(len(big))
                    row["worst_gap"] = float(big["gap"].abs().max()) if len(big) else np.nan
                    row["meets"] = bool((big["gap"].abs() <= tgt[0]).all()) if len(big) else None
                    # a miss that noise cannot explain: the gap's game-clustered interval lies
                    # wholly beyond the target's tolerance
                    row["clear_misses"] = int(((big["gap_lo"] > tgt[0]) | (big["gap_hi"] < -tgt[0])).sum())
                out.append(row)
    return pd.DataFrame(out)


def reliability_table(claims: pd.DataFrame) -> pd.DataFrame:
    """Every reliability table, long: profile, players, claim, rows, then :func:`reliability`'s."""
    out = []
    for (prof, n), d in claims.groupby(["profile", "n"]):
        for typ in CLAIMS:
            for rows in ("taken", "weighed"):
                r = reliability(judged(d, typ, rows))
                if len(r):
                    out.append(r.assign(profile=prof, players=int(n), claim=typ, rows=rows))
    cols = ["profile", "players", "claim", "rows", "bin", "claims", "games", "stated", "realised", "lo", "hi", "gap",
            "gap_lo", "gap_hi"]
    return pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)


def failed_declarations(records: pd.DataFrame) -> pd.DataFrame:
    """Per profile and player count: games, the share of games that ended in a failed declaration
    (with its 95% Wilson interval), and how often a team declaration (R6.3) and a Drink of Power
    declaration (R7) failed among those made. A declaration ends the game whether or not it
    succeeds (R6.4), so a game holds at most one."""
    rows = []
    for (prof, n), d in records.groupby(["profile", "n"]):
        decl = d["declarer"] >= 0
        failed = decl & (d["decl_ok"] == 0)
        k, m = int(failed.sum()), len(d)
        lo, hi = wilson(k, m)
        row = {"profile": prof, "players": int(n), "games": m, "failed_share": k / m, "lo": float(lo),
               "hi": float(hi), "declarations": int(decl.sum())}
        for kind, name in ((DK.TEAM, "team"), (DK.DRINK, "drink")):
            made = decl & (d["decl_kind"] == kind)
            row[f"{name}_made"] = int(made.sum())
            row[f"{name}_failed"] = float((made & failed).sum() / made.sum()) if made.any() else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def plot_reliability(claims: pd.DataFrame, path, types=("decl_team", "decl_drink", "named", "minority")) -> None:
    """Reliability diagrams: one panel per claim type (the declarations taken; P(minority) at every
    decision that weighed it), realised against stated, one line per profile and player count: the
    count its colour, the profile its line style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    profiles = list(dict.fromkeys(claims["profile"]))
    styles = ("-", "--", ":", "-.")
    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(1, len(types), figsize=(4.2 * len(types), 4.2), squeeze=False)
    for ax, typ in zip(axes[0], types, strict=True):
        rows = "weighed" if typ == "minority" else "taken"
        for (prof, n), d in claims.groupby(["profile", "n"]):
            r = reliability(judged(d, typ, rows))
            r = r[r["claims"] >= 30]
            if len(r):
                ax.plot(r["stated"], r["realised"], marker="o", ms=3, lw=1, color=colours(int(n) % 10),
                        ls=styles[profiles.index(prof) % len(styles)], label=f"{prof} {n}p")
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
        ax.set_title(f"{typ} ({rows})", fontsize=9)
        ax.set_xlabel("stated")
        ax.set_ylabel("realised")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(8, len(labels)), fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _md(df: pd.DataFrame) -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(lines)


def _of_made(failed: pd.DataFrame, kind: str) -> list[str]:
    """The failure rate of one kind of declaration among those made, or a dash if none was."""
    return ["–" if not k else f"{_pct(x)} of {k:,}" for x, k in
            zip(failed[f"{kind}_failed"], failed[f"{kind}_made"], strict=True)]


def _count(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{int(x):,}"


def _pct(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{100 * x:.1f}%"


def write_report(out_dir, plan: dict, claims: pd.DataFrame, records: pd.DataFrame, provenance: str = "") -> Path:
    """The run's tables (``tables/*.csv``, full precision), the reliability figure and
    ``calibration.md``; returns the Markdown file's path."""
    out = Path(out_dir)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    summ = summary(claims)
    rel = reliability_table(claims)
    failed = failed_declarations(records)
    summ.to_csv(out / "tables" / "summary.csv", index=False)
    rel.to_csv(out / "tables" / "reliability.csv", index=False)
    failed.to_csv(out / "tables" / "failed_declarations.csv", index=False)
    plot_reliability(claims, out / "figures" / "reliability.png")
    lines = ["# Calibration: what the bots state at their decisions, against what then happened", "",
             f"Profiles {', '.join(plan['profiles'])}; {', '.join(map(str, plan['players']))} players; item sets "
             f"{', '.join(plan['items'])}; {plan['games']:,} games a profile, count and item set; seed {plan['seed']}."
             + (f" {provenance}" if provenance else ""), "",
             "A claim is a probability a bot stated at a decision (the turn's action), its label what was true "
             "at that moment (for P(win by playing on) and the search's share: whether the seat won). "
             "*taken*: the declarations made (the search: its picks); *weighed*: every decision at which the "
             "seat weighed one. A bin is judged when it holds enough claims (declarations 100, P(teammate) and "
             "P(smaller team) 1,000); *worst gap* is the largest |realised − stated| of a judged bin, in points; a miss *beyond noise* is a "
             "judged bin whose gap's 95% interval, with the games as clusters (a seat states the same belief turn "
             "after turn), lies wholly beyond the tolerance. "
             "ECE: the claim-weighted mean |realised − stated| over the bins (points); Brier: the mean squared "
             "error of the stated probability.", "",
             "![reliability](figures/reliability.png)", ""]
    for (typ, rows), (tol, _) in TARGETS.items():
        s = summ[(summ["claim"] == typ) & (summ["rows"] == rows)]
        if s.empty:
            continue
        t = pd.DataFrame({"profile": s["profile"], "players": s["players"], "claims": s["claims"].map("{:,}".format),
                          "stated": s["stated"].map(_pct), "realised": s["realised"].map(_pct),
                          "Brier": s["brier"].map("{:.3f}".format), "ECE": s["ece"].map("{:.1f}".format),
                          "bins judged": s["bins_judged"].map(_count), "worst gap": s["worst_gap"].map(
                              lambda x: "–" if not np.isfinite(x) else f"{x:.1f}"),
                          f"every bin within {tol:g}": s["meets"].map({True: "yes", False: "no", None: "–"}),
                          "misses beyond noise": s["clear_misses"].map(_count)})
        lines += [f"## {CLAIMS[typ]} ({rows})", "", _md(t), ""]
    if len(failed):
        t = pd.DataFrame({"profile": failed["profile"], "players": failed["players"],
                          "games": failed["games"].map("{:,}".format),
                          "ended in a failed declaration": [f"{_pct(a)} ({_pct(b)}–{_pct(c)})" for a, b, c in
                                                           zip(failed["failed_share"], failed["lo"], failed["hi"],
                                                               strict=True)],
                          "team declarations that failed": _of_made(failed, "team"),
                          "Drink of Power declarations that failed": _of_made(failed, "drink")})
        lines += ["## Games ending in a failed declaration", "", _md(t), ""]
    lines += ["Every bin of every claim type: `tables/reliability.csv`; the scores per profile, count and claim: "
              "`tables/summary.csv`.", ""]
    path = out / "calibration.md"
    path.write_text("\n".join(lines))
    return path
