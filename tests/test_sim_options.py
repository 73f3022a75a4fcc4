"""Option parsing of ``simulate``/``bench`` and bad input: exit 2, one line, nothing written.

No game is played here (no numba compile needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kutsch_sim.cli.bench import bench_cmd
from kutsch_sim.cli.simulate import simulate_cmd
from kutsch_sim.errors import KutschError
from kutsch_sim.sim import store
from kutsch_sim.sim.options import (
    check_out,
    max_threads,
    parse_bots,
    parse_count,
    parse_items,
    parse_players,
    parse_thread_list,
    sim_options,
)

app = typer.Typer()
app.command("simulate")(simulate_cmd)
app.command("bench")(bench_cmd)


@pytest.mark.parametrize(
    "text, want",
    [
        ("6", (6,)),
        ("3-10", tuple(range(3, 11))),
        ("4,6,8", (4, 6, 8)),
        ("3-5,9", (3, 4, 5, 9)),
        (" 3 - 4 , 4,10", (3, 4, 10)),
    ],
)
def test_parse_players(text, want):
    assert parse_players(text) == want


@pytest.mark.parametrize("text", ["", "2", "11", "3-11", "6-4", "x", "3,,4", "3-", "1-3", "4.5"])
def test_parse_players_bad(text):
    with pytest.raises(KutschError, match="--players"):
        parse_players(text)


def test_parse_items_canonical_and_unique():
    assert parse_items("basic, full,basic+armor,Basic+Loge") == ("basic", "full", "basic+Loge")
    for bad in ("basic,,full", "fancy", "basic+Nothing", "basic-Key"):
        with pytest.raises(KutschError):
            parse_items(bad)


def test_parse_bots():
    assert parse_bots("random", (3, 4)) == ("random",)
    assert parse_bots("Random,first,random", (3,)) == ("random", "first", "random")
    with pytest.raises(KutschError, match="one player count only"):
        parse_bots("random,first,random", (3, 4))
    with pytest.raises(KutschError, match="lists 3 seats but --players is 4"):
        parse_bots("random,first,random", (4,))
    with pytest.raises(KutschError, match="unknown bot profile"):
        parse_bots("genius", (6,))
    with pytest.raises(KutschError, match="empty"):
        parse_bots("random,", (6,))


@pytest.mark.parametrize(
    "text, want", [("100", 100), ("1_000", 1000), ("1e6", 10**6), ("2M", 2 * 10**6), ("1.5k", 1500)]
)
def test_parse_count(text, want):
    assert parse_count(text, "--games") == want


@pytest.mark.parametrize("text", ["0", "-5", "abc", "1.5", "1e", "5x", ""])
def test_parse_count_bad(text):
    with pytest.raises(KutschError, match="--games"):
        parse_count(text, "--games")


def test_threads():
    assert parse_thread_list("1") == (1,)
    with pytest.raises(KutschError, match="--threads"):
        parse_thread_list(str(max_threads() + 1))
    with pytest.raises(KutschError, match="--threads"):
        parse_thread_list("0")


def test_check_out(tmp_path):
    assert check_out(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # checking writes nothing
    (tmp_path / "file").write_text("x")
    with pytest.raises(KutschError, match="not a directory"):
        check_out(tmp_path / "file")
    with pytest.raises(KutschError, match="not a directory"):
        check_out(tmp_path / "file" / "sub")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    for flags in ({}, {"force": True}, {"resume": True}):
        with pytest.raises(KutschError, match="holds no kutsch-sim results"):
            check_out(foreign, **flags)
    st = tmp_path / "store"
    st.mkdir()
    (st / store.MANIFEST).write_text("{}")
    with pytest.raises(KutschError, match="--resume .* or --force"):
        check_out(st)
    assert check_out(st, resume=True) == st
    assert check_out(st, force=True) == st
    with pytest.raises(KutschError, match="exclude each other"):
        check_out(st, resume=True, force=True)
    with pytest.raises(KutschError, match="required"):
        check_out(None)


def test_sim_options_configs(tmp_path):
    o = sim_options(players="4,6", items="basic,full", games="2k", out=tmp_path / "o", no_drink=True)
    assert [(c.players, c.item_set, c.drink) for c in o.configs()] == [
        (4, "basic", False),
        (4, "full", False),
        (6, "basic", False),
        (6, "full", False),
    ]
    assert o.games == 2000 and o.seed == 1 and o.chunk_size > 0


BAD = [
    (["--players", "2-4"], "--players"),
    (["--players", "6-4"], "backwards"),
    (["--items", "basic,basic+Wrong"], "unknown item"),
    (["--items", "wrong"], "malformed item set"),
    (["--items", "basic-Key"], "cannot be removed"),
    (["--games", "0"], "--games"),
    (["--games", "ten"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--bots", "genius"], "unknown bot profile"),
    (["--players", "4,5", "--bots", "random,random,random,random"], "one player count only"),
    (["--players", "5", "--bots", "random,random"], "lists 2 seats"),
    (["--threads", "999"], "--threads"),
    (["--chunk-size", "0"], "--chunk-size"),
    (["--chunk-size", "5000000"], "--chunk-size"),
    (["--games", "1M", "--chunk-size", "1"], "chunk files"),
    (["--turn-cap", "0"], "--turn-cap"),
    (["--turn-cap", "200000"], "turn cap"),
    (["--resume", "--force"], "exclude each other"),
    (["--scheduler", " "], "--scheduler"),
]


@pytest.mark.parametrize("args, needle", BAD)
def test_simulate_bad_input_exit_2_one_line_nothing_written(tmp_path, args, needle):
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["simulate", "--players", "6", "--games", "10", "--out", str(out), *args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kutsch-sim: error: ") and needle in lines[0], res.stderr
    assert "Traceback" not in res.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_simulate_requires_out(tmp_path):
    res = CliRunner().invoke(app, ["simulate", "--players", "6", "--games", "10"])
    assert res.exit_code == 2 and "--out DIR is required" in res.stderr


def test_simulate_refuses_non_empty_out(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / store.MANIFEST).write_text("{}")
    (out / "keep.txt").write_text("x")
    res = CliRunner().invoke(app, ["simulate", "--players", "6", "--games", "10", "--out", str(out)])
    assert res.exit_code == 2
    assert "already holds results; pass --resume" in res.stderr
    assert sorted(p.name for p in out.iterdir()) == [store.MANIFEST, "keep.txt"]
    assert (out / store.MANIFEST).read_text() == "{}"


@pytest.mark.parametrize(
    "args", [["--players", "1"], ["--threads", "0"], ["--games", "x"], ["--repeats", "0"]]
)
def test_bench_bad_input(args):
    res = CliRunner().invoke(app, ["bench", *args])
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("kutsch-sim: error: ")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_simulate_unwritable_out_is_one_line():
    """os.access says yes to root on /proc; the probe file in Run.open says no before any game."""
    res = CliRunner().invoke(app, ["simulate", "-n", "4", "-g", "10", "-o", "/proc/kutsch-sim-test"])
    assert res.exit_code == 2, res.output
    assert len(res.stderr.strip().splitlines()) == 1 and "cannot write the results" in res.stderr


def test_play_says_when_it_compiles(monkeypatch, tmp_path):
    """A first `play` compiles the one-game kernel for minutes: it says so on stderr, once,
    and says nothing when the kernel is cached (kernel_cached looks for it in numba's cache)."""
    import hashlib
    import os

    import kutsch_sim
    import kutsch_sim.play
    from kutsch_sim.cli import common
    from kutsch_sim.cli.app import app as cli_app

    monkeypatch.setattr(kutsch_sim, "JIT_CACHE_DIR", tmp_path)  # an empty cache folder
    assert not common.kernel_cached("play_one_nb") and not common.kernel_cached()
    other = tmp_path / ("kutsch_sim_" + "0" * 40)  # the same sources in another checkout: not ours
    other.mkdir()
    (other / "play.play_one_nb-169.py311.nbi").write_bytes(b"")
    assert not common.kernel_cached("play_one_nb")
    folder = os.path.dirname(os.path.abspath(kutsch_sim.play.__file__))
    ours = tmp_path / ("kutsch_sim_" + hashlib.sha1(folder.encode()).hexdigest())  # numba's folder for it
    ours.mkdir()
    (ours / "play.play_one_nb-169.py311.nbi").write_bytes(b"")
    assert common.kernel_cached("play_one_nb") and not common.kernel_cached()
    monkeypatch.setattr(common, "kernel_cached", lambda kernel="play_games_nb", source="play.py": False)
    res = CliRunner().invoke(cli_app, ["play", "-n", "3", "-s", "2"])
    assert res.exit_code == 0
    assert res.output.count("compiling the engine") == 1
    monkeypatch.setattr(common, "kernel_cached", lambda kernel="play_games_nb", source="play.py": True)
    res = CliRunner().invoke(cli_app, ["play", "-n", "3", "-s", "2"])
    assert res.exit_code == 0 and "compiling the engine" not in res.output
