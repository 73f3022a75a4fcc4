"""The house rules (numeric knobs, rows of kutsch_sim.rules_table with bit 0; docs/rules.md,
House rules): at their defaults they play the base games bit for bit, every other value
changes games, each changes what its rule says, and bad spellings are refused in one line.

Card ids: Key 0-2, Goblet 3-5, BagKey 6, BagGoblet 7, Loge 20. DECL_RESULT events are
(ok, winner, victory items counted, bitmask of named seats).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from kutsch_sim import rules_table as rt
from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.enums import ORDER, SC
from kutsch_sim.errors import KutschError
from kutsch_sim.notation.position import Position
from kutsch_sim.notation.run import run

from _helpers_scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
SEED = 2026
GAMES = 40

BASE = """
seat 0: Order Thug | Key, Key, Dagger
seat 1: Brotherhood Doctor | Goblet, Gloves
seat 2: Order Priest | Whip
seat 3: Brotherhood Duelist | Goblet, Goblet
deck: Monocle
"""


def declared(out) -> tuple[int, int, int, int]:
    (r,) = out.of("decl_result")
    return r.a, r.b, r.c, r.d


def _golden():
    return load_script("golden.py", "golden")


def _at_default(n: int) -> tuple[str, ...]:
    """Every house rule named at its default at ``n`` players (hand-limit: R2.4's)."""
    out = []
    for s in rt.SWITCHES:
        if s.knob and n in s.players:
            out.append(f"{s.name}={rt.rule_hand_limit(n) if s.name == 'hand-limit' else s.default}")
    return tuple(out)


@pytest.mark.parametrize("n,items", [(3, "full"), (6, "full"), (7, "full"), (9, "basic")])
def test_every_knob_named_at_its_default_plays_the_golden_games(n: int, items: str) -> None:
    golden = _golden()
    old = json.loads((ROOT / "tests" / "golden" / "records.json").read_text())["sha256"]
    cfg = GameConfig(n, items, ("smart",), variants=_at_default(n))
    assert cfg.variants == () and cfg.variant_bits == 0 and cfg.variant_label == "base"
    rec, logs = golden.games(cfg, cfg.config_id)
    h = hashlib.sha256(np.ascontiguousarray(rec).tobytes())
    for log in logs:
        h.update(np.ascontiguousarray(log).tobytes())
    assert h.hexdigest() == old[golden.key(n, items, "smart", True, ())]


def _where_it_plays(name: str, value: int) -> tuple[int, str]:
    """The first count (5 first) and item set (full first) where ``name=value`` is a game."""
    row = rt.BY_NAME[name]
    for items in ("full", "basic"):
        for n in sorted(row.players, key=lambda n: (n != 5, n)):
            try:
                if GameConfig(n, items, variants=(f"{name}={value}",)).variants:
                    return n, items
            except KutschError:
                continue
    raise AssertionError(f"{name}={value} plays nowhere")


@pytest.mark.parametrize("name,value", [(s.name, v) for s in rt.SWITCHES if s.knob for v in s.values
                                        if v != s.default])
def test_every_other_value_changes_some_game(name: str, value: int) -> None:
    n, items = _where_it_plays(name, value)
    base = run_batch(GameConfig(n, items, ("smart",)), SEED, 0, GAMES)
    other = run_batch(GameConfig(n, items, ("smart",), variants=(f"{name}={value}",)), SEED, 0, GAMES)
    assert (base != other).any(axis=1).sum() > 0, (name, value, n, items)


def test_the_mask_carries_each_knob_in_its_own_field() -> None:
    for s in rt.SWITCHES:
        if not s.knob:
            continue
        for v in s.values:
            names = rt.parse_variants(f"smuggling,{s.name}={v}")
            assert rt.variant_names(rt.variant_mask(names)) == names
            assert (rt.variant_mask(names) == 1) == (v == s.default)


# ------------------------------------------------------------------ team-items (R6.3)
def test_team_items_2_a_declaration_with_2_items_wins() -> None:
    assert declared(run(BASE, ["0 declare team"]))[:3] == (0, 1 - ORDER, 2)
    out = run(BASE + "variant team-items=2\n", ["0 declare team"])
    assert declared(out) == (1, ORDER, 2, 0) and out.winner == "order"
    assert out.state.sc[SC.TEAM_NEED] == 2


def test_team_items_4_three_keys_are_not_enough() -> None:
    pos = BASE.replace("seat 2: Order Priest | Whip", "seat 2: Order Priest | Key, Whip")
    assert declared(run(pos, ["0 declare team with 2"]))[:3] == (1, ORDER, 3)
    out = run(pos + "variant team-items=4\n", ["0 declare team with 2"])
    assert declared(out)[:3] == (0, 1 - ORDER, 3)


# ------------------------------------------------------------------ drink-items (R7)
DRINK = """
seat 0: Order Thug | Key, Dagger
seat 1: Brotherhood Doctor | Goblet, Goblet
seat 2: Order Priest | Whip
seat 3: Brotherhood Duelist | Gloves
seat 4: Brotherhood Bodyguard | Ring
deck: Monocle
drink
"""


def test_drink_items_2_one_key_and_the_drink_win() -> None:
    assert declared(run(DRINK, ["0 declare drink"]))[:3] == (0, 1 - ORDER, 1)
    out = run(DRINK + "variant drink-items=2\n", ["0 declare drink"])
    assert declared(out) == (1, ORDER, 1, 0) and out.winner == "order"
    majority = run(DRINK.replace("Goblet, Goblet", "Goblet, Knives") + "variant drink-items=2\nturn 1\n",
                   ["1 declare drink"])
    assert declared(majority)[:2] == (0, ORDER)  # R7: still the minority's only


def test_team_items_with_the_drink_the_drink_stands_for_its_share() -> None:
    pos = DRINK.replace("Key, Dagger", "Key, Key, Dagger")
    assert declared(run(pos + "variant team-items=4\n", ["0 declare drink"]))[:2] == (0, 1 - ORDER)
    out = run(pos + "variant team-items=4, drink-items=2\n", ["0 declare drink"])
    assert declared(out)[:3] == (1, ORDER, 2)


# ------------------------------------------------------------------ loge-items (R6.5)
LOGE = BASE.replace("Key, Key, Dagger", "Loge, Key, Goblet, Key#3").replace("Goblet, Goblet", "Goblet, Ring")


def test_loge_items_4_the_loge_needs_4() -> None:
    out = run(LOGE, ["0 declare loge"])
    assert declared(out)[:3] == (1, 2, 3) and out.winner == "solo"  # WIN.SOLO with 3 (R6.5)
    with pytest.raises(KutschError, match="'0 declare loge' is not a legal"):
        run(LOGE + "variant loge-items=4\n", ["0 declare loge"])
    four = LOGE.replace("Key#3", "Key#3, Goblet#3").replace("Goblet, Ring", "Ring") + "variant loge-items=4\n"
    assert declared(run(four, ["0 declare loge"]))[:3] == (1, 2, 4)


# ------------------------------------------------------------------ hand-limit (R2.4)
LIMIT = """
seat 0: Order Duelist | Key, Key, Whip
seat 1: Brotherhood Doctor | Goblet, Knives
seat 2: Order Priest | Key
seat 3: Brotherhood Clairvoyant | Goblet
deck: Tome, Monocle
"""


def test_hand_limit_3_a_fourth_item_is_given_away() -> None:
    out = run(LIMIT, ["0 attack 1"], turns=1)  # a tie: the attacker draws the Tome (R5.8)
    assert out.of("give") == [] and len(out.hand(0)) == 4 and out.state.sc[SC.HAND_LIMIT] == 6
    out = run(LIMIT + "variant hand-limit=3\n", ["0 attack 1", "0 give-away 2 Tome"], turns=1)
    assert [(e.a, e.b, e.c) for e in out.of("give")] == [(0, 2, 15)] and len(out.hand(0)) == 3
    with pytest.raises(KutschError, match="seat 0 holds 4 items, over the hand limit 3"):
        run(LIMIT.replace("Key, Key, Whip", "Key, Key, Whip, Dagger") + "variant hand-limit=3\n", [])
    with pytest.raises(KutschError, match="hand limit 3 at 5 players leaves no room for the game's 21 items"):
        GameConfig(5, "full", variants=("hand-limit=3",))  # all in hands once drawn: no end to the gifts
    assert Position.parse(LIMIT + "variant hand-limit=6\n").variants == ()  # R2.4's own at 4 players
    assert GameConfig(4, variants=("hand-limit=6",)).variants == ()  # R2.4's own: not named
    assert GameConfig(5, variants=("hand-limit=6",)).variant_label == "hand-limit=6"


# ------------------------------------------------------------------ smaller-told (R2.2)
def _dealt(cfg: GameConfig, game: int = 0):
    """The state right after the R2 set-up of game ``game`` of ``cfg`` (debug on)."""
    from kutsch_sim.engine.state import as_record, new_state
    from kutsch_sim.play import init_game_nb

    st = new_state(4096, np.zeros((0, 3), np.int32))
    init_game_nb(st, as_record(cfg.spec(SEED, debug=True)), game)
    assert st.sc[SC.ERROR] == 0
    return st


@pytest.mark.parametrize("n", [5, 7])
def test_smaller_told_shows_the_box_card_to_the_smaller_team(n: int) -> None:
    from kutsch_sim.enums import EV

    for g in range(6):
        base = _dealt(GameConfig(n, "full", ("smart",)), g)
        st = _dealt(GameConfig(n, "full", ("smart",), variants=("smaller-told=1",)), g)
        small = [p for p in range(n) if st.assoc[p] == st.sc[SC.MINORITY]]
        (row,) = [r for r in st.log[: st.sc[SC.N_EVENTS]] if r[0] == EV.LEFTOVER]
        assert row[2] == st.sc[SC.LEFTOVER] and row[3] == sum(1 << p for p in small) and len(small) == n // 2
        assert (base.assoc == st.assoc).all()  # the same deal
        assert list(base.mem.bel_told[:n]) == [-1] * n
        assert [int(st.mem.bel_told[p]) for p in range(n)] == [int(p in small) for p in range(n)]
        assert [st.mem.bel_minor[p] for p in range(n)] == [float(p in small) for p in range(n)]


# ------------------------------------------------------------------ start-items (R2.3)
@pytest.mark.parametrize("each", [1, 2, 3])
def test_start_items_at_3_players(each: int) -> None:
    from kutsch_sim.cards_nb import C_BAG_GOBLET, C_BAG_KEY
    from kutsch_sim.enums import LOC_DECK

    for g in range(5):
        st = _dealt(GameConfig(3, "basic", variants=(f"start-items={each}",)), g)
        assert [int(st.hand_n[p]) for p in range(3)] == [each] * 3
        assert st.loc[C_BAG_KEY] < 3 and st.loc[C_BAG_GOBLET] < 3
        assert int((st.loc == LOC_DECK).sum()) == st.sc[SC.DECK_N] == 13 - (3 * each - 2)  # R2.3: 13 at 3 players
    with pytest.raises(KutschError, match="house rule 'start-items=3' is the 3-player game only"):
        GameConfig(4, variants=("start-items=3",))


# ------------------------------------------------------------------ victory-cards (R9)
@pytest.mark.parametrize("n", [3, 6, 10])
def test_victory_cards_2_two_keys_and_two_goblets(n: int) -> None:
    from kutsch_sim.enums import LOC_OUT

    for g in range(5):
        base = _dealt(GameConfig(n, "full"), g)
        st = _dealt(GameConfig(n, "full", variants=("victory-cards=2",)), g)
        assert st.loc[2] == LOC_OUT and st.loc[5] == LOC_OUT  # Key#3, Goblet#3
        assert all(st.loc[c] != LOC_OUT for c in (0, 1, 3, 4, 6, 7))
        assert int((st.loc != LOC_OUT).sum()) == int((base.loc != LOC_OUT).sum()) - 2
        assert st.sc[SC.VICTORY_CARDS] == 2 and [int(h) for h in st.hand_n[:n]] == [int(h) for h in base.hand_n[:n]]


# ------------------------------------------------------------------ last-seat-items (R2.3, R2.5)
@pytest.mark.parametrize("n,extra", [(3, 2), (5, 1), (10, 2)])
def test_last_seat_items_the_last_seat_starts_with_more(n: int, extra: int) -> None:
    for g in range(5):
        base = _dealt(GameConfig(n, "basic"), g)
        st = _dealt(GameConfig(n, "basic", variants=(f"last-seat-items={extra}",)), g)
        assert [int(h) for h in st.hand_n[:n]] == [int(h) for h in base.hand_n[:n - 1]] + [int(base.hand_n[n - 1]) + extra]
        assert st.sc[SC.DECK_N] == base.sc[SC.DECK_N] - extra
    with pytest.raises(KutschError, match="hand limit 3 is below a starting hand of 4 items at 3 players"):
        GameConfig(3, variants=("start-items=3", "last-seat-items=1", "hand-limit=3"))


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("text,message", [
    ("coffee=2", "unknown variant 'coffee=2'"),
    ("team-items=9", "house rule 'team-items' takes 2-4, got '9'"),
    ("team-items", "house rule 'team-items' needs a value: team-items=VALUE (2-4)"),
    ("team-items=x", "house rule 'team-items' takes 2-4, got 'x'"),
    ("smuggling=1", "variant 'smuggling' takes no value"),
    ("drink-items=2", "house rule 'drink-items=2' is played at 3, 5, 7, 9 players only (R7), got 4 players"),
    ("smaller-told=1,advanced-3p", "house rule 'smaller-told=1' is not played with advanced-3p"),
])
def test_bad_house_rules_are_refused_in_one_line(text: str, message: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kutsch_sim.cli.app import app

    n = "4" if "got 4 players" in message else "3" if "advanced-3p" in text else "5"
    with pytest.raises(KutschError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GameConfig(int(n), variants=(text,))
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["simulate", "-n", n, "-g", "10", "--variant", text, "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert message in res.output and len(res.output.strip().splitlines()) == 1, res.output
    assert not out.exists()


# ------------------------------------------------------------------ commands, results, report
def test_house_rules_in_the_results_the_manifest_the_trace_and_the_report(tmp_path: Path) -> None:
    import pandas as pd
    from typer.testing import CliRunner

    from kutsch_sim.cli.app import app
    from kutsch_sim.report.render import write_report
    from kutsch_sim.sim import store

    runner = CliRunner()
    res = runner.invoke(app, ["play", "-n", "5", "--variant", "loge-items=4,smuggling", "--bots", "smart"])
    assert res.exit_code == 0 and "variants smuggling, loge-items=4" in res.stdout, res.output
    out = tmp_path / "sim"
    res = runner.invoke(app, ["simulate", "-n", "5", "-i", "full", "-g", "20", "--bots", "greedy",
                              "--variant", "loge-items=4,smuggling,team-items=3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert set(df["variant"]) == {"smuggling+loge-items=4"}
    manifest = store.read_manifest(out)
    assert manifest["rules"]["variant"] == "smuggling+loge-items=4"
    assert manifest["options"]["variants"] == ["smuggling", "loge-items=4"]
    frames = []
    for v in [(), ("loge-items=4",)]:
        cfg = GameConfig(5, "full", ("random",), variants=v)
        frames.append(store.records_frame(cfg, 1, 0, run_batch(cfg, 1, 0, 200)))
    write_report(pd.concat(frames, ignore_index=True), tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "house rules in force (docs/rules.md, House rules): `loge-items=4`" in md
    assert "| loge-items=4 | 5 | full |" in md
