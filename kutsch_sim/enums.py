"""Integer constants shared by the numba engine, the bots and the Python layers.

Every constant is a plain module-level int (numba freezes them at compile time; never
mutate one) or a NamedTuple of ints, so numba sees constants and Python gets labels from
their names. ``-1`` means "none" everywhere.

State layout (see :mod:`kutsch_sim.engine.state`), per game:

* cards are numbered 0..N_CARDS-1 in the order of ``data/items.csv`` rows expanded by
  their count (Key x3, Goblet x3, Bag(Key), Bag(Goblet), Dagger, ...). ``CARD_KIND[c]``
  gives the kind. The card numbering is fixed; which cards are *in the game* is data
  (the item set), passed to the kernels as a mask.
* a card's location ``loc[c]``: 0..9 = that seat's hand, ``LOC_DECK``, ``LOC_OUT``.
* an occupation's location ``occ_loc[o]``: 0..9 = that seat, ``LOC_PILE``.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_PLAYERS = 10
MIN_PLAYERS = 3

# ---------------------------------------------------------------- item kinds (R9)
class ItemKind(NamedTuple):
    KEY: int = 0
    GOBLET: int = 1
    BAG_KEY: int = 2
    BAG_GOBLET: int = 3
    DAGGER: int = 4
    GLOVES: int = 5
    KNIVES: int = 6
    WHIP: int = 7
    RING: int = 8
    MONOCLE: int = 9
    PRIVILEGE: int = 10
    TOME: int = 11
    COAT: int = 12
    SEXTANT: int = 13
    PEARL: int = 14
    MIRROR: int = 15
    LOGE: int = 16


IK = ItemKind()
N_KINDS = 17
KIND_KEYS = tuple(ItemKind._fields)  # upper-case labels, in id order

# card numbering: Key x3, Goblet x3, then one card of every other kind
N_CARDS = 21
CARD_KIND_LIST = [IK.KEY] * 3 + [IK.GOBLET] * 3 + list(range(IK.BAG_KEY, N_KINDS))
assert len(CARD_KIND_LIST) == N_CARDS  # card ids for the kernels: cards_nb

# ---------------------------------------------------------------- occupations (R8)
class Occupation(NamedTuple):
    DIPLOMAT: int = 0
    DOCTOR: int = 1
    DUELIST: int = 2
    POISON_MIXER: int = 3
    GRAND_MASTER: int = 4
    CLAIRVOYANT: int = 5
    HYPNOTIST: int = 6
    BODYGUARD: int = 7
    PRIEST: int = 8
    THUG: int = 9


OC = Occupation()
N_OCCS = 10

# ---------------------------------------------------------------- teams (R1)
ORDER = 0  # collects Keys
BROTHERHOOD = 1  # collects Goblets
TEAM_NAMES = ("Order", "Brotherhood")

# ---------------------------------------------------------------- locations
LOC_DECK = 10
LOC_OUT = 11
LOC_PILE = 10  # occupation pile

# ---------------------------------------------------------------- scalars: st.sc[...]
class Scalar(NamedTuple):
    N: int = 0  # players
    TURN: int = 1  # turns played so far
    ACTIVE: int = 2  # seat whose turn it is
    DECK_N: int = 3  # cards left in the item deck (deck[0:DECK_N], top = DECK_N-1)
    OVER: int = 4  # 1 when the game has ended
    WINNER: int = 5  # Winner.*
    SOLO_SEAT: int = 6  # Loge solo winner seat or -1
    DECLARER: int = 7  # declaring seat or -1
    DECL_KIND: int = 8  # DeclKind.*
    MINORITY: int = 9  # team with fewer members at odd N, else -1
    LEFTOVER: int = 10  # association card put back in the box at odd N, else -1
    HAND_LIMIT: int = 11
    ERROR: int = 12  # 0 ok; nonzero = Err.* (invariant broken / illegal script)
    N_EVENTS: int = 13  # events written to the log (may exceed capacity; extra dropped)
    DECL_OK: int = 14  # 1 if the declaration succeeded
    TURN_CAP: int = 15
    DEBUG: int = 16  # 1: check invariants after every event
    DRINK: int = 17  # 1 if Drink of Power is in play (odd N and not switched off)
    SCRIPT_POS: int = 18  # next scripted decision
    BAGS_OPEN: int = 19  # 1 once the deck has emptied and the Bags have transformed (R9)
    DIPLO_USED_TURN: int = 20  # scratch: Diplomat used this turn
    N_DECISIONS: int = 21  # decisions taken so far
    BELIEFS: int = 22  # 1: the bots' observers update beliefs at every event (bots.beliefs)
    N_ASG: int = 23  # team assignments enumerated for the bots' beliefs at this N
    LOG_CAP: int = 24  # event rows to write (0 = logging off); kept across set-up
    N_SCRIPT: int = 25  # scripted decisions loaded; kept across set-up
    VARIANTS: int = 26  # bit mask of the rule variants in play (Variant.*, R10)
    TOP_SEAT: int = 27  # seat that knows which cards lie on top of the item deck (the Clairvoyant's, R8), -1
    TOP_KNOWN: int = 28  # ... and how many of the top cards it knows, in order (0-2)
    # position runs only (kutsch_sim.notation); a dealt game leaves them 0
    PAUSE: int = 29  # Pause.*: stop before a decision (engine.decide), armed / stopped
    PAUSE_SEAT: int = 30  # armed: the seat to stop at (-1 any); stopped: the deciding seat
    PAUSE_KIND: int = 31  # armed: the Decision to stop at (-1 any); stopped: the decision asked
    PAUSE_N: int = 32  # stopped: the options in opts[0:PAUSE_N]
    FORCED: int = 33  # Forced.*: the rule that took the decision stopped at, or that refused a script row
    SCRIPT_BAD: int = 34  # 1 + the first script row refused (ERR.SCRIPT), 0 none
    # house rules (docs/rules.md, House rules): set from the knob fields of VARIANTS (KNOB_SC)
    TEAM_NEED: int = 35  # victory items a team declaration needs (R6.3: 3)
    DRINK_ITEMS: int = 36  # victory items one Drink of Power stands for (R7: 1)
    LOGE_NEED: int = 37  # victory items the Loge's solo win needs (R6.5: 3)
    SMALLER_TOLD: int = 38  # 1: the smaller team's seats see the association card in the box (R2.2: 0)
    START_ITEMS: int = 39  # items each seat starts with at 3 players (R2.3: 2; 1 at other counts)
    VICTORY_CARDS: int = 40  # Keys and Goblets in the game, each (R9: 3)
    LAST_ITEMS: int = 41  # extra starting items of the last seat, n-1 (R2.3, R2.5: 0)


SC = Scalar()
N_SCALARS = 42

# The house rules' values (kutsch_sim.rules_table, the rows with bit 0) travel in sc[VARIANTS]
# above its on/off bits: knob i is a KNOB_WIDTH-bit two's-complement field at bit
# KNOB_SHIFT + KNOB_WIDTH * i holding (value - KNOB_DEFAULT[i]), so the base game's VARIANTS
# value is the same as without knobs. reset_scalars_nb writes knob i into sc[KNOB_SC[i]].
# HAND_LIMIT's default 0 stands for R2.4's count-based limit.
KNOB_SHIFT = 8
KNOB_WIDTH = 5
KNOB_SC = (SC.TEAM_NEED, SC.DRINK_ITEMS, SC.LOGE_NEED, SC.HAND_LIMIT, SC.SMALLER_TOLD, SC.START_ITEMS, SC.VICTORY_CARDS,
           SC.LAST_ITEMS)
KNOB_DEFAULT = (3, 1, 3, 0, 0, 2, 3, 0)


class Pause(NamedTuple):
    """``sc[PAUSE]``: a position run may stop before a decision (``run(..., stop_at=...)``)."""

    OFF: int = 0
    ARMED: int = 1  # stop before the first matching decision once every script row is used
    STOPPED: int = 2


PAUSE = Pause()


class Forced(NamedTuple):
    """Decisions the rules take without asking (engine.decide.forced_nb): why."""

    NONE: int = 0
    BAGS: int = 1  # R4.7: the receiver's only item is the other Secret Bag -> reject
    MIRROR: int = 2  # R4.5: a Broken Mirror cannot be rejected -> accept
    PEARL: int = 3  # R4.6: a Black Pearl cannot be rejected -> accept
    DIPLOMAT: int = 4  # R8: the Diplomat's trade cannot be refused -> accept


FORCED = Forced()


class Variant(NamedTuple):
    """Bits of ``sc[VARIANTS]``: the official variants (R10), each a rule switch. Their names,
    player counts and descriptions are rows of :mod:`kutsch_sim.rules_table`."""

    SMUGGLING: int = 1  # the giver of a trade-effect item may keep it silent
    FORTUNE: int = 2  # fortune-telling: name the other team's holders of their combination
    ADV3P: int = 4  # advanced 3-player game: 3 association cards each, team = majority


VAR = Variant()


class Winner(NamedTuple):
    NONE: int = -1
    ORDER: int = 0
    BROTHERHOOD: int = 1
    SOLO: int = 2
    TIMEOUT: int = 3
    ERROR: int = 4


WIN = Winner()
WINNER_LABELS = ("order", "brotherhood", "solo", "timeout", "error")


class DeclKind(NamedTuple):
    NONE: int = -1
    TEAM: int = 0  # 3 victory items (transformed Bags count)
    DRINK: int = 1  # team declaration relying on the declarer's Drink of Power (R7)
    LOGE: int = 2  # solo victory (R6.5)
    FORTUNE: int = 3  # fortune-telling (R10 variant): naming the other team's holders


DK = DeclKind()
DECL_LABELS = ("team", "drink", "loge", "fortune")


class Err(NamedTuple):
    OK: int = 0
    CARDS: int = 1  # a card is not in exactly one place / counts disagree
    EMPTY_HAND: int = 2
    HAND_LIMIT: int = 3
    OCCS: int = 4
    SCRIPT: int = 5  # a scripted decision was not legal
    NO_OPTIONS: int = 6  # a decision with no legal option (engine bug)
    LOG: int = 7


ERR = Err()
ERR_LABELS = ("ok", "cards", "empty hand", "hand limit", "occupations", "illegal scripted move", "no options", "log")


# ---------------------------------------------------------------- decisions
class Decision(NamedTuple):
    """Every choice a player makes goes through ``decide_nb(kind, seat, opts)``.

    The option encoding of each kind is given beside it; ``ctx`` (st.dctx) holds
    DCTX_* values describing the situation (who attacks whom, which card, ...).
    """

    ACTION: int = 0  # act_* codes below (R3)
    CLAIR_USE: int = 1  # 0/1 use the Clairvoyant now (R8)
    CLAIR_PICK: int = 2  # a card id in the deck; picked first = goes on top
    DIPLO_USE: int = 3  # 0/1 (ctx[DCTX_X] = 0 before the action, 1 after)
    DIPLO_TARGET: int = 4  # seat
    DIPLO_NAME: int = 5  # item kind named (Bag(Key) stands for "Secret Bag" while the deck has cards)
    DIPLO_OFFER: int = 6  # card id offered
    DECL_NAME: int = 7  # seat to name, or -1 = done naming (R6.2)
    ACCEPT: int = 8  # 0 reject / 1 accept (R4.2)
    RETURN: int = 9  # card id given back (R4.3)
    GIVE_NAMED: int = 10  # card id of the named kind handed to the Diplomat
    EFFECT_USE: int = 11  # 0/1 the giver carries out the trade effect (R4.4)
    COAT_PICK: int = 12  # occupation id taken from the pile
    SEXTANT_DIR: int = 13  # 0 = pass to the left (seat+1), 1 = to the right (seat-1)
    SEXTANT_PASS: int = 14  # card id passed on
    PRIEST_USE: int = 15  # 0/1
    PRIEST_GIVE: int = 16  # card id the attacker gives the Priest
    SUPPORT: int = 17  # SIDE_NONE / SIDE_ATT / SIDE_DEF
    HYPNO: int = 18  # seat whose support is voided, or -1
    FIGHT_PLAY: int = 19  # 0/1 play the bonus named in ctx[DCTX_SRC] (Src.*)
    RING_USE: int = 20  # 0/1 Poison Ring on a tie
    MIXER: int = 21  # -1 no, SIDE_ATT / SIDE_DEF wins
    DOCTOR_USE: int = 22  # 0/1
    WIN_CHOICE: int = 23  # 0 look at association+occupation, 1 look at items (and may take)
    TAKE: int = 24  # card id taken, or -1
    GIVE_BACK: int = 25  # card id given to a loser left empty (R5.8)
    LIMIT_GIVE: int = 26  # target * 32 + card (R2.4 hand limit)
    SMUGGLE: int = 27  # 0 announce / 1 smuggle: the giver keeps an effect item silent (R10 Smuggling)
    ACARD_PICK: int = 28  # position 0..2 of the association card to see (R10 advanced 3-player)


DEC = Decision()
N_DECISIONS = 29
DECISION_LABELS = tuple(f.lower() for f in Decision._fields)

# ACTION option codes: kind * ACT_MUL + target * 32 + card (or + decl kind)
ACT_MUL = 1024
ACT_PASS = 0
ACT_TRADE = 1
ACT_ATTACK = 2
ACT_DECLARE = 3

SIDE_NONE = 0
SIDE_ATT = 1
SIDE_DEF = 2

# decision context slots (st.dctx)
DCTX_A = 0  # attacker / active player / giver
DCTX_B = 1  # defender / partner / receiver
DCTX_CARD = 2  # card concerned
DCTX_SRC = 3  # fight bonus source (Src.*)
DCTX_X = 4  # extra (strengths, named kind, ...)
DCTX_Y = 5
DCTX_U = 6  # fights: the attacker's own strength without supporters (FIGHT_PLAY); the side that wins so far (MIXER)
DCTX_W = 7  # fights: the defender's own strength without supporters (FIGHT_PLAY)
N_DCTX = 8
# options a decision can have: the length of the engine's st.opts and of the View's copy of it
N_OPTS = 512

_A, _B, _CARD, _SRC = 1 << DCTX_A, 1 << DCTX_B, 1 << DCTX_CARD, 1 << DCTX_SRC
_X, _Y, _U, _W = 1 << DCTX_X, 1 << DCTX_Y, 1 << DCTX_U, 1 << DCTX_W
# DCTX_MASK[kind]: bit i set when the engine writes dctx slot i for a decision of that kind after
# the previous decision (of any seat). A View shows only these slots (bots.view.fill_light_nb)
# and 0 in the others, which still hold an earlier decision's context: a card offered in a
# trade between two other seats, a bonus someone declined. tests/test_bots_honesty.py checks the
# table against what the engine writes, decision by decision.
DCTX_MASK = (
    _A,  # ACTION: the active seat
    _A | _B | _X,  # CLAIR_USE: holder, the seat about to draw (-1), when (CLAIR_*)
    _A | _X,  # CLAIR_PICK: holder, 0 first pick / 1 second
    _A | _X,  # DIPLO_USE: holder, 0 before the action / 1 after
    _A | _X,  # DIPLO_TARGET: as DIPLO_USE
    _B,  # DIPLO_NAME: the target
    _X,  # DIPLO_OFFER: the kind named
    _A | _B,  # DECL_NAME: declarer, DeclKind
    _A | _B | _CARD,  # ACCEPT: giver, receiver, card offered
    _A | _B | _CARD,  # RETURN: as ACCEPT
    _A | _B | _CARD,  # GIVE_NAMED: the Diplomat, its target, card offered
    _A | _B | _CARD,  # EFFECT_USE: giver, partner, card traded
    0,  # COAT_PICK
    0,  # SEXTANT_DIR
    _A | _B | _X,  # SEXTANT_PASS: the Sextant's giver, receiver of the card, direction
    _A | _B,  # PRIEST_USE: attacker, defender
    _A | _B,  # PRIEST_GIVE: attacker, Priest
    _A | _B | _X | _Y,  # SUPPORT: attacker, defender, their hand sizes
    0,  # HYPNO
    _A | _B | _SRC | _X | _Y | _U | _W,  # FIGHT_PLAY: fighters, bonus, strengths (see DCTX_U)
    _A | _B,  # RING_USE: attacker, defender
    _A | _B | _X | _Y | _U,  # MIXER: fighters, strengths, side winning so far
    _A | _B | _X,  # DOCTOR_USE: fighters, side that won (0 tie)
    _A | _B,  # WIN_CHOICE: winner, loser
    _A | _B,  # TAKE: winner, loser
    _A | _B,  # GIVE_BACK: winner, loser
    _A | _B,  # LIMIT_GIVE: the seat over the limit, cards over it
    _A | _B | _CARD,  # SMUGGLE: giver, receiver, effect card
    _A | _B,  # ACARD_PICK: seer, seen
)
assert len(DCTX_MASK) == N_DECISIONS
del _A, _B, _CARD, _SRC, _X, _Y, _U, _W


class Src(NamedTuple):
    """Sources of fight strength (R5, R8, R9), in the ruling's resolution order."""

    DAGGER: int = 0
    GLOVES: int = 1
    THUG: int = 2
    GRAND_MASTER: int = 3
    KNIVES: int = 4
    WHIP: int = 5
    BODYGUARD: int = 6
    DUELIST: int = 7


