"""Rank the largest imbalances in the report tables, each with its interval, in plain words.

Every candidate is a proportion compared with 50% (balance between two sides) or a
difference of two proportions compared with 0 (an effect). Its verdict:

* ``clear`` - the 95% interval excludes the null even after a Bonferroni correction for
  all candidates checked (so it is very unlikely to be luck among many checks);
* ``likely`` - the plain 95% interval excludes the null, the corrected one does not;
* ``noise`` - the 95% interval covers the null: not distinguishable from chance.

Spreads (best minus worst seat or occupation) are a maximum over pairs, so their
intervals are widened for the number of pairs compared (Bonferroni) before anything else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .stats import LEVEL, newcombe_diff, wilson, z_value

VERDICT_ORDER = {"clear": 0, "likely": 1, "noise": 2}
COLUMNS = ["rank", "topic", "players", "subject", "estimate", "lo", "hi", "null", "n", "verdict", "sentence"]


@dataclass
class Candidate:
    """One checked effect: ``w1/n1`` against 50% (no ``n2``), or ``w1/n1 - w2/n2`` against 0."""

    topic: str
    players: int  # 0 = all player counts pooled
    subject: str
    w1: int
    n1: int
    w2: int | None = None
    n2: int | None = None
    pairs: int = 1  # comparisons this one was picked from (spreads)
    words: tuple = ()  # values the sentence needs
    est: float | None = None  # an estimate made otherwise (stratified, paired), with ...
    se: float | None = None  # ... its standard error (a normal interval at other levels) and ...
    ci: tuple[float, float] | None = None  # ... its own interval at the report's level (LEVEL)


def _from_table(d: float, lo: float, hi: float, level: float = LEVEL) -> dict:
    """Candidate fields from a table's estimate and interval at ``level``: the estimate, a
    standard error (half the width over z, for the corrected levels) and the interval itself."""
    return {"est": float(d), "se": float(hi - lo) / (2 * z_value(level)), "ci": (float(lo), float(hi))}


def _interval(c: Candidate, level: float) -> tuple[float, float, float]:
    if c.est is not None and c.ci is not None and abs(level - LEVEL) < 1e-12:
        return c.est, c.ci[0], c.ci[1]
    if c.est is not None and c.se is not None:
        h = z_value(level) * c.se
        return c.est, c.est - h, c.est + h
    if c.n2 is None:
        lo, hi = wilson(c.w1, c.n1, level)
        return c.w1 / c.n1, float(lo), float(hi)
    d, lo, hi = newcombe_diff(c.w1, c.n1, c.w2, c.n2, level)
    return float(d), float(lo), float(hi)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _change(est: float) -> str:
    return "raises" if est > 0 else "lowers" if est < 0 else "does not change"


def _sentence(c: Candidate, est: float, lo: float, hi: float, verdict: str) -> str:
    """Plain-language statement of one candidate."""
    if c.n2 is None:
        span = f"{_pct(lo)}–{_pct(hi)}"
        tail = ("not distinguishable from an even split" if verdict == "noise"
                else f"{abs(100 * (est - 0.5)):.1f} points from an even split")
    else:
        span = f"{_pts(lo)} to {_pts(hi)} points"
        tail = "not distinguishable from no difference" if verdict == "noise" else (
            "a real difference" if verdict == "clear" else
            "passes the plain 95% test only, which some checks among this many pass by chance")
    at = f"At {c.players} players" if c.players else "Over all player counts"
    w = c.words
    if c.topic == "team balance":
        body = (f"{at} with `{c.subject}` the Order wins {_pct(est)} of the games a team wins "
                f"({span}; {c.n1:,} games)")
    elif c.topic == "minority vs majority":
        body = (f"{at} (Drink of Power on) the minority team wins {_pct(est)} of the games a team "
                f"wins ({span}; {c.n1:,} games)")
    elif c.topic == "Drink of Power":
        games = (f"the same {c.n1:,} deals played both ways" if c.se is not None
                 else f"{c.n1:,} games with it, {c.n2:,} without")
        body = (f"{at} the Drink of Power {_change(est)} the minority team's win rate by "
                f"{abs(100 * est):.1f} points ({span}; {games})")
    elif c.topic == "rule variant":
        games = (f"the same {c.n1:,} deals played both ways" if c.se is not None
                 else f"{c.n1:,} and {c.n2:,} games")
        body = (f"{at} the {w[0]} variant (`{w[1]}`) {_change(est)} {w[2]} by {abs(100 * est):.1f} points "
                f"against the base game ({span}; {games})")
    elif c.topic == "Loge in the deck":
        body = (f"{at} putting the Coat of Armor of the Loge in the deck ({w[0]} → {w[1]}) {_change(est)} "
                f"how often a team wins by {abs(100 * est):.1f} points ({span}; {c.n1:,} and {c.n2:,} games)")
    elif c.topic == "Loge holder":
        body = (f"{at} a player who held the Loge at some point wins {_pct(w[0])}, one who never "
                f"held it {_pct(w[1])}: {_pts(est)} points ({span}; descriptive, not the effect of holding "
                f"it: every solo winner held it, and who comes to hold it is decided in play)")
    elif c.topic in ("seat", "occupation"):
        body = (f"{at} {w[0]} wins {_pct(w[1])} and {w[2]} {_pct(w[3])}: a spread of "
                f"{100 * est:.1f} points ({span}, widened for picking the extremes of {w[4]})")
    elif c.topic == "starting item":
        body = (f"{at} starting with the {c.subject} {_change(est)} a player's win rate by "
                f"{abs(100 * est):.1f} points ({span}; {c.n1:,} seat-games with it)")
    else:  # item added to basic
        body = (f"{at} adding the {c.subject} to `basic` shifts the Order's share of team wins by "
                f"{_pts(est)} points ({span}; {c.n1:,} and {c.n2:,} games won by a team)")
    return f"{body}: {tail}."


def _spread(frame: pd.DataFrame, label: str, name, what: str, spreads: pd.DataFrame | None = None) -> Candidate | None:
    """Best minus worst row of a rate table (columns n, wins, rate and ``label``). With the
    ``spreads`` table (seats.spreads) the difference keeps the standard error that allows
    for both being measured in the same games; without it, Newcombe's for independent ones."""
    f = frame[frame["n"] > 0]
    if len(f) < 2:
        return None
    best, worst = f.loc[f["rate"].idxmax()], f.loc[f["rate"].idxmin()]
    k = len(f)
    players = int(f["players"].iloc[0]) if "players" in f else 0
    extra = {}
    if spreads is not None and len(spreads):
        m = spreads[(spreads["what"] == what) & (spreads["players"] == players)]
        if (len(m) == 1 and name(m["best"].iloc[0]) == name(best[label])
                and name(m["worst"].iloc[0]) == name(worst[label])):
            extra = {"est": float(m["diff"].iloc[0]), "se": float(m["se"].iloc[0])}
    return Candidate(what, players, f"{name(best[label])} vs {name(worst[label])}", int(best["wins"]),
                     int(best["n"]), int(worst["wins"]), int(worst["n"]), pairs=k * (k - 1) // 2,
                     words=(name(best[label]), best["rate"], name(worst[label]), worst["rate"],
                            f"{k} {what}s"), **extra)


