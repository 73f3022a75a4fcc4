"""Every decision other than the turn's action, for the heuristic bots (greedy and smart).

Each ``*_nb`` function takes the seat's View record (``bots.view``, never the State),
returns the index of the chosen option in ``v.opts[0:v.n_opts]`` and writes the reason to
``v.out`` (code, target, card/value). Values are from the deciding seat's side ("ours"
vs "theirs"); equal scores are broken with the game's random stream.
"""

from __future__ import annotations

from numba import njit

from ..enums import (
    CLAIR_DRAW,
    DCTX_A,
    DCTX_B,
    DCTX_CARD,
    DCTX_SRC,
    DCTX_U,
    DCTX_W,
    DCTX_X,
    DCTX_Y,
    DEC,
    IK,
    N_CARDS,
    OC,
    SIDE_ATT,
    SIDE_DEF,
    SRC,
)
from ..rng import below_nb
from .act import choose_action_nb, choose_decl_name_nb
from .intrinsics import ctz_nb
from .params import (
    M_DIPLO_NAME,
    M_DIPLO_OFFER,
    M_DIPLO_T,
    P_CONSOLIDATE,
    P_DRAW_VALUE,
    P_INFO_VALUE,
    P_OCC_MARGIN,
    P_SUPPORT_MARGIN,
)
from .reasons import (
    R_ACARD_PICK,
    R_ACCEPT,
    R_ACCEPT_ALLY,
    R_ANNOUNCE,
    R_CHOOSE,
    R_CLAIR_PICK,
    R_CLAIR_PICK2,
    R_CLAIR_SKIP,
    R_CLAIR_USE,
    R_COAT,
    R_DIPLO_NAME,
    R_DIPLO_OFFER,
    R_DIPLO_SKIP,
    R_DIPLO_TARGET,
    R_DIPLO_USE,
    R_DOCTOR,
    R_DOCTOR_NONE,
    R_EFFECT_SKIP,
    R_EFFECT_USE,
    R_GIVE_BACK,
    R_GIVE_NAMED,
    R_HYPNO,
    R_HYPNO_NONE,
    R_ITEMS,
    R_KEEP_BONUS,
    R_LIMIT_ALLY,
    R_LIMIT_DENY,
    R_LIMIT_GIVE,
    R_LIMIT_PEARL,
    R_LIMIT_SPARE,
    R_LOOK,
    R_LOOK_OCC,
    R_MIXER,
    R_MIXER_NONE,
    R_PLAY_BONUS,
    R_PRIEST,
    R_PRIEST_GIVE,
    R_PRIEST_NONE,
    R_REJECT,
    R_RETURN_ALLY,
    R_RETURN_EFFECT,
    R_RETURN_PEARL,
    R_RETURN_PEARL_PARK,
    R_RETURN_SPARE,
    R_RING,
    R_SEXTANT_DIR,
    R_SEXTANT_PASS,
    R_SMUGGLE,
    R_SUPPORT_ATT,
    R_SUPPORT_DEF,
    R_SUPPORT_NONE,
    R_TAKE,
    R_TAKE_NONE,
)
from .values import (
    cards_at_nb,
    C_BAG_GOBLET,
    C_BAG_KEY,
    C_COAT,
    C_LOGE,
    C_MIRROR,
    C_MONOCLE,
    C_PEARL,
    C_PRIVILEGE,
    C_SEXTANT,
    C_TOME,
    C_WHIP,
    EVM,
    EVT,
    MY_ANY,
    MY_FUT,
    MY_NOW,
    MY_THEIRS,
    TM,
    ckind_nb,
    draw_value_nb,
    future_team_nb,
    give_value_nb,
    has_effect_nb,
    is_bag_nb,
    keep_value_nb,
    pick_best_nb,
    prep_nb,
)

# LIMIT_GIVE: the cost of handing an item to a seat already at the hand limit, who must then
# give one on (R2.4): well above what shedding a harmless item to an opponent with room
# costs, and above the Black Pearl's pull towards a teammate or an opponent, so the item
# leaves the full hands instead of going round them
V_FULL = 3.0

# how much each occupation is worth holding (Coat pick, Tome swap); team-neutral
OCC_VALUE = (0.9, 0.6, 0.7, 0.8, 0.6, 0.5, 0.5, 0.4, 0.7, 0.7)


@njit(cache=True, inline="always")  # 39 literal reason codes: inlined, not compiled 39 times
def out_nb(v, code, target, d):
    v.out[0] = code
    v.out[1] = target
    v.out[2] = d


