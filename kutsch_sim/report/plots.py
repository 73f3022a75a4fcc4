"""Report figures (matplotlib, no pyplot state: each figure is a ``Figure`` saved as PNG).

Colours are the Okabe-Ito palette (safe for the common colour-vision deficiencies),
``cividis`` for a sequential heatmap and ``PuOr`` (diverging, also safe) for shares centred at 50%. Every function takes report tables, writes one PNG to ``path``
and returns the path, or ``None`` when its table is empty (the report then says so).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
DPI = 110
STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.grid": True, "grid.alpha": 0.3,
         "axes.spines.top": False, "axes.spines.right": False, "figure.titlesize": 13}


def set_order(labels) -> list[str]:
    """Item-set labels in reading order: ``basic``, ``basic+…``, ``full``, ``full-…``, others."""
    def key(s: str) -> tuple:
        return (0 if s == "basic" else 1 if s.startswith("basic") else 2 if s == "full"
                else 3 if s.startswith("full") else 4, s)
    return sorted({str(x) for x in labels}, key=key)


def _save(fig: Figure, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


def _tick(v: float, points: bool) -> str:
    """Tick label of a fraction: ``12%``, or signed percentage points ``+1.5`` (no ``.0``, ``0`` unsigned)."""
    s = f"{100 * v:+.1f}" if points else f"{100 * v:.1f}"
    s = s.removesuffix(".0")
    if points:
        return "0" if s in ("+0", "-0") else s.replace("-", "−")
    return s + "%"


def _pct_axis(ax, axis: str = "y", points: bool = False) -> None:
    fmt = mpl.ticker.FuncFormatter(lambda v, _: _tick(v, points))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _err(frame: pd.DataFrame, rate: str = "rate", lo: str = "lo", hi: str = "hi") -> np.ndarray:
    """(2, n) error-bar lengths below and above each rate."""
    return np.vstack([frame[rate] - frame[lo], frame[hi] - frame[rate]]).clip(min=0)


SHARE_LIMITS = (0.40, 0.60)  # the team-balance colour scale: fixed, so a colour means the same in every report
SOLO_LIMITS = (0.0, 0.50)


def balance_marks(share: pd.DataFrame, verdicts: pd.DataFrame | None, sets: list[str],
                  counts: list[int]) -> np.ndarray:
    """(len(sets), len(counts)) strings: ``"clear"``/``"likely"`` where the findings' check of
    that cell (topic ``team balance by item set``: players, subject = item set, verdict) finds
    the Order's share off 50%, ``""`` elsewhere."""
    marks = np.full((len(sets), len(counts)), "", dtype=object)
    if verdicts is None or len(verdicts) == 0:
        return marks
    for r in verdicts.itertuples():
        if r.verdict in ("clear", "likely") and r.subject in sets and r.players in counts:
            marks[sets.index(r.subject), counts.index(r.players)] = r.verdict
    return marks


