"""Fit the soft-evidence model (``bots.evidence``, model 1) to how the bots really play.

Each piece of soft evidence the observer weighs (``bots.observer``) is read back from the
event logs of simulated games (:func:`evidence_rows`, the observer's own reading of each
event), with what the observer knows of its context (has the actor seen the other's
association card? public, R5.8, R9) and the truth: are the two on the same team? A type's
weight is then its log-likelihood ratio,

    logit P(same | the event) - logit P(same),

with P(same) the share of all ordered pairs of seats on one team (for ``n`` players: at odd N
the teams are (N-1)/2 and (N+1)/2, R2.2), and ``PRIOR_PAIRS`` pairs at that rate added to every
type so that a rare type keeps a weight near 0. The fit is a fixed point: the weights change
the beliefs, the beliefs change the play, and the play changes what each behaviour says, so
:func:`fit` plays with the table it is given and returns the next one; a few rounds settle it
(``docs/calibration.md`` gives the rounds as made).
"""

from __future__ import annotations

import datetime
import subprocess
from pathlib import Path

import numpy as np

from ..api import GameConfig, play_game
from ..bots.evidence import (
    E_ACCEPT,
    E_ATTACK,
    E_BONUS_WITH,
    E_DOCTOR_WITH,
    E_MIXER_WITH,
    E_OFFER,
    E_PRIEST_SELF,
    E_PRIEST_WITH,
    E_REJECT,
    E_SUPPORT_WITH,
    G_OFFER_MINE,
    G_PASS_MINE,
    G_RETURN_MINE,
    N_PRIV,
    N_PUB,
    PRIV_LABELS,
    PUB_LABELS,
)
from ..cards_nb import C_PEARL, future_team_nb
from ..enums import EV, MAX_PLAYERS, OFFER_DIPLOMAT, REC, SIDE_ATT, SIDE_DEF

PRIOR_PAIRS = 30.0  # pseudo-observations at the base rate added to every (type, knows) cell
TABLE = Path(__file__).resolve().parents[1] / "bots" / "evidence_table.py"


