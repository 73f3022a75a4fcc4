"""Running a position: play scripted decisions from a :class:`~kutsch_sim.notation.position.Position`.

:func:`run` builds the engine state (debug mode: invariants checked after every event),
plays with the engine's own turn function and returns an
:class:`~kutsch_sim.notation.outcome.Outcome`. A script is read turn by turn: a turn that
uses none of its lines ends it. ``stop_at`` stops the run right before a decision inside a
turn. See ``docs/positions.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine.decide import StopAtDecision
from ..enums import DEC, DECISION_LABELS, ERR, PAUSE, SC, WIN
from ..errors import KutschError
from .names import DEFAULT_LOG_CAP
from .outcome import FORCED_RULES, Outcome, decode_events
from .position import Position
from .script import compile_script_lines, parse_stop, script_lines


def run(position: Position | str, script: Sequence[str] | str | np.ndarray = (), turns: int | None = None, *,
        stop_at: str | None = None, bots: str | Sequence[str] = "first", log_cap: int = DEFAULT_LOG_CAP,
        strict: bool = True) -> Outcome:
    """Play ``position`` with ``script`` for ``turns`` turns (None: to the end of the game).

    ``position``: a :class:`Position` or its text. ``script``: lines of
    :mod:`kutsch_sim.notation.script` notation (a list, or one string with a line each), or
    int32[S, 3] rows. The script is read turn by turn from the position's turn: a turn that
    uses none of its lines ends it (the bots play on). ``stop_at`` (``"[SEAT] DECISION"``,
    e.g. ``"1 accept"``, ``"play"``, ``"any"``): once every script line is used, stop right
    before the first such decision, even one the rules take (``outcome.pending``).

    ``strict`` (default) raises :class:`KutschError` naming the script line that is illegal,
    that gives the other answer to a decision the rules force, that is for the wrong seat or
    is never used, and when ``stop_at`` never comes; pass ``strict=False`` to inspect such
    outcomes (``outcome.error``, ``outcome.script_used``, ``outcome.pending``).
    """
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int | np.integer) or turns < 0):
        raise KutschError(f"turns must be None or a whole number >= 0, got {turns!r}")
    if isinstance(position, str):
        position = Position.parse(position)
    if isinstance(script, np.ndarray):
        rows = np.ascontiguousarray(script, dtype=np.int32).reshape(-1, 3)
        lines = [" ".join(str(v) for v in r) for r in rows.tolist()]
        origin = list(range(len(rows)))
    else:
        rows, origin = compile_script_lines(script, position)
        lines = script_lines(script)
    stop = None if stop_at is None else parse_stop(stop_at, position)
    st = position.to_state(rows, bots=bots, log_cap=log_cap)
    gap = _play(st, turns, stop, play_on=not strict)
    out = Outcome(position, st, decode_events(st), len(rows))
    if strict:
        _check_script(out, rows, origin, lines, turns, bots, gap)
        if stop is not None and out.pending is None:
            raise KutschError(f"stop_at {stop_at!r}: {_nothing_came(stop, turns, gap)} after the script's last line")
    return out


def play_turns(st, turns: int | None) -> None:
    """Advance an engine state by ``turns`` turns (None: to the end), as ``play_nb`` does."""
    from ..engine.game import fill_record_nb, play_nb, play_turn_nb
    from ..engine.invariants import check_nb

    if turns is None:
        play_nb(st)
        return
    sc = st.sc
    for _ in range(turns):  # mirrors the loop of play_nb (tests/test_position.py checks they agree)
        if sc[SC.OVER] or sc[SC.TURN] >= sc[SC.TURN_CAP]:
            break
        play_turn_nb(st)
        sc[SC.TURN] += 1
        if sc[SC.DEBUG] == 1:
            check_nb(st, True)
        if sc[SC.ERROR] != ERR.OK:
            sc[SC.WINNER] = WIN.ERROR
            sc[SC.OVER] = 1
            break
        if sc[SC.OVER] == 0:
            sc[SC.ACTIVE] = (sc[SC.ACTIVE] + 1) % sc[SC.N]
    if sc[SC.OVER] == 0 and sc[SC.TURN] >= sc[SC.TURN_CAP]:
        play_nb(st)  # records the timeout exactly as play_nb does
    fill_record_nb(st)


def _play(st, turns: int | None, stop: tuple[int, int] | None, *, play_on: bool) -> int:
    """Play the script turn by turn, then on to ``turns`` (None: the end); stop before the
    decision ``stop`` (seat or -1, kind or -1) once the script is used. Returns the turn that
    used no script line while lines were left (-1 if none): the script ends there, and the
    game goes on only if ``play_on``."""
    sc = st.sc
    if stop is not None:
        sc[SC.PAUSE] = PAUSE.ARMED
        sc[SC.PAUSE_SEAT], sc[SC.PAUSE_KIND] = stop
    gap = -1
    played = 0
    try:
        while sc[SC.SCRIPT_POS] < sc[SC.N_SCRIPT] and not sc[SC.OVER] and (turns is None or played < turns):
            used = int(sc[SC.SCRIPT_POS])
            turn = int(sc[SC.TURN])
            play_turns(st, 1)
            played += 1
            if sc[SC.SCRIPT_POS] == used and not sc[SC.OVER]:
                gap = turn
                sc[SC.N_SCRIPT] = used  # the script ends here
                if not play_on:
                    return gap
                break
        play_turns(st, None if turns is None else turns - played)
    except StopAtDecision:
        pass  # the state is as it was right before the decision (outcome.pending)
    return gap


def _nothing_came(stop: tuple[int, int], turns: int | None, gap: int) -> str:
    seat, kind = stop
    what = "decision" if kind < 0 else f"{DECISION_LABELS[kind]} decision"
    who = "" if seat < 0 else f" of seat {seat}"
    if gap >= 0:
        when = f" by the end of turn {gap}, which used no script line and so ended the script"
    elif turns is not None:
        when = f" in {turns} turn{'s' if turns != 1 else ''}"
    else:
        when = " before the game ended"
    return f"no {what}{who} came up{when}"


def _check_script(out: Outcome, rows: np.ndarray, origin: list[int], lines: list[str], turns: int | None, bots,
                  gap: int) -> None:
    """Raise a one-line KutschError naming the first script line that was refused or not used."""
    st = out.state
    if st.sc[SC.ERROR] == ERR.SCRIPT:
        i = int(st.sc[SC.SCRIPT_BAD]) - 1
        j = origin[i]
        head = f"script line {j + 1} {lines[j].strip()!r}"
        why = FORCED_RULES.get(int(st.sc[SC.FORCED]))
        if why is None:
            raise KutschError(f"{head} is not a legal decision here")
        seat, value = int(rows[i, 0]), int(rows[i, 2])
        answer = "reject" if value == 1 else "accept"
        raise KutschError(f"{head}: the rules force seat {seat} to {answer} here ({why})")
    if out.script_used >= out.script_len:
        return
    i = out.script_used
    j = origin[i]
    head = f"script line {j + 1} {lines[j].strip()!r}"
    seat, kind = int(rows[i, 0]), int(rows[i, 1])
    # where did the decision go? replay the lines used, stopping at the next one of this kind
    budget = turns if gap < 0 else gap + 1
    probe = out.position.to_state(rows[:i], bots=bots, log_cap=0)
    _play(probe, budget, (-1, kind), play_on=True)
    never = f"{head} was never used: {_nothing_came((seat, kind), turns, gap)}"
    if probe.sc[SC.PAUSE] != PAUSE.STOPPED:
        raise KutschError(never)
    other, turn = int(probe.sc[SC.PAUSE_SEAT]), int(probe.sc[SC.TURN])
    if kind == DEC.ACTION:
        raise KutschError(f"{head} is for seat {seat}, but turn {turn} is seat {other}'s: script that turn first "
                          f"(e.g. '{other} pass')")
    raise KutschError(f"{never}; the next one was seat {other}'s (turn {turn})")