def candidates(t: dict[str, pd.DataFrame]) -> list[Candidate]:
    """Every effect the findings consider, from the tables of :func:`.tables.build_tables`."""
    out: list[Candidate] = []
    for r in t["order_share"].itertuples():
        if r.players % 2 == 0 and r.n > 0:
            out.append(Candidate("team balance", r.players, r.item_set, r.wins, r.n))
    m = t["minority"]
    m = m[m["item_set"] == "all"].pivot(index="players", columns="team", values="wins")
    for players, row in m.iterrows():
        n = int(row["minority"] + row["majority"])
        if n:
            out.append(Candidate("minority vs majority", int(players), "all item sets", int(row["minority"]), n))
    d = t["drink_effect"]
    for r in d[(d["item_set"] == "all") & (d["team"] == "minority")].itertuples():
        extra = _from_table(r.diff, r.diff_lo, r.diff_hi) if r.paired else {}
        out.append(Candidate("Drink of Power", r.players, "minority team", r.wins_on, r.n_on, r.wins_off, r.n_off,
                             **extra))
    lt = t["loge_team"]
    for r in lt[lt["outcome"] == "team"].itertuples():
        out.append(Candidate("Loge in the deck", r.players, f"{r.set_without} → {r.set_with}", r.wins_with,
                             r.n_with, r.wins_without, r.n_without,
                             words=(f"`{r.set_without}`", f"`{r.set_with}`")))
    lh = t["loge_holder"].set_index(["players", "holder"])
    for players in lh.index.get_level_values(0).unique():
        if (players, "held it at some point") in lh.index and (players, "never held it") in lh.index:
            a, b = lh.loc[(players, "held it at some point")], lh.loc[(players, "never held it")]
            extra = (_from_table(a["diff"], a["diff_lo"], a["diff_hi"])
                     if "diff" in a and not np.isnan(a["diff"]) else {})  # allows for the seats of one game
            out.append(Candidate("Loge holder", int(players), "held vs never held", int(a["wins"]), int(a["n"]),
                                 int(b["wins"]), int(b["n"]), words=(a["rate"], b["rate"]), **extra))
    sp = t.get("spreads")
    for _players, f in t["seats"].groupby("players"):
        c = _spread(f, "seat", lambda s: f"seat {int(s)}", "seat", sp)
        if c:
            out.append(c)
    c = _spread(t["occupations"], "occupation", lambda s: f"the {s}", "occupation", sp)
    if c:
        out.append(c)
    ob = t.get("occupations_by_players")
    if ob is not None and ob["players"].nunique() > 1:  # the strongest occupation depends on the count
        for _players, f in ob.groupby("players"):
            c = _spread(f, "occupation", lambda s: f"the {s}", "occupation", sp)
            if c:
                out.append(c)
    for r in t["start_items"].itertuples():  # stratified by player count (seats.start_item_rates)
        out.append(Candidate("starting item", 0, r.item, r.wins_with, r.n_with, r.wins_without, r.n_without,
                             **_from_table(r.diff, r.diff_lo, r.diff_hi)))
    out += _added_balance(t["order_share"], t["added_items"])
    out += _variants(t.get("variants"))
    return [c for c in out if c.n1 > 0]