@njit(cache=True, inline="always")
def transfer_nb(v, c, t, occ_used):
    """Value for my team of card c leaving my hand for seat t (no trade effects)."""
    s = give_value_nb(v, c, t)
    if future_team_nb(c) < 0:
        scr = v.scr
        s -= keep_value_nb(c, v.team, v.bags_open, v.deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)
    return s


@njit(cache=True)
def gain_nb(v, c, occ_used):
    """Value for my team of card c arriving in my hand."""
    f = future_team_nb(c)
    if f >= 0:
        w = 1.0 if c < 6 or v.bags_open == 1 else 0.6
        return (8.0 if f == v.team else 2.0) * w
    scr = v.scr
    return keep_value_nb(c, v.team, v.bags_open, v.deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used)


@njit(cache=True, inline="always")
def return_score_nb(v, y, a, use_effect, occ_used, a_known):
    """Score of handing card y to seat a (trade return, Priest, give-back, Sextant, limit);
    a_known: a's team is known. (The View is a record, so passing it costs one pointer.)"""
    bags_open, deck_n, scr, par = v.bags_open, v.deck_n, v.scr, v.par
    s = transfer_nb(v, y, a, occ_used)
    if use_effect and has_effect_nb(y, bags_open):
        tm = scr[TM + a]
        if y == C_MONOCLE and not a_known:
            s += par[P_INFO_VALUE] * 4.0 * tm * (1.0 - tm)
        elif y == C_PRIVILEGE:
            s += 0.3 + 0.5 * (scr[EVM + a] + scr[EVT + a])
        elif is_bag_nb(y) and deck_n > 0:
            s += 1.5
    return s


@njit(cache=True)
def mirror_cancel_nb(x, tm, bags_open, deck_n):
    """What the giver's effect of card x is worth to me (giver a teammate with probability
    tm): handing back the Broken Mirror cancels it (R9). Without this, two teammates passed a
    Secret Bag back and forth, each answering with the Mirror, and never drew (3-player
    games ran into the turn cap)."""
    if not has_effect_nb(x, bags_open):
        return 0.0
    side = 2.0 * tm - 1.0  # +1 teammate, -1 opponent
    if is_bag_nb(x):
        return 3.0 * side if deck_n > 0 else 0.0  # the giver draws a card
    if x == C_MONOCLE:
        return 1.0 * side  # the giver sees my association
    if x == C_PRIVILEGE:
        return 0.5 * side  # the giver sees my items
    return 0.0


@njit(cache=True)
def choose_return_nb(v, a, use_effect, code_spare):
    """Index of the best card to hand to seat a among v.opts (cards); reason set."""
    sc = v.score
    bags, dn, used, known, scr = v.bags_open, v.deck_n, v.occ_up[v.me], v.k_assoc[a] >= 0, v.scr
    for i in range(v.n_opts):
        sc[i] = return_score_nb(v, v.opts[i], a, use_effect, used, known)
        if use_effect and v.opts[i] == C_MIRROR:  # R9: the Mirror silences the giver's item
            sc[i] -= mirror_cancel_nb(v.ctx[DCTX_CARD], scr[TM + a], bags, dn)
    i = pick_best_nb(v, v.n_opts)
    y = v.opts[i]
    code = code_spare
    if code_spare == R_RETURN_SPARE:
        if y == C_PEARL:
            code = R_RETURN_PEARL if v.scr[TM + a] < 0.5 else R_RETURN_PEARL_PARK
        elif use_effect and has_effect_nb(y, v.bags_open) and not is_bag_nb(y):
            code = R_RETURN_EFFECT
        elif future_team_nb(y) == v.team and v.scr[TM + a] > 0.5:
            code = R_RETURN_ALLY
    out_nb(v, code, a, y)
    return i


