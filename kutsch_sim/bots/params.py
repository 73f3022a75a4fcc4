"""Bot parameter slots and bot-memory slots (shared by the kernels and ``profiles.py``).

A seat's parameters are one row ``st.mem.bparam[seat]`` (float64[N_BPARAM]); the names below
are the column names of ``data/bots.csv``. Every parameter is a plain number so that a
table can tune a profile without touching code.
"""

from __future__ import annotations

N_BPARAM = 25

# bot ids (STYLE 7: the policy is chosen by an integer, never a function object)
BOT_RANDOM = 0  # uniform over the legal options
BOT_FIRST = 1  # always the first option: "no", pass, reject, neutral ... (tests, scripts)
BOT_GREEDY = 2  # heuristic play from hard knowledge only (no soft evidence, no minority reasoning)
BOT_SMART = 3  # heuristic play from full beliefs (bots.beliefs)
BOT_SEARCH = 4  # smart, with the turn's action chosen by look-ahead (kutsch_sim.search)
BOT_NAMES = ("random", "first", "greedy", "smart", "search")

# ----------------------------------------------------------- parameter slots (bparam row)
P_DECLARE_THRESHOLD = 0  # declare when P(success) >= this (1.0 = only when certain)
P_AGGRESSION = 1  # multiplier on the value of attacking
P_SOFT_TRUST = 2  # weight of soft (behavioural) evidence in team beliefs; 0 = hard evidence only
P_SUPPORT_MARGIN = 3  # support a side when P(teammate) differs by more than this
P_INFO_VALUE = 4  # value of learning one unknown association (Monocle, fight look)
P_DRAW_VALUE = 5  # value of drawing a card from the item deck (Secret Bag effect)
P_PASS_BIAS = 6  # an action must score above this to be preferred to passing
P_OCC_MARGIN = 7  # once-only occupations (Priest, Doctor, Poison Mixer): belief margin to use them
P_URGENCY = 8  # per 100 turns, how much the declaration threshold drops; past 10n turns, attack gain per 5 turns
P_NOISE = 9  # random jitter added to action scores (varied play, no fixed loops)
P_CONSOLIDATE = 10  # value of moving our victory item to the teammate who holds more of them
P_LOGE_WATCH = 11  # weight of a likely Loge holder's solo threat (R6.5); 0 = the Loge is ignored
P_WAIT_VALUE = 12  # declare when P(success) >= min(declare_threshold, P(win by playing on) + this)
P_FIGHT_READ = 13  # 1 = a fight estimate counts the supporters' known bonuses (Bodyguard, Whip, Knives)
P_LOGE_PLAY = 14  # while holding the Loge: weight of any victory item as a step to a solo win (R6.5)
P_SUPPORT_PRICE = 15  # a support shows my team (R5.3): back a side only when what my +1 is worth passes this
P_LOGE_HIDE = 16  # while holding the Loge near a solo win: weight of keeping my hand from being seen (R6.5)
P_SEARCH_WIDTH = 17  # search: how many actions the look-ahead compares (at most SEARCH_MAX_WIDTH)
P_SEARCH_SAMPLES = 18  # search: sampled worlds (one rollout each) per compared action
P_SEARCH_MARGIN = 19  # search: standard errors by which another action must beat smart's own choice
P_EVIDENCE = 20  # the soft-evidence model (bots.evidence): 0 hand-set weights, 1 fitted, own actions not counted
P_CALIBRATED = 21  # 1 = a declaration's P(success) and P(minority) are read through the fitted maps (bots.calibration)
P_SEARCH_WORLDS = 22  # search: 0 worlds drawn from its view; 1, 2 measuring instruments that see the truth (search.sample)
P_SEARCH_DEPTH = 23  # search: rounds (N turns each) a rollout plays after the action before the value table scores it (search.value); 0 = to the end

