"""Reason codes the bots write with every decision (``Event.REASON`` rows), and their texts.

A REASON row is ``[EV.REASON, turn, seat, code, target, d]``: ``target`` is a seat or -1,
``d`` is a card, a number, a fight-bonus source, an occupation or an item kind, as the
code's entry below says. The kernels only know the integer codes (module constants
``R_*``); :func:`reason_text` turns a row into plain English for the trace.
"""

from __future__ import annotations

import numpy as np

from .params import ODDS_SHARE, ODDS_STATED

# (key, template, meaning of d) in code order; the code is the index.
# Placeholders: {target} seat, {card} card name, {value} number, {src} fight bonus,
# {occ} occupation, {kind} item name.
REASON_TABLE: tuple[tuple[str, str, str], ...] = (
    ("none", "", "none"),
    ("pass", "passes: nothing worth doing", "none"),
    ("trade_info", "trades {card} to seat {target}: association unknown, will look at it", "card"),
    ("trade_privilege", "trades {card} to seat {target}: wants to see their items", "card"),
    ("trade_bag", "trades {card} to seat {target}: to draw from the item deck", "card"),
    ("trade_ally", "trades {card} to seat {target}: likely teammate, gathering our victory items", "card"),
    ("trade_pearl", "trades {card} to seat {target}: likely opponent, the Black Pearl stops them declaring",
     "card"),
    ("trade_spare", "trades {card} to seat {target}: a spare item for whatever comes back", "card"),
    ("trade_effect", "trades {card} to seat {target}: for its trade effect", "card"),
    ("attack_learn", "attacks seat {target}: association unknown", "none"),
    ("attack_take", "attacks seat {target}: likely opponent holding a victory item", "none"),
    ("attack_draw", "attacks seat {target}: a tie would draw from the deck", "none"),
    ("declare_sure", "declares: holds {value} victory items of the team", "value"),
    ("declare_team", "declares with teammates: {value}% confident", "value"),
    ("declare_drink", "declares with the Drink of Power: {value}% confident (team is the minority)", "value"),
    ("declare_loge", "declares a solo victory: the Coat of Armor of the Loge and 3 victory items", "none"),
    ("name", "names seat {target}: believed teammate holding a victory item", "none"),
    ("name_done", "names nobody else", "none"),
    ("accept", "accepts {card} from seat {target}: worth more than what goes back", "card"),
    ("accept_ally", "accepts {card} from seat {target}: likely teammate", "card"),
    ("reject", "rejects {card} from seat {target}: would lose more than it gains", "card"),
    ("return_ally", "gives {card} back to seat {target}: likely teammate, useful to them", "card"),
    ("return_spare", "gives {card} back to seat {target}: least useful item", "card"),
    ("return_pearl", "gives {card} back to seat {target}: likely opponent, Black Pearl blocks declaring",
     "card"),
    ("return_effect", "gives {card} back to seat {target}: its trade effect is then mine to use", "card"),
    ("effect_use", "uses the effect of {card} on seat {target}", "card"),
    ("effect_skip", "does not use the effect of {card}", "card"),
    ("support_att", "supports the attacker, seat {target}: likely teammate", "none"),
    ("support_def", "supports the defender, seat {target}: likely teammate", "none"),
    ("support_none", "stays neutral: neither side is clearly a teammate", "none"),
    ("play_bonus", "plays its {src}", "src"),
    ("keep_bonus", "keeps its {src} hidden: no need", "src"),
    ("ring", "uses the Poison Ring to win the tie", "none"),
    ("hypno", "hypnotises seat {target}: their support is void", "none"),
    ("hypno_none", "hypnotises nobody", "none"),
    ("mixer", "uses the Poison Mixer: seat {target} wins", "none"),
    ("mixer_none", "keeps the Poison Mixer", "none"),
    ("doctor", "uses the Doctor: the loser, seat {target}, likely on its side, keeps its victory items", "none"),
    ("doctor_none", "keeps the Doctor", "none"),
    ("priest", "uses the Priest: stops the attack on seat {target}", "none"),
    ("priest_none", "keeps the Priest", "none"),
    ("priest_give", "gives {card} to the Priest, seat {target}", "card"),
    ("look", "looks at seat {target}'s association and occupation: association unknown", "none"),
    ("items", "looks at seat {target}'s items", "none"),
    ("take", "takes {card} from seat {target}", "card"),
    ("take_none", "takes nothing from seat {target}", "none"),
    ("give_back", "gives {card} to seat {target}, who has no item left", "card"),
    ("limit_give", "over the hand limit: gives {card} to seat {target}", "card"),
    ("sextant_dir", "Sextant: everyone passes towards seat {target}", "none"),
    ("sextant_pass", "passes {card} on to seat {target}", "card"),
    ("coat", "takes the {occ} from the occupation pile", "occ"),
    ("clair_use", "uses the Clairvoyant: seat {target} is about to draw", "none"),
    ("clair_skip", "keeps the Clairvoyant for a draw of its own or a likely teammate's", "none"),
    ("clair_pick", "puts {card} on top of the item deck", "card"),
    ("diplo_use", "uses the Diplomat on seat {target}, who likely holds a {kind}", "kind"),
    ("diplo_skip", "keeps the Diplomat", "none"),
    ("diplo_target", "names seat {target}", "none"),
    ("diplo_name", "asks for a {kind}", "kind"),
    ("diplo_offer", "offers {card}", "card"),
    ("give_named", "hands over {card}, as the Diplomat demands", "card"),
    ("trade_deny", "trades {card} to seat {target}: keeps the opponents' victory item with a teammate",
     "card"),
    ("choose", "chooses {card}", "card"),
    ("declare_fortune", "tells the fortune (R10): names the other team's holders of their victory items, "
     "{value}% confident", "value"),
    ("smuggle", "smuggles {card} to seat {target}: not announced, its effect is not worth what the "
     "announcement would tell", "card"),
    ("announce", "lets {card} be announced to use its effect on seat {target}", "card"),
    ("acard_pick", "looks at seat {target}'s association card at position {value}", "value"),
    ("trade_pearl_park", "trades {card} to seat {target}: parks the Black Pearl with a likely teammate while "
     "I gather our victory items", "card"),
    ("return_pearl_park", "gives {card} back to seat {target}: parks the Black Pearl with a likely teammate "
     "while I gather our victory items", "card"),
    ("name_fortune", "names seat {target}: believed opponent holding one of their victory items", "none"),
    ("clair_pick2", "puts {card} second from the top of the item deck", "card"),
    ("look_occ", "looks at seat {target}'s association and occupation: occupation unknown", "none"),
    ("attack_learn_occ", "attacks seat {target}: occupation unknown", "none"),
    ("attack_ally", "attacks seat {target}, a likely teammate: nothing better to do, and a won fight shows "
     "their items", "none"),
    ("limit_ally", "over the hand limit: gives {card} to seat {target}, a likely teammate (our victory item "
     "stays with the team)", "card"),
    ("limit_pearl", "over the hand limit: gives {card} to seat {target}, a likely opponent (it stops them "
     "declaring)", "card"),
    ("limit_deny", "over the hand limit: gives {card} to seat {target}, a likely teammate (keeps the "
     "opponents' victory item from them)", "card"),
    ("limit_spare", "over the hand limit: gives {card}, the item it misses least, to seat {target}, whose "
     "hand is not full", "card"),
    ("attack_loge", "attacks seat {target}: may hold the Coat of Armor of the Loge close to a solo win", "none"),
    ("declare_loge_alone", "declares a solo victory with the Coat of Armor of the Loge, though its team could "
     "win too ({value}% confident): alone the win is certain and its own", "value"),
    ("declare_odds", "declares with teammates: {value}% confident, more than the team's chance of winning by "
     "playing on", "value"),
    ("declare_drink_odds", "declares with the Drink of Power: {value}% confident, more than the team's chance "
     "of winning by playing on", "value"),
    ("accept_loge", "accepts {card} from seat {target}: holds the Coat of Armor of the Loge, a step towards a "
     "solo win", "card"),
    ("take_loge", "takes {card} from seat {target}: keeps the Coat of Armor of the Loge from a solo win",
     "card"),
    ("declare_with_team", "declares with its team, though it could win alone with the Coat of Armor of the "
     "Loge: both are certain, and the team wins with it", "none"),
    ("support_price", "stays neutral: too little at stake to show its team", "none"),
    ("search_pick", "prefers this by look-ahead: it won {value}% of the worlds sampled from its view, played on "
     "(a game still open after the look-ahead's rounds counted at its measured odds), where its heuristic "
     "(smart's) choice won {base}%; it counts on winning {stated}%", "odds"),
)
N_REASONS = len(REASON_TABLE)
REASON_KEYS = tuple(r[0] for r in REASON_TABLE)

