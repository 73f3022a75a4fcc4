"""The rule switches a game can be played with, one row each: the official variants (R10).

Every layer reads this table and nothing else for a switch's name, spelling, player counts
and description: the Python API parses ``--variant`` with it and builds the engine's mask
from it (:mod:`kutsch_sim.api`), the position notation spells and checks its ``variant``
statement with it (:mod:`kutsch_sim.notation.position`), a study adds one part per row with
the row's player counts and item sets (:mod:`kutsch_sim.sim.study`), and the command line's
help texts are written from it (:mod:`kutsch_sim.cli`). The engine itself reads the switches
as bits of one scalar, ``sc[SC.VARIANTS]`` (``enums.Variant``), whose values the rows take.

A row describes any switch the engine reads from a scalar: an on/off variant sets one bit
(``bit`` > 0, values 0 and 1); a numeric house rule (a knob: a hand limit, the victory items a
Drink of Power stands for) holds its value in a scalar of its own (``bit`` 0), with its
default and allowed values in the row, and is spelled ``NAME=VALUE`` (``loge-items=4``); a
knob at its default is the same as not naming it. The knobs' values reach the engine packed
above the on/off bits of ``sc[SC.VARIANTS]`` (``enums.KNOB_SC``), so the kernels take one
integer whatever is in play. Plain Python: no numba, no pandas, importable by the command
line at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import KNOB_SC, KNOB_SHIFT, KNOB_WIDTH, MAX_PLAYERS, MIN_PLAYERS, SC, VAR
from .errors import KutschError

EVERY_COUNT = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
ODD_COUNTS = tuple(n for n in EVERY_COUNT if n % 2 == 1)
HOUSE = "house rule"  # the source of a knob: a departure measured, not an official variant


@dataclass(frozen=True)
class RuleSwitch:
    """One row: a way to play that departs from the base rules of docs/rules.md."""

    name: str  # as the commands, the position notation and the results' ``variant`` column spell it
    aliases: tuple[str, ...]  # other spellings accepted on input
    scalar: str  # the engine scalar it sets (a field of ``enums.SC``)
    bit: int  # its bit in that scalar (``enums.Variant``); 0: the scalar holds the value itself
    players: tuple[int, ...]  # the player counts it can be played at
    default: int  # its value when not asked for (0: off, the base rules)
    values: tuple[int, ...]  # the values it may take (0, 1 for a switch)
    departs: tuple[str, ...]  # the rules of docs/rules.md it changes
    source: str  # where it comes from: an official variant (R10)
    study_items: tuple[str, ...]  # the item sets a study plays it with (``kutsch-sim study --variants``)
    text: str  # what it does, in one line

    @property
    def knob(self) -> bool:
        """A numeric house rule (spelled NAME=VALUE), not an on/off variant."""
        return self.bit == 0

    @property
    def values_text(self) -> str:
        v = self.values
        run = len(v) > 1 and v == tuple(range(v[0], v[-1] + 1)) and v != (0, 1)
        return f"{v[0]}-{v[-1]}" if run else "/".join(map(str, v))

    @property
    def players_text(self) -> str:
        """``3-10`` for a run of counts, ``3`` or ``3, 5`` otherwise."""
        p = self.players
        if len(p) > 2 and p == tuple(range(p[0], p[-1] + 1)):
            return f"{p[0]}-{p[-1]}"
        return ", ".join(map(str, p))


# The rows' order is the canonical order of names (parse_variants, the results' variant label).
SWITCHES: tuple[RuleSwitch, ...] = (
    RuleSwitch(
        "smuggling", (), "VARIANTS", VAR.SMUGGLING, EVERY_COUNT, 0, (0, 1), ("R4.4",), "R10", ("full",),
        "the giver of an item with a trade effect may keep it silent: not announced, no effect",
    ),
    RuleSwitch(
        "fortune-telling", ("fortune",), "VARIANTS", VAR.FORTUNE, EVERY_COUNT, 0, (0, 1), ("R6",), "R10", ("full",),
        "in place of a declaration, name the other team's holders of one of their winning combinations",
    ),
    RuleSwitch(
        "advanced-3p", (), "VARIANTS", VAR.ADV3P, (3,), 0, (0, 1), ("R2.2", "R5.8"), "R10", ("basic", "full"),
        "3 association cards to each seat, team = majority; a look shows one of them",
    ),
    RuleSwitch(
        "team-items", (), "TEAM_NEED", 0, EVERY_COUNT, 3, (2, 3, 4), ("R6.3",), HOUSE, ("full",),
        "the victory items a team declaration needs",
    ),
    RuleSwitch(
        "drink-items", (), "DRINK_ITEMS", 0, ODD_COUNTS, 1, (1, 2), ("R7",), HOUSE, ("full",),
        "the victory items the declarer's own Drink of Power stands for",
    ),
    RuleSwitch(
        "loge-items", (), "LOGE_NEED", 0, EVERY_COUNT, 3, (3, 4, 5), ("R6.5",), HOUSE, ("full",),
        "the victory items, in any mix, the Loge's solo win needs",
    ),
    RuleSwitch(  # default 0: R2.4's limit for the count (8 at 3 players, 6 at 4, 5 from 5)
        "hand-limit", (), "HAND_LIMIT", 0, EVERY_COUNT, 0, tuple(range(3, 11)), ("R2.4",), HOUSE, ("full",),
        "the hand limit at every count",
    ),
    RuleSwitch(
        "smaller-told", (), "SMALLER_TOLD", 0, ODD_COUNTS, 0, (0, 1), ("R2.2",), HOUSE, ("full",),
        "the smaller team's members are shown the association card in the box",
    ),
    RuleSwitch(
        "start-items", (), "START_ITEMS", 0, (3,), 2, (1, 2, 3), ("R2.3",), HOUSE, ("basic", "full"),
        "the items each seat starts with at 3 players",
    ),
    RuleSwitch(
        "victory-cards", (), "VICTORY_CARDS", 0, EVERY_COUNT, 3, (2, 3), ("R9",), HOUSE, ("full",),
        "the Keys and the Goblets in the game, each (2: one of each left out of the deal)",
    ),
    RuleSwitch(
        "last-seat-items", (), "LAST_ITEMS", 0, EVERY_COUNT, 0, (0, 1, 2), ("R2.3", "R2.5"), HOUSE, ("full",),
        "extra starting items for the last seat, against the start player's lead",
    ),
)
BY_NAME = {s.name: s for s in SWITCHES}
VARIANTS = tuple(s.name for s in SWITCHES if s.scalar == "VARIANTS")  # the on/off variants, canonical order
KNOBS = tuple(s.name for s in SWITCHES if s.knob)  # the house rules, canonical order
_SPELLINGS = {a: s.name for s in SWITCHES for a in (s.name, *s.aliases)}
_MASK = (1 << KNOB_WIDTH) - 1


def _field(row: RuleSwitch) -> int:
    """Knob ``row``'s field in ``sc[VARIANTS]`` (its place in ``enums.KNOB_SC``)."""
    return KNOB_SC.index(getattr(SC, row.scalar))