PARAM_NAMES = (
    "declare_threshold",
    "aggression",
    "soft_trust",
    "support_margin",
    "info_value",
    "draw_value",
    "pass_bias",
    "occ_margin",
    "urgency",
    "noise",
    "consolidate",
    "loge_watch",
    "wait_value",
    "fight_read",
    "loge_play",
    "support_price",
    "loge_hide",
    "search_width",
    "search_samples",
    "search_margin",
    "evidence",
    "calibrated",
    "search_worlds",
    "search_depth",
)
SEARCH_MAX_WIDTH = 64  # the look-ahead's candidate buffer (kutsch_sim.search.lookahead)
SEARCH_NAMES = PARAM_NAMES[P_SEARCH_WIDTH:P_SEARCH_MARGIN + 1]  # the search budget (0 if absent)
OPTIONAL_NAMES = PARAM_NAMES[P_SEARCH_WIDTH:]  # columns a profile table may leave off at its end (0 if absent) ...
OPTIONAL_GROUPS = (SEARCH_NAMES, ("evidence",), ("calibrated",), ("search_worlds",), ("search_depth",))  # ... in these groups, in this order
BASE_ONLY = ("soft_trust", "evidence", "calibrated", "search_worlds", "search_depth")  # shape the beliefs that choose a role row: base row only
assert len(PARAM_NAMES) < N_BPARAM  # the last slot is the told bits (P_TOLD, below)

# ----------------------------------------------------------- bot memory slots (bmem row, int32)
N_BMEM = 16
M_DECL_NAMED = 0  # bitmask of seats the planned declaration names
M_DIPLO_T = 1  # Diplomat plan: target seat
M_DIPLO_NAME = 2  # Diplomat plan: item kind to name
M_DIPLO_OFFER = 3  # Diplomat plan: card to offer
M_CLAIR_TOP = 4  # card the seat put on top of the deck with the Clairvoyant (-1)
M_CLAIR_DN = 5  # deck size right after; the top is still that card while the size is equal
M_REJECTED = 6  # bitmask of seats that rejected this seat's last offers
M_LAST_TARGET = 7  # last seat this seat offered to
M_LAST_CARD = 8  # last card offered
M_CLAIR_2ND = 9  # the card the seat put second from the top with the Clairvoyant (-1)
M_SAW_DECK = 10  # 1 once the seat has looked through the item deck (the Clairvoyant): cards seen there
M_PASSED = 11  # the card the seat passed on in the Sextant round under way (-1)
M_PRESET = 12  # the search bot: its next turn's action chosen by look-ahead, + 1 (0 = none; taken by act.py)
M_PRESET_ODDS = 13  # the search bot: ODDS_STATED x its stated P(win) + ODDS_SHARE x that action's share of sampled worlds won + smart's choice's, percents (its trace)
M_CLAIMS = 14  # 1 in the calibration recorder's copy of a seat only: it also states P(teammate) of our items' holders, which decides nothing (bots.calibration.state_named_nb)
ODDS_STATED = 1_000_000
ODDS_SHARE = 1000

# ----------------------------------------------------------- the told bracket and role rows
# P_TOLD: a bit mask, read from the seat's base row only (0 for every profile in data/bots.csv).
# Bit 0: a seat whose team is the smaller one (odd N) is told so; bit 1: a seat of the larger
# team is told so. A told seat's beliefs keep only the team assignments with its team's true
# size (beliefs.tell_size_nb): the one fact from outside its view, for an upper bound.
P_TOLD = N_BPARAM - 1  # the last slot; PARAM_NAMES fill the slots from 0
TOLD_NAME = "told"  # its column in a profile table (optional; not in PARAM_NAMES, which is slot order)
TOLD_SMALLER = 1
TOLD_LARGER = 2

# A seat's parameters are a table of rows: the base row (bparam) and one row per role, used
# while the seat is in that role as it sees it (view.role_nb): holding the Coat of Armor of
# the Loge (its own hand; first), or at odd N believing its team the smaller one (its own
# P(minority) >= 0.5) or the larger one. A role row equal to the base row is never read.
ROLE_BASE = 0
ROLE_MINORITY = 1
ROLE_MAJORITY = 2
ROLE_LOGE = 3
N_ROLES = 4
ROLE_NAMES = ("any", "minority", "majority", "loge")  # the `when` column of a profile table
