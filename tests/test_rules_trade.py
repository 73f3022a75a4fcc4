"""R3 pass, R4 trades and the R9 trade effects, each from a hand-built position.

Card ids (enums): Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Dagger 8, Gloves 9, Knives 10,
Whip 11, Ring 12, Monocle 13, Privilege 14, Tome 15, Coat 16, Sextant 17, Pearl 18, Mirror 19,
Loge 20. Unscripted decisions go to the "first" bot (no / pass / reject / neutral).
"""

from __future__ import annotations

import pytest

from kutsch_sim.enums import BROTHERHOOD, LOC_DECK, OC, OFFER_CARD
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.run import run

pytestmark = pytest.mark.rules  # the rules scenarios: also run without the JIT (.ci/run)

BASE = """
seat 0: Order Thug | Key, Dagger, Monocle
seat 1: Brotherhood Bodyguard | Goblet, Privilege, Gloves
seat 2: Order Hypnotist | Key, Whip
seat 3: Brotherhood GrandMaster | Goblet, Ring
deck: Knives, Tome
"""


def rows(out) -> list[tuple]:
    """Events after the set-up as (name, a, b, c, d), without the TURN markers."""
    return [(e.name, e.a, e.b, e.c, e.d) for e in out.played() if e.name != "turn"]


def test_R3_pass_ends_turn_and_left_neighbour_plays() -> None:
    out = run(BASE, ["0 pass", "1 pass"], turns=2)
    assert rows(out) == [("pass", 0, 0, 0, 0), ("pass", 1, 0, 0, 0)]
    assert out.active == 2 and out.turns == 2 and out.hand(0) == ["Key", "Dagger", "Monocle"]


def test_R4_2_reject_gives_the_item_back_and_ends_the_turn() -> None:
    out = run(BASE, ["0 trade 1 Dagger", "1 reject"], turns=1)
    assert rows(out) == [("offer", 0, 1, 8, 0), ("reject", 0, 1, 8, 0)]
    assert out.hand(0) == ["Key", "Dagger", "Monocle"] and out.hand(1) == ["Goblet", "Gloves", "Privilege"]
    assert out.knows_card_at(1, 8) == 0  # the receiver looked at it
    assert out.knows_card_at(2, 8) == -1  # nothing announced
    assert out.active == 1


def test_R4_3_accept_and_return_another_item_silently() -> None:
    out = run(BASE, ["0 trade 1 Dagger", "1 accept", "1 return Gloves"], turns=1)
    assert rows(out) == [("offer", 0, 1, 8, 0), ("accept", 0, 1, 8, 9)]  # no trade effect: nothing announced
    assert out.hand(0) == ["Key", "Gloves", "Monocle"] and out.hand(1) == ["Goblet", "Dagger", "Privilege"]
    # ruling (information): both traders know both items; nobody else learns anything
    assert out.knows_card_at(0, 9) == 0 and out.knows_card_at(1, 8) == 1 and out.knows_card_at(0, 8) == 1
    assert out.knows_card_at(2, 8) == -1 and out.knows_card_at(3, 9) == -1


def test_R4_3_the_returned_item_must_be_another_one() -> None:
    with pytest.raises(KutschError, match="'1 return Dagger' is not a legal"):
        run(BASE, ["0 trade 1 Dagger", "1 accept", "1 return Dagger"], turns=1)


