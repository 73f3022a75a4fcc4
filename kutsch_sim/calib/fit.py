"""Fit the calibration maps and surfaces (``bots.calibration``) to what the recorder saw.

Input: the claims of games played by the profile being calibrated (``calib.record``, one
DataFrame with the columns ``n``, the player count, and ``config``, a label of the
configuration the game belongs to). Per count:

* the surfaces (``calib.surface``), from every decision at which the seat weighed a
  declaration, over the claim's posterior value and the same from hard evidence alone
  (``COL_X2``, ``COL_X1``): P(teammate) of the seats a plan names (two: named by the
  declaration taken or not), P(all of them) and P(my team is the smaller); each drawn towards
  the table's surface where claims are thin (``prior``);
* the maps, each a logistic regression of the label on the map's features: ``M_WAIT``
  (``act.wait_odds_nb`` and the turn; the label: the seat won); ``M_ITEM`` (the seat's
  confidence that the card is still there) from the cards of the declarations taken;
* the declarations, ``M_TEAM`` and ``M_DRINK``, from the declarations taken only: P(success)
  made of the *new* parts (the joint surface of the named seats, times each counted card's item
  map, times the minority surface for the Drink) is the feature, for ``M_TEAM`` with the new
  ``M_WAIT``'s P(win by playing on) beside it, and whether the declaration succeeded the label;
* the search, ``M_SEARCH``, from a search profile's picks: whether the seat won, on its pick's
  share of the sampled worlds.

A count with too few rows for a map keeps the identity (0, 1, 0), for a surface its prior.
scikit-learn does the regressions (``pip install -e '.[test]'``); nothing at play time needs it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..bots.calibration import (
    M_DRINK,
    M_ITEM,
    M_SEARCH,
    M_TEAM,
    M_WAIT,
    MAP_LABELS,
    N_MAPS,
    N_SURF,
    P_EDGE,
    S_JOINT,
    S_MINOR,
    S_NAMED,
    S_NAMED_DECL,
    SURF_LABELS,
)
from ..bots import calibration_table as TABLE
from ..bots.calibration_table import DZ, N_KNOTS, Z0
from . import surface as S
from .record import T_DECL_DRINK, T_DECL_TEAM, T_ITEM, T_JOINT, T_MINORITY, T_NAMED, T_SEARCH, T_WAIT

MIN_ROWS = 200  # a map needs this many rows (and both labels) at a count, else it stays the identity
KEY = ["config", "game", "turn", "seat", "kind"]  # a claim's decision; "config" names the configuration
GRID = Z0 + DZ * np.arange(N_KNOTS)  # the logistic scores at which a map's curve is kept


class Map(NamedTuple):
    coef: tuple[float, float, float, float]  # c0 .. c3
    knots: tuple[float, ...]  # the curve at GRID


IDENTITY = Map((0.0, 1.0, 0.0, 0.0), tuple(float(x) for x in 1.0 / (1.0 + np.exp(-GRID))))


def logit(p) -> np.ndarray:
    q = np.clip(np.asarray(p, np.float64), P_EDGE, 1 - P_EDGE)
    return np.log(q / (1 - q))


def regress(features: list[np.ndarray], y: np.ndarray, curve: bool = True) -> Map:
    """A logistic regression of y on up to three features, and (``curve``) the isotonic curve of
    y on its score (``bots.calibration``), else the logistic itself; the identity when the rows
    are too few or of one label."""
    from sklearn.isotonic import IsotonicRegression
    from sklearn.linear_model import LogisticRegression

    y = np.asarray(y, np.float64)
    if len(y) < MIN_ROWS or y.min() == y.max():
        return IDENTITY
    x = np.column_stack(features)
    m = LogisticRegression(C=100.0, max_iter=5000).fit(x, y)
    coef = [float(m.intercept_[0])] + [float(c) for c in m.coef_[0]]
    coef += [0.0] * (4 - len(coef))
    if not curve:
        return Map(tuple(coef), IDENTITY.knots)
    z = x @ np.asarray(coef[1:1 + x.shape[1]]) + coef[0]
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(z, y)
    # inside the scores seen, the isotonic curve; beyond them, the logistic (never an isotonic
    # end held out to scores no row had: a map fitted on the declarations made would else
    # state their lowest success for a hopeless plan), joined so that the curve keeps rising
    knots = iso.predict(GRID)
    lo, hi = z.min(), z.max()
    logistic = 1.0 / (1.0 + np.exp(-GRID))
    knots = np.where(lo > GRID, np.minimum(logistic, iso.predict([lo])[0]), knots)
    knots = np.where(hi < GRID, np.maximum(logistic, iso.predict([hi])[0]), knots)
    return Map(tuple(coef), tuple(float(v) for v in np.maximum.accumulate(knots)))


def apply(mp: Map, *features) -> np.ndarray:
    """The map of the features, as ``bots.calibration.map_nb`` reads it."""
    z = mp.coef[0] + sum(c * np.asarray(f, np.float64) for c, f in zip(mp.coef[1:], features, strict=False))
    return np.interp(z, GRID, mp.knots)


def read_surface(s: np.ndarray, p, h) -> np.ndarray:
    """What a calibrated seat states from surface s for a posterior p whose hard-evidence share is
    h, as ``bots.calibration.surf_nb`` reads it: what hard evidence settles (h 0 or 1) stays
    settled, the rest is the surface at the two logits."""
    h = np.asarray(h, np.float64)
    return np.where(h <= 0.0, 0.0, np.where(h >= 1.0, 1.0, S.apply_surface(s, logit(p), logit(h))))


def fit_count(d: pd.DataFrame, prior: np.ndarray, keep: tuple[int, ...] = (),
              table: dict[int, Map] | None = None) -> tuple[list[Map], np.ndarray]:
    """The N_MAPS maps and the N_SURF surfaces of one player count from its claims ``d``, each
    surface drawn towards ``prior[k]`` where claims are thin; the surfaces in ``keep`` stay the
    prior's, and so do the maps in ``table`` (of ``M_ITEM`` and ``M_WAIT``: the count's maps as
    they are). The declaration maps are fitted on the parts the returned surfaces and maps give."""
    maps = [IDENTITY] * N_MAPS
    surfs = np.array(prior, np.float64, copy=True)
    t = d["type"].to_numpy()

    def rows(typ: int) -> pd.DataFrame:
        return d[t == typ]

    named, joint, item, minority, wait = (rows(x) for x in (T_NAMED, T_JOINT, T_ITEM, T_MINORITY, T_WAIT))
    dec = S.declared(named)
    for k, x in ((S_NAMED, named[dec == 0]), (S_NAMED_DECL, named[dec == 1]), (S_JOINT, joint), (S_MINOR, minority)):
        if k not in keep:
            surfs[k] = S.fit_surface(logit(x.x2), logit(x.x1), x.label.to_numpy(np.float64), prior[k])
    table = table or {}
    maps[M_ITEM] = table[M_ITEM] if M_ITEM in table else regress([logit(item.x2)], item.label)
    maps[M_WAIT] = table[M_WAIT] if M_WAIT in table else regress([logit(wait.x1), wait.x2.to_numpy()], wait.label)
    # the declarations taken, their features rebuilt from the new parts
    j = joint.assign(jn=read_surface(surfs[S_JOINT], joint.x2, joint.x1))[KEY + ["jn"]]
    it = item.assign(i=apply(maps[M_ITEM], logit(item.x2))).groupby(KEY, as_index=False)["i"].prod()
    mi = minority.assign(mn=read_surface(surfs[S_MINOR], minority.x2, minority.x1))[KEY[:-1] + ["mn"]]
    wt = wait.assign(wn=apply(maps[M_WAIT], logit(wait.x1), wait.x2))[KEY[:-1] + ["wn"]].drop_duplicates(KEY[:-1])
    for typ, m in ((T_DECL_TEAM, M_TEAM), (T_DECL_DRINK, M_DRINK)):
        dec = rows(typ)
        dec = dec[(dec.chosen == 1) & (dec.stated > 0)]
        if typ == T_DECL_TEAM:
            dec = dec[dec.about > 0]  # naming nobody, with 3 of its own: sure, no map
        dec = dec.merge(j, on=KEY, how="left").merge(it, on=KEY, how="left")
        parts = dec.jn.fillna(1.0).to_numpy() * dec.i.fillna(1.0).to_numpy()
        if typ == T_DECL_DRINK:
            # a plan naming more seats than the smaller team holds besides the declarer is not
            # made (bots.calibration.cal_plan_nb; R2.2, R7): claims of it are left out
            cap = (int(d["n"].iloc[0]) - 1) // 2 - 1
            named = np.array([bin(int(a)).count("1") if a > 0 else 0 for a in dec.about])
            dec, parts = dec[named <= cap], parts[named <= cap]
            dec = dec.merge(mi, on=KEY[:-1], how="left")
            parts = parts * dec.mn.fillna(0.5).to_numpy()
            maps[m] = regress([logit(parts)], dec.label)
        else:
            # the team map reads the stated odds of playing on too (a seat that does not declare
            # by value has none: 1/2, logit 0): at one estimate, a declaration taken when those
            # odds are poor is a marginal one and succeeds less (docs/calibration.md). The Drink
            # map does not: read so, it made the Drink a gamble taken half as often again at 7
            # players, a third of them failing
            dec = dec.merge(wt, on=KEY[:-1], how="left")
            maps[m] = regress([logit(parts), logit(dec.wn.fillna(0.5))], dec.label)
    return maps, surfs


def fit_search(d: pd.DataFrame) -> Map:
    """M_SEARCH of one player count from the search's claims ``d`` (``T_SEARCH``): whether the seat
    won, on the logit of its pick's share of the worlds (``x2``), whether that share differs from
    smart's choice's (``x1``: a pick that replaced it, ``search.lookahead``) and their product."""
    x = d[d["type"].to_numpy() == T_SEARCH]
    share = x["x2"].to_numpy()
    picked = (np.round(100.0 * share) != np.round(100.0 * x["x1"].to_numpy())).astype(np.float64)
    return regress([logit(share), picked, picked * logit(share)], x["label"])


def in_table(n: int, k: int) -> Map:
    """Map k at n players as ``bots/calibration_table.py`` holds it."""
    return Map(tuple(TABLE.CAL[n][k]), tuple(TABLE.KNOTS[n][k]))


def surfs_in_table(n: int) -> np.ndarray:
    """The N_SURF surfaces at n players as ``bots/calibration_table.py`` holds them."""
    return np.asarray(TABLE.SURF[n], np.float64)


def fit(claims: pd.DataFrame, search: pd.DataFrame | None = None, keep: tuple[int, ...] = (),
        keep_maps: tuple[int, ...] = ()) -> tuple[dict[int, list[Map]], dict[int, np.ndarray]]:
    """Maps and surfaces per player count found in ``claims`` (the smart profile's; each surface
    drawn towards the table's, the surfaces in ``keep`` and the maps in ``keep_maps`` (of
    ``M_ITEM``, ``M_WAIT``) left as the table has them), with M_SEARCH from the search profile's
    claims ``search`` where it has them (else the identity)."""
    def table(n: int) -> dict[int, Map]:
        return {k: in_table(n, k) for k in keep_maps}

    fitted = {int(n): fit_count(d, surfs_in_table(int(n)), keep, table(int(n))) for n, d in claims.groupby("n")}
    maps = {n: m for n, (m, _) in fitted.items()}
    surfs = {n: sf for n, (_, sf) in fitted.items()}
    if search is not None:
        for n, d in search.groupby("n"):
            maps.setdefault(int(n), [IDENTITY] * N_MAPS)[M_SEARCH] = fit_search(d)
    return maps, surfs


def table_source(maps: dict[int, list[Map]], temper: dict[int, float], note: str,
                 surfs: dict[int, np.ndarray]) -> str:
    """The text of ``bots/calibration_table.py``: CAL[n][map] = (c0, c1, c2, c3) and KNOTS[n][map],
    the identity where a count was not fitted, TEMPER_FIT[n] (1 where not fitted) and the surfaces
    SURF[n][k] (the identity where not fitted)."""
    lines = ['"""The calibration maps and surfaces (``bots.calibration``), made by',
             '``scripts/dev/fit_beliefs.py maps`` (``kutsch_sim.calib.fit``); do not edit by hand.', "",
             *note.splitlines(), "",
             "CAL[n][map] = (c0, c1, c2, c3), the logistic score's coefficients; KNOTS[n][map] its curve at",
             "z = Z0, Z0 + DZ, ...; maps in the order " + ", ".join(MAP_LABELS) + ". TEMPER_FIT[n]: the",
             "search's worlds are drawn from the posterior weights to this power. SURF[n][k][i][j]: surface k",
             "(" + ", ".join(SURF_LABELS) + ") at logit P = S_U0 + i S_DU and logit",
             "P(hard alone) = S_W0 + j S_DW (calib.surface).", '"""', "",
             f"Z0 = {Z0}", f"DZ = {DZ}", f"N_KNOTS = {N_KNOTS}",
             f"S_U0, S_DU, S_NU = {S.U0}, {S.DU}, {S.NU}", f"S_W0, S_DW, S_NW = {S.W0}, {S.DW}, {S.NW}",
             "TEMPER_FIT = (" + ", ".join(f"{temper.get(n, 1.0):.2f}" for n in range(11)) + ")",
             "CAL = ("]
    for n in range(11):
        row = maps.get(n, [IDENTITY] * N_MAPS)
        lines.append("    (" + ", ".join("(" + ", ".join(f"{c:.5f}" for c in mp.coef) + ")" for mp in row)
                     + f"),  # {n} players")
    lines += [")", "KNOTS = ("]
    for n in range(11):
        row = maps.get(n, [IDENTITY] * N_MAPS)
        lines.append(f"    (  # {n} players")
        for mp in row:
            lines.append("        (" + ", ".join(f"{v:.5f}" for v in mp.knots) + "),")
        lines.append("    ),")
    lines += [")", "SURF = ("]
    for n in range(11):
        sf = surfs.get(n)
        sf = np.stack([S.identity()] * N_SURF) if sf is None else sf
        lines.append(f"    (  # {n} players: " + ", ".join(SURF_LABELS) + "; a surface a line")
        for k in range(N_SURF):
            lines.append("        (" + ", ".join("(" + ", ".join(f"{v:.5f}" for v in row) + ")" for row in sf[k])
                         + "),")
        lines.append("    ),")
    lines += [")", ""]
    return "\n".join(lines)