# integer constants for the kernels (numba freezes module-level ints)
R_NONE = 0
R_PASS = 1
R_TRADE_INFO = 2
R_TRADE_PRIVILEGE = 3
R_TRADE_BAG = 4
R_TRADE_ALLY = 5
R_TRADE_PEARL = 6
R_TRADE_SPARE = 7
R_TRADE_EFFECT = 8
R_ATTACK_LEARN = 9
R_ATTACK_TAKE = 10
R_ATTACK_DRAW = 11
R_DECLARE_SURE = 12
R_DECLARE_TEAM = 13
R_DECLARE_DRINK = 14
R_DECLARE_LOGE = 15
R_NAME = 16
R_NAME_DONE = 17
R_ACCEPT = 18
R_ACCEPT_ALLY = 19
R_REJECT = 20
R_RETURN_ALLY = 21
R_RETURN_SPARE = 22
R_RETURN_PEARL = 23
R_RETURN_EFFECT = 24
R_EFFECT_USE = 25
R_EFFECT_SKIP = 26
R_SUPPORT_ATT = 27
R_SUPPORT_DEF = 28
R_SUPPORT_NONE = 29
R_PLAY_BONUS = 30
R_KEEP_BONUS = 31
R_RING = 32
R_HYPNO = 33
R_HYPNO_NONE = 34
R_MIXER = 35
R_MIXER_NONE = 36
R_DOCTOR = 37
R_DOCTOR_NONE = 38
R_PRIEST = 39
R_PRIEST_NONE = 40
R_PRIEST_GIVE = 41
R_LOOK = 42
R_ITEMS = 43
R_TAKE = 44
R_TAKE_NONE = 45
R_GIVE_BACK = 46
R_LIMIT_GIVE = 47
R_SEXTANT_DIR = 48
R_SEXTANT_PASS = 49
R_COAT = 50
R_CLAIR_USE = 51
R_CLAIR_SKIP = 52
R_CLAIR_PICK = 53
R_DIPLO_USE = 54
R_DIPLO_SKIP = 55
R_DIPLO_TARGET = 56
R_DIPLO_NAME = 57
R_DIPLO_OFFER = 58
R_GIVE_NAMED = 59
R_TRADE_DENY = 60
R_CHOOSE = 61
R_DECLARE_FORTUNE = 62
R_SMUGGLE = 63
R_ANNOUNCE = 64
R_ACARD_PICK = 65
R_TRADE_PEARL_PARK = 66
R_RETURN_PEARL_PARK = 67
R_NAME_FORTUNE = 68
R_CLAIR_PICK2 = 69
R_LOOK_OCC = 70
R_ATTACK_LEARN_OCC = 71
R_ATTACK_ALLY = 72
R_LIMIT_ALLY = 73
R_LIMIT_PEARL = 74
R_LIMIT_DENY = 75
R_LIMIT_SPARE = 76
R_ATTACK_LOGE = 77
R_DECLARE_LOGE_ALONE = 78
R_DECLARE_ODDS = 79
R_DECLARE_DRINK_ODDS = 80
R_ACCEPT_LOGE = 81
R_TAKE_LOGE = 82
R_DECLARE_WITH_TEAM = 83
R_SUPPORT_PRICE = 84
R_SEARCH_PICK = 85


