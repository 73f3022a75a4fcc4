"""R8 Diplomat and Clairvoyant, R2.4 hand-limit give-aways, R3 turn cap (timeout).

Card ids: Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Dagger 8, Gloves 9, Knives 10, Whip 11,
Ring 12, Monocle 13, Privilege 14, Tome 15, Coat 16, Sextant 17, Pearl 18, Mirror 19.
"""

from __future__ import annotations

import pytest

from kutsch_sim.enums import EV, IK, LOC_DECK, OC, OFFER_DIPLOMAT, ORDER, REC, SC, SIDE_NONE, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.run import run

pytestmark = pytest.mark.rules  # the rules scenarios: also run without the JIT (.ci/run)

DIPLO = """
seat 0: Order Diplomat | Key, Dagger
seat 1: Brotherhood Thug | Goblet, Monocle
seat 2: Order Priest | Key, Whip
seat 3: Brotherhood GrandMaster | BagGoblet, Gloves
deck: Tome
"""


def rows(out, *names: str) -> list[tuple]:
    return [(e.name, e.a, e.b, e.c, e.d) for e in out.played() if e.name != "turn" and (not names or e.name in names)]


def test_R8_diplomat_miss_shows_the_hand_and_ends_the_turn() -> None:
    out = run(DIPLO, ["0 diplomat 1 Whip offer Key", "0 pass"], turns=1, strict=False)
    assert rows(out) == [
        ("occ_up", 0, OC.DIPLOMAT, 0, 0),
        ("diplo", 0, 1, IK.WHIP, 0),
        ("diplo_miss", 0, 1, 0, 0),
        ("see_items", 0, 1, (1 << 3) | (1 << 13), 0),
    ]
    assert out.script_used == 4 and out.active == 1  # no action: the turn ended at once
    assert out.knows_card_at(0, 13) == 1 and out.knows_card_at(1, 0) == -1  # the target never saw the offer
    assert out.hand(0) == ["Key", "Dagger"] and out.face_up(0)


def test_R8_diplomat_hit_cannot_be_refused_and_the_turn_goes_on() -> None:
    script = ["0 diplomat 1 Monocle offer Dagger", "1 give-named Monocle", "1 effect yes",
              "0 trade 2 Key", "2 accept", "2 return Whip"]
    out = run(DIPLO, script, turns=1)  # the "first" bot would reject a free trade: none is asked
    assert rows(out) == [
        ("occ_up", 0, OC.DIPLOMAT, 0, 0),
        ("diplo", 0, 1, IK.MONOCLE, 8),
        ("offer", 0, 1, 8, OFFER_DIPLOMAT),  # public: the Diplomat is face up and named it
        ("accept", 0, 1, 8, 13),
        ("announce", 0, 13, 0, 0),  # a normal trade: the Monocle's effect applies
        ("effect", 1, 13, 0, 1),
        ("see_assoc", 1, 0, ORDER, 0),
        ("offer", 0, 2, 0, 0),
        ("accept", 0, 2, 0, 11),
    ]
    assert out.hand(0) == ["Whip", "Monocle"] and out.hand(1) == ["Goblet", "Dagger"]
    # the name was public and there is one Monocle: every seat knows the Diplomat holds it now
    assert all(out.knows_card_at(s, 13) == 0 for s in range(4))
    assert out.knows_card_at(2, 8) == -1  # the Dagger offered face down stays unknown to the others


def test_R8_diplomat_trade_with_a_broken_mirror_has_no_effect() -> None:
    pos = DIPLO.replace("Key, Dagger", "Key, Mirror")
    out = run(pos, ["0 diplomat 1 Monocle offer Mirror", "1 give-named Monocle"], turns=1)
    assert rows(out, "announce", "effect") == [] and out.hand(1) == ["Goblet", "Mirror"]


