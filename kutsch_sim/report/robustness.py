"""Robustness across a skill ladder: the report's headline numbers at every rung of bot skill,
and whether each holds between the two strongest rungs.

When the results hold several rungs (a ``rung`` column, ordered by ``rung_level``; written by
``kutsch-sim ladder``), every other section is the top rung's. This one takes each headline
number at every rung from that rung's own tables (:func:`rung_tables`, the functions of
:mod:`.tables` and :mod:`.seats`; the answers' numbers through :func:`.findings.rung_estimates`,
so with the same intervals as the answers), with its 95% interval, and gives it a verdict from
the top two rungs (:func:`verdicts`):

* ``robust``: the difference between them is within its 95% interval (the rungs taken as
  independent samples, although they share their deals) and under :data:`CLOSE` (2 points);
* ``direction only``: not robust, but the value is on the same side of its reference at both
  (50% for the Order's share, the larger team's win rate for the smaller team's, 0 for the
  rest) -- and for the best occupation, it is the same occupation;
* ``bot-dependent``: otherwise; the number describes these bots more than the game.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from . import seats as st
from . import tables
from .answers import RUNG
from .data import seat_frame, standard_runs
from .findings import rung_estimates
from .sections import Section, diff_cell, rate_cell
from .stats import wilson, z_value

CLOSE = 0.02  # the top two rungs' values may differ by this much (2 points) and be robust
VERDICTS = ("robust", "direction only", "bot-dependent")


class Headline(NamedTuple):
    label: str  # what the number is, in the table
    short: str  # its plot's title
    share: bool  # a rate or share (%) rather than a difference (points)


HEADLINES = {
    "order": Headline("the Order's share of team wins (even counts)", "Order's share of team wins", True),
    "smaller": Headline("the smaller team's win rate, Drink on (odd counts)",
                        "smaller team's win rate\n(dashed: the larger team's)", True),
    "drink": Headline("Drink of Power: the smaller team's win rate on − off (odd counts)",
                      "Drink of Power, on − off", False),
    "solo": Headline("Loge solo wins, share of games", "Loge solo wins", True),
    "loge": Headline("team wins with the Loge in the deck − without", "Loge: team wins, in − out", False),
    "occupation": Headline("the best occupation's win rate − the average seat's (all counts)",
                           "best occupation − average seat", False),
    "seat": Headline("the start seat's win rate − the average seat's", "start seat − average seat", False),
}
ANSWER_TOPICS = {"order": "team balance", "drink": "Drink of Power", "loge": "Loge"}  # the answers' topic of a headline
VALUE_COLUMNS = ["headline", "players", "rung", "rung_level", "subject", "estimate", "lo", "hi", "reference"]
VERDICT_COLUMNS = ["headline", "players", "below", "top", "estimate_below", "estimate_top", "subject_below",
                   "subject_top", "diff", "diff_lo", "diff_hi", "verdict"]


def rung_tables(d: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The tables the headline numbers need, for one rung's games (a subset of
    :func:`.tables.build_tables`, whose result serves as well)."""
    std = standard_runs(d)
    long = seat_frame(std)
    return {"order_share": tables.order_share(std), "minority": tables.minority_rates(std),
            "drink_effect": tables.drink_effect(d), "loge_team": tables.loge_team_effect(std),
            "solo": tables.solo_rates(std), "loge_holder": st.loge_holder_rates(std, long),
            "seats": st.seat_rates(std, long), "occupations": st.occupation_rates(std, long, by_players=False)}


