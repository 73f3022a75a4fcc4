"""Running a position: play scripted decisions from a :class:`~kutsch_sim.notation.position.Position`.

:func:`run` builds the engine state (debug mode: invariants checked after every event),
plays the given number of turns with the engine's own turn function and returns an
:class:`Outcome` with readable accessors (hands as names, winner label, what seats know,
decoded events). See ``docs/positions.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..cards import ITEM_KEYS, OCC_KEYS
from ..enums import (
    CARD_KIND_LIST,
    DECISION_LABELS,
    ERR,
    ERR_LABELS,
    EV_COLS,
    LOC_OUT,
    LOC_PILE,
    N_OCCS,
    SC,
    TEAM_NAMES,
    WIN,
    WINNER_LABELS,
    Event,
)
from ..errors import KutschError
from .names import DEFAULT_LOG_CAP
from .position import Position
from .script import compile_script_lines, script_lines

EVENT_NAMES = tuple(f.lower() for f in Event._fields)


class Ev(NamedTuple):
    """One decoded event row (meanings of a..d in ``enums.Event``)."""

    name: str
    turn: int
    a: int
    b: int
    c: int
    d: int


@dataclass
class Outcome:
    """The state after :func:`run`, with readable accessors used by tests and users."""

    position: Position
    state: object  # engine State (namedtuple of numpy arrays)
    events: list[Ev]
    script_len: int

    @property
    def n(self) -> int:
        return self.position.n

    @property
    def over(self) -> bool:
        return bool(self.state.sc[SC.OVER])

    @property
    def winner(self) -> str | None:
        """``order``, ``brotherhood``, ``solo``, ``timeout``, ``error``, or None if still on."""
        w = int(self.state.sc[SC.WINNER])
        return None if w == WIN.NONE else WINNER_LABELS[w]

    @property
    def error(self) -> str:
        return ERR_LABELS[int(self.state.sc[SC.ERROR])]

    @property
    def script_used(self) -> int:
        return int(self.state.sc[SC.SCRIPT_POS])

    @property
    def active(self) -> int:
        return int(self.state.sc[SC.ACTIVE])

    @property
    def turns(self) -> int:
        return int(self.state.sc[SC.TURN])

    def cards(self, seat: int) -> list[int]:
        return [int(c) for c in np.flatnonzero(self.state.loc == seat)]

    def hand(self, seat: int) -> list[str]:
        """Item keys in seat's hand, in card order (``['Key', 'Key', 'Dagger']``)."""
        return [ITEM_KEYS[CARD_KIND_LIST[c]] for c in self.cards(seat)]

    def deck(self) -> list[str]:
        """Item keys in the deck, top first."""
        dn = int(self.state.sc[SC.DECK_N])
        return [ITEM_KEYS[CARD_KIND_LIST[int(self.state.deck[i])]] for i in range(dn - 1, -1, -1)]

    def out(self) -> list[str]:
        return [ITEM_KEYS[CARD_KIND_LIST[c]] for c in np.flatnonzero(self.state.loc == LOC_OUT)]

    def occupation(self, seat: int) -> str:
        return OCC_KEYS[int(self.state.occ[seat])]

    def face_up(self, seat: int) -> bool:
        return bool(self.state.occ_up[seat])

    def pile(self) -> list[str]:
        return [OCC_KEYS[o] for o in range(N_OCCS) if self.state.occ_loc[o] == LOC_PILE]

    def knows_team(self, seer: int, seat: int) -> str | None:
        t = int(self.state.k_assoc[seer, seat])
        return None if t < 0 else TEAM_NAMES[t]

    def knows_occupation(self, seer: int, seat: int) -> str | None:
        o = int(self.state.k_occ[seer, seat])
        return None if o < 0 else OCC_KEYS[o]

    def knows_card_at(self, seer: int, card: int) -> int:
        """Where ``seer`` last saw ``card``: a seat, LOC_DECK (10), or -1."""
        return int(self.state.k_card[seer, card])

    def of(self, name: str) -> list[Ev]:
        """Events of one type, e.g. ``of("draw")`` (names of ``enums.Event``, any case)."""
        key = name.lower()
        if key not in EVENT_NAMES:
            raise KutschError(f"unknown event {name!r}; valid: {', '.join(EVENT_NAMES)}")
        return [e for e in self.events if e.name == key]

    def played(self) -> list[Ev]:
        """Events after the set-up."""
        i = next(i for i, e in enumerate(self.events) if e.name == "setup_done")
        return self.events[i + 1:]


