"""Win-rate and speed benchmark: many seeded simulated games played by ``policy.decide``.

Game k of a run with seed S uses the seed ``S * 1_000_003 + k``, so results do not depend on how the
games are split across worker processes. The policy runs without a clock (``time_limit=None``): only
work budgets bound it, so the same seed gives the same games on an idle or a loaded machine. Times are
CPU times of the process (``time.process_time``), not wall time.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from typing import Callable, Iterator

from .game import PLAYING, WON, Game
from .policy import FLAG, PolicyConfig, decide


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
class GameResult:
    won: bool
    guesses: int
    approximate: int  # decisions taken on an approximate (over-budget) analysis
    decision_seconds: tuple[float, ...]  # CPU seconds per decision
    seconds: float  # CPU seconds of the whole game


@dataclass(slots=True)
class BenchResult:
    config: BenchConfig
    games: int = 0
    wins: int = 0
    guesses: int = 0
    approximate: int = 0
    seconds: float = 0.0  # sum of per-game CPU time
    decision_seconds: list[float] = field(default_factory=list)

    def add(self, game: GameResult) -> None:
        self.games += 1
        self.wins += game.won
        self.guesses += game.guesses
        self.approximate += game.approximate
        self.seconds += game.seconds
        self.decision_seconds.extend(game.decision_seconds)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def percentile_ms(self, q: float) -> float:
        if not self.decision_seconds:
            return 0.0
        ordered = sorted(self.decision_seconds)
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
    start = time.process_time()
    while game.status == PLAYING:
        t0 = time.process_time()
        decision = decide(game.board(), policy)
        times.append(time.process_time() - t0)
        guesses += decision.guessed
        approximate += decision.approximate
        for move in decision.moves:
            if game.status != PLAYING:
                break
            if move.action == FLAG:
                game.flag(move.row, move.col)
            else:
                game.open(move.row, move.col)
    return GameResult(game.status == WON, guesses, approximate, tuple(times), time.process_time() - start)


def _play_chunk(args: tuple[BenchConfig, range]) -> list[GameResult]:
    config, indices = args
    return [play_game(config, i) for i in indices]


def run_games(config: BenchConfig, workers: int = 1, chunk: int = 20) -> Iterator[GameResult]:
    """Yield results as games finish (in chunks when several worker processes are used)."""
    if workers <= 1:
        for i in range(config.games):
            yield play_game(config, i)
        return
    chunks = [(config, range(s, min(s + chunk, config.games))) for s in range(0, config.games, chunk)]
    with get_context("spawn").Pool(workers) as pool:
        for results in pool.imap_unordered(_play_chunk, chunks):
            yield from results


def run_benchmark(
    config: BenchConfig, workers: int = 1, progress: Callable[[BenchResult], None] | None = None
) -> tuple[BenchResult, float]:
    """Play every game; returns the result and the wall-clock seconds of the whole run."""
    result = BenchResult(config)
    start = time.perf_counter()
    for game in run_games(config, workers):
        result.add(game)
        if progress:
            progress(result)
    return result, time.perf_counter() - start
