"""R10 variants, each a rule switch: the switches themselves, Smuggling and fortune-telling.

Card ids (enums): Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Dagger 8, Gloves 9, Knives 10,
Whip 11, Ring 12, Monocle 13, Privilege 14, Tome 15, Coat 16, Sextant 17, Pearl 18, Mirror 19,
Loge 20. Unscripted decisions go to the "first" bot (no / pass / reject / neutral / position 0).

The advanced 3-player game: tests/test_rules_variants_adv3p.py; the variants in whole games,
the trace, the commands, the report and the bench: tests/test_rules_variants_runs.py.
"""

from __future__ import annotations

import pytest

from kutsch_sim.api import GameConfig, parse_variants, variant_mask
from kutsch_sim.bots.dispatch import start_bots_nb
from kutsch_sim.enums import BROTHERHOOD, DK, EV, ORDER, REC, SC, VAR, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import play_turns, run

from _helpers_variants import rows


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

