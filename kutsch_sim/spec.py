"""The game spec: one record holding everything the kernels need to deal and play the games
of one configuration. :meth:`kutsch_sim.api.GameConfig.spec` builds it once; every kernel
takes it in place of a dozen arguments, and the rules (``engine.state.setup_nb``) and the
seating of the bots (``play.init_game_nb``) read their fields from it by name.

field        shape, dtype            meaning
-----------  ----------------------  ------------------------------------------------------
n            int64                   players (R2)
seed         uint64                  master seed; with config_id and the game index it keys
                                     each game's own random stream (``rng.seed_stream_nb``)
config_id    int64                   the configuration's stream id (``GameConfig.config_id``)
turn_cap     int64                   turns before a game is called a timeout
drink_on     bool                    the Drink of Power in play (R7; ``--no-drink`` clears it)
debug        int64                   1: check the invariants after every step
variants     int64                   the rule variants' bits and the house rules' fields
                                     (``rules_table.variant_mask``, R10)
in_game      int8[N_CARDS]           1: the card is in this game (the item set at N, R2.3)
stamped      int8[N_CARDS]           1: a stamped card (R5)
bots         int8[MAX_PLAYERS]       bot id of each seat
bparams      float64[MAX_PLAYERS, W] each seat's parameter rows side by side: base,
                                     minority, majority, Loge (``bots.params.ROLE_*``)
by_side      bool                    seat the profiles by side of the table once the teams
                                     are dealt (pure-team games; ``play.init_game_nb``)
side_bots    int8[2]                 with by_side: the bot of each side -- the Order's and the
                                     Brotherhood's at even N, the smaller and the larger
                                     team's at odd N (R2.2)
side_params  float64[2, W]           with by_side: each side's parameter rows

W = N_ROLES * N_BPARAM. A profile without role rows has every role row equal to its base row,
which the bots play exactly as a base row alone (``bots.dispatch.seat_one_nb``).
"""

from __future__ import annotations

import numpy as np

from .bots.params import N_BPARAM, N_ROLES
from .bots.profiles import with_roles
from .enums import MAX_PLAYERS, N_CARDS

W = N_ROLES * N_BPARAM

SPEC_DT = np.dtype([
    ("n", np.int64),
    ("seed", np.uint64),
    ("config_id", np.int64),
    ("turn_cap", np.int64),
    ("debug", np.int64),
    ("variants", np.int64),
    ("drink_on", np.bool_),
    ("by_side", np.bool_),
    ("in_game", np.int8, (N_CARDS,)),  # numba has no bool arrays inside records: 0/1
    ("stamped", np.int8, (N_CARDS,)),
    ("bots", np.int8, (MAX_PLAYERS,)),
    ("side_bots", np.int8, (2,)),
    ("bparams", np.float64, (MAX_PLAYERS, W)),
    ("side_params", np.float64, (2, W)),
], align=True)


def new_spec(n: int, in_game, stamped, bots, bparams, *, seed: int, config_id: int, turn_cap: int, drink: bool,
             variants: int, debug: bool = False, side: tuple | None = None) -> np.ndarray:
    """A one-element array of :data:`SPEC_DT` (the kernels take the array, the functions inside
    them its record). ``bparams``: float64[MAX_PLAYERS, N_BPARAM] or [MAX_PLAYERS, W];
    ``side``: (bot ids int8[2], parameter rows float64[2, N_BPARAM or W]) to seat the profiles
    by side of the table."""
    spec = np.zeros(1, SPEC_DT)
    s = spec[0]
    s["n"] = n
    s["seed"] = np.uint64(seed)
    s["config_id"] = config_id
    s["turn_cap"] = turn_cap
    s["drink_on"] = bool(drink)
    s["debug"] = 1 if debug else 0
    s["variants"] = variants
    s["in_game"] = np.asarray(in_game, np.bool_)  # (0/1)
    s["stamped"] = np.asarray(stamped, np.bool_)
    s["bots"] = np.asarray(bots, np.int8)
    s["bparams"] = with_roles(np.asarray(bparams, np.float64))
    if side is not None:
        s["by_side"] = True
        s["side_bots"] = np.asarray(side[0], np.int8)
        s["side_params"] = with_roles(np.asarray(side[1], np.float64))
    return spec

