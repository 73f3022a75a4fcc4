"""``kutsch-sim balance``: search the rule table for settings that meet a balance target.

Per player count, in this order (everything lands in ``--out`` as it finishes, so an
interrupted search resumes with nothing lost):

1. **Single changes, all of them.** Every row of the rule table that can be played at the
   count, at every value other than the base rules', plays ``games`` deals of ``seed``; each
   is compared with the base rules on the same deals (:mod:`kutsch_sim.sim.balance`).
2. **Pairs.** The pairs of the four best single changes first, then optuna's TPE sampler
   (seeded) proposes pairs of rows and their values for ``trials`` trials in all. The
   objective is the distance to the target, in points, plus half a point for the second
   change (a pair must do better than its parts to be preferred), plus the distance by which
   it breaks each side condition (``--keep``, e.g. ``loge<=30``). A setting proposed again
   is not played again. The trials live in an SQLite study per count (``study-Np.db``).
3. **Fresh deals.** The ``check`` best settings are played again, with the base rules, on
   ``check_games`` fresh deals (``seed + 1``): the winner's curse of picking the best of many
   noisy trials does not reach these figures. Here the side effects are measured too.
4. **A stronger rung.** The same settings and the base rules with ``strong`` bots on every
   seat (``seed + 2``, ``strong_games`` deals): does the change still meet the target
   when the players are stronger (:func:`.balance.verdict`)?

Records of steps 3 and 4 are kept in ``records/`` (one ``.npy`` a setting); the report is
written from the study and those records (:mod:`kutsch_sim.report.balance`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..api import RULES_VERSION, check_seed
from ..bots.profiles import check_bots
from ..cards import canonical_item_set
from ..errors import KutschError
from . import balance as B
from .options import parse_count, parse_players, parse_threads

MANIFEST = "balance.json"
PAIR_PENALTY = 0.5  # points the objective adds for a second change
SEEDS = 4  # best single changes whose pairs are tried first
Advance = Callable[[int], None]


@dataclass(frozen=True)
class BalancePlan:
    players: tuple[int, ...]
    items: str
    bots: str
    target: B.Target
    keep: tuple[B.Target, ...]
    games: int
    trials: int
    seed: int
    check: int
    check_games: int
    strong: str  # "" for none
    strong_games: int
    threads: int | None
    out: Path
    resume: bool

    def study_path(self, n: int) -> Path:
        return self.out / f"study-{n}p.db"

    def key(self) -> dict:
        """What a stored search must match to be resumed: everything that decides its games."""
        from .._jitcache import source_hash

        d = asdict(self)
        for k in ("threads", "out", "resume"):
            d.pop(k)
        d["players"] = list(self.players)
        d["target"] = asdict(self.target)
        if self.keep:  # (absent when empty, as in the stores written before side conditions existed)
            d["keep"] = [asdict(k) for k in self.keep]
        else:
            d.pop("keep")
        d["engine"] = source_hash()
        d["rules_version"] = RULES_VERSION
        return d

    def singles(self, n: int) -> list[B.Setting]:
        return [((k, v),) for k, vals in B.choices(n, self.items).items() for v in vals]


def balance_plan(*, players: str, items: str, bots: str, target: str | None, tolerance: float = 3.0,
                 keep: str | None = None,
                 games: str | int = 5000, trials: str | int = 40, seed: str | int = 1, check: str | int = 3,
                 check_games: str | int = 20000, strong: str | None = "search-s", strong_games: str | int = 1000,
                 threads: str | int | None = None, out: str | Path | None = None,
                 resume: bool = False) -> BalancePlan:
    """Check every option (a one-line :class:`KutschError` on the first bad one); writes nothing."""
    tgt = B.parse_target(target, tolerance)
    kp = B.parse_keep(keep, tgt)
    counts = parse_players(players)
    items = canonical_item_set(items)
    (bots,) = check_bots((str(bots).strip(),))
    strong = (strong or "").strip()
    if strong.lower() in ("", "none"):
        strong = ""
    else:
        (strong,) = check_bots((strong,))
    for n in counts:
        B.config(n, items, bots, ())  # the count, the item set and the bots at that count
        for t in (tgt, *kp):
            B.check_quantity(t, n, items)
        if not B.choices(n, items):
            raise KutschError(f"--players {n}: no rule of the table can be changed at {n} players")
    g = parse_count(games, "--games", 100, 10**7)
    t = parse_count(trials, "--trials", 0, 10_000)
    c = parse_count(check, "--check", 1, 20)
    cg = parse_count(check_games, "--check-games", 100, 10**8)
    sg = parse_count(strong_games, "--strong-games", 10, 10**6)
    if out is None or not str(out).strip():
        raise KutschError("--out DIR is required: the search, its records and its report are written there")
    path = Path(out).expanduser().absolute()
    if path.exists() and not path.is_dir():
        raise KutschError(f"--out {path} exists and is not a directory")
    if path.is_dir() and any(path.iterdir()):
        if not (path / MANIFEST).is_file():
            raise KutschError(f"--out {path} is not empty and holds no balance search ({MANIFEST} missing)")
        if not resume:
            raise KutschError(f"--out {path} holds a balance search already: add --resume to continue it")
    else:
        base = path.parent
        while not base.exists() and base != base.parent:
            base = base.parent
        if not base.is_dir() or not os.access(base, os.W_OK | os.X_OK):
            raise KutschError(f"--out {path}: cannot create it, {base} is not a writable directory")
    plan = BalancePlan(counts, items, bots, tgt, kp, g, t, check_seed(int(parse_count(seed, "--seed", 0, 2**63 - 1))),
                       c, cg, strong, sg, parse_threads(threads), path, bool(resume))
    if resume and (path / MANIFEST).is_file():
        stored = json.loads((path / MANIFEST).read_text(encoding="utf-8")).get("plan")
        if stored != json.loads(json.dumps(plan.key())):
            raise KutschError(f"{path} holds another balance search ({MANIFEST}); give the same options, "
                              "or another --out")
    return plan


def start(plan: BalancePlan, command: str) -> None:
    """Create ``--out`` and its manifest (kept as it is on --resume)."""
    plan.out.mkdir(parents=True, exist_ok=True)
    (plan.out / "records").mkdir(exist_ok=True)
    m = plan.out / MANIFEST
    if not m.is_file():
        tmp = m.with_suffix(".tmp")
        tmp.write_text(json.dumps({"plan": plan.key(), "command": command}, indent=1), encoding="utf-8")
        tmp.replace(m)


def total_games(plan: BalancePlan) -> int:
    per = sum(len(plan.singles(n)) + plan.trials + 1 for n in plan.players) * plan.games
    return per + len(plan.players) * (plan.check + 1) * (plan.check_games + (plan.strong_games if plan.strong else 0))


# ------------------------------------------------------------------ the study of one count
def open_study(plan: BalancePlan, n: int):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{plan.study_path(n)}")
    sampler = optuna.samplers.TPESampler(seed=(plan.seed + n) % 2**32)
    fresh = not any(s.study_name == "balance" for s in optuna.study.get_all_study_summaries(storage))
    study = optuna.create_study(study_name="balance", storage=storage, sampler=sampler, direction="minimize",
                                load_if_exists=True)
    if fresh:
        for s in plan.singles(n):
            (k, v), = s
            study.enqueue_trial({"a": k, "b": k, k: v})
    for t in study.trials:  # a trial a killed run left running: failed, and queued again if it was queued
        if t.state == optuna.trial.TrialState.RUNNING:
            storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
            if "fixed_params" in t.system_attrs:
                study.enqueue_trial(t.system_attrs["fixed_params"])
    return study


def done_trials(study) -> list:
    import optuna

    return [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]


def _seen(study) -> dict[str, float]:
    return {t.user_attrs["change"]: t.value for t in done_trials(study) if "change" in t.user_attrs}


def measure(plan: BalancePlan, n: int, setting: B.Setting, base: np.ndarray, base_id: int,
            advance: Advance | None) -> dict:
    """Play a setting on the search deals; its figures as a study trial's attributes."""
    try:
        cfg = B.config(n, plan.items, plan.bots, setting)
    except KutschError as e:
        return {"change": B.label(setting), "knobs": len(setting), "invalid": str(e), "objective": 1e6}
    rec = B.play(cfg, plan.seed, plan.games, base_id, advance)
    x, lo, hi = B.estimate(rec, n, plan.target.quantity)
    d, dlo, dhi = B.paired(rec, base, n, plan.target.quantity)
    side = {k.quantity: B.estimate(rec, n, k.quantity)[0] for k in plan.keep}
    obj = plan.target.distance(x) + PAIR_PENALTY * (len(setting) - 1) + sum(
        k.distance(side[k.quantity]) for k in plan.keep) if not math.isnan(x) else 1e6
    return {"change": B.label(setting), "knobs": len(setting), "value": x, "lo": lo, "hi": hi, "delta": d,
            "delta_lo": dlo, "delta_hi": dhi, "objective": obj, **{f"keep_{q}": v for q, v in side.items()}}


