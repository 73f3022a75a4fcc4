"""Decision scripts: readable lines -> (seat, Decision kind, option value) rows for the engine.

``decide_nb`` takes the next scripted row when its seat and kind match the decision
being asked; every other decision goes to the seat's bot. A decision the rules take (an offer
that cannot be refused, R4.5, R4.6, R8, or must be, R4.7) may be written too: the row is then
checked (``engine.decide.forced_nb``). :func:`kutsch_sim.notation.run.run` reads a script turn
by turn: a turn that uses none of its lines ends it. One line is
``SEAT VERB ARGS`` (``#`` starts a comment; verbs and names are case-insensitive,
``-`` and ``_`` alike); a few verbs expand to several rows. CARD is an item name as in
:mod:`kutsch_sim.notation.position` (``Dagger``, ``Secret Bag (Key)``, ``Key#2``); T and S are seats.

======================================  =====================  ===========================
line                                    decision               option value
======================================  =====================  ===========================
``0 pass``                              ACTION                 ACT_PASS*ACT_MUL
``0 trade T CARD``                      ACTION                 ACT_TRADE*ACT_MUL+T*32+card
``0 attack T``                          ACTION                 ACT_ATTACK*ACT_MUL+T*32
``0 declare team|drink|loge|fortune``    ACTION (+ DECL_NAME)  ACT_DECLARE*ACT_MUL+DeclKind;
``  [with S..]``                                               then S.. and -1 (done)
``0 action pass|trade ..|attack ..``    ACTION                 same as above
``0 name S|done``                       DECL_NAME              seat / -1
``0 clairvoyant yes|no``                CLAIR_USE              1 / 0
``0 pick CARD``                         CLAIR_PICK             card (first pick goes on top)
``0 diplomat yes|no``                   DIPLO_USE              1 / 0
``0 diplomat T NAME offer CARD``        DIPLO_USE, _TARGET,    1, T, item kind, card
                                        _NAME, _OFFER          (NAME ``Secret Bag`` = BagKey)
``0 diplo-target T`` / ``diplo-name``   DIPLO_TARGET / _NAME   T / item kind
``0 diplo-offer CARD``                  DIPLO_OFFER            card
``1 accept [yes|no]`` / ``1 reject``    ACCEPT                 1 / 0
``1 return CARD``                       RETURN                 card
``1 give-named CARD``                   GIVE_NAMED             card (to the Diplomat)
``0 effect yes|no``                     EFFECT_USE             1 / 0
``0 smuggle yes|no``                    SMUGGLE                1 / 0 (R10 Smuggling)
``0 see-card J``                        ACARD_PICK             J = 0..2 (R10 advanced 3-player)
``0 coat OCCUPATION``                   COAT_PICK              occupation id
``0 sextant left|right``                SEXTANT_DIR            0 (to seat+1) / 1 (to seat-1)
``2 pass-on CARD``                      SEXTANT_PASS           card
``3 priest yes|no``                     PRIEST_USE             1 / 0
``0 priest-give CARD``                  PRIEST_GIVE            card
``2 support none|attacker|defender``    SUPPORT                SIDE_NONE/SIDE_ATT/SIDE_DEF
``0 hypnotize S|none``                  HYPNO                  seat / -1
``0 play [SOURCE] yes|no``              FIGHT_PLAY             1 / 0 (SOURCE is a label only:
                                                               Dagger, Thug, Duelist ...)
``0 ring yes|no``                       RING_USE               1 / 0
``4 mixer none|attacker|defender``      MIXER                  -1 / SIDE_ATT / SIDE_DEF
``4 doctor yes|no``                     DOCTOR_USE             1 / 0
``0 win look|items``                    WIN_CHOICE             0 / 1
``0 take CARD|nothing``                 TAKE                   card / -1
``0 give-back CARD``                    GIVE_BACK              card
``0 give-away T CARD``                  LIMIT_GIVE             T*32+card (R2.4)
``0 raw DECISION VALUE``                any (label or number)  VALUE as given
======================================  =====================  ===========================

Which card a plain name means: ``Key#2`` is exact; otherwise the lowest-numbered card of
that kind found first in the deciding seat's starting hand (for ``take``: outside it; for
``pick``: in the deck), else anywhere in the position. Only Keys and Goblets (3 cards each)
can be ambiguous; write ``Key#n`` when it matters (the position numbers them in order of
appearance, see :mod:`kutsch_sim.notation.position`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..enums import (
    ACT_ATTACK,
    ACT_DECLARE,
    ACT_MUL,
    ACT_PASS,
    ACT_TRADE,
    DEC,
    DECISION_LABELS,
    DK,
    IK,
    SIDE_ATT,
    SIDE_DEF,
    SIDE_NONE,
    SRC_LABELS,
)
from ..errors import KutschError
from .names import KIND_CARDS, Hands, explicit_card, item_kind, norm, occupation, strip_comment

Row = tuple[int, int, int]

_YES = {"yes": 1, "y": 1, "1": 1, "true": 1, "use": 1, "no": 0, "n": 0, "0": 0, "false": 0}
_SIDES = {"none": SIDE_NONE, "neutral": SIDE_NONE, "attacker": SIDE_ATT, "att": SIDE_ATT,
          "defender": SIDE_DEF, "def": SIDE_DEF}
_DECL = {"team": DK.TEAM, "drink": DK.DRINK, "loge": DK.LOGE, "fortune": DK.FORTUNE}
_SOURCES = {norm(s) for s in SRC_LABELS} | {"knives", "grandmaster", "gloves"}


class _Line:
    """One script line being compiled against a position."""

    def __init__(self, pos: Hands, seat: int, args: list[str]) -> None:
        self.pos = pos
        self.seat = seat
        self.args = args

    def need(self, lo: int, hi: int | None = None) -> None:
        hi = lo if hi is None else hi
        if not lo <= len(self.args) <= hi:
            raise KutschError("wrong number of arguments")

    def yes(self, i: int = 0) -> int:
        v = _YES.get(self.args[i].lower()) if i < len(self.args) else None
        if v is None:
            raise KutschError("expected yes or no")
        return v

    def seat_arg(self, text: str) -> int:
        if not text.isdigit() or int(text) >= self.pos.n:
            raise KutschError(f"expected a seat 0..{self.pos.n - 1}, got {text!r}")
        return int(text)

    def card(self, text: str, where: str = "own") -> int:
        """Card id of an item name (see the module docstring for the choice among Keys)."""
        c = explicit_card(text)
        placed = [c for h in self.pos.hands for c in h] + list(self.pos.deck)
        if c is not None:
            if c not in placed:  # out of the game: no decision can ever name it
                raise KutschError(f"no {text.strip()!r} card in this position")
            return c
        k = item_kind(text)
        own = self.pos.hands[self.seat]
        if where == "own":
            first = [c for c in KIND_CARDS[k] if c in own]
        elif where == "other":
            first = [c for c in KIND_CARDS[k] if c in placed and c not in own]
        else:
            first = [c for c in KIND_CARDS[k] if c in self.pos.deck]
        rest = [c for c in KIND_CARDS[k] if c in placed]
        if not first and not rest:
            raise KutschError(f"no {text.strip()!r} card in this position")
        return (first or rest)[0]

    def rest(self, start: int) -> str:
        if len(self.args) <= start:
            raise KutschError("missing item name")
        return " ".join(self.args[start:])


def _action(ln: _Line) -> list[Row]:
    if not ln.args:
        raise KutschError("expected pass, trade, attack or declare")
    sub, ln.args = ln.args[0].lower(), ln.args[1:]
    if sub == "pass":
        ln.need(0)
        return [(ln.seat, DEC.ACTION, ACT_PASS * ACT_MUL)]
    if sub == "trade":
        if len(ln.args) < 2:
            raise KutschError("expected 'trade T CARD'")
        t = ln.seat_arg(ln.args[0])
        return [(ln.seat, DEC.ACTION, ACT_TRADE * ACT_MUL + t * 32 + ln.card(ln.rest(1)))]
    if sub == "attack":
        ln.need(1)
        return [(ln.seat, DEC.ACTION, ACT_ATTACK * ACT_MUL + ln.seat_arg(ln.args[0]) * 32)]
    if sub == "declare":
        if not ln.args or ln.args[0].lower() not in _DECL:
            raise KutschError("declare needs team, drink, loge or fortune")
        kind = _DECL[ln.args[0].lower()]
        rows = [(ln.seat, DEC.ACTION, ACT_DECLARE * ACT_MUL + kind)]
        names = ln.args[1:]
        if names and names[0].lower() == "with":
            names = names[1:]
        elif names:
            raise KutschError("expected 'with S S ...' after the declaration kind")
        if kind != DK.LOGE:  # R6.2: name teammates one at a time, then -1 = done
            rows += [(ln.seat, DEC.DECL_NAME, ln.seat_arg(s)) for s in names] + [(ln.seat, DEC.DECL_NAME, -1)]
        elif names:
            raise KutschError("a Loge solo declaration names nobody (R6.5)")
        return rows
    raise KutschError(f"unknown action {sub!r}: pass, trade, attack or declare")


def _diplomat(ln: _Line) -> list[Row]:
    if len(ln.args) == 1:
        return [(ln.seat, DEC.DIPLO_USE, ln.yes())]
    low = [a.lower() for a in ln.args]
    if len(ln.args) < 4 or "offer" not in low:
        raise KutschError("expected 'diplomat yes|no' or 'diplomat T NAME offer CARD'")
    i = low.index("offer")
    t = ln.seat_arg(ln.args[0])
    return [
        (ln.seat, DEC.DIPLO_USE, 1),
        (ln.seat, DEC.DIPLO_TARGET, t),
        (ln.seat, DEC.DIPLO_NAME, _diplo_name(" ".join(ln.args[1:i]))),
        (ln.seat, DEC.DIPLO_OFFER, ln.card(" ".join(ln.args[i + 1:]))),
    ]


def _diplo_name(text: str) -> int:
    """Item kind a Diplomat names; any Secret Bag is named "Secret Bag" = BagKey (R8)."""
    if norm(text) in ("secretbag", "bag", "bags", "secretbags"):
        return IK.BAG_KEY
    k = item_kind(text)
    return IK.BAG_KEY if k == IK.BAG_GOBLET else k


def _side(ln: _Line, none_value: int) -> int:
    ln.need(1)
    v = _SIDES.get(ln.args[0].lower())
    if v is None:
        raise KutschError("expected none, attacker or defender")
    return none_value if v == SIDE_NONE else v


def _play(ln: _Line) -> list[Row]:
    if not ln.args:
        raise KutschError("expected '[SOURCE] yes|no'")
    if len(ln.args) > 1 and norm(" ".join(ln.args[:-1])) not in _SOURCES:
        raise KutschError(f"unknown fight bonus {' '.join(ln.args[:-1])!r}; valid: {', '.join(SRC_LABELS)}")
    return [(ln.seat, DEC.FIGHT_PLAY, ln.yes(len(ln.args) - 1))]


def _raw(ln: _Line) -> list[Row]:
    ln.need(2)
    label = ln.args[0].lower().replace("-", "_")
    if label.isdigit() and int(label) < len(DECISION_LABELS):
        kind = int(label)
    elif label in DECISION_LABELS:
        kind = DECISION_LABELS.index(label)
    else:
        raise KutschError(f"unknown decision {ln.args[0]!r}; valid: {', '.join(DECISION_LABELS)}")
    try:
        return [(ln.seat, kind, int(ln.args[1]))]
    except ValueError:
        raise KutschError(f"raw value must be an integer, got {ln.args[1]!r}") from None


def _one(kind: int, parse: Callable[[_Line], int]) -> Callable[[_Line], list[Row]]:
    return lambda ln: [(ln.seat, kind, parse(ln))]


def _yes_no(kind: int) -> Callable[[_Line], list[Row]]:
    def parse(ln: _Line) -> int:
        ln.need(1)
        return ln.yes()

    return _one(kind, parse)


def _card_verb(kind: int, where: str = "own", nothing: bool = False) -> Callable[[_Line], list[Row]]:
    def parse(ln: _Line) -> int:
        if nothing and [a.lower() for a in ln.args] in (["nothing"], ["none"]):
            return -1
        return ln.card(ln.rest(0), where)

    return _one(kind, parse)


def _accept(ln: _Line) -> int:
    return 1 if not ln.args else ln.yes()


def _seat_or_none(ln: _Line, none_word: str) -> int:
    ln.need(1)
    return -1 if ln.args[0].lower() in (none_word, "none") else ln.seat_arg(ln.args[0])


def _limit_give(ln: _Line) -> int:
    if len(ln.args) < 2:
        raise KutschError("expected 'give-away T CARD'")
    return ln.seat_arg(ln.args[0]) * 32 + ln.card(ln.rest(1))


def _sextant_dir(ln: _Line) -> int:
    ln.need(1)
    d = {"left": 0, "right": 1}.get(ln.args[0].lower())
    if d is None:
        raise KutschError("expected left or right")
    return d


def _win(ln: _Line) -> int:
    ln.need(1)
    d = {"look": 0, "items": 1, "take": 1}.get(ln.args[0].lower())
    if d is None:
        raise KutschError("expected look or items")
    return d


def _card_position(ln: _Line) -> int:
    ln.need(1)
    if ln.args[0] not in ("0", "1", "2"):
        raise KutschError("expected an association card position 0, 1 or 2")
    return int(ln.args[0])


def _coat(ln: _Line) -> int:
    return occupation(ln.rest(0))


VERBS: dict[str, Callable[[_Line], list[Row]]] = {
    "action": _action,
    "clairvoyant": _yes_no(DEC.CLAIR_USE),
    "pick": _card_verb(DEC.CLAIR_PICK, "deck"),
    "diplomat": _diplomat,
    "diplo_target": _one(DEC.DIPLO_TARGET, lambda ln: (ln.need(1), ln.seat_arg(ln.args[0]))[1]),
    "diplo_name": _one(DEC.DIPLO_NAME, lambda ln: _diplo_name(ln.rest(0))),
    "diplo_offer": _card_verb(DEC.DIPLO_OFFER),
    "name": _one(DEC.DECL_NAME, lambda ln: _seat_or_none(ln, "done")),
    "accept": _one(DEC.ACCEPT, _accept),
    "reject": _one(DEC.ACCEPT, lambda ln: (ln.need(0), 0)[1]),
    "return": _card_verb(DEC.RETURN),
    "give_named": _card_verb(DEC.GIVE_NAMED),
    "effect": _yes_no(DEC.EFFECT_USE),
    "smuggle": _yes_no(DEC.SMUGGLE),
    "see_card": _one(DEC.ACARD_PICK, _card_position),
    "coat": _one(DEC.COAT_PICK, _coat),
    "sextant": _one(DEC.SEXTANT_DIR, _sextant_dir),
    "pass_on": _card_verb(DEC.SEXTANT_PASS),
    "priest": _yes_no(DEC.PRIEST_USE),
    "priest_give": _card_verb(DEC.PRIEST_GIVE),
    "support": _one(DEC.SUPPORT, lambda ln: _side(ln, SIDE_NONE)),
    "hypnotize": _one(DEC.HYPNO, lambda ln: _seat_or_none(ln, "nobody")),
    "play": _play,
    "ring": _yes_no(DEC.RING_USE),
    "mixer": _one(DEC.MIXER, lambda ln: _side(ln, -1)),
    "doctor": _yes_no(DEC.DOCTOR_USE),
    "win": _one(DEC.WIN_CHOICE, _win),
    "take": _card_verb(DEC.TAKE, "other", nothing=True),
    "give_back": _card_verb(DEC.GIVE_BACK),
    "give_away": _one(DEC.LIMIT_GIVE, _limit_give),
    "raw": _raw,
}
for _sub in ("pass", "trade", "attack", "declare"):  # shorthands: "0 trade 1 Dagger"
    VERBS[_sub] = lambda ln, _s=_sub: _action(_Line(ln.pos, ln.seat, [_s, *ln.args]))
# the decision labels of enums.Decision work as verbs too
VERBS |= {
    "clair_use": VERBS["clairvoyant"], "clair_pick": VERBS["pick"], "diplo_use": VERBS["diplomat"],
    "decl_name": VERBS["name"], "effect_use": VERBS["effect"], "coat_pick": VERBS["coat"],
    "sextant_dir": VERBS["sextant"], "sextant_pass": VERBS["pass_on"], "priest_use": VERBS["priest"],
    "hypno": VERBS["hypnotize"], "fight_play": VERBS["play"], "ring_use": VERBS["ring"],
    "doctor_use": VERBS["doctor"], "win_choice": VERBS["win"], "limit_give": VERBS["give_away"],
    "acard_pick": VERBS["see_card"],
}


# the decision each verb answers (for ``stop_at``); "raw" names its decision itself
VERB_KIND: dict[str, int] = {label: k for k, label in enumerate(DECISION_LABELS)} | {
    "action": DEC.ACTION, "pass": DEC.ACTION, "trade": DEC.ACTION, "attack": DEC.ACTION, "declare": DEC.ACTION,
    "clairvoyant": DEC.CLAIR_USE, "pick": DEC.CLAIR_PICK, "diplomat": DEC.DIPLO_USE, "name": DEC.DECL_NAME,
    "reject": DEC.ACCEPT, "give_named": DEC.GIVE_NAMED, "effect": DEC.EFFECT_USE, "see_card": DEC.ACARD_PICK,
    "coat": DEC.COAT_PICK, "sextant": DEC.SEXTANT_DIR, "pass_on": DEC.SEXTANT_PASS, "priest": DEC.PRIEST_USE,
    "hypnotize": DEC.HYPNO, "play": DEC.FIGHT_PLAY, "ring": DEC.RING_USE, "doctor": DEC.DOCTOR_USE,
    "win": DEC.WIN_CHOICE, "give_away": DEC.LIMIT_GIVE,
}


def parse_stop(text: str, pos: Hands) -> tuple[int, int]:
    """(seat or -1, Decision kind or -1) of a ``stop_at`` text ``[SEAT] DECISION``: DECISION is
    a verb or decision label (``accept``, ``play``, ``fight_play``) or ``any``."""
    words = strip_comment(str(text)).lower().replace("-", "_").split()
    seat = -1
    if words and words[0].isdigit():
        seat = int(words[0])
        if seat >= pos.n:
            raise KutschError(f"stop_at {text!r}: seat {seat} is not in this {pos.n}-player position")
        words = words[1:]
    if len(words) != 1 or (words[0] != "any" and words[0] not in VERB_KIND):
        raise KutschError(f"stop_at {text!r}: expected '[SEAT] DECISION' with DECISION a verb, a decision "
                          f"label or 'any', e.g. '1 accept'")
    return seat, -1 if words[0] == "any" else VERB_KIND[words[0]]


def parse_line(line: str, pos: Hands) -> list[Row]:
    """Rows of one script line (empty for a blank or comment line)."""
    words = strip_comment(line).split()
    if not words:
        return []
    if len(words) < 2 or not words[0].isdigit():
        raise KutschError("expected 'SEAT VERB ARGS', e.g. '0 trade 1 Dagger'")
    seat = int(words[0])
    if seat >= pos.n:
        raise KutschError(f"seat {seat} is not in this {pos.n}-player position")
    verb = words[1].lower().replace("-", "_")
    if verb not in VERBS:
        raise KutschError(f"unknown verb {words[1]!r}; valid: {', '.join(sorted(VERBS))}")
    return VERBS[verb](_Line(pos, seat, words[2:]))


def script_lines(lines: Sequence[str] | str) -> list[str]:
    return lines.splitlines() if isinstance(lines, str) else list(lines)


def compile_script_lines(lines: Sequence[str] | str, pos: Hands) -> tuple[np.ndarray, list[int]]:
    """(rows, line of each row): int32[S, 3] rows (seat, Decision kind, option value) for
    ``st.script``, and the 0-based index of the script line each row came from."""
    from ..engine.state import SCRIPT_CAP

    rows: list[Row] = []
    origin: list[int] = []
    for i, line in enumerate(script_lines(lines)):
        try:
            new = parse_line(line, pos)
            if len(rows) + len(new) > SCRIPT_CAP:
                raise KutschError(f"a script holds at most {SCRIPT_CAP} decisions")
        except KutschError as e:
            raise KutschError(f"script line {i + 1} {line.strip()!r}: {e}") from None
        rows += new
        origin += [i] * len(new)
    return np.array(rows, dtype=np.int32).reshape(-1, 3), origin


def compile_script(lines: Sequence[str] | str, pos: Hands) -> np.ndarray:
    """int32[S, 3] rows (seat, Decision kind, option value) for ``st.script``."""
    return compile_script_lines(lines, pos)[0]
