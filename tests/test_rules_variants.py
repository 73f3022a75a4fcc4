"""R10 variants, each a rule switch: Smuggling, fortune-telling and the advanced 3-player game.

Card ids (enums): Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Dagger 8, Gloves 9, Knives 10,
Whip 11, Ring 12, Monocle 13, Privilege 14, Tome 15, Coat 16, Sextant 17, Pearl 18, Mirror 19,
Loge 20. Unscripted decisions go to the "first" bot (no / pass / reject / neutral / position 0).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from numba import njit

from kutsch_sim.api import GameConfig, parse_variants, play_game, run_batch, variant_mask
from kutsch_sim.bots.beliefs import A_MAX, N_BINS, deal_counts_nb, make_assignments_nb, refresh_cards_nb
from kutsch_sim.bots.dispatch import bot_choose_nb, start_bots_nb
from kutsch_sim.bots.reasons import reason_row_text
from kutsch_sim.engine.game import action_options_nb, play_turn_nb
from kutsch_sim.engine.state import new_state, new_state_nb
from kutsch_sim.enums import BROTHERHOOD, DEC, DK, EV, ORDER, REC, SC, VAR, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import play_turns, run
from kutsch_sim.play import init_game_var_nb
from kutsch_sim.sim import store
from kutsch_sim.review.trace import format_game


def rows(out) -> list[tuple]:
    """Events after the set-up as (name, a, b, c, d), without the TURN markers."""
    return [(e.name, e.a, e.b, e.c, e.d) for e in out.played() if e.name != "turn"]


# ---------------------------------------------------------------------------- the switches
def test_R10_variant_names_and_the_engine_mask() -> None:
    assert parse_variants("fortune-telling, smuggling") == ("smuggling", "fortune-telling")
    assert parse_variants(["smuggling", "smuggling,base"]) == ("smuggling",)
    assert variant_mask(("smuggling", "advanced-3p")) == VAR.SMUGGLING | VAR.ADV3P
    assert variant_mask(("fortune-telling",)) == VAR.FORTUNE and variant_mask(()) == 0
    with pytest.raises(KutschError, match="unknown variant 'chess'") as err:
        GameConfig(3, variants=("chess",))
    assert "\n" not in str(err.value)
    cfg = GameConfig(6, variants=("fortune-telling", "smuggling"))
    assert cfg.variants == ("smuggling", "fortune-telling") and cfg.variant_label == "smuggling+fortune-telling"
    assert cfg.config_id == GameConfig(6).config_id  # the same streams: variant runs pair with base runs


# ---------------------------------------------------------------------------- Smuggling (R10)
SMUGGLING = """
variant smuggling
seat 0: Order Thug | Key, Dagger, Monocle, BagKey
seat 1: Brotherhood Bodyguard | Goblet, Privilege, Gloves
seat 2: Order Hypnotist | Key, Whip
seat 3: Brotherhood GrandMaster | Goblet, Ring
deck: Knives, Tome
"""


def test_R10_smuggling_the_giver_keeps_its_effect_item_silent() -> None:
    out = run(SMUGGLING, ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 smuggle yes"], turns=1)
    assert rows(out) == [("offer", 0, 1, 13, 0), ("accept", 0, 1, 13, 9), ("smuggle", 0, 1, 13, 0)]
    assert out.hand(1) == ["Goblet", "Monocle", "Privilege"]
    assert out.knows_team(0, 1) is None  # no effect
    # changes hands silently: only the two traders know where the Monocle is
    assert out.knows_card_at(1, 13) == 1 and out.knows_card_at(0, 13) == 1
    assert out.knows_card_at(2, 13) == -1 and out.knows_card_at(3, 13) == -1


def test_R10_smuggling_declined_the_item_is_announced_and_may_be_used() -> None:
    out = run(SMUGGLING, ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 smuggle no", "0 effect yes"],
              turns=1)
    assert rows(out)[2:] == [("announce", 1, 13, 0, 0), ("effect", 0, 13, 1, 1), ("see_assoc", 0, 1, BROTHERHOOD, 0)]
    assert out.knows_card_at(2, 13) == 1


def test_R10_smuggling_the_other_item_in_the_trade_is_unaffected() -> None:
    out = run(SMUGGLING, ["0 trade 1 Monocle", "1 accept", "1 return Privilege", "0 smuggle yes", "1 smuggle no",
                          "1 effect yes"], turns=1)
    a_hand = (1 << 0) | (1 << 6) | (1 << 8) | (1 << 14)
    assert rows(out) == [
        ("offer", 0, 1, 13, 0),
        ("accept", 0, 1, 13, 14),
        ("smuggle", 0, 1, 13, 0),  # the active player decides first
        ("announce", 0, 14, 0, 0),
        ("effect", 1, 14, 0, 1),
        ("see_items", 1, 0, a_hand, 0),
    ]
    assert out.knows_card_at(2, 13) == -1 and out.knows_card_at(2, 14) == 0


def test_R10_smuggling_a_secret_bag_draws_nothing() -> None:
    out = run(SMUGGLING, ["0 trade 1 BagKey", "1 accept", "1 return Gloves", "0 smuggle yes"], turns=1)
    assert [r[0] for r in rows(out)] == ["offer", "accept", "smuggle"]
    assert out.deck() == ["Knives", "Tome"] and out.hand(0) == ["Key", "Dagger", "Gloves", "Monocle"]


def test_R10_smuggling_items_without_effect_and_the_mirror_ask_nothing() -> None:
    with pytest.raises(KutschError, match="'0 smuggle yes' was never used"):
        run(SMUGGLING, ["0 trade 1 Dagger", "1 accept", "1 return Gloves", "0 smuggle yes"], turns=1)
    mirror = SMUGGLING.replace("Goblet, Privilege, Gloves", "Goblet, Mirror, Gloves")
    with pytest.raises(KutschError, match="'0 smuggle yes' was never used"):
        run(mirror, ["0 trade 1 Monocle", "1 accept", "1 return Mirror", "0 smuggle yes"], turns=1)


def test_R10_smuggling_is_off_in_the_base_game() -> None:
    base = SMUGGLING.replace("variant smuggling\n", "")
    with pytest.raises(KutschError, match="'0 smuggle yes' was never used"):
        run(base, ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 smuggle yes"], turns=1)


def _smart_seat0(text: str, script: list[str], knows: bool):
    pos = Position.parse(text)
    st = pos.to_state(script, bots=("smart", "first", "first", "first"))
    start_bots_nb(st, pos.n)
    if knows:
        st.k_assoc[0, 1] = BROTHERHOOD
    play_turns(st, 1)
    return [int(r[0]) for r in st.log[: int(st.sc[SC.N_EVENTS])]]


def test_R10_smuggling_smart_bot_smuggles_a_monocle_when_it_already_knows_the_team() -> None:
    script = ["0 trade 1 Monocle", "1 accept", "1 return Gloves"]
    assert EV.SMUGGLE in _smart_seat0(SMUGGLING, script, knows=True)
    ev = _smart_seat0(SMUGGLING, script, knows=False)  # unknown team: the Monocle is worth announcing
    assert EV.SMUGGLE not in ev and EV.SEE_ASSOC in ev


# ---------------------------------------------------------------------------- fortune-telling (R10)
FORTUNE = """
variant fortune-telling
seat 0: Order Thug | Dagger
seat 1: Brotherhood Doctor | Goblet, Goblet, Gloves
seat 2: Order Priest | Key, Whip
seat 3: Brotherhood Duelist | Goblet, Ring
deck: Monocle
"""


def declared(out) -> tuple[int, int, int, int]:
    (r,) = out.of("decl_result")
    return r.a, r.b, r.c, r.d


def test_R10_fortune_telling_right_the_fortune_tellers_team_wins() -> None:
    out = run(FORTUNE, ["0 declare fortune with 1 3"])
    assert declared(out) == (1, ORDER, 3, (1 << 1) | (1 << 3)) and out.winner == "order"
    assert out.state.sc[SC.DECL_KIND] == DK.FORTUNE and out.state.rec[REC.DECL_KIND] == DK.FORTUNE
    assert out.state.rec[REC.WINNER] == WIN.ORDER and out.state.rec[REC.DECL_OK] == 1
    assert [(e.a, e.b) for e in out.of("see_items")] == [(-1, 1), (-1, 3)]  # the named reveal their items


def test_R10_fortune_telling_the_fortune_teller_needs_no_victory_item() -> None:
    out = run(FORTUNE.replace("seat 0: Order Thug | Dagger", "seat 0: Order Thug | Dagger, Key"),
              ["0 declare fortune with 1 3"])
    assert out.winner == "order"  # and holding one does not hurt (it is not counted)


def test_R10_fortune_telling_naming_a_teammate_fails_the_other_team_wins() -> None:
    pos = FORTUNE.replace("Key, Whip", "Goblet, Whip").replace("Goblet, Ring", "Ring")
    out = run(pos, ["0 declare fortune with 1 2"])
    assert declared(out)[:3] == (0, BROTHERHOOD, 3) and out.winner == "brotherhood"


def test_R10_fortune_telling_too_few_or_a_named_player_without_one_fails() -> None:
    out = run(FORTUNE, ["0 declare fortune with 1"])
    assert declared(out)[:3] == (0, BROTHERHOOD, 2) and out.winner == "brotherhood"
    pos = FORTUNE.replace("Goblet, Goblet, Gloves", "Goblet, Goblet, Goblet").replace("Goblet, Ring", "Ring")
    out = run(pos, ["0 declare fortune with 1 3"])  # seat 3 holds no Goblet: every named must hold one
    assert declared(out)[:3] == (0, BROTHERHOOD, 3) and out.winner == "brotherhood"
    out = run(pos, ["0 declare fortune with 1"])
    assert out.winner == "order"


def test_R10_fortune_telling_counts_their_items_not_ours() -> None:
    pos = FORTUNE.replace("Goblet, Ring", "Key, Ring")  # seat 3 (Brotherhood) holds a Key, not a Goblet
    out = run(pos, ["0 declare fortune with 1 3"])
    assert declared(out)[:3] == (0, BROTHERHOOD, 2)


def test_R10_fortune_telling_a_transformed_bag_counts_once_the_deck_is_empty() -> None:
    pos = FORTUNE.replace("Goblet, Ring", "BagGoblet, Ring")
    assert run(pos, ["0 declare fortune with 1 3"]).winner == "brotherhood"  # still a Bag
    assert run(pos.replace("deck: Monocle", ""), ["0 declare fortune with 1 3"]).winner == "order"


def test_R10_fortune_telling_ruling_no_drink_of_power_counts_for_the_other_team() -> None:
    five = """
    variant fortune-telling
    seat 0: Order Thug | Dagger
    seat 1: Brotherhood Doctor | Goblet, Goblet
    seat 2: Order Priest | Key
    seat 3: Brotherhood Duelist | Ring
    seat 4: Order Bodyguard | Key
    drink
    """
    out = run(five, ["0 declare fortune with 1"])  # the Brotherhood is the minority, with Drinks
    assert out.winner == "brotherhood" and declared(out)[:3] == (0, BROTHERHOOD, 2)
    assert out.state.rec[REC.DRINK_USED] == 0


def test_R10_fortune_telling_ruling_black_pearl_blocks_it_and_the_base_game_has_none() -> None:
    pearl = FORTUNE.replace("seat 0: Order Thug | Dagger", "seat 0: Order Thug | Dagger, Pearl")
    with pytest.raises(KutschError, match="'0 declare fortune with 1 3' is not a legal"):
        run(pearl, ["0 declare fortune with 1 3"])
    with pytest.raises(KutschError, match="'0 declare fortune with 1 3' is not a legal"):
        run(FORTUNE.replace("variant fortune-telling\n", ""), ["0 declare fortune with 1 3"])


# ---------------------------------------------------------------------------- advanced 3-player (R10)
ADV = """
variant advanced-3p
seat 0: OOB Thug | Key, Dagger, Monocle
seat 1: BOB Doctor | Goblet, Gloves
seat 2: BOO Priest | Key, Whip
deck: Knives
"""


def test_R10_advanced_3p_deal_three_cards_each_team_is_the_majority() -> None:
    cfg = GameConfig(3, "basic", ("first",), variants=("advanced-3p",))
    n, in_game, stamped, bots, params = cfg.arrays()
    seen_minority = set()
    for game in range(40):
        st = new_state(4096)
        init_game_var_nb(st, n, in_game, stamped, bots, params, np.uint64(5), cfg.config_id, game, 400, True, 1,
                         VAR.ADV3P)
        cards = st.acard[:3]
        assert ((cards == ORDER) | (cards == BROTHERHOOD)).all() and (st.acard[3:] == -1).all()
        dealt = cards.ravel().tolist() + [int(st.sc[SC.LEFTOVER])]
        assert dealt.count(ORDER) == 5 and dealt.count(BROTHERHOOD) == 5  # all 10 cards, one in the box
        for p in range(3):
            assert st.assoc[p] == (BROTHERHOOD if cards[p].sum() >= 2 else ORDER)
            assert (st.k_acard[p, p] == cards[p]).all() and st.k_assoc[p, p] == st.assoc[p]
            for s in range(3):
                if s != p:
                    assert (st.k_acard[s, p] == -1).all() and st.k_assoc[s, p] == -1
        teams = st.assoc[:3].tolist()
        small = ORDER if teams.count(ORDER) == 1 else BROTHERHOOD
        assert sorted((teams.count(ORDER), teams.count(BROTHERHOOD))) == [1, 2]  # always 2 against 1
        assert st.sc[SC.MINORITY] == small and st.drink[:3].all()  # odd N: Drinks of Power (R7)
        seen_minority.add(small)
        ev = [r for r in st.log[: int(st.sc[SC.N_EVENTS])] if r[0] == EV.ACARDS]
        assert [tuple(r[2:6]) for r in ev] == [(p, *cards[p]) for p in range(3)]
    assert seen_minority == {ORDER, BROTHERHOOD}


def test_R10_advanced_3p_is_three_players_only() -> None:
    with pytest.raises(KutschError, match="3-player game only") as err:
        GameConfig(4, variants=("advanced-3p",))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (ADV.replace("variant advanced-3p\n", ""), "need 'variant advanced-3p'"),
        (ADV.replace("BOO Priest", "OOO Priest"), "only 5 association cards"),
        (ADV.replace("BOO Priest", "Order Priest"), "as its 3 association cards"),
        ("variant advanced-3p\nseat 0: OOB Thug | Key\nseat 1: BOB Doctor | Goblet\nseat 2: BOO Priest | Key\n"
         "seat 3: BOB Duelist | Goblet", "3-player game only"),
    ],
)
def test_R10_advanced_3p_bad_positions(text: str, message: str) -> None:
    with pytest.raises(KutschError, match=message):
        Position.parse(text)


def test_R10_advanced_3p_position_round_trip() -> None:
    pos = Position.parse(ADV)
    assert pos.teams == (ORDER, BROTHERHOOD, ORDER) and pos.acards[1] == (BROTHERHOOD, ORDER, BROTHERHOOD)
    assert Position.parse(pos.to_text()) == pos
    assert Position.from_state(pos.to_state()) == pos


def test_R10_advanced_3p_a_fight_win_shows_one_card_at_the_lookers_choice() -> None:
    out = run(ADV, ["0 attack 1", "0 play dagger yes", "0 win look", "0 see-card 1"], turns=1)
    assert ("see_acard", 0, 1, 1, ORDER) in rows(out)  # seat 1's card 1 is an Order card
    assert ("see_occ", 0, 1, 1, 0) in rows(out)  # and the occupation (the Doctor)
    assert out.knows_team(0, 1) is None  # one card of three: the team is not known
    assert out.state.k_acard[0, 1].tolist() == [-1, ORDER, -1] and out.state.k_acard[2, 1].tolist() == [-1] * 3


def test_R10_advanced_3p_the_monocle_shows_one_card_two_agreeing_cards_tell_the_team() -> None:
    script = ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 effect yes", "0 see-card 0"]
    out = run(ADV, script, turns=1)
    assert ("see_acard", 0, 1, 0, BROTHERHOOD) in rows(out) and out.knows_team(0, 1) is None
    # a second look at another position: two Brotherhood cards, so seat 1 is of the Brotherhood
    out = run(ADV, [*script, "0 attack 1", "0 play dagger yes", "0 win look", "0 see-card 2"], turns=4)
    assert out.state.k_acard[0, 1].tolist() == [BROTHERHOOD, -1, BROTHERHOOD]
    assert out.knows_team(0, 1) == "Brotherhood"


def test_R10_advanced_3p_declarations_follow_the_majority() -> None:
    pos = ADV.replace("Key, Whip", "Key, Key, Whip")
    out = run(pos, ["0 declare team with 2"])  # seat 2 (B, O, O) is of the Order
    assert out.winner == "order"


def _brute_counts(kac: np.ndarray, asg: list[int]) -> list[float]:
    """Deals of 5 Order + 5 Brotherhood cards (3 per seat in order, one in the box) agreeing
    with the seen cards, per team assignment (bit p = seat p is of the Order)."""
    cnt = dict.fromkeys(asg, 0)
    for order_pos in itertools.combinations(range(10), 5):
        cards = [ORDER if i in order_pos else BROTHERHOOD for i in range(10)]
        if any(kac[p, j] >= 0 and kac[p, j] != cards[3 * p + j] for p in range(3) for j in range(3)):
            continue
        a = sum(1 << p for p in range(3) if cards[3 * p:3 * p + 3].count(ORDER) >= 2)
        cnt[a] += 1
    return [float(cnt[a]) for a in asg]


def test_R10_advanced_3p_beliefs_weigh_seen_cards_exactly() -> None:
    asg = np.zeros(A_MAX, np.int32)
    na = make_assignments_nb(3, asg)
    kac = np.full((10, 3), -1, np.int8)
    kac[0] = (ORDER, ORDER, BROTHERHOOD)  # my own cards: I am of the Order
    cnt = np.zeros(A_MAX)
    deal_counts_nb(na, asg, kac, cnt)
    assert cnt[:na].tolist() == _brute_counts(kac, asg[:na].tolist())
    kas = np.full(10, -1, np.int8)
    kas[0] = ORDER
    w, team, minor = np.zeros(A_MAX), np.zeros(10), np.zeros(10)
    ones = np.ones(A_MAX)  # no soft evidence: every factor 1

    def scratch():
        return np.zeros(N_BINS), np.zeros(A_MAX, np.int16), np.full(2, -1, np.int64)

    refresh_cards_nb(3, 0, na, asg, ones, ones, kas, w, team, minor, kac, True, True, *scratch())
    p1_before = team[1]
    kac[1, 0] = ORDER  # I saw one Order card of seat 1
    refresh_cards_nb(3, 0, na, asg, ones, ones, kas, w, team, minor, kac, True, True, *scratch())
    brute = _brute_counts(kac, asg[:na].tolist())
    p1 = sum(c for c, a in zip(brute, asg[:na].tolist(), strict=True) if a & 2) / sum(brute)
    assert team[1] == pytest.approx(p1) and p1_before < team[1] < 1.0  # likelier, not certain
    p_alone = sum(c for c, a in zip(brute, asg[:na].tolist(), strict=True) if a & 1 and a.bit_count() == 1)
    assert minor[0] == pytest.approx(p_alone / sum(brute))
    assert math.isclose(w[:na].sum(), 1.0)
    # the greedy bot (hard evidence only): soft evidence is not read, the cards are
    soft = np.exp(np.random.default_rng(1).normal(size=A_MAX))
    team2, minor2 = np.zeros(10), np.zeros(10)
    refresh_cards_nb(3, 0, na, asg, soft, soft, kas, w, team2, minor2, kac, True, False, *scratch())
    assert team2[1] == pytest.approx(p1) and minor2[0] == pytest.approx(minor[0])
    refresh_cards_nb(3, 0, na, asg, soft, soft, kas, w, team2, minor2, kac, True, True, *scratch())
    assert team2[1] != pytest.approx(p1)  # the smart bot adds it


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize(
    ("players", "variants"),
    [(6, ("smuggling",)), (5, ("fortune-telling",)), (3, ("advanced-3p",)),
     (3, ("smuggling", "fortune-telling", "advanced-3p")), (7, ("smuggling", "fortune-telling"))],
)
@pytest.mark.parametrize("bots", ["random", "smart", "greedy"])
def test_R10_variant_games_keep_every_invariant(players, variants, bots) -> None:
    cfg = GameConfig(players, "full", (bots,), variants=variants)
    rec = run_batch(cfg, 3, 0, 60, debug=True)
    assert (rec[:, REC.ERROR] == 0).all() and (rec[:, REC.WINNER] != WIN.ERROR).all()
    again = run_batch(cfg, 3, 0, 60)
    np.testing.assert_array_equal(rec, again)  # the switches keep games replayable


def test_R10_variant_moments_in_the_trace() -> None:
    """``kutsch-sim play`` shows each variant's moments (found in the first games that have them)."""
    found = {}
    for players, v, key, needle in [
        (6, "smuggling", EV.SMUGGLE, "smuggles the"),
        (6, "fortune-telling", EV.DECLARE, "tells the fortune"),
        (3, "advanced-3p", EV.SEE_ACARD, "association card at position"),
    ]:
        cfg = GameConfig(players, "full", ("smart",), variants=(v,))
        for game in range(1000):  # fortune-telling ends ~1% of smart games: searched, not assumed
            r = play_game(cfg, 1, game, debug=True)
            kinds = r.events[:, 0]
            if key == EV.DECLARE and r.record[REC.DECL_KIND] != DK.FORTUNE:
                continue
            if (kinds == key).any():
                text = format_game(r, reason_row_text)
                assert needle in text and f"variants {v}" in text
                found[v] = game
                break
    assert set(found) == {"smuggling", "fortune-telling", "advanced-3p"}, found


