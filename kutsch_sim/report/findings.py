"""Every effect the report checks, one finding per fact, each with its test, its intervals and a
verdict that follows the interval printed beside it (the rules: :mod:`.checks`).

One fact, one finding: the Loge's solo rate, the drop in team wins it causes (the same games
seen from the teams) and its holders' win rate are one finding per player count. Headlines
that pool player counts (an occupation's or a starting item's rate over all counts) are
descriptive rows with the spread across counts beside them; the tests are per count.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .checks import Check, bracket, evaluate, fmt_value
from .stats import wilson, z_value

VERDICT_ORDER = {"clear": 0, "likely": 1, "noise": 2, "descriptive": 3}
COLUMNS = ["rank", "topic", "players", "subject", "test", "estimate", "lo", "hi", "level_corrected", "lo_corrected",
           "hi_corrected", "null", "expected_gap", "n", "verdict", "sentence"]
ANSWER_TOPICS = ("team balance", "Drink of Power", "Loge")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _sets(frame: pd.DataFrame) -> list[str]:
    return [x for x in dict.fromkeys(frame["item_set"].astype(str)) if x != "all"]


# ------------------------------------------------------------------ the three questions
def answer_checks(t: dict[str, pd.DataFrame]) -> list[Check]:
    """The checks behind the answers table: team balance per player count (item sets pooled),
    the Drink of Power per odd count, the Loge per count. Built from the tables of
    :func:`.tables.build_tables` (or any dict with ``order_share``, ``drink_effect``,
    ``loge_team``, ``solo`` and ``loge_holder``), so they can be remade per skill rung."""
    out: list[Check] = []
    s = t.get("order_share", pd.DataFrame())
    if len(s):
        for p, g in s.groupby("players"):
            w, n = int(g["wins"].sum()), int(g["n"].sum())
            if n:
                out.append(Check("team balance", int(p), "all item sets", "one", (w, n), n=n,
                                 words={"sets": len(g)}))
    out += _drink_checks(t.get("drink_effect", pd.DataFrame()))
    out += _loge_checks(t)
    return out


def _drink_checks(e: pd.DataFrame) -> list[Check]:
    out: list[Check] = []
    if len(e) == 0:
        return out
    sets = ", ".join(f"`{x}`" for x in _sets(e))
    for p, g in e[e["item_set"] == "all"].groupby("players"):
        g = g.set_index("team")
        if "minority" not in g.index:
            continue
        r = g.loc["minority"]
        words = {"on": r["rate_on"], "off": r["rate_off"], "sets": sets, "paired": bool(r["paired"])}
        if "majority" in g.index:
            gap_on = g.loc["majority", "rate_on"] - r["rate_on"]
            gap_off = g.loc["majority", "rate_off"] - r["rate_off"]
            words["closed"] = 1 - gap_on / gap_off if gap_off > 0 else np.nan
        if r["paired"]:
            counts = tuple(int(r[c]) for c in ("both_ways", "only_on", "only_off", "neither_way"))
            words.update(only_on=counts[1], only_off=counts[2])
            out.append(Check("Drink of Power", int(p), "smaller team", "paired", counts, n=int(r["n_on"]),
                             words=words))
        else:
            out.append(Check("Drink of Power", int(p), "smaller team", "two",
                             (int(r["wins_on"]), int(r["n_on"]), int(r["wins_off"]), int(r["n_off"])),
                             n=int(r["n_on"] + r["n_off"]), words=words))
    return out


def _loge_checks(t: dict[str, pd.DataFrame]) -> list[Check]:
    """One finding per count: team wins with the Loge in the deck minus without (its pairs of
    item sets pooled), with the solo rate and the holders' win rate as its words."""
    lt, solo, holder = (t.get(k, pd.DataFrame()) for k in ("loge_team", "solo", "loge_holder"))
    out: list[Check] = []
    if len(lt) == 0:
        return out
    team = lt[lt["outcome"] == "team"]
    for p, g in team.groupby("players"):
        counts = tuple(int(g[c].sum()) for c in ("wins_with", "n_with", "wins_without", "n_without"))
        words = {"pairs": ", ".join(f"`{a}` → `{b}`" for a, b in zip(g["set_without"], g["set_with"], strict=True))}
        sp = solo[solo["players"] == p] if len(solo) else solo
        if len(sp):
            w, n = int(sp["wins"].sum()), int(sp["n"].sum())
            lo, hi = wilson(w, n)
            words.update(solo=w / n, solo_lo=float(lo), solo_hi=float(hi))
        hp = holder[holder["players"] == p].set_index("holder") if len(holder) else holder
        if len(hp) and {"held it at some point", "never held it"} <= set(hp.index):
            words.update(held=hp.loc["held it at some point", "rate"], never=hp.loc["never held it", "rate"])
        out.append(Check("Loge", int(p), "team wins with the Loge in the deck", "two", counts,
                         n=counts[1] + counts[3], words=words))
    return out


