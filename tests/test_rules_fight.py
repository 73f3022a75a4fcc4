"""R5 fights with the fight occupations (R8) and fight items (R9), from hand-built positions.

Card ids: Key 0-2, Goblet 3-5, Dagger 8, Gloves 9, Knives 10, Whip 11, Ring 12, Monocle 13,
Privilege 14. Fight bonuses are offered in the ruling's order (Dagger, Gloves, Thug, Grand
Master, then each supporter in seat order: Casting Knives, Whip, Bodyguard; then Duelist),
so a script answers them in that order. Unscripted decisions: "first" bot (no / neutral).
"""

from __future__ import annotations

import pytest

from kutsch_sim.enums import OC, ORDER, SIDE_ATT, SIDE_DEF, SRC
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.run import run

pytestmark = pytest.mark.rules  # the rules scenarios: also run without the JIT (.ci/run)

BASE = """
seat 0: Order Thug | Key, Dagger
seat 1: Brotherhood GrandMaster | Goblet, Gloves
seat 2: Order Bodyguard | Key, Knives
seat 3: Brotherhood Hypnotist | Goblet, Whip
seat 4: Order Clairvoyant | Key, Ring
deck: Monocle, Privilege
"""


def rows(out, *names: str) -> list[tuple]:
    """Events after the set-up as (name, a, b, c, d); only ``names`` if given."""
    return [(e.name, e.a, e.b, e.c, e.d) for e in out.played() if e.name != "turn" and (not names or e.name in names)]


def result(out) -> tuple[int, int, int]:
    (r,) = out.of("result")
    return r.a, r.b, r.c


def test_R5_1_one_symbol_each_tie_and_the_attacker_draws() -> None:
    out = run(BASE, ["0 attack 1"], turns=1)
    assert rows(out) == [("attack", 0, 1, 0, 0), ("result", 1, 1, 0, 0), ("draw", 0, 13, 1, 0)]
    assert out.hand(0) == ["Key", "Dagger", "Monocle"] and out.deck() == ["Privilege"] and out.active == 1


def test_R5_8_tie_with_an_empty_deck_does_nothing() -> None:
    out = run(BASE.replace("deck: Monocle, Privilege", ""), ["0 attack 1"], turns=1)
    assert rows(out) == [("attack", 0, 1, 0, 0), ("result", 1, 1, 0, 0)]
    assert out.hand(0) == ["Key", "Dagger"]


def test_R5_3_supports_clockwise_from_the_attackers_left() -> None:
    script = ["2 attack 0", "3 support attacker", "4 support defender", "1 support attacker"]
    out = run(BASE + "turn 2", script, turns=1)
    assert rows(out, "support", "result") == [
        ("support", 3, SIDE_ATT, 0, 0), ("support", 4, SIDE_DEF, 0, 0), ("support", 1, SIDE_ATT, 0, 0),
        ("result", 3, 2, SIDE_ATT, 0),
    ]
    # R5.8 (a) by default ("first" bot): the winner looks at association and occupation
    assert rows(out)[-3:] == [("look", 2, 0, 0, 0), ("see_assoc", 2, 0, ORDER, 0), ("see_occ", 2, 0, OC.THUG, 0)]
    assert out.knows_team(2, 0) == "Order" and out.knows_occupation(2, 0) == "Thug"


def test_R5_5_every_fixed_bonus_in_the_rulings_order() -> None:
    script = ["0 attack 1", "2 support attacker", "3 support defender", "4 support attacker",
              "0 play dagger yes", "1 play gloves yes", "0 play thug yes", "1 play grand master yes",
              "2 play knives yes", "2 play bodyguard yes", "3 play whip yes", "0 win items", "0 take Gloves"]
    out = run(BASE, script, turns=1)
    assert rows(out, "bonus") == [
        ("bonus", 0, SRC.DAGGER, SIDE_ATT, 1), ("bonus", 1, SRC.GLOVES, SIDE_DEF, 1),
        ("bonus", 0, SRC.THUG, SIDE_ATT, 1), ("bonus", 1, SRC.GRAND_MASTER, SIDE_DEF, 1),
        ("bonus", 2, SRC.KNIVES, SIDE_ATT, 1), ("bonus", 2, SRC.BODYGUARD, SIDE_ATT, 1),
        ("bonus", 3, SRC.WHIP, SIDE_DEF, 1),
    ]
    assert result(out) == (7, 5, SIDE_ATT)
    assert out.face_up(0) and out.face_up(1) and out.face_up(2)  # occupations used stay face up (R5.5)
    assert out.knows_card_at(4, 8) == 0 and out.knows_card_at(4, 11) == 3  # items used are shown
    # R5.8 (b): look at all the loser's items and take one
    assert rows(out)[-3:] == [("look", 0, 1, 1, 0), ("see_items", 0, 1, (1 << 3) | (1 << 9), 0),
                              ("take", 0, 1, 9, 0)]
    assert out.hand(0) == ["Key", "Dagger", "Gloves"] and out.hand(1) == ["Goblet"]


