"""Combining the components' solution counts into probabilities (``probability.solve_system``'s step 5).

Counts can pass 1e308 on big boards, so they are combined as floats scaled by a power of e kept aside
(a "scaled vector": values with max 1 and the log of the factor). Whether a probability is exactly 0 or
1 is decided separately, on the supports (which mine counts are possible at all), held as int bitmasks:
that part is exact whatever the size of the numbers.
"""

from __future__ import annotations

import math
import time
from typing import cast

from .constraints import ConstraintSystem, Deduction
from .enumeration import ComponentSolutions, OutOfTime
from .grid import bit_length, bits, popcount

_NEG_INF = -math.inf
_TINY = math.nextafter(0.0, 1.0)
_NEAR_ONE = math.nextafter(1.0, 0.0)
# The largest x whose exp(x) a float holds comfortably (exp(709.78) overflows).
_LARGEST_EXP = 700.0


def _log(n: int) -> float:
    return math.log(n) if n > 0 else _NEG_INF


def _scaled(logs: list[float]) -> tuple[list[float], float]:
    top = max(logs)
    if top == _NEG_INF:
        return [0.0] * len(logs), 0.0
    return [math.exp(v - top) if v != _NEG_INF else 0.0 for v in logs], top


def _clamp_uncertain(p: float) -> float:
    """A probability known not to be 0 or 1 stays strictly inside, whatever the rounding."""
    return _TINY if p <= 0.0 else _NEAR_ONE if p >= 1.0 else p


class _Poly:
    """One component's counts per mine count, as exact supports and scaled floats.

    ``low``: the smallest mine count; ``values[k]``: count of ``low + k`` mines over the scale
    ``exp(log_scale)``; ``support``: bit m set when m mines are possible."""

    def __init__(self, found: ComponentSolutions) -> None:
        counts = found.counts
        self.low = low = min(counts)
        self.high = high = max(counts)
        logs = [_log(counts.get(m, 0)) for m in range(low, high + 1)]
        self.values, self.log_scale = _scaled(logs)
        self.support = 0
        for m, c in counts.items():
            if c:
                self.support |= 1 << m
        self.found = found
        self.sizes = [g.size for g in found.component.groups]

    def expected(self, weights: list[float]) -> list[float]:
        """Per group: sum over counts low + k of ``weights[k]`` times the group's expected mines given
        that count. Linear in the groups for an approximation (its densities are linear in m)."""
        found, sizes = self.found, self.sizes
        sums = [0.0] * len(sizes)
        tilt = found.tilt
        if tilt is not None:
            w0 = w1 = 0.0
            for k, w in enumerate(weights):
                m = self.low + k
                if not w:
                    continue
                if m in tilt.exceptions:
                    for g, d in enumerate(tilt.exceptions[m]):
                        sums[g] = sums[g] + w * d * sizes[g]
                else:
                    w0 += w
                    w1 += w * (m - tilt.mean)
            return [s + size * (p * w0 + k * w1) for s, size, p, k in zip(sums, sizes, tilt.base, tilt.slope)]
        for k, w in enumerate(weights):
            if w:
                m = self.low + k
                count = found.counts[m]
                for g, mines in enumerate(found.group_mines[m]):
                    if mines:
                        sums[g] = sums[g] + w * (mines / count)
        return sums

    def certain(self, counts: list[int]) -> tuple[list[bool], list[bool]]:
        """Per group, whether it holds no mine / only mines in every solution with one of ``counts``
        mines (exact integers; never for an approximation)."""
        ngroups = len(self.sizes)
        if self.found.tilt is not None:
            return [False] * ngroups, [False] * ngroups
        never = [True] * ngroups
        always = [True] * ngroups
        for m in counts:
            c = self.found.counts[m]
            for g, (mines, size) in enumerate(zip(self.found.group_mines[m], self.sizes)):
                if mines:
                    never[g] = False
                if mines != c * size:
                    always[g] = False
        return never, always


def _poly(found: ComponentSolutions) -> _Poly:
    view = found.combined_view
    if view is None:
        view = found.combined_view = _Poly(found)
    return cast(_Poly, view)


def _group_probabilities(poly: _Poly, sums: list[float], factor: float, never, always) -> list[float]:
    probs = []
    for g, size in enumerate(poly.sizes):
        if never[g]:
            probs.append(0.0)
        elif always[g]:
            probs.append(1.0)
        else:
            probs.append(_clamp_uncertain(sums[g] * factor / size))
    return probs


def _rescale(values: list[float], log_scale: float) -> tuple[list[float], float]:
    # A loop, not max(values, default=0.0), which compiled is a slow generic call (see native.py).
    top = 0.0
    for v in values:
        if v > top:
            top = v
    if top <= 0.0:
        return values, log_scale
    return [v / top for v in values], log_scale + math.log(top)


def _convolve_support(a: int, b: int) -> int:
    out = 0
    while b:
        low = b & -b
        out |= a << (bit_length(low) - 1)
        b ^= low
    return out


