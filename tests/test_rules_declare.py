"""R6 declarations, R7 Drink of Power, R6.5 Loge solo victory, R9 Bags turning into victory items.

Card ids: Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Pearl 18, Loge 20.
DECL_RESULT events are (ok, winner, victory items counted, bitmask of named seats).
"""

from __future__ import annotations

import pytest

from kutsch_sim.enums import BROTHERHOOD, DK, ORDER, REC, SC, WIN
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.run import run

pytestmark = pytest.mark.rules  # the rules scenarios: also run without the JIT (.ci/run)

BASE = """
seat 0: Order Thug | Key, Key, Dagger
seat 1: Brotherhood Doctor | Goblet, Gloves
seat 2: Order Priest | Key, Whip
seat 3: Brotherhood Duelist | Goblet, Goblet
deck: Monocle
"""


def declared(out) -> tuple[int, int, int, int]:
    (r,) = out.of("decl_result")
    return r.a, r.b, r.c, r.d


def test_R6_3_three_keys_with_a_named_teammate() -> None:
    out = run(BASE, ["0 declare team with 2"])
    assert declared(out) == (1, ORDER, 3, 1 << 2) and out.winner == "order"
    assert out.state.sc[SC.DECLARER] == 0 and out.state.sc[SC.DECL_KIND] == DK.TEAM
    assert out.state.rec[REC.WINNER] == WIN.ORDER and out.state.rec[REC.DECL_OK] == 1
    (d,) = out.of("declare")
    assert (d.a, d.b, d.c, d.d) == (0, DK.TEAM, 1 << 2, (1 << 0) | (1 << 1) | (1 << 8))


def test_R6_3_three_goblets_for_the_brotherhood() -> None:
    out = run(BASE + "turn 3", ["3 declare team with 1"])
    assert declared(out) == (1, BROTHERHOOD, 3, 1 << 1) and out.winner == "brotherhood"


def test_R6_3_three_keys_alone() -> None:
    out = run(BASE.replace("Key, Key, Dagger", "Key, Key, Key").replace("Key, Whip", "Whip"), ["0 declare team"])
    assert declared(out) == (1, ORDER, 3, 0) and out.winner == "order"


def test_R6_4_too_few_victory_items_the_other_team_wins() -> None:
    out = run(BASE, ["0 declare team"])
    assert declared(out) == (0, BROTHERHOOD, 2, 0) and out.winner == "brotherhood"


def test_R6_4_named_non_teammate_fails_the_other_team_wins() -> None:
    pos = BASE.replace("Goblet, Gloves", "Goblet, Key").replace("Key, Whip", "Whip")
    out = run(pos, ["0 declare team with 1"])
    assert declared(out) == (0, BROTHERHOOD, 3, 1 << 1) and out.winner == "brotherhood"


def test_R6_3_named_teammate_without_a_victory_item_fails() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Key, Key, Key").replace("Key, Whip", "Whip")
    out = run(pos, ["0 declare team with 2"])
    assert declared(out)[:2] == (0, BROTHERHOOD) and out.winner == "brotherhood"


def test_R6_2_named_players_reveal_their_items() -> None:
    out = run(BASE, ["0 declare team with 2"])
    assert [(e.a, e.b, e.c) for e in out.of("see_items")] == [(-1, 2, (1 << 2) | (1 << 11))]


def test_R6_1_declarer_needs_an_own_victory_item() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Dagger").replace("Key, Whip", "Key, Key, Key, Whip")
    with pytest.raises(KutschError, match="'0 declare team with 2' is not a legal"):
        run(pos, ["0 declare team with 2"])


def test_R6_1_black_pearl_blocks_every_declaration() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Key, Key, Key, Pearl, Loge, Goblet").replace("Key, Whip", "Whip")
    pos = pos.replace("Goblet, Goblet", "Goblet, Ring")
    for kind in ("team", "loge"):
        with pytest.raises(KutschError, match=f"'0 declare {kind}' is not a legal"):
            run(pos, [f"0 declare {kind}"])
    out = run(pos.replace("Pearl, ", ""), ["0 declare loge"])
    assert out.winner == "solo"