def test_R4_4_rulebook_example_monocle_for_privilege() -> None:
    """001's example: A gives B a Monocle, B gives back a Privilege. B announces first ("A gave
    me a Monocle") and A looks at B's association; then A announces and B looks at A's items."""
    out = run(BASE, ["0 trade 1 Monocle", "1 accept", "1 return Privilege", "0 effect yes", "1 effect yes"],
              turns=1)
    a_hand = (1 << 0) | (1 << 8) | (1 << 14)  # A now holds Key, Dagger, Privilege
    assert rows(out) == [
        ("offer", 0, 1, 13, 0),
        ("accept", 0, 1, 13, 14),
        ("announce", 1, 13, 0, 0),  # the passive player announces first
        ("announce", 0, 14, 0, 0),
        ("effect", 0, 13, 1, 1),  # the active player executes first
        ("see_assoc", 0, 1, BROTHERHOOD, 0),
        ("effect", 1, 14, 0, 1),
        ("see_items", 1, 0, a_hand, 0),
    ]
    assert out.knows_team(0, 1) == "Brotherhood" and out.knows_team(1, 0) is None
    assert [out.knows_card_at(1, c) for c in (0, 8, 14)] == [0, 0, 0]
    assert out.knows_card_at(2, 13) == 1 and out.knows_card_at(3, 14) == 0  # announced names are public


def test_R4_4_carrying_out_an_effect_is_the_givers_choice() -> None:
    out = run(BASE, ["0 trade 1 Monocle", "1 accept", "1 return Gloves", "0 effect no"], turns=1)
    assert rows(out)[2:] == [("announce", 1, 13, 0, 0), ("effect", 0, 13, 1, 0)]
    assert out.knows_team(0, 1) is None


MIRROR = """
seat 0: Order Thug | Key, Mirror, Monocle
seat 1: Brotherhood Bodyguard | Goblet, Privilege, Gloves
seat 2: Order Hypnotist | Key, Pearl
seat 3: Brotherhood GrandMaster | Goblet, Ring
deck: Knives
"""


def test_R4_5_broken_mirror_cannot_be_rejected_and_silences_the_trade() -> None:
    # the "first" bot would reject: no accept decision is asked at all (a script may write the accept)
    m = MIRROR
    out = run(m, ["0 trade 1 Mirror", "1 return Privilege"], turns=1)
    assert rows(out) == [("offer", 0, 1, 19, OFFER_CARD), ("accept", 0, 1, 19, 14)]  # no announce, no effect
    assert out.hand(1) == ["Goblet", "Gloves", "Mirror"]
    with pytest.raises(KutschError, match=r"'1 reject': the rules force seat 1 to accept here \(R4.5"):
        run(m, ["0 trade 1 Mirror", "1 reject"], turns=1)


def test_R4_5_broken_mirror_given_back_voids_the_other_items_effect() -> None:
    m = MIRROR.replace("Key, Mirror, Monocle", "Key, Dagger, Monocle").replace("Privilege, Gloves", "Privilege, Mirror")
    out = run(m, ["0 trade 1 Monocle", "1 accept", "1 return Mirror"], turns=1)
    assert rows(out) == [("offer", 0, 1, 13, 0), ("accept", 0, 1, 13, 19)]
    assert out.knows_card_at(2, 13) == -1


def test_R4_6_black_pearl_cannot_be_rejected() -> None:
    out = run(MIRROR.replace("deck: Knives", "deck: Knives\nturn 2"), ["2 trade 3 Pearl", "3 return Ring"], turns=1)
    assert rows(out) == [("offer", 2, 3, 18, OFFER_CARD), ("accept", 2, 3, 18, 12)]
    assert out.hand(3) == ["Goblet", "Pearl"] and out.hand(2) == ["Key", "Ring"]


BAGS = """
seat 0: Order Thug | Key, BagKey
seat 1: Brotherhood Bodyguard | BagGoblet
seat 2: Order Hypnotist | Key, Whip
seat 3: Brotherhood GrandMaster | Goblet, Gloves
deck: Knives, Tome
"""


def test_R4_7_bag_for_bag_must_reject() -> None:
    # seat 1's only item is the other Bag: it must reject, even if it would accept (random bots)
    for bots in ("first", "random"):
        out = run(BAGS, ["0 trade 1 BagKey"], turns=1, bots=bots)
        assert rows(out)[:2] == [("offer", 0, 1, 6, 0), ("reject", 0, 1, 6, 1)]  # d = 1: R4.7 forced it
        assert out.hand(1) == ["BagGoblet"]


