"""Reference probabilities by trying every placement of mines: slow, obviously right, for tests only."""

from __future__ import annotations

from itertools import combinations, product

from solver.board import MINE_LIKE_CHARS, NUMBERS, UNKNOWN_CHARS, Board, neighbours


def brute_force(board: Board, density: float | None = None) -> dict[tuple[int, int], float] | None:
    """Mine probability per covered cell, or None when no placement fits."""
    unknown = [(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS]
    shown = sum(1 for _, _, ch in board.cells() if ch in MINE_LIKE_CHARS)
    numbers = [
        (int(ch), list(neighbours(board.rows, board.cols, r, c))) for r, c, ch in board.cells() if ch in NUMBERS
    ]
    index = {cell: k for k, cell in enumerate(unknown)}

    def fits(mines: set[tuple[int, int]]) -> bool:
        for value, nbrs in numbers:
            count = sum(1 for cell in nbrs if cell in mines or board[cell] in MINE_LIKE_CHARS)
            if count != value:
                return False
        return True

    weights = [0.0] * len(unknown)
    total = 0.0
    if board.mines is not None:
        placements = combinations(unknown, board.mines - shown) if board.mines - shown >= 0 else []
        candidates = ((set(p), 1.0) for p in placements)
    else:
        candidates = (
            ({cell for cell, bit in zip(unknown, bitsel) if bit}, density ** sum(bitsel) * (1 - density) ** (len(unknown) - sum(bitsel)))
            for bitsel in product((0, 1), repeat=len(unknown))
        )
    for mines, weight in candidates:
        if fits(mines):
            total += weight
            for cell in mines:
                weights[index[cell]] += weight
    if total == 0:
        return None
    return {cell: weights[k] / total for cell, k in index.items()}