# ------------------------------------------------------------------ everything else
def candidates(t: dict[str, pd.DataFrame]) -> list[Check]:
    """Every check of the findings, from the tables of :func:`.tables.build_tables`."""
    out = answer_checks(t)
    for r in t["order_share"].itertuples():
        if r.n > 0:
            out.append(Check("team balance by item set", int(r.players), str(r.item_set), "one", (int(r.wins), int(r.n)),
                             n=int(r.n)))
    m = t["minority"]
    if len(m):
        m = m[m["item_set"] == "all"].pivot(index="players", columns="team", values="wins")
        for players, row in m.iterrows():
            n = int(row["minority"] + row["majority"])
            if n:
                out.append(Check("smaller team", int(players), "all item sets", "one", (int(row["minority"]), n), n=n))
    out += _spreads(t.get("spreads"), t.get("occupations_by_players"))
    out += _start_items(t.get("start_items"), t.get("start_items_by_players"))
    out += _added_balance(t["order_share"], t["added_items"])
    out += _variants(t.get("variants"))
    return [c for c in out if c.n > 0]


def _spreads(sp: pd.DataFrame | None, by_players: pd.DataFrame | None) -> list[Check]:
    out: list[Check] = []
    if sp is None or len(sp) == 0:
        return out
    for r in sp.itertuples():
        name = (lambda x: f"seat {int(x)}") if r.what == "seat" else (lambda x: f"the {x}")
        words = {"best": name(r.best), "worst": name(r.worst), "best_rate": r.best_rate, "worst_rate": r.worst_rate,
                 "k": int(r.k), "expected": r.expected_gap}
        pooled = r.what == "occupation" and r.players == 0
        if pooled and by_players is not None and by_players["players"].nunique() > 1:
            b = by_players[by_players["occupation"] == r.best]
            words["range"] = (b.loc[b["excess"].idxmin()], b.loc[b["excess"].idxmax()])
        out.append(Check(r.what, int(r.players), f"{name(r.best)} vs {name(r.worst)}", "normal", est=float(r.diff),
                         se=float(r.se), pairs=1 if pooled else int(r.k) * (int(r.k) - 1) // 2,
                         n=int(r.k), descriptive=pooled, words=words))
    return out


def _start_items(pooled: pd.DataFrame | None, by_players: pd.DataFrame | None) -> list[Check]:
    out: list[Check] = []
    multi = by_players is not None and by_players["players"].nunique() > 1
    if by_players is not None:
        for r in by_players.itertuples():
            out.append(Check("starting item", int(r.players), r.item, "normal", est=float(r.diff),
                             se=float(r.diff_se), n=int(r.n_with), words={}))
    if pooled is not None and multi:
        for r in pooled.itertuples():
            b = by_players[by_players["item"] == r.item]
            out.append(Check("starting item", 0, r.item, "normal", est=float(r.diff), se=float(r.diff_se),
                             n=int(r.n_with), descriptive=True,
                             words={"range": (b.loc[b["diff"].idxmin()], b.loc[b["diff"].idxmax()])}))
    return out


VARIANT_WORDS = {"order": "the Order's win rate", "brotherhood": "the Brotherhood's win rate",
                 "solo": "how often a Loge player wins alone", "minority": "the smaller team's win rate"}


def _variants(v: pd.DataFrame | None) -> list[Check]:
    """Each rule variant (R10) against the base game, per outcome (variants.csv; paired where
    the variant replays the base game's deals)."""
    out: list[Check] = []
    if v is None or len(v) == 0:
        return out
    for r in v[v["outcome"].isin(list(VARIANT_WORDS))].itertuples():
        words = {"variant": r.variant, "set": r.item_set, "what": VARIANT_WORDS[r.outcome]}
        if bool(getattr(r, "paired", False)):
            counts = (int(r.both_ways), int(r.only_variant), int(r.only_base), int(r.neither_way))
            out.append(Check("rule variant", int(r.players), f"{r.variant} {r.item_set} {r.outcome}", "paired",
                             counts, n=int(r.n_variant), words=words | {"paired": True}))
        else:
            out.append(Check("rule variant", int(r.players), f"{r.variant} {r.item_set} {r.outcome}", "two",
                             (int(r.wins_variant), int(r.n_variant), int(r.wins_base), int(r.n_base)),
                             n=int(r.n_variant + r.n_base), words=words | {"paired": False}))
    return out


