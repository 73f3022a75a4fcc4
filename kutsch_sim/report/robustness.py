"""Robustness across a skill ladder: the report's headline numbers at every rung of bot skill,
and whether each holds across the three strongest rungs.

When the results hold several rungs (a ``rung`` column, ordered by ``rung_level``; written by
``kutsch-sim ladder``), every other section is the top rung's. This one takes each headline
number at every rung from that rung's own tables (:func:`rung_tables`, the functions of
:mod:`.tables` and :mod:`.seats`; the answers' numbers through :func:`.findings.rung_estimates`,
so with the same intervals as the answers), with its 95% interval, and gives it a verdict from
the three strongest rungs (the two, with two rungs; :func:`verdicts`), by the difference of every
two of them and its 95% interval, against a band of :data:`BAND` (3 points):

* ``robust``: every difference's interval lies inside (-3, +3) points: shown not to move more
  than 3 points;
* when some difference's interval lies wholly outside [-3, +3] (shown to move more than 3
  points): ``direction only`` if the value is on the same side of its reference at every
  compared rung (50% for the Order's share, the larger team's win rate for the smaller team's,
  0 for the rest; for the best occupation, the same occupation), else ``bot-dependent``: the
  number describes these bots more than the game;
* ``undetermined (too few games)`` otherwise: an interval reaches across a 3-point edge. The
  games a configuration would take to decide scale the current ones by (half-width / distance
  of the difference from the edge)^2.

The rungs of a ladder play the same deals, and then each difference is paired, game by game on
those deals (:mod:`.paired`: the linearised variance of the per-deal differences, the large-sample
limit of a paired bootstrap over deals). Rungs that did not play the same deals are compared as
independent samples: the square root of the sum of the two variances read off the 95% intervals.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import seats as st
from . import tables
from .answers import RUNG
from .data import seat_frame, standard_runs
from .findings import rung_estimates
from .paired import rung_differences
from .sections import Section, diff_cell, rate_cell
from .stats import wilson, z_value

BAND = 0.03  # the verdict asks whether a number moves more than this (3 points) across the top rungs
TOP = 3  # how many of the strongest rungs a verdict compares
MAX_GAMES = 10_000_000  # a larger need for games is printed as more than this
UNDETERMINED = "undetermined (too few games)"
VERDICTS = ("robust", "direction only", "bot-dependent", UNDETERMINED)
SLOTS = ("a", "b", "c")  # the compared rungs: the third strongest, the second, the strongest
PAIRS = (("c", "b"), ("c", "a"), ("b", "a"))  # each difference: the stronger rung minus the weaker


class Headline(NamedTuple):
    label: str  # what the number is, in the table
    short: str  # its plot's title
    share: bool  # a rate or share (%) rather than a difference (points)
    name: str  # what it is, in a sentence


HEADLINES = {
    "order": Headline("the Order's share of team wins (even counts)", "Order's share of team wins", True,
                      "the Order's share of team wins"),
    "smaller": Headline("the smaller team's win rate, Drink on (odd counts)",
                        "smaller team's win rate\n(dashed: the larger team's)", True, "the smaller team's win rate"),
    "drink": Headline("Drink of Power: the smaller team's win rate on − off (odd counts)",
                      "Drink of Power, on − off", False, "the Drink of Power's effect on the smaller team"),
    "solo": Headline("Loge solo wins, share of games", "Loge solo wins", True, "the Loge's solo wins"),
    "loge": Headline("team wins with the Loge in the deck − without", "Loge: team wins, in − out", False,
                     "the Loge's effect on team wins"),
    "occupation": Headline("the best occupation's win rate − the average seat's (all counts)",
                           "best occupation − average seat", False, "the best occupation's edge over the average seat"),
    "seat": Headline("the start seat's win rate − the average seat's", "start seat − average seat", False,
                     "the start seat's edge over the average seat"),
}
ANSWER_TOPICS = {"order": "team balance", "drink": "Drink of Power", "loge": "Loge"}  # the answers' topic of a headline
VALUE_COLUMNS = ["headline", "players", "rung", "rung_level", "subject", "estimate", "lo", "hi", "reference"]
VERDICT_COLUMNS = (["headline", "players"] + [f"{c}_{x}" for c in ("rung", "estimate", "subject") for x in SLOTS]
                   + ["spread"] + [f"diff_{x}{y}{e}" for x, y in PAIRS for e in ("", "_lo", "_hi")]
                   + ["paired", "verdict", "games", "games_needed"])


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


def games_per_configuration(d: pd.DataFrame, levels: list) -> int:
    """The games a configuration holds at the rungs ``levels`` (the median over the configurations:
    players x item set x Drink switch x variant, per rung)."""
    g = d[d[RUNG].isin(levels)].groupby([RUNG, "players", "item_set", "drink", "variant"], observed=True).size()
    return int(g.median()) if len(g) else 0


def judge(d: pd.DataFrame, levels: list, values: pd.DataFrame, shared: bool | None = None) -> pd.DataFrame:
    """The verdicts of ``values`` (:func:`ladder_values` of the rungs ``levels`` of ``d``, weakest
    first) over the :data:`TOP` strongest rungs: paired differences (:func:`.paired.rung_differences`)
    when those rungs played the same deals (``shared``: known to, for all rungs; else checked),
    independent ones otherwise."""
    top = levels[-TOP:]
    same = bool(shared) or same_deals(d, top)
    diffs = rung_differences({r: d[d[RUNG] == r] for r in top}, values) if same else None
    return verdicts(values, diffs, games_per_configuration(d, top))


def _sign(x: float) -> int:
    return int(np.sign(x)) if np.isfinite(x) else 0


def nice_games(x: float) -> float:
    """``x`` games rounded up to two significant digits; ``inf`` beyond :data:`MAX_GAMES`."""
    if not np.isfinite(x) or x > MAX_GAMES:
        return float("inf")
    if x <= 0:
        return 0.0
    step = 10.0 ** max(math.floor(math.log10(x)) - 1, 0)
    return float(math.ceil(x / step - 1e-9) * step)


def _inside(lo: float, hi: float) -> bool:
    """The interval lies inside (-BAND, +BAND): the number is shown not to move that much."""
    return lo > -BAND and hi < BAND


def _beyond(lo: float, hi: float) -> bool:
    """The interval lies wholly outside [-BAND, +BAND]: the number is shown to move more."""
    return lo > BAND or hi < -BAND


def _judge(diffs: list[tuple[float, float]], same_side: bool, games: int | None) -> tuple[str, float]:
    """(verdict, games a configuration would need) from the differences (estimate, 95% half-width)
    of the compared rungs; see the module doc."""
    diffs = [(d, h) for d, h in diffs if np.isfinite(d) and np.isfinite(h)]
    if not diffs:
        return "–", float("nan")
    if any(_beyond(d - h, d + h) for d, h in diffs):
        return ("direction only" if same_side else "bot-dependent"), float("nan")
    open_ = [(d, h) for d, h in diffs if not _inside(d - h, d + h)]
    if not open_:
        return "robust", float("nan")
    if not games:
        return UNDETERMINED, float("nan")

    def need(d: float, h: float) -> float:
        gap = abs(abs(d) - BAND)
        return games * (h / gap) ** 2 if gap > 0 else float("inf")

    # one difference shown beyond the band decides; inside it, every open one must close
    beyond = [need(d, h) for d, h in open_ if abs(d) > BAND]
    return UNDETERMINED, nice_games(min(beyond) if beyond else max(need(d, h) for d, h in open_))


def verdicts(values: pd.DataFrame, diffs: pd.DataFrame | None = None, games: int | None = None) -> pd.DataFrame:
    """Each headline number's verdict over the :data:`TOP` strongest rungs of ``values``
    (:func:`ladder_values`): :data:`VERDICT_COLUMNS`. Slots ``a``, ``b``, ``c`` are the third
    strongest, second and strongest rung (``a`` empty with two rungs); ``diff_cb`` = c − b with
    its 95% interval, and so on; ``spread`` = max − min of the compared values. ``diffs``
    (:func:`.paired.rung_differences`) gives the paired standard errors; without it, or where it
    has none, the rungs are taken as independent. ``games``: a configuration's games, from which
    ``games_needed`` scales (``inf`` beyond :data:`MAX_GAMES`). A number only the top rung has
    gets no verdict (``–``)."""
    levels = sorted(values["rung_level"].unique())[-TOP:]
    slot = dict(zip(levels, SLOTS[-len(levels):], strict=True))
    at = values[values["rung_level"].isin(levels)].set_index(["headline", "players", "rung_level"])
    se = {} if diffs is None else {(r.headline, r.players, r.high, r.low): r.se for r in diffs.itertuples()}
    z = z_value()
    top = values[values["rung_level"] == levels[-1]]
    rows = []
    for key, players in zip(top["headline"], top["players"], strict=True):
        got = {slot[lev]: at.loc[(key, players, lev)] for lev in levels if (key, players, lev) in at.index}
        row = {"headline": key, "players": players}
        for x in SLOTS:
            r = got.get(x)
            row |= {f"rung_{x}": r["rung"] if r is not None else "", f"subject_{x}": r["subject"] if r is not None
                    else "", f"estimate_{x}": r["estimate"] if r is not None else np.nan}
        ests = [r["estimate"] for r in got.values()]
        row["spread"] = max(ests) - min(ests)
        pairs, paired = [], True
        for x, y in PAIRS:
            lo_hi = (np.nan, np.nan, np.nan)
            if x in got and y in got:
                a, b = got[x], got[y]
                d = a["estimate"] - b["estimate"]
                s = se.get((key, players, a["rung"], b["rung"]), np.nan)
                if np.isfinite(s):
                    h = z * s
                else:
                    paired = False
                    h = float(np.hypot((a["hi"] - a["lo"]) / 2, (b["hi"] - b["lo"]) / 2))
                pairs.append((d, h))
                lo_hi = (d, d - h, d + h)
            row |= dict(zip([f"diff_{x}{y}", f"diff_{x}{y}_lo", f"diff_{x}{y}_hi"], lo_hi, strict=True))
        same = key != "occupation" or len({r["subject"] for r in got.values()}) == 1
        signs = {_sign(r["estimate"] - r["reference"]) for r in got.values()}
        row["verdict"], row["games_needed"] = _judge(pairs, same and len(signs) == 1 and 0 not in signs, games)
        row["paired"], row["games"] = bool(pairs) and paired, games or np.nan
        rows.append(row)
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _value(x: float, share: bool) -> str:
    return f"{100 * x:.1f}%" if share else f"{100 * x:+.1f}"


def _where(players: int) -> str:
    return f"at {players} players" if players else "over all counts"


def games_text(n: float) -> str:
    """The games a configuration would need, in words."""
    return f"more than {MAX_GAMES:,}" if not np.isfinite(n) else f"about {int(n):,}"


def verdict_text(r) -> str:
    """The verdict of a row of :func:`verdicts`, with the games it would take when undetermined."""
    if r.verdict == UNDETERMINED and r.games_needed > 0:  # NaN when a configuration's games are not known
        return f"undetermined (too few games: {games_text(r.games_needed)} a configuration)"
    return r.verdict


def _values_text(r, share: bool, sep: str = ": ", mark: str = "") -> str:
    return ", ".join(f"{mark}{getattr(r, f'rung_{x}')}{mark}{sep}{_value(getattr(r, f'estimate_{x}'), share)}"
                     for x in SLOTS if getattr(r, f"rung_{x}"))


def answer_robustness(v: pd.DataFrame) -> pd.DataFrame:
    """The verdicts of the headlines the answers table shows (topic, players, robustness: the
    verdict with the compared rungs' values)."""
    rows = []
    for r in v[v["headline"].isin(list(ANSWER_TOPICS))].itertuples():
        share = HEADLINES[r.headline].share
        if r.verdict == "–":
            text = r.verdict
        elif r.verdict == UNDETERMINED:
            text = verdict_text(r)[:-1] + f"; {_values_text(r, share)})"
        else:
            text = f"{r.verdict} ({_values_text(r, share)})"
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
    return ("Across the skill ladder (section *Robustness across the skill ladder*: whether a number moves more "
            f"than {100 * BAND:.0f} points across the strongest rungs), the findings that test a headline number are "
            + "; ".join(parts) + ".")


def _cell(r, share: bool) -> str:
    cell = rate_cell(r.estimate, r.lo, r.hi) if share else diff_cell(r.estimate, r.lo, r.hi)
    return f"{r.subject}: {cell}" if r.subject else cell


def _pair_text(r, x: str, y: str) -> str:
    d, lo, hi = (getattr(r, f"diff_{x}{y}{e}") for e in ("", "_lo", "_hi"))
    return f"`{getattr(r, f'rung_{x}')}` − `{getattr(r, f'rung_{y}')}` {diff_cell(d, lo, hi)} points"


def not_robust(v: pd.DataFrame) -> list[str]:
    """A sentence for every number of ``v`` (:func:`verdicts`) that is not robust: it moves more
    than the band across the compared rungs, or the games are too few to tell."""
    out = []
    band = f"{100 * BAND:.0f} points"
    for r in v.itertuples():
        if r.verdict in ("robust", "–"):
            continue
        h = HEADLINES[r.headline]
        what = f"{h.name[0].upper()}{h.name[1:]} {_where(r.players)}"
        vals = _values_text(r, h.share, sep=" ", mark="`")
        pairs = [(x, y) for x, y in PAIRS if np.isfinite(getattr(r, f"diff_{x}{y}"))]
        lo_hi = {p: (getattr(r, f"diff_{p[0]}{p[1]}_lo"), getattr(r, f"diff_{p[0]}{p[1]}_hi")) for p in pairs}
        size = {p: abs(getattr(r, f"diff_{p[0]}{p[1]}")) for p in pairs}
        if r.verdict == UNDETERMINED:
            x, y = max((p for p in pairs if not _inside(*lo_hi[p])), key=size.get)
            need = f"; {games_text(r.games_needed)} games a configuration would tell" if r.games_needed > 0 else ""
            out.append(f"{what}: the games are too few to tell whether it moves more than {band} ({vals}; "
                       f"{_pair_text(r, x, y)}, reaching across ±{band}){need}.")
            continue
        x, y = max((p for p in pairs if _beyond(*lo_hi[p])), key=size.get)
        keeps = ("but keeps its direction" if r.verdict == "direction only" else
                 "and changes side (or, for the best occupation, which one it is), so it describes these bots more "
                 "than the game")
        out.append(f"{what} moves more than {band} across the compared rungs ({vals}; {_pair_text(r, x, y)}), "
                   f"{keeps}: *{r.verdict}*.")
    return out


def robustness_section(values: pd.DataFrame, v: pd.DataFrame, games: pd.Series, shared: bool,
                       img: str | None) -> Section:
    """The section: what the rungs are, the verdict rules, the values at every rung (table and
    plot) and the verdicts. ``games``: each rung's number of games, in rung order; ``shared``:
    whether they played the same deals (:func:`same_deals`)."""
    sec = Section("Robustness across the skill ladder", csv=["robustness.csv", "robustness_verdicts.csv"])
    names = list(games.index)
    top = [str(x) for x in names[-TOP:]]
    ticks = ", ".join(f"`{x}`" for x in top[:-1]) + f" and `{top[-1]}`"
    which = f"the {'three' if len(top) == 3 else 'two'} strongest rungs, {ticks}"
    judged = v.loc[v["verdict"] != "–", "paired"].astype(bool)
    paired = bool(len(judged)) and bool(judged.all())
    band = f"{100 * BAND:.0f} points"
    sec.para(
        f"The results hold {len(names)} rungs of play, weakest first: " + ", ".join(
            f"`{r}` ({int(n):,} games)" for r, n in games.items()) + ". "
        + ("Every rung played the same deals: the same games, each with the same associations, occupations and "
           "starting items (checked game by game), so only the play differs. " if shared else
           "The rungs did not play the same deals, so their numbers differ by the luck of the deals as well. ")
        + f"Every other section is the top rung's (`{top[-1]}`). Here each headline number is shown at every rung "
        f"with its 95% interval.")
    sec.para(
        f"**The verdict** asks whether a number moves more than {band} across {which}, from the difference of "
        f"every two of them and its 95% interval: **robust** when every difference's interval lies inside ±{band} "
        f"(it is shown not to move more than {band}); when some difference's interval lies wholly beyond ±{band} "
        "(it is shown to move more), **direction only** if the value is on the same side at every compared rung "
        "(of 50% for the Order's share, of the larger team's win rate for the smaller team's, of 0 for the "
        "others; for the best occupation, and the same occupation), else **bot-dependent**: the number then "
        "describes these bots more than the game; **undetermined (too few games)** otherwise: an interval "
        f"reaches across ±{band}, and the games cannot tell; it is given the games a configuration would take to "
        "decide it, its games now times the square of the interval's half-width over the difference's distance "
        "from the nearer edge. "
        + ("The differences are paired: the compared rungs played the same deals, so each difference is measured "
           "game by game on them (the linearised variance of the per-deal differences, stratified by "
           "configuration), which takes the deals' luck out of it." if paired else
           "The differences are paired game by game on the same deals where a number allows it (column `paired` "
           "of `robustness_verdicts.csv`); the others take the rungs as independent samples (the square root of "
           "the sum of the two variances read off their 95% intervals)." if judged.any() else
           "The compared rungs did not play the same deals, so each difference's interval takes them as "
           "independent samples (the square root of the sum of the two variances read off their 95% intervals)."))
    counts = v["verdict"].value_counts()
    sec.para(f"Of {len(v)} numbers: " + ", ".join(f"{int(counts.get(k, 0))} {k}" for k in VERDICTS) + "."
             + (f" {int(counts.get('–', 0))} only the top rung has." if counts.get("–", 0) else ""))
    sec.bullets(not_robust(v))
    sec.image(img, f"Each headline number at every rung (95% intervals); the verdict compares {', '.join(top)}")
    rows = []
    verdict = {(r.headline, r.players): r for r in v.itertuples()}
    slots = dict(zip(SLOTS[-len(top):], top, strict=True))
    for (key, players), g in values.groupby(["headline", "players"], sort=False):
        h = HEADLINES[key]
        row = {"number": h.label, "players": str(players) if players else "all"}
        cells = {r.rung: _cell(r, h.share) for r in g.itertuples()}
        row |= {r: cells.get(r, "–") for r in map(str, names)}
        x = verdict.get((key, players))
        if x is not None:
            for a, b in PAIRS:
                if a in slots and b in slots:
                    row[f"{slots[a]} − {slots[b]} (95%)"] = diff_cell(*(getattr(x, f"diff_{a}{b}{e}")
                                                                        for e in ("", "_lo", "_hi")))
            row["spread"] = f"{100 * x.spread:.1f}"
            row["verdict"] = verdict_text(x)
        rows.append(row)
    sec.table(f"Headline numbers at each rung (rate or points, 95% interval), the {'paired ' * paired}differences "
              f"of the strongest rungs (points, 95% interval), their spread and the verdict", pd.DataFrame(rows))
    return sec
