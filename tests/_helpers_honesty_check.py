"""What the watched seat sees, and the comparison of its decisions in a game as dealt and
with a hidden change (tests/test_bots_honesty.py runs :func:`main` in a subprocess with
``NUMBA_DISABLE_JIT=1``; the replays: tests/_helpers_honesty.py).

:func:`compare` checks X's decisions in the changed game against the game as dealt up to the
first point where X can observe the change:

- the first event whose part X sees differs (:func:`seen_by`: what each event type shows to
  the seats involved and to the others);
- the first decision of another seat that the script does not cover (its bot would be asked,
  and might draw from the random stream X's bot draws from too);
- a CLAIR_PICK with other options: X looks through the deck (R8) and sees its order.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

import numpy as np

from _helpers_honesty import CHANGE_FNS, CHANGES, LOG_CAP, Hooks, play, replay, trace
from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.bots import dispatch, view
from kutsch_sim.bots.view import VIEW_DT
from kutsch_sim.cards_nb import C_BAG_GOBLET, C_BAG_KEY
from kutsch_sim.enums import DCTX_MASK, DEC, DECISION_LABELS, EV, OFFER_CARD, OFFER_DIPLOMAT, OFFER_FREE, SC

# ------------------------------------------------------------------ what a seat sees of an event
# event type -> (fields 0..3 = a, b, c, d that only the parties see, the parties' fields);
# a party field 'a' means the seat in field a (DRAW: 'd-1' the seat that knew the top card).
# Every field not listed is public; so is every field of a type not listed.
PRIVATE = {
    EV.DEAL: ((1,), (0,)), EV.ASSOC: ((1,), (0,)), EV.OCC: ((1,), (0,)), EV.ACARDS: ((1, 2, 3), (0,)),
    EV.LEFTOVER: ((0,), ()), EV.DECK: ((0,), ()),
    EV.CLAIR: ((1, 2), (0,)),  # the others see it used and the deck's size (R8)
    EV.DIPLO: ((3,), (0, 1)),  # the named kind is public (R8), the card offered is not
    EV.DIPLO_BAGS: ((2,), (0, 1)),
    EV.OFFER: ((2,), (0, 1)), EV.REJECT: ((2, 3), (0, 1)), EV.ACCEPT: ((2, 3), (0, 1)),
    EV.SEE_ASSOC: ((2,), (0, 1)), EV.SEE_ACARD: ((3,), (0, 1)), EV.SEE_OCC: ((2,), (0, 1)),
    EV.SEE_ITEMS: ((2,), (0, 1)),
    EV.DRAW: ((1,), (0, "d-1")),
    EV.TOME: ((2, 3), (0, 1)), EV.COAT: ((1, 2), (0,)),
    EV.PASS_ON: ((2,), (0, 1)), EV.GIVE: ((2,), (0, 1)), EV.GIVE_BACK: ((2,), (0, 1)),
    EV.PRIEST: ((2,), (0, 1)), EV.TAKE: ((2,), (0, 1)),  # the others see whether a card went
    EV.SMUGGLE: ((2,), (0, 1)),
}
HIDDEN = "?"


def seen_by(events: np.ndarray, x: int) -> tuple[list, list]:
    """What seat x sees of each event: a list of tuples (fields it cannot see as ``?``;
    events it does not see at all are left out), and for each raw event count k the number
    of tuples among the first k events. The bots' REASON rows are left out (X's own are
    compared at its decisions; another seat's bot deciding stops the comparison anyway)."""
    seen, upto = [], [0]
    forced_trade = False
    for row in events.tolist():
        typ, turn, f = row[0], row[1], row[2:]
        out = None
        if typ != EV.REASON:
            out = [typ, turn, *f]
            hide, parties = PRIVATE.get(typ, ((), ()))
            who = {f[p] if p != "d-1" else f[3] - 1 for p in parties}
            if typ == EV.SEE_ITEMS and f[0] < 0:
                who = {x}  # shown to everyone
            if x not in who:
                if typ == EV.SMUGGLE:
                    out = None  # only the two traders know of it (R10 Smuggling)
                else:
                    for i in hide:
                        out[2 + i] = HIDDEN
                    if typ in (EV.PRIEST, EV.TAKE):
                        out[4] = f[2] >= 0
                    if typ == EV.OFFER and f[3] == OFFER_CARD:
                        out[5] = OFFER_FREE  # a Pearl or a Mirror is offered as any card (R4.5, R4.6)
                    if typ == EV.ACCEPT and forced_trade:
                        out[5] = f[3]  # the Diplomat's named item, given in public (R8)
            if typ in (EV.ANNOUNCE, EV.EFFECT) and f[1] in (C_BAG_KEY, C_BAG_GOBLET):
                out[3] = "bag"  # announced as a Secret Bag (R4): which one stays hidden
            if typ == EV.OFFER:
                forced_trade = f[3] == OFFER_DIPLOMAT
        if out is not None:
            seen.append(tuple(out))
        upto.append(len(seen))
    return seen, upto