SRC = Src()
SRC_LABELS = ("Dagger", "Gloves", "Thug", "Grand Master", "Casting Knives", "Whip", "Bodyguard", "Duelist")


# ---------------------------------------------------------------- events
class Event(NamedTuple):
    """Event log rows are int32 [type, turn, a, b, c, d]; meaning of a..d beside each."""

    DEAL: int = 0  # seat, card (starting hand, R2.3)
    ASSOC: int = 1  # seat, team
    OCC: int = 2  # seat, occupation (dealt face down)
    LEFTOVER: int = 3  # team of the card left in the box (odd N), the seats shown it (bit mask; smaller-told)
    DECK: int = 4  # card, position (0 = bottom)
    TURN: int = 5  # seat
    PASS: int = 6  # seat
    OCC_UP: int = 7  # seat, occupation (turned face up: public)
    CLAIR: int = 8  # seat, top card, second card (private), deck size
    DIPLO: int = 9  # seat, target, named kind, offered card
    DIPLO_MISS: int = 10  # seat, target (target did not hold it; shows hand)
    DIPLO_BAGS: int = 11  # seat, target, the other Bag (Bag named, Bag offered, target holds the other: the seat learns it)
    OFFER: int = 12  # giver, receiver, card, OFFER_* (why it cannot be refused, if it cannot)
    REJECT: int = 13  # giver, receiver, card, 1 if R4.7 forced it (for the trace; the bots do not read it)
    ACCEPT: int = 14  # giver, receiver, card given, card returned
    ANNOUNCE: int = 15  # receiver, card (public name)
    EFFECT: int = 16  # giver (who may use it), card, partner, used 0/1
    SEE_ASSOC: int = 17  # seer, seen, team
    SEE_ITEMS: int = 18  # seer, seen, bitmask of cards
    SEE_OCC: int = 19  # seer, seen, occupation
    DRAW: int = 20  # seat, card, reason (0 bag, 1 tie), 1 + the seat that knew the card (R8 Clairvoyant) or 0
    BAGS_OPEN: int = 21  # (deck empty, Bags are now Key/Goblet)
    TOME: int = 22  # seat a, seat b, a's new occupation, b's new occupation
    COAT: int = 23  # seat, old occupation, new occupation
    SEXTANT: int = 24  # giver, direction (0 left, 1 right)
    PASS_ON: int = 25  # from, to, card (Sextant)
    GIVE: int = 26  # from, to, card (hand limit give-away)
    ATTACK: int = 27  # attacker, defender
    PRIEST: int = 28  # priest seat, attacker, card given or -1
    SUPPORT: int = 29  # seat, side
    HYPNO: int = 30  # attacker, hypnotised seat
    BONUS: int = 31  # seat, source (Src.*), side, +amount
    VOID: int = 32  # seat, side, reason (0 Hypnotist, 1 Duelist) support cancelled
    RING: int = 33  # seat, side
    MIXER: int = 34  # seat, side named winner
    RESULT: int = 35  # attacker strength, defender strength, side won (0 tie)
    DOCTOR: int = 36  # seat
    LOOK: int = 37  # winner, loser, 0 = association+occupation / 1 = items
    TAKE: int = 38  # winner, loser, card or -1
    GIVE_BACK: int = 39  # winner, loser, card
    DECLARE: int = 40  # seat, kind, bitmask of named seats
    DECL_RESULT: int = 41  # ok 0/1, winner, victory items counted
    TIMEOUT: int = 42  # turns
    PRIEST_GIVE_NONE: int = 43  # placeholder kept for numbering stability (unused)
    SETUP_DONE: int = 44  # deck size
    REASON: int = 45  # seat, reason code (bots.reasons), target seat or -1, card / value or -1
    SMUGGLE: int = 46  # giver, receiver, card (R10 Smuggling: not announced; only the traders know)
    ACARDS: int = 47  # seat, card 0, card 1, card 2 (R10 advanced 3-player: the seat's 3 cards, in order)
    SEE_ACARD: int = 48  # seer, seen, position, team of the card (advanced 3-player look / Monocle)


