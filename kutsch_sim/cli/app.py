"""The ``kutsch-sim`` command (typer): one module a command in this package, each thin:
parse, check, call the library, print.

Every bad input is a :class:`KutschError`: one line on stderr and exit code 2, before
any work starts.
"""

from __future__ import annotations

import sys

import typer

from ..errors import KutschError
from .bench import bench_cmd
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
                   ("report", report_cmd), ("bench", bench_cmd), ("tune", tune_cmd)):
    app.command(_name)(_cmd)


def main() -> None:
    try:
        app()
    except KutschError as e:  # raised inside a command after its own checks
        typer.echo(f"kutsch-sim: error: {e}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
