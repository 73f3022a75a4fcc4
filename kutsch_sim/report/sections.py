"""The report's sections: a plain-language paragraph, display tables and figures for each.

Display tables hold formatted strings (``47.5% (45.4–49.8)``: rate and its 95% interval;
``+8.4 (+5.4 to +11.3)``: a difference in percentage points). The raw tables are written
as CSV beside the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .plots import set_order
from .stats import newcombe_diff, rate_frame


@dataclass
class Section:
    """One report section: a title and blocks shown in order.

    Blocks are ``("text", str)`` paragraphs with Markdown inline marks (`code`, **bold**),
    ``("bullets", list[str])``, ``("table", (caption, display frame))``, ``("code", str)`` and
    ``("image", (PNG path relative to the report, alt text))``; ``csv`` names the raw tables.
    """

    title: str
    blocks: list[tuple[str, object]] = field(default_factory=list)
    csv: list[str] = field(default_factory=list)

    def para(self, text: str) -> None:
        self.blocks.append(("text", text))

    def bullets(self, lines: list[str]) -> None:
        if lines:
            self.blocks.append(("bullets", list(lines)))

    def table(self, caption: str, frame: pd.DataFrame) -> None:
        flat = frame.reset_index(drop=True)
        flat.columns = [str(c) for c in flat.columns]  # drop pivot names: they'd add a header row in HTML
        self.blocks.append(("table", (caption, flat.fillna("–"))))

    def image(self, src: str | None, alt: str) -> None:
        if src:
            self.blocks.append(("image", (src, alt)))


def pct(x: float) -> str:
    return "–" if pd.isna(x) else f"{100 * x:.1f}%"


def rate_cell(rate: float, lo: float, hi: float) -> str:
    """``47.5% (45.4–49.8)``: a rate with its interval, in percent."""
    if pd.isna(rate):
        return "–"
    return f"{100 * rate:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def diff_cell(d: float, lo: float, hi: float) -> str:
    """``+8.4 (+5.4 to +11.3)``: a difference in percentage points with its interval."""
    if pd.isna(d):
        return "–"
    return f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"


def _cells(f: pd.DataFrame, prefix: str = "", suffix: str = "") -> pd.Series:
    return pd.Series([rate_cell(r, lo, hi) for r, lo, hi in zip(
        f[f"{prefix}rate{suffix}"], f[f"{prefix}lo{suffix}"], f[f"{prefix}hi{suffix}"], strict=True)], index=f.index)


def _dcells(f: pd.DataFrame) -> pd.Series:
    return pd.Series([diff_cell(d, lo, hi) for d, lo, hi in zip(f["diff"], f["diff_lo"], f["diff_hi"], strict=True)],
                     index=f.index)


def _n(x) -> str:
    return f"{int(x):,}"


def _set_rank(s: pd.Series) -> pd.Series:
    order = {v: i for i, v in enumerate(set_order(s.unique()))}
    return s.map(order)


def outcome_section(t: dict[str, pd.DataFrame], games: pd.DataFrame, img: str | None) -> Section:
    o, share = t["outcomes"], t["order_share"]
    sec = Section("Who wins", csv=["outcomes.csv", "order_share.csv"])
    if len(o) == 0:
        sec.para("No games under the standard rules.")
        return sec
    w = games["winner"].value_counts()
    n = len(games)
    sec.para(
        f"Across all {n:,} games under the standard rules, the Order won {pct(w.get('order', 0) / n)}, the "
        f"Brotherhood {pct(w.get('brotherhood', 0) / n)}, a Loge player alone {pct(w.get('solo', 0) / n)}, "
        f"and {pct(w.get('timeout', 0) / n)} reached the turn cap. In a fair game each team takes 50% of the "
        "games a team wins (right-hand heatmap): at even counts the teams are the same size, and at odd counts "
        "the smaller team is the Order or the Brotherhood at random (R2.2), so 50% is expected at every count and "
        "every cell is tested against it (findings: *team balance by item set*; a framed cell is off 50%).")
    sec.image(img, "Heatmaps by player count and item set: Loge solo wins, and the Order's share of team wins "
                   "(fixed scale 40-60%, centred at 50%; framed: off 50%)")
    wide = o.pivot_table(index=["players", "item_set"], columns="outcome", values="n", aggfunc="first")
    disp = pd.DataFrame(index=wide.index)
    disp["games"] = wide.iloc[:, 0].map(_n)
    names = {"order": "Order", "brotherhood": "Brotherhood", "solo": "Loge solo", "timeout": "turn cap",
             "error": "engine error"}
    for key, label in names.items():
        f = o[o["outcome"] == key].set_index(["players", "item_set"])
        if len(f):
            disp[label] = _cells(f).reindex(disp.index)
    s = share.set_index(["players", "item_set"])
    disp["Order share of team wins"] = _cells(s).reindex(disp.index)
    disp = disp.reset_index().rename(columns={"item_set": "item set"})
    disp = disp.iloc[np.lexsort([_set_rank(disp["item set"]), disp["players"]])]
    sec.table("Share of games won, with 95% interval", disp)
    return sec


def _sets(frame: pd.DataFrame) -> str:
    """The item sets of a table's per-set rows, for a caption ("basic, full")."""
    sets = [x for x in dict.fromkeys(frame["item_set"].astype(str)) if x != "all"]
    return ", ".join(sets) if sets else "none"


