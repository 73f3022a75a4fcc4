"""Bot profiles by name -> (bot id, parameters, told, role rows) for the kernels.

``random`` and ``first`` are built in; the heuristic profiles and their named numeric
parameters are rows of ``data/bots.csv``: columns ``profile``, ``bot``, optionally ``when``
and ``told``, then the names in :data:`kutsch_sim.bots.params.PARAM_NAMES`. A user may add
rows (e.g. a bolder ``smart``) there, or keep them in files of their own named by the
environment variable ``KUTSCH_SIM_PROFILES`` (paths separated by ``os.pathsep``), read at the
first profile looked up; their names must be new.

A profile is a base row (``when`` = ``any`` or no ``when`` column) and optionally role rows
that follow it under the same name (``when`` = ``minority``, ``majority`` or ``loge``,
``params.ROLE_NAMES``): a seat uses a role row while it is in that role as it sees it
(``bots.view.role_nb``). An empty cell of a role row is the base row's value. ``soft_trust``,
``evidence``, ``calibrated`` and ``told`` shape the beliefs that choose the row, so they are
the base row's (a role row leaves them empty or repeats them). ``told`` (0 if absent or empty) is ``params.P_TOLD``'s bit
mask: 1 a seat of the smaller team is told so, 2 one of the larger team, 3 both.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..cards import DATA_DIRS, read_table
from ..enums import MAX_PLAYERS
from ..errors import KutschError
from .params import (
    BASE_ONLY,
    BOT_FIRST,
    BOT_NAMES,
    BOT_RANDOM,
    N_BPARAM,
    N_ROLES,
    OPTIONAL_GROUPS,
    OPTIONAL_NAMES,
    P_SEARCH_WIDTH,
    P_SEARCH_DEPTH,
    P_SEARCH_WORLDS,
    P_TOLD,
    PARAM_NAMES,
    ROLE_NAMES,
    SEARCH_MAX_WIDTH,
    SEARCH_NAMES,
    TOLD_NAME,
)

ENV_FILES = "KUTSCH_SIM_PROFILES"
HEURISTIC_BOTS = ("greedy", "smart", "search")
COLUMNS = ("profile", "bot", *PARAM_NAMES)  # the plain form; ``when`` and ``told`` may follow ``bot``


class Profile(NamedTuple):
    bot: int  # params.BOT_*
    params: tuple[float, ...]  # the base row, PARAM_NAMES order (empty for the built-ins)
    told: int = 0  # params.P_TOLD bits
    roles: tuple[tuple[int, tuple[float, ...]], ...] = ()  # (params.ROLE_*, row) for each role row


BUILTIN: dict[str, Profile] = {
    "random": Profile(BOT_RANDOM, ()),
    "first": Profile(BOT_FIRST, ()),
}


def _header(path: Path) -> tuple[str, ...]:
    """The columns of ``path``'s header line, checked against the forms a profile table takes."""
    if not path.is_file():
        raise KutschError(f"profile table not found: {path}")
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = tuple(f.strip().lower() for f in line.split(","))
        opt = tuple(c for c in ("when", TOLD_NAME) if c in cols[2:4])  # in this order
        want = ("profile", "bot", *opt, *PARAM_NAMES)
        # the optional columns come in groups (the search budget whole), each only after the one before
        ends = [len(want) - len(OPTIONAL_NAMES)]
        for g in OPTIONAL_GROUPS:
            ends.append(ends[-1] + len(g))
        if cols != want[: len(cols)] or len(cols) not in ends:
            groups = "".join(f"[,{','.join(g)}" for g in OPTIONAL_GROUPS) + "]" * len(OPTIONAL_GROUPS)
            raise KutschError(f"{path}: line {lineno}: columns must be profile,bot[,when][,{TOLD_NAME}],"
                              f"{','.join(PARAM_NAMES[: -len(OPTIONAL_NAMES)])}{groups}, got {line.strip()}")
        return cols
    raise KutschError(f"{path}: no header line")


