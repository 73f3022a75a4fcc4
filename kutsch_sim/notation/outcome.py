"""What a position run leaves: :class:`Outcome`, the engine state with readable accessors.

A run ends at a turn's end, at the game's end, or -- with ``run(..., stop_at=...)`` -- right
before a decision inside a turn: then :attr:`Outcome.pending` is that decision, and
:attr:`Outcome.offer` and :attr:`Outcome.fight` show the trade or the fight in progress.
See ``docs/positions.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..cards import ITEM_KEYS, OCC_KEYS
from ..enums import (
    CARD_KIND_LIST,
    DECISION_LABELS,
    ERR_LABELS,
    EV_COLS,
    FORCED,
    LOC_OUT,
    LOC_PILE,
    N_OCCS,
    OFFER_CARD,
    OFFER_DIPLOMAT,
    PAUSE,
    SC,
    SIDE_ATT,
    SIDE_DEF,
    SRC,
    TEAM_NAMES,
    WIN,
    WINNER_LABELS,
    Event,
)
from ..errors import KutschError
from .names import card_label
from .position import Position

EVENT_NAMES = tuple(f.lower() for f in Event._fields)
SIDE_NAMES = {SIDE_ATT: "attacker", SIDE_DEF: "defender"}
# the rule behind each decision the engine takes without asking (enums.Forced)
FORCED_RULES = {
    FORCED.BAGS: "R4.7: the only item the receiver could give back is the other Secret Bag",
    FORCED.MIRROR: "R4.5: a Broken Mirror cannot be rejected",
    FORCED.PEARL: "R4.6: a Black Pearl cannot be rejected",
    FORCED.DIPLOMAT: "R8: the Diplomat's trade cannot be refused",
}


class Ev(NamedTuple):
    """One decoded event row (meanings of a..d in ``enums.Event``)."""

    name: str
    turn: int
    a: int
    b: int
    c: int
    d: int


class Pending(NamedTuple):
    """The decision a run stopped before (``stop_at``): its label (``enums.Decision``), the
    deciding seat, the legal option values (encoded as in ``docs/positions.md``'s script
    table), and the rule that takes it if nobody is asked (``forced``, e.g. ``R4.6: ...``)."""

    decision: str
    seat: int
    options: tuple[int, ...]
    forced: str | None


class Offer(NamedTuple):
    """A trade offer of the current turn: ``how`` is ``free``, ``card`` (a Black Pearl or a
    Broken Mirror, R4.5, R4.6) or ``diplomat`` (R8); ``answer`` is None while the receiver has
    not answered, else ``accepted`` or ``rejected``."""

    giver: int
    receiver: int
    card: str
    how: str
    answer: str | None


class Fight(NamedTuple):
    """The fight of the current turn: each supporter's side (``attacker`` / ``defender``) as it
    stands, each side's strength so far (R5.1: one each, plus supports and bonuses played), and
    ``result`` (None before it, else ``attacker``, ``defender`` or ``tie``; ``stopped`` when a
    Priest stopped the fight, R5.2)."""

    attacker: int
    defender: int
    supports: dict[int, str]
    attack: int
    defense: int
    result: str | None


@dataclass
class Outcome:
    """The state after :func:`kutsch_sim.notation.run.run`, with readable accessors."""

    position: Position
    state: object  # engine State (a numpy record of arrays)
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
        """Turns completed (a run stopped inside a turn is in turn ``turns``)."""
        return int(self.state.sc[SC.TURN])

    @property
    def pending(self) -> Pending | None:
        """The decision the run stopped before (``stop_at``), None if it did not stop."""
        sc = self.state.sc
        if sc[SC.PAUSE] != PAUSE.STOPPED:
            return None
        why = int(sc[SC.FORCED])
        return Pending(DECISION_LABELS[int(sc[SC.PAUSE_KIND])], int(sc[SC.PAUSE_SEAT]),
                       tuple(int(v) for v in self.state.opts[: int(sc[SC.PAUSE_N])]), FORCED_RULES.get(why))

    def this_turn(self) -> list[Ev]:
        """The events of the current turn (from its ``turn`` event on)."""
        starts = [i for i, e in enumerate(self.events) if e.name == "turn"]
        return self.events[starts[-1]:] if starts else []

    @property
    def offer(self) -> Offer | None:
        """The current turn's last trade offer (None if none), answered or not."""
        found = None
        for e in self.this_turn():
            if e.name == "offer":
                how = "diplomat" if e.d == OFFER_DIPLOMAT else "card" if e.d == OFFER_CARD else "free"
                found = Offer(e.a, e.b, card_label(e.c), how, None)
            elif e.name in ("accept", "reject") and found is not None:
                found = found._replace(answer=e.name + "ed")
        return found

    @property
    def fight(self) -> Fight | None:
        """The current turn's fight (None if none), read from its events, so that the strengths
        stand as at any point of the fight (a support voided by a Hypnotist, R5.4, or by a
        Duelist, R8, no longer counts; nor, after a Duelist, a supporter's bonus)."""
        found = None
        for e in self.this_turn():
            if e.name == "attack":
                found = (e.a, e.b)
                own = {SIDE_ATT: 1, SIDE_DEF: 1}  # R5.1, and the principals' bonuses
                extra = {SIDE_ATT: 0, SIDE_DEF: 0}  # the supporters' bonuses
                sup: dict[int, int] = {}
                result = None
            elif found is None or result is not None:
                continue
            elif e.name == "priest":
                result = "stopped"
            elif e.name == "support":
                sup[e.a] = e.b
            elif e.name == "void":
                sup.pop(e.a, None)
            elif e.name == "bonus":
                if e.b == SRC.DUELIST:
                    extra = {SIDE_ATT: 0, SIDE_DEF: 0}
                (own if e.a in found else extra)[e.c] += e.d
            elif e.name == "result":
                result = {SIDE_ATT: "attacker", SIDE_DEF: "defender"}.get(e.c, "tie")
        if found is None:
            return None

        def strength(side: int) -> int:
            return own[side] + extra[side] + sum(1 for v in sup.values() if v == side)

        return Fight(found[0], found[1], {s: SIDE_NAMES[v] for s, v in sup.items()}, strength(SIDE_ATT),
                     strength(SIDE_DEF), result)

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