def _pooled_rates(frame: pd.DataFrame, sets: list[str], by: list[str]) -> pd.DataFrame:
    """Rates (n, wins, rate, lo, hi) of the per-set rows of ``frame`` summed over ``sets``."""
    f = frame[frame["item_set"].isin(sets)].groupby(by, sort=True)[["n", "wins"]].sum().reset_index()
    return pd.concat([f[by], rate_frame(f["wins"].to_numpy(), f["n"].to_numpy())], axis=1)


def drink_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    m, e, u = t["minority"], t["drink_effect"], t["drink_usage"]
    sec = Section("Drink of Power", csv=["minority.csv", "drink_effect.csv", "drink_usage.csv"])
    if len(m) == 0:
        sec.para("No games at odd player counts with the Drink of Power on: nothing to show.")
        return sec
    # one pooling for the whole section: the item sets played both with and without the Drink
    sets = [x for x in _sets(e).split(", ") if x != "none"] if len(e) else [x for x in _sets(m).split(", ")]
    on = _pooled_rates(m, sets, ["players", "team"]).pivot(index="players", columns="team", values="rate")
    sec.para(
        "At odd player counts one team has a member fewer and every player holds a Drink of Power, which only "
        "the smaller team can use in place of a victory item. Every number in this section pools the same item "
        f"sets ({', '.join(f'`{x}`' for x in sets)}"
        + ("; those played both with and without the Drink" if len(e) else "") + "). With the Drink on, the "
        "smaller team won " + ", ".join(f"{pct(r.minority)} at {p}" for p, r in on.iterrows())
        + " players (the larger team: " + ", ".join(f"{pct(r.majority)}" for _, r in on.iterrows()) + ").")
    sec.image(img, "Minority and majority win rates with and without the Drink of Power")
    if len(e) == 0:
        disp = _pooled_rates(m, sets, ["players", "team"])
        disp["win rate"] = _cells(disp)
        sec.table("Win rate of the smaller (minority) and larger team, Drink of Power on",
                  disp.pivot(index="players", columns="team", values="win rate")[["minority", "majority"]]
                  .reset_index())
        sec.para("There are no runs with the Drink of Power switched off (`--no-drink`), so its effect "
                 "cannot be measured.")
    else:
        f = e[(e["item_set"] == "all") & (e["team"] == "minority")]
        paired = bool(e["paired"].all())
        how = ("the same deals played with the Drink switched off (`--no-drink`; each game paired with its twin: "
               "the same associations, occupations and hands; Newcombe's interval for paired proportions)"
               if paired else "games played with the Drink switched off (`--no-drink`; other deals)")
        sec.para(
            f"Compared with {how}, the Drink changes the smaller team's win rate by " + ", ".join(
                f"{diff_cell(r.diff, r.diff_lo, r.diff_hi)} points at {r.players}" for r in f.itertuples())
            + " players (difference, 95% interval; the verdicts, at the corrected level, are in the answers)."
            + (" Only the deals whose result the Drink changed carry this difference: " + ", ".join(
                f"{int(r.only_on):,} won only with it and {int(r.only_off):,} only without at {r.players}"
                for r in f.itertuples()) + " players (of " + ", ".join(f"{int(r.n_on):,}" for r in f.itertuples())
               + " deals)." if paired and len(f) else ""))
        both = e[e["item_set"] == "all"].pivot(index="players", columns="team")
        gaps = []
        for p, r in both.iterrows():
            gap_off = r[("rate_off", "majority")] - r[("rate_off", "minority")]
            gap_on = r[("rate_on", "majority")] - r[("rate_on", "minority")]
            if gap_off > 0:
                gaps.append(f"{100 * (1 - gap_on / gap_off):.0f}% at {p}")
        if gaps:
            sec.para("How much of the gap between the two teams' win rates the Drink closes (1 - gap with it / gap "
                     "without it): " + ", ".join(gaps) + " players; 100% would make the teams even, a negative "
                     "share is a wider gap.")
        d = e[e["item_set"] == "all"].copy()
        d = pd.DataFrame({"players": d["players"], "team": d["team"],
                          "games on / off": [f"{a:,} / {b:,}" for a, b in zip(d["n_on"], d["n_off"], strict=True)],
                          "with Drink": _cells(d, suffix="_on"), "without Drink": _cells(d, suffix="_off"),
                          "difference (points)": _dcells(d)})
        if paired:
            d["deals won only with / only without"] = [
                f"{int(a):,} / {int(b):,}" for a, b in zip(e.loc[d.index, "only_on"], e.loc[d.index, "only_off"],
                                                           strict=True)]
        sec.table("Drink of Power on minus off" + ("; paired by game" if paired else ""), d)
    if len(u):
        uu = _pooled_rates(u, sets, ["players", "measure"])
        uu["cell"] = _cells(uu)
        disp = uu.pivot(index="players", columns="measure", values="cell")
        disp = disp[[c for c in u["measure"].unique() if c in disp.columns]].reset_index()
        fail = uu[uu["measure"] == "Drink declarations that failed"]
        if len(fail):
            sec.para(
                "A declaration with the Drink fails when the declarer's team is in fact the larger one (or a named "
                "teammate or an item is missing), and a failed declaration hands the win to the other team -- "
                "mostly the smaller one. Share of Drink declarations "
                "that failed: " + ", ".join(f"{pct(r.rate)} at {r.players}" for r in fail.itertuples())
                + " players; these games count among the smaller team's wins with the Drink on, so part of the "
                "Drink's measured effect is the larger team's mistakes, not the smaller team's use of it.")
        worth = ""
        if len(e) and bool(e["paired"].all()):
            f = e[(e["item_set"] == "all") & (e["team"] == "minority")]
            worth = (" Of the smaller team's wins with the Drink on, its twin without the Drink lost " + ", ".join(
                f"{int(r.only_on):,} of {int(r.wins_on):,} ({pct(r.only_on / r.wins_on)}) at {r.players}"
                for r in f.itertuples() if r.wins_on) + " players.")
        sec.para("How often the Drink was played is not what it is worth: a win declared with the Drink might "
                 "have been won without it (a victory item came later, or the other team declared wrongly). "
                 "What the Drink is worth is the paired difference above." + worth)
        disp = disp.rename(columns={"minority wins with the Drink": "smaller team's wins declared with the Drink"})
        sec.table("Use of the Drink of Power (share, 95% interval): of the games won by a team declaration, those "
                  "that used the Drink; of the games the smaller team won, those it declared with the Drink (a "
                  "share of its wins, not the Drink's contribution); of the declarations with the Drink, those "
                  "that failed", disp)
    return sec


