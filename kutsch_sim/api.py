"""Python API: check a configuration, then hand plain arrays to the numba kernels.

Nothing here runs per turn; it validates input (raising :class:`KutschError` with a
one-line message), builds the masks and parameter arrays, and labels results.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from . import __version__
from .bots.profiles import bot_arrays, check_bots
from .cards import canonical_item_set, cards_in_game, parse_item_set, stamped_cards
from .enums import MAX_PLAYERS, MIN_PLAYERS
from .errors import KutschError
from .rules_table import VARIANTS as VARIANTS  # R10; the table's rows, re-exported
from .rules_table import hand_limit_at, knob_value, parse_variants, settle_variants, start_items, variant_mask
from .spec import new_spec

RULES_VERSION = 3  # bump with every change to the rules the engine plays (2: the R10 variants; 3: the Clairvoyant at any point of its holder's turn, R3)
DEFAULT_TURN_CAP = 400
MAX_SEED = 2**63 - 1
LADDER_STREAM = "ladder"  # the stream label of a skill ladder's games (GameConfig.stream, kutsch_sim.sim.ladder)


def check_players(n: int) -> int:
    if not MIN_PLAYERS <= int(n) <= MAX_PLAYERS:
        raise KutschError(f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got {n}")
    return int(n)


def check_seed(seed: int) -> int:
    if not 0 <= int(seed) <= MAX_SEED:
        raise KutschError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed}")
    return int(seed)


@dataclass(frozen=True)
class GameConfig:
    """One configuration: player count, item set, bots per seat, rule switches.

    ``bots=()`` puts the `random` bot on every seat (the engine tests' default); the commands
    (play, simulate, bench, study) default to `smart`."""

    players: int
    item_set: str = "basic"
    bots: tuple[str, ...] = field(default=())
    drink: bool = True
    turn_cap: int = DEFAULT_TURN_CAP
    variants: tuple[str, ...] = ()
    stream: str = ""  # keys the random stream in place of the bots when set (:attr:`config_id`)

    def __post_init__(self) -> None:
        n = check_players(self.players)
        object.__setattr__(self, "item_set", canonical_item_set(self.item_set))
        bots = self.bots or ("random",)
        if len(bots) == 1:
            bots = bots * n
        if len(bots) != n:
            raise KutschError(f"--bots names {len(bots)} seats but the game has {n} players")
        object.__setattr__(self, "bots", check_bots(tuple(bots)))
        if not 1 <= int(self.turn_cap) <= 100_000:
            raise KutschError(f"turn cap must be between 1 and 100000, got {self.turn_cap}")
        variants = settle_variants(parse_variants(tuple(self.variants)), n)
        object.__setattr__(self, "variants", variants)
        cards = cards_in_game(parse_item_set(self.item_set), n, **self.deal)  # raises if the deal is impossible
        items = int(cards.sum()) - 2 * (3 - self.deal["victory_cards"])
        if n * (lim := hand_limit_at(variants, n)) < items:  # R2.4: the give-aways would never end
            raise KutschError(f"hand limit {lim} at {n} players leaves no room for the game's {items} items "
                              "once the deck is drawn (R2.4)")
        if any(c in self.stream for c in ",|"):  # would read as a bots label or another field
            raise KutschError(f"stream label {self.stream!r}: no comma or '|'")

    @property
    def deal(self) -> dict:
        """The house rules that change the deal (R2.3, R9), as :func:`cards.cards_in_game` takes them."""
        each, last = start_items(self.variants, self.players)
        return {"each": each, "last": last, "victory_cards": knob_value(self.variants, "victory-cards") or 3}

    @property
    def variant_label(self) -> str:
        return "+".join(self.variants) if self.variants else "base"

    @property
    def config_id(self) -> int:
        """A stable 32-bit id of the configuration; part of every game's random stream.

        The Drink of Power switch and the rule variants are left out (their places in the key
        always read 1 and ``base``), so game g with the Drink on and off (``--no-drink``), or under
        the base rules and a variant, starts from the same stream: the same deal (except the
        advanced 3-player game, which deals association cards its own way) and the same play
        until the switch first matters. Common random numbers: the report compares such runs
        game by game.

        With ``stream`` set, that label stands in the key where the bots would: configurations
        that differ only in their bots then deal the same games (the rungs of a skill ladder,
        :mod:`kutsch_sim.sim.ladder`). A bots label names a profile for each of at least 3
        seats, so it always holds a comma, which a stream label may not."""
        who = self.stream or ",".join(self.bots)
        key = f"{self.players}|{self.item_set}|{who}|1|{self.turn_cap}|base"
        return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "little")

    @property
    def variant_bits(self) -> int:
        """Bit mask of ``enums.Variant`` the kernels take."""
        return variant_mask(self.variants)

    def spec(self, seed: int, *, debug: bool = False, config_id: int | None = None, params=None,
             side: tuple | None = None) -> np.ndarray:
        """The game spec every kernel takes (:mod:`kutsch_sim.spec`): this configuration's
        players, cards, bots and their parameter rows, turn cap, Drink switch, variants and house
        rules, with the master ``seed``. ``config_id`` (default: :attr:`config_id`) keys the
        games' streams; ``params`` replaces the profiles' parameter rows (float64[10, N_BPARAM]
        or [10, N_ROLES * N_BPARAM], ``kutsch-sim tune``); ``side`` = (bot ids int8[2], rows
        float64[2, ...]) seats the profiles by side of the table once the teams are dealt."""
        in_game = cards_in_game(parse_item_set(self.item_set), self.players, **self.deal)
        bots, bparams = bot_arrays(self.bots)
        return new_spec(self.players, in_game, np.array(stamped_cards()), bots,
                        bparams if params is None else params, seed=check_seed(seed),
                        config_id=self.config_id if config_id is None else config_id, turn_cap=self.turn_cap,
                        drink=self.drink, variants=self.variant_bits, debug=debug, side=side)

    def describe(self) -> dict:
        return {
            "players": self.players,
            "item_set": self.item_set,
            "bots": list(self.bots),
            "drink": self.drink,
            "turn_cap": self.turn_cap,
            "variant": self.variant_label,
            "config_id": self.config_id,
            **({"stream": self.stream} if self.stream else {}),
            "rules_version": RULES_VERSION,
            "package_version": __version__,
        }


@dataclass
class GameResult:
    config: GameConfig
    seed: int
    game: int
    record: np.ndarray  # int32[N_REC]
    events: np.ndarray  # int32[n_events, 6]
    scalars: np.ndarray  # int64[N_SCALARS]
    beliefs: np.ndarray | None = None  # float64[10, 10]: P(p is on s's team) as seat s's bot believes
    minority_beliefs: np.ndarray | None = None  # float64[10]: P(s's team is the minority), odd N


def play_game(cfg: GameConfig, seed: int, game: int = 0, *, debug: bool = False,
              log_cap: int = 50_000) -> GameResult:
    """Play one game with its event log (for traces and tests)."""
    from .parallel_compile import parts_first
    from .search.games import traced_kernel

    seed = check_seed(seed)
    spec = cfg.spec(seed, debug=debug)
    kernel = traced_kernel(spec)
    with parts_first(kernel):  # a cold compile: its independent parts on two processes first
        rec, log, sc, bel, minor = kernel(spec, game, log_cap)
    return GameResult(cfg, seed, game, rec, log, sc, bel, minor)


def run_batch(cfg: GameConfig, seed: int, game0: int, n_games: int, *, debug: bool = False) -> np.ndarray:
    """Play games game0 .. game0+n_games-1 of ``cfg``; int32[n_games, N_REC] records.

    Uses numba's current thread count (``numba.set_num_threads``)."""
    from .play import play_batch
    from .search.games import batch_kernel

    spec = cfg.spec(seed, debug=debug)
    return play_batch(spec, game0, n_games, kernel=batch_kernel(spec))