def search_count(plan: BalancePlan, n: int, advance: Advance | None = None,
                 on_trial: Callable[[int, int, str, float], None] | None = None) -> None:
    """Steps 1 and 2 for one count: the single changes, then the pairs, up to the plan's trials."""
    values = B.choices(n, plan.items)
    names = list(values)
    base_cfg = B.config(n, plan.items, plan.bots, ())
    base = B.play(base_cfg, plan.seed, plan.games, base_cfg.config_id, advance)
    study = open_study(plan, n)
    if "base" not in study.user_attrs:
        study.set_user_attr("base", list(B.estimate(base, n, plan.target.quantity)))
    n_single = len(plan.singles(n))
    total = n_single + plan.trials

    def objective(trial) -> float:
        a = trial.suggest_categorical("a", names)
        b = trial.suggest_categorical("b", names)
        pick = {a: trial.suggest_categorical(a, list(values[a]))}
        if b != a:
            pick[b] = trial.suggest_categorical(b, list(values[b]))
        setting = B.canonical(pick.items())
        seen = _seen(study)
        if B.label(setting) in seen:  # proposed again: the figure is in the study already
            trial.set_user_attr("repeat", B.label(setting))
            return seen[B.label(setting)]
        attrs = measure(plan, n, setting, base, base_cfg.config_id, advance)
        for k, v in attrs.items():
            trial.set_user_attr(k, v)
        return attrs["objective"]

    while len(done_trials(study)) < total:
        k = len(done_trials(study))
        if k >= n_single and not study.user_attrs.get("pairs_queued"):
            best = sorted((t for t in done_trials(study) if t.user_attrs.get("knobs") == 1
                           and "invalid" not in t.user_attrs), key=lambda t: t.value)
            top, used = [], set()
            for t in best:
                name = t.params["a"]
                if name not in used:
                    used.add(name)
                    top.append((name, t.params[name]))
                if len(top) == SEEDS:
                    break
            for i in range(len(top)):
                for j in range(i + 1, len(top)):
                    study.enqueue_trial({"a": top[i][0], "b": top[j][0], top[i][0]: top[i][1], top[j][0]: top[j][1]})
            study.set_user_attr("pairs_queued", True)
        study.optimize(objective, n_trials=1)
        if on_trial is not None:
            last = done_trials(study)[-1]
            on_trial(len(done_trials(study)), total, last.user_attrs.get("change", last.user_attrs.get("repeat", "")),
                     float(last.value))


