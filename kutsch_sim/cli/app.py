"""The ``kutsch-sim`` command (typer): one module a command in this package, each thin:
parse, check, call the library, print.

Every bad input is a :class:`KutschError`: one line on stderr and exit code 2, before
any work starts.
"""

from __future__ import annotations

import signal
import sys
import threading

import typer

from ..errors import KutschError
from .balance import balance_cmd
from .bench import bench_cmd
from .calibration import calibration_cmd
from .ladder import ladder_cmd
from .play import play_cmd
from .report import report_cmd
from .simulate import simulate_cmd
from .study import study_cmd
from .tune import tune_cmd

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Monte Carlo balance simulator for Die Kutschfahrt zur Teufelsburg.",
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Monte Carlo balance simulator for Die Kutschfahrt zur Teufelsburg."""


for _name, _cmd in (("play", play_cmd), ("simulate", simulate_cmd), ("study", study_cmd), ("ladder", ladder_cmd),
                   ("report", report_cmd), ("bench", bench_cmd), ("tune", tune_cmd),
                   ("calibration", calibration_cmd), ("balance", balance_cmd)):
    app.command(_name)(_cmd)


_INTERRUPTED = False


def _on_ctrl_c(signum, frame) -> None:
    global _INTERRUPTED
    _INTERRUPTED = True
    raise KeyboardInterrupt


def _quiet_after_ctrl_c(hook):
    """sys.unraisablehook that says nothing of a Ctrl-C swallowed inside a C callback."""

    def quiet(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)

    return quiet


def main() -> None:
    # A Ctrl-C can land inside a callback numba's compiler (llvmlite) makes from C, where Python
    # only prints and drops it; the compile then fails later with an error of its own. The
    # commands handle KeyboardInterrupt themselves (what is kept, exit 130); this catches the
    # other shape of the same Ctrl-C, so it too ends in one line.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_ctrl_c)
        sys.unraisablehook = _quiet_after_ctrl_c(sys.unraisablehook)
    try:
        app()
    except KutschError as e:  # raised inside a command after its own checks
        typer.echo(f"kutsch-sim: error: {e}", err=True)
        sys.exit(2)
    except Exception:
        if not _INTERRUPTED:
            raise
        typer.echo("kutsch-sim: interrupted (Ctrl-C); what was finished is kept", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
