"""Positions from a text notation: a game state written by hand.

A position is a game state written by hand, so a rule can be checked in a few lines
("what happens if seat 1 attacks seat 2 now?"). Example::

    players 4                      # optional: must match the seat lines
    seat 0: Order Diplomat | Key, Dagger
    seat 1: Brotherhood Doctor up | Goblet, Monocle
    seat 2: Order Priest | Secret Bag (Key)
    seat 3: Brotherhood Thug | Goblet, Gloves
    deck: Tome, Key                # top card first; optional (default: empty)
    pile: Clairvoyant, Duelist, GrandMaster, Hypnotist, Bodyguard, PoisonMixer
    turn 0                         # whose turn it is; optional (default 0)
    drink                          # odd N only: every seat holds a Drink of Power (R7)
    minority Order                 # odd N only, optional: checked against the seat lines
    cap 400                        # optional: turn cap (R3 ruling), counted from this position
    seed 0                         # optional: the game's random stream (shuffles, random bots)
    variant smuggling              # optional: R10 variants and house rules (loge-items=4) in play

Advanced 3-player game (``variant advanced-3p``, R10): a seat's TEAM is written as its three
association cards in order, ``O`` (Order) or ``B`` (Brotherhood), e.g. ``seat 0: OBO Thug |
Key``; the seat belongs to the majority.

Grammar, one statement a line, ``#`` starts a comment, names are case-insensitive and
spaces/punctuation inside a name are ignored (``Secret Bag (Key)`` = ``BagKey``,
``Poison Mixer`` = ``PoisonMixer``):

* ``seat P: TEAM OCCUPATION [up] | ITEM, ITEM, ...`` — one line for each seat 0..N-1.
  TEAM is ``Order`` or ``Brotherhood``; OCCUPATION a key or name of ``data/occupations.csv``;
  ``up`` = already face up (a used once-only occupation). ITEM is a key, name or alias of
  ``data/items.csv`` (``Key``, ``Goblet``, ``BagKey``, ``Secret Bag (Goblet)``, ``Monocle``,
  ``Knives``, ``Pearl``, ``Loge`` ...). Keys and Goblets are three cards each: a plain
  ``Key`` takes the first Key card not placed yet (seats in order, then the deck);
  ``Key#2`` places the second Key card (``#1``..``#3``) exactly.
* ``deck: ITEM, ...`` — the item deck, top card first. Empty deck: omit the line (or
  ``deck: -``); the Secret Bags are then already Keys/Goblets (R9).
* ``pile: OCCUPATION, ...`` — optional check: the occupations nobody holds (always the pile).
* Every item card not placed in a hand or the deck is out of the game.

Checked (one-line :class:`KutschError`, naming the line of parsed text): 3..10 seats numbered 0..N-1, team sizes of R2.2
(equal at even N; (N+1)/2 and (N-1)/2 at odd N), every occupation at most once, every
card at most once, no empty hand, hands within the limit (R2.4), no Black Pearl at 3
players nor Coat at 10 (R2.3), Drink of Power only at odd N.

Decisions are scripted in :mod:`kutsch_sim.notation.script` notation (``"0 trade 1 Dagger"``,
``"1 accept yes"`` ...). Every decision not scripted is taken by the seats' bots
(default ``first``: always no / pass / reject / neutral, so unscripted play is inert).
The state is built with ``debug = 1``: the engine checks its invariants after every event.

API: :meth:`Position.parse` (text -> Position), :meth:`Position.to_state` (-> engine
``State`` with a script), :meth:`Position.to_text`, :meth:`Position.from_state`, and
:func:`kutsch_sim.notation.run.run` (position + script -> ``Outcome``). See ``docs/positions.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import CARD_NAMES, OCC_KEYS, card_player_range
from ..enums import (
    BROTHERHOOD,
    ERR,
    ERR_LABELS,
    EV,
    LOC_DECK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_CARDS,
    N_OCCS,
    ORDER,
    REC,
    SC,
    TEAM_NAMES,
)
from ..errors import KutschError
from ..rules_table import hand_limit_at, parse_variants, settle_variants, variant_mask, variant_names
from .names import (
    DEFAULT_LOG_CAP,
    DEFAULT_TURN_CAP,
    PositionError,
    card_label,
    occupation,
    place_cards,
    strip_comment,
    team,
)
from .script import compile_script


@dataclass(frozen=True)
class Position:
    """A hand-built game position. Card and occupation ids as in :mod:`kutsch_sim.enums`."""

    teams: tuple[int, ...]  # team of each seat (ORDER / BROTHERHOOD)
    occs: tuple[int, ...]  # occupation of each seat
    up: tuple[bool, ...]  # occupation face up
    hands: tuple[tuple[int, ...], ...]  # card ids of each seat
    deck: tuple[int, ...] = ()  # card ids, top first
    turn: int = 0  # active seat
    drink: bool = False  # Drink of Power in play (odd N, R7)
    turn_cap: int = DEFAULT_TURN_CAP
    seed: int = 0
    variants: tuple[str, ...] = ()  # R10 variants in play (rows of kutsch_sim.rules_table)
    acards: tuple[tuple[int, int, int], ...] = ()  # advanced 3-player: each seat's 3 cards in order

    def __post_init__(self) -> None:
        self.validate()

    @property
    def n(self) -> int:
        return len(self.teams)

    @property
    def minority(self) -> int:
        """The team with fewer members at odd N (R2.2), else -1."""
        if self.n % 2 == 0:
            return -1
        return ORDER if self.teams.count(ORDER) < self.teams.count(BROTHERHOOD) else BROTHERHOOD

    # ------------------------------------------------------------------ checks
    def validate(self) -> None:
        """Raise :class:`PositionError` (naming the statement at fault) for a position the rules
        do not allow: the checks of the module docstring."""
        n = self.n
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise PositionError(f"a position needs {MIN_PLAYERS}..{MAX_PLAYERS} seats, got {n}")
        if not (len(self.occs) == len(self.up) == len(self.hands) == n):
            raise PositionError("teams, occupations, face-up flags and hands must have one entry per seat")
        big = (n + 1) // 2
        sizes = sorted((self.teams.count(ORDER), self.teams.count(BROTHERHOOD)))
        if sizes != sorted((big, n - big)) or any(t not in (ORDER, BROTHERHOOD) for t in self.teams):
            raise PositionError(
                f"teams must be {n - big} and {big} at {n} players (R2.2), got Order {self.teams.count(ORDER)}"
                f" / Brotherhood {self.teams.count(BROTHERHOOD)}"
            )
        for p, o in enumerate(self.occs):
            if not 0 <= o < N_OCCS or o in self.occs[:p]:
                raise PositionError(f"occupation {OCC_KEYS[o] if 0 <= o < N_OCCS else o} held twice or invalid",
                                    f"seat {p}")
        places = [(c, f"seat {p}") for p, h in enumerate(self.hands) for c in h] + [(c, "deck") for c in self.deck]
        lo, hi = card_player_range()
        seen: set[int] = set()
        for c, where in places:
            if not 0 <= c < N_CARDS:
                raise PositionError(f"invalid card id {c}", where)
            if c in seen:
                raise PositionError(f"card {card_label(c)} placed twice", where)
            seen.add(c)
            if not lo[c] <= n <= hi[c]:
                raise PositionError(f"{CARD_NAMES[c]} is not used at {n} players (R2.3)", where)
        lim = hand_limit_at(tuple(self.variants), n)  # R2.4, or the hand-limit house rule
        if n * lim < len(places):
            raise PositionError(f"hand limit {lim} at {n} players leaves no room for the position's {len(places)} "
                                "items once the deck is drawn (R2.4)", "variant")
        for p, h in enumerate(self.hands):
            if not h:
                raise PositionError(f"seat {p} has no items: every hand holds at least one (R4)", f"seat {p}")
            if len(h) > lim:
                raise PositionError(f"seat {p} holds {len(h)} items, over the hand limit {lim} at {n} players (R2.4)",
                                    f"seat {p}")
        if not 0 <= self.turn < n:
            raise PositionError(f"turn must name a seat 0..{n - 1}, got {self.turn}", "turn")
        if self.drink and n % 2 == 0:
            raise PositionError("Drink of Power is only in play at odd player counts (R2.2, R7)", "drink")
        if not 1 <= self.turn_cap <= 100_000:
            raise PositionError(f"turn cap must be 1..100000, got {self.turn_cap}", "cap")
        if not 0 <= self.seed < 2**63:
            raise PositionError(f"seed must be 0..2**63-1, got {self.seed}", "seed")
        if tuple(self.variants) != parse_variants(tuple(self.variants)):
            raise PositionError(f"variants must be given in the order {', '.join(parse_variants(self.variants))}",
                                "variant")
        try:
            settled = settle_variants(tuple(self.variants), n)
        except KutschError as e:
            raise PositionError(str(e), "variant") from None
        if settled != tuple(self.variants):
            raise PositionError(f"the hand limit {hand_limit_at(settled, n)} is R2.4's at {n} players: "
                                "leave hand-limit out", "variant")
        if "advanced-3p" in self.variants:
            if len(self.acards) != n:
                raise PositionError("advanced-3p: write every seat's team as its 3 association cards, e.g. OBO")
            cards = [c for a in self.acards for c in a]
            for p, a in enumerate(self.acards):
                if any(c not in (ORDER, BROTHERHOOD) for c in a) or len(a) != 3:
                    raise PositionError("advanced-3p: each seat holds 3 association cards", f"seat {p}")
            if cards.count(ORDER) > 5 or cards.count(BROTHERHOOD) > 5:
                raise PositionError("advanced-3p: there are only 5 association cards of each team (R10)")
            for p, a in enumerate(self.acards):
                if self.teams[p] != (BROTHERHOOD if sum(a) >= 2 else ORDER):
                    raise PositionError(f"seat {p}'s team must be the majority of its association cards", f"seat {p}")
        elif self.acards:
            raise PositionError("association cards (OBO ...) need 'variant advanced-3p'")

    # ------------------------------------------------------------------ text
    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the notation of the module docstring. Errors name the line."""
        return _parse(text)

    def to_text(self) -> str:
        """The position in its own notation (``Position.parse(p.to_text()) == p``)."""
        lines = [f"players {self.n}"]
        if self.variants:
            lines.append("variant " + ", ".join(self.variants))
        for p in range(self.n):
            up = " up" if self.up[p] else ""
            items = ", ".join(card_label(c) for c in self.hands[p])
            who = "".join("OB"[c] for c in self.acards[p]) if self.acards else TEAM_NAMES[self.teams[p]]
            lines.append(f"seat {p}: {who} {OCC_KEYS[self.occs[p]]}{up} | {items}")
        if self.deck:
            lines.append("deck: " + ", ".join(card_label(c) for c in self.deck))
        lines.append(f"turn {self.turn}")
        if self.drink:
            lines.append("drink")
        if self.turn_cap != DEFAULT_TURN_CAP:
            lines.append(f"cap {self.turn_cap}")
        if self.seed:
            lines.append(f"seed {self.seed}")
        return "\n".join(lines) + "\n"

    __str__ = to_text

    @classmethod
    def from_state(cls, st) -> Position:
        """The position of an engine state (e.g. in the middle of a random game)."""
        n = int(st.sc[SC.N])
        dn = int(st.sc[SC.DECK_N])
        bits = int(st.sc[SC.VARIANTS])
        return cls(
            teams=tuple(int(t) for t in st.assoc[:n]),
            occs=tuple(int(o) for o in st.occ[:n]),
            up=tuple(bool(u) for u in st.occ_up[:n]),
            hands=tuple(tuple(int(c) for c in np.flatnonzero(st.loc == p)) for p in range(n)),
            deck=tuple(int(st.deck[i]) for i in range(dn - 1, -1, -1)),
            turn=int(st.sc[SC.ACTIVE]),
            drink=bool(st.sc[SC.DRINK]),
            turn_cap=max(1, int(st.sc[SC.TURN_CAP] - st.sc[SC.TURN])),
            variants=variant_names(bits),
            acards=tuple(tuple(int(c) for c in st.acard[p]) for p in range(n)) if st.acard[0, 0] >= 0 else (),
        )

    # ------------------------------------------------------------------ engine state
    def to_state(self, script: Sequence[str] | str | np.ndarray = (), bots: str | Sequence[str] = "first",
                 log_cap: int = DEFAULT_LOG_CAP, debug: bool = True):
        """A fresh engine ``State`` of this position, with the decisions ``script``.

        ``script``: lines of :mod:`kutsch_sim.notation.script` notation, or an int32[S, 3] array of
        (seat, Decision, option) rows. ``bots``: one profile name for every seat or one per
        seat (``first``, ``random``, ``greedy``, ``smart``: the bots' beliefs and View start
        as in a dealt game, from what each seat knows of the position, and the bots observe
        every event from there). The setup is written to the event log as
        ``setup_nb`` writes it (OCC, ASSOC, LEFTOVER, DEAL, DECK, SETUP_DONE), so the trace
        printer reads it; then the invariants are checked once.
        """
        from ..bots.beliefs import tell_size_nb
        from ..bots.dispatch import seat_bots_nb, start_bots_nb
        from ..bots.profiles import bot_arrays, check_bots
        from ..engine.invariants import check_nb
        from ..engine.state import SCRIPT_CAP, new_state, reset_scalars_nb
        from ..rng import seed_stream_nb

        rows = script if isinstance(script, np.ndarray) else compile_script(script, self)
        rows = np.ascontiguousarray(rows, dtype=np.int32).reshape(-1, 3)
        if len(rows) > SCRIPT_CAP:
            raise KutschError(f"script row {SCRIPT_CAP + 1}: a script holds at most {SCRIPT_CAP} decisions")
        names = (bots,) * self.n if isinstance(bots, str) else tuple(bots)
        if len(names) != self.n:
            raise KutschError(f"bots names {len(names)} seats but the position has {self.n}")
        bot_ids, params = bot_arrays(check_bots(names))
        n = self.n
        st = new_state(int(log_cap), rows)
        seed_stream_nb(st.rs, np.uint64(self.seed), 0, 0)
        reset_scalars_nb(st, n, self.turn_cap, self.drink, 0, variant_mask(self.variants))
        st.mem.bot[:] = bot_ids
        seat_bots_nb(st, n, bot_ids, params)
        log = _SetupLog(st)
        for p in range(n):
            st.occ[p] = self.occs[p]
            st.occ_loc[self.occs[p]] = p
            st.k_occ[p, p] = self.occs[p]
            log.add(EV.OCC, p, self.occs[p])
        for p in range(n):
            st.assoc[p] = self.teams[p]
            st.k_assoc[p, p] = self.teams[p]
            log.add(EV.ASSOC, p, self.teams[p])
            if self.acards:  # R10 advanced 3-player: the seat's three cards, known to it
                st.acard[p, :] = self.acards[p]
                st.k_acard[p, p, :] = self.acards[p]
                log.add(EV.ACARDS, p, *self.acards[p])
        if n % 2 == 1:
            st.sc[SC.MINORITY] = self.minority
            st.sc[SC.LEFTOVER] = self.minority  # the box holds a card of the smaller team
            if self.acards:  # the tenth card: the team with fewer of the nine dealt
                st.sc[SC.LEFTOVER] = ORDER if sum(c == ORDER for a in self.acards for c in a) == 4 else BROTHERHOOD
            log.add(EV.LEFTOVER, self.minority)
            st.drink[:n] = self.drink
        for p, h in enumerate(self.hands):
            for c in h:
                st.loc[c] = p
                st.hand_n[p] += 1
                st.k_card[p, c] = p
                log.add(EV.DEAL, p, c)
        for i, c in enumerate(reversed(self.deck)):  # engine: deck[0] bottom, deck[DECK_N-1] top
            st.deck[i] = c
            st.loc[c] = LOC_DECK
            log.add(EV.DECK, c, i)
        st.sc[SC.DECK_N] = len(self.deck)
        st.sc[SC.BAGS_OPEN] = 1 if not self.deck else 0  # R9: an empty deck means open Bags
        for p in range(n):
            if self.up[p]:
                st.occ_up[p] = True
                st.k_occ[:n, p] = self.occs[p]  # a face-up card is public
                log.add(EV.OCC_UP, p, self.occs[p])
        log.add(EV.SETUP_DONE, len(self.deck))
        st.sc[SC.ACTIVE] = self.turn
        for p in range(MAX_PLAYERS):
            st.rec[REC.TEAM0 + p] = st.assoc[p]
            st.rec[REC.OCC0 + p] = st.occ[p]
            st.rec[REC.ITEMS0 + p] = sum(1 << c for c in self.hands[p]) if p < n else 0
        loge = [p for p in range(n) if N_CARDS - 1 in self.hands[p]]
        st.rec[REC.LOGE_START] = loge[0] if loge else -1
        st.rec[REC.LOGE_EVER] = (1 << loge[0]) if loge else 0
        if check_nb(st, True) != ERR.OK:  # validate() should make this impossible
            raise KutschError(f"position breaks an engine invariant: {ERR_LABELS[int(st.sc[SC.ERROR])]}")
        start_bots_nb(st, n)  # (as setup_nb does: without it a smart seat would decide on no beliefs)
        tell_size_nb(st, n)  # (as the observer does at SETUP_DONE: told seats learn their team's size)
        st.sc[SC.DEBUG] = 1 if debug else 0
        return st


