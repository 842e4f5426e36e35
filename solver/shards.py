"""Shards: a benchmark run cut into fixed ranges of game indices, and what each range gave.

A shard's games are fixed by the run's seed and the shard's range alone (game k is seeded from the run
seed and k), and the ranges depend only on the number of games and the shard size, never on how many
workers play them. So every shard, and its fingerprint, comes out the same in one process, in a pool of
local processes or on a cluster, and two runs can be compared shard by shard.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from .bench import GameResult, Slowest

# Games per shard: 100 expert games are 2-5 s of CPU, long next to the cost of sending a shard to a
# worker, short enough to keep two cores busy on a few hundred games and to show progress.
SHARD_SIZE = 100


@dataclass(frozen=True, slots=True)
class Shard:
    index: int
    start: int  # first game index
    stop: int  # one past the last

    @property
    def games(self) -> range:
        return range(self.start, self.stop)


def plan_shards(games: int, size: int = SHARD_SIZE) -> list[Shard]:
    """Games 0..games-1 cut into consecutive shards of ``size`` games (the last may be shorter)."""
    if size < 1:
        raise ValueError(f"shard size must be at least 1, got {size}")
    return [Shard(i, start, min(start + size, games)) for i, start in enumerate(range(0, games, size))]


@dataclass(frozen=True, slots=True)
class ShardResult:
    shard: Shard
    wins: int
    guesses: int
    approximate: int
    seconds: float  # CPU seconds of its games
    fingerprint: str  # of its games' outcomes (`fingerprint`): equal for the same games played alike
    decision_seconds: tuple[float, ...]  # CPU seconds per decision, every game
    slowest: Slowest | None = None  # the slowest of them, with its position

    @property
    def games(self) -> int:
        return self.shard.stop - self.shard.start

    @classmethod
    def of(cls, shard: Shard, results: Iterable[GameResult]) -> ShardResult:
        results = tuple(results)
        return cls(
            shard,
            wins=sum(game.won for game in results),
            guesses=sum(game.guesses for game in results),
            approximate=sum(game.approximate for game in results),
            seconds=sum(game.seconds for game in results),
            fingerprint=fingerprint(results),
            decision_seconds=tuple(t for game in results for t in game.decision_seconds),
            slowest=max((game.slowest for game in results if game.slowest is not None), key=lambda s: s.seconds, default=None),
        )


def fingerprint(results: Iterable[GameResult]) -> str:
    """16 hex digits that change when any game's outcome does: won or lost, guesses, approximate
    decisions and number of decisions, in game order. CPU times are left out (they vary run to run)."""
    digest = hashlib.sha256()
    for game in results:
        digest.update(f"{int(game.won)},{game.guesses},{game.approximate},{len(game.decision_seconds)};".encode())
    return digest.hexdigest()[:16]


def run_fingerprint(shards: Iterable[ShardResult]) -> str:
    """The fingerprint of a whole run: of its shards' fingerprints in shard order."""
    ordered = sorted(shards, key=lambda s: s.shard.index)
    return hashlib.sha256(";".join(s.fingerprint for s in ordered).encode()).hexdigest()[:16]