def loge_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    solo, team, holder = t["solo"], t["loge_team"], t["loge_holder"]
    sec = Section("Coat of Armor of the Loge", csv=["solo.csv", "loge_team.csv", "loge_holder.csv"])
    if len(solo) == 0:
        sec.para("No item set in these results has the Coat of Armor of the Loge: nothing to show.")
        return sec
    pooled = solo.groupby("players")[["wins", "n"]].sum()
    sec.para(
        "The player holding the Loge with 3 victory items of any kind wins alone. With the Loge in the deck, "
        "a solo win ended " + ", ".join(f"{pct(r.wins / r.n)} of games at {p}" for p, r in pooled.iterrows())
        + " players (item sets with the Loge pooled; per item set below).")
    sec.image(img, "Loge solo-win rate and the change in team win rates with the Loge")
    d = solo.copy()
    d["cell"] = _cells(d)
    sec.table("Loge solo-win rate", d.pivot(index="players", columns="item_set", values="cell")
                       .reset_index())
    sets = list(dict.fromkeys(solo.sort_values("n", ascending=False)["item_set"]))
    if len(sets) > 1:
        ref = "basic+Loge" if "basic+Loge" in sets else sets[0]
        rows = []
        for p, g in solo.groupby("players"):
            g = g.set_index("item_set")
            if ref not in g.index:
                continue
            a = g.loc[ref]
            row = {"players": p}
            for other in sets:
                if other != ref and other in g.index:
                    b = g.loc[other]
                    dd, lo, hi = newcombe_diff(b["wins"], b["n"], a["wins"], a["n"])
                    row[f"{other} minus {ref}"] = diff_cell(float(dd), float(lo), float(hi))
            if len(row) > 1:
                rows.append(row)
        if rows:
            sec.para(f"Which item sets make the Loge stronger: the solo-win rate of each other set with the Loge "
                     f"minus that of `{ref}` (points, Newcombe 95% interval; an interval without 0 is a "
                     "difference beyond the noise of these games):")
            sec.table(f"Loge solo-win rate by item set, minus {ref}", pd.DataFrame(rows))
    if len(team) == 0:
        sec.para("No item-set pair with and without the Loge (e.g. `basic` and `basic+Loge`) was run, so "
                 "its effect on the teams cannot be measured.")
    else:
        f = team[team["outcome"].isin(["team", "order", "brotherhood"])].copy()
        f["pair"] = f["set_without"] + " → " + f["set_with"]
        f["cell"] = _dcells(f)
        disp = f.pivot(index=["players", "pair"], columns="outcome", values="cell")
        disp = disp[["team", "order", "brotherhood"]].reset_index().rename(columns={"team": "either team wins", "order": "Order wins",
                                    "brotherhood": "Brotherhood wins"})
        sec.para("Adding the Loge to the deck changes how often each side wins by (points, with Loge minus "
                 "without, 95% interval):")
        sec.table("Team win rates with the Loge minus without", disp)
    if len(holder):
        h = holder.copy()
        h["cell"] = _cells(h)
        disp = h.pivot(index="players", columns="holder", values="cell").reset_index()
        sec.para("Win rate of a player by whether they held the Loge (seat-games of games with the Loge in "
                 "the deck; a win is their team's win or their own solo win). No one starts with the Loge "
                 "when it is unstamped (R2.3).")
        sec.table("Win rate by Loge holding", disp)
    return sec


