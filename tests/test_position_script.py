"""Scripts against the rules: decisions the rules force, lines for the wrong seat, runs stopped
inside a turn, and errors that name their line (kutsch_sim.notation.run, .outcome, .position)."""

from __future__ import annotations

import re

import pytest

from kutsch_sim.enums import DCTX_X, DCTX_Y, SC
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.outcome import Fight, Offer, Pending
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import run
from kutsch_sim.notation.script import VERB_KIND, VERBS, compile_script

pytestmark = pytest.mark.rules

POS = """
seat 0: Order Thug | Key, Dagger, Pearl
seat 1: Brotherhood Doctor | Goblet, Monocle
seat 2: Order Priest up | Key
seat 3: Brotherhood Duelist | Goblet, Gloves
deck: Tome
"""


def one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text and isinstance(err.value, KutschError)
    return text


# ---------------------------------------------------------------- decisions the rules force
@pytest.mark.parametrize(
    ("position", "offer", "rule"),
    [
        (POS, "0 trade 1 Pearl", "R4.6: a Black Pearl cannot be rejected"),
        (POS.replace("Pearl", "Mirror"), "0 trade 1 Mirror", "R4.5: a Broken Mirror cannot be rejected"),
        (POS.replace("Order Thug", "Order Diplomat"), "0 diplomat 1 Monocle offer Dagger",
         "R8: the Diplomat's trade cannot be refused"),
    ],
    ids=["pearl", "mirror", "diplomat"],
)
def test_a_forced_accept_can_be_written_and_a_reject_is_refused(position: str, offer: str, rule: str) -> None:
    back = "1 give-named Monocle" if "diplomat" in offer else "1 return Monocle"
    written = run(position, [offer, "1 accept", back], turns=1)
    unwritten = run(position, [offer, back], turns=1)
    assert written.events == unwritten.events and written.script_used == written.script_len
    assert [e.name for e in written.played()][-1] != "reject" and "Monocle" in written.hand(0)
    with pytest.raises(KutschError) as err:
        run(position, [offer, "1 reject", back], turns=1)
    assert one_line(err) == f"script line 2 '1 reject': the rules force seat 1 to accept here ({rule})"
    out = run(position, [offer, "1 reject", back], turns=1, strict=False)
    assert out.error == "illegal scripted move" and out.winner == "error"


BAGS = """
seat 0: Order Thug | Key, BagKey
seat 1: Brotherhood Doctor | BagGoblet
seat 2: Order Priest | Key
seat 3: Brotherhood Duelist | Goblet, Gloves
deck: Tome
"""


def test_R4_7_a_forced_reject_can_be_written_and_an_accept_is_refused() -> None:
    out = run(BAGS, ["0 trade 1 BagKey", "1 reject"], turns=1)
    assert [e for e in out.played() if e.name == "reject"][0][2:] == (0, 1, 6, 1)  # d = 1: R4.7 forced it
    assert out.offer == Offer(0, 1, "BagKey", "free", "rejected")
    with pytest.raises(KutschError) as err:
        run(BAGS, ["0 trade 1 BagKey", "1 accept"], turns=1)
    assert one_line(err) == ("script line 2 '1 accept': the rules force seat 1 to reject here (R4.7: the only "
                             "item the receiver could give back is the other Secret Bag)")


def test_forced_decisions_are_not_counted_as_decisions() -> None:
    written = run(POS, ["0 trade 1 Pearl", "1 accept", "1 return Monocle"], turns=1)
    unwritten = run(POS, ["0 trade 1 Pearl", "1 return Monocle"], turns=1)
    assert written.state.sc[SC.N_DECISIONS] == unwritten.state.sc[SC.N_DECISIONS]


# ---------------------------------------------------------------- lines for the wrong seat
@pytest.mark.parametrize("turns", [None, 1, 3])
def test_a_line_for_the_wrong_seat_is_refused_whatever_the_turns(turns: int | None) -> None:
    with pytest.raises(KutschError) as err:
        run(POS, ["1 trade 2 Goblet"], turns=turns)
    assert one_line(err) == ("script line 1 '1 trade 2 Goblet' is for seat 1, but turn 0 is seat 0's: "
                             "script that turn first (e.g. '0 pass')")
    with pytest.raises(KutschError) as err:
        run(POS, ["0 trade 2 Dagger", "1 accept", "1 return Goblet"], turns=turns)
    assert one_line(err).startswith("script line 2 '1 accept' was never used: no accept decision of seat 1 came up")
    assert one_line(err).endswith("; the next one was seat 2's (turn 0)")


