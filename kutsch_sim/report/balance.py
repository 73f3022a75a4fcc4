"""The report of a balance search: "What would make it fair".

Takes the search's two tables as DataFrames, as every report module does:

- ``fair``: a row per checked setting and player count (the base rules first), measured
  on fresh deals, with its side effects and its figures at the stronger rung
  (:func:`kutsch_sim.sim.balance_search.check_count`);
- ``trials``: every setting the search measured (:func:`~kutsch_sim.sim.balance_search.trials_table`).

Quantities are in per cent (points for the seat edge and the changes, turns for the length).
Writes ``balance.md``, a self-contained ``balance.html``, ``tables/fair.csv``,
``tables/trials.csv`` and ``figures/target_by_knob.png`` into the search's directory.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .plots import DPI, OKABE_ITO, STYLE
from .render import _to_html, _to_markdown
from .sections import Section

FIGURE = "target_by_knob.png"
UNITS = {"smaller": "%", "order": "%", "loge": "%", "seat-edge": " pts"}


def _v(x: float, unit: str = "%") -> str:
    return "–" if pd.isna(x) else f"{x:.1f}{unit}"


def _ci(r: pd.Series, name: str, unit: str = "%") -> str:
    x, lo, hi = r.get(name), r.get(f"{name}_lo"), r.get(f"{name}_hi")
    if pd.isna(x):
        return "–"
    return f"{x:.1f}{unit} ({lo:.1f}–{hi:.1f})"


def _d(r: pd.Series, name: str) -> str:
    x, lo, hi = r.get(name), r.get(f"{name}_lo"), r.get(f"{name}_hi")
    if pd.isna(x):
        return "–"
    return f"{x:+.1f} ({lo:+.1f} to {hi:+.1f})"


def _side(r: pd.Series, quantity: str) -> str:
    """The side effects of a change, before → after, in one cell."""
    parts = [f"length {r['length_before']:.1f} → {r['length_after']:.1f} turns"]
    if quantity != "seat-edge":
        parts.append(f"seat edge {r['seat-edge_before']:+.1f} → {r['seat-edge_after']:+.1f}")
    if quantity != "loge" and not pd.isna(r.get("loge_after")) and (r["loge_before"] > 0 or r["loge_after"] > 0):
        parts.append(f"Loge alone {r['loge_before']:.1f} → {r['loge_after']:.1f}%")
    if quantity != "order":
        parts.append(f"Order {r['order_before']:.1f} → {r['order_after']:.1f}%")
    parts.append(f"occupations {r['occupation_spread_before']:.1f} → {r['occupation_spread_after']:.1f} pts")
    if r.get("timeout_after", 0) > 0.05:
        parts.append(f"timeouts {r['timeout_after']:.1f}%")
    return "; ".join(parts)


def fair_table(fair: pd.DataFrame, quantity: str) -> pd.DataFrame:
    """The section's table: one row per checked change."""
    u = UNITS[quantity]
    rows = []
    for _, r in fair.iterrows():
        row = {"players": int(r["players"]), "change": r["change"],
               "before": _ci(r, "before", u), "after": _ci(r, "after", u),
               "change in points": "–" if r["change"] == "base" else _d(r, "delta"),
               "meets the target": "yes" if r["meets"] else "no",
               "side effects (before → after)": _side(r, quantity)}
        if "strong" in r and isinstance(r.get("strong"), str):
            row[f"at {r['strong']}"] = (f"{_ci(r, 'strong_after', u)}, change "
                                        f"{'–' if r['change'] == 'base' else _d(r, 'strong_delta')}: "
                                        f"{r['strong_verdict']}")
        rows.append(row)
    return pd.DataFrame(rows)


