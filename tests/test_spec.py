"""The game spec (``kutsch_sim.spec``): the one record every kernel takes, built by GameConfig."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from kutsch_sim.api import GameConfig
from kutsch_sim.bots.params import BOT_SEARCH, N_BPARAM, N_ROLES, P_TOLD
from kutsch_sim.bots.profiles import bot_arrays
from kutsch_sim.cards import cards_in_game, parse_item_set, stamped_cards
from kutsch_sim.errors import KutschError
from kutsch_sim.spec import SPEC_DT, W

pytestmark = pytest.mark.apart  # compiles nothing


def test_the_spec_holds_the_configuration():
    cfg = GameConfig(5, "full", ("smart", "greedy", "smart", "smart", "greedy"), drink=False, turn_cap=77,
                     variants=("smuggling", "team-items=4"))
    sp = cfg.spec(123)[0]
    assert sp["n"] == 5 and sp["seed"] == 123 and sp["config_id"] == cfg.config_id and sp["turn_cap"] == 77
    assert not sp["drink_on"] and sp["debug"] == 0 and sp["variants"] == cfg.variant_bits and not sp["by_side"]
    assert np.array_equal(sp["in_game"] == 1, cards_in_game(parse_item_set("full"), 5, **cfg.deal))
    assert np.array_equal(sp["stamped"] == 1, np.array(stamped_cards()))
    bots, par = bot_arrays(cfg.bots)
    assert np.array_equal(sp["bots"], bots)
    for r in range(N_ROLES):  # a profile without role rows: every role row is its base row
        assert np.array_equal(sp["bparams"][:, r * N_BPARAM:(r + 1) * N_BPARAM], par[:, :N_BPARAM])
    assert cfg.spec(1, debug=True)[0]["debug"] == 1
    assert cfg.spec(1, config_id=42)[0]["config_id"] == 42


def test_the_spec_takes_parameter_rows_and_profiles_by_side():
    cfg = GameConfig(6, "basic", ("smart",))
    par = bot_arrays(cfg.bots)[1]
    par[2, P_TOLD] = 3
    assert cfg.spec(1, params=par)[0]["bparams"][2, P_TOLD] == 3
    ids = np.array([BOT_SEARCH, bot_arrays(("greedy",))[0][0]], np.int8)
    rows = np.zeros((2, N_BPARAM))
    rows[1, 0] = 0.25
    sp = cfg.spec(1, side=(ids, rows))[0]
    assert sp["by_side"] and np.array_equal(sp["side_bots"], ids)
    assert sp["side_params"].shape == (2, W) and sp["side_params"][1, 0] == sp["side_params"][1, N_BPARAM] == 0.25


def test_a_search_profile_on_a_side_chooses_the_searching_kernels():
    from kutsch_sim.play import play_games_nb, play_one_nb
    from kutsch_sim.search.games import batch_kernel, play_search_games_nb, play_search_one_nb, traced_kernel

    cfg = GameConfig(6, "basic", ("smart",))
    assert batch_kernel(cfg.spec(1)) is play_games_nb and traced_kernel(cfg.spec(1)) is play_one_nb
    ids = np.array([bot_arrays(("smart",))[0][0], BOT_SEARCH], np.int8)
    side = cfg.spec(1, side=(ids, np.zeros((2, N_BPARAM))))
    assert batch_kernel(side) is play_search_games_nb and traced_kernel(side) is play_search_one_nb
    assert batch_kernel(GameConfig(6, "basic", ("search-s",)).spec(1)) is play_search_games_nb


def test_a_bad_seed_is_refused():
    with pytest.raises(KutschError, match="seed"):
        GameConfig(4).spec(-1)


def test_every_kernel_takes_the_spec_first():
    """The kernels called from Python take the spec, and nothing of what it holds besides."""
    from kutsch_sim.calib.record import claims_games_nb, record_claims
    from kutsch_sim.play import play_batch, play_games_nb, play_one_nb, rollouts_nb
    from kutsch_sim.search.games import play_search_games_nb, play_search_one_nb

    held = set(SPEC_DT.names) | {"in_game", "stamped", "bots", "bparams", "seed", "config_id", "turn_cap"}
    for k in (play_games_nb, play_one_nb, rollouts_nb, play_search_games_nb, play_search_one_nb, claims_games_nb,
              play_batch, record_claims):
        names = list(inspect.signature(getattr(k, "py_func", k)).parameters)
        assert names[0] == "spec" and not set(names[1:]) & held, (k.__name__, names)