def test_R4_7_bag_receiver_with_other_items_returns_a_non_bag() -> None:
    b = BAGS.replace("| BagGoblet", "| BagGoblet, Dagger")
    with pytest.raises(KutschError, match="'1 return BagGoblet' is not a legal"):
        run(b, ["0 trade 1 BagKey", "1 accept", "1 return BagGoblet"], turns=1)
    out = run(b, ["0 trade 1 BagKey", "1 accept", "1 return Dagger", "0 effect yes"], turns=1)
    # R9 Secret Bag: announced as "Secret Bag" (content hidden), the giver draws the top card
    assert rows(out)[2:] == [("announce", 1, 6, 0, 0), ("effect", 0, 6, 1, 1), ("draw", 0, 10, 0, 0)]
    assert out.hand(0) == ["Key", "Dagger", "Knives"] and out.deck() == ["Tome"]
    assert out.knows_card_at(2, 6) == -1 and out.knows_card_at(3, 6) == -1  # which Bag: not public


def test_R4_7_bags_trade_freely_once_the_deck_is_empty() -> None:
    b = BAGS.replace("deck: Knives, Tome", "")
    out = run(b, ["0 trade 1 BagKey", "1 accept", "1 return BagGoblet"], turns=1)
    assert rows(out) == [("offer", 0, 1, 6, 0), ("accept", 0, 1, 6, 7)]  # now a Key and a Goblet: no effect
    assert out.hand(0) == ["Key", "BagGoblet"] and out.hand(1) == ["BagKey"]


TOME = """
seat 0: Order Priest up | Key, Tome
seat 1: Brotherhood Doctor up | Goblet, Gloves
seat 2: Order Hypnotist | Key, Whip
seat 3: Brotherhood GrandMaster | Goblet, Ring
"""


def test_R9_tome_swaps_occupations_face_down_and_renews_them() -> None:
    script = ["0 trade 1 Tome", "1 accept", "1 return Gloves", "0 effect yes",
              "1 pass", "2 attack 3", "1 priest yes", "2 priest-give Whip"]
    out = run(TOME, script, turns=3)
    assert ("tome", 0, 1, OC.DOCTOR, OC.PRIEST) in rows(out)
    assert out.occupation(0) == "Doctor" and out.occupation(1) == "Priest"
    # both face down after the swap, so the used Priest acts again for its new holder
    assert ("priest", 1, 2, 11, 0) in rows(out) and out.face_up(1) and not out.face_up(0)
    assert out.hand(1) == ["Goblet", "Whip", "Tome"] and out.hand(2) == ["Key"]
    assert out.knows_occupation(3, 0) == "Doctor"  # everyone saw the (public) cards swap


def test_R9_coat_exchanges_with_the_pile_face_down() -> None:
    c = TOME.replace("Key, Tome", "Key, Coat")
    out = run(c, ["0 trade 1 Coat", "1 accept", "1 return Gloves", "0 effect yes", "0 coat Clairvoyant"],
              turns=1)
    assert rows(out)[-1] == ("coat", 0, OC.PRIEST, OC.CLAIRVOYANT, 0)
    assert out.occupation(0) == "Clairvoyant" and not out.face_up(0)
    assert "Priest" in out.pile() and "Clairvoyant" not in out.pile()
    assert out.knows_occupation(2, 0) is None and out.knows_occupation(0, 0) == "Clairvoyant"


SEXTANT = """
seat 0: Order Thug | Key, Sextant
seat 1: Brotherhood Bodyguard | Goblet, Monocle
seat 2: Order Hypnotist | Whip
seat 3: Brotherhood GrandMaster | Goblet, Ring
"""


