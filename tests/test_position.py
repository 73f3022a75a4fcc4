"""Tests of the position notation and the decision-script notation (kutsch_sim.notation.position, .script)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kutsch_sim.api import GameConfig
from kutsch_sim.enums import (
    ACT_ATTACK,
    ACT_DECLARE,
    ACT_MUL,
    ACT_TRADE,
    BROTHERHOOD,
    DEC,
    DK,
    IK,
    LOC_DECK,
    LOC_OUT,
    ORDER,
    SC,
    SIDE_ATT,
    SIDE_DEF,
)
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.outcome import decode_events
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import play_turns, run
from kutsch_sim.notation.script import compile_script

EXAMPLE = """
players 4
seat 0: Order Diplomat | Key, Dagger
seat 1: Brotherhood Doctor up | Goblet, Monocle
seat 2: Order Priest | Secret Bag (Key)      # names or keys, case-insensitive
seat 3: Brotherhood Thug | goblet, GLOVES
deck: Tome, Key            # top card first
turn 0
"""


def test_parse_example() -> None:
    pos = Position.parse(EXAMPLE)
    assert pos.n == 4 and pos.teams == (ORDER, BROTHERHOOD, ORDER, BROTHERHOOD)
    assert pos.hands == ((0, 8), (3, 13), (6,), (4, 9))  # Key#1 Dagger | Goblet#1 Monocle | ...
    assert pos.deck == (15, 1)  # Tome on top, then the second Key
    assert pos.up == (False, True, False, False) and pos.minority == -1
    st = pos.to_state()
    assert st.sc[SC.DEBUG] == 1 and st.sc[SC.DECK_N] == 2 and st.deck[1] == 15 and st.deck[0] == 1
    assert st.loc[1] == LOC_DECK and st.loc[2] == LOC_OUT and st.loc[20] == LOC_OUT
    assert st.sc[SC.BAGS_OPEN] == 0 and st.sc[SC.HAND_LIMIT] == 6 and st.sc[SC.ERROR] == 0
    assert (st.occ_loc[[0, 1, 8, 9]] == [0, 1, 2, 3]).all() and (st.occ_loc[[2, 3, 4, 5, 6, 7]] == 10).all()
    assert st.k_occ[3, 1] == 1 and st.k_occ[3, 0] == -1  # the face-up Doctor is public
    # conservation: every card is in one hand, the deck, or out of the game
    assert sorted(np.flatnonzero(st.loc < 10).tolist() + [1, 15]) == [0, 1, 3, 4, 6, 8, 9, 13, 15]


def test_round_trip_and_explicit_cards() -> None:
    pos = Position.parse("seat 0: order thug | Key#3, Goblet\nseat 1: brotherhood grand master | Key\n"
                         "seat 2: Order poison-mixer up | Pearl\nseat 3: Brotherhood PRIEST | Loge\n"
                         "deck: Key\nturn 2\ncap 9\nseed 5")
    assert pos.hands[0] == (2, 3) and pos.hands[1] == (0,) and pos.deck == (1,)
    assert pos.turn == 2 and pos.turn_cap == 9 and pos.seed == 5
    assert Position.parse(pos.to_text()) == pos


def test_drink_and_minority() -> None:
    text = ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Brotherhood Priest | Goblet\n"
            "drink\n")
    pos = Position.parse(text + "minority Order")
    st = pos.to_state()
    assert st.sc[SC.MINORITY] == ORDER and st.sc[SC.DRINK] == 1 and st.drink[:3].all() and not st.drink[3:].any()
    with pytest.raises(KutschError, match="minority is Order"):
        Position.parse(text + "minority Brotherhood")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seat 0: Order Thug | Key", "needs 3..10 seats"),
        ("seat 0: Order Thug | Key\nseat 1: Order Doctor | Key\nseat 2: Order Priest | Key", "teams must be"),
        ("seat 0: Order Thug | Key\nseat 1: Order Thug | Goblet\nseat 2: Brotherhood Priest | Goblet",
         "held twice"),
        ("seat 0: Order Thug | Key\nseat 1: Order Doctor |\nseat 2: Brotherhood Priest | Goblet", "no items"),
        ("seat 0: Order Thug | Key, Pearl\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "Black Pearl is not used at 3"),
        ("seat 0: Order Thug | Key, Key, Key, Key\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "too many Key"),
        ("seat 0: Order Thug | Key#1\nseat 1: Order Doctor | Key#1\nseat 2: Brotherhood Priest | Goblet",
         "placed twice"),
        ("seat 0: Order Thug | Key#4\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "#1..#3"),
        ("seat 0: Order Thug | Spoon\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "unknown item 'Spoon'"),
        ("seat 0: Order Cook | Key\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "unknown occupation 'Cook'"),
        ("seat 0: Elves Thug | Key\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet",
         "unknown team"),
        ("seat 0: Order Thug | Key\nseat 2: Order Doctor | Key\nseat 3: Brotherhood Priest | Goblet",
         "numbered 0..2"),
        ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
         "seat 3: Brotherhood Duelist | Goblet\ndrink", "odd player counts"),
        ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
         "seat 3: Brotherhood Duelist | Goblet\nturn 4", "turn must name a seat"),
        ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
         "seat 3: Brotherhood Duelist | Goblet\npile: Thug", "the pile must hold exactly"),
        ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
         "seat 3: Brotherhood Duelist | Goblet\nwizard 3", "unknown statement"),
        ("seat 0: Order Thug | Key, Dagger, Gloves, Whip, Ring, Knives, Monocle\n"
         "seat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\nseat 3: Brotherhood Duelist | Goblet",
         "over the hand limit 6"),
    ],
)
def test_bad_positions_give_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(KutschError, match=message) as err:
        Position.parse(text)
    assert "\n" not in str(err.value) and re.match(r"position lines? \d+(-\d+)?: ", str(err.value))


POS4 = Position.parse(
    "seat 0: Order Diplomat | Key, Dagger\nseat 1: Brotherhood Doctor | Goblet, Monocle\n"
    "seat 2: Order Priest | Key\nseat 3: Brotherhood Thug | Goblet, Gloves\ndeck: Tome"
)


def test_script_encodings() -> None:
    rows = compile_script(
        [
            "0 action trade 1 Dagger", "1 accept yes", "1 return Monocle", "1 effect no",
            "0 attack 3", "2 support defender", "3 mixer attacker", "0 win items", "0 take nothing",
            "0 declare team with 2", "0 diplomat 3 secret bag offer key", "1 give-away 2 Goblet",
            "0 sextant right", "0 raw fight_play 1", "3 play grand master yes", "3 coat Hypnotist",
        ],
        POS4,
    )
    assert rows.tolist() == [
        [0, DEC.ACTION, ACT_TRADE * ACT_MUL + 1 * 32 + 8],
        [1, DEC.ACCEPT, 1],
        [1, DEC.RETURN, 13],
        [1, DEC.EFFECT_USE, 0],
        [0, DEC.ACTION, ACT_ATTACK * ACT_MUL + 3 * 32],
        [2, DEC.SUPPORT, SIDE_DEF],
        [3, DEC.MIXER, SIDE_ATT],
        [0, DEC.WIN_CHOICE, 1],
        [0, DEC.TAKE, -1],
        [0, DEC.ACTION, ACT_DECLARE * ACT_MUL + DK.TEAM],
        [0, DEC.DECL_NAME, 2],
        [0, DEC.DECL_NAME, -1],
        [0, DEC.DIPLO_USE, 1],
        [0, DEC.DIPLO_TARGET, 3],
        [0, DEC.DIPLO_NAME, IK.BAG_KEY],
        [0, DEC.DIPLO_OFFER, 0],
        [1, DEC.LIMIT_GIVE, 2 * 32 + 3],
        [0, DEC.SEXTANT_DIR, 1],
        [0, DEC.FIGHT_PLAY, 1],
        [3, DEC.FIGHT_PLAY, 1],
        [3, DEC.COAT_PICK, 6],
    ]
    # a plain "Key" in a take means a Key outside the taker's hand; in a pick, one in the deck
    assert compile_script(["0 take Key"], POS4).tolist() == [[0, DEC.TAKE, 1]]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("0 dance", "unknown verb"),
        ("7 pass", "seat 7 is not in"),
        ("0 trade 9 Dagger", "expected a seat"),
        ("0 accept maybe", "expected yes or no"),
        ("0 declare loge with 1", "names nobody"),
        ("0 take Ring", "no 'Ring' card"),
        ("0 play Spoon yes", "unknown fight bonus"),
        ("pass", "expected 'SEAT VERB ARGS'"),
    ],
)
def test_bad_script_lines(line: str, message: str) -> None:
    with pytest.raises(KutschError, match=message):
        compile_script([line], POS4)


def test_strict_run_names_the_illegal_or_unused_line() -> None:
    with pytest.raises(KutschError, match=r"script line 3 '1 return Dagger' is not a legal"):
        run(POS4, ["0 trade 1 Dagger", "1 accept", "1 return Dagger"], turns=1)  # R4.3: an *other* item
    with pytest.raises(KutschError, match=r"script line 2 '1 return Dagger' was never used"):
        run(POS4, ["0 trade 1 Dagger", "1 return Dagger"], turns=1)  # the "first" bot rejected
    with pytest.raises(KutschError, match=r"script line 2 '3 support attacker' was never used"):
        run(POS4, ["0 pass", "3 support attacker"], turns=1)
    out = run(POS4, ["0 pass", "3 support attacker"], turns=1, strict=False)
    assert out.script_used == 1 and out.error == "ok" and out.active == 1


def test_play_turns_matches_play_nb() -> None:
    """The runner's turn loop agrees with the engine's: same final state, turn by turn or at once."""
    from kutsch_sim.engine.state import as_record, new_state
    from kutsch_sim.play import init_game_nb

    cfg = GameConfig(6, "full", turn_cap=60)
    sp = as_record(cfg.spec(3, debug=True))
    for game in range(5):
        states = []
        for _ in range(2):
            st = new_state(4096, np.zeros((0, 3), np.int32))
            init_game_nb(st, sp, game)
            states.append(st)
        play_turns(states[0], None)
        while not states[1].sc[SC.OVER]:
            play_turns(states[1], 1)
        for a, b in zip(states[0], states[1], strict=True):
            assert np.array_equal(a, b)
        assert states[0].sc[SC.ERROR] == 0


def test_from_state_round_trip_mid_game() -> None:
    from kutsch_sim.engine.state import as_record, new_state
    from kutsch_sim.play import init_game_nb

    cfg = GameConfig(7, "full")
    st = new_state(0, np.zeros((0, 3), np.int32))
    init_game_nb(st, as_record(cfg.spec(1, debug=True)), 0)
    play_turns(st, 12)
    pos = Position.from_state(st)
    assert Position.parse(pos.to_text()) == pos
    st2 = pos.to_state()
    for name in ("loc", "hand_n", "assoc", "occ", "occ_up", "occ_loc", "drink"):
        assert np.array_equal(getattr(st, name), getattr(st2, name)), name
    assert st2.sc[SC.MINORITY] == st.sc[SC.MINORITY] and st2.sc[SC.DECK_N] == st.sc[SC.DECK_N]
    assert np.array_equal(st.deck[: st.sc[SC.DECK_N]], st2.deck[: st2.sc[SC.DECK_N]])


def test_setup_events_decode_like_a_dealt_game() -> None:
    out = run(POS4, ["0 pass"], turns=1)
    names = [e.name for e in out.events]
    assert names[:4] == ["occ"] * 4 and names[4:8] == ["assoc"] * 4
    assert names.count("deal") == 7 and names.count("deck") == 1
    assert [e.name for e in out.played()] == ["turn", "pass"]
    assert decode_events(out.state) == out.events