VARIANT_WORDS = {"order": "the Order's win rate", "brotherhood": "the Brotherhood's win rate",
                 "solo": "how often a Loge player wins alone", "minority": "the smaller team's win rate"}


def _variants(v: pd.DataFrame | None) -> list[Candidate]:
    """Each rule variant (R10) against the base game, per outcome (variants.csv; paired where
    the variant replays the base game's deals)."""
    out: list[Candidate] = []
    if v is None or len(v) == 0:
        return out
    for r in v[v["outcome"].isin(list(VARIANT_WORDS))].itertuples():
        paired = bool(getattr(r, "paired", False))
        extra = _from_table(r.diff, r.diff_lo, r.diff_hi) if paired else {}
        out.append(Candidate("rule variant", int(r.players), f"{r.variant} {r.item_set} {r.outcome}",
                             int(r.wins_variant), int(r.n_variant), int(r.wins_base), int(r.n_base),
                             words=(r.variant, r.item_set, VARIANT_WORDS[r.outcome]), **extra))
    return out


def _added_balance(share: pd.DataFrame, added: pd.DataFrame) -> list[Candidate]:
    """Order share of team wins with each unstamped item added to basic (Loge: see its own topic)."""
    out = []
    if len(added) == 0:
        return out
    pairs = added[["players", "item", "set_basic", "set_with"]].drop_duplicates()
    s = share.set_index(["players", "item_set"])
    for r in pairs.itertuples():
        with_, basic = (r.players, r.set_with), (r.players, r.set_basic)
        if "Loge" in r.item or with_ not in s.index or basic not in s.index:
            continue
        a, b = s.loc[with_], s.loc[basic]
        out.append(Candidate("item added to basic", int(r.players), r.item, int(a["wins"]), int(a["n"]),
                             int(b["wins"]), int(b["n"])))
    return out


