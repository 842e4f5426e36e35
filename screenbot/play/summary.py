"""The figures printed at the end of ``screenbot play`` (pure)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .observer import ABORTED, LOST, UNCONFIRMED, WON, GameResult, StepTimings


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    wins: int
    losses: int
    aborted: int
    # Games the bot finished (every safe cell open, every mine flagged) with no win shown by the client.
    unconfirmed: int
    # How the client showed each win: {how: games}.
    wins_shown: dict[str, int]
    # Games in which a number the skin has no picture of showed (played on as an unread number).
    games_with_unread: int
    # The numbers finished games named and play then read (taught for the session only).
    numbers_named: str
    seconds_per_game_median: float | None
    seconds_per_won_game_median: float | None
    moves_per_second: float | None
    steps: int
    actions: int
    # Median milliseconds per step (one capture, read and solve, then that step's clicks) of the bot's
    # own work, and of waiting for the client to redraw.
    overhead_ms: dict[str, float | None]
    # Mean milliseconds of the bot's own work per move (per click on a cell): a step's capture, read
    # and solve are shared by all the moves it makes.
    per_move_ms: dict[str, float | None]
    # The same per move, as the median over all moves (each move carries its step's share).
    per_move_ms_median: dict[str, float | None]

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "aborted": self.aborted,
            "unconfirmed": self.unconfirmed,
            "wins_shown": self.wins_shown,
            "games_with_unread_numbers": self.games_with_unread,
            "numbers_named_in_play": self.numbers_named,
            "seconds_per_game_median": _round(self.seconds_per_game_median, 3),
            "seconds_per_won_game_median": _round(self.seconds_per_won_game_median, 3),
            "moves_per_second": _round(self.moves_per_second, 1),
            "steps": self.steps,
            "actions": self.actions,
            "per_step_ms_median": {k: _round(v, 3) for k, v in self.overhead_ms.items()},
            "per_move_ms_mean": {k: _round(v, 3) for k, v in self.per_move_ms.items()},
            "per_move_ms_median": {k: _round(v, 3) for k, v in self.per_move_ms_median.items()},
        }


def summarize(results: Sequence[GameResult], timings: Sequence[StepTimings]) -> Summary:
    finished = [r for r in results if r.outcome in (WON, LOST, UNCONFIRMED)]
    won = [r.seconds for r in results if r.outcome == WON]
    total_actions = sum(r.actions for r in finished)
    total_seconds = sum(r.seconds for r in finished)
    acting = [t for t in timings if t.act > 0]

    def median(values: list[float]) -> float | None:
        return statistics.median(values) if values else None

    overhead = {
        "capture": median([t.capture * 1000 for t in acting]),
        "read": median([t.read * 1000 for t in acting]),
        "solve": median([t.solve * 1000 for t in acting]),
        "act": median([t.act * 1000 for t in acting]),
        "total": median([t.overhead * 1000 for t in acting]),
        "client_redraw": median([t.redraw * 1000 for t in timings if t.redraw > 0]),
    }
    moves = sum(t.actions for t in acting)
    per_move = {
        part: (1000 * sum(getattr(t, part) for t in acting) / moves if moves else None)
        for part in ("capture", "read", "solve", "act")
    }
    per_move["total"] = 1000 * sum(t.overhead for t in acting) / moves if moves else None
    per_move_median = {
        part: _weighted_median([(1000 * _part(t, part) / t.actions, t.actions) for t in acting if t.actions])
        for part in ("capture", "read", "solve", "act", "total")
    }
    return Summary(
        games=len(results),
        wins=sum(r.outcome == WON for r in results),
        losses=sum(r.outcome == LOST for r in results),
        aborted=sum(r.outcome == ABORTED for r in results),
        unconfirmed=sum(r.outcome == UNCONFIRMED for r in results),
        wins_shown=dict(Counter(r.shown or "not said" for r in results if r.outcome == WON)),
        games_with_unread=sum(r.unread > 0 for r in results),
        numbers_named="".join(sorted({n for r in results for n in r.named})),
        seconds_per_game_median=median([r.seconds for r in finished]),
        seconds_per_won_game_median=median(won),
        moves_per_second=total_actions / total_seconds if total_seconds > 0 else None,
        steps=len(timings),
        actions=moves,
        overhead_ms=overhead,
        per_move_ms=per_move,
        per_move_ms_median=per_move_median,
    )


def format_summary(summary: Summary) -> str:
    def fmt(value: float | None, unit: str = "", digits: int = 2) -> str:
        return "n/a" if value is None else f"{value:.{digits}f}{unit}"

    o = summary.overhead_ms
    m = summary.per_move_ms
    unconfirmed = (f", {summary.unconfirmed} cleared with no win shown by the client (every safe cell open, every "
                   "mine flagged: not counted as won)") if summary.unconfirmed else ""
    lines = [
        f"games {summary.games}: {summary.wins} won, {summary.losses} lost, {summary.aborted} aborted{unconfirmed}",
        f"median seconds per game {fmt(summary.seconds_per_game_median, ' s')}"
        f" (won games {fmt(summary.seconds_per_won_game_median, ' s')}), "
        f"{fmt(summary.moves_per_second, ' moves/s', 1)}",
        f"per step (median ms, {summary.steps} steps): capture {fmt(o['capture'])}, read {fmt(o['read'])}, "
        f"solve {fmt(o['solve'])}, act {fmt(o['act'])}, bot total {fmt(o['total'])}; "
        f"client redraw {fmt(o['client_redraw'])}",
        f"per move (mean ms, {summary.actions} moves): capture {fmt(m['capture'])}, read {fmt(m['read'])}, "
        f"solve {fmt(m['solve'])}, act {fmt(m['act'])}, bot total {fmt(m['total'])} "
        f"(median {fmt(summary.per_move_ms_median['total'])})",
    ]
    if summary.wins_shown:
        lines.append("wins shown by the client: " + "; ".join(f"{n} {how}" for how, n in summary.wins_shown.items()))
    if summary.games_with_unread:
        named = f"; named at a game's end and read from then on: {', '.join(summary.numbers_named)}" if summary.numbers_named else ""
        lines.append(f"{summary.games_with_unread} game(s) showed a number the skin has no picture of, played as "
                     f"telling nothing{named} ('screenbot learn NAME --extend' keeps them)")
    return "\n".join(lines)


def _part(timings: StepTimings, part: str) -> float:
    return timings.overhead if part == "total" else getattr(timings, part)


def _weighted_median(pairs: list[tuple[float, int]]) -> float | None:
    """The median of values each repeated ``weight`` times (the lower middle one for an even count)."""
    total = sum(weight for _, weight in pairs)
    if not total:
        return None
    seen = 0
    for value, weight in sorted(pairs):
        seen += weight
        if 2 * seen >= total:
            return value
    return None  # unreachable: the weights add up to total


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
