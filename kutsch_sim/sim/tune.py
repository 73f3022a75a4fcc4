"""Best responses per role: one role's parameter row tuned against fixed opponents.

A trial plays the same deals every time (seed, configuration id and game indices of the
opponents' profile on every seat; the common random numbers of ``api.GameConfig.config_id``),
with the trial's values in the role's row (``bots.params.ROLE_*``) of the role's seats: for a
team role the seats of that team in the deal, which read the row while they believe
themselves in the role (``bots.view.role_nb``); for the Loge every seat, which reads it while
it holds the Loge. So the opponents play their profile unchanged (:func:`play`). The
objective is the role's win rate:

- ``minority`` / ``majority`` (odd N): the share of games the smaller / larger team wins;
- ``loge``: over the games in which a seat held the Coat of Armor of the Loge at some point,
  the share of those seats that won (with their team or alone). The Loge is unstamped, so it
  is never dealt (R9) and the first holder depends on play; the rate is that of its holders.

Brackets for the team roles: ``honest`` (the seats decide from their views) and ``told``
(every seat of the role is told its team's size, ``bots.params.P_TOLD``: an upper bound).

optuna's TPE sampler (seeded) chooses the trials; the study lives in an SQLite file next to
``--out``, so an interrupted tuning keeps every finished trial (``--resume``). The first
trial is the opponents' own row. The best trial is measured again, with the baseline, on
fresh deals (seed + 1), so that its figure is free of the winner's curse.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..api import GameConfig, check_seed
from ..bots.params import (
    BOT_GREEDY,
    BOT_SMART,
    N_BPARAM,
    P_SOFT_TRUST,
    P_TOLD,
    PARAM_NAMES,
    ROLE_LOGE,
    ROLE_MAJORITY,
    ROLE_MINORITY,
    TOLD_LARGER,
    TOLD_SMALLER,
)
from ..bots.profiles import PROFILES, Profile, bot_arrays, check_bots, profile_table, with_roles
from ..cards import cards_in_game, parse_item_set
from ..cards_nb import C_LOGE
from ..enums import REC, WIN
from ..errors import KutschError
from .options import parse_count, parse_threads

ROLES = {"minority": ROLE_MINORITY, "majority": ROLE_MAJORITY, "loge": ROLE_LOGE}
BRACKETS = ("honest", "told")
# search range of each parameter (low, high); a parameter not listed: 0 to 3x its base value (at least 1)
RANGES = {
    "declare_threshold": (0.5, 1.0),
    "aggression": (0.0, 3.0),
    "support_margin": (0.0, 1.0),
    "info_value": (0.0, 15.0),
    "draw_value": (0.0, 10.0),
    "pass_bias": (0.0, 5.0),
    "occ_margin": (0.0, 1.0),
    "urgency": (0.0, 0.5),
    "noise": (0.0, 2.0),
    "consolidate": (0.0, 5.0),
    "loge_watch": (0.0, 3.0),
    "wait_value": (0.0, 1.0),
    "fight_read": (0.0, 1.0),
    "loge_play": (0.0, 2.0),
    "support_price": (0.0, 3.0),
    "loge_hide": (0.0, 3.0),
}
_TEAM = ("declare_threshold", "wait_value", "aggression", "support_margin", "pass_bias", "consolidate", "info_value",
         "draw_value", "occ_margin", "urgency")
DEFAULT_PARAMS = {
    "minority": _TEAM,
    "majority": _TEAM,
    "loge": ("declare_threshold", "wait_value", "aggression", "pass_bias", "support_margin", "info_value", "draw_value",
             "consolidate", "loge_play"),
}
Z95 = 1.959964
CHUNK = 500  # games a progress step


@dataclass(frozen=True)
class TunePlan:
    players: int
    items: str
    role: str
    bracket: str
    against: str
    params: tuple[str, ...]
    games: int
    trials: int
    seed: int
    check_games: int
    threads: int | None
    out: Path
    name: str
    resume: bool

    @property
    def study_path(self) -> Path:
        return self.out.with_name(self.out.name + ".optuna.db")

    @property
    def told(self) -> int:
        if self.bracket != "told":
            return 0
        return TOLD_SMALLER if self.role == "minority" else TOLD_LARGER

    def key(self) -> dict:
        """What a stored study must match to be resumed (everything that decides a trial's games)."""
        d = asdict(self)
        for k in ("trials", "check_games", "threads", "out", "name", "resume"):
            d.pop(k)
        d["params"] = list(self.params)
        from .._jitcache import source_hash

        d["engine"] = source_hash()  # any edit of the engine or the bots changes the trials' games
        return d


def tune_plan(*, players: str | int, items: str, role: str, bracket: str, against: str, params: str | None,
              games: str | int, trials: str | int, seed: str | int, check_games: str | int = 8000,
              threads: str | int | None = None, out: str | Path | None = None, name: str | None = None,
              resume: bool = False) -> TunePlan:
    """Check every option (a one-line :class:`KutschError` on the first bad one); writes nothing."""
    try:
        n = int(str(players).strip())
    except ValueError:
        raise KutschError(f"--players: expected one player count, got {players!r}") from None
    role = str(role).strip().lower()
    if role not in ROLES:
        raise KutschError(f"--role must be one of {', '.join(ROLES)}, got {role!r}")
    bracket = str(bracket).strip().lower()
    if bracket not in BRACKETS:
        raise KutschError(f"--bracket must be one of {', '.join(BRACKETS)}, got {bracket!r}")
    if bracket == "told" and role == "loge":
        raise KutschError("--bracket told is for the team roles (minority, majority): a seat is told its team's size")
    (against,) = check_bots((str(against),))
    if PROFILES[against].bot not in (BOT_GREEDY, BOT_SMART) or PROFILES[against].roles or PROFILES[against].told:
        raise KutschError(f"--against {against!r}: the opponents need a heuristic profile without role rows or told")
    cfg = GameConfig(n, item_set=items, bots=(against,) * n)  # checks the count and the item set
    if role != "loge" and n % 2 == 0:
        raise KutschError(f"--role {role}: the teams differ in size at odd player counts only, got {n}")
    if role == "loge" and not cards_in_game(parse_item_set(cfg.item_set), n)[C_LOGE]:
        raise KutschError(f"--role loge: item set {cfg.item_set!r} has no Coat of Armor of the Loge at {n} players")
    names = DEFAULT_PARAMS[role] if params is None or not str(params).strip() else tuple(
        t.strip().lower() for t in str(params).split(","))
    for p in names:
        if p not in PARAM_NAMES:
            raise KutschError(f"--params: unknown parameter {p!r}; valid: {', '.join(PARAM_NAMES)}")
        if PARAM_NAMES.index(p) == P_SOFT_TRUST:
            raise KutschError("--params: soft_trust weighs the beliefs that choose a role's row; it is not a role's")
    if len(set(names)) != len(names):
        raise KutschError(f"--params names a parameter twice: {params!r}")
    g = parse_count(games, "--games", 10, 10**7)
    t = parse_count(trials, "--trials", 1, 10_000)
    cg = parse_count(check_games, "--check-games", 10, 10**8)
    if out is None or not str(out).strip():
        raise KutschError("--out FILE.csv is required: the tuned profile is written there")
    path = Path(out).expanduser().absolute()
    if path.suffix.lower() != ".csv":
        raise KutschError(f"--out {path}: expected a .csv file (a profile table)")
    if path.exists() and path.is_dir():
        raise KutschError(f"--out {path} is a directory; give a .csv file")
    if not path.parent.is_dir():
        raise KutschError(f"--out {path}: directory {path.parent} does not exist")
    nm = (name or f"{against}-{role}-{bracket}-{n}p").strip().lower()
    if not nm or "," in nm or nm in PROFILES:
        raise KutschError(f"--name {nm!r} is empty, has a comma or is a profile already")
    plan = TunePlan(n, cfg.item_set, role, bracket, against, tuple(names), g, t, check_seed(int(parse_count(
        seed, "--seed", 0, 2**63 - 1))), cg, parse_threads(threads), path, nm, bool(resume))
    if plan.study_path.exists() and not resume:
        raise KutschError(f"{plan.study_path} holds a tuning already: add --resume to continue it, or remove it")
    return plan


# ------------------------------------------------------------------ games
def role_wins(rec: np.ndarray, n: int, role: str) -> np.ndarray:
    """Per game, the role's win (0/1; for the Loge the share of its holders that won; NaN in a
    game where nobody held it)."""
    win = rec[:, REC.WINNER]
    team_win = (win == WIN.ORDER) | (win == WIN.BROTHERHOOD)
    minority = rec[:, REC.MINORITY]
    if role == "minority":
        return (team_win & (win == minority)).astype(float)
    if role == "majority":
        return (team_win & (win == 1 - minority)).astype(float)
    team = rec[:, REC.TEAM0:REC.TEAM0 + n]
    held = ((rec[:, REC.LOGE_EVER][:, None] >> np.arange(n)[None, :]) & 1) == 1
    won = (team == win[:, None]) & team_win[:, None]
    won |= (win == WIN.SOLO)[:, None] & (np.arange(n)[None, :] == rec[:, REC.SOLO_SEAT][:, None])
    k = held.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(k > 0, (won & held).sum(axis=1) / k, np.nan)


def role_table(plan: TunePlan, values: dict[str, float] | None, told: int | None = None) -> np.ndarray:
    """The seats' parameter rows (float64[10, N_ROLES * N_BPARAM]): the opponents' profile on
    every seat, every seat's role row set to ``values`` (None: the opponents' own row) and
    ``told`` bits (default: the plan's)."""
    cfg = config(plan)
    wide = with_roles(bot_arrays(cfg.bots)[1])
    told = plan.told if told is None else told
    wide[:plan.players, P_TOLD::N_BPARAM] = told
    r = ROLES[plan.role]
    for name, x in (values or {}).items():
        wide[:plan.players, r * N_BPARAM + PARAM_NAMES.index(name)] = x
    return wide


def config(plan: TunePlan) -> GameConfig:
    """The opponents' profile on every seat."""
    return GameConfig(plan.players, item_set=plan.items, bots=(plan.against,) * plan.players)


def spec(plan: TunePlan, values: dict[str, float] | None, seed: int, told: int | None = None) -> np.ndarray:
    """The game spec (``kutsch_sim.spec``) of the role's games with the row ``values``. The
    Loge role: every seat gets the row (:func:`role_table`). A team role: the row and the told
    bits go on the role's side of the table only, seated by side once the teams are dealt (at
    odd N the smaller and the larger team); the other side plays the opponents' profile as it
    is."""
    cfg = config(plan)
    wide = role_table(plan, values, told)
    if plan.role == "loge":
        return cfg.spec(seed, params=wide)
    plain = role_table(plan, None, 0)
    rows = np.stack([plain[0], plain[0]])
    rows[0 if plan.role == "minority" else 1] = wide[0]
    ids = np.full(2, bot_arrays(cfg.bots)[0][0], np.int8)
    return cfg.spec(seed, params=plain, side=(ids, rows))


def play(plan: TunePlan, values: dict[str, float] | None, seed: int, n_games: int,
         advance: Callable[[int], None] | None = None, told: int | None = None) -> np.ndarray:
    """The role's wins (:func:`role_wins`) in games 0 .. n_games-1 of ``seed``, ``values`` in the
    role's row. Team roles: only the seats of the role's team get the row (and the told bits),
    the others play the opponents' profile as it is (:func:`spec`). Else a seat of the
    other team that believed itself in the role would play the row too, and the tuning would
    learn from its mistakes (a Drink of Power declared in the wrong team loses the game, R7),
    not from the role's play. Seating a profile by the deal tells a seat nothing: it still
    decides from its view. The Loge role: every seat gets the row, and a seat reads it exactly
    while it holds the Loge."""
    from ..play import play_batch

    sp = spec(plan, values, seed, told)
    out = []
    for g0 in range(0, n_games, CHUNK):
        k = min(CHUNK, n_games - g0)
        rec = play_batch(sp, g0, k, threads=plan.threads)
        out.append(role_wins(rec, plan.players, plan.role))
        if advance is not None:
            advance(k)
    return np.concatenate(out)


def rate_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% normal interval over the games where ``x`` is defined."""
    x = x[~np.isnan(x)]
    m = float(x.mean()) if len(x) else math.nan
    h = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.nan
    return m, m - h, m + h


# ------------------------------------------------------------------ the study
def open_study(plan: TunePlan):
    """The optuna study of ``plan`` (created, or loaded with --resume after checking it is the same
    tuning). optuna's own logging is kept to warnings."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{plan.study_path}")
    sampler = optuna.samplers.TPESampler(seed=plan.seed % 2**32)
    fresh = not any(s.study_name == "tune" for s in optuna.study.get_all_study_summaries(storage))
    study = optuna.create_study(study_name="tune", storage=storage, sampler=sampler, direction="maximize",
                                load_if_exists=True)
    if fresh:
        study.set_user_attr("plan", plan.key())
        base = dict(zip(PARAM_NAMES, PROFILES[plan.against].params, strict=False))
        study.enqueue_trial({p: min(max(base[p], lo), hi) for p in plan.params
                             for lo, hi in [bounds(plan, p)]})
    elif study.user_attrs.get("plan") != plan.key():
        raise KutschError(f"{plan.study_path} holds another tuning ({json.dumps(study.user_attrs.get('plan'))}); "
                          "give the same options, or another --out")
    return study


def bounds(plan: TunePlan, p: str) -> tuple[float, float]:
    if p in RANGES:
        return RANGES[p]
    base = PROFILES[plan.against].params[PARAM_NAMES.index(p)]
    return 0.0, max(1.0, 3.0 * base)


def finished(study) -> list:
    import optuna

    return [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]


def run_trials(plan: TunePlan, study, advance: Callable[[int], None] | None = None,
               on_trial: Callable[[int, float, float], None] | None = None) -> None:
    """Play the trials still missing (``plan.trials`` minus those finished)."""
    def objective(trial) -> float:
        values = {p: trial.suggest_float(p, *bounds(plan, p)) for p in plan.params}
        return float(np.nanmean(play(plan, values, plan.seed, plan.games, advance)))

    for _ in range(max(0, plan.trials - len(finished(study)))):
        study.optimize(objective, n_trials=1)
        if on_trial is not None:
            done = finished(study)
            on_trial(len(done), done[-1].value, study.best_value)


@dataclass
class Check:
    """The best trial and the baseline, measured again on fresh deals (seed + 1)."""

    games: int
    seed: int
    values: dict
    tuning_rate: float
    baseline: tuple[float, float, float]
    tuned: tuple[float, float, float]
    gain: tuple[float, float, float]  # tuned minus baseline, paired by game
    told_base: tuple[float, float, float] | None = None  # told bracket: told seats, the opponents' row


def check_best(plan: TunePlan, study, advance: Callable[[int], None] | None = None) -> Check:
    best = study.best_trial
    seed = plan.seed + 1
    base = play(plan, None, seed, plan.check_games, advance, told=0)
    tuned = play(plan, best.params, seed, plan.check_games, advance)
    both = ~np.isnan(base) & ~np.isnan(tuned)
    told_base = rate_ci(play(plan, None, seed, plan.check_games, advance)) if plan.told else None
    return Check(plan.check_games, seed, dict(best.params), float(best.value), rate_ci(base), rate_ci(tuned),
                 rate_ci(tuned[both] - base[both]), told_base)


def tuned_profile(plan: TunePlan, values: dict[str, float]) -> Profile:
    prof = PROFILES[plan.against]
    row = list(prof.params)
    for p, x in values.items():
        row[PARAM_NAMES.index(p)] = round(float(x), 4)
    return Profile(prof.bot, prof.params, plan.told, ((ROLES[plan.role], tuple(row)),))


def pct(ci: tuple[float, float, float]) -> str:
    return f"{100 * ci[0]:.2f}% ({100 * ci[1]:.2f} to {100 * ci[2]:.2f})"


def check_lines(plan: TunePlan, c: Check) -> list[str]:
    what = {"minority": "the smaller team wins", "majority": "the larger team wins",
            "loge": "a seat that held the Loge wins"}[plan.role]
    lines = [f"{plan.role} role, {plan.bracket} bracket, {plan.players} players, {plan.items}, against "
             f"{plan.against}: share of games {what}, {c.games:,} fresh games (seed {c.seed}), 95% intervals",
             f"baseline ({plan.against}): {pct(c.baseline)}"]
    if c.told_base is not None:
        lines.append(f"told, {plan.against}'s row: {pct(c.told_base)}")
    lines += [f"tuned: {pct(c.tuned)} (on the tuning deals {100 * c.tuning_rate:.2f}%)",
              f"gain: {100 * c.gain[0]:+.2f} points ({100 * c.gain[1]:+.2f} to {100 * c.gain[2]:+.2f}), paired by game"]
    if plan.bracket == "told":
        lines.append("told: the role's seats are told their team's size, a fact from outside their view: an upper bound")
    return lines


def write_profile(plan: TunePlan, c: Check, trials: int) -> Path:
    from .. import __version__
    from .._jitcache import source_hash

    head = [f"Tuned by kutsch-sim tune (package {__version__}, engine {source_hash()}): {trials} trials "
            f"x {plan.games:,} games, seed {plan.seed}; parameters {','.join(plan.params)}.",
            *check_lines(plan, c),
            f"Select with KUTSCH_SIM_PROFILES={plan.out} kutsch-sim play --bots {plan.name} ..."]
    text = profile_table(plan.name, tuned_profile(plan, c.values), "\n".join(head))
    tmp = plan.out.with_name(plan.out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(plan.out)
    return plan.out