def rank_findings(t: dict[str, pd.DataFrame], level: float = LEVEL) -> pd.DataFrame:
    """All candidates with interval, verdict and sentence, strongest evidence first.

    Columns: rank, topic, players (0 = pooled), subject, estimate, lo, hi (at ``level``,
    widened for spreads), null (0.5 or 0), n (games or seat-games behind the first rate),
    verdict (``clear``/``likely``/``noise``), sentence. Sorted by verdict, then by distance
    of the estimate from the null in half-widths of its interval (the strength of the evidence).
    """
    cands = candidates(t)
    m = max(len(cands), 1)
    rows = []
    for c in cands:
        alpha = (1 - level) / c.pairs
        est, lo, hi = _interval(c, 1 - alpha)
        _, lo_b, hi_b = _interval(c, 1 - alpha / m)
        null = 0.5 if c.n2 is None else 0.0
        if np.isnan(est):
            continue
        verdict = "noise" if lo <= null <= hi else ("likely" if lo_b <= null <= hi_b else "clear")
        rows.append({"topic": c.topic, "players": c.players, "subject": c.subject, "estimate": est, "lo": lo,
                     "hi": hi, "null": null, "n": c.n1 + (c.n2 or 0), "verdict": verdict,
                     "sentence": _sentence(c, est, lo, hi, verdict)})
    if not rows:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.DataFrame(rows)
    out["_v"] = out["verdict"].map(VERDICT_ORDER)
    # evidence, not size: the distance from the null in units of the interval's half-width
    half = ((out["hi"] - out["lo"]) / 2).replace(0, np.nan)
    out["_d"] = ((out["estimate"] - out["null"]).abs() / half).fillna(0.0)
    out = out.sort_values(["_v", "_d"], ascending=[True, False], ignore_index=True).drop(columns=["_v", "_d"])
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    return out[COLUMNS]


def summary(findings: pd.DataFrame, noise_examples: int = 3) -> tuple[str, list[str], str, list[str]]:
    """Plain-language summary for the top of the report: ``(intro, real, noise_intro, noise)``.

    ``real`` has one line per topic with a real effect (its strongest case, topics in rank
    order, with how many checks of that kind agree); ``noise`` the largest differences that
    are not distinguishable from chance. ``noise_intro`` is empty when nothing is noise.
    """
    if len(findings) == 0:
        return "There are not enough games to compare anything.", [], "", []
    n_all = len(findings)
    verdicts = findings["verdict"].value_counts()
    intro = (f"{n_all} effects were checked: {verdicts.get('clear', 0)} are clear, {verdicts.get('likely', 0)} "
             f"likely (their 95% interval excludes no effect, but among {n_all} checks about "
             f"{0.05 * n_all:.0f} such hits would be expected by luck alone if no effect were real), and "
             f"{verdicts.get('noise', 0)} are not distinguishable from noise. The strongest case of each kind, "
             "the strongest evidence first:")
    real = []
    for topic, group in findings[findings["verdict"] != "noise"].groupby("topic", sort=False):
        r = group.iloc[0]
        total = int((findings["topic"] == topic).sum())
        more = f" ({len(group)} of {total} such checks are clear or likely.)" if total > 1 else ""
        real.append(f"**{topic}** ({r.verdict}): {r.sentence}{more}")
    if not real:
        intro = intro.removesuffix(" The strongest case of each kind, the strongest evidence first:")
    noise = findings[findings["verdict"] == "noise"]
    if len(noise) == 0:
        return intro, real, "", []
    per_topic = noise.groupby("topic", sort=False).size()
    counts = "; ".join(f"{topic} {k} of {int((findings['topic'] == topic).sum())}" for topic, k in per_topic.items())
    noise_intro = (f"**Not distinguishable from noise** (the interval covers no effect): {counts}. "
                   "The largest-looking of them:")
    return intro, real, noise_intro, [r.sentence for r in noise.head(noise_examples).itertuples()]