def added_item_section(t: dict[str, pd.DataFrame]) -> Section:
    a = t["added_items"]
    sec = Section("Unstamped items added to basic", csv=["added_items.csv"])
    if len(a) == 0:
        sec.para("No runs with a single unstamped item added to `basic` (e.g. `basic+Tome`) next to `basic` "
                 "runs: nothing to compare.")
        return sec
    loge = a["item"].str.contains("Loge")
    f = a[~loge].copy() if (~loge).any() else a.copy()
    f["cell"] = _dcells(f)
    disp = f.pivot(index=["item", "players"], columns="outcome", values="cell")
    disp = disp[["team", "order", "brotherhood", "solo", "timeout"]].reset_index()
    disp = disp.rename(columns={"order": "Order", "brotherhood": "Brotherhood", "solo": "Loge solo",
                                "timeout": "turn cap", "team": "either team"})
    lo, hi = int(f["n_with"].min()), int(f["n_with"].max())
    sec.para(f"Each unstamped item added to `basic` on its own: the change in how games end (points, with "
             f"the item minus `basic`, 95% interval; {lo:,}{f'–{hi:,}' if hi != lo else ''} games per item set "
             "and player count)." + (" The Loge has its own section." if loge.any() and (~loge).any() else ""))
    share = t["order_share"]
    base = share[share["item_set"].isin(f["set_basic"].unique())]
    if len(base):
        sec.para("Every difference is against `basic`, which is a sample too: the Order's share of its team wins "
                 "is " + ", ".join(f"{rate_cell(r.rate, r.lo, r.hi)} at {r.players}" for r in base.itertuples())
                 + " players. A pair can differ because `basic` sits off 50% by chance, so for fairness the "
                 "findings judge the pair and also each side against 50%.")
    sec.table("Outcome change per item added to basic", disp)
    return sec