# ------------------------------------------------------------------ trades
@njit(cache=True)
def choose_accept_nb(v):
    """ACCEPT (R4.2): options [reject, accept]."""
    prep_nb(v)
    a = v.ctx[DCTX_A]
    x = v.ctx[DCTX_CARD]
    scr = v.scr
    tm = scr[TM + a]
    occ_used = v.occ_up[v.me]
    val = gain_nb(v, x, occ_used)
    if has_effect_nb(x, v.bags_open):  # the giver will use it on me
        if x == C_MONOCLE:
            val -= 1.0 - 2.0 * tm
        elif x == C_PRIVILEGE:
            val -= (1.0 - tm) * (0.5 + 2.0 * min(1.0, scr[MY_FUT]))
        elif is_bag_nb(x):
            val -= 0.8 * (1.0 - 2.0 * tm)
    # the best card I could hand back (never the other Bag for a Bag while the deck has cards)
    ban = -1
    if is_bag_nb(x) and v.bags_open == 0:
        ban = C_BAG_GOBLET if x == C_BAG_KEY else C_BAG_KEY
    best = -1e9
    m = cards_at_nb(v.k_card, v.me) & ~(1 << x)  # my cards other than x and ban
    if ban >= 0:
        m &= ~(1 << ban)
    known = v.k_assoc[a] >= 0
    while m:
        c = ctz_nb(m)
        m &= m - 1
        best = max(best, return_score_nb(v, c, a, True, occ_used, known))
    total = val + best + 0.3 * (2.0 * tm - 1.0)
    if total > -0.2:
        out_nb(v, R_ACCEPT_ALLY if tm > 0.7 else R_ACCEPT, a, x)
        return 1
    out_nb(v, R_REJECT, a, x)
    return 0


@njit(cache=True)
def effect_wanted_nb(v, c, q):
    """Would I carry out the effect of card c, given to seat q? (Tome and Coat only when my
    occupation is worth less than what I would get, or is used up; the rest always.)"""
    my_occ = v.k_occ[v.me]
    used = v.occ_up[v.me]
    mine_v = OCC_VALUE[my_occ] if my_occ >= 0 else 0.5
    if c == C_TOME:
        o = v.k_occ[q]
        theirs = OCC_VALUE[o] if o >= 0 else 0.6
        return used or theirs > mine_v + 0.05
    if c == C_COAT:
        return used or mine_v < 0.65
    return True


@njit(cache=True)
def choose_effect_nb(v):
    """EFFECT_USE (R4.4): options [no, yes]; the giver may carry out card ctx[CARD] on ctx[B]."""
    c = v.ctx[DCTX_CARD]
    q = v.ctx[DCTX_B]
    if effect_wanted_nb(v, c, q):
        out_nb(v, R_EFFECT_USE, q, c)
        return 1
    out_nb(v, R_EFFECT_SKIP, q, c)
    return 0


@njit(cache=True)
def choose_smuggle_nb(v):
    """SMUGGLE (R10 Smuggling): options [announce, smuggle] for effect card ctx[CARD] that I
    gave to ctx[B]. Announcing lets me use the effect but tells everyone where the card is
    now; smuggling keeps it silent and forgoes the effect. Announce only when the effect is
    worth more than what the announcement gives away: a Monocle on a seat whose team I know,
    an unwanted Tome or Coat, are smuggled; a Secret Bag (a victory item to be) handed to a
    likely teammate is smuggled unless the draw is worth more than pointing the opponents
    at its holder."""
    prep_nb(v)
    c = v.ctx[DCTX_CARD]
    q = v.ctx[DCTX_B]
    scr = v.scr
    tm = scr[TM + q]
    gain = 0.0
    cost = 0.1  # the card's place becomes public
    if c == C_MONOCLE:
        if v.k_assoc[q] < 0:
            gain = v.par[P_INFO_VALUE] * 4.0 * tm * (1.0 - tm)
    elif c == C_PRIVILEGE:
        gain = 0.3 + 0.5 * (scr[EVM + q] + scr[EVT + q])
    elif is_bag_nb(c):
        if v.deck_n > 0:
            gain = draw_value_nb(v.par[P_DRAW_VALUE], v.deck_n, scr)
        if future_team_nb(c) == v.team:
            cost += 2.0 * tm  # our victory item's path: opponents would go for its holder
    elif effect_wanted_nb(v, c, q):
        gain = 0.5 if c != C_SEXTANT else 0.1
    if gain > cost:
        out_nb(v, R_ANNOUNCE, q, c)
        return 0
    out_nb(v, R_SMUGGLE, q, c)
    return 1


@njit(cache=True)
def choose_acard_nb(v):
    """ACARD_PICK (R10 advanced 3-player): options [0, 1, 2], the position of seat ctx[B]'s
    association card to see: one not seen yet (any of them alike)."""
    p = v.ctx[DCTX_B]
    sc = v.score
    for i in range(v.n_opts):
        sc[i] = 1.0 if v.k_acard[p, v.opts[i]] < 0 else 0.0
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_ACARD_PICK, p, v.opts[i])
    return i