def test_a_turn_without_a_script_line_ends_the_script() -> None:
    out = run(POS, ["0 pass", "1 trade 2 Goblet"])  # scripted turn by turn: fine
    assert [e.name for e in out.of("offer")] and out.of("offer")[0][2:5] == (1, 2, 3)
    with pytest.raises(KutschError) as err:
        run(POS, ["0 pass", "3 support attacker"])  # no fight in turn 1: the script ends there
    assert one_line(err) == ("script line 2 '3 support attacker' was never used: no support decision of seat 3 "
                             "came up by the end of turn 1, which used no script line and so ended the script")
    with pytest.raises(KutschError, match=r"line 2 '3 support attacker' was never used: .* in 1 turn$"):
        run(POS, ["0 pass", "3 support attacker"], turns=1)
    out = run(POS, ["0 pass", "3 support attacker"], turns=4, strict=False)  # the bots play on without it
    assert out.script_used == 1 and out.turns == 4 and out.error == "ok"


# ---------------------------------------------------------------- stopping inside a turn
def test_stop_at_a_pending_offer() -> None:
    out = run(POS, ["0 trade 1 Dagger"], stop_at="1 accept")
    assert out.pending == Pending("accept", 1, (0, 1), None)
    assert out.offer == Offer(0, 1, "Dagger", "free", None)
    assert out.hand(0) == ["Key", "Dagger", "Pearl"] and not out.over and out.winner is None and out.turns == 0
    assert out.knows_card_at(1, 8) == 0 and out.knows_card_at(2, 8) == -1  # R4.2: the receiver looked
    assert [e.name for e in out.played()] == ["turn", "offer"]
    forced = run(POS, ["0 trade 1 Pearl"], stop_at="accept")  # a decision the rules take stops too
    assert forced.pending == Pending("accept", 1, (1,), "R4.6: a Black Pearl cannot be rejected")
    assert forced.offer == Offer(0, 1, "Pearl", "card", None)


FIGHT = """
seat 0: Order Thug | Key, Dagger
seat 1: Brotherhood GrandMaster | Goblet, Gloves
seat 2: Order Bodyguard | Key, Knives
seat 3: Brotherhood PoisonMixer | Goblet, Whip
seat 4: Order Hypnotist | Key
"""


def test_stop_at_a_fight_before_its_result() -> None:
    script = ["0 attack 1", "2 support attacker", "3 support defender", "4 support attacker", "0 play dagger yes"]
    out = run(FIGHT, script, stop_at="0 play")  # the Thug's bonus, after the Dagger
    assert out.pending.decision == "fight_play" and out.pending.seat == 0
    assert out.fight == Fight(0, 1, {2: "attacker", 3: "defender", 4: "attacker"}, 4, 2, None)
    assert (out.fight.attack, out.fight.defense) == (out.state.dctx[DCTX_X], out.state.dctx[DCTX_Y])
    out = run(FIGHT, [*script, "1 play gloves yes", "0 play thug yes", "1 play grand master yes",
                      "2 play knives yes", "2 play bodyguard yes", "3 play whip no"], stop_at="mixer")
    assert out.pending == Pending("mixer", 3, (-1, 1, 2), None)
    assert out.fight == Fight(0, 1, {2: "attacker", 3: "defender", 4: "attacker"}, 7, 4, None)
    assert (out.fight.attack, out.fight.defense) == (out.state.dctx[DCTX_X], out.state.dctx[DCTX_Y])
    done = run(FIGHT, script, turns=1)
    assert done.fight.result == "attacker" and done.pending is None


