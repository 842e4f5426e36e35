"""Choosing a cell to open when no cell is certainly safe."""

from __future__ import annotations

from dataclasses import dataclass

from .grid import neighbour_table
from .probability import Model


@dataclass(frozen=True, slots=True)
class GuessConfig:
    pass


def choose_guess(model: Model, config: GuessConfig) -> int:
    probabilities = model.probabilities
    system = model.system
    table = neighbour_table(system.rows, system.cols)
    unknown = system.unknown
    best = min(p for i, p in probabilities.items() if p != 1)

    def covered_neighbours(i: int) -> int:
        return sum(1 for j in table[i] if unknown >> j & 1)

    candidates = [i for i, p in probabilities.items() if p == best]
    return min(candidates, key=lambda i: (len(table[i]), covered_neighbours(i), i))