def test_R8_diplomat_after_the_action_and_only_once() -> None:
    script = ["0 diplomat no", "0 pass", "0 diplomat 1 Monocle offer Dagger", "1 give-named Monocle"]
    out = run(DIPLO, script, turns=1)
    assert [e[0] for e in rows(out)][:3] == ["pass", "occ_up", "diplo"]
    with pytest.raises(KutschError, match="'0 diplomat no' was never used"):
        run(DIPLO, [*script[2:], "0 diplomat no"], turns=5)  # face up: not offered on the next turn


def test_R8_diplomat_bag_named_and_offered_to_the_other_bags_holder() -> None:
    pos = DIPLO.replace("Key, Dagger", "Key, BagKey")
    out = run(pos, ["0 diplomat 3 Secret Bag offer BagKey", "0 pass"], turns=1, strict=False)
    assert rows(out)[1:] == [("diplo", 0, 3, IK.BAG_KEY, 6), ("diplo_bags", 0, 3, 7, 0)]
    assert out.script_used == 4 and out.hand(0) == ["Key", "BagKey"] and out.hand(3) == ["BagGoblet", "Gloves"]
    assert out.knows_card_at(3, 6) == 0  # the target looked at it and handed it back
    assert out.knows_card_at(0, 7) == 3  # ... which it may only do holding the other Bag (003)
    assert out.knows_card_at(1, 7) == -1


def test_R8_diplomat_naming_secret_bag_takes_a_bag_while_the_deck_has_cards() -> None:
    out = run(DIPLO, ["0 diplomat 3 Secret Bag offer Key", "3 give-named BagGoblet", "3 effect yes"], turns=1)
    assert rows(out, "accept", "announce", "draw") == [
        ("accept", 0, 3, 0, 7), ("announce", 0, 7, 0, 0), ("draw", 3, 15, 0, 0)]
    assert out.hand(0) == ["BagGoblet", "Dagger"] and out.hand(3) == ["Key", "Gloves", "Tome"]


def test_R8_diplomat_naming_goblet_takes_a_transformed_bag() -> None:
    pos = DIPLO.replace("deck: Tome", "")
    with pytest.raises(KutschError, match="'0 diplomat 3 Secret Bag offer Key' is not a legal"):
        run(pos, ["0 diplomat 3 Secret Bag offer Key"], turns=1)  # no Secret Bags any more
    out = run(pos, ["0 diplomat 3 Goblet offer Key", "3 give-named BagGoblet"], turns=1)
    assert rows(out, "accept", "announce") == [("accept", 0, 3, 0, 7)]  # a Goblet now: no effect
    assert out.hand(0) == ["BagGoblet", "Dagger"]


CLAIR = """
seat 0: Order Clairvoyant | Key
seat 1: Brotherhood Thug | Goblet
seat 2: Order Priest | Key
seat 3: Brotherhood GrandMaster | Goblet
deck: Tome, Coat, Sextant, Mirror
"""


def test_R8_clairvoyant_puts_two_chosen_cards_on_top() -> None:
    out = run(CLAIR, ["0 clairvoyant yes", "0 pick Mirror", "0 pick Coat"], turns=1)
    assert rows(out)[:2] == [("occ_up", 0, OC.CLAIRVOYANT, 0, 0), ("clair", 0, 19, 16, 4)]
    assert out.deck()[:2] == ["Mirror", "Coat"] and sorted(out.deck()[2:]) == ["Sextant", "Tome"]
    assert all(out.knows_card_at(0, c) == LOC_DECK for c in (15, 16, 17, 19))
    with pytest.raises(KutschError, match="'0 clairvoyant yes' was never used"):  # once only
        run(CLAIR, ["0 clairvoyant yes", "0 pick Mirror", "0 pick Coat", "0 clairvoyant yes"], turns=5)


def test_R8_clairvoyant_ruling_fewer_than_two_cards() -> None:
    out = run(CLAIR.replace("Tome, Coat, Sextant, Mirror", "Tome"), ["0 clairvoyant yes", "0 pick Tome"], turns=1)
    assert rows(out, "clair") == [("clair", 0, 15, -1, 1)] and out.deck() == ["Tome"]
    with pytest.raises(KutschError, match="'0 clairvoyant yes' was never used"):
        run(CLAIR.replace("deck: Tome, Coat, Sextant, Mirror", ""), ["0 clairvoyant yes"], turns=1)