def test_stop_after_a_script_line_and_stop_errors() -> None:
    script = ["0 trade 1 Dagger", "1 accept", "1 return Monocle", "1 effect yes"]
    out = run(POS, script[:3], stop_at="any")  # right after line 3: the next decision asked
    assert out.pending == Pending("effect_use", 1, (0, 1), None) and out.hand(0) == ["Key", "Monocle", "Pearl"]
    assert out.offer.answer == "accepted" and out.script_used == 3
    with pytest.raises(KutschError) as err:
        run(POS, script, turns=1, stop_at="2 accept")
    assert one_line(err) == "stop_at '2 accept': no accept decision of seat 2 came up in 1 turn after the script's last line"
    assert run(POS, script, turns=1, stop_at="2 accept", strict=False).pending is None
    for bad, message in [("dance", "expected '\\[SEAT\\] DECISION'"), ("7 accept", "seat 7 is not in"),
                         ("1 2 accept", "expected")]:
        with pytest.raises(KutschError, match=f"stop_at '{bad}': {message}"):
            run(POS, script, stop_at=bad)


@pytest.mark.parametrize(
    "line",
    ["0 pass", "0 trade 1 Dagger", "0 attack 1", "0 declare team", "0 action pass", "0 name done", "0 clairvoyant no",
     "0 pick Tome", "0 diplomat no", "0 diplo-target 1", "0 diplo-name Key", "0 diplo-offer Key", "1 accept",
     "1 reject", "1 return Goblet", "1 give-named Goblet", "0 effect no", "0 smuggle no", "0 see-card 0",
     "0 coat Doctor", "0 sextant left", "0 pass-on Key", "2 priest no", "0 priest-give Key", "2 support none",
     "0 hypnotize none", "0 play no", "0 ring no", "3 mixer none", "1 doctor no", "0 win look", "0 take nothing",
     "0 give-back Key", "0 give-away 1 Key", "0 effect_use 1", "0 fight_play 1", "0 limit_give 1 Key"],
)
def test_every_verb_names_its_decision_for_stop_at(line: str) -> None:
    verb = line.split()[1].replace("-", "_")
    assert compile_script([line], Position.parse(POS))[0, 1] == VERB_KIND[verb]
    assert set(VERBS) - {"raw"} <= set(VERB_KIND)


# ---------------------------------------------------------------- one illegal offer, one message
NO_KEY = """
seat 0: Order Thug | Dagger
seat 1: Brotherhood Doctor | Goblet
seat 2: Order Priest | Monocle
seat 3: Brotherhood Duelist | Goblet, Gloves
"""


@pytest.mark.parametrize(("position", "script"), [(NO_KEY, ["0 trade 1 {}"]), (POS, ["0 pass", "1 trade 0 {}"])],
                         ids=["out-of-the-game", "another-seats"])
def test_the_same_illegal_offer_gets_the_same_refusal_whatever_the_spelling(position: str,
                                                                           script: list[str]) -> None:
    """Key#1 is out of the game in NO_KEY (no Key at all), and seat 0's in POS (not seat 1's)."""
    messages = []
    for name in ("Key", "Key#1"):
        with pytest.raises(KutschError) as err:
            run(position, [s.format(name) for s in script])
        messages.append(one_line(err).replace(name, "NAME"))
    assert messages[0] == messages[1]
    assert "no 'NAME' card in this position" in messages[0] or "is not a legal decision here" in messages[0]


