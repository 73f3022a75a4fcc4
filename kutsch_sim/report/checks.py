"""One check of the findings: its test, its interval at any level, and a verdict that follows
the interval printed beside it.

A check is one of four kinds, each with one stated test:

* ``one``: a proportion against 50% (team balance): Wilson's score interval;
* ``two``: two independent proportions against no difference: Newcombe's hybrid score
  interval (Newcombe 1998, method 10 of the unpaired ones);
* ``paired``: the same deals played two ways (Drink of Power on/off, variant/base): Newcombe's
  interval for paired proportions (Newcombe 1998, method 10 of the paired ones) from the twins'
  2 x 2 counts, of which only the discordant pairs carry the difference;
* ``normal``: a difference measured on seat-games of the same games (starting items, best
  minus worst seat or occupation): a normal interval with a standard error clustered by game.

All checks of a report form one family. The verdict of a check uses the interval at the level
corrected for that family (Bonferroni: 1 - 0.05 / m for m checks, and for a best-minus-worst
spread picked from ``pairs`` pairs, 1 - 0.05 / (m * pairs)): ``clear`` if it excludes the null,
``likely`` if only the plain 95% interval does, ``noise`` otherwise. Descriptive rows (the Loge
holder's win rate, pooled headlines) are shown with their 95% interval and are not in the family.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .stats import newcombe_diff, newcombe_paired, normal_interval, wilson

ALPHA = 0.05
VERDICTS = ("clear", "likely", "noise", "descriptive")
TESTS = {"one": "Wilson score interval against 50%",
         "two": "Newcombe hybrid score interval (independent groups)",
         "paired": "Newcombe paired interval (method 10), the same deals both ways",
         "normal": "normal interval, variance clustered by game"}


@dataclass
class Check:
    """One checked effect. ``counts``: ``one`` (wins, n); ``two`` (wins1, n1, wins2, n2);
    ``paired`` (both, only first, only second, neither); ``normal``: ``est`` and ``se``."""

    topic: str
    players: int  # 0 = all player counts pooled
    subject: str
    kind: str
    counts: tuple = ()
    est: float | None = None
    se: float | None = None
    pairs: int = 1  # pairs a best-minus-worst spread was picked from
    n: int = 0  # games or seat-games behind it
    descriptive: bool = False
    words: dict = field(default_factory=dict)  # what its sentence needs

    @property
    def null(self) -> float:
        return 0.5 if self.kind == "one" else 0.0

    @property
    def unit(self) -> str:
        """``%`` for a rate against 50%, ``points`` for a difference."""
        return "%" if self.kind == "one" else "points"


def interval(c: Check, level: float) -> tuple[float, float, float]:
    """``(estimate, lo, hi)`` of ``c`` at ``level`` (fractions); NaN when there is no data."""
    if c.kind == "one":
        w, n = c.counts
        lo, hi = wilson(w, n, level)
        return (w / n if n else float("nan")), float(lo), float(hi)
    if c.kind == "two":
        d, lo, hi = newcombe_diff(*c.counts, level=level)
        return float(d), float(lo), float(hi)
    if c.kind == "paired":
        return newcombe_paired(*(int(x) for x in c.counts), level=level)
    if c.est is None or c.se is None or not np.isfinite(c.se):
        return float("nan"), float("nan"), float("nan")
    lo, hi = normal_interval(c.est, c.se, level)
    return float(c.est), float(lo), float(hi)


def levels(c: Check, m: int) -> tuple[float, float]:
    """(plain level, corrected level) of ``c`` in a family of ``m`` checks."""
    plain = 1 - ALPHA / c.pairs
    return plain, 1 - ALPHA / (c.pairs * max(m, 1))


def verdict_of(null: float, lo: float, hi: float, lo_c: float, hi_c: float) -> str:
    """The rule, from the two printed intervals: the corrected one excludes the null -> clear;
    only the plain one -> likely; neither -> noise."""
    if not lo_c <= null <= hi_c:
        return "clear"
    if not lo <= null <= hi:
        return "likely"
    return "noise"


def _digits(x: float, null: float, scale: float, signed: bool) -> str:
    """``x`` (a fraction) in percent or points with as many decimals (1 to 4) as it takes for
    the printed number to fall on the same side of the null as ``x``, so that a reader can
    re-derive the verdict: 50.04% prints as 50.04, not 50.0."""
    text = ""
    for d in range(1, 5):
        text = f"{scale * x:{'+' if signed else ''}.{d}f}"
        shown = float(text)
        if (x > null) == (shown > scale * null) and (x < null) == (shown < scale * null):
            break
    return text


def fmt_value(x: float, c: Check) -> str:
    """A check's estimate or bound as printed: ``50.9%`` or ``+1.2`` (points)."""
    if c.kind == "one":
        return _digits(x, c.null, 100, False) + "%"
    return _digits(x, c.null, 100, True)


def fmt_interval(lo: float, hi: float, c: Check) -> str:
    """``48.0% to 49.7%`` or ``+0.1 to +2.3 points``, each bound on its side of the null."""
    tail = "" if c.kind == "one" else " points"
    return f"{fmt_value(lo, c)} to {fmt_value(hi, c)}{tail}"


def fmt_level(level: float) -> str:
    """A corrected level in percent with enough digits to show the correction: ``99.981%``."""
    for d in range(1, 8):
        text = f"{100 * level:.{d}f}"
        if float(text) < 100 and abs(float(text) - 100 * level) < 0.05 * (100 - 100 * level):
            return text + "%"
    return f"{100 * level:.7f}%"


def parse_number(text: str) -> float:
    """The inverse of :func:`fmt_value` (for checking a printed report): ``-1.2`` -> -1.2."""
    return float(text.replace("%", "").replace("+", ""))


def evaluate(c: Check, m: int) -> dict:
    """The row of the findings table for ``c`` in a family of ``m`` checks (without its
    sentence): estimate, the plain and corrected intervals, the verdict and how to print them."""
    plain, corrected = levels(c, m)
    est, lo, hi = interval(c, plain)
    if c.descriptive:
        lo_c, hi_c, verdict = float("nan"), float("nan"), "descriptive"
    else:
        _, lo_c, hi_c = interval(c, corrected)
        verdict = verdict_of(c.null, lo, hi, lo_c, hi_c)
    return {"topic": c.topic, "players": c.players, "subject": c.subject, "test": TESTS[c.kind],
            "estimate": est, "lo": lo, "hi": hi, "level_corrected": np.nan if c.descriptive else corrected,
            "lo_corrected": lo_c, "hi_corrected": hi_c, "null": c.null, "n": c.n, "verdict": verdict}


def bracket(c: Check, row: dict) -> str:
    """``(95% interval A to B; corrected 99.98% interval C to D): verdict`` -- every number the
    verdict follows from, printed so that it can be re-derived (tests/test_report_answers.py)."""
    over = f" over {c.pairs} pairs" if c.pairs > 1 else ""
    plain = f"95% interval{over} {fmt_interval(row['lo'], row['hi'], c)}"
    if row["verdict"] == "descriptive":
        return f"({plain}; descriptive, not a test)"
    corr = (f"corrected {fmt_level(row['level_corrected'])} interval "
            f"{fmt_interval(row['lo_corrected'], row['hi_corrected'], c)}")
    return f"({plain}; {corr}): {row['verdict']}"