# ------------------------------------------------------------------ the comparison
def differences(sb: dict, sa: dict) -> list[str]:
    """Names of what differs between two snapshots of X's decision."""
    out = [k for k in ("kind", "i", "value") if sb[k] != sa[k]]
    if not np.array_equal(sb["opts"], sa["opts"]):
        out.append("opts")
    for when in ("before", "after"):
        for k, v in sb[when].items():
            if not np.array_equal(v, sa[when][k]):
                out.append(f"{when}.{k}")
    if sb["view"] != sa["view"]:
        vb, va = np.frombuffer(sb["view"], VIEW_DT)[0], np.frombuffer(sa["view"], VIEW_DT)[0]
        out += [f"view.{k}" for k in VIEW_DT.names if not np.array_equal(vb[k], va[k])]
    return out


def compare(base, alt, x) -> tuple[list[int], str | None, str]:
    """X's decisions in the changed game against the game as dealt, up to the first point X
    can observe the change. Returns (kinds compared, in order; the first difference, or None;
    why the comparison ended)."""
    hb, eb = base
    ha, ea = alt
    pb, ub = seen_by(eb, x)
    pa, ua = seen_by(ea, x)
    common = 0
    while common < min(len(pb), len(pa)) and pb[common] == pa[common]:
        common += 1
    kinds: list[int] = []
    for sb, sa in zip(hb.snaps, ha.snaps, strict=False):
        if any(h.stop_tick is not None and s["tick"] >= h.stop_tick for h, s in ((hb, sb), (ha, sa))):
            return kinds, None, "script"
        m = ub[sb["ev"]]
        if m != ua[sa["ev"]] or m > common:
            return kinds, None, "seen"
        if sb["kind"] == DEC.CLAIR_PICK and not np.array_equal(sb["opts"], sa["opts"]):
            return kinds, None, "deck"
        diff = differences(sb, sa)
        if diff:
            return kinds, f"decision {len(kinds)} ({sb['kind']}): {', '.join(diff[:8])}", "differs"
        kinds.append(sb["kind"])
    return kinds, None, "end"


def check_game(cfg, seed, game, x, t: Hooks | None = None) -> dict:
    """Replay game ``game`` (its trace ``t``) for seat x as dealt and with each change;
    returns X's bot decisions in the game, and per change the kinds compared, the first
    difference (None) and why the comparison ended (None: nothing to change)."""
    t = t or trace(cfg, seed, game)
    base = replay(cfg, seed, game, x, t)
    hb = base[0]
    assert hb.stop_tick is None and hb.rows == t.rows, "the base replay is not the traced game"
    res = {"x_asked": len(hb.snaps), "changes": {}}
    for name in CHANGES:
        rng = np.random.default_rng([seed, game, x, CHANGES.index(name)])
        alt = replay(cfg, seed, game, x, t, CHANGE_FNS[name], rng)
        if alt is None:
            res["changes"][name] = None
            continue
        kinds, diff, why = compare(base, alt, x)
        res["changes"][name] = {"kinds": kinds, "diff": diff, "why": why}
    return res


# ------------------------------------------------------------------ a leak, for the test of the test
class Leak:
    """A leak put into the views for one test (never in the package): ``"ctx"``, every
    decision's View gets all eight dctx slots (no ``DCTX_MASK``), so stale ones too;
    ``"team"``, every full View gets every seat's true association."""

    def __init__(self, what: str | None):
        self.what = what

    def __enter__(self):
        self._saved = (dispatch.fill_light_nb, view.fill_light_nb, dispatch.fill_view_nb)
        light, _, full = self._saved
        if self.what == "ctx":
            def fill_light(st, seat, kind, n_opts, mode):
                v = light(st, seat, kind, n_opts, mode)
                v.ctx[:] = st.dctx
                return v

            dispatch.fill_light_nb = view.fill_light_nb = fill_light
        elif self.what == "team":
            def fill_view(st, seat, kind, n_opts, mode, conf):
                v = full(st, seat, kind, n_opts, mode, conf)
                v.k_assoc[:] = st.assoc
                return v

            dispatch.fill_view_nb = fill_view
        return self

    def __exit__(self, *exc):
        dispatch.fill_light_nb, view.fill_light_nb, dispatch.fill_view_nb = self._saved


