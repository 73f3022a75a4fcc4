"""One bot profile against another, on the same deals.

    python scripts/analyse/duel.py --a smart --b smart-v1 --players 4,6,8 --items basic,basic+Loge
    python scripts/analyse/duel.py --a "smart:wait_value=0.3" --b smart --players 6 --games 20000

A profile is a name from ``data/bots.csv``, optionally with parameters changed after a colon
(``name:param=value,param=value``; the names of ``bots/params.py``).

Two tables per configuration, both from the same deals (seed, configuration, game index):

* **Pure-team games**: every seat of one team plays A and every seat of the other plays B
  (the play layer seats the profiles by side after the deal, ``kutsch_sim.spec``), and each
  deal is played twice, A on either side: the Order and the Brotherhood at even N, the
  smaller and the larger team at odd N. A's win rate is the mean
  over games of the share of A's seats that win (all of them for their team's win, one for
  a solo win, which its teammates lose, R6.5), with a 95% interval over deals (the two games
  of a deal are one paired sample); A's share is that against B's.
* **All A against all B** (``--paired``): every seat A, then every seat B, on the same
  deals; what each does to the balance figures (Loge solo wins, the smaller team's wins,
  the Drink of Power, wrong declarations, timeouts, length), with 95% intervals of the
  paired differences.

Two profiles measured against the same B on the same deals are compared deal by deal:
``--deals FILE`` keeps each pure-team deal's outcome (a Parquet file: players, items, deal,
A's and B's wins, with A, B, the seed and the deal count in its metadata), and ``--against
FILE`` sets this run's A against the A of such a file, same B, seed, counts and item sets:
the difference of A's share of decided games, deal by deal (deals decided in both runs), with
its 95% interval. So ``--a search-m --b smart --deals m.parquet`` then ``--a search-m24 --b
smart --against m.parquet`` says how far apart the two are, not only each against ``smart``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from kutsch_sim.api import GameConfig
from kutsch_sim.bots import profiles
from kutsch_sim.bots.params import PARAM_NAMES
from kutsch_sim.enums import MAX_PLAYERS, REC, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.play import play_batch
from kutsch_sim.search.games import batch_kernel

from _paired import mean_ci, write_json

def profile(spec: str) -> str:
    """Register ``name:param=value,...`` as a profile of its own and return its key."""
    name, _, changes = spec.partition(":")
    name = name.strip().lower()
    profiles.read_user_profiles()  # the tables of KUTSCH_SIM_PROFILES too
    if name not in profiles.PROFILES:
        raise KutschError(f"unknown profile {name!r}")
    if not changes:
        return name
    prof = profiles.PROFILES[name]
    par = list(prof.params)
    for item in changes.split(","):
        key, _, val = item.partition("=")
        key = key.strip()
        if key not in PARAM_NAMES:
            raise KutschError(f"unknown parameter {key!r}; valid: {', '.join(PARAM_NAMES)}")
        par[PARAM_NAMES.index(key)] = float(val)
    profiles.PROFILES[spec] = prof._replace(params=tuple(par))
    return spec


def fmt(ci: tuple[float, float, float], scale: float = 100.0, sign: bool = False) -> str:
    m, lo, hi = (scale * v for v in ci)
    s = "+" if sign else ""
    return f"{m:{s}.1f} ({lo:{s}.1f} to {hi:{s}.1f})"


def by_side(cfg: GameConfig, first: str, second: str, seed: int, games: int) -> np.ndarray:
    """Records of ``games`` deals with the seats of one side of the table playing ``first`` and
    the other's ``second`` (the spec's side rows, ``kutsch_sim.spec``: the Order and the
    Brotherhood at even N, the smaller and the larger team at odd N)."""
    rows = [profiles.bot_arrays((name,)) for name in (first, second)]
    ids = np.array([b[0] for b, _ in rows], np.int8)
    par = np.stack([profiles.with_roles(p)[0] for _, p in rows])
    spec = cfg.spec(seed, side=(ids, par))
    return play_batch(spec, 0, games, kernel=batch_kernel(spec))


def side_team(rec: np.ndarray, side: int) -> np.ndarray:
    """Per game, the team (0 Order, 1 Brotherhood) of side ``side`` of :func:`by_side`."""
    small = rec[:, REC.MINORITY]
    return np.where(small < 0, side, small if side == 0 else 1 - small)


def side_won(rec: np.ndarray, team: np.ndarray) -> np.ndarray:
    """Per game, the share of the seats of ``team`` (per game: 0 Order, 1 Brotherhood) that won:
    all of them when their team's declaration won, one of them for a solo win by one of its
    seats (R6.5: the others lose with everybody else)."""
    win = rec[:, REC.WINNER]
    solo = rec[:, REC.SOLO_SEAT]
    teams = rec[:, REC.TEAM0:REC.TEAM0 + MAX_PLAYERS]
    size = (teams == team[:, None]).sum(axis=1)
    own = (win == np.where(team == 0, WIN.ORDER, WIN.BROTHERHOOD)).astype(float)
    seat_team = np.take_along_axis(teams, np.maximum(solo, 0)[:, None], 1)[:, 0]
    own += ((win == WIN.SOLO) & (seat_team == team)) / np.maximum(size, 1)
    return own


def pure_team(cfg: GameConfig, a: str, b: str, seed: int, games: int) -> dict:
    r1 = by_side(cfg, a, b, seed, games)  # A on the first side (the Order, or the smaller team)
    r2 = by_side(cfg, b, a, seed, games)  # A on the second, the same deals
    a1, b1 = side_won(r1, side_team(r1, 0)), side_won(r1, side_team(r1, 1))
    b2, a2 = side_won(r2, side_team(r2, 0)), side_won(r2, side_team(r2, 1))
    wa, wb = 0.5 * (a1 + a2), 0.5 * (b1 + b2)
    share = wa / np.maximum(wa + wb, 1e-9)
    decided = (wa + wb) > 0
    out = {"deals": games, "a_wins": mean_ci(wa), "b_wins": mean_ci(wb), "a_share": mean_ci(share[decided]),
           "per_deal": (wa, wb)}
    if cfg.players % 2:  # at odd N the first side is the smaller team
        out["a_small"] = mean_ci(a1)
        out["b_small"] = mean_ci(b2)
        # the same deals with A and with B as the smaller team (and as the larger): paired
        out["small_diff"] = mean_ci(a1 - b2)
        out["large_diff"] = mean_ci(a2 - b1)
    return out


def save_deals(path: str, a: str, b: str, seed: int, games: int, rows: list[tuple[int, str, np.ndarray, np.ndarray]]) -> None:
    """Each pure-team deal's outcome, ``rows`` (players, items, A's wins, B's wins), to ``path``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols: dict[str, list] = {"players": [], "items": [], "deal": [], "a_wins": [], "b_wins": []}
    for n, items, wa, wb in rows:
        cols["players"] += [n] * len(wa)
        cols["items"] += [items] * len(wa)
        cols["deal"] += list(range(len(wa)))
        cols["a_wins"] += list(wa)
        cols["b_wins"] += list(wb)
    meta = {"a": a, "b": b, "seed": str(seed), "games": str(games)}
    table = pa.table(cols).replace_schema_metadata(meta)
    pq.write_table(table, path)