# ------------------------------------------------------------------ fights
@njit(cache=True)
def choose_support_nb(v):
    """SUPPORT (R5.3): options [neutral, attacker, defender]."""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    diff = v.tm[a] - v.tm[d]
    m = v.par[P_SUPPORT_MARGIN]
    if diff > m:
        out_nb(v, R_SUPPORT_ATT, a, -1)
        return 1
    if diff < -m:
        out_nb(v, R_SUPPORT_DEF, d, -1)
        return 2
    out_nb(v, R_SUPPORT_NONE, -1, -1)
    return 0


@njit(cache=True)
def outcome_nb(mine, other):
    if mine > other:
        return 1
    if mine < other:
        return -1
    return 0


@njit(cache=True)
def choose_fight_play_nb(v):
    """FIGHT_PLAY (R5.5): options [no, yes] for bonus ctx[SRC] in a fight ctx[A] vs ctx[B]."""
    a = v.ctx[DCTX_A]
    src = v.ctx[DCTX_SRC]
    me = v.me
    if src == SRC.DUELIST:
        # once per game (R8): only if cancelling the supports (with the supporters' cards and
        # Bodyguards) and +1 changes the result for me; ctx X, Y are the sides' strengths so
        # far, U, W the principals' own parts
        x = v.ctx[DCTX_X]
        y = v.ctx[DCTX_Y]
        pa = v.ctx[DCTX_U]
        pd = v.ctx[DCTX_W]
        if me == a:
            now = outcome_nb(x, y)
            then = outcome_nb(pa + 1, pd)
        else:
            now = outcome_nb(y, x)
            then = outcome_nb(pd + 1, pa)
        if then > now:
            out_nb(v, R_PLAY_BONUS, -1, src)
            return 1
        out_nb(v, R_KEEP_BONUS, -1, src)
        return 0
    # fixed bonuses cost nothing but showing the card: play them for the side I am on
    out_nb(v, R_PLAY_BONUS, -1, src)
    return 1


@njit(cache=True)
def choose_hypno_nb(v):
    """HYPNO (R8): options [-1, seats]; void the support of the defender's best supporter."""
    sc = v.score
    any_def = False
    for i in range(v.n_opts):
        s = v.opts[i]
        if s < 0:
            sc[i] = 0.0
        elif v.sup[s] == SIDE_DEF:
            sc[i] = 1.0
            if v.k_card[C_WHIP] == s:
                sc[i] += v.conf[C_WHIP]
            if v.k_occ[s] == OC.BODYGUARD:
                sc[i] += 1.0
            any_def = True
        else:
            sc[i] = -1.0
    if not any_def:
        out_nb(v, R_HYPNO_NONE, -1, -1)
        for i in range(v.n_opts):
            if v.opts[i] < 0:
                return i
        return 0
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_HYPNO, v.opts[i], -1)
    return i


@njit(cache=True)
def choose_mixer_nb(v):
    """MIXER (R8): options [-1, attacker wins, defender wins]; ctx[U] is the side winning so
    far (a tie broken by a Poison Ring, R5.6), so the once-only Mixer is kept when that side
    is already the one it would name. Since session 12 it is also kept when nothing of ours
    is at stake: our victory items at the side it would make the winner (which the other
    would take) and at the other side (which the winner takes back) expected under 0.3
    (the Mixer's seat then wins +0.4 and +0.3 points at 6 and 8 players, no change at 4)."""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    x = v.ctx[DCTX_X]
    y = v.ctx[DCTX_Y]
    won = v.ctx[DCTX_U]
    diff = v.tm[a] - v.tm[d]
    m = v.par[P_OCC_MARGIN]
    side = 0
    if diff > m and x <= y and won != SIDE_ATT:
        side = 1
    elif diff < -m and y <= x and won != SIDE_DEF:
        side = 2
    if side != 0:
        # only with something at stake: our victory items at the seat I would make the
        # winner (which the other would take) or at the one I would make the loser (taken back)
        prep_nb(v)
        scr = v.scr
        s = a if side == 1 else d
        o = d if side == 1 else a
        stake = (scr[MY_FUT] if s == v.me else scr[EVM + s]) + scr[EVM + o]
        if stake > 0.3:
            out_nb(v, R_MIXER, s, -1)
            return side
    out_nb(v, R_MIXER_NONE, -1, -1)
    return 0