def row_of(variant: str) -> RuleSwitch:
    """The row of a canonical variant spelling (``smuggling``, ``loge-items=4``)."""
    return BY_NAME[variant.split("=")[0]]


def knob_value(variants: tuple[str, ...], name: str) -> int | None:
    """The value house rule ``name`` is set to among ``variants``, or None (its default)."""
    for v in variants:
        if v.split("=")[0] == name:
            return int(v.split("=")[1])
    return None


def _spell(tok: str) -> tuple[str, int | None]:
    """One ``--variant`` token -> (row name, value or None for an on/off variant)."""
    word, eq, val = tok.strip().lower().replace("_", "-").partition("=")
    name = _SPELLINGS.get(word.strip())
    if name is None:
        valid = ", ".join([*VARIANTS, *(f"{k}=VALUE" for k in KNOBS)])
        raise KutschError(f"unknown variant {tok.strip()!r}; valid: {valid}")
    row = BY_NAME[name]
    if not row.knob:
        if eq:
            raise KutschError(f"variant '{name}' takes no value, got {tok.strip()!r}")
        return name, None
    if not eq:
        raise KutschError(f"house rule '{name}' needs a value: {name}=VALUE ({row.values_text})")
    try:
        value = int(val.strip())
    except ValueError:
        value = None
    if value not in row.values:
        raise KutschError(f"house rule '{name}' takes {row.values_text}, got {val.strip()!r}")
    return name, value