def _added_balance(share: pd.DataFrame, added: pd.DataFrame) -> list[Check]:
    """Order share of team wins with each unstamped item added to basic (the Loge: its own finding)."""
    out: list[Check] = []
    if len(added) == 0:
        return out
    pairs = added[["players", "item", "set_basic", "set_with"]].drop_duplicates()
    s = share.set_index(["players", "item_set"])
    for r in pairs.itertuples():
        with_, basic = (r.players, r.set_with), (r.players, r.set_basic)
        if "Loge" in r.item or with_ not in s.index or basic not in s.index:
            continue
        a, b = s.loc[with_], s.loc[basic]
        out.append(Check("item added to basic", int(r.players), r.item, "two",
                         (int(a["wins"]), int(a["n"]), int(b["wins"]), int(b["n"])), n=int(a["n"] + b["n"]),
                         words={"set": r.set_with, "basic": r.set_basic}))
    return out


# ------------------------------------------------------------------ sentences
def _body(c: Check, est: float) -> str:
    """What a check says, in plain words, before its bracket of intervals."""
    at = f"At {c.players} players" if c.players else "Over all player counts"
    w, v = c.words, fmt_value(est, c)
    if c.topic == "team balance":
        sets = f"all {w['sets']} item sets" if w["sets"] > 1 else "one item set"
        return f"{at} ({sets}) the Order takes {v} of the games a team wins"
    if c.topic == "team balance by item set":
        return f"{at} with `{c.subject}` the Order takes {v} of the games a team wins"
    if c.topic == "smaller team":
        return f"{at} (Drink of Power on, all item sets) the smaller team takes {v} of the games a team wins"
    if c.topic == "Drink of Power":
        return f"{at} the Drink of Power moves the smaller team's win rate from {_pct(w['off'])} to {_pct(w['on'])}, {v} points"
    if c.topic == "Loge":
        solo = (f"a Loge player wins alone in {_pct(w['solo'])} of games ({_pct(w['solo_lo'])}–{_pct(w['solo_hi'])}) "
                "and " if "solo" in w else "")
        return f"{at} with the Loge in the deck ({w['pairs']}) {solo}team wins change by {v} points"
    if c.topic in ("seat", "occupation") and c.descriptive:
        lo, hi = w.get("range", (None, None))
        spread = (f"; but {w['best'].removeprefix('the ')}'s edge over the average seat runs from "
                  f"{_pts(lo['excess'])} points at {lo['players']} to {_pts(hi['excess'])} at {hi['players']} players: "
                  "read it per count" if lo is not None else "")
        return (f"{at} {w['best']} wins {_pct(w['best_rate'])} and {w['worst']} {_pct(w['worst_rate'])}: "
                f"{v} points{spread}")
    if c.topic in ("seat", "occupation"):
        return (f"{at} {w['best']} wins {_pct(w['best_rate'])} and {w['worst']} {_pct(w['worst_rate'])}: a spread of "
                f"{v} points, where chance alone would give {100 * w['expected']:.1f} on average among these "
                f"{w['k']} {c.topic}s")
    if c.topic == "starting item":
        if c.descriptive:
            lo, hi = w["range"]
            return (f"{at}, adjusted for the player count, starting with the {c.subject} changes a player's "
                    f"win rate by {v} points; per count from {_pts(lo['diff'])} at {lo['players']} to "
                    f"{_pts(hi['diff'])} at {hi['players']} players")
        return f"{at} starting with the {c.subject} ({c.n:,} seat-games) changes a player's win rate by {v} points"
    if c.topic == "rule variant":
        games = f"the same {c.n:,} deals played both ways" if w["paired"] else f"{c.n:,} games"
        return (f"{at} the {w['variant']} variant (`{w['set']}`, {games}) changes {w['what']} by {v} points "
                "against the base game")
    return (f"{at} adding the {c.subject} to `basic` shifts the Order's share of team wins by {v} points "
            f"(`{w['set']}` against `{w['basic']}`)")


def _after(c: Check) -> str:
    """What a finding adds after its verdict: the Drink's changed deals, the Loge's holders."""
    w = c.words
    if c.topic == "Drink of Power":
        how = (f" The same {c.n:,} deals of {w['sets']} were played without and with it: {w['only_on']:,} won only "
               f"with it, {w['only_off']:,} only without." if w["paired"] else
               f" Games of {w['sets']} without the Drink are other deals.")
        closed = (f" It closes {100 * w['closed']:.0f}% of the gap to the larger team."
                  if np.isfinite(w.get("closed", np.nan)) else "")
        return how + closed
    if c.topic == "Loge" and "held" in w:
        return (f" Who held it at some point wins {_pct(w['held'])}, who never did {_pct(w['never'])} (descriptive: "
                "every solo winner held it, and who comes to hold it is decided in play).")
    return ""