# ---------------------------------------------------------------- every error names its line
SEATS3 = "seat 0: Order Thug | Key\nseat 1: Order Doctor | Key\nseat 2: Brotherhood Priest | Goblet\n"
SEATS4 = ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Order Priest | Key\n"
          "seat 3: Brotherhood Duelist | Goblet\n")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (SEATS4.replace("Goblet\n", "Goblet, Pearl, Pearl\n", 1), "line 2", "too many Black Pearl cards"),
        (SEATS4.replace("| Key\n", "| Key, Key, Key, Key\n", 1), "line 1", "too many Key cards"),
        (SEATS4.replace("Goblet\n", "Key#1, Key#1\n", 1), "line 2", "card Key#1 placed twice"),
        (SEATS4 + "deck: Key#9", "line 5", "#1..#3"),
        (SEATS4.replace("Goblet\n", "Goblet, Loge, Pearl, Coat, Tome, Ring, Gloves\n", 1), "line 2",
         "over the hand limit 6"),
        (SEATS4.replace("| Key\n", "|\n", 1), "line 1", "seat 0 has no items"),
        (SEATS4.replace("Duelist", "Thug"), "line 4", "occupation Thug held twice"),
        (SEATS3.replace("Key\n", "Key, Pearl\n", 1), "line 1", "Black Pearl is not used at 3"),
        (SEATS3.replace("Brotherhood Priest", "Order Priest"), "lines 1-3", "teams must be"),
        (SEATS3.replace("seat 2", "seat 3"), "line 3", "seat 3 is out of range"),
        (SEATS4 + "players 5", "line 5", "'players 5' but 4 seat lines"),
        (SEATS4 + "\nturn 4", "line 6", "turn must name a seat"),
        (SEATS4 + "drink", "line 5", "odd player counts"),
        (SEATS4 + "cap 0", "line 5", "turn cap must be"),
        (SEATS4 + "pile: Thug", "line 5", "the pile must hold exactly"),
        (SEATS4 + "variant advanced-3p", "line 5", "3-player game only"),
        (SEATS4.replace("Order Priest", "OBO Priest"), "line 3", "need 'variant advanced-3p'"),
        ("seat 0: Order Thug | Key\nseat 1: Brotherhood Doctor | Goblet\nseat 2: Brotherhood Priest | Goblet\n"
         "minority Brotherhood", "line 4", "minority is Order"),
        ("# nothing here\n", "line 1", "no seat line"),
        (SEATS4 + "seat 4 Order Doctor | Key", "line 5", "expected 'seat P: TEAM OCCUPATION"),
        (SEATS4 + "seat 3: Order Doctor | Key", "line 5", "seat 3 given twice"),
        (SEATS4 + "seat 4: Order | Key", "line 5", "needs a team and an occupation"),
        (SEATS4 + "turn two", "line 5", "'turn' needs a whole number"),
        (SEATS4 + "seed 9223372036854775808", "line 5", "seed must be"),
        (SEATS4 + "deck: Key,, Tome", "line 5", "empty item name"),
        (SEATS4 + "variant chess", "line 5", "chess"),
        ("variant advanced-3p\nseat 0: OOB Thug | Key\nseat 1: Brotherhood Doctor | Goblet\n"
         "seat 2: BOO Priest | Key", "lines 2-4", "write every seat's team as its 3 association cards"),
        ("variant advanced-3p\nseat 0: OOO Thug | Key\nseat 1: OOO Doctor | Goblet\nseat 2: BBB Priest | Key",
         "lines 2-4", "only 5 association cards"),
    ],
)
def test_every_position_error_names_its_line(text: str, where: str, message: str) -> None:
    with pytest.raises(KutschError) as err:
        Position.parse(text)
    assert one_line(err).startswith(f"position {where}: ") and message in str(err.value), str(err.value)


@pytest.mark.parametrize(
    "script",
    [["0 dance"], ["9 pass"], ["0 trade 9 Dagger"], ["0 trade 1 Spoon"], ["0 accept maybe"], ["0 raw nothing 1"],
     ["0 raw accept x"], ["0 declare loge with 1"], ["0 take Ring"], ["0 play Spoon yes"], ["pass"],
     ["0 pass"] * 600, ["0 trade 1 Key#3"], ["0 coat Cook"], ["0 sextant up"], ["0 win maybe"], ["0 see-card 4"],
     ["0 pass now"], ["0 return"], ["0 action"], ["0 action dance"], ["0 trade 1"], ["0 declare"],
     ["0 declare team 1"], ["0 diplomat 1 Key"], ["2 support maybe"], ["0 play"], ["0 give-away 1"],
     ["0 hypnotize 9"]],
)
def test_every_script_error_names_its_line(script: list[str]) -> None:
    with pytest.raises(KutschError) as err:
        compile_script(script, Position.parse(POS))
    assert re.match(r"script line \d+ '[^']*': ", one_line(err)), str(err.value)


def test_run_argument_errors_are_one_line() -> None:
    for turns in (-1, 1.5, True):
        with pytest.raises(KutschError, match="turns must be None or a whole number"):
            run(POS, [], turns=turns)
    with pytest.raises(KutschError, match="script row 513: a script holds at most 512"):
        Position.parse(POS).to_state(compile_script(["0 pass"] * 300, Position.parse(POS)).repeat(2, axis=0))