def combine_with_total(
    solutions: list[ComponentSolutions], floating: int, mines_left: int, deadline: float = math.inf
) -> tuple[list[list[float]], float, float] | None:
    """Probability per group of each component, of a floating cell, and the log of the number of
    placements; None when no choice of mines per component leaves a feasible count for the floating
    cells (the board contradicts its mine total).

    Forward-backward over the components: A_i[a] = weight of a mines in components before i (a
    convolution), B_i[u] = weight of everything from component i on given u mines before it, the
    floating cells taking the rest with weight C(floating, mines_left - total). Component i holding m
    mines then weighs sum_a A_i[a] * B_{i+1}[a + m]. Linear in the number of components (the pairwise
    products of all the others were quadratic, and slow on big boards). Vectors are kept only over the
    counts that are both reachable and completable, so the scaling never lets a feasible count vanish
    behind an impossible one. Quadratic in the spread of mine counts over all components, which on a
    board of thousands of cells can take a good part of a second: past ``deadline`` it raises
    ``OutOfTime`` (see ``combine_tilted``).
    """
    polys = [_poly(s) for s in solutions]
    n = len(polys)
    top = mines_left
    mask_all = (1 << (top + 1)) - 1
    # Frontier totals t the floating cells can complete: mines_left - floating <= t <= mines_left.
    end_support = mask_all & ~((1 << max(0, mines_left - floating)) - 1)
    # Exact supports first: which mine counts before component i are reachable / completable.
    reach = [1]
    for poly in polys:
        reach.append(_convolve_support(reach[-1], poly.support) & mask_all)
    complete = [0] * (n + 1)
    complete[n] = end_support
    for i in range(n - 1, -1, -1):
        supp = 0
        for m in bits(polys[i].support):
            supp |= complete[i + 1] >> m
        complete[i] = supp & mask_all
    if not complete[0] & 1:
        return None
    live = [reach[i] & complete[i] for i in range(n + 1)]
    # Vectors are windows over [lo[i], hi[i]], the live counts' range (narrow on big boards where
    # mines_left is in the thousands but each prefix of components spans a few hundred counts).
    lo = [bit_length(x & -x) - 1 for x in live]
    hi = [bit_length(x) - 1 for x in live]
    counts_at = [bits(x) for x in live]  # (bit tests on these long ints cost their length: list them once)
    fwd: list[tuple[list[float], float]] = [([1.0], 0.0)]
    for i, poly in enumerate(polys):
        if time.perf_counter() > deadline:
            raise OutOfTime
        values, scale = fwd[-1]
        base = lo[i + 1]
        size = hi[i + 1] - base + 1
        out = [0.0] * size
        terms = [(k + poly.low - base, c) for k, c in enumerate(poly.values) if c]
        for a in counts_at[i]:
            x = values[a - lo[i]]
            if x:
                for j, c in terms:
                    j += a
                    if 0 <= j < size:
                        out[j] = out[j] + x * c
        kept = [0.0] * size
        for t in counts_at[i + 1]:
            kept[t - base] = out[t - base]
        fwd.append(_rescale(kept, scale + poly.log_scale))
    lgf = math.lgamma(floating + 1)
    end_logs = [_NEG_INF] * (hi[n] - lo[n] + 1)
    for t in counts_at[n]:
        end_logs[t - lo[n]] = lgf - math.lgamma(mines_left - t + 1) - math.lgamma(floating - mines_left + t + 1)
    back: list[tuple[list[float], float]] = [([], 0.0)] * (n + 1)
    back[n] = _scaled(end_logs)
    for i in range(n - 1, -1, -1):
        if time.perf_counter() > deadline:
            raise OutOfTime
        poly = polys[i]
        nxt, nscale = back[i + 1]
        nlo, nhi = lo[i + 1], hi[i + 1]
        vals = [0.0] * (hi[i] - lo[i] + 1)
        terms = [(k + poly.low - nlo, c) for k, c in enumerate(poly.values) if c]
        span = nhi - nlo
        for u in counts_at[i]:
            acc = 0.0
            for j, c in terms:
                j += u
                if 0 <= j <= span:
                    acc += c * nxt[j]
            vals[u - lo[i]] = acc
        back[i] = _rescale(vals, nscale + poly.log_scale)
    total_raw, total_scale = back[0][0][0], back[0][1]
    log_total = math.log(total_raw) + total_scale if total_raw > 0 else _NEG_INF
    group_probs = []
    for i, poly in enumerate(polys):
        if time.perf_counter() > deadline:
            raise OutOfTime
        a_vals, a_scale = fwd[i]
        b_vals, b_scale = back[i + 1]
        before = [(a, a_vals[a - lo[i]]) for a in counts_at[i]]
        blo, bhi = lo[i + 1], hi[i + 1]
        weights = [0.0] * len(poly.values)
        feasible = []
        for k, c in enumerate(poly.values):
            m = poly.low + k
            if not poly.support >> m & 1 or not (live[i + 1] >> m) & live[i]:
                continue  # m mines here cannot be part of a board that meets the total
            feasible.append(m)
            rest = 0.0
            for a, x in before:
                if blo <= a + m <= bhi:
                    rest += x * b_vals[a + m - blo]
            weights[k] = c * rest
        log_factor = a_scale + b_scale + poly.log_scale - log_total
        if log_factor > _LARGEST_EXP:
            # Past what a float holds (a 200x200 board, a tenth of it open, gave exp(800)), where the
            # weights are as small: the scale goes into them first. Only then, so that every other
            # board gets the very same numbers as before.
            weights, log_factor = _rescale(weights, log_factor)
        factor = math.exp(log_factor) if log_total > _NEG_INF and any(weights) else 0.0
        never, always = poly.certain(feasible)
        group_probs.append(_group_probabilities(poly, poly.expected(weights), factor, never, always))
    floating_prob = 0.0
    if floating:
        lefts = {mines_left - t for t in counts_at[n]}
        if lefts == {0}:
            floating_prob = 0.0
        elif lefts == {floating}:
            floating_prob = 1.0
        else:
            a_vals, a_scale = fwd[n]
            e_vals, e_scale = back[n]
            expected = sum(
                (a_vals[t - lo[n]] * e_vals[t - lo[n]] * (mines_left - t) / floating for t in counts_at[n]), 0.0
            )
            log_factor = a_scale + e_scale - log_total
            if log_factor > _LARGEST_EXP:  # as above
                log_factor += math.log(expected) if expected > 0.0 else _NEG_INF
                expected = 1.0
            floating_prob = _clamp_uncertain(expected * math.exp(min(log_factor, _LARGEST_EXP)))
    return group_probs, floating_prob, log_total