def _fairness_note(rows: pd.DataFrame) -> None:
    """An item added to basic is judged on the pair and, for fairness, each side against 50%:
    a pair can differ because the `basic` cell itself sits off 50%."""
    cells = rows[rows["topic"] == "team balance by item set"].set_index(["players", "subject"])
    for i in rows.index[rows["topic"] == "item added to basic"]:
        p, item_set = rows.at[i, "players"], rows.at[i, "_set"]
        parts = []
        for label in (item_set, "basic"):
            if (p, label) in cells.index:
                cell = cells.loc[(p, label)]
                parts.append(f"`{label}` {_pct(cell['estimate'])} ({cell['verdict']})")
        if parts:
            rows.at[i, "sentence"] += " Each against 50%: " + ", ".join(parts) + "."


def rank_findings(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every check with its intervals, verdict and sentence, strongest evidence first.

    Columns (COLUMNS): rank, topic, players (0 = pooled), subject, test, estimate, lo, hi (95%,
    for a spread over its pairs), level_corrected, lo_corrected, hi_corrected (the interval
    the verdict uses; NaN on descriptive rows), null (0.5 or 0), expected_gap (a spread's
    size under no effect), n, verdict (clear/likely/noise/descriptive), sentence. Sorted by
    verdict, then by the distance of the estimate from the null in half-widths of its 95% interval.
    """
    cands = candidates(t)
    m = sum(not c.descriptive for c in cands)
    rows = []
    for c in cands:
        row = evaluate(c, m)
        if np.isnan(row["estimate"]):
            continue
        row["expected_gap"] = c.words.get("expected", np.nan) if c.topic in ("seat", "occupation") else np.nan
        row["sentence"] = f"{_body(c, row['estimate'])} {bracket(c, row)}.{_after(c)}"
        row["_set"] = c.words.get("set", "")
        rows.append(row)
    if not rows:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.DataFrame(rows)
    _fairness_note(out)
    out["_v"] = out["verdict"].map(VERDICT_ORDER)
    half = ((out["hi"] - out["lo"]) / 2).replace(0, np.nan)
    out["_d"] = ((out["estimate"] - out["null"]).abs() / half).fillna(0.0)
    out = out.sort_values(["_v", "_d"], ascending=[True, False], ignore_index=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    return out[COLUMNS]


def summary(findings: pd.DataFrame, noise_examples: int = 3) -> tuple[str, list[str], str, list[str]]:
    """Plain-language summary for the findings section: ``(intro, per_topic, noise_intro, noise)``.

    ``per_topic`` has one line per topic with a clear or likely check (its strongest one, and
    how many of its checks are clear and likely); ``noise`` the largest-looking checks that are
    noise. Descriptive rows are counted apart and never as effects.
    """
    if len(findings) == 0:
        return "There are not enough games to compare anything.", [], "", []
    tested = findings[findings["verdict"] != "descriptive"]
    m = len(tested)
    v = tested["verdict"].value_counts()
    described = len(findings) - m
    intro = (f"{m} checks form one family, and each verdict allows for all of them (Bonferroni): {v.get('clear', 0)} "
             f"are clear, {v.get('likely', 0)} likely (about {0.05 * m:.0f} checks would pass the plain 95% test by "
             f"luck alone if nothing were real) and {v.get('noise', 0)} noise."
             + (f" {described} descriptive rows (pooled headlines, each with its spread across player counts) are "
                "shown in `findings.csv` and counted in none of these." if described else "")
             + " Per kind of check, its strongest case first:")
    lines = []
    for topic, group in tested[tested["verdict"] != "noise"].groupby("topic", sort=False):
        r = group.iloc[0]
        total = int((tested["topic"] == topic).sum())
        k = group["verdict"].value_counts()
        lines.append(f"**{topic}** ({k.get('clear', 0)} clear, {k.get('likely', 0)} likely of {total}): {r.sentence}")
    noise = tested[tested["verdict"] == "noise"]
    if len(noise) == 0:
        return intro, lines, "", []
    per_topic = noise.groupby("topic", sort=False).size()
    counts = "; ".join(f"{topic} {k} of {int((tested['topic'] == topic).sum())}" for topic, k in per_topic.items())
    noise_intro = f"**Noise** (the 95% interval covers no effect): {counts}. The largest-looking of them:"
    return intro, lines, noise_intro, [r.sentence for r in noise.head(noise_examples).itertuples()]


def rung_estimates(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The answers' estimates from one rung's tables, with the 95% interval of the answers' test
    and the standard error read off it (topic, players, estimate, lo, hi, se)."""
    rows = []
    z = z_value()
    for c in answer_checks(t):
        row = evaluate(c, 1)
        rows.append({"topic": c.topic, "players": c.players, "estimate": row["estimate"], "lo": row["lo"],
                     "hi": row["hi"], "se": (row["hi"] - row["lo"]) / (2 * z)})
    return pd.DataFrame(rows, columns=["topic", "players", "estimate", "lo", "hi", "se"])