def outcome_heatmap(outcomes: pd.DataFrame, share: pd.DataFrame, path: Path,
                    verdicts: pd.DataFrame | None = None) -> Path | None:
    """Two annotated heatmaps, players x item set: how often a Loge player wins alone, and the
    Order's share of the games a team wins on a diverging scale centred at 50% with fixed limits
    (SHARE_LIMITS), each cell whose check finds it off 50% framed (``verdicts``: the findings'
    ``team balance by item set`` rows)."""
    if len(outcomes) == 0:
        return None
    solo = outcomes[outcomes["outcome"] == "solo"]
    sets = set_order(share["item_set"])
    counts = sorted(int(x) for x in share["players"].unique())
    panels = [("Loge player wins alone (share of all games)", solo, SOLO_LIMITS, mpl.colormaps["cividis"]),
              ("Order's share of the games a team wins", share, SHARE_LIMITS, mpl.colormaps["PuOr"])]
    marks = balance_marks(share, verdicts, sets, counts)
    with mpl.rc_context(STYLE | {"axes.grid": False}):
        fig = Figure(figsize=(2.2 + 0.75 * len(counts) * 2, 2.0 + 0.45 * len(sets)), layout="constrained")
        axes = fig.subplots(1, 2, sharey=True)
        for k, (ax, (title, table, lim, cmap)) in enumerate(zip(axes, panels, strict=True)):
            grid = table.pivot(index="item_set", columns="players", values="rate").reindex(index=sets,
                                                                                          columns=counts)
            half = table.pivot(index="item_set", columns="players", values="hi").reindex(index=sets,
                                                                                       columns=counts) - grid
            norm = mpl.colors.Normalize(*lim, clip=True)
            im = ax.imshow(grid.to_numpy(float), cmap=cmap, norm=norm, aspect="auto")
            for (i, j), v in np.ndenumerate(grid.to_numpy(float)):
                if np.isnan(v):
                    ax.text(j, i, "no runs", ha="center", va="center", fontsize=7, color="grey")
                    continue
                r, g, b, _ = cmap(norm(v))
                colour = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"
                ax.text(j, i, f"{100 * v:.1f}\n±{100 * half.iat[i, j]:.1f}", ha="center", va="center",
                        fontsize=8, color=colour)
                if k == 1 and marks[i, j]:
                    ax.add_patch(mpl.patches.Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False,
                                                       lw=2.2 if marks[i, j] == "clear" else 1.2,
                                                       ls="-" if marks[i, j] == "clear" else "--", ec="black"))
            ax.set_xticks(range(len(counts)), [str(c) for c in counts])
            ax.set_yticks(range(len(sets)), sets)
            ax.set_xlabel("players")
            ax.set_title(title)
            bar = fig.colorbar(im, ax=ax, format=mpl.ticker.PercentFormatter(1.0, decimals=0), shrink=0.8,
                               extend="both" if k == 1 else "max")
            bar.set_ticks(np.linspace(lim[0], lim[1], 5 if k == 1 else 6))
            bar.set_label(f"fixed scale {100 * lim[0]:.0f}–{100 * lim[1]:.0f}%"
                          + (", centred at 50% (even)" if k == 1 else ""))
        fig.suptitle("Who wins, by player count and item set (cell: % ± 95% interval). Right: solid frame = "
                     "off 50% after the correction for all checks (clear), dashed = at 95% only (likely)",
                     fontsize=10)
        return _save(fig, path)


def _offsets(k: int, width: float = 0.6) -> np.ndarray:
    return (np.arange(k) - (k - 1) / 2) * width / max(k, 1)


def drink_plot(minority: pd.DataFrame, effect: pd.DataFrame, path: Path) -> Path | None:
    """Minority / majority win rates at odd counts, with and without the Drink, and the difference."""
    m = minority[minority["item_set"] == "all"] if len(minority) else minority
    if len(m) == 0:
        return None
    e = effect[effect["item_set"] == "all"] if len(effect) else effect
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(11 if len(e) else 6.5, 4.2), layout="constrained")
        axes = fig.subplots(1, 2 if len(e) else 1, squeeze=False)[0]
        ax = axes[0]
        series = [("minority", "on", OKABE_ITO[0], "o"), ("majority", "on", OKABE_ITO[1], "s")]
        if len(e):
            series += [("minority", "off", OKABE_ITO[0], "o"), ("majority", "off", OKABE_ITO[1], "s")]
        for (team, state, colour, marker), dx in zip(series, _offsets(len(series)), strict=True):
            if state == "on" and not len(e):
                f = m[m["team"] == team]
                x, y, err = f["players"], f["rate"], _err(f)
            else:
                f = e[e["team"] == team]
                x, y = f["players"], f[f"rate_{state}"]
                err = _err(f, f"rate_{state}", f"lo_{state}", f"hi_{state}")
            ax.errorbar(x + dx, y, yerr=err, fmt=marker, color=colour, capsize=3, ms=6,
                        mfc=colour if state == "on" else "white",
                        label=f"{team} team, Drink {'on' if state == 'on' else 'off'}")
        ax.set_xticks(sorted(m["players"].unique()))
        ax.set_xlabel("players")
        ax.set_ylabel("win rate (all games)")
        _pct_axis(ax)
        ax.set_title("Win rate of the smaller and larger team")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
        if len(e):
            ax = axes[1]
            for (team, colour, marker), dx in zip([("minority", OKABE_ITO[0], "o"), ("majority", OKABE_ITO[1], "s")],
                                                  _offsets(2), strict=True):
                f = e[e["team"] == team]
                ax.errorbar(f["players"] + dx, f["diff"], yerr=_err(f, "diff", "diff_lo", "diff_hi"), fmt=marker,
                            color=colour, capsize=3, ms=6, label=f"{team} team")
            ax.axhline(0, color="black", lw=1)
            ax.set_xticks(sorted(e["players"].unique()))
            ax.set_xlabel("players")
            ax.set_ylabel("win rate with Drink − without (points)")
            _pct_axis(ax, points=True)
            ax.set_title("Effect of the Drink of Power (95% interval)")
            ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
        fig.suptitle("Drink of Power at odd player counts (item sets pooled)")
        return _save(fig, path)


