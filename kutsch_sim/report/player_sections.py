"""The report's sections about players: seats, occupations and starting items.

Each effect that changes sign or size across player counts is shown per count; a number
pooled over counts comes with its spread across counts beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .sections import Section, _cells, _dcells, _n, pct, rate_cell


def _per_count(frame: pd.DataFrame, label: str, value: str, order: list) -> pd.DataFrame:
    """A (label x player count) display table of ``value`` in signed points."""
    piv = frame.pivot(index=label, columns="players", values=value).reindex(order)
    cells = piv.map(lambda x: "" if pd.isna(x) else f"{100 * x:+.1f}")
    cells.columns = [str(c) for c in cells.columns]
    return cells.reset_index()


def seat_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    s, sp = t["seats"], t.get("spreads", pd.DataFrame())
    sec = Section("Seat advantage", csv=["seats.csv", "spreads.csv"])
    if len(s) == 0:
        sec.para("No seat data.")
        return sec
    seat_sp = sp[sp["what"] == "seat"] if len(sp) else sp
    sec.para(
        "Seat 0 is the start player; seats follow clockwise. A seat's win counts when its team wins or it wins "
        "alone. The gap between the best and worst seat is " + ", ".join(
            f"{100 * r.diff:.1f} points at {r.players}" for r in seat_sp.itertuples()) + " players. Picking the "
        "best and the worst makes a gap even where seats do not matter: with no seat effect at all it would be "
        + ", ".join(f"{100 * r.expected_gap:.1f}" for r in seat_sp.itertuples()) + " points on average (simulated "
        "from the seat rates' covariance, clustered by game: the seats of a game share it). The findings test "
        "each gap with its interval widened for the pairs it was picked from (`spreads.csv`).")
    sec.image(img, "Seat win rate minus the average seat, per player count")
    d = s.copy()
    d["cell"] = _cells(d)
    disp = d.pivot(index="seat", columns="players", values="cell")
    disp.columns = [f"{c} players" for c in disp.columns]
    sec.table("Win rate by seat (rows) and player count (columns)", disp.fillna("").reset_index())
    return sec


def occupation_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    o, ob = t["occupations"], t.get("occupations_by_players")
    sec = Section("Occupation strength", csv=["occupations.csv", "occupations_by_players.csv", "spreads.csv"])
    if len(o) == 0:
        sec.para("No occupation data.")
        return sec
    per_count = ob is not None and len(ob) and ob["players"].nunique() > 1
    best, worst = o.loc[o["rate"].idxmax()], o.loc[o["rate"].idxmin()]
    text = (f"Win rate of the players by the occupation they were dealt. Pooled over all player counts "
            f"({int(o['n'].sum()):,} seat-games; the average seat wins {pct(o['base'].iloc[0])}) the strongest "
            f"is the {best['occupation']} ({rate_cell(best['rate'], best['lo'], best['hi'])}) and the weakest the "
            f"{worst['occupation']} ({rate_cell(worst['rate'], worst['lo'], worst['hi'])})")
    if per_count:
        spread = ob.groupby("occupation")["excess"].agg(["min", "max"])
        b, w = spread.loc[best["occupation"]], spread.loc[worst["occupation"]]
        text += (f", but the pooled order hides how much it depends on the count: against the average seat the "
                 f"{best['occupation']} ranges from {100 * b['min']:+.1f} to {100 * b['max']:+.1f} points and the "
                 f"{worst['occupation']} from {100 * w['min']:+.1f} to {100 * w['max']:+.1f}. Read the table per "
                 "count")
    sec.para(text + ".")
    sec.image(img, "Occupation win rate minus the average seat")
    if per_count:
        best_by = ob.loc[ob.groupby("players")["excess"].idxmax()]
        worst_by = ob.loc[ob.groupby("players")["excess"].idxmin()]
        sp = t.get("spreads", pd.DataFrame())
        occ_sp = sp[(sp["what"] == "occupation") & (sp["players"] > 0)].set_index("players") if len(sp) else sp
        sec.para(
            "Strongest per count: " + ", ".join(f"{r.players}: {r.occupation} ({100 * r.excess:+.1f})"
                                                 for r in best_by.itertuples())
            + "; weakest: " + ", ".join(f"{r.players}: {r.occupation} ({100 * r.excess:+.1f})"
                                         for r in worst_by.itertuples())
            + " (points against the average seat at that count; intervals in `occupations_by_players.csv`)."
            + (" With no occupation effect, picking the best and worst of 10 would give a gap of " + ", ".join(
                f"{100 * r.expected_gap:.1f}" for r in occ_sp.itertuples()) + " points at "
               + ", ".join(str(p) for p in occ_sp.index) + " players on average." if len(occ_sp) else ""))
        order = list(o.sort_values("rate", ascending=False)["occupation"])
        sec.table("Occupation win rate minus the average seat (points), per player count",
                  _per_count(ob, "occupation", "excess", order))
    disp = pd.DataFrame({"occupation": o["occupation"], "seat-games": o["n"].map(_n), "win rate": _cells(o),
                         "vs average seat (points)": [f"{100 * x:+.1f}" for x in o["excess"]]})
    sec.table("Win rate by starting occupation, all player counts pooled (descriptive: see per count above)",
              disp.iloc[np.argsort(-o["rate"].to_numpy(), kind="stable")])
    return sec


def start_item_section(t: dict[str, pd.DataFrame], img: str | None) -> Section:
    s, sb = t["start_items"], t.get("start_items_by_players")
    sec = Section("Starting-item strength", csv=["start_items.csv", "start_items_by_players.csv"])
    if len(s) == 0:
        sec.para("No starting-hand data.")
        return sec
    sec.para("Win rate of players who started with a card of each kind against those who did not. The two "
             "rates are the raw pooled ones; the difference is **adjusted for the player count**: the per-count "
             "differences averaged with the weights of the seats that held the item, because who holds a kind "
             "depends on the count (no Black Pearl at 3 players, one Secret Bag a game), and the raw gap would mix "
             "in how well seats do at each count -- so the difference can even have the opposite sign of the "
             "two raw rates beside it. A Key helps an Order player and a Goblet a Brotherhood player, so these "
             "mix both teams.")
    if sb is not None and len(sb) and sb["players"].nunique() > 1:
        flips = [r.item for r in sb.groupby("item")["diff"].agg(["min", "max"]).reset_index().itertuples()
                 if r.min < 0 < r.max]
        if flips:
            sec.para("The effect changes sign across player counts for " + ", ".join(flips) + ": read those per "
                     "count (table below; the findings test each count).")
        sec.table("Win rate with the item minus without (points), per player count",
                  _per_count(sb, "item", "diff", list(s["item"])))
    sec.image(img, "Win rate with each starting item minus without, adjusted for player count")
    disp = pd.DataFrame({"item": s["item"], "seat-games with it": s["n_with"].map(_n),
                         "raw win rate with": _cells(s, suffix="_with"), "raw without": _cells(s, suffix="_without"),
                         "difference, adjusted for player count (points)": _dcells(s)})
    sec.table("Win rate by starting item, all player counts", disp)
    return sec