def _number(path: Path, lineno: int, col: str, text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise KutschError(f"{path}: line {lineno}: {col} must be a number, got {text!r}") from None
    if not np.isfinite(x) or x < 0:
        raise KutschError(f"{path}: line {lineno}: {col} must be a finite number >= 0, got {text!r}")
    return x


def _check_search(path: Path, lineno: int, bot: str, values: list[float]) -> None:
    """A search profile's width (at most SEARCH_MAX_WIDTH) and samples are whole numbers from 1;
    other bots have no budget."""
    budget = values[P_SEARCH_WIDTH:P_SEARCH_WIDTH + len(SEARCH_NAMES)]
    if bot == "search":
        width, samples = budget[:2]
        if any(x < 1 or x != int(x) for x in (width, samples)) or width > SEARCH_MAX_WIDTH or samples > 4096:
            raise KutschError(f"{path}: line {lineno}: search_width and search_samples must be whole numbers from "
                              f"1 (search_width at most {SEARCH_MAX_WIDTH}, search_samples at most 4096) for a "
                              f"search profile")
    elif any(budget) or values[P_SEARCH_WORLDS] or values[P_SEARCH_DEPTH]:
        raise KutschError(f"{path}: line {lineno}: {', '.join(SEARCH_NAMES)}, search_worlds and search_depth are for "
                          f"bot search only; leave them 0 or empty")
    if values[P_SEARCH_WORLDS] not in (0.0, 1.0, 2.0):
        raise KutschError(f"{path}: line {lineno}: search_worlds must be 0, 1 or 2, got {values[P_SEARCH_WORLDS]:g}")
    if values[P_SEARCH_DEPTH] != int(values[P_SEARCH_DEPTH]) or values[P_SEARCH_DEPTH] > 1000:
        raise KutschError(f"{path}: line {lineno}: search_depth must be a whole number of rounds from 0 to 1000, "
                          f"got {values[P_SEARCH_DEPTH]:g}")


def load_profiles(path: Path | str | None = None, known: dict[str, Profile] | None = None) -> dict[str, Profile]:
    """Read and check a profile table (default: ``bots.csv`` in the first of
    :data:`kutsch_sim.cards.DATA_DIRS` that has it). Returns name -> :class:`Profile`, the
    built-ins first; ``known``: profiles already defined, whose names the table may not take."""
    if path is None:
        found = [d / "bots.csv" for d in DATA_DIRS if (d / "bots.csv").is_file()]
        if not found:
            raise KutschError(f"bots.csv not found in {' or '.join(str(d) for d in DATA_DIRS)}")
        path = found[0]
    path = Path(path)
    cols = _header(path)
    out = dict(BUILTIN)
    taken = set(out) | set(known or ())
    base: dict[str, tuple[int, list[str], int]] = {}  # name -> (bot id, base fields, told)
    roles: dict[str, dict[int, tuple[float, ...]]] = {}
    for lineno, fields in read_table(path, cols):
        row = dict(zip(cols, fields, strict=True))
        name, bot = row["profile"].lower(), row["bot"].lower()
        when = row.get("when", "").lower() or "any"
        if when not in ROLE_NAMES:
            raise KutschError(f"{path}: line {lineno}: when must be one of {', '.join(ROLE_NAMES)}, got {when!r}")
        if bot not in HEURISTIC_BOTS:
            raise KutschError(f"{path}: line {lineno}: bot must be one of {', '.join(HEURISTIC_BOTS)}, got {bot!r}")
        told_text = row.get(TOLD_NAME, "")
        if when == "any":
            if not name or name in taken:
                raise KutschError(f"{path}: line {lineno}: profile name {row['profile']!r} is empty or repeated")
            if told_text not in ("", "0", "1", "2", "3"):
                raise KutschError(f"{path}: line {lineno}: {TOLD_NAME} must be 0, 1, 2 or 3, got {told_text!r}")
            values = [_number(path, lineno, c, row.get(c, "0")) for c in PARAM_NAMES]
            _check_search(path, lineno, bot, values)
            taken.add(name)
            base[name] = (BOT_NAMES.index(bot), values, int(told_text or 0))
            roles[name] = {}
            continue
        if name not in base:
            raise KutschError(f"{path}: line {lineno}: a '{when}' row must follow the base row of its profile "
                              f"{row['profile']!r} (when = any)")
        bid, values, told = base[name]
        r = ROLE_NAMES.index(when)
        if BOT_NAMES.index(bot) != bid or r in roles[name]:
            raise KutschError(f"{path}: line {lineno}: profile {name!r} has its '{when}' row already, or another bot")
        if told_text not in ("", str(told)):
            raise KutschError(f"{path}: line {lineno}: {TOLD_NAME} is the base row's; leave it empty")
        rvals = [values[j] if row.get(c, "") == "" else _number(path, lineno, c, row[c])
                 for j, c in enumerate(PARAM_NAMES)]
        search = slice(P_SEARCH_WIDTH, P_SEARCH_WIDTH + len(SEARCH_NAMES))
        if rvals[search] != values[search]:
            raise KutschError(f"{path}: line {lineno}: {', '.join(SEARCH_NAMES)} are the base row's; leave them empty")
        for c in BASE_ONLY:
            if rvals[PARAM_NAMES.index(c)] != values[PARAM_NAMES.index(c)]:
                raise KutschError(f"{path}: line {lineno}: {c} is the base row's (it shapes the beliefs "
                                  f"that choose the row); leave it empty")
        roles[name][r] = tuple(rvals)
    for name, (bid, values, told) in base.items():
        out[name] = Profile(bid, tuple(values), told, tuple(sorted(roles[name].items())))
    return out


PROFILES = load_profiles()
_user_read = False


def user_files() -> list[Path]:
    """The profile tables named by ``KUTSCH_SIM_PROFILES``."""
    text = os.environ.get(ENV_FILES, "")
    return [Path(p) for p in text.split(os.pathsep) if p.strip()]


def read_user_profiles() -> None:
    """Add the profiles of :func:`user_files` to :data:`PROFILES` (once); a bad file raises a
    one-line :class:`KutschError` naming the file and line."""
    global _user_read
    if _user_read:
        return
    extra: dict[str, Profile] = {}
    for path in user_files():
        got = load_profiles(path, known={**PROFILES, **extra})
        extra.update({k: v for k, v in got.items() if k not in BUILTIN})
    PROFILES.update(extra)
    _user_read = True


def check_bots(names: tuple[str, ...]) -> tuple[str, ...]:
    read_user_profiles()
    out = []
    for name in names:
        key = name.strip().lower()
        if key not in PROFILES:
            raise KutschError(f"unknown bot profile {name!r}; valid: {', '.join(PROFILES)}")
        out.append(key)
    return tuple(out)


def with_roles(params: np.ndarray) -> np.ndarray:
    """float64[10, N_ROLES * N_BPARAM]: the seats' rows side by side (base, minority, majority,
    Loge); a one-row-a-seat table gets every role row equal to its base row."""
    if params.shape[1] >= N_ROLES * N_BPARAM:
        return params.copy()
    return np.ascontiguousarray(np.tile(params[:, :N_BPARAM], (1, N_ROLES)))


def bot_arrays(names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(bot ids int8[10], parameters float64[10, N_BPARAM]) for the seats named; with
    float64[10, N_ROLES * N_BPARAM] (:func:`with_roles`) if a profile named has role rows."""
    bots = np.zeros(MAX_PLAYERS, np.int8)
    params = np.zeros((MAX_PLAYERS, N_BPARAM), np.float64)
    for p, name in enumerate(names):
        prof = PROFILES[name]
        bots[p] = prof.bot
        params[p, : len(prof.params)] = prof.params
        params[p, P_TOLD] = prof.told
    if not any(PROFILES[name].roles for name in names):
        return bots, params
    wide = with_roles(params)
    for p, name in enumerate(names):
        for r, row in PROFILES[name].roles:
            wide[p, r * N_BPARAM: r * N_BPARAM + len(row)] = row
            wide[p, r * N_BPARAM + P_TOLD] = PROFILES[name].told
    return bots, wide


def profile_table(name: str, prof: Profile, comment: str = "") -> str:
    """``prof`` as a profile table of its own (the format :func:`load_profiles` reads), its role
    rows giving only the values that differ from the base row; ``comment`` lines go first."""
    lines = [f"# {c}" if c else "#" for c in comment.splitlines()]
    lines.append(",".join(("profile", "bot", "when", TOLD_NAME, *PARAM_NAMES)))
    bot = BOT_NAMES[prof.bot]
    lines.append(",".join((name, bot, "any", str(prof.told), *(repr(float(x)) for x in prof.params))))
    for r, row in prof.roles:
        cells = ["" if x == b else repr(float(x)) for x, b in zip(row, prof.params, strict=True)]
        lines.append(",".join((name, bot, ROLE_NAMES[r], "", *cells)))
    return "\n".join(lines) + "\n"