def load_deals(path: str, b: str, seed: int, games: int, configs: list[tuple[int, str]]) -> tuple[str, dict]:
    """The A and the per-deal (A's wins, B's wins) of each configuration of a :func:`save_deals`
    file, checked to be the same B, seed, deal count and configurations as this run's."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as e:
        raise KutschError(f"cannot read {path}: {e}") from None
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    if not {"a", "b", "seed", "games"} <= meta.keys():
        raise KutschError(f"{path} is not a file of duel.py --deals")
    if (meta["b"], int(meta["seed"]), int(meta["games"])) != (b, seed, games):
        raise KutschError(f"{path} has B {meta['b']}, seed {meta['seed']}, {meta['games']} deals; this run B {b}, "
                          f"seed {seed}, {games} deals: not the same deals")
    df = table.to_pandas()
    out = {}
    for n, items in configs:
        part = df[(df["players"] == n) & (df["items"] == items)].sort_values("deal")
        if len(part) != games:
            raise KutschError(f"{path} has no {games} deals of {n} players, {items}")
        out[(n, items)] = (part["a_wins"].to_numpy(), part["b_wins"].to_numpy())
    return meta["a"], out


def share_diff(here: tuple[np.ndarray, np.ndarray], there: tuple[np.ndarray, np.ndarray]) -> tuple[float, float, float]:
    """A's share of the decided games here minus there, deal by deal, over the deals decided in
    both (each deal's share is A's wins over A's and B's, both seatings pooled)."""
    (wa, wb), (va, vb) = here, there
    both = ((wa + wb) > 0) & ((va + vb) > 0)
    return mean_ci(wa[both] / (wa[both] + wb[both]) - va[both] / (va[both] + vb[both]))


def balance(rec: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game indicators of the balance figures."""
    win = rec[:, REC.WINNER]
    decl = rec[:, REC.DECLARER] >= 0
    small = rec[:, REC.MINORITY]
    return {
        "loge_solo": (win == WIN.SOLO).astype(float),
        "order_wins": (win == WIN.ORDER).astype(float),
        "smaller_team_wins": ((win == WIN.ORDER) & (small == 0) | (win == WIN.BROTHERHOOD) & (small == 1)).astype(float),
        "drink_used": (rec[:, REC.DRINK_USED] == 1).astype(float),
        "wrong_declaration": (decl & (rec[:, REC.DECL_OK] == 0)).astype(float),
        "timeout": (win == WIN.TIMEOUT).astype(float),
        "turns": rec[:, REC.TURNS].astype(float),
    }