# ------------------------------------------------------------------ the suites
def config(c) -> GameConfig:
    n, items, bots, variants = c
    return GameConfig(n, items, tuple(bots), variants=tuple(variants))


def games_to_cover(configs, seed: int, extra: int, covered, run=trace):
    """Game i of configs[i] as (i, game, hooks of ``run(cfg, seed, game)``, None: seat i % n),
    then, while ``covered()`` lacks some decision kind, up to ``extra`` more games (the
    configurations in turn), each given with the first seat whose bot took a kind still
    missing, or skipped if none did."""
    for i in range(len(configs)):
        yield i, i, run(config(configs[i]), seed, i), None
    for j in range(extra):
        missing = set(range(len(DECISION_LABELS))) - covered()
        if not missing:
            return
        i, game = j % len(configs), len(configs) + j
        t = run(config(configs[i]), seed, game)
        seats = [s for s, k in t.asked if k in missing]
        if seats:
            yield i, game, t, seats[0]


def suite(configs, seed: int, extra: int, first_diff: bool = False) -> dict:
    """X's decisions in :func:`games_to_cover`, each game replayed with every change: the
    decisions compared (per kind, per change), why each comparison ended, and the differences
    found (only the first with ``first_diff``)."""
    kinds, changes, why, diffs, games = Counter(), Counter(), Counter(), [], 0
    for i, game, t, x in games_to_cover(configs, seed, extra, lambda: set(kinds)):
        x = i % configs[i][0] if x is None else x
        r = check_game(config(configs[i]), seed, game, x, t)
        games += 1
        for name, c in r["changes"].items():
            why[f"{name}: {c['why'] if c else 'nothing to change'}"] += 1
            if c:
                changes[name] += len(c["kinds"])
                kinds.update(c["kinds"])
                if c["diff"]:
                    diffs.append(f"{configs[i]} game {game} seat {x}, {name}: {c['diff']}")
        if diffs and first_diff:
            break
    return {"games": games, "compared": sum(changes.values()), "changes": dict(changes), "why": dict(why),
            "kinds": {DECISION_LABELS[k]: v for k, v in sorted(kinds.items())}, "diffs": diffs}


def ctx_suite(configs, seed: int, extra: int) -> dict:
    """The games of :func:`games_to_cover` (until every decision kind came) played with
    ``st.dctx`` set to a sentinel after every decision (``Hooks(ctx_probe=True)``): for each
    decision kind, how often it came and the decisions whose context slots written by the
    engine are not ``DCTX_MASK[kind]``; and the games that are not the games played without
    the sentinel (a rule or a bot read a slot written before an earlier decision)."""
    kinds, wrong, changed, games = Counter(), Counter(), [], 0

    def probe(cfg, seed, game):
        nonlocal games
        games += 1
        h = Hooks(ctx_probe=True)
        try:
            st, _ = play(cfg, seed, game, h)
            ne = min(int(st.sc[SC.N_EVENTS]), LOG_CAP)
            r = play_game(cfg, seed, game, log_cap=LOG_CAP)
            h.same = bool(np.array_equal(st.rec, r.record) and np.array_equal(st.log[:ne], r.events))
        except Exception as e:  # noqa: BLE001 (a stale slot read as a seat or a card: an index out of range)
            h.same = f"{type(e).__name__}: {e}"
        for k, m in h.written:
            kinds[k] += 1
            if m != DCTX_MASK[k]:
                wrong[f"{DECISION_LABELS[k]}: slots {m:#04x}, table {DCTX_MASK[k]:#04x}"] += 1
        if h.same is not True:
            changed.append(f"{cfg.players} {cfg.item_set} {cfg.variant_label} game {game}: {h.same}")
        return h

    for _ in games_to_cover(configs, seed, extra, lambda: set(kinds), probe):
        pass
    return {"games": games, "kinds": {DECISION_LABELS[k]: v for k, v in sorted(kinds.items())},
            "wrong": dict(wrong), "changed": changed}


def main(argv: list[str]) -> None:
    """``python _helpers_honesty_check.py JOB``, JOB a JSON object: ``mode`` ("diff": :func:`suite`,
    "ctx": :func:`ctx_suite`), ``configs`` ([players, item set, bots, variants] each), ``seed``,
    ``extra``, and for "diff" ``leak`` (:class:`Leak`, null for none) and ``first_diff``.
    Prints the result as one JSON line."""
    job = json.loads(argv[0])
    if job["mode"] == "ctx":
        print(json.dumps(ctx_suite(job["configs"], job["seed"], job["extra"])))
        return
    with Leak(job.get("leak")):
        print(json.dumps(suite(job["configs"], job["seed"], job["extra"], job.get("first_diff", False))))


if __name__ == "__main__":
    main(sys.argv[1:])