def test_R9_sextant_everyone_passes_at_once_and_the_traded_item_still_fires() -> None:
    script = ["0 trade 1 Sextant", "1 accept", "1 return Monocle", "0 effect yes", "0 sextant left",
              "0 pass-on Monocle", "1 pass-on Sextant", "2 pass-on Whip", "3 pass-on Ring", "1 effect yes"]
    out = run(SEXTANT, script, turns=1)
    assert rows(out)[2:] == [
        ("announce", 1, 17, 0, 0),
        ("announce", 0, 13, 0, 0),
        ("effect", 0, 17, 1, 1),  # the active player's Sextant first
        ("sextant", 0, 0, 0, 0),
        ("pass_on", 0, 1, 13, 0),
        ("pass_on", 1, 2, 17, 0),
        ("pass_on", 2, 3, 11, 0),  # seat 2's only item: it receives one at the same moment
        ("pass_on", 3, 0, 12, 0),
        ("effect", 1, 13, 0, 1),  # the Monocle has moved on, its effect still fires (001)
        ("see_assoc", 1, 0, 0, 0),
    ]
    assert [out.hand(p) for p in range(4)] == [["Key", "Ring"], ["Goblet", "Monocle"], ["Sextant"],
                                               ["Goblet", "Whip"]]


def test_R9_sextant_to_the_right() -> None:
    script = ["0 trade 1 Sextant", "1 accept", "1 return Monocle", "0 effect yes", "0 sextant right",
              "0 pass-on Key", "1 pass-on Goblet", "2 pass-on Whip", "3 pass-on Ring"]
    out = run(SEXTANT, script, turns=1)
    assert [e[1:3] for e in rows(out) if e[0] == "pass_on"] == [(0, 3), (1, 0), (2, 1), (3, 2)]
    assert out.hand(2) == ["Ring"] and out.hand(3) == ["Key", "Goblet"]


def test_R9_secret_bag_with_an_empty_deck_has_no_effect_to_announce() -> None:
    b = BAGS.replace("deck: Knives, Tome", "").replace("| BagGoblet", "| Dagger")
    out = run(b, ["0 trade 1 BagKey", "1 accept", "1 return Dagger"], turns=1)
    assert rows(out) == [("offer", 0, 1, 6, 0), ("accept", 0, 1, 6, 8)]
    assert out.knows_card_at(1, 6) == 1 and out.state.loc[6] == 1 and LOC_DECK not in out.state.loc[:21]


def test_R9_R8_coat_a_used_occupation_taken_from_the_pile_is_usable_again() -> None:
    """R8 "once" (re-usable once renewed by a Coat exchange) with R9 Coat: seat 1's Priest is
    used (face up); seat 1 trades the Coat away and puts the Priest in the pile; next turn
    seat 2 (its own card face up too) trades the same Coat on and takes the Priest from the
    pile face down, and then stops seat 3's attack with it."""
    pos = """
    seat 0: Order Doctor | Key, Dagger
    seat 1: Brotherhood Priest up | Goblet, Coat
    seat 2: Order Hypnotist up | Key, Whip
    seat 3: Brotherhood GrandMaster | Goblet, Ring
    turn 1
    """
    script = ["1 trade 2 Coat", "2 accept", "2 return Whip", "1 effect yes", "1 coat Thug",
              "2 trade 3 Coat", "3 accept", "3 return Ring", "2 effect yes", "2 coat Priest",
              "3 attack 0", "2 priest yes", "3 priest-give Goblet"]
    out = run(pos, script[:10], turns=2)
    assert [r for r in rows(out) if r[0] == "coat"] == [
        ("coat", 1, OC.PRIEST, OC.THUG, 0), ("coat", 2, OC.HYPNOTIST, OC.PRIEST, 0)]
    assert out.occupation(2) == "Priest" and not out.face_up(2) and "Priest" not in out.pile()
    out = run(pos, script, turns=3)
    assert [r for r in rows(out) if r[0] in ("attack", "occ_up", "priest", "support", "result")] == [
        ("attack", 3, 0, 0, 0), ("occ_up", 2, OC.PRIEST, 0, 0), ("priest", 2, 3, 4, 0)]
    assert out.face_up(2) and out.hand(2) == ["Key", "Goblet", "Ring"] and out.hand(3) == ["Coat"]
    assert out.occupation(1) == "Thug" and not out.face_up(1) and "Hypnotist" in out.pile()