@pytest.mark.parametrize(
    ("bonus", "position", "script", "strengths"),
    [
        ("Dagger", BASE, ["0 attack 1", "0 play dagger yes"], (2, 1, SIDE_ATT)),
        ("Gloves", BASE, ["0 attack 1", "1 play gloves yes"], (1, 2, SIDE_DEF)),
        ("Thug", BASE, ["0 attack 1", "0 play dagger no", "0 play thug yes"], (2, 1, SIDE_ATT)),
        ("GrandMaster", BASE, ["0 attack 1", "1 play gloves no", "1 play grand master yes"], (1, 2, SIDE_DEF)),
        ("Knives", BASE, ["0 attack 1", "2 support attacker", "2 play knives yes"], (3, 1, SIDE_ATT)),
        ("Whip", BASE, ["0 attack 1", "3 support defender", "3 play whip yes"], (1, 3, SIDE_DEF)),
        ("Bodyguard", BASE, ["0 attack 1", "2 support defender", "2 play bodyguard yes"], (1, 3, SIDE_DEF)),
    ],
)
def test_R9_R8_fight_bonus_adds_one(bonus: str, position: str, script: list[str], strengths: tuple) -> None:
    out = run(position, script, turns=1)
    assert result(out) == strengths, bonus
    assert len(out.of("bonus")) == 1


def test_R5_ruling_bonuses_only_in_the_role_the_card_names() -> None:
    """Dagger as defender, Gloves/Thug/Bodyguard as attacker, Knives for the defender's side,
    Whip for the attacker's side, Grand Master as attacker: none is offered."""
    pos = """
    seat 0: Order Bodyguard | Key, Gloves
    seat 1: Brotherhood Thug | Goblet, Dagger
    seat 2: Order Hypnotist | Key, Whip
    seat 3: Brotherhood GrandMaster | Goblet, Knives
    """
    script = ["0 attack 1", "2 support attacker", "3 support defender", "0 play yes", "1 play yes", "2 play yes",
              "3 play yes"]
    out = run(pos, script, turns=1, strict=False)
    assert out.script_used == 3 and out.of("bonus") == [] and result(out) == (2, 2, 0)
    pos2 = pos.replace("seat 0: Order Bodyguard", "seat 0: Order GrandMaster").replace(
        "seat 3: Brotherhood GrandMaster", "seat 3: Brotherhood Bodyguard")
    out = run(pos2, ["0 attack 1", "0 play yes", "3 play yes"], turns=1, strict=False)
    assert out.script_used == 1 and out.of("bonus") == []  # Grand Master only as defender


def test_R8_priest_stops_the_fight_before_supports() -> None:
    pos = BASE.replace("Order Clairvoyant", "Order Priest")
    out = run(pos, ["0 attack 1", "4 priest yes", "0 priest-give Dagger", "2 support attacker"], turns=1,
              strict=False)
    assert rows(out) == [("attack", 0, 1, 0, 0), ("occ_up", 4, OC.PRIEST, 0, 0), ("priest", 4, 0, 8, 0)]
    assert out.script_used == 3  # no support was asked
    assert out.hand(4) == ["Key", "Dagger", "Ring"] and out.hand(0) == ["Key"] and out.active == 1
    assert out.face_up(4) and out.knows_occupation(2, 4) == "Priest"


def test_R8_priest_gets_nothing_from_an_attacker_with_one_item() -> None:
    pos = BASE.replace("Order Clairvoyant", "Order Priest").replace("Key, Dagger", "Dagger")
    out = run(pos, ["0 attack 1", "4 priest yes"], turns=1)
    assert out.of("priest")[0][2:] == (4, 0, -1, 0) and out.hand(0) == ["Dagger"]