def knob_plot(trials: pd.DataFrame, quantity: str, target_text: str,
              region: tuple[float, float], path: Path) -> Path | None:
    """The target quantity against each single change's value: one panel a rule, a line a
    player count, the base rules' figure at the default value; the target's region shaded."""
    single = trials[(trials["knobs"] == 1) & trials["value"].notna()].copy()
    if single.empty:
        return None
    single["rule"] = single["change"].str.split("=").str[0]
    single["x"] = [int(c.split("=")[1]) if "=" in c else 1 for c in single["change"]]
    rules = list(dict.fromkeys(single["rule"]))
    cols = min(4, len(rules))
    rows = math.ceil(len(rules) / cols)
    import matplotlib as mpl

    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(3.2 * cols, 2.6 * rows + 0.6), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False, sharey=True)
        counts = sorted(single["players"].unique())
        base = trials[trials["change"] == "base"].set_index("players")["value"]
        for i, rule in enumerate(rules):
            ax = axes[i // cols][i % cols]
            lo, hi = region
            ax.axhspan(max(lo, -100), min(hi, 100), color="#009E73", alpha=0.12, lw=0)
            for j, n in enumerate(counts):
                s = single[(single["rule"] == rule) & (single["players"] == n)].sort_values("x")
                if s.empty:
                    continue
                d0 = float(s["default"].iloc[0])
                xs = np.r_[s["x"].to_numpy(float), d0]
                b = base.get(n, np.nan)
                ys = np.r_[s["value"].to_numpy(float), b]
                order = np.argsort(xs)
                c = OKABE_ITO[j % len(OKABE_ITO)]
                ax.plot(xs[order], ys[order], "-o", color=c, ms=4, label=f"{n} players")
                ax.plot([d0], [b], "s", color=c, ms=7, mfc="white")
            ax.set_title(rule)
            ax.xaxis.set_major_locator(mpl.ticker.MaxNLocator(integer=True))
            ax.set_xlabel("value (□ the base rules)")
        for k in range(len(rules), rows * cols):
            axes[k // cols][k % cols].set_visible(False)
        for r in range(rows):
            axes[r][0].set_ylabel(quantity + (" (pts)" if quantity == "seat-edge" else " (%)"))
        axes[0][0].legend(fontsize=8, loc="best")
        fig.suptitle(f"{target_text}: each rule alone (search deals; shaded: the target)")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


def fair_section(fair: pd.DataFrame, trials: pd.DataFrame, target_text: str, quantity: str, fig: str | None,
                 plan: dict) -> Section:
    sec = Section("What would make it fair", csv=["fair.csv", "trials.csv"])
    strong = plan.get("strong") or ""
    sec.para(
        f"Target: **{target_text}**. Each change of the rules (a house rule or a variant of the rule table, "
        f"`docs/rules.md`) was played by `{plan['bots']}` on every seat, items `{plan['items']}`, on the same deals as "
        f"the base rules (seed {plan['seed']}, {plan['games']:,} deals a setting): every single change at every "
        f"value, then pairs ({plan['trials']} trials, optuna TPE). The {plan['check']} best were played again on "
        f"{plan['check_games']:,} fresh deals (seed {plan['seed'] + 1}); the table gives those figures, with 95% "
        "intervals, the change paired game by game with the base rules.")
    if plan.get("keep"):
        sec.para("A change meets the target only if it also keeps the side conditions (their figures on the "
                 "fresh deals); the search added the distance by which a change broke them to its objective.")
    if strong:
        sec.para(f"The last column plays the same changes and the base rules with `{strong}` on every seat "
                 f"({plan['strong_games']:,} deals, seed {plan['seed'] + 2}): **holds** when the figure lies in the "
                 "target's region with its interval at most 2 points beyond it, **fails** when the interval misses "
                 "the region, **undetermined** otherwise, with the deals it would take.")
    lines = []
    for n, f in fair.groupby("players", sort=True):
        rows = f.to_dict("records")
        b = next(r for r in rows if r["change"] == "base")
        r = next((x for x in rows if x.get("answer") is True), None)  # chosen by the search (balance.pick)
        u = UNITS[quantity]
        base = f"the base rules give {_ci(pd.Series(b), 'before', u)}" + (
            ", within the target already" if b["meets"] else "")
        if strong:
            base += f" (at `{strong}`: {_ci(pd.Series(b), 'strong_before', u)})"
        if r is None:
            lines.append(f"{n} players: {base}; no change could be measured.")
            continue
        at = f"; at `{strong}`: {_ci(pd.Series(r), 'strong_after', u)}, {r['strong_verdict']}" if strong else ""
        if r["meets"]:
            lines.append(f"{n} players: {base}; `{r['change']}` gives {_ci(pd.Series(r), 'after', u)}{at}.")
        else:
            lines.append(f"{n} players: {base}; no change tried meets the target, the nearest is `{r['change']}` "
                         f"with {_ci(pd.Series(r), 'after', u)}{at}.")
    sec.bullets(lines)
    sec.table("Checked changes, on fresh deals", fair_table(fair, quantity))
    sec.image(fig, f"{target_text}: the quantity at each value of each rule, alone, per player count")
    sec.para("Every setting the search measured, with its figure on the search deals and its objective (points "
             "from the target, plus half a point for a second change), is in `tables/trials.csv`; "
             "`tables/fair.csv` holds the checked rows at full precision. Both read with one `pd.read_csv`.")
    return sec


def write_balance_report(out_dir: Path, fair: pd.DataFrame, trials: pd.DataFrame, plan: dict,
                         target_text: str, quantity: str, region: tuple[float, float],
                         command: str | None = None) -> Path:
    """Write the section as ``balance.md`` and ``balance.html`` with its CSVs and figure; return the HTML's path."""
    out_dir = Path(out_dir)
    (out_dir / "tables").mkdir(parents=True, exist_ok=True)
    fair.to_csv(out_dir / "tables" / "fair.csv", index=False)
    trials.to_csv(out_dir / "tables" / "trials.csv", index=False)
    img = knob_plot(trials, quantity, target_text, region, out_dir / "figures" / FIGURE)
    sec = fair_section(fair, trials, target_text, quantity, f"figures/{FIGURE}" if img else None, plan)
    prov = Section("Provenance")
    prov.para(f"Command: `{command}`" if command else "Command: not recorded")
    prov.para(f"Engine source {plan.get('engine', '?')}, rules version {plan.get('rules_version', '?')}.")
    sections = [Section(f"Balance search: {target_text}"), sec, prov]
    (out_dir / "balance.md").write_text(_to_markdown(sections), encoding="utf-8")
    path = out_dir / "balance.html"
    path.write_text(_to_html(sections, out_dir, f"Balance search: {target_text}"), encoding="utf-8")
    return path