@njit(cache=True)
def choose_doctor_nb(v):
    """DOCTOR_USE (R5.7): options [no, yes]; ctx[X] is the side that won (0 tie). Used when the
    loser is likelier my teammate than the winner (by ``occ_margin``) and has something of
    ours to lose: our victory items there (prep_nb's expectation; mine counted exactly when I
    lost) past 0.3. (Until session 12 it was used on the first such fight, whatever was at
    stake: the Doctor was the weakest occupation, 37.4% at 6 players, 4.3 points under the
    average seat; kept for a fight that matters it wins 39.7%, +2.3 points, and +1.6 and +1.5
    at 4 and 8 players: the same 150,000-200,000 deals, seed 2026.)"""
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    won = v.ctx[DCTX_X]
    if won == SIDE_ATT or won == SIDE_DEF:
        w = a if won == SIDE_ATT else d
        lo = d if won == SIDE_ATT else a
        if v.tm[lo] - v.tm[w] > v.par[P_OCC_MARGIN]:
            prep_nb(v)
            scr = v.scr
            stake = scr[MY_FUT] if lo == v.me else scr[EVM + lo]
            if stake > 0.3:
                out_nb(v, R_DOCTOR, lo, -1)
                return 1
    out_nb(v, R_DOCTOR_NONE, -1, -1)
    return 0


@njit(cache=True)
def choose_priest_nb(v):
    """PRIEST_USE (R8): options [no, yes]; stop attacker ctx[A] before supports. For its own
    defence: when what the attacker may take or learn, weighed by P(the attacker is an
    opponent), passes 1.6 (1.2 until session 12, when a Priest holder with one victory item
    stopped the first attack of an unknown seat; at 1.6 the Priest's seat wins +1.0, +0.9 and
    +0.4 points at 6, 8 and 4 players); for another defender, a likelier teammate than the
    attacker (by ``occ_margin``) who holds our victory items."""
    prep_nb(v)
    a = v.ctx[DCTX_A]
    d = v.ctx[DCTX_B]
    scr = v.scr
    if d == v.me:
        stake = (1.0 - scr[TM + a]) * (0.5 + 2.0 * min(1.0, scr[MY_FUT]) + min(1.0, scr[MY_THEIRS]))
        use = stake > 1.6
    else:
        use = scr[TM + d] - scr[TM + a] > v.par[P_OCC_MARGIN] and scr[EVM + d] > 0.3
    if use:
        out_nb(v, R_PRIEST, d, -1)
        return 1
    out_nb(v, R_PRIEST_NONE, -1, -1)
    return 0


@njit(cache=True)
def choose_win_nb(v):
    """WIN_CHOICE (R5.8): options [look at association+occupation, look at items]."""
    prep_nb(v)
    lo = v.ctx[DCTX_B]
    scr = v.scr
    tm = scr[TM + lo]
    info = v.par[P_INFO_VALUE]
    look = 0.0
    if v.k_assoc[lo] < 0:
        look = info * 4.0 * tm * (1.0 - tm)
    if v.k_occ[lo] < 0:
        look += 0.1 * info
    em = min(1.0, scr[EVM + lo])
    et = min(1.0, scr[EVT + lo])
    items = (1.0 - tm) * (6.0 * em + 3.0 * et) + tm * 0.5 * em + 0.3
    if look > items:
        out_nb(v, R_LOOK if v.k_assoc[lo] < 0 else R_LOOK_OCC, lo, -1)
        return 0
    out_nb(v, R_ITEMS, lo, -1)
    return 1


@njit(cache=True)
def take_value_nb(v, c, lo, occ_used):
    """Value of taking card c from the loser lo (R5.8)."""
    team, bags_open, deck_n, scr, par = v.team, v.bags_open, v.deck_n, v.scr, v.par
    tm = scr[TM + lo]
    f = future_team_nb(c)
    w = 1.0 if c < 6 or bags_open == 1 else 0.6
    if f == team:
        gather = par[P_CONSOLIDATE] * (scr[MY_FUT] + 1.0 - scr[EVM + lo])
        return w * ((1.0 - tm) * 10.0 + tm * gather)
    if f >= 0:
        return w * ((1.0 - tm) * 4.0 - tm * 1.0)
    if c == C_PEARL:
        return -3.0
    if c == C_LOGE:
        return 4.0 + 2.0 * scr[MY_ANY]
    return keep_value_nb(c, team, bags_open, deck_n, scr[MY_THEIRS] + scr[MY_NOW], occ_used) - 0.3 * tm - 0.2


