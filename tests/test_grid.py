"""The bitmask helpers against their plain definitions, on random masks and boards of random sizes."""

from __future__ import annotations

import random

from solver.grid import bits, cell_shape, dilate, first_of_each_shape, neighbour_masks

from .seeds import REPLAY, SEED

import pytest

pytestmark = pytest.mark.unit

print(f"\ntests/test_grid.py: {REPLAY}")


def test_bits_lists_every_set_bit_lowest_first():
    rng = random.Random(SEED)
    masks = [0, 1, 1 << 479, (1 << 480) - 1] + [rng.getrandbits(rng.randint(1, 3000)) & rng.getrandbits(3000) for _ in range(500)]
    for mask in masks:
        assert bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1], f"seed {SEED}"


def test_first_of_each_shape_is_the_lowest_cell_of_each_cell_shape():
    rng = random.Random(SEED + 1)
    for _ in range(400):
        rows, cols = rng.randint(1, 20), rng.randint(1, 35)
        n = rows * cols
        unknown = rng.getrandbits(n) | (rng.getrandbits(n) if rng.random() < 0.5 else 0)
        cells = rng.getrandbits(n) & (unknown if rng.random() < 0.7 else -1)
        first: dict[tuple[int, int], int] = {}
        for i in bits(cells):
            first.setdefault(cell_shape(i, unknown, rows, cols), i)
        assert first_of_each_shape(cells, unknown, rows, cols) == sorted(first.values()), f"seed {SEED}, {rows}x{cols}"


def test_dilate_adds_every_neighbour():
    rng = random.Random(SEED + 2)
    for _ in range(200):
        rows, cols = rng.randint(1, 20), rng.randint(1, 35)
        mask = rng.getrandbits(rows * cols) & rng.getrandbits(rows * cols)
        around = neighbour_masks(rows, cols)
        expected = mask
        for i in bits(mask):
            expected |= around[i]
        assert dilate(mask, rows, cols) == expected, f"seed {SEED}, {rows}x{cols}"


def test_search_order_places_the_group_sharing_most_placed_constraints_next():
    from solver.enumeration import _search_order

    def plain(members, nconstraints):
        # The definition: next, the group in the most constraints already touched, then the one in the
        # most constraints, then the first; the heap of packed ints must give the same order.
        order, touched, left = [], 0, list(range(len(members)))
        if len(members) <= 2:
            return sorted(members, key=lambda m: -m[0].bit_count())
        while left:
            g = max(left, key=lambda h: ((members[h][0] & touched).bit_count(), members[h][0].bit_count(), -h))
            left.remove(g)
            order.append(members[g])
            touched |= members[g][0]
        return order

    rng = random.Random(SEED + 3)
    for _ in range(300):
        nconstraints = rng.randint(1, 70)
        sigs = list(dict.fromkeys(rng.getrandbits(nconstraints) or 1 for _ in range(rng.randint(1, 60))))
        members = [(sig, rng.getrandbits(40)) for sig in sigs]
        assert _search_order(members, nconstraints) == plain(members, nconstraints), f"seed {SEED}"
