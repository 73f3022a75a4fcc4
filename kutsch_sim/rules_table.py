"""The rule switches a game can be played with, one row each: the official variants (R10).

Every layer reads this table and nothing else for a switch's name, spelling, player counts
and description: the Python API parses ``--variant`` with it and builds the engine's mask
from it (:mod:`kutsch_sim.api`), the position notation spells and checks its ``variant``
statement with it (:mod:`kutsch_sim.notation.position`), a study adds one part per row with
the row's player counts and item sets (:mod:`kutsch_sim.sim.study`), and the command line's
help texts are written from it (:mod:`kutsch_sim.cli`). The engine itself reads the switches
as bits of one scalar, ``sc[SC.VARIANTS]`` (``enums.Variant``), whose values the rows take.

A row describes any switch the engine reads from a scalar: an on/off variant sets one bit
(``bit`` > 0, values 0 and 1); a numeric house rule (a hand limit, the victory items a Drink
of Power stands for) would hold its value in a scalar of its own (``bit`` 0), with its
default and allowed values in the row. Plain Python: no numba, no pandas, importable by the
command line at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import MAX_PLAYERS, MIN_PLAYERS, VAR
from .errors import KutschError

EVERY_COUNT = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


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
)
BY_NAME = {s.name: s for s in SWITCHES}
VARIANTS = tuple(s.name for s in SWITCHES if s.scalar == "VARIANTS")  # the on/off variants, canonical order
_SPELLINGS = {a: s.name for s in SWITCHES for a in (s.name, *s.aliases)}


def parse_variants(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """``"smuggling,fortune-telling"`` (or repeated options, a list) -> variant names in the
    canonical order of :data:`VARIANTS`, without repeats. Unknown names raise a one-line
    :class:`KutschError`; ``base`` / ``none`` / empty mean no variant."""
    if text is None:
        return ()
    items = [text] if isinstance(text, str) else list(text)
    names: set[str] = set()
    for item in items:
        for tok in str(item).split(","):
            v = tok.strip().lower().replace("_", "-")
            if v in ("", "base", "none"):
                continue
            if _SPELLINGS.get(v) not in VARIANTS:
                raise KutschError(f"unknown variant {tok.strip()!r}; valid: {', '.join(VARIANTS)}")
            names.add(_SPELLINGS[v])
    return tuple(v for v in VARIANTS if v in names)


def variant_mask(variants: tuple[str, ...]) -> int:
    """The engine's bit mask (``sc[SC.VARIANTS]``, ``enums.Variant``) of these variant names."""
    return sum(BY_NAME[v].bit for v in set(variants))


def variant_names(mask: int) -> tuple[str, ...]:
    """The variant names of an engine mask, in canonical order (the inverse of :func:`variant_mask`)."""
    return tuple(v for v in VARIANTS if mask & BY_NAME[v].bit)


def variant_players_error(variants: tuple[str, ...], n: int) -> str | None:
    """The one-line reason these variants cannot be played at ``n`` players, or ``None``."""
    for v in variants:
        row = BY_NAME[v]
        if n not in row.players:
            only = f"the {row.players_text}-player game only" if len(row.players) == 1 else \
                f"played at {row.players_text} players only"
            return f"variant '{v}' is {only} ({row.source}), got {n} players"
    return None


def check_variant_players(variants: tuple[str, ...], n: int) -> None:
    """Raise a one-line :class:`KutschError` if a variant is not played at ``n`` players."""
    if (err := variant_players_error(variants, n)) is not None:
        raise KutschError(err)


def _where(row: RuleSwitch) -> str:
    return "" if row.players == EVERY_COUNT else f" ({row.players_text} players)"


def variant_option_help(what: str = "Rule variant") -> str:
    """The help of a command's ``--variant`` option."""
    names = ", ".join(s.name + _where(s) for s in SWITCHES)
    return f"{what} (R10): {names}; repeat or comma-separate to combine."


def study_variants_help() -> str:
    """The help of ``kutsch-sim study --variants``: the part each variant adds."""
    groups: dict[tuple, list[str]] = {}
    for s in SWITCHES:
        groups.setdefault((s.players_text, s.study_items), []).append(s.name)
    parts = [f"{' and '.join(names)} at {players} players with {' and '.join(items)} items"
             for (players, items), names in groups.items()]
    return f"Add one part per rule variant (R10): {', '.join(parts)}."