# ---------------------------------------------------------------------------- commands
def test_R10_variants_on_every_command(tmp_path) -> None:
    import pandas as pd
    from typer.testing import CliRunner

    from kutsch_sim.cli.app import app
    from kutsch_sim.sim.study import standard_parts, study_options, variant_parts

    runner = CliRunner()
    res = runner.invoke(app, ["play", "-n", "3", "--variant", "advanced-3p", "--variant", "smuggling", "--bots",
                              "smart", "--debug"])
    assert res.exit_code == 0, res.output
    assert "variants smuggling, advanced-3p" in res.stdout and "association cards (" in res.stdout
    for args, message in [
        (["play", "-n", "4", "--variant", "advanced-3p"], "3-player game only"),
        (["play", "--variant", "chess"], "unknown variant 'chess'"),
        (["simulate", "-n", "3-4", "-g", "5", "--variant", "advanced-3p", "--out", str(tmp_path / "x")],
         "3-player game only"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and message in res.stderr, res.output
    assert not (tmp_path / "x").exists()
    out = tmp_path / "sim"
    res = runner.invoke(app, ["simulate", "-n", "3", "-i", "full", "-g", "30", "--bots", "greedy",
                              "--variant", "fortune-telling,advanced-3p", "--out", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert len(df) == 30 and set(df["variant"]) == {"fortune-telling+advanced-3p"} and (df["error"] == 0).all()
    manifest = store.read_manifest(out)
    assert manifest["rules"]["variant"] == "fortune-telling+advanced-3p"
    assert manifest["options"]["variants"] == ["fortune-telling", "advanced-3p"]
    assert "--variant fortune-telling,advanced-3p" in manifest["command"]
    # the study adds one part per variant, beside the standard parts
    opts = study_options(games="5", out=tmp_path / "study", variants="all")
    names = [p.name for p, _ in opts.runs]
    assert names == [p.name for p in standard_parts()] + [p.name for p in variant_parts(VARIANTS_ALL)]
    extra = {p.name: (p, o) for p, o in opts.runs if p.variants}
    assert extra["variant-smuggling"][0].players == tuple(range(3, 11))
    assert extra["variant-advanced-3p"][0].players == (3,)
    assert all(o.variants == p.variants and all(c.variants == p.variants for c in o.configs())
               for p, o in extra.values())
    assert opts.configurations == sum(p.configurations for p in standard_parts()) + 8 + 8 + 2


VARIANTS_ALL = ("smuggling", "fortune-telling", "advanced-3p")


# ---------------------------------------------------------------------------- bots see only their view
@njit(cache=True)
def adv_prefix_nb(in_game, stamped, bots, bparams, config_id, game, turns):
    """An advanced 3-player game played for ``turns`` turns (or to its end)."""
    buf = new_state_nb(0, np.zeros((0, 3), np.int32))
    st = buf[0]
    init_game_var_nb(st, 3, in_game, stamped, bots, bparams, np.uint64(7), config_id, game, 400, True, 0,
                     VAR.ADV3P)
    t = 0
    while st.sc[SC.OVER] == 0 and t < turns:
        play_turn_nb(st)
        st.sc[SC.TURN] += 1
        if st.sc[SC.OVER] == 0:
            st.sc[SC.ACTIVE] = (st.sc[SC.ACTIVE] + 1) % 3
        t += 1
    return buf


@njit(cache=True)
def adv_action_nb(st, seat):
    k = action_options_nb(st, seat)
    st.dctx[0] = seat
    return bot_choose_nb(st, seat, DEC.ACTION, k)
