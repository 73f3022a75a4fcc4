"""``kutsch-sim play``: one game, turn by turn in plain English, with each bot's reasons."""

from __future__ import annotations

import typer

from ..errors import KutschError
from ..rules_table import variant_option_help
from . import common
from .common import fail


def play_cmd(
    players: int = typer.Option(6, "--players", "-n", help="Number of players, 3-10."),
    seed: int = typer.Option(1, "--seed", "-s", help="Master seed (0 or more)."),
    game: int = typer.Option(0, "--game", "-g", help="Game index within the seed (replays that game)."),
    items: str = typer.Option("basic", "--items", "-i", help="Item set: basic, full, basic+Tome, full-Loge ..."),
    bots: str = typer.Option(
        "smart", "--bots", "-b", help="One bot profile for all seats, or one per seat: smart, greedy, random."
    ),
    no_drink: bool = typer.Option(False, "--no-drink", help="Switch the Drink of Power off (odd counts)."),
    turn_cap: int = typer.Option(400, "--turn-cap", help="Stop a game after this many turns (a timeout)."),
    ladder: bool = typer.Option(False, "--ladder", help="Deal as `kutsch-sim ladder` does (one random stream "
                                "for every rung): --game G replays game G of a ladder at the rung --bots names."),
    debug: bool = typer.Option(False, "--debug", help="Check every invariant after every event."),
    variant: list[str] = typer.Option(None, "--variant", help=variant_option_help()),
) -> None:
    """Play one game and print it turn by turn in plain English."""
    from ..api import LADDER_STREAM, GameConfig, check_seed, parse_variants, play_game
    from ..review.trace import format_game

    try:
        check_seed(seed)
        if game < 0:
            raise KutschError(f"game index must be 0 or more, got {game}")
        cfg = GameConfig(players, items, tuple(b for b in bots.split(",") if b.strip()), not no_drink, turn_cap,
                         parse_variants(variant), LADDER_STREAM if ladder else "")
    except KutschError as e:
        fail(str(e))
    from ..search.games import searching

    kernel = ("play_search_one_nb", "search/games.py") if searching(cfg.spec(0)) else ("play_one_nb", "play.py")
    if not common.kernel_cached(*kernel):
        typer.echo(common.COMPILING, err=True)
    result = play_game(cfg, seed, game, debug=debug)
    from ..bots.reasons import reason_row_text
    from ..review.beliefs import format_beliefs

    typer.echo(format_game(result, reason_row_text))
    if result.beliefs is not None and any(b != "random" for b in cfg.bots):
        typer.echo("")
        typer.echo(format_beliefs(result))
    if result.record[7] != 0:
        fail(f"engine invariant broken (error code {result.record[7]}); please report seed {seed} game {game}")