CLAIR_BAG = """
seat 0: Order Clairvoyant | BagKey, Dagger
seat 1: Brotherhood Thug | Goblet
seat 2: Order Priest | Key, Whip, BagGoblet
seat 3: Brotherhood Hypnotist | Goblet
deck: Tome, Coat, Gloves, Mirror
"""


def test_R3_clairvoyant_right_before_the_secret_bags_draw() -> None:
    """R3 (the Clairvoyant "may be used at any point of your own turn"), R8, and seed 000 (it
    combines with a Secret Bag's draw): kept at the turn's start, used after the trade is
    done, right before the Bag's giver draws, so the chosen card is the one drawn."""
    script = ["0 trade 2 BagKey", "2 accept", "2 return Whip", "0 effect yes", "0 clairvoyant yes", "0 pick Gloves",
              "0 pick Mirror"]
    out = run(CLAIR_BAG, script, turns=1)
    assert rows(out, "effect", "occ_up", "clair", "draw") == [
        ("effect", 0, 6, 2, 1), ("occ_up", 0, OC.CLAIRVOYANT, 0, 0), ("clair", 0, 9, 19, 4), ("draw", 0, 9, 0, 1)]
    assert sorted(out.hand(0)) == ["Dagger", "Gloves", "Whip"] and out.deck()[0] == "Mirror"


def test_R3_clairvoyant_before_the_partners_draw_and_at_the_turns_end() -> None:
    """R3: on its holder's turn, also before a card the trading partner draws (the giver of
    a Secret Bag, R9), and at the turn's end; never on another seat's turn."""
    script = ["0 trade 2 Dagger", "2 accept", "2 return BagGoblet", "2 effect yes", "0 clairvoyant yes",
              "0 pick Coat", "0 pick Tome"]
    out = run(CLAIR_BAG, script, turns=1)
    assert rows(out, "clair", "draw") == [("clair", 0, 16, 15, 4), ("draw", 2, 16, 0, 1)]
    out = run(CLAIR_BAG, ["0 pass", "0 clairvoyant yes", "0 pick Mirror", "0 pick Coat"], turns=1)
    assert [e[0] for e in rows(out)] == ["pass", "occ_up", "clair"]
    pos = CLAIR_BAG.replace("Mirror\n", "Mirror\nturn 2\n")
    with pytest.raises(KutschError, match="'0 clairvoyant yes' was never used"):  # seat 2's turn
        run(pos, ["2 trade 0 BagGoblet", "0 accept", "0 return Dagger", "2 effect yes", "0 clairvoyant yes"],
            turns=1)


def test_R8_clairvoyant_knows_where_the_cards_it_put_on_top_go() -> None:
    """R8: the Clairvoyant's seat chose the order of the two cards on top, so when one of them
    is drawn it knows who holds it now (the draw's last field names that seat, plus one); the
    other seats, and the cards shuffled beneath, learn nothing. (Formerly the seat
    went on believing such a card was in the deck.)"""
    from kutsch_sim.engine.items import draw_nb

    script = ["0 trade 2 Dagger", "2 accept", "2 return BagGoblet", "2 effect yes", "0 clairvoyant yes",
              "0 pick Coat", "0 pick Tome"]
    out = run(CLAIR_BAG, script, turns=1)
    assert rows(out, "draw") == [("draw", 2, 16, 0, 1)]
    assert out.knows_card_at(0, 16) == 2 and out.knows_card_at(2, 16) == 2
    assert out.knows_card_at(1, 16) == -1 and out.knows_card_at(3, 16) == -1
    assert out.knows_card_at(0, 15) == LOC_DECK  # the Tome, on top now
    st = out.state
    assert (st.sc[SC.TOP_SEAT], st.sc[SC.TOP_KNOWN]) == (0, 1)
    draw_nb(st, 1, 0)  # the Tome: still known
    assert out.knows_card_at(0, 15) == 1 and out.knows_card_at(3, 15) == -1
    assert st.sc[SC.TOP_SEAT] == -1
    draw_nb(st, 3, 0)  # from the shuffled rest (Gloves, Mirror): seat 0 cannot tell which
    drawn = 9 if st.loc[9] == 3 else 19
    assert out.knows_card_at(0, drawn) == LOC_DECK and out.knows_card_at(3, drawn) == 3
    assert [int(r[5]) for r in st.log[: st.sc[SC.N_EVENTS]] if r[0] == EV.DRAW] == [1, 1, 0]