@njit(cache=True)
def choose_take_nb(v):
    """TAKE (R5.8): options [-1, the loser's cards]."""
    prep_nb(v)
    lo = v.ctx[DCTX_B]
    sc = v.score
    used = v.occ_up[v.me]
    back = 0.0
    if v.hand_n[lo] == 1:  # taking their only item: one of mine goes back to them (R5.8)
        back = -1e9
        known = v.k_assoc[lo] >= 0
        for y in range(N_CARDS):
            if v.k_card[y] == v.me:
                back = max(back, return_score_nb(v, y, lo, False, used, known))
    for i in range(v.n_opts):
        c = v.opts[i]
        sc[i] = 0.0 if c < 0 else take_value_nb(v, c, lo, used) + back
    i = pick_best_nb(v, v.n_opts)
    c = v.opts[i]
    if c < 0:
        out_nb(v, R_TAKE_NONE, lo, -1)
    else:
        out_nb(v, R_TAKE, lo, c)
    return i


# ------------------------------------------------------------------ occupations
@njit(cache=True)
def choose_clair_use_nb(v):
    """CLAIR_USE (R3, R8; the engine asks at the turn's start, before each draw of the turn
    and at its end, ``ctx[X]``): used right before a card is drawn, by me or by a likely
    teammate (``ctx[B]``, P(teammate) past 0.5 + ``occ_margin``), so that the best card of
    the deck is the one drawn; kept otherwise. (The turn's action counts on this: a Secret
    Bag's draw or a tie's is worth more while the Clairvoyant is ready, ``act.choose_action_nb``.)"""
    d = v.ctx[DCTX_B]
    if v.ctx[DCTX_X] == CLAIR_DRAW and d >= 0 and (d == v.me or v.tm[d] > 0.5 + v.par[P_OCC_MARGIN]):
        out_nb(v, R_CLAIR_USE, d, -1)
        return 1
    out_nb(v, R_CLAIR_SKIP, -1, -1)
    return 0


@njit(cache=True)
def clair_value_nb(c, team):
    f = future_team_nb(c)
    if f == team:
        return 10.0
    if f >= 0:
        return 2.0  # I draw it: it is out of their hands
    if c == C_LOGE:
        return 4.0
    if c == C_PEARL:
        return -5.0
    if c == C_MONOCLE or c == C_PRIVILEGE:
        return 1.0
    return 0.5


@njit(cache=True)
def clair_second_value_nb(c, team):
    """The Clairvoyant's second card (under the top) goes to whoever draws next, as likely an
    opponent as not: best nothing either team wants, least our own victory items or the
    Loge (a solo win for someone else)."""
    f = future_team_nb(c)
    if f == team:
        return -3.0
    if f >= 0:
        return -1.0
    if c == C_LOGE:
        return -4.0
    return 0.0


@njit(cache=True)
def choose_clair_pick_nb(v):
    """CLAIR_PICK (R8): the first pick (ctx[X] = 0) goes on top, drawn at once by me or a
    likely teammate (``choose_clair_use_nb``); the second under it, for the next drawer,
    whoever that is (session 10: it was valued as if the Clairvoyant drew it too)."""
    sc = v.score
    second = v.ctx[DCTX_X] != 0
    for i in range(v.n_opts):
        sc[i] = clair_second_value_nb(v.opts[i], v.team) if second else clair_value_nb(v.opts[i], v.team)
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_CLAIR_PICK if v.ctx[DCTX_X] == 0 else R_CLAIR_PICK2, -1, v.opts[i])
    return i


@njit(cache=True)
def choose_coat_nb(v):
    """COAT_PICK (R9 Coat): the most useful occupation in the pile."""
    sc = v.score
    for i in range(v.n_opts):
        sc[i] = OCC_VALUE[v.opts[i]]
    i = pick_best_nb(v, v.n_opts)
    out_nb(v, R_COAT, -1, v.opts[i])
    return i


@njit(cache=True)
def name_for_card_nb(c, bags_open):
    """The item name (kind) that a Diplomat says to demand card c (R8)."""
    k = ckind_nb(c)
    if k == IK.BAG_KEY or k == IK.BAG_GOBLET:
        if bags_open == 1:
            return IK.KEY if k == IK.BAG_KEY else IK.GOBLET
        return IK.BAG_KEY
    return k