def decode_events(st) -> list[Ev]:
    m = min(int(st.sc[SC.N_EVENTS]), int(st.sc[SC.LOG_CAP]))
    return [Ev(EVENT_NAMES[r[0]], *(int(x) for x in r[1:EV_COLS])) for r in st.log[:m]]


def run(position: Position | str, script: Sequence[str] | str | np.ndarray = (), turns: int | None = None, *,
        bots: str | Sequence[str] = "first", log_cap: int = DEFAULT_LOG_CAP, strict: bool = True) -> Outcome:
    """Play ``turns`` turns (None: to the end of the game) from ``position`` with ``script``.

    ``position``: a :class:`Position` or its text. ``script``: lines of
    :mod:`kutsch_sim.notation.script` notation (a list, or one string with a line each), or
    int32[S, 3] rows. ``strict`` (default) raises :class:`KutschError` when a scripted
    decision is illegal (naming the line) or when script lines are left unused at the
    end; pass ``strict=False`` to inspect such outcomes (``outcome.error``,
    ``outcome.script_used``).
    """

    if isinstance(position, str):
        position = Position.parse(position)
    if isinstance(script, np.ndarray):
        rows = np.ascontiguousarray(script, dtype=np.int32).reshape(-1, 3)
        lines = [" ".join(str(v) for v in r) for r in rows.tolist()]
        origin = list(range(len(rows)))
    else:
        rows, origin = compile_script_lines(script, position)
        lines = script_lines(script)
    st = position.to_state(rows, bots=bots, log_cap=log_cap)
    play_turns(st, turns)
    out = Outcome(position, st, decode_events(st), len(rows))
    if strict:
        _check_script(out, rows, origin, lines, turns, bots)
    return out


def play_turns(st, turns: int | None) -> None:
    """Advance an engine state by ``turns`` turns (None: to the end), as ``play_nb`` does."""
    from ..engine.game import fill_record_nb, play_nb, play_turn_nb
    from ..engine.invariants import check_nb

    if turns is None:
        play_nb(st)
        return
    sc = st.sc
    for _ in range(turns):  # mirrors the loop of play_nb (tests/test_position.py checks they agree)
        if sc[SC.OVER] or sc[SC.TURN] >= sc[SC.TURN_CAP]:
            break
        play_turn_nb(st)
        sc[SC.TURN] += 1
        if sc[SC.DEBUG] == 1:
            check_nb(st, True)
        if sc[SC.ERROR] != ERR.OK:
            sc[SC.WINNER] = WIN.ERROR
            sc[SC.OVER] = 1
            break
        if sc[SC.OVER] == 0:
            sc[SC.ACTIVE] = (sc[SC.ACTIVE] + 1) % sc[SC.N]
    if sc[SC.OVER] == 0 and sc[SC.TURN] >= sc[SC.TURN_CAP]:
        play_nb(st)  # records the timeout exactly as play_nb does
    fill_record_nb(st)


def _check_script(out: Outcome, rows: np.ndarray, origin: list[int], lines: list[str], turns, bots) -> None:
    st = out.state
    if st.sc[SC.ERROR] == ERR.SCRIPT:
        # find the first illegal row: replay growing prefixes of the script (games are cheap)
        for i in range(1, len(rows) + 1):
            s2 = out.position.to_state(rows[:i], bots=bots, log_cap=0)
            play_turns(s2, turns)
            if s2.sc[SC.ERROR] == ERR.SCRIPT:
                j = origin[i - 1]
                raise KutschError(f"script line {j + 1} {lines[j].strip()!r} is not a legal decision here")
        raise KutschError("an illegal scripted decision")
    if out.script_used < out.script_len:
        i = out.script_used
        j = origin[i]
        raise KutschError(
            f"script line {j + 1} {lines[j].strip()!r} was never used: no {DECISION_LABELS[int(rows[i, 1])]} "
            f"decision of seat {int(rows[i, 0])} came up"
        )