def trials_table(plan: BalancePlan, n: int) -> list[dict]:
    """Every setting the search measured at ``n`` players (repeats left out)."""
    if not plan.study_path(n).is_file():
        return []
    study = open_study(plan, n)
    x, lo, hi = study.user_attrs.get("base", (math.nan,) * 3)
    rows = [{"players": n, "trial": -1, "change": "base", "knobs": 0, "value": x, "lo": lo, "hi": hi, "delta": 0.0,
             "delta_lo": 0.0, "delta_hi": 0.0, "objective": plan.target.distance(x)}]
    for t in done_trials(study):
        a = t.user_attrs
        if "change" in a:
            row = {"players": n, "trial": t.number, **a}
            if a["knobs"] == 1:  # the rule's value under the base rules, where the plot puts the base figure
                row["default"] = B.default_value(B.BY_NAME[t.params["a"]], n)
            rows.append(row)
    return rows


def best_settings(plan: BalancePlan, n: int) -> list[str]:
    """The labels of the ``check`` best valid settings, best first."""
    rows = [r for r in trials_table(plan, n) if "invalid" not in r]
    rows.sort(key=lambda r: (r["objective"], r["knobs"], r["change"]))
    return [r["change"] for r in rows[:plan.check]]


def parse_label(text: str) -> B.Setting:
    if text == "base":
        return ()
    return B.canonical((t.split("=")[0], int(t.split("=")[1])) if "=" in t else (t, 1) for t in text.split("+"))


# ------------------------------------------------------------------ fresh deals and the stronger rung
def records(plan: BalancePlan, n: int, label: str, bots: str, seed: int, games: int,
            advance: Advance | None = None) -> np.ndarray:
    """The records of a setting on ``games`` deals of ``seed`` with ``bots`` on every seat, on the
    base rules' streams; kept in ``records/`` and read from there on --resume."""
    path = plan.out / "records" / f"{n}p-{bots}-{seed}-{games}-{label}.npy"
    if path.is_file():
        if advance is not None:
            advance(games)
        return np.load(path)
    base_cfg = B.config(n, plan.items, bots, ())
    rec = B.play(B.config(n, plan.items, bots, parse_label(label)), seed, games, base_cfg.config_id, advance)
    tmp = path.with_name(path.name + ".tmp.npy")
    np.save(tmp, rec)
    tmp.replace(path)
    return rec