def test_R6_3_secret_bag_counts_only_once_the_deck_is_empty() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Key, Key, BagKey").replace("Key, Whip", "Whip")
    out = run(pos, ["0 declare team"])
    assert declared(out) == (0, BROTHERHOOD, 2, 0)  # the deck has a card: the Bag is still a Bag
    out = run(pos.replace("deck: Monocle", ""), ["0 declare team"])
    assert declared(out) == (1, ORDER, 3, 0)
    wrong = pos.replace("BagKey", "BagGoblet").replace("deck: Monocle", "")
    assert declared(run(wrong, ["0 declare team"]))[:2] == (0, BROTHERHOOD)  # a Goblet is no Key


def test_R9_bags_transform_the_moment_the_deck_empties() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Key, Key, BagKey").replace("Key, Whip", "Whip")
    # a tie: the attacker draws the last card; its next turn it declares
    out = run(pos, ["0 attack 1", "1 pass", "2 pass", "3 pass", "0 declare team"])
    played = [e.name for e in out.played()]
    assert played[:4] == ["turn", "attack", "result", "draw"] and played[4] == "bags_open"
    assert out.state.sc[SC.BAGS_OPEN] == 1 and out.turns == 5
    assert declared(out) == (1, ORDER, 3, 0) and out.winner == "order"


def test_R6_5_loge_solo_victory_with_any_mix() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Loge, Key, Goblet, BagGoblet").replace("deck: Monocle", "")
    pos = pos.replace("Goblet, Goblet", "Goblet, Dagger")
    out = run(pos, ["0 declare loge"])
    assert declared(out) == (1, WIN.SOLO, 3, 0) and out.winner == "solo"
    assert out.state.sc[SC.SOLO_SEAT] == 0 and out.state.rec[REC.SOLO_SEAT] == 0


def test_R6_5_ruling_an_invalid_solo_claim_is_not_offered() -> None:
    pos = BASE.replace("Key, Key, Dagger", "Loge, Key, Goblet, BagGoblet").replace("Goblet, Goblet", "Goblet, Dagger")
    with pytest.raises(KutschError, match="'0 declare loge' is not a legal"):
        run(pos, ["0 declare loge"])  # the deck has a card: the Bag does not count yet
    out = run(pos, ["0 declare team"])  # a team declaration is still open to the Loge holder
    assert declared(out)[:2] == (0, BROTHERHOOD)


DRINK = """
seat 0: Order Thug | Key, Key
seat 1: Brotherhood Doctor | Goblet, Goblet
seat 2: Order Priest | Whip
seat 3: Brotherhood Duelist | Gloves
seat 4: Brotherhood Bodyguard | Dagger
deck: Monocle
drink
"""


def test_R7_drink_of_power_replaces_one_item_for_the_minority() -> None:
    out = run(DRINK, ["0 declare drink"])
    assert declared(out) == (1, ORDER, 2, 0) and out.winner == "order"
    assert out.state.rec[REC.DRINK_USED] == 1 and out.state.sc[SC.DECL_KIND] == DK.DRINK
    assert out.state.sc[SC.MINORITY] == ORDER


def test_R7_drink_with_one_item_and_a_transformed_bag() -> None:
    pos = DRINK.replace("Key, Key", "Key, BagKey").replace("deck: Monocle\n", "")
    assert declared(run(pos, ["0 declare drink"])) == (1, ORDER, 2, 0)
    with_deck = DRINK.replace("Key, Key", "Key, BagKey")
    assert declared(run(with_deck, ["0 declare drink"]))[:2] == (0, BROTHERHOOD)


def test_R7_drink_fails_when_the_declarers_team_is_not_the_minority() -> None:
    out = run(DRINK + "turn 1", ["1 declare drink"])
    assert declared(out) == (0, ORDER, 2, 0) and out.winner == "order"


def test_R7_only_the_declarers_own_drink_counts() -> None:
    pos = DRINK.replace("Key, Key", "Key, Dagger").replace("| Dagger", "| Ring")
    out = run(pos, ["0 declare drink"])  # 1 Key + one Drink: seat 2's Drink does not help
    assert declared(out) == (0, BROTHERHOOD, 1, 0)


def test_R6_1_ruling_a_drink_does_not_meet_the_own_item_requirement() -> None:
    pos = DRINK.replace("Key, Key", "Knives").replace("| Whip", "| Key, Key")
    with pytest.raises(KutschError, match="'0 declare drink with 2' is not a legal"):
        run(pos, ["0 declare drink with 2"])