def test_R8_priest_ruling_usable_by_the_defender_not_by_the_attacker() -> None:
    pos = BASE.replace("Order Clairvoyant", "Order Priest")
    out = run(pos, ["0 attack 4", "4 priest yes", "0 priest-give Key"], turns=1)
    assert out.of("priest")[0][2:] == (4, 0, 0, 0) and out.of("result") == []
    with pytest.raises(KutschError, match="'4 priest yes' was never used"):
        run(pos + "turn 4", ["4 attack 0", "4 priest yes"], turns=1)


def test_R8_hypnotist_voids_one_support_and_its_support_cards() -> None:
    script = ["3 attack 0", "4 support defender", "1 support attacker", "2 support defender", "3 hypnotize 2",
              "2 play bodyguard yes"]
    out = run(BASE + "turn 3", script, turns=1, strict=False)
    assert rows(out, "hypno", "void", "bonus", "result") == [
        ("hypno", 3, 2, 0, 0), ("void", 2, SIDE_DEF, 0, 0), ("result", 2, 2, 0, 0)]
    assert out.script_used == 5 and out.face_up(3)  # the Bodyguard was never offered


def test_R8_hypnotist_ruling_a_hypnotised_poison_mixer_still_decides() -> None:
    pos = BASE.replace("Order Bodyguard", "Order PoisonMixer")
    script = ["3 attack 0", "2 support defender", "3 hypnotize 2", "2 mixer attacker"]
    out = run(pos + "turn 3", script, turns=1)
    assert rows(out, "void", "mixer", "result") == [
        ("void", 2, SIDE_DEF, 0, 0), ("mixer", 2, SIDE_ATT, 0, 0), ("result", 1, 1, SIDE_ATT, 0)]
    assert out.face_up(2) and out.face_up(3)


RING = """
seat 0: Order Thug | Key, {a}
seat 1: Brotherhood GrandMaster | Goblet, {d}
seat 2: Order Bodyguard | Key, Knives
seat 3: Brotherhood Hypnotist | Goblet, Whip
seat 4: Order Clairvoyant | Key
deck: Monocle, Privilege
"""


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_R9_poison_ring_wins_a_tie(side: str) -> None:
    seat, won = (0, SIDE_ATT) if side == "attacker" else (1, SIDE_DEF)
    pos = RING.format(a="Ring", d="Gloves") if side == "attacker" else RING.format(a="Dagger", d="Ring")
    out = run(pos, ["0 attack 1", f"{seat} ring yes"], turns=1)
    assert rows(out, "ring", "result", "draw") == [("ring", seat, won, 0, 0), ("result", 1, 1, won, 0)]
    assert out.knows_card_at(3, 12) == seat  # the Ring was shown


def test_R9_poison_ring_only_on_a_tie() -> None:
    pos = RING.format(a="Dagger", d="Ring")
    with pytest.raises(KutschError, match="'1 ring yes' was never used"):
        run(pos, ["0 attack 1", "0 play dagger yes", "1 ring yes"], turns=1)


def test_R8_duelist_voids_all_supports_and_adds_one() -> None:
    pos = BASE.replace("Brotherhood GrandMaster", "Brotherhood Duelist")
    script = ["0 attack 1", "2 support attacker", "4 support attacker", "1 play gloves no", "2 play knives yes",
              "1 play duelist yes"]
    out = run(pos, script, turns=1)
    assert rows(out, "void", "bonus", "result") == [
        ("bonus", 2, SRC.KNIVES, SIDE_ATT, 1),
        ("void", 2, SIDE_ATT, 1, 0), ("void", 4, SIDE_ATT, 1, 0),
        ("bonus", 1, SRC.DUELIST, SIDE_DEF, 1),
        ("result", 1, 2, SIDE_DEF, 0),
    ]
    assert out.face_up(1)


def test_R8_duelist_as_attacker_and_not_for_outsiders() -> None:
    pos = BASE.replace("Order Thug", "Order Duelist")
    out = run(pos, ["0 attack 1", "3 support defender", "0 play dagger no", "0 play duelist yes"], turns=1)
    assert result(out) == (2, 1, SIDE_ATT)
    outsider = BASE.replace("Order Clairvoyant", "Order Duelist")
    with pytest.raises(KutschError, match="'4 play duelist yes' was never used"):
        run(outsider, ["0 attack 1", "4 play duelist yes"], turns=1)