def base_same(n: int) -> float:
    """The share of ordered pairs of seats on one team at n players (R2.2)."""
    a, b = (n // 2, n // 2) if n % 2 == 0 else ((n - 1) // 2, (n + 1) // 2)
    return (a * (a - 1) + b * (b - 1)) / (n * (n - 1))


def evidence_rows(events: np.ndarray, team: np.ndarray, n: int) -> list[tuple[int, int, int, int, int]]:
    """(public 0 / private 1, type, knows, actor, other) for every piece of soft evidence the
    observer weighs in one game's event log (``bots.observer.observe_nb``, read the same way);
    a private row's actor is the giver and its other the receiver. ``knows``: the actor had
    seen the other's association card when it acted."""
    known = np.zeros((MAX_PLAYERS, MAX_PLAYERS), bool)
    for p in range(n):
        known[p, p] = True
    out: list[tuple[int, int, int, int, int]] = []
    att = dfd = won = -1
    forced = False

    def pub(typ: int, actor: int, other: int) -> None:
        if actor != other and actor >= 0 and other >= 0:
            out.append((0, typ, int(known[actor, other]), actor, other))

    def side(typ: int, actor: int, x: int, y: int) -> None:
        if actor not in (x, y) and x >= 0 and y >= 0:
            pub(typ, actor, x)
            pub(typ + 1, actor, y)

    def gift(how: int, r: int, g: int, c: int) -> None:
        if r < 0 or g < 0 or r == g:
            return
        f = future_team_nb(c)
        if f >= 0 and f == team[r]:
            out.append((1, how, int(known[g, r]), g, r))
        elif c == C_PEARL:
            out.append((1, how + 1, int(known[g, r]), g, r))

    for t, _turn, a, b, c, d in events:
        if t == EV.SEE_ASSOC:
            known[a, b] = True
        elif t == EV.ATTACK:
            att, dfd, won = a, b, -1
            pub(E_ATTACK, a, b)
        elif t == EV.SUPPORT:
            x, y = (att, dfd) if b == SIDE_ATT else (dfd, att)
            side(E_SUPPORT_WITH, a, x, y)
        elif t == EV.BONUS:
            if a not in (att, dfd):
                x, y = (att, dfd) if c == SIDE_ATT else (dfd, att)
                side(E_BONUS_WITH, a, x, y)
        elif t == EV.MIXER:
            x, y = (att, dfd) if b == SIDE_ATT else (dfd, att)
            side(E_MIXER_WITH, a, x, y)
        elif t == EV.RESULT:
            won = c
        elif t == EV.DOCTOR:
            if won in (SIDE_ATT, SIDE_DEF):
                loser, winner = (dfd, att) if won == SIDE_ATT else (att, dfd)
                side(E_DOCTOR_WITH, a, loser, winner)
        elif t == EV.PRIEST:
            if dfd >= 0:
                if a == dfd:
                    pub(E_PRIEST_SELF, a, b)
                else:
                    side(E_PRIEST_WITH, a, dfd, b)
        elif t == EV.OFFER:
            forced = d == OFFER_DIPLOMAT
            if not forced:
                pub(E_OFFER, a, b)
            gift(G_OFFER_MINE, b, a, c)
        elif t == EV.ACCEPT:
            if not forced:
                pub(E_ACCEPT, b, a)
                gift(G_RETURN_MINE, a, b, d)
            forced = False
        elif t == EV.REJECT:
            pub(E_REJECT, b, a)
        elif t in (EV.PASS_ON, EV.GIVE):
            gift(G_PASS_MINE, b, a, c)
    return out


def count(n: int, items: str, bots: tuple[str, ...], seed: int, games: int, game0: int = 0,
          progress=None) -> tuple[np.ndarray, np.ndarray]:
    """(same-team count, total) per (public/private, type, knows): int64[2, N_PUB, 2] each,
    from ``games`` traced games (``api.play_game``)."""
    cfg = GameConfig(n, items, bots)
    same = np.zeros((2, N_PUB, 2), np.int64)
    tot = np.zeros((2, N_PUB, 2), np.int64)
    for g in range(game0, game0 + games):
        r = play_game(cfg, seed, g)
        team = r.record[REC.TEAM0:REC.TEAM0 + n]
        for kind, typ, knows, actor, other in evidence_rows(r.events, team, n):
            tot[kind, typ, knows] += 1
            same[kind, typ, knows] += team[actor] == team[other]
        if progress is not None:
            progress(1)
    return same, tot


def weights(same: np.ndarray, tot: np.ndarray, n: int) -> np.ndarray:
    """float64[2, N_PUB, 2]: each cell's log-likelihood ratio, shrunk towards 0 by PRIOR_PAIRS
    pairs at the base rate."""
    q = base_same(n)
    p = (same + PRIOR_PAIRS * q) / (tot + PRIOR_PAIRS)
    return np.log(p / (1 - p)) - np.log(q / (1 - q))


def table_source(w: dict[int, np.ndarray], s: dict[int, float], note: str) -> str:
    """The text of ``bots/evidence_table.py`` for weights ``w[n]`` (float64[2, N_PUB, 2]) and
    saturations ``s[n]``; counts not fitted get zeros (hard evidence only)."""
    def pub_rows(n: int) -> str:
        x = w.get(n)
        return "(" + ", ".join(f"({x[0, t, 0]:.4f}, {x[0, t, 1]:.4f})" if x is not None else "(0.0, 0.0)"
                               for t in range(N_PUB)) + ")"

    def priv_rows(n: int) -> str:
        x = w.get(n)
        return "(" + ", ".join(f"({x[1, t, 0]:.4f}, {x[1, t, 1]:.4f})" if x is not None else "(0.0, 0.0)"
                               for t in range(N_PRIV)) + ")"

    lines = ['"""The fitted soft-evidence model (``bots.evidence``, model 1), made by',
             "``scripts/dev/fit_beliefs.py evidence`` (``kutsch_sim.calib.evidence``); do not edit by hand.", "",
             *note.splitlines(), "",
             "W_FIT[n][type][knows]: public types ``evidence.PUB_LABELS``:", "    " + ", ".join(PUB_LABELS) + ".",
             "G_FIT[n][type][knows]: private types ``evidence.PRIV_LABELS``:", "    " + ", ".join(PRIV_LABELS) + ".",
             "knows: 1 if the actor had seen the other's association card. S_FIT[n]: the saturation of a pair.",
             '"""', "", "W_FIT = ("]
    lines += [f"    {pub_rows(n)},  # {n} players" for n in range(11)]
    lines += [")", "G_FIT = ("]
    lines += [f"    {priv_rows(n)},  # {n} players" for n in range(11)]
    lines += [")", "S_FIT = (" + ", ".join(f"{s.get(n, 2.0):.2f}" for n in range(11)) + ")", ""]
    return "\n".join(lines)


def provenance() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=TABLE.parent, check=False).stdout.strip()
    except OSError:
        head = ""
    return f"on the code of {head or 'an unknown commit'}, {datetime.date.today().isoformat()}"