def test_R7_no_drink_declaration_without_the_drink_in_play() -> None:
    with pytest.raises(KutschError, match="'0 declare drink' is not a legal"):
        run(DRINK.replace("drink\n", ""), ["0 declare drink"])


def test_R7_drink_never_counts_for_the_loge() -> None:
    pos = DRINK.replace("Key, Key", "Key, Goblet#3, Loge")
    with pytest.raises(KutschError, match="'0 declare loge' is not a legal"):
        run(pos, ["0 declare loge"])


def test_R6_1_holding_only_the_other_teams_victory_items_allows_no_declaration() -> None:
    """R6.1: the declarer must hold a victory item of its *own* team. An Order player whose
    only victory item is a Goblet cannot declare (not offered), though a teammate holds 3 Keys."""
    pos = BASE.replace("Key, Key, Dagger", "Goblet, Dagger").replace("Key, Whip", "Key, Key, Key, Whip")
    pos = pos.replace("Goblet, Goblet", "Goblet, Ring")
    for script in (["0 declare team"], ["0 declare team with 2"]):
        with pytest.raises(KutschError, match=f"'{script[0]}' is not a legal"):
            run(pos, script)
    out = run(pos.replace("Goblet, Dagger", "Goblet, Key#3, Dagger").replace("Key, Key, Key, Whip", "Key, Key, Whip"),
              ["0 declare team with 2"])  # with one Key of its own it may
    assert declared(out) == (1, ORDER, 3, 1 << 2)


def test_R6_1_a_transformed_bag_is_the_declarers_own_victory_item() -> None:
    """R6.1/R9: a Secret Bag (Key) is the declarer's only own-team item. Once the deck is empty
    it is a Key and meets the requirement (and counts, R6.3); while the deck has cards it is no
    victory item, so the declaration is not offered; a transformed Bag (Goblet) never helps Order."""
    pos = BASE.replace("Key, Key, Dagger", "BagKey, Dagger").replace("Key, Whip", "Key, Key, Whip")
    with pytest.raises(KutschError, match="'0 declare team with 2' is not a legal"):
        run(pos, ["0 declare team with 2"])
    empty = pos.replace("deck: Monocle", "")
    out = run(empty, ["0 declare team with 2"])
    assert declared(out) == (1, ORDER, 3, 1 << 2) and out.winner == "order"
    with pytest.raises(KutschError, match="'0 declare team with 2' is not a legal"):
        run(empty.replace("BagKey", "BagGoblet"), ["0 declare team with 2"])


def test_R6_3_named_teammate_with_only_the_other_teams_item_fails() -> None:
    """R6.3: a named teammate must hold a victory item of the declarer's team; a Goblet does not
    do for Order. With 3 own Keys the combination is met but the named player fails it; with 2
    Keys the Goblet does not count towards the 3 either. Any failure: the other team wins (R6.4)."""
    pos = BASE.replace("Key, Key, Dagger", "Key, Key, Key").replace("Key, Whip", "Goblet, Whip")
    pos = pos.replace("Goblet, Goblet", "Goblet, Ring")
    out = run(pos, ["0 declare team with 2"])
    assert declared(out) == (0, BROTHERHOOD, 3, 1 << 2) and out.winner == "brotherhood"
    assert out.state.rec[REC.WINNER] == WIN.BROTHERHOOD and out.state.rec[REC.DECL_OK] == 0
    out = run(pos.replace("Key, Key, Key", "Key, Key, Dagger"), ["0 declare team with 2"])
    assert declared(out) == (0, BROTHERHOOD, 2, 1 << 2) and out.winner == "brotherhood"


def test_R6_1_R7_black_pearl_blocks_the_drink_declaration() -> None:
    """R6.1/R9: a Black Pearl holder can declare no victory, the Drink of Power one (R7) included."""
    pos = DRINK.replace("Key, Key", "Key, Key, Pearl")
    for kind in ("drink", "team"):
        with pytest.raises(KutschError, match=f"'0 declare {kind}' is not a legal"):
            run(pos, [f"0 declare {kind}"])
    assert declared(run(pos.replace(", Pearl", ""), ["0 declare drink"]))[:2] == (1, ORDER)