def test_R3_clairvoyant_right_before_a_ties_draw() -> None:
    """R3, R5.8: the attacker's own Clairvoyant, after the tie and before its draw."""
    out = run(CLAIR_BAG, ["0 attack 1", "0 clairvoyant yes", "0 pick Gloves", "0 pick Tome"], turns=1)
    assert rows(out, "result", "clair", "draw") == [
        ("result", 1, 1, SIDE_NONE, 0), ("clair", 0, 9, 15, 4), ("draw", 0, 9, 1, 1)]


LIMIT = """
seat 0: Order Thug | Key, Key, Dagger, Gloves, Knives, Whip
seat 1: Brotherhood Duelist | Goblet, Goblet, Ring, Monocle, Privilege, Pearl
seat 2: Order Priest | Key
seat 3: Brotherhood GrandMaster | Goblet
deck: Tome
"""


def test_R2_4_give_away_when_a_card_arrives_and_the_chain() -> None:
    out = run(LIMIT, ["0 attack 1", "0 give-away 1 Tome", "1 give-away 2 Pearl"], turns=1)
    assert rows(out)[-4:] == [("draw", 0, 15, 1, 0), ("bags_open", 0, 0, 0, 0), ("give", 0, 1, 15, 0),
                              ("give", 1, 2, 18, 0)]
    assert [len(out.hand(p)) for p in range(4)] == [6, 6, 2, 1]
    assert out.of("announce") == [] and out.knows_card_at(3, 18) == -1  # a gift, not a trade: nothing public


def test_R2_4_the_winner_over_the_limit_gives_away() -> None:
    script = ["0 attack 2", "0 play dagger yes", "0 win items", "0 take Key", "0 give-back Whip"]
    out = run(LIMIT, script, turns=1)  # took one, gave one back: still 6, no give-away
    assert out.of("give") == [] and len(out.hand(0)) == 6
    pos = LIMIT.replace("| Key\n", "| Key, Ring\n").replace("Ring, Monocle", "Mirror, Monocle")
    out = run(pos, ["0 attack 2", "0 play dagger yes", "0 win items", "0 take Ring", "0 give-away 3 Ring"],
              turns=1)
    assert rows(out)[-2:] == [("take", 0, 2, 12, 0), ("give", 0, 3, 12, 0)]
    assert out.hand(3) == ["Goblet", "Ring"]


def test_R2_4_priest_over_the_limit_gives_away() -> None:
    pos = LIMIT.replace("seat 2: Order Priest | Key", "seat 2: Order Hypnotist | Key").replace(
        "Brotherhood Duelist", "Brotherhood Priest").replace("seat 3: Brotherhood GrandMaster | Goblet",
                                                             "seat 3: Brotherhood Duelist | Goblet")
    out = run(pos, ["0 attack 3", "1 priest yes", "0 priest-give Knives", "1 give-away 2 Knives"], turns=1)
    assert rows(out)[-2:] == [("priest", 1, 0, 10, 0), ("give", 1, 2, 10, 0)]
    assert out.hand(2) == ["Key", "Knives"]


def test_R3_ruling_turn_cap_is_a_timeout() -> None:
    out = run(CLAIR + "cap 3", [])
    assert out.winner == "timeout" and out.turns == 3 and out.over
    assert [e.name for e in out.played()][-1] == "timeout" and out.of("timeout")[0].a == 3
    assert out.state.rec[REC.WINNER] == WIN.TIMEOUT and out.state.rec[REC.TURNS] == 3
