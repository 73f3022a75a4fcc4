"""Decode a game's integer event log into plain English, as a referee would tell it.

The decoder replays card moves from the events, so it can show hands as they are; it
never looks at the engine state. Used by ``kutsch-sim play``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .cards import CARD_NAMES, ITEM_NAMES, OCC_NAMES
from .enums import (
    DECL_LABELS,
    EV,
    IK,
    N_CARDS,
    SIDE_ATT,
    SIDE_DEF,
    SRC_LABELS,
    TEAM_NAMES,
    WINNER_LABELS,
)

SIDE = {SIDE_ATT: "the attacker", SIDE_DEF: "the defender", 0: "nobody"}
EFFECT_TEXT = {
    IK.BAG_KEY: "draw a card from the item deck",
    IK.BAG_GOBLET: "draw a card from the item deck",
    IK.MONOCLE: "look at the partner's association",
    IK.PRIVILEGE: "look at all the partner's items",
    IK.TOME: "swap occupations with the partner",
    IK.COAT: "exchange the occupation with one from the pile",
    IK.SEXTANT: "make everyone pass an item to a neighbour",
}


def _kind(c: int) -> int:
    return IK.KEY if c < 3 else IK.GOBLET if c < 6 else c - 4


def card(c: int) -> str:
    return CARD_NAMES[c] if 0 <= c < N_CARDS else "nothing"


def public_name(c: int) -> str:
    """What everyone hears when card c is announced (a Bag's content stays hidden)."""
    return "Secret Bag" if _kind(c) in (IK.BAG_KEY, IK.BAG_GOBLET) else CARD_NAMES[c]


def cards_of(mask: int) -> str:
    names = [CARD_NAMES[c] for c in range(N_CARDS) if (mask >> c) & 1]
    return ", ".join(names) if names else "nothing"


class TraceWriter:
    """Turns event rows into lines; keeps its own copy of every hand by replaying moves."""

    def __init__(self, n_players: int, reasons: Callable[[np.ndarray], str] | None = None) -> None:
        self.n = n_players
        self.hands: list[set[int]] = [set() for _ in range(n_players)]
        self.team = [-1] * n_players
        self.acards: list[tuple[int, ...]] = [()] * n_players  # advanced 3-player (R10)
        self.occ = [-1] * n_players
        self.deck: list[int] = []
        self.lines: list[str] = []
        self.reasons = reasons
        self.setup_printed = False

    # -------------------------------------------------------------- helpers
    def seat(self, p: int) -> str:
        return f"seat {p}"

    def hand(self, p: int) -> str:
        return ", ".join(CARD_NAMES[c] for c in sorted(self.hands[p])) or "nothing"

    def move(self, c: int, a: int, b: int) -> None:
        if c < 0:
            return
        if 0 <= a < self.n:
            self.hands[a].discard(c)
        if 0 <= b < self.n:
            self.hands[b].add(c)

    def say(self, text: str, indent: int = 2) -> None:
        self.lines.append(" " * indent + text)

    # -------------------------------------------------------------- setup
    def print_setup(self) -> None:
        self.lines.append("Set-up (the referee sees everything):")
        for p in range(self.n):
            cards = f" ({', '.join(TEAM_NAMES[c] for c in self.acards[p])})" if self.acards[p] else ""
            self.say(f"{self.seat(p):8s} {TEAM_NAMES[self.team[p]]:12s} {OCC_NAMES[self.occ[p]]:13s} "
                     f"holds {self.hand(p)}" + (f"; association cards{cards}" if cards else ""))
        top_first = [CARD_NAMES[c] for c in reversed(self.deck)]
        self.say(f"item deck ({len(self.deck)} cards, top first): {', '.join(top_first) or 'empty'}")
        self.setup_printed = True

    # -------------------------------------------------------------- events
    def event(self, row: np.ndarray) -> None:  # noqa: C901 - one branch per event type
        typ, turn, a, b, c, d = (int(x) for x in row)
        s = self.seat
        if typ == EV.OCC:
            self.occ[a] = b
        elif typ == EV.ASSOC:
            self.team[a] = b
        elif typ == EV.ACARDS:
            self.acards[a] = (b, c, d)
        elif typ == EV.LEFTOVER:
            if any(self.acards):
                small = min((0, 1), key=self.team.count)
                self.lines.append(f"Advanced 3-player game (R10): each seat holds 3 association cards and belongs "
                                  f"to the team of the majority; the tenth card ({TEAM_NAMES[a]}) goes back in "
                                  f"the box unseen. The {TEAM_NAMES[small]} has one member (the minority).")
            else:
                minority = TEAM_NAMES[a]
                self.lines.append(f"The left-over association card ({minority}) goes back in the box unseen: "
                                  f"the {minority} is the minority team, and nobody knows it.")
        elif typ == EV.DEAL:
            self.hands[a].add(b)
        elif typ == EV.DECK:
            self.deck.append(a)
        elif typ == EV.SETUP_DONE:
            self.print_setup()
        elif typ == EV.TURN:
            self.lines.append(f"Turn {turn + 1}: {s(a)} ({TEAM_NAMES[self.team[a]]}, {OCC_NAMES[self.occ[a]]}) "
                              f"holds {self.hand(a)}")
        elif typ == EV.PASS:
            self.say(f"{s(a)} passes.")
        elif typ == EV.OCC_UP:
            self.say(f"{s(a)} turns the {OCC_NAMES[b]} face up.")
        elif typ == EV.CLAIR:
            self.say(f"{s(a)} looks through the item deck ({d} cards) and puts {card(b)} on top"
                     + (f", {card(c)} below it" if c >= 0 else "") + "; the rest is shuffled.")
            for x in (c, b):
                if x >= 0 and x in self.deck:
                    self.deck.remove(x)
                    self.deck.append(x)
        elif typ == EV.DIPLO:
            self.say(f"Diplomat: {s(a)} demands a {self.item_name(c)} from {s(b)}, offering {card(d)}.")
        elif typ == EV.DIPLO_MISS:
            self.say(f"{s(b)} holds no such item and shows all their items to {s(a)}; {s(a)}'s turn ends.")
        elif typ == EV.DIPLO_BAGS:
            self.say(f"{s(b)} holds the other Secret Bag: looks at the offered Bag and hands it back; "
                     f"nothing is exchanged and {s(a)}'s turn ends.")
        elif typ == EV.OFFER:
            forced = " (it cannot be refused)" if d == 1 else ""  # d: the must-accept flag (R4.5, R4.6, R8 Diplomat)
            self.say(f"{s(a)} offers {card(c)} to {s(b)}{forced}.")
        elif typ == EV.REJECT:
            self.say(f"{s(b)} rejects it; the card goes back.")
        elif typ == EV.ACCEPT:
            self.move(c, a, b)
            self.move(d, b, a)
            self.say(f"{s(b)} accepts and gives {card(d)} back.")
        elif typ == EV.SMUGGLE:
            self.say(f"{s(a)} smuggles the {card(c)} to {s(b)} (Smuggling, R10): it is not announced and its "
                     "effect is not used; only the two traders know it.")
        elif typ == EV.SEE_ACARD:
            self.say(f"{s(a)} sees {s(b)}'s association card at position {c}: {TEAM_NAMES[d]} "
                     "(only one of three, R10).", 4)
        elif typ == EV.ANNOUNCE:
            self.say(f"{s(a)} announces: \"{public_name(b)}\".")
        elif typ == EV.EFFECT:
            what = EFFECT_TEXT.get(_kind(b), "?")
            if d:
                self.say(f"{s(a)} uses the {public_name(b)} ({what}) on {s(c)}.")
            else:
                self.say(f"{s(a)} may use the {public_name(b)} ({what}) but declines.")
        elif typ == EV.SEE_ASSOC:
            self.say(f"{s(a)} learns that {s(b)} belongs to the {TEAM_NAMES[c]}.", 4)
        elif typ == EV.SEE_OCC:
            self.say(f"{s(a)} learns that {s(b)} is the {OCC_NAMES[c]}.", 4)
        elif typ == EV.SEE_ITEMS:
            who = "everyone" if a < 0 else s(a)
            self.say(f"{who} sees {s(b)}'s items: {cards_of(c)}.", 4)
        elif typ == EV.DRAW:
            why = "Secret Bag" if c == 0 else "tie"
            if b in self.deck:
                self.deck.remove(b)
            self.move(b, -1, a)
            self.say(f"{s(a)} draws {card(b)} from the item deck ({why}; {len(self.deck)} left).")
        elif typ == EV.BAGS_OPEN:
            self.say("The item deck is empty: the Secret Bags are now a Key and a Goblet (R9).")
        elif typ == EV.TOME:
            self.say(f"{s(a)} and {s(b)} swap occupations (both face down): {s(a)} is now the "
                     f"{OCC_NAMES[c]}, {s(b)} the {OCC_NAMES[d]}.")
            self.occ[a], self.occ[b] = c, d
        elif typ == EV.COAT:
            self.say(f"{s(a)} puts the {OCC_NAMES[b]} in the pile and takes the {OCC_NAMES[c]} face down.")
            self.occ[a] = c
        elif typ == EV.SEXTANT:
            self.say(f"Sextant: everyone passes one item to the {'left' if b == 0 else 'right'}.")
        elif typ == EV.PASS_ON:
            self.move(c, a, b)
            self.say(f"{s(a)} passes {card(c)} to {s(b)}.", 4)
        elif typ == EV.GIVE:
            self.move(c, a, b)
            self.say(f"{s(a)} is over the hand limit and gives {card(c)} to {s(b)}.")
        elif typ == EV.ATTACK:
            self.say(f"{s(a)} attacks {s(b)}.")
        elif typ == EV.PRIEST:
            if c >= 0:
                self.move(c, b, a)
            give = f"; {s(b)} gives them {card(c)}" if c >= 0 else ""
            self.say(f"The Priest ({s(a)}) stops the fight{give}. {s(b)}'s turn ends.")
        elif typ == EV.SUPPORT:
            self.say(f"{s(a)} supports {SIDE[b]}.", 4)
        elif typ == EV.HYPNO:
            self.say(f"Hypnotist: {s(a)} voids {s(b)}'s support.", 4)
        elif typ == EV.VOID:
            self.say(f"{s(a)}'s support for {SIDE[b]} is void ({'Hypnotist' if c == 0 else 'Duelist'}).", 4)
        elif typ == EV.BONUS:
            self.say(f"{s(a)} plays {SRC_LABELS[b]}: +{d} for {SIDE[c]}.", 4)
        elif typ == EV.RING:
            self.say(f"{s(a)} shows the Poison Ring and wins the tie.", 4)
        elif typ == EV.MIXER:
            self.say(f"The Poison Mixer ({s(a)}) decides: {SIDE[b]} wins.", 4)
        elif typ == EV.RESULT:
            res = "a tie" if c == 0 else f"{SIDE[c]} wins"
            self.say(f"Strength {a} (attack) against {b} (defence): {res}.")
        elif typ == EV.DOCTOR:
            self.say(f"The Doctor ({s(a)}) cancels the fight's effects; the attacker's turn ends.")
        elif typ == EV.LOOK:
            what = "association and occupation" if c == 0 else "items"
            self.say(f"{s(a)} wins and looks at {s(b)}'s {what}.")
        elif typ == EV.TAKE:
            if c >= 0:
                self.move(c, b, a)
                self.say(f"{s(a)} takes {card(c)} from {s(b)}.")
            else:
                self.say(f"{s(a)} takes nothing.")
        elif typ == EV.GIVE_BACK:
            self.move(c, a, b)
            self.say(f"{s(b)} has no item left: {s(a)} gives them {card(c)}.")
        elif typ == EV.DECLARE:
            names = [s(q) for q in range(self.n) if (c >> q) & 1]
            if b == 3:
                other = TEAM_NAMES[1 - self.team[a]]
                self.say(f"{s(a)} tells the fortune (R10): names {', '.join(names) or 'nobody'} as the {other}'s "
                         f"players holding 3 {'Keys' if other == 'Order' else 'Goblets'}.")
            else:
                kind = {0: "victory for their team", 1: "victory for their team with the Drink of Power",
                        2: "a solo victory with the Coat of Armor of the Loge"}[b]
                self.say(f"{s(a)} declares {kind}" + (f", naming {', '.join(names)}" if names else "") + ".")
            self.say(f"{s(a)} reveals: {TEAM_NAMES[self.team[a]]}, {OCC_NAMES[self.occ[a]]}, {cards_of(d)}.", 4)
        elif typ == EV.DECL_RESULT:
            self.say(("The declaration holds" if a else "The declaration fails")
                     + f" ({c} victory items counted).")
        elif typ == EV.TIMEOUT:
            self.say(f"Turn cap reached after {a} turns: the game is recorded as a timeout.")
        elif self.reasons is not None:
            text = self.reasons(row)
            if text:
                self.say(f"[{s(a)}: {text}]", 4)

    def item_name(self, kind: int) -> str:
        return "Secret Bag" if kind == IK.BAG_KEY else ITEM_NAMES[kind]


def format_game(result, reasons: Callable[[np.ndarray], str] | None = None) -> str:
    """Plain-English trace of a :class:`kutsch_sim.api.GameResult`."""
    from .enums import REC

    cfg = result.config
    n = cfg.players
    w = TraceWriter(n, reasons)
    head = (f"Die Kutschfahrt zur Teufelsburg: {n} players, item set {cfg.item_set}, seed {result.seed}, "
            f"game {result.game}, bots {', '.join(sorted(set(cfg.bots)))}")
    if n % 2:
        head += ", Drink of Power " + ("in play" if cfg.drink else "switched off")
    if cfg.variants:
        head += ", variants " + ", ".join(cfg.variants)
    w.lines.append(head)
    for row in result.events:
        w.event(row)
    rec = result.record
    win = WINNER_LABELS[rec[REC.WINNER]] if rec[REC.WINNER] >= 0 else "none"
    w.lines.append("")
    w.lines.append("Final hands:")
    for p in range(n):
        w.say(f"{w.seat(p):8s} {TEAM_NAMES[w.team[p]]:12s} {w.hand(p)}")
    kind = DECL_LABELS[rec[REC.DECL_KIND]] if rec[REC.DECL_KIND] >= 0 else "none"
    if win == "solo":
        verdict = f"seat {rec[REC.SOLO_SEAT]} wins alone with the Loge"
    elif win in ("order", "brotherhood"):
        verdict = f"the {TEAM_NAMES[0 if win == 'order' else 1]} wins"
    else:
        verdict = win
    w.lines.append(f"Result after {rec[REC.TURNS]} turns: {verdict} (declaration: {kind}).")
    return "\n".join(w.lines)
