"""What the bots believed at the end of a game, next to the truth.

Python side only: reads the belief arrays :func:`kutsch_sim.api.play_game` returns with
a :class:`~kutsch_sim.api.GameResult` (``beliefs[s, p]`` = P(p is on s's team) as seat s's
bot believes, ``minority_beliefs[s]`` = P(s's team is the minority)).
"""

from __future__ import annotations

import pandas as pd

from ..enums import REC, TEAM_NAMES


def beliefs_at_end(result) -> pd.DataFrame:
    """One row per (seat, other seat): the seat's P(other is a teammate) and the truth.

    Columns: seat, bot, team, other, p_teammate, teammate (truth), error (|p - truth|),
    p_minority (the seat's belief that its team is the minority, odd N; NaN at even N),
    minority (truth)."""
    if result.beliefs is None:
        raise ValueError("this GameResult carries no beliefs (play it with api.play_game)")
    cfg = result.config
    n = cfg.players
    teams = [int(result.record[REC.TEAM0 + p]) for p in range(n)]
    minority = int(result.record[REC.MINORITY])
    rows = []
    for s in range(n):
        for p in range(n):
            if p == s:
                continue
            prob = float(result.beliefs[s, p])
            truth = teams[p] == teams[s]
            rows.append({
                "seat": s,
                "bot": cfg.bots[s],
                "team": TEAM_NAMES[teams[s]],
                "other": p,
                "p_teammate": prob,
                "teammate": truth,
                "error": abs(prob - float(truth)),
                "p_minority": float(result.minority_beliefs[s]) if n % 2 else float("nan"),
                "minority": (teams[s] == minority) if n % 2 else False,
            })
    return pd.DataFrame(rows)


# bots that hold no beliefs: they never read the belief arrays (bots.params BOT_NAMES), so
# the numbers the engine keeps for their seats mean nothing
NO_BELIEFS = {"random": "no beliefs (random bot)", "first": "no beliefs (first-option bot)"}


def format_beliefs(result) -> str:
    """A small table: each seat's belief (percent) that each other seat is a teammate, with
    the truth marked (``*`` = really a teammate); at odd N also the seat's belief that its own
    team is the minority, the one it judges a Drink of Power by (R7): from hard evidence only
    for greedy bots, and for smart bots the lower of that and the estimate from all evidence
    (bots.beliefs.refresh_cards_nb), so it can disagree with a smart bot's teammate columns.
    Seats whose bot holds no beliefs (random, first) show none."""
    df = beliefs_at_end(result)
    n = result.config.players
    odd = n % 2 == 1
    head = f"{'seat':>4s}  {'bot':<8s} {'team':<12s} " + " ".join(f"{p:>4d} " for p in range(n))
    if odd:
        head += "  minority (Drink)"
    lines = ["Beliefs at the end (P teammate %, * = truly a teammate):", head.rstrip()]
    bots = set(result.config.bots)
    for s in range(n):
        sub = df[df.seat == s].set_index("other")
        r0 = sub.iloc[0]
        line = f"{s:>4d}  {r0.bot:<8s} {r0.team:<12s} "
        if r0.bot in NO_BELIEFS:
            lines.append(line + NO_BELIEFS[r0.bot])
            continue
        cells = []
        for p in range(n):
            if p == s:
                cells.append("   - ")
            else:
                r = sub.loc[p]
                cells.append(f"{100 * r.p_teammate:4.0f}" + ("*" if r.teammate else " "))
        line += " ".join(cells)
        if odd:
            line += f"  {100 * r0.p_minority:7.0f}% " + ("(is)" if r0.minority else "(isn't)")
        lines.append(line.rstrip())
    if odd:
        lines.append("minority (Drink) = P(own team is the minority), by which a bot judges a Drink of Power (R7):")
        lines.append("  from hard evidence only (associations seen)" + (";" if "smart" in bots else "."))
        if "smart" in bots:
            lines.append("  a smart bot takes the lower of that and its estimate from all evidence (how seats play),")
            lines.append("  so a row's two parts can seem to disagree.")
    if "greedy" in bots:
        lines.append("greedy bots hold hard evidence only: 100 or 0 for a seat whose association they have "
                     "seen, else 50.")
    return "\n".join(lines)
