"""Decode a game's integer event log into plain English, as a referee would tell it.

The decoder replays card moves from the events, so it can show hands as they are; it
never looks at the engine state. Used by ``kutsch-sim play``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..cards import CARD_NAMES, ITEM_NAMES, OCC_NAMES
from ..cards_nb import C_BAG_GOBLET, C_BAG_KEY
from ..enums import (
    CARD_KIND_LIST,
    DECL_LABELS,
    DK,
    EV,
    IK,
    N_CARDS,
    SIDE_ATT,
    SIDE_DEF,
    SRC,
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


def seats_text(seats: list[int]) -> str:
    """'seat 1', 'seat 1 and seat 3', 'seat 0, seat 1 and seat 3'."""
    names = [f"seat {p}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def victory_word(team: int, k: int) -> str:
    """'1 Key', '2 Goblets' (R9: Keys are the Order's victory items, Goblets the Brotherhood's)."""
    word = "Key" if team == 0 else "Goblet"
    return f"{k or 'no'} {word}" + ("" if k == 1 else "s")


# support cards and the Bodyguard: the supporters' bonuses a Duelist voids (R5 ruling, R8)
SUPPORT_SOURCES = (SRC.KNIVES, SRC.WHIP, SRC.BODYGUARD)


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
        self.bags_open = False  # R9: once the deck is empty the Bags count as Key / Goblet
        # the fight being told (R5): supports declared, supporters' bonuses played, supports
        # voided by a Duelist (held back until the Duelist's own line, which explains them)
        self.supports: dict[int, int] = {}
        self.support_bonus: list[tuple[int, int, int]] = []  # (seat, source, side)
        self.duel_void: list[tuple[int, int]] = []  # (seat, side)
        self.own = {SIDE_ATT: 1, SIDE_DEF: 1}  # sword / shield plus the fighters' own bonuses
        # the declaration being told (R6): declarer, kind, named seats, revealed hands
        self.decl: tuple[int, int, int] | None = None
        self.revealed: dict[int, int] = {}  # seat -> bitmask of cards shown

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
                if b:
                    seats = ", ".join(str(p) for p in range(10) if (b >> p) & 1)
                    self.lines.append(f"The left-over association card ({minority}) goes back in the box, shown to "
                                      f"the {minority}'s seats {seats} (house rule smaller-told): they know they "
                                      "are the minority team, and the others that they are not.")
                else:
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
            forced = " (it cannot be refused)" if d != 0 else ""  # d: why it must be accepted (enums.OFFER_*)
            self.say(f"{s(a)} offers {card(c)} to {s(b)}{forced}.")
        elif typ == EV.REJECT:
            if d == 1:  # R4.7: a Bag offered to a seat whose only other item is the other Bag
                self.say(f"{s(b)} must reject it (R4.7: its only other item is the other Secret Bag); "
                         "the card goes back.")
            else:
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
            if a < 0 and self.decl is not None and (self.decl[2] >> b) & 1:
                # R6.2: each named player reveals association and items
                self.revealed[b] = c
                self.say(f"{s(b)} reveals: {TEAM_NAMES[self.team[b]]}; items {cards_of(c)}.", 4)
            else:
                who = "everyone" if a < 0 else s(a)
                self.say(f"{who} sees {s(b)}'s items: {cards_of(c)}.", 4)
        elif typ == EV.DRAW:
            why = "Secret Bag" if c == 0 else "tie"
            if b in self.deck:
                self.deck.remove(b)
            self.move(b, -1, a)
            self.say(f"{s(a)} draws {card(b)} from the item deck ({why}; {len(self.deck)} left).")
            if d > 0 and d - 1 != a:  # R8: the Clairvoyant's seat put it on top
                self.say(f"{s(d - 1)} knows it: it put that card on top with the Clairvoyant.", 4)
        elif typ == EV.BAGS_OPEN:
            self.bags_open = True
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
            self.supports, self.support_bonus, self.duel_void = {}, [], []
            self.own = {SIDE_ATT: 1, SIDE_DEF: 1}
            self.say(f"{s(a)} attacks {s(b)}.")
        elif typ == EV.PRIEST:
            if c >= 0:
                self.move(c, b, a)
            give = f"; {s(b)} gives them {card(c)}" if c >= 0 else ""
            self.say(f"The Priest ({s(a)}) stops the fight{give}. {s(b)}'s turn ends.")
        elif typ == EV.SUPPORT:
            self.supports[a] = b
            self.say(f"{s(a)} supports {SIDE[b]}.", 4)
        elif typ == EV.HYPNO:
            # R5.4 / R8 Hypnotist (001): naming a seat voids its support, if it gave one (the
            # VOID event that follows says so) and bars its support cards; it may have given none
            who = s(b) if b in self.supports else f"{s(b)} (who supports nobody)"
            self.say(f"Hypnotist: {s(a)} names {who}: no support and no support cards from them "
                     "in this fight.", 4)
        elif typ == EV.VOID:
            self.supports.pop(a, None)
            if c == 1:  # Duelist: told with the Duelist's own line (R8), which comes next
                self.duel_void.append((a, b))
            else:
                self.say(f"{s(a)}'s support for {SIDE[b]} is void (Hypnotist).", 4)
        elif typ == EV.BONUS:
            if b == SRC.DUELIST:
                self.duelist(a, c, d)
            else:
                if b in SUPPORT_SOURCES:
                    self.support_bonus.append((a, b, c))
                else:
                    self.own[c] += d
                self.say(f"{s(a)} plays {SRC_LABELS[b]}: +{d} for {SIDE[c]}.", 4)
        elif typ == EV.RING:
            self.say(f"{s(a)} shows the Poison Ring and wins the tie.", 4)
        elif typ == EV.MIXER:
            self.say(f"The Poison Mixer ({s(a)}) decides: {SIDE[b]} wins.", 4)
        elif typ == EV.RESULT:
            if self.duel_void:  # never expected: Duelist voids without the Duelist's bonus row
                self.duelist(-1, 0, 0)
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
            self.decl = (a, b, c)
            self.revealed = {a: d}
            named = [q for q in range(self.n) if (c >> q) & 1]
            names = [seats_text(named)] if named else []
            if b == 3:
                other = TEAM_NAMES[1 - self.team[a]]
                self.say(f"{s(a)} tells the fortune (R10): names {', '.join(names) or 'nobody'} as the {other}'s "
                         f"players holding 3 {'Keys' if other == 'Order' else 'Goblets'}.")
            else:
                kind = {0: "victory for their team", 1: "victory for their team with the Drink of Power",
                        2: "a solo victory with the Coat of Armor of the Loge"}[b]
                self.say(f"{s(a)} declares {kind}" + (f", naming {', '.join(names)}" if names else "") + ".")
            self.say(f"{s(a)} reveals: {TEAM_NAMES[self.team[a]]}, {OCC_NAMES[self.occ[a]]}; items {cards_of(d)}.", 4)
        elif typ == EV.DECL_RESULT:
            for line in self.verdict(bool(a), c):
                self.say(line)
        elif typ == EV.TIMEOUT:
            self.say(f"Turn cap reached after {a} turns: the game is recorded as a timeout.")
        elif self.reasons is not None:
            text = self.reasons(row)
            if text:
                self.say(f"[{s(a)}: {text}]", 4)

    def duelist(self, du: int, side: int, amount: int) -> None:
        """R8 Duelist: +1 to the Duelist, and every support is void, even declared ones, with
        the supporters' bonuses (Casting Knives, Whip, Bodyguard; R5 ruling on play order), so
        only the fighters' own cards and bonuses are left (the RESULT line's strengths)."""
        s = self.seat
        if du >= 0:
            self.own[side] += amount
            self.say(f"{s(du)} plays the Duelist: +{amount} for {SIDE[side]}, and every support "
                     "(and support card) in this fight is void.", 4)
        parts = []
        for sd in (SIDE_ATT, SIDE_DEF):
            seats = [p for p, x in self.duel_void if x == sd]
            if seats:
                parts.append(f"{seats_text(seats)} ({'attacker' if sd == SIDE_ATT else 'defender'})")
        void = ([f"the support of {' and '.join(parts)}"] if parts else []) + [
            f"{s(p)}'s {SRC_LABELS[src]} (+1 for {SIDE[sd]})" for p, src, sd in self.support_bonus]
        if void:  # nobody supported: nothing more to void
            self.say("Void: " + ", and ".join(void) + ".", 6)
        self.say(f"Only the fighters' own cards and bonuses count: attack {self.own[SIDE_ATT]}, "
                 f"defence {self.own[SIDE_DEF]}.", 6)
        self.duel_void, self.support_bonus = [], []

    def victory_team(self, c: int) -> int:
        """Team whose victory item card c is (R9; the Bags count once the deck is empty), or -1."""
        k = CARD_KIND_LIST[c]
        if k == IK.KEY or (k == IK.BAG_KEY and self.bags_open):
            return 0
        if k == IK.GOBLET or (k == IK.BAG_GOBLET and self.bags_open):
            return 1
        return -1

    def victory_count(self, mask: int, team: int) -> int:
        return sum(1 for c in range(N_CARDS) if (mask >> c) & 1 and self.victory_team(c) == team)

    def verdict(self, ok: bool, counted: int) -> list[str]:
        """The declaration's outcome, and why it failed (R6.1-R6.5, R7, R9 Black Pearl, R10
        fortune-telling), worked out from what the declaration revealed."""
        if self.decl is None:
            return [("The declaration holds" if ok else "The declaration fails") + f" ({counted} victory items counted)."]
        p, kind, named = self.decl
        s = self.seat
        if kind == DK.LOGE:
            return [f"The declaration holds: {s(p)} alone holds {counted} victory items, Keys and Goblets in "
                    "any mix (R6.5)." if ok
                    else f"The declaration fails: {s(p)} holds only {counted} victory items, 3 needed (R6.5)."]
        team = self.team[p]
        want = 1 - team if kind == DK.FORTUNE else team  # fortune-telling names the other team (R10)
        named_seats = [q for q in range(self.n) if (named >> q) & 1]
        seats = named_seats if kind == DK.FORTUNE else [p, *named_seats]
        total = sum(self.victory_count(self.revealed.get(q, 0), want) for q in seats)
        need = 2 if kind == DK.DRINK else 3
        items = "Keys" if want == 0 else "Goblets"
        whose = seats_text(seats) if seats else "nobody"
        show = ("together " if len(seats) > 1 else "") + whose + (" show" if len(seats) > 1 else " shows")
        if ok:
            if kind == DK.DRINK:
                return [f"The declaration holds: {show} {victory_word(want, total)} + the Drink of Power, 3 needed; "
                        f"the Drink counts, as the {TEAM_NAMES[team]} is the minority (R6.3, R7)."]
            return [f"The declaration holds: {show} {victory_word(want, total)}, 3 needed (R6.3)."]
        why = []
        pearl = CARD_KIND_LIST.index(IK.PEARL)
        if (self.revealed.get(p, 0) >> pearl) & 1:
            why.append(f"{s(p)} holds the Black Pearl, whose holder cannot declare any victory (R9)")
        rule = "R10" if kind == DK.FORTUNE else "R6.3"
        wrong = [q for q in named_seats if self.team[q] != want]
        if wrong:
            verb = "belongs" if len(wrong) == 1 else "belong"
            why.append(f"{seats_text(wrong)} {verb} to the {TEAM_NAMES[1 - want]}, not the {TEAM_NAMES[want]} "
                       f"({rule})")
        empty = [q for q in named_seats if q not in wrong and not self.victory_count(self.revealed.get(q, 0), want)]
        if empty:
            why.append(f"{seats_text(empty)} {'holds' if len(empty) == 1 else 'hold'} no {items[:-1]}, and every "
                       f"named player must hold one ({rule})")
        if kind == DK.DRINK and self.team.count(0) != self.team.count(1):
            minority = min((0, 1), key=self.team.count)
            if team != minority:
                why.append(f"the {TEAM_NAMES[team]} is not the minority, so the Drink of Power does not count "
                           "(R6 ruling, R7)")
        if total < need:
            drink = " besides the Drink of Power" if kind == DK.DRINK else ""
            bags = [c for q in seats for c in (C_BAG_KEY, C_BAG_GOBLET)
                    if (self.revealed.get(q, 0) >> c) & 1 and CARD_KIND_LIST[c] == (IK.BAG_KEY, IK.BAG_GOBLET)[want]]
            bag = ("; a Secret Bag counts only once the item deck is empty (R9)"
                   if bags and not self.bags_open else "")
            why.append(f"{show} {'only ' if total else ''}{victory_word(want, total)}, {need} needed{drink} "
                       f"({'R10' if kind == DK.FORTUNE else 'R6.3, R7' if kind == DK.DRINK else 'R6.3'}){bag}")
        if not why:  # the revealed cards explain nothing: report the engine's count
            why.append(f"{counted} victory items counted")
        if len(why) == 1:
            return [f"The declaration fails: {why[0]}."]
        return ["The declaration fails:"] + [f"  - {w};" for w in why[:-1]] + [f"  - {why[-1]}."]

    def item_name(self, kind: int) -> str:
        return "Secret Bag" if kind == IK.BAG_KEY else ITEM_NAMES[kind]


def format_game(result, reasons: Callable[[np.ndarray], str] | None = None) -> str:
    """Plain-English trace of a :class:`kutsch_sim.api.GameResult`."""
    from ..enums import REC

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
