"""The plain-English trace says what the event log says (kutsch-sim play)."""

from __future__ import annotations

import re

from kutsch_sim.api import GameConfig, play_game
from kutsch_sim.bots.reasons import reason_row_text
from kutsch_sim.enums import (
    CARD_KIND_LIST,
    DK,
    EV,
    IK,
    OFFER_CARD,
    OFFER_DIPLOMAT,
    OFFER_FREE,
    REC,
    SRC,
    SRC_LABELS,
    TEAM_NAMES,
)
from kutsch_sim.review.beliefs import format_beliefs
from kutsch_sim.review.trace import CARD_NAMES, format_game


def test_offers_are_marked_unrefusable_exactly_when_the_engine_forced_them() -> None:
    """R4.5 (Broken Mirror), R4.6 (Black Pearl), R8 (Diplomat): the OFFER event's last field
    says the receiver may not refuse, and why (OFFER_CARD, OFFER_DIPLOMAT); the trace must say so for those offers and no others
    (it once keyed the remark on the card number, marking every offer of card 1, a Key)."""
    cfg = GameConfig(5, "full", ("smart",))
    forced_kinds: set[int] = set()
    plain_key_offer = False
    for game in range(12):
        r = play_game(cfg, 7, game)
        offers = r.events[r.events[:, 0] == EV.OFFER]
        lines = [ln for ln in format_game(r, reason_row_text).splitlines() if re.search(r" offers .* to seat \d", ln)
                 and not ln.lstrip().startswith("[")]
        assert len(lines) == len(offers)
        for row, line in zip(offers, lines, strict=True):
            card, must = int(row[4]), int(row[5])
            assert f"offers {CARD_NAMES[card]} to seat {int(row[3])}" in line
            assert line.endswith("(it cannot be refused).") == (must != OFFER_FREE), line
            # why: the card (Pearl, Mirror; known only to the two traders) or the Diplomat (public)
            assert (must == OFFER_CARD) == (CARD_KIND_LIST[card] in (IK.PEARL, IK.MIRROR) and must != OFFER_DIPLOMAT)
            if must:
                forced_kinds.add(CARD_KIND_LIST[card])
            elif CARD_KIND_LIST[card] == IK.KEY:
                plain_key_offer = True
    assert IK.PEARL in forced_kinds and plain_key_offer


def _trace_lines(r) -> list[str]:
    """The trace's own lines (the bots' bracketed reasons left out)."""
    return [ln.strip() for ln in format_game(r, reason_row_text).splitlines() if not ln.lstrip().startswith("[")]


def test_R8_hypnotist_line_names_the_seat_and_voids_only_a_support_given() -> None:
    """R5.4 / R8 Hypnotist (ruling 001): the named seat's support is void and it may play no
    support cards. The trace once said "voids seat 3's support" for a seat that gave none
    (seed 2, turn 2 of `-n 4 -i basic -b random`); voiding is the separate VOID line's job."""
    seen = {True: 0, False: 0}  # named seat had supported / had not
    for seed in (2, 3):
        for game in range(30):
            r = play_game(GameConfig(4, "basic", ("random",)), seed, game)
            ev = r.events
            lines = _trace_lines(r)
            hyp_lines = [ln for ln in lines if ln.startswith("Hypnotist:")]
            hyps = [i for i in range(len(ev)) if ev[i, 0] == EV.HYPNO]
            assert len(hyp_lines) == len(hyps)
            for i, line in zip(hyps, hyp_lines, strict=True):
                att, named = int(ev[i, 2]), int(ev[i, 3])
                assert "voids" not in line, line
                assert line.startswith(f"Hypnotist: seat {att} names seat {named}"), line
                assert "no support cards" in line
                supported = bool(ev[i + 1, 0] == EV.VOID and ev[i + 1, 2] == named)
                assert ("supports nobody" in line) == (not supported), line
                seen[supported] += 1
            voids = [ln for ln in lines if ln.endswith("is void (Hypnotist).")]
            assert len(voids) == int(((ev[:, 0] == EV.VOID) & (ev[:, 4] == 0)).sum())
    assert seen[True] and seen[False], seen