def loge_plot(solo: pd.DataFrame, team_effect: pd.DataFrame, path: Path) -> Path | None:
    """Loge solo-win rate per player count, and the change in team wins with the Loge in the deck."""
    if len(solo) == 0:
        return None
    t = team_effect[team_effect["outcome"] == "team"] if len(team_effect) else team_effect
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(11 if len(t) else 6.5, 4.2), layout="constrained")
        axes = fig.subplots(1, 2 if len(t) else 1, squeeze=False)[0]
        sets = set_order(solo["item_set"])
        for i, (s, dx) in enumerate(zip(sets, _offsets(len(sets)), strict=True)):
            f = solo[solo["item_set"] == s]
            axes[0].errorbar(f["players"] + dx, f["rate"], yerr=_err(f), fmt="o", capsize=3,
                             color=OKABE_ITO[i % 8], label=s)
        axes[0].set_xticks(sorted(solo["players"].unique()))
        axes[0].set_xlabel("players")
        axes[0].set_ylabel("Loge solo wins (share of games)")
        axes[0].set_ylim(bottom=0)
        _pct_axis(axes[0])
        axes[0].set_title("How often the Loge holder wins alone")
        axes[0].legend(fontsize=8, title="item set", loc="upper center", bbox_to_anchor=(0.5, -0.16),
                       ncol=min(3, len(sets)))
        if len(t):
            ax = axes[1]
            pairs = t[["set_without", "set_with"]].drop_duplicates().itertuples(index=False)
            pairs = list(pairs)
            for i, ((a, b), dx) in enumerate(zip(pairs, _offsets(len(pairs)), strict=True)):
                f = t[(t["set_without"] == a) & (t["set_with"] == b)]
                ax.errorbar(f["players"] + dx, f["diff"], yerr=_err(f, "diff", "diff_lo", "diff_hi"), fmt="s",
                            capsize=3, color=OKABE_ITO[(i + 4) % 8], label=f"{a} → {b}")
            ax.axhline(0, color="black", lw=1)
            ax.set_xticks(sorted(t["players"].unique()))
            ax.set_xlabel("players")
            ax.set_ylabel("team win rate with Loge − without (points)")
            _pct_axis(ax, points=True)
            ax.set_title("Change in team wins when the Loge is in the deck")
            ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
        fig.suptitle("Coat of Armor of the Loge (95% intervals)")
        return _save(fig, path)