def parse_variants(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """``"smuggling,loge-items=4"`` (or repeated options, a list) -> the variants in the
    canonical order of :data:`SWITCHES`, without repeats: a variant's name, a house rule's
    ``name=value`` (left out at its default). Unknown names, a house rule without a value or
    with a value it does not take, and one house rule set twice to different values raise a
    one-line :class:`KutschError`; ``base`` / ``none`` / empty mean the base rules."""
    if text is None:
        return ()
    items = [text] if isinstance(text, str) else list(text)
    got: dict[str, int | None] = {}
    for item in items:
        for tok in str(item).split(","):
            if tok.strip().lower() in ("", "base", "none"):
                continue
            name, value = _spell(tok)
            if got.get(name, value) != value:
                raise KutschError(f"house rule '{name}' set twice: {name}={got[name]} and {name}={value}")
            got[name] = value
    out = []
    for s in SWITCHES:
        if s.name in got and got[s.name] != s.default:
            out.append(s.name if got[s.name] is None else f"{s.name}={got[s.name]}")
    return tuple(out)


def variant_mask(variants: tuple[str, ...]) -> int:
    """The engine's integer ``sc[SC.VARIANTS]`` of these variants: the on/off variants' bits
    (``enums.Variant``) and each house rule's (value - default) in its field (``enums.KNOB_SC``)."""
    mask = 0
    for v in set(variants):
        row = row_of(v)
        if row.knob:
            mask |= ((int(v.split("=")[1]) - row.default) & _MASK) << (KNOB_SHIFT + KNOB_WIDTH * _field(row))
        else:
            mask |= row.bit
    return mask


def variant_names(mask: int) -> tuple[str, ...]:
    """The variants of an engine integer, in canonical order (the inverse of :func:`variant_mask`)."""
    out = []
    for s in SWITCHES:
        if not s.knob:
            if mask & s.bit:
                out.append(s.name)
            continue
        f = (mask >> (KNOB_SHIFT + KNOB_WIDTH * _field(s))) & _MASK
        if f:
            out.append(f"{s.name}={s.default + (f - (1 << KNOB_WIDTH) if f >> (KNOB_WIDTH - 1) else f)}")
    return tuple(out)


def variant_players_error(variants: tuple[str, ...], n: int) -> str | None:
    """The one-line reason these variants cannot be played at ``n`` players, or ``None``."""
    for v in variants:
        row = row_of(v)
        if n not in row.players:
            only = f"the {row.players_text}-player game only" if len(row.players) == 1 else \
                f"played at {row.players_text} players only"
            what = "house rule" if row.knob else "variant"
            return f"{what} '{v}' is {only} ({row.source if not row.knob else ', '.join(row.departs)}), got {n} players"
    return None


def check_variant_players(variants: tuple[str, ...], n: int) -> None:
    """Raise a one-line :class:`KutschError` if a variant is not played at ``n`` players."""
    if (err := variant_players_error(variants, n)) is not None:
        raise KutschError(err)


def rule_hand_limit(n: int) -> int:
    """R2.4: 3 players 8, 4 players 6, 5+ players 5 (``engine.state.hand_limit_for_nb``)."""
    return 8 if n == 3 else 6 if n == 4 else 5


def hand_limit_at(variants: tuple[str, ...], n: int) -> int:
    """The hand limit at ``n`` players under these variants (R2.4, or the hand-limit house rule)."""
    return knob_value(variants, "hand-limit") or rule_hand_limit(n)


def start_items(variants: tuple[str, ...], n: int) -> tuple[int, int]:
    """(items each seat starts with, extra items of the last seat) at ``n`` players (R2.3)."""
    each = (knob_value(variants, "start-items") or 2) if n == 3 else 1
    return each, knob_value(variants, "last-seat-items") or 0


def settle_variants(variants: tuple[str, ...], n: int) -> tuple[str, ...]:
    """Parsed variants made fit for ``n`` players: a hand-limit equal to R2.4's for the count
    is left out (the same as not naming it); a one-line :class:`KutschError` if a variant is
    not played at ``n`` or the house rules together cannot start a game (a hand limit below a
    starting hand)."""
    if knob_value(variants, "hand-limit") == rule_hand_limit(n):
        variants = tuple(v for v in variants if not v.startswith("hand-limit="))
    check_variant_players(variants, n)
    if "advanced-3p" in variants and knob_value(variants, "smaller-told"):
        raise KutschError("house rule 'smaller-told=1' is not played with advanced-3p: its box card does not "
                          "tell a team's size (R10)")
    each, last = start_items(variants, n)
    if each + last > (lim := hand_limit_at(variants, n)):
        raise KutschError(f"hand limit {lim} is below a starting hand of {each + last} items at {n} players "
                          "(R2.3, R2.4)")
    return variants


def _where(row: RuleSwitch) -> str:
    return "" if row.players == EVERY_COUNT else f" ({row.players_text} players)"


def variant_option_help(what: str = "Rule variant") -> str:
    """The help of a command's ``--variant`` option."""
    names = ", ".join(s.name + _where(s) for s in SWITCHES if not s.knob)
    knobs = ", ".join(f"{s.name}={s.values_text}" + _where(s) for s in SWITCHES if s.knob)
    return f"{what} (R10): {names}; house rules (docs/rules.md): {knobs}; repeat or comma-separate to combine."


def study_variants_help() -> str:
    """The help of ``kutsch-sim study --variants``: the part each variant adds."""
    groups: dict[tuple, list[str]] = {}
    for s in SWITCHES:
        if s.knob:
            continue
        groups.setdefault((s.players_text, s.study_items), []).append(s.name)
    parts = [f"{' and '.join(names)} at {players} players with {' and '.join(items)} items"
             for (players, items), names in groups.items()]
    knobs = ", ".join(f"{s.name}=VALUE" for s in SWITCHES if s.knob)
    return (f"Add one part per rule variant (R10): {', '.join(parts)}; or per house rule named with its value "
            f"({knobs}), at the counts it applies to with full items.")