def length_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    g, wrong, decl = t["lengths"], t["wrong_decl"], t["declarations"]
    sec = Section("Game length and declarations", csv=["lengths.csv", "wrong_decl.csv", "declarations.csv"])
    if len(g) == 0:
        sec.para("No games.")
        return sec
    sec.para("Median game length is " + ", ".join(
        f"{r.median:.0f} turns at {r.players}" for r in g.itertuples()) + " players (one player's turn = 1).")
    disp = g.copy()
    for c in ("mean", "std"):
        disp[c] = disp[c].map(lambda v: f"{v:.1f}")
    for c in ("min", "q05", "q25", "median", "q75", "q95", "max"):
        disp[c] = disp[c].map(lambda v: f"{v:.0f}")
    disp["timeout_share"] = disp["timeout_share"].map(pct)
    disp["n"] = disp["n"].map(_n)
    sec.table("Game length in turns", disp.rename(columns={"n": "games", "timeout_share": "turn cap"}))
    sec.image(img, "Histograms of game length per player count")
    if len(wrong):
        w = wrong.copy()
        w["cell"] = _cells(w)
        disp = w.pivot(index="players", columns="per", values="cell").reset_index()
        disp = disp.rename(columns={"game": "of all games", "declaration": "of declarations"})
        per = w[w["per"] == "declaration"]
        sec.para("A failed declaration hands the win to the other team. It happened in "
                        + ", ".join(f"{pct(r.rate)} of declarations at {r.players}" for r in per.itertuples())
                        + " players.")
        sec.table("Wrong declarations", disp)
    if len(decl):
        d = decl.copy()
        d["cell"] = _cells(d)
        disp = d.pivot(index="players", columns="how", values="cell")
        disp = disp[[c for c in decl["how"].unique() if c in disp.columns]].reset_index()
        sec.para("How the games ended (share of games, 95% interval):")
        sec.table("How games ended", disp)
    return sec


VARIANT_OUTCOMES = {"order": "Order", "brotherhood": "Brotherhood", "solo": "Loge solo", "timeout": "turn cap",
                    "minority": "smaller team (odd N)"}


def variant_section(t: dict[str, pd.DataFrame]) -> Section:
    v = t.get("variants", pd.DataFrame())
    sec = Section("Rule variants against the base game", csv=["variants.csv"])
    if len(v) == 0:
        sec.para("No games with a rule variant (RULES R10) beside base games of the same configuration; "
                 "`kutsch-sim study --variants all` adds them.")
        return sec
    sec.para(
        "Each official variant (RULES R10) against the base game at the same player count and item set: the "
        "change in each side's share of the games, in percentage points with its 95% interval (variant minus "
        "base). *Smuggling* lets the giver of a trade-effect item keep it silent; *fortune-telling* lets a "
        "player win by naming the other team's holders of their victory items; the *advanced 3-player game* "
        "deals three association cards to each player (team = the majority of them), and a fight's look or "
        "a Monocle shows only one of them."
        + (" Where a variant's games are the base games' deals (the same seed and game index give the same "
           "deal; not in the advanced 3-player game, which deals its own way), each game is compared with its "
           "twin, with Newcombe's interval for paired proportions (column *paired*)."
           if "paired" in v and v["paired"].any() else ""))
    keys = ["variant", "players", "item_set"]
    base = v[v["outcome"] == "team"].set_index(keys)
    disp = pd.DataFrame(index=base.index)
    disp["games (variant / base)"] = [f"{int(a):,} / {int(b):,}" for a, b in zip(
        base["n_variant"], base["n_base"], strict=True)]
    for key, label in VARIANT_OUTCOMES.items():
        f = v[v["outcome"] == key].set_index(keys)
        if len(f):
            disp[label] = _dcells(f).reindex(disp.index)
    if "paired" in v:
        disp["paired"] = v[v["outcome"] == "team"].set_index(keys)["paired"].map({True: "yes", False: "no"})
    disp = disp.reset_index().rename(columns={"item_set": "item set"})
    sec.table("Variant minus base, percentage points (95% interval)", disp)
    return sec