class _SetupLog:
    """Writes set-up events straight into the state's log (turn 0), as ``setup_nb`` does."""

    def __init__(self, st) -> None:
        self.st = st

    def add(self, typ: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> None:
        i = int(self.st.sc[SC.N_EVENTS])
        if i < self.st.sc[SC.LOG_CAP]:
            self.st.log[i, :] = (typ, 0, a, b, c, d)
        self.st.sc[SC.N_EVENTS] = i + 1


# ---------------------------------------------------------------------- parser
_SEAT_RE = re.compile(r"seat\s+(\d+)\s*:\s*(.*?)\s*\|\s*(.*)", re.IGNORECASE)


def _items(text: str) -> list[str]:
    text = text.strip()
    if text in ("", "-"):
        return []
    parts = [t.strip() for t in text.split(",")]
    if any(not t for t in parts):
        raise KutschError(f"empty item name in {text!r}")
    return parts


def _parse(text: str) -> Position:
    seats: dict[int, tuple[int, int, bool, list[str]]] = {}
    deck_names: list[str] = []
    pile: list[int] | None = None
    players = turn = minority = None
    drink = False
    cap = DEFAULT_TURN_CAP
    seed = 0
    variants: list[str] = []
    at: dict[str, int] = {}  # statement -> its line ("seat 2", "deck", "turn", ...), for the errors
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        try:
            word = line.split()[0].lower().rstrip(":")
            rest = line[len(line.split()[0]):].strip()
            if word == "seat":
                m = _SEAT_RE.fullmatch(line)
                if m is None:
                    raise KutschError("expected 'seat P: TEAM OCCUPATION [up] | ITEM, ITEM, ...'")
                p = int(m.group(1))
                if p in seats:
                    raise KutschError(f"seat {p} given twice")
                words = m.group(2).split()
                if len(words) < 2:
                    raise KutschError("a seat needs a team and an occupation")
                up = words[-1].lower() == "up"
                if up:
                    words = words[:-1]
                if not re.fullmatch(r"[OoBb]{3}", words[0]):
                    team(words[0])  # checked here, so the error names the line
                seats[p] = (words[0], occupation(" ".join(words[1:])), up, _items(m.group(3)))
                at[f"seat {p}"] = lineno
            elif word == "deck":
                deck_names = _items(rest.lstrip(":"))
            elif word == "pile":
                pile = [occupation(o) for o in _items(rest.lstrip(":"))]
            elif word in ("players", "turn", "cap", "seed"):
                if not re.fullmatch(r"\d+", rest):
                    raise KutschError(f"'{word}' needs a whole number")
                value = int(rest)
                if word == "players":
                    players = value
                elif word == "turn":
                    turn = value
                elif word == "cap":
                    cap = value
                else:
                    seed = value
            elif word == "drink" and not rest:
                drink = True
            elif word == "minority":
                minority = team(rest)
            elif word in ("variant", "variants"):
                variants += parse_variants(rest)
                word = "variant"
            else:
                raise KutschError(f"unknown statement {word!r} (seat, deck, pile, players, turn, drink, "
                                  "minority, cap, seed, variant)")
            at.setdefault(word, lineno)
        except KutschError as e:
            raise KutschError(f"position line {lineno}: {e}") from None
    try:
        return _build(seats, deck_names, pile, players, turn, minority, drink, cap, seed, variants)
    except PositionError as e:
        raise KutschError(f"{_lines(e.where, at, text)}: {e}") from None


def _lines(where: str, at: dict[str, int], text: str) -> str:
    """``position line 3`` for one statement; the seat lines (``"seats"``) as a range."""
    if where in at:
        return f"position line {at[where]}"
    seat_lines = sorted(v for k, v in at.items() if k.startswith("seat "))
    if not seat_lines:
        n = len(text.splitlines())
        return f"position lines 1-{n}" if n > 1 else "position line 1"
    lo, hi = seat_lines[0], seat_lines[-1]
    return f"position line {lo}" if lo == hi else f"position lines {lo}-{hi}"


def _build(seats: dict, deck_names: list[str], pile: list[int] | None, players: int | None, turn: int | None,
           minority: int | None, drink: bool, cap: int, seed: int, variants: list[str]) -> Position:
    """The Position of parsed statements; every error is a :class:`PositionError` naming its statement."""
    if not seats:
        raise PositionError("no seat line: write one per seat, 'seat P: TEAM OCCUPATION [up] | ITEM, ...'")
    n = len(seats)
    for p in sorted(seats):
        if p >= n:
            raise PositionError(f"seat {p} is out of range: {n} seat lines are numbered 0..{n - 1}", f"seat {p}")
    if players is not None and players != n:
        raise PositionError(f"'players {players}' but {n} seat lines", "players")
    hands = place_cards([seats[p][3] for p in range(n)] + [deck_names])
    try:
        in_play = settle_variants(parse_variants(variants), n)
    except KutschError as e:
        raise PositionError(str(e), "variant") from None
    acards: tuple[tuple[int, int, int], ...] = ()
    teams: list[int] = []
    for p in range(n):
        word = seats[p][0]
        if re.fullmatch(r"[OoBb]{3}", word):
            if "advanced-3p" not in in_play:
                raise PositionError(f"seat {p}: association cards ({word}) need 'variant advanced-3p' (R10)",
                                    f"seat {p}")
            cards = tuple(ORDER if ch in "oO" else BROTHERHOOD for ch in word)
            acards += (cards,)
            teams.append(BROTHERHOOD if sum(cards) >= 2 else ORDER)
        else:
            teams.append(team(word))
    pos = Position(
        teams=tuple(teams),
        occs=tuple(seats[p][1] for p in range(n)),
        up=tuple(seats[p][2] for p in range(n)),
        hands=tuple(tuple(h) for h in hands[:n]),
        deck=tuple(hands[n]),
        turn=0 if turn is None else turn,
        drink=drink,
        turn_cap=cap,
        seed=seed,
        variants=in_play,
        acards=acards,
    )
    if minority is not None and minority != pos.minority:
        have = TEAM_NAMES[pos.minority] if pos.minority >= 0 else "none (even N)"
        raise PositionError(f"'minority {TEAM_NAMES[minority]}' disagrees with the seat lines: minority is {have}",
                            "minority")
    if pile is not None and sorted(pile) != sorted(set(range(N_OCCS)) - set(pos.occs)):
        want = ", ".join(OCC_KEYS[o] for o in sorted(set(range(N_OCCS)) - set(pos.occs)))
        raise PositionError(f"the pile must hold exactly the occupations nobody holds: {want}", "pile")
    return pos
