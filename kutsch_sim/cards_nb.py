"""Card facts for the kernels, in one place below both the rules (``engine``) and the bots.

Cards are numbered 0..20 (``enums``: Key x3, Goblet x3, then one card of every other kind in
the order of ``data/items.csv``); a card's kind is the ``enums.IK`` id. What a card *is* --
its kind, whether it is a victory item and of which team, whether it has a trade effect --
is written here once; the engine's rules and the bots' estimates both read it.
"""

from __future__ import annotations

from .jit import njit

from .enums import BROTHERHOOD, IK, ORDER

# card ids of the single cards (cards 0-2 are the Keys, 3-5 the Goblets)
C_BAG_KEY = 6
C_BAG_GOBLET = 7
C_DAGGER = 8
C_GLOVES = 9
C_KNIVES = 10
C_WHIP = 11
C_RING = 12
C_MONOCLE = 13
C_PRIVILEGE = 14
C_TOME = 15
C_COAT = 16
C_SEXTANT = 17
C_PEARL = 18
C_MIRROR = 19
C_LOGE = 20

# card sets as bit masks (card c: bit c)
FUT_ORDER = 0x47  # the Keys (cards 0-2) and the Bag of Keys (6): the Order's now or to be
FUT_BROTHERHOOD = 0xB8  # the Goblets (3-5) and the Bag of Goblets (7)
KG_ORDER = 0x07  # the Keys
KG_BROTHERHOOD = 0x38  # the Goblets


@njit(cache=True, inline="always")
def kind_nb(c):
    """The kind (``enums.IK``) of card c."""
    if c < 3:
        return IK.KEY
    if c < 6:
        return IK.GOBLET
    return c - 4  # cards 6.. are one card per kind, kinds 2..


@njit(cache=True, inline="always")
def card_of_kind_nb(k):
    """A card of kind k (for single cards the card; for Key/Goblet the first one)."""
    if k == IK.KEY:
        return 0
    if k == IK.GOBLET:
        return 3
    return k + 4


@njit(cache=True, inline="always")
def is_bag_nb(c):
    """A Secret Bag (R9)."""
    return c == C_BAG_KEY or c == C_BAG_GOBLET


@njit(cache=True, inline="always")
def now_team_nb(c, bags_open):
    """Team whose victory item card c counts as now, or -1: Keys the Order's, Goblets the
    Brotherhood's, a Secret Bag its colour's once the item deck is empty (R9)."""
    if c < 3:
        return ORDER
    if c < 6:
        return BROTHERHOOD
    if bags_open == 1:
        if c == C_BAG_KEY:
            return ORDER
        if c == C_BAG_GOBLET:
            return BROTHERHOOD
    return -1


@njit(cache=True, inline="always")
def future_team_nb(c):
    """Team whose victory item card c is or becomes (a Bag becomes one when the deck empties)."""
    if c < 3 or c == C_BAG_KEY:
        return ORDER
    if c < 6 or c == C_BAG_GOBLET:
        return BROTHERHOOD
    return -1


@njit(cache=True, inline="always")
def has_effect_nb(c, bags_open):
    """A trade effect (R9): Monocle, Privilege, Tome, Coat, Sextant, and the Bags while the
    item deck has cards."""
    if is_bag_nb(c):
        return bags_open == 0
    return c == C_MONOCLE or c == C_PRIVILEGE or c == C_TOME or c == C_COAT or c == C_SEXTANT