def seat_plot(seats: pd.DataFrame, path: Path) -> Path | None:
    """Small multiples: each seat's win rate minus the average seat, per player count."""
    if len(seats) == 0:
        return None
    counts = sorted(seats["players"].unique())
    cols = min(4, len(counts))
    rows = -(-len(counts) // cols)
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(3.2 * cols, 2.6 * rows + 0.6), layout="constrained")
        axes = np.atleast_1d(fig.subplots(rows, cols, sharey=True, squeeze=False)).ravel()
        for ax, n in zip(axes, counts, strict=False):
            f = seats[seats["players"] == n]
            ax.bar(f["seat"], f["excess"], color=OKABE_ITO[0], alpha=0.85, yerr=_err(f), capsize=2,
                   ecolor="black")
            ax.axhline(0, color="black", lw=0.8)
            ax.set_xticks(f["seat"])
            ax.set_title(f"{n} players ({int(f['n'].iloc[0]):,} games)")
            ax.set_xlabel("seat (0 = start player)")
            _pct_axis(ax, points=True)
        for ax in axes[len(counts):]:
            ax.set_visible(False)
        for ax in axes[::cols]:
            ax.set_ylabel("points vs average seat")
        fig.suptitle("Seat advantage: win rate of each seat minus the average seat (95% intervals)")
        return _save(fig, path)


def _hbar(frame: pd.DataFrame, label: str, value: str, lo: str, hi: str, title: str, xlabel: str,
          path: Path) -> Path | None:
    if len(frame) == 0:
        return None
    f = frame.sort_values(value)
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(8, 1.0 + 0.38 * len(f)), layout="constrained")
        ax = fig.subplots()
        y = np.arange(len(f))
        colours = [OKABE_ITO[0] if v >= 0 else OKABE_ITO[5] for v in f[value]]
        ax.barh(y, f[value], color=colours, alpha=0.85,
                xerr=np.vstack([f[value] - f[lo], f[hi] - f[value]]).clip(min=0), capsize=3, ecolor="black")
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, f[label])
        ax.set_xlabel(xlabel)
        _pct_axis(ax, "x", points=True)
        ax.set_title(title)
        return _save(fig, path)


def occupation_plot(occupations: pd.DataFrame, path: Path) -> Path | None:
    """Win rate by starting occupation minus the average seat (all player counts pooled)."""
    if len(occupations) == 0:
        return None
    f = occupations.assign(lo_x=occupations["lo"] - occupations["base"], hi_x=occupations["hi"] - occupations["base"])
    return _hbar(f, "occupation", "excess", "lo_x", "hi_x",
                 "Occupation strength: win rate minus the average seat (all player counts, 95% intervals)",
                 "points vs average seat", path)


def start_item_plot(items: pd.DataFrame, path: Path) -> Path | None:
    """Win rate of seats starting with each item kind minus seats without it (pooled)."""
    return _hbar(items, "item", "diff", "diff_lo", "diff_hi",
                 "Starting-item strength: win rate with the item in the starting hand − without,\n"
                 "adjusted for player count (per-count differences weighted by the seats holding it; 95% intervals)",
                 "points, adjusted for player count (the raw rates beside it in the table are not)", path)


def length_plot(games: pd.DataFrame, lengths: pd.DataFrame, path: Path) -> Path | None:
    """Histogram of game length (turns) per player count, each on its own axis (0 to the 99.5th
    percentile of that count, one-turn bins where they fit), the median marked and the games
    beyond the axis counted in the panel."""
    if len(games) == 0:
        return None
    counts = sorted(lengths["players"].unique())
    cols = min(4, len(counts))
    rows = -(-len(counts) // cols)
    players, turns = games["players"].to_numpy(), games["turns"].to_numpy()
    capped = (games["winner"] == "timeout").to_numpy()
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(3.2 * cols, 2.5 * rows + 0.6), layout="constrained")
        axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
        for ax, n in zip(axes, counts, strict=False):
            t, cap = turns[players == n], capped[players == n]
            row = lengths[lengths["players"] == n].iloc[0]
            top = int(np.ceil(np.quantile(t[~cap] if (~cap).any() else t, 0.99))) + 1  # the cap's games: counted
            width = max(1, int(np.ceil(top / 60)))
            bins = np.arange(0, top + width, width)
            ax.stairs(np.histogram(t, bins=bins)[0], bins, fill=True, color=OKABE_ITO[2], alpha=0.85)
            ax.axvline(row["median"], color=OKABE_ITO[5], lw=1.5, label=f"median {row['median']:.0f}")
            beyond, at_cap = int((t >= bins[-1]).sum()), int(cap.sum())
            ax.set_xlim(0, bins[-1])
            ax.set_title(f"{n} players ({len(t):,} games)")
            ax.set_xlabel(f"turns ({width}-turn bars)" if width > 1 else "turns (one bar a turn)")
            note = (f"{beyond:,} games past {bins[-1]}" + (f",\n{at_cap:,} of them at the turn cap" if at_cap else "")
                    if beyond else None)
            ax.legend(fontsize=8, loc="best", title=note, title_fontsize=7)
            ax.set_yticks([])
        for ax in axes[len(counts):]:
            ax.set_visible(False)
        fig.suptitle("Game length in turns (one player's turn = 1), each player count on its own axis")
        return _save(fig, path)