def test_R8_poison_mixer_names_the_winner() -> None:
    pos = BASE.replace("Brotherhood Hypnotist", "Brotherhood PoisonMixer")
    script = ["0 attack 1", "0 play dagger yes", "3 mixer defender", "1 win items", "1 take Dagger"]
    out = run(pos, script, turns=1)
    assert rows(out, "mixer", "result", "take") == [
        ("mixer", 3, SIDE_DEF, 0, 0), ("result", 2, 1, SIDE_DEF, 0), ("take", 1, 0, 8, 0)]
    assert out.hand(1) == ["Goblet", "Dagger", "Gloves"] and out.face_up(3)
    with pytest.raises(KutschError, match="'1 mixer attacker' was never used"):  # not for a participant
        run(BASE.replace("Brotherhood GrandMaster", "Brotherhood PoisonMixer"), ["0 attack 1", "1 mixer attacker"],
            turns=1)


def test_R5_8_winner_may_take_nothing() -> None:
    out = run(BASE, ["0 attack 1", "0 play dagger yes", "0 win items", "0 take nothing"], turns=1)
    assert rows(out)[-2:] == [("see_items", 0, 1, (1 << 3) | (1 << 9), 0), ("take", 0, 1, -1, 0)]
    assert out.hand(1) == ["Goblet", "Gloves"] and out.knows_card_at(0, 9) == 1


def test_R5_8_loser_left_empty_gets_one_of_the_winners_items() -> None:
    pos = BASE.replace("Goblet, Gloves", "Goblet")
    out = run(pos, ["0 attack 1", "0 play dagger yes", "0 win items", "0 take Goblet", "0 give-back Dagger"],
              turns=1)
    assert rows(out)[-2:] == [("take", 0, 1, 3, 0), ("give_back", 0, 1, 8, 0)]
    assert out.hand(0) == ["Key", "Goblet"] and out.hand(1) == ["Dagger"]


def test_R5_8_loser_is_the_attacker_too() -> None:
    out = run(BASE, ["0 attack 1", "1 play gloves yes", "1 win items", "1 take Dagger"], turns=1)
    assert out.hand(0) == ["Key"] and out.hand(1) == ["Goblet", "Dagger", "Gloves"]


def test_R8_doctor_cancels_the_winners_effect_and_ends_the_turn() -> None:
    pos = BASE.replace("Order Thug", "Order Diplomat").replace("Order Clairvoyant", "Order Doctor")
    script = ["0 diplomat no", "0 attack 1", "0 play dagger yes", "4 doctor yes"]
    out = run(pos, script, turns=1)
    assert rows(out)[-3:] == [("result", 2, 1, SIDE_ATT, 0), ("occ_up", 4, OC.DOCTOR, 0, 0), ("doctor", 4, 0, 0, 0)]
    assert out.of("look") == [] and out.hand(1) == ["Goblet", "Gloves"]
    # the Diplomat is not offered after the action: the Doctor ended the turn
    with pytest.raises(KutschError, match="'0 diplomat no' was never used"):
        run(pos, [*script, "0 diplomat no"], turns=1)
    run(pos, ["0 diplomat no", "0 attack 1", "0 play dagger yes", "4 doctor no", "0 diplomat no"], turns=1)


def test_R5_7_doctor_ruling_cancels_the_tie_draw_too() -> None:
    pos = BASE.replace("Order Clairvoyant", "Order Doctor")
    out = run(pos, ["0 attack 1", "4 doctor yes"], turns=1)
    assert out.of("draw") == [] and out.deck() == ["Monocle", "Privilege"]


def test_R8_doctor_may_be_the_loser() -> None:
    pos = BASE.replace("Brotherhood GrandMaster", "Brotherhood Doctor")
    out = run(pos, ["0 attack 1", "0 play dagger yes", "1 doctor yes"], turns=1)
    assert rows(out)[-1] == ("doctor", 1, 0, 0, 0) and out.of("look") == []


def test_R5_8_the_item_given_back_is_not_the_one_just_taken() -> None:
    """R5.8: the winner takes the loser's only item (the Key, the lowest card id, so a "first"
    choice among all the winner's cards would be it) and gives back one of their *own* items:
    never the card just taken. The give-back is not a trade: no effect, nothing announced."""
    pos = BASE.replace("Key, Dagger", "Dagger, Monocle").replace("Goblet, Gloves", "Key").replace(
        "deck: Monocle, Privilege", "deck: Privilege")
    win = ["0 attack 1", "0 play dagger yes", "0 win items", "0 take Key"]
    with pytest.raises(KutschError, match="'0 give-back Key#1' is not a legal"):
        run(pos, [*win, "0 give-back Key#1"], turns=1)
    out = run(pos, win, turns=1)  # unscripted: the "first" bot gives the first card it is offered
    assert rows(out)[-2:] == [("take", 0, 1, 0, 0), ("give_back", 0, 1, 8, 0)]
    assert out.hand(0) == ["Key", "Monocle"] and out.hand(1) == ["Dagger"]
    out = run(pos, [*win, "0 give-back Monocle"], turns=1)
    assert rows(out)[-1] == ("give_back", 0, 1, 13, 0)
    assert out.hand(0) == ["Key", "Dagger"] and out.hand(1) == ["Monocle"]
    assert out.of("announce") == [] and out.of("effect") == []