def headline_values(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One rung's headline numbers from its tables: headline (a key of :data:`HEADLINES`),
    players (0 = all counts), subject (the best occupation's name, else ""), estimate, lo, hi
    (95%), reference (the value its direction is taken against)."""
    rows = []

    def add(key: str, players: int, est: float, lo: float, hi: float, ref: float, subject: str = "") -> None:
        rows.append({"headline": key, "players": int(players), "subject": subject, "estimate": float(est),
                     "lo": float(lo), "hi": float(hi), "reference": float(ref)})

    est = rung_estimates(t).set_index("topic")
    for key, topic in ANSWER_TOPICS.items():
        for r in est.loc[[topic]].itertuples() if topic in est.index else ():
            if key != "order" or r.players % 2 == 0:  # at odd counts the smaller team's rows answer
                add(key, r.players, r.estimate, r.lo, r.hi, 0.5 if key == "order" else 0.0)
    m = t.get("minority", pd.DataFrame())
    if len(m):
        m = m[m["item_set"] == "all"].set_index(["players", "team"])
        for p in sorted({p for p, _ in m.index}):
            if (p, "minority") in m.index and (p, "majority") in m.index:
                r = m.loc[(p, "minority")]
                add("smaller", p, r["rate"], r["lo"], r["hi"], m.loc[(p, "majority"), "rate"])
    solo = t.get("solo", pd.DataFrame())
    if len(solo):
        for p, g in solo.groupby("players"):
            w, n = int(g["wins"].sum()), int(g["n"].sum())
            lo, hi = (float(x) for x in wilson(w, n))
            add("solo", p, w / n, lo, hi, 0.0)
    occ = t.get("occupations", pd.DataFrame())
    if len(occ):
        b = occ.loc[occ["rate"].idxmax()]
        add("occupation", 0, b["excess"], b["lo"] - b["base"], b["hi"] - b["base"], 0.0, str(b["occupation"]))
    seats = t.get("seats", pd.DataFrame())
    for r in seats[seats["seat"] == 0].itertuples() if len(seats) else ():
        add("seat", r.players, r.excess, r.lo - r.base, r.hi - r.base, 0.0)
    out = pd.DataFrame(rows, columns=[c for c in VALUE_COLUMNS if c not in ("rung", "rung_level")])
    order = {k: i for i, k in enumerate(HEADLINES)}
    return out.sort_values(["headline", "players"], key=lambda s: s.map(order) if s.name == "headline" else s,
                           ignore_index=True)


def ladder_values(by_rung: dict[object, dict[str, pd.DataFrame]]) -> pd.DataFrame:
    """Every rung's headline numbers (``by_rung``: each rung's tables, weakest first), long:
    :data:`VALUE_COLUMNS`, ``rung_level`` counting from 1."""
    parts = [headline_values(t).assign(rung=str(r), rung_level=i) for i, (r, t) in enumerate(by_rung.items(), 1)]
    return pd.concat(parts, ignore_index=True)[VALUE_COLUMNS]


def same_deals(d: pd.DataFrame, levels: list) -> bool:
    """Whether every rung of ``d`` (a ``rung`` column) played the same games on the same deals:
    the same (players, item set, Drink switch, seed, game index), each dealt alike
    (:func:`.tables.deal_key`: associations, occupations, starting items)."""
    keys = ["players", "item_set", "drink", "seed", "game"]
    first = None
    for r in levels:
        g = d[d[RUNG] == r]
        k = pd.DataFrame({c: g[c].astype(str).to_numpy() for c in keys}).assign(deal=tables.deal_key(g))
        k = k.sort_values(keys, ignore_index=True)
        if first is None:
            first = k
        elif not k.equals(first):
            return False
    return True


def _sign(x: float) -> int:
    return int(np.sign(x)) if np.isfinite(x) else 0


def verdicts(values: pd.DataFrame) -> pd.DataFrame:
    """Each headline number's verdict from the top two rungs of ``values`` (:func:`ladder_values`):
    :data:`VERDICT_COLUMNS`, ``diff`` = top − below with its 95% interval (the square root of the
    sum of the two variances read off their 95% intervals). A number only the top rung has gets
    no verdict (``–``)."""
    levels = sorted(values["rung_level"].unique())
    z = z_value()
    top = values[values["rung_level"] == levels[-1]]
    below = values[values["rung_level"] == levels[-2]]
    both = top.merge(below, on=["headline", "players"], how="left", suffixes=("_top", "_below"))
    rows = []
    for r in both.itertuples():
        d = r.estimate_top - r.estimate_below
        h = z * float(np.hypot((r.hi_top - r.lo_top) / (2 * z), (r.hi_below - r.lo_below) / (2 * z)))
        same = r.headline != "occupation" or r.subject_top == r.subject_below
        if not np.isfinite(d):
            verdict = "–"
        elif same and abs(d) <= h and abs(d) <= CLOSE:
            verdict = "robust"
        elif same and _sign(r.estimate_top - r.reference_top) == _sign(r.estimate_below - r.reference_below) != 0:
            verdict = "direction only"
        else:
            verdict = "bot-dependent"
        rows.append({"headline": r.headline, "players": r.players, "below": r.rung_below, "top": r.rung_top,
                     "estimate_below": r.estimate_below, "estimate_top": r.estimate_top,
                     "subject_below": r.subject_below if isinstance(r.subject_below, str) else "",
                     "subject_top": r.subject_top, "diff": d, "diff_lo": d - h, "diff_hi": d + h, "verdict": verdict})
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _value(x: float, share: bool) -> str:
    return f"{100 * x:.1f}%" if share else f"{100 * x:+.1f}"


def _where(players: int) -> str:
    return f"at {players} players" if players else "over all counts"


def answer_robustness(v: pd.DataFrame) -> pd.DataFrame:
    """The verdicts of the headlines the answers table shows (topic, players, robustness: the
    verdict with the top two rungs' values)."""
    rows = []
    for r in v[v["headline"].isin(list(ANSWER_TOPICS))].itertuples():
        share = HEADLINES[r.headline].share
        text = r.verdict if r.verdict == "–" else (
            f"{r.verdict} ({r.below}: {_value(r.estimate_below, share)}, {r.top}: {_value(r.estimate_top, share)})")
        rows.append({"topic": ANSWER_TOPICS[r.headline], "players": r.players, "robustness": text})
    return pd.DataFrame(rows, columns=["topic", "players", "robustness"])


def findings_verdicts(findings: pd.DataFrame, v: pd.DataFrame) -> pd.Series:
    """Per row of ``findings``: the verdict of the headline number it tests (team balance at even
    counts, the Drink of Power, the Loge), else ``""``."""
    key = {(ANSWER_TOPICS[r.headline], r.players): r.verdict for r in v.itertuples() if r.headline in ANSWER_TOPICS}
    return pd.Series([key.get((t, p), "") for t, p in zip(findings["topic"], findings["players"], strict=True)],
                     index=findings.index, dtype=object)


def findings_paragraph(findings: pd.DataFrame) -> str:
    """The findings' robustness verdicts in one sentence (``findings`` with a ``robustness`` column)."""
    have = findings[findings["robustness"].isin(VERDICTS)]
    parts = []
    for verdict in VERDICTS:
        g = have[have["robustness"] == verdict]
        where = [f"{topic} at {', '.join(map(str, sorted(gg['players'])))} players"
                 for topic, gg in g.groupby("topic", sort=False)]
        if where:
            parts.append(f"*{verdict}*: " + ", ".join(where))
    if not parts:
        return ""
    return ("Across the skill ladder (section *Robustness across the skill ladder*), the findings that test a "
            "headline number are " + "; ".join(parts) + ".")


def _cell(r, share: bool) -> str:
    cell = rate_cell(r.estimate, r.lo, r.hi) if share else diff_cell(r.estimate, r.lo, r.hi)
    return f"{r.subject}: {cell}" if r.subject else cell


def robustness_section(values: pd.DataFrame, v: pd.DataFrame, games: pd.Series, shared: bool,
                       img: str | None) -> Section:
    """The section: what the rungs are, the verdict rules, the values at every rung (table and
    plot) and the verdicts. ``games``: each rung's number of games, in rung order; ``shared``:
    whether they played the same deals (:func:`same_deals`)."""
    sec = Section("Robustness across the skill ladder", csv=["robustness.csv", "robustness_verdicts.csv"])
    names = list(games.index)
    below, top = names[-2], names[-1]
    sec.para(
        f"The results hold {len(names)} rungs of play, weakest first: " + ", ".join(
            f"`{r}` ({int(n):,} games)" for r, n in games.items()) + ". "
        + ("Every rung played the same deals: the same games, each with the same associations, occupations and "
           "starting items (checked game by game), so only the play differs. " if shared else
           "The rungs did not play the same deals, so their numbers differ by the luck of the deals as well. ")
        + f"Every other section is the top rung's (`{top}`). Here each headline number is shown at every rung "
        f"with its 95% interval, and judged on the two strongest rungs, `{below}` and `{top}`: **robust** when "
        "their difference is within its 95% interval (the rungs taken as independent samples"
        + (", although they share their deals" if shared else "") + f") and under {100 * CLOSE:.0f} points; "
        "**direction only** when it is not, but the value is on the same side at both rungs (of 50% for the "
        "Order's share, of the larger team's win rate for the smaller team's, of 0 for the others; for the best "
        "occupation, and the same occupation); **bot-dependent** otherwise: the number then describes these bots "
        "more than the game.")
    counts = v["verdict"].value_counts()
    sec.para(f"Of {len(v)} numbers: " + ", ".join(f"{int(counts.get(k, 0))} {k}" for k in VERDICTS) + "."
             + (f" {int(counts.get('–', 0))} only the top rung has." if counts.get("–", 0) else ""))
    sec.image(img, f"Each headline number at every rung (95% intervals); the verdict compares {below} and {top}")
    rows = []
    verdict = v.set_index(["headline", "players"])
    for (key, players), g in values.groupby(["headline", "players"], sort=False):
        what, _, share = HEADLINES[key]
        row = {"number": what, "players": str(players) if players else "all"}
        cells = {r.rung: _cell(r, share) for r in g.itertuples()}
        row |= {r: cells.get(r, "–") for r in names}
        if (key, players) in verdict.index:
            x = verdict.loc[(key, players)]
            row[f"{top} − {below} (95%)"] = diff_cell(x["diff"], x["diff_lo"], x["diff_hi"])
            row["verdict"] = x["verdict"]
        rows.append(row)
    sec.table("Headline numbers at each rung (rate or points, 95% interval) and their verdict from the top two "
              "rungs", pd.DataFrame(rows))
    return sec