def robustness_plot(values: pd.DataFrame, titles: dict[str, tuple[str, bool]], path: Path) -> Path | None:
    """One panel per headline number: its value at each rung (x, weakest first) with 95% intervals,
    a line per player count (``players`` 0: all counts), the top three rungs shaded (the verdict's).

    ``values``: headline, players, rung, rung_level, subject, estimate, lo, hi, reference
    (:func:`.robustness.ladder_values`); ``titles``: headline -> (panel title, whether it is a
    rate, drawn in %, rather than points). The smaller team's panel draws its reference, the
    larger team's rate, dashed; the best occupation is named at each point."""
    if len(values) == 0:
        return None
    keys = [k for k in titles if k in set(values["headline"])]
    names = values.drop_duplicates("rung_level").sort_values("rung_level")["rung"].tolist()
    counts = sorted(int(p) for p in values["players"].unique() if p)
    colour = {p: OKABE_ITO[i % 7] for i, p in enumerate(counts)} | {0: OKABE_ITO[7]}
    dx = dict(zip(counts, _offsets(len(counts), 0.3), strict=True)) | {0: 0.0}
    cols = min(4, len(keys) + 1)
    rows = -(-(len(keys) + 1) // cols)
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(3.4 * cols, 2.9 * rows + 0.6), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False).ravel()
        for ax, key in zip(axes, keys, strict=False):
            title, share = titles[key]
            for p, g in values[values["headline"] == key].groupby("players"):
                g = g.sort_values("rung_level")
                x = g["rung_level"] + dx[int(p)]
                ax.errorbar(x, g["estimate"], yerr=_err(g, "estimate"), fmt="o-", ms=4, capsize=2, lw=1,
                            color=colour[int(p)])
                if key == "smaller":
                    ax.plot(x, g["reference"], "o--", ms=3, lw=0.8, mfc="white", color=colour[int(p)])
                for xi, yi, s in zip(x, g["hi"], g["subject"], strict=True):
                    if s:
                        ax.annotate(s, (xi, yi), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
                        ax.margins(y=0.15)
            ax.axvspan(max(len(names) - 2.5, 0.5), len(names) + 0.5, color="grey", alpha=0.12, lw=0)
            if key == "order":
                ax.axhline(0.5, color="black", lw=0.8)
            elif not share:
                ax.axhline(0, color="black", lw=0.8)
            ax.set_xlim(0.5, len(names) + 0.5)
            ax.set_xticks(range(1, len(names) + 1), names, rotation=30 if len(names) > 3 else 0)
            _pct_axis(ax, points=not share)
            ax.set_title(title, fontsize=9)
        legend = axes[len(keys)]
        for p in counts + ([0] if (values["players"] == 0).any() else []):
            legend.plot([], [], "o-", color=colour[p], label=f"{p} players" if p else "all counts")
        legend.legend(loc="center", fontsize=9, frameon=False)
        for ax in axes[len(keys):]:
            ax.axis("off")
        fig.suptitle("Headline numbers at each rung of the skill ladder, weakest first (95% intervals; shaded: "
                     "the rungs the verdict compares)", fontsize=11)
        return _save(fig, path)