def all_against_all(cfg: GameConfig, a: str, b: str, seed: int, games: int) -> dict:
    specs = [GameConfig(cfg.players, cfg.item_set, (x,), cfg.drink).spec(seed, config_id=cfg.config_id)
             for x in (a, b)]
    ra, rb = (play_batch(sp, 0, games, kernel=batch_kernel(sp)) for sp in specs)
    ba, bb = balance(ra), balance(rb)
    return {k: {"a": mean_ci(ba[k]), "b": mean_ci(bb[k]), "diff": mean_ci(ba[k] - bb[k])} for k in ba}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="profile A, e.g. smart or 'smart:wait_value=0.3'")
    ap.add_argument("--b", default="smart-v1", help="profile B")
    ap.add_argument("--players", default="6", help="comma-separated counts")
    ap.add_argument("--items", default="basic", help="comma-separated item sets")
    ap.add_argument("--games", type=int, default=20_000, help="deals per configuration")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--paired", action="store_true", help="also all A against all B on the same deals")
    ap.add_argument("--paired-only", action="store_true", help="only all A against all B")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--deals", help="keep each pure-team deal's outcome in this Parquet file")
    ap.add_argument("--against", help="a --deals file of another A against the same B on the same deals: "
                                      "this A's share against that one's, deal by deal")
    args = ap.parse_args(argv)
    try:
        a, b = profile(args.a), profile(args.b)
        counts = [int(x) for x in args.players.split(",")]
        cfgs = [GameConfig(n, items, ("smart",)) for n in counts for items in args.items.split(",")]
        if (args.deals or args.against) and args.paired_only:
            raise KutschError("--deals and --against need the pure-team games (not --paired-only)")
        other, there = (load_deals(args.against, b, args.seed, args.games, [(c.players, c.item_set) for c in cfgs])
                        if args.against else (None, {}))
    except (KutschError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    res, per_deal = {}, {}
    print(f"A = {a}, B = {b}; {args.games:,} deals a configuration, seed {args.seed}\n")
    print("| players | items | A's seats win (pure-team games, both seatings) | A's share of decided games |"
          " A as the smaller team | B as the smaller team | A - B as the smaller team, paired |"
          " A - B as the larger team, paired |")
    print("|---:|---|---|---|---|---|---|---|")
    for cfg in [] if args.paired_only else cfgs:
        r = pure_team(cfg, a, b, args.seed, args.games)
        small = (fmt(r["a_small"]), fmt(r["b_small"]), fmt(r["small_diff"], sign=True),
                 fmt(r["large_diff"], sign=True)) if "a_small" in r else ("", "", "", "")
        print(f"| {cfg.players} | {cfg.item_set} | {fmt(r['a_wins'])} | {fmt(r['a_share'])} | " + " | ".join(small)
              + " |", flush=True)
        per_deal[(cfg.players, cfg.item_set)] = r.pop("per_deal")
        res[f"{cfg.players} {cfg.item_set} pure"] = r
    if args.deals and per_deal:
        save_deals(args.deals, a, b, args.seed, args.games, [(n, it, *v) for (n, it), v in per_deal.items()])
    if there and per_deal:
        print(f"\n| players | items | A's share of decided games, {a} minus {other}, paired over the same deals |")
        print("|---:|---|---|")
        for key, here in per_deal.items():
            d = share_diff(here, there[key])
            print(f"| {key[0]} | {key[1]} | {fmt(d, sign=True)} |", flush=True)
            res[f"{key[0]} {key[1]} against"] = {"other": other, "share_diff": d}
    if args.paired or args.paired_only:
        print("\n| players | items | figure | all A | all B | A - B |")
        print("|---:|---|---|---|---|---|")
        for cfg in cfgs:
            r = all_against_all(cfg, a, b, args.seed, args.games)
            for k, v in r.items():
                sc = 1.0 if k == "turns" else 100.0
                print(f"| {cfg.players} | {cfg.item_set} | {k} | {fmt(v['a'], sc)} | {fmt(v['b'], sc)} | "
                      f"{fmt(v['diff'], sc, sign=True)} |", flush=True)
            res[f"{cfg.players} {cfg.item_set} all"] = r
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