def test_beliefs_table_says_what_the_minority_column_is() -> None:
    """R7: bots judge a Drink of Power by their P(minority): hard evidence only (greedy), the
    lower of the hard-only and the all-evidence estimates (smart; bots.beliefs), while the
    smart bots' teammate columns weigh all evidence; the table must say which is which, and
    stay within 100 columns up to 9 players."""
    for n, seed in ((5, 3), (9, 2)):
        r = play_game(GameConfig(n, "full", ("smart",)), seed, 0)
        text = format_beliefs(r)
        lines = text.splitlines()
        assert "minority (Drink)" in lines[1]
        assert "hard evidence only" in text and "takes the lower of that and its estimate from all evidence" in text
        assert max(len(ln) for ln in lines) <= 100, text
    # even N has no minority column and no legend for it
    assert "minority" not in format_beliefs(play_game(GameConfig(4, "full", ("smart",)), 2, 0))


def test_beliefs_rows_of_seats_without_beliefs_show_no_numbers() -> None:
    """random and first bots hold no beliefs (bots.params BOT_NAMES): their rows show none;
    greedy seats keep their hard-evidence numbers, smart seats their full beliefs."""
    bots = ("smart", "random", "greedy", "first", "random")
    r = play_game(GameConfig(5, "full", bots), 2, 0)
    rows = format_beliefs(r).splitlines()[2:2 + len(bots)]
    for s, (bot, row) in enumerate(zip(bots, rows, strict=True)):
        assert row.split()[:2] == [str(s), bot], row
        cells = row.split(maxsplit=3)[3]
        if bot in ("random", "first"):
            assert "no beliefs" in cells and not re.search(r"\d", cells), row
        else:
            assert re.search(r"\d+\*?\s", cells) and "%" in cells, row


def test_R8_duelist_line_says_supports_and_support_bonuses_are_void() -> None:
    """R8 Duelist (R5 play-order ruling): every support is void, even declared ones, with the
    supporters' bonuses (Casting Knives, Whip, Bodyguard), and +1 for the Duelist. The trace
    must say so, naming each voided bonus, so the strength line adds up (seed 28 turn 11 of
    `-n 6 -i full -b smart` once showed "Bodyguard: +1 for the defender" then "2 against 1")."""
    voided_bonus = 0
    for game in range(40):
        r = play_game(GameConfig(6, "full", ("smart",)), 28, game)
        ev = r.events
        lines = _trace_lines(r)
        duel_idx = [i for i, ln in enumerate(lines) if " plays the Duelist: " in ln]
        fights = []  # per Duelist play: supporters' bonus texts, result strengths
        bonus: list[str] = []
        for row in ev:
            typ = int(row[0])
            if typ == EV.ATTACK:
                bonus = []
            elif typ == EV.BONUS and int(row[3]) in (SRC.KNIVES, SRC.WHIP, SRC.BODYGUARD):
                bonus.append(f"seat {int(row[2])}'s {SRC_LABELS[int(row[3])]}")
            elif typ == EV.BONUS and int(row[3]) == SRC.DUELIST:
                fights.append([bonus, None])
            elif typ == EV.RESULT and fights and fights[-1][1] is None:
                fights[-1][1] = (int(row[2]), int(row[3]))
        assert len(duel_idx) == len(fights)
        for i, (texts, (att, de)) in zip(duel_idx, fights, strict=True):
            assert "every support (and support card) in this fight is void" in lines[i]
            own = next(j for j in (i + 1, i + 2) if lines[j].startswith("Only the fighters' own cards"))
            void_line, own_line = lines[i + 1], lines[own]
            assert (own == i + 2) == void_line.startswith("Void: ")  # no Void line when nobody supported
            for t in texts:
                assert t in void_line, (t, void_line)
                voided_bonus += 1
            assert own_line.endswith(f"attack {att}, defence {de}."), own_line
            strength = next(ln for ln in lines[own + 1:] if ln.startswith("Strength "))  # after a Ring/Mixer
            assert strength.startswith(f"Strength {att} (attack) against {de} (defence)")
    assert voided_bonus > 0