@njit(cache=True)
def choose_diplo_use_nb(v):
    """DIPLO_USE (R8): plan target, name and offer; use it when the item demanded is worth
    more than the item offered for it costs (the best card of my hand to hand that target,
    ``transfer_nb``), by a margin, and the seat is sure enough the target holds it (surer
    before the action, since a miss ends the turn at once). (Session 10: the offer's cost was
    not counted, and a Diplomat gave the Loge, or its own team's item, for a lesser one.)"""
    prep_nb(v)
    scr = v.scr
    me = v.me
    occ_used = v.occ_up[me]
    mine = cards_at_nb(v.k_card, me)
    need = 0.85 if v.ctx[DCTX_X] == 0 else 0.55
    best = 1.5
    bt = -1
    bc = -1
    bo = -1
    for c in range(N_CARDS):
        t = v.k_card[c]
        if t < 0 or t >= v.n or t == me:
            continue
        if is_bag_nb(c) and v.bags_open == 0:
            continue  # "Secret Bag" names both Bags: too easy to get the wrong one
        p = v.conf[c]
        if p < need:
            continue
        tm = scr[TM + t]
        f = future_team_nb(c)
        if f == v.team:
            val = (1.0 - tm) * 10.0 + tm * v.par[P_CONSOLIDATE] * (scr[MY_FUT] + 1.0 - scr[EVM + t])
        elif f >= 0:
            val = (1.0 - tm) * 4.0
        elif c == C_LOGE:
            val = 2.0 + 2.0 * scr[MY_ANY]
        else:
            val = 0.0
        val *= p
        if val <= best:
            continue
        # the card offered: the one I would most like the target to have (Pearl to an opponent)
        off = -1e9
        o = -1
        m = mine
        while m:
            x = ctz_nb(m)
            m &= m - 1
            if ckind_nb(x) == ckind_nb(c) or (f >= 0 and future_team_nb(x) == v.team):
                continue  # the same kind back, or one of our victory items for another: no gain
            sx = transfer_nb(v, x, t, occ_used)
            if sx > off:
                off = sx
                o = x
        if o >= 0 and val + off > best:
            best = val + off
            bt = t
            bc = c
            bo = o
    if bt < 0:
        out_nb(v, R_DIPLO_SKIP, -1, -1)
        return 0
    v.mem[M_DIPLO_T] = bt
    v.mem[M_DIPLO_NAME] = name_for_card_nb(bc, v.bags_open)
    v.mem[M_DIPLO_OFFER] = bo
    out_nb(v, R_DIPLO_USE, bt, v.mem[M_DIPLO_NAME])
    return 1


@njit(cache=True)
def follow_plan_nb(v, value, code):
    """Pick option ``value`` if offered (a plan made at DIPLO_USE), else a random one."""
    for i in range(v.n_opts):
        if v.opts[i] == value:
            out_nb(v, code, value if code == R_DIPLO_TARGET else -1, value)
            return i
    i = below_nb(v.rs, v.n_opts)
    out_nb(v, R_CHOOSE, -1, v.opts[i])
    return i


@njit(cache=True)
def choose_limit_nb(v):
    """LIMIT_GIVE (R2.4): options target*32 + card. A seat already at the hand limit that
    receives must give an item on in turn, so handing it one only moves the problem
    (``V_FULL``), and a gain from it mostly goes on with the item. Without this, full hands
    passed items round (the other team's victory items among teammates, the Black Pearl
    between two full opponents) until the engine's 64-gift stop (R2.4): with all 21 items,
    34% of 4-player and 14% of 6-player smart games had over 60 gifts (46 and 17 a game on
    average; with the cost alone, 3.1 and 2.0 a game, 1% and 0.3% over 60)."""
    prep_nb(v)
    sc = v.score
    used = v.occ_up[v.me]
    lim = v.hand_limit
    for i in range(v.n_opts):
        o = v.opts[i]
        a = o // 32
        s = return_score_nb(v, o % 32, a, False, used, v.k_assoc[a] >= 0)
        if v.hand_n[a] >= lim:
            # what they are glad to have or to be rid of (the Black Pearl) they pass straight
            # on, often back: a gain counts a quarter; a loss stays with them, so it counts
            s = (0.25 * s if s > 0.0 else s) - V_FULL
        sc[i] = s
    i = pick_best_nb(v, v.n_opts)
    o = v.opts[i]
    a, c = o // 32, o % 32
    tm = v.scr[TM + a]
    f = future_team_nb(c)
    code = R_LIMIT_GIVE
    if f == v.team and tm >= 0.5:
        code = R_LIMIT_ALLY
    elif f >= 0 and tm >= 0.5:
        code = R_LIMIT_DENY
    elif c == C_PEARL and tm < 0.5:
        code = R_LIMIT_PEARL
    elif f < 0 and c != C_PEARL and c != C_LOGE and v.hand_n[a] < lim:
        code = R_LIMIT_SPARE
    out_nb(v, code, a, c)
    return i


