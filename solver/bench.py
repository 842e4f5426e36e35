"""Win-rate and speed benchmark: many seeded simulated games played by ``policy.decide``.

Game k of a run with seed S uses the seed ``S * 1_000_003 + k``, so results do not depend on where the
games are played. A run is cut into shards of fixed game ranges (``solver.shards``) that an executor
plays: none (this process), a pool of local processes, or a cluster's (any ``concurrent.futures``
executor). The policy runs without a clock (``time_limit=None``): only work budgets bound it, so the same
seed gives the same games on an idle or a loaded machine. Times are CPU times of the process that played
the game (``time.process_time``), not wall time.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from .board import format_board
from .game import PLAYING, WON, Game
from .policy import FLAG, PolicyConfig, decide
from .shards import SHARD_SIZE, Shard, ShardResult, plan_shards, run_fingerprint


@dataclass(frozen=True, slots=True)
class BenchConfig:
    rows: int
    cols: int
    mines: int
    rules: str = "safe"
    first: tuple[int, int] = (0, 0)
    games: int = 1000
    seed: int = 1
    policy: PolicyConfig = PolicyConfig(time_limit=None)


@dataclass(frozen=True, slots=True)
class Slowest:
    """A run's slowest decision and where it was taken: the game, the step and the board (text
    format, with its mine total), so that it can be looked at again with ``screenbot solve``."""

    seconds: float
    game: int
    step: int
    board: str

    def to_json(self) -> dict:
        return {"ms": round(1000 * self.seconds, 3), "game": self.game, "step": self.step, "board": self.board}


@dataclass(frozen=True, slots=True)
class GameResult:
    won: bool
    guesses: int
    approximate: int  # decisions taken on an approximate (over-budget) analysis
    decision_seconds: tuple[float, ...]  # CPU seconds per decision
    seconds: float  # CPU seconds of the whole game
    slowest: Slowest | None = None  # its slowest decision


@dataclass(slots=True)
class BenchResult:
    config: BenchConfig
    games: int = 0
    wins: int = 0
    guesses: int = 0
    approximate: int = 0
    seconds: float = 0.0  # sum of per-game CPU time
    shards: list[ShardResult] = field(default_factory=list)  # in index order once the run is over

    def add(self, shard: ShardResult) -> None:
        self.games += shard.games
        self.wins += shard.wins
        self.guesses += shard.guesses
        self.approximate += shard.approximate
        self.seconds += shard.seconds
        self.shards.append(shard)

    @property
    def fingerprint(self) -> str:
        return run_fingerprint(self.shards)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def slowest(self) -> Slowest | None:
        found = [shard.slowest for shard in self.shards if shard.slowest is not None]
        return max(found, key=lambda s: s.seconds) if found else None

    def percentile_ms(self, q: float) -> float:
        ordered = sorted(t for shard in self.shards for t in shard.decision_seconds)
        if not ordered:
            return 0.0
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(config: BenchConfig, index: int) -> GameResult:
    game = Game(config.rows, config.cols, config.mines, rules=config.rules, seed=config.seed * 1_000_003 + index)
    policy = replace(config.policy, first_click=config.first)
    guesses = approximate = 0
    times = []
    slowest_step, slowest_board = -1, None  # written out once the game is over, off the clock
    start = time.process_time()
    while game.status == PLAYING:
        board = game.board()
        t0 = time.process_time()
        decision = decide(board, policy)
        times.append(time.process_time() - t0)
        if slowest_board is None or times[-1] > times[slowest_step]:
            slowest_step, slowest_board = len(times) - 1, board
        guesses += decision.guessed
        approximate += decision.approximate
        for move in decision.moves:
            if game.status != PLAYING:
                break
            if move.action == FLAG:
                game.flag(move.row, move.col)
            else:
                game.open(move.row, move.col)
    seconds = time.process_time() - start
    slowest = None if slowest_board is None else Slowest(times[slowest_step], index, slowest_step, format_board(slowest_board))
    return GameResult(game.status == WON, guesses, approximate, tuple(times), seconds, slowest)


def play_shard(config: BenchConfig, shard: Shard, on_game: Callable[[GameResult], None] | None = None) -> ShardResult:
    """Play the shard's games in this process; ``on_game`` hears of each as it ends."""

    def played() -> Iterator[GameResult]:
        for index in shard.games:
            game = play_game(config, index)
            if on_game:
                on_game(game)
            yield game

    return ShardResult.of(shard, played())


# Called with the games played so far and how many of them were won.
Progress = Callable[[int, int], None]


def run_shards(
    config: BenchConfig, shards: list[Shard], executor: Executor | None = None, slots: int = 1, progress: Progress | None = None
) -> Iterator[ShardResult]:
    """Yield each shard's result as it finishes. Without an executor the shards are played here, one
    after the other, and progress is told per game; with one, at most ``2 * slots`` shards are handed to
    it at once (``slots``: how many it plays at the same time), and progress is told per shard."""
    played = won = 0

    def tell(games: int, wins: int) -> None:
        nonlocal played, won
        played, won = played + games, won + wins
        if progress:
            progress(played, won)

    if executor is None:
        for shard in shards:
            yield play_shard(config, shard, lambda game: tell(1, game.won))
        return
    waiting = iter(shards)
    running: set[Future] = set()
    while True:
        for shard in waiting:
            running.add(executor.submit(play_shard, config, shard))
            if len(running) >= 2 * max(1, slots):
                break
        if not running:
            return
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            result = future.result()
            tell(result.games, result.wins)
            yield result


def run_benchmark(
    config: BenchConfig,
    shard_size: int = SHARD_SIZE,
    executor: Executor | None = None,
    slots: int = 1,
    progress: Progress | None = None,
) -> tuple[BenchResult, float]:
    """Play every game, shard by shard (``run_shards``); returns the result, its shards in index order,
    and the wall-clock seconds of the whole run."""
    result = BenchResult(config)
    start = time.perf_counter()
    for shard in run_shards(config, plan_shards(config.games, shard_size), executor, slots, progress):
        result.add(shard)
    result.shards.sort(key=lambda shard: shard.shard.index)
    return result, time.perf_counter() - start