def test_R6_2_declaration_shows_named_players_and_why_it_failed() -> None:
    """R6.2: each named player reveals association and items; R6.3/R6.4/R7: the trace says why
    a declaration failed (a named player of the other team, one holding no victory item, too
    few items, a Drink of Power while not the minority), with the engine's count of items."""
    causes: set[str] = set()
    for n, bots in ((4, ("random",)), (5, ("random",)), (5, ("smart",))):
        for game in range(60):
            r = play_game(GameConfig(n, "full", bots), 1, game)
            rec = r.record
            if rec[REC.DECL_KIND] not in (DK.TEAM, DK.DRINK):
                continue
            teams = [int(rec[REC.TEAM0 + p]) for p in range(n)]
            decl = r.events[r.events[:, 0] == EV.DECLARE][0]
            res = r.events[r.events[:, 0] == EV.DECL_RESULT][0]
            p, kind, named, counted = int(decl[2]), int(decl[3]), int(decl[4]), int(res[4])
            text = format_game(r, reason_row_text)
            body = text[text.index(" declares victory"):text.index("Final hands:")]
            items = "Key" if teams[p] == 0 else "Goblet"
            for q in range(n):
                if (named >> q) & 1:
                    assert f"seat {q} reveals: {TEAM_NAMES[teams[q]]}; items " in body
            shown = re.search(rf"show(?:s)? (?:only )?(\d+|no) {items}s?[ ,]", body)
            if rec[REC.DECL_OK]:
                assert "The declaration holds:" in body
                assert shown and shown.group(1) == str(counted), body
                continue
            assert "The declaration fails:" in body and "victory items counted" not in body, body
            wrong = [q for q in range(n) if (named >> q) & 1 and teams[q] != teams[p]]
            if wrong:
                causes.add("other team")
                assert f"to the {TEAM_NAMES[1 - teams[p]]}, not the {TEAM_NAMES[teams[p]]}" in body
            if re.search(rf"hold(?:s)? no {items}, and every named player", body):
                causes.add("no item")
            if kind == DK.DRINK and teams[p] != rec[REC.MINORITY]:
                causes.add("drink")
                assert "is not the minority, so the Drink of Power does not count" in body
            if counted < (2 if kind == DK.DRINK else 3):
                causes.add("too few")
                assert shown and shown.group(1) == (str(counted) if counted else "no"), body
    assert causes == {"other team", "no item", "drink", "too few"}, causes


def test_R4_7_a_forced_reject_says_why() -> None:
    """R4.7: a receiver whose only other item is the other Secret Bag must reject a Bag; the
    engine flags that REJECT (d = 1) and the trace says so, while a chosen reject stays plain."""
    from kutsch_sim.notation.run import run

    pos = """
    seat 0: Order Thug | Secret Bag (Key), Dagger
    seat 1: Brotherhood Doctor | Secret Bag (Goblet)
    seat 2: Order Priest | Key
    seat 3: Brotherhood Bodyguard | Goblet
    deck: Tome, Gloves
    """
    out = run(pos, ["0 trade 1 BagKey"], turns=1)
    rejects = [e for e in out.played() if e.name == "reject"]
    assert len(rejects) == 1 and rejects[0].d == 1
    forced = plain = 0
    for game in range(40):
        r = play_game(GameConfig(4, "basic", ("smart",)), 7, game)
        text = format_game(r, reason_row_text)
        rej = r.events[r.events[:, 0] == EV.REJECT]
        forced += int((rej[:, 5] == 1).sum())
        plain += int((rej[:, 5] == 0).sum())
        assert text.count("must reject it (R4.7") == int((rej[:, 5] == 1).sum())
        assert text.count("rejects it; the card goes back.") == int((rej[:, 5] == 0).sum())
    assert forced >= 1 and plain >= 1
