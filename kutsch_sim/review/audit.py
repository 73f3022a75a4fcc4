"""Bot decisions checked against the public events of a played game.

Used by ``tests/test_bots.py`` and ``scripts/reproduce/decision_checks.py``; reads event logs from
:func:`kutsch_sim.api.play_game` (rows ``[type, turn, a, b, c, d]``, ``enums.EV``).
"""

from __future__ import annotations

from ..bots.reasons import R_KEEP_BONUS, R_PLAY_BONUS
from ..enums import DK, EV, SIDE_ATT, SIDE_DEF, SRC

KEYS = ("drink", "drink_not_needed", "mixer", "mixer_after_ring", "duelist", "duelist_wrong")


def fights(events):
    """Each fight's events as tuples, from its ATTACK to its RESULT."""
    fight = None
    for row in events:
        t = int(row[0])
        if t == EV.ATTACK:
            fight = []
        if fight is not None:
            fight.append(tuple(int(x) for x in row))
            if t == EV.RESULT:
                yield fight
                fight = None


def check_game(events, c: dict[str, int]) -> None:
    """Add one game's counts to ``c`` (keys: :data:`KEYS`): Drink of Power declarations and those
    whose team already counted 3 items (R6.3, R7); Poison Mixer uses and those naming the side
    a Poison Ring had already made the winner (R5.6); Duelist decisions (from the REASON rows)
    and those where playing it would (not) have improved the fight, each side's strength
    recomputed from the public events before the decision: 1 + bonuses + supports not voided,
    against the principals' own parts + 1 for the Duelist (R8)."""
    decl = events[events[:, 0] == EV.DECLARE]
    if len(decl) and decl[0][3] == DK.DRINK:
        c["drink"] += 1
        res = events[events[:, 0] == EV.DECL_RESULT][0]
        c["drink_not_needed"] += int(res[4] >= 3)
    for f in fights(events):
        a, d = f[0][2], f[0][3]
        ring = [r[3] for r in f if r[0] == EV.RING]
        mixer = [r[3] for r in f if r[0] == EV.MIXER]
        if mixer:
            c["mixer"] += 1
            c["mixer_after_ring"] += int(bool(ring) and ring[0] == mixer[0])
        total = {SIDE_ATT: 1, SIDE_DEF: 1}
        own = {SIDE_ATT: 1, SIDE_DEF: 1}
        sup = {}
        for row in f:
            t = row[0]
            if t == EV.SUPPORT:
                sup[row[2]] = row[3]
            elif t == EV.VOID:
                sup.pop(row[2], None)
            elif t == EV.BONUS and row[3] != SRC.DUELIST:
                total[row[4]] += row[5]
                if row[2] in (a, d):
                    own[row[4]] += row[5]
            elif t == EV.REASON and row[3] in (R_PLAY_BONUS, R_KEEP_BONUS) and row[5] == SRC.DUELIST:
                side = SIDE_ATT if row[2] == a else SIDE_DEF
                other = SIDE_DEF if side == SIDE_ATT else SIDE_ATT
                mine, theirs = (total[x] + sum(1 for v in sup.values() if v == x) for x in (side, other))
                now = (mine > theirs) - (mine < theirs)
                then = (own[side] + 1 > own[other]) - (own[side] + 1 < own[other])
                c["duelist"] += 1
                c["duelist_wrong"] += int((row[3] == R_PLAY_BONUS) != (then > now))