def test_R5_6_R8_poison_mixer_deciding_a_tie_means_no_tie_draw() -> None:
    """R5.6/R8: a tie decided by the Poison Mixer has a winner, so the R5.8 tie draw does not
    happen (the deck is unchanged); the winner's effect happens instead."""
    pos = BASE.replace("Brotherhood Hypnotist", "Brotherhood PoisonMixer")
    out = run(pos, ["0 attack 1", "3 mixer defender"], turns=1)
    assert rows(out) == [
        ("attack", 0, 1, 0, 0), ("occ_up", 3, OC.POISON_MIXER, 0, 0), ("mixer", 3, SIDE_DEF, 0, 0),
        ("result", 1, 1, SIDE_DEF, 0),
        ("look", 1, 0, 0, 0), ("see_assoc", 1, 0, ORDER, 0), ("see_occ", 1, 0, OC.THUG, 0),
    ]
    assert out.of("draw") == [] and out.deck() == ["Monocle", "Privilege"] and out.hand(0) == ["Key", "Dagger"]
    out = run(pos, ["0 attack 1", "3 mixer none"], turns=1)  # the same tie, no Mixer: the attacker draws
    assert rows(out, "result", "draw") == [("result", 1, 1, 0, 0), ("draw", 0, 13, 1, 0)]


@pytest.mark.parametrize("ring_side", ["attacker", "defender"])
def test_R5_6_R8_poison_mixer_overrides_the_poison_ring(ring_side: str) -> None:
    """R5 ruling (Poison Ring on a tie -> Poison Mixer, which overrides all): the Ring wins the
    tie for one side, the Mixer then names the other side, and the other side wins (no draw)."""
    if ring_side == "attacker":
        pos, seat, ring_won, mixed, winner, loser = RING.format(a="Ring", d="Gloves"), 0, SIDE_ATT, "defender", 1, 0
    else:
        pos, seat, ring_won, mixed, winner, loser = RING.format(a="Dagger", d="Ring"), 1, SIDE_DEF, "attacker", 0, 1
    pos = pos.replace("Brotherhood Hypnotist", "Brotherhood PoisonMixer")
    out = run(pos, ["0 attack 1", f"{seat} ring yes", f"3 mixer {mixed}"], turns=1)
    other = SIDE_DEF if ring_won == SIDE_ATT else SIDE_ATT
    assert rows(out, "ring", "mixer", "result", "look", "draw") == [
        ("ring", seat, ring_won, 0, 0), ("mixer", 3, other, 0, 0), ("result", 1, 1, other, 0),
        ("look", winner, loser, 0, 0)]
    assert out.deck() == ["Monocle", "Privilege"]


@pytest.mark.parametrize("ring_supports", ["attacker", "defender"])
def test_R5_6_poison_ring_is_never_offered_to_a_supporter(ring_supports: str) -> None:
    """R5.6/R9: the Poison Ring wins a tie only "as attacker or defender". Seat 4 holds it and
    supports one side of a 2-2 tie: it is never asked, and the tie stands (the attacker draws)."""
    other = "3 support defender" if ring_supports == "attacker" else "2 support attacker"
    script = ["0 attack 1", other, f"4 support {ring_supports}", "4 ring yes"]
    with pytest.raises(KutschError, match="'4 ring yes' was never used"):
        run(BASE, script, turns=1)
    out = run(BASE, script, turns=1, strict=False)
    assert out.script_used == 3 and out.of("ring") == []
    assert rows(out, "result", "draw") == [("result", 2, 2, 0, 0), ("draw", 0, 13, 1, 0)]


