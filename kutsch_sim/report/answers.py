"""The report's first and last words: the answers table (the three questions the tool exists
for), how the verdicts are made, and the provenance appendix.

The answers are checks of the findings' family (:func:`.findings.answer_checks`), so an answer
and its finding always carry the same interval and verdict. When the results hold several
skill rungs (a ``rung`` column; the report is then made from the top rung), each answer gets the
robustness verdict of its number (:mod:`.robustness`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import plots
from .checks import TESTS, evaluate, fmt_interval, fmt_level, fmt_value
from .findings import answer_checks
from .sections import Section

RUNG, RUNG_LEVEL = "rung", "rung_level"
QUESTIONS = {"team balance": "Are the teams even?",
             "Drink of Power": "What does the Drink do for the smaller team?",
             "Loge": "What does the Loge do?"}


def rungs(df: pd.DataFrame) -> list:
    """The skill rungs in ``df``, weakest first, or ``[]`` without a ``rung`` column or with a
    single rung. Rungs are names (bot profiles), so their order is the ``rung_level`` column's
    (a ladder writes 1 for the weakest); without it, the values sorted."""
    if RUNG not in df.columns:
        return []
    if RUNG_LEVEL in df.columns:
        pairs = df[[RUNG, RUNG_LEVEL]].drop_duplicates()
        values = [r for _, r in sorted(zip(pairs[RUNG_LEVEL].astype(int), pairs[RUNG], strict=True))]
    else:
        values = sorted(pd.unique(df[RUNG]))
    return values if len(values) > 1 else []


def _answer_words(c, row) -> str:
    w, v = c.words, row["verdict"]
    if c.topic == "team balance":
        if v == "noise":
            return "even"
        return ("the Order" if row["estimate"] > 0.5 else "the Brotherhood") + " ahead"
    if c.topic == "Drink of Power":
        closed = f"; closes {100 * w['closed']:.0f}% of the gap" if np.isfinite(w.get("closed", np.nan)) else ""
        return f"smaller team wins {100 * w['off']:.1f}% → {100 * w['on']:.1f}% of games{closed}"
    solo = f"solo wins end {100 * w['solo']:.1f}% of games; " if "solo" in w else ""
    return f"{solo}team wins {fmt_value(row['estimate'], c)} points"


def answers_table(t: dict[str, pd.DataFrame], m: int, robust: pd.DataFrame | None = None) -> pd.DataFrame:
    """The answers as a display table (strings), in the family of ``m`` checks of the findings.

    Columns: question, players, answer, measure, estimate, 95% interval, corrected interval,
    verdict, and ``robustness`` only when ``robust`` (from :func:`.robustness.answer_robustness`) is given.
    """
    rows = []
    for c in answer_checks(t):
        row = evaluate(c, m)
        if np.isnan(row["estimate"]):
            continue
        measure = {"team balance": "Order's share of team wins",
                   "Drink of Power": "smaller team's win rate, Drink on − off" + (" (same deals)" if c.kind == "paired"
                                                                                   else ""),
                   "Loge": "team wins, Loge in − out of the deck"}[c.topic]
        rows.append({"question": QUESTIONS[c.topic], "players": c.players, "answer": _answer_words(c, row),
                     "measure": measure, "estimate": fmt_value(row["estimate"], c),
                     "95% interval": fmt_interval(row["lo"], row["hi"], c),
                     f"corrected interval ({fmt_level(row['level_corrected'])})":
                         fmt_interval(row["lo_corrected"], row["hi_corrected"], c),
                     "verdict": row["verdict"], "_topic": c.topic})
    out = pd.DataFrame(rows)
    if len(out) and robust is not None and len(robust):
        r = robust.set_index(["topic", "players"])["robustness"]
        out["robustness"] = [r.get((a, b), "–") for a, b in zip(out["_topic"], out["players"], strict=True)]
    return out.drop(columns="_topic") if len(out) else out


def answers_section(t: dict[str, pd.DataFrame], findings: pd.DataFrame, robust: pd.DataFrame | None = None,
                    top_rung=None) -> Section:
    sec = Section("Answers", csv=["answers.csv"])
    m = int((findings["verdict"] != "descriptive").sum()) if len(findings) else 0
    table = answers_table(t, m, robust) if m else pd.DataFrame()
    if len(table) == 0:
        sec.para("There are not enough games under the standard rules to answer anything.")
        return sec
    sec.para(
        "The three questions this report exists for, at each player count, as these bots play the game. "
        "**Teams**: the Order's share of the games won by a team, item sets pooled; 50% is even at every count "
        "(at odd counts the smaller team is the Order or the Brotherhood at random, R2.2). **Drink of Power**: "
        "the smaller team's win rate with the Drink minus without it, and how much of the gap to the larger "
        "team it closes. **Loge**: how often its holder wins alone, and how far team wins fall when it is in "
        "the deck (the same games seen from the teams: one fact, one verdict). Each verdict follows from the "
        f"corrected interval beside it: *clear* if it excludes no effect, *likely* if only the 95% interval "
        f"does, *noise* otherwise; the correction runs over all {m} checks of the findings below "
        "(how: *How the verdicts are made*).")
    if robust is not None and len(robust):
        sec.para(f"The results hold several skill rungs; every number here is the top rung's (`{top_rung}`). "
                 "*Robustness* is the verdict of the same number in *Robustness across the skill ladder*, from the "
                 "three strongest rungs (both, with two; their values in brackets) and the 95% intervals of their "
                 "differences (paired, game by game, where the rungs played the same deals): *robust* (shown not to move more than 3 points), *direction only* "
                 "(shown to move more, on the same side at every rung), *bot-dependent* (shown to move more and "
                 "change side: the answer then describes these bots more than the game) or *undetermined (too few "
                 "games)* (the games cannot tell; with the games a configuration would take). The Order's share is "
                 "judged at even counts only: at odd counts the Order is the smaller team half the time (R2.2), "
                 "and the smaller team's own number answers there.")
    sec.table("Answers (the interval the verdict uses is the corrected one)", table)
    return sec


def methods_section(findings: pd.DataFrame) -> Section:
    sec = Section("How the verdicts are made")
    m = int((findings["verdict"] != "descriptive").sum()) if len(findings) else 0
    level = fmt_level(1 - 0.05 / max(m, 1))
    sec.para("One test per kind of check; every verdict uses the interval printed beside it:")
    sec.bullets([
        f"a share against 50% (team balance, the smaller team's share of team wins): {TESTS['one']};",
        f"two groups of different games (the Loge in or out of the deck, an item added to `basic`, a variant "
        f"without twins): {TESTS['two']};",
        f"the same deals played two ways (the Drink of Power on and off, a variant with twins): {TESTS['paired']}; "
        "only the deals whose result changed carry the difference, and their counts are printed;",
        f"groups of seats measured in the same games (a starting item per count, best minus worst seat or "
        f"occupation): {TESTS['normal']}. A best-minus-worst spread is picked from k(k-1)/2 pairs, so its "
        "interval is widened for them, and the spread chance alone would give (simulated from the rates' "
        "clustered covariance) is printed beside it: a gap is only a finding beyond that.",
    ])
    sec.para(
        f"**The family.** All {m} checks of the findings table form one family, corrected by Bonferroni: a check's "
        f"corrected interval is at 1 − 0.05/{m} = {level} (a spread's at 1 − 0.05/({m} × its pairs)). *Clear*: the "
        "corrected interval excludes no effect (50%, or 0 points). *Likely*: only the plain 95% interval does; "
        f"about {0.05 * max(m, 1):.0f} such would appear by luck among {m} checks with no effect at all. *Noise*: "
        "the 95% interval covers no effect. Bounds are printed with as many decimals as it takes to show on "
        "which side of no effect they fall. *Descriptive* rows (the Loge holders' win rate, headlines pooled over "
        "player counts) are shown with their 95% interval and are not tests: they are neither in the family nor "
        "counted as effects.")
    sec.para(
        "Seats of one game win and lose together (or against each other), so where a group can hold several "
        "seats of a game (seats that started with a Key, seats that held the Loge) or two groups are compared in "
        "the same games (best against worst seat or occupation, with against without an item), the variances "
        "are clustered by game, measured on the games themselves.")
    return sec


def provenance_section(df: pd.DataFrame, std: pd.DataFrame, command: str | None, manifest: dict | None,
                       ladder: tuple[object, int, int] | None = None) -> Section:
    """The command, the manifest's facts and what the data hold; ``ladder``: (the top rung, how many
    rungs, the games of all of them) when ``df`` is a ladder's top rung."""
    cmd = command or (manifest or {}).get("command") or "not recorded"
    cmd = (" ".join(map(str, cmd)) if isinstance(cmd, (list, tuple)) else str(cmd)).replace("`", "'")
    sec = Section("Appendix: provenance")
    sec.para(f"**Produced by:** `{cmd}`")
    if manifest:
        # 'report' is a path relative to where the run was made: wrong once the report is copied
        facts = {k: v for k, v in manifest.items()
                 if isinstance(v, (str, int, float, bool)) and k not in ("command", "report")}
        sec.bullets([f"{k}: `{v}`" for k, v in list(facts.items())[:12]])
    if len(df) == 0:
        sec.para("**Data:** no games.")
        return sec
    counts = sorted(int(x) for x in df["players"].unique())
    sets = plots.set_order(df["item_set"].astype(str).unique())
    off = int((~df["drink"] & (df["players"] % 2 == 1)).sum())
    bots = sorted({str(b) for p in range(10) if f"bot_{p}" in df for b in df[f"bot_{p}"].unique()} - {"none"})
    errors = int((df["winner"] == "error").sum())
    house = sorted({v for label in df["variant"].astype(str).unique() for v in label.split("+") if "=" in v})
    sec.para(
        f"**Data:** {len(df):,} games"
        + (f" of the top rung, `{ladder[0]}` (the results hold {ladder[2]:,} games over {ladder[1]} rungs)"
           if ladder else "")
        + f" at {', '.join(map(str, counts))} players; item sets "
        f"{', '.join(f'`{s}`' for s in sets)}; variants {', '.join(sorted(map(str, df['variant'].unique())))}; "
        + (f"house rules in force (docs/rules.md, House rules): {', '.join(f'`{h}`' for h in house)}; "
           if house else "")
        + f"bot profiles {', '.join(bots) or 'not recorded'}; {df['seed'].nunique()} master seed(s). "
        f"{len(std):,} games use the standard rules (base variant, Drink of Power on at odd counts) and make up "
        f"every table except the Drink-of-Power comparison, which also uses the {off:,} games played with the "
        "Drink switched off, and the rule variants'."
        + (" No item set with the Coat (the item) is played at 10 players, where the Coat is not used (R2.3)."
           if 10 in counts and any("Coat" in x.replace("Coat of Armor", "") for x in sets) else "")
        + " (The Coat, a trade-effect item, is not the Coat of Armor of the Loge, the solo-victory item.)"
        * any("Coat" in x for x in sets)
        + (f" **{errors:,} games ended in an engine error.**" if errors else ""))
    return sec
