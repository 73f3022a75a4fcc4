"""What would make it fair: rule settings measured against a balance target on the same deals.

A *setting* is a set of departures from the base rules, each a row of the rule table
(:mod:`kutsch_sim.rules_table`): an official variant switched on (R10) or a house rule at a
value other than its default. A *target* is a balance quantity and the value it should take,
e.g. ``smaller=50`` (the smaller team's share of the games a team wins, in per cent, odd
counts) or ``loge<=10`` (the share of games the Loge wins alone).

Every setting plays games 0 .. G-1 of one seed with the configuration id of the base rules
(``api.GameConfig.config_id`` leaves the rule switches out), so each game starts from the
same random stream as its base-rules twin: the same deal, the same play until the change
first matters. A setting's change is measured game by game against its twin, and its
interval is the paired one (:func:`paired`).

Quantities are ratios of per-game sums (the smaller team's wins over the team wins): their
intervals come from the ratio's influence function, per game, so pairing carries over
(``ratio_if``). The search and the checks that use this module are in
:mod:`kutsch_sim.sim.balance_search`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..api import GameConfig
from ..enums import REC, WIN
from ..errors import KutschError
from ..rules_table import BY_NAME, SWITCHES, RuleSwitch

Z95 = 1.959964
CHUNK = 1000  # games a progress step
MARGIN = 2.0  # points an interval may reach beyond a target's region and still meet it (:func:`meets`)

# quantity: (what it is, needs an odd count, needs the Loge in the game)
QUANTITIES = {
    "smaller": ("the smaller team's share of the games a team wins", True, False),
    "order": ("the Order's share of the games a team wins", False, False),
    "loge": ("the share of games the Loge wins alone", False, True),
    "seat-edge": ("the start seat's win rate minus the mean seat's, in points", False, False),
}
SIDE_EFFECTS = ("length", "timeout", "seat-edge", "loge", "order")
_TARGET_RE = re.compile(r"\s*([a-z-]+)\s*(<=|>=|=)\s*(-?\d+(?:\.\d+)?)\s*%?\s*")


@dataclass(frozen=True)
class Target:
    quantity: str
    op: str  # "=", "<=" or ">="
    value: float  # in per cent (points for seat-edge)
    tolerance: float  # "=": the region is value +- tolerance

    @property
    def text(self) -> str:
        tol = f" ± {self.tolerance:g}" if self.op == "=" else ""
        return f"{self.quantity} {self.op.replace('<=', '≤').replace('>=', '≥')} {self.value:g}{tol}"

    def region(self) -> tuple[float, float]:
        if self.op == "=":
            return self.value - self.tolerance, self.value + self.tolerance
        return (-math.inf, self.value) if self.op == "<=" else (self.value, math.inf)

    def distance(self, x: float) -> float:
        """Points from ``x`` to the target (0 inside a one-sided target's region)."""
        if self.op == "=":
            return abs(x - self.value)
        return max(0.0, x - self.value) if self.op == "<=" else max(0.0, self.value - x)


def parse_keep(text: str | None, target: Target) -> tuple[Target, ...]:
    """``--keep 'loge<=30,seat-edge<=2'``: side conditions a change must keep (one-sided, in the
    target's units), each a quantity other than the target's."""
    out = []
    for tok in (text or "").split(","):
        if not tok.strip():
            continue
        m = _TARGET_RE.fullmatch(tok.lower())
        if m is None or m.group(1) not in QUANTITIES or m.group(2) == "=":
            raise KutschError(f"--keep {tok.strip()!r}: expected QUANTITY<=VALUE or QUANTITY>=VALUE with QUANTITY one "
                              f"of {', '.join(QUANTITIES)}")
        if m.group(1) == target.quantity or m.group(1) in (k.quantity for k in out):
            raise KutschError(f"--keep {tok.strip()!r}: {m.group(1)} is the target's quantity or named twice")
        out.append(parse_target(tok))
    return tuple(out)


def kept(keep: tuple[Target, ...], values: dict[str, float]) -> bool:
    """Every side condition holds at these estimates (``values[quantity]``)."""
    return all(k.distance(values[k.quantity]) == 0 for k in keep)


def parse_target(text: str | None, tolerance: float = 3.0) -> Target:
    """``smaller=50``, ``loge<=10``, ``order=50``, ``seat-edge<=1`` -> :class:`Target`."""
    if text is None or not str(text).strip():
        raise KutschError("--target is empty; give one such as smaller=50, loge<=10, order=50 or seat-edge<=1")
    m = _TARGET_RE.fullmatch(str(text).lower())
    if m is None or m.group(1) not in QUANTITIES:
        raise KutschError(f"--target {text!r}: expected QUANTITY=VALUE, QUANTITY<=VALUE or QUANTITY>=VALUE with "
                          f"QUANTITY one of {', '.join(QUANTITIES)}")
    q, op, v = m.group(1), m.group(2), float(m.group(3))
    lo, hi = (-100.0, 100.0) if q == "seat-edge" else (0.0, 100.0)
    if not lo <= v <= hi:
        raise KutschError(f"--target {text!r}: {q} is between {lo:g} and {hi:g}, got {v:g}")
    if not 0 < tolerance <= 50:
        raise KutschError(f"--tolerance must be above 0 and at most 50 points, got {tolerance:g}")
    return Target(q, op, v, float(tolerance))


# ------------------------------------------------------------------ settings
Setting = tuple[tuple[str, int], ...]  # ((row name, value), ...) in the table's order; () = base rules


def default_value(row: RuleSwitch, n: int) -> int:
    """The row's value under the base rules at ``n`` players (the hand limit's default, 0, stands
    for R2.4's limit at the count, which naming it plays alike)."""
    if row.name == "hand-limit" and row.default == 0:
        from ..engine.state import hand_limit_for_nb

        return int(getattr(hand_limit_for_nb, "py_func", hand_limit_for_nb)(n))
    return row.default


def choices(n: int, items: str = "full") -> dict[str, tuple[int, ...]]:
    """Per row that can be played at ``n`` players with ``items``, its values other than the base
    rules' that make a playable game (a hand limit too small for the items is not)."""
    out = {}
    for row in SWITCHES:
        if n in row.players:
            vals = []
            for v in row.values:
                if v == default_value(row, n):
                    continue
                try:
                    config(n, items, "random", ((row.name, v),))
                except KutschError:
                    continue
                vals.append(v)
            if vals:
                out[row.name] = tuple(vals)
    return out


def canonical(items) -> Setting:
    order = {s.name: i for i, s in enumerate(SWITCHES)}
    return tuple(sorted(((str(k), int(v)) for k, v in items), key=lambda kv: order[kv[0]]))


def spell(setting: Setting) -> tuple[str, ...]:
    """The ``variants`` of :class:`api.GameConfig` for a setting: a switch by its name, a numeric
    house rule as ``name=value``."""
    return tuple(k if BY_NAME[k].bit else f"{k}={v}" for k, v in setting)


def label(setting: Setting) -> str:
    return "+".join(spell(setting)) if setting else "base"


def config(n: int, items: str, bots: str, setting: Setting) -> GameConfig:
    """The configuration of a setting (raises :class:`KutschError` if it cannot be played)."""
    return GameConfig(n, item_set=items, bots=(bots,) * n, variants=spell(setting))


# ------------------------------------------------------------------ games and quantities
def play(cfg: GameConfig, seed: int, n_games: int, base_id: int, advance=None) -> np.ndarray:
    """Records of games 0 .. n_games-1 of ``seed`` under ``cfg``, on the base rules' streams."""
    from ..play import play_batch
    from ..search.games import batch_kernel

    spec = cfg.spec(seed, config_id=base_id)
    out = []
    for g0 in range(0, n_games, CHUNK):
        k = min(CHUNK, n_games - g0)
        out.append(play_batch(spec, g0, k, kernel=batch_kernel(spec)))
        if advance is not None:
            advance(k)
    return np.concatenate(out) if out else np.zeros((0, 0), np.int32)


def seat_wins(rec: np.ndarray, n: int) -> np.ndarray:
    """bool[games, n]: the seats that won each game (with their team, or the Loge alone)."""
    win = rec[:, REC.WINNER]
    team = rec[:, REC.TEAM0:REC.TEAM0 + n]
    team_win = (win == WIN.ORDER) | (win == WIN.BROTHERHOOD)
    won = (team == win[:, None]) & team_win[:, None]
    return won | ((win == WIN.SOLO)[:, None] & (np.arange(n)[None, :] == rec[:, REC.SOLO_SEAT][:, None]))


def per_game(rec: np.ndarray, n: int, quantity: str) -> tuple[np.ndarray, np.ndarray]:
    """(numerator, denominator) per game of a quantity: its value is sum(num) / sum(den),
    in per cent (points for seat-edge, turns for length)."""
    win = rec[:, REC.WINNER]
    team_win = ((win == WIN.ORDER) | (win == WIN.BROTHERHOOD)).astype(float)
    one = np.ones(len(rec))
    if quantity == "smaller":
        return 100.0 * (team_win * (win == rec[:, REC.MINORITY])), team_win
    if quantity == "order":
        return 100.0 * (win == WIN.ORDER), team_win
    if quantity == "loge":
        return 100.0 * (win == WIN.SOLO), one
    if quantity == "timeout":
        return 100.0 * (win == WIN.TIMEOUT), one
    if quantity == "length":
        return rec[:, REC.TURNS].astype(float), one
    if quantity == "seat-edge":
        w = seat_wins(rec, n).astype(float)
        return 100.0 * (w[:, 0] - w.mean(axis=1)), one
    raise KeyError(quantity)


def ratio_if(num: np.ndarray, den: np.ndarray) -> tuple[float, np.ndarray]:
    """The ratio sum(num)/sum(den) and its influence per game (its mean's variance is the ratio's)."""
    d = float(den.mean()) if len(den) else 0.0
    if d <= 0:
        return math.nan, np.full(len(num), math.nan)
    r = float(num.sum() / den.sum())
    return r, (num - r * den) / d


def estimate(rec: np.ndarray, n: int, quantity: str) -> tuple[float, float, float]:
    """A quantity and its 95% interval."""
    r, f = ratio_if(*per_game(rec, n, quantity))
    h = Z95 * float(np.std(f, ddof=1)) / math.sqrt(len(f)) if len(f) > 1 and not math.isnan(r) else math.nan
    return r, r - h, r + h


def paired(rec: np.ndarray, base: np.ndarray, n: int, quantity: str) -> tuple[float, float, float]:
    """The change of a quantity from ``base`` to ``rec`` (the same games, row by row) and its
    95% paired interval."""
    r1, f1 = ratio_if(*per_game(rec, n, quantity))
    r0, f0 = ratio_if(*per_game(base, n, quantity))
    d = r1 - r0
    h = Z95 * float(np.std(f1 - f0, ddof=1)) / math.sqrt(len(f1)) if len(f1) > 1 and not math.isnan(d) else math.nan
    return d, d - h, d + h


def occupation_spread(rec: np.ndarray, n: int, min_seats: int = 200) -> float:
    """Best minus worst occupation's win rate, in points, over occupations dealt at least
    ``min_seats`` times (NaN if fewer than two)."""
    won = seat_wins(rec, n).ravel()
    occ = rec[:, REC.OCC0:REC.OCC0 + n].ravel()
    k = int(occ.max()) + 1 if len(occ) else 0
    seats = np.bincount(occ, minlength=k)
    wins = np.bincount(occ, weights=won, minlength=k)
    keep = seats >= min_seats
    if keep.sum() < 2:
        return math.nan
    rate = 100.0 * wins[keep] / seats[keep]
    return float(rate.max() - rate.min())


def meets(target: Target, ci: tuple[float, float, float], margin: float = MARGIN) -> bool:
    """The estimate lies in the target's region and its interval within ``margin`` points of it."""
    lo, hi = target.region()
    x, a, b = ci
    return lo <= x <= hi and a >= lo - margin and b <= hi + margin


def verdict(target: Target, ci: tuple[float, float, float], games: int) -> str:
    """Whether a setting meets the target at a (stronger) rung, in words: ``holds``, ``fails``
    (the interval misses the region) or ``undetermined`` with the games it would take to tell."""
    lo, hi = target.region()
    x, a, b = ci
    if math.isnan(x):
        return "undetermined (no games where it applies)"
    if meets(target, ci):
        return "holds"
    if b < lo or a > hi:
        return "fails"
    half = (b - a) / 2
    need = games * (half / MARGIN) ** 2 if half > 0 else games
    return f"undetermined (too few games: about {int(math.ceil(need / 100.0)) * 100:,} would tell)"


def check_quantity(target: Target, n: int, items: str) -> None:
    """Refuse a target that cannot be measured at ``n`` players (one line)."""
    what, odd, loge = QUANTITIES[target.quantity]
    if odd and n % 2 == 0:
        raise KutschError(f"--target {target.quantity}: the teams differ in size at odd player counts only, got {n}")
    if loge:
        from ..cards import cards_in_game, parse_item_set
        from ..cards_nb import C_LOGE

        if not cards_in_game(parse_item_set(items), n)[C_LOGE]:
            raise KutschError(f"--target loge: item set {items!r} has no Coat of Armor of the Loge at {n} players")


def _verdict_rank(v: object) -> int:
    text = str(v) if isinstance(v, str) else ""
    return 0 if text == "holds" else 2 if text == "fails" else 1


def pick(rows: list[dict], target: Target) -> dict | None:
    """The change a count's answer names, among its checked rows (the base rules' row left out):
    of those that meet the target on the fresh deals, the one that fares best at the stronger
    rung (holds, then undetermined, then fails), then with fewer changes, then nearer the
    target; if none meets it, the nearest. None without a checked change."""
    cands = [r for r in rows if r["change"] != "base"]
    if not cands:
        return None
    ok = [r for r in cands if r["meets"]]
    if ok:
        return min(ok, key=lambda r: (_verdict_rank(r.get("strong_verdict")), r["knobs"],
                                      target.distance(r["after"])))
    return min(cands, key=lambda r: target.distance(r["after"]))