@njit(cache=True)
def choose_sextant_dir_nb(v):
    """SEXTANT_DIR (R9): options [left (seat+1), right (seat-1)]: pass towards the likelier
    teammate."""
    n = v.n
    left = (v.me + 1) % n
    right = (v.me - 1 + n) % n
    sc = v.score
    sc[0] = v.tm[left]
    sc[1] = v.tm[right]
    i = pick_best_nb(v, 2)
    out_nb(v, R_SEXTANT_DIR, left if i == 0 else right, -1)
    return i


# ------------------------------------------------------------------ dispatch by kind
@njit(cache=True)
def choose_nb(v):
    """Index of the heuristic bot's choice for decision v.kind, reason in v.out."""
    k = v.kind
    if k == DEC.ACTION:
        return choose_action_nb(v)
    if k == DEC.DECL_NAME:
        return choose_decl_name_nb(v)
    if k == DEC.ACCEPT:
        return choose_accept_nb(v)
    if k == DEC.RETURN or k == DEC.GIVE_NAMED or k == DEC.PRIEST_GIVE or k == DEC.GIVE_BACK:
        prep_nb(v)
        a = v.ctx[DCTX_A] if k == DEC.RETURN or k == DEC.GIVE_NAMED else v.ctx[DCTX_B]
        code = R_RETURN_SPARE
        if k == DEC.GIVE_NAMED:
            code = R_GIVE_NAMED
        elif k == DEC.PRIEST_GIVE:
            code = R_PRIEST_GIVE
        elif k == DEC.GIVE_BACK:
            code = R_GIVE_BACK
        return choose_return_nb(v, a, k == DEC.RETURN, code)
    if k == DEC.EFFECT_USE:
        return choose_effect_nb(v)
    if k == DEC.SMUGGLE:
        return choose_smuggle_nb(v)
    if k == DEC.ACARD_PICK:
        return choose_acard_nb(v)
    if k == DEC.SUPPORT:
        return choose_support_nb(v)
    if k == DEC.FIGHT_PLAY:
        return choose_fight_play_nb(v)
    if k == DEC.RING_USE:
        out_nb(v, R_RING, -1, -1)
        return 1
    if k == DEC.HYPNO:
        return choose_hypno_nb(v)
    if k == DEC.MIXER:
        return choose_mixer_nb(v)
    if k == DEC.DOCTOR_USE:
        return choose_doctor_nb(v)
    if k == DEC.PRIEST_USE:
        return choose_priest_nb(v)
    if k == DEC.WIN_CHOICE:
        return choose_win_nb(v)
    if k == DEC.TAKE:
        return choose_take_nb(v)
    if k == DEC.LIMIT_GIVE:
        return choose_limit_nb(v)
    if k == DEC.SEXTANT_DIR:
        return choose_sextant_dir_nb(v)
    if k == DEC.SEXTANT_PASS:
        prep_nb(v)
        return choose_return_nb(v, v.ctx[DCTX_B], False, R_SEXTANT_PASS)
    if k == DEC.COAT_PICK:
        return choose_coat_nb(v)
    if k == DEC.CLAIR_USE:
        return choose_clair_use_nb(v)
    if k == DEC.CLAIR_PICK:
        return choose_clair_pick_nb(v)
    if k == DEC.DIPLO_USE:
        return choose_diplo_use_nb(v)
    if k == DEC.DIPLO_TARGET:
        return follow_plan_nb(v, v.mem[M_DIPLO_T], R_DIPLO_TARGET)
    if k == DEC.DIPLO_NAME:
        return follow_plan_nb(v, v.mem[M_DIPLO_NAME], R_DIPLO_NAME)
    if k == DEC.DIPLO_OFFER:
        return follow_plan_nb(v, v.mem[M_DIPLO_OFFER], R_DIPLO_OFFER)
    out_nb(v, R_CHOOSE, -1, -1)
    return 0
