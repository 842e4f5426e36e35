"""The fallback for a component too large to enumerate within its budget: an approximation of its
solution counts that never calls a valid board impossible and is flagged ``exact=False``."""

from __future__ import annotations

import math
import time

from .enumeration import Component, ComponentSolutions, Tilt

# The approximation's counts are integers like an enumeration's, scaled so the mine-count curve keeps
# about 18 significant digits at its peak; every count stays at least 1 so no feasible total is lost.
_APPROX_SCALE = float(1 << 60)
_MAX_LOG_ODDS = 40.0
# Densities of an approximation stay strictly inside (0, 1): it never makes a cell certain.
_TINY = math.nextafter(0.0, 1.0)
_NEAR_ONE = math.nextafter(1.0, 0.0)


def approximate(component: Component, deadline: float = math.inf, full_range: bool = False) -> ComponentSolutions:
    """Fallback for a component too large to enumerate within its budget (flagged ``exact=False``).

    Each cell of group g is taken as a mine independently with chance x_g, the maximum-entropy choice
    that meets every constraint on average (iterative scaling: each constraint in turn multiplies the
    odds of its groups by the factor that makes its expected count right). The component's mine count
    is then taken as normal around its mean, over mean +- 6 sd (``full_range``: over every count from 0
    to the component's size, used when that window does not fit the board's mine total); for each
    count m the densities are tilted so that they add up to m. No count gets zero weight and no
    density is 0 or 1, so an approximation can neither call a valid
    board impossible nor claim a cell is safe. Deterministic: sweeps stop on convergence, or at
    ``deadline``, never on a clock in benchmark runs (there the deadline is infinite).
    """
    sizes = [g.size for g in component.groups]
    ngroups = len(sizes)
    cells = sum(sizes)
    log_odds = [0.0] * ngroups
    for members, mines in component.constraints:
        capacity = sum(sizes[g] for g in members)
        start = math.log(max(mines, 0.5) / max(capacity - mines, 0.5))
        for g in members:
            log_odds[g] = start
    exp = math.exp
    for sweep in range(40):
        worst = 0.0
        for members, mines in component.constraints:
            # A few Newton steps on this constraint's common shift (sweeps repeat it anyway).
            for step in range(3):
                total = slope = 0.0
                for g in members:
                    p = 1.0 / (1.0 + exp(-log_odds[g]))
                    total += sizes[g] * p
                    slope += sizes[g] * p * (1.0 - p)
                error = total - mines
                if step == 0 and abs(error) > worst:
                    worst = abs(error)
                if abs(error) < 1e-7 or slope <= 1e-300:
                    break
                shift = max(-4.0, min(4.0, -error / slope))
                for g in members:
                    t = log_odds[g] + shift
                    log_odds[g] = t if -_MAX_LOG_ODDS < t < _MAX_LOG_ODDS else math.copysign(_MAX_LOG_ODDS, t)
        if worst < 1e-4 or time.perf_counter() > deadline:
            break
    x = [1.0 / (1.0 + exp(-t)) for t in log_odds]
    mean = sum(s * p for s, p in zip(sizes, x))
    variance = sum(s * p * (1 - p) for s, p in zip(sizes, x))
    sd = max(0.5, math.sqrt(variance))
    if full_range:
        low, high = 0, cells
    else:
        low, high = max(0, math.floor(mean - 6 * sd)), min(cells, math.ceil(mean + 6 * sd))
    counts: dict[int, int] = {}
    exceptions: dict[int, list[float]] = {}
    everyone = tuple(range(ngroups))
    slopes = [p * (1 - p) / variance if variance > 0 else 0.0 for p in x]
    # Densities tilted so they add up to m: to first order x_g + (m - mean) x_g (1 - x_g) / var, which
    # sums to m exactly; the exact tilt (Newton) only at counts where that leaves (0, 1). The first
    # order form stays inside for |m - mean| below these bounds:
    up = min((min((1 - p) / k, p / k) for p, k in zip(x, slopes) if k > 0), default=math.inf)
    shift = 0.0
    for m in range(low, high + 1):
        counts[m] = max(1, round(_APPROX_SCALE * math.exp(-((m - mean) ** 2) / (2 * sd * sd))))
        if abs(m - mean) * (1 + 1e-9) >= up:
            shift, _ = _fit(everyone, sizes, log_odds, m, shift)
            exceptions[m] = [
                min(_NEAR_ONE, max(_TINY, 1.0 / (1.0 + exp(-(t + shift))) if t + shift > -700 else 0.0))
                for t in log_odds
            ]
    tilt = Tilt(tuple(x), tuple(slopes), mean, exceptions)
    return ComponentSolutions(component, counts, {}, exact=False, tilt=tilt)


def _fit(members, sizes: list[int], log_odds: list[float], target: float, shift: float = 0.0) -> tuple[float, float]:
    """The common shift of the log-odds of ``members`` that makes their expected mines ``target``
    (Newton on a monotone function, clamped steps), and how far off the unshifted sum was."""
    low_t = min(log_odds[g] for g in members)
    high_t = max(log_odds[g] for g in members)
    capacity = sum(sizes[g] for g in members)
    goal = min(max(target, 1e-9), capacity - 1e-9)
    miss = 0.0
    for step in range(30):
        total = slope = 0.0
        for g in members:
            t = log_odds[g] + shift
            p = 1.0 / (1.0 + math.exp(-t)) if t > -700 else 0.0
            total += sizes[g] * p
            slope += sizes[g] * p * (1.0 - p)
        if step == 0:
            miss = total - target
        error = total - goal
        if abs(error) < 1e-9:
            break
        move = -error / slope if slope > 1e-300 else (-1.0 if error > 0 else 1.0) * 8
        shift += max(-8.0, min(8.0, move))
        if shift < -2 * _MAX_LOG_ODDS - high_t or shift > 2 * _MAX_LOG_ODDS - low_t:
            break
    return shift, miss