def test_R8_hypnotist_voids_a_supporters_casting_knives_too() -> None:
    """R5.4/R8 Hypnotist (001): the hypnotised supporter of the attacker loses both its +1 and
    its support cards: its Casting Knives are not offered. Another supporter's +1 still counts."""
    pos = BASE.replace("Order Bodyguard", "Order Diplomat") + "turn 3"
    script = ["3 attack 0", "1 support attacker", "2 support attacker", "3 hypnotize 2", "2 play knives yes"]
    with pytest.raises(KutschError, match="'2 play knives yes' was never used"):
        run(pos, script, turns=1)
    out = run(pos, script, turns=1, strict=False)
    assert rows(out, "support", "hypno", "void", "bonus", "result") == [
        ("support", 1, SIDE_ATT, 0, 0), ("support", 2, SIDE_ATT, 0, 0),
        ("hypno", 3, 2, 0, 0), ("void", 2, SIDE_ATT, 0, 0), ("result", 2, 1, SIDE_ATT, 0)]
    assert out.script_used == 4
    # the same fight without the hypnosis: seat 2's support and its Knives both count
    out = run(pos, ["3 attack 0", "1 support attacker", "2 support attacker", "2 play knives yes"], turns=1)
    assert rows(out, "bonus", "result") == [("bonus", 2, SRC.KNIVES, SIDE_ATT, 1), ("result", 4, 1, SIDE_ATT, 0)]


@pytest.mark.parametrize(
    ("occ", "seat", "first", "again"),
    [
        ("Order Priest", 4, ["0 attack 1", "4 priest yes"], ["1 attack 2", "4 priest yes"]),
        ("Brotherhood Duelist", 1, ["0 attack 1", "1 play gloves no", "1 play duelist yes"],
         ["1 attack 2", "1 play duelist yes"]),
        ("Brotherhood PoisonMixer", 3, ["0 attack 1", "3 mixer attacker"], ["1 attack 2", "3 mixer attacker"]),
        ("Order Doctor", 4, ["0 attack 1", "4 doctor yes"], ["1 attack 2", "4 doctor yes"]),
    ],
)
def test_R8_once_only_fight_occupations_are_not_offered_again(occ: str, seat: int, first: list[str],
                                                             again: list[str]) -> None:
    """R8 "once": Priest, Duelist, Poison Mixer and Doctor are used in turn 0 (face up) and are
    not offered in the next fight; nor when the position starts with the card face up."""
    replaced = {4: "Order Clairvoyant", 3: "Brotherhood Hypnotist", 1: "Brotherhood GrandMaster"}[seat]
    pos = BASE.replace(replaced, occ)
    out = run(pos, first, turns=1)
    assert out.face_up(seat) and [e.a for e in out.played() if e.name == "occ_up"] == [seat]
    with pytest.raises(KutschError, match=f"script line {len(first) + len(again)} '{again[-1]}' was never used"):
        run(pos, [*first, *again], turns=2)
    with pytest.raises(KutschError, match=f"script line {len(first)} '{first[-1]}' was never used"):
        run(BASE.replace(replaced, f"{occ} up"), first, turns=1)


@pytest.mark.parametrize(
    ("occ", "position", "script", "events", "strengths"),
    [
        ("Thug", BASE.replace("Order Thug", "Order Thug up"), ["0 attack 1", "0 play dagger no", "0 play thug yes"],
         [("bonus", 0, SRC.THUG, SIDE_ATT, 1)], (2, 1, SIDE_ATT)),
        ("GrandMaster", BASE.replace("Brotherhood GrandMaster", "Brotherhood GrandMaster up"),
         ["0 attack 1", "1 play gloves no", "1 play grand master yes"],
         [("bonus", 1, SRC.GRAND_MASTER, SIDE_DEF, 1)], (1, 2, SIDE_DEF)),
        ("Bodyguard", BASE.replace("Order Bodyguard", "Order Bodyguard up"),
         ["0 attack 1", "2 support defender", "2 play bodyguard yes"],
         [("bonus", 2, SRC.BODYGUARD, SIDE_DEF, 1)], (1, 3, SIDE_DEF)),
        ("Hypnotist", BASE.replace("Brotherhood Hypnotist", "Brotherhood Hypnotist up") + "turn 3",
         ["3 attack 0", "2 support defender", "3 hypnotize 2"],
         [("hypno", 3, 2, 0, 0), ("void", 2, SIDE_DEF, 0, 0)], (1, 1, 0)),
    ],
)

def test_R8_occupations_without_once_keep_working_face_up(occ: str, position: str, script: list[str],
                                                         events: list[tuple], strengths: tuple) -> None:
    """R8: Thug, Grand Master, Bodyguard and Hypnotist have no "once": already face up, they
    are still offered and still act."""
    out = run(position, script, turns=1)
    assert rows(out, "bonus", "hypno", "void") == events, occ
    assert result(out) == strengths, occ