def combine_tilted(
    solutions: list[ComponentSolutions], floating: int, mines_left: int
) -> tuple[list[list[float]], float, float]:
    """An approximation of ``combine_with_total`` in linear time, for a live decision out of time on a
    huge board: the total's coupling C(floating, mines_left - t) is replaced by independent mines with
    the one chance p that makes the expected number of mines equal mines_left (for thousands of cells
    the two agree closely). Cells certain within their own component stay certain."""
    polys = [_poly(s) for s in solutions]
    # Per component: (mine count, log of its count) for the counts that occur.
    terms = [
        [(poly.low + k, poly.log_scale + math.log(c)) for k, c in enumerate(poly.values) if c] for poly in polys
    ]
    low_t, high_t = -30.0, 30.0
    for _ in range(40):  # bisection on the log-odds of p: the expected total grows with p
        middle = (low_t + high_t) / 2
        expected = floating / (1.0 + math.exp(-middle))
        for options in terms:
            top = max(lc + m * middle for m, lc in options)
            weights = [(m, math.exp(lc + m * middle - top)) for m, lc in options]
            expected += sum((m * w for m, w in weights), 0.0) / sum((w for _, w in weights), 0.0)
        if expected > mines_left:
            high_t = middle
        else:
            low_t = middle
    p = 1.0 / (1.0 + math.exp(-(low_t + high_t) / 2))
    # Not unpacked into ``_``: compiled (solver/native.py), ``_`` is one variable of one type across
    # the function, its comprehensions included, where it holds mine counts.
    group_probs, _density, log_weight = combine_with_density(solutions, p, polys)
    return group_probs, _clamp_uncertain(p) if floating else 0.0, log_weight


def combine_with_density(
    solutions: list[ComponentSolutions], p: float, polys: list[_Poly] | None = None
) -> tuple[list[list[float]], float, float]:
    """Independent mines with chance p: each component normalises on its own; floating cells get p.

    In log space: p^m (1-p)^(n-m) underflows past about 1,900 cells."""
    group_probs = []
    log_weight = 0.0
    lp, lq = math.log(p), math.log1p(-p)
    for found, poly in zip(solutions, polys or [_poly(s) for s in solutions]):
        size = sum(poly.sizes)
        logs = [
            poly.log_scale + math.log(c) + (poly.low + k) * lp + (size - poly.low - k) * lq if c else _NEG_INF
            for k, c in enumerate(poly.values)
        ]
        weights, scale = _scaled(logs)
        total = sum(weights, 0.0)
        log_weight += scale + math.log(total)
        never, always = poly.certain([m for m in found.counts if found.counts[m]])
        group_probs.append(_group_probabilities(poly, poly.expected(weights), 1.0 / total, never, always))
    return group_probs, p, log_weight


def estimate_density(system: ConstraintSystem, deduction: Deduction, solutions, floating: int) -> float:
    covered = popcount(system.unknown) + system.flags
    if covered == 0:
        return 0.15
    p = 0.15
    polys = [_poly(s) for s in solutions]
    for _ in range(20):
        group_probs = combine_with_density(solutions, p, polys)[0]
        expected = system.flags + popcount(deduction.mines) + p * popcount(floating)
        for found, nums in zip(solutions, group_probs):
            expected += sum((n * g.size for n, g in zip(nums, found.component.groups)), 0.0)
        new = min(0.9, max(0.01, expected / covered))
        if abs(new - p) < 1e-6:
            break
        p = new
    return p