def check_count(plan: BalancePlan, n: int, advance: Advance | None = None) -> list[dict]:
    """Steps 3 and 4 for one count: a row per checked setting (the base rules first)."""
    q = plan.target.quantity
    labels = best_settings(plan, n)
    s1, s2 = plan.seed + 1, plan.seed + 2
    base = records(plan, n, "base", plan.bots, s1, plan.check_games, advance)
    strong_base = records(plan, n, "base", plan.strong, s2, plan.strong_games, advance) if plan.strong else None
    rows = []
    for lab in ["base", *labels]:
        rec = base if lab == "base" else records(plan, n, lab, plan.bots, s1, plan.check_games, advance)
        after = B.estimate(rec, n, q)
        row = {"players": n, "change": lab, "knobs": 0 if lab == "base" else lab.count("+") + 1,
               "target": plan.target.text, "bots": plan.bots, "games": len(rec), "seed": s1}
        row |= _ci("before", B.estimate(base, n, q)) | _ci("after", after) | _ci("delta", B.paired(rec, base, n, q))
        row["kept"] = B.kept(plan.keep, {k.quantity: B.estimate(rec, n, k.quantity)[0] for k in plan.keep})
        row["meets"] = B.meets(plan.target, after) and row["kept"]
        for side in B.SIDE_EFFECTS:
            if side != q:
                row |= _ci(f"{side}_after", B.estimate(rec, n, side))
                row[f"{side}_before"] = B.estimate(base, n, side)[0]
        row["occupation_spread_before"] = B.occupation_spread(base, n)
        row["occupation_spread_after"] = B.occupation_spread(rec, n)
        if plan.strong:
            srec = strong_base if lab == "base" else records(plan, n, lab, plan.strong, s2, plan.strong_games, advance)
            sa = B.estimate(srec, n, q)
            row |= {"strong": plan.strong, "strong_games": len(srec)} | _ci("strong_before", B.estimate(
                strong_base, n, q)) | _ci("strong_after", sa) | _ci("strong_delta", B.paired(srec, strong_base, n, q))
            row["strong_verdict"] = B.verdict(plan.target, sa, len(srec))
            if not B.kept(plan.keep, {k.quantity: B.estimate(srec, n, k.quantity)[0] for k in plan.keep}):
                row["strong_verdict"] += ", breaks " + " and ".join(k.text for k in plan.keep)
        rows.append(row)
    best = B.pick(rows, plan.target)
    for row in rows:  # the change this count's answer names (the report reads it)
        row["answer"] = best is not None and row["change"] == best["change"]
    return rows


def _ci(name: str, ci: tuple[float, float, float]) -> dict:
    return {name: ci[0], f"{name}_lo": ci[1], f"{name}_hi": ci[2]}


# ------------------------------------------------------------------ the report
def write_report(plan: BalancePlan, rows: list[dict]) -> Path:
    """The report section and its CSVs (:mod:`kutsch_sim.report.balance`) from the checked rows
    and the studies; returns ``balance.html``."""
    import pandas as pd

    from ..report.balance import write_balance_report

    cols = ["players", "trial", "change", "knobs", "value", "lo", "hi", "delta", "delta_lo", "delta_hi", "objective",
            "default", "invalid"]
    trials = pd.DataFrame([r for n in plan.players for r in trials_table(plan, n)])
    trials = trials.reindex(columns=cols + [f"keep_{k.quantity}" for k in plan.keep])
    stored = json.loads((plan.out / MANIFEST).read_text(encoding="utf-8"))
    text = plan.target.text + "".join(f", keeping {k.text}" for k in plan.keep)
    return write_balance_report(plan.out, pd.DataFrame(rows), trials, stored["plan"], text,
                                plan.target.quantity, plan.target.region(), stored.get("command"))


def summary_lines(plan: BalancePlan, rows: list[dict]) -> list[str]:
    """A line per count: the change its answer names (:func:`.balance.pick`), before -> after, and
    at the stronger rung."""
    out = []
    q = plan.target.quantity
    for n in plan.players:
        mine = [r for r in rows if r["players"] == n]
        base = next(r for r in mine if r["change"] == "base")
        best = B.pick(mine, plan.target)
        head = f"{n} players: base rules {q} {base['before']:.1f}" + (" (meets the target)" if base["meets"] else "")
        if best is None:
            out.append(f"{head}; no change could be measured")
            continue
        met = "meets" if best["meets"] else "nearest, does not meet"
        line = (f"{head}; {best['change']}: {best['after']:.1f} ({best['after_lo']:.1f} to {best['after_hi']:.1f}), "
                f"{met} {plan.target.text}")
        if plan.strong:
            line += (f"; at {plan.strong} {best['strong_before']:.1f} -> {best['strong_after']:.1f} "
                     f"({best['strong_after_lo']:.1f} to {best['strong_after_hi']:.1f}): {best['strong_verdict']}")
        out.append(line)
    return out
