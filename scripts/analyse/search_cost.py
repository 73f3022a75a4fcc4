"""What a search decision costs: the same deals played with every seat on a search profile and
with every seat on ``smart``, one thread, alternated; the difference divided by the turns the
searching games played is the time of one search decision (its look-ahead), the turn's own
play apart.

    python scripts/analyse/search_cost.py --players 6 --items full --bots search-s,search-m,search-l
    python scripts/analyse/search_cost.py --bots "search-m24:search_depth=1"

A profile may change parameters after a colon, as in ``duel.py`` (``name:param=value``; several
such profiles are separated by ``;`` then).

Prints, per profile, the median of ``--repeats`` runs: ms per decision, s per game, and the
minutes a 2,000-game cell takes on two threads (half the one-thread time); then the
look-ahead's own counters over the same deals (``search.lookahead.S_*``): rollouts a decision,
against those of its first look (candidates x ``search_samples``), and the shares of
decisions whose pick was judged again on fresh worlds and taken.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numba
import numpy as np

from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.engine.state import as_record, new_state
from kutsch_sim.enums import REC
from kutsch_sim.play import init_game_nb
from kutsch_sim.search.games import work_states_nb
from kutsch_sim.search.lookahead import (MAX_WIDTH, S_AGAIN, S_DECISIONS, S_FULL, S_ROLLOUTS, S_TAKEN, STATS,
                                         WINS_LEN, play_searching_nb)

from duel import profile


def timed(cfg: GameConfig, seed: int, games: int) -> tuple[float, np.ndarray]:
    t = time.perf_counter()
    rec = run_batch(cfg, seed, 0, games)
    return time.perf_counter() - t, rec


def counters(cfg: GameConfig, seed: int, games: int) -> dict[str, float]:
    """The look-ahead's counters summed over games 0 .. games-1 of ``cfg`` (the deals run_batch plays)."""
    sp = as_record(cfg.spec(seed))
    work = [as_record(b) for b in work_states_nb()]
    cand = np.zeros(MAX_WIDTH, np.int64)
    wins = np.zeros(WINS_LEN, np.float64)
    for g in range(games):
        st = new_state(0)
        init_game_nb(st, sp, g)
        play_searching_nb(st, *work, cand, wins)
    c = {k: float(wins[STATS + i]) for k, i in (("decisions", S_DECISIONS), ("rollouts", S_ROLLOUTS),
                                                 ("full", S_FULL), ("again", S_AGAIN), ("taken", S_TAKEN))}
    d = max(c["decisions"], 1.0)
    return {"decisions": c["decisions"], "rollouts_per_decision": c["rollouts"] / d,
            "full_first_look_per_decision": c["full"] / d, "judged_again": c["again"] / d, "taken": c["taken"] / d}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--items", default="full")
    ap.add_argument("--bots", default="search-s,search-m,search-l")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    numba.set_num_threads(1)
    n = args.players
    base = GameConfig(n, args.items, ("smart",))
    run_batch(base, args.seed, 0, 1)  # compile
    out = {}
    # profiles with overrides ("search-m24:search_depth=1,...") hold commas: then ";" separates them
    for name in args.bots.split(";" if ";" in args.bots else ","):
        cfg = GameConfig(n, args.items, (profile(name),))
        run_batch(cfg, args.seed, 0, 1)  # compile
        per_dec, per_game = [], []
        for _ in range(args.repeats):
            t_base, _ = timed(base, args.seed, args.games)
            t_search, rec = timed(cfg, args.seed, args.games)
            turns = int(rec[:, REC.TURNS].sum())
            per_dec.append(1e3 * (t_search - t_base) / turns)
            per_game.append(t_search / args.games)
        ms = statistics.median(per_dec)
        s = statistics.median(per_game)
        out[name] = {"players": n, "items": args.items, "games": args.games, "repeats": args.repeats,
                     "ms_per_decision": ms, "s_per_game": s, "minutes_per_2000_on_2_threads": s * 2000 / 2 / 60,
                     "turns_per_game": float(rec[:, REC.TURNS].mean())}
        print(f"{name}: {ms:.1f} ms a decision (median of {args.repeats}, {args.games} games of {n} players, "
              f"{args.items}, one thread), {s:.2f} s a game, {out[name]['turns_per_game']:.1f} turns a game; "
              f"a 2,000-game cell on 2 threads: {out[name]['minutes_per_2000_on_2_threads']:.1f} min")
        c = out[name]["counters"] = counters(cfg, args.seed, args.games)
        print(f"  {c['rollouts_per_decision']:.1f} rollouts a decision over {c['decisions']:.0f} decisions (the "
              f"first look: {c['full_first_look_per_decision']:.1f}); judged again "
              f"{100 * c['judged_again']:.1f}%, picks taken {100 * c['taken']:.1f}%")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