EV = Event()

# the OFFER event's last field: free to reject, or why it cannot be
OFFER_FREE = 0
OFFER_DIPLOMAT = 1  # the Diplomat's demand (R8): public, the Diplomat was turned face up and named it
OFFER_CARD = 2  # a Black Pearl or a Broken Mirror (R4.5, R4.6): only the two traders know

# when the engine offers the Clairvoyant (R3: usable "at any point of your own turn";
# engine.trade.clair_window_nb): the CLAIR_USE decision's ctx[DCTX_X]
CLAIR_START = 0  # the turn's start, before the Diplomat and the action
CLAIR_DRAW = 1  # right before a card is drawn during the turn (a Secret Bag's effect, a tie)
CLAIR_END = 2  # the turn's end, after the action and the Diplomat
N_EVENT_TYPES = 49
EV_COLS = 6


# ---------------------------------------------------------------- game records
class Rec(NamedTuple):
    """Per-game record columns (int32), written by the engine, labelled by the API."""

    WINNER: int = 0
    SOLO_SEAT: int = 1
    DECLARER: int = 2
    DECL_KIND: int = 3
    DECL_OK: int = 4
    TURNS: int = 5
    MINORITY: int = 6
    ERROR: int = 7
    LOGE_START: int = 8  # seat that started with the Loge, -1
    LOGE_EVER: int = 9  # bitmask of seats that ever held the Loge
    DRINK_USED: int = 10  # 1 if a Drink of Power was part of the declaration
    DECISIONS: int = 11
    TEAM0: int = 12  # TEAM0 + p: team of seat p (-1 absent)
    OCC0: int = 22  # OCC0 + p: starting occupation of seat p
    ITEMS0: int = 32  # ITEMS0 + p: bitmask of seat p's starting cards


REC = Rec()
N_REC = 42