def _check_constants() -> None:
    g = globals()
    for code, (key, _, _) in enumerate(REASON_TABLE):
        name = "R_" + key.upper()
        if g.get(name) != code:
            raise AssertionError(f"reason constant {name} should be {code}")


_check_constants()


def _d_text(kind: str, d: int) -> dict[str, str]:
    from ..cards import CARD_NAMES, ITEM_NAMES, OCC_NAMES
    from ..enums import SRC_LABELS

    if kind == "card":
        return {"card": CARD_NAMES[d] if 0 <= d < len(CARD_NAMES) else "nothing"}
    if kind == "value":
        return {"value": str(d)}
    if kind == "odds":  # three percentages packed as params.M_PRESET_ODDS: the stated P(win), the share taken, the base's
        return {"value": str((d // ODDS_SHARE) % ODDS_SHARE), "base": str(d % ODDS_SHARE), "stated": str(d // ODDS_STATED)}
    if kind == "src":
        return {"src": SRC_LABELS[d] if 0 <= d < len(SRC_LABELS) else "bonus"}
    if kind == "occ":
        return {"occ": OCC_NAMES[d] if 0 <= d < len(OCC_NAMES) else "occupation"}
    if kind == "kind":
        name = ITEM_NAMES[d] if 0 <= d < len(ITEM_NAMES) else "item"
        return {"kind": "Secret Bag" if name.startswith("Secret Bag") else name}
    return {}


def reason_text(code: int, target: int, d: int) -> str:
    """Plain English for one reason (empty for R_NONE or an unknown code)."""
    if not 0 < code < N_REASONS:
        return ""
    _, template, kind = REASON_TABLE[code]
    return template.format(target=target, **_d_text(kind, int(d)))


def reason_row_text(row: np.ndarray) -> str:
    """Text of a REASON event row ``[type, turn, seat, code, target, d]``; '' for other rows
    (the signature :func:`kutsch_sim.review.trace.format_game` takes as ``reasons``)."""
    from ..enums import EV

    if int(row[0]) != EV.REASON:
        return ""
    return reason_text(int(row[3]), int(row[4]), int(row[5]))
